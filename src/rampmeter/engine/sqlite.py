"""The default engine: MySQL statements on embedded SQLite, one file per database.

Layout: `<datadir>/<database>.sqlite3` in WAL mode (plus -wal/-shm beside it); a database exists
when its file does. Every session owns one sqlite3 connection whose `main` is an empty in-memory
database; each MySQL database the session touches is ATTACHed under its own name, and every table
reference is qualified by translate.py, so `db.t` and cross-database joins work as in MySQL.

Rules:
- Statements are routed by their first word: DML goes through the shape cache (translate.py:
  sqlglot parses a shape once per engine, keyed by shape, current database and schema version);
  transaction control, DDL, SHOW / DESCRIBE and LOCK TABLES are handled here.
- Transactions (see locks.py for why writers queue in Python): an explicit BEGIN / START
  TRANSACTION takes the engine's write lock and runs BEGIN IMMEDIATE, so a transaction never
  fails half-way on a lost write race; START TRANSACTION READ ONLY and the implicit transaction
  of autocommit=0 start deferred (a snapshot) and take the lock at their first write, where a
  snapshot another writer has overtaken fails with 1213 (SQLite's BUSY_SNAPSHOT, the nearest
  thing to a deadlock victim) and the transaction is rolled back. An autocommit write holds the
  lock for its one statement. DDL commits implicitly first, as in MySQL.
- Waits are reported: the write lock is awaited in waiting(TABLE_LOCK), GET_LOCK in
  waiting(USER_LOCK), SLEEP() in waiting(SLEEP); LOCK TABLES and FLUSH ... WITH READ LOCK hold
  the write lock (waiting(GLOBAL_LOCK) for the latter); innodb_lock_wait_timeout bounds lock
  waits (1205).
- cancel() (KILL QUERY / KILL / shutdown, any thread) sets a flag, wakes SLEEP and lock waits,
  and interrupts SQLite (sqlite3_interrupt plus a progress handler that sees the flag); the
  statement fails with 1317. The flag is cleared when the next statement starts.
- Values of the session (@@vars, @vars, CONNECTION_ID(), DATABASE(), USER(), LAST_INSERT_ID()
  ...) are SQLite functions registered per connection that ask the SessionContext.
"""

from __future__ import annotations

import datetime as dt
import decimal
import os
import re
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlglot import exp

from rampmeter import errors
from rampmeter.engine import catalog
from rampmeter.engine.base import (
    Engine,
    EngineSession,
    PreparedStatement,
    Result,
    ResultSet,
    SessionContext,
    TableColumn,
    TableIndex,
    UpdateCount,
    WaitHook,
    WaitReason,
)
from rampmeter.engine.catalog import q
from rampmeter.engine.locks import WRITE_LOCK, LockTable, WaitAborted
from rampmeter.engine.translate import (
    DML,
    INFORMATION_SCHEMA,
    ClientParam,
    Extracted,
    Plan,
    bind,
    extract,
    temp_name,
    translate,
    unescape,
)
from rampmeter.engine.types import column_for_values, wire_adapter
from rampmeter.errors import ServerError, Warning_
from rampmeter.protocol.columns import Column, int_column, text_column

SUFFIX = ".sqlite3"
_PLAN_CACHE_LIMIT = 20_000
_PROGRESS_EVERY = 100_000   # SQLite VM instructions (about a millisecond)
_CACHE_KIB = 256            # per session and database (SQLite's default is 2000 KiB)
_DB_NAME = re.compile(r"^[^/\\.\x00][^/\\\x00]{0,63}$")


def _adapt_decimal(d: decimal.Decimal) -> float | int:
    return int(d) if d == d.to_integral_value() and abs(d) < 2**63 else float(d)


def _adapt_timedelta(td: dt.timedelta) -> str:
    total = int(td.total_seconds())
    sign = "-" if total < 0 else ""
    total = abs(total)
    text = f"{sign}{total // 3600:02d}:{total % 3600 // 60:02d}:{total % 60:02d}"
    return text + (f".{td.microseconds:06d}" if td.microseconds else "")


sqlite3.register_adapter(decimal.Decimal, _adapt_decimal)
sqlite3.register_adapter(dt.datetime, lambda v: v.isoformat(" "))
sqlite3.register_adapter(dt.date, lambda v: v.isoformat())
sqlite3.register_adapter(dt.time, lambda v: v.isoformat())
sqlite3.register_adapter(dt.timedelta, _adapt_timedelta)
sqlite3.register_adapter(bool, int)


