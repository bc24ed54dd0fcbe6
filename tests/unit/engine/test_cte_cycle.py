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
