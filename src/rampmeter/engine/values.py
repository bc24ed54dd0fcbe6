"""Values into and out of typed columns: what MariaDB stores for a value, what it says when the
value does not fit, and what a stored value looks like to the client.

Rules:
- `store(t, v)` converts one value for a column of type `t` and returns (stored, problem). The
  problem, when there is one, is what MariaDB reports (measured on 10.11.19, default sql_mode):
  1264 out of range (the stored value is clamped), 1265 data truncated (a string with a number
  in front of junk, an invalid ENUM member, a DECIMAL rounded to its scale - the last only a
  Note), 1366 incorrect value (no number at all, invalid bytes for the character set), 1406 data
  too long, 1292 incorrect date / time. The caller decides what strict mode makes of it
  (statement error, or a warning and the fixed value); a 1265 Note never fails a statement.
- Storage forms in SQLite (types.SqlType.affinity names the column's affinity):
  integers as INTEGER, except BIGINT UNSIGNED values above 2^63-1, which SQLite cannot hold:
  they are TEXT '~' + 20 digits, so they sort after every integer and among themselves, compare
  equal to the same literal, and read back exactly (arithmetic on them is not exact);
  DECIMAL as TEXT, its exact digits at the column's scale ('12.50'), which the column's
  rm_decimal collation orders and compares as numbers (a number compared with the column is
  made text by SQLite's affinity rules, then compared by that collation), read back as a
  Decimal quantized to the column's scale; FLOAT / DOUBLE as REAL; text, ENUM, SET,
  JSON as TEXT; DATE 'YYYY-MM-DD', DATETIME / TIMESTAMP 'YYYY-MM-DD HH:MM:SS' plus exactly fsp
  fraction digits (so text order is time order), TIME '[-]HH:MM:SS[.f]'; YEAR and BIT as
  INTEGER; binary strings as BLOB (BINARY(n) padded with 0x00 to n bytes, as MariaDB does).
- `load(t)` returns the function that turns stored values of a column of type `t` into what the
  wire encoders expect (Decimal quantized to the scale, bytes for binary strings and BIT, the
  zero-padded text of a ZEROFILL number, ...), or None when stored values go out as they are.
- Fractional seconds beyond a column's precision are truncated, not rounded (MariaDB 10.11
  without TIME_ROUND_FRACTIONAL).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
import struct
import sys
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Context, Decimal, InvalidOperation, localcontext
from typing import Any, NamedTuple

from rampmeter import errors
from rampmeter.engine import strtime
from rampmeter.engine.types import SqlType
from rampmeter.sql import charsets

_WIDE = Context(prec=100)  # DECIMAL(65, 30) needs more than Python's default 28 digits
_NUMBER = re.compile(r"[ \t\n\r\f\v]*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")
_INT_MAX = 2**63 - 1
_EXACT = re.compile(r"-?\d+(?:\.\d+)?")
BIG_UNSIGNED = "~"


class Problem(NamedTuple):
    code: int
    kind: str = ""       # 'integer', 'decimal', 'double', 'string', 'date', 'datetime', 'time'
    shown: str = ""      # the offending value as the message quotes it
    note: bool = False   # a Note (DECIMAL rounding), never an error
    cut: str = ""        # a temporal read from text: 'after' text after it, 'digits' past 6
    twice: bool = False  # said twice: out of 64 bits (or of a double), then of the field


def _num_text(v: Any) -> str:
    if isinstance(v, bytes):
        return v.decode("latin-1")
    return str(v)


def parse_number(text: str) -> tuple[Decimal | float | None, bool]:
    """The number at the front of `text` and whether the whole text was that number (trailing
    whitespace allowed), as MariaDB's string-to-number conversion reads it."""
    m = _NUMBER.match(text)
    if m is None:
        return None, False
    token = m.group(1)
    whole = not text[m.end():].strip(" \t\n\r\f\v")
    try:
        if "e" in token or "E" in token:
            return float(token), whole
        return Decimal(token), whole
    except (InvalidOperation, ValueError, OverflowError):
        return None, False


def _trailing(text: str, whole: bool) -> Problem | None:
    """A number read from a string with more after it: 1265, a note when only spaces follow
    (MDEV-8468)."""
    if not whole:
        return Problem(errors.WARN_DATA_TRUNCATED)
    if text[-1:].isspace():
        return Problem(errors.WARN_DATA_TRUNCATED, note=True)
    return None


def _round_half_up(d: Decimal) -> int:
    return int(d.to_integral_value(ROUND_HALF_UP))


# --- integers ---------------------------------------------------------------------------------
def _store_int(t: SqlType, v: Any) -> tuple[Any, Problem | None]:
    problem = None
    if type(v) is int:
        n = v
    elif isinstance(v, bool):
        n = int(v)
    elif isinstance(v, float):
        if not math.isfinite(v):
            lo, hi = t.int_range
            return _int_stored(hi if v > 0 else lo), Problem(errors.ER_WARN_DATA_OUT_OF_RANGE)
        n = _round_half_up(Decimal(repr(v)))
    elif isinstance(v, Decimal):
        n = _round_half_up(v)
    elif isinstance(v, str) and v[:1] == BIG_UNSIGNED and v[1:].isdigit():
        n = int(v[1:])  # a BIGINT UNSIGNED past 2^63 - 1 as stored (INSERT ... SELECT)
    elif isinstance(v, (str, bytes)):
        text = _num_text(v)
        num, whole = parse_number(text)
        if num is None:
            return 0, Problem(errors.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, "integer", text)
        if isinstance(num, float) and math.isfinite(num):
            exact = _NUMBER.match(text)  # '1844674407370955161.5e1': exactly, not via a double
            try:
                num = Decimal(exact.group(1)) if exact else Decimal(repr(num))
            except InvalidOperation:
                num = Decimal(repr(num))
        if isinstance(num, float) and not math.isfinite(num):  # '1e1000': out of range
            lo, hi = t.int_range
            return _int_stored(hi if num > 0 else lo), Problem(errors.ER_WARN_DATA_OUT_OF_RANGE)
        n = _round_half_up(num)
        problem = _trailing(text, whole)
    elif isinstance(v, (dt.datetime, dt.date, dt.timedelta, dt.time)):
        n = int(re.sub(r"\D", "", _temporal_text(v)) or 0)
    else:
        return 0, Problem(errors.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, "integer", str(v))
    lo, hi = t.int_range
    if n < lo or n > hi:
        # a DECIMAL past 64 bits is clamped to them first (convert_decimal2longlong, 1264),
        # then to a narrower field (1264 again), as MariaDB's Field_num::store_decimal
        wide_lo, wide_hi = (0, 2**64 - 1) if t.unsigned else (-2**63, _INT_MAX)
        twice = isinstance(v, Decimal) and (n > wide_hi and hi < wide_hi or
                                            n < wide_lo and lo > wide_lo)
        return _int_stored(lo if n < lo else hi), Problem(errors.ER_WARN_DATA_OUT_OF_RANGE,
                                                          twice=twice)
    return _int_stored(n), problem


