"""WITH RECURSIVE ... CYCLE cols RESTRICT (cycle.py): the rows it keeps, its errors, and the
text SHOW CREATE VIEW prints. Expected answers from MariaDB 10.11's mtr test cte_cycle."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows

pytestmark = pytest.mark.timeout(30)

_GRAPH = ("WITH RECURSIVE cte (depth, from_, to_) AS (SELECT 0, 1, 1 UNION "
          "SELECT depth + 1, t1.from_, t1.to_ FROM t1, cte WHERE t1.from_ = cte.to_) "
          "CYCLE from_, to_ RESTRICT SELECT * FROM cte")


@pytest.fixture
def graph(session: SqliteSession) -> SqliteSession:
    session.execute("CREATE TABLE t1 (from_ INT, to_ INT)")
    session.execute("INSERT INTO t1 VALUES (1, 2), (1, 100), (2, 3), (3, 4), (4, 1)")
    return session


def test_cycle_columns_stop_the_recursion(graph: SqliteSession) -> None:
    # (1, 2) comes back at depth 5 with another depth: the key over (from_, to_) drops it
    assert sorted(rows(graph.execute(_GRAPH))) == [
        (0, 1, 1), (1, 1, 2), (1, 1, 100), (2, 2, 3), (3, 3, 4), (4, 4, 1)]


def test_union_all_dedups_on_the_cycle_columns_only(session: SqliteSession) -> None:
    assert rows(session.execute(
        "WITH RECURSIVE cte AS (SELECT 1 AS a, 2 AS b UNION ALL "
        "SELECT a + 1, 2 FROM cte WHERE a < 10) CYCLE b RESTRICT SELECT * FROM cte")) == \
        [(1, 2)]
    # run again: the rows seen belong to one statement
    assert rows(session.execute(
        "WITH RECURSIVE cte AS (SELECT 1 AS a, 2 AS b UNION ALL "
        "SELECT a + 1, 2 FROM cte WHERE a < 10) CYCLE b RESTRICT SELECT * FROM cte")) == \
        [(1, 2)]


def test_cycle_errors(session: SqliteSession) -> None:
    body = "SELECT 1 AS a UNION ALL SELECT NULL FROM cte WHERE a IS NOT NULL"
    fails(session, f"WITH RECURSIVE cte AS ({body}) CYCLE a, a RESTRICT SELECT * FROM cte",
          1060)
    e = fails(session, f"WITH RECURSIVE cte AS ({body}) CYCLE b RESTRICT SELECT * FROM cte",
              1054)
    assert "'CYCLE clause'" in str(e)
    e = fails(session, f"WITH cte AS ({body}) CYCLE b RESTRICT SELECT * FROM cte", 1064)
    assert "near 'CYCLE b RESTRICT" in str(e)


def test_view_with_cycle_prints_mariadb_text(graph: SqliteSession) -> None:
    graph.execute("CREATE VIEW v1 AS " + _GRAPH)
    text = rows(graph.execute("SHOW CREATE VIEW v1"))[0][1]
    assert text.endswith(
        "AS with recursive cte(`depth`,`from_`,`to_`) as (select 0 AS `depth`,1 AS `from_`,"
        "1 AS `to_` union select `cte`.`depth` + 1 AS `depth + 1`,`t1`.`from_` AS `from_`,"
        "`t1`.`to_` AS `to_` from (`t1` join `cte`) where `t1`.`from_` = `cte`.`to_`) "
        "CYCLE `from_`,`to_` RESTRICT select `cte`.`depth` AS `depth`,`cte`.`from_` AS "
        "`from_`,`cte`.`to_` AS `to_` from `cte`")
    assert len(rows(graph.execute("SELECT * FROM v1"))) == 6


def test_union_rows_come_in_first_seen_order(session: SqliteSession) -> None:
    """MariaDB reads a UNION's temporary table back in the order rows went in (setops.py):
    measured on MariaDB 10.11."""
    session.execute("CREATE TABLE t (a INT, b VARCHAR(10))")
    session.execute("INSERT INTO t VALUES (5, 'x'), (1, 'X'), (3, NULL), (1, NULL)")
    assert rows(session.execute("SELECT b FROM t UNION SELECT a FROM t")) == [
        ("x",), (None,), ("5",), ("1",), ("3",)]
    assert rows(session.execute("SELECT 3 AS a UNION SELECT 1 UNION ALL SELECT 2 "
                                "UNION SELECT 0 LIMIT 1, 2")) == [(1,), (2,)]
    assert rows(session.execute("SELECT 3, 7 UNION VALUES (1, 2), (3, 4), (3, 7)")) == [
        (3, 7), (1, 2), (3, 4)]
    # an ORDER BY says otherwise
    assert rows(session.execute("SELECT a FROM t UNION SELECT 2 ORDER BY a DESC")) == [
        (5,), (3,), (2,), (1,)]


def test_literal_columns_of_a_union_take_every_branchs_type(session: SqliteSession) -> None:
    """SELECT 1 UNION SELECT 2.5 is DECIMAL(2,1) (it was typed by the first literal alone and
    answered 2 for 2.5); VALUES types each column over all its rows. MariaDB 10.11's values."""
    from decimal import Decimal
    assert rows(session.execute("SELECT 1 UNION SELECT 2.5")) == [
        (Decimal("1.0"),), (Decimal("2.5"),)]
    found = session.execute("VALUES (1, 2), (3, 4), (5.6, 0)")
    assert rows(found) == [(Decimal("1.0"), 2), (Decimal("3.0"), 4), (Decimal("5.6"), 0)]
    assert rows(session.execute("VALUES (1, 2) UNION SELECT 1, 2 UNION VALUES (0, 0)")) == [
        (1, 2), (0, 0)]


