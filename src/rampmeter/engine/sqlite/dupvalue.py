"""The duplicate value of a multi-row INSERT or INSERT ... SELECT, or of an UPDATE, that failed
on a unique key, for 1062's text ("Duplicate entry '16' for key 'PRIMARY'", as MariaDB words
it).

Rules:
- SQLite's error names the key's columns, not the row. A one-row INSERT knows its values
  (session.sqlite_error); for more rows the statement is run again, only after it failed,
  inside a savepoint that is rolled back, with a temp trigger that records each row it
  offers: the failing row is the last one recorded (the statement stops there), or for a
  table that kept the rows before it (OR FAIL, dml.py) the one after those rows, found by a
  run that skips duplicates (OR IGNORE) so that every row is recorded. An UPDATE's rows are
  recorded with their new values (a BEFORE UPDATE trigger), the same way.
- Nothing here runs unless a statement failed; the warnings the second run raises are not
  kept.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from rampmeter.engine.sqlite.catalog import q

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession
    from rampmeter.engine.sqlite.translate import Plan

_PROBE = "rm_dup_probe"


def row_values(s: SqliteSession, plan: Plan, bound: dict[str, Any], kept: int | None
               ) -> dict[str, Any] | None:
    """Column (lower case) -> the value the failing row offered; `kept`: rows the statement
    kept before it (OR FAIL), None when it kept none."""
    if plan.target is None:
        return None
    tdef = s.table_def(*plan.target)
    if tdef is None:
        return None
    schema, stored = tdef.location or plan.target
    cols = [c.name for c in tdef.columns]
    seen: list[tuple[Any, ...]] = []
    h = s.handle
    h.conn.create_function("rm_dup_seen", -1, lambda *v: seen.append(v))
    sql = plan.sql
    event = "UPDATE" if plan.kind == "UPDATE" else "INSERT"
    if kept is not None:
        sql = sql.replace(f"{event} OR FAIL", f"{event} OR IGNORE", 1)
    warnings = list(s.warnings)
    ex = s.current
    ex_warnings = list(ex.warnings) if ex is not None else []
    h.execute("SAVEPOINT rm_dup")
    try:
        h.execute(f"CREATE TEMP TRIGGER {_PROBE} BEFORE {event} ON {q(schema)}.{q(stored)} "
                  f"BEGIN SELECT rm_dup_seen({', '.join('NEW.' + q(c) for c in cols)}); END")
        try:
            h.execute(sql, bound)
        except sqlite3.Error:
            pass
    finally:
        h.execute("ROLLBACK TO rm_dup")
        h.execute("RELEASE rm_dup")
        h.execute(f"DROP TRIGGER IF EXISTS temp.{_PROBE}")
        s.warnings = warnings
        if ex is not None:
            ex.warnings = ex_warnings
    if kept is not None:
        row = seen[kept] if kept < len(seen) else None
    else:
        row = seen[-1] if seen else None
    return None if row is None else {c.lower(): v for c, v in zip(cols, row)}


# --- INSERT IGNORE ... SELECT: each skipped row's 1062 --------------------------------------
SAVEPOINT = "rm_ign"


def probes_ignored(plan: Plan, batch_rows: Any) -> bool:
    """Does this statement set SAVEPOINT before it runs, for `ignored_messages`: an INSERT
    IGNORE ... SELECT (a one-row INSERT and a batch of rows are probed their own way)."""
    return plan.ignore and plan.kind == "INSERT" and batch_rows is None and \
        not plan.upsert and not plan.replace and plan.rows != 1 and plan.target is not None \
        and not plan.returning and not plan.steps and not plan.quiet_duplicates


def ignored_messages(s: SqliteSession, plan: Plan, bound: dict[str, Any]) -> list[str]:
    """The 1062 text of each row an INSERT IGNORE ... SELECT skipped as a duplicate, in row
    order, as MariaDB warns ("Duplicate entry '16' for key 'PRIMARY'"). Only after it skipped
    some: the statement is undone to its savepoint and run again with temp triggers that
    record each row offered and each row written; a row offered and not written names the
    first of the table's unique keys, in MariaDB's order, whose values it repeats. Rows
    skipped for another reason (a CHECK, a foreign key) repeat no key: no 1062."""
    from rampmeter.engine.sqlite import errmap
    assert plan.target is not None
    tdef = s.table_def(*plan.target)
    if tdef is None:
        return []
    schema, stored = tdef.location or plan.target
    cols = [c.name for c in tdef.columns]
    seen: list[list[Any]] = []

    def offered(*values: Any) -> None:
        seen.append([values, False])

    def written() -> None:
        if seen:
            seen[-1][1] = True

    h = s.handle
    h.conn.create_function("rm_ign_seen", -1, offered)
    h.conn.create_function("rm_ign_written", 0, written)
    warnings = list(s.warnings)
    ex = s.current
    ex_warnings = list(ex.warnings) if ex is not None else []
    counted = dict(ex._cast_rows) if ex is not None else {}  # rows rm_cv saw: the first run's
    target = f"{q(schema)}.{q(stored)}"
    h.execute(f"ROLLBACK TO {SAVEPOINT}")
    try:
        h.execute(f"CREATE TEMP TRIGGER rm_ign_b BEFORE INSERT ON {target} BEGIN "
                  f"SELECT rm_ign_seen({', '.join('NEW.' + q(c) for c in cols)}); END")
        h.execute(f"CREATE TEMP TRIGGER rm_ign_a AFTER INSERT ON {target} BEGIN "
                  "SELECT rm_ign_written(); END")
        h.execute(plan.sql, bound)
    finally:
        h.execute("DROP TRIGGER IF EXISTS temp.rm_ign_b")
        h.execute("DROP TRIGGER IF EXISTS temp.rm_ign_a")
        s.warnings = warnings
        if ex is not None:
            ex.warnings = ex_warnings
            ex._cast_rows = counted
    from rampmeter.engine.sqlite import keyinfo
    keys = ([list(tdef.primary)] if tdef.primary else []) + [
        list(i.columns) for i in sorted(tdef.indexes, key=lambda i: keyinfo.sort_key(tdef, i))
        if i.unique and not i.kind]
    out: list[str] = []
    for values, was_written in seen:
        if was_written:
            continue
        shown = {c.lower(): v for c, v in zip(cols, values)}
        for key in keys:  # MariaDB's order of keys: the first one the row repeats is named
            given = [shown.get(c.lower()) for c in key]
            if any(v is None for v in given):
                continue  # NULL repeats nothing
            where = " AND ".join(f"{q(c)} = ?" for c in key)
            if h.execute(f"SELECT 1 FROM {target} WHERE {where} LIMIT 1",
                         given).fetchone() is not None:
                out.append(errmap.duplicate_entry(", ".join(key), tdef, shown).message)
                break
    return out
