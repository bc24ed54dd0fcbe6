"""Statements the session answers itself: SET, USE, KILL, FLUSH, SHUTDOWN (accounts and grants:
usersql.py, grantsql.py).

Rules:
- Each statement function takes (session, statement) and returns an engine-style Result, so
  the text and the prepared-statement paths write it the same way. It reads the statement's
  tokens (the front door made them; sql/statement.py), never the text again.
- Grammar is MariaDB 10.11's; what we parse we parse completely and anything else is 1064 with
  MySQL's "near '...'" message, never a silent no-op.
- Server statements check their privileges here (privileges.py): FLUSH needs RELOAD,
  SHUTDOWN needs SHUTDOWN, KILL of another user's thread SUPER / CONNECTION ADMIN (registry.py
  asks Session.may_kill), SET GLOBAL what sysvars.assign asks.
- Values on the right of SET that are not plain literals (`SET @a = (SELECT ...)`,
  `SET sql_mode = CONCAT(@@sql_mode, ',X')`) are evaluated by the engine as `SELECT <expr>`.
- In `SET GLOBAL a = 1, b = 2` the last scope keyword applies to the following assignments,
  as the MySQL manual says.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import ResultSet, UpdateCount
from rampmeter.errors import ServerError, Warning_
from rampmeter.session import sysvars, usersql
from rampmeter.session.privileges import P
from rampmeter.sql import charsets
from rampmeter.sql.lexer import Token, ident_value, string_value
from rampmeter.sql.lexer import syntax_error as _syntax_error
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session

_SCOPES = {"GLOBAL": "global", "SESSION": "session", "LOCAL": "session"}


_NAME = ("word", "qident")


def syntax_error(sql: str, at: int | None = None) -> ServerError:
    return _syntax_error(sql, at if at is not None else 0)


def unquote(text: str) -> str:
    """The value of a string or (quoted) identifier token's text."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return string_value(text)
    return ident_value(text)


def _parts(stmt: Statement) -> tuple[str, list[Token]]:
    return stmt.text, list(stmt.tokens or ())


# --- SET ------------------------------------------------------------------------------------

def set_statement(s: Session, stmt: Statement) -> UpdateCount:
    sql, toks = _parts(stmt)
    if not toks or toks[0].upper != "SET":
        raise syntax_error(sql)
    if len(toks) > 1 and toks[1].upper == "PASSWORD" and toks[1].kind in _NAME:
        usersql.set_password(s, Reader(stmt, 2))
        return UpdateCount()
    warnings: list[Warning_] = []
    scope: str | None = None
    for part in _split_commas(toks[1:]):
        if not part:
            raise syntax_error(sql)
        head = part[0].upper
        if head in _SCOPES and len(part) > 1:
            scope = _SCOPES[head]
            part = part[1:]
            head = part[0].upper
        if head == "NAMES" and part[0].kind in _NAME:
            _set_names(s, sql, part)
        elif head in ("CHARSET", "CHARACTER") and part[0].kind in _NAME:
            rest = part[2:] if head == "CHARACTER" else part[1:]
            value = None if rest and rest[0].upper == "DEFAULT" else _literal_text(sql, rest)
            sysvars.set_character_set(s, value)
        elif head == "TRANSACTION" and part[0].kind in _NAME:
            warnings += _set_transaction(s, sql, scope, part[1:])
        elif part[0].kind == "uservar":
            expr = _after_assign(sql, part)
            from rampmeter.session.sp import calls
            with calls.out_args(s, expr):  # a stored function's OUT arguments (sp/calls.py)
                value = user_value(s, sql, expr)
            s.set_user_variable(_uservar_name(part[0].text), value)
        else:
            warnings += _set_sysvar(s, sql, scope, part)
    return UpdateCount(warnings=warnings)


def _split_commas(toks: list[Token]) -> list[list[Token]]:
    parts: list[list[Token]] = [[]]
    depth = 0
    for t in toks:
        if t.kind == "op" and t.text == "(":
            depth += 1
        elif t.kind == "op" and t.text == ")":
            depth -= 1
        elif t.kind == "op" and t.text == "," and depth == 0:
            parts.append([])
            continue
        parts[-1].append(t)
    return parts


def _after_assign(sql: str, part: list[Token]) -> list[Token]:
    for i, t in enumerate(part):
        if t.kind == "op" and t.text in ("=", ":="):
            return part[i + 1:]
    raise syntax_error(sql, part[-1].end if part else None)


