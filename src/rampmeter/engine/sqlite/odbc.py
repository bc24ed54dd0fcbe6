"""ODBC escape syntax, which MariaDB's grammar reads, rewritten out of a shape's text.

Rules (sql_yacc.yy):
- `{ ident expr }` is expr; when ident is d, t or ts and expr a string literal, it is that
  literal typed DATE, TIME or TIMESTAMP when it is one, else the string. Any other ident (`fn`, `date`...) just
  wraps: `{fn length('a')}` is LENGTH('a'), `{ date "1997-10-20" }` is the string.
  A brace that opens no escape (`{a}`, a lone `}`) is 1064.
- `{ OJ table_ref LEFT OUTER JOIN table_ref ON expr }` in FROM is that join.
- Only shapes with a `{` pay for this (a scan of the tokens).
"""

from __future__ import annotations

from typing import Any

from rampmeter.engine.sqlite.modifiers import shape_tokens
from rampmeter.sql.statement import Statement

_TYPED = {"D": "DATE", "T": "TIME", "TS": "TIMESTAMP"}


def rewrite(text: str, stmt: Statement) -> str:
    if "{" not in text:
        return text
    toks = shape_tokens(text)
    if toks is None:
        return text
    cuts: list[tuple[int, int, str]] = []   # (start, end, replacement) in the text
    opened: list[int] = []                   # indices of the `{` tokens not closed yet
    for i, t in enumerate(toks):
        if t.text == "{":
            opened.append(i)
        elif t.text == "}" and opened:
            start = opened.pop()
            if not _escape(toks, start, i, cuts, stmt):
                _refuse(stmt, text, toks[start + 1] if start + 1 < i else t)
        elif t.text == "}":
            _refuse(stmt, text, t)
    if opened:
        _refuse(stmt, text, toks[opened[-1] + 1] if opened[-1] + 1 < len(toks) else None)
    if not cuts:
        return text
    out, at = [], 0
    for start, end, replacement in sorted(cuts):
        out.append(text[at:start])
        out.append(replacement)
        at = end
    out.append(text[at:])
    return "".join(out)


def _refuse(stmt: Statement, text: str, at: Any) -> None:
    """A brace that opens no escape: 1064 near what follows it, as MariaDB's grammar stops."""
    offset = len(stmt.shape) - len(text)
    raise stmt.syntax_error(None if at is None else at.start + offset)


def _escape(toks: list, open_at: int, close_at: int, cuts: list[tuple[int, int, str]],
            stmt: Statement) -> bool:
    if close_at - open_at < 3 or toks[open_at + 1].kind != "word":
        return False
    ident = toks[open_at + 1].text.upper()
    typed = _TYPED.get(ident)
    body = toks[open_at + 2:close_at]
    keyword = ""
    if typed is not None and _is_string(body) and _fits(typed, body, stmt):
        keyword = typed + " "
    cuts.append((toks[open_at].start, toks[open_at + 1].end, " " + keyword))
    cuts.append((toks[close_at].start, toks[close_at].end, " "))
    return True


def _fits(typed: str, body: list, stmt: Statement) -> bool:
    """Is the literal a value of the type ({d '2001-01-01 10:10:10'} is no DATE)? If not,
    MariaDB keeps the string (Item_string::make_odbc_literal). A placeholder is read from the
    statement's values (taken to fit when they are not known)."""
    from rampmeter.engine.sqlite import temporal
    from rampmeter.sql.lexer import string_value
    if body[0].kind != "str":
        values = dict(zip(stmt.names, stmt.slots))
        value = values.get(body[1].text) if len(body) == 2 else None
        if not isinstance(value, str):
            return True
    else:
        value = string_value(body[0].text)
    if typed == "TIME":
        return "-" not in value and temporal.read_time(value) is not None
    moment = temporal.read_datetime(value)
    return moment is not None and moment.has_time == (typed == "TIMESTAMP")


def _is_string(body: list) -> bool:
    """A string literal: as written, or a shape's string placeholder (`:s0`, which
    shape_tokens reads as `?` and the word `s0`)."""
    if len(body) == 1:
        return body[0].kind == "str"
    return len(body) == 2 and body[0].kind == "param" and body[1].text[:1] == "s"
