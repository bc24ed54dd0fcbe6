"""Statement forms and session rules MariaDB has and the mtr suite uses (issue 13): statement
modifiers, SQL_CALC_FOUND_ROWS, sql_select_limit, PIPES_AS_CONCAT, database options, DROP of
stored programs, MariaDB's executable comments. Expected answers measured on MariaDB 10.11."""

from __future__ import annotations

from decimal import Decimal

import pytest

from rampmeter.engine.base import ResultSet
from rampmeter.engine.sqlite import SqliteSession

from .conftest import FakeContext, fails, rows, scalar, update


@pytest.fixture
def t(session: SqliteSession) -> SqliteSession:
    session.execute("CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10))")
    session.execute("INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'z')")
    return session


def test_modifiers_mariadb_accepts(t: SqliteSession) -> None:
    fails(t, "INSERT DELAYED INTO t VALUES (4, 'w')", 1616)  # InnoDB has no delayed inserts
    t.execute("CREATE TABLE m (a INT PRIMARY KEY) ENGINE=MyISAM")
    update(t, "INSERT DELAYED INTO m VALUES (4), (4)")  # the duplicate is skipped, silently
    assert scalar(t, "SELECT COUNT(*) FROM m") == 1
    update(t, "INSERT LOW_PRIORITY IGNORE INTO t VALUES (4, 'w')")
    assert rows(t.execute("SELECT SQL_NO_CACHE SQL_BUFFER_RESULT DISTINCTROW b FROM t "
                          "WHERE a < 3 ORDER BY b")) == [("x",), ("y",)]


def test_update_ignore_skips_duplicate_keys(t: SqliteSession) -> None:
    fails(t, "UPDATE t SET a = 2 WHERE a = 1", 1062)
    assert update(t, "UPDATE IGNORE t SET a = 2 WHERE a = 1").affected_rows == 0
    assert scalar(t, "SELECT COUNT(*) FROM t") == 3


def test_sql_calc_found_rows(t: SqliteSession) -> None:
    assert rows(t.execute("SELECT SQL_CALC_FOUND_ROWS a FROM t ORDER BY a LIMIT 1")) == [(1,)]
    assert scalar(t, "SELECT FOUND_ROWS()") == 3


def test_sql_select_limit(t: SqliteSession) -> None:
    ctx = t.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["sql_select_limit"] = 2
    assert len(rows(t.execute("SELECT a FROM t"))) == 2
    assert len(rows(t.execute("SELECT a FROM t LIMIT 3"))) == 3  # its own LIMIT wins


def test_pipes_as_concat(t: SqliteSession) -> None:
    assert scalar(t, "SELECT 'A' || 'B'") == 0
    ctx = t.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["sql_mode"] = "PIPES_AS_CONCAT"
    assert scalar(t, "SELECT 'A' || 'B'") == "AB"


def test_database_options(session: SqliteSession) -> None:
    session.execute("CREATE DATABASE d2 CHARACTER SET latin1")
    assert rows(session.execute("SHOW CREATE DATABASE d2"))[0][1] == (
        "CREATE DATABASE `d2` /*!40100 DEFAULT CHARACTER SET latin1 COLLATE "
        "latin1_swedish_ci */")
    session.execute("CREATE TABLE d2.t (a CHAR(1))")
    assert "DEFAULT CHARSET=latin1" in rows(session.execute("SHOW CREATE TABLE d2.t"))[0][1]
    session.execute("ALTER DATABASE d2 COLLATE latin1_bin")
    assert "latin1_bin" in rows(session.execute("SHOW CREATE DATABASE d2"))[0][1]
    assert update(session, "CREATE OR REPLACE DATABASE d2").affected_rows == 2
    assert session.list_tables("d2") == []
    fails(session, "CREATE OR REPLACE DATABASE IF NOT EXISTS d2", 1221)
    fails(session, "CREATE DATABASE d3 CHARACTER SET latin1 COLLATE utf8mb4_bin", 1253)