def _int_stored(n: int) -> Any:
    return n if n <= _INT_MAX else f"{BIG_UNSIGNED}{n:020d}"


def big_unsigned(n: int) -> str:
    """The stored (and bound) form of an unsigned value above BIGINT's range."""
    return f"{BIG_UNSIGNED}{n:020d}"


def _load_int(v: Any) -> Any:
    if type(v) is int or v is None:
        return v
    if isinstance(v, str) and v[:1] == BIG_UNSIGNED:
        return int(v[1:])
    if isinstance(v, float):
        return int(v) if math.isfinite(v) else 0
    return v


# --- DECIMAL --------------------------------------------------------------------------------
def _to_decimal(v: Any) -> tuple[Decimal | None, Problem | None]:
    if isinstance(v, Decimal):
        return v, None
    if isinstance(v, bool):
        return Decimal(int(v)), None
    if isinstance(v, int):
        return Decimal(v), None
    if isinstance(v, float):
        if not math.isfinite(v):
            return None, Problem(errors.ER_WARN_DATA_OUT_OF_RANGE)
        return Decimal(repr(v)), None
    if isinstance(v, (str, bytes)):
        text = _num_text(v)
        num, whole = parse_number(text)
        if num is None:
            return None, Problem(errors.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, "decimal", text)
        if isinstance(num, float) and not math.isfinite(num):  # '1e1000'
            return None, Problem(errors.ER_WARN_DATA_OUT_OF_RANGE)
        d = Decimal(repr(num)) if isinstance(num, float) else num
        return d, _trailing(text, whole)
    return None, Problem(errors.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, "decimal", str(v))


def _store_decimal(t: SqlType, v: Any) -> tuple[Any, Problem | None]:
    d, problem = _to_decimal(v)
    if d is None:
        if problem is not None and problem.code == errors.ER_WARN_DATA_OUT_OF_RANGE:
            top = _decimal_max(t)
            negative = _num_text(v).lstrip().startswith("-") if isinstance(v, (str, bytes)) \
                else v < 0
            return _decimal_stored(_decimal_zero(t) if negative and t.unsigned else -top
                                   if negative else top), problem
        return _decimal_stored(_decimal_zero(t)), problem
    scale = t.scale or 0
    top = _decimal_max(t)
    with localcontext(_WIDE):
        try:
            q = d.quantize(Decimal(1).scaleb(-scale), ROUND_HALF_UP)
        except InvalidOperation:  # more digits than the context holds (1e200): out of range
            return _decimal_stored(_decimal_zero(t) if d < 0 and t.unsigned else -top if d < 0
                                   else top), Problem(errors.ER_WARN_DATA_OUT_OF_RANGE)
    if problem is None and q != d:
        problem = Problem(errors.WARN_DATA_TRUNCATED, note=True)
    if t.unsigned and q < 0:
        return _decimal_stored(_decimal_zero(t)), Problem(errors.ER_WARN_DATA_OUT_OF_RANGE)
    if q.copy_abs() > top:  # abs() would round to the context's 28 digits
        return _decimal_stored(top if q > 0 else -top), Problem(errors.ER_WARN_DATA_OUT_OF_RANGE)
    return _decimal_stored(q), problem


def _decimal_max(t: SqlType) -> Decimal:
    prec, scale = t.width or 10, t.scale or 0
    return Decimal("9" * (prec - scale) + ("." + "9" * scale if scale else "") or "0")


def _decimal_zero(t: SqlType) -> Decimal:
    return Decimal(0).scaleb(-(t.scale or 0))


def _decimal_stored(d: Decimal) -> str:
    """The exact digits, as the column's TEXT affinity keeps them ('-0.00' is '0.00')."""
    text = format(d, "f")
    return text[1:] if text[:1] == "-" and not d else text


def decimal_loader(scale: int) -> Callable[[Any], Any]:
    quantum = Decimal(1).scaleb(-scale)

    def load(v: Any) -> Any:
        if v is None:
            return None
        if isinstance(v, float):
            if not math.isfinite(v):
                return v
            d = Decimal(repr(v))
        elif isinstance(v, int):
            d = Decimal(v)
        elif isinstance(v, Decimal):
            d = v
        elif type(v) is str and v[:1] == BIG_UNSIGNED and v[1:].isdigit():
            d = Decimal(v[1:])  # an unsigned BIGINT past 2^63 (a CASE of it and a BIGINT)
        elif type(v) is str and _EXACT.fullmatch(v):
            d = Decimal(v)  # a DECIMAL column's stored digits
        else:
            d, _p = _to_decimal(v)
            if d is None:
                return v
        try:
            with localcontext(_WIDE):
                return d.quantize(quantum, ROUND_HALF_UP)
        except InvalidOperation:
            return d
    return load


