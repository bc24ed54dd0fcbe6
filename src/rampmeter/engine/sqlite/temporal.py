"""MariaDB's calendar and its reading of date and time values, for the time functions.

Rules (sql-common/my_time.c and sql/sql_time.cc behaviour, reimplemented):
- A date-time is a `Moment` (year, month, day, hour, minute, second, microsecond, has_time,
  fsp): zero parts are allowed (0000-00-00, 2000-00-10), as MariaDB's default sql_mode
  allows them; `read_datetime` accepts what MariaDB's str_to_datetime does for the common
  spellings ('2000-01-02 03:04:05.6', '2000/1/2', '20000102', '000102', 20000102030405, 0),
  and None for the rest (the functions answer NULL with warning 1292).
- A time of day or a duration is a signed number of microseconds (`read_time`): '10:11:12',
  '-1 10:11:12', '101112', 101112.5, and the time part of a date-time.
- Day numbers are MariaDB's (TO_DAYS('0000-01-01') is 1): calc_daynr / from_daynr, with the
  weekday and week-number rules of MariaDB's calc_weekday / calc_week.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

MAX_DAY_NUMBER = 3652424          # 9999-12-31
TIME_MAX_US = (838 * 3600 + 59 * 60 + 59) * 1_000_000 + 999999
DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December")
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(frozen=True)
class Moment:
    year: int
    month: int
    day: int
    hour: int = 0
    minute: int = 0
    second: int = 0
    micro: int = 0
    has_time: bool = False
    fsp: int = 0                   # fractional digits the value was written with (0..6)

    @property
    def is_zero_date(self) -> bool:
        return self.year == self.month == self.day == 0

    @property
    def has_zero_part(self) -> bool:
        return self.month == 0 or self.day == 0

    def date_text(self) -> str:
        return f"{self.year:04d}-{self.month:02d}-{self.day:02d}"

    def time_text(self, fsp: int | None = None) -> str:
        n = self.fsp if fsp is None else fsp
        text = f"{self.hour:02d}:{self.minute:02d}:{self.second:02d}"
        return text + ("." + f"{self.micro:06d}"[:n] if n else "")

    def text(self, fsp: int | None = None) -> str:
        return f"{self.date_text()} {self.time_text(fsp)}"

    def shown(self) -> str:
        """As MariaDB returns a value of the kind it was given: with time or without."""
        return self.text() if self.has_time else self.date_text()

    @property
    def daynr(self) -> int:
        return calc_daynr(self.year, self.month, self.day)

    @property
    def day_us(self) -> int:
        return ((self.hour * 60 + self.minute) * 60 + self.second) * 1_000_000 + self.micro

    def with_time_us(self, us: int) -> Moment:
        secs, micro = divmod(us, 1_000_000)
        h, rem = divmod(secs, 3600)
        return replace(self, hour=h, minute=rem // 60, second=rem % 60, micro=micro)


def leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0 and year != 0)


def days_in_year(year: int) -> int:
    return 366 if leap(year) else 365


def days_in_month(year: int, month: int) -> int:
    return 29 if month == 2 and leap(year) else DAYS_IN_MONTH[month - 1]


def calc_daynr(year: int, month: int, day: int) -> int:
    """Days since year 0 (MariaDB's calc_daynr; 0 for the zero date)."""
    if year == 0 and month == 0:
        return 0
    delsum = 365 * year + 31 * (month - 1) + day
    if month <= 2:
        year -= 1
    else:
        delsum -= (month * 4 + 23) // 10
    temp = ((year // 100 + 1) * 3) // 4
    return delsum + year // 4 - temp


def from_daynr(daynr: int) -> tuple[int, int, int]:
    """MariaDB's get_date_from_daynr: (0, 0, 0) outside 0001-01-01 .. 9999-12-31."""
    if daynr < 366 or daynr > MAX_DAY_NUMBER:
        return 0, 0, 0
    year = daynr * 100 // 36525
    temp = (((year - 1) // 100 + 1) * 3) // 4
    day_of_year = daynr - year * 365 - (year - 1) // 4 + temp
    while day_of_year > (in_year := days_in_year(year)):
        day_of_year -= in_year
        year += 1
    leap_day = 0
    if in_year == 366 and day_of_year > 31 + 28:
        day_of_year -= 1
        if day_of_year == 31 + 28:
            leap_day = 1
    month = 1
    for days in DAYS_IN_MONTH:
        if day_of_year <= days:
            break
        day_of_year -= days
        month += 1
    return year, month, day_of_year + leap_day


def weekday(daynr: int, sunday_first: bool) -> int:
    """0 = Monday (or Sunday when sunday_first) .. 6."""
    return (daynr + 5 + (1 if sunday_first else 0)) % 7


WEEK_MONDAY_FIRST, WEEK_YEAR, WEEK_FIRST_WEEKDAY = 1, 2, 4


def week_mode(mode: int) -> int:
    mode &= 7
    if not mode & WEEK_MONDAY_FIRST:
        mode ^= WEEK_FIRST_WEEKDAY
    return mode


def calc_week(m: Moment, behaviour: int) -> tuple[int, int]:
    """(week, year) of MariaDB's calc_week."""
    daynr = m.daynr
    first_daynr = calc_daynr(m.year, 1, 1)
    monday_first = bool(behaviour & WEEK_MONDAY_FIRST)
    week_year = bool(behaviour & WEEK_YEAR)
    first_weekday = bool(behaviour & WEEK_FIRST_WEEKDAY)
    wd = weekday(first_daynr, not monday_first)
    year = m.year
    if m.month == 1 and m.day <= 7 - wd:
        if not week_year and (first_weekday and wd != 0 or not first_weekday and wd >= 4):
            return 0, year
        week_year = True
        year -= 1
        days = days_in_year(year)
        first_daynr -= days
        wd = (wd + 53 * 7 - days) % 7
    if first_weekday and wd != 0 or not first_weekday and wd >= 4:
        days = daynr - (first_daynr + (7 - wd))
    else:
        days = daynr - (first_daynr - wd)
    if week_year and days >= 52 * 7:
        wd = (wd + days_in_year(year)) % 7
        if not first_weekday and wd < 4 or first_weekday and wd == 0:
            return 1, year + 1
    return days // 7 + 1, year


# --- reading values -----------------------------------------------------------------------------
_DELIMITED = re.compile(
    r"\s*(\d{1,4})[^\d\s]0*(\d{1,2})[^\d\s]0*(\d{1,2})"
    r"(?:(?:T|\s+|[^\d\s])(\d{1,2})(?:[^\d\s](\d{1,2})(?:[^\d\s](\d{1,2})(?:\.(\d*))?)?)?)?\s*$")
_DIGITS = re.compile(r"\s*(\d{5,14})(?:\.(\d*))?\s*$")
_TIME = re.compile(r"\s*([-+])?\s*(?:(\d+)\s+)?(\d+):(\d{1,2})(?::(\d{1,2}))?(?:\.(\d*))?\s*$")
_TIME_NUMBER = re.compile(r"\s*([-+])?(\d+)(?:\.(\d*))?\s*$")


def text_of(v: Any) -> str:
    if isinstance(v, bytes):
        return v.decode("latin-1")
    if isinstance(v, float):
        return repr(v) if v != int(v) or abs(v) >= 1e15 else str(int(v))
    return str(v)


def _year(text: str) -> int:
    n = int(text)
    if len(text) <= 2:
        return 2000 + n if n < 70 else 1900 + n
    return n


def _fraction(frac: str | None) -> tuple[int, int]:
    digits = (frac or "")[:6]
    return int(digits.ljust(6, "0")) if digits else 0, len(digits)


def read_datetime(v: Any) -> Moment | None:
    """A date or date-time value as MariaDB reads one, or None if it cannot."""
    if v is None:
        return None
    if isinstance(v, (int, Decimal, float)) and not isinstance(v, bool):
        if v == 0:
            return Moment(0, 0, 0)
        if v < 0:
            return None
    text = text_of(v)
    m = _DELIMITED.match(text)
    if m:
        y, mo, d, h, mi, s, frac = m.groups()
        micro, fsp = _fraction(frac)
        moment = Moment(_year(y), int(mo), int(d), int(h or 0), int(mi or 0), int(s or 0),
                        micro, h is not None, fsp)
        return moment if valid(moment) else None
    m = _DIGITS.match(text)
    if m:
        digits, frac = m.group(1), m.group(2)
        if len(digits) in (5, 7):
            digits = "0" + digits
        if len(digits) in (6, 12):
            y, rest = _year(digits[:2]), digits[2:]
        elif len(digits) in (8, 14):
            y, rest = int(digits[:4]), digits[4:]
        elif len(digits) in (9, 10, 11, 13):
            digits = digits.rjust(12 if len(digits) <= 12 else 14, "0")
            return read_datetime(digits + (f".{frac}" if frac else ""))
        else:
            return None
        parts = [int(rest[i:i + 2]) for i in range(0, len(rest), 2)]
        micro, fsp = _fraction(frac)
        has_time = len(parts) > 2
        parts += [0, 0, 0]
        moment = Moment(y, parts[0], parts[1], parts[2], parts[3], parts[4], micro, has_time,
                        fsp)
        return moment if valid(moment) else None
    return None


def valid(m: Moment) -> bool:
    if m.year > 9999 or m.month > 12 or m.hour > 23 or m.minute > 59 or m.second > 59:
        return False
    if m.month == 0 or m.day == 0:
        return m.day <= 31
    return m.day <= days_in_month(m.year, m.month)


def time_first(v: Any) -> bool:
    """Would MariaDB read this string as a TIME rather than try a date-time first
    (my_time.c's is_datetime_body_candidate)? Shorter than 12 characters, with colons and no
    other punctuation before its fraction: '10:00:00.5', '800:00:00', '-01:01:01'."""
    if not isinstance(v, (str, bytes)):
        return False
    text = text_of(v).strip()
    if len(text) >= 12:
        return False
    body = text.lstrip("+-").split(".", 1)[0]
    return ":" in body and "T" not in body.upper() and \
        all(c.isdigit() or c in ": " for c in body)


def read_time(v: Any) -> tuple[int, int] | None:
    """(signed microseconds, fsp) of a TIME value as MariaDB reads one, or None."""
    if v is None:
        return None
    text = text_of(v)
    m = _TIME.match(text)
    if m:
        sign, days, h, mi, s, frac = m.groups()
        if int(mi) > 59 or s is not None and int(s) > 59:
            return None
        micro, fsp = _fraction(frac)
        us = (((int(days or 0) * 24 + int(h)) * 60 + int(mi)) * 60 + int(s or 0)) * 10**6
        us += micro
        return (-us if sign == "-" else us), fsp
    m = _TIME_NUMBER.match(text)
    if m:
        sign, digits, frac = m.groups()
        if len(digits) > 7:
            dtm = read_datetime(text.strip().lstrip("+"))
            return (dtm.day_us, dtm.fsp) if dtm is not None else None
        digits = digits.rjust(6, "0")
        h, mi, s = int(digits[:-4]), int(digits[-4:-2]), int(digits[-2:])
        if mi > 59 or s > 59:
            return None
        micro, fsp = _fraction(frac)
        us = ((h * 60 + mi) * 60 + s) * 10**6 + micro
        return (-us if sign == "-" else us), fsp
    dtm = read_datetime(text)
    if dtm is not None:
        return dtm.day_us, dtm.fsp
    return None


def read_time_only(text: str) -> tuple[int, int] | None:
    """read_time of what is a time and nothing else ([-][D ]hh:mm[:ss][.ff], or up to 7
    digits [H]HHMMSS[.ff]): no date-time is read as its time (a TIME'..' literal)."""
    m = _TIME_NUMBER.match(text)
    if _TIME.match(text) or m is not None and len(m.group(2)) <= 7:
        return read_time(text)
    return None


# MariaDB's TIME_MAX_INTERVAL_HOUR: the hours of an interval DAY TO SECOND (EXTRACT, CAST AS
# INTERVAL DAY_SECOND), 3652058 days and 23 hours
INTERVAL_MAX_HOURS = 87649415
_NUMBER_PREFIX = re.compile(r"\s*([-+])?(\d+)(?:\.(\d*))?")
_TIME_PREFIX = re.compile(r"\s*([-+])?\s*(?:(\d+)\s+)?(\d+):(\d{1,2})(?::(\d{1,2}))?(?:\.(\d*))?")


def read_interval(v: Any, day_mode: bool, dates: bool = True
                  ) -> tuple[Moment | tuple[int, int] | None, bool]:
    """A value as EXTRACT(DAY.. / HOUR.. FROM v) reads it (MariaDB's Extract_source): a
    date-time `Moment`, or an interval DAY TO SECOND as (signed microseconds, fsp), or None;
    and whether text after the value was cut off (1292 "Incorrect time value").

    A number is hhhhmmss[.ffffff] up to 999999995959, a date-time above. A string that looks
    like a date ('2001-02-03 ..', 12 or more digits, and in DAY mode any digits alone) is a
    date-time; else [-][days ]hh:mm[:ss][.ff] or hhmmss[.ff]. More than 87649415 hours, or
    minutes / seconds past 59, is None. Without `dates` (CAST AS INTERVAL) no date-time is
    read: what would be one is None, and digits are always hhhhmmss."""
    if v is None:
        return None, False
    if isinstance(v, (int, Decimal, float)) and not isinstance(v, bool):
        if abs(v) > 999999995959:
            return (read_datetime(v) if dates else None), False
        text = text_of(v)
        if isinstance(v, float) and "e" in text.lower():
            text = format(Decimal(repr(v)), "f")
        return _interval_number(text), False
    text = text_of(v).strip()
    whole = text.partition(".")[0]
    if _DELIMITED.match(text) and not _TIME.match(text) or dates and \
            whole.lstrip("+-").isdigit() and (day_mode and whole == text or len(whole) >= 12):
        return (read_datetime(text) if dates else None), False
    m = _TIME_PREFIX.match(text)
    if m:
        sign, days, h, mi, sec, frac = m.groups()
        micro, fsp = _fraction(frac)
        return _interval(sign, int(days or 0) * 24 + int(h), int(mi), int(sec or 0), micro,
                         fsp), m.end() < len(text)
    m = _NUMBER_PREFIX.match(text)
    if m is None:
        return None, False
    return _interval_number(m.group(0)), m.end() < len(text)


def _interval_number(text: str) -> tuple[int, int] | None:
    m = _NUMBER_PREFIX.match(text)
    if m is None:
        return None
    sign, whole, frac = m.groups()
    n = int(whole)
    micro, fsp = _fraction(frac)
    return _interval(sign, n // 10000, n // 100 % 100, n % 100, micro, fsp)


def _interval(sign: str | None, hours: int, minutes: int, seconds: int, micro: int,
              fsp: int) -> tuple[int, int] | None:
    if minutes > 59 or seconds > 59 or hours > INTERVAL_MAX_HOURS:
        return None
    us = ((hours * 60 + minutes) * 60 + seconds) * 10**6 + micro
    return (-us if sign == "-" else us), fsp


def time_text(us: int, fsp: int) -> str:
    sign = "-" if us < 0 else ""
    secs, micro = divmod(abs(us), 1_000_000)
    h, rem = divmod(secs, 3600)
    text = f"{sign}{h:02d}:{rem // 60:02d}:{rem % 60:02d}"
    return text + ("." + f"{micro:06d}"[:fsp] if fsp else "")


def moment_from_us(total_us: int, has_time: bool = True, fsp: int = 0) -> Moment | None:
    """A date-time from microseconds since 0000-00-00 (day numbers as calc_daynr)."""
    days, day_us = divmod(total_us, 86_400_000_000)
    y, mo, d = from_daynr(days)
    if y == 0:
        return None
    return Moment(y, mo, d, has_time=has_time, fsp=fsp).with_time_us(day_us)
