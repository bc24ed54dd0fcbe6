"""Prepared statements in SQL text: PREPARE name FROM 'text' | @var, EXECUTE name [USING a, b],
DEALLOCATE | DROP PREPARE name, EXECUTE IMMEDIATE.

Rules (MariaDB 10.11, measured):
- A name is the session's, case-insensitive; PREPARE of a taken name replaces the statement.
  The text is any statement, with `?` markers; it is scanned and prepared exactly as
  COM_STMT_PREPARE prepares it (statements.prepare), so what fails there fails here, with the
  same error. PREPARE answers OK with "Statement prepared".
- EXECUTE ... USING takes one value per marker: a user variable (its value, NULL when unset), a
  literal, or any expression (evaluated by the engine as SELECT expr; a single word too:
  CURRENT_TIME is the time), or DEFAULT / IGNORE (defaultparams.py). A different count is
  1210; an unknown name is 1243 (for EXECUTE and DEALLOCATE PREPARE alike). Each value is
  typed as a literal of it would be (a DECIMAL user variable makes exact arithmetic), because
  MariaDB types a parameter by the value bound at each EXECUTE.
- EXECUTE IMMEDIATE expr [USING ...] (mariadb-dump --system=users ends with one): the text is
  a literal, a user variable or an expression (CONCAT(...)) evaluated by the engine; it is
  prepared and executed at once, and named nowhere.
- The statements go with the session: COM_CHANGE_USER and COM_RESET_CONNECTION drop them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rampmeter.engine.base import PreparedStatement, Result, ResultSet, UpdateCount
from rampmeter.errors import ServerError
from rampmeter.protocol.constants import ColumnType
from rampmeter.session import defaultparams, reprepare, statements
from rampmeter.session.admin import (
    _split_commas,
    _uservar_name,
    _value,
    syntax_error,
    unquote,
    user_value,
)
from rampmeter.session.sp import calls
from rampmeter.sql.lexer import Token
from rampmeter.sql.statement import Statement, TemporalText

if TYPE_CHECKING:
    from rampmeter.session.session import Session

_NAME = ("word", "qident")


def _name(stmt: Statement, toks: list[Token], i: int) -> str:
    if i >= len(toks) or toks[i].kind not in _NAME:
        raise syntax_error(stmt.text, toks[i].start if i < len(toks) else None)
    return unquote(toks[i].text)


def _recursion() -> ServerError:
    return ServerError(1444, message="The prepared statement contains a stored routine call "
                       "that refers to that same statement. It's not allowed to execute a "
                       "prepared statement in such a recursive manner", sqlstate="HY000")


def _unknown(name: str, verb: str) -> ServerError:
    return ServerError(1243, message=f"Unknown prepared statement handler ({name}) given to "
                       f"{verb}", sqlstate="HY000")


def prepare(s: Session, stmt: Statement) -> Result:
    calls.dynamic_sql_allowed(s)
    toks = list(stmt.tokens or ())
    name = _name(stmt, toks, 1)
    if len(toks) > 3 and toks[2].upper == "FROM":
        _no_subquery(toks[3:], "PREPARE..FROM")
    if len(toks) != 4 or toks[2].upper != "FROM":
        raise syntax_error(stmt.text, toks[min(2, len(toks) - 1)].start)
    source = toks[3]
    if source.kind == "str":
        text = unquote(source.text)
    elif source.kind == "uservar":
        value = s.user_variable(_uservar_name(source.text))
        text = value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else \
            "NULL" if value is None else str(value)
    else:
        raise syntax_error(stmt.text, source.start)
    if name.lower() in s.__dict__.get("_executing_prepared", ()):
        raise _recursion()  # a routine the statement calls prepares it again: MariaDB's 1444
    inner = s.scan(text, client_params=True)
    prepared = statements.prepare(s, inner)
    reprepare.remember(s, prepared)
    old = s.sql_prepared.pop(name.lower(), None)
    if old is not None and s.engine is not None:
        s.engine.close_prepared(old)
    s.sql_prepared[name.lower()] = prepared
    return UpdateCount(info="Statement prepared")


def execute(s: Session, stmt: Statement) -> Result:
    calls.dynamic_sql_allowed(s)
    toks = list(stmt.tokens or ())
    if len(toks) > 2 and toks[1].upper == "IMMEDIATE" and toks[1].kind == "word":
        return _immediate(s, stmt, toks)
    name = _name(stmt, toks, 1)
    prepared = s.sql_prepared.get(name.lower())
    if prepared is None:
        raise _unknown(name, "EXECUTE")
    # a routine the statement calls may EXECUTE it again: MariaDB refuses (1444); the set
    # is made on first use (most sessions never EXECUTE)
    running = s.__dict__.setdefault("_executing_prepared", set())
    if name.lower() in running:
        raise _recursion()
    running.add(name.lower())
    try:
        return _run(s, stmt, prepared, toks[2:])
    finally:
        running.discard(name.lower())


def _recursion() -> ServerError:
    return ServerError(1444, message="The prepared statement contains a stored routine "
                       "call that refers to that same statement. It's not allowed to "
                       "execute a prepared statement in such a recursive manner",
                       sqlstate="HY000")


def _immediate(s: Session, stmt: Statement, toks: list[Token]) -> Result:
    using = next((k for k, t in enumerate(toks) if k > 2 and t.upper == "USING" and
                  t.kind == "word"), len(toks))
    source = toks[2:using]
    _no_subquery(source, "EXECUTE IMMEDIATE")
    _no_subquery(toks[using:], "EXECUTE..USING")
    if len(source) == 1 and source[0].kind == "uservar":
        value = s.user_variable(_uservar_name(source[0].text))
    else:
        value = _value(s, stmt.text, source)
    if value is None:
        raise syntax_error(stmt.text, source[0].start)
    text = value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else str(value)
    prepared = statements.prepare(s, s.scan(text, client_params=True))
    try:
        return _run(s, stmt, prepared, toks[using:])
    finally:
        if s.engine is not None and not isinstance(prepared.handle, tuple):
            s.engine.close_prepared(prepared)


def _run(s: Session, stmt: Statement, prepared: Any, rest: list[Token]) -> Result:
    toks = rest
    reprepare.refresh(s, prepared)  # a table it uses changed since its PREPARE
    _no_subquery(toks, "EXECUTE..USING")
    params: list[Any] = []
    if toks:
        if toks[0].upper != "USING" or len(toks) == 1:
            raise syntax_error(stmt.text, toks[0].start)
        for part in _split_commas(toks[1:]):
            if not part:
                raise syntax_error(stmt.text)
            if len(part) == 1 and part[0].kind == "uservar":
                params.append(s.user_variable(_uservar_name(part[0].text)))
            elif len(part) == 1 and part[0].kind == "word" and part[0].upper in (
                    "DEFAULT", "IGNORE"):
                params.append(defaultparams.Indicator(part[0].upper))
            elif len(part) == 1 and part[0].kind == "word" and part[0].upper != "NULL":
                params.append(_expression(s, stmt.text, part[0]))  # CURRENT_TIME, a column
            else:
                params.append(user_value(s, stmt.text, part))
    if len(params) != prepared.param_count:
        raise ServerError(1210, message="Incorrect arguments to EXECUTE", sqlstate="HY000")
    once = None
    if any(isinstance(p, defaultparams.Indicator) for p in params):
        text, params = defaultparams.resolve(prepared.sql, s.dialect(), params)
        if text is not None:  # DEFAULT in place of a marker: this execution's own statement
            prepared = once = statements.prepare(s, s.scan(text, client_params=True))
    try:
        return _execute(s, prepared, params)
    finally:
        if once is not None and s.engine is not None:
            s.engine.close_prepared(once)


def _expression(s: Session, sql: str, tok: Token) -> Any:
    """A one-word USING value is an expression, as MariaDB reads it (CURRENT_TIMESTAMP is
    the time; an unknown name is 1054)."""
    if s.engine is None:
        raise syntax_error(sql, tok.start)
    result = s.engine.execute(f"SELECT {tok.text}")
    rows = list(result.rows) if isinstance(result, ResultSet) else []
    value = rows[0][0] if rows else None
    if isinstance(result, ResultSet) and result.columns and value is not None:
        column = result.columns[0]
        name = _TEMPORAL_TYPES.get(column.type)
        if name is not None:  # CURRENT_TIME binds a TIME, as MariaDB's parameter takes it
            text = value.decode() if isinstance(value, bytes) else str(value)
            fsp = f"({column.decimals})" if name != "DATE" and column.decimals <= 6 else ""
            return TemporalText.of(text, name + fsp)
    return value


_TEMPORAL_TYPES = {ColumnType.DATE: "DATE", ColumnType.TIME: "TIME",
                   ColumnType.DATETIME: "DATETIME", ColumnType.TIMESTAMP: "DATETIME"}


def _execute(s: Session, prepared: Any, params: list[Any]) -> Result:
    handle = prepared.handle
    if params and isinstance(handle, Statement) and handle.is_dml:
        # each value typed as a literal of it would be (Statement.with_params)
        typed = handle.with_params(params)
        prepared = PreparedStatement(prepared.sql, prepared.param_count, prepared.columns,
                                     handle=typed)
    return statements.execute_prepared(s, prepared, params)


def _no_subquery(toks: list[Token], what: str) -> None:
    """MariaDB refuses a subquery in the text or values of PREPARE / EXECUTE (1970)."""
    if any(t.kind == "word" and t.upper == "SELECT" for t in toks):
        raise ServerError(1970, message=f"{what} does not support subqueries or stored "
                          "functions", sqlstate="42000")


def deallocate(s: Session, stmt: Statement) -> Result:
    calls.dynamic_sql_allowed(s)
    toks = list(stmt.tokens or ())
    if len(toks) != 3 or toks[1].upper != "PREPARE":
        raise syntax_error(stmt.text, toks[1].start if len(toks) > 1 else None)
    name = _name(stmt, toks, 2)
    prepared = s.sql_prepared.pop(name.lower(), None)
    if prepared is None:
        raise _unknown(name, "DEALLOCATE PREPARE")
    if s.engine is not None:
        s.engine.close_prepared(prepared)
    return UpdateCount()
