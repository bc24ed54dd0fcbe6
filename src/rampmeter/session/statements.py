"""Routing one scanned statement: to the session's own handlers or to the engine.

Rules:
- The route is decided by the statement's leading words (Statement.words, from the front door):
  SET, USE, KILL, SHOW <server things>, FLUSH <server things>, CREATE / ALTER / DROP / RENAME
  USER, CREATE / DROP ROLE, SET [DEFAULT] ROLE, CREATE / ALTER / DROP SERVER, CHANGE
  MASTER, START / STOP SLAVE, GRANT / REVOKE, HELP and SHUTDOWN are the session's (each
  checks its own privileges); everything else, including SELECT @@var and
  information_schema queries, is the engine's, which asks the session for those values
  through SessionContext.
- An engine statement is checked before the engine runs it (required.py: privileges.py's
  rules), at COM_STMT_PREPARE and again at each execute; an account's hourly limits count
  every statement (login.py).
- Every statement bumps its Com_* counter (MariaDB names) before it runs, as MariaDB counts
  statements that then fail.
- PREPARE / EXECUTE / DEALLOCATE PREPARE in SQL text are the session's (sqlprepare.py): they
  prepare and execute through the same two functions below as COM_STMT_*.
- Prepared statements of session-routed SQL (a driver may prepare `SET NAMES` or `SHOW ...`) are
  kept scanned and run through the same route at execute time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import PreparedStatement, Result
from rampmeter.errors import ServerError
from rampmeter.session import (
    admin,
    definerclause,
    grantsql,
    help,
    loaddata,
    memory,
    replica,
    reprepare,
    required,
    roles,
    servers,
    setfor,
    show,
    sp,
    sqlprepare,
    status,
    tablestats,
    usersql,
)
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session

Route = Callable[["Session", Statement], "Result | None"]

_SESSION_ROUTES: dict[str, Route] = {
    "SET": admin.set_statement,
    "USE": admin.use,
    "KILL": admin.kill,
    "FLUSH": admin.flush,
    "BINLOG": admin.binlog,
    "SHOW": show.dispatch,
    "GRANT": grantsql.grant,
    "REVOKE": grantsql.revoke,
    "SHUTDOWN": admin.shutdown,
    "PURGE": admin.purge,
    "PREPARE": sqlprepare.prepare,
    "EXECUTE": sqlprepare.execute,
    "DEALLOCATE": sqlprepare.deallocate,
    "LOAD": loaddata.load_data,
    "HELP": help.help_statement,
}
# (first word, object word) -> route: account statements.
_USER_ROUTES: dict[tuple[str, str], Route] = {
    ("CREATE", "USER"): usersql.create_user,
    ("ALTER", "USER"): usersql.alter_user,
    ("DROP", "USER"): usersql.drop_user,
    ("RENAME", "USER"): usersql.rename_user,
    ("CREATE", "ROLE"): roles.create_role,
    ("DROP", "ROLE"): roles.drop_role,
    ("SET", "ROLE"): roles.set_role,
    ("SET", "DEFAULT"): roles.set_default_role,
    ("CREATE", "SERVER"): servers.create_server,
    ("ALTER", "SERVER"): servers.alter_server,
    ("DROP", "SERVER"): servers.drop_server,
    ("CHANGE", "MASTER"): replica.change_master,
    ("START", "SLAVE"): replica.start_slave,
    ("START", "REPLICA"): replica.start_slave,
    ("STOP", "SLAVE"): replica.stop_slave,
    ("STOP", "REPLICA"): replica.stop_slave,
}

# Statements that change accounts and grants (MariaDB's CF_CHANGES_DATA account commands).
_ACCOUNT_CHANGES = frozenset({
    usersql.create_user, usersql.alter_user, usersql.drop_user, usersql.rename_user,
    roles.create_role, roles.drop_role, roles.set_default_role, grantsql.grant,
    grantsql.revoke})

# (first word, second word) -> Com_* status name; a None second word matches any.
_COM = {
    ("SELECT", None): "Com_select", ("INSERT", None): "Com_insert",
    ("UPDATE", None): "Com_update", ("DELETE", None): "Com_delete",
    ("REPLACE", None): "Com_replace", ("BEGIN", None): "Com_begin",
    ("START", None): "Com_begin", ("COMMIT", None): "Com_commit",
    ("ROLLBACK", None): "Com_rollback", ("SAVEPOINT", None): "Com_savepoint",
    ("RELEASE", None): "Com_release_savepoint", ("SET", None): "Com_set_option",
    ("USE", None): "Com_change_db", ("KILL", None): "Com_kill", ("FLUSH", None): "Com_flush",
    ("TRUNCATE", None): "Com_truncate", ("LOAD", None): "Com_load", ("DO", None): "Com_do",
    ("LOCK", None): "Com_lock_tables", ("UNLOCK", None): "Com_unlock_tables",
    ("GRANT", None): "Com_grant", ("REVOKE", None): "Com_revoke",
    ("SHUTDOWN", None): "Com_shutdown", ("RENAME", None): "Com_rename_table",
    ("CREATE", "TABLE"): "Com_create_table", ("CREATE", "DATABASE"): "Com_create_db",
    ("CREATE", "SCHEMA"): "Com_create_db", ("CREATE", "INDEX"): "Com_create_index",
    ("CREATE", "UNIQUE"): "Com_create_index", ("CREATE", "USER"): "Com_create_user",
    ("CREATE", "VIEW"): "Com_create_view", ("DROP", "TABLE"): "Com_drop_table",
    ("DROP", "DATABASE"): "Com_drop_db", ("DROP", "SCHEMA"): "Com_drop_db",
    ("DROP", "INDEX"): "Com_drop_index", ("DROP", "USER"): "Com_drop_user",
    ("DROP", "VIEW"): "Com_drop_view", ("ALTER", "TABLE"): "Com_alter_table",
    ("ALTER", "USER"): "Com_alter_user",
    ("SHOW", "VARIABLES"): "Com_show_variables", ("SHOW", "STATUS"): "Com_show_status",
    ("SHOW", "PROCESSLIST"): "Com_show_processlist", ("SHOW", "DATABASES"):
    "Com_show_databases", ("SHOW", "TABLES"): "Com_show_tables", ("SHOW", "WARNINGS"):
    "Com_show_warnings", ("SHOW", "CREATE"): "Com_show_create_table", ("SHOW", "COLUMNS"):
    "Com_show_fields", ("SHOW", "FIELDS"): "Com_show_fields", ("SHOW", "INDEX"): "Com_show_keys",
    ("SHOW", "KEYS"): "Com_show_keys", ("SHOW", "ENGINES"): "Com_show_storage_engines",
    ("SHOW", "GRANTS"): "Com_show_grants", ("SHOW", "COLLATION"): "Com_show_collations",
    ("CREATE", "ROLE"): "Com_create_role", ("DROP", "ROLE"): "Com_drop_role",
    ("RENAME", "USER"): "Com_rename_user", ("CREATE", "SERVER"): "Com_create_server",
    ("ALTER", "SERVER"): "Com_alter_server", ("DROP", "SERVER"): "Com_drop_server",
    ("CHANGE", "MASTER"): "Com_change_master", ("START", "SLAVE"): "Com_slave_start",
    ("START", "REPLICA"): "Com_slave_start", ("STOP", "SLAVE"): "Com_slave_stop",
    ("STOP", "REPLICA"): "Com_slave_stop",
    ("PREPARE", None): "Com_prepare_sql", ("EXECUTE", None): "Com_execute_sql",
    ("DEALLOCATE", None): "Com_dealloc_sql", ("DROP", "PREPARE"): "Com_dealloc_sql",
    ("CALL", None): "Com_call_procedure", ("CREATE", "PROCEDURE"): "Com_create_procedure",
    ("CREATE", "FUNCTION"): "Com_create_function", ("DROP", "PROCEDURE"):
    "Com_drop_procedure", ("DROP", "FUNCTION"): "Com_drop_function",
}
_SCOPE_WORDS = {"GLOBAL", "SESSION", "LOCAL", "FULL"}


# First words whose counter does not depend on the second word (the common statements).
_COM_BY_FIRST = {first: name for (first, second), name in _COM.items() if second is None
                 and not any(f == first and s is not None for f, s in _COM)}


def com_name(words: Sequence[str]) -> str | None:
    if not words:
        return None
    first = words[0]
    name = _COM_BY_FIRST.get(first)
    if name is not None:
        return name
    second = next((w for w in words[1:] if w not in _SCOPE_WORDS), None)
    return _COM.get((first, second)) or _COM.get((first, None))


def _session_route(words: Sequence[str]) -> Route | None:
    if not words:
        return None
    first = words[0]
    if first == "DROP" and len(words) > 1 and words[1] == "PREPARE":
        return sqlprepare.deallocate
    if len(words) > 1:
        second = words[1]
        if second == "OR" and len(words) > 3:  # CREATE OR REPLACE USER / ROLE
            second = words[3]
        if first == "SET" and second == "DEFAULT" and words[2:3] != ("ROLE",):
            second = ""
        route = _USER_ROUTES.get((first, second))
        if route is not None:
            return route
    return _SESSION_ROUTES.get(first)


def execute(s: Session, stmt: Statement) -> Result:
    words = stmt.words
    if s.must_change_password and not _sandboxed(words):
        raise ServerError(errors.ER_MUST_CHANGE_PASSWORD)
    if s.vars["max_session_mem_used"] < memory.NO_LIMIT:  # the default: one dict read
        memory.refuse_over_limit(s, words)
    if setfor.is_set_for(words):
        return setfor.run(s, stmt, execute)
    name = com_name(words)
    if name:
        s.counters[name] += 1
    _count_hourly(s, stmt)
    if words and words[0] in _LOCK_CHECKED and s.engine is not None and \
            s.engine.lock_mode is not None:
        _under_lock(words, stmt.shape, s.engine.lock_mode)
    if words and words[0] in ("CREATE", "ALTER"):
        definerclause.check(s, stmt)  # another account as DEFINER: SUPER / SET USER
    if stmt.tokens is not None and sp.wants(stmt):
        answered = sp.route(s, stmt)
        if answered is not None:
            return answered
    route = _session_route(words)
    if route is not None:
        if route in _ACCOUNT_CHANGES:  # they write the grant tables: 1290 under read_only
            required.refuse_under_read_only(s)
        result = route(s, stmt)
        if result is not None:
            return result
    if s.engine is None:
        raise ServerError(errors.ER_UNKNOWN_ERROR, "no engine session")
    required.check(s, stmt)
    if stmt.kind == "DO":  # a stored function's OUT arguments (sp/calls.py)
        return sp.do(s, stmt)
    if stmt.kind in _QUERY_KINDS:
        windows = status.window_selects(stmt.shape)
        if windows:
            s.counters["Feature_window_functions"] += windows
    result = s.engine.execute(stmt)
    if s.ctx.variables["userstat"]:  # TABLE_STATISTICS / INDEX_STATISTICS (tablestats.py)
        tablestats.after(s, stmt, result)
    return result


_QUERY_KINDS = frozenset({"SELECT", "WITH", "INSERT", "REPLACE", "UPDATE", "DELETE"})

# Under LOCK TABLES, MariaDB refuses what would open tables that are not locked (the grant
# tables: 1100) and the DDL of databases, views and stored programs (1192). Refusing here
# also keeps a session from waiting on the write lock it holds itself.
_LOCK_CHECKED = frozenset({"CREATE", "DROP", "ALTER", "RENAME", "GRANT", "REVOKE", "FLUSH",
                           "SET"})
_GRANT_TABLES = {"USER": "db", "ROLE": "db", "PRIVILEGES": "db"}
_LOCK_DDL = re.compile(r"\s*(create|drop|alter)\b[^(]*?\b(database|schema|view|procedure|"
                       r"function|event)\b", re.IGNORECASE)


def _under_lock(words: Sequence[str], shape: str, mode: str) -> None:
    first = words[0]
    rest = [w for w in words[1:4] if w not in ("OR", "REPLACE", "IF", "NOT", "EXISTS")]
    second = rest[0] if rest else ""
    table = None
    if first in ("GRANT", "REVOKE"):
        table = _grant_table(shape)
    elif first == "SET" and second == "PASSWORD" or first == "ALTER" and second == "USER":
        table = "global_priv"
    elif first in ("CREATE", "DROP", "RENAME", "FLUSH"):
        table = _GRANT_TABLES.get(second)
    if table is not None:
        if mode == "global":  # the grant tables cannot be written under a global read lock
            raise ServerError(errors.ER_CANT_UPDATE_WITH_READLOCK)
        raise ServerError(errors.ER_TABLE_NOT_LOCKED, table)
    if mode == "tables" and first in ("CREATE", "DROP", "ALTER") and _LOCK_DDL.match(shape):
        raise ServerError(errors.ER_LOCK_OR_ACTIVE_TRANSACTION)


_ROUTINE_LEVEL = re.compile(r"\bON\s+(?:PROCEDURE|FUNCTION|PACKAGE)\b", re.IGNORECASE)
_PROXY = re.compile(r"\bPROXY\s+ON\b", re.IGNORECASE)
_ON_TARGET = re.compile(r"\bON\s+(?:TABLE\s+)?(\S+?)\s+(?:TO|FROM)\b", re.IGNORECASE)
_REVOKE_ALL = re.compile(r"\bALL\s+(?:PRIVILEGES\s*)?,\s*GRANT\s+OPTION\b", re.IGNORECASE)


def _grant_table(shape: str) -> str:
    """The grant table MariaDB's GRANT / REVOKE names in 1100 under LOCK TABLES: the one
    of its level (procs_priv, proxies_priv, roles_mapping, tables_priv, else db)."""
    if _ROUTINE_LEVEL.search(shape):
        return "procs_priv"
    if _PROXY.search(shape):
        return "proxies_priv"
    target = _ON_TARGET.search(shape)
    if target is None:
        return "db" if _REVOKE_ALL.search(shape) else "roles_mapping"
    return "db" if target.group(1).endswith("*") else "tables_priv"


def _sandboxed(words: Sequence[str]) -> bool:
    """What an expired password still allows (MariaDB's sandbox mode): SET (SET PASSWORD
    among them) and ALTER USER."""
    return bool(words) and (words[0] == "SET" or tuple(words[:2]) == ("ALTER", "USER"))


def _count_hourly(s: Session, stmt: Statement) -> None:
    """MAX_QUERIES_PER_HOUR / MAX_UPDATES_PER_HOUR of the account (login.py), 1226 past them."""
    sec = s.security
    if sec is not None and sec.hourly is not None:
        key, limits = sec.hourly
        s.ctx.user_connections.statement(key, limits, stmt.kind in _UPDATES)


# Statements MAX_UPDATES_PER_HOUR counts (MariaDB's CF_CHANGES_DATA commands).
_UPDATES = frozenset({"INSERT", "REPLACE", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER",
                      "RENAME", "TRUNCATE", "GRANT", "REVOKE", "LOAD", "SET"})


_SESSION_STATEMENT = "session"


def prepare(s: Session, stmt: Statement) -> PreparedStatement:
    # CALL, CREATE PROCEDURE... are the stored-program package's (sp.route): kept scanned,
    # run at each execute
    if _session_route(stmt.words) is not None or stmt.kind in sp.FIRST_WORDS and sp.owns(stmt):
        return PreparedStatement(stmt.text, stmt.param_count, [],
                                 handle=(_SESSION_STATEMENT, stmt))
    assert s.engine is not None
    required.check(s, stmt)
    return s.engine.prepare(stmt)


def execute_prepared(s: Session, prepared: PreparedStatement, params: Sequence[Any]) -> Result:
    handle = prepared.handle
    if isinstance(handle, tuple) and handle[0] == _SESSION_STATEMENT:
        stmt = handle[1]
        if params:
            stmt = s.scan(_substitute(stmt, params))
        return execute(s, stmt)
    assert s.engine is not None
    if prepared.versions is not None:  # a table it uses may have changed since its PREPARE
        reprepare.refresh(s, prepared)
        handle = prepared.handle
    if isinstance(handle, Statement):
        _count_hourly(s, handle)
        required.check(s, handle)  # privileges may have changed since the prepare
    return s.engine.execute_prepared(prepared, params)


def _substitute(stmt: Statement, params: Sequence[Any]) -> str:
    """The statement's text with each `?` replaced by its value as a literal (session-routed
    statements read literals; `SET @a = ?`, `SHOW VARIABLES LIKE ?`)."""
    out: list[str] = []
    pos = 0
    k = 0
    for t in stmt.tokens or ():
        if t.kind == "param":
            out.append(stmt.text[pos:t.start])
            out.append(_literal(params[k]))
            k += 1
            pos = t.end
    out.append(stmt.text[pos:])
    return "".join(out)


def _literal(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, bytes):
        return "X'" + v.hex() + "'"
    text = str(v)
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"
