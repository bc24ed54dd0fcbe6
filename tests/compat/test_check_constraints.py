"""Issue 13: CHECK constraints are enforced as MariaDB enforces them - column and table
constraints on INSERT, multi-row INSERT, INSERT ... SELECT, upserts, REPLACE and UPDATE (4025
naming the first failing one, column constraints first), NULL passes, IGNORE skips the row
with the warning, check_constraint_checks=0 lets anything in, and ALTER TABLE checks the rows
it copies."""

from __future__ import annotations

import pytest

from tests.compat.conftest import drivers

BOTH = ("pymysql", "mysqlclient")
WITH_TEXT = ("rows", "error", "message", "rowcount", "warnings", "warning_text")


@pytest.fixture
def t(compat):
    compat.setup("CREATE TABLE t (id INT PRIMARY KEY, a INT CHECK (a > 10), "
                 "b VARCHAR(10) CHECK (b LIKE 'x%'), d DATE, "
                 "CONSTRAINT `min` CHECK (a + LENGTH(b) > 12), "
                 "CONSTRAINT later CHECK (d IS NULL OR d > '2001-01-01'))")
    return compat


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_insert_names_the_first_failing_constraint(t, driver):
    t.check(driver, [
        "INSERT INTO t VALUES (1, 11, 'xy', NULL)",
        "INSERT INTO t VALUES (2, 5, 'xy', NULL)",
        "INSERT INTO t VALUES (3, 11, 'ab', NULL)",
        "INSERT INTO t VALUES (4, 5, 'ab', NULL)",
        "INSERT INTO t VALUES (5, 11, 'x', NULL)",
        "INSERT INTO t VALUES (6, 20, 'xy', '1999-12-31')",
        "INSERT INTO t VALUES (7, NULL, NULL, NULL)",
        "INSERT INTO t VALUES (8, 20, 'xa', NULL), (9, 1, 'xb', NULL), (10, 30, 'xc', NULL)",
        "INSERT INTO t (id, a, b) SELECT id + 100, a - 10, b FROM t",
        "SELECT * FROM t ORDER BY id",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_ignore_skips_rows_with_a_warning(t, driver):
    t.check(driver, [
        "INSERT IGNORE INTO t VALUES (1, 20, 'xa', NULL), (2, 1, 'xb', NULL), "
        "(3, 30, 'yc', NULL), (4, 40, 'xd', NULL)",
        "SHOW WARNINGS",
        "UPDATE IGNORE t SET a = a - 25",
        "SHOW WARNINGS",
        "SELECT * FROM t ORDER BY id",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_update_upsert_and_replace_are_checked(t, driver):
    t.check(driver, [
        "INSERT INTO t VALUES (1, 11, 'xy', NULL), (2, 12, 'xz', NULL)",
        "UPDATE t SET a = 5 WHERE id = 1",
        "UPDATE t SET b = 'q' WHERE id = 2",
        "UPDATE t SET a = a + 100",
        "INSERT INTO t VALUES (1, 50, 'xy', NULL) ON DUPLICATE KEY UPDATE a = 3",
        "REPLACE INTO t VALUES (2, 1, 'xz', NULL)",
        "REPLACE INTO t VALUES (2, 99, 'xz', NULL)",
        "SELECT * FROM t ORDER BY id",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_check_constraint_checks_off(t, driver):
    t.check(driver, [
        "SET check_constraint_checks = 0",
        "INSERT INTO t VALUES (1, 1, 'ab', NULL)",
        "SET check_constraint_checks = 1",
        "INSERT INTO t VALUES (2, 1, 'ab', NULL)",
        "ALTER TABLE t ADD COLUMN e INT DEFAULT 0",
        "SELECT * FROM t ORDER BY id",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_alter_table_checks_existing_rows(compat, driver):
    compat.setup("CREATE TABLE c (a INT, b INT)",
                 "INSERT INTO c VALUES (1, 2), (5, 1), (7, 9)")
    compat.check(driver, [
        "ALTER TABLE c ADD CONSTRAINT lt CHECK (a < b)",
        "ALTER TABLE c ADD CONSTRAINT pos CHECK (a > 0)",
        "ALTER TABLE c ADD COLUMN e INT DEFAULT 5 CHECK (e < 3)",
        "ALTER IGNORE TABLE c ADD CONSTRAINT lt CHECK (a < b)",
        "SHOW WARNINGS",
        "INSERT INTO c VALUES (9, 1)",
        "INSERT INTO c VALUES (0, 1)",
        "ALTER TABLE c DROP CONSTRAINT pos",
        "INSERT INTO c VALUES (0, 1)",
        "SELECT * FROM c ORDER BY a",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_temporary_table_and_prepared_insert(compat, driver):
    compat.check(driver, [
        "CREATE TEMPORARY TABLE tt (a INT DEFAULT 0, CHECK (a > 0))",
        "INSERT INTO tt () VALUES ()",
        "INSERT INTO tt VALUES (3)",
        "PREPARE p FROM 'INSERT INTO tt VALUES (?)'",
        "SET @v = -1",
        "EXECUTE p USING @v",
        "SET @v = 4",
        "EXECUTE p USING @v",
        "SELECT * FROM tt ORDER BY a",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_myisam_keeps_the_rows_before_the_failing_one(compat, driver):
    """A table MariaDB cannot roll back keeps what a multi-row write did before its error
    (a duplicate, a CHECK); an InnoDB one keeps nothing."""
    compat.setup("CREATE TABLE m (a INT PRIMARY KEY, b INT CHECK (b < 10)) ENGINE=MyISAM",
                 "CREATE TABLE i (a INT PRIMARY KEY, b INT CHECK (b < 10)) ENGINE=InnoDB")
    steps = []
    for t in ("m", "i"):
        steps += [f"INSERT INTO {t} VALUES (1, 1), (2, 2), (1, 3), (4, 4)",
                  f"INSERT INTO {t} VALUES (5, 1), (6, 20), (7, 3)",
                  f"INSERT INTO {t} SELECT a + 10, b * 4 FROM {t} ORDER BY a",
                  f"UPDATE {t} SET b = b + 8 ORDER BY a",
                  f"SELECT * FROM {t} ORDER BY a"]
    compat.check(driver, steps, checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_constraint_names_and_duplicates(compat, driver):
    compat.check(driver, [
        "CREATE TABLE n1 (a INT, b INT, CONSTRAINT CONSTRAINT_1 CHECK (a > 1), CHECK (b > 1), "
        "CONSTRAINT CONSTRAINT_2 CHECK (a > b))",
        "SHOW CREATE TABLE n1",
        "CREATE TABLE n2 (CONSTRAINT_1 INT CHECK (CONSTRAINT_1 > 0), CHECK (CONSTRAINT_1 < 100))",
        "SHOW CREATE TABLE n2",
        "ALTER TABLE n2 ADD CHECK (CONSTRAINT_1 < 50)",
        "SHOW CREATE TABLE n2",
        "CREATE TABLE n3 (a INT CHECK (a > 2), CONSTRAINT a CHECK (a < 5))",
        "CREATE TABLE n3 (a INT, CONSTRAINT c1 CHECK (a > 0), CONSTRAINT c1 CHECK (a < 100))",
        "CREATE TABLE n4 (a INT, CONSTRAINT b CHECK (a > 0))",
        "ALTER TABLE n4 ADD COLUMN b INT CHECK (b > 5)",
        "ALTER TABLE n4 ADD CONSTRAINT b CHECK (a < 100)",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_auto_increment_past_its_type(compat, driver):
    compat.check(driver, [
        "CREATE TABLE ai (a TINYINT NOT NULL AUTO_INCREMENT PRIMARY KEY, b CHAR(5))",
        "INSERT INTO ai VALUES (126, 'x'), (63, 'y'), (0, 'z')",
        "INSERT INTO ai VALUES (0, 'e')",
        "REPLACE INTO ai VALUES (0, 'e')",
        "SET sql_mode = ''",
        "INSERT INTO ai (b) VALUES ('e')",
        "SELECT * FROM ai ORDER BY a",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_dropping_columns_and_constraints(compat, driver):
    compat.check(driver, [
        "CREATE TABLE d1 (a INT, b INT, c INT CHECK (c > 0), CHECK (a + b > 0), "
        "CONSTRAINT only_a CHECK (a > 0))",
        "ALTER TABLE d1 DROP CONSTRAINT c",
        "ALTER TABLE d1 DROP CONSTRAINT IF EXISTS c",
        "ALTER TABLE d1 DROP COLUMN b",
        "ALTER TABLE d1 DROP COLUMN a, DROP COLUMN b",
        "SHOW CREATE TABLE d1",
        "ALTER TABLE d1 DROP COLUMN c",
        "SHOW CREATE TABLE d1",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_unknown_columns_and_add_if_not_exists(compat, driver):
    compat.check(driver, [
        "CREATE TABLE u1 (a INT CHECK (b > 0))",
        "CREATE TABLE u1 (a INT, CONSTRAINT x CHECK (a + c > 0))",
        "CREATE TABLE u1 (a INT, b INT)",
        "ALTER TABLE u1 ADD CONSTRAINT CHECK (z > 0)",
        "ALTER TABLE u1 ADD CONSTRAINT IF NOT EXISTS foo CHECK (b > 0)",
        "ALTER TABLE u1 ADD CONSTRAINT IF NOT EXISTS foo CHECK (b > 5)",
        "SHOW WARNINGS",
        "ALTER TABLE u1 ADD CONSTRAINT IF NOT EXISTS k UNIQUE (a)",
        "ALTER TABLE u1 ADD CONSTRAINT IF NOT EXISTS k UNIQUE (b)",
        "SHOW WARNINGS",
        "SHOW CREATE TABLE u1",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_engine_defined_column_attributes(compat, driver):
    """`f INT foo=bar`: MyISAM declares no such attribute: 1911, or kept with a warning under
    IGNORE_BAD_TABLE_OPTIONS."""
    compat.check(driver, [
        "CREATE TABLE e1 (f INT foo=bar) ENGINE=MyISAM",
        "SET sql_mode = 'IGNORE_BAD_TABLE_OPTIONS'",
        "CREATE TABLE e1 (f INT foo=bar CHECK (f > 0), g INT x=1 y='it''s' COMMENT 'c') "
        "ENGINE=MyISAM",
        "SHOW WARNINGS",
        "SHOW CREATE TABLE e1",
        "ALTER TABLE e1 ADD COLUMN h INT z=`q`",
        "SHOW CREATE TABLE e1",
    ], checks=WITH_TEXT)
