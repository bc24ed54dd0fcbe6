"""Prepared statements and temporal values (mtr ps_11bugs, temporal_literal; each expected
value measured on MariaDB 10.11.19): a prepared CREATE TABLE ... SELECT keeps the sql_mode of
its PREPARE for its DATE'..' literals, and EXECUTE ... USING CURRENT_TIME binds a TIME."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def test_prepared_create_select_reads_literals_as_at_prepare(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE pt1", "USE pt1", "SET sql_mode=DEFAULT",
         "PREPARE stmt FROM \"CREATE TABLE t1 AS SELECT CAST(DATE'2001-00-00' AS CHAR) AS c\"",
         "SET sql_mode='no_zero_in_date'", "EXECUTE stmt")
    assert _run(conn, "SHOW WARNINGS") == (
        ("Warning", 1292, "Incorrect datetime value: '2001-00-00'"),)
    assert _run(conn, "SELECT * FROM t1") == ((None,),)


def test_execute_using_current_time_binds_a_time(server):
    conn = server.connect()
    _run(conn, "SET time_zone='+00:00'",
         "SET timestamp=UNIX_TIMESTAMP('2001-01-01 10:20:30')",
         "PREPARE stmt FROM \"SELECT DATE('') BETWEEN '' AND ? AS c1\"")
    assert _run(conn, "EXECUTE stmt USING current_time") == ((1,),)
    truncated = ("Warning", 1292, "Truncated incorrect datetime value: ''")
    assert _run(conn, "SHOW WARNINGS") == (truncated, truncated)
    assert _run(conn, "EXECUTE stmt USING @unknown") == ((None,),)
    assert _run(conn, "SHOW WARNINGS") == (truncated, truncated)
    _run(conn, "PREPARE s2 FROM 'SELECT ? AS c1'")
    assert [str(v) for v in _run(conn, "EXECUTE s2 USING current_time")[0]] == ["10:20:30"]


def test_a_function_and_its_trigger_read_the_calling_statements_clock(server):
    """NOW() in a stored function, and in a trigger it fires, is the calling statement's
    start, as in MariaDB (mtr func_time, MDEV-30307)."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE pt3", "USE pt3", "CREATE TABLE t_ts (a TIMESTAMP(6))",
         "CREATE TABLE t_trig (a TIMESTAMP(6))",
         "CREATE FUNCTION f() RETURNS INT BEGIN INSERT INTO t_ts SET a = "
         "current_timestamp(6); RETURN 0; END",
         "CREATE TRIGGER tr AFTER INSERT ON t_ts FOR EACH ROW "
         "INSERT INTO t_trig SET a = current_timestamp(6)",
         "SELECT current_timestamp(6), SLEEP(0.01), f() INTO @cur, @s, @f")
    assert _run(conn, "SELECT @cur = (SELECT a FROM t_ts), @cur = (SELECT a FROM t_trig)") \
        == ((1, 1),)
