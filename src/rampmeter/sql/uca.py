"""MariaDB's UCA collations at their first level: the primary weights of each character, as
`utf8mb4_unicode_ci` (UCA 4.0.0) and `utf8mb4_unicode_520_ci` (UCA 5.2.0) give them.

Rules (MariaDB 10.11's ctype-uca.c, as its WEIGHT_STRING shows them):
- A character weighs what MariaDB's table says (sql/uca_tables.py, read off MariaDB code point
  by code point: at most 8 weights, an ignorable character none), else its implicit weights:
  two, (base + code >> 15, (code & 0x7FFF) | 0x8000) with base 0xFB80 for the CJK extension A
  ideographs (U+3400..U+4DB5), 0xFB40 for the unified ideographs (U+4E00..U+9FA5), 0xFBC0 for
  the rest. UCA 4.0.0 has no table past U+FFFF: each such character weighs 0xFFFD.
- Contractions (the built-in ones, and the language collations' tailorings) are not applied:
  a string weighs as its characters one by one.
"""

from __future__ import annotations

import base64
import zlib
from functools import cache

V400 = "400"
V520 = "520"
SPACE = {V400: 0x0209, V520: 0x020A}  # the weight of ' ', that PAD SPACE pads with


def implicit(code: int, version: str) -> tuple[int, ...]:
    if version == V400 and code > 0xFFFF:
        return (0xFFFD,)
    if 0x3400 <= code <= 0x4DB5:
        base = 0xFB80
    elif 0x4E00 <= code <= 0x9FA5:
        base = 0xFB40
    else:
        base = 0xFBC0
    return (base + (code >> 15), (code & 0x7FFF) | 0x8000)


def implicit_hex(code: int, version: str) -> str:
    return "".join(f"{w:04X}" for w in implicit(code, version))


@cache
def _table(version: str) -> dict[int, tuple[int, ...]]:
    from rampmeter.sql import uca_tables
    blob = "".join(uca_tables.UCA400 if version == V400 else uca_tables.UCA520)
    table: dict[int, tuple[int, ...]] = {}
    for line in zlib.decompress(base64.b64decode(blob)).decode().splitlines():
        code, _, hexed = line.partition(":")
        table[int(code, 16)] = tuple(int(hexed[i:i + 4], 16) for i in range(0, len(hexed), 4))
    return table


@cache
def symbols(version: str) -> dict[tuple[int, ...], str]:
    """One character (U+F0000 on) per distinct weight sequence of the table, for matching
    strings character by character by their weights (LIKE)."""
    distinct = sorted(set(_table(version).values()))
    return {w: chr(0xF0000 + i) for i, w in enumerate(distinct)}


def char_weights(ch: str, version: str) -> tuple[int, ...]:
    code = ord(ch)
    found = _table(version).get(code)
    return found if found is not None else implicit(code, version)


def weights(text: str, version: str) -> list[int]:
    table = _table(version)
    out: list[int] = []
    for ch in text:
        code = ord(ch)
        found = table.get(code)
        out.extend(found if found is not None else implicit(code, version))
    return out


def version_of(collation: str) -> str | None:
    """The UCA version of a root UCA collation (`*_unicode_ci`, `*_unicode_520_ci` and their
    `_nopad_` twins), None for the others (the language ones are tailored)."""
    if collation.endswith(("_unicode_ci", "_unicode_nopad_ci")):
        return V400
    if collation.endswith(("_unicode_520_ci", "_unicode_520_nopad_ci")):
        return V520
    return None
