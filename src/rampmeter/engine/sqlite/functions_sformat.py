"""SFORMAT(format, arg, ...): MariaDB's string formatting with the {fmt} library's syntax
(item_strfunc.cc Item_func_sformat, which hands the arguments to fmt::vformat).

Rules (fmt's, as MariaDB 10.11 uses it):
- Replacement fields are `{}` (the next argument), `{n}` (argument n, from 0) or `{:spec}` /
  `{n:spec}`; `{{` and `}}` are literal braces. Automatic and manual numbering cannot be
  mixed. A named field (`{one}`) or a number past the last argument is "argument not found";
  a stray brace or anything else malformed is "invalid format string". Each error is
  warning 4183 "SFORMAT error: ..." and the result is NULL.
- spec is [[fill]align][sign][#][0][width][.precision][type] (align < > ^). fmt's rules by
  argument kind, which Python's format() does not all share and so are checked here first:
  integers take types d b B o x X c and no precision; floating-point numbers take e E f F g G
  a A; strings take s, a precision (truncation) and no sign, `#` or `0`. `%`, `,` and `_`
  are not fmt's: "invalid type specifier". A fill of `{` or `}` is refused.
- Arguments keep their SQL kind: integers format as integers, DECIMAL and floating-point
  values as doubles (fmt's shortest round-trip form for `{}`: 100.0 prints as 100), anything
  else as its text. A NULL format or argument gives NULL. A width or precision can be a
  nested field (`{:{}}`, `{:.{1}}`) naming an integer argument. `L` groups digits as
  MariaDB's en_US locale does (13,800,000,000). A result longer than max_allowed_packet or
  max_session_mem_used is NULL, without a warning, as in MariaDB (MDEV-40411; the second
  measured on 10.11: 512K allows 524288 characters, not 524289).
"""

from __future__ import annotations

import math
import re
from typing import Any

from rampmeter.engine import types as T
from rampmeter.engine.sqlite.funclib import sqlfunction
from rampmeter.errors import ServerError

_SPEC = re.compile(r"(?:(?P<fill>.)?(?P<align>[<>^]))?(?P<sign>[-+ ])?(?P<alt>#)?"
                   r"(?P<zero>0)?(?P<width>\d+)?(?:\.(?P<prec>\d+))?(?P<L>L)?(?P<type>.)?\Z",
                   re.S)
_BRACE_FILL = re.compile(r"\{\w*:\{[<>^]")
_INT_TYPES = frozenset("dbBoxXc")
_FLOAT_TYPES = frozenset("eEfFgGaA")
_BIG = 2 ** 31 - 1  # fmt: a width or precision past int's range is "number is too big"


class _FormatError(Exception):
    pass


class _TooLong(Exception):
    """The result would pass max_allowed_packet: NULL, without a warning (MDEV-40411)."""


def _result_type(args: list[T.SqlType | None]) -> T.SqlType:
    """LONGTEXT in the character set of the string arguments when they all have the same
    (MariaDB aggregates them: SFORMAT of ucs2 strings is ucs2), else utf8mb4."""
    sets = {a.charset for a in args if a is not None and a.is_text and a.charset}
    return T.longtext(sets.pop() if len(sets) == 1 else "utf8mb4")


@sqlfunction("SFORMAT", (1, -1), _result_type, host=True)
def sformat(host: Any, fmt: Any, *args: Any) -> Any:
    if fmt is None or any(a is None for a in args):
        return None
    text = fmt.decode("utf-8", "replace") if isinstance(fmt, bytes) else str(fmt)
    values = [a.decode("utf-8", "replace") if isinstance(a, bytes) else a for a in args]
    limit = int(host.context.system_variable("max_allowed_packet"))
    try:  # MariaDB's String cannot grow past the session's memory either (measured)
        limit = min(limit, int(host.context.system_variable("max_session_mem_used")))
    except (ServerError, TypeError, ValueError):
        pass
    try:
        result = _format(text, values, limit)
    except _FormatError as e:
        host.warn(4183, f"SFORMAT error: {e}")
        return None
    except _TooLong:
        return None
    return None if len(result.encode("utf-8")) > limit else result


def _format(text: str, args: list[Any], limit: int) -> str:
    out: list[str] = []
    i, auto, manual = 0, 0, False
    n = len(text)
    while i < n:
        c = text[i]
        if c == "}":
            if i + 1 < n and text[i + 1] == "}":
                out.append("}")
                i += 2
                continue
            raise _FormatError("unmatched '}' in format string")
        if c != "{":
            out.append(c)
            i += 1
            continue
        if i + 1 < n and text[i + 1] == "{":
            out.append("{")
            i += 2
            continue
        if _BRACE_FILL.match(text, i):
            raise _FormatError("invalid fill character '{'")
        end = _field_end(text, i)
        name, _, spec = text[i + 1:end].partition(":")
        if "{" in name:
            raise _FormatError("invalid format string")
        index, auto, manual = _index(name, auto, manual)
        if index >= len(args):
            raise _FormatError("argument not found")
        while "{" in spec:  # a nested {} / {n}: a width or precision from an argument
            start = spec.index("{")
            close = spec.find("}", start)
            if close < 0:
                raise _FormatError("invalid format string")
            inner, auto, manual = _index(spec[start + 1:close], auto, manual)
            if inner >= len(args):
                raise _FormatError("argument not found")
            value = args[inner]
            if not isinstance(value, int) or value < 0:
                raise _FormatError("width is not integer" if spec[start - 1:start] != "."
                                   else "precision is not integer")
            spec = spec[:start] + str(value) + spec[close + 1:]
        out.append(_one(args[index], spec, limit))
        i = end + 1
    return "".join(out)


