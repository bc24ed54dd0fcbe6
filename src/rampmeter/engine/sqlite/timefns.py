"""The SQL functions that depend on the session's time zone, registered per handle after
functions.py's, whose rm_now / rm_curdate / rm_unix_timestamp / ... they replace.

Rules (MariaDB 10.11's, checked against it in tests/compat/test_time_zones.py):
- One clock reading per statement: NOW(), CURRENT_TIMESTAMP, CURDATE(), CURTIME(), SYSDATE(),
  UTC_TIMESTAMP() and UNIX_TIMESTAMP() read the moment the statement started (the session's
  `statement_utc()`), so every row of a statement sees the same time, as in MariaDB (whose
  SYSDATE() would differ; nobody relies on that).
- Local times are in the session's time_zone (@@time_zone, config/timezones.py): NOW() is that
  moment there; UNIX_TIMESTAMP(dt) reads dt as a local time (whole seconds); FROM_UNIXTIME(n) gives the local
  time of n. Outside the TIMESTAMP range UNIX_TIMESTAMP(dt) and FROM_UNIXTIME(n) are NULL.
- CONVERT_TZ(dt, from, to) is NULL for an unknown zone, a NULL or an unreadable dt; dt is
  returned unchanged when it is outside the TIMESTAMP range in `from` (MariaDB converts only
  inside it). Fractions are kept.
- TIMESTAMP columns hold UTC (engine/sqlite/tzcolumns.py); `to_utc` / `from_utc` below are
  the conversions their values go through, skipped when the session's zone is UTC.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.config import timezones
from rampmeter.config.timezones import Zone
from rampmeter.engine import strtime

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.handle import Handle
    from rampmeter.engine.sqlite.session import SqliteSession


def _fsp(value: Any) -> int:
    try:
        return max(0, min(int(value), 6))
    except (TypeError, ValueError):
        return 0


def text(moment: dt.datetime, fsp: int = 0) -> str:
    out = moment.strftime("%Y-%m-%d %H:%M:%S.%f")
    return out[:20 + fsp] if fsp else out[:19]


def parse(value: Any) -> tuple[dt.datetime, int] | None:
    """A DATETIME-like value -> (datetime, its fractional digits), or None."""
    if value is None:
        return None
    if isinstance(value, bytes):
        value = value.decode("ascii", "replace")
    s = str(value).strip()
    try:
        moment = dt.datetime.fromisoformat(s)
    except ValueError:
        try:
            moment = dt.datetime.combine(dt.date.fromisoformat(s[:10]), dt.time())
        except ValueError:
            return None
        if len(s) > 10:
            return None
    if moment.tzinfo is not None:
        return None
    frac = s.rsplit(".", 1)[1] if "." in s[19:] else ""
    return moment, min(len(frac), 6)


def register(handle: Handle, s: SqliteSession) -> None:
    def zone() -> Zone:
        return s.time_zone()

    def now(fsp: Any = 0) -> str:
        return text(zone().from_utc(s.statement_utc()), _fsp(fsp))

    def utc_now(fsp: Any = 0) -> str:
        return text(s.statement_utc(), _fsp(fsp))

    def unix_timestamp(value: Any = None) -> Any:
        if value is None:
            return int(timezones.unix_seconds(s.statement_utc()))
        got = parse(value)
        if got is None:
            return None
        moment, digits = got
        utc = zone().to_utc(moment)
        if not timezones.EPOCH <= utc <= timezones.TIMESTAMP_MAX:
            return None
        # MariaDB answers a DECIMAL with the argument's fractional digits; the result is
        # typed BIGINT here (infer.py), so the fraction is dropped (docs/sql.md).
        del digits
        return int(timezones.unix_seconds(utc.replace(microsecond=0)))

    def from_unixtime(value: Any) -> Any:
        if value is None:
            return None
        try:
            number = Decimal(str(value).strip())
        except ArithmeticError:
            return None
        if number < 0 or number > 2147483647:
            return None
        utc = timezones.from_unix(0) + dt.timedelta(seconds=int(number),
                                                    microseconds=int(number % 1 * 1000000))
        digits = max(0, -number.as_tuple().exponent) if isinstance(
            number.as_tuple().exponent, int) else 0
        return text(zone().from_utc(utc), min(int(digits), 6))

    def convert_tz(value: Any, source: Any, target: Any) -> Any:
        if value is None or source is None or target is None:
            return None
        src = timezones.zone(_str(source))
        dst = timezones.zone(_str(target))
        if src is None or dst is None:
            return None
        got = parse(value)
        if got is None:  # '2004-11-31 12:00:00', 'abc', a zero date: MariaDB's 1292
            shown = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
            s.warn(errors.ER_TRUNCATED_WRONG_VALUE, f"Incorrect datetime value: '{shown}'")
            return None
        moment, digits = got
        utc = src.to_utc(moment)
        if not timezones.in_timestamp_range(utc):
            return text(moment, digits)
        return text(dst.from_utc(utc), digits)

    def time_as_datetime(value: Any) -> Any:
        """A TIME read as a date-time: today (the statement's date) at that time, days past
        24 hours on later days (MariaDB's TIME to DATETIME conversion)."""
        if value is None:
            return None
        r = strtime.str_to_time(_str(value))
        if r.kind != "time":
            return value  # a date-time already, or no time: read as it is
        us = ((r.hour * 60 + r.minute) * 60 + r.second) * 1_000_000 + r.micro
        today = dt.datetime.fromisoformat(now()[:10])
        return text(today + dt.timedelta(microseconds=-us if r.neg else us), r.digits)

    fns = [
        ("rm_now", 0, now), ("rm_now", 1, now),
        ("rm_time_as_datetime", 1, time_as_datetime),
        ("rm_curdate", 0, lambda: now()[:10]),
        ("rm_curtime", 0, lambda: now()[11:]),
        ("rm_curtime", 1, lambda fsp: now(fsp)[11:]),
        ("rm_utc_timestamp", 0, utc_now), ("rm_utc_timestamp", 1, utc_now),
        ("rm_utc_time", 0, lambda: utc_now()[11:]),
        ("rm_utc_time", 1, lambda fsp: utc_now(fsp)[11:]),
        ("rm_utc_date", 0, lambda: utc_now()[:10]),
        ("rm_unix_timestamp", 0, unix_timestamp), ("rm_unix_timestamp", 1, unix_timestamp),
        ("rm_from_unixtime", 1, from_unixtime),
        ("rm_convert_tz", 3, convert_tz),
        ("rm_to_utc", 1, lambda v: shift(v, zone(), to_utc=True)),
        ("rm_from_utc", 1, lambda v: shift(v, zone(), to_utc=False)),
    ]
    for name, nargs, fn in fns:
        handle.create_function(name, nargs, fn)


def _str(v: Any) -> str:
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)


def shift(value: Any, zone: Zone, *, to_utc: bool) -> Any:
    """A stored TIMESTAMP text between the session's zone and UTC (zero dates unchanged)."""
    if value is None or not isinstance(value, str) or value.startswith("0000"):
        return value
    got = parse(value)
    if got is None:
        return value
    moment, _digits = got
    moved = zone.to_utc(moment) if to_utc else zone.from_utc(moment)
    return moved.strftime("%Y-%m-%d %H:%M:%S") + value[19:]


# a TIMESTAMP's range, as stored UTC text: 1 to 2^31-1 seconds after the epoch (MariaDB)
_TS_LOW, _TS_HIGH = "1970-01-01 00:00:01", "2038-01-19 03:14:07"


def timestamp_utc(stored: str, zone: Zone | None) -> tuple[str, str]:
    """A TIMESTAMP column's value (local text in the session's zone, `zone` None when it is
    UTC) as stored: UTC text, and what MariaDB says of it: '' (fine), 'gap' (a time the
    zone's clocks skip: stored as the moment the gap ends, 1299), 'range' (outside the
    TIMESTAMP range: stored as the zero date, 1264). A zero date stays as it is."""
    if stored.startswith("0000-00-00"):
        return stored, ""
    said = ""
    if zone is not None:
        got = parse(stored)
        if got is not None:
            moment = got[0]
            said = "gap" if zone.in_gap(moment) else ""
            stored = zone.to_utc(moment).strftime("%Y-%m-%d %H:%M:%S") + stored[19:]
    if not _TS_LOW <= stored[:19] <= _TS_HIGH:
        return "0000-00-00 00:00:00" + ("." + "0" * (len(stored) - 20)
                                        if len(stored) > 20 else ""), "range"
    return stored, said
