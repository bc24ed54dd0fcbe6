"""Server-provided tables: information_schema views of sessions, variables, status and the pool.

Rules:
- The engine asks `table(session, schema, name)` before running a statement that names one of
  these tables, then runs the statement over the rows we return, so every SQL construct works
  on them (WHERE, ORDER BY, SUM...). Tables the engine knows itself (SCHEMATA, TABLES,
  COLUMNS, STATISTICS) are not ours: we return None for them.
- Rows of other users' sessions (PROCESSLIST, THREAD_POOL_QUEUES) only with PROCESS; the
  privilege tables (USER_PRIVILEGES, ...) are privtables.py's.
- Column names and order are MariaDB 10.11's. The four THREAD_POOL_* tables copy MariaDB's
  sql/threadpool_info.cc exactly (reference/threadpool.md §1.1); their rows come from the
  connection handler (empty when thread_handling is not pool-of-threads).
- performance_schema is a schema only we fill: MySQL Enterprise's tp_thread_group_state,
  tp_thread_group_stats and tp_thread_state (session/tpstatus.py). `tables_of` names them, so
  the engine shows the schema in SHOW DATABASES, information_schema.SCHEMATA and TABLES.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from rampmeter.config.options import REGISTRY, Kind, Scope
from rampmeter.protocol.columns import Column
from rampmeter.session import privtables, tablestats, userstats
from rampmeter.session.privileges import P
from rampmeter.session.status import status_rows
from rampmeter.session.tpstatus import PERFORMANCE_SCHEMA, columns
from rampmeter.sql import charsets

if TYPE_CHECKING:
    from rampmeter.session.session import Session

Rows = list[tuple[Any, ...]]


_cols = columns  # 'NAME:int, OTHER:text' -> columns (session/tpstatus.py)


THREAD_POOL_COLUMNS: dict[str, list[Column]] = {
    "THREAD_POOL_GROUPS": _cols(
        "GROUP_ID:int, CONNECTIONS:int, THREADS:int, ACTIVE_THREADS:int, STANDBY_THREADS:int, "
        "QUEUE_LENGTH:int, HAS_LISTENER:int, IS_STALLED:int"),
    "THREAD_POOL_QUEUES": _cols(
        "GROUP_ID:int, POSITION:int, PRIORITY:int, CONNECTION_ID:int, "
        "QUEUEING_TIME_MICROSECONDS:int"),
    "THREAD_POOL_STATS": _cols(
        "GROUP_ID:int, THREAD_CREATIONS:int, THREAD_CREATIONS_DUE_TO_STALL:int, WAKES:int, "
        "WAKES_DUE_TO_STALL:int, THROTTLES:int, STALLS:int, POLLS_BY_LISTENER:int, "
        "POLLS_BY_WORKER:int, DEQUEUES_BY_LISTENER:int, DEQUEUES_BY_WORKER:int"),
    "THREAD_POOL_WAITS": _cols("REASON:text, COUNT:int"),
}

_VARIABLE_COLUMNS = _cols("VARIABLE_NAME:text, VARIABLE_VALUE:text")


def tables_of(schema: str) -> list[str]:
    """Tables of a schema whose tables only the session provides."""
    return list(PERFORMANCE_SCHEMA) if schema.lower() == "performance_schema" else []


def table(s: Session, schema: str, name: str) -> tuple[list[Column], Rows] | None:
    if schema.lower() == "performance_schema":
        key = name.lower()
        return (PERFORMANCE_SCHEMA[key], s.ctx.pool_table(key)) if key in PERFORMANCE_SCHEMA \
            else None
    if schema.lower() != "information_schema":
        return None
    key = name.upper()
    if key in THREAD_POOL_COLUMNS:
        rows = s.ctx.pool_table(key)
        if key == "THREAD_POOL_QUEUES":
            rows = [r for r in rows if _may_see_connection(s, r[3])]
        return THREAD_POOL_COLUMNS[key], rows
    builder = _BUILDERS.get(key) or privtables.BUILDERS.get(key)
    return builder(s) if builder else None


def _may_see_connection(s: Session, connection_id: Any) -> bool:
    """Another user's queued connection is shown only with PROCESS (privileges.py)."""
    if s.security is None or s.security.has(P.PROCESS):
        return True
    other = s.ctx.registry.get(connection_id) if connection_id is not None else None
    return other is not None and s.may_see(other)


