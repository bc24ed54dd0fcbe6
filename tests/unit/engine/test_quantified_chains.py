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
