"""CHAR(n, ... [USING cs]) and WEIGHT_STRING of the UCA collations as MariaDB 10.11 answers
them (measured there; mtr ctype_unicode_allchars.inc, ctype_utf32, ctype_utf8_uca): a
hexadecimal argument of CHAR is a number, its result text of cs, and codes not valid in cs
are NULL with warning 1300."""

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


def test_weight_string_of_the_uca_collations(session: SqliteSession) -> None:
    """MariaDB 10.11's answers: a NO PAD UCA collation pads AS CHAR(n) with 0x0200."""
    assert rows(session.execute(
        "SELECT HEX(WEIGHT_STRING('a' COLLATE utf8mb4_unicode_nopad_ci AS CHAR(3))), "
        "HEX(WEIGHT_STRING('a' COLLATE utf8mb4_unicode_ci AS CHAR(3))), "
        "HEX(WEIGHT_STRING('ab ' COLLATE utf8mb4_unicode_ci)), "
        "HEX(WEIGHT_STRING('a ' COLLATE utf8mb4_unicode_520_ci))")) == [
        ("0E3302000200", "0E3302090209", "0E330E4A0209", "120F020A")]
    session.execute("CREATE TABLE uc (a VARCHAR(10) COLLATE utf8mb4_unicode_ci)")
    session.execute("INSERT INTO uc VALUES ('b'), ('Ä'), ('ss'), ('a'), ('ß')")
    assert sorted(r[0] for r in rows(session.execute("SELECT a FROM uc WHERE a = 'SS'"))) == [
        "ss", "ß"]
    assert [r[0] for r in rows(session.execute("SELECT a FROM uc ORDER BY a, HEX(a)"))] == [
        "a", "Ä", "b", "ss", "ß"]


def test_hexadecimal_bounds_of_a_numeric_between(session: SqliteSession) -> None:
    session.execute("CREATE TABLE hb (a INT)")
    session.execute("INSERT INTO hb VALUES (1), (271), (272), (4000)")
    assert rows(session.execute("SELECT a FROM hb WHERE a BETWEEN 0 AND 0x10F ORDER BY a")) \
        == [(1,), (271,)]


def test_space_of_a_constant_count_is_that_long(session: SqliteSession) -> None:
    session.execute("CREATE TABLE sp AS SELECT SPACE(50) AS a")
    assert "`a` varchar(50)" in rows(session.execute("SHOW CREATE TABLE sp"))[0][1]


def test_enum_and_set_branches_are_varchar(session: SqliteSession) -> None:
    """IFNULL / COALESCE / IF / CASE / UNION over ENUM or SET values is the VARCHAR of the
    longest value, as MariaDB 10.11 types it (mtr ctype_utf8mb4_heap); a bare ENUM column
    stays ENUM."""
    session.execute("CREATE TABLE te (a ENUM('aaaa','bb'), b SET('x','yy'))")
    session.execute("CREATE TABLE te2 AS SELECT IFNULL(a, a) i, COALESCE(a, b) c, "
                    "IF(1, a, a) f, a FROM te UNION SELECT a, a, a, a FROM te")
    ddl = rows(session.execute("SHOW CREATE TABLE te2"))[0][1]
    assert [line.split()[1] for line in ddl.splitlines()[1:5]] == ["varchar(4)"] * 4
    session.execute("CREATE TABLE te3 AS SELECT a FROM te")
    assert "`a` enum('aaaa','bb')" in rows(session.execute("SHOW CREATE TABLE te3"))[0][1]


def test_date_format_of_a_constant_format_is_as_long_as_it_prints(session: SqliteSession
                                                                   ) -> None:
    """MariaDB's format_length: '%Y-%m-%d' is 10 characters, %M 64 (mtr ctype_utf8mb4)."""
    from rampmeter.engine.sqlite.infer import date_format_length
    assert [date_format_length(f) for f in ("%Y-%m-%d", "ab%Y-%m", "%M", "%r", "%%", "%")] \
        == [10, 9, 64, 11, 1, 1]
    session.execute("CREATE TABLE df AS SELECT DATE_FORMAT('2004-01-19', '%Y-%m-%d') AS a")
    assert "`a` varchar(10)" in rows(session.execute("SHOW CREATE TABLE df"))[0][1]
