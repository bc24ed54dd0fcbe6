"""Local variables anchored to a column or another variable (`DECLARE a TYPE OF t1.a`, mtr
sp-anchor-type): the type is read when the block is entered; no such table is 1146, no such
column 1054."""

from __future__ import annotations

import shutil
import subprocess
from decimal import Decimal

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


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


def test_row_variables(server):
    """ROW(...) / ROW TYPE OF table / ROW TYPE OF cursor records: rec.field is read and set,
    SELECT ... INTO rec and FETCH ... INTO rec fill the fields (mtr sp-anchor-row-type-*)."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE rw", "USE rw", "CREATE TABLE t (a INT, b VARCHAR(10))",
         "INSERT INTO t VALUES (1, 'x'), (2, 'y')",
         "CREATE PROCEDURE p() BEGIN DECLARE r ROW(a INT, b VARCHAR(10)); "
         "DECLARE t ROW TYPE OF t; DECLARE c CURSOR FOR SELECT a, b FROM t ORDER BY a DESC; "
         "BEGIN DECLARE rc ROW TYPE OF c; OPEN c; FETCH c INTO rc; CLOSE c; "
         "SET r.a = rc.a * 10, r.b = CONCAT(rc.b, '!'); END; "
         "SELECT a, b INTO t FROM t WHERE a = 1; SELECT r.a, r.b, t.a, t.b; END")
    with conn.cursor() as cur:
        cur.execute("CALL p()")
        assert cur.fetchall() == ((20, "y!", 1, "x"),)


def test_records_are_assigned_whole_and_checked(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE rw", "USE rw", "CREATE TABLE t (a INT, b VARCHAR(2))",
         "SET sql_mode = ''",
         "CREATE PROCEDURE p() BEGIN DECLARE r1 ROW TYPE OF t DEFAULT ROW(10, 'b'); "
         "DECLARE r2 ROW(x INT, y TEXT) DEFAULT (1, 'abc'); SET r1 = r2; "
         "SELECT r1.a, r1.b; END",
         "CREATE PROCEDURE bad_count() BEGIN DECLARE r ROW(a INT, b INT); "
         "SET r = ROW(1, 2, 3); END",
         "CREATE PROCEDURE bad_field() BEGIN DECLARE r ROW TYPE OF t; SELECT r.c; END")
    with pytest.raises(pymysql.err.MySQLError) as e:  # ROW(...) lacking it: at CREATE
        _run(conn, "CREATE PROCEDURE p2() BEGIN DECLARE r ROW(a INT); SELECT r.c; END")
    assert e.value.args[0] == 4082
    with conn.cursor() as cur:
        cur.execute("CALL p()")
        assert cur.fetchall() == ((1, "ab"),)
        cur.execute("SHOW WARNINGS")
        assert cur.fetchall() == (("Warning", 1265, "Data truncated for column 'b' at row 0"),)
    for call, code in (("CALL bad_count()", 1241), ("CALL bad_field()", 4082)):
        with pytest.raises(pymysql.err.MySQLError) as e:
            _run(conn, call)
        assert e.value.args[0] == code


def test_row_type_of_a_cursor_is_read_when_declared(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE rc", "USE rc", "CREATE TABLE t (a INT, b VARCHAR(10))",
         "CREATE PROCEDURE p() BEGIN DECLARE c CURSOR FOR SELECT * FROM t; "
         "BEGIN DECLARE rec ROW TYPE OF c; CREATE TABLE t2 AS SELECT rec.a, rec.b; END; END",
         "CREATE PROCEDURE gone() BEGIN DECLARE c CURSOR FOR SELECT * FROM nosuch; "
         "BEGIN DECLARE rec ROW TYPE OF c; END; END")
    _run(conn, "CALL p()")
    create = _run(conn, "SHOW CREATE TABLE t2")[0][1]
    assert "`rec.a` int(11) DEFAULT NULL" in create and "`rec.b` varchar(10)" in create
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, "CALL gone()")
    assert e.value.args[0] == 1146
    with pytest.raises(pymysql.err.MySQLError) as e:  # MariaDB: at CREATE
        _run(conn, "CREATE PROCEDURE lim() BEGIN DECLARE r ROW(a INT); "
             "SELECT * FROM t LIMIT r.a; END")
    assert e.value.args[0] == 1691


def test_records_as_procedure_parameters(server):
    """A ROW(...) parameter takes the caller's record (IN), gives its fields back (OUT), and
    `TYPE OF rec` declares a record of rec's fields (mtr sp-anchor-row-type-cursor)."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE rp", "USE rp", "CREATE TABLE t (a INT, b VARCHAR(10))",
         "CREATE PROCEDURE show_it(r ROW(a INT, b VARCHAR(10))) SELECT r.a, r.b",
         "CREATE PROCEDURE fill(OUT r ROW(a INT, b VARCHAR(10))) SET r = ROW(10, 'bb')",
         "CREATE PROCEDURE p() BEGIN DECLARE rec ROW TYPE OF t DEFAULT ROW(7, 'x'); "
         "DECLARE other TYPE OF rec; CALL show_it(rec); CALL fill(other); "
         "SELECT other.a, other.b; END")
    with conn.cursor() as cur:
        cur.execute("CALL p()")
        assert cur.fetchall() == ((7, "x"),)
        assert cur.nextset()
        assert cur.fetchall() == ((10, "bb"),)


