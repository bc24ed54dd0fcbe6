"""A prepared statement that is not DML (EXPLAIN SELECT ... ?, SHOW ... LIKE ?) run with its
parameters: its text with each `?` replaced by the value as a literal, scanned again (its
handlers read the text, not the bound values).

Rules:
- NULL is NULL, numbers are written as they are, binary strings as X'..', anything else as a
  quoted string (temporal values in their text form).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from rampmeter.sql.statement import Statement


def literal(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, (int, Decimal)):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (bytes, bytearray)):
        return "X'" + bytes(v).hex() + "'"
    text = str(v)
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def substitute(stmt: Statement, params: Sequence[Any]) -> str:
    out: list[str] = []
    pos = 0
    k = 0
    for t in stmt.tokens or ():
        if t.kind == "param" and k < len(params):
            out.append(stmt.text[pos:t.start])
            out.append(literal(params[k]))
            k += 1
            pos = t.end
    out.append(stmt.text[pos:])
    return "".join(out)
