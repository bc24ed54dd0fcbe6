"""The character set and collation of a stored routine's variables and of a stored function's
result, as MariaDB 10.11 answers them (mtr sp-ucs2, ctype_collate): a variable is IMPLICIT in
its declared collation (a text type without one has the database's set), a function's value is
COERCIBLE in its RETURNS collation, and information_schema.ROUTINES shows that set apart from
DTD_IDENTIFIER."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def test_variables_and_results_keep_their_declared_collations(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE rc DEFAULT CHARACTER SET latin1", "USE rc",
         "CREATE FUNCTION f(f1 VARCHAR(100) CHARACTER SET ucs2 COLLATE ucs2_unicode_ci) "
         "RETURNS VARCHAR(100) CHARACTER SET ucs2 COLLATE ucs2_danish_ci BEGIN "
         "DECLARE f2 VARCHAR(64) CHARACTER SET ucs2 COLLATE ucs2_swedish_ci; "
         "DECLARE f3 VARCHAR(64) COLLATE ucs2_bin; DECLARE f4 VARCHAR(10); "
         "SET f1 = concat(collation(f1), ' ', collation(f2), ' ', collation(f3), ' ', "
         "collation(f4), ' ', coercibility(f2)); RETURN f1; END")
    assert _run(conn, "SELECT f('a')") == (
        ("ucs2_unicode_ci ucs2_swedish_ci ucs2_bin latin1_swedish_ci 2",),)
    assert _run(conn, "SELECT COLLATION(f('a')), CHARSET(f('a')), COERCIBILITY(f('a'))") == (
        ("ucs2_danish_ci", "ucs2", 4),)
    assert _run(conn, "SELECT DTD_IDENTIFIER, CHARACTER_SET_NAME, COLLATION_NAME FROM "
                "information_schema.ROUTINES WHERE ROUTINE_SCHEMA = 'rc'") == (
        ("varchar(100)", "ucs2", "ucs2_danish_ci"),)
