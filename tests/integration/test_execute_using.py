"""EXECUTE ... USING values (session/sqlprepare.py, defaultparams.py; mtr ps_11bugs,
ps_ddl1), answers measured on MariaDB 10.11."""

from __future__ import annotations

import pymysql
import pytest

from tests.integration.sqlrun import error_code
from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def test_default_and_ignore_values(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE eu", "USE eu", "CREATE TABLE td (a INT DEFAULT 5, b INT)",
         "INSERT INTO td VALUES (1, 1)")
    assert _run(conn, "PREPARE s FROM 'SELECT ?'", "EXECUTE s USING DEFAULT") == ((None,),)
    assert _run(conn, "PREPARE s FROM 'SELECT ? FROM td'", "EXECUTE s USING IGNORE") == \
        ((None,),)
    for text in ("SELECT ? + 1", "SELECT CONCAT(?)", "SELECT 1 FROM td WHERE a = ?",
                 "SELECT ?, 1 UNION SELECT 2, 3", "SELECT a FROM td LIMIT ?"):
        _run(conn, f"PREPARE s FROM '{text}'")
        assert error_code(conn, "EXECUTE s USING DEFAULT") == 4032, text
    _run(conn, "PREPARE s FROM 'INSERT INTO td VALUES (?, ?)'", "EXECUTE s USING DEFAULT, 9",
         "PREPARE s FROM 'UPDATE td SET b = ? WHERE b = 1'", "EXECUTE s USING DEFAULT",
         "PREPARE s FROM 'UPDATE td SET b = ?, a = ? WHERE a = 5'", "EXECUTE s USING 7, IGNORE")
    assert _run(conn, "SELECT a, b FROM td ORDER BY a") == ((1, None), (5, 7))


def test_a_one_word_value_is_an_expression(server):
    conn = server.connect()
    _run(conn, "SET timestamp = UNIX_TIMESTAMP('2001-01-01 10:20:30')",
         "PREPARE s FROM 'SELECT CONCAT(?)'")
    assert _run(conn, "EXECUTE s USING CURRENT_TIMESTAMP") == (("2001-01-01 10:20:30",),)
    assert _run(conn, "EXECUTE s USING CURRENT_TIME") == (("10:20:30",),)
    assert error_code(conn, "EXECUTE s USING nosuchcolumn") == 1054


def test_insert_select_of_another_width_fails_at_execute(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE iw", "USE iw", "CREATE TABLE t1 (a INT)",
         "CREATE TABLE t2 (a INT, b INT)", "INSERT INTO t2 VALUES (1, 2)",
         "PREPARE s FROM 'INSERT INTO t1 SELECT * FROM t2'")
    assert error_code(conn, "EXECUTE s") == 1136
    assert error_code(conn, "PREPARE s2 FROM 'INSERT INTO t1 VALUES (1, 2)'") == 1136


def test_row_width_error_names_the_width_wanted(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE rw", "USE rw", "CREATE TABLE t (a INT, b INT)")
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, "SELECT * FROM t WHERE (a, b) IN (SELECT a FROM t)")
    assert e.value.args == (1241, "Operand should contain 2 column(s)")
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, "SELECT * FROM t WHERE a IN (SELECT a, b FROM t)")
    assert e.value.args == (1241, "Operand should contain 1 column(s)")


def test_dropping_a_temporary_table_the_statement_reads_is_1137(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE tt", "USE tt", "CREATE TEMPORARY TABLE t1 AS SELECT 1 AS a",
         "CREATE PROCEDURE p1() BEGIN DROP TEMPORARY TABLE t1; END",
         "CREATE FUNCTION f1() RETURNS INT BEGIN CALL p1(); RETURN 1; END")
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, "SELECT f1(), a FROM t1")
    assert e.value.args == (1137, "Can't reopen table: 't1'")
    assert _run(conn, "SELECT a FROM t1") == ((1,),)


