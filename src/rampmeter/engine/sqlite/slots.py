"""A deleted row's place is taken by the next row inserted, as MyISAM, Aria and MEMORY do.

Rules:
- MariaDB's MyISAM keeps its deleted rows' places in a chain, last deleted first (the data
  file's `dellink`), and an insert writes into the head of the chain (HEAP and Aria's small
  tables alike); a table scan reads the file's order, so a row inserted after a DELETE comes
  where the last deleted row was (mtr delete_returning: `DELETE ... WHERE a=2` of 'BB' then
  'bb', `INSERT (2,'BB'), (2,'bb')`: a scan reads 'bb' first). `DELETE FROM t` without WHERE
  or LIMIT and TRUNCATE empty the table instead (delete_all_rows): no places are kept.
- Here a table's row order is its SQLite rowid's. A table that can take this (`eligible`: one
  of those engines, not temporary, no AUTO_INCREMENT column that is its rowid (catalog.py
  makes none in those engines unless the table is an old one), and no SQLite trigger of its
  own, which the move below would fire) gets two
  temp triggers per engine handle, made as dml.ensure_triggers' are: AFTER DELETE records
  OLD.rowid in its database's `_rampmeter_free_<hex of the database name>` table (a trigger
  body names its tables unqualified; the name is unique among the attached files), keyed by
  the table's name and definition version (a re-created or altered table starts with none);
  AFTER INSERT, only while the table has a place kept, calls rm_slot_take, which moves the
  new row to the last place kept (UPDATE ... SET rowid) and forgets that place. A place
  that is taken meanwhile (a row written without these triggers) is forgotten, not used.
- Approximated: MyISAM's dynamic rows merge a deleted block with the next one when that one
  is free too, and a row longer than a kept block is split over several; here a place holds
  one row, whatever its length. Rolled back, the places are rolled back with the rows (the
  list is in the same SQLite file).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlglot import exp

from rampmeter.engine.sqlite.autokey import PREFIX as AUTOKEY_PREFIX
from rampmeter.engine.sqlite.catalog import TableDef, lit, q, rowid_auto

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.handle import Handle
    from rampmeter.engine.sqlite.session import SqliteSession

ENGINES = frozenset({"MyISAM", "Aria", "MEMORY"})


def eligible(tdef: TableDef) -> bool:
    """Of an engine that reuses places, not temporary, no AUTO_INCREMENT (module rules)."""
    return tdef.engine in ENGINES and tdef.location is None and tdef.view is None and \
        (tdef.auto_column is None or not rowid_auto(tdef, tdef.auto_column.name))


def free_table(database: str) -> str:
    return "_rampmeter_free_" + database.encode("utf-8", "surrogateescape").hex()


def _key(tdef: TableDef) -> str:
    return f"{tdef.name.lower()}:{tdef.version}"


def whole_table(where: exp.Expression | None) -> bool:
    """A DELETE's WHERE that MariaDB drops as always true (none, `WHERE 1`, `WHERE TRUE`):
    it empties the table as a whole."""
    cond = where.this if isinstance(where, exp.Where) else where
    while isinstance(cond, exp.Paren):
        cond = cond.this
    if cond is None or isinstance(cond, exp.Boolean) and cond.this:
        return True
    return isinstance(cond, exp.Literal) and not cond.is_string and \
        cond.this not in ("0", "0.0")


def register(handle: Handle, host: Any) -> None:  # noqa: ARG001 - as the others'
    def take(schema: str, stored: str, free: str, key: str, rowid: int) -> None:
        conn = handle.conn
        top = conn.execute(f"SELECT rowid, pos FROM {q(schema)}.{q(free)} WHERE tbl = ? "
                           "ORDER BY rowid DESC LIMIT 1", (key,)).fetchone()
        if top is None:
            return
        conn.execute(f"DELETE FROM {q(schema)}.{q(free)} WHERE rowid = ?", (top[0],))
        if top[1] == rowid or conn.execute(f"SELECT 1 FROM {q(schema)}.{q(stored)} WHERE "
                                           "rowid = ?", (top[1],)).fetchone() is not None:
            return
        conn.execute(f"UPDATE {q(schema)}.{q(stored)} SET rowid = ? WHERE rowid = ?",
                     (top[1], rowid))

    handle.create_function("rm_slot_take", 5, take)


def ensure(s: SqliteSession, target: tuple[str, str]) -> None:
    """The two temp triggers of `target` on this handle (module rules), once per schema
    version; nothing for a table that cannot take them."""
    db, table = target
    handle = s.handle
    version = s.engine.schema_version
    on_delete = ("slotd", db.lower(), table.lower())
    on_insert = ("sloti", db.lower(), table.lower())
    if handle.triggers.get(on_delete) == version:
        return
    tdef = s.table_def(db, table)
    if tdef is None or not eligible(tdef) or _has_own_triggers(s, db, tdef.name):
        handle.trigger_made(on_delete, version)  # none: asked again at the next version
        return
    free = free_table(db)  # the schema is the database's name (handle.attach)
    handle.execute(f"CREATE TABLE IF NOT EXISTS {q(db)}.{q(free)} (tbl TEXT NOT NULL, "
                   "pos INTEGER NOT NULL)")
    handle.execute(f"CREATE INDEX IF NOT EXISTS {q(db)}.{q(free + '_tbl')} ON {q(free)} (tbl)")
    mark = lit(_key(tdef))
    # the places kept for an earlier definition of this name (dropped, altered) are gone
    prefix = tdef.name.lower() + ":"
    handle.execute(f"DELETE FROM {q(db)}.{q(free)} WHERE substr(tbl, 1, ?) = ? AND tbl <> ?",
                   (len(prefix), prefix, _key(tdef)))
    # named as dml.ensure_triggers' are: the handle drops them at a DDL or a DETACH
    deleted, inserted = handle.trigger_name(on_delete), handle.trigger_name(on_insert)
    handle.execute(f"DROP TRIGGER IF EXISTS temp.{q(deleted)}")
    handle.execute(f"DROP TRIGGER IF EXISTS temp.{q(inserted)}")
    handle.execute(f"CREATE TEMP TRIGGER {q(deleted)} AFTER DELETE ON {q(db)}."
                   f"{q(tdef.name)} BEGIN INSERT INTO {q(free)} (tbl, pos) VALUES ({mark}, "
                   "OLD.rowid); END")
    handle.execute(f"CREATE TEMP TRIGGER {q(inserted)} AFTER INSERT ON {q(db)}."
                   f"{q(tdef.name)} WHEN EXISTS (SELECT 1 FROM {q(db)}.{q(free)} WHERE tbl = "
                   f"{mark}) BEGIN SELECT rm_slot_take({lit(db)}, {lit(tdef.name)}, "
                   f"{lit(free)}, {mark}, NEW.rowid); END")
    handle.trigger_made(on_insert, version)
    handle.trigger_made(on_delete, version)


def forget(s: SqliteSession, db: str, table: str) -> None:
    """The table was emptied as a whole (DELETE without WHERE, TRUNCATE): no places kept."""
    tdef = s.table_def(db, table)
    if tdef is None or not eligible(tdef):
        return
    free = free_table(db)
    exists = s.handle.conn.execute(f"SELECT 1 FROM {q(db)}.sqlite_master WHERE type = 'table' "
                                   "AND name = ?", (free,)).fetchone()
    if exists is not None:
        s.handle.execute(f"DELETE FROM {q(db)}.{q(free)} WHERE tbl = ?", (_key(tdef),))


def _has_own_triggers(s: SqliteSession, schema: str, stored: str) -> bool:
    """Has the table SQLite triggers a move could fire? autokey.py's fire on an INSERT or
    on an UPDATE of their column, never on a move of the rowid, and find the moved row."""
    row = s.handle.conn.execute(f"SELECT 1 FROM {q(schema)}.sqlite_master WHERE type = "
                                "'trigger' AND tbl_name = ? COLLATE NOCASE AND name NOT LIKE "
                                "? LIMIT 1", (stored, AUTOKEY_PREFIX + "%")).fetchone()
    return row is not None
