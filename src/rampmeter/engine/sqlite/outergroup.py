"""GROUP BY an outer column in a subquery: `(SELECT max(b) FROM t2 GROUP BY t1.a)`.

Rules:
- MariaDB resolves a subquery's GROUP BY names in the enclosing queries too; an outer column
  is one value for each evaluation of the subquery, so grouping by it puts every row of the
  subquery in one group (and no row: no group). SQLite resolves GROUP BY names only among
  the subquery's own tables (`no such column`), so a GROUP BY term that is only an outer
  column becomes NULL: the same one group, the same no group (mtr subquery_merge).
- A name is outer when the subquery's own sources (its FROM tables, and its select list's
  aliases) do not have it and a table of the statement outside them does. A source whose
  columns are unknown here (a derived table, a CTE) may have any name: nothing is changed
  then.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp

from rampmeter.engine.sqlite import derived

ColumnNames = Callable[[str], "list[str] | None"]


def rewrite(tree: exp.Expression, aliases: list[str], column_names: ColumnNames) -> None:
    """Replace the outer-column terms of nested selects' GROUP BY with NULL (module rules).
    `aliases`: every table alias of the statement; `column_names(alias)`: its columns."""
    for select in list(tree.find_all(exp.Select)):
        group = select.args.get("group")
        if not isinstance(group, exp.Group) or select is tree or not group.expressions:
            continue
        own = _own_aliases(select)
        if own is None:
            continue
        outer = [a for a in aliases if a not in own]
        if not outer and own:
            continue
        names = {str(e.alias).lower() for e in select.expressions if isinstance(e, exp.Alias)}
        for term in list(group.expressions):
            col = term
            while isinstance(col, exp.Paren):
                col = col.this
            if isinstance(col, exp.Column) and not isinstance(col.this, exp.Star) and \
                    _is_outer(col, own, outer, names, column_names):
                term.replace(exp.Null())


def _own_aliases(select: exp.Select) -> set[str] | None:
    own: set[str] = set()
    for src in derived.sources(select):
        if not isinstance(src, exp.Table) or not isinstance(src.this, exp.Identifier):
            return None  # a derived table, a table function: its columns are not known here
        own.add((src.alias or src.name).lower())
    return own


def _is_outer(col: exp.Column, own: set[str], outer: list[str], names: set[str],
              column_names: ColumnNames) -> bool:
    name = col.name.lower()
    if not own:  # no FROM: a name is the select list's or an outer one
        return name not in names
    if col.table:
        qualifier = col.table.lower()
        return qualifier not in own and qualifier in outer
    if name in names:
        return False
    for alias in own:
        columns = column_names(alias)
        if columns is None or name in (c.lower() for c in columns):
            return False  # its own (or perhaps: a CTE's columns are not known)
    return any(name in (c.lower() for c in column_names(alias) or ()) for alias in outer)
