"""Charset.decode never raises: bytes short of a whole unit of ucs2 / utf16 / utf32 are zeros on
the left, as MariaDB pads an introduced literal (_utf16 0x44 is U+0044); before, such a literal
was an internal error (1105) for the client."""

from __future__ import annotations

import pytest

from rampmeter.sql import charsets
from rampmeter.sql.charsets import charset
from rampmeter.sql.statement import scan

pytestmark = pytest.mark.timeout(30)


@pytest.mark.parametrize(("name", "data", "text"), [
    ("utf16", b"\x44", "D"),
    ("utf16", b"\x33\x44", "\u3344"),
    ("utf16", b"\x11\x33\x44", "\x11\u3344"),
    ("ucs2", b"\x44", "D"),
    ("utf32", b"\x44", "D"),
    ("utf32", b"\x10\x33\x44", "\U00103344"),
    ("utf8mb4", b"\xff", "\udcff"),
])
def test_decode_pads_to_a_whole_unit_and_escapes_the_rest(name, data, text):
    cs = charset(name)
    assert cs is not None
    assert cs.decode(data) == text


@pytest.mark.parametrize("sql", ["SELECT HEX(_utf16 0x44)", "SELECT _utf32 0x103344",
                                 "SELECT _ucs2 X'44'", "SELECT _utf16 0xD800"])
def test_introduced_hex_literals_scan(sql):
    assert scan(sql).kind == "SELECT"


def test_unmapped_multibyte_characters_are_kept_as_holes() -> None:
    """A sequence with MariaDB's structure that Python's codec does not map (big5 0xA3C2,
    sjis 0x878A, EUC-JP 0xA2AF and 0x8FA1A1) is a character: its bytes come back, it counts
    as one character, and it is valid text; a byte that starts no character stays invalid."""
    big5 = charsets.charset("big5")
    assert big5 is not None
    text = big5.decode(b"a\xa3\xc2b")
    assert len(text) == 3 and charsets.is_valid(text)
    assert big5.encode(text) == b"a\xa3\xc2b"
    assert charsets.charset("latin1").encode(text) == b"a?b"  # no such character there
    assert not charsets.is_valid(big5.decode(b"\xff"))
    ujis = charsets.charset("ujis")
    assert ujis is not None
    for raw in (b"\xa2\xaf", b"\x8f\xa1\xa1"):
        held = ujis.decode(raw)
        assert len(held) == 1 and ujis.encode(held) == raw
