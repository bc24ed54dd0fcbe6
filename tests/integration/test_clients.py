"""Real clients against a real server on 127.0.0.1:0: PyMySQL, mysqlclient, mysql-connector
(plain and prepared cursors) and the `mariadb` command-line client."""

from __future__ import annotations

import datetime
import decimal
import shutil
import subprocess

import mysql.connector
import MySQLdb
import pymysql
import pytest

pytestmark = pytest.mark.timeout(60)

SCHEMA = [
    "CREATE DATABASE IF NOT EXISTS app",
    "CREATE TABLE app.t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(20), n INT, "
    "d DECIMAL(10,2), f DOUBLE, ts DATETIME, b BLOB, KEY kv (v)) ENGINE=InnoDB",
]


def _setup(server):
    for sql in SCHEMA:
        server.query(sql)


def test_pymysql_round_trip(server):
    _setup(server)
    conn = server.connect(database="app", autocommit=False)
    with conn.cursor() as cur:
        cur.execute("INSERT INTO t (v, n, d, f, ts, b) VALUES (%s, %s, %s, %s, %s, %s)",
                    ("héllo", 42, decimal.Decimal("1.25"), 2.5,
                     datetime.datetime(2024, 5, 6, 7, 8, 9), b"\x00\xffbin"))
        assert cur.rowcount == 1
        first_id = cur.lastrowid
        assert first_id == 1
        cur.executemany("INSERT INTO t (v, n) VALUES (%s, %s)", [("a", 1), ("b", 2)])
        conn.commit()
        cur.execute("SELECT id, v, n, b FROM t ORDER BY id")
        rows = cur.fetchall()
        assert rows[0] == (1, "héllo", 42, b"\x00\xffbin")
        assert [r[1] for r in rows] == ["héllo", "a", "b"]
        cur.execute("SELECT COUNT(*), CONNECTION_ID(), DATABASE(), @@autocommit FROM t")
        count, cid, db, autocommit = cur.fetchone()
        assert (count, db, autocommit) == (3, "app", 0)
        assert cid == conn.thread_id()
    conn.close()


def test_transactions_commit_and_rollback(server):
    _setup(server)
    a = server.connect(database="app", autocommit=False)
    with a.cursor() as cur:
        cur.execute("INSERT INTO t (v) VALUES ('kept')")
        a.commit()
        cur.execute("INSERT INTO t (v) VALUES ('dropped')")
        a.rollback()
        cur.execute("SELECT v FROM t")
        assert cur.fetchall() == (("kept",),)
    a.close()


def test_errors_have_mysql_codes(server):
    _setup(server)
    conn = server.connect(database="app")
    cases = [
        ("SELECT * FROM nope", 1146, "42S02"),
        ("SELEC 1", 1064, "42000"),
        ("SELECT nope FROM t", 1054, "42S22"),
        ("CREATE TABLE t (x INT)", 1050, "42S01"),
        ("DROP TABLE nope", 1051, "42S02"),
        ("USE nope", 1049, "42000"),
        ("SET @@nope = 1", 1193, "HY000"),
    ]
    with conn.cursor() as cur:
        cur.execute("INSERT INTO t (id, v) VALUES (7, 'x')")
        cases.append(("INSERT INTO t (id, v) VALUES (7, 'y')", 1062, "23000"))
        for sql, code, _state in cases:
            with pytest.raises(pymysql.MySQLError) as exc:
                cur.execute(sql)
            assert exc.value.args[0] == code, sql
        # the connection is still usable after every error
        cur.execute("SELECT 1")
        assert cur.fetchone() == (1,)
    conn.close()


def test_multi_statements_and_multiple_result_sets(server):
    conn = server.connect(client_flag=pymysql.constants.CLIENT.MULTI_STATEMENTS)
    with conn.cursor() as cur:
        cur.execute("SELECT 1; SELECT 2, 3; DO 1")
        assert cur.fetchall() == ((1,),)
        assert cur.nextset()
        assert cur.fetchall() == ((2, 3),)
        assert cur.nextset()  # the DO's OK packet
        assert not cur.nextset()
    conn.close()


