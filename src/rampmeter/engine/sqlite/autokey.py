"""AUTO_INCREMENT columns that are not SQLite's rowid: MyISAM's AUTO_INCREMENT as a later part
of a key (per-group values), and one beside another primary key.

Rules:
- catalog.py makes an AUTO_INCREMENT column SQLite's INTEGER PRIMARY KEY AUTOINCREMENT when it
  is the whole primary key, or the whole of a UNIQUE key of a table without one
  (catalog.auto_keyed_alone). Any other AUTO_INCREMENT column ("detached") is an ordinary
  SQLite column, left nullable in SQLite (MariaDB's NOT NULL is the catalog's): a row written
  with NULL there (0 too, unless NO_AUTO_VALUE_ON_ZERO: dml.convert makes it NULL) gets its
  value from a trigger of the table's own (in its database, `_rm_ai_...`, made with the table
  and again after each rebuild), AFTER INSERT, as generated.py computes generated columns.
- Which values (MariaDB's table.cc find_ref_key and ha_myisam get_auto_increment): the key
  that decides is the first one, in MariaDB's key order (PRIMARY, then UNIQUE, then the
  others), that holds the column. When the column is that key's first part, the value is the
  largest the column holds + 1; when it is a later part (MyISAM / Aria only: InnoDB and the
  others want it first in some key, 1075 in definitions.py), it is the largest among the rows
  whose earlier parts of that key are equal to the new row's (NULLs equal, compared with the
  columns' collations) + 1: each group counts on its own, and a group's freed top values are
  used again, as MyISAM does.
- auto_increment_increment / _offset step the value as autoinc.next_value does; a value past
  the column's type is 167 as in autoinc.py; the first value generated is LAST_INSERT_ID()
  (autoinc.first_value reads it).
- A column with no group has the table's counter, as MyISAM's and InnoDB's: the largest
  value it ever held (a DELETE of the largest rows does not lower it), kept where SQLite keeps
  its AUTOINCREMENT tables' (sqlite_sequence, by the table's name: SHOW CREATE TABLE,
  AUTO_INCREMENT=N, ALTER and TRUNCATE read and write it as theirs) by two more triggers that
  follow every value written; the next value is the larger of it and the largest held + 1.
- The row to fill is the one inserted, or, in a table that reuses a deleted row's place
  (slots.py, whose temp trigger runs first and moves it), the one row whose column is NULL.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from rampmeter.engine.sqlite.catalog import TableDef, lit, q, rowid_auto
from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.handle import Handle
    from rampmeter.engine.sqlite.session import SqliteSession

PREFIX = "_rm_ai_"
SEQUENCE_ANCHOR = "_rampmeter_sequence"  # makes the file's sqlite_sequence (sequence_table)
FIRST = "autokey_first"   # statement_state key: the first value generated (LAST_INSERT_ID)
_ROWS = "autokey_rows"
_TOP = 2**63 - 1          # SQLite's largest integer
_U64 = 2**64 - 1          # BIGINT UNSIGNED's largest: MariaDB never generates it


def detached(tdef: TableDef) -> bool:
    """Has `tdef` an AUTO_INCREMENT column that is not the rowid (module rules)?"""
    col = tdef.auto_column
    return col is not None and not rowid_auto(tdef, col.name)


def counted(tdef: TableDef) -> bool:
    """Has `tdef` a counter in sqlite_sequence: a rowid AUTO_INCREMENT column, or a detached
    one with no group (module rules)?"""
    col = tdef.auto_column
    return col is not None and (not detached(tdef) or not group_prefix(tdef, col.name))


def group_prefix(tdef: TableDef, column: str) -> list[str]:
    """The key parts before `column` in the key that decides its values (module rules)."""
    keys = [tdef.primary] if tdef.primary else []
    plain = [i for i in tdef.indexes if not i.kind]
    keys += [i.columns for i in plain if i.unique] + [i.columns for i in plain if not i.unique]
    low = column.lower()
    for cols in keys:
        names = [c.lower() for c in cols]
        if low in names:
            return list(cols[:names.index(low)])
    return []


def install(s: SqliteSession, schema: str, table: str, tdef: TableDef) -> None:
    """(Re)make the trigger that generates `tdef`'s detached AUTO_INCREMENT values on its
    table `table` in `schema`, inside the caller's DDL transaction."""
    h = s.handle
    old = h.execute(f"SELECT name FROM {q(schema)}.sqlite_master WHERE type = 'trigger' AND "
                    "tbl_name = ? AND name LIKE ?", (table, PREFIX + "%")).fetchall()
    for (name,) in old:
        h.execute(f"DROP TRIGGER {q(schema)}.{q(name)}")
    if not detached(tdef):
        return
    col = tdef.auto_column
    assert col is not None
    c = q(col.name)
    same = " AND ".join(f"({q(p)} = NEW.{q(p)} OR {q(p)} IS NULL AND NEW.{q(p)} IS NULL)"
                        for p in group_prefix(tdef, col.name))
    largest = f"SELECT max({c}) FROM {q(table)}" + (f" WHERE {same}" if same else "")
    seq = f"(SELECT seq FROM sqlite_sequence WHERE name = {lit(table)})"
    if not same:  # the table's counter: the largest value it ever held (module rules)
        largest = f"SELECT max(coalesce({seq}, 0), coalesce(({largest}), 0))"
    top = col.type.int_range[1] if col.type.is_integer else _TOP
    # the new row, or where a deleted row's place took it (slots.py's trigger runs first)
    # (_rowid_: a column may be named rowid)
    row = (f"coalesce((SELECT _rowid_ FROM {q(table)} WHERE _rowid_ = NEW._rowid_ AND {c} IS "
           f"NULL), (SELECT _rowid_ FROM {q(table)} WHERE {c} IS NULL))")
    body = (f"BEGIN UPDATE {q(table)} SET {c} = rm_ai_next(coalesce(({largest}), 0), {lit(str(top))}, "
            f"{lit(col.name)}) WHERE _rowid_ = {row}; END")
    name = PREFIX + uuid.uuid4().hex
    h.execute(f"CREATE TRIGGER {q(schema)}.{q(name)} AFTER INSERT ON {q(table)} "
              f"WHEN NEW.{c} IS NULL {body}")
    if same:
        return
    sequence_table(s, schema)
    # the counter follows every value written (the generated ones by the UPDATE above)
    for event in (f"INSERT ON {q(table)} WHEN NEW.{c} IS NOT NULL",
                  f"UPDATE OF {c} ON {q(table)}"):
        # (a number: a BIGINT UNSIGNED past 2^63 - 1 is text, which SQLite's counter is not)
        new = f"CAST(NEW.{c} AS INTEGER)"
        kind = f"typeof(NEW.{c}) IN ('integer', 'real')"
        bump = (f"BEGIN UPDATE sqlite_sequence SET seq = {new} WHERE name = {lit(table)} "
                f"AND seq < NEW.{c} AND {kind}; INSERT INTO sqlite_sequence (name, seq) "
                f"SELECT {lit(table)}, {new} WHERE {kind} AND NEW.{c} > 0 AND NOT EXISTS "
                f"(SELECT 1 FROM sqlite_sequence WHERE name = {lit(table)}); END")
        h.execute(f"CREATE TRIGGER {q(schema)}.{q(PREFIX + uuid.uuid4().hex)} AFTER {event} "
                  f"{bump}")


