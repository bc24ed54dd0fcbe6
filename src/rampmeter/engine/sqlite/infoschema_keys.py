"""information_schema tables about keys and constraints, the ones ORMs and dump tools read:
KEY_COLUMN_USAGE, REFERENTIAL_CONSTRAINTS, TABLE_CONSTRAINTS, CHECK_CONSTRAINTS.

Rules:
- Column names and order are MariaDB 10.11's; rows come per database and table, in the order
  MariaDB lists them for a table: the PRIMARY KEY, the UNIQUE keys in key order, the CHECK
  constraints (column ones, with the implicit json_valid of a JSON column, then table ones) and
  the FOREIGN KEYs by name.
- A foreign key's UNIQUE_CONSTRAINT_NAME is the referenced table's key that starts with the
  referenced columns (PRIMARY first); NULL when that table does not exist. Rules RESTRICT when
  no action was given (or SET DEFAULT, which InnoDB treats so).
- CHECK_CLAUSE is MariaDB's canonical text of the expression (sqltext.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from rampmeter.engine.sqlite import infoschema
from rampmeter.engine.sqlite.catalog import ForeignKey, TableDef
from rampmeter.protocol.columns import Column, int_column, text_column

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

Rows = list[tuple[Any, ...]]


def _columns(names: list[str], ints: set[str]) -> list[Column]:
    return [int_column(n) if n in ints else text_column(n, length=64) for n in names]


def _tables(s: SqliteSession) -> Iterator[tuple[str, TableDef]]:
    for db in infoschema._user_databases(s):
        for t in infoschema._readable_tables(s, db):
            tdef = s.table_def(db, t)
            if tdef is not None and tdef.view is None:
                yield db, tdef


def _unique_keys(tdef: TableDef) -> list[tuple[str, list[str]]]:
    out = [("PRIMARY", tdef.primary)] if tdef.primary else []
    return out + [(i.name, i.columns) for i in tdef.indexes if i.unique and not i.kind]


def _rule(action: str) -> str:
    return action if action in ("CASCADE", "SET NULL", "NO ACTION") else "RESTRICT"


def referenced_key(s: SqliteSession, db: str, fk: ForeignKey) -> str | None:
    parent = s.table_def(fk.ref_db or db, fk.ref_table)
    if parent is None or parent.view is not None:
        return None
    want = [c.lower() for c in fk.ref_columns]
    keys = [("PRIMARY", parent.primary)] if parent.primary else []
    keys += [(i.name, i.columns) for i in parent.indexes if not i.kind]
    for name, cols in keys:
        if [c.lower() for c in cols[:len(want)]] == want:
            return name
    return None


def key_column_usage(s: SqliteSession) -> tuple[list[Column], Rows]:
    names = ["CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA", "CONSTRAINT_NAME", "TABLE_CATALOG",
             "TABLE_SCHEMA", "TABLE_NAME", "COLUMN_NAME", "ORDINAL_POSITION",
             "POSITION_IN_UNIQUE_CONSTRAINT", "REFERENCED_TABLE_SCHEMA",
             "REFERENCED_TABLE_NAME", "REFERENCED_COLUMN_NAME"]
    rows: Rows = []
    for db, t in _tables(s):
        for key, cols in _unique_keys(t):
            rows.extend(("def", db, key, "def", db, t.name, c, k, None, None, None, None)
                        for k, c in enumerate(cols, 1))
        for fk in sorted(t.foreign, key=lambda f: f.name):
            rows.extend(("def", db, fk.name, "def", db, t.name, c, k, k, fk.ref_db or db,
                         fk.ref_table, r)
                        for k, (c, r) in enumerate(zip(fk.columns, fk.ref_columns), 1))
    return _columns(names, {"ORDINAL_POSITION", "POSITION_IN_UNIQUE_CONSTRAINT"}), rows


def referential_constraints(s: SqliteSession) -> tuple[list[Column], Rows]:
    names = ["CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA", "CONSTRAINT_NAME",
             "UNIQUE_CONSTRAINT_CATALOG", "UNIQUE_CONSTRAINT_SCHEMA", "UNIQUE_CONSTRAINT_NAME",
             "MATCH_OPTION", "UPDATE_RULE", "DELETE_RULE", "TABLE_NAME",
             "REFERENCED_TABLE_NAME"]
    rows: Rows = [("def", db, fk.name, "def", fk.ref_db or db, referenced_key(s, db, fk),
                   "NONE", _rule(fk.on_update), _rule(fk.on_delete), t.name, fk.ref_table)
                  for db, t in _tables(s) for fk in sorted(t.foreign, key=lambda f: f.name)]
    return _columns(names, set()), rows


def _checks(t: TableDef) -> list[tuple[str, str, str]]:
    """(name, level, clause) of a table's CHECK constraints, as MariaDB lists them."""
    from rampmeter.engine.sqlite.sqltext import expression
    column_level = [(c.name, "Column", f"json_valid(`{c.name}`)") for c in t.columns
                    if c.type.name == "json"]
    column_level += [(n, "Column", expression(e)) for n, e in t.checks if t.column_check(n)]
    table_level = [(n, "Table", expression(e)) for n, e in t.checks if not t.column_check(n)]
    order = {c.name.lower(): k for k, c in enumerate(t.columns)}
    column_level.sort(key=lambda x: order.get(x[0].lower(), 0))
    return column_level + table_level


def table_constraints(s: SqliteSession) -> tuple[list[Column], Rows]:
    names = ["CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA", "CONSTRAINT_NAME", "TABLE_SCHEMA",
             "TABLE_NAME", "CONSTRAINT_TYPE"]
    rows: Rows = []
    for db, t in _tables(s):
        for key, _cols in _unique_keys(t):
            rows.append(("def", db, key, db, t.name,
                         "PRIMARY KEY" if key == "PRIMARY" else "UNIQUE"))
        rows.extend(("def", db, name, db, t.name, "CHECK") for name, _l, _c in _checks(t))
        rows.extend(("def", db, fk.name, db, t.name, "FOREIGN KEY")
                    for fk in sorted(t.foreign, key=lambda f: f.name))
    return _columns(names, set()), rows


def check_constraints(s: SqliteSession) -> tuple[list[Column], Rows]:
    names = ["CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA", "TABLE_NAME", "CONSTRAINT_NAME", "LEVEL",
             "CHECK_CLAUSE"]
    rows: Rows = [("def", db, t.name, name, level, clause)
                  for db, t in _tables(s) for name, level, clause in _checks(t)]
    return _columns(names, set()), rows


TABLES = {"KEY_COLUMN_USAGE": key_column_usage, "REFERENTIAL_CONSTRAINTS":
          referential_constraints, "TABLE_CONSTRAINTS": table_constraints,
          "CHECK_CONSTRAINTS": check_constraints}
