"""The bridge from the server's full `Engine` / `EngineSession` interface (engine/base.py, what
the session layer calls) to the small one an author implements (engine/custom.py).

Rules:
- `load(spec)` turns `--engine=module:name` into an Engine: `name` is a class or any callable
  returning a CustomEngine (wrapped here) or a full Engine (used as it is). A bad spec is a
  ValueError whose text the command line prints.
- Per statement, in order: an empty statement is 1065; BEGIN / START TRANSACTION / COMMIT /
  ROLLBACK (not ROLLBACK TO) call the session's begin / commit / rollback; what serverside.py
  answers is answered there; everything else is `CustomSession.execute(Query)`. With
  autocommit off, begin() is called before a statement when no transaction is open (MySQL's
  implicit start).
- Prepared statements: COM_STMT_PREPARE keeps the scanned statement (its `?` count is the
  front door's); each execute replaces every `?` by its value as a SQL literal and runs the
  resulting text as a statement. A statement that answers rows is described at prepare, as
  MariaDB does (C clients bind their buffers from that answer; sysbench waits forever
  without it): the same routing with NULL for every `?`, ending in the session's
  `describe(query)` instead of `execute(query)`.
- A ServerError from the engine goes to the client as it is; any other exception is the
  engine's bug: logged with its traceback, 1105 to that client, the connection kept. Rows
  that are not a list are read as they are sent, under the same rule.
- Other table-less SELECTs and DOs (`SELECT 1 + 1`, `SELECT NOW()`, `SET x = CONCAT(...)`'s
  value, `DO SLEEP(1)`) run on that same private SQLite engine, so expressions mean what they
  mean in MariaDB, unless they use DATABASE(), LAST_INSERT_ID(), FOUND_ROWS() or ROW_COUNT()
  (the custom session's values) or the private engine does not know a name in them (1054,
  1305: a function or word of the engine's own): then they are the engine's.
- The server's own tables (information_schema.PROCESSLIST, THREAD_POOL_*, GLOBAL_STATUS...,
  performance_schema.tp_*: those SessionContext.virtual_table provides) are queried through a
  private, empty SQLite engine made on first use, which runs any SELECT over them; a SELECT is
  sent there when every table it names is one of those. information_schema's catalog tables
  (TABLES, COLUMNS...) are not provided for custom engines (docs/engine.md).
- Privilege checks (session/required.py) need the tables a statement reads and writes: they
  come from sqlglot's tree of the statement, table by table (no column-level detail: an
  account with only column grants on a custom engine's table is refused; docs/engine.md). A
  statement sqlglot cannot read is refused (1064) for an account whose privileges are
  checked, rather than run unchecked.
"""

from __future__ import annotations

import importlib
import logging
import re
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from rampmeter import errors
from rampmeter.engine import serverside
from rampmeter.engine.base import (
    Engine,
    EngineSession,
    PreparedStatement,
    Result,
    ResultSet,
    SessionContext,
    TableAccess,
    TableColumn,
    TableIndex,
    UpdateCount,
    WaitHook,
)
from rampmeter.engine.custom import CustomEngine, CustomSession, Query, parse_mysql
from rampmeter.errors import ServerError
from rampmeter.sql.lexer import tokens
from rampmeter.sql.statement import Statement, scan

log = logging.getLogger("rampmeter.engine")


def load(spec: str) -> Engine:
    """`package.module:ClassOrFactory` -> a ready Engine (see the module rules)."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ValueError(f"--engine={spec}: expected module:name, e.g. "
                         "rampmeter.engine.examples.kv:KvEngine")
    try:
        factory: Callable[[], Any] = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"--engine={spec}: {exc}") from exc
    try:
        made = factory()
    except Exception as exc:  # noqa: BLE001 - reported as the bad --engine it is
        raise ValueError(f"--engine={spec}: {attr}() failed: {type(exc).__name__}: {exc}") \
            from exc
    if isinstance(made, CustomEngine):
        return CustomEngineAdapter(made)
    if isinstance(made, Engine):
        return made
    raise ValueError(f"--engine={spec}: {attr}() made a {type(made).__name__}, not a "
                     "rampmeter.engine.custom.CustomEngine")


class CustomEngineAdapter(Engine):
    def __init__(self, custom: CustomEngine) -> None:
        self.custom = custom
        self.name = custom.name
        self._lock = threading.Lock()
        self._system: Engine | None = None
        self._system_dir: tempfile.TemporaryDirectory[str] | None = None

    def open_session(self, context: SessionContext, waiting: WaitHook) -> EngineSession:
        return AdaptedSession(self, context, waiting)

    def database_exists(self, name: str) -> bool:
        return serverside.find_database(self.custom, name) is not None

    def system(self) -> Engine:
        """The SQLite engine that runs queries over the server's own tables (made once)."""
        with self._lock:
            if self._system is None:
                from rampmeter.engine.sqlite import SqliteEngine
                self._system_dir = tempfile.TemporaryDirectory(prefix="rampmeter-system-")
                self._system = SqliteEngine(self._system_dir.name, synchronous="OFF")
            return self._system

    def close(self) -> None:
        try:
            self.custom.close()
        finally:
            with self._lock:
                if self._system is not None:
                    self._system.close()
                if self._system_dir is not None:
                    self._system_dir.cleanup()


