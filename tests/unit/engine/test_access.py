"""EngineSession.access: which tables and columns a DML statement reads and writes (the
privilege checks rely on it; engine/sqlite/access.py)."""

from __future__ import annotations

from typing import Any

import pytest

from rampmeter.engine.sqlite import SqliteSession


@pytest.fixture
def s(session: SqliteSession) -> SqliteSession:
    session.execute("CREATE TABLE t (a INT PRIMARY KEY, b INT, c INT)")
    session.execute("CREATE TABLE u (x INT)")
    return session


def _of(s: SqliteSession, sql: str) -> dict[str, dict[str, Any]]:
    out = {}
    for a in s.access(sql):
        flags = {k for k in ("read", "insert", "update", "delete", "upsert") if getattr(a, k)}
        out[f"{a.database}.{a.table}"] = {
            "flags": flags, "read": a.columns_read, "inserted": a.columns_inserted,
            "updated": a.columns_updated, "star": a.star, "exists": a.exists}
    return out


def test_select_reads_the_columns_it_names(s: SqliteSession) -> None:
    got = _of(s, "SELECT a FROM t WHERE b = 1 ORDER BY c")
    assert got["db.t"]["flags"] == {"read"}
    assert got["db.t"]["read"] == ("a", "b", "c")


def test_star_lists_every_column_and_count_star_none(s: SqliteSession) -> None:
    assert _of(s, "SELECT * FROM t")["db.t"]["star"] == ("a", "b", "c")
    assert _of(s, "SELECT t.* FROM t")["db.t"]["star"] == ("a", "b", "c")
    got = _of(s, "SELECT COUNT(*) FROM t")["db.t"]
    assert got["star"] == () and got["read"] == () and got["flags"] == {"read"}


def test_select_alias_in_order_by_is_not_a_column(s: SqliteSession) -> None:
    assert _of(s, "SELECT a AS b FROM t ORDER BY b")["db.t"]["read"] == ("a",)


def test_subqueries_resolve_to_their_own_tables_and_correlate_outward(s: SqliteSession) -> None:
    got = _of(s, "SELECT (SELECT b FROM t WHERE t.a = u.x) FROM u")
    assert got["db.u"]["read"] == ("x",)
    assert set(got["db.t"]["read"]) == {"a", "b"}
    got = _of(s, "SELECT x FROM u WHERE x IN (SELECT b FROM t)")
    assert got["db.t"]["read"] == ("b",) and got["db.u"]["read"] == ("x",)


def test_derived_tables_and_ctes_are_checked_where_they_read(s: SqliteSession) -> None:
    assert _of(s, "SELECT q.z FROM (SELECT a AS z FROM t) AS q") == {
        "db.t": {"flags": {"read"}, "read": ("a",), "inserted": (), "updated": (), "star": (),
                 "exists": True}}
    assert _of(s, "WITH c AS (SELECT a FROM t) SELECT a FROM c")["db.t"]["read"] == ("a",)


def test_update_writes_set_columns_and_reads_the_rest(s: SqliteSession) -> None:
    got = _of(s, "UPDATE t SET b = a WHERE c = 1")["db.t"]
    assert got["flags"] == {"update"}
    assert got["updated"] == ("b",) and got["read"] == ("a", "c")
    assert _of(s, "UPDATE t SET b = 1")["db.t"]["read"] == ()


def test_delete_insert_replace_upsert(s: SqliteSession) -> None:
    got = _of(s, "DELETE FROM t WHERE a = 1")["db.t"]
    assert got["flags"] == {"delete"} and got["read"] == ("a",)
    got = _of(s, "INSERT INTO t VALUES (1, 2, 3)")["db.t"]
    assert got["flags"] == {"insert"} and got["inserted"] == ("a", "b", "c")
    got = _of(s, "REPLACE INTO t (a) VALUES (1)")["db.t"]
    assert got["flags"] == {"insert", "delete"} and got["inserted"] == ("a",)
    got = _of(s, "INSERT INTO t (a) VALUES (1) ON DUPLICATE KEY UPDATE b = 2")["db.t"]
    assert got["flags"] == {"insert", "update", "upsert"}
    assert got["inserted"] == ("a",) and got["updated"] == ("b",)


def test_insert_select_reads_its_source(s: SqliteSession) -> None:
    got = _of(s, "INSERT INTO t (a) SELECT x FROM u")
    assert got["db.t"]["flags"] == {"insert"}
    assert got["db.u"]["flags"] == {"read"} and got["db.u"]["read"] == ("x",)


def test_missing_tables_and_databases_are_reported_not_raised(s: SqliteSession) -> None:
    got = _of(s, "SELECT * FROM nope")
    assert got["db.nope"]["exists"] is False
    assert _of(s, "INSERT INTO other.z VALUES (1)")["other.z"]["flags"] == {"insert"}


def test_information_schema_and_table_less_statements_need_nothing(s: SqliteSession) -> None:
    assert _of(s, "SELECT * FROM information_schema.TABLES") == {}
    assert _of(s, "SELECT 1 + 1") == {}


def test_table_names_resolve_to_the_stored_name(s: SqliteSession) -> None:
    assert list(_of(s, "SELECT a FROM T")) == ["db.t"]


def test_insert_select_of_two_tables_of_one_name(s: SqliteSession) -> None:
    """INSERT INTO db2.t SELECT * FROM t: the target is db2's t, the source db's (the alias t
    names both; mtr delete_returning_grant was 1142 INSERT on the source)."""
    s.execute("CREATE DATABASE db2")
    s.execute("CREATE TABLE db2.t (a INT PRIMARY KEY, b INT, c INT)")
    got = _of(s, "INSERT INTO db2.t SELECT * FROM t")
    assert got["db2.t"]["flags"] == {"insert"}
    assert got["db.t"]["flags"] == {"read"} and got["db.t"]["star"] == ("a", "b", "c")


def test_delete_through_a_view_reads_only_the_columns_it_names(s: SqliteSession) -> None:
    """DELETE FROM v needs DELETE only; its RETURNING / WHERE columns need SELECT on those
    columns, checked column by column (1143, mtr delete_returning_grant)."""
    s.execute("CREATE VIEW v AS SELECT a, b FROM t")
    assert _of(s, "DELETE FROM v")["db.v"]["flags"] == {"delete"}
    got = _of(s, "DELETE FROM v WHERE b > 1 RETURNING a")["db.v"]
    assert got["flags"] == {"delete"} and got["read"] == ("b", "a")
    assert _of(s, "DELETE FROM v RETURNING *")["db.v"]["star"] == ("a", "b")
