"""Issue 8, item 1: statement text is bytes; binary columns hold exact bytes (charset 63);
text follows SET NAMES; LENGTH counts bytes and CHAR_LENGTH characters.

How the drivers send a bytes parameter (what the server must parse): mysqlclient and
mysql-connector (pure and C) escape the raw bytes into the statement text ('\\0', '\\'', '\\\\',
the rest as is, so the text is not UTF-8); PyMySQL and aiomysql send _binary X'hex'; the
prepared cursors and raw-bin send it as a binary-protocol parameter.
"""

from __future__ import annotations

import pytest

from tests.compat.conftest import cases, drivers
from tests.compat.drivers import Options, Step

ALL_BYTES = bytes(range(256))



def as_bytes(value: object) -> bytes:
    assert isinstance(value, bytes | bytearray), type(value)
    return bytes(value)


@pytest.mark.parametrize("driver", drivers())
def test_blob_parameter_holds_all_256_byte_values(compat, driver):
    compat.setup("CREATE TABLE t (id INT PRIMARY KEY, b BLOB, vb VARBINARY(300))")
    a = compat.run(driver, [
        Step("INSERT INTO t (id, b, vb) VALUES (%s, %s, %s)", (1, ALL_BYTES, ALL_BYTES)),
        "SELECT b, vb FROM t",
        "SELECT LENGTH(b), b = vb FROM t",
        "SELECT 1",  # the connection is still usable
    ])
    row = a.maria[1].rows[0]
    assert as_bytes(row[0]) == as_bytes(row[1]) == ALL_BYTES
    assert a.maria[2].rows == ((256, 1),)
    a.assert_same(columns=[1])


@pytest.mark.parametrize("driver", drivers())
def test_blob_parameters_of_each_single_byte(compat, driver):
    """Every byte alone, the escaped ones (NUL, quote, backslash, ^Z) included, in one batch."""
    compat.setup("CREATE TABLE t (id INT PRIMARY KEY, b VARBINARY(4))")
    a = compat.run(driver, [
        *(Step("INSERT INTO t (id, b) VALUES (%s, %s)", (i, bytes([i, i]))) for i in range(256)),
        "SELECT id, b FROM t ORDER BY id",
    ])
    assert [(i, as_bytes(b)) for i, b in a.maria[-1].rows] == [(i, bytes([i, i]))
                                                              for i in range(256)]
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector", "connector-c",
                                           "aiomysql", "raw-bin"))
def test_invalid_utf8_in_a_string_literal(compat, driver):
    compat.setup("CREATE TABLE t (id INT PRIMARY KEY, b BLOB)")
    a = compat.run(driver, [
        b"INSERT INTO t (id, b) VALUES (1, '\xff\xfe\x80')",
        b"SELECT HEX('\xff\xfe'), HEX(b), LENGTH(b) FROM t",
        "SELECT 1",
    ])
    assert a.maria[1].rows == (("FFFE", "FFFE80", 3),)
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("raw-bin"))
def test_invalid_utf8_literal_comes_back_as_sent(compat, driver):
    """MariaDB returns the bytes of an invalid utf8mb4 literal unchanged (charset 45)."""
    a = compat.run(driver, [b"SELECT '\xff\xfe'"])
    assert a.maria[0].rows == ((b"\xff\xfe",),)
    a.assert_same(columns=[0])


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector", "aiomysql",
                                           "raw-bin"))
def test_statement_may_end_in_nul(compat, driver):
    """mariadb-slap sends a NUL after each statement (COM_QUERY; raw-bin: COM_STMT_PREPARE)."""
    a = compat.run(driver, [b"SELECT 1\x00", "SELECT 2"])
    assert a.maria[0].value() == 1
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", "raw-bin"))
def test_statement_may_end_in_semicolon_nul(compat, driver):
    """Only for clients without CLIENT_MULTI_STATEMENTS: with it (mysqlclient, mysql-connector,
    aiomysql by default) MariaDB reads a second, empty statement after the ';' (1065)."""
    a = compat.run(driver, [b"SELECT 1;\x00", "SELECT 2"])
    assert a.maria[0].value() == 1
    a.assert_same()


