"""types.py (MySQL type -> wire Column, SHOW spelling, value adapters) and catalog.py (DDL)."""

from __future__ import annotations

import sqlite3
from decimal import Decimal

import pytest
import sqlglot

from rampmeter import errors
from rampmeter.engine import catalog
from rampmeter.engine.types import (
    column_for_type,
    column_for_values,
    mysql_spelling,
    parse_type,
    wire_adapter,
)
from rampmeter.errors import ServerError
from rampmeter.protocol.constants import (
    CHARSET_BINARY,
    CHARSET_UTF8MB4_GENERAL_CI,
    ColumnFlag,
    ColumnType,
)


# --- types.py -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "parsed"), [
    ("INT(11) UNSIGNED", ("int", ["11"], True)),
    ("varchar(10)", ("varchar", ["10"], False)),
    ("decimal(10, 2)", ("decimal", ["10", "2"], False)),
    ("double precision", ("double", [], False)),
    ("varchar(5) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin", ("varchar", ["5"], False)),
])
def test_parse_type(text: str, parsed: tuple[str, list[str], bool]) -> None:
    assert parse_type(text) == parsed


@pytest.mark.parametrize(("decl", "shown"), [
    ("INT", "int(11)"), ("integer", "int(11)"), ("int unsigned", "int(10) unsigned"),
    ("TINYINT", "tinyint(4)"), ("tinyint unsigned", "tinyint(3) unsigned"),
    ("smallint unsigned", "smallint(5) unsigned"), ("mediumint unsigned", "mediumint(8) unsigned"),
    ("BIGINT", "bigint(20)"), ("bigint unsigned", "bigint(20) unsigned"),
    ("bool", "tinyint(1)"), ("int(5)", "int(5)"),
    ("DECIMAL", "decimal(10,0)"), ("numeric(8,3)", "decimal(8,3)"),
    ("VARCHAR(10)", "varchar(10)"), ("text", "text"), ("datetime", "datetime"),
])
def test_mysql_spelling(decl: str, shown: str) -> None:
    assert mysql_spelling(decl) == shown


@pytest.mark.parametrize(("decl", "wire", "length", "decimals", "charset"), [
    ("int", ColumnType.LONG, 11, 0, CHARSET_BINARY),
    ("bigint", ColumnType.LONGLONG, 20, 0, CHARSET_BINARY),
    ("tinyint(1)", ColumnType.TINY, 1, 0, CHARSET_BINARY),
    ("decimal(10,2)", ColumnType.NEWDECIMAL, 12, 2, CHARSET_BINARY),
    ("double", ColumnType.DOUBLE, 22, 31, CHARSET_BINARY),
    ("varchar(10)", ColumnType.VAR_STRING, 40, 0, CHARSET_UTF8MB4_GENERAL_CI),
    ("char(3)", ColumnType.STRING, 12, 0, CHARSET_UTF8MB4_GENERAL_CI),
    ("varbinary(8)", ColumnType.VAR_STRING, 8, 0, CHARSET_BINARY),
    ("text", ColumnType.BLOB, 65535 * 4, 0, CHARSET_UTF8MB4_GENERAL_CI),
    ("blob", ColumnType.BLOB, 65535, 0, CHARSET_BINARY),
    ("datetime", ColumnType.DATETIME, 19, 0, CHARSET_BINARY),
    ("INTEGER", ColumnType.LONG, 11, 0, CHARSET_BINARY),
    ("UNSIGNED BIG INT", ColumnType.LONGLONG, 20, 0, CHARSET_BINARY),  # SQLite affinity rules
    ("something odd", ColumnType.VAR_STRING, 1020, 0, CHARSET_UTF8MB4_GENERAL_CI),
])
def test_column_for_type(decl: str, wire: ColumnType, length: int, decimals: int,
                         charset: int) -> None:
    col = column_for_type("c", decl, table="t", schema="db")
    assert (col.type, col.length, col.decimals, col.charset) == (wire, length, decimals, charset)
    assert (col.name, col.org_name, col.table, col.org_table, col.schema) == ("c", "c", "t", "t",
                                                                              "db")


def test_column_flags() -> None:
    assert column_for_type("c", "int unsigned").flags & ColumnFlag.UNSIGNED
    assert column_for_type("c", "int").flags & ColumnFlag.NUM
    assert column_for_type("c", "blob").flags & ColumnFlag.BLOB
    assert column_for_type("c", "blob").flags & ColumnFlag.BINARY
    assert column_for_type("c", "enum('a')").flags & ColumnFlag.ENUM
    assert column_for_type("c", "timestamp").flags & ColumnFlag.TIMESTAMP
    assert column_for_type("c", "int", flags=ColumnFlag.NOT_NULL).flags & ColumnFlag.NOT_NULL


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


