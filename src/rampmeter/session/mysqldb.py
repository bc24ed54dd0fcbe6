"""The `mysql` database (and the `sys` schema beside it): the grant tables as tools read them (mysql.user, mysql.db,
mysql.tables_priv, mysql.columns_priv, mysql.roles_mapping, mysql.global_priv), kept equal to
the grant file; the (empty) log tables general_log and slow_log; and the (empty) privilege
tables of grants rampmeter does not have, procs_priv and proxies_priv, of UDFs, func, of
foreign servers, servers, and of the server-side help, help_* (SYSTEM_TABLES).

Rules:
- The grant file (aclfile.py) is the truth; these tables are its mirror, rewritten through the
  engine after every change (AccountStore listener) and rebuilt at start, so a crash between
  the file and the mirror heals at the next start. Their rows are privileges.py's bits spelled
  as MariaDB 10.11 spells them: 'Y' / 'N' columns in mysql.user and mysql.db, SET values in
  tables_priv / columns_priv, a JSON Priv in global_priv. mysql.user is a view in MariaDB; here
  it is a table with the view's columns, marked as the mirror's by its comment
  (USER_VIEW_COMMENT), which follows it through a RENAME.
- A client may rename the mirror's tables away and back and make its own mysql.user
  (usertable.py): the mirror writes only the tables that are there, by column name; while
  global_priv is gone and mysql.user is the client's, FLUSH reads the accounts from it and
  each new snapshot is written to it, as MariaDB does with such a table.
- Clients may edit their rows and then FLUSH PRIVILEGES, as in MariaDB (grantedit.py:
  `edited` reads them back); their definitions are kept. A mirror whose last write failed is
  `stale` and is not read back.
- Reading them needs SELECT on them, like any table.
- The mirror uses its own engine session with a system context; it never runs a client's SQL.
"""

from __future__ import annotations

import json
import logging
import threading
from contextlib import nullcontext
from typing import Any

from rampmeter.engine.base import Engine, EngineSession
from rampmeter.errors import ServerError
from rampmeter.session import grantedit, usertable
from rampmeter.session.accounts import SSL_TYPES, Account
from rampmeter.session.grants import GrantTables
from rampmeter.session.privileges import (
    COL_ACLS,
    DB_PRIV_COLUMNS,
    GLOBAL_ACLS,
    TABLE_SET_NAMES,
    set_text,
)
from rampmeter.sql.lexer import VERSION_ID

MYSQL = "mysql"
SYS = "sys"
# MariaDB's install creates the sys schema: its configuration table with the defaults of
# sys 1.5.1 and its `version` view (the views over performance_schema are not here)
SYS_SCHEMA = (
    f"CREATE DATABASE {SYS} CHARACTER SET utf8mb3",
    f"CREATE TABLE {SYS}.sys_config (variable varchar(128) NOT NULL, value varchar(128), "
    "set_time timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(), "
    "set_by varchar(128), PRIMARY KEY (variable)) CHARACTER SET utf8mb3",
    f"INSERT INTO {SYS}.sys_config (variable, value) VALUES ('statement_truncate_len', '64'), "
    "('statement_performance_analyzer.limit', '100'), "
    "('statement_performance_analyzer.view', NULL), ('diagnostics.allow_i_s_tables', 'OFF'), "
    "('diagnostics.include_raw', 'OFF'), ('ps_thread_trx_info.max_length', '65535')",
    f"CREATE VIEW {SYS}.version AS SELECT '1.5.1' AS sys_version, version() AS mysql_version",
)

_USER_PRIVS = ("Select", "Insert", "Update", "Delete", "Create", "Drop", "Reload", "Shutdown",
               "Process", "File", "Grant", "References", "Index", "Alter", "Show_db", "Super",
               "Create_tmp_table", "Lock_tables", "Execute", "Repl_slave", "Repl_client",
               "Create_view", "Show_view", "Create_routine", "Alter_routine", "Create_user",
               "Event", "Trigger", "Create_tablespace", "Delete_history")
_YN = "enum('N','Y') NOT NULL DEFAULT 'N'"
_KEY = "Host char(255) NOT NULL DEFAULT '', "
_TABLE_SET = "set(" + ",".join(f"'{n}'" for n in TABLE_SET_NAMES.values()) + ")"
_COLUMN_SET = "set('Select','Insert','Update','References')"

