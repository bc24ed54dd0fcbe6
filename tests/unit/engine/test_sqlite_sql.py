"""SqliteSession.execute(): DDL, DML, SHOW, information_schema and session values, as MySQL."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest

from rampmeter import errors
from rampmeter.engine.base import ResultSet
from rampmeter.engine.sqlite import SqliteEngine, SqliteSession
from rampmeter.errors import ServerError
from rampmeter.protocol.constants import ColumnFlag, ColumnType

from .conftest import FakeContext, fails, rows, scalar, update

ITEMS_DDL = ("CREATE TABLE items (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, "
             "name VARCHAR(20) NOT NULL, price DECIMAL(10,2), cat INT, note TEXT, "
             "KEY idx_cat (cat), UNIQUE KEY uq_name (name)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4")


@pytest.fixture
def items(session: SqliteSession) -> SqliteSession:
    session.execute(ITEMS_DDL)
    session.execute("INSERT INTO items (name, price, cat) VALUES "
                    "('apple', 1.5, 1), ('Banana', 2, 2), ('cherry', 3.25, 1)")
    return session


# --- databases --------------------------------------------------------------------------------
def test_create_and_drop_database(open_session: Callable[..., SqliteSession],
                                  engine: SqliteEngine) -> None:
    s = open_session()
    assert update(s, "CREATE DATABASE shop").affected_rows == 1
    assert engine.database_exists("shop")
    assert "shop" in s.list_databases()
    s.use("shop")
    s.execute("CREATE TABLE a (x int)")
    s.execute("CREATE TABLE b (x int)")
    assert update(s, "DROP DATABASE shop").affected_rows == 2  # MySQL: tables dropped
    assert not engine.database_exists("shop")
    assert s.database is None  # dropping the current database unselects it


def test_create_existing_database_is_1007_or_a_note(session: SqliteSession) -> None:
    fails(session, "CREATE DATABASE db", errors.ER_DB_CREATE_EXISTS, "HY000")
    result = update(session, "CREATE DATABASE IF NOT EXISTS db")
    assert result.affected_rows == 0
    assert [(w.level, w.code) for w in result.warnings] == [("Note", errors.ER_DB_CREATE_EXISTS)]


def test_drop_missing_database_is_1008_or_a_note(session: SqliteSession) -> None:
    fails(session, "DROP DATABASE nope", errors.ER_DB_DROP_EXISTS, "HY000")
    result = update(session, "DROP DATABASE IF EXISTS nope")
    assert [(w.level, w.code) for w in result.warnings] == [("Note", errors.ER_DB_DROP_EXISTS)]


def test_use_unknown_database_is_1049(open_session: Callable[..., SqliteSession]) -> None:
    s = open_session()
    with pytest.raises(ServerError) as info:
        s.use("nowhere")
    assert (info.value.code, info.value.sqlstate) == (errors.ER_BAD_DB_ERROR, "42000")
    assert s.database is None


def test_use_switches_the_current_database(open_session: Callable[..., SqliteSession]) -> None:
    s = open_session()
    s.execute("CREATE DATABASE one")
    s.execute("CREATE DATABASE two")
    s.execute("CREATE TABLE one.t (v varchar(5))")
    s.execute("CREATE TABLE two.t (v varchar(5))")
    s.execute("INSERT INTO one.t VALUES ('1')")
    s.execute("INSERT INTO two.t VALUES ('2')")
    s.use("one")
    assert scalar(s, "SELECT v FROM t") == "1"
    assert scalar(s, "SELECT DATABASE()") == "one"
    s.use("two")
    assert scalar(s, "SELECT v FROM t") == "2"
    assert rows(s.execute("SELECT a.v, b.v FROM one.t a JOIN two.t b")) == [("1", "2")]
    s.use(None)
    assert scalar(s, "SELECT DATABASE()") is None


# --- tables -----------------------------------------------------------------------------------
def test_create_table_with_mysql_types_keys_and_engine(items: SqliteSession) -> None:
    assert items.list_tables() == ["items"]
    cols = {c.name: c for c in items.table_columns("items")}
    assert cols["id"].column_type == "int(11)"
    assert (cols["id"].key, cols["id"].extra, cols["id"].nullable) == ("PRI", "auto_increment",
                                                                       False)
    assert cols["name"].column_type == "varchar(20)" and cols["name"].key == "UNI"
    assert cols["price"].column_type == "decimal(10,2)" and cols["price"].nullable
    assert cols["cat"].key == "MUL"
    assert cols["note"].column_type == "text"
    indexes = {i.name: i for i in items.table_indexes("items")}
    assert set(indexes) == {"PRIMARY", "uq_name", "idx_cat"}
    assert indexes["uq_name"].unique and not indexes["idx_cat"].unique
    assert indexes["idx_cat"].columns == ("cat",)


def test_create_existing_table_is_1050_or_a_note(items: SqliteSession) -> None:
    fails(items, "CREATE TABLE items (x int)", errors.ER_TABLE_EXISTS_ERROR, "42S01")
    result = update(items, "CREATE TABLE IF NOT EXISTS items (x int)")
    assert [(w.level, w.code) for w in result.warnings] == [("Note",
                                                              errors.ER_TABLE_EXISTS_ERROR)]


@pytest.mark.parametrize(("decl", "shown", "wire"), [
    ("TINYINT(1)", "tinyint(1)", ColumnType.TINY),
    ("SMALLINT", "smallint(6)", ColumnType.SHORT),
    ("MEDIUMINT", "mediumint(9)", ColumnType.INT24),
    ("BIGINT UNSIGNED", "bigint(20) unsigned", ColumnType.LONGLONG),
    ("CHAR(3)", "char(3)", ColumnType.STRING),
    ("VARBINARY(8)", "varbinary(8)", ColumnType.VAR_STRING),
    ("DOUBLE", "double", ColumnType.DOUBLE),
    ("FLOAT", "float", ColumnType.FLOAT),
    ("DATETIME", "datetime", ColumnType.DATETIME),
    ("DATE", "date", ColumnType.DATE),
    ("TIMESTAMP", "timestamp", ColumnType.TIMESTAMP),
    ("BLOB", "blob", ColumnType.BLOB),
    ("ENUM('x','y')", "enum('x','y')", ColumnType.STRING),
    ("SET('a','b')", "set('a','b')", ColumnType.STRING),
])
def test_column_types_round_trip(session: SqliteSession, decl: str, shown: str,
                                 wire: ColumnType) -> None:
    session.execute(f"CREATE TABLE t (v {decl})")
    assert [c.column_type for c in session.table_columns("t")] == [shown]
    result = session.execute("SELECT v FROM t")
    assert isinstance(result, ResultSet)
    assert result.columns[0].type == wire


def test_enum_values_are_stored_and_compared_as_text(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (id int, k ENUM('small','Large') NOT NULL DEFAULT 'small')")
    session.execute("INSERT INTO t (id, k) VALUES (1, 'Large')")
    session.execute("INSERT INTO t (id) VALUES (2)")
    assert rows(session.execute("SELECT id, k FROM t ORDER BY id")) == [(1, "Large"),
                                                                       (2, "small")]
    assert scalar(session, "SELECT id FROM t WHERE k = 'LARGE'") == 1


def test_computed_unsigned_above_bigint_range_is_stored(session: SqliteSession) -> None:
    # a value above 2^63-1 read back from SQLite (its '~' text) and stored again (MDEV-657)
    session.execute("CREATE TABLE t (a BIGINT UNSIGNED NOT NULL PRIMARY KEY)")
    for _ in range(2):
        session.execute("INSERT INTO t (a) VALUES (13836376518955650385) "
                        "ON DUPLICATE KEY UPDATE a = GREATEST(a, VALUES(a))")
    session.execute("UPDATE t SET a = a")
    session.execute("CREATE TABLE v (s VARCHAR(30))")
    session.execute("INSERT INTO v SELECT a FROM t")
    assert rows(session.execute("SELECT a FROM t")) == [(13836376518955650385,)]
    assert rows(session.execute("SELECT s FROM v")) == [("13836376518955650385",)]


def test_an_expression_default_reads_the_row(session: SqliteSession) -> None:
    # MariaDB (MDEV-10134, mtr func_compress): a default names the row's values, those given
    # and the defaults of the columns before it
    session.execute("CREATE TABLE t (a INT, b INT DEFAULT (a + 1), c INT DEFAULT (b * 2))")
    session.execute("INSERT INTO t (a) VALUES (1), (2)")
    session.execute("INSERT INTO t (b) VALUES (5)")
    session.execute("INSERT INTO t VALUES (7, DEFAULT, DEFAULT)")
    session.execute("INSERT INTO t (a) SELECT 10")
    assert rows(session.execute("SELECT * FROM t")) == [
        (1, 2, 4), (2, 3, 6), (None, 5, 10), (7, 8, 16), (10, 11, 22)]


def test_a_system_variable_default_needs_no_parentheses(session: SqliteSession) -> None:
    # MariaDB (mtr default_session): DEFAULT @@var is DEFAULT (@@var), read at each insert
    session.execute("CREATE TABLE t (a VARCHAR(100) DEFAULT @@div_precision_increment, "
                    "b INT)")
    session.execute("INSERT INTO t (b) VALUES (1)")
    assert rows(session.execute("SELECT a FROM t")) == [("4",)]


def test_now_default_keeps_its_own_precision(session: SqliteSession) -> None:
    # MariaDB (mtr func_default): DEFAULT now(2) of a DATETIME(6) column is the time to two
    # digits, stored and read back with six, and DEFAULT(col) is that value too
    session.context.variables["timestamp"] = 978344430.123456  # type: ignore[attr-defined]
    session.execute("CREATE TABLE t (f DATETIME(6) DEFAULT now(2), g DATETIME(6) DEFAULT "
                    "now(6))")
    session.execute("INSERT INTO t () VALUES ()")
    got = rows(session.execute("SELECT f, DEFAULT(f), g FROM t"))[0]
    assert [str(v)[-7:] for v in got] == [".120000", ".120000", ".123456"]


def test_update_assigns_left_to_right(session: SqliteSession) -> None:
    # MariaDB's single-table UPDATE: a column SET earlier is its new value...
    session.execute("CREATE TABLE t (a INT, b INT, c INT DEFAULT (a * 10))")
    session.execute("INSERT INTO t VALUES (1, 1, 1)")
    session.execute("UPDATE t SET a = a + 1, b = a, c = DEFAULT")
    assert rows(session.execute("SELECT * FROM t")) == [(2, 2, 20)]
    session.execute("UPDATE t x SET x.a = 10, b = x.a + 1")
    assert rows(session.execute("SELECT * FROM t")) == [(10, 11, 20)]
    # ... unless a subquery reads the table: then every value is read first
    session.execute("UPDATE t SET a = a + 1, b = a, c = (SELECT MAX(a) FROM t)")
    assert rows(session.execute("SELECT * FROM t")) == [(11, 10, 10)]


def test_a_computed_binary_string_is_the_columns_characters(session: SqliteSession) -> None:
    # MariaDB copies the bytes: 0xE5 is 'å' in latin1, invalid in utf8mb4 (mtr func_sformat)
    session.execute("CREATE TABLE t (l TEXT CHARACTER SET latin1, u TEXT CHARACTER SET utf8mb4)")
    session.execute("INSERT INTO t VALUES (UNHEX('E5'), UNHEX('C3A5'))")
    assert rows(session.execute("SELECT l, u, HEX(l) FROM t")) == [("å", "å", "E5")]
    fails(session, "INSERT INTO t VALUES ('x', UNHEX('E5'))", 1366)


def test_insert_select_star_into_some_columns(session: SqliteSession) -> None:
    # the columns left out get their defaults (mtr order_by_sortkey; was 1105 '2 values for
    # 4 columns'), and the star's values are converted and counted as named ones are
    session.execute("CREATE TABLE t (a INT DEFAULT 7, b INT, f1 INT, f2 VARCHAR(20))")
    session.execute("CREATE TABLE s (f1 INT, f2 VARCHAR(20))")
    session.execute("INSERT INTO s VALUES (1, 'x')")
    session.execute("INSERT INTO t (f1, f2) SELECT * FROM s")
    session.execute("INSERT INTO t (b, f2) SELECT s.* FROM s")
    assert rows(session.execute("SELECT * FROM t")) == [(7, None, 1, "x"), (7, 1, None, "x")]
    fails(session, "INSERT INTO t (f1) SELECT * FROM s", 1136)


def test_enum_not_null_without_default_inserts_its_first_member(session: SqliteSession) -> None:
    # MariaDB: an INSERT passes an ENUM without a default (a SET is 1364); an UPDATE does not
    session.execute("CREATE TABLE t (id int, e ENUM('x','y') NOT NULL, s SET('a') NOT NULL)")
    session.execute("INSERT INTO t (id, e, s) VALUES (1, 'y', 'a'), (2, DEFAULT, 'a')")
    session.execute("INSERT INTO t (id, s) SELECT 3, 'a'")
    assert rows(session.execute("SELECT id, e FROM t ORDER BY id")) == [
        (1, "y"), (2, "x"), (3, "x")]
    fails(session, "INSERT INTO t (id, e) VALUES (4, 'y')", 1364)
    fails(session, "UPDATE t SET e = DEFAULT", 1364)
    fails(session, "SELECT DEFAULT(e) FROM t", 1364)


def test_drop_table(items: SqliteSession) -> None:
    update(items, "DROP TABLE items")
    assert items.list_tables() == []
    fails(items, "DROP TABLE items", errors.ER_BAD_TABLE_ERROR, "42S02")
    result = update(items, "DROP TABLE IF EXISTS items")
    assert [(w.level, w.code) for w in result.warnings] == [("Note", errors.ER_BAD_TABLE_ERROR)]


# --- SHOW / DESCRIBE --------------------------------------------------------------------------
def test_show_tables(items: SqliteSession) -> None:
    items.execute("CREATE TABLE other (x int)")
    result = items.execute("SHOW TABLES")
    assert isinstance(result, ResultSet)
    assert [c.name for c in result.columns] == ["Tables_in_db"]
    assert rows(result) == [("items",), ("other",)]
    assert rows(items.execute("SHOW TABLES LIKE 'it%'")) == [("items",)]
    assert rows(items.execute("SHOW FULL TABLES FROM db LIKE 'o%'")) == [("other", "BASE TABLE")]


def test_show_columns_and_describe(items: SqliteSession) -> None:
    expected = [
        ("id", "int(11)", "NO", "PRI", None, "auto_increment"),
        ("name", "varchar(20)", "NO", "UNI", None, ""),
        ("price", "decimal(10,2)", "YES", "", None, ""),
        ("cat", "int(11)", "YES", "MUL", None, ""),
        ("note", "text", "YES", "", None, ""),
    ]
    result = items.execute("SHOW COLUMNS FROM items")
    assert isinstance(result, ResultSet)
    assert [c.name for c in result.columns] == ["Field", "Type", "Null", "Key", "Default",
                                                "Extra"]
    assert rows(result) == expected
    assert rows(items.execute("DESCRIBE items")) == expected
    assert rows(items.execute("DESC items price")) == [expected[2]]
    assert rows(items.execute("SHOW COLUMNS FROM items FROM db LIKE 'na%'")) == [expected[1]]


def test_show_index(items: SqliteSession) -> None:
    got = [(r[0], r[1], r[2], r[3], r[4]) for r in rows(items.execute("SHOW INDEX FROM items"))]
    assert got == [("items", 0, "PRIMARY", 1, "id"), ("items", 0, "uq_name", 1, "name"),
                   ("items", 1, "idx_cat", 1, "cat")]


def test_show_create_table(items: SqliteSession) -> None:
    [(name, text)] = rows(items.execute("SHOW CREATE TABLE items"))
    assert name == "items"
    assert text.startswith("CREATE TABLE `items` (\n  `id` int(11) NOT NULL AUTO_INCREMENT,")
    assert "  `name` varchar(20) NOT NULL," in text
    assert "  `price` decimal(10,2) DEFAULT NULL," in text
    assert "  PRIMARY KEY (`id`)" in text
    assert "  UNIQUE KEY `uq_name` (`name`)" in text
    assert "  KEY `idx_cat` (`cat`)" in text
    assert "AUTO_INCREMENT=4" in text  # three rows inserted
    fails(items, "SHOW CREATE TABLE missing", errors.ER_NO_SUCH_TABLE, "42S02")


def test_show_databases(items: SqliteSession) -> None:
    items.execute("CREATE DATABASE zed")
    assert rows(items.execute("SHOW DATABASES")) == [("db",), ("information_schema",),
                                                     ("zed",)]
    assert rows(items.execute("SHOW DATABASES LIKE 'z%'")) == [("zed",)]


def test_show_tables_without_database_is_1046(open_session: Callable[..., SqliteSession]) -> None:
    fails(open_session(), "SHOW TABLES", errors.ER_NO_DB_ERROR, "3D000")


# --- DML --------------------------------------------------------------------------------------
def test_multi_row_insert_reports_rows_and_first_generated_id(items: SqliteSession) -> None:
    result = update(items, "INSERT INTO items (name) VALUES ('d'), ('e'), ('f')")
    assert result.affected_rows == 3
    assert result.last_insert_id == 4  # the first id of this statement, as MySQL
    assert result.info == "Records: 3  Duplicates: 0  Warnings: 0"
    assert items.last_insert_id == 4
    assert scalar(items, "SELECT LAST_INSERT_ID()") == 4


def test_explicit_auto_increment_value_does_not_change_last_insert_id(
        items: SqliteSession) -> None:
    assert update(items, "INSERT INTO items (id, name) VALUES (100, 'x')").last_insert_id == 100
    assert scalar(items, "SELECT LAST_INSERT_ID()") == 1  # from the fixture's insert
    assert update(items, "INSERT INTO items (name) VALUES ('y')").last_insert_id == 101


def test_auto_increment_table_option_seeds_the_counter(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (id int AUTO_INCREMENT PRIMARY KEY, v int) AUTO_INCREMENT=50")
    assert update(session, "INSERT INTO t (v) VALUES (1)").last_insert_id == 50


def test_update_and_delete_affected_rows(items: SqliteSession) -> None:
    result = update(items, "UPDATE items SET price = price + 1 WHERE cat = 1")
    assert result.affected_rows == 2
    assert result.info == "Rows matched: 2  Changed: 2  Warnings: 0"
    assert update(items, "UPDATE items SET cat = 9 WHERE id = 999").affected_rows == 0
    assert update(items, "DELETE FROM items WHERE id = 2").affected_rows == 1
    assert update(items, "DELETE FROM items").affected_rows == 2
    assert rows(items.execute("SELECT * FROM items")) == []


def test_select_reports_table_column_types(items: SqliteSession) -> None:
    result = items.execute("SELECT id, name, price, note FROM items ORDER BY id")
    assert isinstance(result, ResultSet)
    id_col, name_col, price_col, note_col = result.columns
    assert id_col.type == ColumnType.LONG and id_col.length == 11
    assert id_col.flags & ColumnFlag.PRI_KEY and id_col.flags & ColumnFlag.AUTO_INCREMENT
    assert (id_col.table, id_col.schema) == ("items", "db")
    assert name_col.type == ColumnType.VAR_STRING and name_col.length == 80  # 20 chars * 4
    assert name_col.flags & ColumnFlag.NOT_NULL
    assert price_col.type == ColumnType.NEWDECIMAL and price_col.decimals == 2
    assert note_col.type == ColumnType.BLOB
    assert rows(result) == [(1, "apple", Decimal("1.50"), None),
                            (2, "Banana", Decimal("2.00"), None),
                            (3, "cherry", Decimal("3.25"), None)]


def test_expression_columns_are_typed_as_mariadb_types_them(items: SqliteSession) -> None:
    result = items.execute("SELECT COUNT(*), MAX(name), 1.5, NULL, 'x' AS s, 1e0, SUM(cat) "
                           "FROM items")
    assert isinstance(result, ResultSet)
    assert [c.name for c in result.columns] == ["COUNT(*)", "MAX(name)", "1.5", "NULL", "s",
                                                "1e0", "SUM(cat)"]
    assert [c.type for c in result.columns] == [ColumnType.LONGLONG, ColumnType.VAR_STRING,
                                                ColumnType.NEWDECIMAL, ColumnType.NULL,
                                                ColumnType.VAR_STRING, ColumnType.DOUBLE,
                                                ColumnType.NEWDECIMAL]
    assert rows(result) == [(3, "cherry", Decimal("1.5"), None, "x", 1.0, Decimal("4"))]


def test_decimal_values_are_padded_to_the_scale(session: SqliteSession) -> None:
    session.execute("CREATE TABLE m (amount DECIMAL(10,2), whole DECIMAL(5,0))")
    session.execute("INSERT INTO m VALUES (5, 5), (0.1, 12), (-3.456, 0)")
    assert rows(session.execute("SELECT amount, whole FROM m")) == [
        (Decimal("5.00"), Decimal("5")), (Decimal("0.10"), Decimal("12")),
        (Decimal("-3.46"), Decimal("0"))]


def test_text_comparison_is_case_insensitive(items: SqliteSession) -> None:
    assert scalar(items, "SELECT id FROM items WHERE name = 'APPLE'") == 1
    assert rows(items.execute("SELECT name FROM items WHERE name LIKE 'b%'")) == [("Banana",)]
    assert rows(items.execute("SELECT name FROM items ORDER BY name")) == [
        ("apple",), ("Banana",), ("cherry",)]
    # a UNIQUE key on a _ci column treats 'APPLE' as a duplicate of 'apple'
    fails(items, "INSERT INTO items (name) VALUES ('APPLE')", errors.ER_DUP_ENTRY, "23000")


def test_binary_collation_stays_case_sensitive(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (v varchar(10) COLLATE utf8mb4_bin)")
    session.execute("INSERT INTO t VALUES ('abc')")
    assert rows(session.execute("SELECT v FROM t WHERE v = 'ABC'")) == []


def test_limit_offset_count(items: SqliteSession) -> None:
    assert rows(items.execute("SELECT id FROM items ORDER BY id LIMIT 1, 2")) == [(2,), (3,)]
    assert rows(items.execute("SELECT id FROM items ORDER BY id LIMIT 2 OFFSET 2")) == [(3,)]
    assert rows(items.execute("SELECT id FROM items ORDER BY id DESC LIMIT 1")) == [(3,)]


def test_on_duplicate_key_update(items: SqliteSession) -> None:
    items.execute("INSERT INTO items (name, price) VALUES ('apple', 9) "
                  "ON DUPLICATE KEY UPDATE price = VALUES(price)")
    items.execute("INSERT INTO items (name, price) VALUES ('durian', 4) "
                  "ON DUPLICATE KEY UPDATE price = VALUES(price)")
    assert rows(items.execute("SELECT name, price FROM items ORDER BY id")) == [
        ("apple", Decimal("9.00")), ("Banana", Decimal("2.00")), ("cherry", Decimal("3.25")),
        ("durian", Decimal("4.00"))]


def test_on_duplicate_key_update_counts_an_update_as_two_rows(items: SqliteSession) -> None:
    before = items.last_insert_id
    result = update(items, "INSERT INTO items (name, price) VALUES ('apple', 9) "
                    "ON DUPLICATE KEY UPDATE price = VALUES(price)")
    assert (result.affected_rows, result.last_insert_id) == (2, 0)
    assert items.last_insert_id == before
    inserted = update(items, "INSERT INTO items (name, price) VALUES ('plum', 4) "
                      "ON DUPLICATE KEY UPDATE price = VALUES(price)")
    assert inserted.affected_rows == 1 and inserted.last_insert_id > 0


def test_replace_into(items: SqliteSession) -> None:
    update(items, "REPLACE INTO items (id, name, price) VALUES (1, 'apricot', 7)")
    update(items, "REPLACE INTO items SET id = 10, name = 'kiwi'")
    assert rows(items.execute("SELECT id, name, price FROM items ORDER BY id")) == [
        (1, "apricot", Decimal("7.00")), (2, "Banana", Decimal("2.00")),
        (3, "cherry", Decimal("3.25")), (10, "kiwi", None)]


def test_insert_select_across_databases(items: SqliteSession) -> None:
    items.execute("CREATE DATABASE arch")
    items.execute("CREATE TABLE arch.old (id int PRIMARY KEY, name varchar(20))")
    assert update(items, "INSERT INTO arch.old SELECT id, name FROM items WHERE cat = 1"
                  ).affected_rows == 2
    assert rows(items.execute("SELECT name FROM arch.old ORDER BY id")) == [("apple",),
                                                                            ("cherry",)]


def test_ddl_statements_alter_truncate_rename(items: SqliteSession) -> None:
    items.execute("ALTER TABLE items ADD COLUMN stock INT NOT NULL DEFAULT 0, ADD INDEX ix (stock)")
    assert "stock" in [c.name for c in items.table_columns("items")]
    assert "ix" in [i.name for i in items.table_indexes("items")]
    items.execute("TRUNCATE TABLE items")
    assert scalar(items, "SELECT COUNT(*) FROM items") == 0
    assert update(items, "INSERT INTO items (name) VALUES ('z')").last_insert_id == 1
    items.execute("RENAME TABLE items TO goods")
    assert items.list_tables() == ["goods"]


@pytest.mark.parametrize("rename", ["RENAME TABLE items TO goods",
                                    "ALTER TABLE items RENAME TO goods"])
def test_rename_keeps_auto_increment_metadata(items: SqliteSession, rename: str) -> None:
    items.execute(rename)
    cols = {c.name: c for c in items.table_columns("goods")}
    assert (cols["id"].column_type, cols["id"].extra) == ("int(11)", "auto_increment")
    assert update(items, "INSERT INTO goods (name) VALUES ('d')").last_insert_id == 4
    # a new table under the old name does not inherit the renamed table's metadata
    items.execute("CREATE TABLE items (id bigint PRIMARY KEY)")
    assert [(c.column_type, c.extra) for c in items.table_columns("items")] == [
        ("bigint(20)", "")]


# --- information_schema -------------------------------------------------------------------------
def test_information_schema_tables(items: SqliteSession) -> None:
    items.use(None)
    got = rows(items.execute("SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE, TABLE_ROWS, "
                             "AUTO_INCREMENT FROM information_schema.TABLES "
                             "WHERE TABLE_SCHEMA = 'db'"))
    assert got == [("db", "items", "BASE TABLE", 3, 4)]


def test_information_schema_columns(items: SqliteSession) -> None:
    got = rows(items.execute(
        "SELECT COLUMN_NAME, COLUMN_TYPE, DATA_TYPE, IS_NULLABLE, COLUMN_KEY, EXTRA "
        "FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'db' AND table_name = 'items' "
        "ORDER BY ORDINAL_POSITION"))
    assert got == [("id", "int(11)", "int", "NO", "PRI", "auto_increment"),
                   ("name", "varchar(20)", "varchar", "NO", "UNI", ""),
                   ("price", "decimal(10,2)", "decimal", "YES", "", ""),
                   ("cat", "int(11)", "int", "YES", "MUL", ""),
                   ("note", "text", "text", "YES", "", "")]


def test_information_schema_as_current_database(items: SqliteSession) -> None:
    items.use("information_schema")
    assert ("TABLES",) in rows(items.execute("SHOW TABLES"))
    assert scalar(items, "SELECT COUNT(*) FROM SCHEMATA WHERE SCHEMA_NAME = 'db'") == 1
    fails(items, "SELECT * FROM information_schema.NO_SUCH_THING", errors.ER_NO_SUCH_TABLE)


# --- session values -----------------------------------------------------------------------------
def test_system_variables_come_from_the_context(session: SqliteSession) -> None:
    ctx = session.context
    assert isinstance(ctx, FakeContext)
    got = rows(session.execute("SELECT @@version, @@innodb_lock_wait_timeout, "
                               "@@session.max_connections, @@global.max_connections, "
                               "@@autocommit"))
    assert got == [("10.11.99-rampmeter-test", 1, 151, 1000, 1)]  # a bool comes back as 1
    assert ("max_connections", "GLOBAL") in {(n, s and s.upper()) for n, s in ctx.calls}
    assert scalar(session, "SELECT VERSION()") == "10.11.99-rampmeter-test"
    err = fails(session, "SELECT @@no_such_variable", errors.ER_UNKNOWN_SYSTEM_VARIABLE)
    assert "no_such_variable" in err.message


def test_user_variables_come_from_the_context(session: SqliteSession) -> None:
    session.context.set_user_variable("n", 41)
    session.context.set_user_variable("s", "text")
    session.context.set_user_variable("d", Decimal("2.5"))
    result = session.execute("SELECT @n + 1, @s, @d * 2, @unset")
    assert rows(result) == [(42, "text", 5.0, None)]
    assert [c.name for c in result.columns] == ["@n + 1", "@s", "@d * 2", "@unset"]


def test_session_functions(items: SqliteSession) -> None:
    assert rows(items.execute("SELECT CONNECTION_ID(), DATABASE(), USER(), CURRENT_USER()")) == [
        (1, "db", "user1@localhost", "user1@%")]
    items.execute("INSERT INTO items (name) VALUES ('fig')")
    assert scalar(items, "SELECT LAST_INSERT_ID()") == 4
    assert rows(items.execute("SELECT LAST_INSERT_ID(77), LAST_INSERT_ID()")) == [(77, 77)]
    assert items.last_insert_id == 77


def test_select_without_from_and_from_dual(open_session: Callable[..., SqliteSession]) -> None:
    s = open_session()
    result = s.execute("SELECT 1, 'abc', 2 + 3 FROM DUAL")
    assert isinstance(result, ResultSet)
    assert [c.name for c in result.columns] == ["1", "abc", "2 + 3"]
    assert rows(result) == [(1, "abc", 5)]


def test_session_values_are_per_session(open_session: Callable[..., SqliteSession]) -> None:
    a = open_session(11)
    b = open_session(22)
    assert scalar(a, "SELECT CONNECTION_ID()") == 11
    assert scalar(b, "SELECT CONNECTION_ID()") == 22


def test_json_object_takes_any_expressions_as_keys_and_values(session: SqliteSession) -> None:
    """MariaDB's JSON_OBJECT(key, value, ...) is a function of expressions; sqlglot read it as
    SQL:2016's KEY ... VALUE form, which refused the placeholders a statement's literals
    become (SELECT JSON_OBJECT('a', 1) was 1064). The layout is SQLite's (docs/sql.md)."""
    import json
    session.execute("CREATE DATABASE j")
    session.use("j")
    session.execute("CREATE TABLE t (a INT, b VARCHAR(5))")
    session.execute("INSERT INTO t VALUES (1, 'x'), (2, NULL)")
    assert json.loads(scalar(session, "SELECT JSON_OBJECT('a', 1, 'b', 'x')")) == \
        {"a": 1, "b": "x"}
    assert json.loads(scalar(session, "SELECT JSON_OBJECT(CONCAT('k', 2), JSON_ARRAY(1, 2))")) \
        == {"k2": [1, 2]}
    assert scalar(session, "SELECT JSON_OBJECT()") == "{}"
    got = [json.loads(r[0]) for r in rows(session.execute(
        "SELECT JSON_OBJECT('a', a, 'b', b) FROM t ORDER BY a"))]
    assert got == [{"a": 1, "b": "x"}, {"a": 2, "b": None}]
