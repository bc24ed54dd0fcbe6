"""SqliteSession: one client's door into the SQLite engine. It owns the transaction state
(txn.py), borrows an engine handle (handle.py) from the engine's pool (handles.py) when a
statement needs one, and sends each statement to the room that runs it.

Rules:
- Rooms: DML to dml.py, transaction and lock statements to control.py, schema statements to
  ddl.py, SHOW / DESCRIBE / EXPLAIN to show.py; information_schema tables come from
  infoschema.py (or from the session layer, through SessionContext.virtual_table); SQL functions
  from functions.py, SQLite's errors through errmap.py. Rooms use this class's public methods
  and attributes only, and never each other's internals.
- A statement arrives scanned (sql/statement.py). Text (str) is scanned here with the session's
  sql_mode, for callers inside the server and for tests.
- Handles: `self.handle` borrows one on first use; `idle()` (the session layer calls it after
  every command) gives it back unless the session is pinned (pinning.py decides, from `held()`).
  Nothing of the session is left on a handle it gives back: settings are read per statement
  through SessionContext, functions find the session through the handle's Occupant.
- cancel() (KILL QUERY / KILL / shutdown, any thread) sets a flag and wakes SLEEP and lock
  waits; SQLite's progress handler on the handle the session holds sees the flag within about
  a millisecond of VM work (handle.py), so only this session's statement stops; it fails with
  1317. The flag is cleared when the next statement starts.
- Every error is a ServerError; an SQLite error with no MySQL meaning becomes 1105 and is
  logged here with the statement, because it is a fault of ours.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import sqlglot
import sqlglot.errors

from rampmeter import errors
from rampmeter.config import timezones
from rampmeter.config.timezones import Zone
from rampmeter.engine.base import (
    EngineSession,
    PreparedStatement,
    Result,
    SessionContext,
    TableAccess,
    TableColumn,
    TableIndex,
    WaitHook,
    WaitReason,
)
from rampmeter.engine.sqlite import (
    autoisnull,
    bindtext,
    catalog,
    control,
    ddl,
    dml,
    errmap,
    handler,
    inlist,
    locktables,
    mysqltables,
    pinning,
    routines,
    sfnames,
    show,
    tableversions,
    temporary,
    triggers,
    viewdml,
    views,
)
from rampmeter.engine.sqlite.access import table_access
from rampmeter.engine.sqlite.catalog import TableDef
from rampmeter.engine.sqlite.dml import Execution
from rampmeter.engine.sqlite.handle import Handle
from rampmeter.engine.sqlite.infoschema import TABLES as INFOSCHEMA_TABLES
from rampmeter.engine.sqlite.storage import (
    INFORMATION_SCHEMA,
    SESSION_SCHEMAS,
    VIRTUAL_SCHEMAS,
    SqliteEngine,
)
from rampmeter.engine.sqlite.translate import (
    MYSQL_VIRTUAL,
    Plan,
    split_key,
    temp_name,
    translate,
    virtual_key,
)
from rampmeter.engine.sqlite.txn import Transactions
from rampmeter.engine.types import SqlType, parse_type
from rampmeter.errors import ServerError, Warning_
from rampmeter.protocol.columns import Column, text_column
from rampmeter.sql import charsets
from rampmeter.sql.lexer import Dialect
from rampmeter.sql.statement import Statement, scan

log = logging.getLogger("rampmeter.engine")

_HANDLERS = {
    "BEGIN": control.begin, "START": control.begin, "COMMIT": control.commit,
    "ROLLBACK": control.commit, "SAVEPOINT": control.savepoint,
    "RELEASE": control.savepoint, "LOCK": control.lock, "UNLOCK": control.lock,
    "FLUSH": control.flush, "HANDLER": handler.run, **ddl.HANDLERS, **show.HANDLERS,
}


# information_schema's columns are utf8mb3_general_ci in MariaDB (collations.py)
_IS_COLLATE = " COLLATE utf8mb3_general_ci"

class Stats:
    """Per-session values SQL can read: LAST_INSERT_ID(), FOUND_ROWS(), ROW_COUNT()."""

    __slots__ = ("last_insert_id", "found_rows", "row_count", "auto_is_null")

    def __init__(self) -> None:
        self.last_insert_id = 0
        self.auto_is_null = False  # an INSERT generated a value: sql_auto_is_null's SELECT
        self.found_rows = 0
        self.row_count = -1


# First words of statements MariaDB has and rampmeter does not (BACKUP STAGE / LOCK): a 1064
# quotes from the second word, as MariaDB's parser does.
_KNOWN_FIRST_WORDS = frozenset({"BACKUP"})


class SqliteSession(EngineSession):
    def __init__(self, engine: SqliteEngine, context: SessionContext, waiting: WaitHook) -> None:
        self.engine = engine
        self.context = context
        self.waiting = waiting
        # (CURRENT_USER(), CURRENT_ROLE()) while a write through an SQL SECURITY DEFINER view
        # runs: its column defaults are the definer's (viewdml.py)
        self.definer_context: tuple[str, str | None] | None = None
        self._cancelled = False
        self._wake = threading.Event()
        self._function_error: ServerError | None = None
        self.statement_state: dict[Any, Any] = {}  # functions' state for one statement
        self._handle: Handle | None = None     # borrowed from engine.handles, see idle()
        self.txn = Transactions(lambda: self.handle, engine.locks, waiting,
                                cancelled=self.cancelled, lock_timeout=self._lock_timeout,
                                connection_id=getattr(context, "connection_id", 0),
                                held=lambda: self._handle, table_locks=engine.table_locks)
        self.stats = Stats()
        self.current: Execution | None = None
        self.warnings: list[Warning_] = []  # raised by functions while the statement runs
        self._db: str | None = None
        self.temp_tables = 0     # temporary.py: how many this session holds
        self.temp_version = 0
        self.fk_suspended = False
        self._utc: dt.datetime | None = None   # the statement's clock reading (timefns.py)
        self._nested = 0         # stored functions / triggers running inside a statement
        self.handlers: dict[str, handler.Open] = {}   # HANDLER ... OPEN (handler.py)
        self._zone_text = "SYSTEM"
        self._zone: Zone = timezones.SYSTEM

    # --- the engine handle ---------------------------------------------------------------------
    @property
    def handle(self) -> Handle:
        """The handle this session holds, borrowed from the engine's pool on first use."""
        h = self._handle
        if h is None:
            h = self.engine.handles.borrow()
            h.lend(self)
            self._handle = h
        return h

    def held(self) -> frozenset[str]:
        """What the session holds, in pinning.py's names."""
        txn = self.txn
        held = []
        if txn.in_transaction:
            held.append("transaction")
        if self.temp_tables:
            held.append("temporary_tables")
        if txn.table_locks:
            held.append("table_locks")
        if txn.user_locks:
            held.append("user_locks")
        return frozenset(held)

    @property
    def pinned(self) -> bool:
        return self._handle is not None and pinning.pinned(self.held())

    def idle(self) -> None:
        """Between commands: give the handle back unless the session is pinned."""
        if self._handle is None:
            return
        txn = self.txn
        if (txn.in_transaction or self.temp_tables or txn.holds_locks) and \
                pinning.pinned(self.held()):
            return
        self._give_back()

    def _give_back(self, *, discard: bool = False) -> None:
        h, self._handle = self._handle, None
        if h is None:
            return
        if discard:
            self.engine.handles.discard(h)
        else:
            self.engine.handles.give_back(h)

    # --- state ---------------------------------------------------------------------------------
    @property
    def database(self) -> str | None:
        return self._db

    @property
    def in_transaction(self) -> bool:
        return self.txn.in_transaction

    @property
    def holds_locks(self) -> bool:
        return self.txn.holds_locks

    @property
    def holds_write(self) -> bool:
        txn = self.txn
        return txn.in_transaction and txn.holds_write()

    @property
    def lock_mode(self) -> str | None:
        return self.txn.lock_mode

    def wait_for_read_only(self, timeout: float) -> None:
        self.txn.wait_for_global_read(timeout)

    @property
    def last_insert_id(self) -> int:
        return self.stats.last_insert_id

    def set_last_insert_id(self, value: int) -> None:
        self.stats.last_insert_id = value

    def found_rows(self) -> int:
        return self.stats.found_rows

    def row_count(self) -> int:
        return int(getattr(self.context, "row_count", self.stats.row_count))

    def time_zone(self) -> Zone:
        """The session's @@time_zone (validated when it was set). Asked by every statement
        (plans differ for UTC and other zones), so the last answer is kept."""
        text = getattr(self.context, "time_zone", None)
        if text is None:
            try:
                text = str(self.context.system_variable("time_zone"))
            except ServerError:
                text = "SYSTEM"
        if text != self._zone_text:
            self._zone = timezones.zone(text) or timezones.SYSTEM
            self._zone_text = text
        return self._zone

    def statement_utc(self) -> dt.datetime:
        """The moment the running statement started, in UTC (read once, on first use);
        SET timestamp = n fixes it (@@timestamp is the clock when not set)."""
        if self._utc is None:
            try:
                self._utc = timezones.from_unix(float(self.context.system_variable("timestamp")))
            except (ServerError, TypeError, ValueError, AttributeError):
                self._utc = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        return self._utc

    def sql_mode(self) -> str:
        try:
            return str(self.context.system_variable("sql_mode") or "")
        except ServerError:
            return ""

    def context_found_rows(self) -> bool:
        """Did the client ask for matched rather than changed rows (CLIENT_FOUND_ROWS)?"""
        return bool(getattr(self.context, "client_found_rows", False))

    def use(self, database: str | None) -> None:
        if database is None:
            self._db = None
            return
        if not self.database_known(database):
            raise ServerError(errors.ER_BAD_DB_ERROR, database)
        if database.lower() not in VIRTUAL_SCHEMAS:
            self.handle.attach(database, self._db)
        self._db = database
        if database.lower() not in VIRTUAL_SCHEMAS:
            for spec in routines.listing(self, database):
                if spec["type"] == "FUNCTION":
                    self.register_function(spec["name"])

    # --- virtual schemas: information_schema, and those only the session provides ----------
    def _provided(self, schema: str) -> list[str]:
        names = getattr(self.context, "virtual_tables", None)
        return list(names(schema)) if names is not None else []

    def is_virtual(self, database: str) -> bool:
        db = database.lower()
        return db == INFORMATION_SCHEMA or (db in SESSION_SCHEMAS and bool(self._provided(db)))

    def database_known(self, database: str) -> bool:
        return self.engine.database_exists(database) or self.is_virtual(database)

    def set_autocommit(self, on: bool) -> None:
        self.txn.set_autocommit(on)

    def _lock_timeout(self) -> float:
        try:
            return float(self.context.system_variable("innodb_lock_wait_timeout"))
        except ServerError:
            return 50.0

    # --- cancel (any thread) -----------------------------------------------------------------------
    def cancel(self) -> None:
        self._cancelled = True
        self._wake.set()
        self.engine.locks.wake_all()

    def cancelled(self) -> bool:
        return self._cancelled

    def sleep(self, seconds: float) -> None:
        with self.waiting(WaitReason.SLEEP):
            self._wake.wait(seconds)
        if self._cancelled:
            raise ServerError(errors.ER_QUERY_INTERRUPTED)

    def _start_statement(self) -> None:
        self._cancelled = False
        if not self._nested:  # a function's or trigger's statements keep the caller's clock
            self._utc = None
        if self.warnings:
            self.warnings = []
        if self._wake.is_set():  # clear() takes the event's lock: only when needed
            self._wake.clear()
        self._function_error = None
        if self.statement_state:
            self.statement_state = {}

    # --- what functions.py may ask ------------------------------------------------------------
    def function_failed(self, error: ServerError) -> None:
        self._function_error = error

    def cast(self, index: int, value: Any) -> Any:
        ex = self.current
        return value if ex is None else dml.sqlite_value(ex.cast(index, value))

    def warn(self, code: int, message: str, level: str = "Warning") -> None:
        ex = self.current
        if ex is not None and level == "Warning" and ex.aborts_on_warning():
            # strict mode: a warning while a write computes its values is its error (MariaDB's
            # abort_on_warning); Python functions report it as their failure
            err = ServerError(code, message=message, sqlstate=errors.sqlstate_of(code))
            self.function_failed(err)
            raise err
        self.warnings.append(Warning_(level, code, message))

    def division_by_zero(self) -> None:
        """x / 0: NULL, with warning 1365 under ERROR_FOR_DIVISION_BY_ZERO; a statement that
        stores the result fails with it in strict mode (MariaDB)."""
        mode = self.sql_mode()
        if "ERROR_FOR_DIVISION_BY_ZERO" not in mode:
            return
        ex = self.current
        if ex is not None and ex.strict and not ex.ignore:
            raise ServerError(errors.ER_DIVISION_BY_ZERO)
        self.warn(errors.ER_DIVISION_BY_ZERO, "Division by 0")

    def row_updated(self, changed: int) -> None:
        if self.current is not None and not self.current.rewriting:
            self.current.row_updated(changed)

    def row_deleted(self, *old: Any) -> None:
        if self.current is not None:
            self.current.row_deleted(old)

    def user_locks(self) -> Transactions:
        return self.txn

    # --- statements ----------------------------------------------------------------------------
    def scan(self, text: str, *, client_params: bool = False,
             dialect: Dialect | None = None) -> Statement:
        """Text the server composes from the client's (CREATE TABLE ... SELECT's query...):
        read in the client's character set, so `_utf8'...'` means what it meant there;
        `dialect`: the one the client's statement was read in (a prepared statement's, at its
        PREPARE), else the session's sql_mode now."""
        name = getattr(self.context, "client_charset_name", None)
        return scan(text, dialect or Dialect.of(self.sql_mode()),
                    charsets.charset(name) or charsets.UTF8MB4 if name else charsets.UTF8MB4,
                    client_params=client_params)

    def execute(self, stmt: Statement | str) -> Result:
        if isinstance(stmt, str):
            stmt = self.scan(stmt)
        self._start_statement()
        return self._run(stmt, ())

    def prepare(self, stmt: Statement | str) -> PreparedStatement:
        if isinstance(stmt, str):
            stmt = self.scan(stmt, client_params=True)
        self._start_statement()
        columns: list[Column] = []
        inner = dml.into_clause(stmt) if stmt.kind == "SELECT" else None
        if inner is not None:  # SELECT ... INTO @var / OUTFILE: no result columns
            self._compile(inner, self.plan(inner))
            return PreparedStatement(stmt.text, stmt.param_count, columns, handle=stmt)
        if stmt.is_dml:
            try:
                plan = self.plan(stmt)
            except viewdml.ThroughView:  # rewritten when executed (viewdml.py)
                return PreparedStatement(stmt.text, stmt.param_count, columns, handle=stmt)
            except ServerError as e:
                # INSERT ... SELECT of another width prepares in MariaDB: 1136 is its EXECUTE's
                if e.code != errors.ER_WRONG_VALUE_COUNT_ON_ROW or "SELECT" not in stmt.words:
                    raise
                return PreparedStatement(stmt.text, stmt.param_count, columns, handle=stmt)
            columns = _prepared_columns(plan, stmt)
            self._compile(stmt, plan)
        elif stmt.kind not in _HANDLERS:
            if not stmt.kind and not stmt.shape.strip():
                raise ServerError(errors.ER_EMPTY_QUERY)
            raise stmt.syntax_error()
        elif stmt.param_count and stmt.kind not in ("SHOW", "DESCRIBE", "DESC", "EXPLAIN"):
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "parameters in this statement")
        return PreparedStatement(stmt.text, stmt.param_count, columns, handle=stmt)

    def execute_prepared(self, prepared: PreparedStatement, params: Sequence[Any]) -> Result:
        self._start_statement()
        stmt = prepared.handle
        if not isinstance(stmt, Statement):
            stmt = self.scan(prepared.sql, client_params=True)
        if len(params) != stmt.param_count:
            raise ServerError(errors.ER_WRONG_ARGUMENTS, "mysqld_stmt_execute")
        return self._run(stmt, params)

    def _compile(self, stmt: Statement, plan: Plan) -> None:
        """Let SQLite compile the plan without running it, so that what MariaDB refuses at
        COM_STMT_PREPARE (an unknown column, a UNION of different widths...) fails here too."""
        if plan.infoschema:
            return  # its temp tables are made at execution
        self.make_visible(plan)
        names = dict.fromkeys(stmt.names)
        names.update(dict.fromkeys(plan.fixed))
        try:
            # the schema version in the text: an EXPLAIN that Python's statement cache kept
            # from before a DROP / CREATE of its table crashes SQLite when re-prepared
            self.handle.execute(f"EXPLAIN /*{self.engine.schema_version}*/ {plan.sql}",
                                names).fetchall()
        except sqlite3.Error as e:
            err = self.sqlite_error(e, plan)
            if not self._stored_function(err):
                raise err from None
            self._compile(stmt, plan)

    def run_rewritten(self, stmt: Statement, params: Sequence[Any]) -> Result:
        """A statement rewritten from the client's (viewdml.py), run as the client's is."""
        return self._run(stmt, params)

    def _run(self, stmt: Statement, params: Sequence[Any]) -> Result:
        locked = self.txn.locked
        if self.engine.table_locks.active and locked is None:
            # another session holds LOCK TABLES: wait for the tables this statement uses
            locktables.wait_for(self, stmt)
        if locked is not None and not self._nested:  # LOCK TABLES' list (locktables.py)
            locktables.check(self, stmt, locked)
            left = locktables.after_drop(self, stmt, locked)
            if left is not None:
                result = self._dispatch(stmt, params)
                if self.txn.locked is locked:
                    if left:
                        self.txn.locked = left
                    else:  # the last locked table dropped: LOCK TABLES ends (MariaDB)
                        self.txn.unlock_tables()
                return result
        return self._dispatch(stmt, params)

    def _dispatch(self, stmt: Statement, params: Sequence[Any]) -> Result:
        if self.stats.auto_is_null and stmt.kind == "SELECT" and not params:
            stmt = autoisnull.rewrite(self, stmt) or stmt
        if stmt.is_dml:
            try:
                return dml.run(self, stmt, params)
            except viewdml.ThroughView as e:
                return viewdml.run(self, stmt.text, params, e.view, bool(stmt.param_count))
            except ServerError as e:
                if not self._stored_function(e):
                    raise
            for _retry in range(8):
                # a stored function called inside another one (or inside a stored aggregate's
                # group) cannot be registered while the statement runs on the handle: it is
                # registered now, and the statement run again
                try:
                    return dml.run(self, stmt, params)
                except ServerError as e:
                    if not self._stored_function(e):
                        raise
            return dml.run(self, stmt, params)
        run = _HANDLERS.get(stmt.kind)
        if params and stmt.param_count and run is not None:
            # EXPLAIN ... ? / SHOW ... LIKE ?: the handlers read the text (bindtext.py)
            stmt = self.scan(bindtext.substitute(stmt, params))
        if run is None:
            if not stmt.kind and not stmt.shape.strip():  # text that is no statement: 1064
                raise ServerError(errors.ER_EMPTY_QUERY)
            toks = stmt.tokens or ()
            if stmt.kind in _KNOWN_FIRST_WORDS and len(toks) > 1:
                # a statement MariaDB's grammar starts (BACKUP STAGE ...): the error is at
                # the word after it
                raise stmt.syntax_error(toks[1].start)
            raise stmt.syntax_error()
        try:
            result = run(self, stmt)
        except (sqlglot.errors.ParseError, sqlglot.errors.TokenError):
            # a handler that reads part of the text with sqlglot itself (a view's query...)
            # met what sqlglot cannot read: the client's syntax error, not an internal one
            raise stmt.syntax_error() from None
        if self.handlers:  # schema statements close HANDLERs of their tables (handler.py)
            handler.after(self, stmt)
        return result

    def plan(self, stmt: Statement, *, in_lists: bool = False) -> Plan:
        """The statement's plan, cached by shape. `in_lists`: long IN lists may be one JSON
        parameter (inlist.py), for callers that bind with inlist.bind (dml.run)."""
        engine = self.engine
        shift = not self.time_zone().is_utc
        settings = self.context.translation
        key: tuple[Any, ...] = (stmt.shape, self._db, engine.schema_version, shift, settings,
                                stmt.dialect)
        if not in_lists:
            key += ("long",)
        if self.temp_tables:  # plans naming temporary tables are this session's own
            key += (temporary.plan_token(self),)
        plan = engine.cached_plan(key)
        if plan is None:
            plan = inlist.plan(stmt, self._db, self.table_def, settings, zone_shift=shift) \
                if in_lists else translate(stmt, self._db, self.table_def, settings,
                                           zone_shift=shift)
            engine.cache_plan(key, plan)
        if plan.collations is not None:  # 1267 & co. that depend on the literals' values
            plan.collations.run(dict(zip(stmt.names, stmt.slots)))
        return plan

    def access(self, stmt: Statement | str) -> tuple[TableAccess, ...]:
        """What a DML statement reads and writes, per table (access.py), cached by shape."""
        if isinstance(stmt, str):
            stmt = self.scan(stmt)
        engine = self.engine
        key: tuple[Any, ...] = (stmt.shape, self._db, engine.schema_version, "access")
        if self.temp_tables:  # temporary tables shadow others: this session's own answer
            key += (temporary.plan_token(self),)
        found = engine.cached_plan(key)
        if found is None:
            found = table_access(stmt, self._db, self.table_def)
            engine.cache_plan(key, found)
        return found  # type: ignore[no-any-return]

    def table_versions(self, stmt: Statement) -> Any:
        """The versions of the tables a prepared statement uses (tableversions.py)."""
        return tableversions.taken(self, stmt)

    def tables_changed(self, versions: Any) -> bool:
        return tableversions.changed(self, versions)

    def is_temporary(self, database: str | None, table: str) -> bool:
        """Is database.table this session's temporary table (no privilege applies to it)?"""
        db = database or self._db
        return bool(self.temp_tables) and db is not None and \
            temporary.find(self, db, table) is not None

    def make_visible(self, plan: Plan) -> None:
        """Attach the databases the plan reads (a missing one is left to fail as 1146) and
        materialize its virtual tables (information_schema, performance_schema)."""
        for db in plan.databases:
            if not self.handle.attached(db) and self.engine.database_exists(db):
                self.handle.attach(db, self._db)
        if plan.infoschema:
            self._materialize(plan.infoschema)

    def _materialize(self, tables: Sequence[str]) -> None:
        for key in tables:
            data = self._infoschema(key)
            if data is None:
                raise ServerError(errors.ER_NO_SUCH_TABLE, *split_key(key))
            cols, rows = data
            tname = f"temp.{catalog.q(temp_name(key))}"
            try:
                self.handle.execute(f"DROP TABLE IF EXISTS {tname}")
            except sqlite3.OperationalError:
                # a statement of the handle is running (a trigger's or a stored function's
                # statement reads it, inside the outer one): SQLite drops no table then, so
                # the table the outer statement made is emptied and filled again
                self.handle.execute(f"DELETE FROM {tname}")
            else:
                self.handle.execute(f"CREATE TABLE {tname} (" + ", ".join(
                    catalog.q(c.name) + _IS_COLLATE for c in cols) + ")")
            if rows:
                marks = ", ".join("?" * len(cols))
                self.handle.executemany(f"INSERT INTO {tname} VALUES ({marks})",
                                        [tuple(dml.sqlite_value(v) for v in r) for r in rows])

    def _infoschema(self, key: str) -> tuple[list[Column], list[tuple[Any, ...]]] | None:
        """The columns and rows of the virtual table `key` (translate.virtual_key)."""
        schema, name = split_key(key)
        provided = self.context.virtual_table(schema, name)
        if provided is None and (schema, name) in MYSQL_VIRTUAL:  # mysqltables.py
            from rampmeter.engine.sqlite import infoschema_objects
            return infoschema_objects.mysql_proc(self) if name == "proc" else \
                infoschema_objects.mysql_event(self)
        if provided is not None or schema != INFORMATION_SCHEMA:
            return provided
        builder = INFOSCHEMA_TABLES.get(name.upper())
        return builder(self) if builder else None

    # --- tables -----------------------------------------------------------------------------
    def schema(self, database: str | None) -> str:
        """The attached schema of `database` (the current one when None): 1046 / 1049."""
        db = database or self._db
        if db is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        if not self.engine.database_exists(db) or db.lower() in VIRTUAL_SCHEMAS:
            raise ServerError(errors.ER_BAD_DB_ERROR, db)
        return self.handle.attach(db, self._db)

    def find_table(self, schema: str, table: str) -> str | None:
        return catalog.find_table(self.handle.conn, schema, table)

    def load_table(self, schema: str, table: str) -> TableDef:
        return catalog.load_table(self.handle.conn, schema, table)

    def result_types(self, stmt: Statement) -> list[Any]:
        """The types a query's result columns have inside the server (CREATE TABLE ...
        SELECT's): a string expression's own character set, which its wire column, in the
        result character set, does not say (a ROW TYPE OF cursor's fields)."""
        from rampmeter.engine.sqlite import create_select
        return [c.type for c in create_select._result_columns(self, stmt)]

    def table_def(self, database: str, table: str) -> TableDef | None:
        """The definition of database.table, cached per schema version; None if absent."""
        if database.lower() in VIRTUAL_SCHEMAS:
            return None
        if self.temp_tables:
            temp = temporary.load(self, database, table)
            if temp is not None:
                return temp
        key = (database.lower(), table.lower(), self.engine.schema_version)
        cached = self.engine.cached_table(key)
        if cached is not False:
            return cached  # type: ignore[return-value]
        try:
            with self.handle.meta_conn(database, self._db) as (conn, schema):
                stored = catalog.find_table(conn, schema, table)
                tdef = catalog.load_table(conn, schema, stored) if stored else \
                    views.load_typed(self, conn, schema, database, table)
        except (ServerError, sqlite3.Error):
            tdef = None
        self.engine.cache_table(key, tdef)
        return tdef

    def resolve_table(self, database: str | None, table: str) -> tuple[str, str]:
        """(database, stored table name) of an existing table; 1046 / 1049 / 1146."""
        db = database or self._db
        if db is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        if not self.database_known(db):
            raise ServerError(errors.ER_BAD_DB_ERROR, db)
        if db.lower() == INFORMATION_SCHEMA:
            if table.upper() in INFOSCHEMA_TABLES or \
                    self.context.virtual_table(INFORMATION_SCHEMA, table) is not None:
                return db, table.upper()
            raise ServerError(errors.ER_NO_SUCH_TABLE, db, table)
        if db.lower() in SESSION_SCHEMAS:
            if table.lower() in self._provided(db.lower()):
                return db, table.lower()
            raise ServerError(errors.ER_NO_SUCH_TABLE, db, table)
        tdef = self.table_def(db, table)
        if tdef is None:
            virtual = mysqltables.virtual_name(self, db, table)
            if virtual is not None:
                return db, virtual
            raise ServerError(errors.ER_NO_SUCH_TABLE, db, table)
        return db, tdef.name

    def existing_table(self, database: str | None, table: str) -> tuple[str, TableDef]:
        """(attached schema, definition) of a table DDL is about to change; 1146 if absent.
        A temporary table is ('temp', its definition under its physical name)."""
        schema = self.schema(database)
        if self.temp_tables:
            temp = temporary.find(self, database or schema, table)
            if temp is not None:
                return temporary.SCHEMA, temporary.load_physical(self, temp)
        stored = self.find_table(schema, table)
        if stored is None:
            if self.find_view(schema, table) is not None:
                raise ServerError(1347, message=f"'{database or schema}.{table}' is not of "
                                  "type 'BASE TABLE'", sqlstate="HY000")
            raise ServerError(errors.ER_NO_SUCH_TABLE, schema, table)
        return schema, self.load_table(schema, stored)

    def find_view(self, schema: str, name: str) -> str | None:
        return views.find(self.handle.conn, schema, name)

    @contextmanager
    def ddl(self) -> Iterator[None]:
        """The context of a schema change: one transaction under the lock, then the schema
        version moves (cached plans and definitions are dropped)."""
        try:
            with self.txn.ddl():
                yield
        except sqlite3.Error as e:
            raise self.sqlite_error(e) from None
        finally:
            self.engine.schema_changed()

    # --- stored routines (routines.py keeps them; session/sp/ reads and runs them) -----------
    def routine_load(self, database: str, kind: str, name: str) -> dict[str, Any] | None:
        return routines.load(self, database, kind, name)

    def routine_type(self, name: str) -> SqlType | None:
        """The declared RETURNS type of stored function `name` (of the current database, or
        db.f's spelled by sfnames), for the statement's types (infer.py); None if none."""
        if name[:3].lower() in ("rm_", "mf_") and not name.lower().startswith(sfnames.PREFIX):
            return None
        found = sfnames.split(name)
        db, fname = found if found is not None else (self._db, name)
        if db is None:
            return None
        try:
            spec = self.routine_load(db, "FUNCTION", fname)
            return parse_type(spec["returns"]) if spec and spec.get("returns") else None
        except (ServerError, ValueError, KeyError, sqlite3.Error):
            return None

    def routine_list(self, database: str) -> list[dict[str, Any]]:
        return routines.listing(self, database)

    def routine_store(self, database: str, kind: str, name: str, spec: dict[str, Any]) -> None:
        routines.store(self, database, kind, name, spec)
        if kind == "FUNCTION":  # usable at once, in views' SELECTs too
            self.register_function(name)

    def routine_drop(self, database: str, kind: str, name: str) -> bool:
        return routines.remove(self, database, kind, name)

    def trigger_load(self, database: str, name: str) -> dict[str, Any] | None:
        return triggers.load(self, database, name)

    def trigger_create(self, database: str, spec: dict[str, Any]) -> None:
        triggers.create(self, database, spec)

    def trigger_drop(self, database: str, name: str) -> bool:
        return triggers.drop(self, database, name)

    def _stored_function(self, error: ServerError) -> bool:
        """SQLite did not know a function: is it a stored function of the current database?
        Then it is registered on the handle (calling back into the session layer, with this
        statement's state kept aside) and the statement can be run again: SQLite refuses an
        unknown function before running anything."""
        if error.code != errors.ER_SP_DOES_NOT_EXIST or not error.message.startswith("FUNC"):
            return False
        db, _, name = error.message.split()[1].rpartition(".")
        if db and (self._db is None or db.lower() != self._db.lower()):
            # db.f(...) of another database, or with no current one (sfnames.py)
            name = sfnames.qualified(db, name) or name
        elif db:  # f(...) or db.f(...) of the current database: either spelling
            spelled = sfnames.qualified(db, name)
            if spelled is not None and not self.register_function(spelled):
                return False
        return self.register_function(name)

    def register_function(self, name: str) -> bool:
        """Make stored function `name` (of the current database) known to SQLite."""
        find = getattr(self.context, "stored_function", None)
        fn = find(name) if find is not None else None
        if fn is None:
            return False

        handle = self.handle
        occupant = handle.occupant

        def call(*args: Any) -> Any:
            # Handles are lent (handles.py): whoever occupies this one when SQLite calls is the
            # session asking, and the function is looked up in its current database, so a
            # registration made for another session or database never answers for this one.
            s = occupant.session
            assert s is not None
            here = s.context.stored_function(name)
            if here is None:
                named = sfnames.split(name)
                err = ServerError(errors.ER_SP_DOES_NOT_EXIST, "FUNCTION",
                                  ".".join(named) if named else f"{s.database}.{name}")
                s.function_failed(err)
                raise err
            if getattr(here, "with_notes", False):
                # the session layer's stored functions: the value and the conditions they
                # leave the calling statement
                value, notes = s.run_nested(here, *args)
                for note in notes:
                    s.warn(note.code, note.message, note.level)
                return dml.sqlite_value(value)
            return dml.sqlite_value(s.run_nested(here, *args))
        try:
            if getattr(fn, "aggregate", False):  # CREATE AGGREGATE FUNCTION: over a group
                handle.create_group_function(name, call)
            else:
                handle.create_function(name, -1, call)
        except sqlite3.OperationalError:
            # SQLite takes no new function while a statement runs on the handle (a stored
            # function of another database entering it): the next statement registers it
            return False
        return True

    @contextmanager
    def system_read(self) -> Iterator[None]:
        self._nested += 1  # (base.py) LOCK TABLES' list is not asked, as for nested work
        try:
            yield
        finally:
            self._nested -= 1

    def run_nested(self, fn: Any, *args: Any) -> Any:
        """Run `fn` (the session layer's: a stored function, a trigger) from inside a running
        statement: the statement's own state is kept aside and restored, and an error is
        handed to the statement as a function's error."""
        # the clock is the calling statement's (MariaDB: NOW() in a stored function or
        # trigger is the start of the statement that called it)
        self.statement_utc()
        saved = (self.current, self.warnings, self.statement_state, self._utc)
        self._nested += 1
        try:
            return fn(*args)
        except ServerError as e:
            self.function_failed(e)
            raise
        except Exception as e:  # noqa: BLE001 - a fault of ours: logged, 1105 for the client
            log.exception("inside a stored function or trigger")
            self.function_failed(ServerError(errors.ER_UNKNOWN_ERROR, str(e)))
            raise
        finally:
            self._nested -= 1
            self.current, self.warnings, self.statement_state, self._utc = saved

    # --- errors ---------------------------------------------------------------------------------
    def sqlite_error(self, e: sqlite3.Error, plan: Plan | None = None,
                     bound: dict[str, Any] | None = None) -> ServerError:
        if self._function_error is not None:
            err, self._function_error = self._function_error, None
            if err.code == errors.ER_DATA_OUT_OF_RANGE and bound:
                err = ServerError(err.code, message=_with_literals(err.message, bound),
                                  sqlstate=err.sqlstate)
            return err
        msg = str(e)
        if self._cancelled or msg == "interrupted":
            return ServerError(errors.ER_QUERY_INTERRUPTED)
        if getattr(e, "sqlite_errorcode", 0) == 517:  # SQLITE_BUSY_SNAPSHOT
            self.txn.lost()
            return ServerError(errors.ER_LOCK_DEADLOCK)
        if plan is not None and plan.target is not None and \
                (m := errmap.UNIQUE.search(msg)) is not None:
            tdef = self.table_def(*plan.target)
            shown = {}
            if plan.insert_values and bound is not None:
                shown = {col: _shown_value(bound.get(slot))
                         for col, slot in plan.insert_values.items()}
            return errmap.duplicate_entry(m.group(1), tdef, shown)
        target = plan.target if plan is not None else None
        stored = errmap.storage_error(getattr(e, "sqlite_errorcode", None), msg,
                                      target[0] if target else self._db,
                                      target[1] if target else None)
        if stored is not None:
            self.engine.rate_log.log(log, "storage", logging.ERROR, "%s (SQLite: %s; connection %s)",
                                     stored.message, msg, getattr(self.context,
                                                                  "connection_id", "?"))
            return stored
        err = errmap.map_error(msg, self._db, plan.sql if plan is not None else None)
        if err.code == errors.ER_UNKNOWN_ERROR:
            log.warning("SQLite error without a MySQL equivalent: %s (plan: %s)", msg,
                        plan.sql if plan is not None else "-")
        return err

    # --- metadata -------------------------------------------------------------------------------
    def list_databases(self) -> list[str]:
        """The databases this session's account may see (SessionContext.visible)."""
        provided = [s for s in SESSION_SCHEMAS if self._provided(s)]
        names = sorted([*self.engine.databases(), *provided], key=str.lower)
        visible = getattr(self.context, "visible", None)
        return names if visible is None else [d for d in names if visible(d)]

    def list_tables(self, database: str | None = None) -> list[str]:
        """The tables of a database this session's account may see."""
        db = database or self._db
        if db is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        if db.lower() == INFORMATION_SCHEMA:
            return sorted(INFOSCHEMA_TABLES)
        if db.lower() in SESSION_SCHEMAS:
            names = sorted(self._provided(db.lower()))
        else:
            with self.handle.meta_conn(db, self._db) as (conn, schema):
                names = sorted(catalog.table_names(conn, schema) + views.names(conn, schema))
            names = mysqltables.listed(db, names)
        visible = getattr(self.context, "visible", None)
        return names if visible is None else [t for t in names if visible(db, t)]

    def list_views(self, database: str) -> set[str]:
        """The names among list_tables(database) that are views."""
        if database.lower() in VIRTUAL_SCHEMAS:
            return set()
        with self.handle.meta_conn(database, self._db) as (conn, schema):
            return set(views.names(conn, schema))

    def table_columns(self, table: str, database: str | None = None) -> list[TableColumn]:
        db, stored = self.resolve_table(database, table)
        if db.lower() in VIRTUAL_SCHEMAS or mysqltables.virtual_name(self, db, stored):
            data = self._infoschema(virtual_key(db, stored))
            if data is None:
                raise ServerError(errors.ER_NO_SUCH_TABLE, db, table)
            return [TableColumn(c.name, "varchar(64)", True, "", None, "", c) for c in data[0]]
        tdef = self.table_def(db, stored)
        assert tdef is not None
        return catalog.table_columns(tdef, db)

    def table_indexes(self, table: str, database: str | None = None) -> list[TableIndex]:
        db, stored = self.resolve_table(database, table)
        tdef = self.table_def(db, stored)
        return catalog.table_indexes(tdef) if tdef is not None else []

    def show_create_table(self, table: str, database: str | None = None) -> str:
        db, stored = self.resolve_table(database, table)
        tdef = self.table_def(db, stored)
        if tdef is None:
            if mysqltables.virtual_name(self, db, stored) is not None:
                return mysqltables.CREATE[stored]
            raise ServerError(errors.ER_NO_SUCH_TABLE, db, table)
        if tdef.location is not None:  # a temporary table
            auto = catalog.sequence_next(self.handle.conn, *tdef.location)
            return "CREATE TEMPORARY" + \
                catalog.show_create(tdef, auto, self.sql_mode())[len("CREATE"):]
        with self.handle.meta_conn(db, self._db) as (conn, schema):
            auto = catalog.sequence_next(conn, schema, stored)
        return catalog.show_create(tdef, auto, self.sql_mode())

    # --- life cycle --------------------------------------------------------------------------------
    def reset(self) -> None:
        self.txn.release_everything()
        self.handlers.clear()
        temporary.drop_all(self)
        self.stats = Stats()
        self.idle()

    def close(self) -> None:
        """Roll back, release every lock, and give the handle back (closed instead when it
        holds this session's temporary tables, which go with it)."""
        self.txn.release_everything()
        self._give_back(discard=bool(self.temp_tables))
        self.temp_tables = 0


