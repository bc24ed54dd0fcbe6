"""SELECT ... INTO OUTFILE / DUMPFILE (engine/sqlite/outfile.py) and LOAD DATA of what it
writes, as MariaDB 10.11 answers (mtr function_defaults, invisible_field)."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import error_code as _fails
from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _db(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE ofl", "USE ofl",
         "CREATE TABLE t (a INT, b VARCHAR(20), c DATE)",
         "INSERT INTO t VALUES (1, 'x\ty', '2020-01-02'), (2, NULL, NULL), (3, 'q\"\\\\', NULL)")
    return conn


def test_round_trip_through_load_data(server):
    conn = _db(server)
    with conn.cursor() as cur:
        assert cur.execute("SELECT * INTO OUTFILE 'rt.txt' FROM t") == 3
    _run(conn, "CREATE TABLE u LIKE t", "LOAD DATA INFILE 'rt.txt' INTO TABLE u")
    assert _run(conn, "SELECT * FROM u ORDER BY a") == _run(conn, "SELECT * FROM t ORDER BY a")
    # the file is never overwritten
    assert _fails(conn, "SELECT 1 INTO OUTFILE 'rt.txt'") == 1086
    # a result long enough to be streamed is written whole
    _run(conn, "CREATE TABLE big (n INT)",
         "INSERT INTO big WITH RECURSIVE c (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c "
         "WHERE i < 2500) SELECT i FROM c")
    with conn.cursor() as cur:
        assert cur.execute("SELECT n INTO OUTFILE 'big.txt' FROM big") == 2500
    _run(conn, "CREATE TABLE big2 LIKE big", "LOAD DATA INFILE 'big.txt' INTO TABLE big2")
    assert _run(conn, "SELECT COUNT(*), SUM(n) FROM big2") == ((2500, 2500 * 2501 // 2),)


def test_options_and_dumpfile(server):
    conn = _db(server)
    _run(conn, "SELECT a, b FROM t ORDER BY a INTO OUTFILE 'o.csv' FIELDS TERMINATED BY ',' "
               "OPTIONALLY ENCLOSED BY '\"' LINES TERMINATED BY '\\r\\n'")
    assert _run(conn, "SHOW WARNINGS")[0][1] == 1287  # INTO after FROM: deprecated
    _run(conn, "CREATE TABLE v (a INT, b VARCHAR(20))",
         "LOAD DATA INFILE 'o.csv' INTO TABLE v FIELDS TERMINATED BY ',' "
         "OPTIONALLY ENCLOSED BY '\"' LINES TERMINATED BY '\\r\\n'")
    assert _run(conn, "SELECT * FROM v ORDER BY a") == _run(conn, "SELECT a, b FROM t ORDER BY a")
    _run(conn, "SELECT 'ab', 'cd' INTO DUMPFILE 'd.bin'")
    _run(conn, "CREATE TABLE w (s VARCHAR(10))", "LOAD DATA INFILE 'd.bin' INTO TABLE w")
    assert _run(conn, "SELECT s FROM w") == (("abcd",),)
    assert _fails(conn, "SELECT a FROM t INTO DUMPFILE 'd2.bin'") == 1172


def test_load_data_null_and_missing_fields(server):
    conn = _db(server)
    _run(conn, "SET TIMESTAMP = 1312211479",
         "SELECT NULL, NULL, NULL INTO OUTFILE 'n.txt'", "SELECT 1 INTO OUTFILE 'm.txt'",
         "CREATE TABLE z (a TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, "
         "e DATETIME NOT NULL DEFAULT '1977-01-02 12:13:14', "
         "g DATETIME DEFAULT CURRENT_TIMESTAMP)")
    _run(conn, "LOAD DATA INFILE 'n.txt' IGNORE INTO TABLE z")
    # NULL for a NOT NULL column is its zero value (not its default) with 1263
    assert [w[1] for w in _run(conn, "SHOW WARNINGS")] == [1263]
    _run(conn, "LOAD DATA INFILE 'm.txt' IGNORE INTO TABLE z (e, g, a)")
    rows = _run(conn, "SELECT CAST(a AS CHAR), CAST(e AS CHAR), g FROM z")
    assert rows[0][1] == "0000-00-00 00:00:00" and rows[0][2] is None
    assert rows[1][2] is None  # missing: a function default is not applied
    assert rows[0][0] == rows[1][0] != "0000-00-00 00:00:00"  # TIMESTAMP NOT NULL: now


def test_load_data_leaves_invisible_columns_out(server):
    conn = _db(server)
    _run(conn, "CREATE TABLE iv (a INT, b INT INVISIBLE)", "INSERT INTO iv VALUES (1), (2)",
         "SELECT * FROM iv INTO OUTFILE 'iv.txt'", "LOAD DATA INFILE 'iv.txt' INTO TABLE iv")
    assert _run(conn, "SHOW WARNINGS") == ()  # one field per line: the visible column's
    assert _run(conn, "SELECT a, b FROM iv ORDER BY a") == ((1, None), (1, None), (2, None),
                                                           (2, None))


def test_prepared_and_in_a_procedure(server):
    conn = _db(server)
    _run(conn, "PREPARE s FROM 'SELECT 1 INTO @a'", "EXECUTE s",
         "PREPARE s2 FROM 'SELECT a FROM t WHERE a = 2 INTO OUTFILE ''pp.txt'''", "EXECUTE s2",
         "CREATE PROCEDURE p() SELECT 3 INTO OUTFILE 'pq.txt'", "CALL p()",
         "CREATE TABLE r (a INT)", "LOAD DATA INFILE 'pp.txt' INTO TABLE r",
         "LOAD DATA INFILE 'pq.txt' INTO TABLE r")
    assert _run(conn, "SELECT @a") == ((1,),)
    assert _run(conn, "SELECT a FROM r ORDER BY a") == ((2,), (3,))
    assert _fails(conn, "EXECUTE s2") == 1086


def test_load_xml(server, tmp_path):
    conn = _db(server)
    f = tmp_path / "rows.xml"
    f.write_text('<?xml version="1.0"?>\n<resultset xmlns:xsi="http://www.w3.org/2001/'
                 'XMLSchema-instance"><row><field name="a">1</field><field name="b" '
                 'xsi:nil="true" /></row><row a="2" b="x"/><row><a>3</a><b>y &amp; z</b>'
                 '</row></resultset>')
    _run(conn, "CREATE TABLE x (a INT, b VARCHAR(10), c INT NOT NULL)",
         f"LOAD XML INFILE '{f}' IGNORE INTO TABLE x")
    # a column a row has no value for is NULL: for a NOT NULL one its zero value with 1263
    assert {w[1] for w in _run(conn, "SHOW WARNINGS")} == {1263}
    assert _run(conn, "SELECT * FROM x ORDER BY a") == ((1, None, 0), (2, "x", 0),
                                                       (3, "y & z", 0))
    _run(conn, "CREATE TABLE y (a INT)",
         f"LOAD XML INFILE '{f}' INTO TABLE y ROWS IDENTIFIED BY '<row>' IGNORE 2 ROWS")
    assert _run(conn, "SELECT a FROM y") == ((3,),)
