"""The warnings of a statement inside a procedure are the routine's diagnostics area, as in
MariaDB (mtr func_bit): SHOW WARNINGS inside the routine shows them, a later statement that
names a table clears them, and CALL reports what is left once (not again per result set)."""

from __future__ import annotations

import pytest

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