def _processlist(s: Session) -> tuple[list[Column], Rows]:
    cols = _cols("ID:int, USER:text, HOST:text, DB:text, COMMAND:text, TIME:int, STATE:text, "
                 "INFO:text, TIME_MS:int, QUERY_ID:int")
    return cols, processlist_rows(s, full=True, with_ms=True)


def processlist_rows(s: Session, *, full: bool, with_ms: bool = False) -> Rows:
    now = time.monotonic()
    rows: Rows = []
    reg = s.ctx.registry
    # connections not yet taken up by a worker (registry.Arrival) are shown as MariaDB shows a
    # login: no user, Command Connect; like any login, only to accounts with PROCESS
    arrivals = reg.arrivals() if s.security is None or s.security.may_see_threads_of(None) \
        else []
    entries: list[Any] = [x for x in reg.sessions() if s.may_see(x)] + arrivals
    for x in sorted(entries, key=lambda x: x.connection_id):
        elapsed = now - x.command_started
        info = x.info
        if info is not None and not full:
            info = info[:100]
        state = x.state if x.command != "Sleep" else ""
        row: tuple[Any, ...] = (x.connection_id, x.user or "unauthenticated user", x.host,
                                x.database, "Killed" if x.killed >= 3 else x.command,
                                int(elapsed), state, info)
        if with_ms:
            row += (int(elapsed * 1000), 0)
        rows.append(row)
    return rows


def _variables(s: Session, *, session_scope: bool) -> tuple[list[Column], Rows]:
    rows: Rows = []
    for name, opt in sorted(REGISTRY.items()):
        if not opt.sysvar:
            continue
        if session_scope and opt.scope & Scope.SESSION:
            value = s.vars[name]
        elif not session_scope and not opt.scope & Scope.GLOBAL:
            continue
        else:
            value = s.ctx.variables[name]
        rows.append((name.upper(), opt.display(value)))
    return _VARIABLE_COLUMNS, rows


_SYSTEM_VARIABLE_COLUMNS = _cols(
    "VARIABLE_NAME:text, SESSION_VALUE:text, GLOBAL_VALUE:text, GLOBAL_VALUE_ORIGIN:text, "
    "DEFAULT_VALUE:text, VARIABLE_SCOPE:text, VARIABLE_TYPE:text, VARIABLE_COMMENT:text, "
    "NUMERIC_MIN_VALUE:text, NUMERIC_MAX_VALUE:text, NUMERIC_BLOCK_SIZE:text, "
    "ENUM_VALUE_LIST:text, READ_ONLY:text, COMMAND_LINE_ARGUMENT:text, "
    "GLOBAL_VALUE_PATH:text")
_VARIABLE_TYPES = {Kind.BOOL: "BOOLEAN", Kind.STR: "VARCHAR", Kind.ENUM: "ENUM",
                   Kind.SET: "SET", Kind.DOUBLE: "DOUBLE", Kind.FLAGSET: "FLAGSET"}


def _system_variables(s: Session) -> tuple[list[Column], Rows]:
    """MariaDB's SYSTEM_VARIABLES from the option registry. GLOBAL_VALUE_ORIGIN is
    COMPILE-TIME while the global value is the default, and CONFIG once it is not (rampmeter
    does not record whether an option file, the command line or SET changed it)."""
    rows: Rows = []
    for name, opt in sorted(REGISTRY.items()):
        if not opt.sysvar:
            continue
        session_value = opt.display(s.vars[name]) if opt.scope & Scope.SESSION else None
        global_value = opt.display(s.ctx.variables[name]) if opt.scope & Scope.GLOBAL \
            else None
        default = opt.display(opt.default)
        origin = "COMPILE-TIME" if global_value in (None, default) else "CONFIG"
        scope = "SESSION" if opt.scope & Scope.SESSION else "GLOBAL"
        if not opt.scope & Scope.GLOBAL:
            scope = "SESSION ONLY"
        kind = _VARIABLE_TYPES.get(opt.kind) or (
            "BIGINT UNSIGNED" if (opt.minimum or 0) >= 0 else "BIGINT")
        numeric = opt.kind in (Kind.INT, Kind.DOUBLE)
        choices = "OFF,ON" if opt.kind is Kind.BOOL else ",".join(opt.choices) or None
        rows.append((
            name.upper(), session_value, global_value, origin, default, scope, kind, opt.help,
            None if not numeric or opt.minimum is None else str(opt.minimum),
            None if not numeric or opt.maximum is None else str(opt.maximum),
            str(opt.block) if opt.kind is Kind.INT else None, choices,
            "NO" if opt.dynamic else "YES",
            ("OPTIONAL" if opt.kind is Kind.BOOL else "REQUIRED") if opt.cli else None, None))
    return _SYSTEM_VARIABLE_COLUMNS, rows