def sequence_table(s: SqliteSession, schema: str) -> None:
    """SQLite makes sqlite_sequence with its first AUTOINCREMENT table: one of its own."""
    s.handle.execute(f"CREATE TABLE IF NOT EXISTS {q(schema)}.{q(SEQUENCE_ANCHOR)} "
                     "(i INTEGER PRIMARY KEY AUTOINCREMENT)")


def forget_sequence(s: SqliteSession, schema: str, table: str) -> None:
    """A dropped or re-created table's counter: SQLite forgets only its AUTOINCREMENT
    tables' (a new table of that name would go on from it)."""
    try:
        s.handle.execute(f"DELETE FROM {q(schema)}.sqlite_sequence WHERE name = ?", (table,))
    except Exception:  # noqa: BLE001 - no AUTOINCREMENT table in that file yet
        pass


def register(handle: Handle, host: Any) -> None:
    """rm_ai_next, which the trigger calls, on a handle, for its occupant (handles.py)."""
    from rampmeter.engine.sqlite.autoinc import next_value

    def next_id(nr: Any, top: Any, column: str) -> Any:
        s = host.session
        increment = offset = 1
        state: dict[Any, Any] = {}
        if s is not None:
            state = s.statement_state
            try:
                increment = int(s.context.system_variable("auto_increment_increment"))
                offset = int(s.context.system_variable("auto_increment_offset"))
            except (ServerError, TypeError, ValueError):
                pass
        if isinstance(nr, str) and nr.startswith("~"):  # BIGINT UNSIGNED past 2^63 - 1
            nr = int(nr[1:])
        nr = int(nr) if nr is not None and nr > 0 else 0
        top = int(top)
        value = next_value(nr, increment, offset)
        row = state.get(_ROWS, 0) + 1
        state[_ROWS] = row
        if value >= _U64 and value <= top:  # handler::update_auto_increment's ULONGLONG_MAX
            err = ServerError(1467, message="Failed to read auto-increment value from "
                              "storage engine", sqlstate="HY000")
            if s is not None:
                host.function_failed(err)
            raise err
        if value > top or value <= nr:
            err = ServerError(167, message=f"Out of range value for column '{column}' at "
                              f"row {row}", sqlstate="22003")
            if s is not None:
                host.function_failed(err)
            raise err
        state.setdefault(FIRST, value)
        return value if value <= _TOP else f"~{value:020d}"  # bigunsigned.py's form

    handle.create_function("rm_ai_next", 3, next_id)
