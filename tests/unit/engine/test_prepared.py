"""Server-side prepared statements: prepare() metadata and execute_prepared() with typed params."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from rampmeter import errors
from rampmeter.engine.base import ResultSet, UpdateCount
from rampmeter.engine.sqlite import SqliteEngine, SqliteSession
from rampmeter.errors import ServerError
from rampmeter.protocol.constants import ColumnType

from .conftest import rows


@pytest.fixture
def typed(session: SqliteSession) -> SqliteSession:
    session.execute("CREATE TABLE v (id INT AUTO_INCREMENT PRIMARY KEY, i BIGINT, s VARCHAR(40), "
                    "f DOUBLE, d DECIMAL(10,2), ts DATETIME, day DATE, b BLOB, n INT)")
    return session


def test_prepare_reports_param_count_and_columns(typed: SqliteSession) -> None:
    stmt = typed.prepare("SELECT id, s, d, ? FROM v WHERE i = ? AND s = ?")
    assert stmt.param_count == 3
    assert [c.name for c in stmt.columns] == ["id", "s", "d", "?"]
    assert [c.type for c in stmt.columns[:3]] == [ColumnType.LONG, ColumnType.VAR_STRING,
                                                  ColumnType.NEWDECIMAL]
    assert stmt.columns[2].decimals == 2


def test_prepare_of_a_write_has_no_columns(typed: SqliteSession) -> None:
    stmt = typed.prepare("INSERT INTO v (i, s) VALUES (?, ?)")
    assert (stmt.param_count, stmt.columns) == (2, [])
    stmt = typed.prepare("UPDATE v SET s = ? WHERE id = 1")
    assert (stmt.param_count, stmt.columns) == (1, [])


def test_prepare_of_invalid_sql_fails_at_prepare_time(typed: SqliteSession) -> None:
    with pytest.raises(ServerError) as info:
        typed.prepare("SELECT FROM WHERE ?")
    assert info.value.code == errors.ER_PARSE_ERROR


def test_parameters_are_not_accepted_in_ddl(typed: SqliteSession) -> None:
    with pytest.raises(ServerError) as info:
        typed.prepare("CREATE TABLE x (a int DEFAULT ?)")
    assert info.value.code == errors.ER_NOT_SUPPORTED_YET


@pytest.mark.parametrize(("column", "value", "stored"), [
    ("i", 2**62, 2**62),
    ("i", -5, -5),
    ("s", "it's a \\ \"quote\" ?", "it's a \\ \"quote\" ?"),
    ("s", "ünïcödé ✓", "ünïcödé ✓"),
    ("f", 2.5, 2.5),
    ("d", Decimal("3.25"), Decimal("3.25")),
    ("d", Decimal("7"), Decimal("7.00")),
    ("ts", dt.datetime(2024, 1, 2, 3, 4, 5), "2024-01-02 03:04:05"),
    ("day", dt.date(2024, 2, 29), "2024-02-29"),
    ("b", b"\x00\x01\xffbinary", b"\x00\x01\xffbinary"),
    ("n", None, None),
])
def test_execute_prepared_binds_typed_values(typed: SqliteSession, column: str, value: Any,
                                             stored: Any) -> None:
    insert = typed.prepare(f"INSERT INTO v ({column}) VALUES (?)")
    result = typed.execute_prepared(insert, [value])
    assert isinstance(result, UpdateCount)
    assert result.affected_rows == 1 and result.last_insert_id == 1
    select = typed.prepare(f"SELECT {column} FROM v WHERE id = ?")
    assert rows(typed.execute_prepared(select, [1])) == [(stored,)]


def test_all_types_in_one_statement_and_reuse(typed: SqliteSession) -> None:
    insert = typed.prepare("INSERT INTO v (i, s, f, d, ts, b, n) VALUES (?, ?, ?, ?, ?, ?, ?)")
    params = [1, "x", 1.25, Decimal("9.99"), dt.datetime(2020, 5, 6, 7, 8, 9), b"\x00", None]
    for k in range(3):
        typed.execute_prepared(insert, [params[0] + k, *params[1:]])
    select = typed.prepare("SELECT i, s, f, d, ts, b, n FROM v WHERE i >= ? ORDER BY i")
    assert rows(typed.execute_prepared(select, [2])) == [
        (i, "x", 1.25, Decimal("9.99"), "2020-05-06 07:08:09", b"\x00", None) for i in (2, 3)]


def test_param_binding_is_not_sql_injection(typed: SqliteSession) -> None:
    typed.execute("INSERT INTO v (s) VALUES ('safe')")
    select = typed.prepare("SELECT COUNT(*) FROM v WHERE s = ?")
    assert rows(typed.execute_prepared(select, ["' OR '1'='1"])) == [(0,)]
    assert rows(typed.execute_prepared(select, ["SAFE"])) == [(1,)]  # _ci comparison


def test_select_list_parameter_is_named_by_its_marker(typed: SqliteSession) -> None:
    stmt = typed.prepare("SELECT ?, CONCAT(?, 'x')")
    result = typed.execute_prepared(stmt, ["hello", "y"])
    assert isinstance(result, ResultSet)
    assert [c.name for c in result.columns] == ["?", "CONCAT(?, 'x')"]
    assert rows(result) == [("hello", "yx")]


def test_literals_and_params_mix_in_order(typed: SqliteSession) -> None:
    typed.execute("INSERT INTO v (i, s) VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    stmt = typed.prepare("SELECT s FROM v WHERE i > 1 AND s <> ? AND i < 10 ORDER BY i LIMIT ?")
    assert stmt.param_count == 2
    assert rows(typed.execute_prepared(stmt, ["c", 5])) == [("b",)]


def test_wrong_param_count_is_1210(typed: SqliteSession) -> None:
    stmt = typed.prepare("SELECT s FROM v WHERE i = ? AND s = ?")
    with pytest.raises(ServerError) as info:
        typed.execute_prepared(stmt, [1])
    assert info.value.code == errors.ER_WRONG_ARGUMENTS


def test_prepared_statement_survives_ddl(typed: SqliteSession, engine: SqliteEngine) -> None:
    stmt = typed.prepare("SELECT COUNT(*) FROM v WHERE i = ?")
    typed.execute("ALTER TABLE v ADD COLUMN extra INT")
    assert not engine.plans  # the cache was invalidated; the statement re-plans
    assert rows(typed.execute_prepared(stmt, [1])) == [(0,)]


def test_prepared_errors_map_like_text_ones(typed: SqliteSession) -> None:
    typed.execute("INSERT INTO v (id) VALUES (1)")
    stmt = typed.prepare("INSERT INTO v (id) VALUES (?)")
    with pytest.raises(ServerError) as info:
        typed.execute_prepared(stmt, [1])
    assert (info.value.code, info.value.sqlstate) == (errors.ER_DUP_ENTRY, "23000")


@pytest.mark.parametrize(("params", "got"), [
    (["qwe", 0], []), (["2", 0], [(1,), (2,)]), ([2**64 - 10, 1], [(2,), (3,)]),
    ([1, 2**64 - 10], []), ([2.6, 0], [(1,), (2,), (3,)]), (["2.6", 0], [(1,), (2,)]),
])
def test_limit_parameters_are_mariadbs_counts(typed: SqliteSession, params: list[Any],
                                              got: list[tuple[int]]) -> None:
    # mtr limit: a string's number, an unsigned past BIGINT (was 1366), any float rounded
    for _ in range(3):
        typed.execute("INSERT INTO v (i) VALUES (1)")
    stmt = typed.prepare("SELECT id FROM v ORDER BY id LIMIT ? OFFSET ?")
    assert rows(typed.execute_prepared(stmt, params)) == got


@pytest.mark.parametrize("value", [-1, -14632475938453979136])
def test_a_negative_limit_parameter_is_1210(typed: SqliteSession, value: int) -> None:
    # the second used to escape as an OverflowError and close the connection
    stmt = typed.prepare("SELECT 1 LIMIT ?, ?")
    with pytest.raises(ServerError) as info:
        typed.execute_prepared(stmt, [value, value])
    assert info.value.code == errors.ER_WRONG_ARGUMENTS
    assert info.value.message == "Incorrect arguments to EXECUTE"


def test_a_literal_limit_past_bigint(typed: SqliteSession) -> None:
    assert rows(typed.execute("SELECT 1 LIMIT 18446744073709551615")) == [(1,)]
    assert rows(typed.execute("SELECT 1 LIMIT 4294967296, 10")) == []
