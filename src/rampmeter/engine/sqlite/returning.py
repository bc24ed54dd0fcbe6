"""What an INSERT / REPLACE / DELETE ... RETURNING and an INSERT DELAYED need beyond the
plan translate makes (translate calls these with its table map).

Rules:
- RETURNING's `*` and `t.*` are the written table's columns (not those of the tables an
  INSERT ... SELECT reads); SQLite takes only a bare `*`, so `t.*` is listed out.
- MariaDB refuses in RETURNING a column the written table lacks (1054 in 'RETURNING') and a
  value subquery reading the table an INSERT / REPLACE ... VALUES writes (1093); a subquery
  that is a row (1241) is left to the later check, which MariaDB makes first.
- INSERT DELAYED into an engine that has delayed inserts (MyISAM, MEMORY, ARCHIVE) skips
  duplicate rows and tells the client nothing, as MariaDB's delayed-insert thread does; into
  any other engine it is 1616.
"""

from __future__ import annotations

from typing import Any

from sqlglot import exp

from rampmeter import errors
from rampmeter.errors import ServerError

_DELAYED_ENGINES = frozenset({"MYISAM", "MEMORY", "HEAP", "ARCHIVE"})


def delayed(tree: exp.Insert, tables: Any, plan: Any) -> None:
    """INSERT DELAYED: into an engine that has delayed inserts, MariaDB's delayed-insert
    thread skips duplicate rows and the client hears nothing of them; any other engine is
    1616, as MariaDB answers."""
    target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
    entry = tables.by_alias.get((target.alias or target.name).lower()) \
        if isinstance(target, exp.Table) else None
    if entry is None or entry[2] is None:
        return
    if (entry[2].engine or "").upper() not in _DELAYED_ENGINES:
        raise ServerError(1616, message="DELAYED option not supported for table "
                          f"'{entry[2].name}'", sqlstate="HY000")
    tree.set("ignore", True)
    plan.ignore = plan.quiet_duplicates = True


def written_table(tree: exp.Expression, tables: Any) -> Any:
    """RETURNING's `*` is the written table's columns, not those of the tables an INSERT ...
    SELECT reads."""
    target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
    if not isinstance(target, exp.Table):
        return tables
    alias = (target.alias or target.name).lower()
    if alias not in tables.by_alias or len(tables.by_alias) == 1:
        return tables
    only = type(tables)(tables.lookup)
    only.by_alias = {alias: tables.by_alias[alias]}
    return only


def check_returning(tree: exp.Expression, returning: exp.Returning, written: Any,
                    database: str | None = None) -> None:
    """What MariaDB refuses in RETURNING: a column the written table lacks (1054 in
    'RETURNING'), `t.*` of a table other than the written one (1051, as MariaDB: it is the
    only table RETURNING sees), and a subquery reading the written table (1093)."""
    target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
    if not isinstance(target, exp.Table) or len(written.by_alias) != 1:
        return
    (alias, (_db, name, tdef)), = written.by_alias.items()
    for e in returning.expressions:
        if isinstance(e, exp.Column) and isinstance(e.this, exp.Star) and e.table and \
                e.table.lower() != alias:
            raise ServerError(errors.ER_BAD_TABLE_ERROR,
                              f"{e.db or database or _db}.{e.table}")
        reads = isinstance(tree, exp.Insert) and \
            isinstance(tree.expression, (exp.Select, exp.Union, exp.Subquery))
        for sub in [] if reads else e.find_all(exp.Select):  # INSERT ... SELECT may read it
            if len(sub.expressions) != 1 or sub.find(exp.Star) is not None:
                continue  # a row, not a value: 1241 comes first (checked later)
            if any(t.name.lower() == name.lower() for t in sub.find_all(exp.Table)):
                verb = "INSERT" if isinstance(tree, exp.Insert) else tree.key.upper()
                raise ServerError(1093, message=f"Table '{target.name}' is specified twice, "
                                  f"both as a target for '{verb}' and as a separate source "
                                  "for data", sqlstate="HY000")
        if tdef is None:
            continue
        for col in e.find_all(exp.Column):
            if isinstance(col.this, exp.Star) or col.find_ancestor(exp.Select) is not None:
                continue
            if (not col.table or col.table.lower() == alias) and tdef.column(col.name) is None:
                shown = f"{col.table}.{col.name}" if col.table else col.name
                raise ServerError(errors.ER_BAD_FIELD_ERROR, shown, "RETURNING")


def expand_table_stars(returning: exp.Returning, tables: Any) -> None:
    """RETURNING t.*: SQLite takes only a bare `*` there, so the table's columns are listed."""
    items: list[exp.Expression] = []
    for e in returning.expressions:
        names = tables.column_names(e.table) if isinstance(e, exp.Column) and \
            isinstance(e.this, exp.Star) and e.table else None
        if names is None:
            items.append(e)
        else:
            items.extend(exp.column(name, quoted=True) for name in names)
    returning.set("expressions", items)
