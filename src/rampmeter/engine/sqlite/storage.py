"""The SQLite engine's shared state: database files, the schema version, the plan and table
caches, the lock table every session of the engine queues on, and the pool of engine handles
sessions borrow (handles.py).

Rules:
- Layout: `<datadir>/<database>.sqlite3` in WAL mode (plus -wal/-shm beside it); a database
  exists when its file does. information_schema is virtual and always exists.
- A database name is any text MariaDB would accept that is also a safe file name: no '/', '\\',
  NUL, no leading '.', at most 64 characters, and valid text (CREATE DATABASE refuses the rest
  with 1102, so no name can poison a later listing).
- `schema_version` moves on every DDL; plans and table definitions are cached per version, so a
  DDL makes every cached plan unreachable at once. `generation(db)` moves when a database is
  dropped, so sessions detach the old file before reusing the name.
- The caches are dictionaries replaced wholesale (never mutated under a reader's feet): a
  reader that races a DDL sees the old dictionary or the new one.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rampmeter.engine.base import Engine, SessionContext, WaitHook
from rampmeter.engine.locks import LockTable, TableLocks
from rampmeter.engine.sqlite import catalog
from rampmeter.engine.sqlite.catalog import TableDef
from rampmeter.engine.sqlite.handles import IDLE_LIMIT, HandlePool
from rampmeter.ratelog import RateLimitedLog
from rampmeter.sql import charsets

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

SUFFIX = ".sqlite3"
INFORMATION_SCHEMA = "information_schema"
PERFORMANCE_SCHEMA = "performance_schema"
# Schemas whose tables only the session provides (SessionContext.virtual_tables): a session sees
# one when it provides tables for it. information_schema has tables of the engine's own too.
SESSION_SCHEMAS = (PERFORMANCE_SCHEMA,)
VIRTUAL_SCHEMAS = (INFORMATION_SCHEMA, *SESSION_SCHEMAS)
PLAN_CACHE_LIMIT = 20_000
_DB_NAME = re.compile(r"^[^/\\.\x00][^/\\\x00]{0,63}$")


def valid_database_name(name: str) -> bool:
    return bool(_DB_NAME.match(name)) and charsets.is_valid(name) and name == name.rstrip(" ")


class SqliteEngine(Engine):
    name = "sqlite"

    def __init__(self, datadir: str | os.PathLike[str], *, synchronous: str = "FULL",
                 idle_handles: int = IDLE_LIMIT) -> None:
        self.datadir = Path(datadir)
        self.datadir.mkdir(parents=True, exist_ok=True)
        self.synchronous = synchronous.upper()
        self.locks = LockTable()
        self.table_locks = TableLocks()  # LOCK TABLES' per-table locks (locks.py)
        self.rate_log = RateLimitedLog()  # storage errors clients cause (ratelog.py)
        self.lock = threading.Lock()   # database creation and cache replacement
        self.schema_version = 0
        self._generation: dict[str, int] = {}  # db -> bumped when dropped
        self.plans: dict[tuple[str, str | None, int], Any] = {}
        self.tables: dict[tuple[str, str, int], TableDef | None] = {}
        self.handles = HandlePool(self, idle_handles)  # sessions borrow, not own (handles.py)

    # --- databases ----------------------------------------------------------------------------
    def path(self, database: str) -> Path:
        return self.datadir / (database + SUFFIX)

    def database_exists(self, name: str) -> bool:
        return name.lower() == INFORMATION_SCHEMA or (
            valid_database_name(name) and self.path(name).is_file())

    def databases(self) -> list[str]:
        names = []
        for p in self.datadir.glob("*" + SUFFIX):
            name = p.name[:-len(SUFFIX)]
            if valid_database_name(name) and p.is_file():  # not a directory or dangling link
                names.append(name)
        return sorted([INFORMATION_SCHEMA, *names], key=str.lower)

    def generation(self, database: str) -> int:
        return self._generation.get(database.lower(), 0)

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

    # --- caches ---------------------------------------------------------------------------------
    def schema_changed(self, dropped: str | None = None) -> None:
        with self.lock:
            self.schema_version += 1
            self.plans = {}
            self.tables = {}
            if dropped is not None:
                key = dropped.lower()
                self._generation[key] = self._generation.get(key, 0) + 1

    def cached_plan(self, key: tuple[str, str | None, int]) -> Any:
        return self.plans.get(key)

    def cache_plan(self, key: tuple[str, str | None, int], plan: Any) -> None:
        if key[2] != self.schema_version:
            return
        plans = self.plans
        if len(plans) > PLAN_CACHE_LIMIT:
            self.plans = plans = {}
        plans[key] = plan

    def cached_table(self, key: tuple[str, str, int]) -> TableDef | None | bool:
        """The cached definition, None for "no such table", False when not cached."""
        return self.tables.get(key, False)

    def cache_table(self, key: tuple[str, str, int], tdef: TableDef | None) -> None:
        if key[2] == self.schema_version:
            self.tables[key] = tdef

    # --- sessions -------------------------------------------------------------------------------
    def open_session(self, context: SessionContext, waiting: WaitHook) -> SqliteSession:
        from rampmeter.engine.sqlite.session import SqliteSession
        return SqliteSession(self, context, waiting)

    def close(self) -> None:
        self.handles.close()
