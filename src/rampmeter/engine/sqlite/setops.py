"""INTERSECT ALL and EXCEPT ALL (MariaDB 10.5+), which SQLite lacks, as plain INTERSECT /
EXCEPT over numbered rows.

Rules:
- Multiset semantics: a row k times on the left and m times on the right appears
  min(k, m) times in INTERSECT ALL and max(k - m, 0) times in EXCEPT ALL. Numbering each
  row's copies on each side (ROW_NUMBER() OVER (PARTITION BY every column)) makes every
  copy distinct, so SQLite's set operation keeps exactly those; the number is dropped
  again. NULLs fall in one partition and compare equal in INTERSECT / EXCEPT, as MariaDB's
  set operations treat them.
- Each operand is read through a CTE with a column list (its width from the select list,
  `*` counted from the tables' definitions), so the operands' own column names do not
  matter; the result keeps the left operand's names where they are plain and distinct
  (ORDER BY can name them), else c1..cn. The result columns' names and types shown to the
  client were taken from the left operand before this rewrite.
- An operand whose width is unknown (a table without a definition, such as a virtual
  schema's) is 1235. Runs after the rewrites that need the original tree, before SQL is
  generated; inner operations are rewritten first.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp

from rampmeter import errors
from rampmeter.errors import ServerError

# alias -> the column names of that table (None: unknown)
Columns = Callable[[str], list[str] | None]


def rewrite(tree: exp.Expression, columns: Columns) -> exp.Expression:
    """The tree with every INTERSECT ALL / EXCEPT ALL rewritten (the root may change)."""
    for node in reversed(list(tree.walk())):  # inner operations first
        if isinstance(node, (exp.Except, exp.Intersect)) and node.args.get("distinct") is False:
            new = _numbered(node, columns)
            if node is tree:
                tree = new
            else:
                if isinstance(node.parent, exp.SetOperation):
                    # an operand of another set operation: its WITH may not stand there
                    new = exp.select("*").from_(exp.Subquery(this=new, alias=exp.TableAlias(
                        this=exp.to_identifier(f"rm_all{_counter(node)}"))))
                node.replace(new)
    return tree


def _numbered(node: exp.Expression, columns: Columns) -> exp.Select:
    left, right = node.this, node.expression
    names = _names(left, columns)
    if names is None or len(names) != _width(right, columns):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET,
                          f"{'INTERSECT' if isinstance(node, exp.Intersect) else 'EXCEPT'} "
                          "ALL of these operands")
    if len(set(n.lower() for n in names)) != len(names) or not all(names):
        names = [f"c{i + 1}" for i in range(len(names))]
    n = _counter(node)
    sides = []
    for k, operand in enumerate((left, right)):
        cte = f"rm_{n}_{k}"
        sides.append((cte, operand.copy()))
    cols = [exp.column(name, quoted=True) for name in names]

    def side(cte: str) -> exp.Select:
        number = exp.Window(this=exp.RowNumber(),
                            partition_by=[c.copy() for c in cols])
        return exp.Select(expressions=[c.copy() for c in cols] +
                          [exp.alias_(number, f"rm_copy_{n}")]).from_(cte)

    op = exp.Intersect if isinstance(node, exp.Intersect) else exp.Except
    body = op(this=side(sides[0][0]), expression=side(sides[1][0]), distinct=True)
    outer = exp.Select(expressions=[c.copy() for c in cols]).from_(
        exp.Subquery(this=body, alias=exp.TableAlias(this=exp.to_identifier(f"rm_s{n}"))))
    outer.set("with_", exp.With(expressions=[
        exp.CTE(this=q, alias=exp.TableAlias(this=exp.to_identifier(cte),
                                              columns=[exp.to_identifier(x, quoted=True)
                                                       for x in names]))
        for cte, q in sides]))
    for key in ("order", "limit", "offset"):
        if node.args.get(key) is not None:
            outer.set(key, node.args[key])
    return outer


def _counter(node: exp.Expression) -> int:
    return sum(1 for _ in node.root().walk()) % 100000  # distinct enough per statement


def _select_of(operand: exp.Expression) -> exp.Select | None:
    while isinstance(operand, (exp.Subquery, exp.Union, exp.Except, exp.Intersect)):
        operand = operand.this
    return operand if isinstance(operand, exp.Select) else None


def _width(operand: exp.Expression, columns: Columns) -> int | None:
    while isinstance(operand, (exp.Subquery, exp.Union, exp.Except, exp.Intersect)):
        operand = operand.this  # a compound's width is its first operand's
    source = operand.args.get("from_") if isinstance(operand, exp.Select) else None
    rows = source.this if isinstance(source, exp.From) else None
    while isinstance(rows, exp.Subquery):
        rows = rows.this
    if isinstance(rows, exp.Values) and not operand.args.get("joins") and \
            [type(e) for e in operand.expressions] == [exp.Star]:
        operand = rows  # VALUES as an operand is SELECT * FROM (VALUES ...)
    if isinstance(operand, exp.Values):  # a table value constructor: its first row's
        row = operand.expressions[0] if operand.expressions else None
        return len(row.expressions) if isinstance(row, exp.Tuple) else None
    names = _names(operand, columns)
    return None if names is None else len(names)


def _names(operand: exp.Expression, columns: Columns) -> list[str] | None:
    """The operand's output column names ('' where an expression has no plain name)."""
    select = _select_of(operand)
    if select is None:
        return None
    names: list[str] = []
    derived = _derived(select)
    for e in select.expressions:
        if isinstance(e, exp.Star):
            for alias in _aliases(select):
                found = _source_names(alias, derived, columns)
                if found is None:
                    return None
                names.extend(found)
        elif isinstance(e, exp.Column) and isinstance(e.this, exp.Star):
            found = _source_names(e.table.lower(), derived, columns)
            if found is None:
                return None
            names.extend(found)
        elif isinstance(e, exp.Alias):
            names.append(e.alias)
        elif isinstance(e, exp.Column):
            names.append(e.name)
        else:
            names.append("")
    return names


