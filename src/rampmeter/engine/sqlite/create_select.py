"""CREATE TABLE ... [IGNORE | REPLACE] [AS] SELECT: a table whose columns are the query's result
columns, filled with its rows.

Rules (MariaDB 10.11, measured):
- Columns defined in the statement come first and keep their definitions; each result column
  whose name is not among them is added after, in select-list order.
- A result column that is a table column copies its type, NOT NULL and DEFAULT (an
  AUTO_INCREMENT column becomes a plain NOT NULL column with DEFAULT 0); a literal gets the
  literal's type and NOT NULL (NULL is binary(0)); an expression gets its inferred type
  (infer.py), NOT NULL when it is COUNT, a non-NULL literal, NOW() or arithmetic over NOT NULL
  operands, and nullable otherwise. Indexes and keys come only from the definition part.
- The rows are inserted as INSERT [IGNORE] ... SELECT would insert them (strict-mode errors
  included); if that fails, the new table is dropped again, so the statement leaves nothing.
  The OK packet says "Records: N  Duplicates: D  Warnings: W".
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from rampmeter import errors
from rampmeter.engine import types as T
from rampmeter.engine.base import Result, UpdateCount
from rampmeter.engine.sqlite import dml, temporary
from rampmeter.engine.sqlite.catalog import ColumnDef, Default, q
from rampmeter.engine.sqlite.definitions import ColumnSpec, KeySpec, build_table
from rampmeter.engine.sqlite.translate import Output, leftmost_select, literal_type, parse
from rampmeter.engine.types import SqlType
from rampmeter.errors import ServerError
from rampmeter.sql import charsets
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement, slot_charset

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.create_table import Target
    from rampmeter.engine.sqlite.session import SqliteSession

_QUERY = ("SELECT", "WITH", "VALUES", "TABLE")


def create(s: SqliteSession, r: Reader, target: Target, columns: list[ColumnSpec],
           keys: list[KeySpec], options: dict[str, Any]) -> Result:
    from rampmeter.engine.sqlite.create_table import make
    mode = r.accept_any("IGNORE", "REPLACE")
    r.accept("AS")
    text = r.rest_text()
    query = s.scan(text)
    if query.kind not in _QUERY:
        raise r.error()
    defined = {c.column.name.lower() for c in columns}
    result = _result_columns(s, query)
    specs = list(columns) + [ColumnSpec(c) for c in result if c.name.lower() not in defined]
    from rampmeter.engine.sqlite import dbopts
    tdef = build_table(target.table, specs, keys, options, database=target.database,
                       defaults=dbopts.table_defaults(s, target.database))
    made = make(s, target, tdef)
    if made.warnings:  # IF NOT EXISTS found the table: nothing inserted (MariaDB)
        return made
    names = ", ".join(_bq(c.name) for c in result)
    verb = {"IGNORE": "INSERT IGNORE", "REPLACE": "REPLACE"}.get(mode, "INSERT")
    insert = s.scan(f"{verb} INTO {_bq(target.database)}.{_bq(target.table)} ({names}) {text}")
    try:
        outcome = dml.run(s, insert, ())
    except ServerError:
        _undo(s, target)
        raise
    assert isinstance(outcome, UpdateCount)
    records = outcome.affected_rows
    info = outcome.info or f"Records: {records}  Duplicates: 0  Warnings: " \
                           f"{len(outcome.warnings)}"
    return UpdateCount(records, 0, info, outcome.warnings)


def _bq(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _undo(s: SqliteSession, target: Target) -> None:
    if target.temporary:
        temporary.drop(s, target.database, target.table)
        return
    from rampmeter.engine.sqlite import catalog, fkcheck
    with s.ddl(), fkcheck.maintained(s, target.schema, target.database,
                                     [target.table]):
        stored = s.find_table(target.schema, target.table)
        if stored is not None:
            s.handle.execute(f"DROP TABLE {q(target.schema)}.{q(stored)}")
            s.handle.execute(catalog.meta_delete_sql(target.schema), (stored,))


def _result_columns(s: SqliteSession, query: Statement) -> list[ColumnDef]:
    plan = s.plan(query)
    s.make_visible(plan)
    try:  # run for no rows: a missing table or column is the query's own error
        s.handle.execute(f"SELECT * FROM ({plan.sql}) LIMIT 0",
                         {**dml.bind(query, []), **plan.fixed}).fetchall()
    except sqlite3.Error as e:
        raise s.sqlite_error(e, plan) from None
    select = leftmost_select(parse(query, query.shape))
    items = _items(select)
    outputs = plan.outputs
    if outputs is None:
        raise ServerError(errors.ER_NOT_SUPPORTED_YET,
                          "CREATE TABLE ... SELECT * from a table of unknown columns")
    out: list[ColumnDef] = []
    for k, o in enumerate(outputs):
        name = o.name
        if isinstance(name, int):
            name = query.items[name] if query.items is not None and name < len(query.items) \
                else f"Name_exp_{k + 1}"
        out.append(_column(s, query, o, str(name), items[k] if k < len(items) else None))
    seen: set[str] = set()
    for c in out:
        if c.name.lower() in seen:
            raise ServerError(errors.ER_DUP_FIELDNAME, c.name)
        seen.add(c.name.lower())
    return out


def _items(select: exp.Select | None) -> list[exp.Expression | None]:
    """The select list with stars left as None (their outputs are table columns)."""
    if select is None:
        return []
    out: list[exp.Expression | None] = []
    for item in select.expressions:
        value = item.this if isinstance(item, exp.Alias) else item
        if isinstance(value, exp.Star) or isinstance(value, exp.Column) and \
                isinstance(value.this, exp.Star):
            return []  # positions no longer line up; stars give table columns anyway
        out.append(value)
    return out


def _column(s: SqliteSession, query: Statement, o: Output, name: str,
            item: exp.Expression | None) -> ColumnDef:
    if o.org_table and o.schema:
        tdef = s.table_def(o.schema, o.org_table)
        base = tdef.column(o.org_name) if tdef is not None else None
        if base is not None:
            col = ColumnDef(name, base.type, base.nullable, base.default,
                            on_update=base.on_update, comment=base.comment)
            if base.auto_increment:
                col.default = Default("value", 0, "0")
            return col
    t: SqlType | None = o.sql_type
    if o.literal_slot is not None and o.literal_slot < len(query.slots):
        slot = query.names[o.literal_slot]
        t = literal_type(query.slots[o.literal_slot], text=slot[:1] in ("s", "c"),
                         charset=slot_charset(slot))
        if slot[:1] == "s" and t.is_text:  # a literal is in collation_connection
            coll = charsets.collation(s.context.translation[0])
            if coll is not None:
                t = replace(t, charset=coll.charset, collation=coll.name)
    if t is None or t.name == "null":
        t = SqlType("binary", 0, charset="binary") if t is not None else T.varchar(255)
    width = _constant_width(item, query)
    if width is not None and t.name in ("varchar", "varbinary"):
        t = replace(t, width=width)
    return ColumnDef(name, t, nullable=not _not_null(item, s, query))


def _constant_width(e: exp.Expression | None, query: Statement) -> int | None:
    """The length MariaDB gives REPEAT / LPAD / RPAD of literals (REPEAT('a', 10) is a
    VARCHAR(10)): the values are in the statement, not in its shape's types."""
    if not isinstance(e, exp.Anonymous) or e.name.upper() not in ("REPEAT", "LPAD", "RPAD"):
        return None
    values = dict(zip(query.names, query.slots))
    args = [values.get(a.name) if isinstance(a, exp.Placeholder) else None
            for a in e.expressions]
    if len(args) < 2 or not isinstance(args[1], int):
        return None
    if e.name.upper() == "REPEAT":
        return len(args[0]) * max(args[1], 0) if isinstance(args[0], (str, bytes)) else None
    return max(args[1], 0)


