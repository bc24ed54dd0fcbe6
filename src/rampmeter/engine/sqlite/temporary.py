"""Temporary tables: CREATE TEMPORARY TABLE, visible to its session only, gone at disconnect.

Rules:
- A temporary table lives in the session's engine handle, in SQLite's `temp` schema, as
  `temp."<db>/<name>"` (a database name has no '/'), with its JSON row in
  `temp._rampmeter_tables` and its indexes as `"<db>/<name>.<index>"`. Closing the handle drops
  it; so the session that holds one is pinned to its handle (DESIGN.md).
- It shadows a base table of the same name: `session.table_def` looks here first, and
  translate.py addresses the physical table (TableDef.location). SHOW TABLES and
  information_schema do not list it (MariaDB 10.11); SHOW CREATE TABLE prints CREATE
  TEMPORARY TABLE.
- No implicit commit, no write lock: nobody else can see it. Inside an open transaction its
  creation belongs to SQLite's transaction (a ROLLBACK undoes it, where MariaDB would keep it;
  docs/sql.md).
- Dropping one while the statement that drops it (through a routine) reads it is MariaDB's
  1137 "Can't reopen table" (SQLite says the table is locked).
- Plans that name a temporary table are the session's own: `plan_token` goes into the plan
  cache key while the session has any.
- DDL on it (ALTER, CREATE INDEX, TRUNCATE, RENAME) goes through the same rooms as for base
  tables, given the schema `temp` and the physical name. Foreign keys are refused (1005), as
  InnoDB refuses them on temporary tables.
"""

from __future__ import annotations

import itertools
import sqlite3
from typing import TYPE_CHECKING

from rampmeter.engine.sqlite import catalog
from rampmeter.engine.sqlite.catalog import TableDef, q
from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

SCHEMA = "temp"


def physical(database: str, table: str) -> str:
    return f"{database}/{table}"


def logical(name: str) -> tuple[str, str]:
    db, _, table = name.partition("/")
    return db, table


def find(s: SqliteSession, database: str, table: str) -> str | None:
    """The physical name of the session's temporary `database`.`table`, or None."""
    if not s.temp_tables:
        return None
    return catalog.find_table(s.handle.conn, SCHEMA, physical(database, table))


def load(s: SqliteSession, database: str, table: str) -> TableDef | None:
    """The definition as statements see it: the table's own name, and where it lives."""
    stored = find(s, database, table)
    if stored is None:
        return None
    tdef = catalog.load_table(s.handle.conn, SCHEMA, stored)
    tdef.name = logical(stored)[1]
    tdef.location = (SCHEMA, stored)
    return tdef


def load_physical(s: SqliteSession, stored: str) -> TableDef:
    """The definition DDL works on: named by its physical name."""
    return catalog.load_table(s.handle.conn, SCHEMA, stored)


def create(s: SqliteSession, database: str, tdef: TableDef, *, replace: bool = False) -> None:
    from rampmeter.engine.sqlite import rebuild
    name = physical(database, tdef.name)
    if replace:
        drop(s, database, tdef.name)
    try:
        rebuild.write_table(s, SCHEMA, tdef, name)
    except sqlite3.Error as e:
        raise s.sqlite_error(e) from None
    s.temp_tables += 1
    changed(s)


def drop(s: SqliteSession, database: str, table: str) -> bool:
    """DROP TEMPORARY TABLE: True when there was one."""
    stored = find(s, database, table)
    if stored is None:
        return False
    tdef = load_physical(s, stored)
    h = s.handle
    try:
        for i in tdef.indexes:
            if not i.kind:
                h.execute(f"DROP INDEX IF EXISTS {SCHEMA}.{q(stored + '.' + i.name)}")
        h.execute(f"DROP TABLE {SCHEMA}.{q(stored)}")
    except sqlite3.OperationalError as e:
        if "locked" not in str(e):
            raise
        # the statement that runs this (a routine called from it) is reading the table:
        # MariaDB's 1137, a temporary table opened twice
        raise ServerError(1137, message=f"Can't reopen table: '{table}'",
                          sqlstate="HY000") from None
    h.execute(catalog.meta_delete_sql(SCHEMA), (stored,))
    s.temp_tables = max(0, s.temp_tables - 1)
    changed(s)
    return True


_VERSIONS = itertools.count(1)


def drop_all(s: SqliteSession) -> None:
    """COM_RESET_CONNECTION / COM_CHANGE_USER: the session's temporary tables go."""
    if not s.temp_tables:
        return
    for name in catalog.table_names(s.handle.conn, SCHEMA):
        if "/" in name:
            drop(s, *logical(name))
    s.temp_tables = 0
    changed(s)


def changed(s: SqliteSession) -> None:
    """A session's temporary tables changed: its plans that named them are stale. Versions
    are unique across sessions, so one session's plans never serve another."""
    s.temp_version = next(_VERSIONS)


def plan_token(s: SqliteSession) -> int:
    return s.temp_version if s.temp_tables else 0
