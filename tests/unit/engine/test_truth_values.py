"""engine/sqlite/compare.py: a string read for its truth value is read as a DOUBLE, with
MariaDB's warning 1292 (values and warnings measured on MariaDB 10.11)."""

from __future__ import annotations

from rampmeter.engine.base import ResultSet
from rampmeter.engine.sqlite import SqliteSession


def _answer(session: SqliteSession, sql: str) -> tuple[list[tuple], list[tuple[int, str]]]:
    result = session.execute(sql)
    assert isinstance(result, ResultSet)
    return [tuple(r) for r in result.rows], [(w.code, w.message) for w in result.warnings]


def test_if_and_or_of_strings_warn(session: SqliteSession) -> None:
    assert _answer(session, "SELECT IF('', 1, 2), IF('1', 3, 4), '1' AND '2'") == (
        [(2, 3, 1)], [(1292, "Truncated incorrect DOUBLE value: ''")])
    assert _answer(session, "SELECT 'a' OR 0, IF('1x', 5, 6)") == (
        [(0, 5)], [(1292, "Truncated incorrect DOUBLE value: 'a'"),
                   (1292, "Truncated incorrect DOUBLE value: '1x'")])


def test_searched_case_and_where_of_a_string_warn(session: SqliteSession) -> None:
    assert _answer(session, "SELECT CASE WHEN 'a' THEN 1 ELSE 2 END") == (
        [(2,)], [(1292, "Truncated incorrect DOUBLE value: 'a'")])
    assert _answer(session, "SELECT 1 FROM DUAL WHERE 'b'") == (
        [], [(1292, "Truncated incorrect DOUBLE value: 'b'")])


def test_simple_case_compares_its_whens(session: SqliteSession) -> None:
    """CASE x WHEN 'b': the WHEN is a value compared with x, not a condition."""
    assert _answer(session, "SELECT CASE 'b' WHEN 'a' THEN 1 WHEN 'b' THEN 2 END") == (
        [(2,)], [])
