"""Triggers with SQL bodies: the engine's half (the session layer's session/sp/ parses and runs
the bodies).

Rules:
- A trigger is two things in its database's file, made and dropped in one schema change: its
  spec in `_rampmeter_routines` (type TRIGGER, routines.py) and an SQLite trigger named
  `_rm_trg_<name>` on the table, whose only action is `SELECT rm_trigger(db, name, 'new.a',
  NEW."a", ..., 'old.a', OLD."a", ...)`: SQLite fires it at MariaDB's moment (BEFORE / AFTER
  each row of INSERT, UPDATE, DELETE, upserts included) and rm_trigger hands the row to the
  session (SessionContext.run_trigger), with the running statement's state kept aside as for
  a stored function. A connection whose context runs no triggers (the mysql mirror) fires
  nothing.
- The SQLite trigger is the truth of existence: dropping or rebuilding the table drops it,
  and a spec without it is not a trigger (it is replaced by the next CREATE of that name).
  ALTER TABLE therefore drops a table's triggers (docs/sql.md).
- The NEW / OLD columns passed are the table's columns when the trigger is created.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rampmeter.engine.sqlite import routines
from rampmeter.engine.sqlite.catalog import q

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.handle import Handle
    from rampmeter.engine.sqlite.session import SqliteSession

PREFIX = "_rm_trg_"


def register(handle: Handle, host: Any) -> None:
    """Once per handle (handles.install_functions): `host` is the handle's occupant, so a
    trigger runs for the session that holds the handle when the row is written."""
    handle.create_function("rm_trigger", -1, lambda *args: _fire(host.session, *args))


def _fire(s: SqliteSession, db: str, name: str, *pairs: Any) -> None:
    run = getattr(s.context, "run_trigger", None)
    if run is None:
        return None
    row = {pairs[k]: pairs[k + 1] for k in range(0, len(pairs), 2)}
    s.run_nested(run, db, name, row)
    return None


def exists(s: SqliteSession, database: str, name: str) -> bool:
    if not s.engine.database_exists(database):
        return False
    schema = s.handle.attach(database, s.database)
    row = s.handle.conn.execute(f"SELECT 1 FROM {q(schema)}.sqlite_master WHERE type = "
                                "'trigger' AND name = ?", (PREFIX + name.lower(),)).fetchone()
    return row is not None


def load(s: SqliteSession, database: str, name: str) -> dict[str, Any] | None:
    spec = routines.load(s, database, "TRIGGER", name)
    return spec if spec is not None and exists(s, database, name) else None


def listing(s: SqliteSession, database: str) -> list[dict[str, Any]]:
    return [r for r in routines.listing(s, database)
            if r["type"] == "TRIGGER" and exists(s, database, r["name"])]


def create(s: SqliteSession, database: str, spec: dict[str, Any]) -> None:
    """Store the spec and make the SQLite trigger, replacing one of that name."""
    schema = s.schema(database)
    tdef = s.table_def(database, spec["table"])
    cols = [c.name for c in tdef.columns] if tdef is not None else []
    pairs = []
    gen = {c.name: c.generated.sql for c in tdef.columns if c.generated is not None} \
        if tdef is not None else {}
    if spec["event"] != "DELETE":
        # a generated column's NEW value is computed (generated.py) from the row's NEW values,
        # which the FROM clause below names as the table's columns
        pairs += [f"'new.{c.lower()}', " + (f"({gen[c]})" if c in gen and gen[c] else
                                            f"NEW.{q(c)}") for c in cols]
    if spec["event"] != "INSERT":
        pairs += [f"'old.{c.lower()}', OLD.{q(c)}" for c in cols]
    args = ", ".join(["?", "?"] + pairs)
    name = PREFIX + spec["name"].lower()
    with s.ddl():
        s.handle.execute(f"DROP TRIGGER IF EXISTS {q(schema)}.{q(name)}")
        routines.write(s, schema, "TRIGGER", spec["name"], spec)
        event = spec["event"]
        base = [q(c.name) for c in tdef.columns if c.generated is None] if tdef else []
        if event == "UPDATE" and tdef is not None and len(base) < len(tdef.columns) and base:
            # not the UPDATE that computes the generated columns after a write (generated.py)
            event = f"UPDATE OF {', '.join(base)}"
        text = (f"CREATE TRIGGER {q(schema)}.{q(name)} {spec['timing']} {event} ON "
                f"{q(tdef.name if tdef is not None else spec['table'])} BEGIN SELECT "
                f"rm_trigger({args}){_new_row(cols) if gen and spec['event'] != 'DELETE' else ''};"
                " END")
        # SQLite takes no parameters in a trigger's body: the two names as literals
        text = text.replace("rm_trigger(?, ?", "rm_trigger(" + _lit(database) + ", " +
                            _lit(spec["name"]), 1)
        s.handle.execute(text)


def _new_row(cols: list[str]) -> str:
    return " FROM (SELECT " + ", ".join(f"NEW.{q(c)} AS {q(c)}" for c in cols) + ")"


def drop(s: SqliteSession, database: str, name: str) -> bool:
    if load(s, database, name) is None:
        return False
    schema = s.schema(database)
    with s.ddl():
        s.handle.execute(f"DROP TRIGGER IF EXISTS {q(schema)}.{q(PREFIX + name.lower())}")
        routines.delete(s, schema, "TRIGGER", name)
    return True


def _lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
