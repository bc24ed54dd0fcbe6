"""MySQL error codes, their SQLSTATEs and message formats; the exceptions that carry them.

Rules:
- One table, `ERRORS`, maps a server error code to (symbol, SQLSTATE, message format). Codes,
  symbols, SQLSTATEs and message texts are MariaDB 10.11's / MySQL 8.0's (include/mysqld_error.h,
  sql/share/errmsg-utf8.txt); a code missing here falls back to SQLSTATE HY000 as both servers do.
- Every failure a client can cause is raised as `ServerError(code, *format_args)` and becomes one
  ERR packet on that client's connection and nothing else.
- `ProtocolViolation` is the one "the peer broke the wire protocol" error: the connection that
  sent it gets an ERR (when one can still be framed) and is closed; the server keeps serving.
This module imports nothing from the project.
"""

from __future__ import annotations

from typing import NamedTuple


class ErrorSpec(NamedTuple):
    symbol: str
    sqlstate: str
    message: str


ER_CON_COUNT_ERROR = 1040
ER_OUT_OF_RESOURCES = 1041
ER_BAD_HOST_ERROR = 1042
ER_HANDSHAKE_ERROR = 1043
ER_DBACCESS_DENIED_ERROR = 1044
ER_ACCESS_DENIED_ERROR = 1045
ER_NO_DB_ERROR = 1046
ER_UNKNOWN_COM_ERROR = 1047
ER_BAD_NULL_ERROR = 1048
ER_BAD_DB_ERROR = 1049
ER_TABLE_EXISTS_ERROR = 1050
ER_BAD_TABLE_ERROR = 1051
ER_NON_UNIQ_ERROR = 1052
ER_SERVER_SHUTDOWN = 1053
ER_BAD_FIELD_ERROR = 1054
ER_WRONG_VALUE_COUNT = 1058
ER_DUP_FIELDNAME = 1060
ER_DUP_KEYNAME = 1061
ER_DUP_ENTRY = 1062
ER_PARSE_ERROR = 1064
ER_EMPTY_QUERY = 1065
ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION = 1792
ER_NONUNIQ_TABLE = 1066
ER_INVALID_DEFAULT = 1067
ER_MULTIPLE_PRI_KEY = 1068
ER_WRONG_AUTO_KEY = 1075
ER_CANT_DROP_FIELD_OR_KEY = 1091
ER_NO_SUCH_THREAD = 1094
ER_KILL_DENIED_ERROR = 1095
ER_NO_TABLES_USED = 1096
ER_TABLE_NOT_LOCKED_FOR_WRITE = 1099
ER_TABLE_NOT_LOCKED = 1100
ER_UNKNOWN_TABLE = 1109
ER_TOO_BIG_SELECT = 1104
ER_UNKNOWN_PROCEDURE = 1106
ER_UNKNOWN_CHARACTER_SET = 1115
ER_NOT_ALLOWED_COMMAND = 1148
ER_FILE_NOT_FOUND = 29
ER_TOO_MANY_ROWS = 1172
ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT = 1222
ER_SP_FETCH_NO_DATA = 1329
ER_LOAD_INFILE_CAPABILITY_DISABLED = 4166
ER_WARN_TOO_FEW_RECORDS = 1261
ER_WARN_TOO_MANY_RECORDS = 1262
ER_NO_SUCH_TABLE = 1146
ER_NET_PACKET_TOO_LARGE = 1153
ER_NET_READ_ERROR_FROM_PIPE = 1154
ER_NET_FCNTL_ERROR = 1155
ER_NET_PACKETS_OUT_OF_ORDER = 1156
ER_NET_UNCOMPRESS_ERROR = 1157
ER_NET_READ_ERROR = 1158
ER_NET_READ_INTERRUPTED = 1159
ER_NET_ERROR_ON_WRITE = 1160
ER_NET_WRITE_INTERRUPTED = 1161
ER_TOO_LONG_STRING = 1162
ER_WRONG_TYPE_FOR_VAR = 1232
ER_VAR_CANT_BE_READ = 1233
ER_CANT_USE_OPTION_HERE = 1234
ER_NOT_SUPPORTED_YET = 1235
ER_CHECK_NOT_IMPLEMENTED = 1178
ER_CANT_DO_THIS_DURING_AN_TRANSACTION = 1179
ER_ERROR_DURING_COMMIT = 1180
ER_ERROR_DURING_ROLLBACK = 1181
ER_NEW_ABORTING_CONNECTION = 1184
ER_LOCK_OR_ACTIVE_TRANSACTION = 1192
ER_CANT_UPDATE_WITH_READLOCK = 1223
ER_UNKNOWN_SYSTEM_VARIABLE = 1193
ER_LOCK_WAIT_TIMEOUT = 1205
ER_READ_ONLY_TRANSACTION = 1207
ER_LOCK_DEADLOCK = 1213
ER_TABLE_CANT_HANDLE_AUTO_INCREMENT = 1164
ER_SPECIFIC_ACCESS_DENIED_ERROR = 1227
ER_LOCAL_VARIABLE = 1228
ER_GLOBAL_VARIABLE = 1229
ER_NO_DEFAULT = 1230
ER_WRONG_VALUE_FOR_VAR = 1231
ER_INCORRECT_GLOBAL_LOCAL_VAR = 1238
ER_WRONG_ARGUMENTS = 1210
ER_UNKNOWN_STMT_HANDLER = 1243
ER_TRUNCATED_WRONG_VALUE = 1292
ER_UNKNOWN_TIME_ZONE = 1298
ER_SP_DOES_NOT_EXIST = 1305
ER_QUERY_INTERRUPTED = 1317
ER_CANNOT_USER = 1396
ER_PASSWORD_NO_MATCH = 1133
ER_DATA_TOO_LONG = 1406
ER_WRONG_STRING_LENGTH = 1470
ER_UNKNOWN_ERROR = 1105
ER_FEATURE_DISABLED = 1289
ER_OPTION_PREVENTS_STATEMENT = 1290
ER_WARN_DATA_OUT_OF_RANGE = 1264
ER_WARN_INVALID_TIMESTAMP = 1299
ER_DATA_OUT_OF_RANGE = 1690
ER_PS_MANY_PARAM = 1390
ER_TOO_MANY_USER_CONNECTIONS = 1203
ER_QUERY_ON_MASTER = 1219
ER_NO_SUCH_INDEX = 1082
ER_USER_LOCK_WRONG_NAME = 3057
ER_USER_LOCK_DEADLOCK = 3058
ER_CONNECTION_KILLED = 1927
ER_MALFORMED_PACKET = 1835
ER_CLIENT_INTERACTION_TIMEOUT = 4031
ER_VARIABLE_IS_READONLY = 1621
ER_WRONG_VALUE_COUNT_ON_ROW = 1136
ER_STATEMENT_TIMEOUT = 1969
ER_MUST_CHANGE_PASSWORD = 1820
ER_PLUGIN_IS_NOT_LOADED = 1524
ER_ILLEGAL_HA = 1031
ER_CANT_CREATE_DB = 1006
ER_DB_CREATE_EXISTS = 1007
ER_DB_DROP_EXISTS = 1008
ER_WRONG_DB_NAME = 1102
ER_WRONG_TABLE_NAME = 1103
ER_WRONG_COLUMN_NAME = 1166
ER_TOO_LONG_IDENT = 1059

