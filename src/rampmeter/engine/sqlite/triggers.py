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
  nothing. An error in the body fails the statement; when the table written is one MariaDB
  cannot roll back (MyISAM & co.), rm_trigger returns 1 instead and the SQLite trigger
  RAISE(FAIL)s, so the rows written before, and the trigger's own writes, stay.
- The SQLite trigger is the truth of existence: dropping or rebuilding the table drops it,
  and a spec without it is not a trigger (it is replaced by the next CREATE of that name).
  ALTER TABLE therefore drops a table's triggers (docs/sql.md). Making one rewrites
  the table's JSON row, which stamps a new table version (catalog.py); dropping one does not
  (MariaDB re-prepares after a CREATE TRIGGER only).
- The NEW / OLD columns passed are the table's columns when the trigger is created, with
  '@trigger' -> "<timing> <event> <table>" and, for an AFTER INSERT / UPDATE trigger,
  '@rowid' -> NEW.rowid.
- NEW.col assigned by a BEFORE INSERT / UPDATE trigger (SQLite's cannot change the row it is
  about to write): the assignments are kept on the running statement (Execution.rewrites, one
  per table and event, for the row being written; a later BEFORE trigger of the same row
  starts from them) and a second SQLite trigger, `_rm_trgfix_<name>`, AFTER the same event,
  writes them into the row just written (UPDATE ... WHERE rowid = NEW.rowid, converted and
  checked as the statement's values are; no trigger fires and no row is counted for it).
  AFTER triggers of that row read NEW as rewritten. The row first written holds the
  statement's values, so a constraint (UNIQUE, CHECK) is checked against both.
- A NOT NULL column without a default that an INSERT leaves out is NULL in a BEFORE INSERT
  trigger's NEW, and the 1364 of it waits for the triggers (MariaDB's MDEV-11698): set by one,
  the row takes the value (NULL is 1048); left alone, 1364 as without triggers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rampmeter.engine.sqlite import routines
from rampmeter.engine.sqlite.catalog import q

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.handle import Handle
    from rampmeter.engine.sqlite.session import SqliteSession

PREFIX = "_rm_trg_"


FIX_PREFIX = "_rm_trgfix_"
_WHAT = "@trigger"
_ROWID = "@rowid"


class Rewrite:
    """What BEFORE triggers did to NEW of the row being written (module rules)."""

    __slots__ = ("original", "values", "assigned", "deferred", "done", "rowid")

    def __init__(self, original: tuple[Any, ...], deferred: frozenset[str]) -> None:
        self.original = original
        self.values: dict[str, Any] = {}   # 'new.col' -> value
        self.assigned: set[str] = set()
        self.deferred = deferred           # left-out NOT NULL columns without a default
        self.done = False
        self.rowid: Any = None


def register(handle: Handle, host: Any) -> None:
    """Once per handle (handles.install_functions): `host` is the handle's occupant, so a
    trigger runs for the session that holds the handle when the row is written."""
    handle.create_function("rm_trigger", -1, lambda *args: _fire(host.session, *args))
    handle.create_function("rm_trigger_row", 3,
                           lambda *args: _rewrite(host.session, *args))


def _fire(s: SqliteSession, db: str, name: str, *pairs: Any) -> int | None:
    run = getattr(s.context, "run_trigger", None)
    ex = s.current
    if run is None or ex is not None and ex.rewriting:
        return None
    row = {pairs[k]: pairs[k + 1] for k in range(0, len(pairs), 2)}
    what = row.pop(_WHAT, None)
    rowid = row.pop(_ROWID, None)
    if what is None or ex is None:  # made by an older rampmeter, or no statement's values
        s.run_nested(run, db, name, row)
        return None
    timing, event, table = what.split(" ", 2)
    key = (db.lower(), table.lower(), event)
    pend = ex.rewrites.get(key)
    if timing == "AFTER":
        if pend is not None and (not pend.done or pend.rowid == rowid):
            row.update(pend.values)
        return _run(s, ex, run, db, name, row)
    original = tuple(v for k, v in row.items() if k.startswith("new."))
    if pend is None or pend.done or pend.original != original:
        deferred = frozenset(c.lower() for c in ex.deferred) if event == "INSERT" else \
            frozenset()
        pend = Rewrite(original, deferred)
    for col in pend.deferred:
        row["new." + col] = None
    row.update(pend.values)
    assigned: set[str] = set()
    if _run(s, ex, run, db, name, row, assigned):
        return 1
    for col in assigned:
        pend.values["new." + col] = row["new." + col]
    pend.assigned |= assigned
    if pend.assigned or pend.deferred:
        ex.rewrites[key] = pend
    return None


