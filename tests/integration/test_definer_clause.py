"""DEFINER = another account needs SUPER or SET USER (1227) for views, routines, triggers
and events; one's own account or CURRENT_USER needs nothing more (session/definerclause.py;
mtr view_grant)."""

from __future__ import annotations

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)

DENIED = (1227, "Access denied; you need (at least one of) the SUPER, SET USER privilege(s) "
          "for this operation")


def test_definer_of_another_account(server):
    root = server.connect()
    _run(root, "CREATE DATABASE dc", "CREATE TABLE dc.t1 (a INT)",
         "CREATE USER dv1@localhost", "GRANT ALL ON dc.* TO dv1@localhost")
    user = server.connect(user="dv1", database="dc")
    for sql in ("CREATE DEFINER=root@localhost VIEW v1 AS SELECT 1",
                "CREATE OR REPLACE ALGORITHM=MERGE DEFINER='root'@'localhost' VIEW v1 AS "
                "SELECT 1",
                "CREATE DEFINER=nobody@localhost VIEW v1 AS SELECT 1",
                "CREATE DEFINER=`dv1` VIEW v1 AS SELECT 1",  # dv1@'%' is another account
                "CREATE DEFINER=root@localhost PROCEDURE p() SELECT 1",
                "CREATE DEFINER=root@localhost TRIGGER tr BEFORE INSERT ON t1 FOR EACH ROW "
                "SET @a = 1",
                "CREATE DEFINER=root@localhost EVENT e ON SCHEDULE EVERY 1 DAY DO SELECT 1"):
        with pytest.raises(pymysql.err.MySQLError) as e:
            _run(user, sql)
        assert e.value.args == DENIED, sql
    _run(user, "CREATE DEFINER=dv1@LOCALHOST VIEW v2 AS SELECT 1",
         "CREATE DEFINER=CURRENT_USER() VIEW v3 AS SELECT 1")
    _run(root, "GRANT SET USER ON *.* TO dv1@localhost")
    _run(server.connect(user="dv1", database="dc"),
         "CREATE DEFINER=root@localhost VIEW v4 AS SELECT 1")


def test_create_view_over_a_table_without_any_privilege(server):
    """CREATE VIEW needs some privilege on each table its query reads: none is 1142 "ANY
    command denied" (MariaDB's VIEW_ANY_ACL), before the SELECT column checks."""
    root = server.connect()
    _run(root, "CREATE DATABASE dd", "CREATE TABLE dd.t1 (a INT)", "CREATE TABLE dd.t2 (a INT)",
         "CREATE USER dv2@localhost", "GRANT CREATE VIEW, SELECT ON test.* TO dv2@localhost",
         "GRANT SELECT ON dd.t1 TO dv2@localhost", "CREATE DATABASE IF NOT EXISTS test")
    user = server.connect(user="dv2", database="test")
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(user, "CREATE VIEW v2 AS SELECT * FROM dd.t2")
    assert e.value.args[0] == 1142
    assert e.value.args[1].startswith("ANY command denied to user 'dv2'@")
    assert e.value.args[1].endswith("for table `dd`.`t2`")
    _run(user, "CREATE VIEW v1 AS SELECT * FROM dd.t1")
