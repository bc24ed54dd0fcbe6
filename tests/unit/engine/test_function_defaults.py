"""DEFAULT / ON UPDATE CURRENT_TIMESTAMP as MariaDB 10.11 takes them (mtr function_defaults):
any type may default to it, only DATETIME / TIMESTAMP may be updated by it, and an upsert's
update moves the ON UPDATE columns as an UPDATE does."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows


def _at(s: SqliteSession, when: float) -> None:
    s.context.variables["timestamp"] = when  # type: ignore[attr-defined]  # SET timestamp


def test_current_timestamp_is_any_types_default_but_updates_only_temporals(
        session: SqliteSession) -> None:
    s = session
    s.execute("CREATE TABLE t (b bigint DEFAULT CURRENT_TIMESTAMP, d date DEFAULT now(), "
              "g decimal(20,2) DEFAULT current_timestamp)")
    shown = str(rows(s.execute("SHOW CREATE TABLE t"))[0][1])
    assert "`b` bigint(20) DEFAULT current_timestamp()," in shown
    assert "`d` date DEFAULT current_timestamp()," in shown
    _at(s, 1000000000.0)   # 2001-09-09 01:46:40 UTC
    s.execute("INSERT INTO t VALUES ()")
    b, d, g = rows(s.execute("SELECT b, CAST(d AS CHAR), CAST(g AS CHAR) FROM t"))[0]
    assert str(b)[:8] == str(d).replace("-", "") and str(g).startswith(str(b))
    for bad in ("int", "date", "time", "year", "bit"):
        fails(s, f"CREATE TABLE u (a {bad} ON UPDATE CURRENT_TIMESTAMP)", 1294, "HY000")


def test_an_upsert_moves_the_on_update_columns_of_a_changed_row(session: SqliteSession
                                                                  ) -> None:
    s = session
    s.execute("CREATE TABLE t (a int PRIMARY KEY, b int, "
              "c datetime DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP)")
    _at(s, 251593200.0)
    s.execute("INSERT INTO t (a) VALUES (1) ON DUPLICATE KEY UPDATE b = 2")
    first = rows(s.execute("SELECT c FROM t"))[0][0]
    _at(s, 169945200.0)
    s.execute("INSERT INTO t (a) VALUES (1) ON DUPLICATE KEY UPDATE b = 2")
    second = rows(s.execute("SELECT b, c FROM t"))[0]
    assert second[0] == 2 and second[1] != first
    _at(s, 114167482.0)
    s.execute("INSERT INTO t (a) VALUES (1) ON DUPLICATE KEY UPDATE b = 2")  # no change
    assert rows(s.execute("SELECT c FROM t"))[0][0] == second[1]


def test_a_view_column_that_is_a_column_with_a_collation_is_written(session: SqliteSession
                                                                      ) -> None:
    s = session
    s.execute("CREATE TABLE t (a varchar(10) CHARACTER SET latin1)")
    s.execute("CREATE VIEW v AS SELECT a COLLATE latin1_german1_ci AS b FROM t")
    s.execute("INSERT INTO v (b) VALUES ('x')")
    s.execute("UPDATE v SET b = 'y'")
    assert rows(s.execute("SELECT a FROM t")) == [("y",)]