def test_mysqlclient(server):
    _setup(server)
    conn = MySQLdb.connect(host=server.host, port=server.port, user="root", passwd="",
                           db="app")
    cur = conn.cursor()
    cur.execute("INSERT INTO t (v, n) VALUES (%s, %s)", ("mc", 5))
    conn.commit()
    cur.execute("SELECT v, n FROM t WHERE n = %s", (5,))
    assert cur.fetchall() == (("mc", 5),)
    cur.execute("SHOW TABLES")
    assert ("t",) in cur.fetchall()
    conn.close()


@pytest.mark.parametrize("prepared", [False, True])
def test_mysql_connector(server, prepared):
    _setup(server)
    conn = mysql.connector.connect(host=server.host, port=server.port, user="root",
                                   password="", database="app", use_pure=True)
    cur = conn.cursor(prepared=prepared)
    cur.execute("INSERT INTO t (v, n, f) VALUES (%s, %s, %s)", ("conn", 9, 1.5))
    conn.commit()
    cur.execute("SELECT id, v, n, f FROM t WHERE v = %s", ("conn",))
    rows = cur.fetchall()
    assert len(rows) == 1
    _id, v, n, f = rows[0]
    assert (v, n, f) == ("conn", 9, 1.5)
    cur.close()
    conn.close()


mariadb_cli = shutil.which("mariadb") or shutil.which("mysql")
needs_cli = pytest.mark.skipif(mariadb_cli is None, reason="mariadb client not installed")


@needs_cli
def test_mariadb_cli_batch(server):
    sql = ("create database d; use d; create table t (id int auto_increment primary key, "
           "v varchar(10)); insert into t (v) values ('a'); select * from t")
    out = subprocess.run([mariadb_cli, "-h127.0.0.1", f"-P{server.port}", "-uroot", "-e", sql],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["id\tv", "1\ta"]


@needs_cli
def test_mariadb_cli_piped_script(server):
    script = """
    CREATE DATABASE shop;
    USE shop;
    CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(30), price DECIMAL(8,2));
    INSERT INTO items VALUES (1, 'apple', 0.5), (2, 'pear', 0.75);
    -- a comment line
    SELECT name, price FROM items WHERE price > 0.6;
    SELECT @@version_comment, DATABASE();
    """
    out = subprocess.run([mariadb_cli, "-h127.0.0.1", f"-P{server.port}", "-uroot",
                          "--batch"], input=script, capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "pear\t0.75" in lines
    assert any(line.endswith("\tshop") for line in lines)


@needs_cli
def test_mariadb_cli_reports_errors(server):
    out = subprocess.run([mariadb_cli, "-h127.0.0.1", f"-P{server.port}", "-uroot", "-e",
                          "select * from nodb.nope"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 1
    assert "ERROR 1146 (42S02)" in out.stderr


mariadb_test = shutil.which("mariadb-test") or shutil.which("mysqltest")


@pytest.mark.skipif(mariadb_test is None, reason="mariadb-test not installed")
def test_libmariadb_reads_mariadb_extended_metadata(server):
    """libmariadb asks for MariaDB's extended metadata (the server is no CLIENT_MYSQL) and
    mariadb-test prints it: format=json for a JSON column, type=point for a POINT."""
    script = ("create database xm;\ncreate table xm.t (j json, p point, g geometry, t text);\n"
              "--enable_metadata\nselect * from xm.t;\n--disable_metadata\n")
    out = subprocess.run([mariadb_test, "-h127.0.0.1", f"-P{server.port}", "-uroot"],
                         input=script, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    types = {line.split("\t")[4]: line.split("\t")[6] for line in out.stdout.splitlines()
             if line.startswith("def\txm\t")}
    assert types == {"j": "252 (format=json)", "p": "255 (type=point)", "g": "255",
                     "t": "252"}
