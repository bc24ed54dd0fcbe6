"""A string read as a DATE, DATETIME or TIME the way MariaDB reads one (sql-common/my_time.c's
str_to_datetime and str_to_time, reimplemented), with what it had to leave out.

Rules:
- A date-time is either all digits ([YY]YYMMDD[T][hhmmss][.ffffff]: the year has 4 digits
  when there are 4, 8 or 14 and more, else 2) or numbers between punctuation
  ('2002.011.012', '12:00:00.12.34.56' is 2012-00-00 12:34:56): year, month, day, then a
  space run, a 'T' or one punctuation character, then hour, minute, second, each pair apart by
  one punctuation character, and an optional .fraction. Fewer than three numbers is no date
  at all; a 2-digit year is 19YY from 70, else 20YY; a month past 12, a day past 31 or past
  its month (Feb 29 in a leap year only), an hour past 23 or a minute / second past 59 is an
  error. Text left after the value (what is not spaces) is TRUNCATED, the value kept.
- A time is [-][D ]H:MM[:SS][.ffffff], [-]HHMMSS[.ffffff] or, when the string has 12
  characters or more and reads as a date-time (a punctuation character as the date / time
  separator is then refused: '12:00:00-12.34.56' is 12:00:00 and more), that date-time.
  Minutes or seconds past 59 are an error; hours past 838 are TIME's end, OUT_OF_RANGE.
- Digits past the sixth of a fraction are dropped: NOTE_TRUNCATED (MariaDB's Note).
- `zero_date` / `zero_in_date` off (sql_mode NO_ZERO_DATE / NO_ZERO_IN_DATE) make
  0000-00-00 / a zero month or day an error.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

TRUNCATED = 1        # MYSQL_TIME_WARN_TRUNCATED: text after the value, or no value at all
OUT_OF_RANGE = 2     # MYSQL_TIME_WARN_OUT_OF_RANGE: a time past 838:59:59, clipped
NOTE_TRUNCATED = 16  # MYSQL_TIME_NOTE_TRUNCATED: fraction digits past the sixth
TIME_MAX_HOUR = 838
_YY_PART_YEAR = 70
_UINT_MAX = 2**32 - 1
_PUNCT = frozenset(string.punctuation)
_SPACE = frozenset(" \t\n\v\f\r")
_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


@dataclass
class Read:
    """What was read: kind is 'date', 'datetime', 'time', 'none' (no value at all) or
    'error' (a value out of its ranges); `warnings` the flags above."""
    kind: str = "none"
    year: int = 0
    month: int = 0
    day: int = 0
    hour: int = 0
    minute: int = 0
    second: int = 0
    micro: int = 0
    neg: bool = False
    warnings: int = 0
    digits: int = 0  # the fraction's digits as written (at most 6)

    @property
    def ok(self) -> bool:
        return self.kind in ("date", "datetime", "time")


class _Cursor:
    """A position in the text, and the count of numbers read (number_of_fields)."""

    def __init__(self, text: str, pos: int = 0) -> None:
        self.text, self.pos, self.fields = text, pos, 0

    @property
    def end(self) -> int:
        return len(self.text)

    def number(self, limit: int | None = None) -> int | None:
        """get_number / get_digits: the digits here (at most `limit`); 0 fields read at the
        end, None (a failure) on a non-digit."""
        stop = self.end if limit is None else min(self.end, self.pos + limit)
        if self.pos >= stop:
            return 0
        if not self.text[self.pos].isdigit() or not self.text[self.pos].isascii():
            return None
        start = self.pos
        while self.pos < stop and "0" <= self.text[self.pos] <= "9":
            self.pos += 1
        self.fields += 1
        return int(self.text[start:self.pos])

    def punct(self) -> bool:
        if self.pos >= self.end:
            return True
        if self.text[self.pos] in _PUNCT:
            self.pos += 1
            return True
        return False

    def separator(self, datetime_only: bool) -> bool:
        """get_date_time_separator: 'T', one punctuation character (not when reading a time
        first: then no date-time at all), or a run of spaces."""
        if self.pos >= self.end:
            return True
        c = self.text[self.pos]
        if c == "T":
            self.pos += 1
            return True
        if c in _PUNCT:
            if datetime_only:
                self.fields = 0
                return False
            self.pos += 1
            return True
        if c not in _SPACE:
            return False
        while self.pos < self.end and self.text[self.pos] in _SPACE:
            self.pos += 1
        return True

    def skip_digits(self) -> int:
        start = self.pos
        while self.pos < self.end and "0" <= self.text[self.pos] <= "9":
            self.pos += 1
        return self.pos - start

    def microseconds(self, r: Read) -> None:
        """get_microseconds: up to 6 digits; more are NOTE_TRUNCATED."""
        start = self.pos
        value = self.number(6)
        if value is None:
            r.warnings |= TRUNCATED
            value = 0
        r.digits = self.pos - start
        r.micro = value * 10 ** (6 - r.digits)
        if self.skip_digits():
            r.warnings |= NOTE_TRUNCATED


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0 and year != 0)


def str_to_datetime(text: str, *, zero_date: bool = True, zero_in_date: bool = True,
                    datetime_only: bool = False) -> Read:
    r = Read()
    c = _Cursor(text)
    while c.pos < c.end and text[c.pos] in _SPACE:
        c.pos += 1
    if c.pos >= c.end or not ("0" <= text[c.pos] <= "9"):
        r.warnings = TRUNCATED
        return r
    scan = _Cursor(text, c.pos)
    digits = scan.skip_digits()
    if scan.pos < scan.end and text[scan.pos] == "T":
        scan.pos += 1
        digits += scan.skip_digits()
    if scan.pos < scan.end and text[scan.pos] == "." and digits >= 12:
        scan.pos += 1
        scan.skip_digits()
    parts: list[int] = []
    failed = False
    if scan.pos == scan.end:  # all digits: [YY]YYMMDD[T]hhmmss[.ffffff]
        year_length = 4 if digits in (4, 8) or digits >= 14 else 2
        for k, width in enumerate((year_length, 2, 2, 2, 2, 2)):
            if k == 3 and c.pos < c.end and text[c.pos] == "T":
                c.pos += 1
            value = c.number(width)
            if value is None:
                failed = True
                break
            parts.append(value)
    else:  # numbers between punctuation (the first is a number: checked above)
        start = c.pos
        parts.append(c.number() or 0)
        year_length = c.pos - start
        for step in ("p", "n", "p", "n", "s", "n", "p", "n", "p", "n"):
            if step == "n":
                value = c.number()
                ok = value is not None
                if value is not None:
                    parts.append(value)
            else:
                ok = c.punct() if step == "p" else c.separator(datetime_only)
            if not ok:
                failed = True
                break
    if failed:
        r.warnings |= TRUNCATED
    if c.fields < 3:
        r.warnings |= TRUNCATED
        return r
    values = parts + [0] * 6
    r.year, r.month, r.day, r.hour, r.minute, r.second = values[:6]
    if not r.warnings and c.pos < c.end and text[c.pos] == ".":
        c.pos += 1
        c.microseconds(r)
    not_zero = any((r.year, r.month, r.day, r.hour, r.minute, r.second, r.micro))
    if year_length == 2 and not_zero:
        r.year += 2000 if r.year < _YY_PART_YEAR else 1900
    if r.year > 9999 or r.month > 12 or r.day > 31 or r.hour > 23 or r.minute > 59 or \
            r.second > 59:
        return Read(kind="error", warnings=r.warnings | TRUNCATED)
    if not _check_date(r, not_zero, zero_date, zero_in_date):
        return Read(kind="error", warnings=r.warnings)
    r.kind = "date" if c.fields <= 3 else "datetime"
    if text[c.pos:].strip(" \t\n\v\f\r"):
        r.warnings |= TRUNCATED
    return r


def _check_date(r: Read, not_zero: bool, zero_date: bool, zero_in_date: bool) -> bool:
    if not not_zero:
        return zero_date
    if not zero_in_date and (r.month == 0 or r.day == 0):
        return False
    if r.month and r.day > _DAYS[r.month - 1] and not (
            r.month == 2 and _leap(r.year) and r.day == 29):
        return False
    return True


def str_to_time(text: str) -> Read:
    """[-][D ]H:MM:SS[.ff] and the other spellings of a TIME (module rules); a date-time
    spelled with 12 characters or more is read as one (its kind says so)."""
    r = Read()
    pos, end = 0, len(text)
    while pos < end and text[pos] in _SPACE:
        pos += 1
    neg = pos < end and text[pos] == "-"
    if neg:
        pos += 1
    if pos >= end or not "0" <= text[pos] <= "9":
        return Read(warnings=TRUNCATED)  # 'abc', '-': no time at all (MariaDB 10.11)
    if len(text[pos:].rstrip(" \t\n\v\f\r")) >= 12:  # probably a full date-time (MDEV-457:
        # trailing spaces do not count)
        dt_read = str_to_datetime(text[pos:], datetime_only=True)
        if dt_read.kind != "none":
            return dt_read
    r.neg = neg
    c = _Cursor(text, pos)
    start = c.pos
    c.skip_digits()
    value = int(text[start:c.pos] or 0)
    end_of_days = c.pos
    while c.pos < end and text[c.pos] in _SPACE:
        c.pos += 1
    date = [0, 0, 0, 0]
    if end - c.pos > 1 and c.pos != end_of_days and "0" <= text[c.pos] <= "9":
        date[0], state = value, 1           # days, then hours
    elif end - c.pos > 1 and text[c.pos] == ":" and "0" <= text[c.pos + 1] <= "9":
        date[1], state = value, 2           # hours, then minutes
        c.pos += 1
    else:                                   # one number: [H]HMMSS
        date = [0, value // 10000, value // 100 % 100, value % 100]
        state = 4
    while state < 4:
        start = c.pos
        c.skip_digits()
        date[state] = int(text[start:c.pos] or 0)
        state += 1
        if state == 4 or end - c.pos < 2 or text[c.pos] != ":" or \
                not "0" <= text[c.pos + 1] <= "9":
            break
        c.pos += 1
    if not r.warnings and c.pos < end and text[c.pos] == ".":
        c.pos += 1
        c.microseconds(r)
    rest = text[c.pos:]
    if len(rest) > 1 and rest[0] in "eE" and (rest[1].isdigit() or rest[1] in "+-" and
                                             len(rest) > 2 and rest[2].isdigit()):
        return Read(kind="error", warnings=r.warnings | TRUNCATED)  # '1e5': no time
    if any(d > _UINT_MAX for d in date):
        return Read(kind="error", warnings=r.warnings | OUT_OF_RANGE)
    r.hour, r.minute, r.second = date[1] + date[0] * 24, date[2], date[3]
    if r.minute >= 60 or r.second >= 60:
        return Read(kind="error", warnings=r.warnings | TRUNCATED)
    if r.hour > TIME_MAX_HOUR or r.hour == TIME_MAX_HOUR and r.minute == 59 and \
            r.second == 59 and r.micro > 999999:
        r.hour, r.minute, r.second, r.micro = TIME_MAX_HOUR, 59, 59, 999999
        r.warnings |= OUT_OF_RANGE
    r.kind = "time"
    if rest.strip(" \t\n\v\f\r"):
        r.warnings |= TRUNCATED
    return r


def number_to_datetime(whole: int, micro: int = 0, *, zero_date: bool = True,
                       zero_in_date: bool = True) -> Read:
    """A number read as a date-time (my_time.c's number_to_datetime): [YY]YYMMDD or
    [YY]YYMMDDhhmmss, a 2-digit year 20YY below 70, 19YY from 70; 0 is the zero date."""
    nr = whole
    kind = "date"
    if nr == 0 or nr >= 10000101000000:
        kind = "datetime"
    elif nr < 101:
        return Read(kind="error", warnings=TRUNCATED)
    elif nr <= (_YY_PART_YEAR - 1) * 10000 + 1231:
        nr = (nr + 20000000) * 1000000
    elif nr < _YY_PART_YEAR * 10000 + 101:
        return Read(kind="error", warnings=TRUNCATED)
    elif nr <= 991231:
        nr = (nr + 19000000) * 1000000
    elif nr < 10000101:
        return Read(kind="error", warnings=TRUNCATED)
    elif nr <= 99991231:
        nr *= 1000000
    elif nr < 101000000:
        return Read(kind="error", warnings=TRUNCATED)
    else:
        kind = "datetime"
        if nr <= (_YY_PART_YEAR - 1) * 10000000000 + 1231235959:
            nr += 20000000000000
        elif nr < _YY_PART_YEAR * 10000000000 + 101000000:
            return Read(kind="error", warnings=TRUNCATED)
        elif nr <= 991231235959:
            nr += 19000000000000
    date, clock = divmod(nr, 1000000)
    r = Read(kind=kind, year=date // 10000, month=date // 100 % 100, day=date % 100,
             hour=clock // 10000, minute=clock // 100 % 100, second=clock % 100, micro=micro)
    if r.year > 9999 or r.month > 12 or r.day > 31 or r.hour > 23 or r.minute > 59 or \
            r.second > 59 or not _check_date(r, bool(nr or micro), zero_date, zero_in_date):
        return Read(kind="error", warnings=TRUNCATED)
    if kind == "date" and micro:  # a date's fraction is dropped, with a Note
        r.micro, r.warnings = 0, NOTE_TRUNCATED
    return r
