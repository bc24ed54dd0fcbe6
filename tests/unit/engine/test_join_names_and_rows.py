"""Errors MariaDB raises on names and rows that SQLite would let through (each checked against
MariaDB 10.11; mtr sp-bugs): 1052 for a NATURAL / USING column an operand has twice
(joinnames.py), 1241 for rows in quantified comparisons (quantified.py) and in a DEFAULT
(definitions.py)."""

from __future__ import annotations

import pytest
import sqlglot

from rampmeter import errors
from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows, scalar

AMBIGUOUS = errors.ER_NON_UNIQ_ERROR
ROW = errors.ER_OPERAND_COLUMNS


@pytest.fixture
def s(session: SqliteSession) -> SqliteSession:
    session.execute("CREATE TABLE t1 (c1 INT, c2 INT)")
    session.execute("CREATE TABLE t2 (c INT, c2 INT)")
    session.execute("INSERT INTO t1 VALUES (1, 2)")
    session.execute("INSERT INTO t2 VALUES (3, 2)")
    return session


def test_a_joined_column_twice_in_an_operand_is_ambiguous(s: SqliteSession) -> None:
    for sql in ("SELECT * FROM t1 AS a1 JOIN t2 AS a2 NATURAL JOIN t2 AS a3",
                "SELECT * FROM t1 AS a1 JOIN t2 AS a2 JOIN t2 AS a3 USING (c2)",
                "SELECT * FROM t1 JOIN t2 ON 1 NATURAL JOIN t2 x",
                "DELETE a2, a3 FROM t1 AS a1 JOIN t2 AS a2 NATURAL JOIN t2 AS a3",
                "UPDATE t1 AS a1 JOIN t2 AS a2 NATURAL JOIN t2 AS a3 SET a1.c1 = 1"):
        assert fails(s, sql, AMBIGUOUS).message == "Column 'c2' in FROM is ambiguous"
    # a comma binds looser than JOIN: the left operand is a2 alone
    assert rows(s.execute("SELECT a3.c FROM t1 AS a1, t2 AS a2 NATURAL JOIN t2 AS a3")) == \
        [(3,)]
    # a joined column counts once for the joins that follow
    assert rows(s.execute("SELECT c2 FROM t1 NATURAL JOIN t2 NATURAL JOIN t2 x")) == [(2,)]
    # a USING name an operand lacks is 1054, first
    assert fails(s, "SELECT * FROM t1 a1 JOIN t1 a2 ON 1 JOIN t2 USING (c1)",
                 errors.ER_BAD_FIELD_ERROR).message == "Unknown column 'c1' in 'FROM'"


def test_sqlglot_tells_a_comma_from_a_join() -> None:
    """joinnames.py relies on it: only an explicit JOIN's node carries `pivots`."""
    comma = sqlglot.parse_one("SELECT * FROM a, b", read="mysql").args["joins"][0]
    join = sqlglot.parse_one("SELECT * FROM a JOIN b", read="mysql").args["joins"][0]
    assert "pivots" not in comma.args
    assert "pivots" in join.args


def test_rows_in_quantified_comparisons(s: SqliteSession) -> None:
    assert scalar(s, "SELECT 1 = SOME (SELECT 1) = ALL (SELECT 1)") == 1
    assert scalar(s, "SELECT 2 > ALL (SELECT 1) = ANY (SELECT 1)") == 1
    assert scalar(s, "SELECT (1, 2) = ANY (SELECT 1, 2)") == 1
    assert scalar(s, "SELECT (1, 2) <> ALL (SELECT 1, 2)") == 0
    cases = {"SELECT ROW(1, 2) = SOME (SELECT ROW(1, 2))": 1,
             "SELECT ROW(1, 2) = SOME (SELECT 1) = ALL (SELECT 1)": 2,
             "SELECT (1, 2) > ANY (SELECT 1, 2)": 1,
             "SELECT (1, 2) = ALL (SELECT 1, 2)": 1,
             "SELECT 1 = ANY (SELECT 1, 2)": 1}
    for sql, width in cases.items():
        assert fails(s, sql, ROW).message == f"Operand should contain {width} column(s)"


def test_a_row_is_no_default(s: SqliteSession) -> None:
    for sql in ("CREATE TABLE t3 (dt DATETIME(6) DEFAULT ROW(1, 2))",
                "CREATE TABLE t3 (dt INT DEFAULT row(1, 2) = SOME (SELECT 1) = ALL (SELECT 1))"):
        assert fails(s, sql, ROW).message == "Operand should contain 1 column(s)"
