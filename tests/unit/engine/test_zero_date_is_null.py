"""`not_null_date IS NULL` in WHERE finds the zero dates (zerodate.py), as MariaDB's."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import scalar


def _table(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (d DATE NOT NULL, dt DATETIME(2) NOT NULL, n DATETIME)")
    session.execute("INSERT INTO t VALUES ('0000-00-00', '0000-00-00 00:00:00', NULL), "
                    "('2001-01-01', '2001-01-01 00:00:00', '0000-00-00')")


def test_where_is_null_of_a_not_null_date_finds_zero_dates(session: SqliteSession) -> None:
    _table(session)
    assert scalar(session, "SELECT COUNT(*) FROM t WHERE d IS NULL") == 1
    assert scalar(session, "SELECT COUNT(*) FROM t WHERE dt IS NULL AND 1") == 1
    assert scalar(session, "SELECT COUNT(*) FROM t WHERE (d IS NULL OR 0)") == 1
    # a nullable column holds NULL, not the zero date, for IS NULL
    assert scalar(session, "SELECT COUNT(*) FROM t WHERE n IS NULL") == 1


def test_elsewhere_is_null_is_the_plain_test(session: SqliteSession) -> None:
    _table(session)
    assert scalar(session, "SELECT SUM(d IS NULL) FROM t") == 0
    assert scalar(session, "SELECT COUNT(*) FROM t WHERE NOT (d IS NULL)") == 2


def test_outer_join_rows_without_a_match_still_count(session: SqliteSession) -> None:
    _table(session)
    session.execute("CREATE TABLE u (d DATE)")
    session.execute("INSERT INTO u VALUES ('1999-09-09'), ('0000-00-00')")
    assert scalar(session, "SELECT COUNT(*) FROM u LEFT JOIN t ON u.d = t.d "
                           "WHERE t.d IS NULL") == 2
