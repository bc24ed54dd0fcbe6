"""CREATE TABLE ... [IGNORE | REPLACE] [AS] SELECT: a table whose columns are the query's result
columns, filled with its rows.

Rules (MariaDB 10.11, measured):
- Columns defined in the statement that the query does not name come first; then the result
  columns in select-list order, one that has a definition in the statement keeping it.
- A result column that is a table column copies its type, NOT NULL and DEFAULT (an
  AUTO_INCREMENT column becomes a plain NOT NULL column with DEFAULT 0); a literal gets the
  literal's type and NOT NULL (NULL is binary(0)); an expression gets its inferred type
  (infer.py), NOT NULL when it can never be NULL (nullness.py: COUNT, a non-NULL literal,
  NOW(), arithmetic, comparisons, COALESCE, IF, CASE ... over NOT NULL operands; a column of
  a LEFT JOIN's right side may be NULL), nullable otherwise. Indexes and keys come only from
  the definition part.
- The rows are inserted as INSERT [IGNORE] ... SELECT would insert them (strict-mode errors
  included); if that fails, the new table is dropped again, so the statement leaves nothing.
  The OK packet says "Records: N  Duplicates: D  Warnings: W".
"""

from __future__ import annotations

import dataclasses
import sqlite3
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from rampmeter import errors
from rampmeter.engine import types as T
from rampmeter.engine.base import Result, UpdateCount
from rampmeter.engine.sqlite import dml, nullness, strlen, temporary, unionout
from rampmeter.engine.sqlite.catalog import ColumnDef, Default, q
from rampmeter.engine.sqlite.definitions import ColumnSpec, KeySpec, build_table
from rampmeter.engine.sqlite.infer import Typer
from rampmeter.engine.sqlite.translate import (
    Output,
    leftmost_select,
    literal_type,
    parse,
    translate,
)
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
    query = s.scan(text, dialect=r.dialect)  # a prepared CTAS: as read at its PREPARE
    if query.kind not in _QUERY:
        raise r.error()
    result = _result_columns(s, query)
    # the defined columns the query does not name come first; then the result's columns in
    # select-list order, a defined one keeping its definition (MariaDB 10.11, measured)
    by_name = {c.column.name.lower(): c for c in columns}
    selected = {c.name.lower() for c in result}
    specs = [c for c in columns if c.column.name.lower() not in selected] + \
        [by_name.get(c.name.lower()) or ColumnSpec(c) for c in result]
    from rampmeter.engine.sqlite import dbopts
    tdef = build_table(target.table, specs, keys, options, database=target.database,
                       defaults=dbopts.table_defaults(s, target.database))
    made = make(s, target, tdef)
    if made.warnings:  # IF NOT EXISTS found the table: nothing inserted (MariaDB)
        return made
    names = ", ".join(_bq(c.name) for c in result)
    verb = {"IGNORE": "INSERT IGNORE", "REPLACE": "REPLACE"}.get(mode, "INSERT")
    insert = s.scan(f"{verb} INTO {_bq(target.database)}.{_bq(target.table)} ({names}) {text}",
                    dialect=r.dialect)
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
    from rampmeter.engine.sqlite import odbc
    tree = parse(query, odbc.rewrite(query.shape, query))
    select = leftmost_select(tree)
    items = _items(select)
    # a set operation's column is NOT NULL only when it is in every branch
    later = [_items(b) for b in (unionout.branches(tree) or [])[1:]]
    outputs = plan.outputs
    if outputs is not None:  # typed again knowing the literals (LEFT(a, 3) is 3 long)
        exact = translate(query, s.database, s.table_def, s.context.translation,
                          zone_shift=not s.time_zone().is_utc,
                          values=dict(zip(query.names, query.slots))).outputs
        if exact is not None and len(exact) == len(outputs):
            outputs = exact
    if outputs is None:
        raise ServerError(errors.ER_NOT_SUPPORTED_YET,
                          "CREATE TABLE ... SELECT * from a table of unknown columns")
    typer = _value_typer(s, query, select) if select is not None else None
    out: list[ColumnDef] = []
    for k, o in enumerate(outputs):
        name = o.name
        if isinstance(name, int):
            name = query.items[name] if query.items is not None and name < len(query.items) \
                else f"Name_exp_{k + 1}"
        item = items[k] if k < len(items) else None
        typed = typer.infer(item) if typer is not None and item is not None else None
        col = _column(s, query, o, str(name), item, typed)
        if later and not col.nullable and not all(
                k < len(b) and _not_null(b[k], s, query) for b in later):
            col.nullable = True
        out.append(col)
    selects = unionout.branches(tree)
    if selects is not None and len(selects) > 1:
        _union_strings(s, query, selects, out)
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


def _value_typer(s: SqliteSession, query: Statement, select: exp.Select) -> Typer:
    """A Typer that knows the statement's literal values (strlen.py) and the columns of the
    tables of `select`."""
    settings = s.context.translation

    def lookup(table: str | None, name: str) -> SqlType | None:
        col = _find_column(select, s, table, name)
        return col.type if col is not None else None
    return Typer(lookup, settings[0], settings[1], values=dict(zip(query.names, query.slots)))


