"""EXPLAIN in MariaDB's columns (engine/sqlite/explain.py): SQLite's plan said in MariaDB's
access types, what MariaDB decides from the schema and the data alone (No tables used,
system / const tables, Impossible WHERE), EXPLAIN EXTENDED's Note 1003 with MariaDB's text
(sqltext.py). Expected rows measured on MariaDB 10.11."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from rampmeter.engine import types as T
from rampmeter.engine.base import ResultSet
from rampmeter.engine.sqlite import SqliteSession
from rampmeter.engine.sqlite.catalog import ColumnDef
from rampmeter.engine.sqlite.explain import decimal_bytes, part_length
from rampmeter.engine.sqlite.sqltext import expression

from .conftest import rows


def explain(session: SqliteSession, sql: str) -> list[tuple[Any, ...]]:
    return rows(session.execute("EXPLAIN " + sql))


def extended(session: SqliteSession, sql: str) -> tuple[list[tuple[Any, ...]], str]:
    result = session.execute("EXPLAIN EXTENDED " + sql)
    assert isinstance(result, ResultSet)
    got = [tuple(r) for r in result.rows]
    notes = [w.message for w in result.warnings if w.code == 1003]
    assert len(notes) == 1
    return got, notes[0]


@pytest.mark.parametrize(("spelling", "nullable", "length"), [
    ("int", True, 5), ("int", False, 4), ("bigint", False, 8), ("tinyint", True, 2),
    ("varchar(10)", True, 13), ("char(3)", False, 3), ("date", True, 4),
    ("datetime(6)", False, 8), ("decimal(10,2)", False, 5),
    ("varchar(10) character set utf8mb4", False, 42),
])
def test_key_part_lengths_are_mariadbs(spelling: str, nullable: bool, length: int) -> None:
    t = T.parse_type(spelling, "latin1")
    assert part_length(ColumnDef("c", t, nullable=nullable)) == length


def test_decimal_bytes() -> None:
    assert decimal_bytes(10, 2) == 5
    assert decimal_bytes(65, 30) == 30


def test_no_tables_and_constant_where(session: SqliteSession) -> None:
    assert explain(session, "SELECT 1") == [
        (1, "SIMPLE", None, None, None, None, None, None, None, "No tables used")]
    assert explain(session, "SELECT 1 FROM dual WHERE 0")[0][-1] == "Impossible WHERE"
    got, note = extended(session, "SELECT 1+1, 8%5, -(1+1)*-2, @v")
    assert got == [(1, "SIMPLE", None, None, None, None, None, None, None, None,
                     "No tables used")]
    assert note == ("select 1 + 1 AS `1+1`,8 MOD 5 AS `8%5`,-(1 + 1) * -2 AS `-(1+1)*-2`,"
                    "@`v` AS `@v`")


def test_select_into_variables_is_explained_as_the_select(session: SqliteSession) -> None:
    assert explain(session, "SELECT 3 INTO @v")[0][-1] == "No tables used"
    session.execute("CREATE TABLE t (a INT)")
    session.execute("INSERT INTO t VALUES (1), (2)")
    assert explain(session, "SELECT a INTO @x FROM t WHERE a = 1") == [
        (1, "SIMPLE", "t", "ALL", None, None, None, None, "2", "Using where")]


def test_scans_and_index_lookups(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a INT, b VARCHAR(10), d BIGINT NOT NULL, e DATETIME, "
                    "PRIMARY KEY (d), KEY (a)) ENGINE=MyISAM")
    session.execute("INSERT INTO t VALUES (1,'x',1,NULL),(2,'y',2,NULL),(2,'z',3,NULL)")
    row = (1, "SIMPLE", "t")
    assert explain(session, "SELECT * FROM t") == [
        (*row, "ALL", None, None, None, None, "3", "")]
    assert explain(session, "SELECT * FROM t WHERE e IS NULL") == [
        (*row, "ALL", None, None, None, None, "3", "Using where")]
    assert explain(session, "SELECT * FROM t WHERE d = 2") == [
        (*row, "const", "PRIMARY", "PRIMARY", "8", "const", "1", "")]
    assert explain(session, "SELECT a FROM t WHERE a = 2") == [
        (*row, "ref", "a", "a", "5", "const", "2", "Using index")]
    assert explain(session, "SELECT a FROM t") == [
        (*row, "index", None, "a", "5", None, "3", "Using index")]
    assert explain(session, "SELECT * FROM t ORDER BY e") == [
        (*row, "ALL", None, None, None, None, "3", "Using filesort")]
    assert explain(session, "SELECT DISTINCT e FROM t")[0][-1] == "Using temporary"
    # a const lookup that finds no row: MariaDB reads const tables before planning
    assert explain(session, "SELECT * FROM t WHERE d = 7") == [
        (1, "SIMPLE", None, None, None, None, None, None, None,
         "Impossible WHERE noticed after reading const tables")]
    # LIMIT 0: no table is read at all, const ones neither (mtr limit)
    assert explain(session, "SELECT * FROM t WHERE d = 7 LIMIT 0") == [
        (1, "SIMPLE", None, None, None, None, None, None, None, "Zero limit")]


def test_explain_partitions_has_the_column(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a INT)")
    session.execute("INSERT INTO t VALUES (1), (2)")
    result = session.execute("EXPLAIN PARTITIONS SELECT * FROM t")
    assert isinstance(result, ResultSet)
    assert [c.name for c in result.columns][2:5] == ["table", "partitions", "type"]
    assert rows(result) == [(1, "SIMPLE", "t", None, "ALL", None, None, None, None, "2", "")]


def test_system_tables_of_exact_count_engines(session: SqliteSession) -> None:
    session.execute("CREATE TABLE one (a INT, s VARCHAR(5)) ENGINE=MyISAM")
    session.execute("CREATE TABLE none (a INT) ENGINE=MyISAM")
    session.execute("CREATE TABLE inno (a INT) ENGINE=InnoDB")
    session.execute("INSERT INTO one VALUES (5, 'x')")
    session.execute("INSERT INTO inno VALUES (5)")
    assert explain(session, "SELECT * FROM one") == [
        (1, "SIMPLE", "one", "system", None, None, None, None, "1", "")]
    assert explain(session, "SELECT * FROM none")[0][3:] == (
        "system", None, None, None, None, "0", "Const row not found")
    assert explain(session, "SELECT * FROM inno")[0][3] == "ALL"  # its count is an estimate
    assert explain(session, "SELECT * FROM one WHERE a = 6")[0][-1] == \
        "Impossible WHERE noticed after reading const tables"
    got, note = extended(session, "SELECT a + 1, s FROM one WHERE s = 'x'")
    assert got[0][3] == "system" and got[0][9] == Decimal("100.00")
    assert note == "select 5 + 1 AS `a + 1`,'x' AS `s` from dual where 1"


def test_joins_subqueries_and_unions(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (a INT, b INT)")
    session.execute("CREATE TABLE t2 (id INT AUTO_INCREMENT PRIMARY KEY, v INT)")
    session.execute("INSERT INTO t1 VALUES (1, 1), (2, 2)")
    session.execute("INSERT INTO t2 (v) VALUES (1), (2), (3)")
    # t1.a may be NULL: MariaDB tests `t1.a IS NOT NULL` on t1 before the lookup
    assert explain(session, "SELECT * FROM t1 JOIN t2 ON t2.id = t1.a") == [
        (1, "SIMPLE", "t1", "ALL", None, None, None, None, "2", "Using where"),
        (1, "SIMPLE", "t2", "eq_ref", "PRIMARY", "PRIMARY", "4", "db.t1.a", "1", "")]
    got = explain(session, "SELECT a, (SELECT max(v) FROM t2 WHERE t2.v = t1.b) FROM t1")
    assert [r[:4] for r in got] == [(1, "PRIMARY", "t1", "ALL"),
                                    (2, "DEPENDENT SUBQUERY", "t2", "ALL")]
    got = explain(session, "SELECT a FROM t1 UNION SELECT v FROM t2")
    assert [r[:3] for r in got] == [(1, "PRIMARY", "t1"), (2, "UNION", "t2"),
                                    (None, "UNION RESULT", "<union1,2>")]


def test_extended_note_prints_the_query_as_mariadb(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a INT, b VARCHAR(5))")
    session.execute("INSERT INTO t VALUES (1, 'x'), (2, 'y')")
    got, note = extended(session, "SELECT a, NOT a, NOT (a > 1) FROM t WHERE b = 'x' "
                         "AND NOT (a < 1 OR a > 5)")
    assert got[0][3] == "ALL" and got[0][-1] == "Using where"
    assert note == ("select `db`.`t`.`a` AS `a`,`db`.`t`.`a` = 0 AS `NOT a`,"
                    "`db`.`t`.`a` <= 1 AS `NOT (a > 1)` from `db`.`t` where "
                    "`db`.`t`.`b` = 'x' and `db`.`t`.`a` >= 1 and `db`.`t`.`a` <= 5")


@pytest.mark.parametrize(("text", "printed"), [
    ("NOT a > 1", "`a` <= 1"),
    ("NOT NOT a", "`a` <> 0"),
    ("NOT (NOT a > 1)", "`a` > 1"),
    ("NOT (a + 0)", "!(`a` + 0)"),
    ("NOT (a IS NULL)", "`a` is not null"),
    ("NOT (a NOT IN (1,2))", "`a` in (1,2)"),
    ("a IN (3)", "`a` = 3"),
    ("NOT (NOT a XOR a)", "`a` xor `a`"),
    ("timestampdiff(microsecond, '2000-01-01', '2001-01-01')",
     "timestampdiff(MICROSECOND,'2000-01-01','2001-01-01')"),
    ("cast(2 as integer)", "cast(2 as signed)"),
    ("weight_string('a')", "weight_string('a',0,0,1)"),
    ("weight_string('a' as binary(4))", "weight_string(cast('a' as char(4) charset binary),0,4,65)"),
    ("binary 'a'", "cast('a' as char charset binary)"),
    ("cast(1 as decimal)", "cast(1 as decimal(10,0))"),
    ("cast('a' as char(3) character set latin1)", "cast('a' as char(3) charset latin1)"),
    ("cast('2001-01-01' as datetime(3))", "cast('2001-01-01' as datetime(3))"),
])
def test_printer_turns_negations_over_as_mariadbs_parser(text: str, printed: str) -> None:
    assert expression(text) == printed


def test_writes_and_set_operations(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a INT PRIMARY KEY, b INT) ENGINE=MyISAM")
    session.execute("INSERT INTO t VALUES (1, 1), (2, 2), (3, 3)")
    assert explain(session, "INSERT INTO t VALUES (10, 1)") == [
        (1, "INSERT", "t", "ALL", None, None, None, None, None, None)]
    assert explain(session, "REPLACE INTO t VALUES (1, 1)")[0][1] == "INSERT"
    assert explain(session, "UPDATE t SET b = 1 WHERE a = 1") == [
        (1, "SIMPLE", "t", "range", "PRIMARY", "PRIMARY", "4", None, "1", "Using where")]
    assert explain(session, "DELETE FROM t") == [
        (1, "SIMPLE", None, None, None, None, None, None, "3", "Deleting all rows")]
    got = explain(session, "SELECT a FROM t EXCEPT SELECT b FROM t")
    assert [r[:3] for r in got] == [(1, "PRIMARY", "t"), (2, "EXCEPT", "t"),
                                    (None, "EXCEPT RESULT", "<except1,2>")]
    got = explain(session, "SELECT a FROM t UNION ALL SELECT b FROM t")
    assert [r[1] for r in got] == ["PRIMARY", "UNION"]  # UNION ALL: no result table


def test_constant_conditions_and_subqueries(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a INT, b INT) ENGINE=MyISAM")
    session.execute("CREATE TABLE u (c INT) ENGINE=MyISAM")
    session.execute("INSERT INTO t VALUES (1, 1), (2, 2)")
    session.execute("INSERT INTO u VALUES (7)")
    assert explain(session, "SELECT a FROM t GROUP BY a HAVING 1 != 1 AND a > 1")[0][-1] == \
        "Impossible HAVING"
    assert explain(session, "SELECT 0 AS x, a FROM t GROUP BY x, a HAVING x = 1")[0][-1] == \
        "Impossible HAVING"
    got = explain(session, "SELECT * FROM t WHERE 3 IN (SELECT 1+1 UNION SELECT 1)")
    assert [(r[0], r[1], r[-1]) for r in got] == [
        (1, "PRIMARY", "Impossible WHERE"), (2, "SUBQUERY", "No tables used"),
        (3, "UNION", "No tables used"), (None, "UNION RESULT", "")]
    # a list subquery SQLite reads once is MariaDB's MATERIALIZED; a one-row MyISAM table
    # among several is a system table, listed first
    got = explain(session, "SELECT a, a IN (SELECT b FROM t) FROM t")
    assert [r[1] for r in got] == ["PRIMARY", "MATERIALIZED"]
    got = explain(session, "SELECT * FROM t, u WHERE t.a = u.c")
    assert [(r[2], r[3]) for r in got] == [("u", "system"), ("t", "ALL")]


def test_text_keys_are_checked_again(session: SqliteSession) -> None:
    # measured: an equality on a _ci text key part leaves a condition; IS NULL on a
    # unique key is a ref (NULLs repeat)
    session.execute("CREATE TABLE t (s VARCHAR(5), n INT, v INT, UNIQUE KEY (n), KEY (s))")
    session.execute("INSERT INTO t VALUES ('a', 1, 1), ('b', NULL, 2), ('c', NULL, 3)")
    assert explain(session, "SELECT * FROM t WHERE s = 'a'")[0][3:] == (
        "ref", "s", "s", "23", "const", "1", "Using index condition")
    assert explain(session, "SELECT s FROM t WHERE s = 'a'")[0][-1] == \
        "Using where; Using index"
    assert explain(session, "SELECT * FROM t WHERE n IS NULL")[0][3:8] == (
        "ref", "n", "n", "5", "const")


def test_multi_index_or(session: SqliteSession) -> None:
    # SQLite's MULTI-INDEX OR: over one index MariaDB's range, over two its index_merge
    session.execute("CREATE TABLE t (a INT, b INT, c INT, PRIMARY KEY (a, b), KEY (b)) "
                    "ENGINE=Aria")
    session.execute("INSERT INTO t VALUES (1,1,1),(2,2,2),(3,3,3),(4,5,6)")
    assert explain(session, "SELECT * FROM t WHERE a = 1 OR b = 3") == [
        (1, "SIMPLE", "t", "index_merge", "PRIMARY,b", "PRIMARY,b", "4,4", None, "2",
         "Using sort_union(PRIMARY,b); Using where")]
    # (MariaDB's key_len here is 8: its range uses b in the second branch; SQLite does not)
    assert explain(session, "SELECT count(*) FROM t WHERE a BETWEEN 1 AND 2 OR "
                   "(a BETWEEN 2 AND 3 AND b BETWEEN 4 AND 9)") == [
        (1, "SIMPLE", "t", "range", "PRIMARY,b", "PRIMARY", "4", None, "2",
         "Using where; Using index")]


def test_correlated_subquery_reads_its_own_where(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (b INT, c INT)")
    session.execute("CREATE TABLE t2 (a INT)")
    session.execute("INSERT INTO t1 VALUES (1, 1), (2, 2), (3, 3)")
    session.execute("INSERT INTO t2 VALUES (1), (2)")
    got, note = extended(session, "SELECT a, (SELECT count(*) FROM t1 WHERE t1.b = t2.a) "
                         "AS x FROM t2 ORDER BY a")
    assert [(r[1], r[2], r[-1]) for r in got] == [
        ("PRIMARY", "t2", "Using filesort"), ("DEPENDENT SUBQUERY", "t1", "Using where")]
    assert note == ("select `db`.`t2`.`a` AS `a`,(select count(0) from `db`.`t1` where "
                    "`db`.`t1`.`b` = `db`.`t2`.`a`) AS `x` from `db`.`t2` order by "
                    "`db`.`t2`.`a`")


def test_tables_optimized_away_views_and_derived(session: SqliteSession) -> None:
    session.execute("CREATE TABLE m (a INT, b INT, KEY (a)) ENGINE=MyISAM")
    session.execute("CREATE TABLE i (a INT, KEY (a)) ENGINE=InnoDB")
    session.execute("INSERT INTO m VALUES (1, 1), (2, 2)")
    session.execute("INSERT INTO i VALUES (1), (2)")
    away = (1, "SIMPLE", None, None, None, None, None, None, None,
            "Select tables optimized away")
    # measured: COUNT(*) of an exact count, MIN / MAX of an index's first column
    assert explain(session, "SELECT count(*), max(a) FROM m") == [away]
    assert explain(session, "SELECT min(a) + 1 FROM i") == [away]
    assert explain(session, "SELECT count(*) FROM i")[0][3] != "Select tables optimized away"
    assert explain(session, "SELECT max(b) FROM m")[0][3] == "ALL"
    assert explain(session, "SELECT count(b) FROM m")[0][3] == "ALL"  # b may be NULL
    # a view's query is merged: its table is shown
    session.execute("CREATE VIEW v AS SELECT a, b FROM m WHERE a > 0")
    assert [r[2:4] for r in explain(session, "SELECT * FROM v WHERE b = 1")] == [("m", "range")]
    # a derived table's rows: its query's
    got = explain(session, "SELECT * FROM (SELECT DISTINCT x.b FROM m x, m y) d")
    assert got[0][1:3] == ("PRIMARY", "<derived2>") and got[0][8] == "4"


def test_window_functions_show_the_selects_own_tables(session: SqliteSession) -> None:
    # measured: MariaDB computes window functions in a temporary table of the select; the
    # subquery rampmeter adds for them is not shown
    session.execute("CREATE TABLE t (pk INT PRIMARY KEY, a INT, b INT) ENGINE=MyISAM")
    session.execute("INSERT INTO t VALUES (1, 1, 1), (2, 2, 2)")
    assert explain(session, "SELECT pk, a, b, ntile((SELECT a FROM t WHERE pk = 1)) OVER "
                   "(ORDER BY b) FROM t") == [
        (1, "PRIMARY", "t", "ALL", None, None, None, None, "2", "Using temporary"),
        (2, "SUBQUERY", "t", "const", "PRIMARY", "PRIMARY", "4", "const", "1", "")]
    assert explain(session, "SELECT pk, row_number() OVER (ORDER BY b) FROM t "
                   "ORDER BY pk DESC")[0][-1] == "Using temporary; Using filesort"


def test_multi_table_writes_explain_their_join(session: SqliteSession) -> None:
    # measured: MariaDB's rows for a multi-table UPDATE / DELETE are the join's, SIMPLE
    session.execute("CREATE TABLE t1 (a INT)")
    session.execute("CREATE TABLE t2 (a INT)")
    session.execute("INSERT INTO t1 VALUES (1), (2), (3)")
    session.execute("INSERT INTO t2 VALUES (1), (2)")
    for sql in ("UPDATE t1, t2 SET t1.a = t1.a + 1 WHERE t1.a = t2.a",
                "DELETE t1 FROM t1, t2 WHERE t1.a = t2.a",
                "DELETE FROM t1 USING t1, t2 WHERE t1.a = t2.a"):
        got = explain(session, sql)
        assert sorted((r[1], r[2], r[3]) for r in got) == [
            ("SIMPLE", "t1", "ALL"), ("SIMPLE", "t2", "ALL")], sql
        assert [r[-1] for r in got] == ["", "Using where"], sql


def test_a_binary_key_compared_with_a_constant_keeps_its_test(session: SqliteSession) -> None:
    """MariaDB's test_if_ref keeps a CHAR / VARCHAR field's equality with a constant, binary
    ones too: `Using where` beside the lookup (mtr binary)."""
    session.execute("CREATE TABLE bk (a BINARY(4) NOT NULL, KEY idx (a))")
    session.execute("INSERT INTO bk VALUES (0x01020304), (0x01020305)")
    assert explain(session, "SELECT HEX(a) FROM bk WHERE a = UNHEX('01020304')") == [
        (1, "SIMPLE", "bk", "ref", "idx", "idx", "4", "const", "1",
         "Using where; Using index")]


def test_join_buffers_and_not_null_tests(session: SqliteSession) -> None:
    # measured on MariaDB 10.11 (join_cache_level=2): a scanned table after the first is
    # joined through a buffer, flat after a table that did not buffer, else incremental
    session.execute("CREATE TABLE a1 (x INT, y INT)")
    session.execute("CREATE TABLE a2 (x INT, y INT)")
    session.execute("CREATE TABLE a3 (x INT, y INT)")
    session.execute("INSERT INTO a1 VALUES (1, 1), (2, 2), (3, 3)")
    session.execute("INSERT INTO a2 VALUES (1, 1), (2, 2), (3, 3), (4, 4)")
    session.execute("INSERT INTO a3 VALUES (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)")
    got = explain(session, "SELECT * FROM a1, a2, a3 WHERE a1.x = a2.x AND a2.y = a3.y")
    assert [r[-1] for r in got] == [
        "", "Using where; Using join buffer (flat, BNL join)",
        "Using where; Using join buffer (incremental, BNL join)"]
    got = explain(session, "SELECT * FROM a1 JOIN a2 ON a1.x = a2.x ORDER BY a2.y LIMIT 2")
    assert [r[-1] for r in got] == ["Using temporary; Using filesort",
                                    "Using where; Using join buffer (flat, BNL join)"]
    # the join of a multi-table UPDATE is read without buffers
    assert [r[-1] for r in explain(session, "UPDATE a1, a2 SET a1.y = 1 WHERE a1.x = a2.x")] \
        == ["", "Using where"]
    session.context.variables["join_cache_level"] = 1   # (always flat)
    got = explain(session, "SELECT * FROM a1, a2, a3 WHERE a1.x = a2.x AND a2.y = a3.y")
    assert got[2][-1] == "Using where; Using join buffer (flat, BNL join)"
    session.context.variables["optimizer_switch"] = "outer_join_with_cache=off"
    got = explain(session, "SELECT * FROM a1 LEFT JOIN a2 ON a1.x = a2.x")
    assert got[1][-1] == "Using where"
    # a key lookup by a NULL-able column: MariaDB tests it IS NOT NULL first, on that
    # column's table in an inner join, on the looked-up table in an outer join
    session.execute("CREATE TABLE t4 (a INT PRIMARY KEY, b INT)")
    session.execute("INSERT INTO t4 VALUES (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)")
    got = explain(session, "SELECT a1.x, t4.b FROM a1 STRAIGHT_JOIN t4 ON t4.a = a1.x")
    assert [(r[3], r[-1]) for r in got] == [("ALL", "Using where"), ("eq_ref", "")]
    got = explain(session, "SELECT a1.x, t4.b FROM a1 LEFT JOIN t4 ON t4.a = a1.x")
    assert [(r[3], r[-1]) for r in got] == [("ALL", ""), ("eq_ref", "Using where")]


def test_table_elimination_off_and_covering_scans(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (a INT)")
    session.execute("INSERT INTO t1 VALUES (0), (1), (2), (3)")
    session.execute("CREATE TABLE t2 (a INT PRIMARY KEY, b INT)")
    session.execute("INSERT INTO t2 VALUES (1, 1), (2, 2)")
    sql = "SELECT t1.a FROM t1 LEFT JOIN t2 ON t2.a = t1.a"
    assert len(explain(session, sql)) == 1  # eliminated: nothing reads t2
    session.context.variables["optimizer_switch"] = "table_elimination=off"
    assert explain(session, sql)[1] == (1, "SIMPLE", "t2", "eq_ref", "PRIMARY", "PRIMARY", "4",
                                        "db.t1.a", "1", "Using where; Using index")
    # a scan of a table whose columns one key holds reads that key (the shortest one)
    session.execute("CREATE TABLE c1 (pk INT PRIMARY KEY) ENGINE=MyISAM")
    session.execute("INSERT INTO c1 VALUES (1), (2)")
    assert explain(session, "SELECT * FROM c1 ORDER BY 'foo', CONVERT(pk, CHAR(0)) LIMIT 2") \
        == [(1, "SIMPLE", "c1", "index", None, "PRIMARY", "4", None, "2",
             "Using index; Using filesort")]
    session.execute("CREATE TABLE c2 (a INT, b INT, c VARCHAR(10), KEY (a, b), KEY (b)) "
                    "ENGINE=InnoDB")
    session.execute("INSERT INTO c2 VALUES (1, 1, 'a'), (2, 2, 'b')")
    assert explain(session, "SELECT b FROM c2")[0][3:] == \
        ("index", None, "b", "5", None, "2", "Using index")
    assert explain(session, "SELECT a FROM c2")[0][3:] == \
        ("index", None, "a", "10", None, "2", "Using index")


def test_window_functions_and_empty_const_tables(session: SqliteSession) -> None:
    session.execute("CREATE TABLE w1 (id INT, v INT) ENGINE=MyISAM")
    session.execute("INSERT INTO w1 VALUES (1, 1), (2, 2), (3, 3)")
    assert explain(session, "SELECT id, lead(id) OVER (ORDER BY id) FROM w1")[0][-1] == \
        "Using temporary"
    got = explain(session, "SELECT * FROM (SELECT id, lead(id) OVER (ORDER BY id) n FROM w1 "
                  "ORDER BY id) a")
    assert got[1][-1] == "Using temporary; Using filesort"
    # an empty MyISAM table: the inner table of an outer join is a const table without
    # its row; in an inner join no row can come out
    session.execute("CREATE TABLE e2 (c INT) ENGINE=MyISAM")
    got, _note = extended(session, "SELECT v FROM w1 LEFT JOIN e2 ON e2.c = id "
                                   "WHERE id IS NULL ORDER BY v")
    assert got == [
        (1, "SIMPLE", "e2", "system", None, None, None, None, "0", Decimal("0.00"),
         "Const row not found"),
        (1, "SIMPLE", "w1", "ALL", None, None, None, None, "3", Decimal("100.00"),
         "Using where; Using filesort")]
    assert explain(session, "SELECT v FROM w1 JOIN e2 ON e2.c = id")[0][-1] == \
        "Impossible WHERE noticed after reading const tables"


def test_an_empty_outer_joined_table_leaves_note_1003(session: SqliteSession) -> None:
    session.execute("CREATE TABLE e1 (a INT, b INT) ENGINE=MyISAM")
    session.execute("INSERT INTO e1 VALUES (1, 1), (2, 2)")
    session.execute("CREATE TABLE e2 (c INT) ENGINE=MyISAM")
    _got, note = extended(session, "SELECT b, e2.c FROM e1 LEFT JOIN e2 ON e2.c = a")
    assert note == "select `db`.`e1`.`b` AS `b`,NULL AS `c` from `db`.`e1`"


def test_keyread_is_mariadbs_and_select_options_are_read(session: SqliteSession) -> None:
    # SQLite's secondary index holds the rowid (here the primary key): MariaDB's (MyISAM)
    # does not, so reading the key's column with the primary key's is a table scan
    session.execute("CREATE TABLE f1 (id SMALLINT UNSIGNED NOT NULL AUTO_INCREMENT, "
                    "kid SMALLINT UNSIGNED NOT NULL DEFAULT 0, PRIMARY KEY (id), KEY (kid)) "
                    "ENGINE=MyISAM")
    session.execute("CREATE TABLE f2 (id SMALLINT UNSIGNED NOT NULL AUTO_INCREMENT, "
                    "email VARCHAR(50) NOT NULL DEFAULT '', PRIMARY KEY (id), "
                    "UNIQUE KEY e (email)) ENGINE=MyISAM")
    session.execute("INSERT INTO f2 (email) VALUES ('b'), ('d')")
    assert explain(session, "SELECT email, id FROM f2 ORDER BY email")[0][3:] == \
        ("ALL", None, None, None, None, "2", "Using filesort")
    # (measured) SQL_CALC_FOUND_ROWS does not hide the query: f1 is empty, const
    got = explain(session, "SELECT SQL_CALC_FOUND_ROWS DISTINCT email FROM f2 LEFT JOIN f1 "
                  "ON kid = f2.id WHERE f1.id IS NULL LIMIT 10")
    assert got == [
        (1, "SIMPLE", "f1", "system", "PRIMARY,kid", None, None, None, "0",
         "Const row not found; Using temporary"),
        (1, "SIMPLE", "f2", "ALL", None, None, None, None, "2", "")]


def test_is_null_of_a_not_null_column_in_a_join(session: SqliteSession) -> None:
    # MariaDB folds ISNULL(col) of a NOT NULL column to 0, in a join too (not for an outer
    # join's inner table, whose columns the join makes NULL)
    session.execute("CREATE TABLE t1 (a BIGINT UNSIGNED)")
    session.execute("CREATE TABLE t2 (a BIGINT UNSIGNED NOT NULL PRIMARY KEY, d INT)")
    session.execute("INSERT INTO t1 VALUES (1), (2)")
    session.execute("INSERT INTO t2 VALUES (1, 1), (4, 4)")
    assert explain(session, "SELECT * FROM t1, t2 WHERE t1.a = t2.a AND isnull(t2.a) = 1") \
        == [(1, "SIMPLE", None, None, None, None, None, None, None, "Impossible WHERE")]
    got = explain(session, "SELECT * FROM t1 LEFT JOIN t2 ON t1.a = t2.a WHERE isnull(t2.a)")
    assert [r[2] for r in got] == ["t1", "t2"]


def test_min_max_answered_from_keys(session: SqliteSession) -> None:
    # measured (func_group): MIN / MAX by a key, over a join too, before reading rows
    session.execute("CREATE TABLE t1 (a1 INT, a2 CHAR(3), KEY k1 (a1), KEY k2 (a2))")
    session.execute("CREATE TABLE t2 (a1 CHAR(3), a2 INT, a3 REAL, KEY k1 (a1), "
                    "KEY k2 (a2, a1))")
    session.execute("INSERT INTO t1 VALUES (10, 'aaa'), (11, 'bbb')")
    away = [(1, "SIMPLE", None, None, None, None, None, None, None,
             "Select tables optimized away")]
    assert explain(session, "SELECT min(a2) FROM t1") == away
    assert explain(session, "SELECT max(t1.a1), max(t2.a2) FROM t1, t2")[0][-1] == \
        "No matching min/max row"
    session.execute("INSERT INTO t2 VALUES ('AAA', 10, 0.5), ('BBB', 20, 1.0)")
    assert explain(session, "SELECT max(t1.a1), max(t2.a2) FROM t1, t2") == away
    assert explain(session, "SELECT min(a1) FROM t2 WHERE a2 = 10") == away
    assert explain(session, "SELECT min(a1) FROM t2 WHERE a2 IS NULL")[0][-1] == \
        "No matching min/max row"
    # a condition on another column, or a string longer than the column: rows are read
    assert explain(session, "SELECT min(a1) FROM t2 WHERE a3 = 1")[0][2] == "t2"
    assert explain(session, "SELECT max(a2) FROM t1 WHERE a2 = 'abcd'")[0][2] == "t1"
    # constant propagation: a = 2 makes a IS NULL false
    assert explain(session, "SELECT * FROM t2 WHERE a3 = 2 AND a3 IS NULL")[0][-1] == \
        "Impossible WHERE"


def test_fulltext_access(session: SqliteSession) -> None:
    # measured (fulltext, fulltext_order_by): MATCH ... AGAINST of a FULLTEXT key
    session.execute("CREATE TABLE t1 (a VARCHAR(200), b TEXT, m VARCHAR(20), "
                    "FULLTEXT (a, b), KEY (m)) ENGINE=MyISAM")
    session.execute("INSERT INTO t1 VALUES ('MySQL has now support', 'for full-text', 'x')")
    row = (1, "SIMPLE", "t1", "fulltext", "a", "a", "0", "", "1", "Using where")
    assert explain(session, "SELECT * FROM t1 WHERE MATCH (a, b) AGAINST ('support')") == [row]
    assert explain(session, "SELECT * FROM t1 WHERE 1 <= MATCH (a, b) AGAINST ('x')") == [row]
    assert explain(session, "SELECT * FROM t1 WHERE MATCH (a, b) AGAINST ('x') >= 0")[0][3] \
        == "ALL"
    assert explain(session, "SELECT m FROM t1 WHERE MATCH (a, b) AGAINST ('x') "
                   "ORDER BY m")[0][-1] == "Using where; Using filesort"
