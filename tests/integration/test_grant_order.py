"""SHOW GRANTS in MariaDB's order of table grants, and CREATE VIEW's "ANY" check (mtr
timezone_grant)."""

from __future__ import annotations

import datetime

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def test_table_grants_in_mariadb_order_and_create_view_needs_some_privilege(server):
    root = server.connect()
    _run(root, "CREATE DATABASE test", "CREATE TABLE test.t1 (a INT, b DATETIME)",
         "CREATE TABLE test.t2 (c INT)", "CREATE USER mysqltest_1@'%'",
         "GRANT ALL PRIVILEGES ON test.t1 TO mysqltest_1@'%'",
         "GRANT ALL PRIVILEGES ON test.t2 TO mysqltest_1@'%'")
    assert [r[0] for r in _run(root, "SHOW GRANTS FOR mysqltest_1@'%'")] == [
        "GRANT USAGE ON *.* TO `mysqltest_1`@`%`",
        "GRANT ALL PRIVILEGES ON `test`.`t2` TO `mysqltest_1`@`%`",
        "GRANT ALL PRIVILEGES ON `test`.`t1` TO `mysqltest_1`@`%`"]
    _run(root, "FLUSH PRIVILEGES")  # read again as mysql.tables_priv's key orders them
    assert [r[0] for r in _run(root, "SHOW GRANTS FOR mysqltest_1@'%'")][1:] == [
        "GRANT ALL PRIVILEGES ON `test`.`t2` TO `mysqltest_1`@`%`",
        "GRANT ALL PRIVILEGES ON `test`.`t1` TO `mysqltest_1`@`%`"]
    _run(root, "GRANT CREATE VIEW ON test.* TO mysqltest_1@'%'")
    user = server.connect(user="mysqltest_1", database="test")
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(user, "CREATE VIEW v1 AS SELECT a FROM t1, mysql.user")
    assert e.value.args == (1142, "ANY command denied to user 'mysqltest_1'@'127.0.0.1' for "
                                  "table `mysql`.`user`")


def test_convert_tz_of_a_date_that_is_not_one_warns_1292(server):
    conn = server.connect()
    assert _run(conn, "SELECT CONVERT_TZ('2004-11-31 12:00:00', '+00:00', '+01:00')") == \
        ((None,),)
    assert _run(conn, "SHOW WARNINGS") == (
        ("Warning", 1292, "Incorrect datetime value: '2004-11-31 12:00:00'"),)
    assert _run(conn, "SELECT CONVERT_TZ('2004-11-30 12:00:00', '+00:00', '+01:00')") == \
        ((datetime.datetime(2004, 11, 30, 13, 0),),)
