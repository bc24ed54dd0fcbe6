"""Enforcing foreign keys: SQLite triggers that do what InnoDB does, with MariaDB's errors.

Rules:
- SQLite's own foreign keys cannot be used: `PRAGMA foreign_keys` cannot change inside a
  transaction (MariaDB's FOREIGN_KEY_CHECKS can, and Django's loaddata does just that), and
  their failures name no constraint. So each constraint becomes triggers in its database's
  file, kept beside the tables:
    child  BEFORE INSERT / BEFORE UPDATE OF its columns (when they change): a non-NULL key
           without a parent row fails with 1452;
    parent BEFORE DELETE / UPDATE OF the referenced columns: RESTRICT, NO ACTION and SET
           DEFAULT fail with 1451 while a child row refers to the row; CASCADE and SET NULL
           act AFTER the row changed (a DELETE or UPDATE of the child rows).
  The message of each failure is MariaDB's full text, made when the trigger is.
- Every trigger asks rm_fk_checks() first: 0 when the session's foreign_key_checks is off
  (nothing is checked and no action runs, as in MariaDB), 1 when on, 2 when on and the
  statement is INSERT / UPDATE / DELETE IGNORE, which skips the row with the error as a
  warning instead of failing.
- A constraint's triggers are named after it (rm_fk_<constraint>_...). Around every DDL that
  can change them (`maintained`), the triggers of the constraints that involve the tables it
  changes are dropped first, so SQLite's table rebuilds and renames never see them, and made
  again at the end from the catalog, in the same transaction. Constraints
  whose referenced table is missing (created with foreign_key_checks=0) or in another database
  (a trigger may only name tables of its own file) get no trigger.
- TRUNCATE and DROP TABLE of a referenced table are refused (1701, 1451) while checks are on;
  `suspended()` lets TRUNCATE empty a table without running actions.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rampmeter.engine.sqlite import catalog, foreign
from rampmeter.engine.sqlite.catalog import ForeignKey, q
from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.handle import Handle
    from rampmeter.engine.sqlite.session import SqliteSession

PREFIX = "rm_fk_"
_FAILING = ("RESTRICT", "NO ACTION", "SET DEFAULT", "")


def register(handle: Handle, s: Any) -> None:
    """The functions the triggers call, on a handle, for its occupant `s` (handles.py)."""
    handle.create_function("rm_fk_checks", 0, lambda: checks_state(s))
    handle.create_function("rm_fk_warn", 2, lambda code, msg: _warn(s, code, msg))


def checks_on(s: SqliteSession) -> bool:
    if getattr(s, "fk_suspended", False):
        return False
    try:
        value = s.context.system_variable("foreign_key_checks")
    except ServerError:
        return True
    if isinstance(value, str):
        return value.upper() not in ("0", "OFF", "FALSE")
    return bool(value)


def checks_state(s: SqliteSession) -> int:
    if not checks_on(s):
        return 0
    ex = s.current
    return 2 if ex is not None and ex.ignore else 1


def _warn(s: SqliteSession, code: int, message: str) -> int:
    s.warn(int(code), message)
    return 0


@contextmanager
def suspended(s: SqliteSession) -> Iterator[None]:
    """No checks and no actions while inside (TRUNCATE empties a table without cascading)."""
    s.fk_suspended = True  # type: ignore[attr-defined]
    try:
        yield
    finally:
        s.fk_suspended = False  # type: ignore[attr-defined]


# --- the triggers ----------------------------------------------------------------------------
_SUFFIXES = ("ci_e", "ci_w", "cu_e", "cu_w", "pd", "pd_e", "pd_w", "pu", "pu_e", "pu_w")


def trigger_base(fk: ForeignKey) -> str:
    """Triggers are named after their constraint (names are unique in a database)."""
    return f"{PREFIX}{fk.name.lower()}_"


def _touches(child: str, fk: ForeignKey, tables: set[str] | None) -> bool:
    return tables is None or child.lower() in tables or \
        fk.ref_db is None and fk.ref_table.lower() in tables


def drop_triggers(conn: sqlite3.Connection, schema: str, tables: set[str] | None = None
                  ) -> None:
    """The triggers of the constraints that involve `tables` (all when None)."""
    if tables is None:
        names = [r[0] for r in conn.execute(
            f"SELECT name FROM {q(schema)}.sqlite_master WHERE type = 'trigger' AND name LIKE "
            f"'{PREFIX}%'")]
    else:
        names = [trigger_base(fk) + suffix for child, fk in _constraints(conn, schema)
                 if _touches(child, fk, tables) for suffix in _SUFFIXES]
    for name in names:
        conn.execute(f"DROP TRIGGER IF EXISTS {q(schema)}.{q(name)}")


def make_triggers(conn: sqlite3.Connection, schema: str, database: str,
                  tables: set[str] | None = None) -> None:
    """The triggers of the constraints that involve `tables` (all when None), read from the
    JSON rows alone: every DDL runs this, it must stay cheap in a database of many tables."""
    constraints = [(c, fk) for c, fk in _constraints(conn, schema) if _touches(c, fk, tables)]
    if not constraints:
        return
    names = {n.lower(): n for n in catalog.table_names(conn, schema)}
    for child, fk in constraints:
        parent = names.get(fk.ref_table.lower()) if fk.ref_db is None else None
        if parent is None or child.lower() not in names:
            continue
        for sql in _trigger_sql(schema, database, names[child.lower()], fk, parent):
            conn.execute(sql)


def constraint_names(conn: sqlite3.Connection, schema: str, but: str) -> set[str]:
    """The foreign key names of the database (lower case), table `but`'s left out: InnoDB
    wants them unique per database."""
    return {fk.name.lower() for table, fk in _constraints(conn, schema)
            if table.lower() != but.lower()}


def _constraints(conn: sqlite3.Connection, schema: str) -> list[tuple[str, ForeignKey]]:
    try:
        rows = conn.execute(f"SELECT table_name, spec FROM {q(schema)}.{catalog.META_TABLE} "
                            "WHERE spec LIKE '%\"foreign\": [[%'").fetchall()
    except sqlite3.OperationalError:
        return []
    return [(table, ForeignKey(name, cols, ref_table, ref_cols, ref_db, on_delete, on_update))
            for table, spec in rows
            for name, cols, ref_db, ref_table, ref_cols, on_delete, on_update
            in json.loads(spec)["foreign"]]


@contextmanager
def maintained(s: SqliteSession, schema: str, database: str | None = None,
               tables: Iterable[str] | None = None) -> Iterator[None]:
    """Inside a DDL transaction: the triggers of the constraints that involve `tables` (the
    ones the DDL changes, under their old and new names; all when None) dropped, then made
    again from what the DDL left."""
    conn = s.handle.conn
    touched = None if tables is None else {t.lower() for t in tables}
    drop_triggers(conn, schema, touched)
    yield
    make_triggers(conn, schema, database or schema, touched)


def _lit(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _match(left: str, cols: list[str], right: str, ref_cols: list[str]) -> str:
    return " AND ".join(f"{left}{q(a)} = {right}{q(b)}" for a, b in zip(cols, ref_cols))


def _changed(cols: list[str]) -> str:
    return "(" + " OR ".join(f"OLD.{q(c)} IS NOT NEW.{q(c)}" for c in cols) + ")"


def _failing(name: str, timing: str, table: str, cond: str, message: str, code: int,
             schema: str, after: bool = False) -> list[str]:
    """The pair of triggers of one check: fail (1), or skip the row with a warning (2; always
    BEFORE, the only time a row can be skipped). A child row is checked AFTER it is written,
    as InnoDB does, so a row may refer to itself."""
    head = f"CREATE TRIGGER {q(schema)}.{q(name + '_e')} {'AFTER' if after else 'BEFORE'} " \
           f"{timing} ON {q(table)} "
    head2 = f"CREATE TRIGGER {q(schema)}.{q(name + '_w')} BEFORE {timing} ON {q(table)} "
    return [head + f"WHEN rm_fk_checks() = 1 AND {cond} BEGIN SELECT RAISE(ABORT, "
                   f"{_lit(message)}); END",
            head2 + f"WHEN rm_fk_checks() = 2 AND {cond} BEGIN SELECT rm_fk_warn({code}, "
                    f"{_lit(message)}); SELECT RAISE(IGNORE); END"]


def _trigger_sql(schema: str, database: str, child: str, fk: ForeignKey, parent: str
                 ) -> list[str]:
    cols, refs = fk.columns, fk.ref_columns
    ctable, ptable = q(child), q(parent)
    base = trigger_base(fk)[:-1]
    out: list[str] = []
    # the child: a key that has no parent row
    present = " AND ".join(f"NEW.{q(c)} IS NOT NULL" for c in cols)
    orphan = f"{present} AND NOT EXISTS (SELECT 1 FROM {ptable} WHERE " \
             f"{_match('', refs, 'NEW.', cols)})"
    message = foreign.child_row_message(database, child, fk)
    out += _failing(base + "_ci", "INSERT", child, orphan, message, 1452, schema, after=True)
    of = ", ".join(q(c) for c in cols)
    out += _failing(base + "_cu", f"UPDATE OF {of}", child, f"{_changed(cols)} AND {orphan}",
                    message, 1452, schema, after=True)
    # the parent: rows that still have children
    message = foreign.parent_row_message(database, child, fk)
    referenced = f"EXISTS (SELECT 1 FROM {ctable} WHERE {_match('', cols, 'OLD.', refs)})"
    pof = ", ".join(q(c) for c in refs)
    for event, action in (("DELETE", fk.on_delete), ("UPDATE", fk.on_update)):
        timing = "DELETE" if event == "DELETE" else f"UPDATE OF {pof}"
        when = "" if event == "DELETE" else f" AND {_changed(refs)}"
        name = f"{base}_p{event[0].lower()}"
        if action in _FAILING:
            out += _failing(name, timing, parent, f"{referenced}{when}", message, 1451, schema)
            continue
        if action == "CASCADE" and event == "DELETE":
            body = f"DELETE FROM {ctable} WHERE {_match('', cols, 'OLD.', refs)};"
        elif action == "CASCADE":
            sets = ", ".join(f"{q(c)} = NEW.{q(r)}" for c, r in zip(cols, refs))
            body = f"UPDATE {ctable} SET {sets} WHERE {_match('', cols, 'OLD.', refs)};"
        else:  # SET NULL
            sets = ", ".join(f"{q(c)} = NULL" for c in cols)
            body = f"UPDATE {ctable} SET {sets} WHERE {_match('', cols, 'OLD.', refs)};"
        out.append(f"CREATE TRIGGER {q(schema)}.{q(name)} AFTER {timing} ON {ptable} "
                   f"WHEN rm_fk_checks() > 0{when} BEGIN {body} END")
    return out


# --- checks DDL makes --------------------------------------------------------------------------
def first_orphan(conn: sqlite3.Connection, schema: str, child: str, fk: ForeignKey,
                 parent: str) -> bool:
    """Does some row of `child` break `fk` (ALTER TABLE ... ADD FOREIGN KEY)?"""
    present = " AND ".join(f"c.{q(col)} IS NOT NULL" for col in fk.columns)
    match = " AND ".join(f"p.{q(r)} = c.{q(col)}" for col, r in zip(fk.columns,
                                                                    fk.ref_columns))
    row = conn.execute(f"SELECT 1 FROM {q(schema)}.{q(child)} AS c WHERE {present} AND NOT "
                       f"EXISTS (SELECT 1 FROM {q(schema)}.{q(parent)} AS p WHERE {match}) "
                       "LIMIT 1").fetchone()
    return row is not None


def referenced_rows(conn: sqlite3.Connection, schema: str, child: str, fk: ForeignKey) -> bool:
    """Does `child` hold any row whose key is set (TRUNCATE of the parent)?"""
    present = " AND ".join(f"{q(col)} IS NOT NULL" for col in fk.columns)
    row = conn.execute(f"SELECT 1 FROM {q(schema)}.{q(child)} WHERE {present} LIMIT 1"
                       ).fetchone()
    return row is not None


def spec_mentions(conn: sqlite3.Connection, schema: str, table: str) -> list[str]:
    """Tables whose constraints name `table` (cheap: read from the JSON rows)."""
    out = []
    try:
        rows = conn.execute(f"SELECT table_name, spec FROM {q(schema)}.{catalog.META_TABLE} "
                            "WHERE spec LIKE '%\"foreign\": [[%'").fetchall()
    except sqlite3.OperationalError:
        return out
    for name, spec in rows:
        data: Any = json.loads(spec)
        if any(f[2] is None and str(f[3]).lower() == table.lower() for f in data["foreign"]):
            out.append(name)
    return out