def _field_end(text: str, i: int) -> int:
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    raise _FormatError("invalid format string")


def _index(name: str, auto: int, manual: bool) -> tuple[int, int, bool]:
    """The argument a field names, and the numbering state after it."""
    if name == "":
        if manual:
            raise _FormatError("cannot switch from manual to automatic argument indexing")
        return auto, auto + 1, manual
    if name.isdigit():
        if auto:
            raise _FormatError("cannot switch from automatic to manual argument indexing")
        return int(name), auto, True
    if re.fullmatch(r"[A-Za-z_]\w*", name):
        raise _FormatError("argument not found")
    raise _FormatError("invalid format string")


def _one(value: Any, spec: str, limit: int) -> str:
    m = _SPEC.match(spec)
    if m is None:
        raise _FormatError("invalid format string")
    parts = m.groupdict()
    for key in ("width", "prec"):
        if parts[key] is not None and int(parts[key]) > _BIG:
            raise _FormatError("number is too big")
    if int(parts["width"] or 0) > limit:
        raise _TooLong
    kind = parts["type"]
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        if parts["prec"] is not None:
            raise _FormatError("precision not allowed for this argument type")
        if kind is not None and kind not in _INT_TYPES:
            raise _FormatError("invalid type specifier")
        if kind == "o" and parts["alt"]:  # fmt's alternate octal is a leading 0, not 0o
            return _pad(("-0" if value < 0 else "0") + format(abs(value), "o"), spec, parts)
    elif isinstance(value, float):
        if kind is not None and kind not in _FLOAT_TYPES:
            raise _FormatError("invalid type specifier")
        if kind in ("a", "A"):
            return _pad(_hexfloat(value, parts), spec, parts)
    else:
        value = str(value)
        if kind is not None and kind != "s":
            raise _FormatError("invalid type specifier")
        if parts["sign"] or parts["alt"] or parts["zero"]:
            raise _FormatError("format specifier requires numeric argument")
    py = _python_spec(parts)
    if isinstance(value, float) and kind is None:
        return _pad(_shortest(value, parts), spec, parts)
    try:
        return format(value, py)
    except (ValueError, OverflowError) as e:
        raise _FormatError("invalid format string") from e


def _python_spec(parts: dict[str, Any]) -> str:
    """fmt's spec as Python's format() spells it: `L` (the locale's digit grouping; MariaDB
    formats in en_US) is Python's `,`."""
    out = ""
    if parts["align"]:
        out += (parts["fill"] or "") + parts["align"]
    out += (parts["sign"] or "") + (parts["alt"] or "") + (parts["zero"] or "")
    out += parts["width"] or ""
    if parts["L"] and parts["type"] not in ("b", "B", "o", "x", "X", "c", "a", "A"):
        out += ","
    if parts["prec"] is not None:
        out += "." + parts["prec"]
    return out + (parts["type"] or "")


def _shortest(value: float, parts: dict[str, Any]) -> str:
    """fmt's `{}` of a double: the shortest text that reads back the same, without Python's
    trailing `.0`; with a precision it is `g` with that many digits."""
    if parts["prec"] is not None:
        text = format(value, f".{parts['prec']}g")
    elif math.isinf(value) or math.isnan(value):
        text = "inf" if math.isinf(value) else "nan"
        text = "-" + text if value < 0 else text
    else:
        text = repr(value)
        if text.endswith(".0"):
            text = text[:-2]
    if parts["sign"] in ("+", " ") and not text.startswith("-"):
        text = parts["sign"] + text
    return text


def _hexfloat(value: float, parts: dict[str, Any]) -> str:
    text = value.hex()  # 0x1.8000000000000p+0
    mantissa, _, exponent = text.partition("p")
    mantissa = mantissa.rstrip("0").rstrip(".")
    text = f"{mantissa}p{exponent}"
    return text.upper() if parts["type"] == "A" else text


def _pad(text: str, spec: str, parts: dict[str, Any]) -> str:
    width = int(parts["width"] or 0)
    if len(text) >= width:
        return text
    fill = parts["fill"] or ("0" if parts["zero"] and not parts["align"] else " ")
    align = parts["align"] or ">"
    gap = width - len(text)
    if align == "<":
        return text + fill * gap
    if align == "^":
        return fill * (gap // 2) + text + fill * (gap - gap // 2)
    return fill * gap + text
