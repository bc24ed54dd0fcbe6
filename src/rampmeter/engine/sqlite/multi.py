"""Multi-table UPDATE and DELETE: MariaDB's join forms, as SQLite statements over rowids.

Rules:
- `UPDATE a JOIN b ON .. SET a.x = .., b.y = .. WHERE ..` and `UPDATE a, b SET .. WHERE ..`:
  one SQLite UPDATE per table that is set, each `UPDATE t SET c = j.v FROM (SELECT t.rowid,
  <values> FROM <the join> WHERE <where>) AS j WHERE t.rowid = j.rowid`. The values are
  computed in the join, from the rows as they were; a row that joins several rows is updated
  once, with the values of the first of them (by rowid of the first other table: SQLite's
  bare-column rule for min(); MariaDB takes the first in its join order).
  Values are converted to the column's type as a single-table UPDATE converts them, and ON
  UPDATE CURRENT_TIMESTAMP columns not set are set.
- `DELETE a[.*][, b[.*]] FROM <join> WHERE ..` and `DELETE FROM a[, b] USING <join> WHERE ..`: the
  rowids of every target are collected first, in one pass over the join (into a temp table
  when there are several, so deleting from one table does not change what the join finds
  for the next), then deleted.
- Affected rows: rows matched / changed summed over the tables (UPDATE), rows deleted summed
  (DELETE), as MariaDB reports them. Tables are updated one after the other, not in one pass:
  an UPDATE that sets a column another target's join reads sees the new value (MariaDB's
  order differs there too); docs/sql.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import sqlglot
from sqlglot import exp

from rampmeter import errors
from rampmeter.engine.sqlite import updates
from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.catalog import ColumnDef, TableDef

_MODIFIERS = re.compile(r"^(UPDATE|DELETE)((?:\s+(?:LOW_PRIORITY|QUICK))*)\s+IGNORE\b",
                        re.IGNORECASE)


def strip_ignore(text: str) -> tuple[str, bool]:
    """UPDATE / DELETE [LOW_PRIORITY] [QUICK] IGNORE: the text without IGNORE (sqlglot reads
    none), and whether it was there. LOW_PRIORITY and QUICK change nothing here."""
    m = _MODIFIERS.match(text)
    if m is None:
        return text, False
    return m.group(1) + text[m.end():], True


def strip_target_stars(text: str) -> str:
    """DELETE t1.*, t2.* FROM ... and DELETE FROM t1.*, t2.* USING ... (MariaDB's spelling of
    the targets, sqlglot reads none): the text without the `.*` of the targets, which name
    the same tables."""
    if not text[:6].upper() == "DELETE" or ".*" not in text.replace(" ", ""):
        return text
    from rampmeter.engine.sqlite.modifiers import shape_tokens
    toks = shape_tokens(text)
    if toks is None:
        return text
    cuts = []
    leading = True  # DELETE [LOW_PRIORITY | QUICK | IGNORE] FROM a.*, b.* USING ...
    for i, t in enumerate(toks[1:], 1):
        if leading and t.upper in ("LOW_PRIORITY", "QUICK", "IGNORE", "FROM"):
            leading = t.upper != "FROM"
            continue
        leading = False
        if t.upper in ("FROM", "USING", "WHERE"):
            break
        if t.text == "." and i + 1 < len(toks) and toks[i + 1].text == "*":
            cuts.append((t.start, toks[i + 1].end))
    for start, end in reversed(cuts):
        text = text[:start] + text[end:]
    return text


# (tree, target (db, table) or None, whether its row count is the statement's)
Step = tuple[exp.Expression, "tuple[str, str] | None", bool]
Entry = tuple[str, str, "TableDef | None"]


def _nodes(source: exp.Table) -> dict[str, exp.Table]:
    """alias -> Table node of a join source (the first table and its joins)."""
    out = {source.alias_or_name.lower(): source}
    for j in source.args.get("joins") or []:
        if isinstance(j.this, exp.Table):
            out[j.this.alias_or_name.lower()] = j.this
    return out


def _select(source: exp.Table, items: list[exp.Expression],
            where: exp.Expression | None) -> exp.Select:
    first = source.copy()
    joins = first.args.get("joins") or []
    first.set("joins", None)
    select = exp.Select(expressions=items)
    select.set("from_", exp.From(this=first))
    if joins:
        select.set("joins", joins)
    if where is not None:
        select.set("where", exp.Where(this=where.copy()))
    return select


def _rowid(alias: str) -> exp.Column:
    return exp.column("rowid", table=exp.to_identifier(alias, quoted=True))


def _bare(node: exp.Table) -> exp.Table:
    t = node.copy()
    t.set("joins", None)
    return t


def plan_update(tree: exp.Update, by_alias: dict[str, Entry],
                values_for: Callable[[TableDef], Any],
                now_call: Callable[[ColumnDef], exp.Expression]) -> list[Step]:
    """The steps of a multi-table UPDATE ([] when it names one table)."""
    source = tree.this
    if not isinstance(source, exp.Table) or not source.args.get("joins"):
        return []
    nodes = _nodes(source)
    sets: dict[str, list[tuple[ColumnDef, exp.Expression]]] = {}
    using = {i.name.lower() for j in source.find_all(exp.Join)
             for i in j.args.get("using") or []}
    # the statement's own tables, in join order (not those inside a derived table)
    order = [t.alias_or_name.lower() for t in source.walk(
        bfs=False, prune=lambda n: isinstance(n, exp.Subquery)) if isinstance(t, exp.Table)]
    for eq in tree.expressions:
        alias, col = _set_column(eq.this, by_alias, using, order)
        sets.setdefault(alias, []).append((col, eq.expression))
    steps: list[Step] = []
    for alias, pairs in sets.items():
        if alias not in nodes:  # a view, read here as its query: no rows to UPDATE through
            raise ServerError(errors.ER_NOT_SUPPORTED_YET,
                              "a view as a target of a multi-table UPDATE")
        db, _name, tdef = by_alias[alias]
        assert tdef is not None
        conv = values_for(tdef)
        items: list[exp.Expression] = [exp.alias_(_rowid(alias), "rm_rowid", quoted=True)]
        assigns = []
        new_values = []
        for k, (col, value) in enumerate(pairs):
            node = conv.value(value.copy(), col, 1)
            items.append(exp.Alias(this=node, alias=exp.to_identifier(f"c{k}", quoted=True)))
            new = exp.column(f"c{k}", table="rm_j", quoted=True)
            assigns.append(exp.EQ(this=exp.column(col.name, quoted=True), expression=new))
            new_values.append((col.name, new))
        given = {c.name.lower() for c, _v in pairs}
        assigns += [exp.EQ(this=exp.column(c.name, quoted=True),
                           expression=updates.on_update(c, now_call(c), new_values))
                    for c in tdef.columns if c.on_update is not None and
                    c.name.lower() not in given]
        others = [a for a in nodes if a != alias]
        if others:  # a row joining several: the values of the first (SQLite's min() rule)
            items.append(exp.alias_(exp.Min(this=_rowid(others[0])), "rm_first",
                                    quoted=True))
        inner = _select(source, items, (tree.args.get("where") or exp.Where()).this)
        if others:
            inner.set("group", exp.Group(expressions=[_rowid(alias)]))
        update = exp.Update(this=_bare(nodes[alias]), expressions=assigns)
        update.set("from_", exp.From(this=exp.Subquery(
            this=inner, alias=exp.TableAlias(this=exp.to_identifier("rm_j", quoted=True)))))
        update.set("where", exp.Where(this=exp.EQ(
            this=_rowid(alias), expression=exp.column("rm_rowid", table="rm_j", quoted=True))))
        steps.append((update, (db, tdef.name), True))
    return steps


def _set_column(node: exp.Expression, by_alias: dict[str, Entry],
                using: frozenset[str] | set[str] = frozenset(),
                order: list[str] | None = None) -> tuple[str, ColumnDef]:
    """The table and column a SET names; a column the tables are joined USING is one column
    to MariaDB, its leftmost table's."""
    if not isinstance(node, exp.Column):
        raise ServerError(errors.ER_PARSE_ERROR, node.sql("mysql"), 1)
    name = node.name
    candidates = [node.table.lower()] if node.table else \
        [a for a in by_alias if order is None or a in order]
    found = []
    for alias in candidates:
        entry = by_alias.get(alias)
        if entry is None or entry[2] is None:
            continue
        col = entry[2].column(name)
        if col is not None:
            found.append((alias, col))
    if not found:
        raise ServerError(errors.ER_BAD_FIELD_ERROR, node.sql("mysql"), "SET")
    if len(found) > 1 and name.lower() in using and order:
        found.sort(key=lambda f: order.index(f[0]) if f[0] in order else len(order))
        return found[0]
    if len(found) > 1:
        raise ServerError(errors.ER_NON_UNIQ_ERROR, name, "SET")
    return found[0]