ER_UNKNOWN_COLLATION = 1273
ER_COLLATION_CHARSET_MISMATCH = 1253
ER_TRUNCATED_WRONG_VALUE_FOR_FIELD = 1366
ER_NO_DEFAULT_FOR_FIELD = 1364
ER_FIELD_SPECIFIED_TWICE = 1110
ER_TABLE_MUST_HAVE_COLUMNS = 1113
ER_KEY_COLUMN_DOES_NOT_EXIST = 1072
ER_WRONG_FIELD_SPEC = 1063
ER_CANT_REMOVE_ALL_FIELDS = 1090
ER_PRIMARY_CANT_HAVE_NULL = 1171
ER_KEY_DOES_NOT_EXISTS = 1176
ER_TOO_BIG_PRECISION = 1426
ER_TOO_BIG_SCALE = 1425
ER_M_BIGGER_THAN_D = 1427
ER_TOO_BIG_DISPLAYWIDTH = 1439
ER_TOO_MANY_KEYS = 1069
ER_TOO_MANY_KEY_PARTS = 1070
ER_DATETIME_FUNCTION_OVERFLOW = 1441
ER_ILLEGAL_VALUE_FOR_TYPE = 1367
ER_INVALID_CHARACTER_STRING = 1300
ER_OPERAND_COLUMNS = 1241
ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT = 1582
ER_DISK_FULL = 1021
ER_DIVISION_BY_ZERO = 1365
ER_CONSTRAINT_FAILED = 4025
ER_UNKNOWN_COMPRESSION_METHOD = 4098
ER_CONFLICTING_DECLARATIONS = 1302
ER_CANT_AGGREGATE_2COLLATIONS = 1267
ER_CANT_AGGREGATE_3COLLATIONS = 1270
ER_CANT_AGGREGATE_NCOLLATIONS = 1271

# Warnings (sent in SHOW WARNINGS, counted in OK packets).
WARN_DATA_TRUNCATED = 1265
ER_WARN_DEPRECATED_SYNTAX = 1287
ER_YES = 1003

