"""UPDATE / DELETE IGNORE whose scalar subquery gives several rows for some rows: MariaDB warns
1242 once per such row and takes the subquery as NULL there; the other rows are changed."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows, update

_CONDITION = "t11.b <> (SELECT b FROM t2 WHERE t11.a < t2.a)"


def _tables(session: SqliteSession) -> None:
    for name in ("t11", "t12", "t2"):
        session.execute(f"CREATE TABLE {name} (a INT NOT NULL PRIMARY KEY, b INT)")
    session.execute("INSERT INTO t11 VALUES (0, 10), (1, 11), (2, 12)")
    session.execute("INSERT INTO t12 VALUES (33, 10), (0, 11), (2, 12)")
    session.execute("INSERT INTO t2 VALUES (1, 21), (2, 12), (3, 23)")


def test_multi_table_delete_ignore_deletes_the_rows_whose_subquery_is_one_row(
        session: SqliteSession) -> None:
    _tables(session)
    sql = f"DELETE t11.*, t12.* FROM t11, t12 WHERE t11.a = t12.a AND {_CONDITION}"
    fails(session, sql, 1242)
    result = update(session, sql.replace("DELETE", "DELETE IGNORE", 1))
    assert result.affected_rows == 2
    assert [w.code for w in result.warnings] == [1242, 1242]  # rows 0 and 1, once each
    assert rows(session.execute("SELECT * FROM t11")) == [(0, 10), (1, 11)]
    assert rows(session.execute("SELECT * FROM t12")) == [(33, 10), (0, 11)]


def test_single_table_delete_and_update_ignore(session: SqliteSession) -> None:
    _tables(session)
    result = update(session, f"DELETE IGNORE FROM t11 WHERE {_CONDITION}")
    assert result.affected_rows == 1
    assert [w.code for w in result.warnings] == [1242, 1242]
    result = update(session, f"UPDATE IGNORE t11 SET b = 99 WHERE {_CONDITION}")
    assert result.info == "Rows matched: 0  Changed: 0  Warnings: 2"
    assert rows(session.execute("SELECT * FROM t11")) == [(0, 10), (1, 11)]


def test_multi_table_update_ignore_warns_once_per_joined_row(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (a INT, b CHAR(3))")
    session.execute("INSERT INTO t1 VALUES (1, 'foo')")
    session.execute("CREATE TABLE t2 (c CHAR(3), d INT)")
    session.execute("INSERT INTO t2 VALUES ('foo', 1)")
    result = update(session, "UPDATE IGNORE t1, t2 SET b = 'bar', c = 'bar' "
                             "WHERE a != (SELECT 1 UNION SELECT 2)")
    assert [w.code for w in result.warnings] == [1242]
    assert rows(session.execute("SELECT b, c FROM t1, t2")) == [("foo", "foo")]
