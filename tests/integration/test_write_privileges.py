"""What writes need besides the written table: RETURNING reads, writes through SQL SECURITY
INVOKER views, CREATE OR REPLACE USER of a missing plugin (MariaDB 10.11; mtr
insert_notembedded, create_drop_role)."""

from __future__ import annotations

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _err(conn, sql):
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, sql)
    return e.value.args


def test_returning_needs_select_on_what_it_returns(server):
    root = server.connect()
    _run(root, "CREATE DATABASE wr", "CREATE TABLE wr.t (id INT PRIMARY KEY, name TEXT)",
         "CREATE USER ins@localhost", "GRANT INSERT, DELETE ON wr.* TO ins@localhost")
    user = server.connect(user="ins")
    denied = (1143, "SELECT command denied to user 'ins'@'127.0.0.1' for column 'id' in "
                    "table 't'")
    assert _err(user, "INSERT INTO wr.t VALUES (1, 'a') RETURNING *") == denied
    assert _err(user, "INSERT INTO wr.t VALUES (1, 'a') RETURNING id, name") == denied
    assert _err(user, "DELETE FROM wr.t RETURNING *") == denied
    _run(user, "INSERT INTO wr.t VALUES (1, 'a')")  # no RETURNING: INSERT is enough
    _run(root, "GRANT SELECT ON wr.t TO ins@localhost")
    assert _run(server.connect(user="ins"), "DELETE FROM wr.t RETURNING name") == (("a",),)


def test_a_write_through_an_invoker_view_needs_it_on_the_table(server):
    root = server.connect()
    _run(root, "CREATE DATABASE wv", "CREATE TABLE wv.t (a INT PRIMARY KEY)",
         "CREATE TABLE wv.src (a INT)", "INSERT INTO wv.src VALUES (1)",
         "CREATE SQL SECURITY INVOKER VIEW wv.vi AS SELECT a FROM wv.t",
         "CREATE VIEW wv.vd AS SELECT a FROM wv.t",
         "CREATE USER vw@localhost",
         "GRANT INSERT, DELETE, SELECT ON wv.vi TO vw@localhost",
         "GRANT INSERT, DELETE, SELECT ON wv.vd TO vw@localhost")
    user = server.connect(user="vw")
    assert _err(user, "INSERT INTO wv.vi VALUES (1)") == (
        1356, "View 'wv.vi' references invalid table(s) or column(s) or function(s) or "
              "definer/invoker of view lack rights to use them")
    _run(user, "INSERT INTO wv.vd VALUES (1)")  # the DEFINER view's table is its definer's
    # what the rest of the statement reads is checked too
    assert _err(user, "REPLACE INTO wv.vd SELECT a FROM wv.src")[0] == 1142
    _run(root, "GRANT SELECT ON wv.src TO vw@localhost", "GRANT INSERT, DELETE ON wv.t TO "
         "vw@localhost")
    user = server.connect(user="vw")
    _run(user, "REPLACE INTO wv.vd SELECT a FROM wv.src", "INSERT INTO wv.vi VALUES (2)")
    assert _run(root, "SELECT a FROM wv.t ORDER BY a") == ((1,), (2,))


def test_create_or_replace_user_with_a_missing_plugin_drops_the_account(server):
    root = server.connect()
    _run(root, "CREATE USER gone@'%'")
    assert _err(root, "CREATE OR REPLACE USER gone IDENTIFIED WITH no_such_plugin") == (
        1524, "Plugin 'no_such_plugin' is not loaded")
    assert _run(root, "SELECT COUNT(*) FROM mysql.user WHERE User = 'gone'") == ((0,),)
    assert _err(root, "CREATE USER kept IDENTIFIED WITH no_such_plugin")[0] == 1524


def test_multi_table_update_and_delete_check_select_first(server):
    """MariaDB's multi_update_precheck / multi_delete_precheck (mtr grant_explain_non_select):
    every table of a multi-table UPDATE needs UPDATE or SELECT, of a multi-table DELETE
    SELECT, before the other checks; a single-table one names its own privilege."""
    root = server.connect()
    _run(root, "CREATE DATABASE mt", "CREATE TABLE mt.t1 (a INT)", "CREATE TABLE mt.t2 (a INT)",
         "CREATE USER mtu@localhost", "GRANT SELECT ON mt.t2 TO mtu@localhost")

    def first_error(sql):
        code, message = _err(server.connect(user="mtu", database="mt"), sql)
        return code, message.split(" command")[0], message.rsplit(" ", 1)[-1]

    multi_update = "UPDATE t1, t2 SET t1.a = t1.a + 1 WHERE t1.a = t2.a"
    multi_delete = "DELETE FROM t1 USING t1, t2 WHERE t1.a = t2.a"
    assert first_error("UPDATE t1 SET a = a + 1") == (1142, "UPDATE", "`mt`.`t1`")
    for sql in (multi_update, "EXPLAIN " + multi_update, multi_delete,
                "DELETE t1 FROM t1 JOIN t2 ON t1.a = t2.a"):
        assert first_error(sql) == (1142, "SELECT", "`mt`.`t1`"), sql
    _run(root, "GRANT UPDATE, DELETE ON mt.t1 TO mtu@localhost")
    assert first_error(multi_update) == (1143, "SELECT", "'t1'")  # column 'a' of t1
    assert first_error(multi_delete) == (1142, "SELECT", "`mt`.`t1`")
    _run(root, "REVOKE UPDATE, DELETE ON mt.t1 FROM mtu@localhost",
         "GRANT SELECT ON mt.t1 TO mtu@localhost")
    assert first_error(multi_update) == (1142, "UPDATE", "`mt`.`t1`")
    assert first_error(multi_delete) == (1142, "DELETE", "`mt`.`t1`")