def _union_strings(s: SqliteSession, query: Statement, selects: list[exp.Select],
                   out: list[ColumnDef]) -> None:
    """A UNION's string columns are as long as their longest branch (MariaDB aggregates every
    branch), nullable when a branch is; a NOT NULL one gets DEFAULT ''. Columns of other
    types keep the first branch's type."""
    branches = [_items(b) for b in selects[1:]]
    if any(len(b) != len(out) for b in branches):
        return
    for k, col in enumerate(out):
        types: list[SqlType | None] = [col.type]
        nullable = col.nullable
        for b, items in zip(selects[1:], branches):
            item = items[k]
            if item is None:
                return
            t = _value_typer(s, query, b).infer(item)
            nullable = nullable or not _not_null(item, s, query) or t is not None and \
                t.name == "null"
            if t is None or t.name != "null":
                types.append(t)
        if nullable and col.default is None and col.nullable is False:
            col.nullable = True
        if not any(t is not None and t.is_string for t in types):
            continue  # numbers, dates: the first branch's type (unionout.py's rules)
        parts = [strlen.as_string(t) for t in types]
        if any(p is None for p in parts):
            continue
        chars = max(p[0] for p in parts if p is not None)
        texts = [t for t in types if t is not None and t.is_text]
        if any(t is not None and t.is_binary_string for t in types):
            merged = T.varbinary(chars)
        elif texts:
            merged = T.varchar(chars, texts[0].charset or "utf8mb4", texts[0].collation)
        else:
            continue
        col.type = _blob_if_long(merged)
        col.nullable = nullable
        col.default = None if nullable else Default("value", "", "''")


_BLOBS = ((65535, "text", "blob"), (16777215, "mediumtext", "mediumblob"),
          (None, "longtext", "longblob"))


def _blob_if_long(t: SqlType) -> SqlType:
    """A VARCHAR / VARBINARY result of more than 512 characters becomes the TEXT / BLOB type
    its bytes need, as MariaDB makes the column (CONVERT_IF_BIGGER_TO_BLOB)."""
    if t.name not in ("varchar", "varbinary") or (t.width or 0) <= 512:
        return t
    binary = t.name == "varbinary"
    cs = charsets.charset(t.charset or "utf8mb4") if not binary else None
    size = (t.width or 0) * (cs.maxlen if cs is not None else 1)
    name = next(b if binary else x for top, x, b in _BLOBS if top is None or size <= top)
    return dataclasses.replace(t, name=name, width=None)


def _column(s: SqliteSession, query: Statement, o: Output, name: str,
            item: exp.Expression | None, typed: SqlType | None = None) -> ColumnDef:
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
    if typed is not None and (typed.is_string and typed.max_chars is not None or
                              t is not None and typed.name == t.name and typed.is_temporal):
        t = _blob_if_long(typed)  # a string's length or a time's digits the values tell
    elif o.literal_slot is not None and o.literal_slot < len(query.slots):
        slot = query.names[o.literal_slot]
        charset = slot_charset(slot)
        if charset is None and slot[:1] == "s":  # a plain string: the connection's
            charset = charsets.collation(s.context.translation[0]).charset \
                if charsets.collation(s.context.translation[0]) else None
        t = literal_type(query.slots[o.literal_slot], text=slot[:1] in ("s", "c"),
                         charset=charset)
        if slot[:1] == "s" and t.is_text:  # a literal is in collation_connection
            coll = charsets.collation(s.context.translation[0])
            if coll is not None:
                t = replace(t, charset=coll.charset, collation=coll.name)
    if t is None or t.name == "null":
        t = SqlType("binary", 0, charset="binary") if t is not None else T.varchar(255)
    width = _constant_width(item, query)
    if width is not None and t.name in ("varchar", "varbinary"):
        t = replace(t, width=width)
    if t.name == "varchar" and t.width == 0:  # a string that is always NULL: CHAR(0)
        t = replace(t, name="char")
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
    """Would MariaDB make this result column NOT NULL (nullness.py, and here a typed literal)?"""
    if isinstance(e, exp.Paren):
        return _not_null(e.this, s, query)
    if isinstance(e, exp.Cast) and isinstance(e.this, exp.Literal) and e.this.is_string:
        # DATE'..', TIME'..', TIMESTAMP'..': a literal (queryforms.py); a zero month or day
        # makes it nullable, whatever sql_mode says (MariaDB)
        from rampmeter.engine.sqlite import temporal
        m = temporal.read_datetime(e.this.name) if e.to.this != exp.DataType.Type.TIME \
            else None
        return m is None or not m.has_zero_part

    def column(c: exp.Column) -> bool:
        col = _table_column(c, s, query)
        return col is not None and not col.nullable

    return nullness.never_null(e, column)


def _table_column(e: exp.Column, s: SqliteSession, query: Statement) -> ColumnDef | None:
    select = e.find_ancestor(exp.Select)
    if select is None:
        return None
    return _find_column(select, s, e.table or None, e.name)


def _find_column(select: exp.Select, s: SqliteSession, table: str | None,
                 name: str) -> ColumnDef | None:
    for t in select.find_all(exp.Table):
        if table and table.lower() not in (t.name.lower(), t.alias.lower()):
            continue
        db = t.db or s.database
        tdef = s.table_def(db, t.name) if db else None
        col = tdef.column(name) if tdef is not None else None
        if col is not None:
            if not col.nullable and _outer_side(select, t):
                return replace(col, nullable=True)  # NULL where no row joins
            return col
    return None


def _outer_side(select: exp.Select, t: exp.Table) -> bool:
    """Is the table on the side of an outer join that gives NULLs (LEFT JOIN's right, RIGHT
    JOIN's left)?"""
    joins = select.args.get("joins") or []
    for j in joins:
        side = str(j.args.get("side") or "").upper()
        inside = j.this is t or t in j.this.find_all(exp.Table)
        if side in ("LEFT", "FULL") and inside:
            return True
        if side in ("RIGHT", "FULL") and not inside:
            return True
    return False
