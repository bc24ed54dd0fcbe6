"""MariaDB's date and time functions (the library, funclib.py): parts of a date, day numbers,
date arithmetic with INTERVAL units, the session's clock (formatting and parsing are in
functions_timefmt.py).

Rules:
- Arguments are read as MariaDB reads them (temporal.read_datetime / read_time); a value that
  is not a date is NULL with warning 1292 "Incorrect datetime value: '...'", as in MariaDB.
- A date-time result keeps the kind of its input: DATE_ADD of a date by days is a date, by
  hours a date-time; fractional seconds are shown with 6 digits when the input or the
  interval has any (MariaDB's string results of temporal functions).
- Results out of 0001-01-01 .. 9999-12-31 are NULL with warning 1441 (datetime field
  overflow).
- The clock is the session's (timefns.py): one reading per statement, fixed by SET timestamp,
  shown in the session's time_zone; UNIX_TIMESTAMP(dt) reads dt in that zone, FROM_UNIXTIME
  answers in it, and outside the TIMESTAMP range (1970 .. 2038-01-19 03:14:07 UTC) both are
  NULL, as in MariaDB 10.11.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from typing import Any

from rampmeter.config import timezones
from rampmeter.engine import strtime
from rampmeter.engine import types as T
from rampmeter.engine.sqlite import temporal as tm
from rampmeter.engine.sqlite.funclib import sqlfunction
from rampmeter.engine.sqlite.functions_timefmt import format_moment, locale_names
from rampmeter.engine.sqlite.temporal import Moment
from rampmeter.engine.types import SqlType
from rampmeter.engine.values import parse_number

INT = SqlType("int", 10)
TEXT = T.varchar(64)
Warn = Callable[[int, str], None]
_TIME_UNITS = ("HOUR", "MINUTE", "SECOND", "MICROSECOND")
_DATE_UNITS = frozenset({"YEAR", "MONTH", "QUARTER", "WEEK", "YEAR_MONTH"})
# EXTRACT(unit FROM a TIME) of those units: 0, and WEEK what MariaDB's calc_week makes of the
# zero date (its day number's unsigned arithmetic: 613566757, measured)
_TIME_DATE_PARTS = {"YEAR": 0, "MONTH": 0, "QUARTER": 0, "YEAR_MONTH": 0, "WEEK": 613566757}


def bad_value(host: Any, v: Any, kind: str = "datetime") -> None:
    host.warn(1292, f"Incorrect {kind} value: '{tm.text_of(v)}'")
    return None


def _row_of(host: Any, origin: tuple[Any, ...]) -> int:
    """The row a call reading a column is at (funcmap._column_origin): the rows it read in
    this statement."""
    state = host.statement_state
    key = ("row", origin[4])
    row = state[key] = state.get(key, 0) + 1
    return row


def column_bad_value(host: Any, v: Any, kind: str, origin: tuple[Any, ...], row: int) -> None:
    """MariaDB's 1292 for a column's value: "... for column `db`.`t`.`c` at row n", a
    DECIMAL's value with the column's scale."""
    db, table, column, scale = origin[:4]
    shown = tm.text_of(v)
    if int(scale) > 0 and isinstance(v, (int, float, Decimal)) and not isinstance(v, bool):
        number = Decimal(repr(v)) if isinstance(v, float) else Decimal(v)
        shown = f"{number:.{int(scale)}f}"
    host.warn(1292, f"Incorrect {kind} value: '{shown}' for column `{db}`.`{table}`."
              f"`{column}` at row {row}")


def _date(host: Any, v: Any, zero_ok: bool = True, origin: tuple[Any, ...] = (),
          row: int | None = None) -> Moment | None:
    """`origin`: where v comes from (funcmap._column_origin): a column's value that is no
    date says so with the column and row (`row`: when the caller counted it already); a
    DATE / DATETIME's zero date is NULL silently."""
    if row is None:
        row = _row_of(host, origin) if origin and origin[4] else 0
    if v is None:
        return None
    m = _text_date(host, v) if isinstance(v, (str, bytes)) else _number_date(v)
    if m is None or not zero_ok and (m.is_zero_date or m.has_zero_part):
        if m is not None and origin and origin[5] == 1:
            return None  # a temporal value (not a string) with zeros: NULL (MariaDB)
        if row:
            column_bad_value(host, v, "datetime", origin, row)
        else:
            bad_value(host, v)
        return None
    return m


def _number_date(v: Any) -> Moment | None:
    """A number as MariaDB's number_to_datetime reads it (strtime.py): YEAR(1111) is 2000."""
    if isinstance(v, bool) or not isinstance(v, (int, float, Decimal)) or v == 0:
        return tm.read_datetime(v)
    d = Decimal(repr(v)) if isinstance(v, float) else Decimal(v)
    if not d.is_finite() or d < 0:
        return None
    whole = int(d)
    digits = format(d - whole, "f").partition(".")[2].rstrip("0") if d != whole else ""
    r = strtime.number_to_datetime(whole, int((digits + "000000")[:6]))
    if not r.ok:
        return None
    return Moment(r.year, r.month, r.day, r.hour, r.minute, r.second, r.micro,
                  r.kind == "datetime", min(len(digits), 6) if r.kind == "datetime" else 0)


