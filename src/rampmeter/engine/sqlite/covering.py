"""A query that one index covers reads that index, in its order, as MariaDB's does.

Rules (MariaDB's optimizer: a full scan of a table whose columns the query needs all lie in
one index reads the index instead, "Using index"; find_shortest_key picks it):
- A plain single-table SELECT (no join, subquery, GROUP BY, DISTINCT, aggregate, window or
  ORDER BY) of a base table, every column it names (or all, for `*`) in one index of the
  table, returns its rows in that index's order: `ORDER BY` the index's columns is added.
  SQLite would read the table in insertion order (a MyISAM table without ORDER BY reads the
  same way only when no index covers the query).
- The index: the primary key or a non-prefix, non-FULLTEXT index covering the columns (not
  a long unique key: MariaDB keeps only a hash of its columns, which it cannot read rows
  from, keyinfo.py); of several, the one with the fewest columns (the shortest key), the primary key first.
- An AUTO_INCREMENT primary key is SQLite's rowid, already the table's order: nothing to add.
- A select list of constants only (`SELECT 1 FROM t WHERE ...`, as the CHECK constraints'
  translation reads its WHERE back, checks.py) gets no ORDER BY: its rows look alike.
- InnoDB's secondary indexes hold the primary key's columns too: they cover those as well, and
  order by them after their own.
- Index hints choose among the indexes: `IGNORE INDEX (k)` leaves k out, `USE` / `FORCE
  INDEX (k)` leaves the others out (so `IGNORE KEY (k)` reads the table in its own order).
"""

from __future__ import annotations

from typing import Any

from sqlglot import exp

from rampmeter.engine.sqlite import keyinfo
from rampmeter.engine.sqlite.catalog import TableDef, rowid_auto


def rewrite(tree: exp.Expression, by_alias: dict[str, Any]) -> None:
    if not isinstance(tree, exp.Select) or tree.args.get("order") or tree.args.get("group") \
            or tree.args.get("distinct") or tree.args.get("joins") or \
            tree.args.get("having") or len(by_alias) != 1:
        return
    source = tree.args.get("from_") or tree.args.get("from")
    table = source.this if isinstance(source, exp.From) else None
    if not isinstance(table, exp.Table):
        return
    for node in tree.walk():
        if node is not tree and isinstance(node, (exp.Select, exp.Subquery, exp.AggFunc,
                                                  exp.Window, exp.Lateral, exp.Unnest)) or \
                isinstance(node, exp.Anonymous) and node.name.upper() in _AGGREGATES:
            return
    if not any(isinstance(e, exp.Star) or e.find(exp.Column, exp.Star) is not None
               for e in tree.expressions):
        return  # every row selects the same constants (SELECT 1 ... WHERE): order unseen
    entry = next(iter(by_alias.values()))
    tdef = entry[2] if len(entry) > 2 else None
    if not isinstance(tdef, TableDef) or tdef.location is not None:
        return
    needed = _columns(tree, tdef)
    if needed is None:
        return
    key = _covering(tdef, needed, _allowed(table))
    if key is None:
        return
    names, desc = key
    tree.set("order", exp.Order(expressions=[
        exp.Ordered(this=exp.column(n, quoted=True), desc=d) for n, d in zip(names, desc)]))


_AGGREGATES = frozenset({"GROUP_CONCAT", "BIT_AND", "BIT_OR", "BIT_XOR", "STD", "STDDEV",
                         "STDDEV_POP", "STDDEV_SAMP", "VARIANCE", "VAR_POP", "VAR_SAMP",
                         "JSON_ARRAYAGG", "JSON_OBJECTAGG"})


def _columns(tree: exp.Select, tdef: TableDef) -> set[str] | None:
    names: set[str] = set()
    for node in tree.walk():
        if isinstance(node, exp.Star) or isinstance(node, exp.Column) and \
                isinstance(node.this, exp.Star):
            names.update(c.name.lower() for c in tdef.columns)
        elif isinstance(node, exp.Column):
            if tdef.column(node.name) is None:
                return None  # an alias or an outer name: not this simple case
            names.add(node.name.lower())
    return names


def unindexed(tree: exp.Expression, by_alias: dict[str, Any]) -> None:
    """A table whose index hints leave the scan no index (`IGNORE INDEX (k)` of its only
    one, `USE INDEX ()`) is read NOT INDEXED, in its own order, as MariaDB reads it: SQLite
    would still walk the index and return its order."""
    for table in tree.find_all(exp.Table):
        if not table.args.get("hints"):
            continue
        entry = by_alias.get((table.alias or table.name).lower())
        tdef = entry[2] if entry is not None and len(entry) > 2 else None
        if not isinstance(tdef, TableDef):
            continue
        allowed = _allowed(table)
        names = (["primary"] if tdef.primary else []) + \
            [i.name.lower() for i in tdef.indexes if not i.kind]
        if names and not any(allowed(n) for n in names):
            table.set("indexed", False)


def _allowed(table: exp.Table) -> Any:
    """Which indexes the table's index hints let the scan read: `IGNORE INDEX (k, ...)`
    takes those away, `USE` / `FORCE INDEX (k, ...)` keeps only those (`USE INDEX ()`:
    none); hints FOR ORDER BY / GROUP BY do not choose the scan. A predicate on the
    index's name (lower case, 'primary' for the primary key)."""
    ignored: set[str] = set()
    used: set[str] | None = None
    for hint in table.args.get("hints") or []:
        if not isinstance(hint, exp.IndexTableHint) or hint.args.get("target") and \
                "JOIN" not in str(hint.args["target"]).upper():
            continue
        names = {e.name.lower() for e in hint.expressions}
        if str(hint.this).upper() == "IGNORE":
            ignored |= names
        else:
            used = names if used is None else used | names
    return lambda name: name not in ignored and (used is None or name in used)


def _covering(tdef: TableDef, needed: set[str], allowed: Any = None
              ) -> tuple[list[str], list[bool]] | None:
    auto = tdef.auto_column
    keys: list[tuple[list[str], list[bool]]] = []
    allowed = allowed or (lambda name: True)
    if tdef.primary and allowed("primary"):
        if auto is not None and tdef.primary == [auto.name] and rowid_auto(tdef, auto.name):
            return None  # the rowid: the table's own order
        keys.append((list(tdef.primary), [False] * len(tdef.primary)))
    clustered = (tdef.engine or "").upper() == "INNODB"
    for idx in tdef.indexes:
        if idx.kind or any(p for p in idx.prefixes) or keyinfo.long_unique(tdef, idx) or \
                not allowed(idx.name.lower()):
            continue
        cols = list(idx.columns)
        desc = [bool(d) for d in idx.desc] + [False] * (len(cols) - len(idx.desc))
        if clustered:
            extra = [c for c in tdef.primary if c.lower() not in {x.lower() for x in cols}]
            cols += extra
            desc += [False] * len(extra)
        keys.append((cols, desc))
    best: tuple[list[str], list[bool]] | None = None
    for cols, desc in keys:
        if needed <= {c.lower() for c in cols} and (best is None or len(cols) < len(best[0])):
            best = (cols, desc)
    return best
