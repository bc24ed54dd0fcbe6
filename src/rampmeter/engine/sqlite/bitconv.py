"""The operand of a bit operator (& | ^ ~ << >>) and of BIT_COUNT, as MariaDB reads it: a
64-bit integer, by the operand's type.

Rules (MariaDB 10.11's Converter_double_to_longlong and decimal-to-integer conversion):
- An integer is itself (a negative one in two's complement).
- A DOUBLE is rounded half away from zero; a negative one is read as a signed BIGINT, at most
  down to -2^63 (at or below it: -2^63 and 1916 "Got overflow when converting '...' to INT");
  a positive one as BIGINT UNSIGNED, past 2^64 - 1 saturated with 1916 "... to UNSIGNED INT".
  The value in the message is the double written out without an exponent.
- A DECIMAL is rounded half away from zero, saturated the same way (below -2^63, above
  2^64 - 1), the message showing its digits.
- A string is read as a DECIMAL from its leading number; text after it (or no number at all)
  is 1292 "Truncated incorrect DECIMAL value".
- `kind` is the operand's static type as translate.py knows it: 'r' DOUBLE, 'd' DECIMAL, 's'
  a string, 'i' an integer; '' or '-' leaves it to the Python value (a float is a DOUBLE).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from rampmeter import errors
from rampmeter.engine.types import SqlType
from rampmeter.engine.values import parse_number

U64 = (1 << 64) - 1
_ER_DATA_OVERFLOW = 1916
_MIN = -(1 << 63)

Warn = Callable[[int, str], None]


def kind_of(t: SqlType | None) -> str:
    """The `kind` letter of a static type (module rules)."""
    if t is None:
        return ""
    if t.name in ("float", "double"):
        return "r"
    if t.name == "decimal":
        return "d"
    if t.is_text or t.is_binary_string:
        return "s"
    return "i"


def operand(v: Any, kind: str, warn: Warn) -> int:
    """`v` as the unsigned 64-bit pattern the bit operation works on."""
    if v is None:
        return 0
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, str) and v[:1] == "~" and v[1:].isdigit():
        return int(v[1:])
    if isinstance(v, int) and kind != "r":
        return v & U64
    if isinstance(v, (bytes, str)):
        text = v.decode("latin-1") if isinstance(v, bytes) else v
        num, whole = parse_number(text)
        if not whole:
            warn(errors.ER_TRUNCATED_WRONG_VALUE,
                 f"Truncated incorrect DECIMAL value: '{text}'")
        if num is None:
            return 0
        try:
            dec = Decimal(repr(num)) if isinstance(num, float) else num
        except InvalidOperation:
            return 0
        return _from_decimal(dec, warn)
    if isinstance(v, float) and kind != "d":
        return _from_double(v, warn)
    if isinstance(v, float):
        return _from_decimal(Decimal(repr(v)), warn)
    if isinstance(v, Decimal):
        return _from_decimal(v, warn)
    return int(v) & U64


def _overflow(text: str, unsigned: bool, warn: Warn) -> None:
    warn(_ER_DATA_OVERFLOW, f"Got overflow when converting '{text}' to "
         f"{'UNSIGNED INT' if unsigned else 'INT'}. Value truncated")


def _double_text(f: float) -> str:
    return format(Decimal(repr(f)), "f")


def _from_double(f: float, warn: Warn) -> int:
    if math.isnan(f):
        return 0
    if f < 0:
        if f <= _MIN:
            _overflow(_double_text(f) if math.isfinite(f) else "-inf", False, warn)
            return _MIN & U64
        return int(Decimal(f).to_integral_value(ROUND_HALF_UP)) & U64
    if f >= 2.0 ** 64:
        _overflow(_double_text(f) if math.isfinite(f) else "inf", True, warn)
        return U64
    return min(int(Decimal(f).to_integral_value(ROUND_HALF_UP)), U64)


def _from_decimal(d: Decimal, warn: Warn) -> int:
    if not d.is_finite():
        return 0
    n = int(d.to_integral_value(ROUND_HALF_UP))
    if n < _MIN:
        _overflow(format(d, "f"), False, warn)
        return _MIN & U64
    if n > U64:
        _overflow(format(d, "f"), True, warn)
        return U64
    return n & U64
