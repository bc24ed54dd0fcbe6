"""An engine handle: one sqlite3 connection with the MySQL databases it sees ATTACHed.

Rules:
- `main` is an empty in-memory database; each MySQL database a statement touches is ATTACHed
  under its own name (<datadir>/<name>.sqlite3), so `db.t` and cross-database joins work.
  SQLite attaches at most SQLITE_LIMIT_ATTACHED files; the least recently attached one that is
  not the current database is detached to make room.
- ATTACH is impossible inside a transaction. A database first used inside one is read through a
  short-lived read-only connection for metadata (`meta_conn`); DML on it waits for the
  transaction to end (ER_NOT_SUPPORTED_YET, docs/sql.md).
- A dropped database (its generation bumped by the engine) is detached before reuse, so a
  re-created database of the same name is a new file.
- Interrupts: `interrupt()` (any thread) calls sqlite3_interrupt; a progress handler every
  _PROGRESS_EVERY VM instructions asks `cancelled()` too, which closes the race of an interrupt
  that lands just before a statement starts.
- Temp triggers count the rows an UPDATE / upsert changes and a REPLACE deletes (dml.py): they
  are created per table on first need and re-created when the schema version moves.
- This is the unit DESIGN.md calls an engine handle. Today each session owns one; the session
  code touches it only through these methods, so handles can later be pooled and lent.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.sqlite.catalog import q
from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.storage import SqliteEngine

_PROGRESS_EVERY = 100_000   # SQLite VM instructions (about a millisecond)
_CACHE_KIB = 256            # page cache per session and database (SQLite's default: 2000 KiB)


log = logging.getLogger("rampmeter.engine")


class Handle:
    def __init__(self, engine: SqliteEngine, cancelled: Callable[[], bool]) -> None:
        self.engine = engine
        self.conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False,
                                    cached_statements=256)
        self.conn.execute("PRAGMA temp_store=MEMORY")
        # REPLACE's deletions fire DELETE triggers only with recursive_triggers on (dml.py).
        self.conn.execute("PRAGMA recursive_triggers=ON")
        # Each progress call takes the GIL: every 2000 instructions, four CPU-bound statements
        # kept it so busy that a short statement of another connection waited seconds.
        self.conn.set_progress_handler(lambda: 1 if cancelled() else 0, _PROGRESS_EVERY)
        self._attach_limit = self.conn.getlimit(sqlite3.SQLITE_LIMIT_ATTACHED)
        self._attached: dict[str, tuple[str, int]] = {}  # lower name -> (name, generation)
        self.triggers: dict[tuple[str, str, str], int] = {}  # (kind, db, table) -> version
        self._pending: set[tuple[str, str, str]] = set()  # made inside the open transaction
        self._closed = False

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

    def interrupt(self) -> None:
        try:
            self.conn.interrupt()
        except sqlite3.ProgrammingError:
            pass  # closed meanwhile

    # --- databases ------------------------------------------------------------------------
    def attached(self, database: str) -> bool:
        have = self._attached.get(database.lower())
        return have is not None and have[1] == self.engine.generation(database)

    def attach(self, database: str, current: str | None = None) -> str:
        """ATTACH `database` if needed; returns its schema name. 1049 if it does not exist."""
        key = database.lower()
        gen = self.engine.generation(database)
        have = self._attached.get(key)
        if have is not None:
            if have[1] == gen:
                return have[0]
            self.detach(key)  # dropped (and maybe re-created) since we attached it
        if not self.engine.database_exists(database):
            raise ServerError(errors.ER_BAD_DB_ERROR, database)
        if self.conn.in_transaction:
            raise ServerError(errors.ER_NOT_SUPPORTED_YET,
                              f"a first use of database {database} inside a transaction")
        while len(self._attached) >= self._attach_limit - 1:
            victim = next(k for k in self._attached if k != (current or "").lower())
            self.detach(victim)
        try:
            self.conn.execute(f"ATTACH DATABASE ? AS {q(database)}",
                              (str(self.engine.path(database)),))
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

    def detach(self, key: str) -> None:
        entry = self._attached.pop(key.lower(), None)
        if entry is None:
            return
        for trig in [t for t in self.triggers if t[1].lower() == key.lower()]:
            del self.triggers[trig]
        try:
            self.conn.execute(f"DETACH DATABASE {q(entry[0])}")
        except sqlite3.OperationalError:
            pass

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
