"""Time zones as MariaDB 10.11 names them: `SYSTEM`, offsets `+HH:MM`, and named zones.

Rules:
- `SYSTEM` (any case) is the server process's local time zone; `@@system_time_zone` is its
  abbreviation, read once at start.
- An offset is `+H:MM` / `-HH:MM` between -12:59 and +13:00, written back as `+05:30`
  ('-00:00' is '+00:00'); anything else (spaces, seconds, '+0530') is refused, as MariaDB
  refuses it (ER_UNKNOWN_TIME_ZONE, 1298; measured on 10.11).
- A named zone ('Europe/Paris', 'UTC', 'US/Eastern') comes from the system's zoneinfo, or the
  `tzdata` package where the system has none. MariaDB reads them from the mysql.time_zone*
  tables, which a fresh install leaves empty (then every name is 1298); rampmeter has them
  all, as a server whose tables were filled by mariadb-tzinfo-to-sql. Names match in any
  case, as those tables' collation does.
- Conversions are between naive datetimes: `to_utc(local)` and `from_utc(utc)`. A local time
  that falls in a daylight-saving gap or overlap takes the offset before the change (Python's
  fold=0), which is what MariaDB's TIME_to_gmt_sec gives for the overlap.
- MariaDB converts only inside the TIMESTAMP range (1970-01-01 00:00:01 to 2038-01-19
  03:14:07 UTC): `in_timestamp_range()` says whether a UTC moment is in it.
"""

from __future__ import annotations

import datetime as dt
import re
import time
import zoneinfo
from functools import lru_cache

from rampmeter import errors
from rampmeter.errors import ServerError

_OFFSET = re.compile(r"([+-])(\d{1,2}):(\d{1,2})")
EPOCH = dt.datetime(1970, 1, 1)
TIMESTAMP_MAX = dt.datetime(2038, 1, 19, 3, 14, 7, 999999)
SYSTEM_TIME_ZONE = time.tzname[0] or "UTC"


class Zone:
    """One time zone; `name` is how @@time_zone shows it."""

    __slots__ = ("name", "offset", "info")

    def __init__(self, name: str, offset: dt.timedelta | None = None,
                 info: dt.tzinfo | None = None) -> None:
        self.name = name
        self.offset = offset   # a fixed offset, or None
        self.info = info       # a zoneinfo zone, or None for SYSTEM

    @property
    def is_utc(self) -> bool:
        """Does this zone never move times (so conversions can be skipped)?"""
        if self.offset is not None:
            return not self.offset
        if self.info is None:
            return _SYSTEM_IS_UTC
        return self.name.upper() in ("UTC", "ETC/UTC", "UCT", "ZULU", "ETC/UCT", "ETC/ZULU",
                                     "UNIVERSAL", "ETC/UNIVERSAL", "GMT", "ETC/GMT")

    def to_utc(self, local: dt.datetime) -> dt.datetime:
        if self.offset is not None:
            return local - self.offset
        if self.info is None:
            stamp = time.mktime(local.replace(microsecond=0).timetuple())
            return EPOCH + dt.timedelta(seconds=stamp, microseconds=local.microsecond)
        aware = local.replace(tzinfo=self.info)
        utc = aware.astimezone(dt.UTC).replace(tzinfo=None)
        if self.from_utc(utc) != local:  # a time the clocks skipped (spring forward)
            return self._gap_end(local, utc)
        return utc

    def in_gap(self, local: dt.datetime) -> bool:
        """Is `local` a time this zone's clocks skip (MariaDB's 1299 for a TIMESTAMP)?"""
        if self.info is None:
            return False
        utc = local.replace(tzinfo=self.info).astimezone(dt.UTC).replace(tzinfo=None)
        return self.from_utc(utc) != local

    def _gap_end(self, local: dt.datetime, before: dt.datetime) -> dt.datetime:
        """A time in a gap is the moment the gap ends, its fraction kept (MariaDB's
        TIME_to_gmt_sec: '2003-03-30 02:30:00' MET is 01:00:00 UTC, when 03:00:00 began).
        `before`: the time read with the offset before the gap; the end is after the time
        read with the offset after it, found to the second."""
        whole = local.replace(microsecond=0)
        after = whole.replace(tzinfo=self.info, fold=1).astimezone(dt.UTC).replace(
            tzinfo=None)
        lo, hi = int(unix_seconds(after)), int(unix_seconds(before.replace(microsecond=0)))
        target = self.from_utc(before) - before  # the offset in force after the gap
        while lo < hi:  # the first second with the later offset
            mid = (lo + hi) // 2
            at = from_unix(mid)
            if self.from_utc(at) - at == target:
                hi = mid
            else:
                lo = mid + 1
        return from_unix(lo) + dt.timedelta(microseconds=local.microsecond)

    def from_utc(self, utc: dt.datetime) -> dt.datetime:
        if self.offset is not None:
            return utc + self.offset
        if self.info is None:
            stamp = (utc - EPOCH) // dt.timedelta(seconds=1)
            t = time.localtime(stamp)
            return dt.datetime(*t[:6], utc.microsecond)
        return utc.replace(tzinfo=dt.UTC).astimezone(self.info).replace(tzinfo=None)


# The process's zone is read once, at start (as MariaDB reads system_time_zone).
_SYSTEM_IS_UTC = time.timezone == 0 and time.altzone == 0


SYSTEM = Zone("SYSTEM")
UTC = Zone("+00:00", dt.timedelta(0))


@lru_cache(maxsize=512)
def zone(text: str) -> Zone | None:
    """The zone `text` names, or None when MariaDB would answer 1298."""
    if text.upper() == "SYSTEM":
        return SYSTEM
    m = _OFFSET.fullmatch(text)
    if m is not None:
        sign, hours, minutes = m.group(1), int(m.group(2)), int(m.group(3))
        total = hours * 60 + minutes
        if minutes > 59 or (sign == "+" and total > 13 * 60) or (sign == "-" and total > 12 * 60 + 59):
            return None
        if total == 0:
            sign = "+"
        delta = dt.timedelta(minutes=total if sign == "+" else -total)
        return Zone(f"{sign}{hours:02d}:{minutes:02d}", delta)
    name = _zone_name(text)
    if name is None:
        return None
    try:
        return Zone(name, info=zoneinfo.ZoneInfo(name))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return None


@lru_cache(maxsize=1)
def _names() -> dict[str, str]:
    return {n.lower(): n for n in zoneinfo.available_timezones()}


def _zone_name(text: str) -> str | None:
    if not text or text != text.strip() or ".." in text or text.startswith("/"):
        return None
    return _names().get(text.lower())


def canonical(text: str) -> str | None:
    """@@time_zone's value for `text` (None: unknown)."""
    z = zone(text)
    return None if z is None else z.name


def check(text: str) -> str:
    """Option validator of time_zone (config/options.py): 1298 for what MariaDB refuses."""
    name = canonical(text)
    if name is None:
        raise ServerError(errors.ER_UNKNOWN_TIME_ZONE, text)
    return name


def in_timestamp_range(utc: dt.datetime) -> bool:
    return EPOCH < utc <= TIMESTAMP_MAX


def unix_seconds(utc: dt.datetime) -> float:
    return (utc - EPOCH).total_seconds()


def from_unix(seconds: float) -> dt.datetime:
    return EPOCH + dt.timedelta(seconds=seconds)
