"""CREATE AGGREGATE FUNCTION ... FETCH GROUP NEXT ROW, as MariaDB 10.11 answers (mtr
custom_aggregate_functions): one run of the function per group, each FETCH GROUP NEXT ROW
reading the next row's arguments, NOT FOUND after the last; values measured on MariaDB."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import error_code as _fails
from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)

_SUM = ("CREATE AGGREGATE FUNCTION agg_sum(x INT) RETURNS INT BEGIN DECLARE z INT DEFAULT 0; "
        "DECLARE CONTINUE HANDLER FOR NOT FOUND RETURN z; "
        "LOOP FETCH GROUP NEXT ROW; SET z = z + x; END LOOP; END")


def _db(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE ag", "USE ag", "CREATE TABLE tn (a INT, g INT)",
         "INSERT INTO tn VALUES (1, 1), (2, 1), (3, 2), (4, 2)", _SUM)
    return conn


def test_groups_and_empty_groups(server):
    conn = _db(server)
    assert _run(conn, "SELECT agg_sum(a) FROM tn") == ((10,),)
    assert _run(conn, "SELECT g, agg_sum(a) FROM tn GROUP BY g ORDER BY g") == ((1, 3), (2, 7))
    assert _run(conn, "SELECT agg_sum(a) FROM tn WHERE 0") == ((None,),)
    assert _run(conn, "SELECT agg_sum(1)") == ((1,),)
    assert _run(conn, "SELECT ag.agg_sum(a) FROM tn") == ((10,),)  # qualified, same database
    create = _run(conn, "SHOW CREATE FUNCTION agg_sum")[0][2]
    assert create.startswith("CREATE DEFINER=`root`@`localhost` AGGREGATE FUNCTION `agg_sum`"
                             "(x INT) RETURNS int(11)")


def test_refused_forms(server):
    conn = _db(server)
    assert _fails(conn, "CREATE AGGREGATE FUNCTION f(x INT) RETURNS INT RETURN x") == 4106
    assert _fails(conn, "CREATE FUNCTION f(x INT) RETURNS INT BEGIN FETCH GROUP NEXT ROW; "
                        "RETURN x; END") == 4105
    assert _fails(conn, "CREATE AGGREGATE FUNCTION f(x INT) RETURNS INT BEGIN LOOP "
                        "FETCH GROUP NEXT ROW; END LOOP; END") == 1320
    assert _fails(conn, "BEGIN NOT ATOMIC FETCH GROUP NEXT ROW; END") == 4105


def test_ends_and_recursion(server):
    conn = _db(server)
    _run(conn, "CREATE AGGREGATE FUNCTION quits(x INT) RETURNS INT BEGIN DECLARE m INT "
               "DEFAULT 0; DECLARE CONTINUE HANDLER FOR NOT FOUND SET m = -1; "
               "LOOP FETCH GROUP NEXT ROW; SET m = m + x; END LOOP; RETURN 0; END",
         "CREATE AGGREGATE FUNCTION nohandler(x INT) RETURNS INT BEGIN LOOP "
         "FETCH GROUP NEXT ROW; END LOOP; RETURN -1; END",
         "CREATE AGGREGATE FUNCTION rec(i INT) RETURNS INT BEGIN FETCH GROUP NEXT ROW; "
         "RETURN (SELECT COUNT(*) + rec(i - 1) FROM tn WHERE g = 99); END")
    assert _fails(conn, "SELECT quits(a) FROM tn") == 1321  # a CONTINUE handler ends it
    assert ("Error", 1321, "FUNCTION quits ended without RETURN") in _run(conn, "SHOW WARNINGS")
    assert _fails(conn, "SELECT nohandler(a) FROM tn") == 1329
    assert _fails(conn, "SELECT rec(2)") == 1424  # even over an empty group


def test_note_4094_after_statements_with_tables(server):
    conn = _db(server)
    _run(conn, "CREATE TABLE tm (a INT)",
         "CREATE AGGREGATE FUNCTION gb(x INT) RETURNS INT BEGIN DECLARE z INT DEFAULT 0;\n"
         "DECLARE CONTINUE HANDLER FOR NOT FOUND RETURN z;\n"
         "LOOP FETCH GROUP NEXT ROW; IF x > 2 THEN INSERT INTO tm VALUES (x); END IF; "
         "END LOOP; END")
    assert _run(conn, "SELECT gb(a) FROM tn") == ((0,),)
    assert _run(conn, "SHOW WARNINGS") == (("Note", 4094, "At line 3 in ag.gb"),) * 2