def _run(s: SqliteSession, ex: Any, run: Any, db: str, name: str, row: dict[str, Any],
         assigned: set[str] | None = None) -> int | None:
    """Run the body; an error it raises fails the statement. On a table MariaDB cannot roll
    back (ex.plan.partial: MyISAM & co.) what was written before stays, the trigger's own
    writes included: the error is kept (run_nested) and 1 makes the SQLite trigger
    RAISE(FAIL), which keeps the statement's changes (dml.py keeps them past the error)."""
    from rampmeter.errors import ServerError
    try:
        done = s.run_nested(run, db, name, row)
    except ServerError:
        if ex.plan.partial:
            return 1
        raise
    if assigned is not None and done:
        assigned |= done
    return None


def _rewrite(s: SqliteSession, db: str, what: str, rowid: Any) -> None:
    """_rm_trgfix_'s: write what the BEFORE triggers assigned into the row just written."""
    ex = s.current
    event, table = what.split(" ", 1)
    pend = ex.rewrites.get((db.lower(), table.lower(), event)) if ex is not None else None
    if ex is None or pend is None or pend.done or ex.rewriting:
        return None
    pend.done, pend.rowid = True, rowid
    s.run_nested(_write_back, s, ex, db, table, pend, rowid)
    return None


def _write_back(s: SqliteSession, ex: Any, db: str, table: str, pend: Rewrite,
                rowid: Any) -> None:
    from rampmeter.engine.sqlite.dml import sqlite_value
    from rampmeter.errors import ServerError, Warning_
    tdef = s.table_def(db, table)
    if tdef is None:
        return
    sets: list[tuple[str, Any]] = []
    for col in tdef.columns:
        name = col.name.lower()
        if name in pend.deferred and name not in pend.assigned:
            message = f"Field '{col.name}' doesn't have a default value"
            if ex.strict and not ex.ignore:
                raise ServerError(1364, message=message)
            ex.warnings.append(Warning_("Warning", 1364, message))
            continue
        if name not in pend.assigned:
            continue
        value = pend.values["new." + name]
        if value is None:
            if not col.nullable and not col.auto_increment:
                value = ex.null_into(col, 1, multi=ex.plan.rows > 1)
        else:
            value = ex.convert(col, value, 1)
        sets.append((col.name, sqlite_value(value)))
    if not sets:
        return
    schema, stored = tdef.location or (s.schema(db), tdef.name)
    text = ", ".join(f"{q(c)} = ?" for c, _v in sets)
    ex.rewriting = True
    try:
        s.handle.execute(f"UPDATE {q(schema)}.{q(stored)} SET {text} WHERE rowid = ?",
                         [v for _c, v in sets] + [rowid])
    finally:
        ex.rewriting = False


def before_insert(s: SqliteSession, database: str, table: str) -> bool:
    """Has database.table a BEFORE INSERT trigger?"""
    if not s.engine.database_exists(database):
        return False
    schema = s.handle.attach(database, s.database)
    tdef = s.table_def(database, table)
    name = tdef.name if tdef is not None else table
    for (sql,) in s.handle.conn.execute(
            f"SELECT sql FROM {q(schema)}.sqlite_master WHERE type = 'trigger' AND "
            "tbl_name = ? COLLATE NOCASE AND name LIKE ? ESCAPE '!'",
            (name, PREFIX.replace("_", "!_") + "%")):
        if " BEFORE INSERT ON " in sql:
            return True
    return False


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


