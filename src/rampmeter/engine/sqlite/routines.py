"""Stored programs' storage: procedures and functions kept in their database's file.

Rules:
- A routine is one row of `_rampmeter_routines` in its database's file (so DROP DATABASE drops
  it, and it is as crash-safe as the tables): (type, name, spec), spec the JSON the session
  layer made of its CREATE statement (session/sp/: the text, the parameters, the body...).
  The engine stores and returns it and never reads inside it; writing is a schema change
  (txn.ddl: implicit commit, one SQLite transaction under the write lock).
- Names are case-insensitive (MariaDB's routine names are), the type is PROCEDURE or FUNCTION.
- Triggers keep their spec here too (type TRIGGER; triggers.py makes the SQLite half), and
  events (type EVENT; session/sp/events.py makes and reads the spec, `event_rows` lists them
  for SHOW EVENTS and information_schema.EVENTS). Packages do not exist yet: DROP of one is
  1305 as MariaDB words it (a Note with IF EXISTS); creating one is 1235 (the DDL room).
"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from rampmeter.engine.base import Result, UpdateCount
from rampmeter.engine.sqlite.catalog import q
from rampmeter.errors import ServerError, Warning_
from rampmeter.sql.reader import Reader

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

KINDS = ("PROCEDURE", "FUNCTION", "TRIGGER", "EVENT", "PACKAGE")
META = "_rampmeter_routines"


def _ddl(schema: str) -> str:
    return (f"CREATE TABLE IF NOT EXISTS {q(schema)}.{META} (type TEXT NOT NULL, name TEXT NOT "
            "NULL COLLATE NOCASE, spec TEXT NOT NULL, PRIMARY KEY (type, name))")


def load(s: SqliteSession, database: str, kind: str, name: str) -> dict[str, Any] | None:
    if not s.engine.database_exists(database):
        return None
    schema = s.handle.attach(database, s.database)
    try:
        row = s.handle.conn.execute(f"SELECT spec FROM {q(schema)}.{META} WHERE type = ? AND "
                                    "name = ?", (kind, name)).fetchone()
    except sqlite3.OperationalError:
        return None
    return json.loads(row[0]) if row else None


def listing(s: SqliteSession, database: str) -> list[dict[str, Any]]:
    """Every routine of `database`, as stored."""
    if not s.engine.database_exists(database):
        return []
    schema = s.handle.attach(database, s.database)
    try:
        rows = s.handle.conn.execute(f"SELECT spec FROM {q(schema)}.{META} ORDER BY type, name")
    except sqlite3.OperationalError:
        return []
    return [json.loads(r[0]) for r in rows]


def status_rows(s: SqliteSession, kind: str) -> list[tuple[Any, ...]]:
    """SHOW PROCEDURE / FUNCTION STATUS: every database's routines of `kind`."""
    rows = []
    for db in s.engine.databases():
        if db.lower() == "information_schema":
            continue
        for spec in listing(s, db):
            if spec["type"] != kind:
                continue
            chars = spec.get("chars", {})
            rows.append((spec["db"], spec["name"], spec["type"], spec["definer"],
                         spec["modified"], spec["created"], chars.get("security", "DEFINER"),
                         chars.get("comment", ""), spec["charset_client"],
                         spec["collation_connection"], spec["db_collation"]))
    return rows


def event_rows(s: SqliteSession, only: str | None = None) -> list[tuple[Any, ...]]:
    """One row per event (of database `only`, or of every database the session may see):
    information_schema.EVENTS's columns without the catalog; SHOW EVENTS picks from them."""
    rows: list[tuple[Any, ...]] = []
    for db in [only] if only else s.engine.databases():
        if db.lower() in ("information_schema", "performance_schema"):
            continue
        allowed = getattr(s.context, "has_db_privilege", None)
        if only is None and allowed is not None and not allowed(db, "EVENT"):
            continue
        for e in listing(s, db):
            if e["type"] != "EVENT":
                continue
            at = e.get("execute_at")
            shown = e.get("interval_shown")
            if shown is not None and "_" in str(e.get("unit")):  # compound: quoted, as MariaDB
                shown = f"'{shown}'"
            rows.append((db, e["name"], e["definer"], e["time_zone"], "SQL", e["body"],
                         "ONE TIME" if at else "RECURRING", at, shown,
                         e.get("unit"), e["sql_mode"], e.get("starts"), e.get("ends"),
                         e["status"], "PRESERVE" if e["preserve"] else "NOT PRESERVE",
                         e["created"], e["modified"], e.get("last_executed"), e["comment"],
                         e["originator"], e["charset_client"], e["collation_connection"],
                         e["db_collation"]))
    return rows


def store(s: SqliteSession, database: str, kind: str, name: str, spec: dict[str, Any]) -> None:
    """Create or replace one routine, as a schema change."""
    schema = s.schema(database)
    with s.ddl():
        write(s, schema, kind, name, spec)


def write(s: SqliteSession, schema: str, kind: str, name: str, spec: dict[str, Any]) -> None:
    """The spec row, inside the caller's schema change."""
    s.handle.execute(_ddl(schema))
    delete(s, schema, kind, name)
    s.handle.execute(f"INSERT INTO {q(schema)}.{META} VALUES (?, ?, ?)",
                     (kind, name, json.dumps(spec)))


def delete(s: SqliteSession, schema: str, kind: str, name: str) -> None:
    s.handle.execute(f"DELETE FROM {q(schema)}.{META} WHERE type = ? AND name = ?", (kind, name))


def remove(s: SqliteSession, database: str, kind: str, name: str) -> bool:
    """Drop one routine; whether it existed."""
    if load(s, database, kind, name) is None:
        return False
    schema = s.schema(database)
    with s.ddl():
        delete(s, schema, kind, name)
    return True


def drop(s: SqliteSession, r: Reader, kind: str) -> Result:
    """DROP TRIGGER / EVENT / PACKAGE [IF EXISTS] [db.]name: none exist (module rules).
    Procedures and functions are dropped by the session layer (session/sp/)."""
    if_exists = r.accept("IF", "EXISTS")
    db, name = r.qualified_name()
    r.end()
    if kind == "TRIGGER":
        code, message = 1360, "Trigger does not exist"
    elif kind == "EVENT":
        code, message = 1539, f"Unknown event '{name}'"
        if if_exists:
            code, message = 1305, f"Event {name} does not exist"
    else:
        code, message = 1305, f"{kind} {db or s.database or ''}.{name} does not exist"
    if if_exists:
        return UpdateCount(warnings=[Warning_("Note", code, message)])
    raise ServerError(code, message=message, sqlstate="42000" if code == 1305 else "HY000")
