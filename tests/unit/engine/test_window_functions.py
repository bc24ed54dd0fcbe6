"""Window functions where SQLite differs from MariaDB (engine/sqlite/windows.py); expected
answers measured on MariaDB 10.11 (mtr win_ntile)."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows


def test_ntile_argument_must_not_change_within_a_partition(session: SqliteSession) -> None:
    session.execute("CREATE TABLE nt (pk INT PRIMARY KEY, g INT, n INT)")
    session.execute("INSERT INTO nt VALUES (1, 1, 2), (2, 1, 2), (3, 1, 2), (4, 2, 3), (5, 2, 3)")
    query = "SELECT pk, NTILE(n) OVER (PARTITION BY g ORDER BY pk) FROM nt ORDER BY pk"
    assert [tuple(r) for r in rows(session.execute(query))] == [
        (1, 1), (2, 1), (3, 2), (4, 1), (5, 2)]
    session.execute("UPDATE nt SET n = 1 WHERE pk = 3")  # no longer one value in group 1
    err = fails(session, query, 4024, "HY000")
    assert str(err.message) == "Argument of NTILE must be greater than 0"
    fails(session, "SELECT NTILE(0) OVER (ORDER BY pk) FROM nt", 4024)
    # an argument read from an uncorrelated subquery is one value
    got = rows(session.execute("SELECT NTILE((SELECT n FROM nt WHERE pk = 3)) OVER "
                               "(ORDER BY pk) FROM nt ORDER BY pk"))
    assert [r[0] for r in got] == [1, 1, 1, 1, 1]


def _scores(session: SqliteSession) -> None:
    session.execute("CREATE TABLE ps (name CHAR(10), test DOUBLE, score DECIMAL(19,4))")
    session.execute("INSERT INTO ps VALUES ('Chun', 0, 3), ('Chun', 0, 7), ('Kaolin', 0.5, 3), "
                    "('Kaolin', 0.6, 7), ('Kaolin', 0.5, 4), ('Tata', 0.8, 4)")


def test_percentile_cont_disc_and_median(session: SqliteSession) -> None:
    """Values measured on MariaDB 10.11 (mtr win_percentile)."""
    _scores(session)
    got = rows(session.execute(
        "SELECT name, PERCENTILE_CONT(0.3) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY "
        "name), PERCENTILE_DISC(0.4) WITHIN GROUP (ORDER BY score) OVER (PARTITION BY name), "
        "MEDIAN(score) OVER (PARTITION BY name), PERCENTILE_DISC(0.5) WITHIN GROUP "
        "(ORDER BY score DESC) OVER () FROM ps ORDER BY name, score"))
    assert [(r[0], round(float(r[1]), 6), str(r[2]), float(r[3]), str(r[4])) for r in got] == [
        ("Chun", 4.2, "3.0000", 5.0, "4.0000"), ("Chun", 4.2, "3.0000", 5.0, "4.0000"),
        ("Kaolin", 3.6, "4.0000", 4.0, "4.0000"), ("Kaolin", 3.6, "4.0000", 4.0, "4.0000"),
        ("Kaolin", 3.6, "4.0000", 4.0, "4.0000"), ("Tata", 4.0, "4.0000", 4.0, "4.0000")]


def test_percentile_errors(session: SqliteSession) -> None:
    _scores(session)
    over = "WITHIN GROUP (ORDER BY score) OVER (PARTITION BY name) FROM ps"
    fails(session, f"SELECT PERCENTILE_CONT(NULL) {over}", 4104)
    fails(session, f"SELECT PERCENTILE_DISC(name) {over}", 4104)
    fails(session, "SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY name) OVER () FROM ps",
          4101)
    fails(session, f"SELECT PERCENTILE_DISC(1.5) {over}", 4103)
    err = fails(session, f"SELECT PERCENTILE_CONT(test) {over}", 4102)
    assert err.message == ("Argument to the percentile_cont function is not a constant for "
                           "a partition")
    for text in ("SELECT PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY score, test) OVER () "
                 "FROM ps", "SELECT PERCENTILE_DISC(0.5) WITHIN GROUP () OVER () FROM ps",
                 "SELECT PERCENTILE_DISC() WITHIN GROUP () OVER () FROM ps"):
        fails(session, text, 1064)


def test_a_window_function_through_a_derived_table_keeps_its_type(
        session: SqliteSession) -> None:
    _scores(session)
    result = session.execute("SELECT * FROM (SELECT CUME_DIST() OVER (ORDER BY score) AS c "
                             "FROM ps) AS t")
    assert result.columns[0].decimals == 10  # type: ignore[union-attr]


def test_hex_of_a_big_unsigned_column(session: SqliteSession) -> None:
    session.execute("CREATE TABLE hu (s BIGINT UNSIGNED)")
    session.execute("INSERT INTO hu VALUES (0x8000000000000005)")
    assert rows(session.execute("SELECT HEX(s) FROM hu")) == [("8000000000000005",)]