ERRORS: dict[int, ErrorSpec] = {
    ER_UNKNOWN_COLLATION: ErrorSpec("ER_UNKNOWN_COLLATION", "HY000", "Unknown collation: '%s'"),
    ER_COLLATION_CHARSET_MISMATCH: ErrorSpec("ER_COLLATION_CHARSET_MISMATCH", "42000", "COLLATION '%s' is not valid for CHARACTER SET '%s'"),
    ER_CANT_AGGREGATE_2COLLATIONS: ErrorSpec("ER_CANT_AGGREGATE_2COLLATIONS", "HY000", "Illegal mix of collations (%s,%s) and (%s,%s) for operation '%s'"),
    ER_CANT_AGGREGATE_3COLLATIONS: ErrorSpec("ER_CANT_AGGREGATE_3COLLATIONS", "HY000", "Illegal mix of collations (%s,%s), (%s,%s), (%s,%s) for operation '%s'"),
    ER_CANT_AGGREGATE_NCOLLATIONS: ErrorSpec("ER_CANT_AGGREGATE_NCOLLATIONS", "HY000", "Illegal mix of collations for operation '%s'"),
    ER_CONFLICTING_DECLARATIONS: ErrorSpec("ER_CONFLICTING_DECLARATIONS", "HY000", "Conflicting declarations: '%s%s' and '%s%s'"),
    ER_TRUNCATED_WRONG_VALUE_FOR_FIELD: ErrorSpec("ER_TRUNCATED_WRONG_VALUE_FOR_FIELD", "22007", "Incorrect %s value: '%s' for column `%s`.`%s`.`%s` at row %d"),
    ER_NO_DEFAULT_FOR_FIELD: ErrorSpec("ER_NO_DEFAULT_FOR_FIELD", "HY000", "Field '%s' doesn't have a default value"),
    ER_FIELD_SPECIFIED_TWICE: ErrorSpec("ER_FIELD_SPECIFIED_TWICE", "42000", "Column '%s' specified twice"),
    ER_TABLE_MUST_HAVE_COLUMNS: ErrorSpec("ER_TABLE_MUST_HAVE_COLUMNS", "42000", "A table must have at least 1 column"),
    ER_KEY_COLUMN_DOES_NOT_EXIST: ErrorSpec("ER_KEY_COLUMN_DOES_NOT_EXIST", "42000", "Key column '%s' doesn't exist in table"),
    ER_WRONG_FIELD_SPEC: ErrorSpec("ER_WRONG_FIELD_SPEC", "42000", "Incorrect column specifier for column '%s'"),
    ER_CANT_REMOVE_ALL_FIELDS: ErrorSpec("ER_CANT_REMOVE_ALL_FIELDS", "42000", "You can't delete all columns with ALTER TABLE; use DROP TABLE instead"),
    ER_PRIMARY_CANT_HAVE_NULL: ErrorSpec("ER_PRIMARY_CANT_HAVE_NULL", "42000", "All parts of a PRIMARY KEY must be NOT NULL; if you need NULL in a key, use UNIQUE instead"),
    ER_KEY_DOES_NOT_EXISTS: ErrorSpec("ER_KEY_DOES_NOT_EXISTS", "42000", "Key '%s' doesn't exist in table '%s'"),
    ER_TOO_BIG_PRECISION: ErrorSpec("ER_TOO_BIG_PRECISION", "42000", "Too big precision specified for '%s'. Maximum is %s"),
    ER_TOO_BIG_SCALE: ErrorSpec("ER_TOO_BIG_SCALE", "42000", "Too big scale specified for '%s'. Maximum is %s"),
    ER_TOO_BIG_DISPLAYWIDTH: ErrorSpec("ER_TOO_BIG_DISPLAYWIDTH", "42000", "Display width out of range for '%s' (max = %s)"),
    ER_DATETIME_FUNCTION_OVERFLOW: ErrorSpec("ER_DATETIME_FUNCTION_OVERFLOW", "22008", "Datetime function: %s field overflow"),
    ER_ILLEGAL_VALUE_FOR_TYPE: ErrorSpec("ER_ILLEGAL_VALUE_FOR_TYPE", "22007", "Illegal %s '%s' value found during parsing"),
    ER_TOO_MANY_KEY_PARTS: ErrorSpec("ER_TOO_MANY_KEY_PARTS", "42000", "Too many key parts specified; max %s parts allowed"),
    ER_TOO_MANY_KEYS: ErrorSpec("ER_TOO_MANY_KEYS", "42000", "Too many keys specified; max %s keys allowed"),
    ER_M_BIGGER_THAN_D: ErrorSpec("ER_M_BIGGER_THAN_D", "42000", "For float(M,D), double(M,D) or decimal(M,D), M must be >= D (column '%s')"),
    ER_INVALID_CHARACTER_STRING: ErrorSpec("ER_INVALID_CHARACTER_STRING", "HY000", "Invalid %s character string: '%s'"),
    ER_OPERAND_COLUMNS: ErrorSpec("ER_OPERAND_COLUMNS", "21000", "Operand should contain %d column(s)"),
    ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT: ErrorSpec("ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT", "42000", "Incorrect parameter count in the call to native function '%s'"),
    ER_DISK_FULL: ErrorSpec("ER_DISK_FULL", "HY000", "Disk full (%s); waiting for someone to free some space... (errno: %s)"),
    ER_DIVISION_BY_ZERO: ErrorSpec("ER_DIVISION_BY_ZERO", "22012", "Division by 0"),
    ER_CONSTRAINT_FAILED: ErrorSpec("ER_CONSTRAINT_FAILED", "23000", "CONSTRAINT %s failed for %s"),
    ER_UNKNOWN_COMPRESSION_METHOD: ErrorSpec("ER_UNKNOWN_COMPRESSION_METHOD", "HY000",
                                             "Unknown compression method: %s"),
    ER_YES: ErrorSpec("ER_YES", "HY000", "YES"),
    ER_CANT_CREATE_DB: ErrorSpec("ER_CANT_CREATE_DB", "HY000", "Can't create database '%s' (errno: %s \"%s\")"),
    ER_DB_CREATE_EXISTS: ErrorSpec("ER_DB_CREATE_EXISTS", "HY000", "Can't create database '%s'; database exists"),
    ER_DB_DROP_EXISTS: ErrorSpec("ER_DB_DROP_EXISTS", "HY000", "Can't drop database '%s'; database doesn't exist"),
    ER_ILLEGAL_HA: ErrorSpec("ER_ILLEGAL_HA", "HY000", "Storage engine %s of the table %s doesn't have this option"),
    ER_CON_COUNT_ERROR: ErrorSpec("ER_CON_COUNT_ERROR", "08004", "Too many connections"),
    ER_OUT_OF_RESOURCES: ErrorSpec("ER_OUT_OF_RESOURCES", "HY000", "Out of memory."),
    ER_BAD_HOST_ERROR: ErrorSpec("ER_BAD_HOST_ERROR", "08S01", "Can't get hostname for your address"),
    ER_HANDSHAKE_ERROR: ErrorSpec("ER_HANDSHAKE_ERROR", "08S01", "Bad handshake"),
    ER_DBACCESS_DENIED_ERROR: ErrorSpec("ER_DBACCESS_DENIED_ERROR", "42000", "Access denied for user '%s'@'%s' to database '%s'"),
    ER_ACCESS_DENIED_ERROR: ErrorSpec("ER_ACCESS_DENIED_ERROR", "28000", "Access denied for user '%s'@'%s' (using password: %s)"),
    ER_NO_DB_ERROR: ErrorSpec("ER_NO_DB_ERROR", "3D000", "No database selected"),
    ER_UNKNOWN_COM_ERROR: ErrorSpec("ER_UNKNOWN_COM_ERROR", "08S01", "Unknown command"),
    ER_BAD_NULL_ERROR: ErrorSpec("ER_BAD_NULL_ERROR", "23000", "Column '%s' cannot be null"),
    ER_BAD_DB_ERROR: ErrorSpec("ER_BAD_DB_ERROR", "42000", "Unknown database '%s'"),
    ER_TABLE_EXISTS_ERROR: ErrorSpec("ER_TABLE_EXISTS_ERROR", "42S01", "Table '%s' already exists"),
    ER_BAD_TABLE_ERROR: ErrorSpec("ER_BAD_TABLE_ERROR", "42S02", "Unknown table '%s'"),
    ER_NON_UNIQ_ERROR: ErrorSpec("ER_NON_UNIQ_ERROR", "23000", "Column '%s' in %s is ambiguous"),
    ER_SERVER_SHUTDOWN: ErrorSpec("ER_SERVER_SHUTDOWN", "08S01", "Server shutdown in progress"),
    ER_BAD_FIELD_ERROR: ErrorSpec("ER_BAD_FIELD_ERROR", "42S22", "Unknown column '%s' in '%s'"),
    ER_WRONG_VALUE_COUNT: ErrorSpec("ER_WRONG_VALUE_COUNT", "21S01", "Column count doesn't match value count"),
    ER_TOO_LONG_IDENT: ErrorSpec("ER_TOO_LONG_IDENT", "42000", "Identifier name '%s' is too long"),
    ER_DUP_FIELDNAME: ErrorSpec("ER_DUP_FIELDNAME", "42S21", "Duplicate column name '%s'"),
    ER_DUP_KEYNAME: ErrorSpec("ER_DUP_KEYNAME", "42000", "Duplicate key name '%s'"),
    ER_DUP_ENTRY: ErrorSpec("ER_DUP_ENTRY", "23000", "Duplicate entry '%s' for key '%s'"),
    ER_PARSE_ERROR: ErrorSpec("ER_PARSE_ERROR", "42000", "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near '%s' at line %d"),
    ER_EMPTY_QUERY: ErrorSpec("ER_EMPTY_QUERY", "42000", "Query was empty"),
    ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION: ErrorSpec("ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION", "25006", "Cannot execute statement in a READ ONLY transaction"),
    ER_NONUNIQ_TABLE: ErrorSpec("ER_NONUNIQ_TABLE", "42000", "Not unique table/alias: '%s'"),
    ER_INVALID_DEFAULT: ErrorSpec("ER_INVALID_DEFAULT", "42000", "Invalid default value for '%s'"),
    ER_MULTIPLE_PRI_KEY: ErrorSpec("ER_MULTIPLE_PRI_KEY", "42000", "Multiple primary key defined"),
    ER_WRONG_AUTO_KEY: ErrorSpec("ER_WRONG_AUTO_KEY", "42000", "Incorrect table definition; there can be only one auto column and it must be defined as a key"),
    ER_NO_SUCH_INDEX: ErrorSpec("ER_NO_SUCH_INDEX", "42S12", "Table '%s' has no index like the one used in CREATE INDEX; recreate the table"),
    ER_CANT_DROP_FIELD_OR_KEY: ErrorSpec("ER_CANT_DROP_FIELD_OR_KEY", "42000", "Can't DROP %s `%s`; check that it exists"),
    ER_NO_SUCH_THREAD: ErrorSpec("ER_NO_SUCH_THREAD", "HY000", "Unknown thread id: %s"),
    ER_KILL_DENIED_ERROR: ErrorSpec("ER_KILL_DENIED_ERROR", "HY000", "You are not owner of thread %s"),
    ER_NO_TABLES_USED: ErrorSpec("ER_NO_TABLES_USED", "HY000", "No tables used"),
    ER_TABLE_NOT_LOCKED_FOR_WRITE: ErrorSpec("ER_TABLE_NOT_LOCKED_FOR_WRITE", "HY000", "Table '%s' was locked with a READ lock and can't be updated"),
    ER_TABLE_NOT_LOCKED: ErrorSpec("ER_TABLE_NOT_LOCKED", "HY000", "Table '%s' was not locked with LOCK TABLES"),
    ER_WRONG_DB_NAME: ErrorSpec("ER_WRONG_DB_NAME", "42000", "Incorrect database name '%s'"),
    ER_WRONG_TABLE_NAME: ErrorSpec("ER_WRONG_TABLE_NAME", "42000", "Incorrect table name '%s'"),
    ER_TOO_BIG_SELECT: ErrorSpec("ER_TOO_BIG_SELECT", "42000", "The SELECT would examine more than MAX_JOIN_SIZE rows"),
    ER_UNKNOWN_ERROR: ErrorSpec("ER_UNKNOWN_ERROR", "HY000", "%s"),
    ER_UNKNOWN_PROCEDURE: ErrorSpec("ER_UNKNOWN_PROCEDURE", "42000", "Unknown procedure '%s'"),
    ER_UNKNOWN_TABLE: ErrorSpec("ER_UNKNOWN_TABLE", "42S02", "Unknown table '%s' in %s"),
    ER_UNKNOWN_CHARACTER_SET: ErrorSpec("ER_UNKNOWN_CHARACTER_SET", "42000", "Unknown character set: '%s'"),
    ER_PASSWORD_NO_MATCH: ErrorSpec("ER_PASSWORD_NO_MATCH", "28000", "Can't find any matching row in the user table"),
    ER_NO_SUCH_TABLE: ErrorSpec("ER_NO_SUCH_TABLE", "42S02", "Table '%s.%s' doesn't exist"),
    ER_LOAD_INFILE_CAPABILITY_DISABLED: ErrorSpec("ER_LOAD_INFILE_CAPABILITY_DISABLED", "HY000", "The used command is not allowed because the MariaDB server or client has disabled the local infile capability"),
    ER_TOO_MANY_ROWS: ErrorSpec("ER_TOO_MANY_ROWS", "42000", "Result consisted of more than one row"),
    ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT: ErrorSpec("ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT", "21000", "The used SELECT statements have a different number of columns"),
    ER_SP_FETCH_NO_DATA: ErrorSpec("ER_SP_FETCH_NO_DATA", "02000", "No data - zero rows fetched, selected, or processed"),
    ER_FILE_NOT_FOUND: ErrorSpec("ER_FILE_NOT_FOUND", "HY000", "File '%s' not found (Errcode: %s)"),
    ER_WARN_TOO_FEW_RECORDS: ErrorSpec("ER_WARN_TOO_FEW_RECORDS", "01000", "Row %s doesn't contain data for all columns"),
    ER_WARN_TOO_MANY_RECORDS: ErrorSpec("ER_WARN_TOO_MANY_RECORDS", "01000", "Row %s was truncated; it contained more data than there were input columns"),
    ER_NOT_ALLOWED_COMMAND: ErrorSpec("ER_NOT_ALLOWED_COMMAND", "42000", "The used command is not allowed because the MariaDB server or client has disabled the local infile capability"),
    ER_NET_PACKET_TOO_LARGE: ErrorSpec("ER_NET_PACKET_TOO_LARGE", "08S01", "Got a packet bigger than 'max_allowed_packet' bytes"),
    ER_NET_READ_ERROR_FROM_PIPE: ErrorSpec("ER_NET_READ_ERROR_FROM_PIPE", "08S01", "Got a read error from the connection pipe"),
    ER_NET_FCNTL_ERROR: ErrorSpec("ER_NET_FCNTL_ERROR", "08S01", "Got an error from fcntl()"),
    ER_NET_PACKETS_OUT_OF_ORDER: ErrorSpec("ER_NET_PACKETS_OUT_OF_ORDER", "08S01", "Got packets out of order"),
    ER_NET_UNCOMPRESS_ERROR: ErrorSpec("ER_NET_UNCOMPRESS_ERROR", "08S01", "Couldn't uncompress communication packet"),
    ER_NET_READ_ERROR: ErrorSpec("ER_NET_READ_ERROR", "08S01", "Got an error reading communication packets"),
    ER_NET_READ_INTERRUPTED: ErrorSpec("ER_NET_READ_INTERRUPTED", "08S01", "Got timeout reading communication packets"),
    ER_NET_ERROR_ON_WRITE: ErrorSpec("ER_NET_ERROR_ON_WRITE", "08S01", "Got an error writing communication packets"),
    ER_NET_WRITE_INTERRUPTED: ErrorSpec("ER_NET_WRITE_INTERRUPTED", "08S01", "Got timeout writing communication packets"),
    ER_TOO_LONG_STRING: ErrorSpec("ER_TOO_LONG_STRING", "HY000", "Result string is longer than 'max_allowed_packet' bytes"),
    ER_TABLE_CANT_HANDLE_AUTO_INCREMENT: ErrorSpec("ER_TABLE_CANT_HANDLE_AUTO_INCREMENT", "42000", "Storage engine %s of the table doesn't support AUTO_INCREMENT columns"),
    ER_WRONG_COLUMN_NAME: ErrorSpec("ER_WRONG_COLUMN_NAME", "42000", "Incorrect column name '%s'"),
    ER_CHECK_NOT_IMPLEMENTED: ErrorSpec("ER_CHECK_NOT_IMPLEMENTED", "42000", "The storage engine for the table doesn't support %s"),
    ER_CANT_DO_THIS_DURING_AN_TRANSACTION: ErrorSpec("ER_CANT_DO_THIS_DURING_AN_TRANSACTION", "25000", "You are not allowed to execute this command in a transaction"),
    ER_ERROR_DURING_COMMIT: ErrorSpec("ER_ERROR_DURING_COMMIT", "HY000", "Got error %s \"%s\" during COMMIT"),
    ER_ERROR_DURING_ROLLBACK: ErrorSpec("ER_ERROR_DURING_ROLLBACK", "HY000", "Got error %s \"%s\" during ROLLBACK"),
    ER_NEW_ABORTING_CONNECTION: ErrorSpec("ER_NEW_ABORTING_CONNECTION", "08S01", "Aborted connection %s to db: '%s' user: '%s' host: '%s' (%s)"),
    ER_CANT_UPDATE_WITH_READLOCK: ErrorSpec("ER_CANT_UPDATE_WITH_READLOCK", "HY000", "Can't execute the query because you have a conflicting read lock"),
    ER_LOCK_OR_ACTIVE_TRANSACTION: ErrorSpec("ER_LOCK_OR_ACTIVE_TRANSACTION", "HY000", "Can't execute the given command because you have active locked tables or an active transaction"),
    ER_UNKNOWN_SYSTEM_VARIABLE: ErrorSpec("ER_UNKNOWN_SYSTEM_VARIABLE", "HY000", "Unknown system variable '%s'"),
    ER_TOO_MANY_USER_CONNECTIONS: ErrorSpec("ER_TOO_MANY_USER_CONNECTIONS", "42000", "User %s already has more than 'max_user_connections' active connections"),
    ER_LOCK_WAIT_TIMEOUT: ErrorSpec("ER_LOCK_WAIT_TIMEOUT", "HY000", "Lock wait timeout exceeded; try restarting transaction"),
    ER_READ_ONLY_TRANSACTION: ErrorSpec("ER_READ_ONLY_TRANSACTION", "25000", "Update locks cannot be acquired during a READ UNCOMMITTED transaction"),
    ER_WRONG_ARGUMENTS: ErrorSpec("ER_WRONG_ARGUMENTS", "HY000", "Incorrect arguments to %s"),
    ER_LOCK_DEADLOCK: ErrorSpec("ER_LOCK_DEADLOCK", "40001", "Deadlock found when trying to get lock; try restarting transaction"),
    ER_QUERY_ON_MASTER: ErrorSpec("ER_QUERY_ON_MASTER", "HY000", "Error running query on master: %s"),
    ER_SPECIFIC_ACCESS_DENIED_ERROR: ErrorSpec("ER_SPECIFIC_ACCESS_DENIED_ERROR", "42000", "Access denied; you need (at least one of) the %s privilege(s) for this operation"),
    ER_LOCAL_VARIABLE: ErrorSpec("ER_LOCAL_VARIABLE", "HY000", "Variable '%s' is a SESSION variable and can't be used with SET GLOBAL"),
    ER_GLOBAL_VARIABLE: ErrorSpec("ER_GLOBAL_VARIABLE", "HY000", "Variable '%s' is a GLOBAL variable and should be set with SET GLOBAL"),
    ER_NO_DEFAULT: ErrorSpec("ER_NO_DEFAULT", "42000", "Variable '%s' doesn't have a default value"),
    ER_WRONG_VALUE_FOR_VAR: ErrorSpec("ER_WRONG_VALUE_FOR_VAR", "42000", "Variable '%s' can't be set to the value of '%s'"),
    ER_WRONG_TYPE_FOR_VAR: ErrorSpec("ER_WRONG_TYPE_FOR_VAR", "42000", "Incorrect argument type to variable '%s'"),
    ER_VAR_CANT_BE_READ: ErrorSpec("ER_VAR_CANT_BE_READ", "HY000", "Variable '%s' can only be set, not read"),
    ER_CANT_USE_OPTION_HERE: ErrorSpec("ER_CANT_USE_OPTION_HERE", "42000", "Incorrect usage/placement of '%s'"),
    ER_NOT_SUPPORTED_YET: ErrorSpec("ER_NOT_SUPPORTED_YET", "42000", "This version of MariaDB doesn't yet support '%s'"),
    ER_INCORRECT_GLOBAL_LOCAL_VAR: ErrorSpec("ER_INCORRECT_GLOBAL_LOCAL_VAR", "HY000", "Variable '%s' is a %s variable"),
    ER_UNKNOWN_STMT_HANDLER: ErrorSpec("ER_UNKNOWN_STMT_HANDLER", "HY000", "Unknown prepared statement handler (%s) given to %s"),
    ER_WARN_DATA_OUT_OF_RANGE: ErrorSpec("ER_WARN_DATA_OUT_OF_RANGE", "22003", "Out of range value for column '%s' at row %d"),
    ER_WARN_INVALID_TIMESTAMP: ErrorSpec("ER_WARN_INVALID_TIMESTAMP", "HY000", "Invalid TIMESTAMP value in column '%s' at row %d"),
    WARN_DATA_TRUNCATED: ErrorSpec("WARN_DATA_TRUNCATED", "01000", "Data truncated for column '%s' at row %d"),
    ER_WARN_DEPRECATED_SYNTAX: ErrorSpec("ER_WARN_DEPRECATED_SYNTAX", "HY000", "'%s' is deprecated and will be removed in a future release. Please use %s instead"),
    ER_FEATURE_DISABLED: ErrorSpec("ER_FEATURE_DISABLED", "HY000", "The '%s' feature is disabled; you need MariaDB built with '%s' to have it working"),
    ER_OPTION_PREVENTS_STATEMENT: ErrorSpec("ER_OPTION_PREVENTS_STATEMENT", "HY000", "The MariaDB server is running with the %s option so it cannot execute this statement"),
    ER_TRUNCATED_WRONG_VALUE: ErrorSpec("ER_TRUNCATED_WRONG_VALUE", "22007", "Truncated incorrect %s value: '%s'"),
    ER_UNKNOWN_TIME_ZONE: ErrorSpec("ER_UNKNOWN_TIME_ZONE", "HY000", "Unknown or incorrect time zone: '%s'"),
    ER_SP_DOES_NOT_EXIST: ErrorSpec("ER_SP_DOES_NOT_EXIST", "42000", "%s %s does not exist"),
    ER_QUERY_INTERRUPTED: ErrorSpec("ER_QUERY_INTERRUPTED", "70100", "Query execution was interrupted"),
    ER_PS_MANY_PARAM: ErrorSpec("ER_PS_MANY_PARAM", "HY000", "Prepared statement contains too many placeholders"),
    ER_CANNOT_USER: ErrorSpec("ER_CANNOT_USER", "HY000", "Operation %s failed for %s"),
    ER_DATA_TOO_LONG: ErrorSpec("ER_DATA_TOO_LONG", "22001", "Data too long for column '%s' at row %d"),
    ER_WRONG_STRING_LENGTH: ErrorSpec("ER_WRONG_STRING_LENGTH", "HY000", "String '%s' is too long for %s (should be no longer than %d)"),
    ER_PLUGIN_IS_NOT_LOADED: ErrorSpec("ER_PLUGIN_IS_NOT_LOADED", "HY000", "Plugin '%s' is not loaded"),
    ER_DATA_OUT_OF_RANGE: ErrorSpec("ER_DATA_OUT_OF_RANGE", "22003", "%s value is out of range in '%s'"),
    ER_MUST_CHANGE_PASSWORD: ErrorSpec("ER_MUST_CHANGE_PASSWORD", "HY000", "You must SET PASSWORD before executing this statement"),
    ER_MALFORMED_PACKET: ErrorSpec("ER_MALFORMED_PACKET", "HY000", "Malformed communication packet"),
    ER_CONNECTION_KILLED: ErrorSpec("ER_CONNECTION_KILLED", "70100", "Connection was killed"),
    ER_STATEMENT_TIMEOUT: ErrorSpec("ER_STATEMENT_TIMEOUT", "70100", "Query execution was interrupted (max_statement_time exceeded)"),
    ER_USER_LOCK_WRONG_NAME: ErrorSpec("ER_USER_LOCK_WRONG_NAME", "42000", "Incorrect user-level lock name '%s'"),
    ER_USER_LOCK_DEADLOCK: ErrorSpec("ER_USER_LOCK_DEADLOCK", "HY000", "Deadlock found when trying to get user-level lock; try rolling back transaction/releasing locks and restarting lock acquisition"),
    ER_VARIABLE_IS_READONLY: ErrorSpec("ER_VARIABLE_IS_READONLY", "HY000", "%s variable '%s' is read-only. Use SET %s to assign the value"),
    ER_WRONG_VALUE_COUNT_ON_ROW: ErrorSpec("ER_WRONG_VALUE_COUNT_ON_ROW", "21S01", "Column count doesn't match value count at row %d"),
    ER_CLIENT_INTERACTION_TIMEOUT: ErrorSpec("ER_CLIENT_INTERACTION_TIMEOUT", "HY000", "The client was disconnected by the server because of inactivity. See wait_timeout and interactive_timeout for configuring this behavior."),
}