# --- FLOAT / DOUBLE ---------------------------------------------------------------------------
def _store_float(t: SqlType, v: Any) -> tuple[Any, Problem | None]:
    problem = None
    if isinstance(v, (int, float, Decimal)) and not isinstance(v, bool):
        f = float(v)
    elif isinstance(v, (str, bytes)):
        text = _num_text(v)
        num, whole = parse_number(text)
        if num is None:
            return 0.0, Problem(errors.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, "double", text)
        f = float(num)
        problem = _trailing(text, whole)
    elif isinstance(v, bool):
        f = float(v)
    else:
        return 0.0, Problem(errors.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, "double", str(v))
    if math.isnan(f):
        return 0.0, Problem(errors.ER_WARN_DATA_OUT_OF_RANGE)
    if math.isinf(f):  # '1e1000': the largest double of its sign
        f = math.copysign(sys.float_info.max, f)
        # a FLOAT says it again for that double (Field_float::store(str) then store(double))
        problem = Problem(errors.ER_WARN_DATA_OUT_OF_RANGE,
                          twice=t.name == "float" and isinstance(v, (str, bytes)))
    if t.width is not None and t.scale is not None:
        f = round(f, t.scale)
        top = 10.0 ** (t.width - t.scale) - 10.0 ** -t.scale
        if abs(f) > top:
            return math.copysign(top, f), Problem(errors.ER_WARN_DATA_OUT_OF_RANGE)
    if t.name == "float" and abs(f) > 3.402823466e38:
        return math.copysign(3.402823466e38, f), problem if problem is not None and \
            problem.twice else Problem(errors.ER_WARN_DATA_OUT_OF_RANGE)
    if t.name == "float":  # a FLOAT holds a single-precision number: 1e-50 is 0 there
        f = struct.unpack("f", struct.pack("f", f))[0]
    if t.unsigned and f < 0:
        return 0.0, Problem(errors.ER_WARN_DATA_OUT_OF_RANGE)
    return f, problem


def _float_loader(t: SqlType) -> Callable[[Any], Any] | None:
    if t.width is not None and t.scale is not None:
        scale = t.scale

        def fixed(v: Any) -> Any:  # DOUBLE(M,D) prints D decimals, as MariaDB does
            if v is None:
                return None
            f = float(v)
            return f"{f if f else 0.0:.{scale}f}"  # -0.0 shows as 0.00 there
        return fixed
    if t.name == "float":
        def single(v: Any) -> Any:  # FLOAT holds about 6 significant digits (FLT_DIG)
            if v is None or not isinstance(v, (int, float)):
                return v
            return float(f"{float(v):.6g}")
        return single
    return None


def _zerofill_float(t: SqlType) -> Callable[[Any], Any]:
    """FLOAT / DOUBLE ZEROFILL: the value as the type shows it, left-padded with zeros to the
    display width (M, else MariaDB's default: 12 for FLOAT, 22 for DOUBLE)."""
    from rampmeter.protocol.results import format_float
    width = t.width or (12 if t.name == "float" else 22)
    inner = _float_loader(t)

    def load(v: Any) -> Any:
        if inner is not None:
            v = inner(v)
        if v is None:
            return None
        text = v if isinstance(v, str) else format_float(float(v))
        return text.rjust(width, "0")
    return load


# --- strings ----------------------------------------------------------------------------------
def _store_text(t: SqlType, v: Any, client: charsets.Charset) -> tuple[Any, Problem | None]:
    problem = None
    if isinstance(v, str):
        text = v
    elif isinstance(v, bytes):
        text = v.decode("utf-8", "surrogateescape") if client.codec == "utf-8" else \
            client.decode(v)
        if not charsets.is_valid(text):
            shown = _bad_bytes(v, text, client)
            text = "".join(ch if not "\udc80" <= ch <= "\udcff" else "?" for ch in text)
            problem = Problem(errors.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, "string", shown)
    elif isinstance(v, float):
        from rampmeter.protocol.results import format_float
        text = format_float(v)
    elif isinstance(v, Decimal):
        text = format(v, "f")
    elif isinstance(v, (dt.datetime, dt.date, dt.timedelta, dt.time)):
        text = _temporal_text(v)
    else:
        text = str(v)
    if t.name == "uuid":
        return store_uuid(v, text)
    if t.name == "enum":
        return _store_enum(t, v, text)
    if t.name == "set":
        return _store_set(t, v, text)
    if t.name == "json":
        try:
            json.loads(text)
        except ValueError:
            return text, Problem(4025)
        return text, problem
    if t.charset not in (None, "utf8mb4", "utf8mb3", "binary") and not text.isascii():
        cs = charsets.charset(t.charset)
        if cs is not None and cs.codec:
            fitted = cs.decode(cs.encode(text))  # (a multi-byte set's unmapped: a hole)
            if not charsets.is_valid(fitted):
                fitted = "".join("?" if "\udc80" <= ch <= "\udcff" else ch for ch in fitted)
            if fitted != text:
                problem = problem or Problem(errors.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD,
                                             "string", _lost(text, fitted, client))
                text = fitted
    if t.charset == "utf8mb3" and any(ord(ch) > 0xFFFF for ch in text):
        problem = problem or Problem(errors.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, "string",
                                     _hex_prefix(text.encode()))
        text = "".join("?" if ord(ch) > 0xFFFF else ch for ch in text)
    limit = t.max_chars
    if t.name == "char":
        text = text.rstrip(" ")
    if limit is not None and len(text) > limit and t.name in _TEXT_BYTES:
        return _fit_text_bytes(t, text, problem)
    if limit is not None and len(text) > limit:
        cut = text[:limit]
        if text[limit:].strip(" ") == "" and t.name in ("char", "varchar"):
            return cut, Problem(errors.WARN_DATA_TRUNCATED, note=True)
        return cut, Problem(errors.ER_DATA_TOO_LONG)
    return text, problem


# TINYTEXT / TEXT / MEDIUMTEXT / LONGTEXT hold so many BYTES of their character set: max_chars
# (bytes / the set's widest character) is a safe shortcut, and past it the value's own bytes
# decide, as MariaDB's Field_blob does (127 'a' fit a utf16 TINYTEXT, 255 fit a utf8mb4 one).
_TEXT_BYTES = {"tinytext": 255, "text": 65535, "mediumtext": 16777215, "longtext": 4294967295}