class SqliteEngine(Engine):
    name = "sqlite"

    def __init__(self, datadir: str | os.PathLike[str], *, synchronous: str = "FULL") -> None:
        self.datadir = Path(datadir)
        self.datadir.mkdir(parents=True, exist_ok=True)
        self.synchronous = synchronous.upper()
        self.locks = LockTable()
        self._lock = threading.Lock()
        self.schema_version = 0
        self._generation: dict[str, int] = {}  # db -> bumped when dropped
        self.plans: dict[tuple[str, str | None, int], Plan] = {}
        self.metas: dict[tuple[str, str, int], list[TableColumn] | None] = {}

    def path(self, database: str) -> Path:
        return self.datadir / (database + SUFFIX)

    def database_exists(self, name: str) -> bool:
        return name.lower() == INFORMATION_SCHEMA or (
            bool(_DB_NAME.match(name)) and self.path(name).is_file())

    def databases(self) -> list[str]:
        names = [p.name[:-len(SUFFIX)] for p in self.datadir.glob("*" + SUFFIX)]
        return sorted([INFORMATION_SCHEMA, *names], key=str.lower)

    def generation(self, database: str) -> int:
        return self._generation.get(database.lower(), 0)

    def schema_changed(self, dropped: str | None = None) -> None:
        with self._lock:
            self.schema_version += 1
            self.plans = {}
            self.metas = {}
            if dropped is not None:
                key = dropped.lower()
                self._generation[key] = self._generation.get(key, 0) + 1

    def create_database_file(self, name: str) -> None:
        conn = sqlite3.connect(self.path(name), isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(catalog.meta_table_ddl("main"))
        finally:
            conn.close()

    def remove_database_files(self, name: str) -> None:
        for suffix in (SUFFIX, SUFFIX + "-wal", SUFFIX + "-shm", SUFFIX + "-journal"):
            try:
                os.unlink(self.datadir / (name + suffix))
            except FileNotFoundError:
                pass

    def open_session(self, context: SessionContext, waiting: WaitHook) -> SqliteSession:
        return SqliteSession(self, context, waiting)

    def close(self) -> None:
        pass


class _Transaction:
    __slots__ = ("explicit", "read_only")

    def __init__(self, *, explicit: bool, read_only: bool = False) -> None:
        self.explicit = explicit
        self.read_only = read_only


def _udf(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run a session function; a ServerError it raises is kept for the statement's error."""
    def wrapper(self: SqliteSession, *args: Any) -> Any:
        try:
            return fn(self, *args)
        except ServerError as e:
            self._udf_error = e
            raise
        except WaitAborted:
            self._udf_error = ServerError(errors.ER_QUERY_INTERRUPTED)
            raise
    wrapper.__name__ = fn.__name__
    return wrapper


class SqliteSession(EngineSession):
    def __init__(self, engine: SqliteEngine, context: SessionContext, waiting: WaitHook) -> None:
        self.engine = engine
        self.context = context
        self._waiting = waiting
        self.conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False,
                                    cached_statements=256)
        self.conn.execute("PRAGMA temp_store=MEMORY")
        # The progress handler only closes the race of a KILL QUERY that lands just before a
        # statement starts (sqlite3_interrupt does the rest). Each call takes the GIL, so it
        # runs rarely: every 2000 instructions, four CPU-bound statements kept the GIL so busy
        # that a short statement of another connection waited seconds for it.
        self.conn.set_progress_handler(self._progress, _PROGRESS_EVERY)
        self._attach_limit = self.conn.getlimit(sqlite3.SQLITE_LIMIT_ATTACHED)
        self._attached: dict[str, tuple[str, int]] = {}  # lower name -> (name, generation)
        self._db: str | None = None
        self._txn: _Transaction | None = None
        self._autocommit = True
        self._lock_tables = 0  # holds of the write lock for LOCK TABLES / FTWRL
        self._user_locks = 0  # GET_LOCK holds
        self._cancelled = False
        self._wake = threading.Event()
        self._udf_error: ServerError | None = None
        self._last_insert_id = 0
        self._found_rows = 0
        self._row_count = -1
        self._closed = False
        self._register_functions()

    # --- state ---------------------------------------------------------------------------
    @property
    def database(self) -> str | None:
        return self._db

    @property
    def in_transaction(self) -> bool:
        return self._txn is not None

    @property
    def holds_locks(self) -> bool:
        """LOCK TABLES / FTWRL or GET_LOCK locks (the write lock of a transaction is covered
        by in_transaction). Plain counters: the pool asks this on every command."""
        return self._lock_tables > 0 or self._user_locks > 0

    @property
    def last_insert_id(self) -> int:
        return self._last_insert_id

    def use(self, database: str | None) -> None:
        if database is None:
            self._db = None
            return
        if not self.engine.database_exists(database):
            raise ServerError(errors.ER_BAD_DB_ERROR, database)
        if database.lower() != INFORMATION_SCHEMA:
            self._attach(database)
        self._db = database

    def cancel(self) -> None:
        self._cancelled = True
        self._wake.set()
        self.engine.locks.wake_all()
        try:
            self.conn.interrupt()
        except sqlite3.ProgrammingError:
            pass  # closed meanwhile

    def _progress(self) -> int:
        return 1 if self._cancelled else 0

    def _start_statement(self) -> None:
        self._cancelled = False
        self._wake.clear()
        self._udf_error = None

    def _check_cancelled(self) -> None:
        if self._cancelled:
            raise ServerError(errors.ER_QUERY_INTERRUPTED)

    # --- attach ---------------------------------------------------------------------------
    def _attach(self, database: str) -> None:
        key = database.lower()
        gen = self.engine.generation(database)
        have = self._attached.get(key)
        if have is not None:
            if have[1] == gen:
                return
            self._detach(key)  # dropped (and maybe re-created) since we attached it
        if not self.engine.database_exists(database):
            raise ServerError(errors.ER_BAD_DB_ERROR, database)
        if self.conn.in_transaction:
            raise ServerError(errors.ER_NOT_SUPPORTED_YET,
                              f"a first use of database {database} inside a transaction")
        while len(self._attached) >= self._attach_limit - 1:
            victim = next(k for k in self._attached if k != (self._db or "").lower())
            self._detach(victim)
        self.conn.execute(f"ATTACH DATABASE ? AS {q(database)}", (str(self.engine.path(database)),))
        self.conn.execute(f"PRAGMA {q(database)}.synchronous={self.engine.synchronous}")
        # Thousands of sessions each with SQLite's default 2 MiB page cache per database cost
        # gigabytes (611 MiB RSS at 1024 sysbench read-only connections); the OS page cache
        # holds the file for everyone anyway. (Memory-mapped I/O would share pages but maps
        # the file once per session, which makes RSS meaningless.)
        self.conn.execute(f"PRAGMA {q(database)}.cache_size=-{_CACHE_KIB}")
        self._attached[key] = (database, gen)

    def _detach(self, key: str) -> None:
        name, _gen = self._attached.pop(key)
        try:
            self.conn.execute(f"DETACH DATABASE {q(name)}")
        except sqlite3.OperationalError:
            pass

    def _schema(self, database: str | None) -> str:
        """The attached schema name for `database` (the current one when None)."""
        db = database or self._db
        if db is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        if not self.engine.database_exists(db) or db.lower() == INFORMATION_SCHEMA:
            raise ServerError(errors.ER_BAD_DB_ERROR, db)
        self._attach(db)
        return self._attached[db.lower()][0]

    # --- locks and transactions ------------------------------------------------------------
    def _lock_timeout(self) -> float:
        try:
            return float(self.context.system_variable("innodb_lock_wait_timeout"))
        except ServerError:
            return 50.0

    def _acquire_write(self, reason: WaitReason = WaitReason.TABLE_LOCK) -> None:
        locks = self.engine.locks
        if locks.try_acquire(WRITE_LOCK, self):
            return
        with self._waiting(reason):
            try:
                ok = locks.acquire(WRITE_LOCK, self, self._lock_timeout(),
                                   lambda: self._cancelled)
            except WaitAborted:
                raise ServerError(errors.ER_QUERY_INTERRUPTED) from None
        if not ok:
            raise ServerError(errors.ER_LOCK_WAIT_TIMEOUT)

    def _release_write(self) -> None:
        self.engine.locks.release(WRITE_LOCK, self)

    def _holds_write(self) -> bool:
        return self.engine.locks.owner_of(WRITE_LOCK) is self

    def _begin(self, *, explicit: bool, write: bool, read_only: bool = False) -> None:
        if write:
            self._acquire_write()
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error:
                self._release_write()
                raise
        else:
            self.conn.execute("BEGIN")
        self._txn = _Transaction(explicit=explicit, read_only=read_only)

    def _end(self, how: str) -> None:
        """COMMIT or ROLLBACK the open transaction (if any) and drop its write lock."""
        txn, self._txn = self._txn, None
        try:
            if txn is not None and self.conn.in_transaction:
                self.conn.execute(how)
        finally:
            if txn is not None and self._holds_write():
                self._release_write()

    def _implicit_commit(self) -> None:
        if self._txn is not None:
            self._end("COMMIT")

    def set_autocommit(self, on: bool) -> None:
        if on and not self._autocommit:
            self._implicit_commit()
        self._autocommit = on

    # --- statements ------------------------------------------------------------------------
    def execute(self, sql: str) -> Result:
        self._start_statement()
        ex = extract(sql)
        return self._run(ex, ())

    def prepare(self, sql: str) -> PreparedStatement:
        self._start_statement()
        ex = extract(sql, client_params=True)
        count = sum(1 for s in ex.slots if type(s) is ClientParam)
        columns: list[Column] = []
        if ex.first_word in DML:
            plan = self._plan(ex)
            if plan.columns is not None or plan.names:
                names = plan.names or []
                cols = plan.columns or [None] * len(names)
                columns = [c if c is not None else text_column(names[i] if i < len(names)
                                                               else "?")
                           for i, c in enumerate(cols)]
        elif count and ex.first_word not in ("SHOW", "DESCRIBE", "DESC", "EXPLAIN"):
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "parameters in this statement")
        return PreparedStatement(sql, count, columns, handle=ex)

    def execute_prepared(self, stmt: PreparedStatement, params: Sequence[Any]) -> Result:
        self._start_statement()
        ex = stmt.handle
        if not isinstance(ex, Extracted):
            ex = extract(stmt.sql, client_params=True)
        if len(params) != stmt.param_count:
            raise ServerError(errors.ER_WRONG_ARGUMENTS, "mysqld_stmt_execute")
        return self._run(ex, params)

    def _run(self, ex: Extracted, params: Sequence[Any]) -> Result:
        word = ex.first_word
        if word in DML:
            plan = self._plan(ex)
            return self._execute_plan(plan, bind(ex.slots, params), ex.for_update)
        handler = _STATEMENTS.get(word)
        if handler is None:
            if not word:
                raise ServerError(errors.ER_EMPTY_QUERY)
            raise ServerError(errors.ER_PARSE_ERROR, ex.shape[:80], 1)
        return handler(self, ex.shape, ex)

    def _plan(self, ex: Extracted) -> Plan:
        engine = self.engine
        key = (ex.shape, self._db, engine.schema_version)
        plan = engine.plans.get(key)
        if plan is None:
            plan = translate(ex.shape, self._db, self._table_meta)
            if len(engine.plans) > _PLAN_CACHE_LIMIT:
                engine.plans = {}
            if key[2] == engine.schema_version:
                engine.plans[key] = plan
        return plan

    def _table_meta(self, database: str, table: str) -> list[TableColumn] | None:
        if database.lower() == INFORMATION_SCHEMA:
            return None
        key = (database.lower(), table.lower(), self.engine.schema_version)
        metas = self.engine.metas
        if key in metas:
            return metas[key]
        try:
            with self._meta_conn(database) as (conn, schema):
                stored = catalog.find_table(conn, schema, table)
                meta = catalog.columns(conn, schema, stored) if stored else None
        except ServerError:
            meta = None
        metas[key] = meta
        return meta

    @contextmanager
    def _meta_conn(self, database: str) -> Iterator[tuple[sqlite3.Connection, str]]:
        """A connection that sees `database`: ours when attached (or attachable), otherwise a
        short-lived one (we cannot ATTACH inside a transaction)."""
        if not self.engine.database_exists(database) or database.lower() == INFORMATION_SCHEMA:
            raise ServerError(errors.ER_BAD_DB_ERROR, database)
        key = database.lower()
        if key in self._attached or not self.conn.in_transaction:
            self._attach(database)
            yield self.conn, self._attached[key][0]
            return
        conn = sqlite3.connect(f"file:{self.engine.path(database)}?mode=ro", uri=True)
        try:
            yield conn, "main"
        finally:
            conn.close()

    def _execute_plan(self, plan: Plan, values: dict[str, Any], for_update: bool) -> Result:
        self._make_visible(plan)
        txn = self._txn
        if plan.writes and txn is not None and txn.read_only:
            raise ServerError(errors.ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION)
        wants_lock = plan.writes or (for_update and (txn is not None or not self._autocommit))
        statement_lock = False
        if wants_lock and not self._holds_write():
            if txn is not None:
                self._acquire_write()  # kept until the transaction ends
            elif self._autocommit:
                self._acquire_write()
                statement_lock = True
            else:
                self._begin(explicit=False, write=True)
        elif txn is None and not self._autocommit:
            self._begin(explicit=False, write=False)
        rowid_before = None
        try:
            if plan.upsert and not plan.multi_row:
                rowid_before = self.conn.execute("SELECT last_insert_rowid()").fetchone()[0]
            cur = self.conn.execute(plan.sql, values)
            rows = cur.fetchall() if cur.description is not None else None
        except sqlite3.Error as e:
            raise self._error(e, plan, values) from None
        finally:
            if statement_lock:
                self._release_write()
        if rows is not None:
            self._found_rows = len(rows)
            self._row_count = -1
            return self._result_set(plan, cur.description, rows)
        affected = max(cur.rowcount, 0)
        self._row_count = affected
        if rowid_before is not None and affected == 1 and cur.lastrowid == rowid_before:
            # ON DUPLICATE KEY UPDATE updated the row (an insert would have set a new rowid):
            # MySQL counts that as 2 affected rows and leaves LAST_INSERT_ID() alone.
            self._row_count = 2
            return UpdateCount(2, 0, "")
        if plan.kind in ("INSERT", "REPLACE"):
            return self._insert_result(plan, cur, affected)
        info = ""
        if plan.kind == "UPDATE":
            info = f"Rows matched: {affected}  Changed: {affected}  Warnings: 0"
        return UpdateCount(affected, 0, info)

    def _make_visible(self, plan: Plan) -> None:
        """Attach the databases the plan reads (a missing one is left to fail as 1146) and
        materialize its information_schema tables. Per statement: the attached check is a
        dict probe; the file is looked at only for a database not attached yet."""
        for db in plan.databases:
            have = self._attached.get(db.lower())
            if (have is None or have[1] != self.engine.generation(db)) and \
                    self.engine.database_exists(db):
                self._attach(db)
        if plan.infoschema:
            self._materialize(plan.infoschema)

    def _insert_result(self, plan: Plan, cur: sqlite3.Cursor, affected: int) -> UpdateCount:
        last_id = 0
        if affected and plan.insert_table is not None:
            meta = self._table_meta(*plan.insert_table)
            auto = next((c.name for c in meta or () if c.extra == "auto_increment"), None)
            if auto is not None and cur.lastrowid:
                if plan.insert_columns is not None and auto.lower() in plan.insert_columns:
                    last_id = cur.lastrowid  # explicit values: the OK packet shows the last one
                else:
                    last_id = cur.lastrowid - affected + 1
                    self._last_insert_id = last_id
        info = f"Records: {affected}  Duplicates: 0  Warnings: 0" if plan.multi_row else ""
        return UpdateCount(affected, last_id, info)

    def _result_set(self, plan: Plan, description: Any, rows: list[Any]) -> ResultSet:
        names = [d[0] for d in description]
        planned = plan.columns if plan.columns is not None and len(plan.columns) == \
            len(names) else None
        columns: list[Column] = []
        adapters: list[tuple[int, Callable[[Any], Any]]] = []
        for i, name in enumerate(names):
            col = planned[i] if planned is not None else None
            if col is None:
                col = column_for_values(name, (r[i] for r in rows))
            elif col.name != name:
                col = Column(name, col.type, col.length, col.flags, col.decimals, col.charset,
                             col.table, col.org_table, col.schema, col.org_name)
            columns.append(col)
            adapt = wire_adapter(col)
            if adapt is not None:
                adapters.append((i, adapt))
        if adapters and rows:
            fixed = []
            for r in rows:
                row = list(r)
                for i, fn in adapters:
                    row[i] = fn(row[i])
                fixed.append(row)
            rows = fixed
        return ResultSet(columns, rows)

    def _materialize(self, tables: Sequence[str]) -> None:
        for name in tables:
            data = self._infoschema(name)
            if data is None:
                raise ServerError(errors.ER_NO_SUCH_TABLE, INFORMATION_SCHEMA, name)
            cols, rows = data
            tname = f"temp.{q(temp_name(name))}"
            self.conn.execute(f"DROP TABLE IF EXISTS {tname}")
            self.conn.execute(f"CREATE TABLE {tname} ("
                              f"{', '.join(q(c.name) + ' COLLATE NOCASE' for c in cols)})")
            if rows:
                marks = ", ".join("?" * len(cols))
                self.conn.executemany(f"INSERT INTO {tname} VALUES ({marks})", rows)

    # --- errors -----------------------------------------------------------------------------
    def _error(self, e: sqlite3.Error, plan: Plan | None = None,
               values: dict[str, Any] | None = None) -> ServerError:
        if self._udf_error is not None:
            err, self._udf_error = self._udf_error, None
            return err
        msg = str(e)
        if self._cancelled or msg == "interrupted":
            return ServerError(errors.ER_QUERY_INTERRUPTED)
        if getattr(e, "sqlite_errorcode", 0) == 517:  # SQLITE_BUSY_SNAPSHOT
            self._end("ROLLBACK")
            return ServerError(errors.ER_LOCK_DEADLOCK)
        if plan is not None and plan.insert_table is not None and \
                (m := _UNIQUE.search(msg)) is not None:
            return self._duplicate_entry(plan, values or {}, m.group(1))
        return map_error(msg, self._db)

    def _duplicate_entry(self, plan: Plan, values: dict[str, Any], failed: str) -> ServerError:
        """1062 as MariaDB words it: the duplicate value (when the INSERT named it) and the
        key's name (PRIMARY or the index), not SQLite's column list."""
        cols = [c.strip().split(".")[-1] for c in failed.split(",")]
        key = "-".join(cols)
        try:
            for idx in self.table_indexes(plan.insert_table[1], plan.insert_table[0]):
                if [c.lower() for c in idx.columns] == [c.lower() for c in cols]:
                    key = idx.name
                    break
        except ServerError:
            pass
        shown = []
        for col in cols:
            source = (plan.insert_values or {}).get(col.lower())
            if source is None:
                return ServerError(errors.ER_DUP_ENTRY, "?", key,
                                   message=f"Duplicate entry for key '{key}'")
            is_param, ref = source
            value = values.get(ref) if is_param else ref
            if isinstance(value, bytes):
                value = value.decode("utf-8", "replace")
            shown.append("NULL" if value is None else str(value))
        return ServerError(errors.ER_DUP_ENTRY, "-".join(shown)[:192], key)

    # --- session functions -------------------------------------------------------------------
    def _register_functions(self) -> None:
        c = self.conn
        fns: list[tuple[str, int, Callable[..., Any]]] = [
            ("rm_sysvar", 2, self._f_sysvar), ("rm_uservar", 1, self._f_uservar),
            ("rm_database", 0, lambda: self._db), ("rm_version", 0, self._f_version),
            ("rm_user", 0, lambda: self.context.user),
            ("rm_current_user", 0, lambda: self.context.current_user),
            ("connection_id", 0, lambda: self.context.connection_id),
            ("last_insert_id", 0, lambda: self._last_insert_id),
            ("last_insert_id", 1, self._f_set_last_insert_id),
            ("found_rows", 0, lambda: self._found_rows),
            ("row_count", 0, lambda: self._row_count),
            ("rm_now", 0, lambda: _now().strftime("%Y-%m-%d %H:%M:%S")),
            ("rm_now", 1, _now_fsp),
            ("rm_curdate", 0, lambda: _now().strftime("%Y-%m-%d")),
            ("rm_curtime", 0, lambda: _now().strftime("%H:%M:%S")),
            ("rm_curtime", 1, lambda fsp: _now_fsp(fsp)[11:]),
            ("rm_utc_timestamp", 0, lambda: dt.datetime.now(dt.UTC)
             .strftime("%Y-%m-%d %H:%M:%S")),
            ("rm_unix_timestamp", 0, lambda: int(time.time())),
            ("rm_unix_timestamp", 1, _unix_timestamp),
            ("rm_from_unixtime", 1, _from_unixtime),
            ("sleep", 1, self._f_sleep),
            ("get_lock", 2, self._f_get_lock), ("release_lock", 1, self._f_release_lock),
            ("is_free_lock", 1, self._f_is_free_lock), ("is_used_lock", 1, self._f_is_used_lock),
            ("release_all_locks", 0, self._f_release_all_locks),
            ("uuid", 0, lambda: str(uuid.uuid1())),
            ("rand", 0, _rand), ("rand", 1, _rand),
            ("md5", 1, lambda v: None if v is None else __import__("hashlib").md5(
                _bytes(v)).hexdigest()),
            ("sha1", 1, lambda v: None if v is None else __import__("hashlib").sha1(
                _bytes(v)).hexdigest()),
            ("lcase", 1, lambda v: None if v is None else str(v).lower()),
            ("ucase", 1, lambda v: None if v is None else str(v).upper()),
            ("concat_ws", -1, _concat_ws),
            ("benchmark", 2, lambda n, v: 0),
            ("database", 0, lambda: self._db), ("schema", 0, lambda: self._db),
        ]
        for name, nargs, fn in fns:
            c.create_function(name, nargs, fn)

    def _f_sysvar(self, name: str, scope: str | None) -> Any:
        try:
            value = self.context.system_variable(name, scope)
        except ServerError as e:
            self._udf_error = e
            raise
        if isinstance(value, bool):
            return int(value)
        return value

    def _f_uservar(self, name: str) -> Any:
        value = self.context.user_variable(name)
        if isinstance(value, decimal.Decimal):
            return _adapt_decimal(value)
        return value

    def _f_version(self) -> Any:
        return self.context.system_variable("version")

    def _f_set_last_insert_id(self, value: Any) -> Any:
        self._last_insert_id = int(value or 0)
        return value

    @_udf
    def _f_sleep(self, seconds: Any) -> int:
        secs = float(seconds or 0)
        if secs <= 0:
            return 0
        with self._waiting(WaitReason.SLEEP):
            self._wake.wait(secs)
        if self._cancelled:
            raise ServerError(errors.ER_QUERY_INTERRUPTED)
        return 0

    def _user_lock_name(self, name: Any) -> str:
        return "user:" + str(name).lower()

    @_udf
    def _f_get_lock(self, name: Any, timeout: Any) -> int | None:
        if name is None:
            return None
        t = float(timeout if timeout is not None else 0)
        if t < 0:
            t = 365 * 86400.0
        lock = self._user_lock_name(name)
        if self.engine.locks.try_acquire(lock, self):
            self._user_locks += 1
            return 1
        with self._waiting(WaitReason.USER_LOCK):
            ok = self.engine.locks.acquire(lock, self, t, lambda: self._cancelled)
        if ok:
            self._user_locks += 1
        return 1 if ok else 0

    def _f_release_lock(self, name: Any) -> int | None:
        lock = self._user_lock_name(name)
        owner = self.engine.locks.owner_of(lock)
        if owner is None:
            return None
        if owner is not self:
            return 0
        self.engine.locks.release(lock, self)
        self._user_locks -= 1
        return 1

    def _f_is_free_lock(self, name: Any) -> int:
        return 0 if self.engine.locks.owner_of(self._user_lock_name(name)) else 1

    def _f_is_used_lock(self, name: Any) -> int | None:
        owner = self.engine.locks.owner_of(self._user_lock_name(name))
        return owner.context.connection_id if isinstance(owner, SqliteSession) else None

    def _f_release_all_locks(self) -> int:
        freed = self._user_locks
        self.engine.locks.release_all(self, names=lambda n: n.startswith("user:"))
        self._user_locks = 0
        return freed

    # --- metadata ------------------------------------------------------------------------------
    def list_databases(self) -> list[str]:
        return self.engine.databases()

    def list_tables(self, database: str | None = None) -> list[str]:
        db = database or self._db
        if db is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        if db.lower() == INFORMATION_SCHEMA:
            return sorted(_INFOSCHEMA_TABLES)
        with self._meta_conn(db) as (conn, schema):
            return catalog.table_names(conn, schema)

    def _stored_table(self, table: str, database: str | None) -> tuple[str, str]:
        db = database or self._db
        if db is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        with self._meta_conn(db) as (conn, schema):
            stored = catalog.find_table(conn, schema, table)
        if stored is None:
            raise ServerError(errors.ER_NO_SUCH_TABLE, db, table)
        return db, stored

    def table_columns(self, table: str, database: str | None = None) -> list[TableColumn]:
        db, stored = self._stored_table(table, database)
        with self._meta_conn(db) as (conn, schema):
            return catalog.columns(conn, schema, stored)

    def table_indexes(self, table: str, database: str | None = None) -> list[TableIndex]:
        db, stored = self._stored_table(table, database)
        with self._meta_conn(db) as (conn, schema):
            return catalog.indexes(conn, schema, stored)

    def show_create_table(self, table: str, database: str | None = None) -> str:
        db, stored = self._stored_table(table, database)
        with self._meta_conn(db) as (conn, schema):
            return catalog.show_create_table(conn, schema, stored)

    def _infoschema(self, name: str) -> tuple[list[Column], list[tuple[Any, ...]]] | None:
        provided = self.context.virtual_table(INFORMATION_SCHEMA, name)
        if provided is not None:
            return provided
        builder = _INFOSCHEMA_TABLES.get(name.upper())
        return builder(self) if builder else None

    # --- life cycle ------------------------------------------------------------------------------
    def reset(self) -> None:
        self._rollback_all()
        self._last_insert_id = 0
        self._found_rows = 0
        self._row_count = -1
        self._autocommit = True

    def _rollback_all(self) -> None:
        try:
            self._end("ROLLBACK")
        except sqlite3.Error:
            pass
        self.engine.locks.release_all(self, names=lambda n: True)
        self._lock_tables = 0
        self._user_locks = 0

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._rollback_all()
        try:
            self.conn.close()
        except sqlite3.Error:
            pass


