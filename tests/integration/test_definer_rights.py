"""Stored programs run with their DEFINER's privileges unless SQL SECURITY INVOKER, anchored
types need SELECT on what they name, and SHOW CREATE TABLE / SHOW COLUMNS follow the account's
table and column privileges (session/sp/definer.py; mtr sp-security-anchor-type)."""

from __future__ import annotations

from typing import Any

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _failure(conn: Any, sql: str) -> tuple[int, str]:
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, sql)
    return e.value.args[0], e.value.args[1]


@pytest.fixture
def rooms(server):
    root = server.connect()
    _run(root, "CREATE DATABASE db1", "CREATE TABLE db1.t1 (a INT, b VARCHAR(10))",
         "INSERT INTO db1.t1 VALUES (1, 'x')", "CREATE DATABASE work",
         "CREATE USER u1@localhost", "GRANT ALL PRIVILEGES ON work.* TO u1@localhost",
         "CREATE PROCEDURE work.p_def() SELECT COUNT(*), CURRENT_USER() FROM db1.t1",
         "CREATE PROCEDURE work.p_inv() SQL SECURITY INVOKER SELECT COUNT(*) FROM db1.t1",
         "CREATE FUNCTION work.f_def() RETURNS INT RETURN (SELECT COUNT(*) FROM db1.t1)")
    user = server.connect(user="u1", database="work")
    return root, user


def test_definer_and_invoker_rights(rooms):
    root, user = rooms
    assert _run(user, "CALL p_def()") == ((1, "root@localhost"),)
    assert _run(user, "SELECT f_def(), CURRENT_USER()") == ((1, "u1@localhost"),)
    assert _failure(user, "CALL p_inv()") == (
        1142, "SELECT command denied to user 'u1'@'127.0.0.1' for table `db1`.`t1`")
    assert _failure(user, "SELECT COUNT(*) FROM db1.t1")[0] == 1142
    _run(root, "CREATE DEFINER = nobody@localhost PROCEDURE work.p_gone() SELECT 1")
    assert _failure(user, "CALL p_gone()") == (
        1449, "The user specified as a definer ('nobody'@'localhost') does not exist")


def test_triggers_run_as_their_definer(rooms):
    root, user = rooms
    _run(root, "CREATE TABLE work.log (n INT)",
         "CREATE TRIGGER work.tr BEFORE INSERT ON work.log FOR EACH ROW "
         "SET NEW.n = (SELECT COUNT(*) FROM db1.t1)")
    _run(user, "INSERT INTO log VALUES (0)")
    assert _run(user, "SELECT n FROM log") == ((1,),)


def test_anchored_types_need_select(rooms):
    root, user = rooms
    _run(user, "CREATE PROCEDURE p1() BEGIN DECLARE v TYPE OF db1.t1.a DEFAULT 10; "
               "SELECT v; END",
         "CREATE PROCEDURE p2() BEGIN DECLARE v TYPE OF db1.t1.b DEFAULT 'y'; SELECT v; END",
         "CREATE PROCEDURE p3() BEGIN DECLARE r ROW TYPE OF db1.t1; SELECT r.a; END")
    assert _failure(user, "CALL p1()") == (
        1142, "SELECT command denied to user 'u1'@'127.0.0.1' for table `db1`.`t1`")
    _run(root, "GRANT SELECT (a) ON db1.t1 TO u1@localhost")
    assert _run(user, "CALL p1()") == ((10,),)
    message = "SELECT command denied to user 'u1'@'127.0.0.1' for column 'b' in table 't1'"
    assert _failure(user, "CALL p2()") == (1143, message)
    assert _failure(user, "CALL p3()") == (1143, message)


def test_show_with_column_privileges_only(rooms):
    root, user = rooms
    _run(root, "GRANT SELECT (a) ON db1.t1 TO u1@localhost")
    assert _failure(user, "SHOW CREATE TABLE db1.t1") == (
        1142, "SHOW command denied to user 'u1'@'127.0.0.1' for table `db1`.`t1`")
    assert [r[0] for r in _run(user, "SHOW COLUMNS FROM db1.t1")] == ["a"]
    assert [(r[0], r[7]) for r in _run(user, "SHOW FULL COLUMNS FROM db1.t1")] == [
        ("a", "select")]
    assert [r[0] for r in _run(root, "SHOW COLUMNS FROM db1.t1")] == ["a", "b"]
