"""mysql.proc (mtr create_drop_procedure): the stored routines of every database as MariaDB's
table has them, read-only, made when a statement reads it."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def test_mysql_proc_lists_the_routines(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE mp", "USE mp",
         "CREATE PROCEDURE p(OUT n INT) COMMENT 'one' SET n = 1",
         "CREATE FUNCTION f(x INT) RETURNS INT DETERMINISTIC RETURN x")
    rows = _run(conn, "SELECT db, name, type, is_deterministic, param_list, returns, body, "
                "comment, aggregate FROM mysql.proc WHERE db = 'mp' ORDER BY name")
    assert rows == (("mp", "f", "FUNCTION", "YES", b"x INT", b"int(11)", b"RETURN x", "", "NONE"),
                    ("mp", "p", "PROCEDURE", "NO", b"OUT n INT", b"", b"SET n = 1", "one",
                     "NONE"))
    _run(conn, "CREATE OR REPLACE PROCEDURE p(OUT n INT) COMMENT 'two' SET n = 2")
    assert _run(conn, "SELECT comment FROM mysql.proc WHERE name = 'p'") == (("two",),)
    _run(conn, "DROP PROCEDURE p", "DROP FUNCTION f")
    assert _run(conn, "SELECT COUNT(*) FROM mysql.proc WHERE db = 'mp'") == ((0,),)
