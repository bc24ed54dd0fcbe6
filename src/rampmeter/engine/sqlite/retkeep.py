"""An INSERT / REPLACE ... RETURNING into a MyISAM / Aria / MEMORY table whose RETURNING fails
on a row keeps the rows written before it, and that row, as MariaDB's does.

Rules:
- MariaDB writes a row, then sends its RETURNING values: when they fail (a subquery of more
  than one row, 1242, and the like), the statement stops with that error, and a table that
  has no transactions keeps what was written, the failing row too (mtr replace_returning_err:
  the rows stay and a later `RETURNING (SELECT id2 FROM t2)` finds several). SQLite undoes
  the whole statement on an error of a function.
- So such a statement (plan.partial and plan.returning: `wanted`) runs with a temp trigger
  AFTER INSERT on its table that counts the rows written (rm_ret_row; SQLite fires it before
  the row's RETURNING). When the statement fails after n rows, it is run again with the
  trigger stopping it by RAISE(FAIL) after its n-th row, which SQLite's FAIL keeps, before
  that row's RETURNING: the rows kept are MariaDB's, the error is the first run's.
- A statement that fails before any row is written, or whose second run fails otherwise
  (the rows or the values changed between the two: they cannot in one statement) keeps
  nothing, as before.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from rampmeter.engine.sqlite.catalog import q

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.handle import Handle
    from rampmeter.engine.sqlite.session import SqliteSession

STOP = "rm_returning_stop"
_ROWS = "retkeep_rows"     # statement_state keys: rows written so far, the row to stop after
_LIMIT = "retkeep_limit"


def wanted(plan: Any) -> bool:
    return bool(plan.returning and plan.partial and plan.kind in ("INSERT", "REPLACE")
                and plan.target is not None and not plan.steps and not plan.upsert)


def register(handle: Handle, host: Any) -> None:
    def row() -> int:
        s = host.session
        if s is None:
            return 0
        state = s.statement_state
        state[_ROWS] = n = state.get(_ROWS, 0) + 1
        limit = state.get(_LIMIT)
        return int(limit is not None and n >= limit)

    handle.create_function("rm_ret_row", 0, row, deterministic=False)


def ensure(s: SqliteSession, plan: Any) -> None:
    """The counting trigger on the plan's table (module rules), made once per handle and
    table version as dml.ensure_triggers' are; the count starts again."""
    db, table = plan.target
    tdef = s.table_def(db, table)
    if tdef is None:
        return
    schema, stored = tdef.location or (db, table)
    version = s.engine.schema_version if tdef.location is None else -s.temp_version
    handle = s.handle
    key = ("ret", schema.lower(), stored.lower())
    s.statement_state.pop(_LIMIT, None)
    s.statement_state[_ROWS] = 0
    if handle.triggers.get(key) == version:
        return
    name = handle.trigger_name(key)
    handle.execute(f"DROP TRIGGER IF EXISTS temp.{q(name)}")
    handle.execute(f"CREATE TEMP TRIGGER {q(name)} AFTER INSERT ON {q(schema)}.{q(stored)} "
                   f"BEGIN SELECT RAISE(FAIL, '{STOP}') WHERE rm_ret_row(); END")
    handle.trigger_made(key, version)


def keep_written(s: SqliteSession, sql: str, bound: dict[str, Any]) -> bool:
    """After the statement `sql` failed: write again the rows it wrote, stopping before the
    failing row's RETURNING. True when they are written (the caller keeps them)."""
    written = s.statement_state.get(_ROWS, 0)
    if not written:
        return False
    s.statement_state[_ROWS] = 0
    s.statement_state[_LIMIT] = written
    handle = s.handle
    handle.execute("SAVEPOINT rm_retkeep")
    kept = False
    try:
        handle.execute(sql, bound).fetchall()
    except sqlite3.IntegrityError as e:
        kept = STOP in str(e) and s.statement_state.get(_ROWS) == written
    except sqlite3.Error:
        pass
    finally:
        s.statement_state.pop(_LIMIT, None)
        if not kept:
            handle.execute("ROLLBACK TO rm_retkeep")
        handle.execute("RELEASE rm_retkeep")
    return kept
