"""Functions of a string's bytes (digests, checksums, compression) and comparisons of text
with binary strings read text in its own character set, as MariaDB 10.11 does; UNCOMPRESS
warns as MariaDB does; ROUND of a double shows the decimals asked for (each expected value
measured on MariaDB 10.11)."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows, scalar

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def latin1(session: SqliteSession) -> SqliteSession:
    session.execute("CREATE TABLE t (a VARCHAR(10) CHARACTER SET latin1, "
                    "b TEXT CHARACTER SET latin1)")
    session.execute("INSERT INTO t VALUES ('\u00e9', COMPRESS('\u00e9\u00e9\u00e9'))")
    return session


def test_digests_read_a_latin1_column_as_latin1_bytes(latin1: SqliteSession) -> None:
    got = rows(latin1.execute("SELECT MD5(a), CRC32(a), TO_BASE64(a), HEX(COMPRESS(a)), "
                              "SHA1(a) FROM t"))
    assert got == [("3406877694691ddd1dfb0aca54681407", 198489425, "6Q==",
                    "01000000789C7B090000EA00EA", "1599e9fa41ec68c80230491902786bee889f5bcb")]


def test_compressed_bytes_kept_in_latin1_text_uncompress(latin1: SqliteSession) -> None:
    got = rows(latin1.execute("SELECT UNCOMPRESS(b), UNCOMPRESSED_LENGTH(b) FROM t"))
    assert got == [("\u00e9\u00e9\u00e9".encode(), 6)]


def test_latin1_text_equals_binary_string_of_its_bytes(latin1: SqliteSession) -> None:
    assert scalar(latin1, "SELECT COUNT(*) FROM t WHERE b = COMPRESS('\u00e9\u00e9\u00e9')") == 1
    assert scalar(latin1, "SELECT COUNT(*) FROM t WHERE a = UNHEX('E9')") == 1


@pytest.mark.parametrize(("arg", "code"), [
    ("'abc'", 1259),                     # 4 bytes or fewer
    ("'A\\0\\0\\0BBBBBBBB'", 1259),     # not zlib data
    ("REPEAT(' ', 10)", 1256),           # stated length past max_allowed_packet
])
def test_uncompress_of_garbage_is_null_with_warning(session: SqliteSession, arg: str,
                                                    code: int) -> None:
    assert scalar(session, f"SELECT UNCOMPRESS({arg})") is None
    assert [w.code for w in session.warnings] == [code]


def test_uncompressed_length_of_short_data_is_null(session: SqliteSession) -> None:
    assert scalar(session, "SELECT UNCOMPRESSED_LENGTH('1')") is None
    assert [w.code for w in session.warnings] == [1259]
    assert scalar(session, "SELECT UNCOMPRESSED_LENGTH('11111')") == 825307441


def test_cast_of_binary_to_char_quotes_the_bytes(session: SqliteSession) -> None:
    assert scalar(session, "SELECT CAST(0x03000000789C AS CHAR(4))") == "\x03\0\0\0"
    assert [w.message for w in session.warnings] == [
        "Truncated incorrect CHAR(4) value: '\\x03\\x00\\x00\\x00x\\x9C'"]


def test_round_of_a_double_column_shows_its_decimals(session: SqliteSession) -> None:
    session.execute("CREATE TABLE d (a DOUBLE, c VARCHAR(5))")
    session.execute("INSERT INTO d VALUES (1, '1'), (-0.001, '2.5')")
    got = rows(session.execute("SELECT ROUND(a, 5), ROUND(c, 2), TRUNCATE(a, 1), ROUND(a) "
                               "FROM d"))
    assert [tuple(str(v) for v in r) for r in got] == [
        ("1.00000", "1.00", "1.0", "1"), ("-0.00100", "2.50", "0.0", "0")]


def test_encrypt_is_crypt3_with_mariadbs_salt_rules(session: SqliteSession) -> None:
    got = rows(session.execute("SELECT ENCRYPT('test', 'aa'), ENCRYPT('abc', 'xyz'), "
                               "ENCRYPT('', 'aa'), ENCRYPT('a', 'a'), ENCRYPT(NULL), "
                               "LENGTH(ENCRYPT('x'))"))
    assert got == [(b"aaqPiZY5xR5l.", b"xy7MmN0ZLly8E", b"", None, None, 13)]


def test_password_follows_old_passwords(session: SqliteSession) -> None:
    assert scalar(session, "SELECT PASSWORD(NULL)") == ""
    session.context.variables["old_passwords"] = 1  # type: ignore[attr-defined]
    assert scalar(session, "SELECT PASSWORD('a')") == "60671c896665c3fa"


def test_cast_as_double_m_d_rounds_and_clips(session: SqliteSession) -> None:
    got = rows(session.execute("SELECT CAST(1 AS DOUBLE(5,2)), CAST('5.2222' AS DOUBLE(5,2)), "
                               "CAST(1000 AS DOUBLE(5,2))"))
    assert [tuple(str(v) for v in r) for r in got] == [("1.00", "5.22", "999.99")]
    assert [(w.level, w.code) for w in session.warnings] == [("Note", 1264)]


def test_numbers_cast_to_datetimes_by_their_size(session: SqliteSession) -> None:
    got = rows(session.execute(
        "SELECT CAST(101 AS DATE), CAST(991231 AS DATE), CAST(10203101112 AS DATETIME), "
        "CAST(CAST(20010203101112.5 AS DOUBLE) AS DATETIME(1)), CAST(1 AS DATE), "
        "CAST('2011-02-03 10:11:12.123456' AS TIME(6))"))
    assert got == [("2000-01-01", "1999-12-31", "2001-02-03 10:11:12",
                    "2001-02-03 10:11:12.5", None, "10:11:12.123456")]


def test_find_in_set_and_interval_as_mariadb(session: SqliteSession) -> None:
    got = rows(session.execute(
        "SELECT FIND_IN_SET('', ''), FIND_IN_SET('', 'a,,b'), FIND_IN_SET(BINARY 'a', 'A,B'), "
        "FIND_IN_SET('a', 'A,B'), INTERVAL(0.0, NULL, NULL), INTERVAL(5, 1, NULL, 7)"))
    assert got == [(0, 2, 0, 1, 2, 2)]


def test_in_and_case_of_constants_compare_by_the_connection_collation(
        session: SqliteSession) -> None:
    got = rows(session.execute(
        "SELECT 'string' IN ('STRING', NULL), 'a' IN ('b', NULL), BINARY 'a' IN ('A'), "
        "CASE 'str' WHEN NULL THEN 'null' WHEN 'STR' THEN 'str' END"))
    assert got == [(1, None, 0, "str")]


def test_nullif_compares_as_numbers_and_deep_if_chains_run(session: SqliteSession) -> None:
    assert scalar(session, "SELECT NULLIF(1, 'test')") == 1
    assert [w.message for w in session.warnings] == [
        "Truncated incorrect DECIMAL value: 'test'"]
    chain = "0"
    for _ in range(40):  # SQLite's parser alone overflows at about 30 nested CASE
        chain = f"IF(ROUND(a, 2) = 1, 2, {chain})"
    session.execute("CREATE TABLE c (a DOUBLE)")
    session.execute("INSERT INTO c VALUES (1), (2)")
    assert rows(session.execute(f"SELECT {chain} + 1 FROM c")) == [(3,), (1,)]
