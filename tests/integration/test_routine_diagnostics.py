"""What an error leaving a stored routine leaves in the diagnostics area, as MariaDB's (mtr
signal_demo3): Note 4094 'At line N in db.name' after it for each routine it leaves, N the
line of the failing statement in the CREATE text; a RESIGNAL in a handler keeps the handled
condition before its own; SHOW WARNINGS shows the last max_error_count of them."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import error_code as _fails
from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def test_an_error_leaving_routines_is_traced(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE dg", "USE dg",
         "CREATE PROCEDURE inner_p()\nBEGIN\n  SELECT 1 INTO @x;\n  DROP TABLE nosuch;\nEND",
         "CREATE PROCEDURE outer_p()\nBEGIN\n  CALL inner_p();\nEND",
         "CREATE PROCEDURE caught()\nBEGIN\n  DECLARE EXIT HANDLER FOR SQLEXCEPTION\n"
         "    RESIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'oops';\n  CALL inner_p();\nEND")
    assert _fails(conn, "CALL outer_p()") == 1051
    assert _run(conn, "SHOW WARNINGS") == (
        ("Error", 1051, "Unknown table 'dg.nosuch'"),
        ("Note", 4094, "At line 4 in dg.inner_p"),
        ("Note", 4094, "At line 3 in dg.outer_p"))
    assert _fails(conn, "CALL caught()") == 1644
    assert _run(conn, "SHOW WARNINGS") == (
        ("Error", 1051, "Unknown table 'dg.nosuch'"),
        ("Note", 4094, "At line 4 in dg.inner_p"),
        ("Error", 1644, "oops"),
        ("Note", 4094, "At line 4 in dg.caught"))
    _run(conn, "SET max_error_count = 2")
    assert _fails(conn, "CALL caught()") == 1644
    assert _run(conn, "SHOW WARNINGS") == (
        ("Error", 1644, "oops"), ("Note", 4094, "At line 4 in dg.caught"))


def test_a_handled_error_leaves_nothing(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE dg", "USE dg",
         "CREATE PROCEDURE p() BEGIN DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN END; "
         "DROP TABLE nosuch; END",
         "CALL p()")
    assert _run(conn, "SHOW WARNINGS") == ()


@pytest.mark.parametrize(("body", "line"), [  # measured on MariaDB 10.11
    ("BEGIN\n  CASE n WHEN 1 THEN SELECT 1; END CASE;\nEND", 3),
    ("BEGIN\n  CASE n\n  WHEN 1 THEN SELECT 1;\n  END CASE;\n  SELECT 2;\nEND", 5),
    ("BEGIN\n  IF n = 1 THEN\n    SELECT 1;\n  ELSE\n    SELECT * FROM nosuch;\n  END IF;\nEND", 6),
    ("BEGIN\n  WHILE (SELECT COUNT(*) FROM nosuch) > n DO\n    SELECT 1;\n  END WHILE;\nEND", 3),
    ("BEGIN\n  SET @a =\n    (SELECT COUNT(*)\n     FROM nosuch);\nEND", 5),
    ("BEGIN\n  DECLARE x INT DEFAULT (SELECT a FROM nosuch);\nEND", 3),
    ("BEGIN\n  IF (SELECT a FROM nosuch) THEN\n    SELECT 1;\n  END IF;\nEND", 3),
])
def test_the_line_of_note_4094(server, body, line):
    conn = server.connect()
    _run(conn, "CREATE DATABASE dg", "USE dg", f"CREATE PROCEDURE p(n INT)\n{body}")
    _fails(conn, "CALL p(2)")
    assert _run(conn, "SHOW WARNINGS")[-1] == ("Note", 4094, f"At line {line} in dg.p")


def test_signal_errno_out_of_range_is_1231_and_the_connection_lives(server):
    conn = server.connect()
    for value in ("4294967295", "0", "NULL"):
        assert _fails(conn, f"SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = {value}") == 1231
    # (PyMySQL reads an error code as a signed short: 65534, the largest, is -2 to it)
    assert _fails(conn, "SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = 65534") == -2
    assert _run(conn, "SELECT 1") == ((1,),)
