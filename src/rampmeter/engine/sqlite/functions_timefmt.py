"""MariaDB's date formatting and parsing (the library, funclib.py): DATE_FORMAT, TIME_FORMAT,
GET_FORMAT, STR_TO_DATE, and FROM_UNIXTIME's format.

Rules:
- The format codes are MariaDB's (%a %b %c %D %d %e %f %H %h %I %i %j %k %l %M %m %p %r %S
  %s %T %U %u %V %v %W %w %X %x %Y %y %%; any other %c is c). %M %b %W %a, MONTHNAME and
  DAYNAME say the names of the session's lc_time_names (or DATE_FORMAT's third argument), as
  MariaDB's locales spell them (time_names.py); en_US, the default, and a name MariaDB does
  not know use the English ones.
- A name or week code on a date with a zero month or day is NULL, as in MariaDB.
- STR_TO_DATE reads the string by the format, code by code: numbers take at most the digits
  their field has, names match case-insensitively; a string that does not fit is NULL with
  warning 1411; the result is a date, a time or a date-time, by the codes the format has.
"""

from __future__ import annotations

import re
from typing import Any

from rampmeter.engine import types as T
from rampmeter.engine.sqlite import temporal as tm
from rampmeter.engine.sqlite.funclib import sqlfunction
from rampmeter.engine.sqlite.temporal import Moment
from rampmeter.engine.sqlite.time_names import NAMES
from rampmeter.errors import ServerError

_SUFFIX = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}
_NAMED = set("aDbMUuVvWwXx")


Names = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]


def locale_names(host: Any, locale: Any = None) -> Names | None:
    """The month and day names of `locale` or of the session's lc_time_names (None: en_US's)."""
    if locale is None:
        try:
            locale = host.context.system_variable("lc_time_names")
        except ServerError:  # a context without the variable (a test's, the mysql mirror's)
            return None
    if locale is None:
        return None
    return NAMES.get(tm.text_of(locale)) if str(locale) != "en_US" else None


def format_moment(m: Moment, fmt: str, *, time_only: bool = False,
                  names: Names | None = None) -> Any:
    out: list[str] = []
    i = 0
    while i < len(fmt):
        ch = fmt[i]
        if ch != "%" or i + 1 == len(fmt):
            out.append(ch)
            i += 1
            continue
        code = fmt[i + 1]
        i += 2
        if code in _NAMED and (m.month == 0 or m.day == 0) and not time_only:
            return None
        out.append(_code(m, code, names))
    return "".join(out)


def _code(m: Moment, c: str,  # noqa: C901 - one branch per format code
          names: Names | None = None) -> str:
    h12 = (m.hour % 12) or 12
    simple = {"Y": f"{m.year:04d}", "y": f"{m.year % 100:02d}", "m": f"{m.month:02d}",
              "c": str(m.month), "d": f"{m.day:02d}", "e": str(m.day), "H": f"{m.hour:02d}",
              "k": str(m.hour), "h": f"{h12:02d}", "I": f"{h12:02d}", "l": str(h12),
              "i": f"{m.minute:02d}", "S": f"{m.second:02d}", "s": f"{m.second:02d}",
              "f": f"{m.micro:06d}", "p": "AM" if m.hour < 12 else "PM",
              "T": f"{m.hour:02d}:{m.minute:02d}:{m.second:02d}"}
    if c in simple:
        return simple[c]
    if c == "D":
        return f"{m.day}{_SUFFIX.get(m.day, 'th')}"
    if c == "r":
        return f"{h12:02d}:{m.minute:02d}:{m.second:02d} {'AM' if m.hour < 12 else 'PM'}"
    if c in "Mb":
        if names is not None:
            return names[0 if c == "M" else 1][m.month - 1] if m.month else ""
        name = tm.MONTH_NAMES[m.month - 1] if m.month else ""
        return name if c == "M" else name[:3]
    if c in "Wa":
        day = tm.weekday(m.daynr, False)
        if names is not None:
            return names[2 if c == "W" else 3][day]
        name = tm.DAY_NAMES[day]
        return name if c == "W" else name[:3]
    if c == "w":
        return str(tm.weekday(m.daynr, True))
    if c == "j":
        return f"{m.daynr - tm.calc_daynr(m.year, 1, 1) + 1:03d}"
    if c in "UuVv":
        mode = {"U": 0, "u": 1, "V": 2, "v": 3}[c]
        behaviour = tm.week_mode(mode) | (tm.WEEK_YEAR if c in "Vv" else 0)
        return f"{tm.calc_week(m, behaviour)[0]:02d}"
    if c in "Xx":
        behaviour = tm.week_mode(2 if c == "X" else 3) | tm.WEEK_YEAR
        return f"{tm.calc_week(m, behaviour)[1]:04d}"
    return c