def test_drop_of_stored_programs_that_do_not_exist(session: SqliteSession) -> None:
    result = update(session, "DROP PROCEDURE IF EXISTS p1")
    assert [(w.code, w.message) for w in result.warnings] == [
        (1305, "PROCEDURE db.p1 does not exist")]
    fails(session, "DROP FUNCTION f1", 1305)
    fails(session, "DROP TRIGGER tr1", 1360)


def test_drop_table_if_exists_names_every_missing_table_once(session: SqliteSession) -> None:
    result = update(session, "DROP TABLE IF EXISTS t1, t2")
    assert [w.message for w in result.warnings] == ["Unknown table 'db.t1,db.t2'"]


@pytest.mark.parametrize(("sql", "value"), [
    ("SELECT 1 /*M! +1 */", 2), ("SELECT 1 /*M!100000 +1 */", 2),
    ("SELECT 1 /*M!999999 +1 */", 1), ("SELECT 1 /*!999999 +1 */", 1),
])
def test_mariadb_executable_comments(session: SqliteSession, sql: str, value: int) -> None:
    assert scalar(session, sql) == value


def test_a_number_is_no_alias(session: SqliteSession) -> None:
    err = fails(session, "SELECT 1/*!2*/", 1064)
    assert "near '2*/'" in err.message


def test_query_forms(t: SqliteSession) -> None:
    assert rows(t.execute("(SELECT 1) UNION (SELECT 2)")) == [(1,), (2,)]
    assert rows(t.execute("((SELECT 1))")) == [(1,)]
    assert rows(t.execute("(SELECT a FROM t ORDER BY a LIMIT 1) UNION ALL "
                          "(SELECT a FROM t ORDER BY a DESC LIMIT 1)")) == [(1,), (3,)]
    assert rows(t.execute("SELECT ROW(1, 2) = ROW(1, 2), (1, 2) IN ((1, 2), (3, 4))")) == \
        [(1, 1)]
    result = t.execute("VALUES (1, 'a'), (2, 'b')")
    assert [c.name for c in result.columns] == ["1", "a"]
    assert rows(result) == [(1, "a"), (2, "b")]
    assert rows(t.execute("SELECT a AS x FROM t HAVING x > 2")) == [(3,)]


def test_an_aggregate_in_having_or_order_by_makes_an_aggregate_query(t: SqliteSession) -> None:
    # MariaDB: one row, the first row's a (SQLite said 'misuse of aggregate', a 1105)
    assert rows(t.execute("SELECT a FROM t ORDER BY SUM(a)")) == [(1,)]
    assert rows(t.execute("SELECT a AS x FROM t HAVING SUM(a) > 1")) == [(1,)]
    assert rows(t.execute("SELECT a FROM t HAVING SUM(a) > 100")) == []
    assert rows(t.execute("SELECT 1 FROM t ORDER BY STRCMP(STDDEV_SAMP(a), 'x')")) == [(1,)]
    assert rows(t.execute("SELECT d.a FROM (SELECT a FROM t HAVING COUNT(*) = 3) d")) == [(1,)]
    # a window function or a subquery's aggregate does not
    assert rows(t.execute("SELECT a FROM t ORDER BY SUM(a) OVER (), a")) == [(1,), (2,), (3,)]
    assert rows(t.execute("SELECT a FROM t ORDER BY (SELECT MAX(a) FROM t), a")) == \
        [(1,), (2,), (3,)]


def test_a_scalar_subquery_ordered_by_an_outer_column(t: SqliteSession) -> None:
    # more than one row is 1242 (was 1054: SQLite's derived table could not see t2.c)
    t.execute("CREATE TABLE t2 (c INT)")
    t.execute("INSERT INTO t2 VALUES (1), (2)")
    fails(t, "SELECT * FROM t2 WHERE c IN (SELECT (SELECT a FROM t ORDER BY c) FROM t)", 1242)
    assert rows(t.execute("SELECT (SELECT a FROM t WHERE a = c ORDER BY c) FROM t2")) == \
        [(1,), (2,)]
    assert rows(t.execute("SELECT (SELECT a FROM t ORDER BY a DESC LIMIT 1) FROM t2")) == \
        [(3,), (3,)]