_SLOT = re.compile(r"RM_BIN2NUM\((:[a-z]\w*)\)|:([a-z]\d+(?:_\d+)?)\b")


def _with_literals(message: str, bound: dict[str, Any]) -> str:
    """An expression quoted in a message, with its literals back in place of the plan's
    placeholders (`:u0 - :i1` -> `18446744073709551615 - 1`)."""
    def literal(m: re.Match[str]) -> str:
        name = (m.group(1) or ":" + m.group(2))[1:]
        if name not in bound:
            return m.group(0)
        v = _shown_value(bound[name])
        if isinstance(v, bytes):
            return "0x" + v.hex() if name[:1] == "x" else "'" + v.decode("utf-8", "replace") + "'"
        if isinstance(v, str):
            return "'" + v + "'"
        return "NULL" if v is None else str(v)
    return _SLOT.sub(literal, message)


def _shown_value(v: Any) -> Any:
    if isinstance(v, str) and v[:1] == "~" and v[1:].isdigit():
        return int(v[1:])
    return v


def _prepared_columns(plan: Plan, stmt: Statement) -> list[Column]:
    """The columns COM_STMT_PREPARE announces for a query (what is known before execute)."""
    if plan.outputs is None:
        return []
    out: list[Column] = []
    for o in plan.outputs:
        name = o.name
        if isinstance(name, int):
            name = stmt.items[name] if stmt.items is not None and name < len(stmt.items) \
                else "?"
        elif name is None:
            name = "?"
        if o.sql_type is not None:
            col = o.sql_type.column(name, flags=o.flags)
            if o.org_table:
                col = col.named(name, table=o.table, schema=o.schema, org_name=o.org_name,
                                org_table=o.org_table)
            out.append(col)
        else:
            out.append(text_column(name))
    return out