_SERVER_SCHEMAS = re.compile(r"information_schema|performance_schema", re.IGNORECASE)
# Functions whose value is the custom session's, not the private SQLite engine's.
_SESSION_FUNCTIONS = re.compile(r"\b(DATABASE|SCHEMA|LAST_INSERT_ID|FOUND_ROWS|ROW_COUNT)\s*\(",
                                re.IGNORECASE)
# A table-less statement the private engine does not know the names of (a function or a word
# of the engine's own) is the engine's to answer.
_NOT_THE_SERVERS = frozenset({errors.ER_BAD_FIELD_ERROR, 1305})  # 1305: FUNCTION does not exist

# The words a MariaDB 10.11 statement can begin with (sql_yacc.yy's `verb_clause`): any other
# first word is a syntax error (1064) before the engine sees it, as MariaDB answers.
STATEMENT_WORDS = frozenset("""
    ALTER ANALYZE BACKUP BEGIN BINLOG CACHE CALL CHANGE CHECK CHECKSUM COMMIT CREATE
    DEALLOCATE DELETE DESC DESCRIBE DO DROP EXECUTE EXPLAIN FLUSH GET GRANT HANDLER HELP
    INSTALL INSERT KILL LOAD LOCK OPTIMIZE PREPARE PURGE RELEASE RENAME REPAIR REPLACE RESET
    RESIGNAL REVOKE ROLLBACK SAVEPOINT SELECT SET SHOW SHUTDOWN SIGNAL START STOP TABLE
    TRUNCATE UNINSTALL UNLOCK UPDATE USE VALUES WITH XA
    CASE FOR IF LOOP REPEAT WHILE""".split())  # the last: compound statements (MariaDB 10.1+)

# Statements that answer rows: their columns are described at COM_STMT_PREPARE.
_RESULT_KINDS = frozenset({"SELECT", "WITH", "VALUES", "TABLE", "SHOW", "DESCRIBE", "DESC",
                           "EXPLAIN"})

_BEGIN = {("BEGIN",), ("BEGIN", "WORK"), ("START", "TRANSACTION")}
_COMMIT = {("COMMIT",), ("COMMIT", "WORK")}
_ROLLBACK = {("ROLLBACK",), ("ROLLBACK", "WORK")}