# form -> (statements, indices of the statements whose column metadata is compared: those
# that select only the literal, not an expression over it)
LITERALS: dict[str, tuple[list[str | bytes], list[int]]] = {
    "_binary": (["SELECT _binary'abc', _binary'', _BINARY\"q\""], [0]),
    "_utf8mb4": (["SELECT _utf8mb4'abc', _utf8mb4'café'"], [0]),
    "_utf8mb4-collate": (["SELECT _utf8mb4'abc' COLLATE utf8mb4_bin"], [0]),
    "_latin1": ([b"SELECT _latin1'caf\xe9'", b"SELECT HEX(_latin1'caf\xe9')"], [0]),
    "_binary-invalid-utf8": ([b"SELECT _binary'\xff\x00\xfe'",
                              b"SELECT LENGTH(_binary'\xff\x00\xfe')"], [0]),
    "x-quoted": (["SELECT X'616263', x'00ff', X''"], [0]),
    "0x": (["SELECT 0x616263, 0x00FF"], [0]),
    "0x-as-number": (["SELECT 0x10 + 0, 0xFFFFFFFFFFFFFFFF + 0"], []),
    "b-quoted": (["SELECT b'01100001', B'', b'0'", "SELECT B'1' + 0, b'11111111' + 0"], [0]),
    "0b": (["SELECT 0b01100001", "SELECT 0b1 + 0"], [0]),
    "n-quoted": (["SELECT N'abc', n'café'"], [0]),
    "backslash-escapes": ([r"""SELECT HEX('\0\n\t\r\b\Z\'\"\\\%\_\a')""",
                           r"SELECT 'a\0b', '\%\_', 'tab\there'"], [1]),
    "quote-doubling": (["""SELECT 'a''b', "a""b", 'a' 'b'"""], [0]),
    "nul-byte-in-literal": ([b"SELECT HEX('a\x00b'), LENGTH('a\x00b')"], []),
    "x-lengths": (["SELECT LENGTH(X'00FF'), CHAR_LENGTH(X'00FF'), HEX(CAST(X'00FF' AS BINARY))"],
                  []),
}


LITERAL_XFAIL: dict[str, str] = {}


@pytest.mark.parametrize("driver", drivers("pymysql", "connector", "raw-bin"))
@pytest.mark.parametrize("form", cases(LITERALS, LITERAL_XFAIL))
def test_string_literal_forms(compat, driver, form):
    statements, columns = LITERALS[form]
    a = compat.run(driver, [*statements, "SELECT 1"])
    assert all(o.error is None for o in a.maria), [o.error for o in a.maria]
    a.assert_same(columns=columns)


@pytest.mark.parametrize("driver", drivers())
def test_binary_columns_return_exact_bytes_with_charset_63(compat, driver):
    compat.setup(
        "CREATE TABLE t (id INT PRIMARY KEY, bn BINARY(4), vb VARBINARY(8), tb TINYBLOB, "
        "b BLOB, mb MEDIUMBLOB, lb LONGBLOB, v VARCHAR(8), tx TEXT, c CHAR(4))",
        "INSERT INTO t VALUES (1, X'00FF', X'00FF20', X'20', X'', X'00', X'FF', 'ab ', 'é', 'x')")
    a = compat.run(driver, ["SELECT bn, vb, tb, b, mb, lb, v, tx, c FROM t",
                            "SELECT LENGTH(bn), LENGTH(vb), HEX(bn), bn = X'00FF' FROM t"])
    row = a.maria[0].rows[0]
    assert as_bytes(row[0]) == b"\x00\xff\x00\x00" and as_bytes(row[1]) == b"\x00\xff "
    assert a.maria[1].rows == ((4, 3, "00FF0000", 0),)
    a.assert_same(columns=[0])


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector", "aiomysql"))
def test_set_names_latin1_statement_bytes(compat, driver):
    """After SET NAMES latin1 a statement's bytes are latin1: 0xE9 is é, stored as utf8mb4."""
    compat.setup("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))")
    a = compat.run(driver, [
        "SET NAMES latin1",
        "SELECT @@character_set_client, @@character_set_connection, @@character_set_results",
        b"INSERT INTO t VALUES (1, 'caf\xe9')",
        b"SELECT HEX(v), v = 'caf\xe9' AS same, CHAR_LENGTH(v), LENGTH(v) FROM t",
        "SET NAMES utf8mb4",
        "SELECT v, HEX(v) FROM t",
    ])
    assert a.maria[3].rows == (("636166C3A9", 1, 4, 5),)
    assert a.maria[5].rows == (("café", "636166C3A9"),)
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector", "aiomysql"))
def test_driver_charset_latin1(compat, driver):
    """The driver itself set to latin1: it encodes parameters and decodes results as latin1."""
    compat.setup("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))")
    a = compat.run(driver, [
        "SELECT @@character_set_client, @@character_set_results",
        Step("INSERT INTO t VALUES (%s, %s)", (1, "café")),
        "SELECT v, HEX(v), CHAR_LENGTH(v), LENGTH(v) FROM t",
    ], connect={"a": Options(charset="latin1")})
    assert a.maria[2].rows == (("café", "636166C3A9", 4, 5),)
    a.assert_same(columns=[2])


