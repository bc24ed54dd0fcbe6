"""Quantified comparisons (quantified.py) chained and with rows, as MariaDB (mtr sp-bugs,
MDEV-36876): the inner comparison is rewritten before the outer one copies it; a ROW compared
with SOME / ALL is 1241 with its width, a ROW selected by the subquery 1241 (1)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, scalar

Open = Callable[..., SqliteSession]


@pytest.mark.parametrize(("sql", "value"), [
    ("SELECT 1 = SOME (SELECT 1) = ALL (SELECT 1)", 1),
    ("SELECT 2 = SOME (SELECT 1) = ALL (SELECT 0)", 1),
    ("SELECT (1 = ANY (SELECT 2)) < ALL (SELECT 1 UNION SELECT 3)", 1),
])
def test_chained_quantified_comparisons(open_session: Open, sql: str, value: int) -> None:
    assert scalar(open_session(1), sql) == value


def test_rows_with_some_and_all(open_session: Open) -> None:
    s = open_session(1)
    assert "2 column(s)" in fails(s, "SELECT ROW(1, 2) = SOME (SELECT 1) = ALL (SELECT 1)",
                                  1241).message
    assert "1 column(s)" in fails(s, "SELECT ROW(1, 2) = SOME (SELECT ROW(1, 2))", 1241).message
    assert "1 column(s)" in fails(s, "SELECT 1 = ALL (SELECT 1, 2)", 1241).message


@pytest.mark.parametrize("default", ["ROW(1, 2)", "ROW(1, 2) = SOME (SELECT 1) = ALL (SELECT 1)",
                                     "(ROW(1, 2))"])
def test_a_row_as_a_column_default_is_1241(open_session: Open, default: str) -> None:
    s = open_session(1)
    s.execute("CREATE DATABASE db")
    s.use("db")
    assert "1 column(s)" in fails(s, f"CREATE TABLE t (a INT DEFAULT {default})", 1241).message


@pytest.mark.parametrize(("sql", "ambiguous"), [  # MariaDB 10.11's answers
    ("SELECT * FROM t1 AS a1 JOIN t2 AS a2 NATURAL JOIN t2 AS a3", True),
    ("DELETE a2, a3 FROM t1 AS a1 JOIN t2 AS a2 NATURAL JOIN t2 AS a3", True),
    ("SELECT * FROM t1 JOIN t2 ON 1 JOIN t2 AS t3 USING (c2)", True),
    ("SELECT * FROM t1 JOIN t2 USING (c2) JOIN t2 AS t3 USING (c2)", False),
    ("SELECT * FROM t1 JOIN t2 USING (c2) NATURAL JOIN t2 AS t3", False),
    ("SELECT * FROM t1 NATURAL JOIN t2", False),
])
def test_natural_and_using_joins_on_a_column_the_left_has_twice(
        open_session: Open, sql: str, ambiguous: bool) -> None:
    s = open_session(1)
    s.execute("CREATE DATABASE db")
    s.use("db")
    s.execute("CREATE TABLE t1 (c1 INT, c2 INT)")
    s.execute("CREATE TABLE t2 (c INT, c2 INT)")
    if ambiguous:
        assert fails(s, sql, 1052).message == "Column 'c2' in FROM is ambiguous"
    else:
        s.execute(sql)