def plan_delete(tree: exp.Delete, by_alias: dict[str, Entry]) -> list[Step]:
    """The steps of a multi-table DELETE ([] for a single-table one)."""
    targets = tree.args.get("tables") or []
    using = tree.args.get("using")
    source = tree.this
    if using:  # DELETE FROM a, b USING ...: sqlglot reads the targets as a join
        targets = [source] + [j.this for j in source.args.get("joins") or []]
        source = using[0] if isinstance(using, list) else using
    elif not targets:
        return []
    if not isinstance(source, (exp.Table, exp.Subquery)):  # a derived table may lead
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "this DELETE")
    nodes = _nodes(source)
    where = (tree.args.get("where") or exp.Where()).this
    aliases = []
    for t in targets:
        alias = t.alias_or_name.lower()
        if alias not in nodes:
            raise ServerError(1109, message=f"Unknown table '{t.name}' in MULTI DELETE",
                              sqlstate="42S02")
        if not isinstance(nodes[alias], exp.Table):  # a derived table: MariaDB's 1288
            raise ServerError(1288, message=f"The target table {t.name} of the DELETE is "
                              "not updatable", sqlstate="HY000")
        if alias not in aliases:
            aliases.append(alias)
    for alias, node in nodes.items():  # the names are right: a missing table is 1146
        entry = by_alias.get(alias)
        if entry is not None and entry[2] is None and isinstance(node, exp.Table):
            raise ServerError(errors.ER_NO_SUCH_TABLE, entry[0], entry[1])
    if len(aliases) == 1:
        alias = aliases[0]
        db, _n, tdef = by_alias[alias]
        assert tdef is not None
        ids = _select(source, [_rowid(alias)], where)
        delete = exp.Delete(this=_bare(nodes[alias]).copy())
        delete.this.set("alias", None)
        delete.set("where", exp.Where(this=exp.In(this=exp.column("rowid"),
                                                  query=exp.Subquery(this=ids))))
        return [(delete, (db, tdef.name), True)]
    # one pass over the join keeps every target's rowids: its WHERE is evaluated once per
    # joined row, as MariaDB's (an IGNOREd 1242 warns once)
    keep = exp.Create(kind="TABLE", this=exp.to_table("temp.rm_del_0"), expression=_select(
        source, [exp.alias_(_rowid(alias), f"r{k}") for k, alias in enumerate(aliases)],
        where))
    steps: list[Step] = [(_drop(0), None, False), (keep, None, False)]
    for k, alias in enumerate(aliases):
        db, _n, tdef = by_alias[alias]
        assert tdef is not None
        delete = exp.Delete(this=_bare(nodes[alias]))
        delete.this.set("alias", None)
        delete.set("where", exp.Where(this=exp.In(
            this=exp.column("rowid"), query=exp.Subquery(this=exp.select(f"r{k}").from_(
                "temp.rm_del_0")))))
        steps.append((delete, (db, tdef.name), True))
    steps.append((_drop(0), None, False))
    return steps


def _drop(k: int) -> exp.Expression:
    return sqlglot.parse_one(f"DROP TABLE IF EXISTS temp.rm_del_{k}", read="sqlite")
