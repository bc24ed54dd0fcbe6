"""PUBLIC, MariaDB 10.11's role every account holds (grants.PUBLIC; mtr public_basic,
public_privileges)."""

from __future__ import annotations

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _code(conn, sql):
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, sql)
    return e.value.args


def test_grants_to_public_are_everyone_s(server):
    root = server.connect()
    _run(root, "CREATE USER pu@'%'", "CREATE DATABASE pubdb",
         "CREATE TABLE pubdb.t (a INT, b INT)", "INSERT INTO pubdb.t VALUES (1, 2)",
         "CREATE FUNCTION pubdb.f() RETURNS INT RETURN 7")
    assert _run(root, "SHOW GRANTS FOR PUBLIC") == ()  # no PUBLIC role yet
    user = server.connect(user="pu")
    assert _code(user, "SELECT b FROM pubdb.t")[0] == 1142
    # EXECUTE is checked before the routine is looked up, as in MariaDB
    assert _code(user, "SELECT pubdb.f()") == (
        1370, "execute command denied to user 'pu'@'%' for routine 'pubdb.f'")
    assert _code(user, "CALL pubdb.nothing()")[0] == 1370
    _run(root, "GRANT SELECT (b) ON pubdb.t TO public", "GRANT EXECUTE ON pubdb.* TO PUBLIC")
    assert _run(root, "SELECT * FROM mysql.global_priv WHERE User = 'PUBLIC'")[0][:2] == (
        "", "PUBLIC")
    assert _run(root, "SHOW GRANTS FOR PUBLIC") == (
        ("GRANT EXECUTE ON `pubdb`.* TO PUBLIC",),
        ("GRANT SELECT (`b`) ON `pubdb`.`t` TO PUBLIC",))
    user = server.connect(user="pu")
    assert _run(user, "SELECT b FROM pubdb.t") == ((2,),)
    assert _code(user, "SELECT a FROM pubdb.t")[0] == 1143
    assert _run(user, "SELECT pubdb.f()") == ((7,),)
    assert [r[0] for r in _run(user, "SHOW GRANTS")] == [
        "GRANT USAGE ON *.* TO `pu`@`%`", "GRANT EXECUTE ON `pubdb`.* TO PUBLIC",
        "GRANT SELECT (`b`) ON `pubdb`.`t` TO PUBLIC"]
    assert len(_run(root, "SHOW GRANTS FOR pu@'%'")) == 1  # the account's own only
    _run(root, "REVOKE SELECT (b) ON pubdb.t FROM PUBLIC", "REVOKE EXECUTE ON pubdb.* FROM public")
    assert _run(root, "SHOW GRANTS FOR PUBLIC") == ()
    assert _code(server.connect(user="pu"), "SELECT b FROM pubdb.t")[0] == 1142


def test_public_is_no_role_to_grant_set_drop_or_define_with(server):
    root = server.connect()
    _run(root, "GRANT SELECT ON *.* TO PUBLIC", "CREATE DATABASE pubdb2",
         "CREATE TABLE pubdb2.t (a INT)")
    for sql in ("GRANT PUBLIC TO CURRENT_USER", "REVOKE public FROM CURRENT_USER",
                "SET ROLE PUBLIC", "SET DEFAULT ROLE public",
                "CREATE DEFINER = PUBLIC VIEW pubdb2.v AS SELECT * FROM pubdb2.t"):
        assert _code(root, sql) == (1959, "Invalid role specification `PUBLIC`"), sql
    assert _code(root, "DROP ROLE IF EXISTS public") == (
        1396, "Operation DROP ROLE failed for PUBLIC")
    # PUBLIC with a host is an ordinary account
    _run(root, "CREATE USER PUBLIC@localhost", "GRANT SELECT ON pubdb2.* TO PUBLIC@localhost")
    assert _run(root, "SHOW GRANTS FOR PUBLIC@localhost")[1] == (
        "GRANT SELECT ON `pubdb2`.* TO `PUBLIC`@`localhost`",)
    _run(root, "DROP USER PUBLIC@localhost")
