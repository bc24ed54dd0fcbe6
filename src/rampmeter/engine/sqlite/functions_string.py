"""MariaDB's string functions (the library, funclib.py): padding, slicing, searching, sets of
words, case, trimming, number formatting, encodings, digests, compression (regular
expressions: functions_regexp.py).

Rules:
- Text arrives as str (characters), binary strings as bytes; a result keeps the kind of the
  string it comes from (LPAD of a binary string is binary).
- Positions and lengths count characters of text and bytes of binary strings, 1-based, as
  MariaDB's; a count that is not a number reads as MariaDB reads it (LEFT('abc', '2x') is 2),
  and LEFT / RIGHT / SUBSTRING / REPEAT warn 1292 "Truncated incorrect INTEGER value" for it.
- Searches and comparisons of text (STRCMP, LOCATE, INSTR, FIELD, FIND_IN_SET, REGEXP) fold
  case and accents, as the default _ci collations do; binary strings compare bytes.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import re
import unicodedata
import zlib
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from rampmeter.engine import types as T
from rampmeter.engine.sqlite.funclib import _padded, sqlfunction
from rampmeter.engine.types import SqlType
from rampmeter.sql import charsets

INT = SqlType("int", 10)
TEXT = T.varchar(255)


def _same_kind(types: list[SqlType | None]) -> SqlType | None:
    first = types[0] if types else None
    if first is not None and first.is_binary_string:
        return T.varbinary(first.max_chars or 255)
    return T.varchar((first.max_chars if first is not None and first.is_text else None)
                     or 255, first.charset if first is not None and first.is_text and
                     first.charset else "utf8mb4")


def _text(v: Any) -> str:
    if isinstance(v, bytes):
        return v.decode("utf-8", "surrogateescape")
    if isinstance(v, float):
        return repr(v) if v != int(v) or abs(v) >= 1e15 else str(int(v))
    return str(v)


def _int(v: Any) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return int(Decimal(repr(v)).to_integral_value(ROUND_HALF_UP))
    text = v.decode("latin-1") if isinstance(v, bytes) else str(v)
    if text.startswith("~"):  # a big unsigned integer as SQLite holds it
        return int(text[1:])
    m = re.match(r"\s*([-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?)", text)
    if not m:
        return 0
    return int(Decimal(m.group(1)).to_integral_value(ROUND_HALF_UP))


def _count(host: Any, v: Any) -> int:
    """_int, warning as MariaDB's val_int() of a string that is not all number does."""
    if isinstance(v, (str, bytes)):
        text = v.decode("latin-1") if isinstance(v, bytes) else v
        if not re.fullmatch(r"\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*", text):
            host.warn(1292, f"Truncated incorrect INTEGER value: '{text}'")
    return _int(v)


def fold(s: str) -> str:
    """Text as a _general_ci collation compares it: no case, no accents."""
    if s.isascii():
        return s.upper()
    decomposed = unicodedata.normalize("NFD", s)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).upper()


def _key(v: Any) -> Any:
    return v if isinstance(v, bytes) else fold(_text(v))


def _piece(like: Any, text: str) -> Any:
    """`text` in the kind of `like` (bytes for a binary string)."""
    return text.encode("utf-8", "surrogateescape") if isinstance(like, bytes) else text