# --- statements the engine handles itself --------------------------------------------------
Handler = Callable[[SqliteSession, str, Extracted], Result]
_WORDS = re.compile(r"[`\w$.]+|'[^']*'|\S", re.UNICODE)


def _words(sql: str) -> list[str]:
    return [w.upper() for w in _WORDS.findall(sql)]


def _ident(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == "`":
        return text[1:-1].replace("``", "`")
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return unescape(text)
    return text


def _split_name(text: str) -> tuple[str | None, str]:
    """`db`.`t` / db.t / t -> (db, t)."""
    m = re.match(r"\s*((?:`(?:[^`]|``)*`|[\w$]+))\s*(?:\.\s*((?:`(?:[^`]|``)*`|[\w$]+)))?\s*$",
                 text)
    if not m:
        raise ServerError(errors.ER_PARSE_ERROR, text[:80], 1)
    if m.group(2):
        return _ident(m.group(1)), _ident(m.group(2))
    return None, _ident(m.group(1))


def _begin(s: SqliteSession, sql: str, ex: Extracted) -> Result:
    words = _words(sql)
    s._implicit_commit()
    read_only = "ONLY" in words and "READ" in words
    s._begin(explicit=True, write=not read_only, read_only=read_only)
    return UpdateCount()


def _commit(s: SqliteSession, sql: str, ex: Extracted) -> Result:
    words = _words(sql)
    if "SAVEPOINT" in words or "TO" in words:  # ROLLBACK [WORK] TO [SAVEPOINT] x
        return _to_savepoint(s, "ROLLBACK TO", _ident(sql.split()[-1]))
    s._end("COMMIT" if words[0] == "COMMIT" else "ROLLBACK")
    return UpdateCount()


def _to_savepoint(s: SqliteSession, verb: str, name: str) -> Result:
    """ROLLBACK TO / RELEASE a savepoint of the open transaction (1305 when there is none)."""
    if s._txn is None:
        raise ServerError(errors.ER_SP_DOES_NOT_EXIST, "SAVEPOINT", name)
    try:
        s.conn.execute(f"{verb} {q(name)}")
    except sqlite3.OperationalError:
        raise ServerError(errors.ER_SP_DOES_NOT_EXIST, "SAVEPOINT", name) from None
    return UpdateCount()


def _savepoint(s: SqliteSession, sql: str, ex: Extracted) -> Result:
    words = sql.split()
    if words[0].upper() == "RELEASE":
        return _to_savepoint(s, "RELEASE", _ident(words[-1]))
    name = _ident(words[-1])
    if s._txn is None:
        if s._autocommit:
            return UpdateCount()  # MySQL: a savepoint outside a transaction is a no-op
        s._begin(explicit=False, write=False)
    s.conn.execute(f"SAVEPOINT {q(name)}")
    return UpdateCount()


@contextmanager
def _ddl(s: SqliteSession, dropped: str | None = None) -> Iterator[None]:
    """Run DDL as MySQL does: commit what is open, then one atomic change under the lock."""
    s._implicit_commit()
    s._acquire_write()
    try:
        s.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            s.conn.execute("ROLLBACK")
            raise
        s.conn.execute("COMMIT")
    except sqlite3.Error as e:
        raise s._error(e) from None
    finally:
        s._release_write()
        s.engine.schema_changed(dropped)


def _create(s: SqliteSession, sql: str, ex: Extracted) -> Result:
    words = _words(sql)
    second = words[1] if len(words) > 1 else ""
    if second in ("DATABASE", "SCHEMA"):
        return _create_database(s, sql, words)
    if "TABLE" in words[1:4]:
        if "TEMPORARY" in words[1:3]:
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "CREATE TEMPORARY TABLE")
        if re.search(r"\bLIKE\b", sql, re.IGNORECASE) and "(" not in sql or \
                re.search(r"\)\s*(AS\s+)?SELECT\b|\bTABLE\b[^(]*\bAS\s+SELECT\b|"
                          r"\bTABLE\s+\S+\s+SELECT\b", sql, re.IGNORECASE):
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "CREATE TABLE ... LIKE/SELECT")
        tree = catalog.parse_mysql(sql)
        if not isinstance(tree, exp.Create):
            raise ServerError(errors.ER_PARSE_ERROR, sql[:80], 1)
        table = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
        schema = s._schema(table.db or None)
        ct = catalog.create_table(tree, schema)
        existing = catalog.find_table(s.conn, schema, ct.table)
        if existing is not None:
            if ct.if_not_exists:
                return UpdateCount(warnings=[Warning_.of(errors.ER_TABLE_EXISTS_ERROR,
                                                         ct.table, level="Note")])
            raise ServerError(errors.ER_TABLE_EXISTS_ERROR, ct.table)
        with _ddl(s):
            s.conn.execute(catalog.meta_table_ddl(schema))
            for stmt in ct.statements:
                s.conn.execute(stmt)
            for col, ctype in ct.type_overrides:
                s.conn.execute(f"INSERT OR REPLACE INTO {q(schema)}.{catalog.META_TABLE} "
                               "VALUES (?, ?, ?)", (ct.table, col, ctype))
            if ct.auto_increment and ct.auto_increment > 1:
                s.conn.execute(f"INSERT INTO {q(schema)}.sqlite_sequence (name, seq) "
                               "VALUES (?, ?)", (ct.table, ct.auto_increment - 1))
        return UpdateCount()
    if second == "INDEX" or second == "UNIQUE" and len(words) > 2 and words[2] == "INDEX":
        tree = catalog.parse_mysql(sql)
        db, table, ddl = catalog.create_index(tree, s._db)
        s._schema(db)
        with _ddl(s):
            s.conn.execute(ddl)
        return UpdateCount()
    if second == "VIEW" or words[1:4] == ["OR", "REPLACE", "VIEW"]:
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "CREATE VIEW")
    raise ServerError(errors.ER_NOT_SUPPORTED_YET, " ".join(words[:3]))


