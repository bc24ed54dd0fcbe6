"""auto_increment_increment / auto_increment_offset: the values an INSERT or REPLACE generates
for an AUTO_INCREMENT column step as MariaDB's do.

Rules:
- MariaDB's next value after `nr` (the largest value the column has had) is
  ((nr + increment - offset) / increment) * increment + offset in unsigned 64-bit arithmetic
  (sql_class.cc compute_next_insert_id): increment 10, offset 5 gives 5, 15, 25...; an
  offset above the increment wraps as it does there (offset 15: 9, 15, 25...). Explicit
  values are kept; the next generated value follows the largest.
- SQLite's AUTOINCREMENT generates max(largest rowid, sqlite_sequence) + 1. A session whose
  increment or offset is not 1 gets, on its handle, a temp AFTER INSERT trigger on the table
  that moves each generated row's id to MariaDB's value (an UPDATE of the rowid): the next row
  SQLite generates is then above it, and is moved in turn. A row is generated when its id is
  the one SQLite would generate next (`before` reads that), so an explicit value equal to it
  is taken as generated. The trigger's WHEN asks Python only while such a statement runs;
  the move is Python's own UPDATE (a temp trigger's body may not name another schema's table
  in an UPDATE, and an unqualified name could find another database's table).
- A value past the column's type is MariaDB's 167 "Out of range value for column 'a' at row
  N" (SQLSTATE 22003), in strict mode or not; LAST_INSERT_ID() is the first value moved to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rampmeter.engine.sqlite.catalog import lit, q, rowid_auto
from rampmeter.engine.types import INTEGERS
from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.handle import Handle
    from rampmeter.engine.sqlite.session import SqliteSession
    from rampmeter.engine.sqlite.translate import Plan

_KEY = "autoinc"
_U64 = 2**64


def next_value(nr: int, increment: int, offset: int) -> int:
    """MariaDB's compute_next_insert_id."""
    if increment == 1:
        return nr + 1
    k = ((nr + increment - offset) % _U64) // increment
    return (k * increment + offset) % _U64


class _State:
    __slots__ = ("table", "increment", "offset", "nr", "expected", "top", "column", "row",
                 "first", "move")

    def __init__(self, table: str, increment: int, offset: int, nr: int, top: int,
                 column: str) -> None:
        self.table = table            # schema.table, as the trigger names it
        self.increment = increment
        self.offset = offset
        self.nr = nr                  # the largest value the column has had
        self.expected = nr + 1        # the id SQLite generates next
        self.top = top
        self.column = column
        self.row = 0
        self.first: int | None = None  # LAST_INSERT_ID()
        self.move = ""                # UPDATE ... SET column = ? WHERE rowid = ?


def register(handle: Handle, host: Any) -> None:
    """The functions the trigger calls, on a handle, for its occupant (handles.py)."""

    def state(table: str = "") -> _State | None:
        s = host.session
        st = s.statement_state.get(_KEY) if s is not None else None
        return st if st is not None and (not table or st.table == table) else None

    def moves(table: str, new_id: int) -> int:
        st = state(table)
        if st is None:
            return 0
        st.row += 1
        if new_id != st.expected:  # an explicit value: kept; the next one follows it
            st.nr = max(st.nr, new_id)
            st.expected = max(st.expected, new_id + 1)
            return 0
        value = next_value(st.nr, st.increment, st.offset)
        if value > st.top or value <= st.nr:
            err = ServerError(167, message=f"Out of range value for column '{st.column}' at "
                              f"row {st.row}", sqlstate="22003")
            host.function_failed(err)
            raise err
        handle.conn.execute(st.move, (value, new_id))
        st.nr = value
        st.expected = value + 1
        if st.first is None:
            st.first = value
        return 1

    handle.create_function("rm_ai_on", 1, lambda table: 1 if state(table) is not None else 0)
    handle.create_function("rm_ai_moves", 2, moves)


def before(s: SqliteSession, plan: Plan) -> None:
    """Before an INSERT / REPLACE into a table with an AUTO_INCREMENT column runs: for a
    session whose increment or offset is not 1, the trigger and the statement's state."""
    ctx = s.context
    try:
        increment = int(ctx.system_variable("auto_increment_increment"))
        offset = int(ctx.system_variable("auto_increment_offset"))
    except (ServerError, TypeError, ValueError):
        return
    if increment == 1 and offset == 1 or plan.target is None:
        return
    tdef = s.table_def(*plan.target)
    col = tdef.auto_column if tdef is not None else None
    if tdef is None or col is None or col.type.name not in INTEGERS or \
            not rowid_auto(tdef, col.name):  # not the rowid: autokey.py steps it
        return
    schema, stored = tdef.location or (plan.target[0], tdef.name)
    handle = s.handle
    key = ("ai", schema.lower(), stored.lower())
    version = s.engine.schema_version if tdef.location is None else -s.temp_version
    ident = lit(f"{schema}.{stored}".lower())
    if handle.triggers.get(key) != version:
        name = handle.trigger_name(key)
        handle.execute(f"DROP TRIGGER IF EXISTS temp.{q(name)}")
        handle.execute(f"CREATE TEMP TRIGGER {q(name)} AFTER INSERT ON {q(schema)}.{q(stored)} "
                       f"WHEN rm_ai_on({ident}) BEGIN SELECT rm_ai_moves({ident}, NEW.rowid); "
                       f"END")
        handle.trigger_made(key, version)
    table = f"{q(schema)}.{q(stored)}"
    largest = handle.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0] or 0
    try:
        seq = handle.execute(f"SELECT seq FROM {q(schema)}.sqlite_sequence WHERE name = ?",
                             (stored,)).fetchone()
    except Exception:  # noqa: BLE001 - no AUTOINCREMENT table in that file yet
        seq = None
    nr = max(largest, seq[0] if seq else 0)
    st = _State(f"{schema}.{stored}".lower(), increment, offset, nr, col.type.int_range[1],
                col.name)
    st.move = f"UPDATE {table} SET {q(col.name)} = ? WHERE rowid = ?"
    s.statement_state[_KEY] = st


def first_value(s: SqliteSession) -> int | None:
    """The first value a stepped INSERT generated (LAST_INSERT_ID()), if it moved any."""
    st = s.statement_state.get(_KEY)
    first = st.first if st is not None else None
    return first if first is not None else s.statement_state.get("autokey_first")