# Privileges and accounts (session/privileges.py). Texts and SQLSTATEs as MariaDB 10.11 sends
# them (measured with the mariadb client against 10.11.19).
ER_OPEN_AS_READONLY = 1036
ER_NOT_FORM_FILE = 1033
ER_PASSWD_LENGTH = 1372
ER_ERROR_ON_WRITE = 1026
ER_USER_CREATE_EXISTS = 1973
ER_USER_DROP_EXISTS = 1974
ER_ROLE_CREATE_EXISTS = 1975
ER_NO_SUCH_USER = 1449
ER_ROLE_DROP_EXISTS = 1976
ER_PASSWORD_ANONYMOUS_USER = 1131
ER_NONEXISTING_GRANT = 1141
ER_TABLEACCESS_DENIED_ERROR = 1142
ER_COLUMNACCESS_DENIED_ERROR = 1143
ER_ILLEGAL_GRANT_FOR_TABLE = 1144
ER_NONEXISTING_TABLE_GRANT = 1147
ER_NONEXISTING_PROC_GRANT = 1403
ER_WRONG_USAGE = 1221
ER_USER_LIMIT_REACHED = 1226
ER_CANT_CREATE_USER_WITH_GRANT = 1410
ER_ACCESS_DENIED_NO_PASSWORD_ERROR = 1698
ER_INVALID_ROLE = 1959
ER_CANNOT_GRANT_ROLE = 1961
ER_CANNOT_REVOKE_ROLE = 1962
ER_ACCOUNT_HAS_BEEN_LOCKED = 4151

