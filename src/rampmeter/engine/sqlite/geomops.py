"""A geometry where an operator compares or computes with a number or a temporal value:
MariaDB's 4078 "Illegal parameter data types int and geometry for operation '='".

Rules (MariaDB 10.11, measured):
- The comparisons (= <> < <= > >= <=>), IN, BETWEEN and the arithmetic operators (+ - * /
  DIV MOD) refuse a geometry (any of its subtypes) beside a number (integers, DECIMAL, FLOAT,
  DOUBLE, BIT, YEAR, TRUE / FALSE: boolean) or a DATE / TIME / DATETIME / TIMESTAMP; a string,
  a binary string, NULL or another geometry is fine. The message names the two operands'
  type handlers in order (`int`, `bigint`, `int unsigned`, `decimal`, `double`, `datetime`,
  `point`, `geometry`...): IN and BETWEEN name the first value and the first one refused.
- NATURAL JOIN and JOIN ... USING compare their joined columns with `=`: an int column joined
  with a geometry one is the same error (the left operand's type first).
- Checked only when the statement can hold a geometry: a table of it has a geometry column,
  or its text calls a geometry constructor (`has_geometry`), so other statements pay nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from sqlglot import exp

from rampmeter.engine.types import GEOMETRIES, SqlType
from rampmeter.errors import ServerError

_OPERATORS = {exp.EQ: "=", exp.NEQ: "<>", exp.GT: ">", exp.GTE: ">=", exp.LT: "<",
              exp.LTE: "<=", exp.NullSafeEQ: "<=>", exp.Add: "+", exp.Sub: "-", exp.Mul: "*",
              exp.Div: "/", exp.IntDiv: "DIV", exp.Mod: "MOD"}
_CONSTRUCTORS = re.compile(r"(?i)\b(?:ST_\w+|POINT|LINESTRING|POLYGON|MULTIPOINT|"
                           r"MULTILINESTRING|MULTIPOLYGON|GEOMETRYCOLLECTION|GEOM\w*|"
                           r"\w+FROMTEXT|\w+FROMWKB)\s*\(")
_REFUSED_WITH = frozenset({"tinyint", "smallint", "mediumint", "int", "bigint", "decimal",
                           "float", "double", "bit", "year", "date", "time", "datetime",
                           "timestamp", "boolean"})


def has_geometry(shape: str, tables: Any) -> bool:
    if _CONSTRUCTORS.search(shape):
        return True
    return any(tdef is not None and any(c.type.name in GEOMETRIES for c in tdef.columns)
               for _db, _t, tdef in tables.by_alias.values())


def check(tree: exp.Expression, name: Callable[[exp.Expression], str],
          tables: Any) -> None:
    """4078 for the first geometry an operator refuses (module rules); `name` gives an
    operand's type handler name."""
    for node in tree.walk():
        op = _OPERATORS.get(type(node))
        if op is not None and isinstance(node, exp.Binary):
            if isinstance(node, exp.EQ) and isinstance(node.parent, (exp.Update,
                                                                      exp.OnConflict)):
                continue  # SET col = value: an assignment (4078 "Cannot cast" elsewhere)
            _pair(op, [node.this, node.expression], name)
        elif isinstance(node, exp.In) and node.expressions:
            _pair("in", [node.this, *node.expressions], name)
        elif isinstance(node, exp.Between):
            _pair("between", [node.this, node.args.get("low"), node.args.get("high")], name)
    _joins(tree, tables)


def _pair(op: str, operands: list[Any], name: Callable[[exp.Expression], str]) -> None:
    names = [name(x) if x is not None else "null" for x in operands]
    first = names[0]
    for other in names[1:]:
        if _refused(first, other):
            raise _error(first, other, op)


def _refused(a: str, b: str) -> bool:
    kinds = (a.split()[0], b.split()[0])
    return (kinds[0] in GEOMETRIES and kinds[1] in _REFUSED_WITH) or \
        (kinds[1] in GEOMETRIES and kinds[0] in _REFUSED_WITH)


def _error(a: str, b: str, op: str) -> ServerError:
    return ServerError(4078, message=f"Illegal parameter data types {a} and {b} for "
                       f"operation '{op}'", sqlstate="HY000")


def type_name(t: SqlType | None) -> str:
    """MariaDB's type handler name of a column type."""
    if t is None:
        return "varchar"
    if t.unsigned and t.is_integer:
        return f"{t.name} unsigned"
    return t.name


def _joins(tree: exp.Expression, tables: Any) -> None:
    """NATURAL / USING joins of named tables: the joined columns' types (module rules)."""
    for select in tree.find_all(exp.Select):
        source = select.args.get("from_")
        joins = select.args.get("joins") or []
        if source is None or not any(j.args.get("method") == "NATURAL" or j.args.get("using")
                                     for j in joins):
            continue
        left = _typed(source.this, tables)
        for join in joins:
            right = _typed(join.this, tables)
            if left is None or right is None:
                left = None
                continue
            names = [u.name.lower() for u in join.args.get("using") or []] \
                if join.args.get("using") else \
                [n for n in left if n in right] if join.args.get("method") == "NATURAL" \
                else []
            for n in names:
                if n in left and n in right:
                    a, b = type_name(left[n]), type_name(right[n])
                    if _refused(a, b):
                        raise _error(a, b, "=")
            left = {**right, **left}


def _typed(item: Any, tables: Any) -> dict[str, SqlType] | None:
    if not isinstance(item, exp.Table) or item.args.get("joins"):
        return None
    entry = tables.by_alias.get(item.alias_or_name.lower())
    if entry is None or entry[2] is None:
        return None
    return {c.name.lower(): c.type for c in entry[2].columns}
