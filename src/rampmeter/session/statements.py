"""Routing one SQL statement: to the session's own handlers or to the engine.

Rules:
- The route is decided by the leading keywords only (sqltext.leading_words): SET, USE, KILL,
  SHOW <server things>, FLUSH <server things>, CREATE/ALTER/DROP USER, GRANT/REVOKE and SHUTDOWN
  are the session's; everything else, including SELECT @@var and information_schema queries, is
  the engine's, which asks the session for those values through SessionContext.
- Every statement bumps its Com_* counter (MariaDB names) before it runs, as MariaDB counts
  statements that then fail.
- Prepared statements of session-routed SQL (a driver may prepare `SET NAMES` or `SHOW ...`) are
  kept as text and run through the same route at execute time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import PreparedStatement, Result
from rampmeter.errors import ServerError
from rampmeter.session import admin, show
from rampmeter.session.sqltext import leading_words

if TYPE_CHECKING:
    from rampmeter.session.session import Session

Route = Callable[["Session", str], "Result | None"]

_SESSION_ROUTES: dict[str, Route] = {
    "SET": admin.set_statement,
    "USE": admin.use,
    "KILL": admin.kill,
    "FLUSH": admin.flush,
    "SHOW": show.dispatch,
    "GRANT": admin.grant,
    "REVOKE": admin.grant,
    "SHUTDOWN": admin.shutdown,
}
_USER_ROUTES: dict[str, Route] = {
    "CREATE": admin.create_user,
    "ALTER": admin.alter_user,
    "DROP": admin.drop_user,
}

# (first word, second word) -> Com_* status name; a None second word matches any.
_COM = {
    ("SELECT", None): "Com_select", ("INSERT", None): "Com_insert",
    ("UPDATE", None): "Com_update", ("DELETE", None): "Com_delete",
    ("REPLACE", None): "Com_replace", ("BEGIN", None): "Com_begin",
    ("START", None): "Com_begin", ("COMMIT", None): "Com_commit",
    ("ROLLBACK", None): "Com_rollback", ("SAVEPOINT", None): "Com_savepoint",
    ("RELEASE", None): "Com_release_savepoint", ("SET", None): "Com_set_option",
    ("USE", None): "Com_change_db", ("KILL", None): "Com_kill", ("FLUSH", None): "Com_flush",
    ("TRUNCATE", None): "Com_truncate", ("DO", None): "Com_do",
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
}
_SCOPE_WORDS = {"GLOBAL", "SESSION", "LOCAL", "FULL"}


def com_name(words: list[str]) -> str | None:
    if not words:
        return None
    first = words[0]
    second = next((w for w in words[1:] if w not in _SCOPE_WORDS), None)
    return _COM.get((first, second)) or _COM.get((first, None))


def _session_route(words: list[str]) -> Route | None:
    if not words:
        return None
    first = words[0]
    if first in _USER_ROUTES and len(words) > 1 and (
            words[1] == "USER" or words[1:3] == ["OR", "REPLACE"] and "USER" in words):
        return _USER_ROUTES[first]
    return _SESSION_ROUTES.get(first)


def keeps_warnings(sql: str) -> bool:
    """SHOW WARNINGS / SHOW ERRORS / SHOW COUNT(*) read the previous statement's diagnostics."""
    if sql[:4].upper() != "SHOW" and not sql.startswith(("/*", "--", "#")):
        return False  # the hot path (statements arrive stripped): no tokenizing
    words = leading_words(sql, 2)
    return words[:1] == ["SHOW"] and len(words) > 1 and words[1] in ("WARNINGS", "ERRORS",
                                                                     "COUNT")


def execute(s: Session, sql: str) -> Result:
    words = leading_words(sql, 4)
    name = com_name(words)
    if name:
        s.counters[name] += 1
    route = _session_route(words)
    if route is not None:
        result = route(s, sql)
        if result is not None:
            return result
    if s.engine is None:
        raise ServerError(errors.ER_UNKNOWN_ERROR, "no engine session")
    return s.engine.execute(sql)


_SESSION_STATEMENT = "session"


def prepare(s: Session, sql: str) -> PreparedStatement:
    if _session_route(leading_words(sql, 4)) is not None:
        return PreparedStatement(sql, 0, [], handle=_SESSION_STATEMENT)
    assert s.engine is not None
    return s.engine.prepare(sql)


def execute_prepared(s: Session, stmt: PreparedStatement, params: Sequence[Any]) -> Result:
    if stmt.handle is _SESSION_STATEMENT:
        if params:
            raise ServerError(errors.ER_WRONG_ARGUMENTS, "mysqld_stmt_execute")
        return execute(s, stmt.sql)
    assert s.engine is not None
    return s.engine.execute_prepared(stmt, params)