def _derived(select: exp.Select) -> dict[str, exp.Expression]:
    """alias -> the query of each derived table the select reads."""
    source = select.args.get("from_")
    items = ([source.this] if source is not None else []) + \
        [j.this for j in select.args.get("joins") or []]
    return {(item.alias_or_name or "").lower(): item.this for item in items
            if isinstance(item, exp.Subquery)}


def _source_names(alias: str, derived: dict[str, exp.Expression],
                  columns: Columns) -> list[str] | None:
    """A FROM item's column names: a table's, or a derived table's select list."""
    query = derived.get(alias)
    if query is not None:
        return _names(query, columns)
    return columns(alias)


def _aliases(select: exp.Select) -> list[str]:
    source = select.args.get("from_")
    items = ([source.this] if source is not None else []) + \
        [j.this for j in select.args.get("joins") or []]
    return [(item.alias_or_name or "").lower() for item in items
            if isinstance(item, (exp.Table, exp.Subquery))]


def first_seen_order(tree: exp.Expression, columns: Columns) -> exp.Expression:
    """A UNION [DISTINCT] query without ORDER BY, its rows in MariaDB's order: MariaDB adds
    each operand's rows to a temporary table with a unique key and reads it back in the order
    they went in (each distinct row where it first came); SQLite's UNION answers them in its
    b-tree's order. So the operands are read as one UNION ALL (numbered in their order by
    ROW_NUMBER() OVER ()), grouped by every column (GROUP BY puts NULLs together and compares
    with the columns' collations, as UNION does) and ordered by each row's first number.
    Only a compound whose last operation is DISTINCT: then every row of it is made distinct,
    whatever ALLs come before. Its LIMIT / OFFSET move to the new query."""
    if not isinstance(tree, exp.Union) or not tree.args.get("distinct") or \
            tree.args.get("order") is not None:
        return tree
    width = _width(tree.this, columns)
    if width is None or _width(tree.expression, columns) != width:
        return tree
    names = _names(tree.this, columns)
    if names is None or len(names) != width:  # VALUES first: no names of its own
        names = [""] * width
    if len(set(n.lower() for n in names)) != len(names) or not all(names) or \
            any(n.lower() == "rm_seq" for n in names):
        names = [f"c{i + 1}" for i in range(len(names))]
    n = _counter(tree)
    body = tree.copy()
    with_, limit, offset = (body.args.get(k) for k in ("with_", "limit", "offset"))
    for key in ("with_", "limit", "offset"):
        body.set(key, None)
    node: exp.Expression = body
    while isinstance(node, exp.Union):
        node.set("distinct", False)
        node = node.this
    cte = f"rm_u{n}"
    cols = [exp.column(name, quoted=True) for name in names]
    numbered = exp.Select(expressions=[c.copy() for c in cols] + [
        exp.alias_(exp.Window(this=exp.RowNumber()), "rm_seq")]).from_(cte)
    outer = exp.Select(expressions=[c.copy() for c in cols]).from_(
        exp.Subquery(this=numbered, alias=exp.TableAlias(this=exp.to_identifier(f"rm_v{n}"))))
    outer.set("group", exp.Group(expressions=[c.copy() for c in cols]))
    outer.set("order", exp.Order(expressions=[
        exp.Ordered(this=exp.Min(this=exp.column("rm_seq")))]))
    ctes = list(with_.expressions) if isinstance(with_, exp.With) else []
    ctes.append(exp.CTE(this=body, alias=exp.TableAlias(
        this=exp.to_identifier(cte), columns=[exp.to_identifier(x, quoted=True)
                                              for x in names])))
    outer.set("with_", exp.With(expressions=ctes, recursive=bool(
        isinstance(with_, exp.With) and with_.args.get("recursive"))))
    if limit is not None:
        outer.set("limit", limit)
    if offset is not None:
        outer.set("offset", offset)
    return outer
