"""A constant compared with a temporal column is converted before the first row (eager.py):
its warning comes even when no row is read, once, as MariaDB's."""

from __future__ import annotations

from rampmeter.engine.base import ResultSet
from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows


def _warnings(result: object) -> list[tuple[int, str]]:
    assert isinstance(result, ResultSet)
    return [(w.code, w.message) for w in result.warnings]


TRUNCATED = (1292, "Truncated incorrect datetime value: ''")


def test_empty_table_still_warns(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a DATETIME)")
    assert _warnings(session.execute("SELECT * FROM t WHERE a = ''")) == [TRUNCATED]
    assert _warnings(session.execute("SELECT * FROM (SELECT * FROM t) AS d WHERE a = ''")) == \
        [TRUNCATED]


def test_rows_warn_once_and_values_still_match(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a DATE)")
    session.execute("INSERT INTO t VALUES ('2001-01-01'), ('2002-02-02')")
    result = session.execute("SELECT * FROM t WHERE a = '' OR a IS NULL")
    assert _warnings(result) == [TRUNCATED]  # no date at all: "datetime", as MariaDB
    assert _warnings(session.execute("SELECT * FROM t WHERE a = '2001-01-01x'")) == [
        (1292, "Truncated incorrect date value: '2001-01-01x'")]
    assert rows(session.execute("SELECT CAST(a AS CHAR) FROM t WHERE a = '2001-1-1'")) == \
        [("2001-01-01",)]
    assert _warnings(session.execute("SELECT * FROM t WHERE a = '2001-1-1'")) == []
