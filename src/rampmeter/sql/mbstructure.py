"""The byte structure of MariaDB's multi-byte Asian character sets (its `ismbchar`): which byte
sequences its lexer takes as one character, whether or not the character set maps them.

Rules:
- A sequence that has a character's structure (a lead byte and trail bytes in their ranges)
  but no character (cp932 0x81AD, big5 0xA3C0, ...) is part of an identifier in MariaDB's
  lexer, which then refuses the identifier with 1300, quoting it: valid characters as they
  are, every byte of an invalid one as \\xHH. Python's codecs decode such a sequence as a lone
  surrogate and, often, a character (0xAD alone is a katakana in cp932): the bytes decide.
- After a `.` MariaDB's lexer reads the next identifier byte by byte: when the invalid
  sequence's trail bytes are characters by themselves (cp932 0xAD), its 1300 quotes the
  identifier up to the sequence's first byte only (measured on 10.11: 'a.' 0x81AD quotes
  '\\x81'; big5 'a.' 0xA3C0 quotes '\\xA3\\xC0').
- In a value, such a sequence is a character all the same: MariaDB stores it (big5 0xA3C2,
  sjis 0x878A: no 1366) and converts it to '?'. Text holds it as a "hole", a character of
  plane 16's private use area standing for the sequence's bytes: U+100000 + the two bytes
  (U+108100..U+10FEFF), or U+100000 + a row-cell number for EUC's three bytes 0x8F xx yy
  (U+100000..U+102283). The codec error handler "rampmeter-mb" makes and unmakes holes (and
  keeps invalid bytes as surrogateescape does); a hole encoded to a set without structure
  is '?'. Differs: a hole converted to a Unicode set stays that private character (MariaDB:
  '?'), and one moved to another multi-byte set keeps its bytes.
"""

from __future__ import annotations

import codecs

# charset -> list of (lead range, trail ranges...) per structure; ranges are inclusive pairs.
_R = tuple[int, int]
_SHIFT_JIS: list[tuple[_R, ...]] = [((0x81, 0x9F), (0x40, 0x7E), (0x80, 0xFC)),
                                    ((0xE0, 0xFC), (0x40, 0x7E), (0x80, 0xFC))]
_TWO: dict[str, list[tuple[_R, ...]]] = {
    "cp932": _SHIFT_JIS,
    "sjis": _SHIFT_JIS,
    "big5": [((0xA1, 0xF9), (0x40, 0x7E), (0xA1, 0xFE))],
    "gbk": [((0x81, 0xFE), (0x40, 0x7E), (0x80, 0xFE))],
    "gb2312": [((0xA1, 0xF7), (0xA1, 0xFE))],
    "euckr": [((0x81, 0xFE), (0x41, 0x5A), (0x61, 0x7A), (0x81, 0xFE))],
}
_EUC_JP = ("ujis", "eucjpms")


def _within(b: int, ranges: tuple[_R, ...]) -> bool:
    return any(lo <= b <= hi for lo, hi in ranges)


def char_length(charset: str, data: bytes, i: int) -> int:
    """How many bytes from data[i] MariaDB takes as one multi-byte character (0: none)."""
    b = data[i]
    rest = len(data) - i
    if charset in _EUC_JP:
        if b == 0x8E and rest >= 2 and 0xA1 <= data[i + 1] <= 0xDF:
            return 2
        if b == 0x8F and rest >= 3 and 0xA1 <= data[i + 1] <= 0xFE and \
                0xA1 <= data[i + 2] <= 0xFE:
            return 3
        if 0xA1 <= b <= 0xFE and rest >= 2 and 0xA1 <= data[i + 1] <= 0xFE:
            return 2
        return 0
    for lead, *trails in _TWO.get(charset, ()):
        if lead[0] <= b <= lead[1] and rest >= 2 and _within(data[i + 1], tuple(trails)):
            return 2
    return 0


def has_structure(charset: str) -> bool:
    return charset in _TWO or charset in _EUC_JP


def shown(charset: str, codec: str, data: bytes, after_dot: bool) -> str | None:
    """An identifier's bytes as MariaDB's 1300 quotes them, or None when every multi-byte
    sequence in it is a character (nothing to refuse here)."""
    out: list[str] = []
    bad = False
    i = 0
    while i < len(data):
        n = char_length(charset, data, i) if data[i] >= 0x80 else 1
        if n == 0:
            return None  # a byte that starts no character: MariaDB's 1064, not ours
        piece = data[i:i + n]
        try:
            out.append(piece.decode(codec))
        except UnicodeDecodeError:
            if after_dot and _decodes(piece[1:], codec):
                out.append(f"\\x{piece[0]:02X}")
                return "".join(out)
            out.append("".join(f"\\x{x:02X}" for x in piece))
            bad = True
        i += n
    return "".join(out) if bad else None


def _decodes(data: bytes, codec: str) -> bool:
    try:
        data.decode(codec)
    except UnicodeDecodeError:
        return False
    return True


# --- holes --------------------------------------------------------------------------------------
_HOLE = 0x100000
# Python's codec names (as their errors report them) -> the MariaDB set whose structure applies
_CODEC_SETS = {"big5": "big5", "shift_jis": "sjis", "cp932": "cp932", "euc_jp": "ujis",
               "euc_kr": "euckr", "gbk": "gbk", "gb2312": "gb2312"}


def hole(seq: bytes) -> str:
    if len(seq) == 3:  # EUC-JP's 0x8F xx yy
        return chr(_HOLE + (seq[1] - 0xA1) * 94 + (seq[2] - 0xA1))
    return chr(_HOLE + (seq[0] << 8 | seq[1]))


def hole_bytes(ch: str) -> bytes | None:
    """The bytes a hole stands for (None: `ch` is no hole)."""
    n = ord(ch) - _HOLE
    if not 0 <= n <= 0xFEFF:
        return None
    if n >= 0x8100:
        return bytes((n >> 8, n & 0xFF))
    if n < 94 * 94:
        return bytes((0x8F, 0xA1 + n // 94, 0xA1 + n % 94))
    return None


def _handler(e: UnicodeError) -> tuple[str | bytes, int]:
    charset = _CODEC_SETS.get((e.encoding or "").replace("-", "_").lower())
    if isinstance(e, UnicodeDecodeError):
        data = bytes(e.object)
        n = char_length(charset, data, e.start) if charset is not None else 0
        if n >= 2:
            return hole(data[e.start:e.start + n]), e.start + n
        return chr(0xDC00 + data[e.start]), e.start + 1
    if isinstance(e, UnicodeEncodeError):
        out = bytearray()
        for ch in e.object[e.start:e.end]:
            code = ord(ch)
            if 0xDC80 <= code <= 0xDCFF:
                out.append(code - 0xDC00)  # an invalid byte kept: itself again
                continue
            found = hole_bytes(ch) if charset is not None else None
            out += found if found is not None else b"?"
        return bytes(out), e.end
    raise e


codecs.register_error("rampmeter-mb", _handler)
