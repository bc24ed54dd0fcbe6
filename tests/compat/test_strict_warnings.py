"""Issue 13: in strict mode a warning raised while an INSERT / UPDATE / DELETE computes its
values is that statement's error (MariaDB's abort_on_warning): an overflowing date function,
a string that is no number compared with a number, a bad date argument; with IGNORE, or not
strict, or in a SELECT, it stays a warning. Notes are never promoted."""

from __future__ import annotations

import pytest

from tests.compat.conftest import drivers

WITH_TEXT = ("rows", "error", "message", "rowcount", "warnings", "warning_text")


@pytest.fixture
def t(compat):
    compat.setup("CREATE TABLE t (id INT PRIMARY KEY, d DATETIME, n INT, s VARCHAR(10))",
                 "INSERT INTO t VALUES (1, '2000-01-01', 1, 'a'), (2, NULL, 2, 'b')")
    return compat


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_strict_writes_fail_on_function_warnings(t, driver):
    t.check(driver, [
        "INSERT INTO t (id, d) SELECT 3, DATE_SUB('2000-01-01', INTERVAL 2001 YEAR)",
        "INSERT INTO t (id, d) VALUES (4, DATE_ADD('9999-12-31', INTERVAL 1 DAY))",
        "UPDATE t SET n = 5 WHERE s = 1",
        "UPDATE t SET n = 6 WHERE n = 'x'",
        "DELETE FROM t WHERE n = 'x'",
        "INSERT INTO t (id, n) VALUES (7, 1 + 'x')",
        "INSERT INTO t (id, n) VALUES (8, CAST('9z' AS SIGNED))",
        "UPDATE t SET d = DATE_ADD(d, INTERVAL 1 DAY) WHERE id = 1",
        "SELECT * FROM t ORDER BY id",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_ignore_and_non_strict_keep_warnings(t, driver):
    t.check(driver, [
        "INSERT IGNORE INTO t (id, d) SELECT 3, DATE_SUB('2000-01-01', INTERVAL 2001 YEAR)",
        "UPDATE IGNORE t SET n = 6 WHERE n = 'x'",
        "SELECT DATE_SUB('2000-01-01', INTERVAL 2001 YEAR), 1 + 'x'",
        "SET sql_mode = ''",
        "INSERT INTO t (id, d) SELECT 4, DATE_SUB('2000-01-01', INTERVAL 2001 YEAR)",
        "UPDATE t SET n = 7 WHERE n = 'y'",
        "INSERT INTO t (id, n) VALUES (5, 1 + 'x')",
        "SELECT * FROM t ORDER BY id",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient"))
def test_arithmetic_reads_strings_as_numbers_with_warnings(t, driver):
    t.check(driver, [
        "SELECT '1' + 1, '1.5x' * 2, 'abc' - 1, -'3', ' 12 ' + 0, '1e2' + 0, '7' DIV 2",
        "SELECT s + 1, n + s FROM t ORDER BY id",
        "SELECT '2000-01-01' + INTERVAL 1 DAY, 10 % '3'",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient"))
def test_temporal_columns_compare_with_constants_as_temporals(t, driver):
    t.setup("CREATE TABLE tt (a DATETIME, d DATE, tm TIME, f DATETIME(3))",
            "INSERT INTO tt VALUES ('2001-01-01 10:00:00', '2001-01-01', '10:00:00', "
            "'2001-01-01 10:00:00.5')")
    t.check(driver, [
        "SELECT COUNT(*) FROM tt WHERE a = '2001-1-1 10:00'",
        "SELECT COUNT(*) FROM tt WHERE d = '2001-1-1'",
        "SELECT COUNT(*) FROM tt WHERE d = 20010101",
        "SELECT COUNT(*) FROM tt WHERE tm = '10:00'",
        "SELECT COUNT(*) FROM tt WHERE f = '2001-01-01 10:00:00.500'",
        "SELECT COUNT(*) FROM tt WHERE a = ''",
        "SELECT COUNT(*) FROM tt WHERE d BETWEEN '2001-1-1' AND '2001-1-2'",
        "SELECT COUNT(*) FROM tt WHERE '2001-01-01' = d",
        "SELECT * FROM (SELECT * FROM tt) AS x WHERE a = ''",
        "UPDATE tt SET tm = '11:00' WHERE d = '2001-01-01'",
        "SELECT tm FROM tt",
    ], checks=WITH_TEXT)
