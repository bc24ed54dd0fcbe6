"""Stored functions with OUT / INOUT parameters (MariaDB 10.8, mtr sp-inout): a SET, DO or
DECLARE ... DEFAULT writes them back into the variables named as arguments; elsewhere 4187."""

from __future__ import annotations

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def test_out_and_inout_arguments_are_written_back(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE fo", "USE fo",
         "CREATE FUNCTION f(IN a INT, OUT b INT, INOUT c INT) RETURNS INT "
         "BEGIN SET b = a + 1, c = c * 10; RETURN a; END",
         "CREATE PROCEDURE p(OUT r INT, OUT x INT) BEGIN DECLARE y INT DEFAULT 2; "
         "DECLARE z INT DEFAULT f(7, x, y); SET r = z + y; END")
    assert _run(conn, "SET @b = 9, @c = 3", "SET @r = f(1, @b, @c)",
                "SELECT @r, @b, @c") == ((1, 2, 30),)
    assert _run(conn, "DO f(4, @b, @c)", "SELECT @b, @c") == ((5, 300),)
    assert _run(conn, "CALL p(@r, @x)", "SELECT @r, @x") == ((27, 8),)
    for sql, code in (("SELECT f(1, @b, @c)", 4187), ("SET @r = f(1, 2, @c)", 1414)):
        with pytest.raises(pymysql.err.MySQLError) as e:
            _run(conn, sql)
        assert e.value.args[0] == code


def test_row_count_after_a_routine_statement(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE rc", "USE rc", "CREATE TABLE t (a INT)",
         "INSERT INTO t VALUES (1), (2), (3)",
         "CREATE FUNCTION f() RETURNS INT BEGIN UPDATE t SET a = a + 1 WHERE a < 3; "
         "RETURN ROW_COUNT(); END")
    assert _run(conn, "SELECT f()") == ((2,),)


def test_preparing_again_a_statement_that_runs_is_1444(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE ps", "USE ps",
         "CREATE PROCEDURE p() BEGIN PREPARE stmt FROM 'SELECT 1 A'; EXECUTE stmt; END",
         "PREPARE stmt FROM 'CALL p()'")
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, "EXECUTE stmt")
    assert e.value.args[0] == 1444


def test_stack_usage_grows_with_a_routine_s_recursion(server):
    """Stack_usage (mtr stack): positive, the same for the same depth, more when deeper."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE st", "USE st", "SET max_sp_recursion_depth = 10",
         "CREATE PROCEDURE r(x INT, m INT, OUT res INT) BEGIN SELECT variable_value INTO res "
         "FROM information_schema.session_status WHERE variable_name = 'stack_usage'; "
         "IF x < m THEN CALL r(x + 1, m, res); END IF; END")
    used = []
    for depth in (2, 3, 4, 4):
        _run(conn, f"CALL r(0, {depth}, @s)")
        used.append(int(_run(conn, "SELECT @s")[0][0]))
    assert 0 < used[0] < used[1] < used[2] == used[3]
    assert used[1] - used[0] == used[2] - used[1]
    assert _run(conn, "SHOW GLOBAL STATUS LIKE 'Stack_usage'") == (("Stack_usage", "0"),)


def test_create_table_select_of_variables_takes_their_declared_types(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE ct", "USE ct",
         "CREATE PROCEDURE p(x DATETIME) BEGIN DECLARE a TINYINT DEFAULT 127; "
         "DECLARE b VARCHAR(10) DEFAULT 'it''s'; DECLARE c DECIMAL(10,3) UNSIGNED DEFAULT 1.5; "
         "CREATE TABLE t AS SELECT a, b, c AS cc, x; END",
         "CALL p('2020-01-02 03:04:05')")
    create = _run(conn, "SHOW CREATE TABLE t")[0][1]
    for column in ("`a` tinyint(4) DEFAULT NULL", "`b` varchar(10) DEFAULT NULL",
                   "`cc` decimal(10,3) unsigned DEFAULT NULL", "`x` datetime DEFAULT NULL"):
        assert column in create
    assert _run(conn, "SELECT a, b, CAST(cc AS CHAR), CAST(x AS CHAR) FROM t") == (
        (127, "it's", "1.500", "2020-01-02 03:04:05"),)