def _status(s: Session, *, scope_global: bool) -> tuple[list[Column], Rows]:
    rows = [(n.upper(), None if v is None else str(v))
            for n, v in status_rows(s, scope_global=scope_global)]
    return _VARIABLE_COLUMNS, rows


def _user_variables(s: Session) -> tuple[list[Column], Rows]:
    cols = _cols("VARIABLE_NAME:text, VARIABLE_VALUE:text, VARIABLE_TYPE:text, "
                 "CHARACTER_SET_NAME:text")
    rows: Rows = []
    for name, value in sorted(s.user_vars.items()):
        kind = {int: "INT", float: "DOUBLE", bytes: "VARCHAR"}.get(type(value), "VARCHAR")
        rows.append((name, None if value is None else str(value), kind, "utf8mb4"))
    return cols, rows


def _engines(s: Session) -> tuple[list[Column], Rows]:
    cols = _cols("ENGINE:text, SUPPORT:text, COMMENT:text, TRANSACTIONS:text, XA:text, "
                 "SAVEPOINTS:text")
    return cols, [("SQLite", "DEFAULT", "Embedded SQLite: one file per database, WAL",
                   "YES", "NO", "YES")]


def _character_sets(s: Session) -> tuple[list[Column], Rows]:
    cols = _cols("CHARACTER_SET_NAME:text, DEFAULT_COLLATE_NAME:text, DESCRIPTION:text, "
                 "MAXLEN:int")
    return cols, CHARSET_ROWS


def _collations(s: Session) -> tuple[list[Column], Rows]:
    cols = _cols("COLLATION_NAME:text, CHARACTER_SET_NAME:text, ID:int, IS_DEFAULT:text, "
                 "IS_COMPILED:text, SORTLEN:int")
    return cols, COLLATION_ROWS


def _catalog() -> tuple[Rows, Rows]:
    """CHARACTER_SETS and COLLATIONS as MariaDB 10.11 lists them (sql/charsets.py has them all):
    character sets in the order of their default collation's id, each one's collations by id."""
    sets = sorted((c for c in charsets.CHARSETS.values() if c.name not in charsets.UNLISTED),
                  key=lambda c: charsets.COLLATIONS[c.default_collation].id)
    cs_rows: Rows = [(c.name, c.default_collation, c.description, c.maxlen) for c in sets]
    coll_rows: Rows = []
    for c in sets:
        for coll in sorted((x for x in charsets.COLLATIONS.values() if x.charset == c.name),
                           key=lambda x: x.id):
            coll_rows.append((coll.name, c.name, coll.id, "Yes" if coll.is_default else "",
                              "Yes", coll.sortlen))
    return cs_rows, coll_rows


CHARSET_ROWS, COLLATION_ROWS = _catalog()

_BUILDERS = {
    "PROCESSLIST": _processlist,
    "GLOBAL_VARIABLES": lambda s: _variables(s, session_scope=False),
    "SESSION_VARIABLES": lambda s: _variables(s, session_scope=True),
    "SYSTEM_VARIABLES": _system_variables,
    "GLOBAL_STATUS": lambda s: _status(s, scope_global=True),
    "SESSION_STATUS": lambda s: _status(s, scope_global=False),
    "USER_VARIABLES": _user_variables,
    "USER_STATISTICS": userstats.table,
    "TABLE_STATISTICS": tablestats.tables_table,
    "INDEX_STATISTICS": tablestats.indexes_table,
    "ENGINES": _engines,
    "CHARACTER_SETS": _character_sets,
    "COLLATIONS": _collations,
}