def test_a_user_variable_holding_a_string_compares_with_a_number_as_a_number(server):
    conn = server.connect()
    assert _run(conn, "SET @x = '0', @s = 'abc'",
                "SELECT 0 <> @x, @x = 0, 0 + 0 <> @x, @s = 0") == ((0, 1, 0, 1),)


def test_a_timestamp_compared_with_a_number_reads_it_as_a_datetime(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE tsn", "USE tsn", "CREATE TABLE t (c TIMESTAMP)",
         "INSERT INTO t VALUES ('2001-01-01 10:20:30')", "PREPARE s FROM "
         "'DELETE FROM t WHERE c = ?'", "EXECUTE s USING 1")
    assert _run(conn, "SHOW WARNINGS") == (
        ("Warning", 1292, "Truncated incorrect datetime value: '1'"),)
    assert _run(conn, "SELECT COUNT(*) FROM t WHERE c = 20010101102030") == ((1,),)
    _run(conn, "SET time_zone = '+05:00'")
    assert _run(conn, "SELECT COUNT(*) FROM t WHERE c = '2001-1-1 15:20:30'") == ((1,),)


def test_order_by_a_bound_position(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE ob", "USE ob", "CREATE TABLE t1 (a INT, b VARCHAR(10))",
         "INSERT INTO t1 VALUES (4, 'four'), (1, 'one'), (3, 'three'), (2, 'two')",
         "PREPARE s FROM 'SELECT a, b FROM t1 ORDER BY ?'")
    got = _run(conn, "SET @x = 2", "EXECUTE s USING @x")
    assert [r[0] for r in got] == [4, 1, 3, 2]  # by b
    got = _run(conn, "SET @x = 1", "EXECUTE s USING @x")
    assert [r[0] for r in got] == [1, 2, 3, 4]
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, "SET @x = 0", "EXECUTE s USING @x")
    assert e.value.args == (1054, "Unknown column '0' in 'ORDER BY'")
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, "SELECT a FROM t1 ORDER BY a, 7 DESC")
    assert e.value.args == (1054, "Unknown column '7' in 'ORDER BY'")


def test_explain_of_a_statement_with_parameters(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE ex", "USE ex", "CREATE TABLE t1 (a INT)",
         "INSERT INTO t1 VALUES (1), (2)",
         "PREPARE s FROM 'EXPLAIN SELECT a FROM t1 WHERE a = ? AND ? = ''x'''",
         "SET @x = 1, @y = 'it''s'")
    got = _run(conn, "EXECUTE s USING @x, @y")  # 'it''s' = 'x' is false: MariaDB's row
    assert got == ((1, "SIMPLE", None, None, None, None, None, None, None,
                    "Impossible WHERE"),)
    got = _run(conn, "SET @y = 'x'", "EXECUTE s USING @x, @y")
    assert got[0][:3] == (1, "SIMPLE", "t1")


def test_limit_parameters_are_read_as_mariadb_reads_them(server):
    """LIMIT ? of a string is its leading integer ('qwe' 0, '2x' 2), of a fraction rounded,
    of a negative number 1210, as MariaDB 10.11 (mtr limit)."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE el", "USE el", "CREATE TABLE l (a INT)",
         "INSERT INTO l VALUES (1), (2), (3)",
         "PREPARE s FROM 'SELECT COUNT(*) FROM (SELECT a FROM l LIMIT ?) d'")
    for value, count in (("'qwe'", 0), ("'2'", 2), ("'2x'", 2), ("2.7", 3), ("NULL", 0),
                         ("1", 1)):
        _run(conn, f"SET @a = {value}")
        assert _run(conn, "EXECUTE s USING @a") == ((count,),), value
    _run(conn, "SET @a = -1")
    assert error_code(conn, "EXECUTE s USING @a") == 1210
    _run(conn, "PREPARE s FROM 'SELECT a FROM l LIMIT 1, ?'")
    assert error_code(conn, "EXECUTE s USING @a") == 1210
    _run(conn, "SET @a = 14632475938453979136")
    assert len(_run(conn, "EXECUTE s USING @a")) == 2
