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