class AdaptedSession(EngineSession):
    def __init__(self, adapter: CustomEngineAdapter, context: SessionContext,
                 waiting: WaitHook) -> None:
        self._adapter = adapter
        self._engine = adapter.custom
        self._context = context
        self._waiting = waiting
        self._system: EngineSession | None = None
        self._s: CustomSession = self._engine.open(context)
        self._s._waiting = waiting
        self._db: str | None = None
        self._last_id = 0
        self._autocommit = True
        self._closed = False

    # --- statements ---------------------------------------------------------------------------
    def execute(self, sql: Statement | str) -> Result:
        stmt = scan(sql) if isinstance(sql, str) else sql
        self._s.killed = False
        return self._guarded(self._run, stmt)

    def _run(self, stmt: Statement, describe: bool = False) -> Result:
        """Run `stmt`; with `describe`, only learn its result columns (an empty ResultSet, or
        an UpdateCount for a statement without rows)."""
        s = self._s
        words = stmt.words
        if not stmt.kind:
            raise ServerError(errors.ER_EMPTY_QUERY)
        if stmt.kind not in STATEMENT_WORDS:
            raise stmt.syntax_error()
        if words in _BEGIN:
            s.begin()
            return UpdateCount()
        if words in _COMMIT:
            s.commit()
            return UpdateCount()
        if words in _ROLLBACK:
            s.rollback()
            return UpdateCount()
        answer = serverside.answer(self._engine, self._db, self._context, self._last_id, stmt)
        if answer is not None:
            return answer
        if stmt.kind == "SELECT" and _SERVER_SCHEMAS.search(stmt.shape) and \
                self._server_tables_only(stmt):
            return self._system_session().execute(stmt)
        if stmt.kind in ("SELECT", "DO") and not stmt.uses_tables and \
                not _SESSION_FUNCTIONS.search(stmt.shape):
            try:
                return self._system_session().execute(stmt)
            except ServerError as exc:
                if exc.code not in _NOT_THE_SERVERS:
                    raise
        if describe:
            columns = s.describe(Query(stmt.text, stmt.kind, self._db))
            return UpdateCount() if columns is None else ResultSet(list(columns), [])
        if not self._autocommit and not s.in_transaction:
            s.begin()
        result = s.execute(Query(stmt.text, stmt.kind, self._db))
        if isinstance(result, UpdateCount):
            if result.last_insert_id:
                self._last_id = result.last_insert_id
        elif not isinstance(result, ResultSet):
            raise TypeError(f"execute() returned {type(result).__name__}, not rows() or ok()")
        elif not isinstance(result.rows, (list, tuple)):
            result.rows = self._streamed(result.rows)
        return result

    def _streamed(self, rows: Iterable[Sequence[Any]]) -> Iterator[Sequence[Any]]:
        """Rows read as they are sent: an engine's bug while reading them is 1105 too (the
        session sends it after the rows already sent, as mysqld ends a failing result)."""
        source = iter(rows)
        try:
            while True:
                try:
                    row = next(source)
                except StopIteration:
                    return
                except ServerError:
                    raise
                except Exception as exc:  # noqa: BLE001 - the engine's bug costs one result
                    log.exception("engine %s failed while sending rows", self._engine.name)
                    raise ServerError(errors.ER_UNKNOWN_ERROR,
                                      f"engine error: {type(exc).__name__}: {exc}") from None
                yield row
        finally:
            close = getattr(source, "close", None)
            if close is not None:
                close()

    def _guarded(self, fn: Callable[..., Result], *args: Any) -> Result:
        try:
            return fn(*args)
        except ServerError:
            raise
        except Exception as exc:  # noqa: BLE001 - the engine's bug costs one statement
            log.exception("engine %s failed", self._engine.name)
            raise ServerError(errors.ER_UNKNOWN_ERROR,
                              f"engine error: {type(exc).__name__}: {exc}") from None

    def prepare(self, sql: Statement | str) -> PreparedStatement:
        stmt = scan(sql, client_params=True) if isinstance(sql, str) else sql
        if not stmt.kind:
            raise ServerError(errors.ER_EMPTY_QUERY)
        if stmt.kind not in STATEMENT_WORDS:
            raise stmt.syntax_error()
        columns: list[Any] = []
        if stmt.kind in _RESULT_KINDS:  # MariaDB describes a query's result at prepare
            probe = scan(inline(stmt.text, [None] * stmt.param_count)) if stmt.param_count \
                else stmt
            self._s.killed = False
            described = self._guarded(self._run, probe, True)
            if isinstance(described, ResultSet):
                columns = described.columns
                close = getattr(described.rows, "close", None)
                if close is not None:
                    close()
        return PreparedStatement(stmt.text, stmt.param_count, columns, handle=stmt)

    def execute_prepared(self, stmt: PreparedStatement, params: Sequence[Any]) -> Result:
        if len(params) != stmt.param_count:
            raise ServerError(errors.ER_WRONG_ARGUMENTS, "mysqld_stmt_execute")
        text = stmt.sql if not params else inline(stmt.sql, params)
        return self.execute(text)

    def cancel(self) -> None:
        self._s.cancel()
        if self._system is not None:
            self._system.cancel()

    # --- the server's own tables --------------------------------------------------------------
    def _server_tables_only(self, stmt: Statement) -> bool:
        from sqlglot import exp
        try:
            tables = list(parse_mysql(stmt.text).find_all(exp.Table))
        except ServerError:
            return False  # not sqlglot's SQL: the engine's to answer
        return bool(tables) and all(
            t.db.lower() in ("information_schema", "performance_schema") and
            self._context.virtual_table(t.db, t.name) is not None for t in tables)

    def _system_session(self) -> EngineSession:
        if self._system is None:
            self._system = self._adapter.system().open_session(self._context, self._waiting)
        return self._system

    def idle(self) -> None:
        if self._system is not None:
            self._system.idle()

    # --- state --------------------------------------------------------------------------------
    @property
    def database(self) -> str | None:
        return self._db

    def use(self, database: str | None) -> None:
        if database is None:
            self._db = None
            return
        found = serverside.find_database(self._engine, database)
        if found is None:
            raise ServerError(errors.ER_BAD_DB_ERROR, database)
        self._db = found

    def set_autocommit(self, on: bool) -> None:
        if on and self._s.in_transaction:
            self._guarded(self._commit)
        self._autocommit = on
        self._s.set_autocommit(on)

    def _commit(self) -> Result:
        self._s.commit()
        return UpdateCount()

    def _rollback(self) -> Result:
        self._s.rollback()
        return UpdateCount()

    @property
    def in_transaction(self) -> bool:
        return self._s.in_transaction

    @property
    def holds_locks(self) -> bool:
        return False

    @property
    def last_insert_id(self) -> int:
        return self._last_id

    def reset(self) -> None:
        self._guarded(self._rollback)
        self._last_id = 0
        self._autocommit = True

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._guarded(self._rollback)
        finally:
            try:
                self._s.close()
            finally:
                if self._system is not None:
                    self._system.close()

    # --- metadata -----------------------------------------------------------------------------
    def list_databases(self) -> list[str]:
        return list(self._engine.databases())

    def list_tables(self, database: str | None = None) -> list[str]:
        db = database or self._db
        return list(self._engine.tables(db)) if db else []

    def table_columns(self, table: str, database: str | None = None) -> list[TableColumn]:
        return serverside.table_columns(self._engine, database or self._db, table)

    def table_indexes(self, table: str, database: str | None = None) -> list[TableIndex]:
        keys = tuple(c.name for c in self.table_columns(table, database) if c.key == "PRI")
        return [TableIndex("PRIMARY", True, keys)] if keys else []

    def show_create_table(self, table: str, database: str | None = None) -> str:
        return serverside.create_table(self._engine, database or self._db, table)

    def access(self, stmt: Any) -> tuple[TableAccess, ...]:
        """The tables of a DML statement, from its sqlglot tree (see the module rules)."""
        from sqlglot import exp
        tree = parse_mysql(stmt.text)
        kind = stmt.kind
        written = tree.this if kind in ("INSERT", "REPLACE", "UPDATE", "DELETE") and \
            isinstance(tree.this, exp.Table) else None
        if isinstance(tree, exp.Insert) and isinstance(tree.this, exp.Schema):
            written = tree.this.this
        out: dict[tuple[str, str], TableAccess] = {}
        for t in tree.find_all(exp.Table):
            if not t.name or t.name.upper() == "DUAL" and not t.db:
                continue
            db = t.db or self._db
            if db is None:
                raise ServerError(errors.ER_NO_DB_ERROR)
            if db.lower() == "information_schema":
                continue  # readable by every account, as in MariaDB (rows are filtered)
            found = serverside.find_database(self._engine, db)
            exists = found is not None and any(
                n.lower() == t.name.lower() for n in self._engine.tables(found))
            writes = t is written
            out[(db.lower(), t.name.lower())] = TableAccess(
                found or db, t.name, exists, read=not writes or kind in ("UPDATE", "DELETE"),
                insert=writes and kind in ("INSERT", "REPLACE"),
                delete=writes and kind in ("DELETE", "REPLACE"),
                update=writes and kind == "UPDATE")
        return tuple(out.values())


def inline(sql: str, params: Sequence[Any]) -> str:
    """`sql` with each client `?` replaced by its value as a MySQL literal."""
    out: list[str] = []
    pos = 0
    k = 0
    for t in tokens(sql):
        if t.kind == "param":
            out.append(sql[pos:t.start])
            out.append(literal(params[k]))
            k += 1
            pos = t.end
    out.append(sql[pos:])
    return "".join(out)


def literal(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v) if "e" in repr(v) or "n" in repr(v) else f"{v!r}e0"
    if isinstance(v, (bytes, bytearray, memoryview)):
        return "X'" + bytes(v).hex() + "'"
    text = str(v)  # str, Decimal, dates and times
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"

