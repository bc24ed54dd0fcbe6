"""MariaDB's numeric functions and aggregates that SQLite lacks or computes differently (the
library, funclib.py): RAND with MariaDB's generator, TRUNCATE, COT, BIT_COUNT, INTERVAL(),
the statistical aggregates and the bit aggregates.

Rules:
- RAND(N) is MariaDB's own generator (my_rnd, seeded as Item_func_rand::seed_random does), so
  a seeded sequence is the one MariaDB gives: seeded once per statement when N is the same on
  every row, the state kept in the session's statement_state. RAND() is any random number.
- The statistical aggregates (STD, STDDEV, STDDEV_POP, STDDEV_SAMP, VARIANCE, VAR_POP,
  VAR_SAMP) are DOUBLE; over exact numbers MariaDB shows 4 more decimals than the argument
  has, hence a fixed-decimals DOUBLE type there. BIT_AND / BIT_OR / BIT_XOR are unsigned
  64-bit (BIT_AND of no rows is 18446744073709551615).
"""

from __future__ import annotations

import math
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal, InvalidOperation, localcontext
from typing import Any

from rampmeter.engine import types as T
from rampmeter.engine.sqlite import bitconv
from rampmeter.engine.sqlite.funclib import sqlaggregate, sqlfunction
from rampmeter.engine.types import SqlType

_MAX = 0x3FFFFFFF
_U64 = (1 << 64) - 1
_EXACT_DIGITS = 130   # enough for DECIMAL(65, 38) and its intermediate results


def _number(v: Any) -> Any:
    """A value as a Python number (int, float or Decimal); None stays None."""
    if v is None or isinstance(v, (int, float)) and not isinstance(v, bool):
        return v
    text = v.decode("latin-1") if isinstance(v, bytes) else str(v)
    if text.startswith("~"):
        return int(text[1:])
    try:
        return Decimal(text.strip())
    except InvalidOperation:
        import re
        m = re.match(r"\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?", text)
        return Decimal(m.group(0).strip()) if m else 0


class _Rnd:
    """MariaDB's my_rnd: two seeds, modulo 0x3FFFFFFF."""

    def __init__(self, seed: int) -> None:
        seed &= 0xFFFFFFFF
        self.s1 = ((seed * 0x10001 + 55555555) & 0xFFFFFFFF) % _MAX
        self.s2 = ((seed * 0x10000001) & 0xFFFFFFFF) % _MAX

    def next(self) -> float:
        self.s1 = (self.s1 * 3 + self.s2) % _MAX
        self.s2 = (self.s1 + self.s2 + 33) % _MAX
        return self.s1 / float(_MAX)


@sqlfunction("RAND", (0, 1), T.DOUBLE, host=True, deterministic=False)
def rand(host: Any, seed: Any = ..., site: Any = 0) -> Any:
    import random
    if seed is ...:
        return random.random()
    n = 0 if seed is None else int(_number(seed))
    state = host.statement_state
    key = ("rand", site, n)  # each RAND(N) of a statement has its own sequence
    rnd = state.get(key)
    if rnd is None:
        rnd = state[key] = _Rnd(n)
    return rnd.next()


def _rounded_type(types: list[SqlType | None]) -> SqlType | None:
    """ROUND / TRUNCATE: an integer stays BIGINT, a double DOUBLE; a decimal is a DECIMAL
    whose scale is the places asked for (known only at execution: the function gives the
    digits and the value keeps them, scale None)."""
    t = types[0] if types else None
    if t is None:
        return None
    if t.is_integer:
        return T.BIGINT
    if t.is_decimal:
        return SqlType("decimal", 65, None)
    return T.DOUBLE


def _round(v: Any, places: Any, kind: str, truncate: bool) -> Any:
    if v is None or places is None:
        return None
    d = int(_number(places))
    x = _number(v)
    if kind in ("f", "s") or isinstance(x, float) and kind != "d":  # a string is a double
        x = float(x)
        if abs(d) > 308:
            return 0.0 if d < 0 else x
        f = 10.0 ** abs(d)
        scaled = x / f if d < 0 else x * f
        if math.isinf(scaled):
            return x
        n = math.trunc(scaled) if truncate else round(scaled)
        return float(n * f if d < 0 else n / f)
    mode = ROUND_DOWN if truncate else ROUND_HALF_UP
    dec = Decimal(repr(x)) if isinstance(x, float) else Decimal(x)
    with localcontext(prec=_EXACT_DIGITS):  # 65 digits and a scale of 38 (MariaDB's limits)
        if d >= 0:
            q = dec.quantize(Decimal(1).scaleb(-min(d, 38)), mode)
            return str(q) if kind == "d" else _integer(int(q))
        unit = Decimal(1).scaleb(-max(d, -_EXACT_DIGITS))
        q = (dec / unit).to_integral_value(mode) * unit
        return str(int(q)) if kind == "d" else _integer(int(q))


