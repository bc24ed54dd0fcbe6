"""ON UPDATE CURRENT_TIMESTAMP as MariaDB applies it: only to a row that an UPDATE changes.

Rules:
- An UPDATE that leaves every column it sets as it was changes nothing: MariaDB neither counts
  the row as changed nor moves its ON UPDATE columns. So such a column not set by the statement
  becomes `CASE WHEN <a set column changes> THEN <now> ELSE <itself> END`, comparing the old
  value with the new one byte for byte (rm_differs: SQLite's IS NOT ... COLLATE BINARY, as
  the change-counting triggers of dml.py compare).
- The new value is compared as stored, converted to the column's type: a placeholder is
  already converted when bound; an expression is converted a second time by
  rm_cv_quiet(expr, n), which is rm_cv without its warnings and errors (those come once, from
  the SET itself).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlglot import exp

from rampmeter.engine import values

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.catalog import ColumnDef
    from rampmeter.engine.sqlite.handle import Handle
    from rampmeter.engine.sqlite.session import SqliteSession


def register(handle: Handle, s: Any) -> None:
    """On a handle, for its occupant `s` (handles.py)."""
    handle.create_function("rm_cv_quiet", 2, lambda v, i: _quiet(s, v, i))
    handle.create_function("rm_differs", 2, differs, deterministic=True)


def differs(old: Any, new: Any) -> int:
    """SQLite's `old IS NOT new COLLATE BINARY`: numbers by value, the rest by type and
    bytes."""
    if old is None or new is None:
        return int(old is not new)
    numbers = (int, float)
    if isinstance(old, numbers) and isinstance(new, numbers):
        return int(old != new)
    return int(type(old) is not type(new) or old != new)


def _quiet(s: SqliteSession, value: Any, index: int) -> Any:
    from rampmeter.engine.sqlite.dml import sqlite_value
    ex = s.current
    if ex is None or value is None:
        return value
    col, _row = ex.plan.casts[int(index)]
    stored, _problem = values.store(col.type, value, ex.client)
    return sqlite_value(stored)


def _as_stored(value: exp.Expression) -> exp.Expression:
    """The new value, converted without side effects (module rules)."""
    new = value.copy()
    for call in [new, *new.find_all(exp.Anonymous)]:
        if isinstance(call, exp.Anonymous) and call.name == "rm_cv":
            call.set("this", "rm_cv_quiet")
    return new


def changes(pairs: list[tuple[str, exp.Expression]], old_prefix: str = "") -> exp.Expression:
    """Does any (column, new value) pair change its column? `old_prefix` qualifies the old
    value's column (none in a plain UPDATE)."""
    tests: list[exp.Expression] = [
        exp.Anonymous(this="rm_differs", expressions=[
            exp.column(name, table=old_prefix or None, quoted=True), _as_stored(value)])
        for name, value in pairs]
    out = tests[0] if tests else exp.false()
    for t in tests[1:]:
        out = exp.Or(this=out, expression=t)
    return out


def on_update(col: ColumnDef, now: exp.Expression,
              pairs: list[tuple[str, exp.Expression]]) -> exp.Expression:
    """The value an ON UPDATE column not set by the statement gets (module rules)."""
    return exp.Case(ifs=[exp.If(this=changes(pairs), true=now)],
                    default=exp.column(col.name, quoted=True))
