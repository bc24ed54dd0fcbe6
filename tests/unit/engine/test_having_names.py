"""What a HAVING clause may name (havingnames.py) and HAVING without GROUP BY whose only
aggregates are a subquery's (queryforms.py). Expected answers measured on MariaDB 10.11."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows

pytestmark = pytest.mark.timeout(30)


@pytest.fixture
def t(session: SqliteSession) -> SqliteSession:
    session.execute("CREATE TABLE t1 (a INT, b INT, c INT)")
    session.execute("INSERT INTO t1 VALUES (1, 2, 3), (1, 3, 4), (2, 2, 2)")
    session.execute("CREATE TABLE t2 (x INT, y INT)")
    session.execute("INSERT INTO t2 VALUES (1, 1)")
    return session


@pytest.mark.parametrize(("sql", "name"), [
    ("SELECT a FROM t1 HAVING b > 0", "b"),
    ("SELECT COUNT(*) FROM t1 GROUP BY a HAVING b > 0", "b"),
    ("SELECT COUNT(*) FROM t1 HAVING a > 0", "a"),
    ("SELECT a + 1 FROM t1 GROUP BY a + 1 HAVING a > 0", "a"),
    ("SELECT a FROM t1 GROUP BY a HAVING t1.b > 0", "t1.b"),
    ("SELECT a FROM t1 GROUP BY a HAVING nosuch > 0", "nosuch"),
])
def test_a_name_neither_selected_nor_grouped_is_unknown(t: SqliteSession, sql: str,
                                                       name: str) -> None:
    e = fails(t, sql, 1054, "42S22")
    assert f"'{name}' in 'HAVING'" in str(e)


def test_names_having_may_use(t: SqliteSession) -> None:
    assert rows(t.execute("SELECT COUNT(*) FROM t1 GROUP BY a HAVING SUM(b) > 2")) == [(2,)]
    assert rows(t.execute("SELECT a AS q FROM t1 GROUP BY a HAVING q > 1")) == [(2,)]
    assert rows(t.execute("SELECT a AS q FROM t1 GROUP BY q HAVING a > 1")) == [(2,)]
    assert rows(t.execute("SELECT a + 1 FROM t1 GROUP BY a HAVING a > 1")) == [(3,)]
    assert rows(t.execute("SELECT * FROM t1 HAVING b > 2")) == [(1, 3, 4)]
    # a unit is no column: TIMESTAMPADD(SECOND, ...)
    assert rows(t.execute("SELECT a FROM t1 GROUP BY a HAVING "
                          "TIMESTAMPADD(SECOND, a, '2000-01-01') IS NOT NULL")) == [(1,), (2,)]
    # an outer query's alias, from a subquery in its HAVING (not from one in its WHERE)
    assert [(a, int(s)) for a, s in rows(t.execute(
        "SELECT a, SUM(b) AS s FROM t1 GROUP BY a HAVING a IN "
        "(SELECT x FROM t2 GROUP BY x HAVING x + s > 4)"))] == [(1, 5)]
    fails(t, "SELECT a AS q FROM t1 WHERE a IN (SELECT x FROM t2 GROUP BY x HAVING q > 0)",
          1054)
    # an outer query's column, from a subquery's HAVING
    assert rows(t.execute("SELECT x FROM t2 WHERE x IN "
                          "(SELECT a FROM t1 GROUP BY a HAVING y > 0)")) == [(1,)]


def test_ambiguous_names(t: SqliteSession) -> None:
    e = fails(t, "SELECT p.a, q.a FROM t1 p, t1 q GROUP BY p.a, q.a HAVING a = 2", 1052)
    assert "'a' in HAVING is ambiguous" in str(e)
    e = fails(t, "SELECT p.a * 10 + q.a FROM t1 p, t1 q GROUP BY p.a, q.a HAVING a = 2", 1052)
    assert "'a' in HAVING is ambiguous" in str(e)
    e = fails(t, "SELECT * FROM t1 p, t1 q GROUP BY p.a HAVING b IS NULL", 1052)
    assert "'b' in HAVING is ambiguous" in str(e)


def test_having_with_a_subquerys_aggregate_filters_rows(t: SqliteSession) -> None:
    assert rows(t.execute("SELECT a FROM t1 HAVING a <> (SELECT COUNT(*) FROM t2) "
                          "ORDER BY a")) == [(2,)]


def test_string_function_typing_does_not_recurse_through_itself(t: SqliteSession) -> None:
    """CONCAT's collation asks for the type of the CONCAT being typed (infer.py): answered
    None at once instead of after 40000 frames (seconds for each view expanded)."""
    import time

    from .conftest import FakeContext
    ctx = t.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["sql_mode"] = "PIPES_AS_CONCAT"
    t.execute("CREATE VIEW v1 AS SELECT 0 || 2 & 2, 0 || (2 & 2), (0 || 2) & 2")
    started = time.monotonic()
    found = rows(t.execute("SELECT * FROM v1 UNION SELECT * FROM v1 UNION SELECT * FROM v1"))
    assert [tuple(str(v) for v in r) for r in found] == [("2", "02", "2")]
    assert time.monotonic() - started < 3  # 10 s and more before


@pytest.mark.parametrize(("sql", "width"), [
    ("SELECT ROW(1, 2, ROW(3, 4)) IN (ROW(3, 2, ROW(3, 4)), ROW(1, 2, 4))", 2),
    ("SELECT ROW('test', 2, 3.33) = ROW('test', 2, 3.33, 4)", 3),
    ("SELECT ROW(1, ROW(2, 3)) IN (ROW(1, ROW(2, 3)), (SELECT 1, 1))", 2),
    ("SELECT ROW(2, 1) IN (ROW(21, 2), ROW(ROW(1, 1, 3), 0))", 1),
    ("SELECT (1, 2) IN (SELECT 1)", 2),
])
def test_rows_of_another_shape_name_the_left_width(session: SqliteSession, sql: str,
                                                    width: int) -> None:
    """rowshape.py: MariaDB 10.11's 1241 texts (the mtr test row)."""
    e = fails(session, sql, 1241, "21000")
    assert f"should contain {width} column(s)" in str(e)


