"""The warnings of a statement inside a procedure are the routine's diagnostics area, as in
MariaDB (mtr func_bit): SHOW WARNINGS inside the routine shows them, a later statement that
names a table clears them, and CALL reports what is left once (not again per result set)."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import error_code as _fails
from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def test_show_warnings_inside_a_procedure(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE rw", "USE rw",
         "CREATE PROCEDURE p() BEGIN CREATE TABLE t1 (a INT); SELECT 'abc' | 0 AS x; "
         "SHOW WARNINGS; DROP TABLE t1; END")
    with conn.cursor() as cur:
        cur.execute("CALL p()")
        assert cur.fetchall() == ((0,),)
        assert cur.nextset()
        assert cur.fetchall() == (("Warning", 1292, "Truncated incorrect DECIMAL value: 'abc'"),)
        while cur.nextset():
            pass
    # DROP TABLE named a table: the routine's warnings were cleared before it
    assert _run(conn, "SHOW WARNINGS") == ()


def test_a_result_sets_warnings_are_reported_once(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE rw", "USE rw",
         "CREATE PROCEDURE p() BEGIN SELECT 'abc' | 0 AS x, CAST('x' AS SIGNED) AS y; "
         "SELECT 2 AS z; END")
    with conn.cursor() as cur:
        cur.execute("CALL p()")
        while cur.nextset():
            pass
    assert _run(conn, "SHOW WARNINGS") == (
        ("Warning", 1292, "Truncated incorrect DECIMAL value: 'abc'"),
        ("Warning", 1292, "Truncated incorrect INTEGER value: 'x'"))


def test_each_statement_raising_conditions_starts_the_list_again(server):
    """mtr sp-vars: only the last DECLARE's note is left; a DECIMAL variable rounds with Note
    1265 and shows its scale; a DOUBLE variable holds a double."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE rw2", "USE rw2", "SET sql_mode = ''",
         "CREATE PROCEDURE p() BEGIN DECLARE v1 TINYINT DEFAULT 300; "
         "DECLARE v2 DECIMAL(64, 2) DEFAULT 12; DECLARE v3 DECIMAL(64, 2) DEFAULT 12 + 0.123; "
         "DECLARE z DOUBLE DEFAULT 0; DECLARE n DOUBLE DEFAULT 0; "
         "SET z = z + 10, n = n + 3; SELECT v1, v2, v3, z / n; END")
    with conn.cursor() as cur:
        cur.execute("CALL p()")
        row = cur.fetchall()[0]
        while cur.nextset():
            pass
    assert [str(v) for v in row[:3]] == ["127", "12.00", "12.12"]
    assert abs(row[3] - 10 / 3) < 1e-12  # DOUBLE division, not a 4-decimal DECIMAL
    assert _run(conn, "SHOW WARNINGS") == (
        ("Note", 1265, "Data truncated for column 'v3' at row 0"),)


def test_return_conversion_warnings_reach_the_caller(server):
    """mtr sp-vars: RETURN into the function's type warns the calling statement (an error
    under the function's strict sql_mode); SELECT ... INTO of a division by zero is 1365 in
    strict mode; a BIT variable holds a number clipped to its bits."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE rw3", "USE rw3", "SET sql_mode = ''",
         "CREATE FUNCTION r1() RETURNS TINYINT RETURN 1000",
         "CREATE PROCEDURE pb() BEGIN DECLARE v5 BIT(3); DECLARE v8 BIT(8) DEFAULT '128'; "
         "SET v5 = 0x5555; SELECT HEX(v5), HEX(v8); END")
    assert _run(conn, "SELECT r1()") == ((127,),)
    assert _run(conn, "SHOW WARNINGS") == (
        ("Warning", 1264, "Out of range value for column 'r1()' at row 0"),)
    with conn.cursor() as cur:
        cur.execute("CALL pb()")
        assert cur.fetchall() == (("7", "FF"),)
        while cur.nextset():
            pass
    assert _run(conn, "SHOW WARNINGS") == (
        ("Warning", 1264, "Out of range value for column 'v5' at row 0"),)
    _run(conn, "SET sql_mode = 'TRADITIONAL'",
         "CREATE FUNCTION r2() RETURNS TINYINT RETURN 1000",
         "CREATE FUNCTION dz() RETURNS INT BEGIN DECLARE d INT; SELECT 1/0 INTO d; RETURN d; END")
    assert _fails(conn, "SELECT r2()") == 1264
    assert _fails(conn, "SELECT dz()") == 1365
