"""The MySQL protocol's basic data types: fixed-length little-endian integers, length-encoded
integers and strings, NUL-terminated strings.

Rules:
- `Reader` is a cursor over one packet's payload. Every read checks the bounds: reading past the
  end raises `ProtocolViolation` (ER_MALFORMED_PACKET, or the code the caller chose, e.g.
  ER_HANDSHAKE_ERROR while parsing a handshake), never IndexError or struct.error.
- The writers return bytes; they never frame (framing.py does that).
- Layouts are those of the MySQL protocol docs, "Basic Data Types": int<1..8> little endian;
  int<lenenc>: < 0xFB in one byte, 0xFC + int<2>, 0xFD + int<3>, 0xFE + int<8>; 0xFB is NULL in a
  text row and 0xFF starts an ERR packet, so neither is a valid length prefix.
This module imports only the standard library and rampmeter.errors.
"""

from __future__ import annotations

import codecs
import struct

from rampmeter.errors import ER_MALFORMED_PACKET, ProtocolViolation

_U16 = struct.Struct("<H")
_U32 = struct.Struct("<I")
_U64 = struct.Struct("<Q")

NULL_MARKER = 0xFB


class Reader:
    """A bounds-checked cursor over a payload (bytes; never modified)."""

    __slots__ = ("code", "data", "pos")

    def __init__(self, data: bytes, pos: int = 0, *, code: int = ER_MALFORMED_PACKET) -> None:
        self.data = data
        self.pos = pos
        self.code = code  # the error code a truncation reports

    def fail(self, detail: str) -> ProtocolViolation:
        return ProtocolViolation(detail, code=self.code)

    @property
    def remaining(self) -> int:
        return len(self.data) - self.pos

    def at_end(self) -> bool:
        return self.pos >= len(self.data)

    def _take(self, n: int) -> int:
        start = self.pos
        if n < 0 or start + n > len(self.data):
            raise self.fail(f"packet truncated: wanted {n} bytes at offset {start}, "
                            f"have {len(self.data) - start}")
        self.pos = start + n
        return start

    def u8(self) -> int:
        return self.data[self._take(1)]

    def u16(self) -> int:
        return _U16.unpack_from(self.data, self._take(2))[0]

    def u24(self) -> int:
        return int.from_bytes(self.data[self._take(3):self.pos], "little")

    def u32(self) -> int:
        return _U32.unpack_from(self.data, self._take(4))[0]

    def u64(self) -> int:
        return _U64.unpack_from(self.data, self._take(8))[0]

    def unpack(self, st: struct.Struct) -> tuple[int | float, ...]:
        return st.unpack_from(self.data, self._take(st.size))

    def fixed(self, n: int) -> bytes:
        return self.data[self._take(n):self.pos]

    def rest(self) -> bytes:
        start, self.pos = self.pos, len(self.data)
        return self.data[start:]

    def lenenc_int(self) -> int:
        first = self.u8()
        if first < 0xFB:
            return first
        if first == 0xFC:
            return self.u16()
        if first == 0xFD:
            return self.u24()
        if first == 0xFE:
            return self.u64()
        raise self.fail(f"invalid length-encoded integer prefix 0x{first:02x}")

    def lenenc_bytes(self) -> bytes:
        return self.fixed(self.lenenc_int())

    def nul_bytes(self) -> bytes:
        """A NUL-terminated string; the NUL must be there."""
        end = self.data.find(b"\0", self.pos)
        if end < 0:
            raise self.fail(f"missing NUL terminator after offset {self.pos}")
        start, self.pos = self.pos, end + 1
        return self.data[start:end]

    def nul_or_rest(self) -> bytes:
        """A NUL-terminated string whose NUL some clients omit at the end of the packet."""
        end = self.data.find(b"\0", self.pos)
        if end < 0:
            return self.rest()
        start, self.pos = self.pos, end + 1
        return self.data[start:end]


def lenenc_int(n: int) -> bytes:
    if n < 0xFB:
        return bytes((n,))
    if n < 0x10000:
        return b"\xfc" + _U16.pack(n)
    if n < 0x1000000:
        return b"\xfd" + n.to_bytes(3, "little")
    return b"\xfe" + _U64.pack(n)


def lenenc_bytes(data: bytes) -> bytes:
    n = len(data)
    if n < 0xFB:
        return bytes((n,)) + data
    return lenenc_int(n) + data


def _fallback(e: UnicodeError) -> tuple[bytes | str, int]:
    """Encoding error handler 'rampmeter': a lone surrogate (a byte that arrived invalid and was
    kept by surrogateescape) becomes that byte again; a character the target character set
    cannot hold becomes '?', as MariaDB converts it; once the SQL layer registered
    "rampmeter-mb", a hole becomes its bytes again in a multi-byte set."""
    if not isinstance(e, UnicodeEncodeError):
        raise e
    try:  # a multi-byte set's unmapped character held as a hole (sql/mbstructure.py)
        return codecs.lookup_error("rampmeter-mb")(e)  # type: ignore[no-any-return]
    except LookupError:
        pass
    out = bytearray()
    for ch in e.object[e.start:e.end]:
        code = ord(ch)
        out += bytes((code - 0xDC00,)) if 0xDC80 <= code <= 0xDCFF else b"?"
    return bytes(out), e.end


codecs.register_error("rampmeter", _fallback)


def encode_text(text: str, codec: str) -> bytes:
    """Text in `codec` (see _fallback for what does not fit)."""
    return text.encode(codec, "rampmeter")


def lenenc_str(text: str) -> bytes:
    return lenenc_bytes(text.encode("utf-8", "surrogateescape"))


def u16(n: int) -> bytes:
    return _U16.pack(n)


def u32(n: int) -> bytes:
    return _U32.pack(n)
