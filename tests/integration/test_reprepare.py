"""Re-preparation (session/reprepare.py, mtr ps_ddl1): an EXECUTE after a table the statement
uses changed prepares it again and counts Com_stmt_reprepare; a dropped table is 1146 without
a re-preparation. Counts measured on MariaDB 10.11."""

from __future__ import annotations

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _count(conn) -> int:
    return int(_run(conn, "SHOW SESSION STATUS LIKE 'Com_stmt_reprepare'")[0][1])


def test_sql_prepared_statement_is_reprepared_after_alter(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE rp", "USE rp", "CREATE TABLE t1 (a INT, b INT)",
         "CREATE TABLE t2 (x INT)", "INSERT INTO t1 VALUES (1, 2)",
         "PREPARE stmt FROM 'SELECT a FROM t1'")
    assert _run(conn, "EXECUTE stmt") == ((1,),)
    assert _count(conn) == 0
    _run(conn, "ALTER TABLE t2 ADD COLUMN y INT")  # another table: no re-preparation
    assert _run(conn, "EXECUTE stmt") == ((1,),)
    assert _count(conn) == 0
    _run(conn, "ALTER TABLE t1 COMMENT 'changed'")
    assert _run(conn, "EXECUTE stmt") == ((1,),)
    assert _count(conn) == 1
    assert _run(conn, "EXECUTE stmt") == ((1,),)
    assert _count(conn) == 1
    # a re-preparation that fails is the EXECUTE's error, and is tried again next time
    _run(conn, "PREPARE s2 FROM 'SELECT a, b FROM t1'", "ALTER TABLE t1 DROP COLUMN b")
    for expected in (2, 3):
        with pytest.raises(pymysql.err.MySQLError) as e:
            _run(conn, "EXECUTE s2")
        assert e.value.args[0] == 1054
        assert _count(conn) == expected
    # a dropped table is 1146, without a re-preparation
    _run(conn, "DROP TABLE t1")
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, "EXECUTE stmt")
    assert e.value.args[0] == 1146
    assert _count(conn) == 3


def test_binary_protocol_statement_is_reprepared(server):
    mysql_connector = pytest.importorskip("mysql.connector")
    _run(server.connect(), "CREATE DATABASE rb", "CREATE TABLE rb.t (a INT)",
         "INSERT INTO rb.t VALUES (5)")
    conn = mysql_connector.connect(host=server.host, port=server.port, user="root",
                                   password="", ssl_disabled=True, use_pure=True)
    try:
        cur = conn.cursor(prepared=True)
        query = "SELECT * FROM rb.t WHERE a > %s"
        cur.execute(query, (1,))
        assert cur.fetchall() == [(5,)]
        plain = conn.cursor()
        plain.execute("ALTER TABLE rb.t ADD COLUMN b INT DEFAULT 7")
        cur.execute(query, (1,))
        assert cur.fetchall() == [(5, 7)]  # prepared again: the new column is in `*`
        plain.execute("SHOW SESSION STATUS LIKE 'Com_stmt_reprepare'")
        assert plain.fetchall() == [("Com_stmt_reprepare", "1")]
    finally:
        conn.close()


def test_a_new_trigger_reprepares_a_dropped_one_does_not(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE rt", "USE rt", "CREATE TABLE t1 (a INT)",
         "PREPARE stmt FROM 'INSERT INTO t1 (a) VALUE (?)'", "SET @v = 1",
         "EXECUTE stmt USING @v")
    base = _count(conn)
    _run(conn, "CREATE TRIGGER t1_bi BEFORE INSERT ON t1 FOR EACH ROW SET @m = NEW.a",
         "SET @v = 2", "EXECUTE stmt USING @v")
    assert _count(conn) == base + 1
    assert _run(conn, "SELECT @m") == ((2,),)
    _run(conn, "DROP TRIGGER t1_bi", "SET @v = 3", "EXECUTE stmt USING @v")
    assert _count(conn) == base + 1
    assert _run(conn, "SELECT @m, COUNT(*) FROM t1") == ((2, 3),)
