"""Issue 13: errors MariaDB raises where rampmeter used to go on - type sizes beyond MariaDB's
limits in a column definition (1425, 1426, 1427, 1439, naming the column), more than 64 keys
(1069), TRUNCATE of a view (1146) - with MariaDB's code, SQLSTATE and text."""

from __future__ import annotations

import pytest

from tests.compat.conftest import cases, drivers

WITH_TEXT = ("rows", "error", "message", "rowcount", "warnings", "warning_text")

_KEYS = ", ".join(f"KEY k{i} (a)" for i in range(65))

CASES: dict[str, list[str]] = {
    "bit-65-1439": ["CREATE TABLE t (a BIT(65))", "CREATE TABLE t (a BIT(64))"],
    "int-width-256-1439": ["CREATE TABLE t (a INT(256))", "CREATE TABLE t (a INT(255))"],
    "float-scale-31-1425": ["CREATE TABLE t (a FLOAT(40,31))", "CREATE TABLE t (a FLOAT(40,30))"],
    "double-m-below-d-1427": ["CREATE TABLE t (b INT, a DOUBLE(3,4))"],
    "decimal-66-1426": ["CREATE TABLE t (a DECIMAL(66))", "CREATE TABLE t (a DECIMAL(65,38))"],
    "decimal-scale-39-1425": ["CREATE TABLE t (a DECIMAL(65,39))"],
    "datetime-7-1426": ["CREATE TABLE t (dt DATETIME(7))"],
    "alter-add-bit-65-1439": ["CREATE TABLE t (a INT)", "ALTER TABLE t ADD b BIT(65)",
                              "ALTER TABLE t MODIFY a INT(300)"],
    "65-keys-1069": [f"CREATE TABLE t (a INT, {_KEYS})",
                     "CREATE TABLE t (a INT, " + ", ".join(f"KEY k{i} (a)" for i in range(64))
                     + ")"],
    "33-key-parts-1070": ["CREATE TABLE t (" + ", ".join(f"c{i} INT" for i in range(33)) +
                          ", KEY k (" + ", ".join(f"c{i}" for i in range(33)) + "))"],
    "bit-0-is-bit-1": ["CREATE TABLE t (a BIT(0))", "SHOW CREATE TABLE t"],
    "trailing-spaces-are-notes": ["CREATE TABLE t (a FLOAT, b INT, c DECIMAL(5,2), d DOUBLE)",
                                  "INSERT INTO t VALUES ('1 ', '2 ', '3 ', '4 ')",
                                  "INSERT INTO t VALUES (' 1', ' 2', ' 3', ' 4')",
                                  "INSERT INTO t VALUES ('1x', 1, 1, 1)",
                                  "INSERT INTO t VALUES (1, 1, 1, '')",
                                  "SELECT CAST('10 ' AS UNSIGNED), CAST(' 7 ' AS SIGNED)",
                                  "SELECT * FROM t"],
    "time-from-strings": [
        "CREATE TABLE t (t TIME)",
        "INSERT INTO t VALUES ('10:22:33'), (10), ('10.22'), ('20 10:22:33'), "
        "('1999-02-03 20:33:34'), ('0000-00-00 01:02:03')",
        "INSERT INTO t VALUES ('10.22.22')",
        "INSERT IGNORE INTO t VALUES ('10.22.22'), (1234567), ('10 22:22'), ('12.45a'), ('x')",
        "SELECT * FROM t"],
    "out-of-range-numbers": [
        "CREATE TABLE t (a BIT, b INT, c DECIMAL(5,1), d DOUBLE, e DECIMAL(4,1) UNSIGNED)",
        "INSERT INTO t VALUES (b'100', 1, 1, 1, 1)",
        "INSERT INTO t VALUES (b'1', '1e1000', 1, 1, 1)",
        "INSERT IGNORE INTO t VALUES (b'100', '1e1000', '1e1000', '1e1000', '1e1000')",
        "INSERT IGNORE INTO t VALUES (b'1', '-1e1000', '-1e1000', '-1e1000', '-1e1000')",
        "SET sql_mode = ''",
        "INSERT INTO t (a) VALUES (b'0'), (b'1'), (b'000'), (b'100'), (b'001')",
        "SELECT HEX(a), b, c, d, e FROM t"],
    "long-key-name-1059": ["CREATE TABLE t (a INT, KEY " + "k" * 65 + " (a))"],
    "duplicate-values-of-many-rows": [
        "CREATE TABLE s (a INT PRIMARY KEY) ENGINE=MyISAM", "INSERT INTO s VALUES (1), (2), (3)",
        "CREATE TABLE m (a INT PRIMARY KEY, b VARCHAR(3), UNIQUE KEY ub (b)) ENGINE=MyISAM",
        "INSERT INTO m VALUES (11, 'x'), (13, 'y')",
        "INSERT INTO m SELECT a + 10, a FROM s",
        "INSERT INTO m VALUES (20, 'p'), (21, CONCAT('x', ''))",
        "CREATE TABLE i (a INT PRIMARY KEY, b BINARY(1), UNIQUE KEY ub (b)) ENGINE=InnoDB",
        "INSERT INTO i VALUES (1, 0x00), (2, 0x01)",
        "INSERT INTO i SELECT a + 5, IF(a = 3, 0x01, 0x07) FROM s",
        "INSERT INTO i VALUES (8, 0x09), (9, CHAR(0))",
        "SELECT * FROM m ORDER BY a", "SELECT a, HEX(b) FROM i ORDER BY a"],
    "new-unique-key-over-duplicates": [
        "CREATE TABLE t (a INT, b INT, v VARCHAR(5), w BIT)",
        "INSERT INTO t VALUES (3, 4, 'x', 1), (1, 2, 'i', 0), (1, 2, 'I', 1), (5, 6, 'y', 0)",
        "ALTER TABLE t ADD UNIQUE KEY ind2 (a, v)", "ALTER TABLE t ADD PRIMARY KEY (a, b)",
        "CREATE UNIQUE INDEX u ON t (b)", "ALTER TABLE t ADD UNIQUE (w)",
        "ALTER TABLE t ADD UNIQUE KEY ok (a, b, w)", "SHOW CREATE TABLE t"],
    "truncate-a-view-1146": ["CREATE TABLE t (a INT)", "CREATE VIEW v AS SELECT a FROM t",
                             "TRUNCATE TABLE v", "TRUNCATE v"],
}


@pytest.mark.parametrize("driver", drivers("pymysql"))
@pytest.mark.parametrize("case", cases(CASES))
def test_errors_with_mariadbs_text(compat, driver, case):
    compat.check(driver, [*CASES[case], "SELECT 1"], checks=WITH_TEXT)
