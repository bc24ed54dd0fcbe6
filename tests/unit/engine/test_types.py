"""engine/types.py: MySQL type spellings, what MariaDB stores for them, what the wire says."""

from __future__ import annotations

from decimal import Decimal

import pytest

from rampmeter.engine.types import SqlType, column_for_values, parse_type
from rampmeter.errors import ServerError
from rampmeter.protocol.constants import CHARSET_BINARY, ColumnFlag, ColumnType


# MariaDB 10.11.19: CREATE TABLE with the type, then SHOW CREATE TABLE prints the second.
@pytest.mark.parametrize(("decl", "shown"), [
    ("INT", "int(11)"), ("integer", "int(11)"), ("int unsigned", "int(10) unsigned"),
    ("INT(10) UNSIGNED", "int(10) unsigned"), ("int(5) unsigned zerofill",
                                              "int(5) unsigned zerofill"),
    ("int zerofill", "int(10) unsigned zerofill"),  # ZEROFILL implies UNSIGNED
    ("bigint(20) unsigned", "bigint(20) unsigned"), ("bigint unsigned", "bigint(20) unsigned"),
    ("TINYINT", "tinyint(4)"), ("tinyint unsigned", "tinyint(3) unsigned"),
    ("smallint unsigned", "smallint(5) unsigned"), ("mediumint unsigned", "mediumint(8) unsigned"),
    ("int8", "bigint(20)"), ("int1", "tinyint(4)"), ("middleint", "mediumint(9)"),
    ("bool", "tinyint(1)"), ("boolean", "tinyint(1)"), ("int(5)", "int(5)"),
    ("DECIMAL", "decimal(10,0)"), ("numeric(8,3)", "decimal(8,3)"), ("dec(5)", "decimal(5,0)"),
    ("fixed(6,1)", "decimal(6,1)"), ("decimal(10,2) unsigned", "decimal(10,2) unsigned"),
    ("float", "float"), ("float(7,3)", "float(7,3)"), ("float(30)", "double"),
    ("real", "double"), ("double precision", "double"), ("double(10,4)", "double(10,4)"),
    ("VARCHAR(10)", "varchar(10)"), ("char", "char(1)"), ("nchar(3)", "char(3)"),
    ("national char(10)", "char(10)"), ("character varying(7)", "varchar(7)"),
    ("binary", "binary(1)"), ("char byte", "binary(1)"), ("varbinary(5)", "varbinary(5)"),
    ("text", "text"), ("text(100)", "text"), ("text(60)", "tinytext"),
    ("long varchar", "mediumtext"), ("long", "mediumtext"), ("blob(70000)", "mediumblob"),
    ("datetime", "datetime"), ("datetime(6)", "datetime(6)"), ("time(3)", "time(3)"),
    ("timestamp(2)", "timestamp(2)"), ("year", "year(4)"), ("year(4)", "year(4)"),
    ("bit", "bit(1)"), ("bit(12)", "bit(12)"), ("json", "longtext"),
    ("enum('a','b''c')", "enum('a','b''c')"), ("set('x','y')", "set('x','y')"),
    # members written as hex or bit literals are characters of the column's set; MariaDB
    # escapes \\, \0, newline in what it prints (mtr type_set, type_enum)
    ("set('',0x0000) charset latin1", "set('','\\0\\0')"),
    ("enum(0xE4, X'41', b'01000011') charset latin1", "enum('\u00e4','A','C')"),
    ("enum('a\\\\b', 'e\\nf')", "enum('a\\\\b','e\\nf')"),
])
def test_spelling_is_mariadbs(decl: str, shown: str) -> None:
    t = parse_type(decl)
    assert t.spelling() == shown
    assert parse_type(t.spelling()).spelling() == shown  # what it prints reads back the same


def test_character_sets_and_collations() -> None:
    t = parse_type("varchar(5) CHARACTER SET latin1 COLLATE latin1_bin")
    assert (t.charset, t.collation) == ("latin1", "latin1_bin")
    assert not t.case_insensitive
    assert parse_type("char(10) binary").collation == "utf8mb4_bin"
    assert parse_type("nchar(3)").charset == "utf8mb3"
    assert parse_type("varchar(3) charset binary").name == "varbinary"
    with pytest.raises(ServerError) as info:
        parse_type("varchar(5) CHARACTER SET latin1 COLLATE utf8mb4_bin")
    assert info.value.code == 1253


@pytest.mark.parametrize(("decl", "code"), [
    ("decimal(66,2)", 1426), ("decimal(10,39)", 1425), ("decimal(5,6)", 1427),
    ("datetime(7)", 1426), ("varchar(3) character set nope", 1115),
])
def test_impossible_types_are_mariadbs_errors(decl: str, code: int) -> None:
    with pytest.raises(ServerError) as info:
        parse_type(decl)
    assert info.value.code == code


