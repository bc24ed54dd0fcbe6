"""Stored functions and triggers under lent engine handles (issue 11 part 1 + issue 13).

A session borrows one of a few shared SQLite connections per command (engine/sqlite/handles.py)
and SQLite functions are registered on those connections, so a stored function registered while
one session held a handle must answer for whichever session holds it later: with that
session's database, its own function of that name, or 1305 where it has none."""

from __future__ import annotations

import pymysql
import pytest

pytestmark = pytest.mark.timeout(60)


def _one(conn, sql: str):
    with conn.cursor() as cur:
        cur.execute(sql)
        return cur.fetchone()


def test_a_function_answers_for_the_session_holding_the_handle(server):
    admin = server.connect()
    with admin.cursor() as cur:
        for db, body in (("d1", "x + 1"), ("d2", "x * 100")):
            cur.execute(f"CREATE DATABASE {db}")
            cur.execute(f"CREATE FUNCTION {db}.f(x INT) RETURNS INT DETERMINISTIC RETURN {body}")
            cur.execute(f"CREATE TABLE {db}.t (a INT)")
            cur.execute(f"INSERT INTO {db}.t VALUES (1), (2)")
        cur.execute("CREATE DATABASE d3")
    one, two, three = (server.connect(database=d) for d in ("d1", "d2", "d3"))
    # one after another, so each borrows the handle the previous one just gave back
    for _ in range(3):
        assert _one(one, "SELECT SUM(f(a)) FROM t") == (5,)
        assert _one(two, "SELECT SUM(f(a)) FROM t") == (300,)
        with pytest.raises(pymysql.err.OperationalError) as e:
            _one(three, "SELECT f(1)")
        assert e.value.args[0] == 1305
    with admin.cursor() as cur:
        cur.execute("DROP FUNCTION d1.f")
    with pytest.raises(pymysql.err.OperationalError) as e:
        _one(one, "SELECT f(1)")
    assert e.value.args[0] == 1305
    assert _one(two, "SELECT f(1)") == (100,)


def test_a_trigger_runs_for_the_session_writing_the_row(server):
    admin = server.connect()
    with admin.cursor() as cur:
        cur.execute("CREATE DATABASE tr")
        cur.execute("CREATE TABLE tr.t (a INT)")
        cur.execute("CREATE TABLE tr.log (who VARCHAR(80), a INT)")
        cur.execute("CREATE TRIGGER tr.t_ai AFTER INSERT ON tr.t FOR EACH ROW "
                    "INSERT INTO tr.log VALUES (CONNECTION_ID(), NEW.a)")
    conns = [server.connect(database="tr", autocommit=True) for _ in range(3)]
    expected = []
    for i, c in enumerate(conns * 2):
        with c.cursor() as cur:
            cur.execute("INSERT INTO t VALUES (%s)", (i,))
        expected.append((str(c.thread_id()), i))
    with admin.cursor() as cur:
        cur.execute("SELECT who, a FROM tr.log ORDER BY a")
        assert [tuple(r) for r in cur.fetchall()] == expected
