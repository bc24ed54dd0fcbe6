"""CREATE TABLE ... SELECT types a string column with MariaDB's length for it (strlen.py): a
literal's own length, string functions' lengths from their arguments, a UNION's longest
branch. Each expectation was measured on MariaDB 10.11 with SHOW CREATE TABLE."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows, update


def _columns(session: SqliteSession, table: str) -> list[str]:
    text = str(rows(session.execute(f"SHOW CREATE TABLE {table}"))[0][1])
    return [line.strip().rstrip(",") for line in text.splitlines()[1:-1]]


def test_string_functions_have_mariadbs_lengths(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (a varchar(5), b char(3) NOT NULL, n int, "
                    "d decimal(5,2), bb varbinary(6)) CHARSET latin1")
    update(session, "CREATE TABLE t2 CHARSET latin1 SELECT concat(a, b) c1, "
                    "concat_ws(',', a, b, a) c2, upper(a) c3, repeat(a, 3) c4, left(a, 2) c5, "
                    "right(a, 9) c6, substring(a, 2) c7, substring(a, 2, 2) c8, "
                    "substring(a, -2) c9, lpad(a, 7, 'x') c10, reverse(b) c11, "
                    "concat(a, n) c12, concat(a, d) c13, concat(a, bb) c14, "
                    "replace(b, 'a', 'bc') c15 FROM t1")
    assert _columns(session, "t2") == [
        "`c1` varchar(8) DEFAULT NULL", "`c2` varchar(15) DEFAULT NULL",
        "`c3` varchar(5) DEFAULT NULL", "`c4` varchar(15) DEFAULT NULL",
        "`c5` varchar(2) DEFAULT NULL", "`c6` varchar(5) DEFAULT NULL",
        "`c7` varchar(4) DEFAULT NULL", "`c8` varchar(2) DEFAULT NULL",
        "`c9` varchar(2) DEFAULT NULL", "`c10` varchar(7) DEFAULT NULL",
        "`c11` varchar(3) DEFAULT NULL", "`c12` varchar(16) DEFAULT NULL",
        "`c13` varchar(12) DEFAULT NULL", "`c14` varbinary(11) DEFAULT NULL",
        "`c15` varchar(6) DEFAULT NULL"]


def test_a_literal_is_as_long_as_it_is_in_the_connections_charset(
        session: SqliteSession) -> None:
    update(session, "CREATE TABLE t CHARSET latin1 SELECT 'abc' AS x, "
                    "concat('ab', _latin1'cd') AS y")
    assert _columns(session, "t") == [
        "`x` varchar(3) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL",
        "`y` varchar(4) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL"]


def test_union_string_column_is_as_long_as_its_longest_branch(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (col1 varchar(1), col2 varchar(10)) CHARSET latin1")
    update(session, "INSERT INTO t1 VALUES ('a', '0123456789')")
    update(session, "CREATE TABLE t2 CHARSET utf8mb4 SELECT 'a' AS a "
                    "UNION ALL SELECT replace('aa', col1, col2) FROM t1")
    assert _columns(session, "t2") == ["`a` varchar(20) DEFAULT NULL"]
    assert rows(session.execute("SELECT a FROM t2")) == [("a",), ("01234567890123456789",)]
    update(session, "CREATE TABLE t3 CHARSET utf8mb4 SELECT 'a' AS x UNION SELECT 'abc'")
    assert _columns(session, "t3") == ["`x` varchar(3) NOT NULL DEFAULT ''"]
    update(session, "CREATE TABLE t4 CHARSET utf8mb4 SELECT 1 AS x UNION SELECT 'abc'")
    assert _columns(session, "t4") == ["`x` varchar(3) NOT NULL DEFAULT ''"]
    update(session, "CREATE TABLE t5 CHARSET utf8mb4 SELECT 'ab' AS x UNION SELECT 12345 "
                    "UNION SELECT NULL")
    assert _columns(session, "t5") == ["`x` varchar(5) DEFAULT NULL"]
    assert sorted(rows(session.execute("SELECT x FROM t5")), key=str) == \
        [("12345",), ("ab",), (None,)]


def test_a_string_longer_than_512_characters_is_a_text_or_blob(session: SqliteSession) -> None:
    update(session, "CREATE TABLE t CHARSET latin1 SELECT repeat(_latin1'a', 512) AS a, "
                    "repeat(_latin1'b', 513) AS b, repeat(_utf8mb4'y', 513) AS d, "
                    "repeat(0x41, 600) AS e, repeat(0x41, 512) AS f, "
                    "repeat(_latin1'a', 70000) AS w")
    assert _columns(session, "t") == [
        "`a` varchar(512) DEFAULT NULL", "`b` text DEFAULT NULL",
        "`d` text CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci DEFAULT NULL",
        "`e` blob DEFAULT NULL", "`f` varbinary(512) DEFAULT NULL",
        "`w` mediumtext DEFAULT NULL"]
