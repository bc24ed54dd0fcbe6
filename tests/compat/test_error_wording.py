"""Issue 13: error and warning wording as MariaDB 10.11 gives it: 1054 / 1052 name the clause
that was being resolved ('SELECT', 'WHERE', 'ON', 'ORDER BY', 'SET', ...), and a stored
program's SELECT ... FROM ... INTO warns 1287 when the program is created."""

from __future__ import annotations

import pytest

from tests.compat.conftest import drivers

WITH_TEXT = ("rows", "error", "message", "rowcount", "warnings", "warning_text")


@pytest.fixture
def t(compat):
    compat.setup("CREATE TABLE t (id INT PRIMARY KEY, a INT)",
                 "CREATE TABLE u (id INT PRIMARY KEY, a INT)",
                 "INSERT INTO t VALUES (1, 1), (2, 2)")
    return compat


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_unknown_column_names_the_clause(t, driver):
    t.check(driver, [
        "SELECT nope FROM t",
        "SELECT id FROM t WHERE nope = 1",
        "SELECT id FROM t ORDER BY nope",
        "SELECT id FROM t GROUP BY nope",
        "SELECT t.id FROM t JOIN u ON t.id = u.nope",
        "SELECT id FROM t WHERE id IN (SELECT nope FROM u)",
        "SELECT id FROM t WHERE nope IN (SELECT a FROM u)",
        "DELETE FROM t WHERE nope = 1",
        "UPDATE t SET a = nope + 1",
        "UPDATE t SET nope = 1",
        "INSERT INTO t (id, nope) VALUES (3, 3)",
        "SELECT a FROM t JOIN u ON t.id = u.id",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_program_with_select_into_after_from_warns_at_create(t, driver):
    t.check(driver, [
        "CREATE PROCEDURE p1() BEGIN DECLARE x INT; SELECT COUNT(*) FROM t INTO x; "
        "SELECT 1 INTO x; SELECT a INTO x FROM t LIMIT 1; END",
        "CREATE TRIGGER tr BEFORE INSERT ON u FOR EACH ROW BEGIN DECLARE y INT; "
        "SELECT COUNT(*) FROM t WHERE id > 0 INTO y; END",
        "DROP TRIGGER tr",
        "DROP PROCEDURE p1",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_definer_that_does_not_exist_is_a_note(t, driver):
    t.check(driver, [
        "CREATE ROLE IF NOT EXISTS r13 WITH ADMIN nobody13",
        "CREATE ROLE IF NOT EXISTS r13 WITH ADMIN nobody13b",
        "DROP ROLE r13",
        "SELECT CURRENT_ROLE, CURRENT_ROLE()",
        "CREATE DEFINER = nobody13@localhost PROCEDURE p13() SELECT 1",
        "CREATE DEFINER = root@localhost PROCEDURE p13b() SELECT 1",
        "CREATE DEFINER = nobody13@'%' TRIGGER tr13 BEFORE INSERT ON u FOR EACH ROW SET @x = 1",
        "DROP TRIGGER tr13",
        "DROP PROCEDURE p13",
        "DROP PROCEDURE p13b",
    ], checks=WITH_TEXT)


LONG = "x" * 1030


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_index_comment_limit_and_dropping_every_column_then_adding(t, driver):
    t.check(driver, [
        "CREATE TABLE ic (a INT, b INT, c INT)",
        f"CREATE INDEX i1 ON ic (a) COMMENT '{LONG}'",
        "SET sql_mode = ''",
        f"CREATE INDEX i1 ON ic (a) COMMENT '{LONG}'",
        f"ALTER TABLE ic ADD INDEX i2 (b) COMMENT '{LONG}'",
        "CREATE INDEX i3 ON ic (c) COMMENT 'short'",
        "SELECT INDEX_NAME, LENGTH(INDEX_COMMENT) FROM information_schema.STATISTICS "
        "WHERE TABLE_NAME = 'ic' ORDER BY INDEX_NAME",
        "ALTER TABLE ic DROP a, DROP b, DROP c, ADD d INT",
        "SHOW CREATE TABLE ic",
        "ALTER TABLE ic DROP d",
        "DROP TABLE ic",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_update_warnings_count_the_rows(t, driver):
    t.check(driver, [
        "CREATE TABLE ud (a DATE, b VARCHAR(64), n TINYINT) ENGINE=MyISAM",
        "INSERT INTO ud VALUES (NULL, '2000-12-31 23:59:59.9999', 1), "
        "(NULL, '2000-12-31 23:59:59.99', 2)",
        "UPDATE ud SET a = b",
        "SET sql_mode = ''",
        "UPDATE ud SET n = n * 1000",
        "SELECT * FROM ud",
        "DROP TABLE ud",
    ], checks=WITH_TEXT)
