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


def test_account_statements_under_read_only(server):
    """read_only refuses every statement that writes the grant tables (1290) to an account
    without READ_ONLY ADMIN, before its own privileges are checked (mtr alter_user)."""
    root = server.connect()
    _run(root, "CREATE USER ro1@localhost",
         "GRANT CREATE USER, SELECT ON *.* TO ro1@localhost WITH GRANT OPTION",
         "SET GLOBAL read_only = 1")
    try:
        user = server.connect(user="ro1")
        for sql in ("ALTER USER ro1@localhost", "CREATE USER ro2@localhost",
                    "DROP USER nosuch@localhost", "RENAME USER nosuch@localhost TO n2@localhost",
                    "GRANT SELECT ON test.* TO ro1@localhost",
                    "REVOKE SELECT ON test.* FROM ro1@localhost", "CREATE ROLE r1",
                    "SET PASSWORD = PASSWORD('x')", "SET DEFAULT ROLE NONE"):
            with pytest.raises(pymysql.err.MySQLError) as e:
                _run(user, sql)
            assert e.value.args[0] == 1290, sql
        _run(root, "GRANT READ_ONLY ADMIN ON *.* TO ro1@localhost")
        _run(server.connect(user="ro1"), "ALTER USER ro1@localhost")
    finally:
        _run(root, "SET GLOBAL read_only = 0")
