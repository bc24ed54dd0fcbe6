"""REPLACE that replaces a row in place, as MariaDB's does.

Rules:
- MariaDB's REPLACE (write_record) updates the conflicting row in place when the duplicate is
  in the table's last unique key, nothing references the table and it has no DELETE triggers;
  otherwise it deletes the row and inserts again. So in a table with one unique key the new
  row keeps the old one's place: read without ORDER BY it comes where the old one was (MyISAM
  and InnoDB alike), and RETURNING gives it there. SQLite's INSERT OR REPLACE deletes and
  appends (a new rowid), so a REPLACE into a table with exactly one unique key (PRIMARY KEY or
  UNIQUE) runs as an upsert that sets every column: `INSERT ... ON CONFLICT DO UPDATE SET
  c = excluded.c, ...` (`in_place_sql`, made beside the plan's OR REPLACE text).
- The upsert is used only while the table has no SQLite trigger of its own (a user trigger, a
  foreign key's, a generated column's): an upsert would fire UPDATE triggers where MariaDB
  fires DELETE and INSERT ones. Then the OR REPLACE text runs, as before.
- Counting: an in-place row is MariaDB's `deleted` + `copied`, 2 affected rows, or 1 when the
  new row is identical (HA_ERR_RECORD_IS_THE_SAME); the changed-rows trigger (dml.py) says which.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rampmeter.engine.sqlite.catalog import TableDef, q

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession
    from rampmeter.engine.sqlite.translate import Plan


def eligible(tdef: TableDef) -> bool:
    """One unique key and no generated column (whose trigger would make it fall back anyway)."""
    keys = (1 if tdef.primary else 0) + sum(1 for i in tdef.indexes if i.unique and not i.kind)
    return keys == 1 and all(c.generated is None for c in tdef.columns)


def upsert_tail(columns: list[str]) -> str:
    """The upsert clause that makes an INSERT replace the conflicting row in place."""
    sets = ", ".join(f"{q(c)} = excluded.{q(c)}" for c in columns)
    return f" ON CONFLICT DO UPDATE SET {sets}"


def statement(s: SqliteSession, plan: Plan) -> str:
    """The SQL to run for the plan: the in-place upsert when it applies (module rules)."""
    if not plan.in_place_sql or plan.target is None or _has_triggers(s, plan.target):
        return plan.sql
    return plan.in_place_sql


def _has_triggers(s: SqliteSession, target: tuple[str, str]) -> bool:
    tdef = s.table_def(*target)
    if tdef is None:
        return True
    schema, stored = tdef.location or target
    row: Any = s.handle.execute(
        f"SELECT 1 FROM {q(schema)}.sqlite_master WHERE type = 'trigger' "
        "AND tbl_name = ? COLLATE NOCASE LIMIT 1", (stored,)).fetchone()
    return row is not None