def _create_database(s: SqliteSession, sql: str, words: list[str]) -> Result:
    if_not_exists = words[2:5] == ["IF", "NOT", "EXISTS"]
    raw = sql.split()[5 if if_not_exists else 2]
    name = _ident(raw.rstrip(";"))
    if not _DB_NAME.match(name) or name.lower() in ("main", "temp", INFORMATION_SCHEMA):
        raise ServerError(errors.ER_WRONG_DB_NAME, name)
    s._implicit_commit()
    with s.engine._lock:
        if s.engine.database_exists(name):
            if if_not_exists:
                return UpdateCount(1 if False else 0, warnings=[
                    Warning_.of(errors.ER_DB_CREATE_EXISTS, name, level="Note")])
            raise ServerError(errors.ER_DB_CREATE_EXISTS, name)
        s.engine.create_database_file(name)
    s.engine.schema_changed()
    return UpdateCount(1)


def _drop(s: SqliteSession, sql: str, ex: Extracted) -> Result:
    words = _words(sql)
    second = words[1] if len(words) > 1 else ""
    if_exists = words[2:4] == ["IF", "EXISTS"] or words[3:5] == ["IF", "EXISTS"]
    if second in ("DATABASE", "SCHEMA"):
        name = _ident(sql.split()[4 if if_exists else 2].rstrip(";"))
        if name.lower() == INFORMATION_SCHEMA:
            raise ServerError(errors.ER_DBACCESS_DENIED_ERROR, s.context.user.split("@")[0],
                              s.context.user.split("@")[-1], name)
        s._implicit_commit()
        if not s.engine.database_exists(name):
            if if_exists:
                return UpdateCount(warnings=[Warning_.of(errors.ER_DB_DROP_EXISTS, name,
                                                         level="Note")])
            raise ServerError(errors.ER_DB_DROP_EXISTS, name)
        s._acquire_write()
        try:
            with s._meta_conn(name) as (conn, schema):
                tables = len(catalog.table_names(conn, schema))
            s._detach(name.lower())
            s.engine.remove_database_files(name)
        finally:
            s._release_write()
            s.engine.schema_changed(dropped=name)
        if s._db is not None and s._db.lower() == name.lower():
            s._db = None
        return UpdateCount(tables)
    if second == "TABLE" or words[1:3] == ["TEMPORARY", "TABLE"]:
        m = re.match(r"\s*DROP\s+(?:TEMPORARY\s+)?TABLES?\s+(?:IF\s+EXISTS\s+)?(.*?)"
                     r"(?:\s+(?:RESTRICT|CASCADE))?\s*$", sql, re.IGNORECASE | re.DOTALL)
        if not m:
            raise ServerError(errors.ER_PARSE_ERROR, sql[:80], 1)
        targets = [_split_name(t) for t in _split_commas(m.group(1))]
        missing = []
        resolved = []
        for db, table in targets:
            dbname = db or s._db
            if dbname is None:
                raise ServerError(errors.ER_NO_DB_ERROR)
            try:
                schema = s._schema(dbname)
            except ServerError:
                missing.append(f"{dbname}.{table}")
                continue
            stored = catalog.find_table(s.conn, schema, table)
            if stored is None:
                missing.append(f"{dbname}.{table}")
            else:
                resolved.append((schema, stored))
        if missing and not if_exists:
            raise ServerError(errors.ER_BAD_TABLE_ERROR, ",".join(missing))
        with _ddl(s):
            for schema, table in resolved:
                s.conn.execute(f"DROP TABLE {q(schema)}.{q(table)}")
                try:
                    s.conn.execute(f"DELETE FROM {q(schema)}.{catalog.META_TABLE} WHERE "
                                   "table_name = ?", (table,))
                except sqlite3.OperationalError:
                    pass
        return UpdateCount(warnings=[Warning_.of(errors.ER_BAD_TABLE_ERROR, t, level="Note")
                                     for t in missing])
    if second == "INDEX":
        m = re.match(r"\s*DROP\s+INDEX\s+(?:IF\s+EXISTS\s+)?(\S+)\s+ON\s+(.+?)\s*$", sql,
                     re.IGNORECASE)
        if not m:
            raise ServerError(errors.ER_PARSE_ERROR, sql[:80], 1)
        return _drop_index(s, m.group(2), _ident(m.group(1)))
    if second == "VIEW":
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "DROP VIEW")
    raise ServerError(errors.ER_NOT_SUPPORTED_YET, " ".join(words[:3]))


