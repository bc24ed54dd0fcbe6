"""translate.translate(): MySQL shapes -> SQLite plans; and the engine's per-shape plan cache."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import sqlglot

from rampmeter import errors
from rampmeter.engine import translate as translate_mod
from rampmeter.engine.base import TableColumn
from rampmeter.engine.sqlite import SqliteEngine, SqliteSession
from rampmeter.engine.translate import extract, translate
from rampmeter.engine.types import column_for_type
from rampmeter.errors import ServerError
from rampmeter.protocol.constants import ColumnType

from .conftest import rows, scalar


def meta_for(tables: dict[tuple[str, str], list[tuple[str, str]]]) -> Callable[
        [str, str], list[TableColumn] | None]:
    def table_meta(db: str, table: str) -> list[TableColumn] | None:
        cols = tables.get((db, table))
        if cols is None:
            return None
        return [TableColumn(n, t, True, "", None, "", column_for_type(n, t, table=table,
                                                                     schema=db))
                for n, t in cols]
    return table_meta


META = meta_for({("db", "t"): [("id", "int"), ("name", "varchar(10)"), ("price", "decimal(10,2)")]})


def test_tables_are_qualified_with_the_current_database() -> None:
    plan = translate("SELECT name FROM t WHERE id = :p0", "db", META)
    assert '"db"."t"' in plan.sql or '"db".t' in plan.sql
    assert plan.kind == "SELECT"
    assert plan.databases == ("db",)
    assert not plan.writes


def test_no_database_selected_is_1046() -> None:
    with pytest.raises(ServerError) as info:
        translate("SELECT a FROM t", None, META)
    assert info.value.code == errors.ER_NO_DB_ERROR


def test_result_columns_come_from_table_types() -> None:
    plan = translate("SELECT id, name AS n, price, id + 1 FROM t", "db", META)
    assert plan.columns is not None
    id_col, name_col, price_col, expr = plan.columns
    assert id_col is not None and id_col.type == ColumnType.LONG
    assert name_col is not None and name_col.type == ColumnType.VAR_STRING
    assert name_col.name == "n"
    assert price_col is not None and price_col.decimals == 2
    assert expr is None  # an expression: inferred from the values at run time
    assert plan.names == ["id", "n", "price", "id + 1"]


def test_star_expands_to_every_table_column() -> None:
    plan = translate("SELECT * FROM t", "db", META)
    assert plan.columns is not None
    assert [c.name for c in plan.columns if c] == ["id", "name", "price"]


def test_limit_offset_count_is_rewritten_keeping_parameter_names() -> None:
    plan = translate("SELECT id FROM t LIMIT :p0, :p1", "db", META)
    assert "LIMIT :p1 OFFSET :p0" in plan.sql


def test_from_dual_is_dropped_and_select_list_named_by_text() -> None:
    plan = translate("SELECT 1 + 1, 'abc' FROM DUAL", None, META)
    assert "dual" not in plan.sql.lower()
    assert plan.names == ["1 + 1", "abc"]


def test_session_functions_and_variables_become_engine_functions() -> None:
    plan = translate("SELECT @@session.autocommit, @x, DATABASE(), USER(), VERSION()", None,
                     META)
    sql = plan.sql.lower()
    for fn in ("rm_sysvar", "rm_uservar", "rm_database", "rm_user", "rm_version"):
        assert fn in sql


def test_insert_plan_records_table_columns_and_rows() -> None:
    plan = translate("INSERT INTO t (Name, price) VALUES (:p0, :p1), (:p2, :p3)", "db", META)
    assert plan.kind == "INSERT" and plan.writes
    assert plan.insert_table == ("db", "t")
    assert plan.insert_columns == frozenset({"name", "price"})
    assert plan.multi_row


def test_on_duplicate_key_update_becomes_an_upsert() -> None:
    plan = translate("INSERT INTO t (id, name) VALUES (:p0, :p1) "
                     "ON DUPLICATE KEY UPDATE name = VALUES(name)", "db", META)
    assert "ON CONFLICT DO UPDATE SET" in plan.sql
    assert "excluded.name" in plan.sql


def test_replace_becomes_insert_or_replace() -> None:
    plan = translate("REPLACE INTO t (id, name) VALUES (:p0, :p1)", "db", META)
    assert plan.sql.startswith("INSERT OR REPLACE INTO")
    assert plan.kind == "REPLACE" and plan.writes
    assert plan.insert_table == ("db", "t")


def test_information_schema_tables_are_redirected_to_temp_tables() -> None:
    plan = translate("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = :p0",
                     None, META)
    assert plan.infoschema == ("TABLES",)
    assert '"is_tables"' in plan.sql
    assert plan.databases == ()


@pytest.mark.parametrize("shape", ["SELEC 1", "SELECT FROM WHERE", "SELECT a FROM t WHERE 'open",
                                   "INSERT INTO"])
def test_unparsable_shapes_are_1064(shape: str) -> None:
    with pytest.raises(ServerError) as info:
        translate(shape, "db", META)
    assert info.value.code == errors.ER_PARSE_ERROR
    assert info.value.sqlstate == "42000"


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
    assert selects == ["SELECT c FROM t WHERE id = :p0"]
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
    assert len([p for p in parse_counter if p == "SELECT v FROM t WHERE id = :p0"]) == 2


def test_ddl_invalidates_cached_plans(session: SqliteSession, engine: SqliteEngine) -> None:
    session.execute("CREATE TABLE t (id int)")
    session.execute("SELECT * FROM t WHERE id = 1")
    assert engine.plans
    session.execute("ALTER TABLE t ADD COLUMN extra varchar(3) DEFAULT 'x'")
    assert not engine.plans
    session.execute("INSERT INTO t (id) VALUES (1)")
    result = session.execute("SELECT * FROM t WHERE id = 1")
    assert [c.name for c in result.columns] == ["id", "extra"]  # type: ignore[union-attr]
    assert rows(result) == [(1, "x")]


def test_extract_shape_matches_the_plan_key(session: SqliteSession,
                                            engine: SqliteEngine) -> None:
    session.execute("CREATE TABLE t (id int)")
    session.execute("SELECT id FROM t WHERE id = 42")
    shape = extract("SELECT id FROM t WHERE id = 42").shape
    assert (shape, "db", engine.schema_version) in engine.plans
