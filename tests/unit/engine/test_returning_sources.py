"""RETURNING of INSERT / REPLACE ... SELECT: a subquery's column that neither its own tables
nor the written table have is the SELECT's column (returning.source_references), as MariaDB."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows


def _tables(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (id1 INT PRIMARY KEY, val1 VARCHAR(1))")
    session.execute("CREATE TABLE t2 (id2 INT PRIMARY KEY, val2 VARCHAR(1))")
    session.execute("INSERT INTO t1 VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    session.execute("INSERT INTO t2 VALUES (1, 'z')")


def test_subquery_reads_the_source_row_beside_the_written_table(session: SqliteSession) -> None:
    _tables(session)
    # id1 is t1's (the row read), id2 the subquery's own t2
    got = rows(session.execute("REPLACE INTO t2 SELECT * FROM t1 WHERE id1 = 1 "
                               "RETURNING (SELECT id1 + id2 FROM t2 WHERE id2 = 1)"))
    assert got == [(2,)]
    got = rows(session.execute("REPLACE INTO t2 SELECT * FROM t1 WHERE id1 = 2 "
                               "RETURNING (SELECT t1.id1 FROM t2 WHERE id2 = 0)"))
    assert got == [(None,)]
    got = rows(session.execute("INSERT INTO t2 (val2, id2) SELECT val1, id1 FROM t1 "
                               "WHERE id1 = 3 RETURNING (SELECT val1 FROM t2 WHERE id2 = 1)"))
    assert got == [("c",)]


def test_written_row_columns_and_unknown_columns_as_before(session: SqliteSession) -> None:
    _tables(session)
    got = rows(session.execute("REPLACE INTO t2 SELECT * FROM t1 WHERE id1 = 3 "
                               "RETURNING (SELECT id1 + id2 FROM t1 WHERE id1 = 1)"))
    assert got == [(4,)]
    fails(session, "REPLACE INTO t2 SELECT * FROM t1 WHERE id1 = 1 RETURNING id1", 1054)
    fails(session, "REPLACE INTO t2 SELECT * FROM t1 WHERE id1 = 1 "
          "RETURNING (SELECT nosuch FROM t2 WHERE id2 = 1)", 1054)


def test_failing_returning_keeps_myisam_rows_written(session: SqliteSession) -> None:
    """retkeep.py: MariaDB wrote the row before its RETURNING failed; MyISAM keeps it."""
    session.execute("CREATE TABLE s (a INT PRIMARY KEY) ENGINE=MyISAM")
    session.execute("INSERT INTO s VALUES (1), (2)")
    for engine in ("MyISAM", "InnoDB"):
        session.execute(f"CREATE TABLE w (a INT PRIMARY KEY) ENGINE={engine}")
        fails(session, "INSERT INTO w VALUES (5), (6) RETURNING (SELECT a FROM s)", 1242)
        fails(session, "REPLACE INTO w SELECT a + 10 FROM s RETURNING (SELECT a FROM s)", 1242)
        got = rows(session.execute("SELECT a FROM w"))
        assert got == ([(5,), (11,)] if engine == "MyISAM" else [])
        session.execute("DROP TABLE w")
