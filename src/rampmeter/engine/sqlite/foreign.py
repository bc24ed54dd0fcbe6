"""Foreign keys as MariaDB 10.11 with InnoDB defines them: reading the clause, naming the
constraint, checking a definition against the tables it joins, and the errors that name it.
Enforcement (the triggers that make 1451 / 1452 and the ON DELETE / ON UPDATE actions) is
fkcheck.py's.

Rules:
- `[CONSTRAINT [c]] FOREIGN KEY [i] (cols) REFERENCES [db.]t (cols) [MATCH ...] [ON DELETE a]
  [ON UPDATE a]`. The constraint is named c, else i, else `<table>_ibfk_<n>`, n one more than
  the highest such number the table has (InnoDB). Its generated index takes the same name
  (keys.py). A column-level REFERENCES is read and ignored, as MariaDB does.
- Actions: RESTRICT, NO ACTION, CASCADE, SET NULL, SET DEFAULT (accepted; InnoDB treats it as
  RESTRICT and SHOW CREATE TABLE prints nothing for it, nor for RESTRICT).
- With foreign_key_checks=1 a definition is checked as InnoDB checks it: the referenced table
  must exist, have the columns, and an index whose first columns they are; each pair of
  columns must be comparable (text with the same collation; binary strings; integers of the
  same size and sign; otherwise the same storage kind); SET NULL needs nullable columns. A
  failure is 1005 with errno 150. A constraint name taken in the database is errno 121. With
  foreign_key_checks=0 a missing referenced table is accepted (dumps create tables in name
  order); an existing one is still checked. A table created later is checked against the
  constraints that already name it.
- A foreign key to another database is kept and shown, but not enforced (fkcheck.py).
- Only InnoDB keeps foreign keys: a table of another engine (MyISAM, Aria, MEMORY...) reads
  the clause and keeps only its generated index, as MariaDB does (no checks, no errno 150).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from rampmeter.engine.sqlite import keys
from rampmeter.engine.sqlite.catalog import ForeignKey, TableDef, foreign_clause
from rampmeter.engine.types import SqlType
from rampmeter.errors import ServerError
from rampmeter.sql.reader import Reader

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.definitions import KeySpec

ACTIONS = ("RESTRICT", "CASCADE", "SET NULL", "NO ACTION", "SET DEFAULT")


def enforced_by(engine: str) -> bool:
    """Does a table of `engine` keep its foreign keys (module rules)?"""
    from rampmeter.engine.sqlite.catalog import NON_TRANSACTIONAL
    return engine not in NON_TRANSACTIONAL
INCORRECT = 150     # InnoDB's errno for "Foreign key constraint is incorrectly formed"
DUPLICATE = 121     # ... for "Duplicate key on write or update" (a constraint name taken)


def read_reference(r: Reader, key: KeySpec | None = None) -> None:
    """REFERENCES [db.]t [(cols)] [MATCH ...] [ON DELETE a] [ON UPDATE a], into `key` (or
    read and dropped: a column-level REFERENCES)."""
    r.expect("REFERENCES")
    db, table = r.qualified_name()
    cols: list[str] = []
    if r.accept("("):
        while True:
            cols.append(r.name())
            if r.accept(")"):
                break
            r.expect(",")
    actions = {"DELETE": "", "UPDATE": ""}
    while r.peek_word() in ("MATCH", "ON"):
        if r.accept("MATCH"):
            if not r.accept_any("FULL", "PARTIAL", "SIMPLE"):
                raise r.error()
            continue
        r.expect("ON")
        event = r.accept_any("DELETE", "UPDATE")
        if not event:
            raise r.error()
        if r.accept("SET"):
            what = r.accept_any("NULL", "DEFAULT")
            if not what:
                raise r.error()
            actions[event] = "SET " + what
        elif r.accept("NO"):
            r.expect("ACTION")
            actions[event] = "NO ACTION"
        else:
            word = r.accept_any("RESTRICT", "CASCADE")
            if not word:
                raise r.error()
            actions[event] = word
    if key is not None:
        key.ref = (db, table, cols, actions["DELETE"], actions["UPDATE"])


def make(table: str, database: str, key: KeySpec, taken: list[ForeignKey]) -> ForeignKey:
    """The ForeignKey of a FOREIGN KEY clause for `table` (1239 on a column count mismatch)."""
    assert key.ref is not None
    ref_db, ref_table, ref_cols, on_delete, on_update = key.ref
    name = key.constraint or key.name
    if ref_cols and len(ref_cols) != len(key.columns):
        raise ServerError(1239, sqlstate="42000", message=f"Incorrect foreign key definition for "
                          f"'{name or 'foreign key without name'}': Key reference and table "
                          "reference don't match")
    if name is None:
        name = f"{table}_ibfk_{next_number(table, taken)}"
    if ref_db is not None and ref_db.lower() == database.lower():
        ref_db = None
    return ForeignKey(name, list(key.columns), ref_table, list(ref_cols or key.columns),
                      ref_db, on_delete, on_update)


def next_number(table: str, taken: list[ForeignKey]) -> int:
    prefix = f"{table}_ibfk_".lower()
    numbers = [int(f.name[len(prefix):]) for f in taken
               if f.name.lower().startswith(prefix) and f.name[len(prefix):].isdigit()]
    return max(numbers, default=0) + 1


def renamed(fk: ForeignKey, old_table: str, new_table: str) -> str:
    """RENAME TABLE renames the constraints InnoDB named after the table."""
    prefix = f"{old_table}_ibfk_"
    rest = fk.name[len(prefix):]
    if fk.name.lower().startswith(prefix.lower()) and rest.isdigit():
        return f"{new_table}_ibfk_{rest}"
    return fk.name


# --- checks -------------------------------------------------------------------------------------
def cannot_create(database: str, table: str, errno: int = INCORRECT) -> ServerError:
    text = "Foreign key constraint is incorrectly formed" if errno == INCORRECT else \
        "Duplicate key on write or update"
    return ServerError(1005, message=f"Can't create table `{database}`.`{table}` (errno: "
                       f"{errno} \"{text}\")", sqlstate="HY000")


def _family(t: SqlType) -> tuple[object, ...]:
    """What InnoDB compares to decide two columns can be joined (module rules)."""
    if t.is_text:
        return ("text", t.collation)
    if t.is_binary_string:
        return ("binary",)
    if t.is_integer:
        return ("int", t.name, t.unsigned)
    if t.name in ("decimal", "datetime", "timestamp", "time", "bit"):
        return ("fixed",)
    return (t.name,)


def comparable(a: SqlType, b: SqlType) -> bool:
    return _family(a) == _family(b)


def has_index(tdef: TableDef, cols: list[str]) -> bool:
    """Does some key of `tdef` start with `cols`, in that order (no prefix parts)?"""
    low = [c.lower() for c in cols]
    candidates = [tdef.primary] if tdef.primary else []
    candidates += [i.columns for i in tdef.indexes if not i.kind and
                   not any(i.prefixes[:len(cols)] if i.prefixes else [])]
    return any([c.lower() for c in k[:len(low)]] == low for k in candidates)


def check(database: str, child: TableDef, fk: ForeignKey, parent: TableDef | None, *,
          checks_on: bool, shown_table: str | None = None) -> None:
    """1005 (errno 150) when `fk` of `child` does not fit `parent` (module rules); `parent`
    None: the referenced table does not exist."""
    fail = cannot_create(database, shown_table or child.name)
    for c in fk.columns:
        col = child.column(c)
        if col is None:
            raise ServerError(1072, message=f"Key column '{c}' doesn't exist in table")
        if fk.on_delete == "SET NULL" or fk.on_update == "SET NULL":
            if not col.nullable:
                raise fail
    if parent is None:
        if checks_on:
            raise fail
        return
    for c, rc in zip(fk.columns, fk.ref_columns):
        pcol = parent.column(rc)
        ccol = child.column(c)
        if pcol is None or ccol is None or not comparable(ccol.type, pcol.type):
            raise fail
    if not has_index(parent, fk.ref_columns):
        raise fail


def stored_names(fk: ForeignKey, child: TableDef, parent: TableDef | None) -> None:
    """Columns as the tables spell them."""
    fk.columns = keys.key_columns(child, fk.columns)
    if parent is not None:
        fk.ref_columns = [(parent.column(c).name if parent.column(c) is not None else c)
                          for c in fk.ref_columns]


# --- the errors that name a constraint ----------------------------------------------------------
def child_row_message(database: str, table: str, fk: ForeignKey) -> str:
    return (f"Cannot add or update a child row: a foreign key constraint fails (`{database}`."
            f"`{table}`, {foreign_clause(fk)})")


def parent_row_message(database: str, table: str, fk: ForeignKey) -> str:
    return (f"Cannot delete or update a parent row: a foreign key constraint fails "
            f"(`{database}`.`{table}`, {foreign_clause(fk)})")


def parent_row_error() -> ServerError:
    """DROP TABLE of a referenced table: MariaDB names no constraint."""
    return ServerError(1451, message="Cannot delete or update a parent row: a foreign key "
                       "constraint fails", sqlstate="23000")


def truncate_error(database: str, table: str, fk: ForeignKey) -> ServerError:
    return ServerError(1701, message="Cannot truncate a table referenced in a foreign key "
                       f"constraint (`{database}`.`{table}`, "
                       f"{foreign_clause(fk, qualify=database)})", sqlstate="42000")


def alter_table_name(connection_id: int) -> str:
    """How MariaDB names the table being rebuilt by ALTER (quoted in 1452 while adding a key)."""
    return f"#sql-alter-{os.getpid():x}-{connection_id:x}"


def drop_column_error(column: str, fk: ForeignKey, database: str, table: str) -> ServerError:
    return ServerError(1829, message=f"Cannot drop column '{column}': needed in a foreign key "
                       f"constraint '{fk.name}' of table `{database}`.`{table}`",
                       sqlstate="HY000")


def change_column_error(column: str, fk: ForeignKey, referencing: str | None = None
                        ) -> ServerError:
    """1832 (the table's own constraint) or 1833 (a constraint of `referencing`)."""
    if referencing is None:
        return ServerError(1832, message=f"Cannot change column '{column}': used in a foreign "
                           f"key constraint '{fk.name}'", sqlstate="HY000")
    return ServerError(1833, message=f"Cannot change column '{column}': used in a foreign key "
                       f"constraint '{fk.name}' of table '{referencing}'", sqlstate="HY000")


def index_needed_error(index: str) -> ServerError:
    return ServerError(1553, message=f"Cannot drop index '{index}': needed in a foreign key "
                       "constraint", sqlstate="HY000")


def referencing(tables: dict[str, TableDef], table: str) -> list[tuple[TableDef, ForeignKey]]:
    """(child, constraint) pairs of the same database that reference `table`."""
    low = table.lower()
    return [(t, fk) for t in tables.values() for fk in t.foreign
            if fk.ref_db is None and fk.ref_table.lower() == low]


def needs_index(tdef: TableDef, index: str) -> ForeignKey | None:
    """The constraint of `tdef` that would have no index left without `index`."""
    rest = keys.existing(tdef)
    rest = [k for k in rest if (k.name or "").lower() != index.lower()]
    for fk in tdef.foreign:
        low = [c.lower() for c in fk.columns]
        if not any([c.lower() for c in k.columns[:len(low)]] == low for k in rest
                   if k.kind not in ("FULLTEXT", "SPATIAL")):
            return fk
    return None