def _set_sysvar(s: Session, sql: str, scope: str | None, part: list[Token]) -> list[Warning_]:
    first = part[0]
    if first.kind == "sysvar":
        body = first.text[2:]
        name = body
        if "." in body:
            prefix, name = body.split(".", 1)
            scope = _SCOPES[prefix.upper()]
    elif first.kind in _NAME:
        name = unquote(first.text)
    else:
        raise syntax_error(sql, first.start)
    if len(part) > 1 and not (part[1].kind == "op" and part[1].text in ("=", ":=")):
        raise syntax_error(sql, part[1].start)  # `SET option option=1`: one name only
    rhs = _after_assign(sql, part)
    if len(rhs) == 1 and rhs[0].kind in _NAME and rhs[0].upper == "DEFAULT":
        return sysvars.assign(s, scope, name, None, default=True)
    return sysvars.assign(s, scope, name, _value(s, sql, rhs))


def _value(s: Session, sql: str, rhs: list[Token]) -> Any:
    """A literal right-hand side directly; anything else through the engine."""
    if not rhs:
        raise syntax_error(sql)
    if len(rhs) == 1:
        tok = rhs[0]
        if tok.kind == "str":
            return unquote(tok.text)
        if tok.kind == "num":
            return float(tok.text) if any(c in tok.text for c in ".eE") else int(tok.text)
        if tok.kind in _NAME:
            word = unquote(tok.text)
            if word.upper() == "NULL":
                return None
            return word
    if len(rhs) == 2 and rhs[0].text == "-" and rhs[1].kind == "num":
        return -_value(s, sql, rhs[1:])
    expr = sql[rhs[0].start:rhs[-1].end]
    if s.engine is None:
        raise syntax_error(sql, rhs[0].start)
    if any(t.kind in _NAME and t.upper == "SELECT" for t in rhs):
        # a subquery reads tables: the privileges a SELECT of them needs (1142), as MariaDB
        # checks them for SET @v = (SELECT ...), in a routine too
        from rampmeter.session import required
        required.check(s, s.scan(f"SELECT {expr}"))
    result = s.engine.execute(f"SELECT {expr}")
    if not isinstance(result, ResultSet):
        raise syntax_error(sql, rhs[0].start)
    rows = list(result.rows)
    if not rows:
        return None
    # text of another character set than utf8mb4 is kept as such (HEX(@v): its bytes)
    coll = charsets.collation_by_id(result.columns[0].charset) if result.columns else None
    return charsets.text_in(rows[0][0], coll.charset if coll is not None else None)


def user_value(s: Session, sql: str, rhs: list[Token]) -> Any:
    """What a user variable takes from `SET @v = rhs` or EXECUTE ... USING rhs: as _value, but
    a number literal with a decimal point stays an exact DECIMAL (MariaDB's @v = 0.10 is a
    DECIMAL of scale 2, which arithmetic and prepared parameters keep exact)."""
    num = rhs[-1] if rhs and rhs[-1].kind == "num" else None
    if num is not None and "." in num.text and not any(c in num.text for c in "eE") and (
            len(rhs) == 1 or len(rhs) == 2 and rhs[0].text == "-"):
        value = Decimal(num.text)
        return -value if len(rhs) == 2 else value
    return _value(s, sql, rhs)


def _literal_text(sql: str, toks: list[Token]) -> str:
    if not toks:
        raise syntax_error(sql)
    return unquote(toks[0].text)


def _set_names(s: Session, sql: str, part: list[Token]) -> None:
    rest = part[1:]
    if not rest:
        raise syntax_error(sql)
    if rest[0].upper == "DEFAULT":
        sysvars.set_names(s, None)
        return
    collation = unquote(rest[2].text) if len(rest) >= 3 and rest[1].upper == "COLLATE" \
        else None
    sysvars.set_names(s, unquote(rest[0].text), collation)


def _set_transaction(s: Session, sql: str, scope: str | None,
                     rest: list[Token]) -> list[Warning_]:
    words = [t.upper for t in rest]
    text = " ".join(words)
    if text.startswith("ISOLATION LEVEL "):
        level = "-".join(words[2:])
        return sysvars.assign(s, scope, "transaction_isolation", level)
    if text == "READ ONLY":
        return sysvars.assign(s, scope, "transaction_read_only", True)
    if text == "READ WRITE":
        return sysvars.assign(s, scope, "transaction_read_only", False)
    raise syntax_error(sql, rest[0].start if rest else None)


def _uservar_name(text: str) -> str:
    return unquote(text[1:])


# --- USE, KILL, FLUSH, SHUTDOWN -----------------------------------------------------------------

def use(s: Session, stmt: Statement) -> UpdateCount:
    sql, toks = _parts(stmt)
    if len(toks) < 2 or toks[1].kind not in ("word", "qident", "str"):
        raise syntax_error(sql)
    s.use_database(unquote(toks[1].text))
    return UpdateCount()


