"""ALTER USER of an account that does not exist, as MariaDB reports it."""

from __future__ import annotations

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def test_alter_user_of_no_account_names_it_as_written(server):
    """MariaDB's ALTER USER: no host in the message when none was written; IF EXISTS leaves
    Error 1133 then Note 1396 (mtr lock_user, alter_user)."""
    conn = server.connect()
    for sql, shown in (("ALTER USER nosuch", "'nosuch'"),
                       ("ALTER USER nosuch@localhost", "'nosuch'@'localhost'")):
        with pytest.raises(pymysql.err.MySQLError) as e:
            _run(conn, sql)
        assert e.value.args == (1396, f"Operation ALTER USER failed for {shown}")
    assert _run(conn, "ALTER USER IF EXISTS nosuch ACCOUNT LOCK", "SHOW WARNINGS") == (
        ("Error", 1133, "Can't find any matching row in the user table"),
        ("Note", 1396, "Operation ALTER USER failed for 'nosuch'"))