# --- padding, repeating, slicing -----------------------------------------------------------------
def _pad(s: Any, n: Any, pad: Any, left: bool) -> Any:
    if s is None or n is None or pad is None:
        return None
    length = _int(n)
    if length < 0:
        return None
    if isinstance(s, (int, float)):
        s = _text(s)
    if isinstance(pad, (int, float)):
        pad = _text(pad)
    if isinstance(s, bytes) != isinstance(pad, bytes):
        s, pad = (_text(s).encode("utf-8", "surrogateescape") if not isinstance(s, bytes)
                  else s), (pad if isinstance(pad, bytes) else
                            _text(pad).encode("utf-8", "surrogateescape"))
    if len(s) >= length:
        return s[:length]
    if not pad:
        return None
    fill = (pad * (length // len(pad) + 1))[:length - len(s)]
    return fill + s if left else s + fill


@sqlfunction("LPAD", (2, 3), _same_kind)
def lpad(s: Any, n: Any, pad: Any = " ") -> Any:
    return _pad(s, n, pad, True)


@sqlfunction("RPAD", (2, 3), _same_kind)
def rpad(s: Any, n: Any, pad: Any = " ") -> Any:
    return _pad(s, n, pad, False)


@sqlfunction("REPEAT", 2, _same_kind, host=True)
def repeat(host: Any, s: Any, n: Any) -> Any:
    if s is None or n is None:
        return None
    count = _count(host, n)
    if isinstance(s, (int, float)):
        s = _text(s)
    return s * count if count > 0 else s[:0]


@sqlfunction("SPACE", 1, TEXT)
def space(n: Any) -> Any:
    return None if n is None else " " * max(0, _int(n))


@sqlfunction("REVERSE", 1, _same_kind)
def reverse(s: Any) -> Any:
    if s is None:
        return None
    return s[::-1] if isinstance(s, bytes) else _text(s)[::-1]


def _chars(s: Any) -> Any:
    return s if isinstance(s, bytes) else _text(s)


@sqlfunction("LEFT", 2, _same_kind, host=True)
def left(host: Any, s: Any, n: Any) -> Any:
    if s is None or n is None:
        return None
    k = _count(host, n)
    return _chars(s)[:max(k, 0)]


@sqlfunction("RIGHT", 2, _same_kind, host=True)
def right(host: Any, s: Any, n: Any) -> Any:
    if s is None or n is None:
        return None
    k = _count(host, n)
    s = _chars(s)
    return s[len(s) - k:] if 0 < k < len(s) else (s if k > 0 else s[:0])


@sqlfunction("SUBSTRING", (2, 3), _same_kind, aliases=("SUBSTR", "MID"), host=True)
def substring(host: Any, s: Any, pos: Any, length: Any = None) -> Any:
    if s is None or pos is None:
        return None
    s = _chars(s)
    p = _count(host, pos)
    if p == 0 or abs(p) > len(s) and p < 0:
        return s[:0]
    start = p - 1 if p > 0 else len(s) + p
    if length is None:
        return s[start:]
    n = _count(host, length)
    return s[start:start + n] if n > 0 else s[:0]


@sqlfunction("SUBSTRING_INDEX", 3, _same_kind)
def substring_index(s: Any, delim: Any, count: Any) -> Any:
    if s is None or delim is None or count is None:
        return None
    s = _chars(s)
    d = delim if isinstance(s, bytes) and isinstance(delim, bytes) else \
        _piece(s, _text(delim))  # a number is its text: SUBSTRING_INDEX(111, 1, 1)
    if isinstance(s, bytes) and not isinstance(d, bytes):
        d = _text(d).encode()
    n = _int(count)
    if not d or n == 0:
        return s[:0]
    parts = s.split(d)
    return d.join(parts[:n]) if n > 0 else d.join(parts[n:])


@sqlfunction("INSERT", 4, _same_kind)
def insert(s: Any, pos: Any, length: Any, new: Any) -> Any:
    if s is None or pos is None or length is None or new is None:
        return None
    s = _chars(s)
    p, n = _int(pos), _int(length)
    if p < 1 or p > len(s):
        return s
    new = new if isinstance(s, bytes) and isinstance(new, bytes) else \
        _piece(s, _text(new))  # a number is its text: INSERT(1133, 3, 0, 22)
    end = len(s) if n < 0 or p - 1 + n > len(s) else p - 1 + n
    return s[:p - 1] + new + s[end:]


# --- searching ----------------------------------------------------------------------------------
@sqlfunction("LOCATE", (2, 3), INT, aliases=("POSITION",))
def locate(sub: Any, s: Any, pos: Any = 1, exact: Any = 0) -> Any:
    """`exact` (added by funcmap.py): the strings compare by a _bin collation."""
    if sub is None or s is None or pos is None:
        return None
    start = _int(pos)
    hay, needle = (_text(s), _text(sub)) if exact else (_key(s), _key(sub))
    if isinstance(hay, bytes) != isinstance(needle, bytes):
        hay, needle = fold(_text(s)), fold(_text(sub))
    if start < 1 or start > len(hay) + 1:
        return 0
    return hay.find(needle, start - 1) + 1


@sqlfunction("INSTR", 2, INT)
def instr(s: Any, sub: Any, exact: Any = 0) -> Any:
    return locate(sub, s, 1, exact)


@sqlfunction("STRCMP", 2, INT)
def strcmp(a: Any, b: Any, exact: Any = 0) -> Any:
    """`exact` (added by funcmap.py): the strings compare by a _bin collation, or the name of
    the collation an explicit COLLATE gave (its comparison, NO PAD included)."""
    if a is None or b is None:
        return None
    if isinstance(exact, str) and isinstance(a, str) and isinstance(b, str):
        from rampmeter.engine.sqlite.collations import named_comparison
        compare = named_comparison(exact)
        if compare is not None:
            return compare(a, b)
        exact = 1 if exact.endswith("_bin") else 0
    if isinstance(a, bytes) or isinstance(b, bytes):
        x = a if isinstance(a, bytes) else _text(a).encode()
        y = b if isinstance(b, bytes) else _text(b).encode()
    elif exact:
        return _padded(_text(a).rstrip(" "), _text(b).rstrip(" "))
    else:
        return _padded(fold(_text(a)).rstrip(" "), fold(_text(b)).rstrip(" "))
    return (x > y) - (x < y)


@sqlfunction("FIELD", (2, -1), INT)
def field(s: Any, *items: Any) -> Any:
    if s is None:
        return 0
    if isinstance(s, (int, float)) and all(isinstance(i, (int, float)) or i is None
                                          for i in items):
        for k, item in enumerate(items, 1):
            if item is not None and float(item) == float(s):
                return k
        return 0
    if isinstance(s, bytes) and all(isinstance(i, bytes) or i is None for i in items):
        return next((k for k, item in enumerate(items, 1) if item == s), 0)  # weights
    key = fold(_text(s))
    for k, item in enumerate(items, 1):
        if item is not None and fold(_text(item)) == key:
            return k
    return 0


@sqlfunction("FIND_IN_SET", 2, INT)
def find_in_set(s: Any, words: Any) -> Any:
    if s is None or words is None:
        return None
    # a binary argument compares bytes: FIND_IN_SET(BINARY 'a', 'A,B') is 0 (MariaDB)
    same = (lambda w: w) if isinstance(s, bytes) or isinstance(words, bytes) else fold
    key = same(_text(s))
    text = _text(words)
    if "," in key or not text:  # nothing is found in an empty list, not even ''
        return 0
    for k, word in enumerate(text.split(","), 1):
        if same(word) == key:
            return k
    return 0


@sqlfunction("ELT", (2, -1), TEXT)
def elt(n: Any, *items: Any) -> Any:
    if n is None:
        return None
    k = _int(n)
    return items[k - 1] if 1 <= k <= len(items) else None


@sqlfunction("MAKE_SET", (2, -1), TEXT)
def make_set(bits: Any, *items: Any) -> Any:
    if bits is None:
        return None
    b = _int(bits) & ((1 << 64) - 1)
    return ",".join(_text(item) for k, item in enumerate(items)
                    if b >> k & 1 and item is not None)


@sqlfunction("EXPORT_SET", (3, 5), TEXT)
def export_set(bits: Any, on: Any, off: Any, sep: Any = ",", count: Any = 64) -> Any:
    if bits is None or on is None or off is None or sep is None or count is None:
        return None
    b = _int(bits) & ((1 << 64) - 1)
    n = _int(count)
    n = 64 if n < 0 or n > 64 else n
    return _text(sep).join(_text(on) if b >> k & 1 else _text(off) for k in range(n))


# --- characters and codes ------------------------------------------------------------------------
@sqlfunction("ASCII", 1, INT)
def ascii_code(s: Any) -> Any:
    if s is None:
        return None
    data = s if isinstance(s, bytes) else _text(s).encode("latin-1", "ignore") or \
        _text(s).encode("utf-8", "surrogateescape")
    text = s if isinstance(s, bytes) else _text(s)
    if not text:
        return 0
    if isinstance(text, str) and ord(text[0]) > 255:
        return text[0].encode("utf-8")[0]
    return data[0] if data else 0


@sqlfunction("ORD", 1, INT)
def ord_code(s: Any) -> Any:
    if s is None:
        return None
    if isinstance(s, bytes):
        return s[0] if s else 0
    text = _text(s)
    if not text:
        return 0
    if ord(text[0]) < 256:
        return ord(text[0])
    return int.from_bytes(text[0].encode("utf-8"), "big")


@sqlfunction("CHAR", (2, -1), T.varbinary(255), host=True)
def char(host: Any, charset: Any, *codes: Any) -> Any:
    """CHAR(n, ... [USING cs]): the codes' bytes; in cs, NULL with warning 1300 when they are
    not valid there (MariaDB's Item_func_char). A surrogate of ucs2 / utf32, which MariaDB
    keeps, becomes '?' here (a lone surrogate cannot be stored), as it does once stored
    in a utf8mb4 column there."""
    data = b"".join(_code_bytes(_int(c)) for c in codes if c is not None)
    if charset:
        cs = charsets.charset(str(charset))
        if cs is not None and not cs.is_binary:
            if cs.name in ("ucs2", "utf32") and data:
                unit = 2 if cs.name == "ucs2" else 4
                data = bytes(-len(data) % unit) + data
                data = b"".join(
                    "?".encode(cs.codec) if 0xD800 <= int.from_bytes(
                        data[i:i + unit], "big") <= 0xDFFF else data[i:i + unit]
                    for i in range(0, len(data), unit))
            text = cs.decode(data)
            if not charsets.is_valid(text) or cs.name == "utf32" and any(
                    int.from_bytes(data[i:i + 4], "big") > 0x10FFFF
                    for i in range(0, len(data), 4)):
                host.warn(1300, f"Invalid {cs.name} character string: "
                          f"'{data[:3].hex().upper()}'")
                return None
            return text
    return data


def _code_bytes(n: int) -> bytes:
    n &= 0xFFFFFFFF
    out = b""
    while True:
        out = bytes([n & 0xFF]) + out
        n >>= 8
        if not n:
            return out


@sqlfunction("CONV", 3, TEXT)
def conv(v: Any, src: Any, dst: Any) -> Any:
    if v is None or src is None or dst is None:
        return None
    fb, tb = _int(src), _int(dst)
    if not (2 <= abs(fb) <= 36 and 2 <= abs(tb) <= 36):
        return None
    text = _text(v).strip()
    m = re.match(r"-?[0-9a-zA-Z]*", text)
    digits = m.group(0) if m else ""
    negative = digits.startswith("-")
    value = 0
    for ch in digits.lstrip("-"):
        d = int(ch, 36)
        if d >= abs(fb):
            break
        value = value * abs(fb) + d
    value = min(value, (1 << 64) - 1)
    if negative:
        value = -value
    if tb > 0 and value < 0:
        value &= (1 << 64) - 1
    return _to_base(value, abs(tb))


def _to_base(n: int, base: int) -> str:
    if n == 0:
        return "0"
    sign = "-" if n < 0 else ""
    n = abs(n)
    out = []
    while n:
        n, r = divmod(n, base)
        out.append("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[r])
    return sign + "".join(reversed(out))


@sqlfunction("BIN", 1, TEXT)
def bin_text(v: Any) -> Any:
    return None if v is None else conv(_int(v) if not isinstance(v, (str, bytes)) else v, 10, 2)


@sqlfunction("OCT", 1, TEXT)
def oct_text(v: Any) -> Any:
    return None if v is None else conv(_int(v) if not isinstance(v, (str, bytes)) else v, 10, 8)


@functools.cache
def _simple_upper(c: str) -> str:
    """One character's simple case mapping, as MariaDB's collations map case character by
    character: 'ß' stays 'ß' (Python's full mapping makes 'SS'), 'ﬁ' stays 'ﬁ'."""
    up = c.upper()
    return up if len(up) == 1 else c


@functools.cache
def _simple_lower(c: str) -> str:
    low = c.lower()
    return low if len(low) == 1 else low[0]  # 'İ' -> 'i' (the full mapping adds a dot)


@sqlfunction("LOWER", 1, _same_kind, aliases=("LCASE",))
def lower(s: Any) -> Any:
    if s is None or isinstance(s, bytes):
        return s
    text = _text(s)
    return text.lower() if text.isascii() else "".join(map(_simple_lower, text))


@sqlfunction("UPPER", 1, _same_kind, aliases=("UCASE",))
def upper(s: Any) -> Any:
    if s is None or isinstance(s, bytes):
        return s
    text = _text(s)
    return text.upper() if text.isascii() else "".join(map(_simple_upper, text))


@sqlfunction("TRIM", 3, _same_kind)
def trim(s: Any, remove: Any, position: Any) -> Any:
    if s is None or remove is None:
        return None
    s = _chars(s)
    r = remove if isinstance(remove, bytes) == isinstance(s, bytes) else _piece(s, _text(remove))
    if not r:
        return s
    where = str(position).upper()
    if where in ("BOTH", "LEADING"):
        while s.startswith(r):
            s = s[len(r):]
    if where in ("BOTH", "TRAILING"):
        while s.endswith(r) and s:
            s = s[:-len(r)]
    return s


@sqlfunction("QUOTE", 1, TEXT)
def quote(s: Any) -> Any:
    if s is None:
        return "NULL"
    text = _text(s)
    for a, b in (("\\", "\\\\"), ("'", "\\'"), ("\0", "\\0"), ("\x1a", "\\Z")):
        text = text.replace(a, b)
    return f"'{text}'"


@sqlfunction("SOUNDEX", 1, TEXT)
def soundex(s: Any) -> Any:
    if s is None:
        return None
    codes = {**dict.fromkeys("BFPV", "1"), **dict.fromkeys("CGJKQSXZ", "2"),
             **dict.fromkeys("DT", "3"), "L": "4", **dict.fromkeys("MN", "5"), "R": "6"}
    letters = [c for c in fold(_text(s)) if c.isalpha()]
    if not letters:
        return ""
    out = [letters[0]]
    last = codes.get(letters[0], "")
    for c in letters[1:]:
        code = codes.get(c, "")
        if code and code != last:
            out.append(code)
        if c not in "HW":
            last = code
    return "".join(out).ljust(4, "0")


@sqlfunction("FORMAT", (2, 3), TEXT)
def format_number(v: Any, places: Any, locale: Any = None) -> Any:
    if v is None or places is None:
        return None
    d = max(0, min(_int(places), 38))
    try:
        number = Decimal(repr(v)) if isinstance(v, float) else Decimal(_text(v).strip() or 0)
    except InvalidOperation:
        number = Decimal(_int(v))
    q = number.quantize(Decimal(1).scaleb(-d), ROUND_HALF_UP)
    whole, _, frac = f"{abs(q):f}".partition(".")
    groups = f"{int(whole):,}"
    thousands, point = (".", ",") if locale is not None and _text(locale)[:2] in (
        "de", "it", "es", "nl", "pt", "da", "id", "tr") else (",", ".")
    text = groups.replace(",", thousands) + (point + frac if d else "")
    return ("-" if q < 0 else "") + text


# --- encodings and digests ---------------------------------------------------------------------
def _data(v: Any) -> bytes:
    if isinstance(v, bytes):
        return v
    return _text(v).encode("utf-8", "surrogateescape")


@sqlfunction("CRC32", 1, SqlType("int", 10, unsigned=True))
def crc32(v: Any) -> Any:
    return None if v is None else zlib.crc32(_data(v)) & 0xFFFFFFFF


@sqlfunction("SHA1", 1, T.varchar(40), aliases=("SHA",))
def sha1(v: Any) -> Any:
    return None if v is None else hashlib.sha1(_data(v)).hexdigest()


@sqlfunction("SHA2", 2, T.varchar(128))
def sha2(v: Any, bits: Any) -> Any:
    if v is None or bits is None:
        return None
    name = {0: "sha256", 224: "sha224", 256: "sha256", 384: "sha384", 512: "sha512"}.get(
        _int(bits))
    return None if name is None else hashlib.new(name, _data(v)).hexdigest()


@sqlfunction("TO_BASE64", 1, TEXT)
def to_base64(v: Any) -> Any:
    if v is None:
        return None
    text = base64.b64encode(_data(v)).decode("ascii")
    return "\n".join(text[i:i + 76] for i in range(0, len(text), 76))


@sqlfunction("FROM_BASE64", 1, T.varbinary(255))
def from_base64(v: Any) -> Any:
    if v is None:
        return None
    try:
        return base64.b64decode(re.sub(rb"\s", b"", _data(v)), validate=True)
    except (binascii.Error, ValueError):
        return None


@sqlfunction("COMPRESS", 1, T.varbinary(255))
def compress(v: Any) -> Any:
    if v is None:
        return None
    data = _data(v)
    if not data:
        return b""
    out = len(data).to_bytes(4, "little") + zlib.compress(data)
    return out + b"." if out.endswith(b" ") else out


# MariaDB's zlib warnings (Item_func_uncompress::val_str): ER_ZLIB_Z_DATA_ERROR, ..._BUF_ERROR
_ZLIB_DATA = (1259, "ZLIB: Input data corrupted")
_ZLIB_BUF = (1258, "ZLIB: Not enough room in the output buffer (probably, length of "
             "uncompressed data was corrupted)")


@sqlfunction("UNCOMPRESS", 1, T.varbinary(255), host=True)
def uncompress(host: Any, v: Any) -> Any:
    """NULL with MariaDB's warning for what is not COMPRESS's output: 4 bytes or fewer, or
    corrupted data (1259), a stated length past max_allowed_packet (1256) or one too short
    for the data (1258)."""
    if v is None:
        return None
    data = _data(v)
    if not data:
        return b""
    if len(data) <= 4:
        host.warn(*_ZLIB_DATA)
        return None
    size = int.from_bytes(data[:4], "little") & 0x3FFFFFFF
    limit = int(host.context.system_variable("max_allowed_packet"))
    if size > limit:
        host.warn(1256, f"Uncompressed data size too large; the maximum size is {limit} "
                        "(probably, length of uncompressed data was corrupted)")
        return None
    try:
        z = zlib.decompressobj()
        out = z.decompress(data[4:], size) if size else z.decompress(data[4:], 1)
        if len(out) > size or z.unconsumed_tail or not z.eof and len(out) == size:
            host.warn(*_ZLIB_BUF)
            return None
        if not z.eof:
            host.warn(*_ZLIB_DATA)
            return None
        return out
    except zlib.error:
        host.warn(*_ZLIB_DATA)
        return None


@sqlfunction("UNCOMPRESSED_LENGTH", 1, INT, host=True)
def uncompressed_length(host: Any, v: Any) -> Any:
    if v is None:
        return None
    data = _data(v)
    if not data:
        return 0
    if len(data) <= 4:  # too short to be compressed: MariaDB's warning, NULL
        host.warn(*_ZLIB_DATA)
        return None
    return int.from_bytes(data[:4], "little") & 0x3FFFFFFF