def kill(s: Session, stmt: Statement) -> UpdateCount:
    sql, toks = _parts(stmt)
    i = 1
    if i < len(toks) and toks[i].upper in ("HARD", "SOFT"):
        i += 1
    query_only = False
    if i < len(toks) and toks[i].upper in ("CONNECTION", "QUERY"):
        query_only = toks[i].upper == "QUERY"
        i += 1
    if i < len(toks) and toks[i].upper in ("ID", "USER"):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, f"KILL {toks[i].upper}")
    rest = toks[i:]
    if not rest:
        raise syntax_error(sql)
    target = _value(s, sql, rest)
    try:
        target_id = int(target)
    except (TypeError, ValueError):
        raise ServerError(errors.ER_NO_SUCH_THREAD, target) from None
    s.ctx.registry.kill(target_id, query_only=query_only, killer=s)
    if target_id == s.connection_id and not query_only:
        raise ServerError(errors.ER_CONNECTION_KILLED)  # MariaDB: the killer hears it too
    return UpdateCount()


_FLUSH_ENGINE = ("TABLES", "TABLE")


def flush(s: Session, stmt: Statement) -> UpdateCount | None:
    """FLUSH options the session owns; None hands the statement to the engine (FLUSH TABLES)."""
    sql, toks = _parts(stmt)
    if s.security is not None:
        s.security.check_global(P.RELOAD)
    words = [t.upper for t in toks[1:] if t.kind in _NAME]
    if words and words[0] in ("NO_WRITE_TO_BINLOG", "LOCAL"):
        words = words[1:]
    if not words:
        raise syntax_error(sql)
    if words[0] in _FLUSH_ENGINE:
        return None
    for word in words:
        if word == "THREAD_POOL_STATS":
            s.ctx.flush_pool("stats")
        elif word == "THREAD_POOL_WAITS":
            s.ctx.flush_pool("waits")
        elif word == "PRIVILEGES":
            s.ctx.accounts.flush()
        elif word == "STATUS":
            s.ctx.registry.flush_status()
            s.ctx.registry.fold_counters(s)  # and the session's own start from zero
        elif word == "USER_STATISTICS":
            s.ctx.registry.user_stats.flush(s.ctx.registry.sessions())
        elif word == "HOSTS":
            s.ctx.hosts.flush()
        elif word in ("TABLE_STATISTICS", "INDEX_STATISTICS"):
            s.ctx.registry.table_stats.flush(word == "TABLE_STATISTICS",
                                             word == "INDEX_STATISTICS")
        elif word in ("LOGS", "USER_RESOURCES", "QUERY", "CACHE", "ERROR", "GENERAL",
                      "SLOW", "BINARY", "ENGINE", "RELAY", "CLIENT_STATISTICS"):
            continue  # nothing to flush in rampmeter: accepted as MariaDB accepts them
        else:
            raise syntax_error(sql)
    return UpdateCount()


def shutdown(s: Session, stmt: Statement) -> UpdateCount:
    if s.security is None:
        raise ServerError(errors.ER_SPECIFIC_ACCESS_DENIED_ERROR, "SHUTDOWN")
    s.security.check_global(P.SHUTDOWN)
    s.ctx.log.info("Shutdown requested by connection %d ('%s'@'%s')", s.connection_id, s.user,
                   s.host)
    s.ctx.request_shutdown()
    return UpdateCount()


def binlog(s: Session, stmt: Statement) -> UpdateCount:
    """BINLOG 'base64' (what mariadb-binlog prints to replay events): SUPER or BINLOG REPLAY,
    as MariaDB checks first; rampmeter keeps no binary log, so there are no events it could
    apply (1235); an empty one is MariaDB's 1149."""
    if s.security is not None:
        s.security.check_global(P.SUPER, P.BINLOG_REPLAY)
    r = Reader(stmt, 1)
    events = r.string()
    r.end()
    if not events.strip():
        raise ServerError(1149, sqlstate="42000", message=(
            "You have an error in your SQL syntax; check the manual that corresponds to your "
            "MariaDB server version for the right syntax to use"))
    raise ServerError(errors.ER_NOT_SUPPORTED_YET, "BINLOG events")


def purge(s: Session, stmt: Statement) -> UpdateCount:
    """PURGE {BINARY | MASTER} LOGS {TO 'name' | BEFORE expr}: rampmeter keeps no binary log,
    so there is nothing to purge and it answers OK, as MariaDB does with log_bin off (a
    subquery in BEFORE is 1970 there first, as in MariaDB)."""
    r = Reader(stmt, 1)
    r.accept_any("BINARY", "MASTER") or r.expect("BINARY")
    r.expect("LOGS")
    if r.accept("TO"):
        r.string()
        r.end()
    elif r.accept("BEFORE"):
        rest = r.toks[r.i:]
        if not rest:
            raise r.error()
        if any(t.kind == "word" and t.upper in ("SELECT", "EXISTS") for t in rest):
            raise ServerError(1970, message="PURGE..BEFORE does not support subqueries or "
                              "stored functions", sqlstate="42000")
    else:
        raise r.error()
    if s.security is not None:
        s.security.check_global(P.SUPER, P.BINLOG_ADMIN)
    return UpdateCount()
