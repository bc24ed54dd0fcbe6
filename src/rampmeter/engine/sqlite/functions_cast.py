"""CAST and the implicit conversions of the engine (helpers registered per handle as rm_*):
CAST(x AS SIGNED / UNSIGNED / DECIMAL / DOUBLE / DATE / DATETIME / TIME / INTERVAL
DAY_SECOND(n)), and a string read as a number where MariaDB compares it with one (compare.py).

Rules (MariaDB 10.11, measured with the mariadb-test client):
- A string becomes a number by its leading number; when more follows (or nothing numeric is
  there) MariaDB warns 1292 "Truncated incorrect INTEGER / DECIMAL / DOUBLE value: '...'",
  once per value converted.
- CAST AS SIGNED rounds an exact decimal half away from zero and a double half to even; a
  double out of BIGINT's range is clipped with note 1916; text and unsigned values wrap to
  64 bits. CAST AS UNSIGNED of a negative number is its two's complement (note 1105).
- A constant compared with a DATE / DATETIME / TIME is read as one (rm_temporal, compare.py).
- CAST AS DECIMAL(M,D) rounds half up to D digits and clips to M digits (1264 "Out of range
  value"); the result is text, since SQLite's REAL would lose digits beyond 15.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Context, Decimal, localcontext
from typing import Any

from rampmeter import errors
from rampmeter.engine import strtime, values
from rampmeter.engine.sqlite import exactdec, temporal
from rampmeter.engine.sqlite import temporal as tm
from rampmeter.engine.types import SqlType
from rampmeter.engine.values import parse_number
from rampmeter.errors import ServerError
from rampmeter.protocol.results import format_float

_U64 = (1 << 64) - 1
_FUZZY_READ = SqlType("datetime", None, 6)
_STARTS_AS_DATE = re.compile(r"\s*\d{2,}\D?\d")  # '2001-01-01x', '20050326 garbage'


def _show(v: Any) -> str:
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)


def double_text(v: float) -> str:
    """A double as MariaDB prints one: shortest digits, exponent without '+'."""
    return repr(v).replace("e+", "e")


def _signed_int(v: Any) -> int:
    if isinstance(v, str) and v[:1] == "~":
        return int(v[1:])
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return int(v)
    num, _whole = parse_number(_show(v))
    return int(num) if num is not None else 0


def _as_sqlite_int(n: int) -> Any:
    return n if n <= 2**63 - 1 else f"~{n:020d}"


def time_key(v: Any) -> Any:
    """rm_time_key: a TIME as its signed microseconds, to put TIMEs in order (compare.py)."""
    if v is None:
        return None
    if isinstance(v, (int, float)):
        v = str(v)
    r = strtime.str_to_time(_show(v))
    if not r.ok:
        return None
    us = ((r.hour * 60 + r.minute) * 60 + r.second) * 1_000_000 + r.micro
    return -us if r.neg else us


@functools.lru_cache(maxsize=64)
def _member_names(members: str) -> list[str]:
    """The members as ordercoll.py passes them: 0x1F-separated, hex-coded UTF-8 (a member
    may hold a NUL, which SQLite refuses in a statement's text)."""
    return bytes.fromhex(members).decode("utf-8", "surrogateescape").split("\x1f")


def member_rank(v: Any, kind: str, members: str) -> Any:
    """An ENUM value's position among its members (0 for ''), a SET value's bits: the
    number MariaDB sorts them by (ordercoll.py)."""
    if v is None:
        return None
    names = _member_names(members)
    text = _show(v)
    if kind == "e":
        return names.index(text) + 1 if text in names else 0
    return sum(1 << names.index(item) for item in set(text.split(",")) if item in names)


def register(handle: Any, host: Any, guarded: Callable[[Callable[..., Any]],
                                                      Callable[..., Any]]) -> None:
    def truncated(kind: str, v: Any, level: str = "Warning") -> None:
        # a binary string's bytes outside printable ASCII are \xHH (ErrConvString)
        shown = "".join(chr(b) if 0x20 <= b < 0x7F else f"\\x{b:02X}" for b in v) \
            if isinstance(v, bytes) else _show(v)
        host.warn(errors.ER_TRUNCATED_WRONG_VALUE,
                  f"Truncated incorrect {kind} value: '{shown}'", level=level)

    def text_number(v: Any, kind: str) -> Decimal | float | None:
        """A string's number as MariaDB reads it, warning when it is not all number (a note
        when only spaces follow it)."""
        text = v.decode("latin-1") if isinstance(v, bytes) else str(v)
        num, whole = parse_number(text)
        if isinstance(num, float) and math.isinf(num):  # '1e1000': past a double
            if kind == "DECIMAL":  # MariaDB's str2my_decimal overflow, then the 1292
                host.warn(1916, "Got overflow when converting '' to DECIMAL. Value truncated")
            truncated(kind, v)
        elif num is None or not whole:
            truncated(kind, v)
        elif text[-1:].isspace():
            truncated(kind, v, "Note")
        return num

    def to_number(v: Any, kind: str) -> Any:
        if v is None or isinstance(v, (int, float)):
            return v
        unsigned = kind == "UDECIMAL"  # compared with a BIGINT UNSIGNED (compare.py)
        num = text_number(v, "DECIMAL" if unsigned else kind)
        if num is None:
            return 0
        if isinstance(num, Decimal):
            if num == num.to_integral_value():
                if num.copy_abs() < 2**63:
                    return int(num)
                if unsigned and 0 < num < 2**64:
                    return values.big_unsigned(int(num))  # the column's stored form
            return float(num)
        return num

    def cast_temporal(v: Any, kind: str, fsp: int) -> Any:
        """CAST(v AS DATE / DATETIME / TIME(fsp)); `kind` in capitals: a DATE'..' literal,
        whose Note for digits past the sixth names the type in capitals (MariaDB)."""
        if v is None:
            return None
        literal = kind.isupper()
        kind = kind.lower()
        t = SqlType(kind, None, int(fsp) if kind != "date" else None)
        if isinstance(v, str) and v[:1] == "~":
            v = int(v[1:])  # an unsigned above 2^63-1 (values.py)
        zero_date = zero_in_date = True
        if literal and kind != "time":  # DATE'2001-00-00' under NO_ZERO_IN_DATE: NULL, 1292
            mode = str(getattr(host, "sql_mode", lambda: "")()).upper().split(",")
            zero_date, zero_in_date = "NO_ZERO_DATE" not in mode, "NO_ZERO_IN_DATE" not in mode
        stored, problem = values.store(t, v, zero_date=zero_date, zero_in_date=zero_in_date)
        if problem is not None and problem.cut:
            # a value read with text after it (a Warning) or digits past the sixth (a Note):
            # kept, "Truncated incorrect <the CAST's type> value" (MariaDB)
            shown = problem.kind or (kind if kind != "timestamp" else "datetime")
            host.warn(errors.ER_TRUNCATED_WRONG_VALUE,
                      f"Truncated incorrect {shown.upper() if literal else shown} "
                      f"value: '{_show(v)}'", level="Note" if problem.note else "Warning")
            return stored
        if problem is not None and problem.code == errors.ER_WARN_DATA_OUT_OF_RANGE:
            # past TIME's range: its end, "Truncated incorrect time value" (MariaDB)
            host.warn(errors.ER_TRUNCATED_WRONG_VALUE,
                      f"Truncated incorrect {kind} value: '{_show(v)}'")
            return stored
        if problem is not None and not problem.note:
            shown = "time" if kind == "time" else "datetime"  # CAST AS DATE says datetime
            host.warn(errors.ER_TRUNCATED_WRONG_VALUE, f"Incorrect {shown} value: '{_show(v)}'")
            return None
        return stored

    def cast_interval(v: Any, fsp: int) -> Any:
        """CAST(v AS INTERVAL DAY_SECOND(fsp)): '[-][D ]hh:mm:ss[.ff]', the fraction cut to
        fsp digits; what is no interval (a date-time, too many hours) is NULL with 1292."""
        if v is None:
            return None
        read, cut = temporal.read_interval(v, day_mode=False, dates=False)
        shown = _show(v)
        if read is None or isinstance(read, temporal.Moment):
            host.warn(errors.ER_TRUNCATED_WRONG_VALUE,
                      f"Incorrect INTERVAL DAY TO SECOND value: '{shown}'")
            return None
        frac = re.search(r"\.(\d*)\s*$", shown)
        if cut or frac is not None and len(frac.group(1)) > 6:  # a Note for lost digits
            host.warn(errors.ER_TRUNCATED_WRONG_VALUE, "Truncated incorrect INTERVAL DAY TO "
                      f"SECOND value: '{shown}'", level="Warning" if cut else "Note")
        us, digits = abs(read[0]), int(fsp)
        days, rest = divmod(us // 10**6, 86_400)
        text = temporal.time_text(rest * 10**6 + us % 10**6, digits)
        return ("-" if read[0] < 0 else "") + (f"{days} " if days else "") + text

    def limits(v: Any, prec: int, scale: int) -> None:
        """DECIMAL(M,D) / DOUBLE(M,D) past 65 / 38 digits: 1426 / 1425, naming the argument
        (MariaDB refuses it when parsing; here the first row's value stands for it)."""
        if int(prec) > 65:
            raise ServerError(errors.ER_TOO_BIG_PRECISION, _show(v), 65)
        if int(scale) > 38:
            raise ServerError(errors.ER_TOO_BIG_SCALE, _show(v), 38)

    def cast_decimal(v: Any, prec: int, scale: int) -> Any:
        limits(v, prec, scale)
        if v is None:
            return None
        t = SqlType("decimal", int(prec), int(scale))
        if isinstance(v, (str, bytes)) and not (isinstance(v, str) and v[:1] == "~"):
            num = text_number(v, "DECIMAL")
            d = Decimal(repr(num)) if isinstance(num, float) else num or Decimal(0)
        elif isinstance(v, str):  # an unsigned above 2^63-1 (values.py)
            d = Decimal(v[1:])
        else:
            d, _problem = values._to_decimal(v)
            d = d if d is not None else Decimal(0)
        top = values._decimal_max(t)
        with localcontext(Context(prec=200)):  # 81 digits and a scale of 30 fit
            q = d.quantize(Decimal(1).scaleb(-int(scale)), ROUND_HALF_UP)
        if q.copy_abs() > top:
            host.warn(errors.ER_WARN_DATA_OUT_OF_RANGE, "Out of range value for column "
                      f"'{_show(v)}' at row 1")
            q = top if q > 0 else -top
        return format(q, "f")

    def cast_double(v: Any) -> Any:
        if v is None or isinstance(v, (int, float)):
            return None if v is None else float(v)
        if isinstance(v, str) and v[:1] == "~":
            return float(int(v[1:]))
        num = text_number(v, "DOUBLE")
        return float(num) if num is not None else 0.0

    def cast_double_fixed(v: Any, prec: int, scale: int) -> Any:
        """CAST(v AS DOUBLE(M,D)): rounded half up to D decimals; past M digits the
        largest value of the type with a Note 1264, as MariaDB's Item_double_typecast."""
        limits(v, prec, scale)
        f = cast_double(v)
        if f is None or not math.isfinite(f):
            return f
        m, d = int(prec), int(scale)
        with localcontext(Context(prec=400)):
            q = Decimal(repr(f)).quantize(Decimal(1).scaleb(-d), ROUND_HALF_UP)
            top = Decimal(10) ** (m - d) - Decimal(1).scaleb(-d)
        if abs(q) > top:
            host.warn(errors.ER_WARN_DATA_OUT_OF_RANGE, "Out of range value for column "
                      f"'{_show(v)}' at row 1", level="Note")
            q = top if q > 0 else -top
        return float(q)

    def time_on_today(v: Any) -> Any:
        """A TIME as a DATETIME: today (the statement's date) plus the time, as MariaDB's
        CAST(time AS DATETIME) makes it (25:00:00 is tomorrow's 01:00:00)."""
        if v is None:
            return None
        import datetime as dt

        from rampmeter.engine.sqlite.functions_time import session_now
        td = values._parse_time(_show(v))
        if td is None or td is values._BAD_TIME:
            return v
        moment = dt.datetime.combine(session_now(host).date(), dt.time()) + td
        text = moment.strftime("%Y-%m-%d %H:%M:%S")
        return text + f".{moment.microsecond:06d}" if moment.microsecond else text

    def cast_signed(v: Any, kind: str) -> Any:
        if v is None:
            return None
        if kind == "x" and isinstance(v, bytes):
            n = int.from_bytes(v[-8:], "big")
        elif isinstance(v, str) and v[:1] == "~" or kind == "i":
            n = _signed_int(v)
        elif kind == "d" and isinstance(v, str):  # a DECIMAL's digits (values.py)
            return decimal_integer(v, False)
        elif kind in ("d", "f") and isinstance(v, (int, float)):
            if isinstance(v, float) and not -9.3e18 < v < 9.3e18:
                host.warn(1916, f"Got overflow when converting '{double_text(v)}' to "
                          "SIGNED BIGINT. Value truncated", level="Note")
                return 2**63 - 1 if v > 0 else -2**63
            n = round(v) if kind == "f" else int(Decimal(repr(v)).to_integral_value(
                ROUND_HALF_UP))
        else:
            n = _text_integer(v)
        n &= _U64
        return n - (1 << 64) if n >= 2**63 else n

    def decimal_integer(v: Any, unsigned: bool) -> int | str:
        """A DECIMAL cast to SIGNED / UNSIGNED: rounded half away from zero; past the type's
        range its end, with MariaDB's 1916 (a negative one to UNSIGNED is 0)."""
        d = exactdec.number(v)
        if d is None:
            return 0
        n = int(d.to_integral_value(ROUND_HALF_UP))
        lo, hi = (0, _U64) if unsigned else (-2**63, 2**63 - 1)
        if n < lo or n > hi:
            host.warn(1916, f"Got overflow when converting '{_show(v)}' to "
                      f"{'UNSIGNED INT' if unsigned else 'INT'}. Value truncated")
            n = lo if n < lo else hi
        return _as_sqlite_int(n) if unsigned else n

    def _text_integer(v: Any) -> int:
        text = _show(v)
        m = re.match(r"\s*[-+]?\d+", text)
        n = int(m.group(0)) if m else 0
        if not m or text[m.end():].strip() or abs(n) >= 2**64:
            truncated("INTEGER", v)
        elif text[m.end():]:  # only spaces follow
            truncated("INTEGER", v, "Note")
        return max(min(n, _U64), -2**63)

    def cast_unsigned(v: Any, kind: str = "") -> Any:
        if v is None:
            return None
        if kind == "x" and isinstance(v, bytes):  # a hex literal: its bytes (as cast_signed)
            n = int.from_bytes(v[-8:], "big")
        elif kind == "d" and (isinstance(v, float) or isinstance(v, str) and v[:1] != "~"):
            return decimal_integer(v, True)
        elif isinstance(v, (str, bytes)) and not (isinstance(v, str) and v[:1] == "~"):
            n = _text_integer(v)
        else:
            n = _signed_int(v)
        if n < 0:
            host.warn(errors.ER_UNKNOWN_ERROR, "Cast to unsigned converted negative integer "
                      "to it's positive complement", level="Note")
        return _as_sqlite_int(n & _U64)

    def temporal_number(v: Any, kind: str) -> Any:
        """A DATE / DATETIME / TIME as a number, as MariaDB reads one in a numeric CAST:
        YYYYMMDD, YYYYMMDDhhmmss, [-]hhmmss, with its fraction (as text, to stay exact)."""
        if v is None:
            return None
        if kind == "hybrid":  # a date-time function's string result: what it spells
            m = None if tm.time_first(v) else tm.read_datetime(v)
            kind = "time" if m is None else "datetime" if m.has_time else "date"
        if kind == "time":
            t = tm.read_time(v)
            if t is None:
                return v
            us, fsp = t
            whole, micro = divmod(abs(us), 1_000_000)
            h, rest = divmod(whole, 3600)
            n = h * 10000 + rest // 60 * 100 + rest % 60
            sign = "-" if us < 0 else ""
        else:
            m = tm.read_datetime(v)
            if m is None:
                return v
            n = m.year * 10000 + m.month * 100 + m.day
            micro, fsp, sign = m.day_us % 1_000_000, m.fsp, ""
            if kind != "date":
                secs = m.day_us // 1_000_000
                n = n * 1_000_000 + secs // 3600 * 10000 + secs % 3600 // 60 * 100 + secs % 60
            else:
                micro = fsp = 0
        if not fsp:
            return -n if sign else n
        return f"{sign}{n}." + f"{micro:06d}"[:fsp]

    for name, nargs, fn in (("rm_cast_temporal", 3, cast_temporal),
                            ("rm_temporal_number", 2, temporal_number),
                            ("rm_cast_interval", 2, cast_interval),
                            ("rm_cast_decimal", 3, cast_decimal),
                            ("rm_cast_double", 1, cast_double),
                            ("rm_cast_double_fixed", 3, cast_double_fixed),
                            ("rm_time_on_today", 1, time_on_today),
                            ("rm_cast_unsigned", 2, cast_unsigned),
                            ("rm_cast_signed", 2, cast_signed)):
        handle.create_function(name, nargs, guarded(fn))
    handle.create_function("rm_member_rank", 3, member_rank, deterministic=True)
    # deterministic: `id = rm_num(?)` keeps id's index usable (compare.py)
    handle.create_function("rm_num", 2, to_number, deterministic=True)
    handle.create_function("rm_double_text", 1, lambda v: format_float(v) if isinstance(
        v, float) else v, deterministic=True)

    def temporal_constant(v: Any, name: str, fsp: int) -> Any:
        """A constant compared with a DATE / DATETIME / TIME: read as one, in the column's
        stored form, warning 1292 "Truncated incorrect datetime value" when it is none."""
        if v is None:
            return None
        stored, problem = values.store(SqlType(name, None, fsp), v)
        if problem is not None and not problem.note:
            # a DATE warns "date" for a date with more after it, "datetime" for no date at
            # all ('', 'x', 5), as MariaDB's (the type its parser found when it gave up)
            found = name == "date" and _STARTS_AS_DATE.match(_show(v)) is not None
            truncated("time" if name == "time" else "date" if found else "datetime", v)
        return stored

    def fuzzy_date(v: Any) -> Any:
        """rm_fuzzy_date: the argument of DATE(x) / CAST(x AS DATE / DATETIME) that is an
        operand of a comparison (compare.py). MariaDB's comparator reads it with
        TIME_FUZZY_DATES: a value that is no date-time is the zero date, warning "Truncated
        incorrect datetime value" (not NULL with "Incorrect datetime value")."""
        if v is None:
            return None
        _stored, problem = values.store(_FUZZY_READ, v)
        if problem is None or problem.note or problem.cut:
            return v
        truncated("datetime", v)
        return "0000-00-00 00:00:00"

    handle.create_function("rm_fuzzy_date", 1, guarded(fuzzy_date))
    # deterministic: SQLite reads the constant once, and the column's index stays usable
    handle.create_function("rm_temporal", 3, guarded(temporal_constant), deterministic=True)
    handle.create_function("rm_time_key", 1, time_key, deterministic=True)
