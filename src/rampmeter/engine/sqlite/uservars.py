"""`SELECT @v`: the column MariaDB describes for a user variable, from what it holds now.

Rules (MariaDB's Item_func_get_user_var, as its protocol describes it):
- The type is the variable's when the statement starts (MariaDB fixes it when it prepares
  the statement: `SELECT @v := 1.5, @v` of an unset @v describes text), looked up at each
  execution (a plan is kept per shape; the variable changes between executions); the value
  is the one the row read, a DECIMAL printed with the scale @v has after. An integer is BIGINT (length 20,
  UNSIGNED above 2^63 - 1), a DECIMAL is DECIMAL(65, 38) (length 83; the value printed with
  its own scale), a double DOUBLE (length 23, 31 decimals), a string LONGBLOB-sized text
  (length 16777215) in the connection's character set, binary bytes and NULL the same
  length as binary.
- `@v := expr` keeps the value's type: a DECIMAL expression stores an exact DECIMAL of its
  scale (rm_setvar_dec), not the double SQLite computed.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from rampmeter.engine import values
from rampmeter.protocol.columns import Column
from rampmeter.protocol.constants import ColumnFlag, ColumnType
from rampmeter.sql import charsets

_BINARY = 63
_NUMBER = ColumnFlag.NUM | ColumnFlag.BINARY
_TEXT_LENGTH = 16777215


def before(outputs: Any, read: Callable[[str], Any]) -> dict[str, Any] | None:
    """The values the user variables a query's select list reads hold before it runs."""
    if not outputs:
        return None
    held = {o.uservar: read(o.uservar) for o in outputs
            if o is not None and o.uservar is not None}
    return held or None


def lookup(held: dict[str, Any], read: Callable[[str], Any]
           ) -> Callable[[str], tuple[Any, Any]]:
    """name -> (the value before the statement, the value now)."""
    return lambda name: (held.get(name), read(name))


def column(name: str, value: Any) -> Column:
    """The result column of `SELECT @v` while @v holds `value`."""
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        flags = _NUMBER | (ColumnFlag.UNSIGNED if value > 2**63 - 1 else 0)
        return Column(name, ColumnType.LONGLONG, 20, flags, 0, _BINARY, org_name="")
    if isinstance(value, Decimal):
        return Column(name, ColumnType.NEWDECIMAL, 83, _NUMBER, 38, _BINARY, org_name="")
    if isinstance(value, float):
        return Column(name, ColumnType.DOUBLE, 23, _NUMBER, 31, _BINARY, org_name="")
    if isinstance(value, str):
        cs = getattr(value, "charset", None)  # charsets.TextIn: text of its own set
        cid = charsets.default_collation(cs).id if cs else charsets.UTF8MB4_ID
        return Column(name, ColumnType.LONG_BLOB, _TEXT_LENGTH, 0, 39, cid, org_name="")
    return Column(name, ColumnType.LONG_BLOB, _TEXT_LENGTH, ColumnFlag.BINARY, 39, _BINARY,
                  org_name="")


def loader(value: Any) -> Callable[[Any], Any] | None:
    """A DECIMAL variable reaches SQLite as a number: printed again with its scale."""
    if isinstance(value, Decimal) and value.is_finite():
        exponent = value.as_tuple().exponent
        return values.decimal_loader(-exponent if isinstance(exponent, int) and exponent < 0
                                     else 0)
    return None


def exact(value: Any, scale: int) -> Any:
    """The value `@v := expr` stores for a DECIMAL expression of `scale`."""
    if value is None or isinstance(value, (str, bytes)):
        return value
    load = values.decimal_loader(scale)
    return load(value)