def test_rollup_forms(session: SqliteSession) -> None:
    """queryforms.rollup: SELECT DISTINCT over every level, GROUP BY an alias of a column,
    a key naming a select item rolls up that item, WITH CUBE is 1235 (MariaDB 10.11's
    answers, mtr test olap)."""
    session.execute("CREATE TABLE t1 (a INT, b INT)")
    session.execute("INSERT INTO t1 VALUES (1, 4), (2, 2), (2, 2), (4, 1), (4, 1), (4, 1), "
                    "(4, 1), (2, 1), (2, 1)")
    assert [int(r[0]) for r in rows(session.execute(
        "SELECT DISTINCT SUM(b) FROM t1 GROUP BY a WITH ROLLUP"))] == [4, 6, 14]
    assert rows(session.execute("SELECT a AS day, COUNT(*) FROM t1 GROUP BY day WITH ROLLUP")) \
        == [(1, 1), (2, 4), (4, 4), (None, 9)]
    found = rows(session.execute("SELECT a, a AS c, COUNT(*) FROM t1 WHERE a = 1 "
                                 "GROUP BY a, c WITH ROLLUP"))
    assert found == [(1, 1, 1), (1, None, 1), (None, None, 1)]
    e = fails(session, "SELECT a, COUNT(*) FROM t1 GROUP BY a WITH CUBE", 1235)
    assert "'CUBE'" in str(e)


def test_group_by_directions(session: SqliteSession) -> None:
    """GROUP BY k DESC sorts the groups (and a ROLLUP's levels) so; a rolled-up query as a
    UNION operand keeps its own order (MariaDB 10.11, mtr test olap)."""
    session.execute("CREATE TABLE t1 (p VARCHAR(10), c INT, profit INT)")
    session.execute("INSERT INTO t1 VALUES ('b', 2, 1), ('c', 1, 2), ('a', 1, 3), ('b', 1, 4)")
    assert rows(session.execute("SELECT p FROM t1 GROUP BY p DESC")) == [
        ("c",), ("b",), ("a",)]
    assert [r[:2] for r in rows(session.execute(
        "SELECT p, c, SUM(profit) FROM t1 GROUP BY p DESC, c WITH ROLLUP"))] == [
        ("c", 1), ("c", None), ("b", 1), ("b", 2), ("b", None), ("a", 1), ("a", None),
        (None, None)]
    assert rows(session.execute("SELECT c FROM t1 GROUP BY c WITH ROLLUP UNION ALL "
                                "SELECT c FROM t1 GROUP BY c WITH ROLLUP")) == [
        (1,), (2,), (None,), (1,), (2,), (None,)]


def test_rollup_keys_of_a_view_are_nullable(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (a INT NOT NULL)")
    session.execute("CREATE VIEW v1 AS SELECT a, COUNT(*) FROM t1 GROUP BY a WITH ROLLUP")
    assert rows(session.execute("DESC v1"))[0][:3] == ("a", "int(11)", "YES")


def test_rollup_expression_key_is_nulled(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (p VARCHAR(10), c INT)")
    session.execute("INSERT INTO t1 VALUES ('a', 1), ('b', 2)")
    assert rows(session.execute("SELECT CONCAT(p, ':', c), COUNT(*) FROM t1 "
                                "GROUP BY CONCAT(p, ':', c) WITH ROLLUP")) == [
        ("a:1", 1), ("b:2", 1), (None, 2)]