def _existing_table(s: SqliteSession, db: str | None, table: str) -> tuple[str, str]:
    """(attached schema, stored spelling) of a table DDL is about to change; 1146 if absent."""
    schema = s._schema(db)
    stored = catalog.find_table(s.conn, schema, table)
    if stored is None:
        raise ServerError(errors.ER_NO_SUCH_TABLE, schema, table)
    return schema, stored


def _drop_index(s: SqliteSession, table_text: str, index: str) -> Result:
    db, table = _split_name(table_text)
    schema, stored = _existing_table(s, db, table)
    if index.upper() == "PRIMARY":
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "dropping a PRIMARY KEY")
    with _ddl(s):
        try:
            s.conn.execute(f"DROP INDEX {q(schema)}.{q(stored + '.' + index)}")
        except sqlite3.OperationalError:
            raise ServerError(errors.ER_CANT_DROP_FIELD_OR_KEY, index) from None
    return UpdateCount()


def _split_commas(text: str) -> list[str]:
    out, depth, cur, quote = [], 0, [], ""
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = ""
            continue
        if ch in "`'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def _alter(s: SqliteSession, sql: str, ex: Extracted) -> Result:
    words = _words(sql)
    if words[1:2] != ["TABLE"]:
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, " ".join(words[:2]))
    m = re.match(r"\s*ALTER\s+TABLE\s+((?:`(?:[^`]|``)*`|[\w$]+)(?:\s*\.\s*(?:`(?:[^`]|``)*`|"
                 r"[\w$]+))?)\s+(.*)$", sql, re.IGNORECASE | re.DOTALL)
    if not m:
        raise ServerError(errors.ER_PARSE_ERROR, sql[:80], 1)
    db, table = _split_name(m.group(1))
    schema, stored = _existing_table(s, db, table)
    statements: list[str] = []
    for action in _split_commas(m.group(2)):
        aw = _words(action)
        if aw[:2] in (["ADD", "INDEX"], ["ADD", "KEY"], ["ADD", "UNIQUE"]):
            am = re.match(r"\s*ADD\s+(UNIQUE\s+)?(?:INDEX|KEY)?\s*(`[^`]+`|[\w$]+)?\s*\((.*)\)"
                          r"\s*$", action, re.IGNORECASE | re.DOTALL)
            if not am:
                raise ServerError(errors.ER_PARSE_ERROR, action[:80], 1)
            cols = [_ident(c.split("(")[0]) for c in _split_commas(am.group(3))]
            statements.append(catalog.index_ddl(schema, stored, _ident(am.group(2) or cols[0]),
                                                bool(am.group(1)), cols))
        elif aw[:1] == ["ADD"]:
            coldef = re.sub(r"^\s*ADD\s+(COLUMN\s+)?", "", action, flags=re.IGNORECASE)
            tree = catalog.parse_mysql(f"CREATE TABLE x ({coldef})")
            ct = catalog.create_table(tree, schema)  # type: ignore[arg-type]
            body = ct.statements[0]
            col_sql = body[body.index("(") + 1:body.rindex(")")]
            if ct.type_overrides:
                raise ServerError(errors.ER_NOT_SUPPORTED_YET, "adding an AUTO_INCREMENT column")
            statements.append(f"ALTER TABLE {q(schema)}.{q(stored)} ADD COLUMN {col_sql}")
        elif aw[:2] == ["DROP", "INDEX"] or aw[:2] == ["DROP", "KEY"]:
            statements.append(f"DROP INDEX {q(schema)}.{q(stored + '.' + _ident(action.split()[-1]))}")
        elif aw[:1] == ["DROP"]:
            col = _ident(action.split()[-1])
            statements.append(f"ALTER TABLE {q(schema)}.{q(stored)} DROP COLUMN {q(col)}")
        elif aw[:2] == ["RENAME", "COLUMN"]:
            parts = action.split()
            statements.append(f"ALTER TABLE {q(schema)}.{q(stored)} RENAME COLUMN "
                              f"{q(_ident(parts[2]))} TO {q(_ident(parts[4]))}")
        elif aw[:1] == ["RENAME"]:
            new = _split_name(action.split()[-1])[1]
            statements.append(f"ALTER TABLE {q(schema)}.{q(stored)} RENAME TO {q(new)}")
            statements += catalog.rename_meta_ddl(schema, stored, new)
        elif aw[:1] in (["ENGINE"], ["DEFAULT"], ["CHARSET"], ["CONVERT"], ["COMMENT"],
                        ["AUTO_INCREMENT"], ["ROW_FORMAT"], ["FORCE"]):
            continue  # table options: accepted, nothing to change in SQLite
        else:
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, f"ALTER TABLE ... {' '.join(aw[:2])}")
    with _ddl(s):
        for stmt in statements:
            s.conn.execute(stmt)
    return UpdateCount()


