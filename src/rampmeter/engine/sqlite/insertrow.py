"""A column named inside INSERT ... VALUES: MariaDB reads the row being inserted.

Rules:
- `INSERT INTO t (a, b) VALUES (1, a + 1)`: a name is the value given to that column earlier
  in the same row, else the column's default (its implicit one when it has none: reading is
  no error, as it is in MariaDB). A name inside a subquery that has a FROM is left to that
  subquery. DEFAULT is not a name.
- Only values that are not plain literals are looked at, so a batch of literal rows pays
  nothing.
- UPDATE t SET a = a + 1, b = a: MariaDB's single-table UPDATE assigns left to right, so a
  name of a column SET earlier in the statement is its new value (updated_columns).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlglot import exp

from rampmeter.engine.sqlite import dialect
from rampmeter.engine.sqlite.catalog import ColumnDef, TableDef, implicit_default


def _is_default_word(node: exp.Expression) -> bool:
    return isinstance(node, (exp.Var, exp.Column)) and node.name.upper() == "DEFAULT" and \
        not (isinstance(node, exp.Column) and node.table)


def row_columns(value: exp.Expression, tdef: TableDef, assigned: dict[str, exp.Expression],
                now_call: Callable[[ColumnDef], exp.Expression]) -> exp.Expression:
    """A column named in INSERT ... VALUES is that column of the row being inserted, as
    MariaDB reads it: the value given to it earlier in the row, else its default (the
    implicit one when it has none). Inside a subquery with a FROM the name is left to it."""
    for node in list(value.walk()):
        if not isinstance(node, exp.Column) or _is_default_word(node) or \
                node.table and node.table.lower() != tdef.name.lower():
            continue
        col = tdef.column(node.name)
        if col is None or any(isinstance(up, exp.Select) and up.args.get("from_")
                              for up in _ancestors(node, value)):
            continue
        now = assigned.get(col.name.lower())
        new = now.copy() if now is not None else _current_value(col, now_call)
        if node is value:
            return new
        node.replace(new)
    return value


def updated_columns(value: exp.Expression, names: set[str],
                    assigned: dict[str, exp.Expression]) -> exp.Expression:
    """Module rules: in an UPDATE's SET, a column assigned earlier (`assigned`, by lower-case
    name) is the value given to it; `names`: what the table is called in the statement (none:
    nothing is read from `assigned`)."""
    if not assigned or not names:
        return value
    for node in list(value.walk()):
        if not isinstance(node, exp.Column) or _is_default_word(node) or \
                node.table and node.table.lower() not in names:
            continue
        new = assigned.get(node.name.lower())
        if new is None or any(isinstance(up, exp.Select) and up.args.get("from_")
                              for up in _ancestors(node, value)):
            continue
        if node is value:
            return new.copy()
        node.replace(new.copy())
    return value


def _ancestors(node: exp.Expression, top: exp.Expression) -> list[exp.Expression]:
    found = []
    up = node.parent
    while up is not None and node is not top:
        found.append(up)
        if up is top:
            break
        up = up.parent
    return found


def _current_value(col: ColumnDef, now_call: Callable[[ColumnDef], exp.Expression]
                   ) -> exp.Expression:
    """A column's value in a row before anything is assigned to it (for reading only)."""
    d = col.default
    if d is None or col.auto_increment:
        return exp.null() if col.nullable or col.auto_increment else \
            _literal(implicit_default(col.type))
    if d.kind == "value":
        return _literal(d.value)
    if d.kind == "now":
        return now_call(col)
    return dialect.parse(d.value)


def _literal(value: Any) -> exp.Expression:
    if value is None:
        return exp.null()
    if isinstance(value, (int, float)):
        return exp.Literal.number(value)
    if isinstance(value, bytes):
        return exp.Literal.string(value.decode("utf-8", "surrogateescape"))
    return exp.Literal.string(str(value))
