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
