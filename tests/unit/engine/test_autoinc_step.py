"""auto_increment_increment / auto_increment_offset (autoinc.py); each expectation checked
against MariaDB 10.11 (mtr strict_autoinc_1myisam, strict_autoinc_3heap)."""

from __future__ import annotations

from typing import Any

import pytest

from rampmeter.engine.sqlite import SqliteSession
from rampmeter.engine.sqlite.autoinc import next_value

from .conftest import fails, rows, scalar


def _step(s: SqliteSession, increment: int, offset: int) -> None:
    variables: dict[str, Any] = s.context.variables  # type: ignore[attr-defined]
    variables["auto_increment_increment"] = increment
    variables["auto_increment_offset"] = offset


def test_next_value_is_mariadbs_formula() -> None:
    assert [next_value(n, 10, 5) for n in (0, 5, 17, 100)] == [5, 15, 25, 105]
    assert [next_value(n, 10, 15) for n in (0, 9, 15)] == [9, 15, 25]  # unsigned wrap
    assert next_value(41, 1, 1) == 42


@pytest.mark.parametrize("engine_name", ["MyISAM", "InnoDB"])
def test_generated_values_step(session: SqliteSession, engine_name: str) -> None:
    s = session
    s.execute(f"CREATE TABLE t (a INT NOT NULL AUTO_INCREMENT PRIMARY KEY, b INT) "
              f"ENGINE={engine_name}")
    _step(s, 10, 5)
    s.execute("INSERT INTO t (b) VALUES (1)")
    assert scalar(s, "SELECT LAST_INSERT_ID()") == 5
    s.execute("INSERT INTO t VALUES (17, 2)")
    s.execute("INSERT INTO t (b) VALUES (3), (4)")
    assert scalar(s, "SELECT LAST_INSERT_ID()") == 25
    s.execute("INSERT INTO t VALUES (NULL, 5), (100, 6), (NULL, 7)")
    _step(s, 1, 1)
    s.execute("INSERT INTO t (b) VALUES (8)")
    assert rows(s.execute("SELECT a FROM t ORDER BY a")) == \
        [(5,), (17,), (25,), (35,), (45,), (100,), (105,), (106,)]


def test_a_generated_value_past_the_type_is_167(session: SqliteSession) -> None:
    s = session
    s.execute("CREATE TABLE t (a TINYINT NOT NULL AUTO_INCREMENT PRIMARY KEY) ENGINE=MyISAM")
    _step(s, 1000, 700)
    err = fails(s, "INSERT INTO t VALUES (NULL)", 167, "22003")
    assert err.message == "Out of range value for column 'a' at row 1"
    assert scalar(s, "SELECT COUNT(*) FROM t") == 0


def test_other_sessions_and_tables_are_untouched(session: SqliteSession,
                                                 open_session: Any) -> None:
    s = session
    s.execute("CREATE TABLE t (a INT NOT NULL AUTO_INCREMENT PRIMARY KEY)")
    s.execute("CREATE TABLE u (a INT NOT NULL AUTO_INCREMENT PRIMARY KEY)")
    _step(s, 10, 5)
    s.execute("INSERT INTO t VALUES (NULL)")
    other = open_session(2, database="db")
    other.execute("INSERT INTO t VALUES (NULL)")   # increment 1: after the largest
    other.execute("INSERT INTO u VALUES (NULL)")
    assert rows(s.execute("SELECT a FROM t ORDER BY a")) == [(5,), (6,)]
    assert rows(s.execute("SELECT a FROM u")) == [(1,)]