ERRORS.update({
    ER_PASSWD_LENGTH: ErrorSpec("ER_PASSWD_LENGTH", "HY000", "Password hash should be a 41-digit hexadecimal number"),
    ER_NOT_FORM_FILE: ErrorSpec("ER_NOT_FORM_FILE", "HY000", "Incorrect information in file: '%s'"),
    ER_OPEN_AS_READONLY: ErrorSpec("ER_OPEN_AS_READONLY", "HY000", "Table '%s' is read only"),
    ER_ERROR_ON_WRITE: ErrorSpec("ER_ERROR_ON_WRITE", "HY000", "Error writing file '%s' (errno: %d \"%s\")"),
    ER_USER_CREATE_EXISTS: ErrorSpec("ER_USER_CREATE_EXISTS", "HY000", "Can't create user '%s'@'%s'; it already exists"),
    ER_USER_DROP_EXISTS: ErrorSpec("ER_USER_DROP_EXISTS", "HY000", "Can't drop user '%s'@'%s'; it doesn't exist"),
    ER_ROLE_CREATE_EXISTS: ErrorSpec("ER_ROLE_CREATE_EXISTS", "HY000", "Can't create role '%s'; it already exists"),
    ER_NO_SUCH_USER: ErrorSpec("ER_NO_SUCH_USER", "HY000", "The user specified as a definer ('%s'@'%s') does not exist"),
    ER_ROLE_DROP_EXISTS: ErrorSpec("ER_ROLE_DROP_EXISTS", "HY000", "Can't drop role '%s'; it doesn't exist"),
    ER_PASSWORD_ANONYMOUS_USER: ErrorSpec("ER_PASSWORD_ANONYMOUS_USER", "42000", "You are using MariaDB as an anonymous user and anonymous users are not allowed to modify user settings"),
    ER_NONEXISTING_GRANT: ErrorSpec("ER_NONEXISTING_GRANT", "42000", "There is no such grant defined for user '%s' on host '%s'"),
    ER_TABLEACCESS_DENIED_ERROR: ErrorSpec("ER_TABLEACCESS_DENIED_ERROR", "42000", "%s command denied to user '%s'@'%s' for table %s"),
    ER_COLUMNACCESS_DENIED_ERROR: ErrorSpec("ER_COLUMNACCESS_DENIED_ERROR", "42000", "%s command denied to user '%s'@'%s' for column '%s' in table '%s'"),
    ER_ILLEGAL_GRANT_FOR_TABLE: ErrorSpec("ER_ILLEGAL_GRANT_FOR_TABLE", "42000", "Illegal GRANT/REVOKE command; please consult the manual to see which privileges can be used"),
    ER_NONEXISTING_TABLE_GRANT: ErrorSpec("ER_NONEXISTING_TABLE_GRANT", "42000", "There is no such grant defined for user '%s' on host '%s' on table '%s'"),
    ER_NONEXISTING_PROC_GRANT: ErrorSpec("ER_NONEXISTING_PROC_GRANT", "42000", "There is no such grant defined for user '%s' on host '%s' on routine '%s'"),
    ER_WRONG_USAGE: ErrorSpec("ER_WRONG_USAGE", "HY000", "Incorrect usage of %s and %s"),
    ER_USER_LIMIT_REACHED: ErrorSpec("ER_USER_LIMIT_REACHED", "42000", "User '%s' has exceeded the '%s' resource (current value: %d)"),
    ER_CANT_CREATE_USER_WITH_GRANT: ErrorSpec("ER_CANT_CREATE_USER_WITH_GRANT", "42000", "You are not allowed to create a user with GRANT"),
    ER_ACCESS_DENIED_NO_PASSWORD_ERROR: ErrorSpec("ER_ACCESS_DENIED_NO_PASSWORD_ERROR", "28000", "Access denied for user '%s'@'%s'"),
    ER_INVALID_ROLE: ErrorSpec("ER_INVALID_ROLE", "OP000", "Invalid role specification %s"),
    ER_CANNOT_GRANT_ROLE: ErrorSpec("ER_CANNOT_GRANT_ROLE", "HY000", "Cannot grant role '%s' to: %s"),
    ER_CANNOT_REVOKE_ROLE: ErrorSpec("ER_CANNOT_REVOKE_ROLE", "HY000", "Cannot revoke role '%s' from: %s"),
    ER_ACCOUNT_HAS_BEEN_LOCKED: ErrorSpec("ER_ACCOUNT_HAS_BEEN_LOCKED", "HY000", "Access denied, this account is locked"),
})


