"""A row assigned to a scalar inside a stored program is MariaDB's 4078 "Cannot cast 'row' as
'<type>' in assignment of <target>" (mtr type_row, MDEV-29356); elsewhere it stays 1241."""

from __future__ import annotations

import pymysql
import pytest

from tests.integration.sqlrun import error_code as _error
from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _message(conn, sql):
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, sql)
    return e.value.args[0], e.value.args[1]


def test_rows_assigned_in_triggers_routines_and_functions(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE rc", "USE rc", "CREATE TABLE t1 (c1 INT, c2 VARCHAR(5))",
         "CREATE TRIGGER t BEFORE INSERT ON t1 FOR EACH ROW SET NEW.c2 = (SELECT 1, 2)",
         "CREATE PROCEDURE p() BEGIN DECLARE a BIGINT UNSIGNED; SET a = ROW(1, 2); END",
         "CREATE PROCEDURE q() BEGIN DECLARE a TEXT DEFAULT (1, 2); END",
         "CREATE FUNCTION f() RETURNS INT RETURN ROW(1, 2)")
    assert _message(conn, "INSERT INTO t1 VALUES (0, 'a')") == (
        4078, "Cannot cast 'row' as 'varchar' in assignment of `rc`.`t1`.`c2`")
    assert _message(conn, "CALL p()") == (
        4078, "Cannot cast 'row' as 'bigint unsigned' in assignment of `a`")
    assert _message(conn, "CALL q()") == (4078, "Cannot cast 'row' as 'blob' in assignment of `a`")
    assert _message(conn, "SELECT f()") == (4078, "Cannot cast 'row' as 'int' in assignment of `f()`")


def test_rows_elsewhere_are_not_assignments(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE rc", "USE rc", "CREATE TABLE t5 (a INT)",
         "CREATE PROCEDURE p() BEGIN DECLARE a INT; SET a = ROW(1, 2) + 1; END")
    assert _error(conn, "SET @a = ROW(1, 2)") == 1241
    assert _error(conn, "INSERT INTO t5 VALUES (ROW(1, 2))") == 1241
    assert _message(conn, "CALL p()") == (
        4078, "Illegal parameter data types row and int for operation '+'")
