"""Issue 8, item 5: no internal errors from client input. What MariaDB rejects gets the code
MariaDB gives (1064, 1054, 1060, 1096, ...), at prepare time as at COM_QUERY time; what MariaDB
answers with a value gets the value; deep nesting is no internal error; and the connection
stays usable afterwards (every case ends with SELECT 1 on the same connection)."""

from __future__ import annotations

import pytest

from tests.compat.conftest import cases, drivers

# name -> (statements after the table exists, what MariaDB answers to the first one)
CASES: dict[str, tuple[list[str], object]] = {
    "syntax-1064": (["SELEC 1"], 1064),
    "unterminated-quote-1064": (["SELECT 'abc"], 1064),
    "incomplete-expression-1064": (["SELECT 1 +"], 1064),
    "order-by-999-1054": (["SELECT a FROM t ORDER BY 999"], 1054),
    "group-by-5-1054": (["SELECT a FROM t GROUP BY 5"], 1054),
    "duplicate-column-1060": (["CREATE TABLE t2 (a INT, a INT)"], 1060),
    "select-star-without-tables-1096": (["SELECT *"], 1096),
    "insert-unknown-column-1054": (["INSERT INTO t (nope) VALUES (1)"], 1054),
    "union-column-count-1222": (["SELECT 1 UNION SELECT 1, 2"], 1222),
    "subquery-returns-2-rows-1242": (["SELECT (SELECT 1 UNION SELECT 2)"], 1242),
    "table-name-too-long-1103": (["CREATE TABLE " + "a" * 65 + " (x INT)"], 1103),
    "column-name-too-long-1059": (["CREATE TABLE t3 (" + "c" * 65 + " INT)"], 1059),
    "unknown-function-1305": (["SELECT nosuchfunc(1)"], 1305),
    "unknown-table-1146": (["SELECT * FROM nosuch"], 1146),
    "column-count-1136": (["INSERT INTO t VALUES (1, 2)"], 1136),
    # answered with a value
    "assign-user-variable": (["SELECT @v := 1", "SELECT @v, @v := @v + 1, @v"], 1),
    "json-extract-malformed-is-null": (["SELECT JSON_EXTRACT('{bad', '$.a')"], None),
    "json-valid-malformed-note": (["SELECT JSON_VALID('{bad')"], 0),
    "sleep-of-a-string-is-0": (["SELECT SLEEP('x')"], 0),
}


@pytest.fixture
def table_t(compat):
    compat.setup("CREATE TABLE t (a INT)", "INSERT INTO t VALUES (1), (2)")
    return compat


def _check(table_t, driver, case):
    statements, expected = CASES[case]
    a = table_t.run(driver, [*statements, "SELECT 1"])
    first = a.maria[0]
    if isinstance(expected, int) and expected >= 1000:
        assert first.code == expected, first.error
    else:
        assert first.error is None and first.rows == ((expected,),), (first.error, first.rows)
    a.assert_same(("rows", "error", "rowcount", "warnings"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
@pytest.mark.parametrize("case", cases(CASES))
def test_query_error_codes(table_t, driver, case):
    """COM_QUERY."""
    _check(table_t, driver, case)


@pytest.mark.parametrize("driver", drivers("connector-prep", "raw-bin"))
@pytest.mark.parametrize("case", cases(CASES))
def test_prepare_error_codes(table_t, driver, case):
    """COM_STMT_PREPARE: errors carry the code COM_QUERY would give."""
    _check(table_t, driver, case)


@pytest.mark.parametrize("driver", drivers("connector-c-prep"))
def test_prepare_syntax_error_through_libmysqlclient(table_t, driver):
    _check(table_t, driver, "syntax-1064")


SYNTAX_MESSAGES = {"selec": "SELEC 1", "unterminated-quote": "SELECT 'abc",
                   "from-without-table": "SELECT 1 FROM", "incomplete-plus": "SELECT 1 +",
                   "form-typo": "SELECT * FORM t"}


@pytest.mark.parametrize("driver", drivers("pymysql", "raw-bin"))
@pytest.mark.parametrize("case", cases(SYNTAX_MESSAGES))
def test_syntax_error_message_quotes_the_rest_of_the_statement(compat, driver, case):
    """1064's text: "... near '<the rest of the statement from the error>' at line N"."""
    a = compat.run(driver, [SYNTAX_MESSAGES[case]])
    assert a.maria[0].code == 1064
    a.assert_same(("error", "message"))


DEEP = {
    "parentheses-100": "SELECT " + "(" * 100 + "1" + ")" * 100,
    "parentheses-1000": "SELECT " + "(" * 1000 + "1" + ")" * 1000,
    "not-200": "SELECT " + "NOT " * 200 + "1",
    "plus-500": "SELECT " + "+".join(["1"] * 500),
    "concat-100": "SELECT " + "CONCAT(" * 100 + "'a'" + ")" * 100,
    "subqueries-30": "SELECT " + "(SELECT " * 30 + "1" + ")" * 30,
    "huge-literal-2mb": "SELECT LENGTH('" + "x" * 2_000_000 + "')",
    "huge-identifier-alias": "SELECT 1 AS `" + "i" * 250 + "`",
}


@pytest.mark.parametrize("driver", drivers("pymysql"))
@pytest.mark.parametrize("case", cases(DEEP))
def test_deep_or_huge_statement(compat, driver, case):
    a = compat.run(driver, [DEEP[case], "SELECT 1"])
    assert a.maria[0].error is None
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("raw-bin"))
@pytest.mark.parametrize("case", cases(["parentheses-1000", "plus-500"]))
def test_deep_statement_prepared(compat, driver, case):
    a = compat.run(driver, [DEEP[case], "SELECT 1"])
    assert a.maria[0].error is None
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_too_long_identifiers_are_cut_in_the_message(table_t, driver):
    """1059 quotes the name as MariaDB's '%-.100T' does (create_utf8): past 100 bytes, cut
    to whole characters and '...'; a trigger's name is checked too, at CREATE and DROP."""
    long_ascii = "c" * 120
    long_utf8 = "отень_" * 8 + "длинная_строка_66"
    table_t.check(driver, [
        "SET NAMES utf8mb4",
        f"CREATE TABLE t3 ({long_ascii} INT)",
        f"CREATE TABLE t3 ({long_utf8} INT)",
        f"CREATE TRIGGER {long_utf8} BEFORE INSERT ON t FOR EACH ROW SET @a := 1",
        f"DROP TRIGGER {long_utf8}",
        f"CREATE PROCEDURE {long_utf8}() BEGIN END",
    ], checks=("error", "message"))
