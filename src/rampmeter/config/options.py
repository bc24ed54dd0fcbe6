"""The one registry of server options and system variables.

Rules:
- Every knob rampmeter has is declared here once, as an `Option`: its MariaDB/MySQL name, type,
  default, range, unit, scope and whether SET may change it at run time. The command line, option
  files, SHOW VARIABLES, SET validation and the docs table are all generated from this table;
  nothing else in the project declares a knob.
- Names, defaults, ranges and units are MariaDB 10.11's unless the comment says otherwise
  (../shared/reference/threadpool.md §2 and conventions.md §1). Variables from Percona or MySQL
  Enterprise keep their vendor's name and meaning.
- `Option.coerce` turns a value from SQL, a flag or a my.cnf line into the stored type. Out of
  range integers are clamped with a 1292 "Truncated incorrect ... value" warning, as MariaDB does
  (mysql-test/suite/sys_vars/t/thread_pool_*_basic.test); values of the wrong kind raise 1232 /
  1231.
This module imports only errors.
"""

from __future__ import annotations

import enum
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from rampmeter import errors
from rampmeter.config import timezones
from rampmeter.errors import ServerError, Warning_


class Scope(enum.Flag):
    GLOBAL = 1
    SESSION = 2
    BOTH = GLOBAL | SESSION


class Kind(enum.Enum):
    BOOL = "bool"
    INT = "int"
    STR = "str"
    ENUM = "enum"
    SET = "set"  # comma-separated subset of choices (sql_mode)
    DOUBLE = "double"
    FLAGSET = "flagset"  # name=on,name=off,...: SET changes the flags named (optimizer_switch)


_TRUE = {"1", "on", "true", "yes"}
_FALSE = {"0", "off", "false", "no"}
UINT_MAX = 4294967295


@dataclass(frozen=True)
class Option:
    name: str
    kind: Kind
    default: Any
    help: str
    scope: Scope = Scope.GLOBAL
    dynamic: bool = True
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    unit: str = ""
    cli: bool = True          # may be given on the command line / in an option file
    sysvar: bool = True       # shown by SHOW VARIABLES and readable as @@name
    session_readonly: bool = False  # the session value exists but SET SESSION is refused
    aliases: tuple[str, ...] = field(default=())
    # MariaDB has it and rampmeter has no such subsystem: accepted, stored, shown, no effect
    # (mariadb_variables.py; docs/sql.md "System variables")
    compat: bool = False
    # A STR option's validator: the value to store for a given text (raises ServerError).
    check: Callable[[str], str] | None = None
    # An INT option's value is rounded down to a multiple of this (MariaDB's block size)
    block: int = 1

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def coerce(self, value: Any, *, maximum: int | None = None,
               current: Any = None) -> tuple[Any, list[Warning_]]:
        """Validate `value` for this option; return (stored value, warnings). `current`: the
        value a FLAGSET assignment changes (default: the option's default)."""
        if self.kind is Kind.DOUBLE:
            return _coerce_double(self, value)
        if self.kind is Kind.FLAGSET:
            return _coerce_flagset(self, value, self.default if current is None else current), []
        if self.kind is Kind.BOOL:
            return _coerce_bool(self.name, value), []
        if self.kind is Kind.INT:
            return _coerce_int(self, value, maximum)
        if self.kind is Kind.ENUM:
            return _coerce_enum(self, value), []
        if self.kind is Kind.SET:
            return _coerce_set(self, value), []
        if value is None:
            return "", []
        if isinstance(value, bytes):
            value = value.decode("utf-8", "replace")
        if self.check is not None:
            return self.check(str(value)), []
        return str(value), []

    def display(self, value: Any) -> str:
        """The text SHOW VARIABLES prints for a stored value."""
        if self.kind is Kind.BOOL:
            return "ON" if value else "OFF"
        if value is None:
            return ""
        if self.kind is Kind.DOUBLE:
            return f"{float(value):.6f}"
        return str(value)

    def sql_value(self, value: Any) -> Any:
        """The value SELECT @@name returns (MariaDB returns booleans as 0/1 integers)."""
        if self.kind is Kind.BOOL:
            return 1 if value else 0
        if self.kind is Kind.DOUBLE:  # MariaDB: a DOUBLE with 6 decimals (0.000000)
            return Decimal(f"{float(value):.6f}")
        return value


# MariaDB's spelling of its storage engines' names: a variable naming one shows it so,
# whatever case it was given in (default-storage-engine=myisam reads back MyISAM).
_ENGINE_SPELLING = {n.lower(): n for n in (
    "MyISAM", "InnoDB", "MEMORY", "Aria", "CSV", "ARCHIVE", "BLACKHOLE", "MRG_MyISAM",
    "SEQUENCE", "FEDERATED")}
