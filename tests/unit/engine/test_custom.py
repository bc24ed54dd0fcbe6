"""The custom-engine bridge without a server: what the adapter answers itself (connect-time
SELECTs, catalog SHOWs, transactions), how prepared parameters become literals, and the
example kv engine's statements and errors, through the EngineSession the session layer uses."""

from __future__ import annotations

import datetime as dt
from contextlib import nullcontext
from decimal import Decimal
from typing import Any

import pytest

from rampmeter.engine.adapter import AdaptedSession, CustomEngineAdapter, inline, load
from rampmeter.engine.base import ResultSet, UpdateCount
from rampmeter.engine.custom import CustomEngine, CustomSession, Query, rows
from rampmeter.engine.examples.kv import KvEngine
from rampmeter.errors import ServerError
from rampmeter.protocol.constants import ColumnType
from rampmeter.sql.statement import scan


class Context:
    connection_id = 7
    user = "root@localhost"
    current_user = "root@%"
    row_count = 0
    # (collation_connection, div_precision_increment, sql_select_limit): engine.base's
    # EngineContext.translation, read where the server answers SQL itself
    translation = ("utf8mb4_general_ci", 4, 2**64 - 1)

    def __init__(self) -> None:
        self.vars = {"version": "10.11.99-MariaDB-rampmeter", "autocommit": True,
                     "version_comment": "test"}
        self.user_vars: dict[str, Any] = {"a": Decimal("1.5")}

    def system_variable(self, name: str, scope: str | None = None) -> Any:
        if name not in self.vars:
            raise ServerError(1193, name)
        return self.vars[name]

    def user_variable(self, name: str) -> Any:
        return self.user_vars.get(name)

    def set_user_variable(self, name: str, value: Any) -> None:
        self.user_vars[name] = value

    def virtual_table(self, schema: str, table: str) -> Any:
        return None


def kv_session() -> AdaptedSession:
    session = CustomEngineAdapter(KvEngine()).open_session(Context(), lambda r, state=None: nullcontext())
    assert isinstance(session, AdaptedSession)
    session.use("kv")
    session.execute(scan("CREATE TABLE t (k INT PRIMARY KEY, v VARCHAR(10))"))
    return session


def run(session: AdaptedSession, sql: str) -> Any:
    result = session.execute(scan(sql))
    if isinstance(result, ResultSet):
        return [c.name for c in result.columns], [tuple(r) for r in result.rows]
    return result


def code(session: AdaptedSession, sql: str) -> int:
    with pytest.raises(ServerError) as info:
        session.execute(scan(sql))
    return info.value.code


def test_tableless_selects_are_answered_with_mariadb_names():
    s = kv_session()
    assert run(s, "SELECT @@version_comment LIMIT 1") == (["@@version_comment"], [("test",)])
    assert run(s, "select DATABASE(), user(), CONNECTION_ID() id, @a, @nope, 'x', -2, 1.50, "
                  "@@autocommit FROM DUAL") == (
        ["DATABASE()", "user()", "id", "@a", "@nope", "x", "-2", "1.50", "@@autocommit"],
        [("kv", "root@localhost", 7, Decimal("1.5"), None, "x", -2, Decimal("1.50"), 1)])
    assert run(s, "SELECT @@version LIMIT 0") == (["@@version"], [])
    assert code(s, "SELECT @@no_such_variable") == 1193


def test_what_the_server_cannot_answer_goes_to_the_engine():
    s = kv_session()
    assert run(s, "SELECT 1 + 1, CONCAT(@@version_comment, '!')") == (
        ["1 + 1", "CONCAT(@@version_comment, '!')"], [(2, "test!")])  # MariaDB's expressions
    assert code(s, "SELECT kv_function(1)") == 1235    # names the server does not know
    assert code(s, "SELECT CONCAT(DATABASE(), 'x')") == 1235  # the session's values
    assert code(s, "FROBNICATE the table") == 1064  # no MariaDB statement begins so
    assert code(s, "") == 1065


def test_catalog_statements():
    s = kv_session()
    assert run(s, "SHOW DATABASES LIKE 'K%'") == (["Database (K%)"], [("kv",)])
    assert run(s, "SHOW TABLES") == (["Tables_in_kv"], [("t",)])
    assert run(s, "SHOW FULL COLUMNS FROM t FROM kv LIKE 'v'")[1] == [
        ("v", "varchar(10)", "utf8mb4_general_ci", "YES", "", None, "",
         "select,insert,update,references", "")]
    assert run(s, "DESC kv.t k")[1] == [("k", "int(11)", "NO", "PRI", None, "")]
    assert code(s, "DESCRIBE nope") == 1146
    assert code(s, "SHOW TABLES FROM nope") == 1049
    cols = s.table_columns("T")
    assert [(c.name, c.key, c.column.type) for c in cols] == [
        ("k", "PRI", ColumnType.LONG), ("v", "", ColumnType.VAR_STRING)]
    s.use(None)
    assert code(s, "SHOW TABLES") == 1046
    with pytest.raises(ServerError) as info:
        s.use("nope")
    assert info.value.code == 1049


