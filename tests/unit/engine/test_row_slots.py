"""A MyISAM / Aria / MEMORY table's next insert takes the last deleted row's place (slots.py),
as MariaDB's: a scan without ORDER BY reads it there (mtr delete_returning)."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows, update

pytestmark = pytest.mark.timeout(60)


def _table(session: SqliteSession, engine: str = "MyISAM") -> None:
    session.execute(f"CREATE TABLE t (a INT, b VARCHAR(5)) ENGINE={engine}")
    session.execute("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e')")


@pytest.mark.parametrize("kind", ["MyISAM", "Aria", "MEMORY"])
def test_last_deleted_place_is_taken_first(session: SqliteSession, kind: str) -> None:
    _table(session, kind)
    assert update(session, "DELETE FROM t WHERE a IN (2, 3)").affected_rows == 2
    assert update(session, "INSERT INTO t VALUES (6, 'f'), (7, 'g'), (8, 'h')"
                  ).affected_rows == 3
    # 6 goes where 3 was (deleted last), 7 where 2 was, 8 after the rest
    assert [r[0] for r in rows(session.execute("SELECT * FROM t"))] == [1, 7, 6, 4, 5, 8]


def test_delete_of_every_row_keeps_no_place_but_returning_deletes_one_by_one(
        session: SqliteSession) -> None:
    _table(session)
    session.execute("DELETE FROM t")
    session.execute("INSERT INTO t VALUES (6, 'f'), (7, 'g')")
    assert [r[0] for r in rows(session.execute("SELECT a FROM t"))] == [6, 7]
    rows(session.execute("DELETE FROM t RETURNING a"))
    session.execute("INSERT INTO t VALUES (8, 'h'), (9, 'i')")
    assert [r[0] for r in rows(session.execute("SELECT a FROM t"))] == [9, 8]
    session.execute("TRUNCATE TABLE t")
    session.execute("INSERT INTO t VALUES (1, 'a'), (2, 'b')")
    assert [r[0] for r in rows(session.execute("SELECT a FROM t"))] == [1, 2]


def test_counts_are_unchanged_by_the_move(session: SqliteSession) -> None:
    """The move to a kept place is no updated row: an upsert and REPLACE count as before."""
    session.execute("CREATE TABLE u (id INT PRIMARY KEY, v INT) ENGINE=MyISAM")
    session.execute("INSERT INTO u VALUES (1, 1), (2, 2), (3, 3)")
    session.execute("UPDATE u SET v = 5 WHERE id = 3")  # the changed-rows trigger is made
    session.execute("DELETE FROM u WHERE id = 1")
    got = update(session, "INSERT INTO u VALUES (4, 4), (2, 9) ON DUPLICATE KEY UPDATE v = 9")
    assert got.affected_rows == 3  # one row inserted (1), one updated (2)
    assert rows(session.execute("SELECT * FROM u")) == [(4, 4), (2, 9), (3, 5)]
    session.execute("DELETE FROM u WHERE id = 3")
    assert update(session, "REPLACE INTO u VALUES (5, 5)").affected_rows == 1
    assert rows(session.execute("SELECT * FROM u")) == [(4, 4), (2, 9), (5, 5)]


def test_innodb_auto_increment_and_recreated_tables_append(session: SqliteSession) -> None:
    _table(session, "InnoDB")
    session.execute("DELETE FROM t WHERE a = 2")
    session.execute("INSERT INTO t VALUES (6, 'f')")
    assert [r[0] for r in rows(session.execute("SELECT a FROM t"))] == [1, 3, 4, 5, 6]
    session.execute("CREATE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY, v INT) ENGINE=MyISAM")
    session.execute("INSERT INTO ai (v) VALUES (1), (2), (3)")
    session.execute("DELETE FROM ai WHERE id = 1")
    session.execute("INSERT INTO ai (v) VALUES (4)")
    assert rows(session.execute("SELECT id FROM ai")) == [(2,), (3,), (4,)]
    session.execute("CREATE TABLE m (a INT) ENGINE=MyISAM")
    session.execute("INSERT INTO m VALUES (1), (2), (3)")
    session.execute("DELETE FROM m WHERE a = 2")
    session.execute("DROP TABLE m")
    session.execute("CREATE TABLE m (a INT) ENGINE=MyISAM")
    session.execute("INSERT INTO m VALUES (1), (2), (3)")
    assert rows(session.execute("SELECT a FROM m")) == [(1,), (2,), (3,)]


def test_rolled_back_delete_keeps_no_place(session: SqliteSession) -> None:
    """A transaction that wrote an InnoDB table too is rolled back whole (txn.py): the
    place goes with the row it was."""
    _table(session)
    session.execute("CREATE TABLE i (a INT) ENGINE=InnoDB")
    session.execute("BEGIN")
    session.execute("DELETE FROM t WHERE a = 2")
    session.execute("INSERT INTO i VALUES (1)")
    session.execute("ROLLBACK")
    session.execute("INSERT INTO t VALUES (6, 'f')")
    assert [r[0] for r in rows(session.execute("SELECT a FROM t"))] == [1, 2, 3, 4, 5, 6]


def test_a_dropped_database_leaves_no_trigger_behind(session: SqliteSession) -> None:
    """The handle drops these temp triggers at a DDL / DETACH as its others: one left on a
    dropped database's table made a later ALTER TABLE elsewhere fail with 1146."""
    session.execute("CREATE DATABASE gone")
    session.execute("CREATE TABLE gone.t (a INT) ENGINE=MyISAM")
    session.execute("INSERT INTO gone.t VALUES (1), (2)")
    session.execute("DELETE FROM gone.t WHERE a = 1")
    session.execute("DROP DATABASE gone")
    session.execute("CREATE TABLE k (a INT) ENGINE=MyISAM")
    session.execute("ALTER TABLE k ADD COLUMN (c INT)")
    session.execute("ALTER TABLE k RENAME TO k2")
    assert rows(session.execute("SELECT * FROM k2")) == []