def _fit_text_bytes(t: SqlType, text: str, problem: Problem | None) -> tuple[Any, Problem | None]:
    cs = charsets.charset(t.charset or "utf8mb4")
    limit = _TEXT_BYTES[t.name]
    if cs is None:
        return text, problem
    raw = cs.encode(text)
    if len(raw) <= limit:
        return text, problem
    cut = len(text)
    while cut and len(cs.encode(text[:cut])) > limit:  # whole characters only
        cut -= max(1, (len(cs.encode(text[:cut])) - limit) // cs.maxlen)
    return text[:cut], Problem(errors.ER_DATA_TOO_LONG)


def _lost(text: str, fitted: str, client: charsets.Charset) -> str:
    """1366 for characters the column's set cannot hold: MariaDB quotes the value from the
    first of them, as the client's bytes, at most 6 (check_string_copy_error)."""
    first = next((i for i, (a, b) in enumerate(zip(text, fitted)) if a != b), 0)
    raw = client.encode(text[first:]) if client.codec else text[first:].encode()
    return "".join(f"\\x{b:02X}" if b >= 0x80 else chr(b) for b in raw[:6]) + \
        ("..." if len(raw) > 6 else "")


def _bad_bytes(raw: bytes, text: str, cs: charsets.Charset) -> str:
    """How MariaDB's 1366 quotes bytes that are not valid in their character set: from the
    first invalid one, at most 6, then '...' (check_string_copy_error)."""
    first = next(i for i, ch in enumerate(text) if "\udc80" <= ch <= "\udcff")
    bad = raw[len(cs.encode(text[:first])):] if cs.codec else raw
    return "".join(f"\\x{b:02X}" if b >= 0x80 else chr(b) for b in bad[:6]) + \
        ("..." if len(bad) > 6 else "")


def _hex_prefix(raw: bytes) -> str:
    """How MariaDB quotes invalid bytes in 1366: \\xFF for each byte, at most a few."""
    return "".join(f"\\x{b:02X}" if b >= 0x80 else chr(b) for b in raw[:8]) + \
        ("..." if len(raw) > 8 else "")


def _store_enum(t: SqlType, v: Any, text: str) -> tuple[Any, Problem | None]:
    if isinstance(v, int) and not isinstance(v, bool):
        if 1 <= v <= len(t.members):
            return t.members[v - 1], None
        return "", Problem(errors.WARN_DATA_TRUNCATED)
    key = _member_key(t)
    folded = key(text.rstrip(" "))
    for m in t.members:
        if key(m) == folded:
            return m, None
    if text.isdigit() and 1 <= int(text) <= len(t.members):
        return t.members[int(text) - 1], None
    return "", Problem(errors.WARN_DATA_TRUNCATED)


def _store_set(t: SqlType, v: Any, text: str) -> tuple[Any, Problem | None]:
    if isinstance(v, int) and not isinstance(v, bool):
        if v < 0 or v >= 1 << len(t.members):
            return "", Problem(errors.WARN_DATA_TRUNCATED)
        return _set_text(t.members, v), None
    # MariaDB's find_set: the value loses its trailing spaces, then each comma-separated item
    # must equal a member exactly (under the collation: 'b ' is not 'b'); an empty item is the
    # '' member when there is one. No member found in a non-empty value: it may be a number.
    stripped = text.rstrip(" ")
    if stripped == "":
        return "", Problem(errors.WARN_DATA_TRUNCATED) if text else None
    key = _member_key(t)
    folded = [key(m) for m in t.members]
    found = 0
    missing = False
    for item in stripped.split(","):
        try:
            found |= 1 << folded.index(key(item))
        except ValueError:
            missing = True
    if not found and stripped.isdigit() and len(stripped) < 22:
        return _store_set(t, int(stripped), stripped)
    return _set_text(t.members, found), Problem(errors.WARN_DATA_TRUNCATED) if missing else None


def _member_key(t: SqlType) -> Callable[[str], Any]:
    """Members match by the column's collation: set('a','A') COLLATE latin1_bin keeps
    both apart, a _ci one folds case."""
    from rampmeter.engine.sqlite.collations import member_key
    coll = t.collation
    if coll is None and t.charset:
        default = charsets.default_collation(t.charset)
        coll = default.name if default is not None else None
    return member_key(coll)


def _set_text(members: tuple[str, ...], bits: int) -> str:
    """Field_set::val_str: the members of `bits`, a separator only after something non-empty
    (so the '' member does not show)."""
    out = ""
    for i, m in enumerate(members):
        if bits >> i & 1:
            out = out + "," + m if out else m
    return out


def _store_binary(t: SqlType, v: Any, client: charsets.Charset) -> tuple[Any, Problem | None]:
    if isinstance(v, bytes):
        raw = v
    elif isinstance(v, str):
        raw = client.encode(v)
    elif isinstance(v, float):
        from rampmeter.protocol.results import format_float
        raw = format_float(v).encode()
    elif isinstance(v, Decimal):
        raw = format(v, "f").encode()
    elif isinstance(v, (dt.datetime, dt.date, dt.timedelta, dt.time)):
        raw = _temporal_text(v).encode()
    else:
        raw = str(v).encode()
    limit = t.max_chars
    if limit is not None and len(raw) > limit:
        return raw[:limit], Problem(errors.ER_DATA_TOO_LONG)
    if t.name == "binary" and limit is not None and len(raw) < limit:
        raw = raw + b"\0" * (limit - len(raw))
    return raw, None


# a value that is not a geometry: always an error, even without strict mode or with IGNORE
# (MariaDB's Field_geom::store raises it)
ER_CANT_CREATE_GEOMETRY_OBJECT = 1416


def _store_geometry(t: SqlType, v: Any, client: charsets.Charset
                    ) -> tuple[Any, Problem | None]:
    """Only SRID + WKB bytes of a geometry go in (1416 otherwise); a POINT column takes
    points only, and so on: another kind is 1366 "Incorrect POINT value: 'LINESTRING(...)'"."""
    from rampmeter.engine import spatial
    raw = v if isinstance(v, bytes) else client.encode(v) if isinstance(v, str) else None
    g = spatial.decode(raw) if raw is not None else None
    if g is None:
        return v, Problem(ER_CANT_CREATE_GEOMETRY_OBJECT)
    want = spatial.COLUMN_TYPES.get(t.name)
    if want is not None and g.kind != want:
        return v, Problem(errors.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, t.name.upper(),
                          spatial.to_wkt(g))
    return raw, None


def _load_binary(v: Any) -> Any:
    if isinstance(v, str):
        return v.encode("utf-8", "surrogateescape")
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        from rampmeter.protocol.results import format_float
        return (str(v) if isinstance(v, int) else format_float(v)).encode()
    return v


def _load_text(v: Any) -> Any:
    if isinstance(v, bytes):
        return v.decode("utf-8", "surrogateescape")
    if isinstance(v, float):
        from rampmeter.protocol.results import format_float
        return format_float(v)
    if isinstance(v, int) and not isinstance(v, bool):
        return str(v)
    return v


# --- BIT and YEAR -----------------------------------------------------------------------------
def _store_bit(t: SqlType, v: Any) -> tuple[Any, Problem | None]:
    if isinstance(v, bytes):
        n = int.from_bytes(v, "big") if v else 0
    elif isinstance(v, bool):
        n = int(v)
    elif isinstance(v, int):
        n = v
    else:
        stored, problem = _store_int(SqlType("bigint", 20, unsigned=True), v)
        n = _load_int(stored)
        if problem is not None and problem.code != errors.WARN_DATA_TRUNCATED:
            return 0, problem
    bits = t.width or 1
    if n < 0 or n >= 1 << bits:
        return (1 << bits) - 1 if n > 0 else 0, Problem(errors.ER_DATA_TOO_LONG)
    return n, None


def _bit_loader(t: SqlType) -> Callable[[Any], Any]:
    size = ((t.width or 1) + 7) // 8

    def load(v: Any) -> Any:
        if v is None or isinstance(v, bytes):
            return v
        n = int(v) if not isinstance(v, str) else int(v or 0)
        return n.to_bytes(size, "big") if n >= 0 else bytes(size)
    return load


def _store_year(t: SqlType, v: Any) -> tuple[Any, Problem | None]:
    as_text = isinstance(v, (str, bytes))
    stored, problem = _store_int(SqlType("int", 11), v)
    if problem is not None and problem.code != errors.WARN_DATA_TRUNCATED:
        return 0, problem
    n = stored
    if as_text and 0 <= n <= 99 and _num_text(v).strip():
        n = 2000 + n if n < 70 else 1900 + n
    elif not as_text and 1 <= n <= 99:
        n = 2000 + n if n < 70 else 1900 + n
    if n != 0 and not 1901 <= n <= 2155:
        return 0, Problem(errors.ER_WARN_DATA_OUT_OF_RANGE)
    return n, problem


# --- temporal ---------------------------------------------------------------------------------
_DATETIME_RX = re.compile(
    r"\s*(\d{1,4})[-/.:]0*(\d{1,2})[-/.:]0*(\d{1,2})"
    r"(?:(?:[T ]+|\s*)(\d{1,2})(?:[:.](\d{1,2})(?:[:.](\d{1,2})(?:\.(\d*))?)?)?)?\s*$")
_DIGITS_RX = re.compile(r"\s*(\d{6}|\d{8}|\d{12}|\d{14})(?:\.(\d*))?\s*$")
_TIME_RX = re.compile(r"\s*(-)?\s*(?:(\d+)\s+)?(\d+)(?::(\d{1,2})(?::(\d{1,2}))?)?(?:\.(\d*))?\s*$")


def _temporal_text(v: Any) -> str:
    if isinstance(v, dt.datetime):
        return v.replace(tzinfo=None).isoformat(" ")
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, dt.timedelta):
        return _timedelta_text(v, 6)
    if isinstance(v, dt.time):
        return v.isoformat()
    return str(v)


