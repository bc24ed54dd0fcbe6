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


def test_row_arguments_and_argument_conversions(server):
    """mtr sp-vars: a ROW argument of CALL is 4078 for its parameter; a stored function's
    argument conversion warns the calling statement at row 1 (an error in strict mode), and
    SELECT ... INTO's at row 1 too."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE ra2", "USE ra2", "SET sql_mode = ''",
         "CREATE PROCEDURE p1(arg TINYINT) SELECT arg",
         "CREATE FUNCTION f1(arg TINYINT) RETURNS INT RETURN arg",
         "CREATE PROCEDURE p2() BEGIN DECLARE v INT; SELECT 'x' INTO v; END")
    assert _error(conn, "CALL p1((1, 2))") == (
        4078, "Cannot cast 'row' as 'tinyint' in assignment of `arg`")
    assert _run(conn, "SELECT f1(-2500)") == ((-128,),)
    assert _run(conn, "SHOW WARNINGS") == (
        ("Warning", 1264, "Out of range value for column 'arg' at row 1"),)
    _run(conn, "CALL p2()")
    assert _run(conn, "SHOW WARNINGS") == (
        ("Warning", 1366, "Incorrect integer value: 'x' for column ``.``.`v` at row 1"),)
    _run(conn, "SET sql_mode = 'TRADITIONAL'")
    assert _error(conn, "SELECT f1(-2500)") == (
        1264, "Out of range value for column 'arg' at row 1")


def test_enum_variables(server):
    """mtr sp-vars (BUG#13808): an ENUM variable or parameter holds a member; anything else
    is '' with 1265."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE ra3", "USE ra3", "SET sql_mode = ''",
         "CREATE PROCEDURE p2(arg ENUM('a', 'b')) BEGIN DECLARE var ENUM('c', 'd') DEFAULT arg; "
         "DECLARE n ENUM('x', 'y') DEFAULT 2; DECLARE u ENUM('x', 'y') DEFAULT 'X'; "
         "SELECT arg, var, n, u; END")
    with conn.cursor() as cur:
        cur.execute("CALL p2('a')")
        assert cur.fetchall() == (("a", "", "y", "x"),)
        while cur.nextset():
            pass
    assert _run(conn, "SHOW WARNINGS") == (
        ("Warning", 1265, "Data truncated for column 'var' at row 0"),)


def test_binary_variables_pad(server):
    """mtr sp-vars (BUG#14188): BINARY(n) variables and parameters pad with 0x00."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE ra4", "USE ra4",
         "CREATE PROCEDURE p1(arg1 BINARY(2), arg2 VARBINARY(2)) BEGIN "
         "DECLARE var1 BINARY(2) DEFAULT 0x41; DECLARE var2 VARBINARY(2) DEFAULT 0x42; "
         "SELECT HEX(arg1), HEX(arg2), HEX(var1), HEX(var2); END")
    with conn.cursor() as cur:
        cur.execute("CALL p1(0x41, 0x42)")
        assert cur.fetchall() == (("4100", "42", "4100", "42"),)
        while cur.nextset():
            pass