_NUMBER_TEXT = re.compile(r"\s*\d+\.\d+\s*$")


def _text_date(host: Any, v: str | bytes) -> Moment | None:
    """A string as MariaDB's str_to_datetime reads it (strtime.py): text after the date is
    1292 "Truncated incorrect date / datetime value" (what it read), digits past the sixth a
    Note; the value is kept."""
    text = tm.text_of(v)
    r = strtime.str_to_datetime(text)
    if not r.ok and _NUMBER_TEXT.match(text):  # a DECIMAL held as its digits: the number
        return _number_date(Decimal(text.strip()))
    if not r.ok:
        return None
    if r.warnings & strtime.TRUNCATED:
        host.warn(1292, f"Truncated incorrect {r.kind} value: '{text}'")
    elif r.warnings & strtime.NOTE_TRUNCATED and not _NUMBER_TEXT.match(text):
        # (a DECIMAL arrives as its digits: MariaDB cuts a number's nanoseconds silently)
        host.warn(1292, f"Truncated incorrect datetime value: '{text}'", level="Note")
    return Moment(r.year, r.month, r.day, r.hour, r.minute, r.second, r.micro,
                  r.kind == "datetime", r.digits)


def session_now(host: Any) -> dt.datetime:
    """The statement's moment as a local time in the session's zone (NOW())."""
    return host.time_zone().from_utc(host.statement_utc())


# --- parts of a date ----------------------------------------------------------------------------
@sqlfunction("YEAR", 1, INT, host=True)
def year(host: Any, v: Any, *origin: Any) -> Any:
    m = _date(host, v, origin=origin)
    return None if m is None else m.year


@sqlfunction("MONTH", 1, INT, host=True)
def month(host: Any, v: Any, *origin: Any) -> Any:
    m = _date(host, v, origin=origin)
    return None if m is None else m.month


@sqlfunction("DAY", 1, INT, host=True, aliases=("DAYOFMONTH",))
def day(host: Any, v: Any, *origin: Any) -> Any:
    m = _date(host, v, origin=origin)
    return None if m is None else m.day


@sqlfunction("QUARTER", 1, INT, host=True)
def quarter(host: Any, v: Any, *origin: Any) -> Any:
    m = _date(host, v, origin=origin)
    return None if m is None else (m.month + 2) // 3


@sqlfunction("DAYOFWEEK", 1, INT, host=True)
def dayofweek(host: Any, v: Any, *origin: Any) -> Any:
    m = _date(host, v, zero_ok=False, origin=origin)
    return None if m is None else tm.weekday(m.daynr, True) + 1


@sqlfunction("WEEKDAY", 1, INT, host=True)
def weekday(host: Any, v: Any, *origin: Any) -> Any:
    m = _date(host, v, zero_ok=False, origin=origin)
    return None if m is None else tm.weekday(m.daynr, False)


@sqlfunction("DAYOFYEAR", 1, INT, host=True)
def dayofyear(host: Any, v: Any, *origin: Any) -> Any:
    m = _date(host, v, zero_ok=False, origin=origin)
    return None if m is None else m.daynr - tm.calc_daynr(m.year, 1, 1) + 1


@sqlfunction("DAYNAME", 1, TEXT, host=True)
def dayname(host: Any, v: Any, *origin: Any) -> Any:
    m = _date(host, v, zero_ok=False, origin=origin)
    if m is None:
        return None
    names = locale_names(host)  # lc_time_names (functions_timefmt.py)
    day = tm.weekday(m.daynr, False)
    return tm.DAY_NAMES[day] if names is None else names[2][day]


@sqlfunction("MONTHNAME", 1, TEXT, host=True)
def monthname(host: Any, v: Any, *origin: Any) -> Any:
    m = _date(host, v, origin=origin)
    if m is None or m.month == 0:
        return None
    names = locale_names(host)
    return tm.MONTH_NAMES[m.month - 1] if names is None else names[0][m.month - 1]


@sqlfunction("WEEK", (1, 2), INT, host=True)
def week(host: Any, v: Any, mode: Any = None, *origin: Any) -> Any:
    m = _date(host, v, zero_ok=False, origin=origin)
    if m is None:
        return None
    if mode is None:
        mode = host.context.system_variable("default_week_format")
    return tm.calc_week(m, tm.week_mode(int(_num(mode))))[0]


@sqlfunction("WEEKOFYEAR", 1, INT, host=True)
def weekofyear(host: Any, v: Any, *origin: Any) -> Any:
    m = _date(host, v, zero_ok=False, origin=origin)
    return None if m is None else tm.calc_week(m, tm.week_mode(3))[0]