def _rename(s: SqliteSession, sql: str, ex: Extracted) -> Result:
    m = re.match(r"\s*RENAME\s+TABLES?\s+(.*)$", sql, re.IGNORECASE | re.DOTALL)
    if not m:
        raise ServerError(errors.ER_PARSE_ERROR, sql[:80], 1)
    statements = []
    for pair in _split_commas(m.group(1)):
        pm = re.match(r"(.+?)\s+TO\s+(.+)$", pair, re.IGNORECASE)
        if not pm:
            raise ServerError(errors.ER_PARSE_ERROR, pair[:80], 1)
        db, old = _split_name(pm.group(1))
        db2, new = _split_name(pm.group(2))
        if (db2 or db) != db:
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "RENAME TABLE across databases")
        schema, stored = _existing_table(s, db, old)
        statements.append(f"ALTER TABLE {q(schema)}.{q(stored)} RENAME TO {q(new)}")
        statements += catalog.rename_meta_ddl(schema, stored, new)
    with _ddl(s):
        for stmt in statements:
            s.conn.execute(stmt)
    return UpdateCount()


def _truncate(s: SqliteSession, sql: str, ex: Extracted) -> Result:
    m = re.match(r"\s*TRUNCATE\s+(?:TABLE\s+)?(.+?)\s*$", sql, re.IGNORECASE)
    if not m:
        raise ServerError(errors.ER_PARSE_ERROR, sql[:80], 1)
    db, table = _split_name(m.group(1))
    schema, stored = _existing_table(s, db, table)
    with _ddl(s):
        s.conn.execute(f"DELETE FROM {q(schema)}.{q(stored)}")
        try:
            s.conn.execute(f"DELETE FROM {q(schema)}.sqlite_sequence WHERE name = ?", (stored,))
        except sqlite3.OperationalError:
            pass
    return UpdateCount()


def _lock(s: SqliteSession, sql: str, ex: Extracted) -> Result:
    words = _words(sql)
    if words[0] == "UNLOCK":
        if s._lock_tables:
            s._implicit_commit()
            while s._lock_tables:
                s._release_write()
                s._lock_tables -= 1
        return UpdateCount()
    s._implicit_commit()
    if s._lock_tables:  # LOCK TABLES releases what the session held
        while s._lock_tables:
            s._release_write()
            s._lock_tables -= 1
    s._acquire_write(WaitReason.TABLE_LOCK)
    s._lock_tables += 1
    return UpdateCount()


def _flush(s: SqliteSession, sql: str, ex: Extracted) -> Result:
    """FLUSH TABLES [...] (nothing to flush: SQLite has no table cache to empty) and FLUSH
    TABLES ... WITH READ LOCK / FOR EXPORT: the session holds the write lock until UNLOCK
    TABLES, so no one writes meanwhile (a global read lock), reported as a GLOBAL_LOCK wait."""
    words = _words(sql)
    if "LOCK" in words or "EXPORT" in words:
        s._implicit_commit()
        s._acquire_write(WaitReason.GLOBAL_LOCK)
        s._lock_tables += 1
    return UpdateCount()


def _do(s: SqliteSession, sql: str, ex: Extracted) -> Result:
    body = re.sub(r"^\s*DO\s+", "SELECT ", sql, flags=re.IGNORECASE)
    s._run(extract(body), ())
    return UpdateCount()


def _table_maintenance(s: SqliteSession, sql: str, ex: Extracted) -> Result:
    words = sql.split()
    op = words[0].lower()
    rest = re.sub(r"^\s*\w+\s+(?:NO_WRITE_TO_BINLOG\s+|LOCAL\s+)?TABLES?\s+", "", sql,
                  flags=re.IGNORECASE)
    rows = []
    for target in _split_commas(rest):
        db, table = _split_name(target.split()[0])
        dbname = db or s._db or ""
        try:
            schema = s._schema(db)
            stored = catalog.find_table(s.conn, schema, table)
        except ServerError:
            stored = None
        if stored is None:
            rows.append((f"{dbname}.{table}", op, "Error", f"Table '{dbname}.{table}' doesn't "
                         "exist"))
            continue
        if op == "analyze":
            s.conn.execute(f"ANALYZE {q(schema)}.{q(stored)}")
        rows.append((f"{dbname}.{stored}", op, "status", "OK"))
    cols = [text_column("Table", length=64), text_column("Op", length=10),
            text_column("Msg_type", length=10), text_column("Msg_text", length=255)]
    return ResultSet(cols, rows)


# --- SHOW / DESCRIBE ------------------------------------------------------------------------
_LIKE = re.compile(r"\bLIKE\s+('(?:[^'\\]|\\.|'')*'|\"(?:[^\"\\]|\\.|\"\")*\")\s*$",
                   re.IGNORECASE)


def _like(sql: str) -> Callable[[str], bool]:
    m = _LIKE.search(sql)
    if not m:
        return lambda _name: True
    pattern = unescape(m.group(1))
    rx = "".join(".*" if ch == "%" else "." if ch == "_" else re.escape(ch) for ch in pattern)
    compiled = re.compile(rx + r"\Z", re.IGNORECASE | re.DOTALL)
    return lambda name: bool(compiled.match(name))


def _from_db(sql: str) -> str | None:
    m = re.search(r"\b(?:FROM|IN)\s+(`(?:[^`]|``)*`|[\w$]+)\s*(?:LIKE\b|WHERE\b|$)", sql,
                  re.IGNORECASE)
    return _ident(m.group(1)) if m else None


