"""A prepared statement that is not DML (EXPLAIN SELECT ... ?, SHOW ... LIKE ?) run with its
parameters: its text with each `?` replaced by the value as a literal, scanned again (its
handlers read the text, not the bound values).

Rules:
- Each value is written by sql/literal.py (NULL, numbers as they print, binary strings as
  X'..', anything else quoted; temporal values in their text form).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rampmeter.sql.literal import literal
from rampmeter.sql.statement import Statement


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