@sqlfunction("YEARWEEK", (1, 2), INT, host=True)
def yearweek(host: Any, v: Any, mode: Any = 0, *origin: Any) -> Any:
    m = _date(host, v, zero_ok=False, origin=origin)
    if m is None:
        return None
    if mode is None:
        mode = 0  # YEARWEEK(x) with the column's origin after it (funcmap)
    week_no, y = tm.calc_week(m, tm.week_mode(int(_num(mode))) | tm.WEEK_YEAR)
    return y * 100 + week_no


@sqlfunction("HOUR", 1, INT, host=True)
def hour(host: Any, v: Any) -> Any:
    t = _time(host, v)
    return None if t is None else abs(t[0]) // 3_600_000_000


@sqlfunction("MINUTE", 1, INT, host=True)
def minute(host: Any, v: Any) -> Any:
    t = _time(host, v)
    return None if t is None else abs(t[0]) // 60_000_000 % 60


@sqlfunction("SECOND", 1, INT, host=True)
def second(host: Any, v: Any) -> Any:
    t = _time(host, v)
    return None if t is None else abs(t[0]) // 1_000_000 % 60


@sqlfunction("MICROSECOND", 1, INT, host=True)
def microsecond(host: Any, v: Any) -> Any:
    t = _time(host, v)
    return None if t is None else abs(t[0]) % 1_000_000


def _time(host: Any, v: Any) -> tuple[int, int] | None:
    if v is None:
        return None
    if isinstance(v, (str, bytes)):
        return _text_time(host, v)
    t = tm.read_time(v)
    if t is None:
        bad_value(host, v, "time")
    return t


def _text_time(host: Any, v: str | bytes) -> tuple[int, int] | None:
    """A string as MariaDB's str_to_time reads it (strtime.py): text after the time, or a
    time past 838:59:59 (then TIME's end), is 1292 "Truncated incorrect time value", digits
    past the sixth a Note; a date-time is its time of day."""
    text = tm.text_of(v)
    r = strtime.str_to_time(text)
    if r.warnings & strtime.TRUNCATED and len(text.strip()) < 12 and not tm.time_first(text):
        # a date ('2010-01-01'), as a DATE column or function hands it over: its time of day
        # (MariaDB reads the DATE by its type; a string so spelled would be 00:20:10)
        m = tm.read_datetime(text)
        if m is not None:
            return m.day_us, m.fsp
    if not r.ok:
        bad_value(host, v, "time")
        return None
    if r.warnings & (strtime.TRUNCATED | strtime.OUT_OF_RANGE):
        host.warn(1292, f"Truncated incorrect time value: '{text}'")
    elif r.warnings & strtime.NOTE_TRUNCATED:
        host.warn(1292, f"Truncated incorrect time value: '{text}'", level="Note")
    us = ((r.hour * 60 + r.minute) * 60 + r.second) * 1_000_000 + r.micro
    return (-us if r.neg else us), r.digits


def _num(v: Any) -> float:
    if isinstance(v, (int, float)):
        return v
    try:
        return float(tm.text_of(v).strip() or 0)
    except ValueError:
        m = re.match(r"\s*[-+]?\d+(\.\d*)?", tm.text_of(v))
        return float(m.group(0)) if m else 0.0


# --- day numbers ---------------------------------------------------------------------------------
@sqlfunction("TO_DAYS", 1, T.BIGINT, host=True)
def to_days(host: Any, v: Any, *origin: Any) -> Any:
    m = _date(host, v, zero_ok=False, origin=origin)
    return None if m is None else m.daynr


@sqlfunction("FROM_DAYS", 1, T.DATE)
def from_days(v: Any) -> Any:
    if v is None:
        return None
    y, mo, d = tm.from_daynr(int(_num(v)))
    return f"{y:04d}-{mo:02d}-{d:02d}"


@sqlfunction("TO_SECONDS", 1, T.BIGINT, host=True)
def to_seconds(host: Any, v: Any, *origin: Any) -> Any:
    m = _date(host, v, zero_ok=False, origin=origin)
    return None if m is None else m.daynr * 86400 + m.day_us // 1_000_000


@sqlfunction("LAST_DAY", 1, T.DATE, host=True)
def last_day(host: Any, v: Any, *origin: Any) -> Any:
    m = _date(host, v, origin=origin)
    if m is None:
        return None
    if m.month == 0 or m.year == 0 and m.month == 0:
        return bad_value(host, v)
    return f"{m.year:04d}-{m.month:02d}-{tm.days_in_month(m.year, m.month):02d}"


@sqlfunction("MAKEDATE", 2, T.DATE)
def makedate(year_v: Any, doy: Any) -> Any:
    if year_v is None or doy is None:
        return None
    y, n = int(_num(year_v)), int(_num(doy))
    if n <= 0 or y < 0 or y > 9999:
        return None
    if y < 100:
        y += 2000 if y < 70 else 1900
    y2, mo, d = tm.from_daynr(tm.calc_daynr(y, 1, 1) + n - 1)
    return None if y2 == 0 or y2 > 9999 else f"{y2:04d}-{mo:02d}-{d:02d}"


