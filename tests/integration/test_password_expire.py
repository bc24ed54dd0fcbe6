"""PASSWORD EXPIRE [DEFAULT | NEVER | INTERVAL n DAY] in CREATE / ALTER USER: what SHOW CREATE
USER and mysql.global_priv show, and the sandbox an expired password logs into (MariaDB's
rules; mtr lock_user)."""

from __future__ import annotations

import json

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _show(conn, account):
    return [r[0] for r in _run(conn, f"SHOW CREATE USER {account}")]


def _priv(conn, user):
    (text,), = _run(conn, f"SELECT Priv FROM mysql.global_priv WHERE user = '{user}'")
    data = json.loads(text)
    data.pop("version_id")
    return data


def test_show_create_user_and_global_priv(server):
    root = server.connect()
    _run(root, "CREATE USER u1@localhost ACCOUNT LOCK PASSWORD EXPIRE")
    assert _show(root, "u1@localhost") == [
        "CREATE USER `u1`@`localhost` ACCOUNT LOCK PASSWORD EXPIRE"]
    _run(root, "ALTER USER u1@localhost PASSWORD EXPIRE NEVER ACCOUNT UNLOCK")
    # an expired account stays expired; its lifetime comes as a second statement
    assert _show(root, "u1@localhost") == ["CREATE USER `u1`@`localhost` PASSWORD EXPIRE",
                                           "ALTER USER `u1`@`localhost` PASSWORD EXPIRE NEVER"]
    _run(root, "ALTER USER u1@localhost PASSWORD EXPIRE INTERVAL 60 DAY ACCOUNT UNLOCK")
    assert list(_priv(root, "u1").items()) == [
        ("access", 0), ("plugin", "mysql_native_password"), ("authentication_string", ""),
        ("account_locked", False), ("password_last_changed", 0), ("password_lifetime", 60)]
    assert _run(root, "SELECT password_expired FROM mysql.user WHERE user = 'u1'") == (("Y",),)
    _run(root, "CREATE USER u2@localhost PASSWORD EXPIRE INTERVAL 5 DAY")
    assert _show(root, "u2@localhost") == [
        "CREATE USER `u2`@`localhost` PASSWORD EXPIRE INTERVAL 5 DAY"]
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(root, "CREATE USER u3@localhost PASSWORD EXPIRE INTERVAL 0 DAY")
    assert e.value.args == (1525, "Incorrect DAY value: '0'")


def test_an_expired_password_logs_into_a_sandbox(server):
    root = server.connect()
    _run(root, "CREATE USER u4@localhost IDENTIFIED BY 'old' PASSWORD EXPIRE",
         "GRANT SELECT ON *.* TO u4@localhost")
    # PyMySQL announces no CAN_HANDLE_EXPIRED_PASSWORDS: refused
    with pytest.raises(pymysql.err.MySQLError) as e:
        server.connect(user="u4", password="old")
    assert e.value.args[0] == 1862
    user = server.connect(user="u4", password="old",
                          client_flag=pymysql.constants.CLIENT.HANDLE_EXPIRED_PASSWORDS)
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(user, "SELECT 1")
    assert e.value.args == (1820, "You must SET PASSWORD before executing this statement")
    _run(user, "SET @a = 1", "SET PASSWORD = PASSWORD('new')")
    assert _run(user, "SELECT 1") == ((1,),)
    _run(server.connect(user="u4", password="new"), "SELECT 1")
    _run(root, "ALTER USER u4@localhost PASSWORD EXPIRE", "SET GLOBAL "
         "disconnect_on_expired_password = ON")
    try:
        with pytest.raises(pymysql.err.MySQLError) as e:
            server.connect(user="u4", password="new",
                           client_flag=pymysql.constants.CLIENT.HANDLE_EXPIRED_PASSWORDS)
        assert e.value.args[0] == 1862
    finally:
        _run(root, "SET GLOBAL disconnect_on_expired_password = OFF")
