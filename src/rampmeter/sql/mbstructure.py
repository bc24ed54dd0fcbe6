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
"""

from __future__ import annotations

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
