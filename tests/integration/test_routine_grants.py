"""GRANT / REVOKE ... ON PROCEDURE | FUNCTION (session/routinegrants.py; MariaDB 10.11's
procs_priv)."""

from __future__ import annotations

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _err(conn, sql):
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, sql)
    return e.value.args


def test_a_grant_on_one_routine(server):
    root = server.connect()
    _run(root, "CREATE DATABASE rg", "CREATE PROCEDURE rg.p() SELECT 1",
         "CREATE PROCEDURE rg.q() SELECT 2", "CREATE FUNCTION rg.f() RETURNS INT RETURN 3",
         "CREATE USER ru@localhost")
    user = server.connect(user="ru")
    assert _err(user, "CALL rg.p()")[0] == 1370
    assert _err(root, "GRANT EXECUTE ON PROCEDURE rg.nope TO ru@localhost") == (
        1305, "PROCEDURE rg.nope does not exist")
    assert _err(root, "GRANT SELECT ON PROCEDURE rg.p TO ru@localhost")[0] == 1144
    _run(root, "GRANT EXECUTE ON PROCEDURE rg.p TO ru@localhost",
         "GRANT ALL ON FUNCTION rg.f TO ru@localhost")
    assert [r[0] for r in _run(root, "SHOW GRANTS FOR ru@localhost")] == [
        "GRANT USAGE ON *.* TO `ru`@`localhost`",
        "GRANT EXECUTE ON PROCEDURE `rg`.`p` TO `ru`@`localhost`",
        "GRANT EXECUTE, ALTER ROUTINE ON FUNCTION `rg`.`f` TO `ru`@`localhost`"]
    user = server.connect(user="ru")
    assert _run(user, "CALL rg.p()") == ((1,),)
    assert _run(user, "SELECT rg.f()") == ((3,),)
    assert _err(user, "CALL rg.q()")[0] == 1370  # only the routine granted
    _run(root, "FLUSH PRIVILEGES")  # read back from mysql.procs_priv unchanged
    _run(root, "REVOKE EXECUTE ON PROCEDURE rg.p FROM ru@localhost")
    assert _err(root, "REVOKE EXECUTE ON PROCEDURE rg.p FROM ru@localhost") == (
        1403, "There is no such grant defined for user 'ru' on host 'localhost' on routine "
              "'p'")
    assert _err(server.connect(user="ru"), "CALL rg.p()")[0] == 1370
    _run(root, "DROP FUNCTION rg.f")  # its grants go with it
    assert len(_run(root, "SHOW GRANTS FOR ru@localhost")) == 1


def test_a_routine_grant_to_public(server):
    root = server.connect()
    _run(root, "CREATE DATABASE rgp", "CREATE PROCEDURE rgp.p() SELECT 1",
         "CREATE USER rpu@localhost", "GRANT EXECUTE ON PROCEDURE rgp.p TO PUBLIC")
    assert _run(server.connect(user="rpu"), "CALL rgp.p()") == ((1,),)
    _run(root, "REVOKE EXECUTE ON PROCEDURE rgp.p FROM public")
    assert _err(server.connect(user="rpu"), "CALL rgp.p()")[0] == 1370


def test_grant_option_on_a_routine_and_what_a_stranger_is_told(server):
    root = server.connect()
    _run(root, "CREATE DATABASE rgo", "CREATE USER rga@localhost", "CREATE USER rgb@localhost",
         "GRANT CREATE ROUTINE ON rgo.* TO rga@localhost")
    a = server.connect(user="rga")
    _run(a, "CREATE PROCEDURE rgo.p() SELECT 1")
    # its creator may run it, but may grant it only WITH GRANT OPTION
    assert _err(a, "GRANT EXECUTE ON PROCEDURE rgo.p TO rgb@localhost") == (
        1370, "grant command denied to user 'rga'@'localhost' for routine 'rgo.p'")
    _run(root, "GRANT USAGE ON PROCEDURE rgo.p TO rga@localhost WITH GRANT OPTION")
    _run(server.connect(user="rga"), "GRANT EXECUTE ON PROCEDURE rgo.p TO rgb@localhost")
    b = server.connect(user="rgb", database="rgo")  # a routine grant opens the database
    assert _run(b, "CALL p()") == ((1,),)
    # without ALTER ROUTINE a missing routine is 1370 too, as in MariaDB
    assert _err(b, "DROP PROCEDURE rgo.nothing") == (
        1370, "alter routine command denied to user 'rgb'@'localhost' for routine "
              "'rgo.nothing'")