def retable(s: SqliteSession, schema: str, database: str, old: str, new: str) -> None:
    """RENAME TABLE old TO new (inside the caller's schema change): the table's triggers
    name `new`, and SHOW CREATE TRIGGER prints their ON clause as `new` (MariaDB rewrites
    the stored text; also when a failing RENAME put the table back: old == new)."""
    for spec in listing(s, database):
        if spec["type"] == "TRIGGER" and spec["table"].lower() == old.lower():
            spec["table"] = new
            spec["table_renamed"] = True
            routines.write(s, schema, "TRIGGER", spec["name"], spec)


def create(s: SqliteSession, database: str, spec: dict[str, Any]) -> None:
    """Store the spec and make the SQLite trigger, replacing one of that name."""
    schema = s.schema(database)
    tdef = s.table_def(database, spec["table"])
    cols = [c.name for c in tdef.columns] if tdef is not None else []
    table = tdef.name if tdef is not None else spec["table"]
    pairs = [f"'@trigger', {_lit(spec['timing'] + ' ' + spec['event'] + ' ' + table)}"]
    if spec["timing"] == "AFTER" and spec["event"] != "DELETE":
        pairs.append("'@rowid', NEW.rowid")
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
    fix = FIX_PREFIX + spec["name"].lower()
    with s.ddl():
        s.handle.execute(f"DROP TRIGGER IF EXISTS {q(schema)}.{q(name)}")
        s.handle.execute(f"DROP TRIGGER IF EXISTS {q(schema)}.{q(fix)}")
        routines.write(s, schema, "TRIGGER", spec["name"], spec)
        event = spec["event"]
        base = [q(c.name) for c in tdef.columns if c.generated is None] if tdef else []
        if event == "UPDATE" and tdef is not None and len(base) < len(tdef.columns) and base:
            # not the UPDATE that computes the generated columns after a write (generated.py)
            event = f"UPDATE OF {', '.join(base)}"
        new_row = _new_row(cols) if gen and spec["event"] != "DELETE" else ""
        text = (f"CREATE TRIGGER {q(schema)}.{q(name)} {spec['timing']} {event} ON "
                f"{q(table)} BEGIN SELECT RAISE(FAIL, 'rm_trigger'){new_row} WHERE "
                f"rm_trigger({args}); END")
        # SQLite takes no parameters in a trigger's body: the two names as literals
        text = text.replace("rm_trigger(?, ?", "rm_trigger(" + _lit(database) + ", " +
                            _lit(spec["name"]), 1)
        s.handle.execute(text)
        _restamp(s, schema, tdef)
        if spec["timing"] == "BEFORE" and spec["event"] != "DELETE":
            s.handle.execute(
                f"CREATE TRIGGER {q(schema)}.{q(fix)} AFTER {event} ON {q(table)} "
                f"BEGIN SELECT rm_trigger_row({_lit(database)}, "
                f"{_lit(spec['event'] + ' ' + table)}, NEW.rowid); END")


def _new_row(cols: list[str]) -> str:
    return " FROM (SELECT " + ", ".join(f"NEW.{q(c)} AS {q(c)}" for c in cols) + ")"


def _restamp(s: SqliteSession, schema: str, tdef: Any) -> None:
    """A trigger made is a new version of its table (MariaDB re-prepares the
    statements that use it: session/reprepare.py)."""
    if tdef is not None and tdef.view is None and tdef.location is None:
        from rampmeter.engine.sqlite import rebuild
        rebuild.write_spec(s, schema, tdef)


def drop(s: SqliteSession, database: str, name: str) -> bool:
    if load(s, database, name) is None:
        return False
    schema = s.schema(database)
    with s.ddl():
        s.handle.execute(f"DROP TRIGGER IF EXISTS {q(schema)}.{q(PREFIX + name.lower())}")
        s.handle.execute(f"DROP TRIGGER IF EXISTS {q(schema)}.{q(FIX_PREFIX + name.lower())}")
        routines.delete(s, schema, "TRIGGER", name)
    return True


def _lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
