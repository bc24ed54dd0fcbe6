"""MariaDB's MIN / MAX / COUNT(*) answered before reading rows (opt_sum_query), for
EXPLAIN: `Select tables optimized away`, or `No matching min/max row` when a lookup finds
nothing.

Rules (MariaDB 10.11, opt_sum.cc):
- A select without GROUP BY / HAVING whose items are MIN(col) / MAX(col), COUNT(*) and
  constants, over tables joined without an outer join (comma or inner JOIN, whose ON is
  one more condition), every table read by one of its aggregates: COUNT(*) of a table of an
  exact-count engine (MyISAM, Aria, MEMORY) without conditions, MIN / MAX of a column
  that is a part of a B-tree key whose parts before it the conditions fix to constants
  (`=`), the conditions on that table being only those and comparisons of the column with
  constants (each condition one column of one table against constants).
- The lookup of a MIN / MAX that finds no row under the conditions makes the answer `No
  matching min/max row`. A condition comparing a CHAR / VARCHAR with a longer string is
  not one a key lookup takes (no key image of it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlglot import exp

from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

EXACT = frozenset({"MYISAM", "ARIA", "MEMORY", "HEAP"})
_COMPARE = (exp.EQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Between)


def from_tables(s: SqliteSession, tree: exp.Select) -> list[tuple[str, Any, bool]]:
    """The select's tables: (shown name lower case, definition, is it an outer join's
    inner table); [] when one is not a base table (a derived table, a view, a nest)."""
    out: list[tuple[str, Any, bool]] = []
    source = tree.args.get("from_") or tree.args.get("from")
    items = [(source.this, False)] if source is not None else []
    for j in tree.args.get("joins") or []:
        side = str(j.args.get("side") or "").upper()
        if side == "RIGHT":
            items = [(node, True) for node, _inner in items]
        items.append((j.this, side == "LEFT"))
    for node, inner in items:
        if not isinstance(node, exp.Table):
            return []
        try:
            tdef = s.table_def(node.db or s.database or "", node.name)
        except ServerError:
            return []
        if tdef is None or tdef.view is not None:
            return []
        out.append((node.alias_or_name.lower(), tdef, inner))
    return out


def _conjuncts(node: exp.Expression | None) -> list[exp.Expression]:
    while isinstance(node, exp.Paren):
        node = node.this
    if node is None:
        return []
    if isinstance(node, exp.And):
        return _conjuncts(node.this) + _conjuncts(node.expression)
    return [node]


def _owner(sources: list[tuple[str, Any, bool]], col: exp.Column) -> str | None:
    owners = [shown for shown, tdef, _inner in sources
              if (not col.table or col.table.lower() == shown) and
              tdef.column(col.name) is not None]
    return owners[0] if len(owners) == 1 else None


def _constant(node: exp.Expression) -> bool:
    return not any(True for _ in node.find_all(exp.Column, exp.Table, exp.Subquery))


def _simple(cond: exp.Expression) -> exp.Column | None:
    """The one column a condition compares with constants (None: another shape)."""
    if isinstance(cond, exp.Is) and isinstance(cond.expression, exp.Null) and \
            isinstance(cond.this, exp.Column):
        return cond.this
    if not isinstance(cond, _COMPARE):
        return None
    cols = list(cond.find_all(exp.Column))
    if len(cols) != 1 or any(True for _ in cond.find_all(exp.Subquery)):
        return None
    col = cols[0]
    if isinstance(cond, exp.Between):
        return col if cond.this is col else None
    return col if col is cond.this or col is cond.expression else None


def min_max(s: SqliteSession, tree: exp.Expression | None) -> str | None:
    """`Select tables optimized away`, `No matching min/max row`, or None."""
    if not isinstance(tree, exp.Select) or any(
            tree.args.get(k) for k in ("group", "having", "distinct")):
        return None
    sources = from_tables(s, tree)
    if not sources or any(inner for _n, _t, inner in sources):
        return None
    conds = _conjuncts(tree.args["where"].this) if tree.args.get("where") else []
    for j in tree.args.get("joins") or []:
        conds += _conjuncts(j.args.get("on"))
        if j.args.get("using"):
            return None
    per_table: dict[str, list[tuple[exp.Column, exp.Expression]]] = {}
    for c in conds:
        col = _simple(c)
        owner = _owner(sources, col) if col is not None else None
        if owner is None:
            return None
        per_table.setdefault(owner, []).append((col, c))
    aggs: list[tuple[str, exp.Expression]] = []
    for item in tree.expressions:
        node = item.this if isinstance(item, exp.Alias) else item
        for n in node.walk():
            if isinstance(n, (exp.Min, exp.Max)):
                if not isinstance(n.this, exp.Column):
                    return None
                owner = _owner(sources, n.this)
                if owner is None:
                    return None
                aggs.append((owner, n))
            elif isinstance(n, exp.Count):
                if not isinstance(n.this, exp.Star) or len(sources) != 1:
                    return None
                aggs.append((sources[0][0], n))
            elif isinstance(n, (exp.Column, exp.AggFunc, exp.Subquery, exp.Star)) and \
                    not isinstance(n.parent, (exp.Min, exp.Max, exp.Count)):
                return None
    if not aggs or {shown for shown, _t, _i in sources} - {o for o, _a in aggs}:
        return None  # a table no aggregate reads
    defs = {shown: tdef for shown, tdef, _i in sources}
    empty = False
    for owner, agg in aggs:
        tdef = defs[owner]
        mine = per_table.get(owner, [])
        if isinstance(agg, exp.Count):
            if mine or tdef.engine.upper() not in EXACT:
                return None
            continue
        col = agg.this.name.lower()
        if not _keyed(tdef, col, mine):
            return None
        if not empty and not _found(s, tree, owner, col, [c for _col, c in mine]):
            empty = True
    return "No matching min/max row" if empty else "Select tables optimized away"


def _keyed(tdef: Any, col: str, conds: list[tuple[exp.Column, exp.Expression]]) -> bool:
    """Is `col` a part of a B-tree key whose earlier parts `conds` fix by `=` to
    constants, every condition being on those parts or on `col`?"""
    from rampmeter.engine.sqlite import keyinfo
    fixed = {c.name.lower() for c, cond in conds if isinstance(cond, (exp.EQ, exp.Is))}
    for c, cond in conds:  # a string longer than the column: no key image of it
        column = tdef.column(c.name)
        width = column.type.width if column is not None and column.type.is_text else None
        if width is not None and any(
                isinstance(v, exp.Literal) and v.is_string and len(v.this) > width
                for v in cond.find_all(exp.Literal)):
            return False
    keys = ([list(tdef.primary)] if tdef.primary else []) + [
        list(i.columns) for i in tdef.indexes
        if not i.kind and not keyinfo.is_hash(tdef, i) and not any(
            p is not None for p in i.prefixes)]
    if tdef.primary and keyinfo.is_memory(tdef):
        keys = keys[1:]  # (a MEMORY table's primary key is a hash)
    for parts in keys:
        low = [p.lower() for p in parts]
        if col not in low:
            continue
        prefix = low[:low.index(col)]
        if all(p in fixed for p in prefix) and \
                all(c.name.lower() in prefix or c.name.lower() == col for c, _x in conds):
            return True
    return False


def _found(s: SqliteSession, tree: exp.Select, owner: str, col: str,
           conds: list[exp.Expression]) -> bool:
    """Does a row of table `owner` meet its conditions?"""
    from rampmeter.engine.sqlite.explain import _run
    table = next((t for t in tree.find_all(exp.Table) if t.alias_or_name.lower() == owner),
                 None)
    if table is None:
        return True
    probe = exp.select("1").from_(table.copy())
    if conds:
        probe = probe.where(exp.and_(*[c.copy() for c in conds]))
    probe = probe.limit(1)
    got = _run(s, probe.sql("mysql"))
    return got is None or bool(got)
