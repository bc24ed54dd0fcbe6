"""NATURAL JOIN and JOIN ... USING with a column the left side has twice: MariaDB's 1052
"Column 'c' in FROM is ambiguous" (SQLite picks one of them silently).

Rules (MariaDB's store_natural_using_join_columns):
- Joins are read left to right. The left side of a NATURAL / USING join is every table joined
  before it; a column the left side has in two tables (not already merged into one by an
  earlier NATURAL / USING join) that the join would match on is ambiguous.
- A NATURAL join matches the columns both sides have, USING (c, ...) the ones it names.
- Only base tables and views whose columns are known are checked; a derived table or a table
  function in the chain leaves it to SQLite.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp

from rampmeter import errors
from rampmeter.errors import ServerError

Columns = Callable[[str], "list[str] | None"]


def check(tree: exp.Expression, columns: Columns) -> None:
    for node in tree.find_all(exp.Select, exp.Delete, exp.Update):
        if isinstance(node, exp.Select):
            source = node.args.get("from_")
            first = source.this if source is not None else None
            joins = node.args.get("joins") or []
        else:
            first = node.this
            joins = first.args.get("joins") or [] if isinstance(first, exp.Table) else []
        if first is not None and any(_matching(j) for j in joins):
            _check_chain(first, joins, columns)


def _matching(join: exp.Join) -> bool:
    return join.args.get("method") == "NATURAL" or bool(join.args.get("using"))


def _names(item: exp.Expression, columns: Columns) -> list[str] | None:
    if not isinstance(item, exp.Table):
        return None
    found = columns(item.alias_or_name)
    return [n.lower() for n in found] if found is not None else None


def _check_chain(first: exp.Expression, joins: list[exp.Join], columns: Columns) -> None:
    names = _names(first, columns)
    if names is None:
        return
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    for join in joins:
        right = _names(join.this, columns)
        if right is None:
            return
        if join.args.get("method") == "NATURAL":
            matched = [n for n in dict.fromkeys(right) if n in counts]
        elif join.args.get("using"):
            matched = [(u.name if isinstance(u, exp.Expression) else str(u)).lower()
                       for u in join.args["using"]]
        else:
            matched = []
        for n in matched:
            if counts.get(n, 0) > 1:
                raise ServerError(errors.ER_NON_UNIQ_ERROR, n, "FROM")
        for n in right:
            if n in matched:
                counts[n] = 1  # merged into one column
            else:
                counts[n] = counts.get(n, 0) + 1