_ENGINE_SPELLING["heap"] = "MEMORY"


def engine_spelling(value: str) -> str:
    return _ENGINE_SPELLING.get(value.lower(), value)


def _coerce_double(opt: Option, value: Any) -> tuple[float, list[Warning_]]:
    if isinstance(value, bytes):
        value = value.decode()
    try:
        number = float(value.strip()) if isinstance(value, str) else float(value)
    except (TypeError, ValueError):
        raise ServerError(errors.ER_WRONG_TYPE_FOR_VAR, opt.name) from None
    lo = opt.minimum if opt.minimum is not None else number
    hi = opt.maximum if opt.maximum is not None else number
    clamped = min(max(number, lo), hi)
    if clamped != number:
        return clamped, [Warning_.of(errors.ER_TRUNCATED_WRONG_VALUE, opt.name, value)]
    return number, []


def _shown(value: Any) -> Any:
    """A refused value as 1231 quotes it: NULL for SQL's NULL."""
    return "NULL" if value is None else value


def _coerce_flagset(opt: Option, value: Any, current: str) -> str:
    """'a=on,b=off' changes those flags of `current`; 'default' first resets them all."""
    if isinstance(value, bytes):
        value = value.decode()
    if not isinstance(value, str):
        raise ServerError(errors.ER_WRONG_VALUE_FOR_VAR, opt.name, _shown(value))
    flags = dict(part.split("=", 1) for part in str(current).split(",") if "=" in part)
    defaults = dict(part.split("=", 1) for part in str(opt.default).split(",") if "=" in part)
    for part in (p.strip() for p in value.split(",")):
        if not part:
            continue
        if part.lower() == "default":
            flags = dict(defaults)
            continue
        name, eq, setting = part.partition("=")
        name, setting = name.strip().lower(), setting.strip().lower()
        if not eq or name not in defaults or setting not in ("on", "off", "default"):
            raise ServerError(errors.ER_WRONG_VALUE_FOR_VAR, opt.name, part)
        flags[name] = defaults[name] if setting == "default" else setting
    return ",".join(f"{k}={v}" for k, v in flags.items())


def _coerce_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, (str, bytes)):
        text = value.decode() if isinstance(value, bytes) else value
        low = text.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise ServerError(errors.ER_WRONG_VALUE_FOR_VAR, name, text)
    if isinstance(value, float):
        raise ServerError(errors.ER_WRONG_TYPE_FOR_VAR, name)
    raise ServerError(errors.ER_WRONG_VALUE_FOR_VAR, name, value)


def _coerce_int(opt: Option, value: Any, maximum: int | None) -> tuple[int, list[Warning_]]:
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, (str, bytes)):
        text = value.decode() if isinstance(value, bytes) else value
        try:
            value = int(text.strip(), 0) if text.strip().lower().startswith("0x") else int(text.strip())
        except ValueError:
            raise ServerError(errors.ER_WRONG_TYPE_FOR_VAR, opt.name) from None
    elif isinstance(value, float):
        raise ServerError(errors.ER_WRONG_TYPE_FOR_VAR, opt.name)
    elif not isinstance(value, int):
        raise ServerError(errors.ER_WRONG_TYPE_FOR_VAR, opt.name)
    lo = opt.minimum
    hi = opt.maximum if maximum is None else maximum
    clamped = value
    if hi is not None and clamped > hi:
        clamped = hi
    if opt.block > 1 and clamped > 0:  # MariaDB: down to the block size, then the minimum
        clamped -= clamped % opt.block
    if lo is not None and clamped < lo:
        clamped = lo
    if clamped != value:
        return clamped, [Warning_.of(errors.ER_TRUNCATED_WRONG_VALUE, opt.name, value)]
    return value, []


def _coerce_enum(opt: Option, value: Any) -> str:
    if isinstance(value, bytes):
        value = value.decode()
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(opt.choices):
        return opt.choices[value]
    if isinstance(value, str):
        low = value.strip().lower()
        for choice in opt.choices:
            if choice.lower() == low:
                return choice
    raise ServerError(errors.ER_WRONG_VALUE_FOR_VAR, opt.name, _shown(value))


