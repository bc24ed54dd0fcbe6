"""SHOW statements about the server rather than the data: VARIABLES, STATUS, PROCESSLIST,
WARNINGS, ENGINES, CHARACTER SET, COLLATION, GRANTS, replication status, and TXSQL's
THREADPOOL STATUS (a row per thread group; session/tpstatus.py).

Rules:
- Column names and order are MariaDB 10.11's (what `mysql`, mysqld_exporter and GUI tools read).
- `LIKE 'pattern'` is matched here, case-insensitively as the utf8_general_ci columns compare;
  `WHERE expr` is handed to the engine as a query over the matching information_schema table,
  so any expression works.
- SHOW MASTER/SLAVE/REPLICA STATUS answer an empty result, not an error: mysqld_exporter's
  slave_status collector otherwise reports a failure (conventions.md §2.1); they need the
  privileges MariaDB asks for (SUPER or BINLOG / SLAVE MONITOR).
- SHOW PROCESSLIST lists other users' threads only to accounts with PROCESS; SHOW GRANTS and
  SHOW CREATE USER are showgrants.py's.
- Anything else (SHOW TABLES, SHOW CREATE TABLE, ...) is the engine's: `dispatch` returns None.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rampmeter.engine.base import Result, ResultSet
from rampmeter.errors import ServerError
from rampmeter.protocol.columns import Column, int_column, text_column
from rampmeter.session import credits, infoschema, showgrants, tpstatus
from rampmeter.session.accounts import wildcard_regex
from rampmeter.session.admin import unquote
from rampmeter.session.privileges import P
from rampmeter.session.status import status_rows
from rampmeter.sql.lexer import Token, syntax_error
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session


def like_regex(pattern: str) -> re.Pattern[str]:
    """MySQL LIKE -> regex: % any run, _ one char, backslash escapes."""
    return wildcard_regex(pattern)


def _result(names: list[str], rows: list[tuple[Any, ...]],
            columns: list[Column] | None = None) -> ResultSet:
    cols = columns or [text_column(n, length=64) for n in names]
    return ResultSet(cols, rows)


def _filter(s: Session, sql: str, toks: list[Token], i: int, rows: list[tuple[Any, ...]],
            names: list[str], view: str | None, ints: tuple[int, ...] = ()) -> Result:
    """Apply a trailing LIKE / WHERE to (name, value) rows; `ints`: the integer columns."""
    columns = [int_column(n, length=11 if j != len(names) - 1 else 3) if j in ints else
               text_column(n, length=64) for j, n in enumerate(names)] if ints else None
    if i >= len(toks):
        return _result(names, rows, columns)
    word = toks[i].upper
    if word == "LIKE" and i + 1 < len(toks) and toks[i + 1].kind == "str":
        rx = like_regex(unquote(toks[i + 1].text))
        return _result(names, [r for r in rows if rx.match(str(r[0]))], columns)
    if word == "WHERE" and view is not None and s.engine is not None:
        cond = sql[toks[i + 1].start:] if i + 1 < len(toks) else ""
        inner = (f"SELECT VARIABLE_NAME AS `{names[0]}`, VARIABLE_VALUE AS `{names[1]}` "
                 f"FROM information_schema.{view}")
        # information_schema spells names in capitals; SHOW keeps its own spelling, so the
        # engine only decides which names pass and the rows come from the list above.
        result = s.engine.execute(f"SELECT `{names[0]}` FROM ({inner}) AS v WHERE {cond}")
        keep = {str(r[0]).upper() for r in result.rows} if isinstance(result, ResultSet) \
            else set()
        return _result(names, [r for r in rows if str(r[0]).upper() in keep])
    raise syntax_error(sql, toks[i].start)


def dispatch(s: Session, stmt: Statement) -> Result | None:
    sql, toks = stmt.text, list(stmt.tokens or ())
    words = [t.upper for t in toks[1:4]]
    i = 1
    scope_global = False
    if words and words[0] in ("GLOBAL", "SESSION", "LOCAL"):
        scope_global = words[0] == "GLOBAL"
        i = 2
        words = words[1:]
    full = False
    if words and words[0] == "FULL":
        full = True
        words = words[1:]
        i += 1
    if not words:
        return None
    what = words[0]
    if what == "VARIABLES":
        return _variables(s, sql, toks, i + 1, scope_global)
    if what == "STATUS":
        rows = [(n, None if v is None else str(v))
                for n, v in status_rows(s, scope_global=scope_global)]
        view = "GLOBAL_STATUS" if scope_global else "SESSION_STATUS"
        return _filter(s, sql, toks, i + 1, rows, ["Variable_name", "Value"], view)
    if what == "PROCESSLIST":
        return _processlist(s, full)
    if what in ("WARNINGS", "ERRORS"):
        return _warnings(s, errors_only=what == "ERRORS")
    if what == "COUNT":
        return _count_warnings(s, toks)
    if what in ("ENGINES",) or words[:2] == ["STORAGE", "ENGINES"]:
        cols, rows = infoschema._engines(s)
        return _result(["Engine", "Support", "Comment", "Transactions", "XA", "Savepoints"], rows)
    if what in ("CHARSET",) or words[:2] == ["CHARACTER", "SET"]:
        rows = [(n, d, c, m) for n, c, d, m in infoschema.CHARSET_ROWS]
        return _filter(s, sql, toks, i + (1 if what == "CHARSET" else 2), rows,
                       ["Charset", "Description", "Default collation", "Maxlen"], None, (3,))
    if what == "COLLATION":
        rows = [(n, c, i_, d, comp, sl) for n, c, i_, d, comp, sl in infoschema.COLLATION_ROWS]
        return _filter(s, sql, toks, i + 1, rows,
                       ["Collation", "Charset", "Id", "Default", "Compiled", "Sortlen"], None,
                       (2, 5))
    if what == "GRANTS":
        return showgrants.grants_statement(s, stmt)
    if words[:2] == ["CREATE", "USER"]:
        return showgrants.show_create_user(s, Reader(stmt, i + 2))
    if what == "BINARY" or what == "MASTER" and words[1:2] == ["LOGS"]:
        _replication_privilege(s, what)
        raise ServerError(1381, message="You are not using binary logging", sqlstate="HY000")
    if what in ("SLAVE", "REPLICA") and words[1:2] == ["HOSTS"]:
        # the replicas connected to this server: none (MariaDB asks REPLICATION MASTER ADMIN)
        if s.security is not None:
            s.security.check_global(P.REPL_MASTER_ADMIN)
        return ResultSet([int_column("Server_id", length=10), text_column("Host"),
                          int_column("Port", length=10), int_column("Master_id", length=10)],
                         [])
    if what == "RELAYLOG" and "EVENTS" in words[1:3]:
        # SHOW RELAYLOG ['connection'] EVENTS [IN ..] [FROM ..] [LIMIT ..]: a server that
        # replicates from nobody has no relay log, so no events; MariaDB asks SLAVE MONITOR
        # only (SUPER is not enough since 10.5.9)
        if s.security is not None:
            s.security.check_global(P.SLAVE_MONITOR)
        return ResultSet([text_column("Log_name"), int_column("Pos"), text_column("Event_type"),
                          int_column("Server_id", length=10), int_column("End_log_pos"),
                          text_column("Info")], [])
    if what in ("MASTER", "SLAVE", "REPLICA", "ALL"):
        _replication_privilege(s, what)
        return ResultSet([text_column("File"), int_column("Position")], [])
    if what in ("PLUGINS",):
        return _result(["Name", "Status", "Type", "Library", "License"],
                       [("thread_pool", "ACTIVE", "DAEMON", None, "MIT")])
    if what == "THREADPOOL" and words[1:2] == ["STATUS"]:
        return ResultSet(tpstatus.THREADPOOL_STATUS, s.ctx.pool_table("THREADPOOL_STATUS"))
    if what == "OPEN":
        return _result(["Database", "Table", "In_use", "Name_locked"], [])
    if what in ("BINLOG", "RELAYLOG") and words[1:2] == ["EVENTS"]:
        return _log_events(s, stmt, i + 2, what)
    if what in ("AUTHORS", "CONTRIBUTORS"):
        # MariaDB's lists, as it answers them (credits.py); nothing may follow
        if i + 1 < len(toks):
            raise syntax_error(sql, toks[i + 1].start)
        return ResultSet([text_column("Name", length=40), text_column("Location", length=40),
                          text_column("Comment", length=512)],
                         list(credits.AUTHORS if what == "AUTHORS" else credits.CONTRIBUTORS))
    return None


def _variables(s: Session, sql: str, toks: list[Token], i: int,
               scope_global: bool) -> Result:
    cols, rows = infoschema._variables(s, session_scope=not scope_global)
    pairs = [(name.lower(), value) for name, value in rows]
    view = "GLOBAL_VARIABLES" if scope_global else "SESSION_VARIABLES"
    return _filter(s, sql, toks, i, pairs, ["Variable_name", "Value"], view)


def _processlist(s: Session, full: bool) -> ResultSet:
    cols = [int_column("Id"), text_column("User"), text_column("Host"), text_column("db"),
            text_column("Command"), int_column("Time"), text_column("State"),
            text_column("Info"), text_column("Progress")]
    rows = [r + ("0.000",) for r in infoschema.processlist_rows(s, full=full)]
    return ResultSet(cols, rows)


def _warnings(s: Session, *, errors_only: bool) -> ResultSet:
    cols = [text_column("Level"), int_column("Code"), text_column("Message", length=512)]
    rows = [(w.level, w.code, w.message) for w in s.warnings
            if not errors_only or w.level == "Error"]
    return ResultSet(cols, rows)


def _count_warnings(s: Session, toks: list[Token]) -> ResultSet:
    # SHOW COUNT(*) WARNINGS | ERRORS
    kind = toks[-1].upper
    if kind not in ("WARNINGS", "ERRORS"):
        raise syntax_error(" ".join(t.text for t in toks), 0)
    count = len(s.warnings) if kind == "WARNINGS" else \
        sum(1 for w in s.warnings if w.level == "Error")
    name = f"@@session.{'warning' if kind == 'WARNINGS' else 'error'}_count"
    return ResultSet([int_column(name)], [(count,)])


def _log_events(s: Session, stmt: Statement, i: int, what: str) -> ResultSet:
    """SHOW BINLOG | RELAYLOG EVENTS [IN 'log'] [FROM pos] [LIMIT [offset,] n]: the events of
    a log this server does not keep (no binary log, no replica): none, after MariaDB's
    privilege check (BINLOG MONITOR; SLAVE MONITOR for the relay log)."""
    r = Reader(stmt, i)
    if r.accept("IN"):
        r.string()
    if r.accept("FROM"):
        r.integer()
    if r.accept("LIMIT"):
        r.integer()
        if r.accept(","):
            r.integer()
    r.end()
    if s.security is not None:
        s.security.check_global(P.BINLOG_MONITOR if what == "BINLOG" else P.SLAVE_MONITOR)
    return ResultSet([text_column("Log_name", length=20), int_column("Pos", length=20),
                      text_column("Event_type", length=20), int_column("Server_id", length=10),
                      int_column("End_log_pos", length=20), text_column("Info", length=80)], [])


def _replication_privilege(s: Session, what: str) -> None:
    """SHOW MASTER / BINARY ... needs SUPER or BINLOG MONITOR; SHOW SLAVE / REPLICA / ALL
    SLAVES STATUS needs SUPER or SLAVE MONITOR (MariaDB 10.11's 1227 texts)."""
    if s.security is None:
        return
    second = P.BINLOG_MONITOR if what in ("MASTER", "BINARY") else P.SLAVE_MONITOR
    s.security.check_global(P.SUPER, second)
