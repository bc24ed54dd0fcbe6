"""The library of MariaDB's built-in functions that SQLite lacks or computes differently.

Rules:
- A function is declared once, beside its implementation (functions_string.py,
  functions_time.py, functions_numeric.py, functions_misc.py, ...), with `@sqlfunction(NAME,
  arity, returns)`: MariaDB's name, how many arguments it takes (a wrong count is MariaDB's
  1582 at translation), and its result type (a SqlType, or a function of the argument types,
  which infer.py calls).
- Every function is registered on each handle as `mf_<name>`, never under a name SQLite has,
  so the SQL the engine writes itself keeps SQLite's meaning; translate (funcmap.py) turns a
  call of NAME into `mf_<name>`.
- Implementations take SQLite's values (None, int, float, str, bytes; big unsigned integers as
  '~digits' text, see functions._u64) and return one. Those that need the session (warnings,
  the clock, variables) are declared `host=True` and get the Host as their first argument.
- A ServerError raised inside is reported as the statement's error (the Host hears of it
  first); any other exception is a bug and surfaces as 1105 with the log.
- Aggregates (`@sqlaggregate`) are classes with step(*args) / finalize(), registered with
  SQLite's create_aggregate under the same mf_ naming; used with OVER (...) (BIT_OR(b) OVER
  (ORDER BY pk)) they are `mf_<name>_w` (funcmap.py), a window function that keeps the
  frame's rows and computes the aggregate again over them for each row (`_Windowed`), so a
  plain aggregate keeps no rows.
- SQLite passes at most 127 arguments to a function; MariaDB has no such limit. A call of a
  function that takes any number with more is `mfp_<name>(rm_pack(a1..a100), rm_pack(...))`
  (funcmap.py): rm_pack keeps its arguments on the handle and answers a key, which mfp_
  turns back into the arguments, in order (a key serves once).
"""

from __future__ import annotations

import collections
import functools
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from rampmeter import errors
from rampmeter.engine.types import SqlType
from rampmeter.errors import ServerError

TypeRule = SqlType | Callable[[list[SqlType | None]], SqlType | None] | None


@dataclass(frozen=True)
class SqlFunction:
    name: str                     # MariaDB's spelling, upper case
    impl: Any                     # a function, or an aggregate class
    low: int                      # fewest arguments
    high: int                     # most (-1: any number)
    returns: TypeRule
    host: bool = False
    aggregate: bool = False
    deterministic: bool = True

    @property
    def sqlite_name(self) -> str:
        return "mf_" + self.name.lower()

    def check_arity(self, n: int, written: str | None = None) -> None:
        """1582 names the function as the client wrote it, as MariaDB's message does."""
        if n < self.low or self.high >= 0 and n > self.high:
            raise ServerError(errors.ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, written or self.name)

    def result_type(self, args: list[SqlType | None]) -> SqlType | None:
        if self.returns is None or isinstance(self.returns, SqlType):
            return self.returns
        return self.returns(args)


LIBRARY: dict[str, SqlFunction] = {}
MAX_SQLITE_ARGS = 127  # SQLITE_MAX_FUNCTION_ARG


def _arity(arity: int | tuple[int, int]) -> tuple[int, int]:
    return (arity, arity) if isinstance(arity, int) else arity


def sqlfunction(name: str, arity: int | tuple[int, int], returns: TypeRule, *,
                host: bool = False, aliases: tuple[str, ...] = (),
                deterministic: bool = True) -> Callable[[Callable[..., Any]],
                                                        Callable[..., Any]]:
    low, high = _arity(arity)

    def declare(fn: Callable[..., Any]) -> Callable[..., Any]:
        for n in (name, *aliases):
            LIBRARY[n.upper()] = SqlFunction(n.upper(), fn, low, high, returns, host,
                                             deterministic=deterministic)
        return fn
    return declare


def sqlaggregate(name: str, arity: int | tuple[int, int], returns: TypeRule, *,
                 aliases: tuple[str, ...] = ()) -> Callable[[type], type]:
    low, high = _arity(arity)

    def declare(cls: type) -> type:
        for n in (name, *aliases):
            LIBRARY[n.upper()] = SqlFunction(n.upper(), cls, low, high, returns,
                                             aggregate=True)
        return cls
    return declare


# MariaDB's native functions (item_create.cc's table) that the engine leaves to SQLite or
# translates elsewhere, so they are not in LIBRARY; with LIBRARY they make `is_native`.
_NATIVE_ELSEWHERE = frozenset(
    "ABS ACOS ASIN ATAN ATAN2 BENCHMARK CEIL CEILING CHARACTER_LENGTH CHAR_LENGTH CHR "
    "COLUMN_CREATE COLUMN_GET CONCAT CONCAT_WS CONNECTION_ID CONVERT_TZ COS DECODE "
    "DECODE_HISTOGRAM DEGREES DES_ENCRYPT ENCODE ENCRYPT EXP FLOOR FOUND_ROWS GET_LOCK "
    "GREATEST HEX IFNULL ISNULL IS_FREE_LOCK IS_USED_LOCK JSON_CONTAINS "
    "JSON_EXTRACT JSON_KEYS JSON_LENGTH JSON_QUOTE JSON_TYPE JSON_UNQUOTE "
    "JSON_VALID LAST_INSERT_ID LEAST LENGTH LN LOAD_FILE LOG LOG10 LOG2 LTRIM "
    "MASTER_POS_WAIT MD5 NULLIF NVL NVL2 PI POW POWER RADIANS RELEASE_ALL_LOCKS RELEASE_LOCK "
    "ROW_COUNT RTRIM SIGN SIN SLEEP SQRT TAN UNHEX UUID UUID_SHORT".split())