def test_an_aggregate_of_outer_columns_in_a_scalar_subquery(t: SqliteSession) -> None:
    # SUM(outer.a) is the outer query's aggregate (mtr func_group; was 1111)
    t.execute("CREATE TABLE t2 (c INT)")
    t.execute("INSERT INTO t2 VALUES (1), (2)")
    assert rows(t.execute("SELECT (SELECT SUM(o.a) FROM t2 WHERE c = 1) FROM t o")) == [(6,)]
    assert rows(t.execute("SELECT (SELECT SUM(o.a) FROM t2 i WHERE i.c = o.a GROUP BY i.c) "
                          "FROM t o, t2 WHERE o.a = t2.c")) == [(3,)]
    fails(t, "SELECT (SELECT SUM(o.a) FROM t2) FROM t o", 1242)  # two rows of t2


def test_the_one_row_check_of_scalar_subqueries(t: SqliteSession) -> None:
    # MariaDB's 1242 counts the rows after OFFSET and LIMIT; DISTINCT and GROUP BY first
    t.execute("CREATE TABLE t2 (c INT)")
    t.execute("INSERT INTO t2 VALUES (1), (2), (2)")
    fails(t, "SELECT (SELECT c FROM t2) FROM t", 1242)
    fails(t, "SELECT (SELECT c FROM t2 LIMIT 1, 5) FROM t", 1242)
    assert rows(t.execute("SELECT (SELECT c FROM t2 LIMIT 2, 1) FROM t WHERE a = 1")) == [(2,)]
    assert rows(t.execute("SELECT (SELECT c FROM t2 LIMIT 5 OFFSET 2) FROM t WHERE a = 1")) \
        == [(2,)]
    assert rows(t.execute("SELECT (SELECT DISTINCT c FROM t2 WHERE c = a) FROM t")) == \
        [(1,), (2,), (None,)]
    assert rows(t.execute("SELECT (SELECT c FROM t2 GROUP BY c HAVING c = a) FROM t")) == \
        [(1,), (2,), (None,)]
    # an aggregate without GROUP BY is one row: nested deeper than SQLite's parser allows
    # once each level was read through two derived tables (mtr subselect_notembedded)
    sql = "SELECT SUM(a) FROM t"
    for _ in range(8):
        sql = f"SELECT SUM(a) FROM t WHERE a > ({sql} GROUP BY b LIMIT 1)"
    assert rows(t.execute(sql)) == [(None,)]


def test_rowid_is_the_integer_key_column(session: SqliteSession) -> None:
    # MariaDB's _rowid (mtr auto_increment): the one-column integer PRIMARY KEY, else the
    # first UNIQUE NOT NULL one; named as typed; unknown when two tables have one
    session.execute("CREATE TABLE k (id INT PRIMARY KEY, v CHAR(3))")
    session.execute("CREATE TABLE u (a INT NOT NULL, b INT, UNIQUE (a))")
    session.execute("INSERT INTO k VALUES (7, 'x')")
    session.execute("INSERT INTO u VALUES (5, 1)")
    result = session.execute("SELECT _rowid, k._rowid, v FROM k WHERE _rowid = 7")
    assert [c.name for c in result.columns] == ["_rowid", "_rowid", "v"]
    assert rows(result) == [(7, 7, "x")]
    assert rows(session.execute("SELECT _rowid + 1 FROM u")) == [(6,)]
    fails(session, "SELECT _rowid FROM k, u", 1054)


