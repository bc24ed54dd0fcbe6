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


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_prepare_after_the_table_is_made_again(compat, driver):
    """PREPARE of a statement whose table was dropped and created again since an earlier
    PREPARE of the same text (this crashed the server: SQLite re-prepared a cached EXPLAIN)."""
    compat.check(driver, [
        "CREATE TABLE tx (a INT)",
        "PREPARE s FROM 'INSERT INTO tx VALUES (1)'", "EXECUTE s",
        "PREPARE s FROM 'SELECT * FROM tx'", "EXECUTE s",
        "DROP TABLE tx", "CREATE TABLE tx (a INT, b INT DEFAULT 2)",
        "PREPARE s FROM 'INSERT INTO tx VALUES (1)'",
        "PREPARE s FROM 'INSERT INTO tx (a) VALUES (1)'", "EXECUTE s",
        "PREPARE s FROM 'SELECT * FROM tx'", "EXECUTE s",
        "EXPLAIN SELECT * FROM tx WHERE a = 1",
        "DROP TABLE tx", "CREATE TABLE tx (a INT)",
        "EXPLAIN SELECT * FROM tx WHERE a = 1",
        "SELECT 'still here'",
    ], checks=("error", "rowcount"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_prepare_call_and_routine_statements(compat, driver):
    """CALL and CREATE / DROP PROCEDURE can be prepared; a routine that EXECUTEs the statement
    that called it is 1444 (mtr sp-dynamic)."""
    compat.check(driver, [
        "CREATE PROCEDURE p0(x INT) SELECT x + 1 AS y",
        "PREPARE s FROM 'CALL p0(?)'", "EXECUTE s USING 41", "EXECUTE s USING 1",
        "PREPARE c FROM 'CREATE PROCEDURE p2() SELECT 2 AS two'", "EXECUTE c", "EXECUTE c",
        "CALL p2()",
        "PREPARE d FROM 'DROP PROCEDURE p2'", "EXECUTE d", "EXECUTE d",
        "CREATE PROCEDURE p1() EXECUTE r",
        "PREPARE r FROM 'CALL p1()'",
        "EXECUTE r",
        "CALL p1()",
        "CREATE PROCEDURE p3() BEGIN PREPARE q FROM 'SELECT 1'; DEALLOCATE PREPARE q; END",
        "CREATE FUNCTION f1(a INT) RETURNS INT BEGIN CALL p3(); RETURN 1; END",
        "SELECT f1(0)",
        "SELECT f1(f1(0))",
        "CALL p3()",
    ])


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_subqueries_refused_where_mariadb_refuses_them(compat, driver):
    """1970 for a subquery as PREPARE's source, EXECUTE's values or PURGE's time; SIGNAL at
    top level, with only literals and variables as its values (mtr statement-expr)."""
    compat.check(driver, [
        "CREATE TABLE t1 (id INT)",
        "EXECUTE IMMEDIATE 'SELECT ?' USING (1 IN (SELECT * FROM t1))",
        "EXECUTE IMMEDIATE 'SELECT ?' USING (SELECT * FROM t1)",
        "PREPARE stmt FROM (1 IN (SELECT * FROM t1))",
        "PREPARE stmt FROM EXISTS (SELECT * FROM t1)",
        "EXECUTE IMMEDIATE (1 IN (SELECT * FROM t1))",
        "PREPARE s FROM 'SELECT ?'",
        "EXECUTE s USING (SELECT 1)",
        "PURGE BINARY LOGS BEFORE (1 IN (SELECT * FROM t1))",
        "PURGE BINARY LOGS BEFORE NOW()",
        "PURGE MASTER LOGS TO 'nosuch.000001'",
        "SIGNAL SQLSTATE '01000' SET MYSQL_ERRNO = 1234",
        "SIGNAL SQLSTATE '01000' SET MYSQL_ERRNO = (1 IN (SELECT * FROM t1))",
        "SIGNAL SQLSTATE '01000' SET MYSQL_ERRNO = EXISTS (SELECT * FROM t1)",
        "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'stop', MYSQL_ERRNO = 1001",
        "SET @e = 1002",
        "SIGNAL SQLSTATE '45000' SET MYSQL_ERRNO = @e",
        "RESIGNAL",
        "GET DIAGNOSTICS CONDITION (1 IN (SELECT * FROM t1)) @errno = MYSQL_ERRNO",
    ], checks=("error", "message", "warnings"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_signal_items_too_long(compat, driver):
    """MESSAGE_TEXT holds 512 characters, the other items 64: longer is 1648 in strict mode
    (mtr signal_sqlmode). Codes only: MariaDB cuts long error messages on the wire."""
    compat.check(driver, [
        "SET @long = REPEAT('A', 513), @name = REPEAT('n', 65), @ok = REPEAT('B', 512)",
        "SIGNAL SQLSTATE '55555' SET MESSAGE_TEXT = @ok",
        "SET sql_mode = ''",
        "SIGNAL SQLSTATE '55555' SET MESSAGE_TEXT = @long",
        "SIGNAL SQLSTATE '55555' SET MESSAGE_TEXT = 'm', TABLE_NAME = @name",
        "SET sql_mode = 'STRICT_ALL_TABLES'",
        "SIGNAL SQLSTATE '55555' SET MESSAGE_TEXT = @long",
        "SIGNAL SQLSTATE '55555' SET MESSAGE_TEXT = 'm', TABLE_NAME = @name",
        "CREATE PROCEDURE p2() SIGNAL SQLSTATE '55555' SET MESSAGE_TEXT = @long",
        "CREATE PROCEDURE p3() SIGNAL SQLSTATE '55555' SET MESSAGE_TEXT = 'm', "
        "TABLE_NAME = @name",
        "CALL p2()",
        "CALL p3()",
    ], checks=("error",))


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient"))
def test_big_unsigned_values_in_functions(compat, driver):
    compat.check(driver, [
        "PREPARE p1 FROM 'SELECT CONCAT(?), SQRT(?) IS NOT NULL, CAST(? AS CHAR), LPAD(?, 3, 0)'",
        "EXECUTE p1 USING 17864960750176564435, 17864960750176564435, 17864960750176564435, 'ab'",
        "CREATE TABLE tu (a BIGINT UNSIGNED)",
        "INSERT INTO tu VALUES (18446744073709551615), (5)",
        "SELECT CONCAT(a), SQRT(a), a + 0, CAST(a AS CHAR), CONCAT_WS(',', a, a), "
        "LPAD(a, 22, 'x'), LENGTH(a) FROM tu ORDER BY a",
        "SELECT CONCAT(18446744073709551615), CONCAT(~0), CAST(~0 AS CHAR), LENGTH(~0)",
    ])


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_parameters_are_typed_by_their_values(compat, driver):
    """A DECIMAL user variable keeps EXECUTE's arithmetic exact (ps_10nestset): no note 1265
    when 900 * (1 + 0.10) is stored into DECIMAL(6,2); MOD keeps the fraction."""
    compat.check(driver, [
        "CREATE TABLE pay (id INT PRIMARY KEY, salary DECIMAL(6,2) NOT NULL)",
        "INSERT INTO pay VALUES (1, 900), (2, 1197.90)",
        "SET @pct = .10, @round = 50",
        "PREPARE raise FROM 'UPDATE pay SET salary = salary * (1 + ?) WHERE id = 1'",
        "EXECUTE raise USING @pct",
        "PREPARE rnd FROM 'UPDATE pay SET salary = salary + ? - (salary MOD ?) WHERE id = 2'",
        "EXECUTE rnd USING @round, @round",
        "SELECT id, salary FROM pay ORDER BY id",
        "PREPARE s FROM 'SELECT ?, ? + 1, CONCAT(?, ''x'')'",
        "SET @a = 1.50, @c = 'abc'",
        "EXECUTE s USING @a, @a, @c",
        "EXECUTE s USING @c, @a, 1.25",
    ], checks=("rows", "error", "rowcount", "warnings"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_routine_preparing_the_executing_statement_is_1444(compat, driver):
    """sp-dynamic: EXECUTE of a statement whose routine PREPAREs that same name is 1444."""
    compat.check(driver, [
        "CREATE PROCEDURE prep_again() BEGIN PREPARE stmt FROM 'SELECT 1 A'; EXECUTE stmt; "
        "END",
        "PREPARE stmt FROM 'CALL prep_again()'",
        "EXECUTE stmt",
        "EXECUTE stmt",
        "DROP PROCEDURE prep_again",
    ], checks=("error", "message"))