def test_values_branches_of_a_union_are_typed_over_their_rows(session: SqliteSession) -> None:
    from decimal import Decimal
    assert rows(session.execute("SELECT 1, 2 UNION VALUES (1, 7), (3, 6.5)")) == [
        (1, Decimal("2.0")), (1, Decimal("7.0")), (3, Decimal("6.5"))]
    assert rows(session.execute("VALUES (1, 2.4), (3, 6) UNION SELECT 2.8, 9")) == [
        (Decimal("1.0"), Decimal("2.4")), (Decimal("3.0"), Decimal("6.0")),
        (Decimal("2.8"), Decimal("9.0"))]


def test_star_over_a_cte_names_columns_as_written(session: SqliteSession) -> None:
    """derived.cte_names: SELECT * FROM a CTE names its columns as MariaDB does (the CTE's
    select list as typed), not as SQLite's generator spells them."""
    session.execute("CREATE TABLE t1 (a INT, b CHAR(1))")
    session.execute("INSERT INTO t1 VALUES (1, 'c'), (1, 'd')")
    found = session.execute("WITH t AS (SELECT a, count(*), a+1 FROM t1 GROUP BY a) "
                            "SELECT * FROM t")
    assert [c.name for c in found.columns] == ["a", "count(*)", "a+1"]


def test_intersect_all_as_an_operand_of_a_union(session: SqliteSession) -> None:
    """setops.py: INTERSECT ALL inside a longer compound (its WITH cannot stand there in
    SQLite: 1064 before). Rows as MariaDB 10.11's, as a multiset."""
    session.execute("CREATE TABLE t2 (c INT, d INT)")
    session.execute("CREATE TABLE t3 (e INT, f INT)")
    session.execute("INSERT INTO t2 VALUES (3, 3), (4, 4), (5, 5), (3, 3)")
    session.execute("INSERT INTO t3 VALUES (3, 3), (5, 5), (6, 6), (3, 3)")
    found = rows(session.execute("SELECT 1, 1 UNION ALL SELECT c, d FROM t2 INTERSECT ALL "
                                 "SELECT e, f FROM t3 UNION ALL SELECT 4, 4"))
    assert sorted(found) == [(1, 1), (3, 3), (3, 3), (4, 4), (5, 5)]


def test_parenthesised_compound_on_the_right(session: SqliteSession) -> None:
    """queryforms._operand: A UNION ALL (B UNION C) keeps A's rows (MariaDB 10.11)."""
    assert rows(session.execute("SELECT 1 UNION ALL (SELECT 1 UNION SELECT 1)")) == [(1,), (1,)]
    assert rows(session.execute("SELECT 1 UNION ALL (SELECT 2 EXCEPT SELECT 2)")) == [(1,)]
