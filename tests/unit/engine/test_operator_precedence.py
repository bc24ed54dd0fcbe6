"""Operator precedence as MariaDB parses and prints it (dialect.py, sqltext.py); the texts and
values measured on MariaDB 10.11 (mtr precedence)."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows


def _view_text(session: SqliteSession, select: str) -> str:
    session.execute(f"CREATE OR REPLACE VIEW v1 AS {select}")
    text = str(rows(session.execute("SHOW CREATE VIEW v1"))[0][1])
    return text[text.index(" AS select ") + 4:]


def test_comparisons_are_one_left_associative_level(session: SqliteSession) -> None:
    """1 = 3 >= 3 is (1 = 3) >= 3 (sqlglot and SQLite bind >= tighter than =)."""
    assert rows(session.execute("SELECT 1 = 3 >= 3, 2 = 3 < 3, 1 < 2 = 1, 0 = 3 > 3")) == [
        (0, 1, 1, 0)]
    assert _view_text(session, "SELECT 1 = 3 >= 3, 1 = (3 >= 3)") == (
        "select 1 = 3 >= 3 AS `1 = 3 >= 3`,1 = (3 >= 3) AS `1 = (3 >= 3)`")


def test_between_takes_a_predicate_as_its_upper_bound(session: SqliteSession) -> None:
    assert rows(session.execute("SELECT 2 BETWEEN 1 AND 3 IN (0,1), "
                                "(2 BETWEEN 1 AND 3) IN (0,1)")) == [(0, 1)]
    assert _view_text(session, "SELECT (2 BETWEEN 1 AND 3) BETWEEN 1 AND 3") == (
        "select (2 between 1 and 3) between 1 and 3 AS `(2 BETWEEN 1 AND 3) BETWEEN 1 AND 3`")


def test_not_is_printed_as_a_bang_with_its_operand_parenthesised(
        session: SqliteSession) -> None:
    assert _view_text(session, "SELECT NOT NULL IS TRUE, (NOT NULL) IS TRUE, "
                               "(NOT 2) = 3, NOT 2 + 3, 1 IS NOT TRUE, NOT 1 IS NULL") == (
        "select !(NULL is true) AS `NOT NULL IS TRUE`,!NULL is true AS `(NOT NULL) IS TRUE`,"
        "!2 = 3 AS `(NOT 2) = 3`,!(2 + 3) AS `NOT 2 + 3`,1 is not true AS `1 IS NOT TRUE`,"
        "1 is not null AS `NOT 1 IS NULL`")


def test_collate_binds_tightest(session: SqliteSession) -> None:
    assert _view_text(session, "SELECT 2 + 3 COLLATE latin1_bin, (2 + 3) COLLATE latin1_bin, "
                               "~2, - 0, (2 OR 3) IS FALSE") == (
        "select 2 + 3 collate latin1_bin AS `2 + 3 COLLATE latin1_bin`,"
        "(2 + 3) collate latin1_bin AS `(2 + 3) COLLATE latin1_bin`,~2 AS `~2`,0 AS `- 0`,"
        "(2 or 3) is false AS `(2 OR 3) IS FALSE`")
