"""A TIMESTAMP in the session zone's spring gap (mtr timezone2; measured on MariaDB 10.11.19):
not strict, 1299 and the moment the gap ends is stored; strict, 1292 for the value given."""

from __future__ import annotations

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def test_a_time_in_the_gap(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE tg", "USE tg", "CREATE TABLE t1 (ts TIMESTAMP NULL)",
         "SET time_zone='MET'", "SET sql_mode=''",
         "INSERT INTO t1 VALUES ('2003-03-30 01:59:59'), ('2003-03-30 02:30:00'), "
         "(20030330023000)")
    assert _run(conn, "SHOW WARNINGS") == (
        ("Warning", 1299, "Invalid TIMESTAMP value in column 'ts' at row 2"),
        ("Warning", 1299, "Invalid TIMESTAMP value in column 'ts' at row 3"))
    got = _run(conn, "SELECT CAST(ts AS CHAR), UNIX_TIMESTAMP(ts) FROM t1")
    assert [(a, int(b)) for a, b in got] == [("2003-03-30 01:59:59", 1048985999),
                                            ("2003-03-30 03:00:00", 1048986000),
                                            ("2003-03-30 03:00:00", 1048986000)]
    assert int(_run(conn, "SELECT UNIX_TIMESTAMP('2003-03-30 02:30:00')")[0][0]) == 1048986000
    _run(conn, "SET sql_mode=DEFAULT", "ALTER TABLE t1 ENGINE=InnoDB")
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, "INSERT INTO t1 VALUES ('2003-03-30 02:30:00')")
    assert e.value.args == (1292, "Incorrect datetime value: '2003-03-30 02:30:00' for "
                                  "column `tg`.`t1`.`ts` at row 1")
