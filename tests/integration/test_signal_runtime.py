"""SIGNAL / RESIGNAL when they run, as MariaDB 10.11 (mtr signal): an unhandled class 02
condition is an error; RESIGNAL outside a handler is 1645 even with a condition; a handled
warning leaves nothing behind; a handler for SQLWARNING catches any warning, whatever its
SQLSTATE, and RESIGNAL alone re-raises it as a warning; item texts past their size are cut
with 1647 outside strict mode; SIGNAL and RESIGNAL can be PREPAREd."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import error_code as _fails
from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _db(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE sg", "USE sg")
    return conn


def test_unhandled_not_found_and_resignal_without_handler(server):
    conn = _db(server)
    _run(conn, "CREATE PROCEDURE p() BEGIN SIGNAL SQLSTATE '02000'; SELECT 1; END")
    assert _fails(conn, "CALL p()") == 1643
    assert _fails(conn, "SIGNAL SQLSTATE '02000'") == 1643
    assert _fails(conn, "RESIGNAL SQLSTATE '12345'") == 1645
    _run(conn, "PREPARE s FROM 'SIGNAL SQLSTATE ''23000'''")
    assert _fails(conn, "EXECUTE s") == 1644
    _run(conn, "PREPARE s FROM 'RESIGNAL SQLSTATE ''23000'''")
    assert _fails(conn, "EXECUTE s") == 1645


def test_handled_warnings(server):
    conn = _db(server)
    _run(conn, "CREATE TABLE t (a INTEGER(2))",
         "CREATE PROCEDURE caught() BEGIN DECLARE warn CONDITION FOR SQLSTATE '01234'; "
         "DECLARE CONTINUE HANDLER FOR SQLSTATE '01234' SET @h = 1; "
         "SIGNAL warn SET MESSAGE_TEXT = 'Raising a warning', MYSQL_ERRNO = 1012; END",
         "CREATE PROCEDURE again() BEGIN DECLARE CONTINUE HANDLER FOR SQLWARNING "
         "BEGIN SET @before = 1; RESIGNAL; SET @after = 1; END; "
         "INSERT IGNORE INTO t SET a = 9999999999999999; END")
    _run(conn, "CALL caught()")
    assert _run(conn, "SELECT @h") == ((1,),)
    assert _run(conn, "SHOW WARNINGS") == ()
    _run(conn, "CALL again()")
    assert _run(conn, "SELECT @before, @after") == ((1, 1),)
    assert _run(conn, "SHOW WARNINGS") == (
        ("Warning", 1264, "Out of range value for column 'a' at row 1"),)


def test_long_items_are_cut_with_1647(server):
    conn = _db(server)
    _run(conn, "SET sql_mode = ''",
         "CREATE PROCEDURE p() BEGIN DECLARE m VARCHAR(600) DEFAULT REPEAT('x', 600); "
         "DECLARE c VARCHAR(70) DEFAULT REPEAT('c', 70); "
         "SIGNAL SQLSTATE '01000' SET MESSAGE_TEXT = m, CLASS_ORIGIN = c; END")
    _run(conn, "CALL p()")
    assert _run(conn, "SHOW WARNINGS") == (
        ("Warning", 1647, "Data truncated for condition item 'CLASS_ORIGIN'"),
        ("Warning", 1647, "Data truncated for condition item 'MESSAGE_TEXT'"),
        ("Warning", 1642, "x" * 512))
    # a routine runs with the sql_mode it was created with
    _run(conn, "SET sql_mode = 'STRICT_ALL_TABLES'",
         "CREATE PROCEDURE strict_p() BEGIN DECLARE c VARCHAR(70) DEFAULT REPEAT('c', 70); "
         "SIGNAL SQLSTATE '01000' SET CLASS_ORIGIN = c; END")
    assert _fails(conn, "CALL strict_p()") == 1648


def test_handlers_resignal_and_their_diagnostics(server):
    """mtr signal's peter_p1 / peter_p2 / peter_p3: a handler sees the conditions of its own
    block, an error leaving a handler goes outward only, RESIGNAL with a condition keeps the
    handled message and the diagnostics area, SHOW WARNINGS in a handler shows it."""
    conn = _db(server)
    _run(conn, "CREATE PROCEDURE p1() BEGIN DECLARE x CONDITION FOR SQLSTATE '42000'; "
               "DECLARE EXIT HANDLER FOR x BEGIN SET @outer = COALESCE(@outer, 0) + 1; "
               "RESIGNAL x SET MYSQL_ERRNO = 9999; END; "
               "BEGIN DECLARE EXIT HANDLER FOR x BEGIN SET @inner = 1; "
               "RESIGNAL x SET MYSQL_ERRNO = 1232; END; SET @@sql_mode = NULL; END; END",
         "CREATE PROCEDURE p3() BEGIN DECLARE CONTINUE HANDLER FOR SQLEXCEPTION "
         "RESIGNAL SQLSTATE '99002' SET MYSQL_ERRNO = 2; "
         "SIGNAL SQLSTATE '99001' SET MYSQL_ERRNO = 1, MESSAGE_TEXT = 'Original'; END",
         "CREATE PROCEDURE shown() BEGIN DECLARE CONTINUE HANDLER FOR SQLEXCEPTION "
         "SHOW WARNINGS; DROP TABLE nosuch; END")
    assert _fails(conn, "CALL p1()") == 9999
    assert _run(conn, "SELECT @inner, @outer") == ((1, 1),)  # the outer handler ran once
    message = "Variable 'sql_mode' can't be set to the value of 'NULL'"
    assert _run(conn, "SHOW WARNINGS") == (
        ("Error", 1231, message), ("Error", 1232, message), ("Error", 9999, message),
        ("Note", 4094, "At line 1 in sg.p1"))
    assert _fails(conn, "CALL p3()") == 2
    assert _run(conn, "SHOW WARNINGS")[:2] == (("Error", 1, "Original"), ("Error", 2, "Original"))
    with conn.cursor() as cur:
        cur.execute("CALL shown()")
        assert cur.fetchall() == (("Error", 1051, "Unknown table 'sg.nosuch'"),)
        while cur.nextset():
            pass


@pytest.mark.parametrize(("value", "errno"), [("0x12", 18), ("0b00010010", 18), ("'65'", 65),
                                              ("3.141592", 3)])
def test_mysql_errno_values(server, value, errno):
    conn = _db(server)
    _run(conn, f"CREATE PROCEDURE p() SIGNAL SQLSTATE '12345' SET MYSQL_ERRNO = {value}")
    assert _fails(conn, "CALL p()") == errno


def test_warning_count_inside_a_function(server):
    conn = _db(server)
    _run(conn, "CREATE FUNCTION f() RETURNS INT BEGIN DECLARE v INT; "
               "SIGNAL SQLSTATE '01XXX' SET MESSAGE_TEXT = 'w', MYSQL_ERRNO = 1012; "
               "SELECT @@warning_count INTO v; RETURN v; END",
         "SELECT 'abc' + 0")  # the client's last statement leaves a warning of its own
    assert _run(conn, "SELECT f()") == ((1,),)