def test_cursor_records_take_the_query_columns_types(server):
    """ROW TYPE OF a cursor over expressions: each field typed as MariaDB makes a field of
    the item (int(11), varchar(3), time); duplicate names are 1060, a record among several
    INTO targets 1241, a field it lacks 4082 naming it as written."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE cr", "USE cr", "CREATE TABLE t1 (a INT)",
         "CREATE TABLE t2 (a INT)",
         "CREATE PROCEDURE p() BEGIN "
         "DECLARE c CURSOR FOR SELECT 10 AS a, 'bbb' AS b, TIME'10:20:30' AS c; "
         "BEGIN DECLARE r ROW TYPE OF c; CREATE TABLE made AS SELECT r.a AS a, r.b AS b, "
         "r.c AS c; END; END",
         "CALL p()",
         "CREATE PROCEDURE dup() BEGIN DECLARE c CURSOR FOR SELECT * FROM t1, t2; "
         "BEGIN DECLARE r ROW TYPE OF c; SET r.a = 1; END; END",
         "CREATE TABLE t3 (a INT, b INT)", "INSERT INTO t3 VALUES (1, 2)",
         "CREATE PROCEDURE two() BEGIN DECLARE c CURSOR FOR SELECT * FROM t3; "
         "BEGIN DECLARE r ROW TYPE OF c; SELECT a, b FROM t3 INTO r, r; END; END",
         "CREATE PROCEDURE upper_field() BEGIN DECLARE c CURSOR FOR SELECT * FROM t1; "
         "BEGIN DECLARE r ROW TYPE OF c; SELECT r.B; END; END")
    with conn.cursor() as cur:
        cur.execute("SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS "
                    "WHERE TABLE_SCHEMA = 'cr' AND TABLE_NAME = 'made' ORDER BY ORDINAL_POSITION")
        assert cur.fetchall() == (("a", "int(11)"), ("b", "varchar(3)"), ("c", "time"))
    for call, code, text in (("CALL dup()", 1060, "Duplicate column name 'a'"),
                             ("CALL two()", 1241, "Operand should contain 2 column(s)"),
                             ("CALL upper_field()", 4082,
                              "Row variable 'r' does not have a field 'B'")):
        with pytest.raises(pymysql.err.MySQLError) as e:
            _run(conn, call)
        assert e.value.args == (code, text)


def test_a_variable_keeps_its_declared_character_set(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE vc", "USE vc", "SET NAMES latin1",
         "CREATE PROCEDURE p() BEGIN DECLARE v VARCHAR(10) CHARACTER SET utf8mb3 DEFAULT "
         "_latin1 0xFF; DECLARE w VARCHAR(10) CHARACTER SET latin1 DEFAULT _latin1 0xFF; "
         "SELECT HEX(v), HEX(w); END")
    with conn.cursor() as cur:
        cur.execute("CALL p()")
        assert cur.fetchall() == (("C3BF", "FF"),)


def test_table_anchors_are_read_when_the_routine_starts(server):
    """TYPE OF t.c / ROW TYPE OF t read the table when the routine starts (an ALTER it runs
    later changes nothing), against the caller's current database; ENUM / SET columns are
    VARCHARs; rec = (SELECT ...) fills a record; EXPLAIN EXTENDED shows the variables."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE ta", "USE ta", "CREATE TABLE t1 (a INT, e ENUM('x','yy'))",
         "INSERT INTO t1 VALUES (1, 'yy')",
         "CREATE PROCEDURE p() BEGIN ALTER TABLE t1 ADD c INT; "
         "BEGIN DECLARE rec ROW TYPE OF t1; SET rec.c = 10; END; END",
         "CREATE PROCEDURE q() BEGIN DECLARE r ROW TYPE OF t1; DECLARE v TYPE OF t1.e; "
         "SET r = (SELECT a, e FROM t1 WHERE a = 1); "
         "CREATE TABLE made AS SELECT r.a AS a, v AS v; SELECT r.a, r.e; "
         "EXPLAIN EXTENDED SELECT r.a, v; END")
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, "CALL p()")
    assert e.value.args[0] == 4082
    _run(conn, "ALTER TABLE t1 DROP c")
    with conn.cursor() as cur:
        cur.execute("CALL q()")
        assert cur.fetchall() == ((1, "yy"),)
        cur.nextset()
        cur.fetchall()
        cur.execute("SHOW WARNINGS")
        assert cur.fetchall()[-1][2] == 'select r.a@0["a"] AS `r.a`,v@1 AS `v`'
        cur.execute("SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE "
                    "TABLE_SCHEMA = 'ta' AND TABLE_NAME = 'made' ORDER BY ORDINAL_POSITION")
        assert cur.fetchall() == (("int(11)",), ("varchar(2)",))


