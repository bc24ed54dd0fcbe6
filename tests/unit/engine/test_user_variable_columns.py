"""`SELECT @v` is described from what @v holds (uservars.py), `@v := literal` and
LAST_VALUE(..., literal) as the literal, and LAST_VALUE() is a syntax error: MariaDB's
metadata (mtr last_value)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from rampmeter import errors
from rampmeter.engine.base import ResultSet
from rampmeter.engine.sqlite import SqliteSession
from rampmeter.protocol.constants import ColumnFlag, ColumnType

from .conftest import fails


def _result(session: SqliteSession, sql: str) -> ResultSet:
    result = session.execute(sql)
    assert isinstance(result, ResultSet)
    return result


def _described(session: SqliteSession, sql: str) -> list[tuple[int, int, int, int, int]]:
    return [(c.type, c.length, c.flags, c.decimals, c.charset)
            for c in _result(session, sql).columns]


NUM = ColumnFlag.NUM | ColumnFlag.BINARY


def test_variables_are_described_by_their_values(session: SqliteSession) -> None:
    held = session.context.user_variables  # type: ignore[attr-defined]
    held.update({"i": 7, "d": Decimal("1.50"), "f": 2.5, "s": "hello", "n": None,
                 "u": 2**64 - 1})
    assert _described(session, "SELECT @i, @d, @f, @s, @n, @u") == [
        (ColumnType.LONGLONG, 20, NUM, 0, 63),
        (ColumnType.NEWDECIMAL, 83, NUM, 38, 63),
        (ColumnType.DOUBLE, 23, NUM, 31, 63),
        (ColumnType.LONG_BLOB, 16777215, 0, 39, 45),
        (ColumnType.LONG_BLOB, 16777215, ColumnFlag.BINARY, 39, 63),
        (ColumnType.LONGLONG, 20, NUM | ColumnFlag.UNSIGNED, 0, 63)]
    # a DECIMAL keeps its scale in the value printed
    assert [list(r) for r in _result(session, "SELECT @d, @i").rows] == [[Decimal("1.50"), 7]]
    # the same plan, another value: described again
    held["i"] = "text"
    assert _described(session, "SELECT @i")[0][0] == ColumnType.LONG_BLOB


def test_assigned_decimal_stays_exact(session: SqliteSession) -> None:
    result = _result(session, "SELECT @x := 1.0")
    assert (result.columns[0].type, result.columns[0].decimals) == (ColumnType.NEWDECIMAL, 1)
    assert session.context.user_variables["x"] == Decimal("1.0")  # type: ignore[attr-defined]
    assert [list(r) for r in _result(session, "SELECT @x").rows] == [[Decimal("1.0")]]


@pytest.mark.parametrize(("sql", "wire", "length", "flags"), [
    ("SELECT LAST_VALUE(@a := 1, @b := 1)", ColumnType.LONG, 1,
     ColumnFlag.BINARY | ColumnFlag.NOT_NULL),
    ("SELECT @c := 'hello'", ColumnType.VAR_STRING, 20, ColumnFlag.NOT_NULL),
])
def test_assignment_of_a_literal_is_the_literal(session: SqliteSession, sql: str, wire: int,
                                                length: int, flags: int) -> None:
    column = _result(session, sql).columns[0]
    assert (column.type, column.length, column.flags & ~ColumnFlag.NUM) == (wire, length, flags)


def test_last_value_without_arguments_is_a_syntax_error(session: SqliteSession) -> None:
    err = fails(session, "SELECT LAST_VALUE()", errors.ER_PARSE_ERROR)
    assert "near ')'" in err.message