# The Column Definition MariaDB 10.11.19 sends for a table column (utf8mb4 results).
@pytest.mark.parametrize(("decl", "wire", "length", "decimals", "charset", "flags"), [
    ("tinyint", ColumnType.TINY, 4, 0, CHARSET_BINARY, 0),
    ("tinyint unsigned", ColumnType.TINY, 3, 0, CHARSET_BINARY, 0x20),
    ("mediumint unsigned", ColumnType.INT24, 8, 0, CHARSET_BINARY, 0x20),
    ("int(5) unsigned zerofill", ColumnType.LONG, 5, 0, CHARSET_BINARY, 0x60),
    ("bigint(20) unsigned", ColumnType.LONGLONG, 20, 0, CHARSET_BINARY, 0x20),
    ("decimal(10,2)", ColumnType.NEWDECIMAL, 12, 2, CHARSET_BINARY, 0),
    ("decimal(5,0) unsigned", ColumnType.NEWDECIMAL, 5, 0, CHARSET_BINARY, 0x20),
    ("decimal(65,30)", ColumnType.NEWDECIMAL, 67, 30, CHARSET_BINARY, 0),
    ("float", ColumnType.FLOAT, 12, 31, CHARSET_BINARY, 0),
    ("float(7,3)", ColumnType.FLOAT, 7, 3, CHARSET_BINARY, 0),
    ("double", ColumnType.DOUBLE, 22, 31, CHARSET_BINARY, 0),
    ("char(3)", ColumnType.STRING, 12, 0, 45, 0),
    ("varchar(10)", ColumnType.VAR_STRING, 40, 0, 45, 0),
    ("varchar(10) collate utf8mb4_bin", ColumnType.VAR_STRING, 40, 0, 45, 0x80),
    ("binary(4)", ColumnType.STRING, 4, 0, CHARSET_BINARY, 0x80),
    ("varbinary(8)", ColumnType.VAR_STRING, 8, 0, CHARSET_BINARY, 0x80),
    ("tinytext", ColumnType.BLOB, 1020, 0, 45, 0x10),
    ("text", ColumnType.BLOB, 262140, 0, 45, 0x10),
    ("longtext", ColumnType.BLOB, 4294967295, 0, 45, 0x10),
    ("blob", ColumnType.BLOB, 65535, 0, CHARSET_BINARY, 0x90),
    ("date", ColumnType.DATE, 10, 0, CHARSET_BINARY, 0x80),
    ("datetime(3)", ColumnType.DATETIME, 23, 3, CHARSET_BINARY, 0x80),
    ("timestamp(6)", ColumnType.TIMESTAMP, 26, 6, CHARSET_BINARY, 0xA0),
    ("time(2)", ColumnType.TIME, 13, 2, CHARSET_BINARY, 0x80),
    ("year", ColumnType.YEAR, 4, 0, CHARSET_BINARY, 0x60),
    ("bit(12)", ColumnType.BIT, 12, 0, CHARSET_BINARY, 0x20),
    ("enum('a','bb')", ColumnType.STRING, 8, 0, 45, 0x100),
    ("set('x','yy')", ColumnType.STRING, 16, 0, 45, 0x800),
    ("json", ColumnType.BLOB, 4294967295, 0, 45, 0x90),
])
def test_wire_column_is_mariadbs(decl: str, wire: ColumnType, length: int, decimals: int,
                                 charset: int, flags: int) -> None:
    t = parse_type(decl)
    if t.is_text and t.charset is None:
        from rampmeter.engine.types import with_table_defaults
        t = with_table_defaults(t, "utf8mb4", "utf8mb4_general_ci")
    col = t.column("c", table="t", schema="db")
    assert (col.type, col.length, col.decimals, col.charset, col.flags) == (
        wire, length, decimals, charset, flags)
    assert (col.name, col.org_name, col.table, col.schema) == ("c", "c", "t", "db")


def test_affinities() -> None:
    assert [parse_type(t).affinity for t in ("bigint unsigned", "decimal(5,2)", "varchar(3)",
                                             "datetime", "varbinary(3)", "bit(3)", "json")] == [
        "INT", "TEXT", "TEXT", "TEXT", "BLOB", "INT", "TEXT"]


def test_ranges() -> None:
    assert parse_type("tinyint unsigned").int_range == (0, 255)
    assert parse_type("bigint unsigned").int_range == (0, 2**64 - 1)
    assert parse_type("smallint").int_range == (-32768, 32767)
    assert parse_type("varchar(7)").max_chars == 7
    assert parse_type("text").max_chars == 65535 // 4  # characters of utf8mb4


@pytest.mark.parametrize(("values", "wire"), [
    ([1, 2, None], ColumnType.LONGLONG),
    ([None, 1.5], ColumnType.DOUBLE),
    ([1, 2.5], ColumnType.DOUBLE),  # ints and floats mixed
    ([1, "a"], ColumnType.VAR_STRING),
    ([Decimal("1.1")], ColumnType.NEWDECIMAL),
    ([b"x"], ColumnType.BLOB),
    ([None, None], ColumnType.NULL),
    ([], ColumnType.NULL),
    ([True], ColumnType.LONGLONG),
])
def test_column_for_values(values: list[object], wire: ColumnType) -> None:
    assert column_for_values("e", values).type == wire


def test_flags_of_keys_add_to_the_types() -> None:
    col = SqlType("int", 11).column("id", flags=ColumnFlag.NOT_NULL | ColumnFlag.PRI_KEY)
    assert col.flags & ColumnFlag.PRI_KEY and col.flags & ColumnFlag.NOT_NULL