# The comment that marks mysql.user as the mirror's (MariaDB's view of global_priv), not a
# table a client made in its place (usertable.py); it follows the table through a RENAME.
from rampmeter.engine.sqlite.catalog import USER_VIEW_COMMENT  # noqa: E402

# User, Role, Db and Table_name compare as MariaDB's grant tables (utf8mb3_bin) do: 'tester'
# and 'Tester' are two accounts, two rows
TABLES: dict[str, str] = {
    "global_priv": _KEY + "User char(128) BINARY NOT NULL DEFAULT '', Priv longtext NOT NULL, "
                   "PRIMARY KEY (Host, User)) COMMENT='Users and global privileges'",
    "user": _KEY + "User char(128) BINARY NOT NULL DEFAULT '', Password longtext NOT NULL, " +
            "".join(f"{p}_priv {_YN}, " for p in _USER_PRIVS) +
            "ssl_type varchar(9) NOT NULL DEFAULT '', ssl_cipher longtext NOT NULL, "
            "x509_issuer longtext NOT NULL, x509_subject longtext NOT NULL, "
            "max_questions bigint unsigned NOT NULL DEFAULT 0, "
            "max_updates bigint unsigned NOT NULL DEFAULT 0, "
            "max_connections bigint unsigned NOT NULL DEFAULT 0, "
            "max_user_connections bigint NOT NULL DEFAULT 0, plugin longtext NOT NULL, "
            "authentication_string longtext NOT NULL, password_expired varchar(1) NOT NULL, "
            "is_role varchar(1) NOT NULL, default_role longtext NOT NULL, "
            "max_statement_time decimal(12,6) NOT NULL DEFAULT 0, "
            f"PRIMARY KEY (Host, User)) COMMENT='{USER_VIEW_COMMENT}'",
    "db": _KEY + "Db char(64) BINARY NOT NULL DEFAULT '', User char(128) BINARY NOT NULL DEFAULT '', " +
          "".join(f"{p}_priv {_YN}, " for p, _ in DB_PRIV_COLUMNS) +
          "PRIMARY KEY (Host, Db, User)) COMMENT='Database privileges'",
    "tables_priv": _KEY + "Db char(64) BINARY NOT NULL DEFAULT '', User char(128) BINARY NOT NULL DEFAULT '', "
                   "Table_name char(64) BINARY NOT NULL DEFAULT '', "
                   "Grantor varchar(384) NOT NULL DEFAULT '', Timestamp timestamp NULL, "
                   f"Table_priv {_TABLE_SET} NOT NULL DEFAULT '', "
                   f"Column_priv {_COLUMN_SET} NOT NULL DEFAULT '', "
                   "PRIMARY KEY (Host, Db, User, Table_name)) COMMENT='Table privileges'",
    "columns_priv": _KEY + "Db char(64) BINARY NOT NULL DEFAULT '', "
                    "User char(128) BINARY NOT NULL DEFAULT '', Table_name char(64) BINARY NOT NULL DEFAULT '', "
                    "Column_name char(64) NOT NULL DEFAULT '', Timestamp timestamp NULL, "
                    f"Column_priv {_COLUMN_SET} NOT NULL DEFAULT '', "
                    "PRIMARY KEY (Host, Db, User, Table_name, Column_name)) "
                    "COMMENT='Column privileges'",
    "roles_mapping": _KEY + "User char(128) BINARY NOT NULL DEFAULT '', "
                     "Role char(128) BINARY NOT NULL DEFAULT '', Admin_option " + _YN + ", "
                     "UNIQUE KEY Host (Host, User, Role)) COMMENT='Granted roles'",
    # The log tables, always empty (no general or slow log is kept): mariadb-dump
    # --all-databases asks for their structure whatever SHOW TABLES says (issue 9).
    "general_log": "event_time timestamp(6) NOT NULL DEFAULT current_timestamp(6) ON UPDATE "
                   "current_timestamp(6), user_host mediumtext NOT NULL, "
                   "thread_id bigint(21) unsigned NOT NULL, server_id int(10) unsigned NOT NULL, "
                   "command_type varchar(64) NOT NULL, argument mediumtext NOT NULL) "
                   "CHARSET=utf8mb3 COMMENT='General log'",
    "slow_log": "start_time timestamp(6) NOT NULL DEFAULT current_timestamp(6) ON UPDATE "
                "current_timestamp(6), user_host mediumtext NOT NULL, query_time time(6) NOT NULL, "
                "lock_time time(6) NOT NULL, rows_sent bigint(20) unsigned NOT NULL, "
                "rows_examined bigint(20) unsigned NOT NULL, db varchar(512) NOT NULL, "
                "last_insert_id int(11) NOT NULL, insert_id int(11) NOT NULL, "
                "server_id int(10) unsigned NOT NULL, sql_text mediumtext NOT NULL, "
                "thread_id bigint(21) unsigned NOT NULL, rows_affected bigint(20) unsigned NOT NULL) "
                "CHARSET=utf8mb3 COMMENT='Slow log'",
}

