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