def _timedelta_text(td: dt.timedelta, fsp: int) -> str:
    us = (td.days * 86400 + td.seconds) * 1_000_000 + td.microseconds
    sign = "-" if us < 0 else ""
    secs, micro = divmod(abs(us), 1_000_000)
    h, rem = divmod(secs, 3600)
    text = f"{sign}{h:02d}:{rem // 60:02d}:{rem % 60:02d}"
    if fsp:
        text += "." + f"{micro:06d}"[:fsp]
    return text


def _year4(y: str) -> int:
    n = int(y)
    if len(y) <= 2:
        return 2000 + n if n < 70 else 1900 + n
    return n


def parse_datetime(text: str) -> tuple[int, int, int, int, int, int, str] | None:
    """(y, m, d, hh, mm, ss, fraction digits) from MySQL's datetime spellings, or None."""
    m = _DATETIME_RX.match(text)
    if m:
        y, mo, d, h, mi, s, frac = m.groups()
        return (_year4(y), int(mo), int(d), int(h or 0), int(mi or 0), int(s or 0), frac or "")
    m = _DIGITS_RX.match(text)
    if m:
        digits, frac = m.group(1), m.group(2) or ""
        if len(digits) in (6, 12):
            y, rest = _year4(digits[:2]), digits[2:]
        else:
            y, rest = int(digits[:4]), digits[4:]
        parts = [int(rest[i:i + 2]) for i in range(0, len(rest), 2)] + [0, 0, 0]
        return (y, parts[0], parts[1], parts[2], parts[3], parts[4], frac)
    return None


def number_datetime(v: int | Decimal) -> tuple[int, int, int, int, int, int, str] | None:
    """A number read as a datetime, as MariaDB's number_to_datetime reads it: YYMMDD,
    YYYYMMDD, YYMMDDhhmmss or YYYYMMDDhhmmss by its size (a two-digit year below 70 is
    20YY), the fraction as microseconds; None for a number of no such size."""
    if v < 0:
        return None
    nr = int(v)
    frac = ""
    if isinstance(v, Decimal) and v != nr:
        frac = format(v - nr, "f").partition(".")[2]
    if nr < 101:
        return None
    if nr <= 691231:
        nr = (nr + 20000000) * 1000000
    elif nr < 700101:
        return None
    elif nr <= 991231:
        nr = (nr + 19000000) * 1000000
    elif nr < 10000101:
        return None
    elif nr <= 99991231:
        nr *= 1000000
    elif nr < 101000000:
        return None
    elif nr <= 691231235959:
        nr += 20000000000000
    elif nr < 700101000000:
        return None
    elif nr <= 991231235959:
        nr += 19000000000000
    elif nr > 99991231235959:
        return None
    text = f"{nr:014d}"
    return (int(text[:4]), int(text[4:6]), int(text[6:8]), int(text[8:10]), int(text[10:12]),
            int(text[12:14]), frac)