def _not_null(e: exp.Expression | None, s: SqliteSession, query: Statement) -> bool:
    """Would MariaDB make this result column NOT NULL (module rules)?"""
    if e is None:
        return False
    if isinstance(e, exp.Paren):
        return _not_null(e.this, s, query)
    if isinstance(e, exp.Placeholder):
        return True
    if isinstance(e, (exp.Count, exp.CurrentTimestamp)) or \
            isinstance(e, exp.Anonymous) and e.name.upper() in ("NOW", "CURDATE", "CURTIME"):
        return True
    if isinstance(e, exp.Neg):
        return _not_null(e.this, s, query)
    if isinstance(e, (exp.Add, exp.Sub, exp.Mul)):
        return _not_null(e.this, s, query) and _not_null(e.expression, s, query)
    if isinstance(e, exp.Column):
        col = _table_column(e, s, query)
        return col is not None and not col.nullable
    return False


def _table_column(e: exp.Column, s: SqliteSession, query: Statement) -> ColumnDef | None:
    select = e.find_ancestor(exp.Select)
    if select is None:
        return None
    for t in select.find_all(exp.Table):
        if e.table and e.table.lower() not in (t.name.lower(), t.alias.lower()):
            continue
        db = t.db or s.database
        tdef = s.table_def(db, t.name) if db else None
        col = tdef.column(e.name) if tdef is not None else None
        if col is not None:
            return col
    return None
