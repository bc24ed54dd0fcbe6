"""CREATE TABLE ... SELECT makes a column NOT NULL when MariaDB's item can never be NULL
(nullness.py), and CASE / IF / COALESCE of integers are as long as MariaDB makes them
(expected definitions measured on MariaDB 10.11)."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows

pytestmark = pytest.mark.timeout(60)


def _columns(session: SqliteSession, select: str) -> list[str]:
    session.execute(f"CREATE TABLE r {select}")
    text = str(rows(session.execute("SHOW CREATE TABLE r"))[0][1])
    session.execute("DROP TABLE r")
    return [line.strip().rstrip(",") for line in text.splitlines()[1:-1]]


def test_expressions_that_cannot_be_null_make_not_null_columns(session: SqliteSession) -> None:
    got = _columns(session, "SELECT CASE WHEN 1 THEN 'a' ELSE 1 END AS c3, "
                            "CASE WHEN 1 THEN 1.0 END AS c9, COALESCE(NULL, 2) AS c, "
                            "IF(1, 1.1, 1.2) AS i, 1 / 1 AS d, NULLIF(1, 2) AS n, "
                            "GREATEST(1, 2) AS g, 1 <=> NULL AS e, 1 = NULL AS q")
    assert got == ["`c3` varchar(1) NOT NULL", "`c9` decimal(2,1) DEFAULT NULL",
                   "`c` int(2) NOT NULL", "`i` decimal(2,1) NOT NULL",
                   "`d` decimal(5,4) DEFAULT NULL", "`n` int(1) DEFAULT NULL",
                   "`g` int(2) NOT NULL", "`e` int(1) NOT NULL", "`q` int(1) DEFAULT NULL"]


def test_left_join_makes_a_not_null_column_nullable(session: SqliteSession) -> None:
    session.execute("CREATE TABLE a (x INT NOT NULL)")
    session.execute("CREATE TABLE b (y INT NOT NULL)")
    got = _columns(session, "SELECT x + 1 AS p, y + 1 AS q FROM a LEFT JOIN b ON x = y")
    assert got == ["`p` bigint(12) NOT NULL", "`q` bigint(12) DEFAULT NULL"]


def test_integer_branches_take_a_sign(session: SqliteSession) -> None:
    session.execute("CREATE TABLE c (a INT, b TINYINT UNSIGNED, c BIGINT)")
    got = _columns(session, "SELECT COALESCE(1) AS x, COALESCE(1, 22) AS y, "
                            "COALESCE(-1) AS z, COALESCE(a) AS a, COALESCE(b) AS b, "
                            "COALESCE(a, b) AS d, IF(1, c, a) AS e FROM c")
    assert got == ["`x` int(2) NOT NULL", "`y` int(3) NOT NULL", "`z` int(2) NOT NULL",
                   "`a` int(11) DEFAULT NULL", "`b` tinyint(3) unsigned DEFAULT NULL",
                   "`d` decimal(10,0) DEFAULT NULL", "`e` bigint(20) DEFAULT NULL"]


def test_enum_and_set_members_follow_the_collation_and_sort_by_number(
        session: SqliteSession) -> None:
    session.execute("CREATE TABLE s (s SET('a','A') CHARACTER SET latin1 COLLATE latin1_bin, "
                    "e ENUM('x','b','a'))")
    session.execute("INSERT INTO s VALUES ('A','a'), ('a,A','b'), ('a','x'), ('A,a',NULL)")
    assert rows(session.execute("SELECT s FROM s ORDER BY s")) == [
        ("a",), ("A",), ("a,A",), ("a,A",)]
    assert rows(session.execute("SELECT e, COUNT(*) FROM s GROUP BY e")) == [
        (None, 1), ("x", 1), ("b", 1), ("a", 1)]


def test_duplicate_members_are_1291(session: SqliteSession) -> None:
    from .conftest import fails
    err = fails(session, "CREATE TABLE d (e ENUM('a','A','b'))", 1291)
    assert str(err.message) == "Column 'e' has duplicated value 'a' in ENUM"
    session.execute("CREATE TABLE d (s SET('x','X') COLLATE latin1_bin)")
    many = ",".join(f"'{i}'" for i in range(65))
    fails(session, f"CREATE TABLE m (s SET({many}))", 1097)


def test_aggregates_show_mariadbs_decimals(session: SqliteSession) -> None:
    session.execute("CREATE TABLE g (a INT, f FLOAT(10,2))")
    assert rows(session.execute("SELECT BIT_AND(a), BIT_OR(a), BIT_XOR(a) FROM g")) == [
        (18446744073709551615, 0, 0)]
    session.execute("INSERT INTO g VALUES (1, 1), (2, 1), (3, 1.5)")
    got = rows(session.execute("SELECT STD(a), VARIANCE(a), AVG(f), STD(f), SUM(f) FROM g"))
    assert [tuple(str(v) for v in r) for r in got] == [
        ("0.8165", "0.6667", "1.166667", "0.235702", "3.50")]


def test_string_functions_of_null_and_hybrid_signs(session: SqliteSession) -> None:
    got = _columns(session, "SELECT TRIM('s' FROM NULL) AS a, SUBSTRING_INDEX(NULL, 's', 1) AS b,"
                            " ELT(1, NULL, 'string') AS c, MAKE_SET(3, 'string', NULL) AS d, "
                            "EXPORT_SET(3, NULL, 'off', 'sep') AS e, "
                            "INSERT(NULL, 1, 2, 'str') AS f")
    assert [g.split(" DEFAULT")[0].split(" CHARACTER")[0] for g in got] == [
        "`a` char(0)", "`b` char(0)", "`c` varchar(6)", "`d` varchar(7)", "`e` varchar(381)",
        "`f` varchar(3)"]
    session.execute("CREATE TABLE z (a INT UNSIGNED ZEROFILL, c DECIMAL(1,0) UNSIGNED ZEROFILL)")
    got = _columns(session, "SELECT IFNULL(a, NULL) AS x, IFNULL(a, a) AS y, IFNULL(c, c) AS u, "
                            "IFNULL(c, NULL) AS t FROM z")
    assert got == ["`x` decimal(10,0) DEFAULT NULL", "`y` int(10) unsigned DEFAULT NULL",
                   "`u` decimal(1,0) unsigned DEFAULT NULL", "`t` decimal(1,0) DEFAULT NULL"]


def test_result_columns_say_not_null_as_mariadb(session: SqliteSession) -> None:
    from rampmeter.engine.base import ResultSet
    session.execute("CREATE TABLE f (val BIT(1) NOT NULL, n INT NOT NULL, m INT)")
    result = session.execute("SELECT COALESCE(val, 1), n + 1, m + 1, n / 1, COUNT(*), SUM(n) "
                             "FROM f")
    assert isinstance(result, ResultSet)
    assert [c.flags & 1 for c in result.columns] == [1, 1, 0, 0, 1, 0]
    list(result.rows)


def test_rounding_a_bit_is_an_unsigned_int_of_its_digits(session: SqliteSession) -> None:
    session.execute("CREATE TABLE b (a BIT(7), w BIT(32))")
    got = _columns(session, "SELECT FLOOR(a) AS f, ROUND(a, -1) AS r, CEIL(w) AS c FROM b")
    assert got == ["`f` int(3) unsigned DEFAULT NULL", "`r` int(3) unsigned DEFAULT NULL",
                   "`c` int(10) unsigned DEFAULT NULL"]