def _coerce_set(opt: Option, value: Any) -> str:
    """A SET value: names (any case) or a number (a bit mask of the choices), shown in the
    choices' order; sql_mode's combination modes bring the modes they stand for."""
    if isinstance(value, bytes):
        value = value.decode()
    if isinstance(value, int) and not isinstance(value, bool) and opt.choices:
        if value < 0 or value >= 1 << len(opt.choices):
            raise ServerError(errors.ER_WRONG_VALUE_FOR_VAR, opt.name, _shown(value))
        # as the names it stands for: sql_mode's combinations bring theirs (ANSI's 262144)
        value = ",".join(c for i, c in enumerate(opt.choices) if value >> i & 1)
    if not isinstance(value, str):
        raise ServerError(errors.ER_WRONG_VALUE_FOR_VAR, opt.name, _shown(value))
    parts = [p.strip().upper() for p in value.split(",") if p.strip()]
    if not opt.choices:
        return ",".join(parts)
    allowed = {c.upper(): c for c in opt.choices}
    chosen = set()
    for part in parts:
        if part not in allowed:
            raise ServerError(errors.ER_WRONG_VALUE_FOR_VAR, opt.name, part)
        chosen.add(part)
        if opt.name == "sql_mode":
            chosen.update(_SQL_MODE_COMBOS.get(part, ()))
    return ",".join(allowed[c.upper()] for c in opt.choices if c.upper() in chosen)


_ORACLE_LIKE = ("PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "NO_KEY_OPTIONS",
                "NO_TABLE_OPTIONS", "NO_FIELD_OPTIONS")
# MariaDB's combination sql_modes (sql/sql_class.cc fix_sql_mode) and what they stand for
_SQL_MODE_COMBOS: dict[str, tuple[str, ...]] = {
    "ANSI": ("REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE"),
    "DB2": _ORACLE_LIKE, "MSSQL": _ORACLE_LIKE, "POSTGRESQL": _ORACLE_LIKE,
    "MAXDB": _ORACLE_LIKE + ("NO_AUTO_CREATE_USER",),
    "ORACLE": _ORACLE_LIKE + ("NO_AUTO_CREATE_USER", "SIMULTANEOUS_ASSIGNMENT"),
    "MYSQL323": ("HIGH_NOT_PRECEDENCE",), "MYSQL40": ("HIGH_NOT_PRECEDENCE",),
    "TRADITIONAL": ("STRICT_TRANS_TABLES", "STRICT_ALL_TABLES", "NO_ZERO_IN_DATE",
                    "NO_ZERO_DATE", "ERROR_FOR_DIVISION_BY_ZERO", "NO_AUTO_CREATE_USER",
                    "NO_ENGINE_SUBSTITUTION"),
}


# --- the registry ----------------------------------------------------------------------------

def _cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def default_thread_pool_size() -> int:
    """thread_pool_size's default. MariaDB's is the CPU count, so that each CPU has one group,
    and so one running thread. Here only one thread at a time runs Python while the
    interpreter has a GIL, so a second group adds no CPU for the server's own code. It does add
    a second listener and worker that hand the GIL back and forth with the first at every
    system call. Each hand-off costs context switches: on a two-CPU machine, 4 per point select
    with two groups against none with one, and one group served 1.8 times (pure Python) to 2.6
    times (compiled) the point selects at 16 connections (docs/performance.md, "One group
    under the GIL"). So one group while the GIL is on, MariaDB's CPU count on a free-threaded
    build. Either way it can be set like MariaDB's, at start-up or at run time."""
    return 1 if _gil() else _cpu_count()


def default_max_active_query_threads() -> int:
    """thread_pool_max_active_query_threads' default. MySQL's is 0, no cap beyond
    oversubscribe, so up to 1 + thread_pool_oversubscribe (4) threads of a group run statements.
    More than one running thread in a group happens after waits: a thread that was blocked on a
    lock wakes while the thread that took over from it is still running, and both then take
    requests from the queue. Under the GIL they only take turns, handing the GIL over at every
    system call. With 16 sysbench oltp_read_write clients, whose transactions queue for SQLite's
    single writer, that was 11-13 voluntary context switches per statement. With a cap of one
    it is 3, and the same machine serves 25-30 % more statements at 27-30 % less CPU per
    statement (docs/performance.md, "One group under the GIL"). A woken waiter still finishes its
    statement; it just takes no further requests while another thread runs. Waiting threads
    are not active, and a stalled group lifts the cap, as before. So the cap is 1 while the GIL is
    on, and MySQL's 0 on a free-threaded build."""
    return 1 if _gil() else 0


def _gil() -> bool:
    gil_enabled = getattr(sys, "_is_gil_enabled", None)
    return gil_enabled is None or bool(gil_enabled())


SERVER_VERSION = "10.11.99-MariaDB-rampmeter"

