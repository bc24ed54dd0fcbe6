"""Issue 8, item 4: exact results. Affected rows are changed rows unless the client set
CLIENT_FOUND_ROWS (UPDATE, INSERT ... ON DUPLICATE KEY UPDATE, REPLACE); MariaDB 10.11's
default sql_mode with its strict errors (1406, 1366, 1048, 1364, 1264, 1365, 1292) and the
warnings instead when sql_mode=''; zero dates and AUTO_INCREMENT 0 as MariaDB treats them."""

from __future__ import annotations

import pytest

from tests.compat.conftest import cases, drivers
from tests.compat.drivers import Options, Step

FOUND_ROWS = {"a": Options(found_rows=True)}
# one driver of each family that can set CLIENT_FOUND_ROWS, and one binary-protocol driver
AFFECTED = ("pymysql", "mysqlclient", "connector", "aiomysql", "connector-prep")


@pytest.fixture
def kv(compat):
    compat.setup("CREATE TABLE kv (k INT PRIMARY KEY, v VARCHAR(10), n INT DEFAULT 0)",
                 "INSERT INTO kv (k, v) VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    return compat


@pytest.mark.parametrize("driver", drivers(*AFFECTED))
def test_update_that_changes_nothing_affects_0_rows(kv, driver):
    a = kv.run(driver, ["UPDATE kv SET v = 'a' WHERE k = 1",
                        "UPDATE kv SET v = 'a' WHERE k IN (1, 2)",
                        "SELECT ROW_COUNT()"])
    assert [o.rowcount for o in a.maria[:2]] == [0, 1]
    a.assert_same()


@pytest.mark.parametrize("driver", drivers(*AFFECTED))
def test_update_with_client_found_rows_counts_matched_rows(kv, driver):
    a = kv.run(driver, ["UPDATE kv SET v = 'a' WHERE k = 1",
                        "UPDATE kv SET v = 'a' WHERE k IN (1, 2)"], connect=FOUND_ROWS)
    assert [o.rowcount for o in a.maria] == [1, 2]
    a.assert_same()


@pytest.mark.parametrize("driver", drivers(*AFFECTED))
def test_insert_on_duplicate_key_update_affected_rows(kv, driver):
    a = kv.run(driver, [
        "INSERT INTO kv (k, v) VALUES (4, 'd') ON DUPLICATE KEY UPDATE v = VALUES(v)",  # 1
        "INSERT INTO kv (k, v) VALUES (1, 'z') ON DUPLICATE KEY UPDATE v = VALUES(v)",  # 2
        "INSERT INTO kv (k, v) VALUES (1, 'z') ON DUPLICATE KEY UPDATE v = VALUES(v)",  # 0
        "INSERT INTO kv (k, v) VALUES (2, 'y'), (3, 'c'), (5, 'e') "
        "ON DUPLICATE KEY UPDATE v = VALUES(v)",                                        # 2+0+1
        "SELECT k, v FROM kv ORDER BY k",
    ])
    assert [o.rowcount for o in a.maria[:4]] == [1, 2, 0, 3]
    a.assert_same()


@pytest.mark.parametrize("driver", drivers(*AFFECTED))
def test_insert_on_duplicate_key_update_with_client_found_rows(kv, driver):
    a = kv.run(driver, [
        "INSERT INTO kv (k, v) VALUES (1, 'z') ON DUPLICATE KEY UPDATE v = VALUES(v)",  # 2
        "INSERT INTO kv (k, v) VALUES (1, 'z') ON DUPLICATE KEY UPDATE v = VALUES(v)",  # 1
    ], connect=FOUND_ROWS)
    assert [o.rowcount for o in a.maria] == [2, 1]
    a.assert_same()


@pytest.mark.parametrize("driver", drivers(*AFFECTED))
def test_replace_affected_rows(kv, driver):
    a = kv.run(driver, [
        "REPLACE INTO kv (k, v) VALUES (9, 'new')",              # 1: inserted
        "REPLACE INTO kv (k, v) VALUES (1, 'x')",                # 2: deleted + inserted
        "REPLACE INTO kv (k, v) VALUES (1, 'x')",                # 1 when identical (InnoDB)
        "REPLACE INTO kv (k, v) VALUES (2, 'p'), (3, 'q'), (10, 'r')",  # 2 + 2 + 1
        "SELECT k, v FROM kv ORDER BY k",
    ])
    assert [o.rowcount for o in a.maria[:4]] == [1, 2, 1, 5]
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient"))
def test_insert_ignore_and_delete_affected_rows(kv, driver):
    a = kv.run(driver, ["INSERT IGNORE INTO kv (k, v) VALUES (1, 'dup'), (7, 'new')",
                        "DELETE FROM kv WHERE k > 100",
                        "DELETE FROM kv WHERE k IN (2, 3)"])
    assert [o.rowcount for o in a.maria] == [1, 0, 2]
    a.assert_same()


# -- sql_mode --------------------------------------------------------------------------------


def test_default_sql_mode(compat):
    a = compat.run("pymysql", ["SELECT @@sql_mode, @@GLOBAL.sql_mode"])
    mode = "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER," \
           "NO_ENGINE_SUBSTITUTION"
    assert a.maria[0].rows == ((mode, mode),)
    a.assert_same()


@pytest.fixture
def strict(compat):
    compat.setup("CREATE TABLE s (id INT PRIMARY KEY, v VARCHAR(3), n INT, "
                 "nn INT NOT NULL, d DATE, dd DECIMAL(5,2), ti TINYINT)")
    return compat


NON_STRICT = "SET SESSION sql_mode = ''"
STRICT_CASES = {
    # name: (statement, MariaDB's error in strict mode)
    "1406-too-long": ("INSERT INTO s (id, v, nn) VALUES (1, 'abcdef', 0)", 1406),
    "1366-not-an-integer": ("INSERT INTO s (id, n, nn) VALUES (1, 'abc', 0)", 1366),
    "1048-null-into-not-null": ("INSERT INTO s (id, nn) VALUES (1, NULL)", 1048),
    "1364-no-default": ("INSERT INTO s (id) VALUES (1)", 1364),
    "1264-out-of-range": ("INSERT INTO s (id, ti, nn) VALUES (1, 300, 0)", 1264),
    "1365-division-by-zero": ("INSERT INTO s (id, n, nn) VALUES (1, 1 / 0, 0)", 1365),
    "1292-bad-date": ("INSERT INTO s (id, d, nn) VALUES (1, '2024-02-30', 0)", 1292),
    "1366-not-a-decimal": ("INSERT INTO s (id, dd, nn) VALUES (1, 'x1', 0)", 1366),
    "1406-update": ("UPDATE s SET v = 'abcdef'", 1406),
}


@pytest.mark.parametrize("driver", drivers("pymysql", "connector-prep"))
@pytest.mark.parametrize("case", cases(STRICT_CASES))
def test_strict_mode_error(strict, driver, case):
    statement, code = STRICT_CASES[case]
    a = strict.run(driver, ["INSERT INTO s (id, nn) VALUES (0, 0)", statement,
                            "SELECT COUNT(*) FROM s WHERE id = 1"])
    assert a.maria[1].code == code
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", "connector-prep"))
@pytest.mark.parametrize("case", cases(STRICT_CASES))
def test_non_strict_mode_warning(strict, driver, case):
    """With sql_mode='' the same statements store an adjusted value and warn (1048 for a
    single-row INSERT stays an error)."""
    statement, _ = STRICT_CASES[case]
    a = strict.run(driver, [NON_STRICT, "INSERT INTO s (id, nn) VALUES (0, 0)", statement,
                            "SELECT id, v, n, nn, d, dd, ti FROM s ORDER BY id"])
    a.assert_same(("rows", "error", "rowcount", "warnings", "warning_text"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_strict_mode_multi_row_insert_is_all_or_nothing(strict, driver):
    a = strict.run(driver, [
        "INSERT INTO s (id, v, nn) VALUES (1, 'ok', 0), (2, 'too long', 0)",
        "SELECT COUNT(*) FROM s",
    ])
    assert a.maria[0].code == 1406 and a.maria[1].rows == ((0,),)
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_division_by_zero_in_select_is_null_with_warning(compat, driver):
    a = compat.run(driver, ["SELECT 1 / 0, 1 % 0, 1 DIV 0"])
    assert a.maria[0].rows == ((None, None, None),)
    a.assert_same(("rows", "error", "warnings", "warning_text"))


# -- zero dates, AUTO_INCREMENT 0 ------------------------------------------------------------


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector",
                                           "connector-prep", "raw-bin"))
def test_zero_dates(compat, driver):
    """Without NO_ZERO_DATE (not in the default sql_mode) zero dates are stored and returned;
    each driver maps them to its own Python value (None, a string)."""
    compat.setup("CREATE TABLE z (id INT PRIMARY KEY, d DATE, dt DATETIME)")
    a = compat.run(driver, [
        "INSERT INTO z VALUES (1, '0000-00-00', '0000-00-00 00:00:00')",
        "SELECT d, dt, d = '0000-00-00', CAST(d AS CHAR) FROM z",
        "INSERT INTO z VALUES (2, '2024-00-10', '2024-01-00 00:00:00')",
        "SELECT CAST(d AS CHAR), CAST(dt AS CHAR) FROM z WHERE id = 2",
    ])
    assert a.maria[0].error is None
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_zero_date_with_no_zero_date_mode(compat, driver):
    compat.setup("CREATE TABLE z (id INT PRIMARY KEY, d DATE)")
    a = compat.run(driver, [
        "SET SESSION sql_mode = 'STRICT_TRANS_TABLES,NO_ZERO_DATE,NO_ZERO_IN_DATE'",
        "INSERT INTO z VALUES (1, '0000-00-00')",
        "INSERT INTO z VALUES (2, '2024-00-10')",
        "SELECT COUNT(*) FROM z",
    ])
    assert [o.code for o in a.maria[1:3]] == [1292, 1292]
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector",
                                           "connector-prep", "aiomysql"))
def test_auto_increment_zero_generates_a_value(compat, driver):
    compat.setup("CREATE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(5))")
    a = compat.run(driver, [
        "INSERT INTO ai (id, v) VALUES (0, 'zero')",
        "INSERT INTO ai (id, v) VALUES (NULL, 'null')",
        Step("INSERT INTO ai (id, v) VALUES (%s, %s)", (0, "param")),
        "INSERT INTO ai (v) VALUES ('x'), ('y')",
        "SELECT LAST_INSERT_ID()",
        "SELECT id, v FROM ai ORDER BY id",
    ])
    assert [o.lastrowid for o in a.maria[:4]] == [1, 2, 3, 4]
    assert a.maria[5].rows == ((1, "zero"), (2, "null"), (3, "param"), (4, "x"), (5, "y"))
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_auto_increment_zero_with_no_auto_value_on_zero(compat, driver):
    compat.setup("CREATE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(5))")
    a = compat.run(driver, [
        "SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO')",
        "INSERT INTO ai (id, v) VALUES (0, 'zero')",
        "INSERT INTO ai (v) VALUES ('next')",
        "SELECT id, v FROM ai ORDER BY id",
    ])
    assert a.maria[3].rows == ((0, "zero"), (1, "next"))
    a.assert_same()