def test_records_as_function_arguments(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE fa", "USE fa", "CREATE TABLE t1 (a INT, b TEXT)",
         "CREATE FUNCTION f1(r ROW TYPE OF t1) RETURNS TEXT RETURN CONCAT(r.a, ' ', r.b)",
         "CREATE FUNCTION f2() RETURNS TEXT BEGIN DECLARE x ROW TYPE OF t1 "
         "DEFAULT ROW(10, 'text'); RETURN f1(x); END",
         "CREATE FUNCTION narrow(r ROW(a INT)) RETURNS INT RETURN r.a",
         "CREATE FUNCTION f3() RETURNS INT BEGIN DECLARE x ROW TYPE OF t1; "
         "RETURN narrow(x); END")
    with conn.cursor() as cur:
        cur.execute("SELECT f2()")
        assert cur.fetchall() == (("10 text",),)
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, "SELECT f3()")
    assert e.value.args[0] == 1241


def test_select_of_a_variable_has_its_declared_type(server):
    """SELECT v sends v's declared type (a TINYINT's metadata, a BIT's bytes, a ZEROFILL
    number padded); CREATE TABLE ... SELECT v makes a VARCHAR of an ENUM and keeps no
    ZEROFILL; a TYPE OF t.c parameter is the column's type."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE vt", "USE vt", "CREATE TABLE t1 (e ENUM('a','bb'), n SMALLINT)",
         "CREATE PROCEDURE p(x TYPE OF t1.n) BEGIN DECLARE i TINYINT DEFAULT 11; "
         "DECLARE b BIT(8) DEFAULT 0x41; DECLARE z DECIMAL(6,2) ZEROFILL DEFAULT 1.5; "
         "DECLARE e TYPE OF t1.e DEFAULT 'bb'; SELECT i, b, z, e, x; "
         "CREATE TABLE made AS SELECT z, e, x; END")
    with conn.cursor() as cur:
        cur.execute("CALL p(7)")
        assert [d[1] for d in cur.description] == [1, 16, 246, 254, 2]
        assert cur.fetchall() == ((11, b"A", Decimal("0001.50"), "bb", 7),)
        cur.nextset()
        cur.execute("SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE "
                    "TABLE_SCHEMA = 'vt' AND TABLE_NAME = 'made' ORDER BY ORDINAL_POSITION")
        assert cur.fetchall() == (("decimal(6,2) unsigned",), ("varchar(2)",),
                                  ("smallint(6)",))


def test_type_of_an_information_schema_column(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE ti", "USE ti",
         "CREATE PROCEDURE p() BEGIN DECLARE n TYPE OF INFORMATION_SCHEMA.TABLES.TABLE_NAME; "
         "DECLARE r TYPE OF INFORMATION_SCHEMA.TABLES.TABLE_ROWS; "
         "CREATE TABLE made AS SELECT n, r; END",
         "CREATE PROCEDURE bad() BEGIN DECLARE n TYPE OF INFORMATION_SCHEMA.TABLES.NOPE; "
         "SET n = 1; END",
         "CALL p()")
    with conn.cursor() as cur:
        cur.execute("SELECT COLUMN_TYPE, CHARACTER_SET_NAME FROM information_schema.COLUMNS "
                    "WHERE TABLE_SCHEMA = 'ti' AND TABLE_NAME = 'made' "
                    "ORDER BY ORDINAL_POSITION")
        assert cur.fetchall() == (("varchar(64)", "utf8mb3"), ("bigint(21) unsigned", None))
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, "CALL bad()")
    assert e.value.args[0] == 1054


def test_row_type_of_a_cursor_keeps_an_expression_s_character_set(server):
    """CONCAT of a latin1 and a utf8 column is utf8: the ROW TYPE OF cursor field holds it so
    on a latin1 connection (its result column, sent in latin1, does not say it), as MariaDB
    (mtr sp-anchor-row-type-cursor)."""
    conn = server.connect()
    _run(conn, "SET NAMES latin1", "CREATE DATABASE rcs", "USE rcs",
         "CREATE TABLE t (a VARCHAR(10) CHARACTER SET latin1, b VARCHAR(10) CHARACTER SET utf8)",
         "INSERT INTO t VALUES (0xFF, 'a')",
         "CREATE PROCEDURE p() BEGIN DECLARE c CURSOR FOR SELECT CONCAT(a, b) AS c FROM t; "
         "BEGIN DECLARE rec ROW TYPE OF c; OPEN c; FETCH c INTO rec; CLOSE c; "
         "SELECT HEX(rec.c); END; END")
    with conn.cursor() as cur:
        cur.execute("CALL p()")
        assert cur.fetchall() == (("C3BF61",),)


def test_a_double_with_decimals_keeps_them(server):
    """DOUBLE(M,D) / FLOAT(M,D) variables show D decimals, read or in CONCAT or in arithmetic
    (MariaDB 10.11; mtr func_concat, bug #40625)."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE dd", "USE dd",
         "CREATE PROCEDURE p() BEGIN DECLARE v1 DOUBLE(10,3); DECLARE v3 FLOAT(7,2); "
         "SET v1 = 100, v3 = 2.5; SELECT v1, v3, CONCAT('x', v1), CONCAT('x', v3), v1 + 1; END")
    with conn.cursor() as cur:
        cur.execute("CALL p()")
        row = cur.fetchall()[0]
        assert row[2:4] == ("x100.000", "x2.50")
        assert [float(v) for v in (row[0], row[1], row[4])] == [100.0, 2.5, 101.0]
    out = subprocess.run([*_cli(server), "-N", "-B", "-e", "CALL dd.p()"], capture_output=True,
                         text=True, timeout=30)
    if out.returncode == 0:  # the text MariaDB's client shows (when it is installed)
        assert out.stdout.split("\t") == ["100.000", "2.50", "x100.000", "x2.50", "101.000\n"]


def _cli(server) -> list[str]:
    cli = shutil.which("mariadb") or shutil.which("mysql")
    if cli is None:
        return ["false"]
    return [cli, "-h127.0.0.1", f"-P{server.port}", "-uroot"]