# Limits and hostile input (issue 10): texts and SQLSTATEs as MariaDB 10.11 / MySQL 8.0 send them.
ER_STACK_OVERRUN_NEED_MORE = 1436
ER_TOO_HIGH_LEVEL_OF_NESTING_FOR_SELECT = 1473
ER_HOST_IS_BLOCKED = 1129
ER_GET_ERRNO = 1030

ERRORS.update({
    ER_STACK_OVERRUN_NEED_MORE: ErrorSpec("ER_STACK_OVERRUN_NEED_MORE", "HY000", "Thread stack overrun:  %d bytes used of a %d byte stack, and %d bytes needed. Consider increasing the thread_stack system variable."),
    ER_TOO_HIGH_LEVEL_OF_NESTING_FOR_SELECT: ErrorSpec("ER_TOO_HIGH_LEVEL_OF_NESTING_FOR_SELECT", "HY000", "Too high level of nesting for select"),
    ER_HOST_IS_BLOCKED: ErrorSpec("ER_HOST_IS_BLOCKED", "HY000", "Host '%s' is blocked because of many connection errors; unblock with 'mariadb-admin flush-hosts'"),
    ER_GET_ERRNO: ErrorSpec("ER_GET_ERRNO", "HY000", "Got error %d \"%s\" from storage engine %s"),
})


