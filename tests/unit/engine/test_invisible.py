"""INVISIBLE columns, as MariaDB 10.11 keeps them (mtr invisible_field): shown by SHOW CREATE
TABLE and DESCRIBE, left out of `*` and of an INSERT without a column list, and refused where
no row could be written (1113, 4108)."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows


def test_invisible_columns_are_shown_but_not_selected_by_star(session: SqliteSession) -> None:
    s = session
    s.execute("CREATE TABLE t (a int, b int NOT NULL INVISIBLE DEFAULT 3, "
              "e int AUTO_INCREMENT INVISIBLE UNIQUE)")
    shown = str(rows(s.execute("SHOW CREATE TABLE t"))[0][1])
    assert "`b` int(11) NOT NULL INVISIBLE DEFAULT 3," in shown
    assert "`e` int(11) NOT NULL INVISIBLE AUTO_INCREMENT," in shown
    desc = {r[0]: r for r in rows(s.execute("DESCRIBE t"))}
    assert desc["b"][5] == "INVISIBLE" and desc["e"][5] == "auto_increment, INVISIBLE"
    assert desc["e"][3] == "PRI"   # the UNIQUE NOT NULL key of a table without a primary
    s.execute("INSERT INTO t VALUES (1), (2)")
    s.execute("INSERT INTO t (a, b) VALUES (3, 30)")
    assert rows(s.execute("SELECT * FROM t ORDER BY a")) == [(1,), (2,), (3,)]
    assert rows(s.execute("SELECT a, b, e FROM t ORDER BY a")) == [(1, 3, 1), (2, 3, 2),
                                                                     (3, 30, 3)]
    s.execute("CREATE TABLE u SELECT * FROM t")
    assert [r[0] for r in rows(s.execute("DESCRIBE u"))] == ["a"]
    s.execute("CREATE VIEW v AS SELECT * FROM t")
    assert [r[0] for r in rows(s.execute("DESCRIBE v"))] == ["a"]


def test_a_table_of_invisible_columns_only_or_one_without_a_default(session: SqliteSession
                                                                    ) -> None:
    s = session
    fails(s, "CREATE TABLE t (a int INVISIBLE)", 1113, "42000")
    err = fails(s, "CREATE TABLE t (a int PRIMARY KEY INVISIBLE, b int)", 4108, "HY000")
    assert err.message == "Invisible column `a` must have a default value"
    s.execute("CREATE TABLE t (pk int AUTO_INCREMENT PRIMARY KEY INVISIBLE, i int)")
    fails(s, "ALTER TABLE t MODIFY pk int INVISIBLE", 4108)
    s.execute("ALTER TABLE t MODIFY pk int")   # visible again
    assert [r[0] for r in rows(s.execute("DESCRIBE t"))] == ["pk", "i"]
    assert rows(s.execute("SELECT * FROM t")) == []