def test_nested_rows_are_compared(session: SqliteSession) -> None:
    # MariaDB compares (a, (b, c)) rows; SQLite has flat rows only (mtr win_orderby)
    got = rows(session.execute("SELECT (1, (2, 3)) = (1, (2, 3)), ROW(1, ROW(2, 3)) < "
                               "ROW(1, ROW(2, 4)), (1, (2, NULL)) = (1, (2, 3)), "
                               "(1, (2, 3)) IN ((1, (2, 3)), (2, (3, 4)))"))
    assert got == [(1, 1, None, 1)]
    fails(session, "SELECT (1, (2, 3)) = (1, 2, 3)", 1241)  # shapes differ


def test_insert_of_all_defaults(session: SqliteSession) -> None:
    session.execute("CREATE TABLE d (a INT DEFAULT 7, b VARCHAR(3))")
    update(session, "INSERT INTO d VALUES ()")
    update(session, "INSERT INTO d () VALUES ()")
    assert rows(session.execute("SELECT * FROM d")) == [(7, None), (7, None)]


def test_rollup_total_row_aggregates_every_row_and_is_one_row(session: SqliteSession) -> None:
    # measured on MariaDB 10.11: SUM(a) of the total row sums every a (the key rolls up, not
    # an aggregate's argument); without an aggregate the total is still one row (mtr
    # func_concat); an empty table has no rows at all
    session.execute("CREATE TABLE r0 (a INT, b INT)")
    assert rows(session.execute("SELECT a, COUNT(*) FROM r0 GROUP BY a WITH ROLLUP")) == []
    session.execute("INSERT INTO r0 VALUES (1, 1), (2, 1), (2, 2)")
    assert rows(session.execute("SELECT a, COUNT(*), SUM(a), a + 1 FROM r0 GROUP BY a "
                                "WITH ROLLUP")) == [
        (1, 1, Decimal(1), 2), (2, 2, Decimal(4), 3), (None, 3, Decimal(5), None)]
    assert rows(session.execute("SELECT CONCAT_WS(' ', a, 'x') AS f FROM r0 GROUP BY f "
                                "WITH ROLLUP")) == [("1 x",), ("2 x",), (None,)]


def test_with_rollup(session: SqliteSession) -> None:
    session.execute("CREATE TABLE r (a INT, b INT)")
    session.execute("INSERT INTO r VALUES (1, 2), (3, 4), (1, 5)")
    assert rows(session.execute("SELECT a, SUM(b) FROM r GROUP BY a WITH ROLLUP")) == [
        (1, Decimal(7)), (3, Decimal(4)), (None, Decimal(11))]


def test_a_set_member_with_a_comma_is_1367(session: SqliteSession) -> None:
    """A comma separates a SET value's members, so no member may hold one (mtr sp-bugs)."""
    err = fails(session, "CREATE TABLE s (a SET('a', 'b,c'))", 1367, "22007")
    assert err.message == "Illegal set 'b,c' value found during parsing"
    session.execute("CREATE TABLE s (a SET('a', 'b'), e ENUM('x,y'))")  # an ENUM member may


@pytest.mark.parametrize(("sql", "near"), [
    # a star takes no alias; MariaDB stops at the word after it (mtr alias)
    ("SELECT t.* AS 'x', 1, 2 FROM t", "AS 'x', 1, 2 FROM t"),
    ("INSERT INTO u SELECT t.*, t.* AS 'x', 3 FROM t", "AS 'x', 3 FROM t"),
    # a multi-table DELETE names its tables without aliases, then FROM (mtr alias)
    ("DELETE ZZZ t WHERE 1=1", "t WHERE 1=1"),
    ("DELETE QUICK db.t.* x WHERE 1=1", "x WHERE 1=1"),
])
def test_where_mariadbs_grammar_stops(t: SqliteSession, sql: str, near: str) -> None:
    t.execute("CREATE TABLE u (a INT, b VARCHAR(10), c INT, d INT, e INT)")
    err = fails(t, sql, 1064)
    assert f"near '{near}' at line 1" in err.message


