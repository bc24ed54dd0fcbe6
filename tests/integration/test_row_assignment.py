"""A ROW assigned to a scalar variable or a trigger's NEW.col is MariaDB's 4078 "Cannot cast
'row' as '<type>' in assignment of ..." (mtr type_row, MDEV-29356); a row inside an
expression keeps its own error."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _error(conn, sql):
    import pymysql
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, sql)
    return e.value.args[0], e.value.args[1]


def test_row_into_scalars(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE ra", "USE ra", "CREATE TABLE tt (c1 INT, c2 VARCHAR(5))")
    assert _error(conn, "BEGIN NOT ATOMIC DECLARE v INT; SET v = ROW(1,1); END") == (
        4078, "Cannot cast 'row' as 'int' in assignment of `v`")
    assert _error(conn, "BEGIN NOT ATOMIC DECLARE v VARCHAR(10); SET v = (SELECT 1,2); END") \
        == (4078, "Cannot cast 'row' as 'varchar' in assignment of `v`")
    assert _error(conn, "BEGIN NOT ATOMIC DECLARE v INT DEFAULT ROW(1,1); END") == (
        4078, "Cannot cast 'row' as 'int' in assignment of `v`")
    assert _error(conn, "BEGIN NOT ATOMIC DECLARE v INT; SELECT ROW(1,2) INTO v; END")[0] \
        == 1241
    _run(conn, "CREATE TRIGGER tr BEFORE INSERT ON tt FOR EACH ROW SET NEW.c2 = ROW(1,1)")
    assert _error(conn, "INSERT INTO tt VALUES (0,0)") == (
        4078, "Cannot cast 'row' as 'varchar' in assignment of `ra`.`tt`.`c2`")
    _run(conn, "DROP TRIGGER tr",
         "CREATE TRIGGER tr BEFORE INSERT ON tt FOR EACH ROW SET NEW.c1 = (SELECT * FROM tt)")
    assert _error(conn, "INSERT INTO tt VALUES (0,0)") == (
        4078, "Cannot cast 'row' as 'int' in assignment of `ra`.`tt`.`c1`")