def test_kv_statements_and_errors():
    s = kv_session()
    assert run(s, "INSERT INTO t VALUES (2, 'b'), (1, 'a')").affected_rows == 2
    assert run(s, "SELECT * FROM t") == (["k", "v"], [(1, "a"), (2, "b")])
    assert run(s, "SELECT v FROM t WHERE k = '2'") == (["v"], [("b",)])
    assert code(s, "INSERT INTO t VALUES (3, 'c'), (1, 'dup')") == 1062
    assert run(s, "SELECT k FROM t")[1] == [(1,), (2,)]  # the failed INSERT wrote nothing
    assert run(s, "INSERT IGNORE INTO t VALUES (3, 'c'), (1, 'dup')").affected_rows == 1
    with pytest.raises(ServerError, match="Incorrect integer value: 'x' for column `kv`.`t`.`k` "
                       "at row 1"):
        s.execute(scan("INSERT INTO t VALUES ('x', 'y')"))
    assert code(s, "INSERT INTO t VALUES (NULL, 'y')") == 1048
    assert code(s, "UPDATE t SET k = 5") == 1235
    update = run(s, "UPDATE t SET v = 'z'")
    assert (update.affected_rows, update.info) == (3, "Rows matched: 3  Changed: 3  Warnings: 0")
    assert code(s, "CREATE TABLE t (a INT PRIMARY KEY, b INT)") == 1050
    assert code(s, "CREATE TABLE u (a INT, b INT)") == 1235
    assert code(s, "DROP TABLE nope") == 1146
    assert isinstance(run(s, "DROP TABLE IF EXISTS nope"), UpdateCount)


def test_prepared_parameters_become_literals():
    assert inline("SELECT ?, '?', ?", ["it's", None]) == "SELECT 'it''s', '?', NULL"
    assert inline("VALUES (?, ?, ?, ?, ?)", [b"\x00a", 1.5, True, Decimal("2.50"),
                                             dt.date(2024, 1, 2)]) == \
        "VALUES (X'0061', 1.5e0, 1, '2.50', '2024-01-02')"
    assert inline("SELECT ?", ["back\\slash"]) == "SELECT 'back\\\\slash'"
    s = kv_session()
    stmt = s.prepare(scan("INSERT INTO t VALUES (?, ?)", client_params=True))
    assert (stmt.param_count, stmt.columns) == (2, [])
    query = s.prepare(scan("SELECT v, k AS key_ FROM t WHERE k = ?", client_params=True))
    assert [(c.name, c.type) for c in query.columns] == [  # described at prepare, as MariaDB
        ("v", ColumnType.VAR_STRING), ("key_", ColumnType.LONG)]
    assert [c.name for c in s.prepare(scan("SHOW TABLES")).columns] == ["Tables_in_kv"]
    with pytest.raises(ServerError) as info:
        s.prepare(scan("SELECT * FROM nope WHERE k = ?", client_params=True))
    assert info.value.code == 1146  # MariaDB refuses it at prepare too
    assert s.execute_prepared(stmt, [5, "five"]).affected_rows == 1
    with pytest.raises(ServerError) as info:
        s.execute_prepared(stmt, [6])
    assert info.value.code == 1210
    assert run(s, "SELECT v FROM t WHERE k = 5")[1] == [("five",)]


class TxSession(CustomSession):
    log: list[str] = []
    open = False

    @property
    def in_transaction(self) -> bool:
        return self.open

    def begin(self) -> None:
        self.log.append("begin")
        self.open = True

    def commit(self) -> None:
        self.log.append("commit")
        self.open = False

    def rollback(self) -> None:
        self.log.append("rollback")
        self.open = False

    def execute(self, query: Query) -> Any:
        self.log.append(query.sql)
        return rows([("n", "int")], [(1,)])


class TxEngine(CustomEngine):
    session_class = TxSession


def test_transactions_and_autocommit_reach_the_session():
    s = CustomEngineAdapter(TxEngine()).open_session(Context(), lambda r, state=None: nullcontext())
    log = TxSession.log
    log.clear()
    s.execute(scan("START TRANSACTION"))
    assert s.in_transaction
    s.execute(scan("COMMIT"))
    s.set_autocommit(False)
    s.execute(scan("SELECT n FROM x"))        # autocommit off: an implicit begin first
    s.set_autocommit(True)                    # commits the open transaction
    s.close()
    assert log == ["begin", "commit", "begin", "SELECT n FROM x", "commit", "rollback"]


def test_load_checks_the_spec():
    assert isinstance(load("rampmeter.engine.examples.kv:KvEngine"), CustomEngineAdapter)
    for spec, text in (("kv", "module:name"), ("no_such_mod:X", "No module named"),
                       ("rampmeter.engine.examples.kv:Nope", "Nope"),
                       ("rampmeter.engine.examples.kv:Table", "failed: TypeError")):
        with pytest.raises(ValueError, match=text):
            load(spec)
    with pytest.raises(ValueError, match="not a"):
        load("builtins:object")


def test_the_smallest_engine_of_docs_engine_md_runs():
    import pathlib
    import re
    doc = (pathlib.Path(__file__).parents[3] / "docs" / "engine.md").read_text()
    code_text = re.search(r"```python\n# myengine.py\n(.*?)```", doc, re.S).group(1)
    namespace: dict[str, Any] = {}
    exec(compile(code_text, "docs/engine.md", "exec"), namespace)  # noqa: S102 - our own doc
    s = CustomEngineAdapter(namespace["HelloEngine"]()).open_session(Context(),
                                                                     lambda r, state=None: nullcontext())
    s.use("hello")
    assert run(s, "SELECT * FROM anything") == (["greeting", "n"], [("hello", 1), ("world", 2)])
    assert run(s, "INSERT INTO x VALUES (1)").affected_rows == 1
    assert code(s, "DELETE FROM x") == 1235