# Foreign servers (CREATE / ALTER / DROP SERVER, session/servers.py): MariaDB 10.11's texts.
ER_CANT_CREATE_FEDERATED_TABLE = 1434
ER_FOREIGN_SERVER_EXISTS = 1476
ER_FOREIGN_SERVER_DOESNT_EXIST = 1477

ERRORS.update({
    ER_CANT_CREATE_FEDERATED_TABLE: ErrorSpec("ER_CANT_CREATE_FEDERATED_TABLE", "HY000", "Can't create federated table. Foreign data src error:  %s"),
    ER_FOREIGN_SERVER_EXISTS: ErrorSpec("ER_FOREIGN_SERVER_EXISTS", "HY000", "Cannot create foreign server '%s' as it already exists"),
    ER_FOREIGN_SERVER_DOESNT_EXIST: ErrorSpec("ER_FOREIGN_SERVER_DOESNT_EXIST", "HY000", "The foreign server name you are trying to reference does not exist. Data source error:  %s"),
})

ER_CANT_CREATE_GEOMETRY_OBJECT = 1416
ER_WARN_NULL_TO_NOTNULL = 1263

ERRORS.update({
    ER_WARN_NULL_TO_NOTNULL: ErrorSpec("ER_WARN_NULL_TO_NOTNULL", "22004", "Column set to default value; NULL supplied to NOT NULL column '%s' at row %d"),
    ER_CANT_CREATE_GEOMETRY_OBJECT: ErrorSpec("ER_CANT_CREATE_GEOMETRY_OBJECT", "22003", "Cannot get geometry object from data you send to the GEOMETRY field"),
})


