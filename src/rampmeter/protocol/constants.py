"""Numbers of the MySQL client/server protocol: capability and status flags, commands, column
types and flags, character set ids.

Values are those of MySQL 8.0's include/mysql_com.h and field_types.h and MariaDB 10.11's
include/mysql_com.h (the two agree on everything here). Names keep MySQL's spelling without the
CLIENT_/SERVER_/COM_/MYSQL_TYPE_ prefixes.
"""

from __future__ import annotations

import enum


class Capability(enum.IntFlag):
    LONG_PASSWORD = 1 << 0
    FOUND_ROWS = 1 << 1
    LONG_FLAG = 1 << 2
    CONNECT_WITH_DB = 1 << 3
    NO_SCHEMA = 1 << 4
    COMPRESS = 1 << 5
    ODBC = 1 << 6
    LOCAL_FILES = 1 << 7
    IGNORE_SPACE = 1 << 8
    PROTOCOL_41 = 1 << 9
    INTERACTIVE = 1 << 10
    SSL = 1 << 11
    IGNORE_SIGPIPE = 1 << 12
    TRANSACTIONS = 1 << 13
    RESERVED = 1 << 14
    SECURE_CONNECTION = 1 << 15
    MULTI_STATEMENTS = 1 << 16
    MULTI_RESULTS = 1 << 17
    PS_MULTI_RESULTS = 1 << 18
    PLUGIN_AUTH = 1 << 19
    CONNECT_ATTRS = 1 << 20
    PLUGIN_AUTH_LENENC_CLIENT_DATA = 1 << 21
    CAN_HANDLE_EXPIRED_PASSWORDS = 1 << 22
    SESSION_TRACK = 1 << 23
    DEPRECATE_EOF = 1 << 24
    OPTIONAL_RESULTSET_METADATA = 1 << 25
    ZSTD_COMPRESSION_ALGORITHM = 1 << 26
    QUERY_ATTRIBUTES = 1 << 27
    MULTI_FACTOR_AUTHENTICATION = 1 << 28
    CAPABILITY_EXTENSION = 1 << 29
    SSL_VERIFY_SERVER_CERT = 1 << 30
    REMEMBER_OPTIONS = 1 << 31
    # MariaDB's extended capabilities (the high 32 bits: sent in the handshake's last reserved
    # bytes when the server does not set LONG_PASSWORD, MariaDB's CLIENT_MYSQL)
    MARIADB_EXTENDED_METADATA = 1 << 35


# What rampmeter offers. Not offered: COMPRESS (no compressed protocol yet), OPTIONAL_RESULTSET_METADATA, QUERY_ATTRIBUTES. SSL is added
# when a certificate is configured.
# LONG_PASSWORD is CLIENT_MYSQL, which a MariaDB server leaves out: a MariaDB client (libmariadb,
# Connector/J, the Node connector) then reads and answers the extended capabilities.
SERVER_CAPABILITIES = (
    Capability.FOUND_ROWS | Capability.LONG_FLAG
    | Capability.CONNECT_WITH_DB | Capability.NO_SCHEMA | Capability.ODBC
    | Capability.IGNORE_SPACE | Capability.PROTOCOL_41 | Capability.INTERACTIVE
    | Capability.IGNORE_SIGPIPE | Capability.TRANSACTIONS | Capability.SECURE_CONNECTION
    | Capability.MULTI_STATEMENTS | Capability.MULTI_RESULTS | Capability.PS_MULTI_RESULTS
    | Capability.PLUGIN_AUTH | Capability.CONNECT_ATTRS
    | Capability.PLUGIN_AUTH_LENENC_CLIENT_DATA | Capability.CAN_HANDLE_EXPIRED_PASSWORDS
    | Capability.DEPRECATE_EOF | Capability.LOCAL_FILES | Capability.SESSION_TRACK
    | Capability.MARIADB_EXTENDED_METADATA
)