@pytest.mark.parametrize("driver", drivers("pymysql", "raw-bin"))
def test_set_names_binary(compat, driver):
    """SET NAMES binary: statement bytes are taken as they are; results are not converted and
    come back as bytes."""
    compat.setup("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))")
    a = compat.run(driver, [
        "SET NAMES binary",
        "SELECT HEX(@@character_set_client), HEX(@@character_set_results)",
        b"INSERT INTO t VALUES (1, 'caf\xc3\xa9')",
        "SELECT HEX(v), CHAR_LENGTH(v), LENGTH(v) FROM t",
        "SELECT v FROM t",
    ])
    assert a.maria[3].rows == ((b"636166C3A9", 4, 5),)  # results are binary too
    assert a.maria[4].rows == ((b"caf\xc3\xa9",),)
    a.assert_same(columns=[4])


@pytest.mark.parametrize("driver", drivers("pymysql", "connector-prep"))
def test_length_is_bytes_char_length_is_characters(compat, driver):
    compat.setup("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10), b BLOB)",
                 "INSERT INTO t VALUES (1, 'café€', 'café€')")
    a = compat.run(driver, [
        "SELECT LENGTH('café'), CHAR_LENGTH('café'), LENGTH('€'), CHAR_LENGTH('€')",
        "SELECT LENGTH(v), CHAR_LENGTH(v), LENGTH(b), CHAR_LENGTH(b) FROM t",
        "SELECT LENGTH(_binary'ab'), LENGTH(X'00FF'), CHAR_LENGTH(X'00FF')",
    ])
    assert a.maria[0].rows == ((5, 4, 3, 1),)
    assert a.maria[1].rows == ((8, 5, 8, 8),)
    assert a.maria[2].rows == ((2, 2, 2),)
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_length_synonyms(compat, driver):
    a = compat.run(driver, ["SELECT OCTET_LENGTH('€'), CHARACTER_LENGTH('€'), BIT_LENGTH('é')"])
    assert a.maria[0].rows == ((3, 1, 16),)
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_charset_introducers_type_the_literal(compat, driver):
    """`_utf8'..'` / `_latin1'..'` give the literal that character set: CHARSET(), COLLATION(),
    LENGTH() in its bytes, and the column CREATE TABLE ... SELECT makes of it."""
    compat.check(driver, [
        "SET NAMES latin1",
        b"SELECT CHARSET(_utf8'\xd1\x82\xd0\xb5'), COLLATION(_latin1'a'), "
        b"LENGTH(_utf8'\xd1\x82\xd0\xb5'), CHAR_LENGTH(_utf8'\xd1\x82\xd0\xb5'), CHARSET(N'a')",
        b"CREATE TABLE t_in SELECT _utf8'test' AS c1, _utf8'\xd1\x82\xd0\xb5' AS c2, "
        b"_latin1'ab' AS c3",
        "SHOW CREATE TABLE t_in",
        "DROP TABLE t_in",
    ])
