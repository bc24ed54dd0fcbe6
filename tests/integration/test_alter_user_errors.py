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


def test_password_hashes_as_mariadb_takes_them(server):
    """IDENTIFIED BY PASSWORD / USING: a native hash is any 41 characters (kept as written)
    or 'invalid', which no login matches; SET PASSWORD = 'hash' picks the plugin by the
    hash's length; a clear-text password makes an old_password account native (mtr
    set_password)."""
    root = server.connect()
    _run(root, "CREATE USER inv@localhost IDENTIFIED VIA mysql_native_password USING 'invalid'",
         "CREATE USER odd@localhost IDENTIFIED BY PASSWORD "
         "'*THISISNOTAVALIDPASSWORDTHATCANBEUSEDHERE'",
         "CREATE USER low@localhost IDENTIFIED BY PASSWORD "
         "'*94bdcebe19083ce2a1f959fd02f964c7af4cfc29'",
         "CREATE USER nat@localhost IDENTIFIED VIA mysql_native_password",
         "SET PASSWORD FOR nat@localhost = '378b243e220ca493'",
         "CREATE USER old@localhost IDENTIFIED WITH mysql_old_password",
         "SET PASSWORD FOR old@localhost = PASSWORD('test2')")
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(root, "CREATE USER bad@localhost IDENTIFIED BY PASSWORD 'INVALID'")
    assert e.value.args[0] == 1372
    assert _run(root, "SELECT user, plugin, authentication_string FROM mysql.user WHERE user "
                "IN ('inv', 'odd', 'low', 'nat', 'old') ORDER BY user") == (
        ("inv", "mysql_native_password", "invalid"),
        ("low", "mysql_native_password", "*94bdcebe19083ce2a1f959fd02f964c7af4cfc29"),
        ("nat", "mysql_old_password", "378b243e220ca493"),
        ("odd", "mysql_native_password", "*THISISNOTAVALIDPASSWORDTHATCANBEUSEDHERE"),
        ("old", "mysql_native_password", "*7CEB3FDE5F7A9C4CE5FBE610D7D8EDA62EBE5F4E"))
    for user in ("inv", "odd"):
        with pytest.raises(pymysql.err.MySQLError) as e:
            server.connect(user=user, password="invalid")
        assert e.value.args[0] == 1045
    _run(server.connect(user="low", password="test"), "SELECT 1")   # hex in either case
    _run(server.connect(user="old", password="test2"), "SELECT 1")


def test_alter_user_identified_with_a_missing_plugin(server):
    """MariaDB checks the privilege first (1227 for an account without CREATE USER), then
    fails the account: 1396, after Error 1524 in SHOW WARNINGS (mtr alter_user)."""
    root = server.connect()
    _run(root, "CREATE USER plug@localhost")
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(server.connect(user="plug"), "ALTER USER CURRENT_USER IDENTIFIED WITH 'nope'")
    assert e.value.args[0] == 1227
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(root, "ALTER USER plug@localhost IDENTIFIED WITH 'nope'")
    assert e.value.args == (1396, "Operation ALTER USER failed for 'plug'@'localhost'")
    assert _run(root, "SHOW WARNINGS") == (
        ("Error", 1524, "Plugin 'nope' is not loaded"),
        ("Error", 1396, "Operation ALTER USER failed for 'plug'@'localhost'"))