def _valid_date(y: int, mo: int, d: int) -> bool:
    if y == mo == d == 0:
        return True  # the zero date (NO_ZERO_DATE is not in MariaDB 10.11's default sql_mode)
    if mo == 0 or d == 0:
        return 0 <= mo <= 12 and 0 <= d <= 31  # zero parts (NO_ZERO_IN_DATE is not either)
    if not 1 <= mo <= 12:
        return False
    try:
        dt.date(max(y, 1), mo, d)
    except ValueError:
        return False
    return True


_HEX = frozenset("0123456789abcdefABCDEF")
ZERO_UUID = "00000000-0000-0000-0000-000000000000"


def store_uuid(v: Any, text: str) -> tuple[Any, Problem | None]:
    """UUID: 32 hex digits, '-' allowed between them (MariaDB 10.7+), or 16 bytes; kept as
    the canonical lower-case 36-character text."""
    if isinstance(v, bytes) and len(v) == 16:
        digits = v.hex()
    else:
        digits = text.replace("-", "")
        if text[:1] == "-" or text[-1:] == "-" or "--" in text or len(digits) != 32 or \
                not _HEX.issuperset(digits):
            return ZERO_UUID, Problem(errors.ER_TRUNCATED_WRONG_VALUE, "uuid",
                                      _num_text(v) if isinstance(v, bytes) else text)
        digits = digits.lower()
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}", None


def _store_temporal(t: SqlType, v: Any, zero_date: bool = True,
                    zero_in_date: bool = True) -> tuple[Any, Problem | None]:
    name = t.name
    if name == "time":
        return _store_time(t, v)
    kind = "date" if name == "date" else "datetime"
    zero = "0000-00-00" if name == "date" else "0000-00-00 00:00:00" + (
        "." + "0" * t.fsp if t.fsp else "")
    if isinstance(v, dt.datetime):
        parts = (v.year, v.month, v.day, v.hour, v.minute, v.second, f"{v.microsecond:06d}")
    elif isinstance(v, dt.date):
        parts = (v.year, v.month, v.day, 0, 0, 0, "")
    elif isinstance(v, (int, Decimal, float)) and not isinstance(v, bool):
        if v == 0:
            return zero, None
        if isinstance(v, float):  # a DECIMAL SQLite holds as a double: its shortest digits
            if not math.isfinite(v):
                return zero, Problem(errors.ER_TRUNCATED_WRONG_VALUE, kind, str(v))
            v = Decimal(repr(v))
        if v < 0:
            return zero, Problem(errors.ER_TRUNCATED_WRONG_VALUE, kind, str(v))
        whole = int(v)
        frac = format(v - whole, "f").partition(".")[2] if isinstance(v, Decimal) else ""
        read = strtime.number_to_datetime(whole, int((frac + "000000")[:6]),
                                          zero_date=zero_date, zero_in_date=zero_in_date)
        if not read.ok:
            return zero, Problem(errors.ER_TRUNCATED_WRONG_VALUE, kind, str(v))
        return _read_temporal(t, read, str(v))
    elif isinstance(v, (str, bytes)):
        text = _num_text(v)
        read = strtime.str_to_datetime(text, zero_date=zero_date, zero_in_date=zero_in_date)
        number = _DECIMAL_TEXT.match(text) if not read.ok else None
        if number is not None:  # a DECIMAL held as its digits: read as the number it is
            read = strtime.number_to_datetime(
                int(number.group(1)), int(((number.group(2) or "") + "000000")[:6]),
                zero_date=zero_date, zero_in_date=zero_in_date)
        if not read.ok:
            return zero, Problem(errors.ER_TRUNCATED_WRONG_VALUE, kind, text)
        return _read_temporal(t, read, text)
    else:
        return zero, Problem(errors.ER_TRUNCATED_WRONG_VALUE, kind, str(v))
    y, mo, d, h, mi, s, frac = parts
    if not _valid_date(y, mo, d) or h > 23 or mi > 59 or s > 59 or y > 9999 or \
            not zero_date and y == mo == d == 0 or \
            not zero_in_date and (mo == 0 or d == 0) and not (y == mo == d == 0):
        return zero, Problem(errors.ER_TRUNCATED_WRONG_VALUE, kind, _temporal_shown(v))
    if name == "date":
        problem = None
        if h or mi or s or frac.strip("0"):
            problem = Problem(errors.WARN_DATA_TRUNCATED, note=True)
        return f"{y:04d}-{mo:02d}-{d:02d}", problem
    text = f"{y:04d}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}:{s:02d}"
    if t.fsp:
        text += "." + (frac + "000000")[:t.fsp]
    return text, None


_DECIMAL_TEXT = re.compile(r"\s*(\d+)\.(\d*)\s*$")


def _read_temporal(t: SqlType, r: strtime.Read, text: str) -> tuple[Any, Problem | None]:
    """A DATE / DATETIME read from text (strtime.py): text after the value is 1292 (1265 when
    not strict: dml.py) with the value kept, digits past the sixth a Note, and so is a DATE's
    time of day that is not 00:00:00."""
    kind = r.kind  # what was read: its name is in CAST's message (MariaDB)
    problem = None
    if r.warnings & strtime.TRUNCATED:
        problem = Problem(errors.ER_TRUNCATED_WRONG_VALUE, kind, text, cut="after")
    elif r.warnings & strtime.NOTE_TRUNCATED:
        problem = Problem(errors.WARN_DATA_TRUNCATED, kind, text, note=True, cut="digits")
    date = f"{r.year:04d}-{r.month:02d}-{r.day:02d}"
    if t.name == "date":
        if problem is None and (r.hour or r.minute or r.second):
            problem = Problem(errors.WARN_DATA_TRUNCATED, note=True)
        return date, problem
    stored = f"{date} {r.hour:02d}:{r.minute:02d}:{r.second:02d}"
    if t.fsp:
        stored += "." + f"{r.micro:06d}"[:t.fsp]
    return stored, problem