class ServerStatus(enum.IntFlag):
    IN_TRANS = 0x0001
    AUTOCOMMIT = 0x0002
    MORE_RESULTS_EXISTS = 0x0008
    NO_GOOD_INDEX_USED = 0x0010
    NO_INDEX_USED = 0x0020
    CURSOR_EXISTS = 0x0040
    LAST_ROW_SENT = 0x0080
    DB_DROPPED = 0x0100
    NO_BACKSLASH_ESCAPES = 0x0200
    METADATA_CHANGED = 0x0400
    QUERY_WAS_SLOW = 0x0800
    PS_OUT_PARAMS = 0x1000
    IN_TRANS_READONLY = 0x2000
    SESSION_STATE_CHANGED = 0x4000


class Command(enum.IntEnum):
    SLEEP = 0x00
    QUIT = 0x01
    INIT_DB = 0x02
    QUERY = 0x03
    FIELD_LIST = 0x04
    CREATE_DB = 0x05
    DROP_DB = 0x06
    REFRESH = 0x07
    SHUTDOWN = 0x08
    STATISTICS = 0x09
    PROCESS_INFO = 0x0A
    CONNECT = 0x0B
    PROCESS_KILL = 0x0C
    DEBUG = 0x0D
    PING = 0x0E
    TIME = 0x0F
    DELAYED_INSERT = 0x10
    CHANGE_USER = 0x11
    BINLOG_DUMP = 0x12
    TABLE_DUMP = 0x13
    CONNECT_OUT = 0x14
    REGISTER_SLAVE = 0x15
    STMT_PREPARE = 0x16
    STMT_EXECUTE = 0x17
    STMT_SEND_LONG_DATA = 0x18
    STMT_CLOSE = 0x19
    STMT_RESET = 0x1A
    SET_OPTION = 0x1B
    STMT_FETCH = 0x1C
    DAEMON = 0x1D
    BINLOG_DUMP_GTID = 0x1E
    RESET_CONNECTION = 0x1F


class ColumnType(enum.IntEnum):
    DECIMAL = 0x00
    TINY = 0x01
    SHORT = 0x02
    LONG = 0x03
    FLOAT = 0x04
    DOUBLE = 0x05
    NULL = 0x06
    TIMESTAMP = 0x07
    LONGLONG = 0x08
    INT24 = 0x09
    DATE = 0x0A
    TIME = 0x0B
    DATETIME = 0x0C
    YEAR = 0x0D
    NEWDATE = 0x0E
    VARCHAR = 0x0F
    BIT = 0x10
    JSON = 0xF5
    NEWDECIMAL = 0xF6
    ENUM = 0xF7
    SET = 0xF8
    TINY_BLOB = 0xF9
    MEDIUM_BLOB = 0xFA
    LONG_BLOB = 0xFB
    BLOB = 0xFC
    VAR_STRING = 0xFD
    STRING = 0xFE
    GEOMETRY = 0xFF


class ColumnFlag(enum.IntFlag):
    NOT_NULL = 1
    PRI_KEY = 2
    UNIQUE_KEY = 4
    MULTIPLE_KEY = 8
    BLOB = 16
    UNSIGNED = 32
    ZEROFILL = 64
    BINARY = 128
    ENUM = 256
    AUTO_INCREMENT = 512
    TIMESTAMP = 1024
    SET = 2048
    NO_DEFAULT_VALUE = 4096
    ON_UPDATE_NOW = 8192
    NUM = 32768


class SetOption(enum.IntEnum):
    MULTI_STATEMENTS_ON = 0
    MULTI_STATEMENTS_OFF = 1


# Character set / collation ids (MariaDB's ctype tables).
CHARSET_UTF8MB4_GENERAL_CI = 45
CHARSET_UTF8_GENERAL_CI = 33
CHARSET_LATIN1_SWEDISH_CI = 8
CHARSET_BINARY = 63

# A packet's payload is at most 2^24 - 1 bytes; longer payloads are split (protocol docs,
# "Sending More Than 16Mb").
MAX_PACKET_PAYLOAD = 0xFFFFFF
