"""engine/sqlite/batch.py: a multi-row INSERT of one shape is one cached one-row plan and one
executemany, whatever its row count; anything else takes the ordinary path."""

from __future__ import annotations

from typing import Any

import pytest

from rampmeter.engine.sqlite import SqliteEngine, SqliteSession
from rampmeter.engine.sqlite.batch import split
from rampmeter.sql.statement import scan

from .conftest import scalar, update


def _rows(n: int, start: int = 0) -> str:
    return ", ".join(f"({i}, 'v{i}', {i}.5)" for i in range(start, start + n))


def test_thousand_rows_one_plan_one_call(session: SqliteSession, engine: SqliteEngine,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    session.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(9), d DOUBLE)")
    calls: list[int] = []
    real = session.handle.executemany

    def counting(sql: str, rows: Any) -> Any:
        rows = list(rows)
        calls.append(len(rows))
        return real(sql, rows)

    monkeypatch.setattr(session.handle, "executemany", counting)
    before = len(engine.plans)
    assert update(session, f"INSERT INTO t (id, v, d) VALUES {_rows(1000)}").affected_rows \
        == 1000
    assert calls == [1000]
    assert len(engine.plans) == before + 1
    (shape,) = [key[0] for key in engine.plans if key[0].startswith("INSERT")]
    assert shape.count(":w") == 3   # the one-row form
    update(session, f"INSERT INTO t (id, v, d) VALUES {_rows(7, 1000)}")
    assert calls == [1000, 7] and len(engine.plans) == before + 1   # the same plan again
    assert scalar(session, "SELECT COUNT(*) FROM t") == 1007


@pytest.mark.parametrize("sql", [
    "INSERT INTO t (a, b) VALUES (1, 2)",                          # one row
    "INSERT INTO t (a, b) VALUES (1, 2), (3, NOW())",              # an expression
    "INSERT INTO t (a, b) VALUES (1, 2), (3)",                     # rows of other widths
    "INSERT INTO t (a, b) VALUES (1, DEFAULT), (3, 4)",            # keyword vs value
    "INSERT INTO t (a, b) SELECT 1, 2 UNION SELECT 3, 4",
])
def test_not_a_batch(sql: str) -> None:
    assert split(scan(sql)) is None


def test_values_and_nulls_line_up() -> None:
    b = split(scan("INSERT INTO t (a, b, c) VALUES (1, NULL, 'x'), (NULL, 2, 'y'), "
                   "(3,4,'z') ON DUPLICATE KEY UPDATE c = 'w'"))
    assert b is not None
    assert b.one_row.shape.startswith("INSERT INTO t (a, b, c) VALUES (:w0, :w1, :w2)")
    assert b.rows == [[0, None, 1], [None, 2, 3], [4, 5, 6]]
    assert [b.one_row.names[k] for k in range(3, len(b.one_row.names))] == ["s7"]


def test_hex_literals_in_number_columns_are_numbers(session: SqliteSession) -> None:
    # mtr type_uint: 0xffffffffffffffff into a BIGINT UNSIGNED is 2^64-1 in a many-row INSERT
    # as in a one-row one (it was 0 with warning 1366); into a VARBINARY it stays bytes
    session.execute("CREATE TABLE t (a BIGINT UNSIGNED, b MEDIUMINT UNSIGNED, c VARBINARY(8))")
    update(session, "INSERT INTO t VALUES (1, 2, 0x41), (0xffffffffffffffff, 0xffffff, 0x4142),"
                    " (b'101', 0x10, b'1000001')")
    assert session.warnings == []
    got = session.execute("SELECT a, b, c FROM t")
    assert [tuple(r) for r in got.rows] == [  # type: ignore[union-attr]
        (1, 2, b"A"), (2**64 - 1, 2**24 - 1, b"AB"), (5, 16, b"A")]
