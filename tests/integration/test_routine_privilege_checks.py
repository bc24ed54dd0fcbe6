"""Privileges around stored routines, as MariaDB checks them (mtr sp-security): a subquery in
SET is a SELECT (also inside an SQL SECURITY INVOKER function), EXECUTE is checked when a
function call is resolved (a missing function and a view's call are 1370 too), and a creator
without EXECUTE / ALTER ROUTINE gets them on the new routine (automatic_sp_privileges)."""

from __future__ import annotations

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _code(conn, sql):
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, sql)
    return e.value.args[0]


def test_a_subquery_in_set_needs_select(server):
    root = server.connect()
    _run(root, "CREATE DATABASE pr", "USE pr", "CREATE TABLE t1 (i INT)",
         "CREATE USER pu@localhost", "GRANT EXECUTE ON pr.* TO pu@localhost",
         "CREATE DEFINER=pu@localhost FUNCTION f1() RETURNS INT SQL SECURITY INVOKER "
         "BEGIN SET @b:= (SELECT COUNT(*) FROM t1); RETURN @b; END",
         "CREATE DEFINER=pu@localhost PROCEDURE p1() SQL SECURITY INVOKER "
         "SET @b:= (SELECT COUNT(*) FROM t1)")
    user = server.connect(user="pu", database="pr")
    for sql in ("SELECT f1()", "CALL p1()", "SET @c := (SELECT COUNT(*) FROM t1)",
                "SET @@session.sql_select_limit = (SELECT COUNT(*) FROM t1)"):
        assert _code(user, sql) == 1142, sql
    _run(user, "SET @c := (SELECT 1)")
    _run(root, "GRANT SELECT ON pr.t1 TO pu@localhost")
    assert _run(user, "SELECT f1()") == ((0,),)


def test_execute_is_checked_when_a_call_is_resolved(server):
    root = server.connect()
    _run(root, "CREATE DATABASE px", "CREATE FUNCTION px.f() RETURNS INT RETURN 1",
         "CREATE USER pv@localhost", "GRANT SELECT, CREATE VIEW ON px.* TO pv@localhost")
    user = server.connect(user="pv", database="px")
    assert _code(user, "SELECT px.nofunc()") == 1370
    assert _code(user, "SELECT nofunc()") == 1370
    assert _code(user, "CREATE VIEW v AS SELECT px.f()") == 1370
    assert _code(user, "CREATE VIEW v AS SELECT f()") == 1370
    _run(user, "CREATE VIEW v AS SELECT CONCAT('a', 'b')")
    _run(root, "GRANT EXECUTE ON px.* TO pv@localhost")
    _run(user, "USE px")  # a database's grants take effect at the next USE, as in MariaDB
    assert _code(user, "SELECT nofunc()") == 1305
    _run(user, "CREATE VIEW v2 AS SELECT f()")


def test_the_creator_of_a_routine_is_granted_it(server):
    root = server.connect()
    _run(root, "CREATE DATABASE pc", "CREATE USER pw@localhost",
         "GRANT SELECT, CREATE ROUTINE ON pc.* TO pw@localhost")
    user = server.connect(user="pw", database="pc")
    _run(user, "CREATE PROCEDURE proc1() SELECT 1")
    assert [r[0] for r in _run(user, "SHOW GRANTS")][-1] == \
        "GRANT EXECUTE, ALTER ROUTINE ON PROCEDURE `pc`.`proc1` TO `pw`@`localhost`"
    _run(user, "CALL proc1()", "DROP PROCEDURE proc1")
    assert len(_run(user, "SHOW GRANTS")) == 2  # the grant went with the routine
    # DEFINER = a user name holding an @, as a string
    _run(root, "CREATE DEFINER='a @ b'@localhost PROCEDURE pc.p2() SELECT 2")
    (row,) = _run(root, "SHOW CREATE PROCEDURE pc.p2")
    assert "CREATE DEFINER=`a @ b`@`localhost` PROCEDURE `p2`()" in row[2]
