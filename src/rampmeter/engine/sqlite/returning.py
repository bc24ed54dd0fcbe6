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


def source_references(tree: exp.Insert, names: list[str], tables: Any) -> None:
    """INSERT / REPLACE ... SELECT ... RETURNING (SELECT ... x ...): MariaDB resolves a
    column that the subquery's own tables and the written table lack in the SELECT's tables,
    as the source row's value. SQLite's RETURNING sees only the written table, so such a
    column becomes the written column the SELECT item of that name fills; a subquery reading
    the written table itself reads it under an alias of its own (its columns would hide the
    written row's)."""
    returning, source = tree.args.get("returning"), tree.expression
    target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
    if not isinstance(returning, exp.Returning) or not isinstance(source, exp.Select) or \
            not isinstance(target, exp.Table):
        return
    entry = tables.by_alias.get((target.alias or target.name).lower())
    tdef = entry[2] if entry is not None else None
    if tdef is None:
        return
    filled: dict[str, tuple[str, str]] = {}  # source column -> (its table, written column)
    for (table, column), name in zip(_source_items(source, tables), names):
        if column is not None:
            filled.setdefault(column.lower(), (table, name))
    if not filled:
        return
    read = {t.alias_or_name.lower() for t in source.find_all(exp.Table)}
    found: list[tuple[exp.Column, str, list[exp.Select]]] = []
    for col in list(returning.find_all(exp.Column)):
        if isinstance(col.this, exp.Star):
            continue
        scopes = _enclosing_selects(col, returning)
        hit = filled.get(col.name.lower())
        if not scopes or hit is None or _resolves_inside(col, scopes, tables, target):
            continue
        if col.table and (col.table.lower() not in read or col.table.lower() != hit[0]):
            continue
        if not col.table and tdef.column(col.name) is not None:
            continue  # the written row's own column
        found.append((col, hit[1], scopes))
    written = target.name.lower()
    aliased: set[int] = set()
    for _col, _name, scopes in found:
        for n, sel in enumerate(scopes):
            if id(sel) not in aliased:
                aliased.add(id(sel))
                _alias_written(sel, written, f"rm_ret{len(aliased)}_{n}")
    for col, name, _scopes in found:
        col.replace(exp.column(name, table=target.name, quoted=True))


def _source_items(source: exp.Select, tables: Any) -> list[tuple[str, str | None]]:
    """The SELECT's items as (table, column) with `*` and `t.*` spelled out; None for an
    item that is no column."""
    items: list[tuple[str, str | None]] = []
    for item in source.expressions:
        star = isinstance(item, exp.Star) or isinstance(item, exp.Column) and \
            isinstance(item.this, exp.Star)
        if star:
            aliases = [item.table] if isinstance(item, exp.Column) and item.table else \
                [t.alias_or_name for t in _from_tables(source)]
            items.extend((alias.lower(), column) for alias in aliases
                         for column in tables.visible_names(alias) or [])
        elif isinstance(item, exp.Column):
            items.append((item.table.lower(), item.name))
        else:
            items.append(("", None))
    return items


def _enclosing_selects(node: exp.Expression, stop: exp.Expression) -> list[exp.Select]:
    scopes: list[exp.Select] = []
    parent = node.parent
    while parent is not None and parent is not stop:
        if isinstance(parent, exp.Select):
            scopes.append(parent)
        parent = parent.parent
    return scopes


def _from_tables(sel: exp.Select) -> list[exp.Table]:
    """The tables a SELECT's own FROM and JOINs name (not those of its subqueries)."""
    parts = [sel.args.get("from_"), *(sel.args.get("joins") or [])]
    return [p.this for p in parts if p is not None and isinstance(p.this, exp.Table)]


def _resolves_inside(col: exp.Column, scopes: list[exp.Select], tables: Any,
                     target: exp.Table) -> bool:
    """Does `col` name a column of a table one of its enclosing subqueries reads?"""
    for sel in scopes:
        for t in _from_tables(sel):
            if col.table:
                if col.table.lower() == t.alias_or_name.lower():
                    return True
                continue
            tdef = tables.lookup(t.db or target.db, t.name) if t.name else None
            if tdef is not None and tdef.column(col.name) is not None:
                return True
    return False


def _alias_written(sel: exp.Select, written: str, alias: str) -> None:
    """A subquery reading the written table unaliased reads it as `alias`, its columns
    qualified by the table's name too."""
    hits = [t for t in _from_tables(sel) if t.name.lower() == written and not t.alias]
    if not hits:
        return
    for t in hits:
        t.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
    for col in sel.find_all(exp.Column):
        if col.table.lower() == written and _enclosing_selects(col, sel.parent)[0] is sel:
            col.set("table", exp.to_identifier(alias))
