"""The result columns of a UNION / EXCEPT / INTERSECT: each column's type aggregated over every
branch, as MariaDB aggregates them (not the first branch's alone), and described as MariaDB
describes a set operation's columns: named by the first branch, with no table or database
(its rows come from a temporary table).

Rules:
- Types merge by infer.merge, with MariaDB's rules for integers first: the widest integer
  type of them, and for integers of mixed signedness a DECIMAL of the widest one's digits
  (TINYINT with TINYINT UNSIGNED is DECIMAL(3,0), shown 4 wide with its sign).
- When a branch cannot be described (a `*` over what we cannot see, a bare literal typed at
  execution, a different width), the first branch's columns are kept as they were.
- Run once per statement shape, when it is translated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sqlglot import exp

from rampmeter.engine import types as T
from rampmeter.engine import values
from rampmeter.engine.sqlite.infer import is_unsigned_integer, merge
from rampmeter.engine.types import SqlType


def branches(tree: exp.Expression) -> list[exp.Select] | None:
    """The SELECTs of a set operation, left to right; None when one is something else."""
    if isinstance(tree, exp.Subquery):
        return branches(tree.this)
    if isinstance(tree, exp.Select):
        return [tree]
    if isinstance(tree, exp.SetOperation):
        left, right = branches(tree.left), branches(tree.right)
        return left + right if left is not None and right is not None else None
    return None


def outputs(tree: exp.Expression, first: list[Any] | None,
            branch_outputs: Callable[[exp.Select], list[Any] | None]) -> list[Any] | None:
    if first is None or not isinstance(tree, exp.SetOperation):
        return first
    selects = branches(tree)
    if selects is None or len(selects) < 2:
        return first
    described = [first] + [branch_outputs(s) for s in selects[1:]]
    if any(d is None or len(d) != len(first) for d in described):
        return first
    out = []
    for i, o in enumerate(first):
        column = [d[i] for d in described]  # type: ignore[index]
        if any(c.literal_slot is not None or c.parts is not None for c in column) and all(
                c.literal_slot is not None or c.parts is not None or c.sql_type is not None
                for c in column):
            # `SELECT 1 UNION SELECT 2.5`, `... UNION VALUES (..)`: typed when the literals
            # are known (dml.py)
            parts: list[Any] = []
            for c in column:
                parts.extend(c.parts if c.parts is not None else
                             [(c.literal_slot, None if c.literal_slot is not None
                               else c.sql_type)])
            out.append(replace(o, literal_slot=None, sql_type=None, load=None, parts=parts))
            continue
        if any(c.literal_slot is not None or c.sql_type is None for c in column):
            return first
        t = _aggregate([c.sql_type for c in column])
        if t is None:
            return first
        name = o.name
        out.append(replace(o, sql_type=t, table="", org_table="", schema="", flags=0,
                           org_name=o.org_name or (name if isinstance(name, str) else ""),
                           load=values.load_expression(t), view=False))
    return out


_INT_ORDER = ("tinyint", "smallint", "mediumint", "int", "bigint")


def aggregate(types: list[SqlType]) -> SqlType | None:
    """The type MariaDB gives a set operation's column of these branch types."""
    return _aggregate(types)


def _aggregate(types: list[SqlType]) -> SqlType | None:
    ints = [t for t in types if t.is_integer and t.name in _INT_ORDER]
    if len(ints) == len(types):
        width = max(t.width or 20 for t in ints)
        if len({is_unsigned_integer(t) for t in ints}) == 2:
            return T.decimal(width, 0)
        widest = max(ints, key=lambda t: _INT_ORDER.index(t.name))
        return replace(widest, width=width)  # the widest integer type holds them all
    return merge(list(types))
