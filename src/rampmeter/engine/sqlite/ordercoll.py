"""ORDER BY an expression of case-insensitive text sorts case-insensitively, as MariaDB sorts it
by the expression's collation (`ORDER BY IF(c, a, b)`, `ORDER BY CONCAT(a, 'x')`, an alias of
one).

Rules:
- SQLite sorts by a collation only for a bare column (declared COLLATE NOCASE for `_ci`, see
  catalog.py) or an explicit COLLATE; any other expression sorts by bytes ('A' before 'a').
  So an ORDER BY key that is not a bare column, whose MySQL type (infer.py) is text of a `_ci`
  collation, gets `COLLATE` that collation, which becomes SQLite's NOCASE - the approximation of MariaDB's collations that
  columns use (docs/sql.md).
- A binary string expression sorts by its bytes: CAST(... AS BLOB), since its values can be
  SQLite text and blobs, which SQLite sorts apart.
- A name in ORDER BY is the select list's alias first, as in MariaDB and SQLite; a position
  (`ORDER BY 1`) is its item's (`1 COLLATE c`, which SQLite reads as the position); other
  literals are left alone.
- MIN / MAX of such an expression compare by its collation too (`MIN(CONCAT(a, 'x'))`):
  SQLite's compare by their argument's collation, given by a COLLATE.
- An ENUM or SET column sorts by its number: the member's position, the set's bits
  (rm_member_rank), as MariaDB sorts them, not by the text; so do the groups of GROUP BY
  such a column when no ORDER BY is given.
- Run once per statement shape, when it is translated.
"""

from __future__ import annotations

from sqlglot import exp

from rampmeter.engine.sqlite.infer import Typer


def rewrite(tree: exp.Expression, typer: Typer) -> None:
    for select in tree.find_all(exp.Select):
        _group_order(select, typer)
        order = select.args.get("order")
        if not isinstance(order, exp.Order):
            continue
        aliases = {e.alias.lower(): e.this for e in select.expressions
                   if isinstance(e, exp.Alias)}
        for key in order.expressions:
            rank = _member_rank(key.this, aliases, typer) if isinstance(key, exp.Ordered) \
                else None
            if rank is not None:
                key.set("this", rank)
                continue
            how = _sort_rule(_positional(key.this, select), aliases, typer) \
                if isinstance(key, exp.Ordered) else None
            if how == "binary":
                if not isinstance(key.this, exp.Cast):
                    key.set("this", exp.Cast(this=key.this,
                                             to=exp.DataType.build("BLOB")))
            elif how:  # translate's COLLATE rewrite makes it SQLite's NOCASE
                this = key.this if isinstance(key.this, (exp.Column, exp.Paren, exp.Literal)) \
                    else exp.Paren(this=key.this)  # COLLATE binds tighter than ||, +...
                key.set("this", exp.Collate(this=this, expression=exp.Var(this=how)))
    for agg in list(tree.find_all(exp.Min, exp.Max)):
        # MIN / MAX of text compare by its collation; SQLite's use the argument's collation,
        # which only a column or a COLLATE has
        arg = agg.this
        if isinstance(arg, exp.Expression) and not isinstance(agg.parent, exp.Window):
            how = _sort_rule(arg, {}, typer)
            if how and how != "binary":
                agg.set("this", exp.Collate(this=exp.Paren(this=arg),
                                            expression=exp.Var(this=how)))


def _positional(key: exp.Expression, select: exp.Select) -> exp.Expression:
    """ORDER BY 2: the select list's second item (its collation sorts it: SQLite takes
    `ORDER BY 2 COLLATE c`); any other key as it is."""
    if isinstance(key, exp.Literal) and key.is_int:
        k = int(key.name)
        items = select.expressions
        if 1 <= k <= len(items):
            item = items[k - 1]
            return item.this if isinstance(item, exp.Alias) else item
    return key


def _group_order(select: exp.Select, typer: Typer) -> None:
    """GROUP BY an ENUM / SET column without ORDER BY: MariaDB returns the groups in the
    order of their keys, the ENUM's by its number; SQLite's would be the text's. The keys
    become an explicit ORDER BY (ranked by _member_rank)."""
    group = select.args.get("group")
    if select.args.get("order") is not None or not isinstance(group, exp.Group) or \
            group.args.get("rollup") or group.args.get("cube") or \
            group.args.get("grouping_sets") or not group.expressions:
        return
    keys = list(group.expressions)
    if not any(_member_rank(k, {}, typer) is not None for k in keys):
        return
    if not all(isinstance(k, exp.Column) for k in keys):
        return
    select.set("order", exp.Order(expressions=[exp.Ordered(this=k.copy(), nulls_first=True)
                                               for k in keys]))


def _member_rank(key: exp.Expression, aliases: dict[str, exp.Expression],
                 typer: Typer) -> exp.Expression | None:
    """An ENUM or SET column sorts by its number (the member's position, the set's bits),
    as MariaDB sorts it: rm_member_rank(col, 'e' | 's', members)."""
    if not isinstance(key, exp.Column) or not key.table and key.name.lower() in aliases:
        return None
    t = typer.infer(key)
    if t is None or t.name not in ("enum", "set") or not t.members:
        return None
    return exp.Anonymous(this="rm_member_rank", expressions=[
        key, exp.Literal.string(t.name[0]), exp.Literal.string(
            "\x1f".join(t.members).encode("utf-8", "surrogateescape").hex())])


def _sort_rule(key: exp.Expression, aliases: dict[str, exp.Expression],
               typer: Typer) -> str | None:
    """The key's `_ci` collation; "binary" for a binary string (its values may be SQLite text
    and blobs, which SQLite sorts apart: `IF(c, BINARY a, a)`); else None."""
    target = key
    if isinstance(key, exp.Column) and not key.table and key.name.lower() in aliases:
        target = aliases[key.name.lower()]
    if isinstance(target, (exp.Column, exp.Literal, exp.Placeholder, exp.Collate)):
        return None
    t = typer.infer(target)
    if t is not None and t.is_binary_string:
        return "binary"
    if t is None or not t.is_text or not (t.collation or "").endswith("_ci"):
        return None
    return t.collation
