"""INSERT IGNORE ... SELECT warns 1062 for each row it skips with the row's value and the
first key it repeats, in MariaDB's order of keys (dupvalue.ignored_messages; mtr
insert_select)."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows, update

pytestmark = pytest.mark.timeout(60)


def test_each_skipped_row_names_its_value_and_key(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a INT PRIMARY KEY, b INT UNIQUE)")
    session.execute("CREATE TABLE s (a INT, b INT)")
    session.execute("INSERT INTO t VALUES (1, 1), (3, 3)")
    session.execute("INSERT INTO s VALUES (1, 5), (4, 3), (5, 5), (5, 6), (6, NULL)")
    result = update(session, "INSERT IGNORE INTO t SELECT * FROM s")
    assert result.affected_rows == 2
    assert [w.message for w in result.warnings] == [
        "Duplicate entry '1' for key 'PRIMARY'",  # PRIMARY before b, though both repeat
        "Duplicate entry '3' for key 'b'",
        "Duplicate entry '5' for key 'PRIMARY'"]  # a row the statement itself wrote
    assert result.info == "Records: 5  Duplicates: 3  Warnings: 3"
    assert rows(session.execute("SELECT * FROM t ORDER BY a")) == [
        (1, 1), (3, 3), (5, 5), (6, None)]


def test_the_run_again_leaves_the_table_as_one_run(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (n INT AUTO_INCREMENT PRIMARY KEY, a INT UNIQUE) "
                    "ENGINE=InnoDB")
    session.execute("CREATE TABLE s (a INT)")
    session.execute("INSERT INTO s VALUES (1), (2)")
    result = update(session, "INSERT IGNORE INTO t (a) SELECT a FROM s")
    assert result.affected_rows == 2 and result.warnings == []
    assert rows(session.execute("SELECT a, n FROM t ORDER BY a")) == [(1, 1), (2, 2)]
    result = update(session, "INSERT IGNORE INTO t (a) SELECT a + 1 FROM s")
    assert [w.message for w in result.warnings] == ["Duplicate entry '2' for key 'a'"]
    # run again after the undo: AUTO_INCREMENT as after one run (InnoDB's skipped row took 3)
    assert rows(session.execute("SELECT a, n FROM t ORDER BY a")) == [(1, 1), (2, 2), (3, 4)]