@sqlfunction("DATEDIFF", 2, T.BIGINT, host=True)
def datediff(host: Any, a: Any, b: Any) -> Any:
    ma, mb = _date(host, a, zero_ok=False), _date(host, b, zero_ok=False)
    return None if ma is None or mb is None else ma.daynr - mb.daynr


@sqlfunction("DATE", 1, T.DATE, host=True)
def date_of(host: Any, v: Any) -> Any:
    m = _date(host, v)
    return None if m is None else m.date_text()


@sqlfunction("TIME", 1, T.TIME, host=True)
def time_of(host: Any, v: Any, digits: Any = None) -> Any:
    """The digits the value has (MariaDB), or `digits` (funcmap: 6 for a string column)."""
    t = _time(host, v)
    return None if t is None else tm.time_text(t[0], t[1] if digits is None else int(digits))


@sqlfunction("TIMESTAMP", (1, 2), T.DATETIME, host=True)
def timestamp(host: Any, v: Any, add: Any = None) -> Any:
    m = _date(host, v)
    if m is None:
        return None
    us = m.daynr * 86_400_000_000 + m.day_us
    fsp = m.fsp
    if add is not None:
        t = _time(host, add)
        if t is None:
            return None
        us += t[0]
        fsp = max(fsp, t[1])
    out = tm.moment_from_us(us) if not m.is_zero_date else m
    if out is None:
        return None
    return out.text(6 if fsp else 0)


@sqlfunction("TIME_TO_SEC", 1, T.BIGINT, host=True)
def time_to_sec(host: Any, v: Any) -> Any:
    t = _time(host, v)
    if t is None:
        return None
    us, fsp = t
    if fsp:  # the value's digits, exactly (a DECIMAL in MariaDB: infer.py)
        sign = "-" if us < 0 else ""
        whole, micro = divmod(abs(us), 1_000_000)
        return f"{sign}{whole}." + f"{micro:06d}"[:fsp]
    return int(us / 1_000_000)


@sqlfunction("SEC_TO_TIME", 1, T.TIME, host=True)
def sec_to_time(host: Any, v: Any, digits: Any = None) -> Any:
    """`digits`: the argument's decimals when its type says (funcmap adds them)."""
    if v is None:
        return None
    if isinstance(v, float):
        d = Decimal(repr(v))
    else:
        text = tm.text_of(v)
        num, whole = parse_number(text)
        if not whole:
            host.warn(1292, f"Truncated incorrect DECIMAL value: '{text}'")
        d = Decimal(repr(num)) if isinstance(num, float) else num or Decimal(0)
    us = int((d * 1_000_000).to_integral_value(ROUND_DOWN))  # MariaDB cuts the 7th digit
    fsp = int(digits) if digits is not None else 6 if us % 1_000_000 else 0
    return _clip_time(host, us, min(fsp, 6), _seconds_shown(v), "seconds")


def _seconds_shown(v: Any) -> str:
    """SEC_TO_TIME's argument as its 1292 quotes it (MariaDB): a double as it prints one, a
    string with a fraction as the DECIMAL of 6 digits it was read as."""
    if isinstance(v, float):
        return repr(v).replace("e+", "e")
    text = tm.text_of(v)
    if isinstance(v, (str, bytes)) and "." in text:
        num, _whole = parse_number(text)
        if isinstance(num, Decimal):
            return f"{num:.6f}"
    return text


def _clip_time(host: Any, us: int, fsp: int, shown: Any, kind: str = "time") -> str:
    """A TIME result of `fsp` digits; past 838:59:59 it is the largest TIME those digits
    write (838:59:59.9 for one digit), with warning 1292, as in MariaDB."""
    if abs(us) > tm.TIME_MAX_US:
        host.warn(1292, f"Truncated incorrect {kind} value: '{tm.text_of(shown)}'")
        step = 10 ** (6 - fsp)
        us = tm.TIME_MAX_US // step * step * (1 if us > 0 else -1)
    return tm.time_text(us, fsp)


@sqlfunction("MAKETIME", 3, T.TIME, host=True)
def maketime(host: Any, h: Any, mi: Any, s: Any) -> Any:
    if h is None or mi is None or s is None:
        return None
    hh, mm = int(_num(h)), int(_num(mi))
    try:
        ss = Decimal(tm.text_of(s))
    except ArithmeticError:  # text that is no number: its leading one ('x' is 0, 1292)
        n = _num(s)
        ss = Decimal(int(n)) if n == int(n) else Decimal(repr(n))
        if tm.read_datetime(s) is None:  # (a date-time is a column's value: its number)
            host.warn(1292, f"Truncated incorrect DECIMAL value: '{tm.text_of(s)}'")
    if not 0 <= mm <= 59 or not 0 <= ss < 60:
        return None
    us = (abs(hh) * 3600 + mm * 60) * 1_000_000 + int(ss * 1_000_000)
    exponent = ss.as_tuple().exponent  # MariaDB: the seconds' decimals
    fsp = min(-exponent, 6) if isinstance(exponent, int) and exponent < 0 else 0
    if isinstance(s, (bytes, str)):
        fsp = 6  # a string's decimals are unknown: MariaDB shows 6
    return _clip_time(host, -us if hh < 0 else us, fsp, f"{hh}:{mm:02d}:{s}")


