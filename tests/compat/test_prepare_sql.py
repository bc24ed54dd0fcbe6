"""Issue 9, item 2: PREPARE ... FROM / EXECUTE ... USING / DEALLOCATE PREPARE in SQL text, as
MariaDB 10.11 answers them (values from user variables, literals and expressions; 1210, 1243;
the inner statement's own errors)."""

from __future__ import annotations

import pytest

from tests.compat.conftest import drivers

STEPS = [
    "CREATE TABLE src (id INT AUTO_INCREMENT PRIMARY KEY, a VARCHAR(10))",
    "PREPARE s1 FROM 'SELECT ? + 1 AS x, ?'",
    "SET @a = 5, @b = 'str'",
    "EXECUTE s1 USING @a, @b",
    "EXECUTE s1 USING 1, 'lit'",
    "EXECUTE s1 USING 1 + 2, CONCAT('a', 'b')",
    "EXECUTE s1",
    "EXECUTE s1 USING @a",
    "EXECUTE nosuch",
    "SET @q = 'SELECT COUNT(*) FROM src WHERE id > ?'",
    "PREPARE s2 FROM @q",
    "EXECUTE s2 USING @a",
    "PREPARE s3 FROM 'INSERT INTO src (a) VALUES (?)'",
    "EXECUTE s3 USING @b",
    "EXECUTE s3 USING @undefined_is_null",
    "SELECT ROW_COUNT(), LAST_INSERT_ID()",
    "SELECT id, a FROM src ORDER BY id",
    "DEALLOCATE PREPARE s1",
    "DROP PREPARE s2",
    "DEALLOCATE PREPARE s1",
    "PREPARE s4 FROM 'SELEC 1'",
    "PREPARE s4 FROM 'SET @z = ?'",
    "EXECUTE s4 USING 7",
    "SELECT @z",
    "PREPARE S5 FROM 'SELECT a FROM src WHERE id = ?'",
    "EXECUTE s5 USING 1",
    "PREPARE s5 FROM 'SELECT 2'",
    "EXECUTE S5",
]


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector"))
def test_prepare_execute_deallocate(compat, driver):
    compat.check(driver, STEPS, checks=("rows", "error", "message", "rowcount", "warnings"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_counters(compat, driver):
    a = compat.run(driver, [
        "PREPARE s1 FROM 'SELECT 1'", "EXECUTE s1", "DEALLOCATE PREPARE s1",
        "SHOW SESSION STATUS WHERE Variable_name IN ('Com_prepare_sql', 'Com_execute_sql', "
        "'Com_dealloc_sql')"])
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient"))
def test_execute_immediate_and_select_into(compat, driver):
    """What mariadb-dump --system=users ends with, and the SELECT ... INTO @var before it."""
    compat.check(driver, [
        "CREATE TABLE v (id INT PRIMARY KEY, name VARCHAR(10))",
        "INSERT INTO v VALUES (1, 'one'), (2, 'two')",
        "SELECT COALESCE(NULL, 'NONE') INTO @role",
        "SELECT @role",
        "SELECT id, name INTO @i, @n FROM v WHERE id = 2",
        "SELECT name FROM v WHERE id = 1 INTO @n",
        "SELECT @i, @n",
        "SELECT name INTO @n FROM v WHERE id = 9",
        "SELECT @n",
        "SELECT name INTO @n FROM v",
        "SELECT id, name INTO @n FROM v WHERE id = 1",
        "EXECUTE IMMEDIATE CONCAT('SELECT ', @i, ' + 1')",
        "SET @q = 'SELECT name FROM v WHERE id = ?'",
        "EXECUTE IMMEDIATE @q USING 1",
        "EXECUTE IMMEDIATE 'INSERT INTO v VALUES (3, ?)' USING 'three'",
        "SELECT COUNT(*) FROM v",
        "/*!80001 SELECT 'mysql 8 only' */",
    ])