def test_insert_sources(t: SqliteSession) -> None:
    """INSERT ... SELECT of a query in parentheses, of EXCEPT / INTERSECT [ALL] (measured on
    MariaDB 10.11: these rows)."""
    t.execute("CREATE TABLE d (a INT)")
    update(t, "INSERT INTO d (SELECT 7)")
    update(t, "INSERT INTO d ((SELECT 8) UNION (SELECT 9))")
    update(t, "INSERT INTO d (a) (SELECT a FROM t ORDER BY a DESC LIMIT 1)")
    update(t, "INSERT INTO d SELECT a FROM t EXCEPT SELECT 1")
    update(t, "INSERT INTO d SELECT a FROM t INTERSECT SELECT 1")
    update(t, "INSERT INTO d SELECT a FROM t WHERE a < 3 EXCEPT ALL SELECT 2")
    assert rows(t.execute("SELECT a FROM d ORDER BY a")) == [
        (1,), (1,), (2,), (3,), (3,), (7,), (8,), (9,)]


def test_interval_added_to_an_unsigned_operand(session: SqliteSession) -> None:
    """(3 & 20010101) + INTERVAL 2 DAY is DATE_ADD of the BIGINT UNSIGNED 1 (not a date:
    NULL, 1292), not unsigned arithmetic with an interval (mtr func_date_add)."""
    assert scalar(session, "SELECT (3 & 20010101) + INTERVAL 2 DAY") is None
    assert [w.message for w in session.warnings] == ["Incorrect datetime value: '1'"]
    assert scalar(session, "SELECT INTERVAL 1 DAY + (2 | 20010100)") == "2001-01-03"


def test_update_of_a_binary_column_with_a_number(session: SqliteSession) -> None:
    """SET a = 11 is an assignment, not a comparison to read as numbers: it was 1064 for a
    BLOB column (mtr long_unique_update)."""
    session.execute("CREATE TABLE b (a BLOB, k INT PRIMARY KEY)")
    session.execute("INSERT INTO b VALUES (5, 1)")
    assert update(session, "UPDATE b SET a = 11 WHERE a = 5").affected_rows == 1
    update(session, "INSERT INTO b VALUES (1, 1) ON DUPLICATE KEY UPDATE a = 12")
    assert rows(session.execute("SELECT a FROM b")) == [(b"12",)]


def test_delete_order_limit_returning(session: SqliteSession) -> None:
    """RETURNING after ORDER BY / LIMIT, where MariaDB's grammar has it (mtr
    delete_returning)."""
    session.execute("CREATE TABLE d (a INT, b VARCHAR(10))")
    session.execute("INSERT INTO d VALUES (2, 'x'), (1, 'y'), (3, 'z')")
    assert rows(session.execute("DELETE FROM d ORDER BY a LIMIT 1 RETURNING a, UPPER(b)")) == [
        (1, "Y")]
    assert rows(session.execute("DELETE FROM d WHERE a > 0 LIMIT 1 RETURNING a")) == [(2,)]


def test_returning_through_a_view_names_and_computes_as_the_view(session: SqliteSession) -> None:
    """RETURNING through a view: its items are named as written, and `*` is the view's
    columns, with the view's expressions (mtr insert_returning, delete_returning)."""
    session.execute("CREATE TABLE vt (a INT, b VARCHAR(10))")
    session.execute("CREATE VIEW vv AS SELECT a, UPPER(b) FROM vt")
    got = session.execute("INSERT INTO vv (a) VALUES (1) RETURNING a && a, a|a, a AS x")
    assert isinstance(got, ResultSet)
    assert [c.name for c in got.columns] == ["a && a", "a|a", "x"]
    assert rows(got) == [(1, 1, 1)]
    session.execute("INSERT INTO vt VALUES (2, 'bb')")
    got = session.execute("DELETE FROM vv WHERE a = 2 RETURNING *")
    assert isinstance(got, ResultSet)
    assert [c.name for c in got.columns] == ["a", "UPPER(b)"]
    assert rows(got) == [(2, "BB")]


