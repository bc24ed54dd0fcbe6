"""A MyISAM / Aria / MEMORY table's AUTO_INCREMENT column is not SQLite's rowid (catalog.
rowid_auto): its rows are read in the order written, a deleted row's place reused, as
MariaDB's (mtr limit, replace, auto_increment); the column keeps MyISAM's counter
(autokey.py)."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows, update

pytestmark = pytest.mark.timeout(60)


def _ids(session: SqliteSession, sql: str = "SELECT * FROM t") -> list[int]:
    return [r[0] for r in rows(session.execute(sql))]


@pytest.mark.parametrize("kind", ["MyISAM", "Aria", "MEMORY"])
def test_rows_in_the_order_written_and_a_deleted_place_reused(session: SqliteSession,
                                                                kind: str) -> None:
    session.execute(f"CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v INT, KEY (v)) "
                    f"ENGINE={kind}")
    session.execute("INSERT INTO t (v) VALUES (0), (0), (0)")
    session.execute("DELETE FROM t WHERE id = 1")
    assert update(session, "INSERT INTO t SET v = 0").last_insert_id == 4
    assert _ids(session) == [4, 2, 3]
    session.execute("INSERT INTO t VALUES (-1, 5), (NULL, 6)")
    assert _ids(session) == [4, 2, 3, -1, 5]


def test_innodb_reads_by_its_primary_key_as_before(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v INT) ENGINE=InnoDB")
    session.execute("INSERT INTO t VALUES (5, 0), (-1, 0), (NULL, 0)")
    assert _ids(session) == [-1, 5, 6]


def test_counter_survives_deletes_and_follows_updates(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v INT) ENGINE=MyISAM")
    session.execute("INSERT INTO t (v) VALUES (1), (2), (3)")
    session.execute("DELETE FROM t WHERE id = 3")
    assert update(session, "INSERT INTO t (v) VALUES (4)").last_insert_id == 4
    session.execute("UPDATE t SET id = 10 WHERE id = 4")
    session.execute("DELETE FROM t WHERE id = 10")
    assert update(session, "INSERT INTO t (v) VALUES (5)").last_insert_id == 11
    create = rows(session.execute("SHOW CREATE TABLE t"))[0][1]
    assert "AUTO_INCREMENT=12" in create
    session.execute("TRUNCATE TABLE t")
    assert update(session, "INSERT INTO t (v) VALUES (6)").last_insert_id == 1
    # a table made again under the name starts again
    session.execute("DROP TABLE t")
    session.execute("CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY) ENGINE=MyISAM")
    assert update(session, "INSERT INTO t VALUES (NULL)").last_insert_id == 1


def test_alter_adds_a_numbered_column_and_a_column_may_be_named_rowid(
        session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a INT) ENGINE=MyISAM")
    session.execute("INSERT INTO t VALUES (7), (3)")
    session.execute("ALTER TABLE t ADD b INT AUTO_INCREMENT PRIMARY KEY")
    assert rows(session.execute("SELECT * FROM t")) == [(7, 1), (3, 2)]
    session.execute("CREATE TABLE r (rowid INT NOT NULL AUTO_INCREMENT, val INT NOT NULL, "
                    "PRIMARY KEY (rowid), UNIQUE (val)) ENGINE=MyISAM")
    session.execute("REPLACE INTO r (val) VALUES (1), (2)")
    session.execute("REPLACE INTO r (val) VALUES (1), (2)")
    assert rows(session.execute("SELECT * FROM r")) == [(3, 1), (4, 2)]


def test_float_column_counts_too(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (id DOUBLE NOT NULL AUTO_INCREMENT, name CHAR(3), "
                    "PRIMARY KEY (id)) ENGINE=MyISAM")
    session.execute("INSERT INTO t (name) VALUES ('dog')")
    session.execute("UPDATE t SET id = -1 WHERE id = 1")
    session.execute("INSERT INTO t (name) VALUES ('cat')")
    assert rows(session.execute("SELECT * FROM t")) == [(-1, "dog"), (2, "cat")]
