"""Window functions where SQLite differs from MariaDB (engine/sqlite/windows.py); expected
answers measured on MariaDB 10.11 (mtr win_ntile)."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows


def test_ntile_argument_must_not_change_within_a_partition(session: SqliteSession) -> None:
    session.execute("CREATE TABLE nt (pk INT PRIMARY KEY, g INT, n INT)")
    session.execute("INSERT INTO nt VALUES (1, 1, 2), (2, 1, 2), (3, 1, 2), (4, 2, 3), (5, 2, 3)")
    query = "SELECT pk, NTILE(n) OVER (PARTITION BY g ORDER BY pk) FROM nt ORDER BY pk"
    assert [tuple(r) for r in rows(session.execute(query))] == [
        (1, 1), (2, 1), (3, 2), (4, 1), (5, 2)]
    session.execute("UPDATE nt SET n = 1 WHERE pk = 3")  # no longer one value in group 1
    err = fails(session, query, 4024, "HY000")
    assert str(err.message) == "Argument of NTILE must be greater than 0"
    fails(session, "SELECT NTILE(0) OVER (ORDER BY pk) FROM nt", 4024)
    # an argument read from an uncorrelated subquery is one value
    got = rows(session.execute("SELECT NTILE((SELECT n FROM nt WHERE pk = 3)) OVER "
                               "(ORDER BY pk) FROM nt ORDER BY pk"))
    assert [r[0] for r in got] == [1, 1, 1, 1, 1]