def _show(s: SqliteSession, sql: str, ex: Extracted) -> Result:
    words = _words(sql)
    rest = [w for w in words[1:] if w not in ("FULL", "EXTENDED")]
    what = rest[0] if rest else ""
    full = "FULL" in words[1:3]
    if what in ("DATABASES", "SCHEMAS"):
        match = _like(sql)
        rows = [(d,) for d in s.list_databases() if match(d)]
        return ResultSet([text_column("Database", length=64)], rows)
    if what == "TABLES":
        db = _from_db(sql) or s._db
        if db is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        if not s.engine.database_exists(db):
            raise ServerError(errors.ER_BAD_DB_ERROR, db)
        match = _like(sql)
        names = [t for t in s.list_tables(db) if match(t)]
        cols = [text_column(f"Tables_in_{db}", length=64)]
        if full:
            cols.append(text_column("Table_type", length=64))
            kind = "SYSTEM VIEW" if db.lower() == INFORMATION_SCHEMA else "BASE TABLE"
            return ResultSet(cols, [(n, kind) for n in names])
        return ResultSet(cols, [(n,) for n in names])
    if what in ("COLUMNS", "FIELDS"):
        m = re.search(r"\b(?:FROM|IN)\s+(\S+)(?:\s+(?:FROM|IN)\s+(\S+))?", sql, re.IGNORECASE)
        if not m:
            raise ServerError(errors.ER_PARSE_ERROR, sql[:80], 1)
        db, table = _split_name(m.group(1))
        if m.group(2):
            db = _ident(m.group(2))
        return _describe_table(s, db, table, _like(sql), full)
    if what in ("INDEX", "INDEXES", "KEYS"):
        m = re.search(r"\b(?:FROM|IN)\s+(\S+)(?:\s+(?:FROM|IN)\s+(\S+))?", sql, re.IGNORECASE)
        if not m:
            raise ServerError(errors.ER_PARSE_ERROR, sql[:80], 1)
        db, table = _split_name(m.group(1))
        if m.group(2):
            db = _ident(m.group(2))
        return _show_index(s, db, table)
    if what == "CREATE" and len(rest) > 1:
        target = sql.split(None, 3)[3] if len(sql.split(None, 3)) > 3 else ""
        if rest[1] == "TABLE":
            db, table = _split_name(target)
            _db, stored = s._stored_table(table, db)
            text = s.show_create_table(table, db)
            return ResultSet([text_column("Table", length=64),
                              text_column("Create Table", length=1024)], [(stored, text)])
        if rest[1] in ("DATABASE", "SCHEMA"):
            name = _ident(target.split()[-1])
            if not s.engine.database_exists(name):
                raise ServerError(errors.ER_BAD_DB_ERROR, name)
            return ResultSet([text_column("Database", length=64),
                              text_column("Create Database", length=1024)],
                             [(name, f"CREATE DATABASE `{name}` /*!40100 DEFAULT CHARACTER SET "
                               "utf8mb4 COLLATE utf8mb4_general_ci */")])
    if what == "TABLE" and rest[1:2] == ["STATUS"]:
        return _table_status(s, _from_db(sql) or s._db, _like(sql))
    if what in ("TRIGGERS", "EVENTS") or what in ("PROCEDURE", "FUNCTION") and \
            rest[1:2] == ["STATUS"]:
        return ResultSet([text_column("Name", length=64)], [])
    raise ServerError(errors.ER_PARSE_ERROR, sql[:80], 1)


def _describe(s: SqliteSession, sql: str, ex: Extracted) -> Result:
    parts = sql.split()
    if len(parts) < 2:
        raise ServerError(errors.ER_PARSE_ERROR, sql[:80], 1)
    if parts[1].upper() in ("SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "EXTENDED",
                            "FORMAT", "PARTITIONS"):
        return _explain(s, sql)
    db, table = _split_name(parts[1])
    match = (lambda n: n.lower() == _ident(parts[2]).lower()) if len(parts) > 2 else \
        (lambda n: True)
    return _describe_table(s, db, table, match, False)


def _explain(s: SqliteSession, sql: str) -> Result:
    body = re.sub(r"^\s*(EXPLAIN|DESCRIBE|DESC)\s+(EXTENDED\s+|PARTITIONS\s+|FORMAT\s*=\s*\w+\s+)?",
                  "", sql, flags=re.IGNORECASE)
    ex = extract(body)
    plan = s._plan(ex)
    s._make_visible(plan)
    try:
        rows = s.conn.execute("EXPLAIN QUERY PLAN " + plan.sql, bind(ex.slots)).fetchall()
    except sqlite3.Error as e:
        raise s._error(e, plan) from None
    cols = [int_column("id"), int_column("parent"), text_column("detail", length=255)]
    return ResultSet(cols, [(r[0], r[1], r[3]) for r in rows])


def _describe_table(s: SqliteSession, db: str | None, table: str, match: Callable[[str], bool],
                    full: bool) -> Result:
    cols = s.table_columns(table, db)
    names = ["Field", "Type", "Null", "Key", "Default", "Extra"]
    if full:
        names = ["Field", "Type", "Collation", "Null", "Key", "Default", "Extra", "Privileges",
                 "Comment"]
    rows = []
    for c in cols:
        if not match(c.name):
            continue
        base = [c.name, c.column_type, "YES" if c.nullable else "NO", c.key, c.default, c.extra]
        if full:
            collation = "utf8mb4_general_ci" if c.column.charset != 63 else None
            base = base[:2] + [collation] + base[2:] + ["select,insert,update,references", ""]
        rows.append(tuple(base))
    return ResultSet([text_column(n, length=64) for n in names], rows)


def _show_index(s: SqliteSession, db: str | None, table: str) -> Result:
    dbname, stored = s._stored_table(table, db)
    indexes = s.table_indexes(table, db)
    cols = s.table_columns(table, db)
    nullable = {c.name: c.nullable for c in cols}
    names = ["Table", "Non_unique", "Key_name", "Seq_in_index", "Column_name", "Collation",
             "Cardinality", "Sub_part", "Packed", "Null", "Index_type", "Comment",
             "Index_comment", "Ignored"]
    rows = []
    for idx in indexes:
        for seq, col in enumerate(idx.columns, 1):
            rows.append((stored, 0 if idx.unique else 1, idx.name, seq, col, "A", None, None,
                         None, "YES" if nullable.get(col) else "", "BTREE", "", "", "NO"))
    columns = [text_column(n, length=64) if n not in ("Non_unique", "Seq_in_index",
                                                      "Cardinality", "Sub_part")
               else int_column(n) for n in names]
    return ResultSet(columns, rows)


def _table_status(s: SqliteSession, db: str | None, match: Callable[[str], bool]) -> Result:
    if db is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    names = ["Name", "Engine", "Version", "Row_format", "Rows", "Avg_row_length", "Data_length",
             "Max_data_length", "Index_length", "Data_free", "Auto_increment", "Create_time",
             "Update_time", "Check_time", "Collation", "Checksum", "Create_options", "Comment",
             "Max_index_length", "Temporary"]
    rows = []
    for t in s.list_tables(db):
        if not match(t):
            continue
        info = _table_info(s, db, t)
        rows.append((t, "SQLite", 10, "Dynamic", info["rows"], 0, 0, 0, 0, 0, info["auto"],
                     None, None, None, "utf8mb4_general_ci", None, "", "", 0, "N"))
    ints = {"Version", "Rows", "Avg_row_length", "Data_length", "Max_data_length",
            "Index_length", "Data_free", "Auto_increment", "Checksum", "Max_index_length"}
    return ResultSet([int_column(n) if n in ints else text_column(n, length=64) for n in names],
                     rows)


def _table_info(s: SqliteSession, db: str, table: str) -> dict[str, Any]:
    with s._meta_conn(db) as (conn, schema):
        try:
            count = conn.execute(f"SELECT COUNT(*) FROM {q(schema)}.{q(table)}").fetchone()[0]
        except sqlite3.Error:
            count = None
        auto = None
        try:
            row = conn.execute(f"SELECT seq FROM {q(schema)}.sqlite_sequence WHERE name = ?",
                               (table,)).fetchone()
            if row is not None:
                auto = row[0] + 1
        except sqlite3.OperationalError:
            pass
    return {"rows": count, "auto": auto}


_STATEMENTS: dict[str, Handler] = {
    "BEGIN": _begin, "START": _begin, "COMMIT": _commit, "ROLLBACK": _commit,
    "SAVEPOINT": _savepoint, "RELEASE": _savepoint,
    "CREATE": _create, "DROP": _drop, "ALTER": _alter, "RENAME": _rename,
    "TRUNCATE": _truncate, "LOCK": _lock, "UNLOCK": _lock, "DO": _do, "FLUSH": _flush,
    "SHOW": _show, "DESCRIBE": _describe, "DESC": _describe, "EXPLAIN": _describe,
    "ANALYZE": _table_maintenance, "OPTIMIZE": _table_maintenance,
    "CHECK": _table_maintenance, "REPAIR": _table_maintenance,
}


# --- information_schema tables the engine provides -----------------------------------------
def _is_schemata(s: SqliteSession) -> tuple[list[Column], list[tuple[Any, ...]]]:
    names = ["CATALOG_NAME", "SCHEMA_NAME", "DEFAULT_CHARACTER_SET_NAME",
             "DEFAULT_COLLATION_NAME", "SQL_PATH", "SCHEMA_COMMENT"]
    rows = [("def", d, "utf8mb4", "utf8mb4_general_ci", None, "") for d in s.list_databases()]
    return [text_column(n, length=64) for n in names], rows


def _user_databases(s: SqliteSession) -> list[str]:
    return [d for d in s.list_databases() if d.lower() != INFORMATION_SCHEMA]