# sql_mode members MariaDB 10.11 knows (sql/sql_class.h); we store and show them, and honour
# the few the engine can (ANSI_QUOTES, NO_BACKSLASH_ESCAPES, PIPES_AS_CONCAT are parsed).
SQL_MODES = (
    "REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "IGNORE_BAD_TABLE_OPTIONS",
    "ONLY_FULL_GROUP_BY", "NO_UNSIGNED_SUBTRACTION", "NO_DIR_IN_CREATE", "POSTGRESQL", "ORACLE",
    "MSSQL", "DB2", "MAXDB", "NO_KEY_OPTIONS", "NO_TABLE_OPTIONS", "NO_FIELD_OPTIONS", "MYSQL323",
    "MYSQL40", "ANSI", "NO_AUTO_VALUE_ON_ZERO", "NO_BACKSLASH_ESCAPES", "STRICT_TRANS_TABLES",
    "STRICT_ALL_TABLES", "NO_ZERO_IN_DATE", "NO_ZERO_DATE", "ALLOW_INVALID_DATES",
    "ERROR_FOR_DIVISION_BY_ZERO", "TRADITIONAL", "NO_AUTO_CREATE_USER", "HIGH_NOT_PRECEDENCE",
    "NO_ENGINE_SUBSTITUTION", "PAD_CHAR_TO_FULL_LENGTH", "EMPTY_STRING_IS_NULL",
    "SIMULTANEOUS_ASSIGNMENT", "TIME_ROUND_FRACTIONAL",
)

G, S, B = Scope.GLOBAL, Scope.SESSION, Scope.BOTH

