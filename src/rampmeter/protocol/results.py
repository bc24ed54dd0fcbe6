"""Values on the wire: result rows in the text and the binary protocol, and the binary-protocol
parameter values of COM_STMT_EXECUTE.

Rules:
- Rows are written straight into one bytearray, a packet header reserved and patched per row
  (framing.close_packet), so a batch of rows costs one buffer. The text encoder is the hot path
  of every SELECT: the common types (None, str, int, float) are tested inline, the rest go
  through a dict from type to encoder.
- Text values (MariaDB 10.11 / MySQL 8.0 output): NULL is 0xFB; bool 1/0; int in decimal;
  float as mysqld's my_gcvt (shortest round-trip digits, exponent without '+' or zero padding);
  Decimal in plain notation; str as UTF-8; bytes raw; datetime 'YYYY-MM-DD HH:MM:SS[.ffffff]'
  (fraction only when non-zero); date 'YYYY-MM-DD'; time/timedelta '[-]HH:MM:SS[.ffffff]'
  (hours may exceed 24).
- Binary rows (MySQL protocol docs, "Binary Protocol Resultset Row"): 0x00, a NULL bitmap with
  an offset of 2 bits, then each non-NULL value encoded per its *column's* type. A value of
  another Python type is converted to the column's type (a "5" in a LONGLONG column is 5, an
  int in a VAR_STRING column its text); integers out of the column's range are clamped.
- Parameters (MySQL protocol docs, "Binary Protocol Value"): decoded per the type the client
  bound: ints (unsigned honoured), float, str for DECIMAL and string types, bytes for BLOB/BIT/
  GEOMETRY, datetime/date/timedelta for temporal types. A date with a zero year, month or day
  (not representable in Python) is passed as its text, '0000-00-00'.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import struct
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from rampmeter.protocol.columns import Column
from rampmeter.protocol.constants import ColumnType
from rampmeter.protocol.framing import close_packet
from rampmeter.protocol.wire import Reader, lenenc_int

Encoder = Callable[[Any], bytes]


# --- text values ------------------------------------------------------------------------------
def format_float(x: float) -> str:
    """A double as mysqld prints it (strings/dtoa.c my_gcvt with a wide field): the shortest
    digits that round-trip; 'f' notation when the decimal exponent `decpt` (value =
    0.DIGITS * 10**decpt) is in [-14, 15], or above 15 with digits after the point
    (MAX_DECPT_FOR_F_FORMAT = DBL_DIG = 15); otherwise 'e' notation like 1e20 or 1.5e-16."""
    r = repr(x)
    if -1e15 < x < 1e15 and "e" not in r:  # Python prints it in 'f' notation, and so does mysqld
        return r[:-2] if r.endswith(".0") else r
    if math.isnan(x) or math.isinf(x):
        return r  # mysqld never stores these; say what the value is rather than invent one
    sign = "-" if x < 0 else ""
    t = Decimal(repr(abs(x))).as_tuple()
    digits = "".join(map(str, t.digits)).rstrip("0") or "0"
    decpt = len(t.digits) + int(t.exponent)
    n = len(digits)
    if -14 <= decpt and (decpt <= 15 or n > decpt):
        if decpt <= 0:
            return f"{sign}0.{'0' * -decpt}{digits}"
        if decpt >= n:
            return sign + digits + "0" * (decpt - n)
        return f"{sign}{digits[:decpt]}.{digits[decpt:]}"
    mantissa = digits[0] + ("." + digits[1:] if n > 1 else "")
    return f"{sign}{mantissa}e{decpt - 1}"


def _time_text(sign: str, hours: int, minutes: int, seconds: int, micro: int) -> bytes:
    text = f"{sign}{hours:02d}:{minutes:02d}:{seconds:02d}"
    if micro:
        text += f".{micro:06d}"
    return text.encode("ascii")


def _timedelta_text(v: dt.timedelta) -> bytes:
    us = (v.days * 86400 + v.seconds) * 1_000_000 + v.microseconds
    sign = "-" if us < 0 else ""
    secs, micro = divmod(abs(us), 1_000_000)
    hours, rem = divmod(secs, 3600)
    return _time_text(sign, hours, rem // 60, rem % 60, micro)


def _datetime_text(v: dt.datetime) -> bytes:
    if v.tzinfo is not None:
        v = v.replace(tzinfo=None)
    return v.isoformat(" ").encode("ascii")


def _time_of_day_text(v: dt.time) -> bytes:
    return _time_text("", v.hour, v.minute, v.second, v.microsecond)


_TEXT: dict[type, Encoder] = {
    bool: lambda v: b"1" if v else b"0",
    float: lambda v: format_float(v).encode("ascii"),
    Decimal: lambda v: format(v, "f").encode("ascii"),
    bytes: lambda v: v,
    bytearray: bytes,
    memoryview: bytes,
    dt.datetime: _datetime_text,
    dt.date: lambda v: v.isoformat().encode("ascii"),
    dt.time: _time_of_day_text,
    dt.timedelta: _timedelta_text,
}


def text_value(v: Any) -> bytes:
    """One non-NULL value in text-protocol form (without its length prefix)."""
    t = type(v)
    if t is str:
        return v.encode("utf-8", "surrogateescape")
    if t is int:
        return b"%d" % v
    encoder = _TEXT.get(t)
    if encoder is not None:
        return encoder(v)
    for base, enc in _TEXT_BASES:  # subclasses: IntEnum, str subclasses, pendulum datetimes...
        if isinstance(v, base):
            return enc(v)
    return str(v).encode("utf-8", "surrogateescape")


_TEXT_BASES: tuple[tuple[type, Encoder], ...] = (
    (bool, _TEXT[bool]),
    (int, lambda v: b"%d" % int(v)),
    (float, lambda v: _TEXT[float](float(v))),
    (str, lambda v: str(v).encode("utf-8", "surrogateescape")),
    (Decimal, _TEXT[Decimal]),
    (bytes, bytes), (bytearray, bytes), (memoryview, bytes),
    (dt.datetime, _datetime_text),  # before date: datetime is a date subclass
    (dt.date, _TEXT[dt.date]),
    (dt.time, _time_of_day_text),
    (dt.timedelta, _timedelta_text),
)


def text_rows_into(out: bytearray, rows: Iterable[Sequence[Any]], seq: int) -> int:
    """Append one text-protocol row packet per row; return the next sequence id."""
    encoders = _TEXT
    for row in rows:
        start = len(out)
        out += b"\0\0\0\0"
        for v in row:
            if v is None:
                out.append(0xFB)
                continue
            t = type(v)
            if t is str:
                try:
                    b = v.encode()
                except UnicodeEncodeError:  # lone surrogates from surrogateescape decoding
                    b = v.encode("utf-8", "surrogateescape")
            elif t is int:
                b = b"%d" % v
            else:
                enc = encoders.get(t)
                b = enc(v) if enc is not None else text_value(v)
            n = len(b)
            if n < 251:
                out.append(n)
            else:
                out += lenenc_int(n)
            out += b
        seq = close_packet(out, start, seq)
    return seq


# --- conversions for binary columns -----------------------------------------------------------
def _to_int(v: Any) -> int:
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return round(v) if math.isfinite(v) else 0
    if isinstance(v, Decimal):
        return int(v.to_integral_value()) if v.is_finite() else 0
    if isinstance(v, bytes | bytearray | memoryview):
        v = bytes(v).decode("latin-1")
    if isinstance(v, str):
        try:
            return int(v.strip())
        except ValueError:
            try:
                return _to_int(Decimal(v.strip()))
            except InvalidOperation:
                return 0
    return 0


def _to_float(v: Any) -> float:
    if isinstance(v, float):
        return v
    if isinstance(v, bytes | bytearray | memoryview):
        v = bytes(v).decode("latin-1")
    try:
        return float(v)
    except (TypeError, ValueError):
        return 0.0


def _to_datetime(v: Any) -> dt.datetime | None:
    """None means the zero date ('0000-00-00 00:00:00'), sent as length 0."""
    if isinstance(v, dt.datetime):
        return v
    if isinstance(v, dt.date):
        return dt.datetime(v.year, v.month, v.day)
    if isinstance(v, bytes | bytearray | memoryview):
        v = bytes(v).decode("latin-1")
    if isinstance(v, str):
        try:
            return dt.datetime.fromisoformat(v.strip())
        except ValueError:
            return None
    return None


def _to_timedelta(v: Any) -> dt.timedelta:
    if isinstance(v, dt.timedelta):
        return v
    if isinstance(v, dt.datetime):
        v = v.time()
    if isinstance(v, dt.time):
        return dt.timedelta(hours=v.hour, minutes=v.minute, seconds=v.second,
                            microseconds=v.microsecond)
    if isinstance(v, bytes | bytearray | memoryview):
        v = bytes(v).decode("latin-1")
    if isinstance(v, str):
        return _parse_time_text(v.strip())
    return dt.timedelta(0)


def _parse_time_text(text: str) -> dt.timedelta:
    """'[-][D ]HH:MM:SS[.ffffff]' (MySQL TIME text); anything else is 00:00:00."""
    neg = text.startswith("-")
    text = text.lstrip("-")
    days = 0
    if " " in text:
        day_text, text = text.split(" ", 1)
        days = int(day_text) if day_text.isdigit() else 0
    try:
        hms, _, frac = text.partition(".")
        h, m, s = (int(p) for p in hms.split(":"))
        micro = int((frac + "000000")[:6]) if frac else 0
    except ValueError:
        return dt.timedelta(0)
    td = dt.timedelta(days=days, hours=h, minutes=m, seconds=s, microseconds=micro)
    return -td if neg else td


# --- binary encoders --------------------------------------------------------------------------
_DT11 = struct.Struct("<BHBBBBBI")
_DT7 = struct.Struct("<BHBBBBB")
_D4 = struct.Struct("<BHBB")
_T12 = struct.Struct("<BBIBBBI")
_T8 = struct.Struct("<BBIBBB")


def _int_encoder(size: int, unsigned: bool) -> Encoder:
    fmt = {1: "b", 2: "h", 4: "i", 8: "q"}[size]
    pack = struct.Struct("<" + (fmt.upper() if unsigned else fmt)).pack
    bits = 8 * size
    lo, hi = (0, (1 << bits) - 1) if unsigned else (-(1 << bits - 1), (1 << bits - 1) - 1)

    def encode(v: Any) -> bytes:
        if type(v) is not int:
            v = _to_int(v)
        return pack(lo if v < lo else hi if v > hi else v)
    return encode


def _float_encoder(fmt: str) -> Encoder:
    pack = struct.Struct(fmt).pack

    def encode(v: Any) -> bytes:
        if type(v) is not float:
            v = _to_float(v)
        try:
            return pack(v)
        except OverflowError:  # a double too large for a FLOAT column
            return pack(math.copysign(math.inf, v))
    return encode


def _datetime_bytes(v: dt.datetime | None, date_only: bool) -> bytes:
    """Binary DATE/DATETIME/TIMESTAMP: length 0 (zero date), 4 (date), 7 (+ time), 11 (+ us)."""
    if v is None:
        return b"\x00"
    if date_only:
        return _D4.pack(4, v.year, v.month, v.day)
    if v.microsecond:
        return _DT11.pack(11, v.year, v.month, v.day, v.hour, v.minute, v.second, v.microsecond)
    if v.hour or v.minute or v.second:
        return _DT7.pack(7, v.year, v.month, v.day, v.hour, v.minute, v.second)
    return _D4.pack(4, v.year, v.month, v.day)


def encode_binary_time(v: Any) -> bytes:
    """Binary TIME: length 0 (00:00:00), 8 (sign, days int<4>, h, m, s), 12 (+ microseconds)."""
    td = _to_timedelta(v)
    neg = td < dt.timedelta(0)
    if neg:
        td = -td
    hours, rem = divmod(td.seconds, 3600)
    if not (td.days or td.seconds or td.microseconds):
        return b"\x00"
    if td.microseconds:
        return _T12.pack(12, neg, td.days, hours, rem // 60, rem % 60, td.microseconds)
    return _T8.pack(8, neg, td.days, hours, rem // 60, rem % 60)


def _lenenc_text(v: Any) -> bytes:
    b = text_value(v)
    return (bytes((len(b),)) if len(b) < 251 else lenenc_int(len(b))) + b


_INT_SIZES = {ColumnType.TINY: 1, ColumnType.SHORT: 2, ColumnType.YEAR: 2, ColumnType.LONG: 4,
              ColumnType.INT24: 4, ColumnType.LONGLONG: 8}


@functools.lru_cache(maxsize=4096)
def binary_encoder(col: Column) -> Encoder | None:
    """The value encoder for one column; None for a NULL-typed column (always sent as NULL).
    Cached: prepared statements send the same columns on every execution."""
    t = col.type
    if t in _INT_SIZES:
        return _int_encoder(_INT_SIZES[t], col.unsigned)
    if t == ColumnType.DOUBLE:
        return _float_encoder("<d")
    if t == ColumnType.FLOAT:
        return _float_encoder("<f")
    if t in (ColumnType.DATETIME, ColumnType.TIMESTAMP):
        return lambda v: _datetime_bytes(_to_datetime(v), False)
    if t in (ColumnType.DATE, ColumnType.NEWDATE):
        return lambda v: _datetime_bytes(_to_datetime(v), True)
    if t == ColumnType.TIME:
        return encode_binary_time
    if t == ColumnType.NULL:
        return None
    return _lenenc_text  # strings, blobs, DECIMAL, BIT, ENUM, SET, JSON, GEOMETRY


def binary_rows_into(out: bytearray, rows: Iterable[Sequence[Any]],
                     encoders: Sequence[Encoder | None], seq: int) -> int:
    """Append one binary-protocol row packet per row; return the next sequence id."""
    bitmap_len = (len(encoders) + 7 + 2) // 8
    zero_bitmap = bytes(bitmap_len)
    for row in rows:
        start = len(out)
        out += b"\0\0\0\0\0"  # header placeholder + the row's 0x00 marker
        bitmap = start + 5
        out += zero_bitmap
        for i, (v, enc) in enumerate(zip(row, encoders)):
            if v is None or enc is None:
                out[bitmap + ((i + 2) >> 3)] |= 1 << ((i + 2) & 7)
            else:
                out += enc(v)
        seq = close_packet(out, start, seq)
    return seq


# --- parameters (COM_STMT_EXECUTE) -------------------------------------------------------------
BYTES_TYPES = frozenset({
    ColumnType.TINY_BLOB, ColumnType.MEDIUM_BLOB, ColumnType.LONG_BLOB, ColumnType.BLOB,
    ColumnType.BIT, ColumnType.GEOMETRY})
_PARAM_INTS: dict[int, tuple[struct.Struct, struct.Struct]] = {
    # type: (signed struct, unsigned struct)
    ColumnType.TINY: (struct.Struct("<b"), struct.Struct("<B")),
    ColumnType.SHORT: (struct.Struct("<h"), struct.Struct("<H")),
    ColumnType.YEAR: (struct.Struct("<h"), struct.Struct("<H")),
    ColumnType.LONG: (struct.Struct("<i"), struct.Struct("<I")),
    ColumnType.INT24: (struct.Struct("<i"), struct.Struct("<I")),
    ColumnType.LONGLONG: (struct.Struct("<q"), struct.Struct("<Q")),
}
_DOUBLE = struct.Struct("<d")
_FLOAT = struct.Struct("<f")


def _zero_date_text(y: int, mo: int, d: int, tail: str) -> str:
    return f"{y:04d}-{mo:02d}-{d:02d}{tail}"


def _decode_datetime(r: Reader, date_only: bool) -> Any:
    n = r.u8()
    if n not in (0, 4, 7, 11):
        raise r.fail(f"bad temporal parameter length {n}")
    y = mo = d = h = mi = s = us = 0
    if n >= 4:
        y, mo, d = r.u16(), r.u8(), r.u8()
    if n >= 7:
        h, mi, s = r.u8(), r.u8(), r.u8()
    if n == 11:
        us = r.u32()
    try:
        if date_only:
            return dt.date(y, mo, d)
        return dt.datetime(y, mo, d, h, mi, s, us)
    except ValueError:
        tail = "" if date_only else f" {h:02d}:{mi:02d}:{s:02d}" + (f".{us:06d}" if us else "")
        return _zero_date_text(y, mo, d, tail)


def _decode_time(r: Reader) -> dt.timedelta:
    n = r.u8()
    if n not in (0, 8, 12):
        raise r.fail(f"bad TIME parameter length {n}")
    if n == 0:
        return dt.timedelta(0)
    neg, days, h, m, s = r.u8(), r.u32(), r.u8(), r.u8(), r.u8()
    us = r.u32() if n == 12 else 0
    td = dt.timedelta(days=days, hours=h, minutes=m, seconds=s, microseconds=us)
    return -td if neg else td


def decode_binary_value(r: Reader, type_code: int, unsigned: bool,
                        codec: str = "utf-8") -> Any:
    """One non-NULL parameter value of the given MYSQL_TYPE_* code."""
    ints = _PARAM_INTS.get(type_code)
    if ints is not None:
        return r.unpack(ints[1] if unsigned else ints[0])[0]
    if type_code == ColumnType.DOUBLE:
        return r.unpack(_DOUBLE)[0]
    if type_code == ColumnType.FLOAT:
        return r.unpack(_FLOAT)[0]
    if type_code in (ColumnType.DATETIME, ColumnType.TIMESTAMP):
        return _decode_datetime(r, False)
    if type_code in (ColumnType.DATE, ColumnType.NEWDATE):
        return _decode_datetime(r, True)
    if type_code == ColumnType.TIME:
        return _decode_time(r)
    if type_code == ColumnType.NULL:
        return None
    raw = r.lenenc_bytes()
    if type_code in BYTES_TYPES:
        return raw
    return _text(raw, codec)  # string types, DECIMAL, and unknown types


def _text(raw: bytes, codec: str) -> str | bytes:
    """A string parameter in the client's character set; bytes not valid in it are kept as the
    bytes they are (MariaDB keeps them too: HEX(?) shows them, a text column refuses them)."""
    try:
        return raw.decode(codec)
    except UnicodeDecodeError:
        return raw


def long_data_value(data: bytes, type_code: int, codec: str = "utf-8") -> Any:
    """A parameter sent with COM_STMT_SEND_LONG_DATA: bytes for BLOB types, else text (mysqld
    converts long data as a string whatever the bound type)."""
    if type_code in BYTES_TYPES:
        return data
    return _text(data, codec)