def test_cast_to_a_character_set_with_a_collation(session: SqliteSession) -> None:
    """CAST(x AS CHAR CHARACTER SET cs COLLATE c) was 1064 (mtr ctype_collate); a collation
    of another character set is 1253, as in MariaDB."""
    assert scalar(session, "SELECT CAST('a' AS CHAR(10) CHARACTER SET latin1 COLLATE "
                           "latin1_bin)") == "a"
    assert scalar(session, "SELECT CAST('a' AS CHAR CHARSET latin1 COLLATE DEFAULT)") == "a"
    fails(session, "SELECT CAST('a' AS CHAR CHARSET latin1 COLLATE utf8mb4_bin)", 1253)


def test_odbc_temporal_escapes_keep_a_string_of_another_type(session: SqliteSession) -> None:
    """{d 'x'} / {t 'x'} / {ts 'x'}: the typed literal when x is a value of that type, else
    the string itself, as MariaDB (mtr temporal_literal)."""
    got = rows(session.execute(
        "SELECT {d'2001-01-01'}, {d '2001-01-01 10:10:10'}, {t'10:10:10'}, "
        "{t '2001-01-01 10:10:10'}, {ts'2001-01-01 10:10:10'}, {ts '2001-01-01'}"))
    assert got == [("2001-01-01", "2001-01-01 10:10:10", "10:10:10", "2001-01-01 10:10:10",
                    "2001-01-01 10:10:10", "2001-01-01")]
    session.execute("CREATE TABLE o AS SELECT {d'2001-01-01'} AS a, {d '2001-01-01 10:10:10'} "
                    "AS b")
    assert rows(session.execute("SELECT * FROM o")) == [("2001-01-01", "2001-01-01 10:10:10")]


def test_multi_table_delete_targets_with_stars(session: SqliteSession) -> None:
    """DELETE t1.*, t2.* FROM ...: `t.*` names the table t (mtr delete)."""
    session.execute("CREATE TABLE m1 (a INT PRIMARY KEY)")
    session.execute("CREATE TABLE m2 (a INT PRIMARY KEY)")
    session.execute("INSERT INTO m1 VALUES (1), (2)")
    session.execute("INSERT INTO m2 VALUES (1), (3)")
    assert update(session, "DELETE m1.*, m2.* FROM m1, m2 WHERE m1.a = m2.a").affected_rows == 2
    assert rows(session.execute("SELECT a FROM m1 UNION ALL SELECT a FROM m2")) == [(2,), (3,)]


def test_insert_select_grouped_or_filtered_on_duplicate_key_update(session: SqliteSession
                                                                   ) -> None:
    """INSERT ... SELECT ... GROUP BY | WHERE ... ON DUPLICATE KEY UPDATE was 1064 (mtr
    insert_select): SQLite's upsert wants a WHERE, before the GROUP BY."""
    session.execute("CREATE TABLE k (a INT PRIMARY KEY)")
    session.execute("CREATE TABLE s (a INT)")
    session.execute("INSERT INTO s VALUES (1), (1), (2), (5)")
    session.execute("INSERT INTO k VALUES (1)")
    update(session, "INSERT INTO k SELECT s.a FROM s WHERE s.a < 3 GROUP BY s.a "
                    "ON DUPLICATE KEY UPDATE a = a + 10")
    update(session, "INSERT INTO k SELECT s.a FROM s WHERE s.a > 3 "
                    "ON DUPLICATE KEY UPDATE a = a + 10")
    assert rows(session.execute("SELECT a FROM k ORDER BY a")) == [(2,), (5,), (11,)]


