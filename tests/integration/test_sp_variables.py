"""Local variables anchored to a column or another variable (`DECLARE a TYPE OF t1.a`, mtr
sp-anchor-type): the type is read when the block is entered; no such table is 1146, no such
column 1054."""

from __future__ import annotations

import pymysql
import pytest

pytestmark = pytest.mark.timeout(60)


def _run(conn, *statements: str):
    with conn.cursor() as cur:
        for sql in statements:
            cur.execute(sql)
        return cur.fetchall()


def test_type_of_a_column_or_a_variable(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE an", "USE an", "SET sql_mode = ''",
         "CREATE PROCEDURE p() BEGIN DECLARE a TYPE OF t1.a; DECLARE b TYPE OF an.t1.b; "
         "DECLARE c TYPE OF a; SET a = 200, b = 200, c = 300; SELECT a, b, c; END")
    for create, code in (("", 1146), ("CREATE TABLE t1 (b INT)", 1054)):
        if create:
            _run(conn, create)
        with pytest.raises(pymysql.err.MySQLError) as e:
            _run(conn, "CALL p()")
        assert e.value.args[0] == code
    _run(conn, "DROP TABLE t1", "CREATE TABLE t1 (a TINYINT, b INT)")
    with conn.cursor() as cur:
        cur.execute("CALL p()")
        assert cur.fetchall() == ((127, 200, 127),)
