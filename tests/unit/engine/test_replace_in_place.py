"""REPLACE replaces a row in place in a table with one unique key (replacing.py), as MariaDB."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows, update


def _table(session: SqliteSession, extra: str = "") -> None:
    session.execute(f"CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(5){extra}) ENGINE=MyISAM")
    session.execute("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')")


def test_replaced_row_keeps_its_place(session: SqliteSession) -> None:
    _table(session)
    assert update(session, "REPLACE INTO t VALUES (1, 'x')").affected_rows == 2
    assert rows(session.execute("SELECT * FROM t")) == [(1, "x"), (2, "b"), (3, "c")]


def test_identical_row_counts_one_and_new_rows_one_each(session: SqliteSession) -> None:
    _table(session)
    assert update(session, "REPLACE INTO t VALUES (2, 'b')").affected_rows == 1
    result = update(session, "REPLACE INTO t VALUES (2, 'y'), (4, 'd')")
    assert result.affected_rows == 3
    assert result.info.startswith("Records: 2  Duplicates: 1")
    assert rows(session.execute("SELECT * FROM t")) == [(1, "a"), (2, "y"), (3, "c"),
                                                        (4, "d")]


def test_replace_select_returning_in_place(session: SqliteSession) -> None:
    _table(session)
    session.execute("CREATE TABLE s (id INT PRIMARY KEY, v VARCHAR(5))")
    session.execute("INSERT INTO s VALUES (1, 'p'), (5, 'q')")
    got = rows(session.execute("REPLACE INTO t SELECT * FROM s RETURNING id, v"))
    assert got == [(1, "p"), (5, "q")]
    assert rows(session.execute("SELECT * FROM t")) == [(1, "p"), (2, "b"), (3, "c"),
                                                        (5, "q")]


def test_left_out_columns_take_their_default(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(5) DEFAULT 'dflt', w INT)")
    session.execute("INSERT INTO t VALUES (1, 'a', 7), (2, 'b', 8)")
    update(session, "REPLACE INTO t (id, w) VALUES (1, 9)")
    assert rows(session.execute("SELECT * FROM t")) == [(1, "dflt", 9), (2, "b", 8)]


def test_two_unique_keys_still_delete_and_insert(session: SqliteSession) -> None:
    _table(session, ", UNIQUE KEY (v)")
    # the new row duplicates two rows: both go, as in MariaDB
    assert update(session, "REPLACE INTO t VALUES (1, 'b')").affected_rows == 3
    assert sorted(rows(session.execute("SELECT * FROM t"))) == [(1, "b"), (3, "c")]

