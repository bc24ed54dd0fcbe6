"""EXECUTE ... USING DEFAULT | IGNORE (MariaDB 10.2's indicator values), measured on MariaDB
10.11:

- as a whole value a column is given (INSERT ... VALUES (?, ...), INSERT / UPDATE ... SET
  col = ?) DEFAULT is the column's default; IGNORE is the default in an INSERT and leaves
  the column as it is in an UPDATE. The statement runs as its text with DEFAULT (or the
  column) in place of that marker, prepared for this one execution.
- as a whole item of a plain SELECT's list (not a UNION's) it is NULL, named `?` as before;
- anywhere else (an operand, a WHERE, a LIMIT, a UNION's item) it is 4032.
"""

from __future__ import annotations

from typing import Any

from rampmeter.errors import ServerError
from rampmeter.sql.lexer import Dialect, Token, tokens


class Indicator:
    """DEFAULT or IGNORE given for a parameter."""

    __slots__ = ("word",)

    def __init__(self, word: str) -> None:
        self.word = word


def _refused() -> ServerError:
    return ServerError(4032, message="Default/ignore value is not supported for such "
                       "parameter usage", sqlstate="HY000")


_SELECT_END = frozenset(("FROM", "AS", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "INTO"))
_SET_END = frozenset(("WHERE", "ORDER", "LIMIT", "RETURNING", "ON"))


def _role(toks: list[Token], i: int) -> tuple[str, str]:
    """('select' | 'default' | 'column', column text) for the marker toks[i]; 4032 if none."""
    first = toks[0].text.upper() if toks else ""
    depth = 0
    seen: set[str] = set()
    set_start = -1
    for k in range(i):
        t = toks[k]
        if t.kind == "op" and t.text == "(":
            depth += 1
        elif t.kind == "op" and t.text == ")":
            depth -= 1
        elif t.kind == "word" and depth == 0:
            word = t.text.upper()
            seen.add(word)
            if word == "SET":
                set_start = k
            elif word in _SET_END:
                set_start = -1
    prev = toks[i - 1] if i > 0 else None
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    after = "" if nxt is None else nxt.text.upper() if nxt.kind == "word" else nxt.text
    before = "" if prev is None else prev.text.upper() if prev.kind == "word" else prev.text
    if first == "SELECT" and depth == 0 and not seen & {"FROM", "WHERE"} and \
            before in ("SELECT", ",") and (after in ("", ",", ";") or after in _SELECT_END or
                                           nxt is not None and nxt.kind == "qident") and \
            not any(t.kind == "word" and t.text.upper() in ("UNION", "INTERSECT", "EXCEPT")
                    for t in toks):
        return "select", ""
    if first in ("INSERT", "REPLACE") and depth == 1 and seen & {"VALUES", "VALUE"} and \
            before in ("(", ",") and after in (",", ")"):
        return "default", ""
    if first in ("INSERT", "REPLACE", "UPDATE") and depth == 0 and set_start >= 0 and \
            before == "=" and (after in ("", ",", ";") or after in _SET_END):
        k = i - 2
        while k > set_start and not (toks[k].kind == "op" and toks[k].text == ","):
            k -= 1
        column = " ".join(t.text for t in toks[k + 1:i - 1]).replace(" . ", ".")
        return ("column" if first == "UPDATE" else "default"), column
    raise _refused()


def resolve(text: str, dialect: Dialect, params: list[Any]) -> tuple[str | None, list[Any]]:
    """(the text to run instead, or None; the parameters left) for values with indicators."""
    toks = [t for t in tokens(text, dialect) if t.kind != "end"]
    marks = [k for k, t in enumerate(toks) if t.kind == "param"]
    out: list[str] = []
    left: list[Any] = []
    pos = 0
    rewritten = False
    for n, value in enumerate(params):
        if not isinstance(value, Indicator):
            left.append(value)
            continue
        where = marks[n]
        role, column = _role(toks, where)
        if role == "select":
            left.append(None)
            continue
        rewritten = True
        out.append(text[pos:toks[where].start])
        out.append(column if role == "column" and value.word == "IGNORE" else "DEFAULT")
        pos = toks[where].end
    if not rewritten:
        return None, left
    out.append(text[pos:])
    return "".join(out), left
