"""MariaDB's `filename` character set (sql/filename.py): how names are spelled on disk; and
its tis620 table. The expected bytes are MariaDB 10.11's (CONVERT(... USING filename), mtr
ctype_filename, ctype_tis620)."""

from __future__ import annotations

import pytest

from rampmeter.sql import charsets

pytestmark = pytest.mark.timeout(30)


@pytest.mark.parametrize(("text", "data"), [
    ("a", b"a"),
    (",", b"@002c"),
    ("aя", b"a@r1"),
    ("aя,-Ñé€ÀĀ", b"a@r1@002c@002d@0X@0p@20ac@0G@1S"),
    ("\0_Z9", b"\0_Z9"),
    ("\U0001F600", b"@f600"),  # only the low 16 bits, as MariaDB writes them
])
def test_encode(text: str, data: bytes) -> None:
    cs = charsets.charset("filename")
    assert cs is not None
    assert cs.encode(text) == data


@pytest.mark.parametrize(("data", "text"), [
    (b"@0G@0g@@@@002c", "Àà\0,"),
    (b"a@r1", "aя"),
])
def test_decode(data: bytes, text: str) -> None:
    cs = charsets.charset("filename")
    assert cs is not None
    assert cs.decode(data) == text
    assert charsets.is_valid(cs.decode(data))


def test_invalid_bytes_are_kept_and_flagged() -> None:
    """',' alone, '@' before no code, upper-case hex: invalid bytes (MariaDB converts each to
    '?'), which encode back to themselves."""
    cs = charsets.charset("filename")
    assert cs is not None
    for data in (b"ab,", b"@zz", b"@002C", b"@0"):
        text = cs.decode(data)
        assert not charsets.is_valid(text)
        assert cs.encode(text) == data


def test_known_but_not_listed_nor_a_client_charset() -> None:
    cs = charsets.charset("filename")
    assert cs is not None and not cs.client_usable
    coll = charsets.collation_by_id(17)
    assert coll is not None and coll.name == "filename" and coll.charset == "filename"
    assert charsets.collation("filename_bin") is None
    from rampmeter.session.infoschema import CHARSET_ROWS, COLLATION_ROWS
    assert "filename" not in [r[0] for r in CHARSET_ROWS]
    assert "filename" not in [r[0] for r in COLLATION_ROWS]


def test_tis620_as_mariadb_maps_it() -> None:
    """MariaDB's tis620 (read off 10.11): C1 controls at 0x80..0x9F, U+FFFD for the bytes
    between the Thai letters, which converts back to 0xFF (mtr ctype_tis620)."""
    cs = charsets.charset("tis620")
    assert cs is not None
    text = cs.decode(bytes(range(256)))
    assert text[0x90] == "\x90" and text[0xA0] == "\ufffd" and text[0xA1] == "\u0e01"
    assert text[0xDB] == "\ufffd" and text[0xDF] == "\u0e3f" and text[0xFF] == "\ufffd"
    assert charsets.is_valid(text)
    assert cs.encode("\ufffd\u0e01\u0e5b") == b"\xff\xa1\xfb"