def _integer(n: int) -> Any:
    """An integer result as SQLite can hold it: past BIGINT, an unsigned one as the '~digits'
    text the engine reads as BIGINT UNSIGNED (functions._u64), a larger one as its digits."""
    if -2**63 <= n <= 2**63 - 1:
        return n
    return f"~{n:020d}" if 0 <= n <= 2**64 - 1 else str(n)


@sqlfunction("ROUND", (1, 2), _rounded_type)
def round_(v: Any, places: Any = 0, kind: Any = "s") -> Any:
    return _round(v, places, str(kind), False)


@sqlfunction("TRUNCATE", 2, _rounded_type)
def truncate(v: Any, places: Any, kind: Any = "s") -> Any:
    return _round(v, places, str(kind), True)


@sqlfunction("COT", 1, T.DOUBLE, host=True)
def cot(host: Any, v: Any) -> Any:
    if v is None:
        return None
    x = float(_number(v))
    t = math.tan(x)
    if t == 0:
        from rampmeter.errors import ServerError
        raise ServerError(1690, message=f"DOUBLE value is out of range in 'cot({x:g})'",
                          sqlstate="22003")
    return 1.0 / t


@sqlfunction("BIT_COUNT", 1, SqlType("bigint", 2), host=True)
def bit_count(host: Any, v: Any) -> Any:
    if v is None:
        return None
    return bin(bitconv.operand(v, "", host.warn)).count("1")


@sqlfunction("INTERVAL", (2, -1), SqlType("int", 11))
def interval(n: Any, *bounds: Any) -> Any:
    if n is None:
        return -1
    x = float(_number(n))
    for i, b in enumerate(bounds):  # a NULL bound is skipped (Item_func_interval::val_int)
        if b is not None and float(_number(b)) > x:
            return i
    return len(bounds)


# --- aggregates -----------------------------------------------------------------------------------
def _stat_type(types: list[SqlType | None]) -> SqlType | None:
    t = types[0] if types else None
    if t is not None and (t.is_integer or t.is_decimal):
        return SqlType("double", 23, min((t.scale or 0) + 4, 30))
    return T.DOUBLE


class _Moments:
    """Welford's running mean and variance."""

    sample = False
    root = False

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0

    def step(self, v: Any) -> None:
        if v is None:
            return
        x = float(_number(v))
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)

    def finalize(self) -> Any:
        if self.n == 0 or self.sample and self.n < 2:
            return None
        var = self.m2 / (self.n - 1 if self.sample else self.n)
        return math.sqrt(var) if self.root else var


@sqlaggregate("STDDEV_POP", 1, _stat_type, aliases=("STD", "STDDEV"))
class StddevPop(_Moments):
    root = True


@sqlaggregate("STDDEV_SAMP", 1, _stat_type)
class StddevSamp(_Moments):
    root = True
    sample = True


@sqlaggregate("VAR_POP", 1, _stat_type, aliases=("VARIANCE",))
class VarPop(_Moments):
    pass


@sqlaggregate("VAR_SAMP", 1, _stat_type)
class VarSamp(_Moments):
    sample = True


class _BitAgg:
    start = 0

    def __init__(self) -> None:
        self.value = self.start

    def step(self, v: Any) -> None:
        if v is not None:
            self.value = self.combine(self.value, int(_number(v)) & _U64)

    def combine(self, a: int, b: int) -> int:
        raise NotImplementedError

    def finalize(self) -> Any:
        return self.value if self.value <= 2**63 - 1 else f"~{self.value:020d}"


@sqlaggregate("BIT_AND", 1, T.UBIGINT)
class BitAnd(_BitAgg):
    start = _U64

    def combine(self, a: int, b: int) -> int:
        return a & b


@sqlaggregate("BIT_OR", 1, T.UBIGINT)
class BitOr(_BitAgg):
    def combine(self, a: int, b: int) -> int:
        return a | b


@sqlaggregate("BIT_XOR", 1, T.UBIGINT)
class BitXor(_BitAgg):
    def combine(self, a: int, b: int) -> int:
        return a ^ b