@sqlfunction("DATE_FORMAT", (2, 3), T.varchar(64), host=True)
def date_format(host: Any, v: Any, fmt: Any, *locale: Any) -> Any:
    if v is None or fmt is None:
        return None
    chosen: Names | None = None
    if locale:  # DATE_FORMAT(d, fmt, 'de_DE'): an unknown one is en_US, with 1649
        name = "NULL" if locale[0] is None else tm.text_of(locale[0])
        chosen = NAMES.get(name)
        if chosen is None and name != "en_US":
            host.warn(1649, f"Unknown locale: '{name}'")
    m = tm.read_datetime(v)
    if m is None:
        t = tm.read_time(v)
        if t is None:
            host.warn(1292, f"Incorrect datetime value: '{tm.text_of(v)}'")
            return None
        m = Moment(0, 0, 0, has_time=True).with_time_us(abs(t[0]) % 86_400_000_000)
    text = tm.text_of(fmt)
    names = chosen if locale else locale_names(host) if _NAMES_RX.search(text) else None
    return format_moment(m, text, names=names)


_NAMES_RX = re.compile(r"%[MbWa]")


@sqlfunction("TIME_FORMAT", 2, T.varchar(64), host=True)
def time_format(host: Any, v: Any, fmt: Any) -> Any:
    if v is None or fmt is None:
        return None
    t = tm.read_time(v)
    if t is None:
        host.warn(1292, f"Incorrect time value: '{tm.text_of(v)}'")
        return None
    us = abs(t[0])
    hours = us // 3_600_000_000
    m = Moment(0, 0, 0, has_time=True).with_time_us(us % 86_400_000_000)
    text = tm.text_of(fmt).replace("%H", f"{hours:02d}").replace("%k", str(hours))
    return format_moment(m, text, time_only=True)


@sqlfunction("GET_FORMAT", 2, T.varchar(17))
def get_format(kind: Any, standard: Any) -> Any:
    formats = {
        "DATE": {"USA": "%m.%d.%Y", "JIS": "%Y-%m-%d", "ISO": "%Y-%m-%d", "EUR": "%d.%m.%Y",
                 "INTERNAL": "%Y%m%d"},
        "DATETIME": {"USA": "%Y-%m-%d %H.%i.%s", "JIS": "%Y-%m-%d %H:%i:%s",
                     "ISO": "%Y-%m-%d %H:%i:%s", "EUR": "%Y-%m-%d %H.%i.%s",
                     "INTERNAL": "%Y%m%d%H%i%s"},
        "TIME": {"USA": "%h:%i:%s %p", "JIS": "%H:%i:%s", "ISO": "%H:%i:%s",
                 "EUR": "%H.%i.%s", "INTERNAL": "%H%i%s"},
    }
    if standard is None:
        return None
    k = str(kind).upper()
    return formats.get("DATETIME" if k == "TIMESTAMP" else k, {}).get(
        tm.text_of(standard).upper())


# --- STR_TO_DATE ---------------------------------------------------------------------------------
_DATE_CODES = set("aDbcdejMmUuVvWwXxYy")
_TIME_CODES = set("fHhIiklprSsT")
_WIDTH = {"Y": 4, "y": 2, "m": 2, "c": 2, "d": 2, "e": 2, "D": 2, "H": 2, "k": 2, "h": 2,
          "I": 2, "l": 2, "i": 2, "s": 2, "S": 2, "f": 6, "j": 3, "U": 2, "u": 2, "V": 2,
          "v": 2, "X": 4, "x": 4, "w": 1}


