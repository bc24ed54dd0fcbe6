"""Issue 13: stored programs compared with MariaDB through PyMySQL - an error in RETURN taken
by a CONTINUE handler, functions called with their database `db.f()` (mtr sp-bugs)."""

from __future__ import annotations

import pytest

from tests.compat.conftest import drivers


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_return_error_taken_by_a_continue_handler(compat, driver):
    compat.check(driver, [
        "CREATE FUNCTION f2() RETURNS INT BEGIN DECLARE CONTINUE HANDLER FOR SQLSTATE "
        "'42000' SET @aux = 1; RETURN f_not_exists(); END",
        "CREATE FUNCTION f3() RETURNS INT BEGIN DECLARE CONTINUE HANDLER FOR SQLEXCEPTION "
        "SET @aux = 2; RETURN (SELECT 1 UNION SELECT 2); END",
        "CREATE FUNCTION f4() RETURNS INT BEGIN RETURN f_not_exists(); END",
        "CREATE PROCEDURE p3(arg1 VARCHAR(32)) BEGIN CALL p_not_exists(); END",
        "SET @aux = 0",
        "SELECT f2(), @aux",
        "SELECT f3(), @aux",
        "SELECT f4()",
        "CALL p3(f2())",
    ], checks=("rows", "error", "warnings"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_function_called_with_its_database(compat, driver):
    db = compat.db
    compat.setup(f"DROP DATABASE IF EXISTS {db}_b", f"CREATE DATABASE {db}_b",
                 f"CREATE TABLE {db}_b.t1 (c1 INT NOT NULL PRIMARY KEY)",
                 f"INSERT INTO {db}_b.t1 VALUES (1)",
                 f"CREATE FUNCTION {db}_b.f1(v INT) RETURNS SMALLINT BEGIN INSERT INTO t1 "
                 "SET c1 = v; RETURN v * 10; END",
                 f"CREATE FUNCTION {db}_b.g(v INT) RETURNS INT RETURN v + 1")
    try:
        compat.check(driver, [
            f"SELECT {db}_b.g(1), {db}_b.g({db}_b.g(1)) + 1",
            f"SELECT {db}_b.f1(1)",
            f"SELECT {db}_b.f1(2)",
            "SELECT DATABASE() = 'x'",
            f"SELECT {db}_b.nosuch(1)",
            "SELECT nosuchdb.f(1)",
            f"SELECT c1 FROM {db}_b.t1 ORDER BY c1",
        ], checks=("rows", "error", "message"))
    finally:
        compat.setup(f"DROP DATABASE {db}_b")


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_warnings_a_call_reports(compat, driver):
    """CALL reports the warnings its statements left (a statement that uses tables starts the
    list again) (mtr sp-bugs)."""
    compat.check(driver, [
        "CREATE TABLE t1 (id1 INT PRIMARY KEY)",
        "CREATE PROCEDURE p1() BEGIN CREATE TABLE IF NOT EXISTS t2 (id INT PRIMARY KEY, "
        "CONSTRAINT fk FOREIGN KEY (id) REFERENCES t1 (id1)); END",
        "CALL p1()",
        "CALL p1()",
        "CREATE PROCEDURE p2() BEGIN DROP TABLE IF EXISTS nosuch1; DROP VIEW IF EXISTS "
        "nosuch2; END",
        "CALL p2()",
        "CREATE PROCEDURE p3() BEGIN DECLARE x INT; DROP TABLE IF EXISTS nosuch1; "
        "SELECT COUNT(*) INTO x FROM t1; END",
        "CALL p3()",
        "CREATE PROCEDURE p4() BEGIN DROP TABLE IF EXISTS nosuch1; SET @a = 1; END",
        "CALL p4()",
    ], checks=("rows", "error", "warnings"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_integer_locals_take_the_leading_number_and_clip(compat, driver):
    """An integer local from 1e200 clips to its range; from a string it takes the string's
    leading number, 0 without one (mtr sp-vars)."""
    compat.check(driver, [
        "SET sql_mode = ''",
        "CREATE PROCEDURE p() BEGIN DECLARE v1 TINYINT DEFAULT 1e200; DECLARE v2 TINYINT "
        "UNSIGNED DEFAULT -1e200; DECLARE v7 TINYINT DEFAULT ' 10 '; DECLARE v10 TINYINT "
        "DEFAULT 'String 10 '; DECLARE v12 TINYINT DEFAULT '10 String'; DECLARE v16 INT "
        "DEFAULT CONCAT('Hello, ', 'world'); DECLARE v17 INT DEFAULT '1.5e1x'; "
        "SELECT v1, v2, v7, v10, v12, v16, v17; END",
        "CALL p()",
    ], checks=("rows", "error"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_what_a_function_or_trigger_may_not_hold(compat, driver):
    compat.check(driver, [
        "CREATE TABLE t (a INT)",
        "CREATE FUNCTION f1() RETURNS INT BEGIN PREPARE s FROM 'SELECT 1'; RETURN 1; END",
        "CREATE FUNCTION f2() RETURNS INT BEGIN EXECUTE IMMEDIATE 'SELECT 1'; RETURN 1; END",
        "CREATE FUNCTION f3() RETURNS INT BEGIN IF 1 THEN COMMIT; END IF; RETURN 1; END",
        "CREATE FUNCTION f4() RETURNS INT BEGIN START TRANSACTION; RETURN 1; END",
        "CREATE FUNCTION f5() RETURNS INT BEGIN DECLARE execute INT DEFAULT 1; "
        "RETURN execute; END",
        "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW BEGIN ROLLBACK; END",
        "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW DEALLOCATE PREPARE s",
        "CREATE PROCEDURE p1() BEGIN PREPARE s FROM 'SELECT 1'; COMMIT; END",
        "SELECT f5()",
    ], checks=("rows", "error", "message"))
