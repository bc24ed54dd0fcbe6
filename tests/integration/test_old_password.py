"""Pre-4.1 password hashes (mysql_old_password), as MariaDB 10.11 stores them (mtr grant5)."""

from __future__ import annotations

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def test_set_password_old_password_and_the_16_digit_message(server):
    root = server.connect()
    _run(root, "CREATE USER op1@h", "SET PASSWORD FOR op1@h = OLD_PASSWORD('pwd')")
    assert _run(root, "SELECT plugin, authentication_string FROM mysql.user "
                      "WHERE user = 'op1'") == (("mysql_old_password", "78a302dd267f6044"),)
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(root, "CREATE USER op2@h IDENTIFIED WITH 'mysql_old_password' USING 'pwd'")
    assert e.value.args == (1372, "Password hash should be a 16-digit hexadecimal number")
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(root, "CREATE USER op3@h IDENTIFIED WITH mysql_native_password USING 'pwd'")
    assert e.value.args == (1372, "Password hash should be a 41-digit hexadecimal number")
