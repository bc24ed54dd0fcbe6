"""Rows compared with rows of another shape: MariaDB's 1241 "Operand should contain N
column(s)", with MariaDB's N.

Rules:
- A comparison (=, <>, <, <=>, ...) or IN between rows needs both sides of the same shape,
  element by element (a row inside a row included). MariaDB checks the right side against
  the left one and names the left side's width where they first differ:
  ROW(1, 2, 3) = ROW(1, 2, 3, 4) wants 3, ROW(1, ROW(2, 3)) IN (ROW(1, 4)) wants 2 (the
  inner row), ROW(2, 1) IN (ROW(ROW(1, 1), 0)) wants 1. A subquery is a row of scalars as
  wide as its select list. A scalar compared with a row (1 = (SELECT 1, 2)) is MariaDB's
  4078, left to the rest of translation.
- SQLite says "row value misused" or "sub-select returns n columns - expected m" with
  other numbers, or answers IN lists with rows inside rows wrongly: so the check runs on the
  tree before SQLite sees it. A shape that cannot be told here (`SELECT *`) is not checked.
"""

from __future__ import annotations

from typing import Any

from sqlglot import exp

from rampmeter import errors
from rampmeter.errors import ServerError

_COMPARISONS = (exp.EQ, exp.NEQ, exp.LT, exp.LTE, exp.GT, exp.GTE, exp.NullSafeEQ)


def check(tree: exp.Expression) -> None:
    for node in tree.find_all(*_COMPARISONS, exp.In):
        left = node.this
        if isinstance(node, exp.In):
            query = node.args.get("query")
            rights = [query] if query is not None else list(node.expressions)
        else:
            rights = [node.expression]
        if not _has_row(left) and not any(_has_row(r) for r in rights):
            continue
        ls = _shape(left)
        for right in rights:
            rs = _shape(right)
            if not isinstance(node, exp.In) and (isinstance(ls, list) != isinstance(rs, list)):
                continue  # a scalar compared with a row: 4078 names their types (not here)
            _same(ls, rs)


def _has_row(e: Any) -> bool:
    while isinstance(e, exp.Paren):
        e = e.this
    return isinstance(e, exp.Tuple) or isinstance(e, exp.Subquery) and \
        _width(e.this) not in (None, 1)


def _shape(e: Any) -> Any:
    """1 for a scalar, a list of shapes for a row, None when not known."""
    while isinstance(e, exp.Paren):
        e = e.this
    if isinstance(e, exp.Tuple):
        return [_shape(x) for x in e.expressions]
    if isinstance(e, exp.Subquery):
        width = _width(e.this)
        if width is None:
            return None
        return 1 if width == 1 else [1] * width
    if isinstance(e, (exp.Select, exp.SetOperation)):
        width = _width(e)
        if width is None:
            return None
        return 1 if width == 1 else [1] * width
    return 1


def _width(query: Any) -> int | None:
    while isinstance(query, (exp.Subquery, exp.SetOperation)):
        query = query.this
    if not isinstance(query, exp.Select):
        return None
    if any(isinstance(x, exp.Star) or isinstance(x, exp.Column) and isinstance(x.this, exp.Star)
           for x in query.expressions):
        return None
    return len(query.expressions)


def _cols(shape: Any) -> int:
    return len(shape) if isinstance(shape, list) else 1


def _same(left: Any, right: Any) -> None:
    if left is None or right is None:
        return
    if _cols(left) != _cols(right):
        raise ServerError(errors.ER_OPERAND_COLUMNS, _cols(left))
    if isinstance(left, list) and isinstance(right, list):
        for a, b in zip(left, right):
            _same(a, b)
