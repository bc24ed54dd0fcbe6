"""CHAR(n, ... [USING cs]) as MariaDB 10.11 answers it (measured there; mtr
ctype_unicode_allchars.inc, ctype_utf32): a hexadecimal argument is a number, the result is
text of cs, and codes not valid in cs are NULL with warning 1300."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows

pytestmark = pytest.mark.timeout(60)


def test_char_using_a_character_set(session: SqliteSession) -> None:
    assert rows(session.execute(
        "SELECT CHAR(0x41 USING utf32), HEX(CHAR(65 USING utf32)), CHARSET(CHAR(65 USING "
        "utf32)), HEX(CHAR(0x4142)), CHAR(0x41, 0x42)")) == [
        ("A", "00000041", "utf32", "4142", b"AB")]


def test_invalid_codes_are_null_with_1300(session: SqliteSession) -> None:
    result = session.execute("SELECT CHAR(0x110000 USING utf32), CHAR(0xD800 USING utf8mb4), "
                             "CHAR(0xD800 USING utf16)")
    assert rows(result) == [(None, None, None)]
    assert [w.message for w in result.warnings] == [
        "Invalid utf32 character string: '001100'",
        "Invalid utf8mb4 character string: 'D800'",
        "Invalid utf16 character string: 'D800'"]