_OPTIONS: list[Option] = [
    # --- server, network --------------------------------------------------------------------
    Option("port", Kind.INT, 3306, "TCP port to listen on; 0 picks a free port (tests).",
           dynamic=False, minimum=0, maximum=65535),
    Option("bind_address", Kind.STR, "127.0.0.1",
           "Address to listen on. MariaDB listens on all interfaces by default; rampmeter is a "
           "development server and binds to loopback unless told otherwise.", dynamic=False),
    Option("socket", Kind.STR, "", "Unix socket path to listen on as well (empty: none).",
           dynamic=False),
    Option("datadir", Kind.STR, "./data", "Directory holding one SQLite file per database, "
           "the accounts file and the RSA key pair.", dynamic=False),
    Option("max_connections", Kind.INT, 151, "Client connections allowed at once; one more is "
           "admitted for an administrator, as MySQL does. Beyond: error 1040.",
           minimum=1, maximum=100000),
    Option("extra_port", Kind.INT, 0, "A second TCP port served one thread per connection, so "
           "an administrator gets in when every pool thread is blocked (0: off).",
           dynamic=False, minimum=0, maximum=65535),
    Option("extra_max_connections", Kind.INT, 1, "Connections allowed on extra_port.",
           minimum=1, maximum=100000),
    # Dynamic as in TXSQL: SET GLOBAL switches between the pool and one thread per connection
    # (pool/switch.py); no-threads is a start-up choice only.
    Option("thread_handling", Kind.ENUM, "pool-of-threads",
           "How connections get threads: the thread pool (default), one thread per connection, "
           "or one thread for everything (debugging). SET GLOBAL switches between the first two "
           "without a restart.",
           choices=("one-thread-per-connection", "no-threads", "pool-of-threads")),
    Option("log_error", Kind.STR, "", "Error log file (empty: standard error).", dynamic=False),
    Option("log_warnings", Kind.INT, 2, "Verbosity of the error log (MariaDB): 0 errors, 1 "
           "warnings, 2 notes incl. aborted connections.", minimum=0, maximum=4294967295),
    Option("ssl_cert", Kind.STR, "", "PEM certificate for TLS (with ssl_key).", dynamic=False),
    Option("ssl_key", Kind.STR, "", "PEM private key for TLS.", dynamic=False),
    Option("ssl_ca", Kind.STR, "", "PEM CA bundle (client certificates are not required).",
           dynamic=False),
    Option("have_ssl", Kind.STR, "DISABLED", "YES when TLS is configured.", dynamic=False,
           cli=False),
    Option("have_compress", Kind.STR, "YES", "COMPRESS() and UNCOMPRESS() work (zlib); the "
           "compressed protocol is not offered.", dynamic=False, cli=False),
    Option("have_geometry", Kind.STR, "YES", "The spatial types and functions are there "
           "(engine/spatial.py); spatial indexes are not.", dynamic=False, cli=False),
    Option("metrics_port", Kind.INT, 0, "rampmeter: serve Prometheus /metrics on this port on "
           "bind_address (0: off).", dynamic=False, minimum=0, maximum=65535),
    Option("version", Kind.STR, SERVER_VERSION, "Server version string sent in the handshake.",
           dynamic=False, cli=False),
    Option("version_comment", Kind.STR, "rampmeter: MySQL protocol, thread pool, SQLite storage",
           "Shown by the mysql client banner.", dynamic=False, cli=False),
    Option("version_compile_os", Kind.STR, "Linux", "", dynamic=False, cli=False),
    Option("version_compile_machine", Kind.STR, os.uname().machine if hasattr(os, "uname") else "",
           "", dynamic=False, cli=False),
    Option("protocol_version", Kind.INT, 10, "", dynamic=False, cli=False),
    Option("hostname", Kind.STR, os.uname().nodename if hasattr(os, "uname") else "localhost",
           "", dynamic=False, cli=False),
    Option("server_id", Kind.INT, 1, "", minimum=0, maximum=4294967295),
    Option("pid_file", Kind.STR, "", "Write the process id to this file.", dynamic=False),
    # 2: table names are kept as given and compared case-insensitively (SQLite's own rule for
    # them); MariaDB on Linux says 0 and tells `t` from `T`. Database names are case-sensitive
    # (file names), as with 0. docs/sql.md lists this.
    Option("lower_case_table_names", Kind.INT, 2, "", dynamic=False, cli=False),
    Option("license", Kind.STR, "MIT", "", dynamic=False, cli=False),
    Option("skip_name_resolve", Kind.BOOL, True, "Client host names are never resolved.",
           dynamic=False),
    Option("skip_grant_tables", Kind.BOOL, False, "Start without checking passwords or "
           "privileges (to recover a lost root password or a damaged grant file); FLUSH "
           "PRIVILEGES turns checking on.", dynamic=False, sysvar=False),
    Option("default_authentication_plugin", Kind.ENUM, "mysql_native_password",
           "Plugin for CREATE USER ... IDENTIFIED BY without WITH, and the one offered in the "
           "handshake.", dynamic=False,
           choices=("mysql_native_password", "caching_sha2_password")),
    Option("performance_schema", Kind.BOOL, False, "", dynamic=False, cli=False),
    Option("read_only", Kind.BOOL, False, "Refuse writes from non-administrators."),
    Option("max_user_connections", Kind.INT, 0, "Sessions one account may have at once (0: no "
           "limit); an account's own MAX_USER_CONNECTIONS wins.", minimum=0,
           maximum=4294967295),
    Option("back_log", Kind.INT, 900, "Listen backlog.", dynamic=False, minimum=1, maximum=65535),
    # --- timeouts, packets ------------------------------------------------------------------
    Option("max_connect_errors", Kind.INT, 100, "Handshake errors in a row after which a host "
           "is blocked until FLUSH HOSTS (session/hostcache.py).", minimum=1,
           maximum=4294967295),
    Option("host_cache_size", Kind.INT, 128, "Hosts whose handshake errors are remembered.",
           minimum=0, maximum=65536),
    Option("connect_timeout", Kind.INT, 10, "Seconds a client has to finish the handshake.",
           minimum=2, maximum=31536000, unit="s"),
    Option("wait_timeout", Kind.INT, 28800, "Seconds an idle non-interactive connection is "
           "kept.", scope=B, minimum=1, maximum=31536000, unit="s"),
    Option("interactive_timeout", Kind.INT, 28800, "Seconds an idle interactive connection "
           "(CLIENT_INTERACTIVE) is kept.", scope=B, minimum=1, maximum=31536000, unit="s"),
    Option("net_read_timeout", Kind.INT, 30, "Seconds to wait for the rest of a packet.",
           scope=B, minimum=1, maximum=31536000, unit="s"),
    Option("net_write_timeout", Kind.INT, 60, "Seconds to wait for a slow reader.",
           scope=B, minimum=1, maximum=31536000, unit="s"),
    Option("max_allowed_packet", Kind.INT, 16777216, "Largest packet or statement accepted.",
           scope=B, minimum=1024, maximum=1073741824, unit="bytes", session_readonly=True),
    Option("net_buffer_length", Kind.INT, 16384, "", scope=B, minimum=1024, maximum=1048576),
    Option("lock_wait_timeout", Kind.INT, 86400, "Seconds to wait for a metadata or user lock.",
           scope=B, minimum=0, maximum=31536000, unit="s"),
    Option("innodb_lock_wait_timeout", Kind.INT, 50, "Seconds a statement waits for a lock "
           "held by another transaction (SQLite: the database write lock) before 1205.",
           scope=B, minimum=0, maximum=100000000, unit="s"),
    Option("max_statement_time", Kind.DOUBLE, 0.0, "", scope=B, minimum=0, maximum=31536000,
           unit="s", cli=False),
    # --- session behaviour ------------------------------------------------------------------
    Option("autocommit", Kind.BOOL, True, "", scope=B),
    Option("sql_mode", Kind.SET, "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,"
           "NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION", "", scope=B, choices=SQL_MODES),
    Option("transaction_isolation", Kind.ENUM, "REPEATABLE-READ", "", scope=B,
           choices=("READ-UNCOMMITTED", "READ-COMMITTED", "REPEATABLE-READ", "SERIALIZABLE"),
           aliases=("tx_isolation",)),
    Option("transaction_read_only", Kind.BOOL, False, "", scope=B, aliases=("tx_read_only",)),
    Option("character_set_client", Kind.STR, "utf8mb4", "", scope=B),
    Option("character_set_connection", Kind.STR, "utf8mb4", "", scope=B),
    Option("character_set_results", Kind.STR, "utf8mb4", "", scope=B),
    Option("character_set_server", Kind.STR, "utf8mb4", "", scope=B),
    Option("character_set_database", Kind.STR, "utf8mb4", "", scope=B),
    Option("character_set_system", Kind.STR, "utf8mb3", "", dynamic=False, cli=False),
    Option("character_set_filesystem", Kind.STR, "binary", "", scope=B),
    Option("collation_connection", Kind.STR, "utf8mb4_general_ci", "", scope=B),
    Option("collation_server", Kind.STR, "utf8mb4_general_ci", "", scope=B),
    Option("collation_database", Kind.STR, "utf8mb4_general_ci", "", scope=B),
    Option("time_zone", Kind.STR, "SYSTEM", "The time zone sessions start in "
           "(--default-time-zone): SYSTEM, an offset such as +02:00, or a zoneinfo name.",
           scope=B, check=timezones.check, aliases=("default_time_zone",)),
    Option("system_time_zone", Kind.STR, timezones.SYSTEM_TIME_ZONE, "", dynamic=False,
           cli=False),
    Option("local_infile", Kind.BOOL, True, "Allow LOAD DATA LOCAL INFILE (the client sends "
           "the file); off: error 1148."),
    Option("secure_file_priv", Kind.STR, "", "LOAD DATA INFILE (without LOCAL) reads server "
           "files only under this directory (empty: anywhere the server can read).",
           dynamic=False),
    Option("default_storage_engine", Kind.STR, "InnoDB", "The engine name a table gets when "
           "CREATE TABLE has no ENGINE= (SHOW CREATE TABLE shows it); whatever the name, every "
           "table is stored by SQLite.", scope=B, aliases=("storage_engine",),
           check=engine_spelling),
    Option("default_tmp_storage_engine", Kind.STR, "", "", scope=B, cli=False,
           check=engine_spelling),
    Option("sql_auto_is_null", Kind.BOOL, False, "", scope=B, cli=False),
    Option("sql_safe_updates", Kind.BOOL, False, "", scope=B, cli=False),
    Option("sql_select_limit", Kind.INT, 18446744073709551615, "", scope=B, minimum=0,
           maximum=18446744073709551615, cli=False),
    Option("sql_notes", Kind.BOOL, True, "", scope=B, cli=False),
    Option("sql_warnings", Kind.BOOL, False, "", scope=B, cli=False),
    Option("sql_quote_show_create", Kind.BOOL, True, "", scope=B, cli=False),
    Option("foreign_key_checks", Kind.BOOL, True, "", scope=B, cli=False),
    Option("unique_checks", Kind.BOOL, True, "", scope=B, cli=False),
    Option("big_tables", Kind.BOOL, False, "", scope=B, cli=False),
    Option("auto_increment_increment", Kind.INT, 1, "", scope=B, minimum=1, maximum=65535),
    Option("auto_increment_offset", Kind.INT, 1, "", scope=B, minimum=1, maximum=65535),
    Option("group_concat_max_len", Kind.INT, 1048576, "", scope=B, minimum=4,
           maximum=4294967295),
    Option("div_precision_increment", Kind.INT, 4, "", scope=B, minimum=0, maximum=38),
    Option("max_join_size", Kind.INT, 18446744073709551615, "", scope=B, minimum=1,
           maximum=18446744073709551615, cli=False),
    Option("long_query_time", Kind.DOUBLE, 10.0, "", scope=B, minimum=0, maximum=31536000),
    Option("init_connect", Kind.STR, "", "SQL run for each non-administrator connection."),
    Option("query_cache_size", Kind.INT, 0, "", minimum=0, maximum=0, cli=False),
    Option("query_cache_type", Kind.ENUM, "OFF", "", scope=B, choices=("OFF", "ON", "DEMAND"),
           cli=False),
    # DISABLED is a start-up value in MariaDB, refused at run time with 1231 naming the
    # value as given (SET ... = 2 names '2'): not offered here (session/sp/scheduler.py)
    Option("event_scheduler", Kind.ENUM, "OFF", "", choices=("OFF", "ON"), cli=False),
    Option("general_log", Kind.BOOL, False, "", cli=False),
    Option("slow_query_log", Kind.BOOL, False, "", cli=False),
    Option("log_bin", Kind.BOOL, False, "", dynamic=False, cli=False),
    Option("binlog_format", Kind.ENUM, "MIXED", "", scope=B, choices=("MIXED", "STATEMENT", "ROW"),
           cli=False),
    Option("engine", Kind.STR, "", "rampmeter: serve the data of a Python engine, given as "
           "module:name (a CustomEngine subclass or factory; docs/engine.md). Empty: the "
           "embedded SQLite engine.", dynamic=False, sysvar=False),
    Option("sqlite_synchronous", Kind.ENUM, "FULL", "rampmeter: SQLite's synchronous pragma. "
           "FULL syncs the WAL on every commit (durable, like "
           "innodb_flush_log_at_trx_commit=1); NORMAL may lose the last commits on power loss.",
           dynamic=False, choices=("OFF", "NORMAL", "FULL")),
    # --- the thread pool (MariaDB names unless noted) ---------------------------------------
    Option("thread_pool_size", Kind.INT, default_thread_pool_size(), "Thread groups. "
           "Default 1 while Python has a GIL (MariaDB: the CPU count). At run time at most "
           "max(128, the start-up value) (MDEV-5205).", minimum=1, maximum=100000,
           unit="groups"),
    Option("thread_pool_stall_limit", Kind.INT, 500, "Timer tick: a group that dequeued "
           "nothing for this long is stalled and gets another thread.", minimum=1,
           maximum=UINT_MAX, unit="ms"),
    Option("thread_pool_oversubscribe", Kind.INT, 3, "Active threads allowed per group "
           "beyond the first before a worker stops dequeuing.", minimum=1, maximum=65536),
    Option("thread_pool_max_threads", Kind.INT, 65536, "Pool threads in all groups; a group "
           "may always have 2.", minimum=1, maximum=65536),
    Option("thread_pool_idle_timeout", Kind.INT, 60, "Seconds an idle worker waits before it "
           "exits.", minimum=1, maximum=UINT_MAX, unit="s"),
    Option("thread_pool_prio_kickup_timer", Kind.INT, 1000, "Milliseconds a statement may wait "
           "in the low priority queue before it moves to the high one.", minimum=0,
           maximum=UINT_MAX, unit="ms"),
    Option("thread_pool_priority", Kind.ENUM, "auto", "high, low, or auto (high inside a "
           "transaction).", scope=B, choices=("high", "low", "auto")),
    Option("thread_pool_dedicated_listener", Kind.BOOL, False, "The listener only listens and "
           "never runs a statement itself."),
    Option("thread_pool_exact_stats", Kind.BOOL, False, "Stamp queue entries with a precise "
           "clock instead of the timer's coarse one."),
    Option("thread_pool_high_prio_mode", Kind.ENUM, "transactions", "Percona: transactions "
           "(open transactions and lock holders are high priority), statements (everything "
           "is), none.", scope=B, choices=("transactions", "statements", "none")),
    Option("thread_pool_high_prio_tickets", Kind.INT, UINT_MAX, "Percona: high priority "
           "enqueues a connection may make in a row before one goes low.", scope=B,
           minimum=0, maximum=UINT_MAX),
    Option("thread_pool_high_priority_connection", Kind.INT, 0, "MySQL Enterprise: 1 sends "
           "every statement of the session to the high priority queue.", scope=B,
           minimum=0, maximum=1),
    Option("thread_pool_max_active_query_threads", Kind.INT,
           default_max_active_query_threads(), "MySQL Enterprise: active threads allowed per "
           "group (0: no limit beyond oversubscribe). Default 1 while Python has a GIL "
           "(MySQL: 0).", minimum=0,
           maximum=512),
    Option("thread_pool_max_unused_threads", Kind.INT, 0, "MySQL Enterprise: sleeping workers "
           "kept in the whole pool; more exit (0: no cap).", minimum=0, maximum=4096),
    Option("thread_pool_max_transactions_limit", Kind.INT, 0, "MySQL Enterprise: open "
           "transactions allowed at once, divided among the groups; new transactions and new "
           "connections wait while a group's share is in use (0: off).",
           minimum=0, maximum=1000000),
    Option("thread_pool_transaction_delay", Kind.INT, 0, "MySQL Enterprise: milliseconds a "
           "worker waits before it starts a new transaction (0: none).", minimum=0,
           maximum=300000, unit="ms"),
    # MySQL 8.4's default is not in the sources we read; 2000 ms is the value reported in the
    # reference notes (reference/threadpool.md §2), kept until someone checks a real server.
    Option("thread_pool_longrun_trx_limit", Kind.INT, 2000, "MySQL Enterprise: when every "
           "transaction slot of a group is held by a transaction older than this many "
           "milliseconds, the group's limit is suspended (0: never).", minimum=0,
           maximum=86400000, unit="ms"),
    # Name and values argued in sched/balance.py (TXSQL's own parameter names are not public).
    Option("thread_pool_group_assignment", Kind.ENUM, "modulo", "rampmeter (TXSQL's load "
           "balancing): modulo puts a connection in group id % thread_pool_size (MariaDB); "
           "load puts a new connection in a group that is not busy and moves idle connections "
           "out of overloaded groups at their command boundary.",
           choices=("modulo", "load")),
    Option("thread_pool_prio_kickup_rate", Kind.INT, 0, "rampmeter: low priority entries "
           "moved to the high queue per second per group once past the kick-up timer. 0 moves "
           "every aged entry at each check (MariaDB); 100 is MySQL Enterprise's one per 10 ms.",
           minimum=0, maximum=1000000),
]

