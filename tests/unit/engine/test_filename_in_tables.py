"""The filename character set in tables and expressions: CHAR / VARCHAR lengths a column's
character set cannot hold (create_table.limit_lengths: MariaDB 10.11's 1074 and note 1246),
CONVERT ... USING filename, user variables keeping their character set (mtr ctype_filename,
measured on MariaDB)."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import FakeContext, fails, rows, update

pytestmark = pytest.mark.timeout(60)


def _non_strict(session: SqliteSession) -> None:
    ctx = session.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["sql_mode"] = ""


def test_char_longer_than_255_is_an_error_in_any_mode(session: SqliteSession) -> None:
    err = fails(session, "CREATE TABLE t (a CHAR(256))", 1074, "42000")
    assert "Column length too big for column 'a' (max = 255)" in str(err)
    _non_strict(session)
    fails(session, "CREATE TABLE t (a CHAR(256))", 1074)


def test_char_past_1023_bytes(session: SqliteSession) -> None:
    """filename has 5 bytes a character: CHAR(204) fits, CHAR(205) does not; utf32's
    CHAR(255) (1020 bytes) does."""
    session.execute("CREATE TABLE ok (a CHAR(204)) CHARACTER SET filename")
    session.execute("CREATE TABLE ok32 (a CHAR(255) CHARACTER SET utf32)")
    err = fails(session, "CREATE TABLE t (a CHAR(205)) CHARACTER SET filename", 1074)
    assert "(max = 204)" in str(err)
    session.execute("CREATE TABLE l1 (a CHAR(205) CHARACTER SET latin1)")
    fails(session, "ALTER TABLE l1 CONVERT TO CHARACTER SET filename", 1074)
    _non_strict(session)
    done = update(session, "CREATE TABLE t (a CHAR(205)) CHARACTER SET filename")
    assert [(w.level, w.code, w.message) for w in done.warnings] == [
        ("Note", 1246, "Converting column 'a' from CHAR to VARCHAR")]
    ddl = rows(session.execute("SHOW CREATE TABLE t"))[0][1]
    assert "`a` varchar(205) DEFAULT NULL" in ddl
    assert "DEFAULT CHARSET=filename COLLATE=filename" in ddl


def test_varchar_past_65532_bytes(session: SqliteSession) -> None:
    err = fails(session, "CREATE TABLE t (a VARCHAR(70000))", 1074)
    assert "(max = 16383)" in str(err)
    _non_strict(session)
    done = update(session, "CREATE TABLE t (a VARCHAR(70000) CHARACTER SET latin1)")
    assert [w.code for w in done.warnings] == [1246]
    assert "`a` mediumtext CHARACTER SET latin1" in rows(
        session.execute("SHOW CREATE TABLE t"))[0][1]


def test_binary_attribute_without_a_bin_collation(session: SqliteSession) -> None:
    err = fails(session, "CREATE TABLE t (c CHAR BINARY) CHARACTER SET filename", 1273)
    assert "'filename_bin'" in str(err)


def test_convert_using_filename(session: SqliteSession) -> None:
    assert rows(session.execute(
        "SELECT HEX(CONVERT('aя,' USING filename)), CONVERT(CONVERT(',' USING filename) "
        "USING binary), REVERSE(CONVERT('aя' USING filename))")) == [
        ("614072314030303263", b"@002c", "яa")]


def test_user_variable_keeps_its_character_set(session: SqliteSession) -> None:
    """@a := text of another set than utf8mb4 keeps it: HEX(@a), BINARY @a and HEX(REVERSE(@a))
    read its bytes in that set, at each run (mtr ctype_filename, MDEV-7677)."""
    assert rows(session.execute(
        "SELECT @a:=CONVERT('aя' USING filename), BINARY @a, REVERSE(@a), HEX(@a), "
        "HEX(REVERSE(@a))")) == [("aя", b"a@r1", "яa", "61407231", "40723161")]
    assert rows(session.execute("SELECT HEX(@a)")) == [("61407231",)]
    session.execute("SELECT @a:=CONVERT('é' USING latin1)")
    assert rows(session.execute("SELECT HEX(@a)")) == [("E9",)]
    session.execute("SELECT @a:='é'")
    assert rows(session.execute("SELECT HEX(@a)")) == [("C3A9",)]


def test_binary_strings_meet_text_in_its_own_bytes(session: SqliteSession) -> None:
    """A binary string compared with utf16 text compares the text's utf16 bytes; hexadecimal
    literals stored into a utf16 column are its bytes, one row or many (mtr ctype_utf16)."""
    ctx = session.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["collation_connection"] = "utf16_general_ci"
    assert rows(session.execute(
        "SELECT BINARY 'a  a' > 'a', BINARY 'a\\0' > 'a', BINARY 'a' = 'a'")) == [(1, 1, 1)]
    ctx.variables["collation_connection"] = "utf8mb4_general_ci"
    session.execute("CREATE TABLE u16 (w VARCHAR(64), c CHAR(64)) CHARACTER SET utf16")
    session.execute("INSERT INTO u16 VALUES (X'042000200020', X'042000200020'), "
                    "(X'200400200020', X'200400200020')")
    session.execute("INSERT INTO u16 VALUES (X'0421', X'0421')")
    assert rows(session.execute("SELECT HEX(w), HEX(c) FROM u16")) == [
        ("042000200020", "0420"), ("200400200020", "2004"), ("0421", "0421")]


def test_an_assignment_keeps_its_value_s_character_set(session: SqliteSession) -> None:
    """HEX(@l := CONVERT(@u USING latin1)) is the latin1 bytes (mtr ctype_latin1)."""
    assert rows(session.execute(
        "SELECT HEX(@u := CONVERT(_latin1 0x80 USING utf8mb4)), "
        "HEX(@l := CONVERT(@u USING latin1))")) == [("E282AC", "80")]