def temporal_shown(v: Any) -> str:
    """A value as MariaDB's temporal warnings quote it."""
    return _num_text(v) if isinstance(v, (str, bytes)) else _temporal_text(v)


_temporal_shown = temporal_shown


def _store_time(t: SqlType, v: Any) -> tuple[Any, Problem | None]:
    fsp = t.fsp
    problem = None
    if isinstance(v, dt.timedelta):
        td = v
    elif isinstance(v, dt.datetime):
        td = dt.timedelta(hours=v.hour, minutes=v.minute, seconds=v.second,
                          microseconds=v.microsecond)
    elif isinstance(v, dt.time):
        td = dt.timedelta(hours=v.hour, minutes=v.minute, seconds=v.second,
                          microseconds=v.microsecond)
    elif isinstance(v, (str, bytes)):
        return _read_time(t, strtime.str_to_time(_num_text(v)), _num_text(v))
    else:
        text = str(v)
        parsed = _parse_time(text)
        if parsed is None:
            dtp = parse_datetime(text)
            if dtp is None or dtp[1] > 12 or dtp[2] > 31:
                return _time_from_number(text, fsp)
            micro = int((dtp[6] + "000000")[:6]) if dtp[6].isdigit() else 0
            td = dt.timedelta(hours=dtp[3], minutes=dtp[4], seconds=dtp[5], microseconds=micro)
            if any(dtp[:3]):  # the date part is dropped: MariaDB notes it
                problem = Problem(errors.WARN_DATA_TRUNCATED, note=True)
        else:
            td = parsed
            if td is _BAD_TIME:
                return "00:00:00", Problem(errors.ER_TRUNCATED_WRONG_VALUE, "time", text)
    limit = dt.timedelta(hours=838, minutes=59, seconds=59)
    if abs(td) > limit + dt.timedelta(microseconds=999999):
        # MariaDB: out of range (1264), the value is TIME's end at the column's precision
        top = limit + dt.timedelta(microseconds=int("9" * fsp + "0" * (6 - fsp)) if fsp else 0)
        td = top if td > dt.timedelta(0) else -top
        return _timedelta_text(td, fsp), Problem(errors.ER_WARN_DATA_OUT_OF_RANGE, "time",
                                                 _temporal_shown(v))
    return _timedelta_text(td, fsp), problem


def _read_time(t: SqlType, r: strtime.Read, text: str) -> tuple[Any, Problem | None]:
    """A TIME read from text (strtime.py): the time of day of a date-time (a Note when its
    date is not zero), TIME's end past 838:59:59 (1264), text after it 1292 (1265 when not
    strict) with the value kept, digits past the sixth a Note."""
    if r.warnings & strtime.TRUNCATED and len(text.strip()) < 12:
        dtp = parse_datetime(text)  # '2001-01-01': a DATE handed over as text, its 00:00:00
        if dtp is not None and _valid_date(*dtp[:3]):
            return _timedelta_text(dt.timedelta(hours=dtp[3], minutes=dtp[4],
                                                seconds=dtp[5]), t.fsp), \
                Problem(errors.WARN_DATA_TRUNCATED, note=True) if any(dtp[:3]) else None
    if not r.ok:
        return "00:00:00", Problem(errors.ER_TRUNCATED_WRONG_VALUE, "time", text)
    us = ((r.hour * 60 + r.minute) * 60 + r.second) * 1_000_000 + r.micro
    problem = None
    if r.warnings & strtime.TRUNCATED:
        problem = Problem(errors.ER_TRUNCATED_WRONG_VALUE, "time", text, cut="after")
    elif r.warnings & strtime.NOTE_TRUNCATED:
        problem = Problem(errors.WARN_DATA_TRUNCATED, "time", text, note=True, cut="digits")
    elif r.kind != "time" and (r.year or r.month or r.day):
        problem = Problem(errors.WARN_DATA_TRUNCATED, note=True)  # the date part is dropped
    if r.warnings & strtime.OUT_OF_RANGE:
        top = ((838 * 60 + 59) * 60 + 59) * 1_000_000 + (int("9" * t.fsp) * 10 ** (
            6 - t.fsp) if t.fsp else 0)
        return _timedelta_text(dt.timedelta(microseconds=-top if r.neg else top), t.fsp), \
            Problem(errors.ER_WARN_DATA_OUT_OF_RANGE, "time", text)
    td = dt.timedelta(microseconds=-us if r.neg else us)
    return _timedelta_text(td, t.fsp), problem


def _time_from_number(text: str, fsp: int) -> tuple[Any, Problem | None]:
    """A string that is no time: its leading number read as [H]HMMSS.ff ('10.22.22' is
    00:00:10), 1292 (data truncated when not strict)."""
    m = _NUMBER.match(text)
    td = _parse_time(m.group(1)) if m else None
    if td is None or td is _BAD_TIME:
        return "00:00:00", Problem(errors.ER_TRUNCATED_WRONG_VALUE, "time", text)
    return _timedelta_text(td, fsp), Problem(errors.ER_TRUNCATED_WRONG_VALUE, "time", text)


_BAD_TIME = dt.timedelta(days=-999999)


def _parse_time(text: str) -> dt.timedelta | None:
    m = _TIME_RX.match(text)
    if not m:
        return None
    neg, days, a, b, c, frac = m.groups()
    if b is None and c is None:
        # HHMMSS / MMSS / SS as a number
        digits = a.rjust(6, "0")
        h, mi, s = int(digits[:-4]), int(digits[-4:-2]), int(digits[-2:])
    elif c is None:
        h, mi, s = int(a), int(b), 0
    else:
        h, mi, s = int(a), int(b), int(c)
    if mi > 59 or s > 59:
        return _BAD_TIME
    h += int(days or 0) * 24
    h = min(h, 10**7)  # past TIME's range (clamped by the caller), within timedelta's
    micro = int((frac or "0").ljust(6, "0")[:6])
    td = dt.timedelta(hours=h, minutes=mi, seconds=s, microseconds=micro)
    return -td if neg else td


