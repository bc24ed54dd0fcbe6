"""Issue 9, item 2b: ALTER TABLE as frameworks emit it - MODIFY / CHANGE / ALTER COLUMN, ADD /
DROP CONSTRAINT, PRIMARY KEY, DROP COLUMN on indexed columns, several alterations at once,
FIRST / AFTER, DISABLE / ENABLE KEYS - keeping the rows, converting them as MariaDB does (and
failing as it does in strict mode), and reporting what it reports."""

from __future__ import annotations

import pytest

from tests.compat.conftest import drivers

BOTH = ("pymysql", "mysqlclient")
WITH_TEXT = ("rows", "error", "message", "rowcount", "warnings", "warning_text")


@pytest.fixture
def t(compat):
    compat.setup("CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT, a VARCHAR(10), b INT, "
                 "c INT, KEY kb (b, c), KEY kc (c))",
                 "INSERT INTO t (a, b, c) VALUES ('12', 1, 1), ('abc', 2, NULL), (NULL, 300, 3)")
    return compat


@pytest.mark.parametrize("driver", drivers(*BOTH, "connector"))
def test_modify_converts_or_refuses(t, driver):
    t.check(driver, [
        "ALTER TABLE t MODIFY a INT",
        "ALTER TABLE t MODIFY a VARCHAR(2)",
        "ALTER TABLE t MODIFY b TINYINT",
        "ALTER TABLE t MODIFY c INT NOT NULL",
        "ALTER TABLE t MODIFY a VARCHAR(10) NOT NULL",
        "ALTER TABLE t MODIFY b BIGINT",
        "ALTER TABLE t MODIFY a VARCHAR(30)",
        "SELECT * FROM t ORDER BY id",
        "SHOW CREATE TABLE t",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_non_strict_conversions_warn(t, driver):
    t.check(driver, [
        "SET sql_mode = ''",
        "ALTER TABLE t MODIFY a INT",
        "ALTER TABLE t MODIFY c INT NOT NULL",
        "SELECT * FROM t ORDER BY id",
        "ALTER IGNORE TABLE t MODIFY b TINYINT",
        "SELECT b FROM t ORDER BY id",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_change_alter_column_and_positions(t, driver):
    t.check(driver, [
        "ALTER TABLE t CHANGE a aa VARCHAR(20) DEFAULT 'x' FIRST",
        "ALTER TABLE t ALTER COLUMN b SET DEFAULT 7, ALTER c DROP DEFAULT",
        "ALTER TABLE t ALTER COLUMN aa DROP DEFAULT",
        "SHOW CREATE TABLE t",
        "ALTER TABLE t MODIFY aa VARCHAR(20) NOT NULL DEFAULT '' AFTER c",
        "ALTER TABLE t ADD x INT NOT NULL, ADD y VARCHAR(3) DEFAULT 'zz' AFTER id, "
        "ADD COLUMN (z1 INT, z2 DATE)",
        "ALTER TABLE t RENAME COLUMN z1 TO z3",
        "SELECT * FROM t ORDER BY id",
        "DESCRIBE t",
        "SHOW CREATE TABLE t",
        "INSERT INTO t (b) VALUES (5)",
        "SELECT id, aa, b, x, y FROM t ORDER BY id",
    ])


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_drop_column_in_keys(t, driver):
    t.check(driver, [
        "ALTER TABLE t DROP COLUMN c",
        "SHOW CREATE TABLE t",
        # not SHOW INDEX's Cardinality: InnoDB's estimate
        "SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema."
        "STATISTICS WHERE TABLE_SCHEMA = DATABASE() ORDER BY INDEX_NAME, SEQ_IN_INDEX",
        "ALTER TABLE t DROP COLUMN b, DROP COLUMN IF EXISTS nosuch",
        "SHOW CREATE TABLE t",
        "ALTER TABLE t DROP COLUMN nosuch",
        "SELECT * FROM t ORDER BY id",
    ], checks=("rows", "error", "rowcount", "warnings"))


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_keys_and_constraints(t, driver):
    t.check(driver, [
        "ALTER TABLE t DISABLE KEYS",
        "ALTER TABLE t ENABLE KEYS",
        "ALTER TABLE t ADD CONSTRAINT uq UNIQUE (a)",
        "SHOW CREATE TABLE t",
        "ALTER TABLE t DROP CONSTRAINT uq",
        "ALTER TABLE t ADD UNIQUE KEY (a), ADD KEY k2 (a)",
        "ALTER TABLE t ADD UNIQUE KEY (a)",
        "ALTER TABLE t DROP PRIMARY KEY",
        "ALTER TABLE t MODIFY id INT, DROP PRIMARY KEY",
        "SHOW CREATE TABLE t",
        "ALTER TABLE t ADD PRIMARY KEY (id)",
        "ALTER TABLE t ADD CONSTRAINT ck CHECK (b > 0)",
        "SHOW CREATE TABLE t",
        "ALTER TABLE t DROP CONSTRAINT ck, DROP INDEX k2, RENAME INDEX kb TO kbc",
        "SHOW CREATE TABLE t",
        "ALTER TABLE t ADD UNIQUE (b)",
        "INSERT INTO t (id, b) VALUES (9, 1)",
        "SELECT * FROM t ORDER BY id",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_auto_increment_counter_survives(t, driver):
    t.check(driver, [
        "ALTER TABLE t MODIFY a VARCHAR(5)",
        "INSERT INTO t (a) VALUES ('new')",
        "SELECT LAST_INSERT_ID()",
        "ALTER TABLE t AUTO_INCREMENT = 100",
        "INSERT INTO t (a) VALUES ('hundred')",
        "SELECT id, a FROM t ORDER BY id",
        "SHOW CREATE TABLE t",
        "ALTER TABLE t COMMENT 'x', ENGINE = InnoDB",
        "ALTER TABLE t RENAME TO t2",
        "SHOW TABLES",
    ])


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_alter_errors(t, driver):
    t.check(driver, [
        "ALTER TABLE t MODIFY nosuch INT",
        "ALTER TABLE t CHANGE a b INT",
        "ALTER TABLE t ADD a INT",
        "ALTER TABLE t DROP INDEX nosuch",
        "ALTER TABLE t DROP FOREIGN KEY nosuch",
        "ALTER TABLE t ADD COLUMN d INT AFTER nosuch",
        "ALTER TABLE nosuch ADD d INT",
        "ALTER TABLE t DROP COLUMN id, DROP COLUMN a, DROP COLUMN b, DROP COLUMN c",
        "ALTER TABLE t ADD INDEX (nosuch)",
    ], checks=("error", "message"))
