"""SHOW GRANTS and SHOW CREATE USER quote names as MariaDB's append_identifier does: always
with sql_quote_show_create ON (the quote character is " under ANSI_QUOTES), and with it OFF
only a name that needs it: a keyword, reserved or not, characters outside letters, digits, _
and $, or digits only (measured on MariaDB 10.11)."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _lines(conn, sql):
    return [r[0] for r in _run(conn, sql)]


def test_names_quoted_only_when_needed(server):
    root = server.connect()
    _run(root, "CREATE ROLE user", "CREATE ROLE `1`", "CREATE ROLE qrole1",
         "CREATE USER 'x'@'h-1'", "CREATE DATABASE qd", "CREATE TABLE qd.t (a INT)",
         "GRANT user TO 'x'@'h-1'", "GRANT qrole1 TO 'x'@'h-1'",
         "GRANT SELECT ON qd.* TO 'x'@'h-1'",
         "GRANT SELECT (a) ON qd.t TO 'x'@'h-1'", "SET DEFAULT ROLE user FOR 'x'@'h-1'")
    _run(root, "SET sql_quote_show_create = OFF")
    assert _lines(root, "SHOW GRANTS FOR 'x'@'h-1'") == [
        "GRANT `user` TO x@`h-1`", "GRANT qrole1 TO x@`h-1`", "GRANT USAGE ON *.* TO x@`h-1`",
        "GRANT SELECT ON qd.* TO x@`h-1`", "GRANT SELECT (a) ON qd.t TO x@`h-1`",
        "SET DEFAULT ROLE `user` FOR x@`h-1`"]
    assert _lines(root, "SHOW GRANTS FOR `1`") == ["GRANT USAGE ON *.* TO `1`"]
    assert _lines(root, "SHOW CREATE USER 'x'@'h-1'") == ["CREATE USER x@`h-1`"]
    _run(root, "SET sql_mode = 'ANSI_QUOTES'")
    assert _lines(root, "SHOW GRANTS FOR user") == ['GRANT USAGE ON *.* TO "user"']
    _run(root, "SET sql_quote_show_create = ON")
    assert _lines(root, "SHOW CREATE USER 'x'@'h-1'") == ['CREATE USER "x"@"h-1"']
    _run(root, "SET sql_mode = DEFAULT")
    assert _lines(root, "SHOW GRANTS FOR qrole1") == ["GRANT USAGE ON *.* TO `qrole1`"]


def test_show_columns_needs_select_at_database_level(server):
    """A database's CREATE or INSERT alone is not enough (1142); a table grant of any kind is."""
    root = server.connect()
    _run(root, "CREATE DATABASE qc", "CREATE TABLE qc.t (a INT)",
         "CREATE USER qcu@localhost", "GRANT CREATE, INSERT ON qc.* TO qcu@localhost")
    user = server.connect(user="qcu")
    with pytest.raises(Exception) as e:
        _run(user, "SHOW COLUMNS FROM qc.t")
    assert e.value.args[0] == 1142
    with pytest.raises(Exception) as e:
        _run(user, "CREATE TABLE qc.t2 LIKE qc.t")
    assert e.value.args[0] == 1142
    _run(user, "CHECK TABLE qc.t")  # any privilege will do for CHECK TABLE
    _run(root, "GRANT DELETE ON qc.t TO qcu@localhost")
    _run(user, "SHOW COLUMNS FROM qc.t")