def sqlstate_of(code: int) -> str:
    spec = ERRORS.get(code)
    return spec.sqlstate if spec else "HY000"


def format_message(code: int, *args: object) -> str:
    spec = ERRORS.get(code)
    if spec is None:
        return " ".join(str(a) for a in args) or f"Unknown error {code}"
    if not args:
        return spec.message.replace("%s", "").replace("%d", "") if "%" in spec.message else spec.message
    try:
        return spec.message % args
    except (TypeError, ValueError):
        return spec.message + " " + " ".join(str(a) for a in args)


def cut(text: str, width: int = 100) -> str:
    """MariaDB's `%-.<width>T` in a message: text longer than `width` bytes (UTF-8) is cut to
    whole characters within width - 3 bytes, and '...' follows."""
    data = text.encode("utf-8", "surrogateescape")
    if len(data) <= width:
        return text
    return data[:width - 3].decode("utf-8", "ignore") + "..."


def too_long_ident(name: str) -> ServerError:
    """1059, the identifier as MariaDB's message quotes it ('%-.100T')."""
    return ServerError(ER_TOO_LONG_IDENT, cut(name))


class ServerError(Exception):
    """A MySQL error for one client: code, SQLSTATE and the formatted message.

    `ServerError(ER_NO_SUCH_TABLE, "db", "t")` formats the registered message with the arguments;
    `message=` overrides the text when the caller already has it (an upstream server's error).
    """

    def __init__(self, code: int, *args: object, message: str | None = None,
                 sqlstate: str | None = None) -> None:
        self.code = code
        self.sqlstate = sqlstate or sqlstate_of(code)
        self.message = message if message is not None else format_message(code, *args)
        super().__init__(f"({code}, {self.sqlstate}) {self.message}")


class ProtocolViolation(ServerError):
    """The peer broke the wire protocol: answer if possible, then close that connection only."""

    def __init__(self, detail: str, code: int = ER_MALFORMED_PACKET) -> None:
        super().__init__(code)
        self.detail = detail  # for the server log; the client sees the registered message


class Warning_(NamedTuple):
    """One row of SHOW WARNINGS: level ('Note' | 'Warning' | 'Error'), code, message."""

    level: str
    code: int
    message: str

    @classmethod
    def of(cls, code: int, *args: object, level: str = "Warning") -> Warning_:
        return cls(level, code, format_message(code, *args))