@sqlfunction("TIMEDIFF", 2, T.TIME, host=True)
def timediff(host: Any, a: Any, b: Any) -> Any:
    if a is None or b is None:
        return None
    ma = None if tm.time_first(a) else tm.read_datetime(a)
    mb = None if tm.time_first(b) else tm.read_datetime(b)
    if ma is not None and mb is not None and ma.has_time and mb.has_time:
        us = (ma.daynr - mb.daynr) * 86_400_000_000 + ma.day_us - mb.day_us
        fsp = max(ma.fsp, mb.fsp)
    else:
        ta, tb = tm.read_time(a), tm.read_time(b)
        if ta is None or tb is None or (ma is not None and ma.has_time) != \
                (mb is not None and mb.has_time):
            return None
        us, fsp = ta[0] - tb[0], max(ta[1], tb[1])
    # MariaDB: TIME with the arguments' fractional digits (a string's as written)
    return _clip_time(host, us, fsp, tm.time_text(us, fsp))


_DATE_PART = re.compile(r"\s*\d{1,4}-\d{1,2}-\d{1,2}[ T]")


def _addtime(host: Any, a: Any, b: Any, sign: int, digits: Any = None) -> Any:
    """`digits`: the fractional digits of a temporal first argument (funcmap adds them):
    the result has as many as the arguments; a string result (a string first argument) shows
    6 when its fraction is not zero, else none (MariaDB)."""
    if a is None or b is None:
        return None
    if isinstance(b, (str, bytes)) and _DATE_PART.match(tm.text_of(b)):
        # a date-time is no interval to add (MariaDB reads b as DAY TO SECOND)
        host.warn(1292, f"Incorrect INTERVAL DAY TO SECOND value: '{tm.text_of(b)}'")
        return None
    t = _time(host, b)
    if t is None:
        return None
    ta = tm.read_time(a) if tm.time_first(a) else None
    ma = tm.read_datetime(a) if ta is None else None
    if ma is not None and ma.has_time:
        us = ma.daynr * 86_400_000_000 + ma.day_us + sign * t[0]
        out = tm.moment_from_us(us)
        if out is None:
            return None
        return out.text(6 if us % 1_000_000 else 0) if digits is None else \
            out.text(max(int(digits), t[1]))
    ta = ta or _time(host, a)
    if ta is None:
        return None
    us = ta[0] + sign * t[0]
    if digits is None:
        fsp = 6 if us % 1_000_000 or abs(us) > tm.TIME_MAX_US else 0
    else:
        fsp = max(int(digits), t[1])
    return _clip_time(host, us, fsp, tm.time_text(us, fsp))



@sqlfunction("ADDTIME", 2, None, host=True)
def addtime(host: Any, a: Any, b: Any, digits: Any = None) -> Any:
    return _addtime(host, a, b, 1, digits)


@sqlfunction("SUBTIME", 2, None, host=True)
def subtime(host: Any, a: Any, b: Any, digits: Any = None) -> Any:
    return _addtime(host, a, b, -1, digits)


# --- INTERVAL arithmetic ---------------------------------------------------------------------------
_COMPOUND = {  # unit -> the fields its value spells, most significant first
    "SECOND_MICROSECOND": ("SECOND", "MICROSECOND"),
    "MINUTE_MICROSECOND": ("MINUTE", "SECOND", "MICROSECOND"),
    "MINUTE_SECOND": ("MINUTE", "SECOND"),
    "HOUR_MICROSECOND": ("HOUR", "MINUTE", "SECOND", "MICROSECOND"),
    "HOUR_SECOND": ("HOUR", "MINUTE", "SECOND"), "HOUR_MINUTE": ("HOUR", "MINUTE"),
    "DAY_MICROSECOND": ("DAY", "HOUR", "MINUTE", "SECOND", "MICROSECOND"),
    "DAY_SECOND": ("DAY", "HOUR", "MINUTE", "SECOND"), "DAY_MINUTE": ("DAY", "HOUR", "MINUTE"),
    "DAY_HOUR": ("DAY", "HOUR"), "YEAR_MONTH": ("YEAR", "MONTH"),
}
_US = {"MICROSECOND": 1, "SECOND": 10**6, "MINUTE": 60 * 10**6, "HOUR": 3600 * 10**6,
       "DAY": 86400 * 10**6, "WEEK": 7 * 86400 * 10**6}