def _mariadb_options(declared: set[str]) -> list[Option]:
    """MariaDB's other variables (mariadb_variables.py) as compat options."""
    from rampmeter.config.mariadb_variables import VARIABLES
    kinds = {"BOOLEAN": Kind.BOOL, "DOUBLE": Kind.DOUBLE, "ENUM": Kind.ENUM, "SET": Kind.SET,
             "FLAGSET": Kind.FLAGSET, "VARCHAR": Kind.STR}
    scopes = {"GLOBAL": G, "SESSION": B, "SESSION ONLY": S}
    out = []
    for name, vtype, scope, read_only, text, lo, hi, choices in VARIABLES:
        if name in declared:
            continue
        kind = kinds.get(vtype, Kind.INT)
        default: Any = text
        if kind is Kind.BOOL:
            default = text.upper() in ("ON", "1", "YES", "TRUE")
        elif kind is Kind.INT:
            default = int(text) if text.lstrip("-").isdigit() else (lo or 0)
        elif kind is Kind.DOUBLE:
            default = float(text or 0)
        names = tuple(c for c in choices.split(",") if c) if kind is not Kind.BOOL else ()
        if kind in (Kind.ENUM, Kind.SET, Kind.FLAGSET) and not names:
            kind = Kind.STR  # MariaDB lists no values (lc_messages: any locale name)
        out.append(Option(name, kind, default, "", scope=scopes[scope], dynamic=not read_only,
                          minimum=lo, maximum=hi, choices=names, compat=True))
    return out


_OPTIONS += _mariadb_options({o.name for o in _OPTIONS} |
                             {a for o in _OPTIONS for a in o.aliases})

def _with_block_sizes(options: list[Option]) -> list[Option]:
    from rampmeter.config.mariadb_variables import BLOCK_SIZES
    return [replace(o, block=BLOCK_SIZES[o.name]) if o.kind is Kind.INT and
            o.name in BLOCK_SIZES else o for o in options]


_OPTIONS = _with_block_sizes(_OPTIONS)
REGISTRY: dict[str, Option] = {}
for _opt in _OPTIONS:
    REGISTRY[_opt.name] = _opt
ALIASES: dict[str, str] = {alias: o.name for o in _OPTIONS for alias in o.aliases}


def normalize_name(name: str) -> str:
    """`thread-pool-size` / `THREAD_POOL_SIZE` / `tx_isolation` -> the registry key."""
    key = name.strip().lower().replace("-", "_")
    return ALIASES.get(key, key)


def lookup(name: str) -> Option | None:
    return REGISTRY.get(normalize_name(name))


def defaults() -> dict[str, Any]:
    return {name: opt.default for name, opt in REGISTRY.items()}


OnChange = Callable[[str, Any], None]
