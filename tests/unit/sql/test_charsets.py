"""Charset.decode never raises: bytes short of a whole unit of ucs2 / utf16 / utf32 are zeros on
the left, as MariaDB pads an introduced literal (_utf16 0x44 is U+0044); before, such a literal
was an internal error (1105) for the client."""

from __future__ import annotations

import pytest

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
