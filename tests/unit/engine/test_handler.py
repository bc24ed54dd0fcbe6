"""HANDLER (handler.py): each expectation checked against MariaDB 10.11 (mtr truncate,
flush_table)."""

from __future__ import annotations

import pytest

from rampmeter import errors
from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows


@pytest.fixture
def s(session: SqliteSession) -> SqliteSession:
    session.execute("CREATE TABLE t (a INT, b VARCHAR(5), KEY k (a))")
    session.execute("INSERT INTO t VALUES (5,'x'), (3,'y'), (3,'z'), (9,'w'), (1,'v')")
    return session


def test_natural_order_reads_go_on_from_the_last_row(s: SqliteSession) -> None:
    s.execute("HANDLER t OPEN")
    assert rows(s.execute("HANDLER t READ FIRST")) == [(5, "x")]
    assert rows(s.execute("HANDLER t READ NEXT LIMIT 2")) == [(3, "y"), (3, "z")]
    assert rows(s.execute("HANDLER t READ NEXT WHERE b > 'v' LIMIT 9")) == [(9, "w")]
    assert rows(s.execute("HANDLER t READ NEXT")) == [(1, "v")]
    assert rows(s.execute("HANDLER t READ NEXT")) == []
    assert rows(s.execute("HANDLER t READ LAST")) == [(1, "v")]
    s.execute("HANDLER t CLOSE")
    fails(s, "HANDLER t READ FIRST", errors.ER_UNKNOWN_TABLE)


def test_index_reads(s: SqliteSession) -> None:
    s.execute("HANDLER t OPEN AS h")
    assert rows(s.execute("HANDLER h READ k FIRST")) == [(1, "v")]
    assert rows(s.execute("HANDLER h READ k NEXT LIMIT 2")) == [(3, "y"), (3, "z")]
    assert rows(s.execute("HANDLER h READ k = (3) LIMIT 5")) == [(3, "y"), (3, "z")]
    assert rows(s.execute("HANDLER h READ k >= (4)")) == [(5, "x")]
    assert rows(s.execute("HANDLER h READ k NEXT")) == [(9, "w")]
    assert rows(s.execute("HANDLER h READ k < (5) LIMIT 3")) == [(3, "z"), (3, "y"), (1, "v")]
    assert rows(s.execute("HANDLER h READ k LAST")) == [(9, "w")]
    assert rows(s.execute("HANDLER h READ k PREV")) == [(5, "x")]
    fails(s, "HANDLER h READ nosuch FIRST", errors.ER_KEY_DOES_NOT_EXISTS)


def test_open_errors_and_what_closes_a_handler(s: SqliteSession) -> None:
    fails(s, "HANDLER nosuch OPEN", errors.ER_NO_SUCH_TABLE)
    s.execute("CREATE VIEW v AS SELECT 1")
    fails(s, "HANDLER v OPEN", 1347)
    s.execute("HANDLER t OPEN AS x")
    fails(s, "HANDLER t OPEN AS x", errors.ER_NONUNIQ_TABLE)
    s.execute("HANDLER x READ FIRST")
    s.execute("FLUSH TABLES")                  # reopened: NEXT starts again
    assert rows(s.execute("HANDLER x READ NEXT")) == [(5, "x")]
    s.execute("TRUNCATE t")                    # DDL on the table closes it
    fails(s, "HANDLER x READ FIRST", errors.ER_UNKNOWN_TABLE)
