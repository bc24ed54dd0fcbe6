"""max_password_errors: wrong passwords in a row block an account (4150, the right password
too) until FLUSH PRIVILEGES, ALTER USER or GRANT; a good login starts the count again; SUPER /
CONNECTION ADMIN accounts are never blocked (session/aclstore.py; mtr max_password_errors)."""

from __future__ import annotations

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _login(server, user, password):
    """None when the login works, else the error code."""
    try:
        server.connect(user=user, password=password).close()
    except pymysql.err.MySQLError as e:
        return e.args[0]
    return None


def test_blocked_after_wrong_passwords_until_flush_or_alter(server):
    root = server.connect()
    _run(root, "SET GLOBAL max_password_errors = 2", "CREATE USER u IDENTIFIED BY 'good'")
    try:
        assert [_login(server, "u", p) for p in ("bad", "bad", "good", "bad")] == \
            [1045, 1045, 4150, 4150]
        _run(root, "FLUSH PRIVILEGES")
        # a good login starts the count again
        assert [_login(server, "u", p) for p in ("bad", "good", "bad", "good")] == \
            [1045, None, 1045, None]
        assert [_login(server, "u", p) for p in ("bad", "bad", "good")] == [1045, 1045, 4150]
        _run(root, "ALTER USER u ACCOUNT UNLOCK")
        assert _login(server, "u", "good") is None
        assert [_login(server, "u", p) for p in ("bad", "bad", "good")] == [1045, 1045, 4150]
        _run(root, "GRANT SELECT ON test.* TO u")
        assert _login(server, "u", "good") is None
        for _ in range(3):
            _login(server, "u", "bad")
        with pytest.raises(pymysql.err.MySQLError) as e:
            server.connect(user="u", password="good")
        assert e.value.args == (4150, "User is blocked because of too many credential "
                                "errors; unblock with 'ALTER USER / FLUSH PRIVILEGES'")
    finally:
        _run(root, "SET GLOBAL max_password_errors = DEFAULT")


def test_admin_accounts_are_never_blocked(server):
    root = server.connect()
    _run(root, "SET GLOBAL max_password_errors = 1",
         "CREATE USER boss IDENTIFIED BY 'good'", "GRANT CONNECTION ADMIN ON *.* TO boss")
    try:
        assert [_login(server, "boss", p) for p in ("bad", "bad", "good")] == [1045, 1045, None]
    finally:
        _run(root, "SET GLOBAL max_password_errors = DEFAULT")