def _is_tables(s: SqliteSession) -> tuple[list[Column], list[tuple[Any, ...]]]:
    names = ["TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "TABLE_TYPE", "ENGINE", "VERSION",
             "ROW_FORMAT", "TABLE_ROWS", "AVG_ROW_LENGTH", "DATA_LENGTH", "MAX_DATA_LENGTH",
             "INDEX_LENGTH", "DATA_FREE", "AUTO_INCREMENT", "CREATE_TIME", "UPDATE_TIME",
             "CHECK_TIME", "TABLE_COLLATION", "CHECKSUM", "CREATE_OPTIONS", "TABLE_COMMENT"]
    rows = []
    for db in _user_databases(s):
        for t in s.list_tables(db):
            info = _table_info(s, db, t)
            rows.append(("def", db, t, "BASE TABLE", "SQLite", 10, "Dynamic", info["rows"], 0,
                         0, 0, 0, 0, info["auto"], None, None, None, "utf8mb4_general_ci", None,
                         "", ""))
    rows.extend(("def", INFORMATION_SCHEMA, t, "SYSTEM VIEW", "MEMORY", 10, "Fixed", None, 0, 0,
                 0, 0, 0, None, None, None, None, "utf8mb4_general_ci", None, "", "")
                for t in sorted(_INFOSCHEMA_TABLES))
    return [text_column(n, length=64) for n in names], rows


def _is_columns(s: SqliteSession) -> tuple[list[Column], list[tuple[Any, ...]]]:
    names = ["TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "COLUMN_NAME", "ORDINAL_POSITION",
             "COLUMN_DEFAULT", "IS_NULLABLE", "DATA_TYPE", "CHARACTER_MAXIMUM_LENGTH",
             "CHARACTER_OCTET_LENGTH", "NUMERIC_PRECISION", "NUMERIC_SCALE",
             "DATETIME_PRECISION", "CHARACTER_SET_NAME", "COLLATION_NAME", "COLUMN_TYPE",
             "COLUMN_KEY", "EXTRA", "PRIVILEGES", "COLUMN_COMMENT", "IS_GENERATED",
             "GENERATION_EXPRESSION"]
    rows = []
    for db in _user_databases(s):
        for t in s.list_tables(db):
            for pos, c in enumerate(s.table_columns(t, db), 1):
                data_type = c.column_type.split("(")[0].split()[0]
                is_text = c.column.charset != 63
                rows.append(("def", db, t, c.name, pos, c.default,
                             "YES" if c.nullable else "NO", data_type,
                             c.column.length // 4 if is_text else None,
                             c.column.length if is_text else None,
                             c.column.length if c.column.is_numeric else None,
                             c.column.decimals if c.column.is_numeric else None, None,
                             "utf8mb4" if is_text else None,
                             "utf8mb4_general_ci" if is_text else None, c.column_type, c.key,
                             c.extra, "select,insert,update,references", "", "NEVER", None))
    return [text_column(n, length=64) for n in names], rows


def _is_statistics(s: SqliteSession) -> tuple[list[Column], list[tuple[Any, ...]]]:
    names = ["TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "NON_UNIQUE", "INDEX_SCHEMA",
             "INDEX_NAME", "SEQ_IN_INDEX", "COLUMN_NAME", "COLLATION", "CARDINALITY",
             "SUB_PART", "PACKED", "NULLABLE", "INDEX_TYPE", "COMMENT", "INDEX_COMMENT",
             "IGNORED"]
    rows = []
    for db in _user_databases(s):
        for t in s.list_tables(db):
            for idx in s.table_indexes(t, db):
                for seq, col in enumerate(idx.columns, 1):
                    rows.append(("def", db, t, 0 if idx.unique else 1, db, idx.name, seq, col,
                                 "A", None, None, None, "", "BTREE", "", "", "NO"))
    return [text_column(n, length=64) for n in names], rows


_INFOSCHEMA_TABLES: dict[str, Callable[[SqliteSession], tuple[list[Column],
                                                               list[tuple[Any, ...]]]]] = {
    "SCHEMATA": _is_schemata, "TABLES": _is_tables, "COLUMNS": _is_columns,
    "STATISTICS": _is_statistics,
}


# --- helpers ------------------------------------------------------------------------------
def _now() -> dt.datetime:
    return dt.datetime.now()


def _now_fsp(fsp: Any) -> str:
    n = int(fsp or 0)
    text = _now().strftime("%Y-%m-%d %H:%M:%S.%f")
    return text[:20 + n] if n else text[:19]


def _unix_timestamp(value: Any) -> Any:
    if value is None:
        return None
    try:
        return int(dt.datetime.fromisoformat(str(value)).timestamp())
    except ValueError:
        return 0


def _from_unixtime(value: Any) -> Any:
    if value is None:
        return None
    return dt.datetime.fromtimestamp(float(value)).strftime("%Y-%m-%d %H:%M:%S")


def _rand(seed: Any = None) -> float:
    import random
    return random.Random(seed).random() if seed is not None else random.random()


def _bytes(v: Any) -> bytes:
    return v if isinstance(v, bytes) else str(v).encode()


def _concat_ws(sep: Any, *args: Any) -> Any:
    if sep is None:
        return None
    return str(sep).join(str(a) for a in args if a is not None)


_NO_SUCH_TABLE = re.compile(r"no such table: (?:(\S+?)\.)?(\S+)$")
_NO_SUCH_COLUMN = re.compile(r"no such column: (.+)$")
_UNIQUE = re.compile(r"UNIQUE constraint failed: (.+)$")
_NOT_NULL = re.compile(r"NOT NULL constraint failed: (?:\S+\.)?(\S+)$")
_EXISTS = re.compile(r"table (?:\"?)(\S+?)(?:\"?) already exists")
_FUNCTION = re.compile(r"no such function: (\S+)")
_VALUES = re.compile(r"(\d+) values for (\d+) columns|table \S+ has (\d+) columns but (\d+) "
                     r"values were supplied")


def map_error(msg: str, database: str | None) -> ServerError:
    """A SQLite error message -> the MySQL error a MariaDB user would have seen."""
    if m := _NO_SUCH_TABLE.search(msg):
        db = m.group(1) or database or ""
        table = m.group(2)
        if db == "temp" and table.startswith("is_"):
            return ServerError(errors.ER_NO_SUCH_TABLE, INFORMATION_SCHEMA, table[3:].upper())
        return ServerError(errors.ER_NO_SUCH_TABLE, db, table)
    if m := _NO_SUCH_COLUMN.search(msg):
        col = m.group(1)
        parts = col.split(".")
        if len(parts) == 3:  # db.table.col: show as MySQL does, table.col
            col = ".".join(parts[1:])
        return ServerError(errors.ER_BAD_FIELD_ERROR, col, "field list")
    if m := _UNIQUE.search(msg):
        cols = [c.strip().split(".")[-1] for c in m.group(1).split(",")]
        return ServerError(errors.ER_DUP_ENTRY, "?", "-".join(cols),
                           message=f"Duplicate entry for key '{'-'.join(cols)}'")
    if m := _NOT_NULL.search(msg):
        return ServerError(errors.ER_BAD_NULL_ERROR, m.group(1))
    if m := _EXISTS.search(msg):
        return ServerError(errors.ER_TABLE_EXISTS_ERROR, m.group(1))
    if m := _FUNCTION.search(msg):
        return ServerError(errors.ER_SP_DOES_NOT_EXIST, "FUNCTION",
                           f"{database or ''}.{m.group(1)}" if database else m.group(1))
    if _VALUES.search(msg):
        return ServerError(errors.ER_WRONG_VALUE_COUNT_ON_ROW, 1)
    if "ambiguous column name" in msg:
        col = msg.rsplit(":", 1)[-1].strip()
        return ServerError(errors.ER_NON_UNIQ_ERROR, message=f"Column '{col}' in field list is "
                           "ambiguous")
    if "syntax error" in msg or "incomplete input" in msg:
        near = re.search(r'near "(.*)"', msg)
        return ServerError(errors.ER_PARSE_ERROR, near.group(1) if near else "", 1)
    if "database is locked" in msg or "database table is locked" in msg:
        return ServerError(errors.ER_LOCK_WAIT_TIMEOUT)
    if "datatype mismatch" in msg:
        return ServerError(1366, message="Incorrect integer value for column", sqlstate="22007")
    if "CHECK constraint failed" in msg:
        return ServerError(4025, message=f"CONSTRAINT {msg.rsplit(':', 1)[-1].strip()} failed",
                           sqlstate="23000")
    if "sub-select returns" in msg or "row value misused" in msg:
        return ServerError(1241, message="Operand should contain 1 column(s)", sqlstate="21000")
    if "wrong number of arguments to function" in msg:
        fn = re.search(r"function (\w+)", msg)
        return ServerError(1582, message="Incorrect parameter count in the call to native "
                           f"function '{fn.group(1) if fn else ''}'", sqlstate="42000")
    if "disk" in msg and ("full" in msg or "I/O" in msg):
        return ServerError(1021, message=f"Disk full or I/O error: {msg}", sqlstate="HY000")
    return ServerError(errors.ER_UNKNOWN_ERROR, msg)