def _datetime_loader(t: SqlType) -> Callable[[Any], Any]:
    fsp = t.fsp
    width = 19 + (fsp + 1 if fsp else 0)

    def load(v: Any) -> Any:
        if type(v) is str and len(v) == width:
            return v
        if v is None:
            return None
        stored, _p = _store_temporal(t, v)
        return stored
    return load


def _time_loader(t: SqlType) -> Callable[[Any], Any]:
    def load(v: Any) -> Any:
        if v is None:
            return None
        stored, _p = _store_time(t, v)
        return stored
    return load


# --- the two doors -----------------------------------------------------------------------------
def store(t: SqlType, v: Any, client: charsets.Charset = charsets.UTF8MB4, *,
          zero_date: bool = True, zero_in_date: bool = True) -> tuple[Any, Problem | None]:
    """One value for a column of type `t` -> (stored value, problem or None). `zero_date` and
    `zero_in_date` are off under sql_mode NO_ZERO_DATE / NO_ZERO_IN_DATE."""
    if v is None:
        return None, None
    n = t.name
    if t.is_integer:
        return _store_int(t, v)
    if n == "decimal":
        return _store_decimal(t, v)
    if n in ("float", "double"):
        return _store_float(t, v)
    if t.is_text:
        return _store_text(t, v, client)
    if t.is_binary_string:
        return _store_binary(t, v, client)
    if n in ("date", "datetime", "timestamp", "time"):
        return _store_temporal(t, v, zero_date, zero_in_date)
    if n == "year":
        return _store_year(t, v)
    if n == "bit":
        return _store_bit(t, v)
    if t.is_geometry:
        return _store_geometry(t, v, client)
    return v, None


def load(t: SqlType) -> Callable[[Any], Any] | None:
    """How stored values of type `t` go to the wire (see the module rules)."""
    n = t.name
    if t.is_integer:
        if t.zerofill:
            width = t.width or 0

            def zerofill(v: Any) -> Any:
                v = _load_int(v)
                return None if v is None else str(v).rjust(width, "0")
            return zerofill
        if n == "bigint" and t.unsigned:
            return _load_int  # values above 2^63-1 are stored as text (module rules)
        return None  # INTEGER affinity: SQLite gives ints back
    if n == "decimal":
        loader = decimal_loader(t.scale or 0)
        if t.zerofill:
            width = (t.width or 10) + (1 if t.scale else 0)

            def zero_dec(v: Any) -> Any:
                d = loader(v)
                return None if d is None else format(d, "f").rjust(width, "0")
            return zero_dec
        return loader
    if n in ("float", "double"):
        return _zerofill_float(t) if t.zerofill else _float_loader(t)
    if t.is_binary_string or t.is_geometry:
        return _load_binary
    if t.is_text:
        return _load_text
    if n in ("datetime", "timestamp"):
        return _datetime_loader(t)
    if n == "time":
        return _time_loader(t)
    if n == "bit":
        return _bit_loader(t)
    if n == "year":
        return _year_loader(t)
    if n == "date":
        return None
    return None


def _year_loader(t: SqlType) -> Callable[[Any], Any]:
    """YEAR shows four digits (0000 for zero), YEAR(2) two, as MariaDB sends them."""
    two = t.width == 2

    def load(v: Any) -> Any:
        if type(v) is not int:
            return v
        return f"{v % 100:02d}" if two else f"{v:04d}"
    return load


# Loaders that give some values back as they are: a row whose value has one of these types
# need not be copied to be loaded (dml.result_set). CHAR / VARCHAR / TEXT columns come back
# from SQLite as str (or NULL) nearly always.
PASSES: dict[Callable[[Any], Any], tuple[type, ...]] = {_load_text: (str, type(None))}


def _load_uint(v: Any) -> Any:
    """An unsigned 64-bit expression: SQLite computed it signed, so a negative is its
    two's complement (bit operations), and big stored values are text."""
    if type(v) is int:
        return v + (1 << 64) if v < 0 else v
    return _load_int(v)


def load_expression(t: SqlType) -> Callable[[Any], Any] | None:
    """How values of a computed column of type `t` go to the wire."""
    if t.is_integer:
        if t.unsigned:
            return _load_uint
        return _load_int
    if t.name in ("datetime", "timestamp", "time"):
        return None  # expressions give their own text
    if t.name == "decimal" and t.scale is None:
        return _load_decimal_as_given  # ROUND(d, n): the function gave the digits
    return load(t)


def _load_decimal_as_given(v: Any) -> Any:
    if v is None or isinstance(v, int):
        return v
    if isinstance(v, float):
        return Decimal(repr(v))
    if type(v) is str and v[:1] == BIG_UNSIGNED and v[1:].isdigit():
        return Decimal(v[1:])
    return Decimal(v) if isinstance(v, str) else v


def problem_error(p: Problem, column: str, row: int, table: tuple[str, str] | None = None
                  ) -> errors.ServerError:
    """The ServerError (or warning text) MariaDB gives for `p` on `column` at `row`."""
    return errors.ServerError(p.code, message=problem_message(p, column, row, table))


def problem_message(p: Problem, column: str, row: int,
                    table: tuple[str, str] | None = None) -> str:
    db, tbl = table or ("", "")
    if p.code == errors.ER_WARN_DATA_OUT_OF_RANGE:
        return f"Out of range value for column '{column}' at row {row}"
    if p.code == errors.WARN_DATA_TRUNCATED:
        return f"Data truncated for column '{column}' at row {row}"
    if p.code == errors.ER_DATA_TOO_LONG:
        return f"Data too long for column '{column}' at row {row}"
    if p.code == errors.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD:
        return (f"Incorrect {p.kind} value: '{p.shown[:128]}' for column `{db}`.`{tbl}`."
                f"`{column}` at row {row}")
    if p.code == errors.ER_TRUNCATED_WRONG_VALUE:
        return (f"Incorrect {p.kind} value: '{p.shown[:128]}' for column `{db}`.`{tbl}`."
                f"`{column}` at row {row}")
    if p.code == 4025:  # a JSON column's own CHECK: a column CHECK, named `table.column`
        return f"CONSTRAINT `{tbl}.{column}` failed for `{db}`.`{tbl}`"
    return errors.format_message(p.code)
