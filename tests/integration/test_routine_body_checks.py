"""What MariaDB refuses in a stored function's or trigger's body at CREATE (mtr events_2):
a statement returning a result set (1415, naming a function or a trigger), CREATE EVENT (1576),
ALTER / DROP EVENT (1422, an implicit commit); and the event statements' own checks."""

from __future__ import annotations

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _code(conn, sql):
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, sql)
    return e.value.args[0], e.value.args[1]


def test_bodies_refused_at_create(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE bc", "USE bc", "CREATE TABLE t (a INT)")
    assert _code(conn, "CREATE FUNCTION f() RETURNS INT BEGIN SHOW TABLES; RETURN 1; END") \
        == (1415, "Not allowed to return a result set from a function")
    assert _code(conn, "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW "
                       "BEGIN SELECT a FROM t; END") \
        == (1415, "Not allowed to return a result set from a trigger")
    assert _code(conn, "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW CREATE EVENT e "
                       "ON SCHEDULE EVERY 1 SECOND DO SET @a = 5")[0] == 1576
    assert _code(conn, "CREATE FUNCTION f() RETURNS INT BEGIN DROP EVENT e; RETURN 1; END"
                 )[0] == 1422
    # SELECT ... INTO returns no result set; a procedure may return one
    _run(conn, "CREATE FUNCTION f() RETURNS INT BEGIN DECLARE x INT; "
               "SELECT COUNT(*) INTO x FROM t; RETURN x; END",
         "CREATE PROCEDURE p() BEGIN SELECT a FROM t; SHOW TABLES; END")


def test_event_statements_check_names_first(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE ev", "USE ev",
         "CREATE EVENT there ON SCHEDULE EVERY 1 HOUR DO SELECT 1")
    assert _code(conn, "SHOW EVENTS FROM ``")[0] == 1102
    assert _code(conn, "SHOW EVENTS FROM " + "a" * 65)[0] == 1102
    # the new name is checked before the old one exists (MariaDB)
    assert _code(conn, "ALTER EVENT missing RENAME TO there")[0] == 1537
    assert _code(conn, "ALTER EVENT missing RENAME TO other")[0] == 1539


def test_procedures_called_from_triggers_and_functions(server):
    """A procedure that may return a result set (1415, naming the trigger) or commits (1422)
    is refused when a trigger or function calls it; one that reads information_schema into
    a table runs (its virtual table is filled inside the running INSERT)."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE tp", "USE tp", "CREATE TABLE t1 (a INT)",
         "CREATE EVENT e1 ON SCHEDULE EVERY 1 HOUR DO SELECT 1",
         "CREATE TRIGGER trg BEFORE INSERT ON t1 FOR EACH ROW SET NEW.a = f1()",
         "CREATE FUNCTION f1() RETURNS INT BEGIN CALL p1(); RETURN 0; END",
         "CREATE PROCEDURE p1() SELECT event_name FROM information_schema.events")
    assert _code(conn, "INSERT INTO t1 VALUES (1)") \
        == (1415, "Not allowed to return a result set from a trigger")
    _run(conn, "DROP PROCEDURE p1", "CREATE PROCEDURE p1() ALTER EVENT e1 RENAME TO e2")
    assert _code(conn, "INSERT INTO t1 VALUES (1)")[0] == 1422
    _run(conn, "DROP PROCEDURE p1", "CREATE PROCEDURE p1() CREATE TEMPORARY TABLE tmp "
               "SELECT event_name FROM information_schema.events",
         "INSERT INTO t1 VALUES (1)")
    with conn.cursor() as cur:
        cur.execute("SELECT * FROM tmp")
        assert cur.fetchall() == (("e1",),)


def test_kill_query_of_its_own_session_ends_the_procedure(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE kq", "USE kq",
         "CREATE PROCEDURE p() BEGIN DECLARE a INT; SET a = CONNECTION_ID(); KILL QUERY a; "
         "SELECT 'Not reached'; END")
    assert _code(conn, "CALL p()")[0] == 1317
    assert _code(conn, "CALL p()")[0] == 1317  # and again: the kill is of one statement
    with conn.cursor() as cur:
        cur.execute("SELECT 1")
        assert cur.fetchall() == ((1,),)