def is_native(name: str) -> bool:
    """A built-in function of MariaDB's: CREATE FUNCTION of that name says Note 1585, and a
    call without the database is the built-in."""
    _load()
    return name.upper() in LIBRARY or name.upper() in _NATIVE_ELSEWHERE


def lookup(name: str) -> SqlFunction | None:
    _load()
    return LIBRARY.get(name.upper())


_LOADED = False


def _load() -> None:
    """Import the modules that declare functions (once)."""
    global _LOADED
    if _LOADED:
        return
    from rampmeter.engine.sqlite import (  # noqa: F401 - imported for their declarations
        functions_groupconcat,
        functions_json,
        functions_jsondoc,
        functions_jsonedit,
        functions_misc,
        functions_numeric,
        functions_regexp,
        functions_sformat,
        functions_spatial,
        functions_string,
        functions_time,
        functions_timefmt,
        functions_weight,
    )
    _LOADED = True


def install(handle: Any, host: Any) -> None:
    """Register the whole library on `handle` (engine/sqlite/handle.py), for `host`."""
    _load()
    conn = handle.conn
    conn.create_collation("rm_ci", _compare_ci)
    conn.create_collation("rm_pad", _compare_pad)
    conn.create_collation("rm_decimal", _compare_decimal)
    packs: dict[int, tuple[Any, ...]] = {}
    counter = iter(range(1, 1 << 62))

    def pack(*args: Any) -> int:
        key = next(counter)
        packs[key] = args
        return key

    def unpacked(impl: Callable[..., Any]) -> Callable[..., Any]:
        def call(*keys: Any) -> Any:
            try:
                args = [a for k in keys for a in packs.pop(k)]
            except (KeyError, TypeError):
                raise ServerError(errors.ER_WRONG_ARGUMENTS, "rm_pack") from None
            return impl(*args)
        return call

    conn.create_function("rm_pack", -1, pack)
    from rampmeter.engine.sqlite import collations, percentile
    collations.install(conn)  # MariaDB's, by name (text columns, COLLATE)
    percentile.install(conn, host)  # PERCENTILE_CONT / _DISC / MEDIAN OVER (...)
    for fn in LIBRARY.values():
        if fn.aggregate:
            conn.create_aggregate(fn.sqlite_name, -1, fn.impl)
            if hasattr(conn, "create_window_function"):  # Python 3.11+
                conn.create_window_function(fn.sqlite_name + "_w", -1, _windowed(fn.impl))
            continue
        impl = functools.partial(fn.impl, host) if fn.host else fn.impl
        conn.create_function(fn.sqlite_name, -1, _guarded(impl, host),
                             deterministic=fn.deterministic)
        if fn.high < 0 or fn.high > MAX_SQLITE_ARGS:
            conn.create_function("mfp_" + fn.name.lower(), -1,
                                 _guarded(unpacked(impl), host))


@functools.cache
def _windowed(impl: Any) -> type:
    """An aggregate class as a SQLite window function: step / inverse keep the frame's rows
    (SQLite removes them oldest first), value computes the aggregate over them."""

    class _Windowed:
        def __init__(self) -> None:
            self.rows: collections.deque[tuple[Any, ...]] = collections.deque()

        def step(self, *args: Any) -> None:
            self.rows.append(args)

        def inverse(self, *args: Any) -> None:
            if self.rows:
                self.rows.popleft()

        def value(self) -> Any:
            agg = impl()
            for args in self.rows:
                agg.step(*args)
            return agg.finalize()

        def finalize(self) -> Any:
            return self.value()

    _Windowed.__name__ = f"Windowed{impl.__name__}"
    return _Windowed


def _compare_ci(a: str, b: str) -> int:
    """MariaDB's _general_ci collations, approximately: no case, no accents, PAD SPACE."""
    from rampmeter.engine.sqlite.functions_string import fold
    return _padded(fold(a.rstrip(" ")), fold(b.rstrip(" ")))


def _compare_pad(a: str, b: str) -> int:
    """MariaDB's _bin collations: code points, trailing spaces ignored (PAD SPACE)."""
    return _padded(a.rstrip(" "), b.rstrip(" "))


def _compare_decimal(a: str, b: str) -> int:
    """A DECIMAL column's order (values.py stores its values as exact text): by number. Text
    that is no number (none is stored; a '~' big unsigned is read as its digits) sorts after
    the numbers, as text."""
    if a == b:
        return 0
    try:
        x = Decimal(a[1:] if a[:1] == "~" else a)
        y = Decimal(b[1:] if b[:1] == "~" else b)
        return (x > y) - (x < y)
    except (InvalidOperation, ValueError):
        x_num, y_num = _is_decimal(a), _is_decimal(b)
        if x_num != y_num:
            return -1 if x_num else 1
        return (a > b) - (a < b)


def _is_decimal(text: str) -> bool:
    try:
        return Decimal(text).is_finite()
    except (InvalidOperation, ValueError):
        return False


def _padded(x: str, y: str) -> int:
    """PAD SPACE: the shorter string compares as if padded with spaces, so 'a\0' < 'a' (NUL
    sorts before the space) and 'a\t' < 'a ', as MariaDB answers."""
    if len(x) != len(y):
        n = max(len(x), len(y))
        x, y = x.ljust(n), y.ljust(n)
    return (x > y) - (x < y)


def _guarded(impl: Callable[..., Any], host: Any) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        try:
            return impl(*args)
        except ServerError as e:
            host.function_failed(e)
            raise
    return call