# MariaDB's other privilege tables, for the grants rampmeter does not have (on one routine,
# PROXY), and its table of user-defined functions: always empty here, and ordinary tables (a client may rename or alter them, as
# MariaDB's tests do); made at start when missing, never rewritten.
SYSTEM_TABLES: dict[str, str] = {
    "procs_priv": _KEY + "Db char(64) NOT NULL DEFAULT '', User char(128) NOT NULL DEFAULT '', "
                  "Routine_name char(64) NOT NULL DEFAULT '', Routine_type "
                  "enum('FUNCTION','PROCEDURE','PACKAGE','PACKAGE BODY') NOT NULL, "
                  "Grantor varchar(384) NOT NULL DEFAULT '', "
                  "Proc_priv set('Execute','Alter Routine','Grant') NOT NULL DEFAULT '', "
                  "Timestamp timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE "
                  "current_timestamp(), PRIMARY KEY (Host, Db, User, Routine_name, "
                  "Routine_type), KEY Grantor (Grantor)) COMMENT='Procedure privileges'",
    "proxies_priv": _KEY + "User char(128) NOT NULL DEFAULT '', "
                    "Proxied_host char(255) NOT NULL DEFAULT '', "
                    "Proxied_user char(128) NOT NULL DEFAULT '', "
                    "With_grant tinyint(1) NOT NULL DEFAULT 0, "
                    "Grantor varchar(384) NOT NULL DEFAULT '', Timestamp timestamp NOT NULL "
                    "DEFAULT current_timestamp() ON UPDATE current_timestamp(), "
                    "PRIMARY KEY (Host, User, Proxied_host, Proxied_user), KEY Grantor (Grantor)) "
                    "COMMENT='User proxy privileges'",
    # user-defined functions (CREATE FUNCTION ... SONAME), which rampmeter does not load
    "func": "name char(64) NOT NULL DEFAULT '', ret tinyint(1) NOT NULL DEFAULT 0, "
            "dl char(128) NOT NULL DEFAULT '', type enum('function','aggregate') NOT NULL, "
            "PRIMARY KEY (name)) COMMENT='User defined functions'",
    # foreign servers: CREATE / ALTER / DROP SERVER write it (servers.py)
    "servers": "Server_name char(64) NOT NULL DEFAULT '', Host varchar(2048) NOT NULL DEFAULT '', "
               "Db char(64) NOT NULL DEFAULT '', Username char(128) NOT NULL DEFAULT '', "
               "Password char(64) NOT NULL DEFAULT '', Port int(4) NOT NULL DEFAULT 0, "
               "Socket char(108) NOT NULL DEFAULT '', Wrapper char(64) NOT NULL DEFAULT '', "
               "Owner varchar(512) NOT NULL DEFAULT '', PRIMARY KEY (Server_name)) "
               "CHARSET=utf8mb3 COMMENT='MySQL Foreign Servers table'",
    # the engine-independent statistics (MariaDB's EITS, filled by ANALYZE TABLE ... PERSISTENT
    # FOR): rampmeter keeps none, so they stay empty; ordinary tables a client may fill or rename
    "table_stats": "db_name varchar(64) NOT NULL, table_name varchar(64) NOT NULL, "
                   "cardinality bigint(21) unsigned DEFAULT NULL, PRIMARY KEY (db_name, "
                   "table_name)) CHARSET=utf8mb3 COLLATE=utf8mb3_bin COMMENT='Statistics on Tables'",
    "column_stats": "db_name varchar(64) NOT NULL, table_name varchar(64) NOT NULL, "
                    "column_name varchar(64) NOT NULL, min_value varbinary(255) DEFAULT NULL, "
                    "max_value varbinary(255) DEFAULT NULL, nulls_ratio decimal(12,4) DEFAULT NULL, "
                    "avg_length decimal(12,4) DEFAULT NULL, "
                    "avg_frequency decimal(12,4) DEFAULT NULL, hist_size tinyint unsigned, "
                    "hist_type enum('SINGLE_PREC_HB','DOUBLE_PREC_HB','JSON_HB'), "
                    "histogram longblob, PRIMARY KEY (db_name, table_name, column_name)) "
                    "CHARSET=utf8mb3 COLLATE=utf8mb3_bin COMMENT='Statistics on Columns'",
    "index_stats": "db_name varchar(64) NOT NULL, table_name varchar(64) NOT NULL, "
                   "index_name varchar(64) NOT NULL, prefix_arity int(11) unsigned NOT NULL, "
                   "avg_frequency decimal(12,4) DEFAULT NULL, PRIMARY KEY (db_name, table_name, "
                   "index_name, prefix_arity)) CHARSET=utf8mb3 COLLATE=utf8mb3_bin "
                   "COMMENT='Statistics on Indexes'",
    # plugins INSTALL PLUGIN loaded (rampmeter loads none)
    "plugin": "name varchar(64) NOT NULL DEFAULT '', dl varchar(128) NOT NULL DEFAULT '', "
              "PRIMARY KEY (name)) CHARSET=utf8mb3 COMMENT='MySQL plugins'",
    # a replica's GTID position (rampmeter replicates nothing)
    "gtid_slave_pos": "domain_id int(10) unsigned NOT NULL, sub_id bigint(20) unsigned NOT NULL, "
                      "server_id int(10) unsigned NOT NULL, seq_no bigint(20) unsigned NOT NULL, "
                      "PRIMARY KEY (domain_id, sub_id)) CHARSET=latin1 "
                      "COMMENT='Replication slave GTID position'",
    # InnoDB's persistent statistics (rampmeter's tables are SQLite's: none kept)
    "innodb_index_stats": "database_name varchar(64) NOT NULL, table_name varchar(199) NOT NULL, "
                          "index_name varchar(64) NOT NULL, last_update timestamp NOT NULL "
                          "DEFAULT current_timestamp() ON UPDATE current_timestamp(), "
                          "stat_name varchar(64) NOT NULL, stat_value bigint(20) unsigned NOT "
                          "NULL, sample_size bigint(20) unsigned DEFAULT NULL, stat_description "
                          "varchar(1024) NOT NULL, PRIMARY KEY (database_name, table_name, "
                          "index_name, stat_name)) CHARSET=utf8mb3 COLLATE=utf8mb3_bin",
    "innodb_table_stats": "database_name varchar(64) NOT NULL, table_name varchar(199) NOT NULL, "
                          "last_update timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE "
                          "current_timestamp(), n_rows bigint(20) unsigned NOT NULL, "
                          "clustered_index_size bigint(20) unsigned NOT NULL, "
                          "sum_of_other_index_sizes bigint(20) unsigned NOT NULL, PRIMARY KEY "
                          "(database_name, table_name)) CHARSET=utf8mb3 COLLATE=utf8mb3_bin",
    # InnoDB's registry of transaction ids for system versioning by transaction (not here)
    "transaction_registry": "transaction_id bigint(20) unsigned NOT NULL, commit_id bigint(20) "
                            "unsigned NOT NULL, begin_timestamp timestamp(6) NOT NULL DEFAULT "
                            "'0000-00-00 00:00:00.000000', commit_timestamp timestamp(6) NOT "
                            "NULL DEFAULT '0000-00-00 00:00:00.000000', isolation_level "
                            "enum('READ-UNCOMMITTED','READ-COMMITTED','REPEATABLE-READ',"
                            "'SERIALIZABLE') NOT NULL, PRIMARY KEY (transaction_id), UNIQUE KEY "
                            "commit_id (commit_id), KEY begin_timestamp (begin_timestamp), KEY "
                            "commit_timestamp (commit_timestamp, transaction_id)) "
                            "CHARSET=utf8mb3 COLLATE=utf8mb3_bin",
    # the time zone tables mariadb-tzinfo-to-sql fills: rampmeter's named time zones come from
    # the system's tzdata (config/timezones.py), not from these, which stay as clients fill them
    "time_zone": "Time_zone_id int(10) unsigned NOT NULL AUTO_INCREMENT, Use_leap_seconds "
                 "enum('Y','N') NOT NULL DEFAULT 'N', PRIMARY KEY (Time_zone_id)) "
                 "CHARSET=utf8mb3 COMMENT='Time zones'",
    "time_zone_leap_second": "Transition_time bigint(20) NOT NULL, Correction int(11) NOT NULL, "
                             "PRIMARY KEY (Transition_time)) CHARSET=utf8mb3 "
                             "COMMENT='Leap seconds information for time zones'",
    "time_zone_name": "Name char(64) NOT NULL, Time_zone_id int(10) unsigned NOT NULL, "
                      "PRIMARY KEY (Name)) CHARSET=utf8mb3 COMMENT='Time zone names'",
    "time_zone_transition": "Time_zone_id int(10) unsigned NOT NULL, Transition_time bigint(20) "
                            "NOT NULL, Transition_type_id int(10) unsigned NOT NULL, PRIMARY KEY "
                            "(Time_zone_id, Transition_time)) CHARSET=utf8mb3 "
                            "COMMENT='Time zone transitions'",
    "time_zone_transition_type": "Time_zone_id int(10) unsigned NOT NULL, Transition_type_id "
                                 "int(10) unsigned NOT NULL, `Offset` int(11) NOT NULL DEFAULT "
                                 "0, Is_DST tinyint(3) unsigned NOT NULL DEFAULT 0, Abbreviation "
                                 "char(8) NOT NULL DEFAULT '', PRIMARY KEY (Time_zone_id, "
                                 "Transition_type_id)) CHARSET=utf8mb3 "
                                 "COMMENT='Time zone transition types'",
    # the server-side help (HELP, help.py): empty, as before fill_help_tables.sql
    "help_topic": "help_topic_id int(10) unsigned NOT NULL, name char(64) NOT NULL, "
                  "help_category_id smallint(5) unsigned NOT NULL, description text NOT NULL, "
                  "example text NOT NULL, url text NOT NULL, PRIMARY KEY (help_topic_id), "
                  "UNIQUE KEY name (name)) CHARSET=utf8mb3 COMMENT='help topics'",
    "help_category": "help_category_id smallint(5) unsigned NOT NULL, name char(64) NOT NULL, "
                     "parent_category_id smallint(5) unsigned DEFAULT NULL, url text NOT NULL, "
                     "PRIMARY KEY (help_category_id), UNIQUE KEY name (name)) CHARSET=utf8mb3 "
                     "COMMENT='help categories'",
    "help_keyword": "help_keyword_id int(10) unsigned NOT NULL, name char(64) NOT NULL, "
                    "PRIMARY KEY (help_keyword_id), UNIQUE KEY name (name)) CHARSET=utf8mb3 "
                    "COMMENT='help keywords'",
    "help_relation": "help_topic_id int(10) unsigned NOT NULL, help_keyword_id int(10) unsigned "
                     "NOT NULL, PRIMARY KEY (help_keyword_id, help_topic_id), KEY help_topic_id "
                     "(help_topic_id)) CHARSET=utf8mb3 COMMENT='keyword-topic relation'",
}


