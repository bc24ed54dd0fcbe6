"""ALTER TABLE's checks (alter.py reads the statement): AUTO_INCREMENT, foreign keys - their
names, their referenced tables, the rows already there, the columns and indexes they need -
and the constraints of other tables that name the altered one.

Rules: those of alter.py and foreign.py; the errors are MariaDB's (1075, 1005, 1452, 1553,
1828, 1829, 1832, 1833).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.engine.sqlite import fkcheck, foreign
from rampmeter.engine.sqlite.catalog import ColumnDef, ForeignKey, TableDef, auto_key_ok, q
from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.alter import _Alter
    from rampmeter.engine.sqlite.session import SqliteSession


def check_type_change(a: _Alter, was: ColumnDef, now: ColumnDef) -> None:
    if foreign.comparable(was.type, now.type):
        return
    for fk in a.new.foreign:
        if now.name.lower() in (c.lower() for c in fk.columns):
            raise foreign.change_column_error(was.name, fk)
    for child, fk in children(a):
        if was.name.lower() in (c.lower() for c in fk.ref_columns):
            raise foreign.change_column_error(was.name, fk, f"{a.database}.{child.name}")


def children(a: _Alter) -> list[tuple[TableDef, ForeignKey]]:
    """Other tables' constraints that reference this one (loaded once, changed in place)."""
    if a.children_cache is None:
        names = fkcheck.spec_mentions(a.s.handle.conn, a.schema, a.name)
        tables = {n: a.s.load_table(a.schema, n) for n in names if n.lower() != a.name.lower()}
        a.children_cache = foreign.referencing(tables, a.name)
    return a.children_cache


def check_auto(t: TableDef) -> None:
    auto = [c for c in t.columns if c.auto_increment]
    if len(auto) > 1:
        raise ServerError(errors.ER_WRONG_AUTO_KEY)
    if not auto:
        return
    col = auto[0]
    if not auto_key_ok(t, col.name):
        raise ServerError(errors.ER_WRONG_AUTO_KEY)
    col.nullable = False


def check_foreign(a: _Alter) -> None:
    t = a.new
    for col in a.dropped_columns:
        check_dropped_column(a, col)
    for fk in t.foreign:  # every constraint keeps an index that starts with its columns
        low = [c.lower() for c in fk.columns]
        covered = [t.primary] + [i.columns for i in t.indexes if not i.kind]
        if not any([c.lower() for c in k[:len(low)]] == low for k in covered):
            gone = sorted(k for k in a.dropped_keys)
            raise foreign.index_needed_error(gone[0].lstrip("\0") if gone else fk.name)
    if not a.new_foreign:
        return
    taken = constraint_names(a)
    checks_on = fkcheck.checks_on(a.s)
    for fk in a.new_foreign:
        if fk.name.lower() in taken:
            raise foreign.cannot_create(a.database, a.name, foreign.DUPLICATE)
        taken.add(fk.name.lower())
        parent = referenced_table(a, fk)
        foreign.check(a.database, t, fk, parent, checks_on=checks_on)
        foreign.stored_names(fk, t, parent)


def check_dropped_column(a: _Alter, col: str) -> None:
    low = col.lower()
    for fk in a.new.foreign:
        if low in (c.lower() for c in fk.columns):
            shrunk = [k.lstrip("\0") for k in a.dropped_keys if k.startswith("\0")]
            if shrunk:
                raise foreign.index_needed_error(index_name(a, shrunk[0]))
            raise ServerError(1828, message=f"Cannot drop column '{col}': needed in a foreign "
                              f"key constraint '{fk.name}'", sqlstate="HY000")
    for child, fk in children(a):
        if low in (c.lower() for c in fk.ref_columns):
            raise foreign.drop_column_error(col, fk, a.database, child.name)


def index_name(a: _Alter, low: str) -> str:
    return next((i.name for i in a.old.indexes if i.name.lower() == low), low)


def constraint_names(a: _Alter) -> set[str]:
    """Foreign key names of the database, this table's old ones excluded (InnoDB: per db)."""
    names = fkcheck.constraint_names(a.s.handle.conn, a.schema, a.name)
    names.update(f.name.lower() for f in a.new.foreign if f not in a.new_foreign)
    return names


def referenced_table(a: _Alter, fk: ForeignKey) -> TableDef | None:
    if fk.ref_db is not None:
        found = a.s.table_def(fk.ref_db, fk.ref_table)
        return found
    if fk.ref_table.lower() in (a.name.lower(), (a.rename_to or "").lower()):
        return a.new
    stored = a.s.find_table(a.schema, fk.ref_table)
    return a.s.load_table(a.schema, stored) if stored else None


def check_rows(a: _Alter) -> None:
    """With checks on, rows already there must fit the new constraints (1452)."""
    if not a.new_foreign or not fkcheck.checks_on(a.s):
        return
    conn = a.s.handle.conn
    for fk in a.new_foreign:
        if fk.ref_db is not None:
            continue
        parent = a.new.name if fk.ref_table.lower() == a.name.lower() else \
            a.s.find_table(a.schema, fk.ref_table)
        if parent and fkcheck.first_orphan(conn, a.schema, a.new.name, fk, parent):
            shown = foreign.alter_table_name(getattr(a.s.context, "connection_id", 0))
            raise ServerError(1452, message=foreign.child_row_message(a.database, shown, fk),
                              sqlstate="23000")


def set_auto_increment(s: SqliteSession, schema: str, t: TableDef, value: int) -> None:
    with s.ddl():
        h = s.handle
        col = t.auto_column
        assert col is not None
        top = h.execute(f"SELECT MAX({q(col.name)}) FROM {q(schema)}.{q(t.name)}"
                        ).fetchone()[0] or 0
        h.execute(f"DELETE FROM {q(schema)}.sqlite_sequence WHERE name = ?", (t.name,))
        h.execute(f"INSERT INTO {q(schema)}.sqlite_sequence (name, seq) VALUES (?, ?)",
                  (t.name, max(top, value - 1)))
