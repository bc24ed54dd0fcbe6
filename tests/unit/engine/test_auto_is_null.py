"""sql_auto_is_null (autoisnull.py) and the Impossible WHERE of a NOT NULL column's IS NULL
(explain.py), as MariaDB 10.11 answers them (mtr odbc)."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows


def test_the_last_generated_row_is_found_once_by_is_null(session: SqliteSession) -> None:
    s = session
    s.context.variables["sql_auto_is_null"] = 1  # type: ignore[attr-defined]
    s.execute("CREATE TABLE t (a int NOT NULL AUTO_INCREMENT, b int NOT NULL, "
              "PRIMARY KEY (a, b))")
    s.execute("INSERT INTO t SET a = NULL, b = 1")
    s.execute("INSERT INTO t SET a = NULL, b = 2")
    assert rows(s.execute("SELECT * FROM t WHERE a IS NULL AND b = 2")) == []  # not alone
    assert rows(s.execute("SELECT * FROM t WHERE a IS NULL")) == [(2, 2)]
    assert rows(s.execute("SELECT * FROM t WHERE a IS NULL")) == []   # only once
    s.execute("INSERT INTO t (b) VALUES (3)")
    s.context.variables["sql_auto_is_null"] = 0  # type: ignore[attr-defined]
    assert rows(s.execute("SELECT * FROM t WHERE a IS NULL")) == []


def test_selects_without_null_leave_the_flag_armed(session: SqliteSession) -> None:
    # the cheap pre-check (no NULL in the text: nothing read) must not disarm it, and a
    # comment between IS and NULL still makes the condition
    s = session
    s.context.variables["sql_auto_is_null"] = 1  # type: ignore[attr-defined]
    s.execute("CREATE TABLE t (a int NOT NULL AUTO_INCREMENT PRIMARY KEY, b int)")
    s.execute("INSERT INTO t (b) VALUES (10), (20)")
    s.execute("INSERT INTO t (b) VALUES (30)")
    assert rows(s.execute("SELECT b FROM t WHERE a = 1")) == [(10,)]
    assert rows(s.execute("SELECT a, b FROM t WHERE a IS /* c */ null")) == [(3, 30)]
    assert rows(s.execute("SELECT a, b FROM t WHERE a IS NULL")) == []


def test_is_null_of_a_not_null_column_is_an_impossible_where(session: SqliteSession) -> None:
    s = session
    s.execute("CREATE TABLE t (a int NOT NULL, b int, d date NOT NULL)")
    s.execute("INSERT INTO t VALUES (1, 1, '2020-01-01')")
    assert rows(s.execute("EXPLAIN SELECT * FROM t WHERE a IS NULL"))[0][-1] == \
        "Impossible WHERE"
    for cond in ("b IS NULL", "d IS NULL"):
        assert rows(s.execute(f"EXPLAIN SELECT * FROM t WHERE {cond}"))[0][-1] != \
            "Impossible WHERE"
