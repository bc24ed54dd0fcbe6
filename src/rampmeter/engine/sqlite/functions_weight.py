"""WEIGHT_STRING(str [AS CHAR(n) | AS BINARY(n)]): the bytes a collation sorts a string by
(MariaDB's strnxfrm, item_strfunc.cc Item_func_weight_string). translate (funcmap.py) passes
the argument's collation, read from its type, and the AS clause.

Rules (MariaDB 10.11's, for the collations computed here):
- binary strings and `_bin` collations of single-byte character sets: the bytes themselves.
- latin1's case-insensitive collations: one byte per character, the character upper-cased
  (exact for ASCII; other letters upper-cased within latin1).
- utf8mb3 / utf8mb4 `_general_ci`: two bytes per character, big-endian: the character
  upper-cased with its accents removed (general_ci's sort weights); a character outside the
  BMP weighs 0xFFFD. utf8mb4_bin: three bytes per character (the code point); utf8mb3_bin:
  two. 8-bit collations with a sort order of their own (collation_tables.py): one byte per
  character, that table's weight. cp932, sjis, ujis, eucjpms and euckr: an ASCII letter
  upper-cased, any other character its bytes (my_strnxfrm_mb). The root UCA collations
  (`_unicode_ci`, `_unicode_520_ci`, their `_nopad_` twins): their primary weights, two bytes
  each (sql/uca.py; a NO PAD one pads AS CHAR(n) with 0x0200). Any other collation is
  weighed as utf8mb4_general_ci (a
  known difference, in docs/sql.md).
- The weights cover the string as it is (trailing spaces included); `AS CHAR(n)` first cuts
  it to n characters or pads it with spaces to n (a `_nopad_` collation pads the weights
  with 0x00 instead); `AS BINARY(n)` takes its bytes cut or
  padded with 0x00 to n and returns them.
- LEVEL n: these collations have one level; DESC inverts each byte, REVERSE reverses the
  weights' bytes (both: reversed, then inverted).
- A number is NULL (MariaDB weighs only strings); NULL is NULL. A result past
  max_allowed_packet is NULL with warning 1301.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from rampmeter.engine import types as T
from rampmeter.engine.sqlite.funclib import sqlfunction
from rampmeter.engine.sqlite.infer import charset_of
from rampmeter.engine.types import SqlType
from rampmeter.sql import charsets, uca


def _bytes(value: Any, charset: str) -> bytes:
    if isinstance(value, bytes):
        return value
    cs = charsets.charset(charset)
    if cs is not None and cs.codec and not cs.is_binary and cs.name not in _UNICODE:
        return cs.encode(str(value))
    codec = {"binary": "latin-1"}.get(charset, "utf-8")
    return str(value).encode(codec, "replace")


_UNICODE = ("utf8mb3", "utf8mb4", "ucs2", "utf16", "utf16le", "utf32")


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _general(ch: str) -> int:
    if ord(ch) > 0xFFFF:
        return 0xFFFD
    base = unicodedata.normalize("NFD", ch)[:1] or ch
    upper = base.upper()
    return ord(upper) if len(upper) == 1 and ord(upper) <= 0xFFFF else ord(base)


def _weights(text: str, raw: bytes, charset: str, collation: str) -> bytes:
    if charset == "binary":
        return raw
    if collation.endswith("_bin"):
        if charset == "utf8mb4":
            return b"".join(ord(c).to_bytes(3, "big") for c in text)
        if charset in ("utf8mb3", "utf8", "ucs2"):
            return b"".join(min(ord(c), 0xFFFD).to_bytes(2, "big") for c in text)
        return raw
    version = uca.version_of(collation) if charset in _UNICODE else None
    if version is not None:  # utf8mb4_unicode_ci & co.: the UCA primary weights (sql/uca.py)
        return b"".join(w.to_bytes(2, "big") for w in uca.weights(text, version))
    table_key = _table_key(charset, collation)
    if table_key is not None:  # an 8-bit collation with MariaDB's own sort order
        return table_key(text)
    if charset in _MB_ASCII_UPPER:  # MariaDB's my_strnxfrm_mb
        return b"".join(_mb_weight(c, charset) for c in text)
    if charset == "latin1":
        out = bytearray()
        for c in text:
            up = c.upper()
            try:
                out += (up if len(up) == 1 else c).encode("cp1252")
            except UnicodeEncodeError:
                out += c.encode("cp1252", "replace")
        return bytes(out)
    return b"".join(_general(c).to_bytes(2, "big") for c in text)


# Multi-byte character sets whose weights are a single byte's sort order (ASCII letters
# upper-cased, other bytes as they are) and a multi-byte character's own bytes.
_MB_ASCII_UPPER = ("cp932", "sjis", "ujis", "eucjpms", "euckr")


def _mb_weight(c: str, charset: str) -> bytes:
    raw = _bytes(c, charset)
    return raw.upper() if len(raw) == 1 else raw


def _table_key(charset: str, collation: str) -> Any:
    from rampmeter.engine.sqlite.collations import byte_key
    from rampmeter.sql.collation_tables import SORT_ORDERS
    cs = charsets.charset(charset)
    if cs is None or cs.maxlen != 1 or collation.replace("_nopad", "") not in SORT_ORDERS \
            and collation != "latin1_german2_ci":  # its expansions: collations.py
        return None
    return byte_key(collation)


def result_type(t: SqlType | None, length: int | None = None, binary: bool = False) -> SqlType:
    """VARBINARY of the weights' length (characters x bytes per weight), a BLOB past 512
    bytes (MariaDB's CONVERT_IF_BIGGER_TO_BLOB), LONGBLOB when the length is unknown."""
    chars = length if length else t.max_chars if t is not None else None
    if chars is None:
        return T.LONGBLOB
    cs, coll = charset_of(t) or "binary", (t.collation or "") if t is not None else ""
    if binary or cs == "binary":
        per = 1
    elif not cs.startswith(("utf", "ucs2")):
        # an 8-bit or multi-byte set: its collation's strxfrm_multiply (COLLATIONS' sortlen:
        # latin1_german2_ci weighs Ä as AE, 2; tis620_thai_ci 4)
        found = charsets.collation(coll) if coll else None
        per = found.sortlen if found is not None else 1
    else:
        per = 3 if cs == "utf8mb4" and coll.endswith("_bin") else \
            2 if cs.startswith(("utf8", "ucs2")) else 1
    n = chars * per
    if n <= 512:
        return T.varbinary(n)
    name = "blob" if n <= 65535 else "mediumblob" if n <= 16777215 else "longblob"
    return SqlType(name, charset="binary")


@sqlfunction("WEIGHT_STRING", 5, lambda args: result_type(args[0] if args else None),
             host=True)
def weight_string(host: Any, value: Any, collation: Any, kind: Any, length: Any,
                  level: Any) -> Any:
    result = _weight(host, value, collation, kind, length)
    if not result or not level:
        return result
    if "REVERSE" in level:
        result = result[::-1]
    if "DESC" in level:
        result = bytes(255 - b for b in result)
    return result


def _weight(host: Any, value: Any, collation: Any, kind: Any, length: Any) -> Any:
    if value is None or collation is None:
        return None
    charset, _, _ = str(collation).partition("_")
    if collation == "binary":
        charset = "binary"
    limit = int(host.context.system_variable("max_allowed_packet"))
    n = int(length or 0)
    if kind == "BINARY":
        if n > limit:  # MariaDB weighs CAST(s AS BINARY(n)): the cast warns first
            host.warn(1301, "Result of cast_as_binary() was larger than max_allowed_packet "
                      f"({limit}) - truncated")
            return _too_long(host, limit)
        raw = _bytes(value, charset)[:n]
        return raw + b"\0" * (n - len(raw))
    if charset == "binary":  # a binary string weighs its bytes
        raw = _bytes(value, "utf8mb4")
        return _too_long(host, limit) if len(raw) > limit else raw
    text = _text(value)
    nopad = "_nopad_" in str(collation)
    if kind == "CHAR":
        if n > limit:
            return _too_long(host, limit)
        # PAD SPACE pads the string with spaces; a NO PAD collation pads the weights with 0x00
        text = text[:n] + ("" if nopad else " " * (n - len(text)))
    result = _weights(text, _bytes(text, charset), charset, str(collation))
    if kind == "CHAR" and collation == "latin1_german2_ci":
        result = result[:n]  # n weights: Ä's AE counts as two (my_strnxfrm_latin1_de)
    if kind == "CHAR" and nopad and uca.version_of(str(collation)) and charset in _UNICODE:
        result += b"\x02\x00" * (n - len(text))  # MariaDB's NO PAD UCA fills with 0x0200
    elif kind == "CHAR" and nopad:
        width = len(_weights(" ", _bytes(" ", charset), charset, str(collation))) or 1
        result += b"\0" * (n * width - len(result))
    return _too_long(host, limit) if len(result) > limit else result


def _too_long(host: Any, limit: int) -> None:
    host.warn(1301, "Result of weight_string() was larger than max_allowed_packet "
              f"({limit}) - truncated")
    return None


def _int_arg(v: Any) -> int:
    if isinstance(v, bytes):  # a hex literal: its bytes as a number
        return int.from_bytes(v, "big") if v else 0
    try:
        return int(v or 0)
    except (TypeError, ValueError):
        return 0


@sqlfunction("WEIGHT_STRING_FLAGS", 5, lambda args: result_type(args[0] if args else None),
             host=True)
def weight_string_flags(host: Any, value: Any, collation: Any, length: Any, nweights: Any,
                        flags: Any) -> Any:
    """weight_string(s, length, nweights, flags), the form MariaDB prints WEIGHT_STRING in
    (measured on 10.11): the first `nweights` characters (all for 0; flag 0x40 pads a shorter
    string with spaces to nweights), their weights cut to `length` bytes (0: no limit), and
    with flag 0x80 padded with the space's weights to `length` bytes."""
    if value is None or collation is None or length is None or nweights is None:
        return None
    n, count, bits = _int_arg(length), _int_arg(nweights), _int_arg(flags)
    text = _text(value) if not isinstance(value, bytes) or collation != "binary" else None
    if text is None:
        result = bytes(value)
        space = b"\0"
    else:
        if count > 0:
            text = text[:count]
            if bits & 0x40:
                text += " " * (count - len(text))
        charset = "binary" if collation == "binary" else str(collation).partition("_")[0]
        result = _weights(text, _bytes(text, charset), charset, str(collation))
        space = _weights(" ", _bytes(" ", charset), charset, str(collation)) or b" "
    if n > 0:
        if bits & 0x80 and len(result) < n:
            pad = space * ((n - len(result)) // len(space) + 1)
            result += pad[:n - len(result)]
        result = result[:n]
    limit = int(host.context.system_variable("max_allowed_packet"))
    return _too_long(host, limit) if len(result) > limit else result