def test_except_all_of_derived_tables(session: SqliteSession) -> None:
    """EXCEPT / INTERSECT ALL whose operands read derived tables was 1235: their width is
    their select list's (mtr except_all)."""
    session.execute("CREATE TABLE x1 (a INT, b INT)")
    session.execute("CREATE TABLE x2 (c INT, d INT)")
    session.execute("INSERT INTO x1 VALUES (1, 1), (1, 1), (2, 2), (3, 3)")
    session.execute("INSERT INTO x2 VALUES (1, 1), (3, 3)")
    assert rows(session.execute(
        "SELECT * FROM (SELECT * FROM x1 EXCEPT ALL SELECT * FROM x2) q1 EXCEPT ALL "
        "SELECT * FROM (SELECT * FROM x2 WHERE c = 3) q2 ORDER BY 1")) == [(1, 1), (2, 2)]
    assert rows(session.execute("SELECT * FROM (SELECT a, b FROM x1) q INTERSECT ALL "
                                "SELECT * FROM x2 ORDER BY 1")) == [(1, 1), (3, 3)]


def test_a_divisor_with_a_bit_operator(session: SqliteSession) -> None:
    """1 / (2 ^ x) was 1064: the divisor's copy in the division-by-zero test kept MariaDB's
    `^`, which SQLite lacks (mtr func_group)."""
    assert scalar(session, "SELECT 6 / (2 ^ 1)") == Decimal("2.0000")
    assert scalar(session, "SELECT 5 MOD (2 & 1)") is None
    assert [w.code for w in session.warnings] == [1365]
    assert scalar(session, "SELECT MIN(12 / '0b11' ^ (RAND() * 0 + 3))") == Decimal("4.0000")


def test_a_column_in_parentheses_is_the_column(t: SqliteSession) -> None:
    # MariaDB: `(a)` is the field a, named a with its table's metadata (mtr parser_stack)
    result = t.execute("SELECT (a), ((t.b)), (a)+1 FROM t WHERE a = 1")
    assert [c.name for c in result.columns] == ["a", "b", "(a)+1"]  # type: ignore[union-attr]
    assert [c.org_table for c in result.columns][:2] == ["t", "t"]  # type: ignore[union-attr]
    result = t.execute("SELECT * FROM (SELECT (a), ((2)) FROM t WHERE a = 1) d")
    assert [c.name for c in result.columns] == ["a", "2"]  # type: ignore[union-attr]


def test_a_subquery_grouped_by_an_outer_column(session: SqliteSession) -> None:
    # MariaDB resolves the names of a subquery's GROUP BY in the outer queries too: one group
    # of the subquery's rows per outer row (mtr subquery_merge)
    session.execute("CREATE TABLE t1 (a INT)")
    session.execute("INSERT INTO t1 VALUES (1), (2), (3)")
    session.execute("CREATE TABLE t2 (b INT)")
    session.execute("INSERT INTO t2 VALUES (1), (2), (5)")
    assert rows(session.execute(
        "SELECT a, (SELECT MAX(b) FROM t2 WHERE b < 3 GROUP BY a) FROM t1 ORDER BY a")) == \
        [(1, 2), (2, 2), (3, 2)]
    assert rows(session.execute(
        "SELECT a, (SELECT MAX(b) FROM t2 WHERE b > 9 GROUP BY t1.a) FROM t1 WHERE a = 1")) == \
        [(1, None)]
    assert rows(session.execute(
        "SELECT a FROM t1 WHERE (SELECT 1 GROUP BY a HAVING a > 1) ORDER BY a")) == [(2,), (3,)]
    # a subquery's own column still groups it
    assert rows(session.execute(
        "SELECT a FROM t1 WHERE a IN (SELECT b FROM t2 GROUP BY b) ORDER BY a")) == [(1,), (2,)]


