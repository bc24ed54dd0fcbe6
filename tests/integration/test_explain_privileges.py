"""EXPLAIN / ANALYZE of a statement: the statement's privileges, and SHOW VIEW plus the view's
own reads for a view (1345; session/explainpriv.py, mtr analyze_stmt_privileges)."""

from __future__ import annotations

from typing import Any

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)

NO_EXPLAIN = (1345, "ANALYZE/EXPLAIN/SHOW can not be issued; lacking privileges for "
              "underlying table")


def _failure(conn: Any, sql: str) -> tuple[int, str]:
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, sql)
    return e.value.args[0], e.value.args[1]


def test_explain_and_analyze_of_a_view_need_its_tables(server):
    root = server.connect()
    _run(root, "CREATE DATABASE db", "CREATE TABLE db.t1 (i INT, c VARCHAR(8))",
         "INSERT INTO db.t1 VALUES (1, 'a'), (2, 'b')",
         "CREATE VIEW db.v1 AS SELECT * FROM db.t1 WHERE i > 1",
         "CREATE USER u1@localhost", "GRANT ALL ON db.v1 TO u1@localhost")
    user = server.connect(user="u1")
    assert _run(user, "SELECT * FROM db.v1") == ((2, "b"),)
    for sql in ("SELECT * FROM db.t1", "EXPLAIN SELECT * FROM db.t1",
                "ANALYZE SELECT * FROM db.t1"):
        assert _failure(user, sql)[0] == 1142
    for sql in ("EXPLAIN SELECT * FROM db.v1", "ANALYZE SELECT * FROM db.v1",
                "EXPLAIN UPDATE db.v1 SET i = 5", "ANALYZE DELETE FROM db.v1 WHERE i = 5"):
        assert _failure(user, sql) == NO_EXPLAIN
    _run(root, "GRANT SELECT ON db.t1 TO u1@localhost")
    assert _run(user, "EXPLAIN SELECT * FROM db.v1")
    _run(root, "REVOKE SHOW VIEW ON db.v1 FROM u1@localhost")
    assert _failure(user, "EXPLAIN SELECT * FROM db.v1") == NO_EXPLAIN
    assert _run(user, "SELECT COUNT(*) FROM db.v1") == ((1,),)
