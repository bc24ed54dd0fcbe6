"""An engine handle: one sqlite3 connection with the MySQL databases it sees ATTACHed.

Rules:
- `main` is an empty in-memory database; each MySQL database a statement touches is ATTACHed
  under its own name (<datadir>/<name>.sqlite3), so `db.t` and cross-database joins work.
  SQLite attaches at most SQLITE_LIMIT_ATTACHED files; the least recently used one that is
  not the current database is detached to make room (`_attached` is kept in order of use).
- ATTACH is impossible inside a transaction. A database first used inside one is read through a
  short-lived read-only connection for metadata (`meta_conn`). To run statements on it, the
  handle asks its owner to step out of the SQLite transaction for the ATTACH (`step_out`,
  txn.Transactions.step_out): allowed while the transaction has written nothing, else
  ER_NOT_SUPPORTED_YET (docs/sql.md). mariadb-dump --single-transaction needs the former.
- A dropped database (its generation bumped by the engine) is detached before reuse, so a
  re-created database of the same name is a new file.
- Busy waits are reported: SQLite's own busy handler (the sqlite3 module's 5 s timeout) would
  sleep in C where the thread pool cannot see it, so the connection has no busy timeout and its
  execute / executemany (`_Connection`, used by every caller of the handle) retry a SQLITE_BUSY
  themselves, inside `waiting(TABLE_LOCK)` (the database file is the lock), with SQLite's own
  back-off steps and the same 5 s budget, then 1205. Writers of this
  engine already queue on its write lock (locks.py), so this is for other processes and for
  SQLite's brief exclusive moments (WAL recovery). BUSY_SNAPSHOT is not retried: waiting
  cannot fix it.
- Interrupts: a progress handler every _PROGRESS_EVERY VM instructions (about a millisecond)
  asks the session that holds the handle whether it was cancelled (KILL / KILL QUERY). No
  sqlite3_interrupt() from the killing thread: by the time it ran, the handle might have been
  given back and be running another session's statement; the progress handler always asks
  the right session, with no lock between cancel() and giving a handle back.
- Temp triggers count the rows an UPDATE / upsert changes and a REPLACE deletes (dml.py): they
  are created per table on first need and re-created when the schema version moves.
- This is the unit DESIGN.md calls an engine handle. Sessions do not own one: they borrow one
  from the engine's pool (handles.py) for a command, and keep it between commands only while
  pinned (pinning.py). `lend(session)` makes the handle that session's: everything that asks
  for the session (functions, the progress handler, busy waits, step_out) asks the handle's
  Occupant, so lending is one assignment; `vacate()` forgets it.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import WaitReason
from rampmeter.engine.sqlite.catalog import q
from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.storage import SqliteEngine

_PROGRESS_EVERY = 100_000   # SQLite VM instructions (about a millisecond)
_CACHE_KIB = 256            # page cache per session and database (SQLite's default: 2000 KiB)
BUSY_BUDGET = 5.0           # seconds: the sqlite3 module's default busy timeout
# sqliteDefaultBusyCallback's delays (ms), the last one repeated
_BUSY_STEPS = (1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100)
_SQLITE_BUSY = 5
_SQLITE_BUSY_SNAPSHOT = 517


def _no_wait(reason: WaitReason) -> Any:
    return nullcontext()


def _busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF == _SQLITE_BUSY and code != _SQLITE_BUSY_SNAPSHOT


class _Connection(sqlite3.Connection):
    """A sqlite3 connection whose SQLITE_BUSY retries are waits the thread pool sees (those of
    the session holding the handle, through its Occupant)."""

    occupant: Any = None

    def execute(self, sql: str, params: Any = (), /) -> sqlite3.Cursor:  # type: ignore[override]
        try:
            return sqlite3.Connection.execute(self, sql, params)
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise
        return self._while_busy(lambda: sqlite3.Connection.execute(self, sql, params))

    def executemany(self, sql: str, rows: Any, /) -> sqlite3.Cursor:  # type: ignore[override]
        rows = list(rows)
        try:
            return sqlite3.Connection.executemany(self, sql, rows)
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise
        return self._while_busy(lambda: sqlite3.Connection.executemany(self, sql, rows))

    def _while_busy(self, attempt: Callable[[], sqlite3.Cursor]) -> sqlite3.Cursor:
        """Retry a statement SQLite refused with SQLITE_BUSY, as its busy handler would, but
        as a wait the thread pool sees."""
        deadline = time.monotonic() + BUSY_BUDGET
        step = 0
        session = self.occupant.session if self.occupant is not None else None
        waiting = session.waiting if session is not None else _no_wait
        with waiting(WaitReason.TABLE_LOCK):
            while True:
                time.sleep(_BUSY_STEPS[min(step, len(_BUSY_STEPS) - 1)] / 1000.0)
                step += 1
                if session is not None and session.cancelled():
                    raise ServerError(errors.ER_QUERY_INTERRUPTED)
                try:
                    return attempt()
                except sqlite3.OperationalError as exc:
                    if not _busy(exc) or time.monotonic() >= deadline:
                        raise


log = logging.getLogger("rampmeter.engine")


class Handle:
    def __init__(self, engine: SqliteEngine) -> None:
        from rampmeter.engine.sqlite.handles import Occupant
        self.engine = engine
        self.occupant = Occupant()
        # uri=True: a database on a read-only file system is attached as an immutable URI
        conn = sqlite3.connect("file::memory:", isolation_level=None, check_same_thread=False,
                               cached_statements=256, timeout=0, factory=_Connection, uri=True)
        assert isinstance(conn, _Connection)
        conn.occupant = self.occupant
        self.conn = conn
        self.conn.execute("PRAGMA temp_store=MEMORY")
        # REPLACE's deletions fire DELETE triggers only with recursive_triggers on (dml.py).
        self.conn.execute("PRAGMA recursive_triggers=ON")
        # Each progress call takes the GIL: every 2000 instructions, four CPU-bound statements
        # kept it so busy that a short statement of another connection waited seconds.
        self.conn.set_progress_handler(self.occupant.stop_requested, _PROGRESS_EVERY)
        self._attach_limit = self.conn.getlimit(sqlite3.SQLITE_LIMIT_ATTACHED)
        self._attached: dict[str, tuple[str, int]] = {}  # lower name -> (name, generation)
        self.triggers: dict[tuple[str, str, str], int] = {}  # (kind, db, table) -> version
        self._pending: set[tuple[str, str, str]] = set()  # made inside the open transaction
        self._version = engine.schema_version  # the DDL this handle has caught up with
        self._closed = False

    # --- who holds it ------------------------------------------------------------------------
    def lend(self, session: Any) -> None:
        """From now on the handle serves `session` (handles.py borrows, the session lends)."""
        self.occupant.session = session
        if self.engine.schema_version != self._version:
            self.refresh()

    def vacate(self) -> None:
        """Nobody holds the handle: its functions answer for no session."""
        self.occupant.session = None

    # --- running SQL ---------------------------------------------------------------------
    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
        return self.conn.executemany(sql, rows)

    @property
    def in_transaction(self) -> bool:
        return self.conn.in_transaction

    def create_function(self, name: str, nargs: int, fn: Callable[..., Any], *,
                        deterministic: bool = False) -> None:
        self.conn.create_function(name, nargs, fn, deterministic=deterministic)

    def create_group_function(self, name: str, over_rows: Callable[[list[tuple[Any, ...]]], Any]
                              ) -> None:
        """An aggregate of any number of arguments that collects each group's argument rows
        and hands them to `over_rows` at the end (a stored aggregate function)."""
        class Group:
            def __init__(self) -> None:
                self.rows: list[tuple[Any, ...]] = []

            def step(self, *args: Any) -> None:
                self.rows.append(args)

            def finalize(self) -> Any:
                return over_rows(self.rows)

        self.conn.create_aggregate(name, -1, Group)

    @staticmethod
    def trigger_name(key: tuple[str, str, str]) -> str:
        """The name of the temp trigger for (kind, schema, table) (dml.ensure_triggers)."""
        return f"rm_{key[0]}_{abs(hash(key)) % 10**12}"

    def refresh(self) -> None:
        """Catch up with DDL made since this handle last looked (on lend, and before a DDL):
        detach dropped databases (their files are gone; an attachment would keep them open)
        and drop the temp triggers, which are made again on demand. A temp trigger on a table
        that no longer exists would fail SQLite's own schema check in ALTER TABLE ... RENAME /
        DROP COLUMN of any table, and a shared handle lives through many DDLs."""
        version = self.engine.schema_version
        if version == self._version or self.conn.in_transaction:
            return
        self._version = version
        for key, (name, gen) in list(self._attached.items()):
            if gen != self.engine.generation(name):
                self.detach(key)
        if self.triggers:
            for key in list(self.triggers):
                self.conn.execute(f"DROP TRIGGER IF EXISTS temp.{q(self.trigger_name(key))}")
            self.triggers.clear()
            self._pending.clear()

    def trigger_made(self, key: tuple[str, str, str], version: int) -> None:
        """A temp trigger exists now; inside a transaction only until it rolls back."""
        self.triggers[key] = version
        if self.conn.in_transaction:
            self._pending.add(key)

    def committed(self) -> None:
        self._pending.clear()

    def rolled_back(self) -> None:
        """Temp triggers made since the transaction began are gone with it."""
        for key in self._pending:
            self.triggers.pop(key, None)
        self._pending.clear()

    # --- databases ------------------------------------------------------------------------
    def attached(self, database: str) -> bool:
        """Is `database` attached (and not dropped since)? A yes counts as a use: the
        attachments are an LRU, the least recently used one is detached to make room."""
        key = database.lower()
        have = self._attached.get(key)
        if have is None or have[1] != self.engine.generation(database):
            return False
        attached = self._attached
        if len(attached) > 1:
            attached[key] = attached.pop(key)
        return True

    def attach(self, database: str, current: str | None = None) -> str:
        """ATTACH `database` if needed; returns its schema name. 1049 if it does not exist."""
        key = database.lower()
        gen = self.engine.generation(database)
        have = self._attached.get(key)
        if have is not None:
            if have[1] == gen:
                self._attached[key] = self._attached.pop(key)  # a use (LRU)
                return have[0]
            self.detach(key)  # dropped (and maybe re-created) since we attached it
        if not self.engine.database_exists(database):
            raise ServerError(errors.ER_BAD_DB_ERROR, database)
        if self.conn.in_transaction:
            # leave the SQLite transaction for the ATTACH and come back, or refuse
            # (txn.Transactions.step_out)
            session = self.occupant.session
            if session is None:
                raise ServerError(errors.ER_NOT_SUPPORTED_YET,
                                  f"a first use of database {database} inside a transaction")
            with session.txn.step_out(database):
                return self._attach(database, key, gen, current)
        return self._attach(database, key, gen, current)

    def _attach(self, database: str, key: str, gen: int, current: str | None) -> str:
        while len(self._attached) >= self._attach_limit - 1:
            victim = next(k for k in self._attached if k != (current or "").lower())
            self.detach(victim)
        try:
            self._attach_file(database)
            self.conn.execute(f"PRAGMA {q(database)}.synchronous={self.engine.synchronous}")
            # Thousands of sessions each with SQLite's default 2 MiB page cache per database
            # cost gigabytes (611 MiB RSS at 1024 sysbench read-only connections); the OS page
            # cache holds the file for everyone anyway.
            self.conn.execute(f"PRAGMA {q(database)}.cache_size=-{_CACHE_KIB}")
        except sqlite3.DatabaseError as exc:
            # A damaged file (not SQLite, unreadable): this client's error, nobody else's.
            try:
                self.conn.execute(f"DETACH DATABASE {q(database)}")
            except sqlite3.Error:
                pass
            log.warning("database %r cannot be opened: %s", database, exc)
            raise ServerError(errors.ER_NOT_FORM_FILE,
                              f"./{self.engine.path(database).name}") from None
        self._attached[key] = (database, gen)
        return database

    def _attach_file(self, database: str) -> None:
        """ATTACH the database's file; on a read-only file system (where SQLite cannot make the
        WAL's shared-memory file) attach it immutable: reads work, writes fail with
        SQLITE_READONLY, which the client sees as 1036 (errmap.storage_error)."""
        path = self.engine.path(database)
        try:
            self.conn.execute(f"ATTACH DATABASE ? AS {q(database)}", (str(path),))
            return
        except sqlite3.OperationalError:
            if os.access(path.parent, os.W_OK) or not path.exists():
                raise
        self.engine.rate_log.log(log, "read-only", logging.WARNING, "database %r is on a read-only "
                                 "file system: opened read-only, writes fail with 1036", database)
        uri = "file:" + urllib.parse.quote(str(path)) + "?immutable=1"
        self.conn.execute(f"ATTACH DATABASE ? AS {q(database)}", (uri,))

    def detach(self, key: str) -> None:
        entry = self._attached.pop(key.lower(), None)
        if entry is None:
            return
        for trig in [t for t in self.triggers if t[1].lower() == key.lower()]:
            del self.triggers[trig]
            try:
                self.conn.execute(f"DROP TRIGGER IF EXISTS temp.{q(self.trigger_name(trig))}")
            except sqlite3.Error:
                pass
        try:
            self.conn.execute(f"DETACH DATABASE {q(entry[0])}")
        except sqlite3.OperationalError:
            pass

    def attachable(self) -> int:
        """How many more databases can be attached without detaching one."""
        return self._attach_limit - 1 - len(self._attached)

    @contextmanager
    def meta_conn(self, database: str, current: str | None = None
                  ) -> Iterator[tuple[sqlite3.Connection, str]]:
        """A connection that sees `database`: this one when attached (or attachable), else a
        short-lived read-only one (ATTACH is impossible inside a transaction)."""
        if not self.engine.database_exists(database):
            raise ServerError(errors.ER_BAD_DB_ERROR, database)
        if self.attached(database) or not self.conn.in_transaction:
            yield self.conn, self.attach(database, current)
            return
        conn = sqlite3.connect(f"file:{self.engine.path(database)}?mode=ro", uri=True)
        from rampmeter.engine.sqlite import collations
        collations.install(conn)  # its text columns are declared with them (catalog.py)
        try:
            yield conn, "main"
        finally:
            conn.close()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self.conn.close()
        except sqlite3.Error:
            pass
