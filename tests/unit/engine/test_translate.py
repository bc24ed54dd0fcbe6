"""translate.translate(): scanned MySQL statements -> SQLite plans; the per-shape plan cache."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import sqlglot

from rampmeter import errors
from rampmeter.engine.sqlite import SqliteEngine, SqliteSession
from rampmeter.engine.sqlite import translate as translate_mod
from rampmeter.engine.sqlite.catalog import ColumnDef, TableDef
from rampmeter.engine.sqlite.translate import Plan, translate
from rampmeter.engine.types import parse_type
from rampmeter.errors import ServerError
from rampmeter.sql.lexer import DEFAULT
from rampmeter.sql.statement import scan

from .conftest import rows, scalar


def tables_of(spec: dict[tuple[str, str], list[tuple[str, str]]]
              ) -> Callable[[str, str], TableDef | None]:
    def lookup(db: str, table: str) -> TableDef | None:
        cols = spec.get((db, table))
        if cols is None:
            return None
        return TableDef(table, [ColumnDef(n, parse_type(t)) for n, t in cols], primary=["id"])
    return lookup


LOOKUP = tables_of({("db", "t"): [("id", "int"), ("name", "varchar(10)"),
                                  ("price", "decimal(10,2)")]})


def plan_of(sql: str, db: str | None = "db") -> Plan:
    return translate(scan(sql), db, LOOKUP)


def test_tables_are_qualified_with_the_current_database() -> None:
    plan = plan_of("SELECT name FROM t WHERE id = 5")
    assert '"db".t' in plan.sql or '"db"."t"' in plan.sql
    assert plan.kind == "SELECT"
    assert plan.databases == ("db",)
    assert not plan.writes


def test_no_database_selected_is_1046() -> None:
    with pytest.raises(ServerError) as info:
        plan_of("SELECT a FROM t", None)
    assert info.value.code == errors.ER_NO_DB_ERROR


def test_result_columns_come_from_table_types_and_inference() -> None:
    plan = plan_of("SELECT id, name AS n, price, id + 1, price * 2, 'x' FROM t")
    assert plan.outputs is not None
    id_o, name_o, price_o, add_o, mul_o, lit_o = plan.outputs
    assert id_o.sql_type == parse_type("int") and id_o.name == "id" and id_o.org_table == "t"
    assert name_o.name == "n" and name_o.org_name == "name"
    assert price_o.sql_type is not None and price_o.sql_type.scale == 2
    assert add_o.sql_type is not None and add_o.sql_type.name == "bigint"
    assert add_o.name == 3  # named at execution by the statement's item text
    assert mul_o.sql_type is not None and (mul_o.sql_type.name, mul_o.sql_type.scale) == (
        "decimal", 2)
    assert lit_o.literal_slot == 2  # a bare literal: typed from its value (slot s2)


def test_star_expands_to_every_table_column() -> None:
    plan = plan_of("SELECT * FROM t")
    assert plan.outputs is not None
    assert [o.name for o in plan.outputs] == ["id", "name", "price"]


def test_limit_offset_count_is_rewritten_keeping_parameter_names() -> None:
    plan = plan_of("SELECT id FROM t LIMIT 5, 10")
    assert "LIMIT :i1 OFFSET :i0" in plan.sql


def test_from_dual_is_dropped() -> None:
    plan = plan_of("SELECT 1 + 1, 'abc' FROM DUAL", None)
    assert "dual" not in plan.sql.lower()


def test_session_functions_and_variables_become_engine_functions() -> None:
    plan = plan_of("SELECT @@session.autocommit, @x, DATABASE(), USER(), VERSION()", None)
    sql = plan.sql.lower()
    for fn in ("rm_sysvar", "rm_uservar", "rm_database", "rm_user", "rm_version"):
        assert fn in sql


def test_length_counts_bytes_and_char_length_characters() -> None:
    plan = plan_of("SELECT LENGTH(name), CHAR_LENGTH(name) FROM t")
    assert "LENGTH(CAST(" in plan.sql.upper() and "AS BLOB)" in plan.sql.upper()


def test_insert_plan_records_stores_and_rows() -> None:
    plan = plan_of("INSERT INTO t (Name, price) VALUES ('a', 1.5), ('b', 2)")
    assert plan.kind == "INSERT" and plan.writes
    assert plan.target == ("db", "t")
    assert plan.insert_columns == frozenset({"name", "price"})
    assert plan.rows == 2
    assert [(s.slot, s.column.name, s.row) for s in plan.stores] == [
        ("s0", "name", 1), ("n1_1", "price", 1), ("s2", "name", 2), ("i3", "price", 2)]


def test_computed_values_are_converted_in_sqlite() -> None:
    plan = plan_of("UPDATE t SET price = price * 2, name = 'x' WHERE id = 1")
    assert "rm_cv(" in plan.sql.lower()
    assert [c.name for c, _row in plan.casts] == ["price"]
    assert [s.slot for s in plan.stores] == ["s1"]


def test_unknown_and_repeated_insert_columns() -> None:
    with pytest.raises(ServerError) as info:
        plan_of("INSERT INTO t (nope) VALUES (1)")
    assert info.value.code == errors.ER_BAD_FIELD_ERROR
    with pytest.raises(ServerError) as info:
        plan_of("INSERT INTO t (id, id) VALUES (1, 2)")
    assert info.value.code == 1110
    with pytest.raises(ServerError) as info:
        plan_of("INSERT INTO t (id, name) VALUES (1)")
    assert info.value.code == errors.ER_WRONG_VALUE_COUNT_ON_ROW


def test_on_duplicate_key_update_becomes_an_upsert() -> None:
    plan = plan_of("INSERT INTO t (id, name) VALUES (1, 'a') "
                   "ON DUPLICATE KEY UPDATE name = VALUES(name)")
    assert "ON CONFLICT DO UPDATE SET" in plan.sql
    assert "excluded.name" in plan.sql
    assert plan.upsert and plan.track_changes


def test_replace_becomes_insert_or_replace() -> None:
    plan = plan_of("REPLACE INTO t (id, name) VALUES (1, 'a')")
    assert plan.sql.startswith("INSERT OR REPLACE INTO")
    assert plan.kind == "REPLACE" and plan.writes and plan.replace
    assert plan.target == ("db", "t")


def test_information_schema_tables_are_redirected_to_temp_tables() -> None:
    plan = plan_of("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'd'",
                   None)
    assert plan.infoschema == ("TABLES",)
    assert '"is_tables"' in plan.sql
    assert plan.databases == ()


@pytest.mark.parametrize("sql", ["SELECT FROM WHERE", "INSERT INTO", "SELECT a FROM t WHERE"])
def test_unparsable_statements_are_1064_quoting_the_client_text(sql: str) -> None:
    with pytest.raises(ServerError) as info:
        plan_of(sql)
    assert info.value.code == errors.ER_PARSE_ERROR
    assert info.value.sqlstate == "42000"
    assert ":i" not in info.value.message and ":s" not in info.value.message


# --- the engine's shape cache ---------------------------------------------------------------
@pytest.fixture
def parse_counter(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = sqlglot.parse_one

    def counting(sql: str, *args: Any, **kw: Any) -> Any:
        calls.append(sql)
        return real(sql, *args, **kw)

    monkeypatch.setattr(translate_mod.sqlglot, "parse_one", counting)
    return calls


def test_point_selects_with_different_literals_parse_once(
        session: SqliteSession, engine: SqliteEngine, parse_counter: list[str]) -> None:
    session.execute("CREATE TABLE t (id int PRIMARY KEY, c varchar(10))")
    session.execute("INSERT INTO t VALUES (7, 'seven'), (8, 'eight')")
    parse_counter.clear()
    before = len(engine.plans)
    for n in range(50):
        got = rows(session.execute(f"SELECT c FROM t WHERE id = {n}"))
        assert got == ([("seven",)] if n == 7 else [("eight",)] if n == 8 else [])
    selects = [s for s in parse_counter if s.startswith("SELECT c FROM t")]
    assert selects == ["SELECT c FROM t WHERE id = :i0"]
    assert len(engine.plans) == before + 1


def test_plan_cache_is_keyed_by_database(open_session: Callable[..., SqliteSession],
                                         parse_counter: list[str]) -> None:
    s = open_session()
    for db in ("a", "b"):
        s.execute(f"CREATE DATABASE {db}")
        s.execute(f"CREATE TABLE {db}.t (id int, v varchar(5))")
        s.execute(f"INSERT INTO {db}.t VALUES (1, '{db}')")
    parse_counter.clear()
    s.use("a")
    assert scalar(s, "SELECT v FROM t WHERE id = 1") == "a"
    s.use("b")
    assert scalar(s, "SELECT v FROM t WHERE id = 1") == "b"  # not a's cached plan
    assert scalar(s, "SELECT v FROM t WHERE id = 2 OR 1 = 1") == "b"
    assert len([p for p in parse_counter if p == "SELECT v FROM t WHERE id = :i0"]) == 2


def test_ddl_invalidates_cached_plans(session: SqliteSession, engine: SqliteEngine) -> None:
    session.execute("CREATE TABLE t (id int)")
    session.execute("SELECT * FROM t WHERE id = 1")
    assert engine.plans
    session.execute("ALTER TABLE t ADD COLUMN extra varchar(3) DEFAULT 'x'")
    assert not engine.plans or all(key[2] == engine.schema_version for key in engine.plans)
    session.execute("INSERT INTO t (id) VALUES (1)")
    result = session.execute("SELECT * FROM t WHERE id = 1")
    assert [c.name for c in result.columns] == ["id", "extra"]  # type: ignore[union-attr]
    assert rows(result) == [(1, "x")]


def test_scanned_shape_is_the_plan_key(session: SqliteSession,
                                            engine: SqliteEngine) -> None:
    session.execute("CREATE TABLE t (id int)")
    session.execute("SELECT id FROM t WHERE id = 42")
    shape = scan("SELECT id FROM t WHERE id = 42").shape
    assert (shape, "db", engine.schema_version, False,  # False: zone is UTC
            ("utf8mb4_general_ci", 4, 2**64 - 1), DEFAULT) in engine.plans


@pytest.mark.parametrize(("sql", "expected"), [
    ("SELECT 0 AND (1 OR 1)", 0), ("SELECT (1 OR 1) AND 0", 0),
    ("SELECT 1 AND (0 XOR 1)", 1), ("SELECT NOT (1 AND 0)", 1), ("SELECT 2 * (1 + 1)", 4)])
def test_parentheses_around_operators_stay(session: SqliteSession, sql: str,
                                           expected: int) -> None:
    """sqlglot's AND / OR are Funcs: dropping their parentheses changed the precedence (Django's
    introspection `a AND (b OR c) AND d` matched every table)."""
    assert scalar(session, sql) == expected