def interval(value: Any, unit: str, kind: str = "n", warn: Warn | None = None
             ) -> tuple[int, int, int] | None:
    """(months, microseconds, fractional digits) of INTERVAL value unit; None if unreadable.
    The digits are MariaDB's: 6 for a unit with MICROSECOND, a SECOND's value's own.
    `kind` is how a one-field unit other than SECOND reads its value (_integer_of)."""
    unit = unit.upper()
    if unit in _COMPOUND:
        fields = _COMPOUND[unit]
        text = tm.text_of(value).strip()
        negative = text.startswith("-")
        groups = re.findall(r"\d+", text)
        if not groups or any(_overflows(g) for g in groups):
            return None
        parts = [int(p) for p in groups]
        if "MICROSECOND" in fields and "." in text:
            frac = text.rsplit(".", 1)[1]
            frac_digits = re.match(r"\d*", frac).group(0)  # type: ignore[union-attr]
            parts[-1] = int(frac_digits.ljust(6, "0")[:6]) if frac_digits else 0
        parts = parts[-len(fields):]
        values = dict(zip(fields[len(fields) - len(parts):], parts))
        months = values.get("YEAR", 0) * 12 + values.get("MONTH", 0)
        us = sum(values.get(f, 0) * _US[f] for f in _US if f != "WEEK")
        sign = -1 if negative else 1
        return sign * months, sign * us, 6 if "MICROSECOND" in fields else 0
    if unit == "SECOND":
        number = _decimal_of(value)
        us = int((number * 10**6).to_integral_value(ROUND_HALF_UP))
        exponent = number.as_tuple().exponent
        digits = 6 if isinstance(value, float) and us % 10**6 else \
            min(-exponent, 6) if isinstance(exponent, int) and exponent < 0 else 0
        return 0, us, digits
    n = _integer_of(value, kind, warn)
    if unit in ("YEAR", "QUARTER", "MONTH"):
        return n * {"YEAR": 12, "QUARTER": 3, "MONTH": 1}[unit], 0, 0
    if unit in _US:
        return 0, n * _US[unit], 6 if unit == "MICROSECOND" else 0
    return None


def _decimal_of(value: Any) -> Decimal:
    if isinstance(value, (str, bytes)):
        m = re.match(r"\s*([-+]?\d+(?:\.\d*)?)", tm.text_of(value))
        return Decimal(m.group(1)) if m else Decimal(0)
    if isinstance(value, float):
        return Decimal(repr(value))
    return Decimal(value)


_I64 = (-(2**63), 2**63 - 1)


def _integer_of(value: Any, kind: str, warn: Warn | None) -> int:
    """The value of a one-field INTERVAL as MariaDB's val_int() reads it (get_interval_value):
    a string (kind 's') by its leading integer, 1292 "Truncated incorrect INTEGER value" when
    more follows ('1.5' is 1), saturated at the 64-bit bounds without a word; a number (kind
    'n', a decimal literal arriving as its digits) rounded half away from zero, 1916 "Got
    overflow when converting" past the bounds."""
    if kind == "s" and isinstance(value, (str, bytes)):
        text = tm.text_of(value)
        m = re.match(r"[ \t\n\r]*([-+]?)(\d*)", text)
        digits = m.group(2) if m else ""
        if warn is not None and (not digits or text[m.end():].strip(" \t\n\r")):  # type: ignore[union-attr]
            warn(1292, f"Truncated incorrect INTEGER value: '{text}'")
        n = int(digits or 0) * (-1 if m and m.group(1) == "-" else 1)
        return min(max(n, _I64[0]), _I64[1])
    if isinstance(value, int):
        return value
    number = _decimal_of(value)
    n = int(number.to_integral_value(ROUND_HALF_UP))
    if not _I64[0] <= n <= _I64[1]:
        if warn is not None:
            shown = format(number, "f") if not isinstance(value, (str, bytes)) else \
                tm.text_of(value).strip()
            warn(1916, f"Got overflow when converting '{shown}' to INT. Value truncated")
        return min(max(n, _I64[0]), _I64[1])
    return n


def _overflows(digits: str) -> bool:
    """MariaDB reads each number of an interval string into a signed 64-bit integer and gives
    up (NULL) when the next digit could overflow it (get_interval_info): 19 digits of '5' are
    read, 20 are not."""
    value = 0
    for ch in digits:
        if value > (2**63 - 1 - 10) // 10:
            return True
        value = value * 10 + ord(ch) - 48
    return False


def _overflow(host: Any) -> None:
    host.warn(1441, "Datetime function: datetime field overflow")


def add_interval(host: Any, v: Any, value: Any, unit: str, sign: int = 1,
                 kind: str = "n") -> Any:
    if v is None or value is None:
        return None
    if kind.endswith("t"):  # a TIME: a TIME again (kind + 't', funcmap.py)
        return _add_to_time(host, v, value, unit, sign, kind[:-1])
    m = _date(host, v, zero_ok=False)
    if m is None:
        return None
    span = interval(value, unit, kind, host.warn)
    if span is None:
        return None
    months, us, digits = span
    has_time = m.has_time or any(part in unit.upper() for part in _TIME_UNITS)
    fsp = max(m.fsp, digits)  # MariaDB: the larger of the two's decimals
    if months:
        total = m.year * 12 + m.month - 1 + sign * months
        y, mo = divmod(total, 12)
        if not 0 <= y <= 9999:
            return _overflow(host)
        out = Moment(y, mo + 1, min(m.day, tm.days_in_month(y, mo + 1)), m.hour, m.minute,
                     m.second, m.micro, has_time, fsp)
    else:
        total_us = m.daynr * 86_400_000_000 + m.day_us + sign * us
        found = tm.moment_from_us(total_us, has_time, fsp)
        if found is None:
            return _overflow(host)
        out = found
    return out.text(fsp) if has_time else out.date_text()