def _lit(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(value)
    text = str(value).replace("\\", "\\\\").replace("'", "''")
    return f"'{text}'"


def _yn(bits: int, bit: int) -> str:
    return "Y" if bits & bit else "N"


def _priv_json(a: Account) -> str:
    """global_priv.Priv as MariaDB writes it."""
    # mariadb-install-db's rows: no version_id until a statement rewrites them, and root's
    # ALL spelt as every bit (mysql_system_tables_data.sql). A row of other privileges gets
    # its version_id, which reading it back needs (privileges.stored_access).
    if a.installed and a.access in (0, GLOBAL_ACLS):
        out: dict[str, Any] = {"access": (1 << 64) - 1 if a.access else 0}
    else:
        out = {"access": a.access, "version_id": VERSION_ID}
    if a.is_role:
        out["is_role"] = True
    else:
        if a.plugin:  # root's row from mariadb-install-db names no plugin
            out.update(plugin=a.plugin, authentication_string=a.auth_string)
        if a.ssl_type:
            out.update(ssl_type=SSL_TYPES.index(a.ssl_type), ssl_cipher=a.ssl_cipher,
                       x509_issuer=a.x509_issuer, x509_subject=a.x509_subject)
        for key in ("max_questions", "max_updates", "max_connections", "max_user_connections"):
            if getattr(a, key):
                out[key] = getattr(a, key)
        if a.locked or a.locked_set:  # written once ACCOUNT LOCK / UNLOCK was given
            out["account_locked"] = a.locked
        if a.default_role:
            out["default_role"] = a.default_role
        # PASSWORD EXPIRE: password_last_changed 0, and its lifetime
        if a.expired:
            out["password_last_changed"] = 0
        if a.lifetime is not None:
            out["password_lifetime"] = a.lifetime
    return json.dumps(out, separators=(",", ":"))


def rows(t: GrantTables) -> dict[str, list[tuple[Any, ...]]]:
    """Every mirror table's rows for the grant snapshot `t`."""
    accounts = sorted(t.accounts.values(), key=lambda a: (a.user, a.host))
    out: dict[str, list[tuple[Any, ...]]] = {name: [] for name in TABLES}
    for a in accounts:
        out["global_priv"].append((a.host, a.user, _priv_json(a)))
        password = a.auth_string if a.plugin in ("mysql_native_password",
                                                  "mysql_old_password") else ""
        out["user"].append((
            a.host, a.user, password, *(_yn(a.access, 1 << i) for i in range(30)),
            a.ssl_type, a.ssl_cipher, a.x509_issuer, a.x509_subject, a.max_questions,
            a.max_updates, a.max_connections, a.max_user_connections,
            "" if a.is_role else a.plugin, "" if a.is_role else a.auth_string,
            "Y" if a.expired else "N",
            "Y" if a.is_role else "N", a.default_role, 0))
    for d in t.dbs:
        out["db"].append((d.host, d.db, d.user, *(_yn(d.access, bit) for _, bit in DB_PRIV_COLUMNS)))
    for g in t.tables.values():
        out["tables_priv"].append((g.host, g.db, g.user, g.table, g.grantor, None,
                                   set_text(g.access), set_text(g.column_access & COL_ACLS)))
        for col, bits in g.columns.items():
            out["columns_priv"].append((g.host, g.db, g.user, g.table, col, None,
                                        set_text(bits & COL_ACLS)))
    for r in t.roles:
        out["roles_mapping"].append((r.host, r.user, r.role, "Y" if r.admin else "N"))
    return out


def _present(session: EngineSession) -> set[str]:
    """The (lower-case) names of the tables in the mysql database now."""
    return {t.lower() for t in session.list_tables(MYSQL)}


def user_is_view(session: EngineSession) -> bool | None:
    """Is mysql.user the mirror's (MariaDB's view), a table of the client's, or absent (None)?"""
    try:
        text = session.show_create_table("user", MYSQL)
    except ServerError:
        return None
    return USER_VIEW_COMMENT in text


class _SystemContext:
    """What the mirror's engine session may ask: nothing a client sets."""

    connection_id = 0
    user = "system@localhost"
    current_user = "system@localhost"
    row_count = -1
    # (collation_connection, div_precision_increment, sql_select_limit): the defaults
    translation = ("utf8mb4_general_ci", 4, 2**64 - 1)

    def __init__(self, variables: Any) -> None:
        self._variables = variables

    def system_variable(self, name: str, scope: str | None = None) -> Any:
        if name == "sql_mode":  # fixed: the literals below are written for this mode
            return "STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION"
        try:
            return self._variables[name]
        except KeyError:
            return None

    def user_variable(self, name: str) -> Any:
        return None

    def set_user_variable(self, name: str, value: Any) -> None:
        pass

    def virtual_table(self, schema: str, table: str) -> Any:
        return None


class MysqlMirror:
    """An AccountStore listener: keeps the mysql database equal to each new snapshot."""

    def __init__(self, engine: Engine, variables: Any, log: logging.Logger) -> None:
        self._engine = engine
        self._variables = variables
        self._log = log
        self._lock = threading.Lock()
        self._session: EngineSession | None = None
        self._canonical: dict[str, list[str]] = {}  # each mirror table's columns as made
        self.stale = True  # until a fill succeeds

    def __call__(self, tables: GrantTables) -> None:
        with self._lock:
            session = self._session
            try:
                self.stale = True
                if session is None:
                    session = self._create()
                self._fill(session, tables)
                self.stale = False
            finally:
                if self._session is not None:
                    self._session.idle()  # its handle goes back to the engine's pool

    def edited(self, current: GrantTables) -> GrantTables | None:
        """FLUSH PRIVILEGES: the grants the tables hold when edited by hand, else None. The
        accounts come from mysql.global_priv, or, when it is gone and mysql.user is a table of
        the client's, from mysql.user (usertable.py)."""
        with self._lock:
            if self.stale or self._session is None:
                return None
            session = self._session
            try:
                present = _present(session)
                view = user_is_view(session)
                if "global_priv" not in present and (view is None or view):
                    return None  # no accounts table: the file's grants stay
                rows: dict[str, list[tuple[Any, ...]]] = {}
                for name, sql in grantedit.QUERIES.items():
                    if name == "global_priv" and name not in present:
                        result = session.execute("SELECT * FROM mysql.user")
                        names = [c.name for c in result.columns]  # type: ignore[union-attr]
                        rows[name] = list(usertable.global_priv_rows(
                            names, [tuple(r) for r in result.rows]))  # type: ignore[union-attr]
                    elif name == "user" and not view:  # deletions are read from the view
                        rows[name] = [(a.host, a.user) for a in current.accounts.values()]
                    elif name not in present:
                        rows[name] = []
                    else:
                        rows[name] = [tuple(r) for r in session.execute(sql).rows]  # type: ignore[union-attr]
            finally:
                session.idle()
        tables, warnings = grantedit.from_rows(rows, current)
        for w in warnings:
            self._log.warning("FLUSH PRIVILEGES: %s", w)
        return None if grantedit.same(tables, current) else tables

    def _create(self) -> EngineSession:
        session = self._engine.open_session(_SystemContext(self._variables),
                                            lambda reason, state=None: nullcontext())
        if not self._engine.database_exists(MYSQL):
            session.execute(f"CREATE DATABASE {MYSQL}")
        for name, body in TABLES.items():  # the definitions of this version, whatever was there
            session.execute(f"DROP TABLE IF EXISTS {MYSQL}.{name}")
            session.execute(f"CREATE TABLE {MYSQL}.{name} ({body}")
            self._canonical[name] = self._columns_of(session, name)
        for name, body in SYSTEM_TABLES.items():
            session.execute(f"CREATE TABLE IF NOT EXISTS {MYSQL}.{name} ({body}")
        if not self._engine.database_exists(SYS):  # installed once; a client may drop it
            for statement in SYS_SCHEMA:
                session.execute(statement)
        self._session = session
        return session

    def _fill(self, session: EngineSession, tables: GrantTables) -> None:
        """Rewrite the mirror's tables that are there (a client may have renamed some away),
        by column name (a client may have altered them); mysql.user gets the view's rows, or,
        while it is a table of the client's in place of a missing global_priv, the accounts as
        MariaDB writes them to such a table (usertable.py)."""
        data = rows(tables)
        present = _present(session)
        view = user_is_view(session)
        session.execute("BEGIN")
        try:
            for name, values in data.items():
                if name not in present:
                    continue
                if name == "user" and not view:
                    if "global_priv" in present:
                        continue  # the client's table beside global_priv: MariaDB leaves it
                    names = self._columns_of(session, name)
                    values = [tuple(r.get(n.lower()) for n in names)
                              for r in (usertable.row_of(a) for a in sorted(
                                  tables.accounts.values(), key=lambda a: (a.user, a.host)))]
                else:
                    canonical = self._canonical.get(name, [])
                    have = {n.lower() for n in self._columns_of(session, name)}
                    keep = [i for i, n in enumerate(canonical) if n.lower() in have]
                    names = [canonical[i] for i in keep]
                    values = [tuple(row[i] for i in keep) for row in values]
                session.execute(f"DELETE FROM {MYSQL}.{name}")
                if values:
                    body = ", ".join("(" + ", ".join(_lit(v) for v in row) + ")"
                                     for row in values)
                    cols = ", ".join(f"`{n}`" for n in names)
                    session.execute(f"INSERT INTO {MYSQL}.{name} ({cols}) VALUES {body}")
            session.execute("COMMIT")
        except BaseException:
            session.execute("ROLLBACK")
            raise

    @staticmethod
    def _columns_of(session: EngineSession, name: str) -> list[str]:
        return [c.name for c in session.table_columns(name, MYSQL)]

    def close(self) -> None:
        with self._lock:
            if self._session is not None:
                self._session.close()
                self._session = None