def test_show_of_an_unknown_name_reports_the_next_tokens_line(session: SqliteSession) -> None:
    # MariaDB's grammar takes SHOW <name> (a plugin's SHOW) and refuses it once it has read
    # the token after the name: the error is at the name, its line that token's (mtr show)
    err = fails(session, "show spatial_ref_sys\n--error X\nshow system_variables", 1064)
    assert err.message.endswith("near 'spatial_ref_sys\n--error X\nshow system_variables' "
                                "at line 2")
    assert fails(session, "show\nstatistics", 1064).message.endswith(
        "near 'statistics' at line 2")
    assert fails(session, "show tables x\n;", 1064).message.endswith("near 'x' at line 1")


def test_show_where_may_read_tables(t: SqliteSession) -> None:
    # SHOW ... WHERE is a condition of the session's: its subqueries read tables (mtr show)
    t.execute("CREATE TABLE names (nm VARCHAR(10))")
    t.execute("INSERT INTO names VALUES ('a'), ('names')")
    assert rows(t.execute("SHOW TABLES WHERE tables_in_db IN (SELECT * FROM "
                          "(SELECT nm FROM db.names GROUP BY nm) dt)")) == [("names",)]
    got = t.execute("SHOW FIELDS FROM t WHERE field IN (SELECT 'a' UNION SELECT 'x\\'y')")
    assert [r[0] for r in rows(got)] == ["a"]
    got = t.execute("SHOW FIELDS FROM t WHERE `Null` = 'no'")  # case-insensitive, as MariaDB
    assert [r[0] for r in rows(got)] == ["a"]
    assert "in 'WHERE'" in fails(t, "SHOW TABLES WHERE foo = 1", 1054).message


def test_in_a_query_in_parentheses_is_an_in_subquery(session: SqliteSession) -> None:
    # MariaDB reads `x IN ((SELECT ...))` as IN of the query in parentheses (mtr show)
    session.execute("CREATE TABLE t1 (id INT)")
    session.execute("INSERT INTO t1 VALUES (1), (2)")
    assert rows(session.execute("SELECT 1 IN ((SELECT id FROM t1)), "
                                "3 IN (((SELECT id FROM t1))), "
                                "2 NOT IN ((SELECT id FROM t1))")) == [(1, 0, 0)]
    fails(session, "SELECT ((SELECT id FROM t1))", 1242)  # still a value where one is wanted
    assert rows(session.execute("SELECT EXISTS((SELECT id FROM t1)), "
                                "NOT EXISTS(((SELECT id FROM t1 WHERE id > 5)))")) == [(1, 1)]


def test_text_with_bytes_that_are_not_utf8_is_read_as_client_bytes(session: SqliteSession
                                                                    ) -> None:
    # CONCAT of text and the bytes of another character set's string: SQLite's text is not
    # UTF-8; the value keeps the bytes as lone surrogates (mtr ctype_dec8)
    ctx = session.context
    assert isinstance(ctx, FakeContext)
    ctx.user_variables["seq"] = b"\xd0"
    assert rows(session.execute("SELECT CONCAT('SET ', @seq, '=1')")) == [("SET \udcd0=1",)]


def test_system_variable_names_as_mariadb_reads_them(session: SqliteSession) -> None:
    """After `@@global.` any word names a variable (1193 when unknown); without a scope a
    reserved word is a syntax error at it; `@@global.x(` is 1193 for an unknown x, a syntax
    error at the word for SUBSTR / SUBSTRING / REPLACE / TRIM (mtr keywords)."""
    for sql, code, near in (("SELECT @@global.replace", 1193, None),
                            ("SELECT @@global.lpad()", 1193, None),
                            ("SELECT @@replace", 1064, "near 'replace' at line 1"),
                            ("SELECT 1, @@char", 1064, "near 'char' at line 1"),
                            ("SELECT @@global.substr()", 1064, "near 'substr()' at line 1"),
                            ("SELECT @@global.sql_mode()", 1064, "near '()' at line 1")):
        e = fails(session, sql, code)
        if near is not None:
            assert str(e).endswith(near)