def _add_to_time(host: Any, v: Any, value: Any, unit: str, sign: int, kind: str) -> Any:
    """TIME + INTERVAL: a TIME (the larger digits of the two), NULL with 1441 "time field
    overflow" past 838:59:59 or by months (MariaDB)."""
    t = _time(host, v)
    span = interval(value, unit, kind, host.warn)
    if t is None or span is None:
        return None
    months, us, digits = span
    total = t[0] + sign * us
    if months or abs(total) > tm.TIME_MAX_US:
        host.warn(1441, "Datetime function: time field overflow")
        return None
    return tm.time_text(total, max(t[1], digits))


@sqlfunction("DATE_ADD", (3, 4), None, host=True)
def date_add(host: Any, v: Any, value: Any, unit: Any = "DAY", kind: Any = "n") -> Any:
    """d + INTERVAL value unit; `kind`: how value reads as an integer (funcmap.py)."""
    return add_interval(host, v, value, str(unit), 1, str(kind))


@sqlfunction("DATE_SUB", (3, 4), None, host=True)
def date_sub(host: Any, v: Any, value: Any, unit: Any = "DAY", kind: Any = "n") -> Any:
    return add_interval(host, v, value, str(unit), -1, str(kind))


@sqlfunction("ADDDATE", (2, 3), None, host=True)
def adddate(host: Any, v: Any, value: Any, unit: Any = "DAY") -> Any:
    """ADDDATE(d, INTERVAL n unit), or ADDDATE(d, days)."""
    return add_interval(host, v, value, str(unit))


@sqlfunction("SUBDATE", (2, 3), None, host=True)
def subdate(host: Any, v: Any, value: Any, unit: Any = "DAY") -> Any:
    return add_interval(host, v, value, str(unit), -1)


@sqlfunction("TIMESTAMPADD", 3, None, host=True)
def timestampadd(host: Any, unit: Any, value: Any, v: Any) -> Any:
    return add_interval(host, v, value, str(unit))


@sqlfunction("TIMESTAMPDIFF", 3, T.BIGINT, host=True)
def timestampdiff(host: Any, unit: Any, a: Any, b: Any) -> Any:
    ma, mb = _date(host, a, zero_ok=False), _date(host, b, zero_ok=False)
    if ma is None or mb is None:
        return None
    u = str(unit).upper()
    if u in ("MONTH", "QUARTER", "YEAR"):
        months = (mb.year * 12 + mb.month) - (ma.year * 12 + ma.month)
        later = (mb.day, mb.day_us) < (ma.day, ma.day_us)
        earlier = (mb.day, mb.day_us) > (ma.day, ma.day_us)
        if months > 0 and later:
            months -= 1
        elif months < 0 and earlier:
            months += 1
        return int(months / {"MONTH": 1, "QUARTER": 3, "YEAR": 12}[u])
    diff = (mb.daynr - ma.daynr) * 86_400_000_000 + mb.day_us - ma.day_us
    size = _US.get(u)
    if size is None:
        return None
    return int(diff / size) if abs(diff) < 2**52 else (abs(diff) // size) * (
        1 if diff >= 0 else -1)


@sqlfunction("PERIOD_ADD", 2, INT)
def period_add(p: Any, n: Any) -> Any:
    if p is None or n is None:
        return None
    period = int(_num(p))
    if period == 0:
        return 0
    months = _period_months(period) + int(_num(n))
    y, mo = divmod(months, 12)
    return y * 100 + mo + 1


def _period_months(period: int) -> int:
    y, mo = divmod(period, 100)
    if y < 100:
        y += 2000 if y < 70 else 1900
    return y * 12 + mo - 1


@sqlfunction("PERIOD_DIFF", 2, INT)
def period_diff(a: Any, b: Any) -> Any:
    if a is None or b is None:
        return None
    return _period_months(int(_num(a))) - _period_months(int(_num(b)))


