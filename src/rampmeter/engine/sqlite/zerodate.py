"""`date_col IS NULL` of a NOT NULL DATE / DATETIME column finds its zero dates, as MariaDB's.

Rules (MariaDB's remove_eq_conds, kept for ODBC):
- In a WHERE condition, at its top or under AND / OR only, `col IS NULL` where `col` is a
  DATE or DATETIME column declared NOT NULL is `col IS NULL OR col = <zero date>`: the rows
  holding '0000-00-00' answer it (and an outer join's missing rows still do). Anywhere else
  (the select list, under NOT) it is the plain test, as in MariaDB.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlglot import exp

Find = Callable[[str | None, str], Any]


def rewrite(tree: exp.Expression, find: Find) -> None:
    for where in list(tree.find_all(exp.Where)):
        _walk(where.this, find)


def _walk(node: exp.Expression | None, find: Find) -> None:
    if isinstance(node, (exp.And, exp.Or)):
        _walk(node.this, find)
        _walk(node.expression, find)
    elif isinstance(node, exp.Paren):
        _walk(node.this, find)
    elif isinstance(node, exp.Is) and isinstance(node.expression, exp.Null) and \
            isinstance(node.this, exp.Column):
        zero = _zero(node.this, find)
        if zero is not None:
            node.replace(exp.Paren(this=exp.Or(this=node.copy(), expression=exp.EQ(
                this=node.this.copy(), expression=exp.Literal.string(zero)))))


def _zero(column: exp.Column, find: Find) -> str | None:
    found = find(column.table or None, column.name)
    if found is None:
        return None
    col = found[1]
    t = col.type
    if col.nullable or t.name not in ("date", "datetime"):
        return None
    if t.name == "date":
        return "0000-00-00"
    fsp = t.fsp or 0
    return "0000-00-00 00:00:00" + ("." + "0" * fsp if fsp else "")
