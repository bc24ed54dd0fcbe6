"""A multi-table DELETE's targets as MariaDB 10.11 matches them (deletenames.py)."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows


def _tables(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (a INT)")
    session.execute("CREATE TABLE t2 (a INT)")
    session.execute("INSERT INTO t1 VALUES (1), (2)")
    session.execute("INSERT INTO t2 VALUES (1), (3)")
    session.execute("CREATE DATABASE db2")
    session.execute("CREATE TABLE db2.t1 (a INT)")


def test_a_target_takes_no_alias(session: SqliteSession) -> None:
    _tables(session)
    err = fails(session, "DELETE FROM t1 alias USING t1, t2 alias WHERE t1.a = alias.a", 1064)
    assert "near 'alias USING t1, t2 alias" in err.message
    fails(session, "DELETE FROM t1 AS x WHERE a = 2", 1064)
    fails(session, "DELETE t1 x FROM t1 x WHERE a = 2", 1064)


def test_targets_match_aliases_or_names_in_the_current_database(
        session: SqliteSession) -> None:
    _tables(session)
    fails(session, "DELETE FROM t1, t2 USING t1, t2 alias WHERE t1.a = alias.a", 1109)
    fails(session, "DELETE FROM db2.alias USING t1, db2.t1 alias WHERE t1.a = alias.a", 1109)
    fails(session, "DELETE t1 FROM db2.t1, t2", 1109)   # db2.t1 is not db.t1
    fails(session, "DELETE a1 FROM t1 AS a1, t2 AS a1", 1066)
    fails(session, "DELETE a1, a2 FROM nodb.t1 AS a1, t2 AS a2", 1146)
    # both targets of a USING list are deleted from
    session.execute("DELETE FROM t1, alias USING t1, t2 alias WHERE t1.a = alias.a")
    assert rows(session.execute("SELECT a FROM t1")) == [(2,)]
    assert rows(session.execute("SELECT a FROM t2")) == [(3,)]


def test_derived_table_in_the_join_and_starred_targets_after_from(
        session: SqliteSession) -> None:
    _tables(session)
    session.execute("DELETE t1 FROM (SELECT SUM(a) a FROM t1) x, t1 WHERE t1.a = 1")
    assert rows(session.execute("SELECT a FROM t1")) == [(2,)]
    fails(session, "DELETE x FROM (SELECT SUM(a) a FROM t1) x, t1", 1288)
    session.execute("DELETE FROM t1.*, db.t2.* USING t1, t2")
    assert rows(session.execute("SELECT a FROM t1 UNION ALL SELECT a FROM t2")) == []