@sqlfunction("EXTRACT", (2, 7), T.BIGINT, host=True)
def extract(host: Any, unit: Any, v: Any, *origin: Any) -> Any:
    """`origin`: the column v is, when it is one (funcmap._column_origin)."""
    u = str(unit).upper()
    sign = 1
    row = _row_of(host, origin) if origin and origin[4] else 0
    if origin and origin[2] and int(origin[3]) >= 0 and isinstance(v, str):
        # a DECIMAL column's exact text (exactdec.py): the number it is
        try:
            v = Decimal(v)
        except ArithmeticError:
            pass
    if u not in _DATE_UNITS:
        # MariaDB's Extract_source: the value is a date-time or an interval DAY TO SECOND,
        # whose hours past 24 are days (EXTRACT(DAY FROM '100:00:00') is 4)
        read, cut = tm.read_interval(v, day_mode=u.startswith("DAY") and
                                     u != "DAY_MICROSECOND")
        if read is None:
            if v is not None and row:
                column_bad_value(host, v, "interval", origin, row)
            elif v is not None:
                bad_value(host, v, "interval")
            return None
        if cut:
            bad_value(host, v, "time")
        if isinstance(read, Moment):
            d, h, mi, s, f = read.day, read.hour, read.minute, read.second, read.micro
        else:
            sign = -1 if read[0] < 0 else 1
            us = abs(read[0])
            h, mi, s, f = us // 3_600_000_000, us // 60_000_000 % 60, us // 10**6 % 60, \
                us % 10**6
            d, h = divmod(h, 24)
    elif origin and origin[5] == 2:  # a TIME is an interval: no year, month... (MariaDB)
        return None if v is None else _TIME_DATE_PARTS[u]
    else:
        m = _date(host, v, origin=origin, row=row)
        if m is None:
            return None
        h, mi, s, f = m.hour, m.minute, m.second, m.micro
        d = m.day
        if u == "YEAR":
            return m.year
        if u == "MONTH":
            return m.month
        if u == "QUARTER":
            return (m.month + 2) // 3
        if u == "WEEK":
            return tm.calc_week(m, tm.week_mode(0))[0]
        if u == "YEAR_MONTH":
            return m.year * 100 + m.month
    out = {"DAY": d, "HOUR": h, "MINUTE": mi, "SECOND": s, "MICROSECOND": f,
             "DAY_HOUR": d * 100 + h, "DAY_MINUTE": (d * 100 + h) * 100 + mi,
             "DAY_SECOND": ((d * 100 + h) * 100 + mi) * 100 + s,
             "DAY_MICROSECOND": (((d * 100 + h) * 100 + mi) * 100 + s) * 10**6 + f,
             "HOUR_MINUTE": h * 100 + mi, "HOUR_SECOND": (h * 100 + mi) * 100 + s,
             "MINUTE_SECOND": mi * 100 + s, "HOUR_MICROSECOND": ((h * 100 + mi) * 100 + s)
             * 10**6 + f, "MINUTE_MICROSECOND": (mi * 100 + s) * 10**6 + f,
             "SECOND_MICROSECOND": s * 10**6 + f}.get(u)
    return None if out is None else sign * out


# --- the clock and the epoch ---------------------------------------------------------------------
@sqlfunction("UNIX_TIMESTAMP", (0, 1), None, host=True, deterministic=False)
def unix_timestamp(host: Any, v: Any = ..., digits: Any = None) -> Any:
    """`digits`: the fractional digits to show whatever the value has (funcmap adds 6 for a
    string column, as MariaDB types it); else those of the value."""
    if v is ...:
        return int(timezones.unix_seconds(host.statement_utc()))
    if v is None:
        return None
    m = _date(host, v, zero_ok=False)
    if m is None:
        return None
    try:
        local = dt.datetime(m.year, m.month, m.day, m.hour, m.minute, m.second)
    except ValueError:
        return None
    utc = host.time_zone().to_utc(local)
    if not timezones.EPOCH <= utc <= timezones.TIMESTAMP_MAX:
        return None
    base = int(timezones.unix_seconds(utc))
    fsp = m.fsp if digits is None else int(digits)
    if fsp:
        return f"{base}.{m.micro:06d}"[: len(str(base)) + 1 + fsp]
    return base


@sqlfunction("FROM_UNIXTIME", (1, 2), T.DATETIME, host=True)
def from_unixtime(host: Any, v: Any, fmt: Any = None) -> Any:
    if v is None:
        return None
    try:
        d = Decimal(tm.text_of(v).strip()) if not isinstance(v, float) else Decimal(repr(v))
    except ArithmeticError:
        return None
    if d < 0 or d > 2147483647:
        return None
    whole = int(d)
    local = host.time_zone().from_utc(timezones.from_unix(whole))
    micro = int((d - whole) * 10**6)
    frac = len(tm.text_of(v).partition(".")[2]) if "." in tm.text_of(v) else 0
    m = Moment(local.year, local.month, local.day, local.hour, local.minute, local.second,
               micro, True, min(frac, 6))
    if fmt is not None:
        return format_moment(m, tm.text_of(fmt))
    return m.text()


@sqlfunction("SYSDATE", (0, 1), T.DATETIME, host=True, deterministic=False)
def sysdate(host: Any, fsp: Any = 0) -> Any:
    n = max(0, min(int(_num(fsp or 0)), 6))
    # the wall clock, not the statement's (MariaDB's SYSDATE ignores SET timestamp)
    utc = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    text = host.time_zone().from_utc(utc).strftime("%Y-%m-%d %H:%M:%S.%f")
    return text[:20 + n] if n else text[:19]
