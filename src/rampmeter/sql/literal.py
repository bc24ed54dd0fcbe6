"""A Python value written back as SQL text: the literal a statement's text may hold in place of
a bound value (a prepared EXPLAIN's `?`, engine/sqlite/bindtext.py; a routine's local
variable in a statement that takes no parameters, session/sp/run.py).

Rules:
- NULL is NULL, a bool 1 or 0, integers and DECIMALs as they print, a float as repr() (the
  shortest text that reads back the same double), binary strings as X'..';
- anything else (text, temporal values in their text form) is a quoted string with `\\` and
  `'` doubled, which reads back the same under any sql_mode that keeps backslash escapes.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any


def literal(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, (int, Decimal)):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (bytes, bytearray)):
        return "X'" + bytes(v).hex() + "'"
    text = str(v)
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"
