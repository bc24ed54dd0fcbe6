"""Generated columns (engine/sqlite/generated.py): computed when rows are written, shown as
MariaDB shows them. Expected answers measured on MariaDB 10.11."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import FakeContext, fails, rows, scalar, update

TABLE = ("CREATE TABLE g (a INT, b INT AS (a MOD 3) VIRTUAL, "
         "c VARCHAR(10) AS (CONCAT(a, 'x')) PERSISTENT, "
         "d INT GENERATED ALWAYS AS (a + 1) STORED, e INT AS (a * 2))")


def test_values_are_computed_on_insert_and_update(session: SqliteSession) -> None:
    session.execute(TABLE)
    update(session, "INSERT INTO g (a) VALUES (1), (5)")
    update(session, "INSERT INTO g VALUES (2, DEFAULT, DEFAULT, DEFAULT, DEFAULT)")
    update(session, "INSERT INTO g (a) SELECT 7")
    assert rows(session.execute("SELECT * FROM g")) == [
        (1, 1, "1x", 2, 2), (5, 2, "5x", 6, 10), (2, 2, "2x", 3, 4), (7, 1, "7x", 8, 14)]
    update(session, "UPDATE g SET a = 10 WHERE a = 1")
    assert rows(session.execute("SELECT * FROM g WHERE a = 10")) == [(10, 1, "10x", 11, 20)]
    assert scalar(session, "SELECT COUNT(*) FROM g WHERE e = 2 * a") == 4


def test_show_create_table_and_columns(session: SqliteSession) -> None:
    session.execute(TABLE)
    text = rows(session.execute("SHOW CREATE TABLE g"))[0][1]
    assert "  `b` int(11) GENERATED ALWAYS AS (`a` MOD 3) VIRTUAL,\n" in text
    assert "  `c` varchar(10) GENERATED ALWAYS AS (concat(`a`,'x')) STORED,\n" in text
    assert "  `d` int(11) GENERATED ALWAYS AS (`a` + 1) STORED,\n" in text
    assert "  `e` int(11) GENERATED ALWAYS AS (`a` * 2) VIRTUAL\n" in text
    assert [r[5] for r in rows(session.execute("SHOW COLUMNS FROM g"))] == [
        "", "VIRTUAL GENERATED", "STORED GENERATED", "STORED GENERATED", "VIRTUAL GENERATED"]
    assert rows(session.execute(
        "SELECT COLUMN_NAME, IS_GENERATED, GENERATION_EXPRESSION FROM "
        "information_schema.COLUMNS WHERE TABLE_NAME = 'g' AND COLUMN_NAME IN ('a', 'd')")) \
        == [("a", "NEVER", None), ("d", "ALWAYS", "`a` + 1")]


def test_a_value_given_is_1906(session: SqliteSession) -> None:
    session.execute(TABLE)
    err = fails(session, "INSERT INTO g VALUES (3, 1, DEFAULT, DEFAULT, DEFAULT)", 1906)
    assert err.message == ("The value specified for generated column 'b' in table 'g' has "
                           "been ignored")
    ctx = session.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["sql_mode"] = ""
    done = update(session, "INSERT INTO g VALUES (3, 1, 1, DEFAULT, DEFAULT)")
    assert [w.code for w in done.warnings] == [1906, 1906]
    done = update(session, "UPDATE g SET b = 7, a = 4")
    assert [w.message for w in done.warnings] == [
        "The value specified for generated column 'b' in table 'g' has been ignored"]
    assert rows(session.execute("SELECT * FROM g")) == [(4, 1, "4x", 5, 8)]


def test_alter_table_computes_the_rows_there(session: SqliteSession) -> None:
    session.execute("CREATE TABLE g (a INT)")
    session.execute("INSERT INTO g VALUES (1), (2)")
    session.execute("ALTER TABLE g ADD COLUMN b INT AS (a * 100) STORED")
    assert rows(session.execute("SELECT * FROM g")) == [(1, 100), (2, 200)]
    session.execute("ALTER TABLE g MODIFY b INT AS (a + 1000) VIRTUAL")
    assert rows(session.execute("SELECT * FROM g")) == [(1, 1001), (2, 1002)]
    session.execute("INSERT INTO g (a) VALUES (3)")
    assert scalar(session, "SELECT b FROM g WHERE a = 3") == 1003


def test_temporary_table_and_same_name_elsewhere(session: SqliteSession) -> None:
    session.execute("CREATE DATABASE other")
    session.execute("CREATE TABLE other.g (a INT, b INT AS (a + 1))")
    session.execute("CREATE TABLE g (a INT, b INT AS (a + 2))")
    session.execute("INSERT INTO g (a) VALUES (1)")
    session.execute("INSERT INTO other.g (a) VALUES (1)")
    assert rows(session.execute("SELECT b FROM g UNION ALL SELECT b FROM other.g")) == [
        (3,), (2,)]
    session.execute("CREATE TEMPORARY TABLE tt (a INT, b INT AS (a * 3))")
    session.execute("INSERT INTO tt (a) VALUES (2)")
    assert rows(session.execute("SELECT * FROM tt")) == [(2, 6)]