class _Parse:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def digits(self, width: int) -> int | None:
        m = re.compile(r"[-+]?\d{1," + str(width) + "}").match(self.text, self.i)
        if not m:
            return None
        self.i = m.end()
        return int(m.group(0))

    def name(self, names: list[str], short: bool) -> int | None:
        rest = self.text[self.i:].lower()
        for k, full in enumerate(names):
            word = (full[:3] if short else full).lower()
            if rest.startswith(word):
                self.i += len(word)
                return k
        return None


def _fields(text: str, fmt: str) -> dict[str, int] | None:  # noqa: C901 - a table of codes
    p = _Parse(text.lstrip())
    f: dict[str, int] = {}
    i = 0
    while i < len(fmt):
        ch = fmt[i]
        if ch.isspace():
            while p.i < len(p.text) and p.text[p.i].isspace():
                p.i += 1
            i += 1
            continue
        if ch != "%" or i + 1 == len(fmt):
            if p.i >= len(p.text) or p.text[p.i] != ch:
                return None
            p.i += 1
            i += 1
            continue
        code = fmt[i + 1]
        i += 2
        if code in _WIDTH:
            start = p.i
            n = p.digits(_WIDTH[code])
            if n is None:
                return None
            if code == "f":  # the digits read are a fraction: '0012' is 001200 microseconds
                digits = p.i - start
                n = n * 10 ** (6 - digits) if digits < 6 else n
            if code == "D":
                p.name(["st", "nd", "rd", "th"], False)
            f[{"c": "m", "e": "d", "D": "d", "k": "H", "I": "h", "l": "h", "S": "s"}.get(
                code, code)] = n
        elif code in "Mb":
            k = p.name(list(tm.MONTH_NAMES), code == "b")
            if k is None:
                return None
            f["m"] = k + 1
        elif code in "Wa":
            if p.name(list(tm.DAY_NAMES), code == "a") is None:
                return None
        elif code == "p":
            k = p.name(["AM", "PM"], False)
            if k is None:
                return None
            f["p"] = k
        elif code in "rT":
            sub = _fields(p.text[p.i:], "%h:%i:%s %p" if code == "r" else "%H:%i:%s")
            if sub is None:
                return None
            f.update(sub)
            p.i = len(p.text)
        elif code == "%":
            if p.text[p.i:p.i + 1] != "%":
                return None
            p.i += 1
        else:
            if p.text[p.i:p.i + 1] != code:
                return None
            p.i += 1
    f["rest"] = len(p.text) - p.i
    return f


@sqlfunction("STR_TO_DATE", 2, None, host=True)
def str_to_date(host: Any, v: Any, fmt: Any) -> Any:
    if v is None or fmt is None:
        return None
    text, pattern = tm.text_of(v), tm.text_of(fmt)
    f = _fields(text, pattern)
    codes = set(re.findall(r"%(.)", pattern))
    if f is None:
        return _wrong(host, text)
    year = f.get("Y", 0)
    if "y" in f:
        year = f["y"] + (2000 if f["y"] < 70 else 1900)
    hour = f.get("H", 0)
    if "h" in f:
        hour = f["h"] % 12 + (12 if f.get("p") == 1 else 0)
    month, day = f.get("m", 0), f.get("d", 0)
    if "j" in f:
        y, month, day = tm.from_daynr(tm.calc_daynr(year, 1, 1) + f["j"] - 1)
    m = Moment(year, month, day, hour, f.get("i", 0), f.get("s", 0), f.get("f", 0),
               True, 6 if "f" in codes else 0)
    if not tm.valid(m) or hour > 23:
        return _wrong(host, text)
    if f["rest"] and text[len(text) - f["rest"]:].strip():
        host.warn(1292, f"Truncated incorrect datetime value: '{text}'")
    has_date, has_time = bool(codes & _DATE_CODES), bool(codes & _TIME_CODES)
    if has_time and not has_date:
        return tm.time_text(m.day_us, m.fsp)
    return m.text() if has_time else m.date_text()


def _wrong(host: Any, text: str) -> None:
    host.warn(1411, f"Incorrect datetime value: '{text}' for function str_to_date")
    return None
