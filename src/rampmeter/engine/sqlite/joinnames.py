"""NATURAL JOIN and JOIN ... USING: a joined column the left operand (or the right) has twice is
MariaDB's 1052 "Column 'c' in FROM is ambiguous" (SQLite silently takes the leftmost).

Rules (MariaDB 10.11's, checked against it; mtr sp-bugs MDEV-24935):
- Joins associate to the left, and a comma binds looser than JOIN: in `a JOIN b NATURAL JOIN
  c` the left operand is a JOIN b, in `a, b NATURAL JOIN c` it is b alone. (sqlglot reads a
  comma and a JOIN without ON alike, but only the JOIN's node carries the `pivots` argument.)
- NATURAL joins on every name both operands have, USING on the names it lists; a joined name
  that one operand holds more than once is 1052. A USING name an operand lacks is left to
  SQLite (1054 in 'FROM'). The operands' columns are their tables' columns; a joined column
  counts once in the result, for the joins that follow.
- Only chains of named tables are checked: a derived table, a view expanded to its query or a
  parenthesised join ends the check of its chain.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp

from rampmeter import errors
from rampmeter.errors import ServerError

ColumnNames = Callable[[str], "list[str] | None"]


def check(tree: exp.Expression, column_names: ColumnNames) -> None:
    """1052 for the first ambiguous joined column of `tree` (module rules)."""
    for node in tree.find_all(exp.Select, exp.Table):
        joins = node.args.get("joins")
        if not joins or not any(j.args.get("method") == "NATURAL" or j.args.get("using")
                                for j in joins):
            continue
        if isinstance(node, exp.Select):
            source = node.args.get("from_")
            first = source.this if source is not None else None
        else:
            first = node
        _chain(first, joins, column_names)


def _columns(item: exp.Expression | None, column_names: ColumnNames, *,
             head: bool = False) -> list[str] | None:
    """A named table's columns; None for anything else (a join in parentheses is a Table
    carrying joins, except at the head of its own chain)."""
    if not isinstance(item, exp.Table) or item.args.get("joins") and not head:
        return None
    return column_names(item.alias_or_name)


def _chain(first: exp.Expression | None, joins: list[exp.Join],
           column_names: ColumnNames) -> None:
    left = _columns(first, column_names, head=True)
    for join in joins:
        right = _columns(join.this, column_names)
        if "pivots" not in join.args:  # a comma: a new chain starts with this item
            left = right
            continue
        if left is None or right is None:
            left = None
            continue
        using = join.args.get("using") or []
        if join.args.get("method") == "NATURAL":
            rnames = {n.lower() for n in right}
            joined = [n for n in dict.fromkeys(left) if n.lower() in rnames]
        elif using:
            joined = [u.name for u in using]
        else:
            left = left + right
            continue
        lower_left = [n.lower() for n in left]
        lower_right = [n.lower() for n in right]
        for name in joined:
            if name.lower() not in lower_left or name.lower() not in lower_right:
                return  # USING a name an operand lacks: SQLite's 1054, which comes first
            if lower_left.count(name.lower()) > 1 or lower_right.count(name.lower()) > 1:
                shown = next((n for n in left if n.lower() == name.lower()), name)
                raise ServerError(errors.ER_NON_UNIQ_ERROR, shown, "FROM")
        merged = {n.lower() for n in joined}
        left = left + [n for n in right if n.lower() not in merged]