def test_wire_adapter_pads_decimals_and_stringifies_numbers_in_text_columns() -> None:
    dec = wire_adapter(column_for_type("d", "decimal(10,2)", table="t"))
    assert dec is not None
    assert [dec(v) for v in (5, 0.1, "3.456", None, Decimal("-1"))] == [
        "5.00", "0.10", "3.46", None, "-1.00"]
    text = wire_adapter(column_for_type("s", "varchar(5)", table="t"))
    assert text is not None
    assert [text(v) for v in (12, 1.5, "x", None)] == ["12", "1.5", "x", None]
    assert wire_adapter(column_for_type("i", "int", table="t")) is None
    assert wire_adapter(column_for_type("d", "decimal(10,2)")) is None  # not a table column


# --- catalog.py ---------------------------------------------------------------------------------
def create(sql: str) -> catalog.CreateTable:
    tree = sqlglot.parse_one(sql, read="mysql")
    assert isinstance(tree, sqlglot.exp.Create)
    return catalog.create_table(tree, "db")


def test_create_table_translation() -> None:
    ct = create("CREATE TABLE IF NOT EXISTS t (id INT NOT NULL AUTO_INCREMENT, "
                "name VARCHAR(20) NOT NULL DEFAULT 'x', bin VARCHAR(5) COLLATE utf8mb4_bin, "
                "PRIMARY KEY (id), KEY k_name (name), UNIQUE KEY (bin), "
                "FOREIGN KEY (name) REFERENCES other (n)) ENGINE=InnoDB AUTO_INCREMENT=10")
    assert (ct.table, ct.database, ct.if_not_exists, ct.auto_increment) == ("t", "db", True, 10)
    assert ct.type_overrides == [("id", "int")]
    table_sql, *index_sql = ct.statements
    assert '"id" INTEGER PRIMARY KEY AUTOINCREMENT' in table_sql
    assert '"name" varchar(20) COLLATE NOCASE NOT NULL DEFAULT \'x\'' in table_sql
    assert '"bin" varchar(5)' in table_sql and "bin\" varchar(5) COLLATE" not in table_sql
    assert "REFERENCES" not in table_sql  # foreign keys are dropped
    assert index_sql == [
        'CREATE INDEX IF NOT EXISTS "db"."t.k_name" ON "t" ("name")',
        'CREATE UNIQUE INDEX IF NOT EXISTS "db"."t.bin" ON "t" ("bin")',
    ]


def test_create_table_runs_in_sqlite_and_reads_back() -> None:
    ct = create("CREATE TABLE t (id BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY, "
                "kind ENUM('a','b''c') NOT NULL DEFAULT 'a', amount DECIMAL(8,3) DEFAULT 0, "
                "INDEX (kind))")
    conn = sqlite3.connect(":memory:")
    conn.execute("ATTACH ':memory:' AS db")
    conn.execute(catalog.meta_table_ddl("db"))
    for stmt in ct.statements:
        conn.execute(stmt)
    for col, ctype in ct.type_overrides:
        conn.execute(f"INSERT INTO db.{catalog.META_TABLE} VALUES ('t', ?, ?)", (col, ctype))
    cols = catalog.columns(conn, "db", "t")
    assert [(c.name, c.column_type, c.key, c.default, c.extra) for c in cols] == [
        ("id", "bigint(20) unsigned", "PRI", None, "auto_increment"),
        ("kind", "enum('a','b''c')", "MUL", "a", ""),
        ("amount", "decimal(8,3)", "", "0", ""),
    ]
    assert [i.name for i in catalog.indexes(conn, "db", "t")] == ["PRIMARY", "kind"]
    assert catalog.table_names(conn, "db") == ["t"]  # the meta table is hidden
    assert catalog.find_table(conn, "db", "T") == "t"


def test_duplicate_index_names_get_a_suffix() -> None:
    ct = create("CREATE TABLE t (a int, b int, KEY (a), KEY (a, b))")
    assert [s.split('"')[3] for s in ct.statements[1:]] == ["t.a", "t.a_2"]


@pytest.mark.parametrize(("sql", "code"), [
    ("CREATE TABLE t (a int AUTO_INCREMENT, b int AUTO_INCREMENT, PRIMARY KEY (a))",
     errors.ER_WRONG_AUTO_KEY),
    ("CREATE TABLE t (a int PRIMARY KEY, b int, PRIMARY KEY (b))", errors.ER_MULTIPLE_PRI_KEY),
    ("CREATE TABLE t (a int AUTO_INCREMENT, b int, PRIMARY KEY (a, b))",
     errors.ER_NOT_SUPPORTED_YET),
])
def test_create_table_rejections(sql: str, code: int) -> None:
    with pytest.raises(ServerError) as info:
        create(sql)
    assert info.value.code == code


def test_quote_identifier() -> None:
    assert catalog.q('we"ird') == '"we""ird"'


def test_parse_mysql_errors_are_1064() -> None:
    for bad in ("CREATE TABLE (", "CREATE TABLE t (a varchar(3) DEFAULT 'open)"):
        with pytest.raises(ServerError) as info:
            catalog.parse_mysql(bad)
        assert info.value.code == errors.ER_PARSE_ERROR
