"""Query forms MariaDB has and SQLite spells differently, rewritten on the parsed tree.

Rules:
- A query in parentheses, alone, as an INSERT's source or as an operand of UNION / EXCEPT /
  INTERSECT, is that query:
  ((SELECT 1)) is SELECT 1, (SELECT 1) UNION (SELECT 2) is SELECT 1 UNION SELECT 2 (SQLite
  takes no parentheses around a compound's operands). An operand with its own ORDER BY or
  LIMIT is read from a derived table instead, so they still apply to it alone.
- DATE 'x' / TIME 'x' / TIMESTAMP 'x' with a value that is not one is 1525.
- ROW(a, b) is the row value (a, b); SQLite compares row values as MariaDB does. A row nested
  in a row, (a, (b, c)) = (x, (y, z)), is flattened when every side has the same shape
  (SQLite has no nested rows: 1241; the order and equality of the flat rows are the same).
- HAVING without GROUP BY and without aggregates (MariaDB filters rows with it, after the
  select list is computed) is a WHERE, with the select list's aliases it names replaced by
  their expressions.
- VALUES (..), (..) as a statement is SQLite's VALUES; its columns are named after the first
  row's items, as MariaDB names them (translate does the naming from Statement.items).
- INSERT INTO t VALUES () inserts the columns' defaults (the column list is empty).
- COUNT(DISTINCT a, b, ...) counts the distinct rows of values none of which is NULL: SQLite
  counts one value, so the values are packed into one (json_array keeps their types apart).
- A derived table with a LIMIT and no OFFSET gets OFFSET 0: SQLite 3.40 would flatten it
  into an outer query that orders, and take its rows after ordering.
- A join nested without parentheses (`a LEFT JOIN b LEFT JOIN c ON x ON y`) is written
  with them, as SQLite reads it; `STRAIGHT_JOIN` between tables is a plain JOIN.
- UPDATE / DELETE ... ORDER BY without LIMIT: SQLite refuses it, so it gets LIMIT -1 (no
  limit): its names are still checked (1054 in 'ORDER BY', as MariaDB) and the rows are
  changed in its order, as MariaDB's.
- A SELECT without GROUP BY whose HAVING or ORDER BY has an aggregate of its own is an
  aggregate query to MariaDB (one row), even when its select list has none; SQLite decides by
  the select list (1105 'misuse of aggregate' / 'HAVING clause on a non-aggregate query'), so
  the first item gets a COUNT(*) that changes nothing (implicit_aggregate, on the final tree).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from sqlglot import exp

from rampmeter.engine.sqlite import funclib

_SETS = (exp.Union, exp.Except, exp.Intersect)
_AGGREGATES = (exp.AggFunc,)


def rewrite(tree: exp.Expression, values: dict[str, Any] | None = None,
            zeros: tuple[bool, bool] = (True, True)) -> exp.Expression:
    """The tree with the forms above rewritten (the root may change); `values`: the
    statement's literals by placeholder name (for the words of an error); `zeros`: are a zero
    date and zero parts in a date allowed (sql_mode when the statement was read)."""
    for node in list(tree.walk()):
        if isinstance(node, exp.Cast) and isinstance(node.this, exp.Literal) and \
                node.this.is_string:
            _check_typed_literal(node, zeros)
        if isinstance(node, (exp.Cast, *_CLOCK_NAMES)) or isinstance(node, exp.Anonymous) and \
                node.name.upper() in _CLOCK_CALLS:
            _check_precision(node, values or {})
        if isinstance(node, exp.Anonymous) and node.name.upper() == "ROW":
            node.replace(exp.Tuple(expressions=list(node.expressions)))
        elif isinstance(node, exp.Count) and isinstance(node.this, exp.Distinct) and \
                len(node.this.expressions) > 1:
            _count_distinct_rows(node.this)
        elif isinstance(node, exp.Select) and node.args.get("having") is not None and \
                not node.args.get("group"):
            _having_as_where(node)
        if isinstance(node, exp.Select) and node.args.get("group") is not None and \
                node.args["group"].args.get("rollup"):
            _bind_keys(node)
        if isinstance(node, exp.Select) and isinstance(node.parent, exp.Subquery):
            _limit_keeps_its_rows(node)
        if isinstance(node, exp.Join):
            _sqlite_join(node)
    for node in list(tree.walk()):
        if isinstance(node, _ROW_COMPARISONS) or isinstance(node, exp.In):
            _flatten_rows(node)
    for node in list(tree.walk()):
        if isinstance(node, _SETS):
            for key in ("this", "expression"):
                operand = node.args.get(key)
                if isinstance(operand, exp.Subquery):
                    node.set(key, _operand(operand, node if key == "expression" else None))
    if isinstance(tree, (exp.Update, exp.Delete)) and tree.args.get("order") is not None \
            and tree.args.get("limit") is None:
        tree.set("limit", exp.Limit(expression=exp.Literal.number(-1)))
    if isinstance(tree, exp.Insert) and isinstance(tree.expression, exp.Subquery):
        tree.set("expression", _query(tree.expression))
    return _query(tree)


def _query(tree: exp.Expression) -> exp.Expression:
    """A query in parentheses without an alias is that query."""
    while isinstance(tree, exp.Subquery) and not tree.alias and not any(
            tree.args.get(k) for k in ("order", "limit", "offset")):
        tree = tree.this
        tree.parent = None
    return tree


_ROW_COMPARISONS = (exp.EQ, exp.NEQ, exp.NullSafeEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)


def _shape(node: exp.Expression) -> object:
    return tuple(_shape(e) for e in node.expressions) if isinstance(node, exp.Tuple) else None


def _flat(node: exp.Expression) -> list[exp.Expression]:
    if isinstance(node, exp.Tuple):
        return [x for e in node.expressions for x in _flat(e)]
    return [node]


def _flatten_rows(node: exp.Expression) -> None:
    """Module rules: nested rows of one shape on every side become flat rows."""
    sides = [node.this] + (list(node.expressions) if isinstance(node, exp.In)
                           else [node.expression])
    if not all(isinstance(s, exp.Tuple) for s in sides):
        return
    shape = _shape(sides[0])
    if not isinstance(shape, tuple) or all(part is None for part in shape) or \
            any(_shape(s) != shape for s in sides[1:]):
        return
    for side in sides:
        side.set("expressions", _flat(side))


def _limit_keeps_its_rows(select: exp.Select) -> None:
    """(SELECT ... LIMIT n) AS d ORDER BY x: SQLite 3.40 flattens the derived table and
    takes the n rows after ordering by x (n rows in the wrong order); an OFFSET 0 keeps it
    from flattening, and changes nothing else."""
    limit = select.args.get("limit")
    if isinstance(limit, exp.Limit) and limit.args.get("offset") is None and \
            select.args.get("offset") is None:
        select.set("offset", exp.Offset(expression=exp.Literal.number(0)))


def _sqlite_join(join: exp.Join) -> None:
    """a LEFT JOIN b LEFT JOIN c ON .. ON ..: sqlglot keeps the inner join on b's table,
    which SQLite reads only in parentheses; STRAIGHT_JOIN (an order hint) is a JOIN."""
    if (join.args.get("kind") or "").upper() == "STRAIGHT_JOIN":
        join.set("kind", None)
    inner = join.this
    if isinstance(inner, exp.Table) and inner.args.get("joins"):
        join.set("this", exp.Paren(this=inner))


def _count_distinct_rows(distinct: exp.Distinct) -> None:
    items = list(distinct.expressions)
    any_null = exp.or_(*(exp.Is(this=i.copy(), expression=exp.Null()) for i in items))
    packed = exp.Anonymous(this="json_array", expressions=items)
    distinct.set("expressions", [exp.If(this=any_null, true=exp.Null(), false=packed)])


# the clock's functions as MariaDB names them in 1426 (LOCALTIME is CURRENT_TIMESTAMP's alias)
_CLOCK_NAMES = {exp.CurrentTimestamp: "current_timestamp", exp.Localtime: "current_timestamp",
                exp.Localtimestamp: "current_timestamp", exp.CurrentTime: "curtime",
                exp.UtcTime: "utc_time", exp.UtcTimestamp: "utc_timestamp"}
_CLOCK_CALLS = {"NOW": "current_timestamp", "SYSDATE": "sysdate", "CURTIME": "curtime",
                "LOCALTIME": "current_timestamp", "LOCALTIMESTAMP": "current_timestamp",
                "UTC_TIME": "utc_time", "UTC_TIMESTAMP": "utc_timestamp"}
_MAX_FSP = 6  # TIME_SECOND_PART_DIGITS


def _check_precision(node: exp.Expression, values: dict[str, Any]) -> None:
    """NOW(7), CAST(x AS TIME(7)): 1426 "Too big precision specified for '..'. Maximum is
    6", naming the function or the CAST's operand as MariaDB prints it."""
    from rampmeter.errors import ServerError
    if isinstance(node, exp.Cast):
        to = node.to
        D = exp.DataType.Type
        if not isinstance(to, exp.DataType) or to.this not in (
                D.TIME, D.DATETIME, D.TIMESTAMP, D.TIMESTAMPTZ) or not to.expressions:
            return
        digits = to.expressions[0]
        digits = digits.this if isinstance(digits, exp.DataTypeParam) else digits
        fsp = int(digits.name) if digits.name.isdigit() else 0
        name = ""
        if fsp > _MAX_FSP:
            from rampmeter.engine.sqlite import sqltext
            operand = node.this
            if isinstance(operand, exp.Placeholder) and operand.name in values:
                value = values[operand.name]
                name = value.decode("latin-1") if isinstance(value, bytes) else str(value)
            elif isinstance(operand, exp.Literal):
                name = operand.name
            else:
                operand = operand.copy()
                for ph in list(operand.find_all(exp.Placeholder)):
                    value = values.get(ph.name)
                    if isinstance(value, (int, float)):
                        ph.replace(exp.Literal.number(value))
                    elif isinstance(value, (str, bytes)):
                        ph.replace(exp.Literal.string(value.decode("latin-1") if isinstance(
                            value, bytes) else value))
                name = sqltext.expression(operand.sql(dialect="mysql"))
    else:
        arg = node.this if not isinstance(node, exp.Anonymous) else (
            node.expressions[0] if node.expressions else None)
        if not isinstance(arg, exp.Literal) or not arg.name.isdigit():
            return
        fsp = int(arg.name)
        name = _CLOCK_CALLS.get(node.name.upper(), "") if isinstance(node, exp.Anonymous) \
            else _CLOCK_NAMES[type(node)]
    if fsp > _MAX_FSP:
        raise ServerError(1426, name, _MAX_FSP)


def _check_typed_literal(node: exp.Cast, zeros: tuple[bool, bool] = (True, True)) -> None:
    """DATE 'x', TIME 'x', TIMESTAMP 'x' (the only casts of a literal left in a shape): a value
    that is not one is 1525, as MariaDB's parser says."""
    from rampmeter.engine.sqlite import temporal
    from rampmeter.errors import ServerError
    D = exp.DataType.Type
    text = node.this.name
    kind = node.to.this if isinstance(node.to, exp.DataType) else None
    if kind == D.DATE:
        m = temporal.read_datetime(text)
        ok, shown = m is not None and not m.has_time, "DATE"
        if m is not None and not zeros[0] and m.is_zero_date or m is not None and \
                not zeros[1] and m.has_zero_part and not m.is_zero_date:
            ok = False  # NO_ZERO_DATE / NO_ZERO_IN_DATE when the statement was read
    elif kind == D.TIME:  # a time only (no date-time), within TIME's range
        read = temporal.read_time_only(text)
        ok, shown = read is not None and abs(read[0]) <= temporal.TIME_MAX_US, "TIME"
    elif kind in (D.TIMESTAMP, D.TIMESTAMPTZ, D.DATETIME):
        m = temporal.read_datetime(text)
        ok, shown = m is not None and m.has_time, "DATETIME"
    else:
        return
    if not ok:
        raise ServerError(1525, message=f"Incorrect {shown} value: '{text}'", sqlstate="HY000")
    fraction = _FRACTION.search(text) if shown != "DATE" else None
    if fraction is not None:  # TIMESTAMP '... 10:20:30.5' keeps its digits: DATETIME(1)
        node.set("to", exp.DataType.build(f"{shown}({min(len(fraction.group(1)), 6)})"))


_FRACTION = re.compile(r":\d+\.(\d+)\s*$")


def _operand(sub: exp.Subquery, left_of: exp.Expression | None = None) -> exp.Expression:
    """`left_of`: the set operation whose right operand `sub` is. SQLite reads a compound
    left to right, so a parenthesised compound on the right that would mean otherwise there
    (A UNION ALL (B UNION C): B and C made distinct, A's rows kept) is a derived table."""
    inner = sub.this
    while isinstance(inner, exp.Subquery) and not inner.alias:
        inner = inner.this
    if isinstance(inner, exp.SetOperation) and left_of is not None and not (
            isinstance(inner, exp.Union) and isinstance(left_of, exp.Union) and (
                left_of.args.get("distinct") or not inner.args.get("distinct"))):
        derived = exp.Subquery(this=inner, alias=exp.TableAlias(
            this=exp.to_identifier("rm_part")))
        return exp.select("*").from_(derived, copy=False)
    if isinstance(inner, exp.Select) and (inner.args.get("order") or inner.args.get("limit")):
        # (SELECT ... ORDER BY ... LIMIT n) UNION ...: keep its ORDER / LIMIT to itself
        derived = exp.Subquery(this=inner, alias=exp.TableAlias(
            this=exp.to_identifier("rm_part")))
        return exp.select("*").from_(derived, copy=False)
    return inner


def is_aggregate(node: exp.Expression) -> bool:
    """sqlglot's aggregates, and the library's (VARIANCE, STDDEV_SAMP, ... are parsed as
    plain calls and become mf_ aggregates)."""
    if isinstance(node, _AGGREGATES):
        return True
    if isinstance(node, exp.Anonymous):
        fn = funclib.lookup(node.name)
        return fn is not None and fn.aggregate
    return False


def _having_as_where(select: exp.Select) -> None:
    having = select.args["having"].this
    if any(own_aggregate(e) for e in select.expressions) or own_aggregate(having):
        return  # an aggregate query: SQLite's HAVING does it (a subquery's own aggregates,
        # HAVING a <> (SELECT COUNT(*) ..), leave the query a plain one)
    aliases = {e.alias.lower(): e.this for e in select.expressions if isinstance(e, exp.Alias)}
    cond = having.copy()
    for col in list(cond.find_all(exp.Column)):
        target = aliases.get(col.name.lower())
        if target is not None and not col.table:
            # an operator keeps its own operands: `t > 0` of `a = b AS t` is (a = b) > 0
            col.replace(exp.Paren(this=target.copy()) if isinstance(
                target, (exp.Binary, exp.Unary, exp.Between, exp.In, exp.Is)) else target.copy())
    select.set("having", None)
    select.where(cond, copy=False)


def values_statement(text: str) -> tuple[str, list[str]] | None:
    """VALUES (a, b), (c, d) as a query SQLite runs, and the names of its columns: the first
    row's items as the client wrote them. None when `text` is not that statement."""
    from rampmeter.engine.sqlite.modifiers import shape_tokens
    toks = shape_tokens(text)
    if toks is None:
        return None
    if len(toks) < 3 or toks[0].upper != "VALUES" or toks[1].text != "(":
        return None
    names, depth, start = [], 0, toks[1].end
    for t in toks[1:]:
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
            if depth == 0:
                names.append(text[start:t.start].strip())
                break
        elif t.text == "," and depth == 1:
            names.append(text[start:t.start].strip())
            start = t.end
    # the rows end at the first top-level word after them: VALUES (1,2) UNION SELECT ...
    # reads its rows as a derived table, and the rest of the statement follows it
    depth, end = 0, len(text)
    for t in toks[1:]:
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        elif depth == 0 and t.kind == "word":
            end = t.start
            break
    head, tail = text[:end].rstrip(), text[end:]
    return f"SELECT * FROM ({head}) AS rm_values" + (f" {tail}" if tail else ""), names


def insert_defaults(tree: exp.Expression) -> None:
    """INSERT INTO t VALUES (): no column is given, so every one takes its default."""
    if isinstance(tree, exp.Insert) and isinstance(tree.this, exp.Table):
        values = tree.expression
        if isinstance(values, exp.Values) and all(
                isinstance(row, exp.Tuple) and not row.expressions for row in values.expressions):
            tree.set("this", exp.Schema(this=tree.this, expressions=[]))


# --- GROUP BY ... WITH ROLLUP ---------------------------------------------------------------
Columns = Callable[[str], "list[str] | None"]


def rollup(tree: exp.Expression, columns: Columns | None = None) -> exp.Expression:
    """GROUP BY k1..kn WITH ROLLUP, which SQLite lacks: the query once per level (grouped by
    k1..kn, then k1..kn-1, ..., then as one group), the rolled-up keys NULL in the select
    list, UNION ALL, ordered as MariaDB returns them: by k1, each group's super-aggregate row
    after its rows, the grand total last. Any SELECT of the tree (a derived table's too).
    `columns(alias)`: a FROM item's column names, to spell out `*` and `t.*`."""
    for node in list(tree.walk()):
        if node is not tree and isinstance(node, exp.Select) and node.args.get("group") \
                is not None and node.args["group"].args.get("rollup"):
            new = _rollup(node, columns)
            if isinstance(node.parent, exp.SetOperation):  # its ORDER BY stays its own
                new = exp.select("*").from_(exp.Subquery(
                    this=new, alias=exp.TableAlias(this=exp.to_identifier("rm_rolled"))))
            node.replace(new)
    return _rollup(tree, columns)


def _stars(select: exp.Select, columns: Columns | None) -> None:
    """`*` and `t.*` in the select list spelled out as the columns they stand for."""
    if columns is None or not any(isinstance(e, exp.Star) or isinstance(e, exp.Column) and
                                  isinstance(e.this, exp.Star) for e in select.expressions):
        return
    source = select.args.get("from_")
    items = ([source.this] if source is not None else []) + \
        [j.this for j in select.args.get("joins") or []]
    aliases = [(item.alias_or_name or "") for item in items
               if isinstance(item, (exp.Table, exp.Subquery))]
    out: list[exp.Expression] = []
    for e in select.expressions:
        if isinstance(e, exp.Star):
            wanted = aliases
        elif isinstance(e, exp.Column) and isinstance(e.this, exp.Star):
            wanted = [e.table]
        else:
            out.append(e)
            continue
        for alias in wanted:
            names = columns(alias.lower())
            if names is None:
                return
            out += [exp.column(n, table=alias, quoted=True) for n in names]
    select.set("expressions", out)


def _rollup(tree: exp.Expression, columns: Columns | None = None) -> exp.Expression:
    select = tree if isinstance(tree, exp.Select) else None
    group = select.args.get("group") if select is not None else None
    if select is None or group is None or not group.args.get("rollup"):
        return tree
    _stars(select, columns)
    known = _from_columns(select, columns)
    keys = [_by_position(k, select, known) for k in group.expressions]
    bound = _bound(select, known)
    n = len(keys)
    order, limit, offset = (select.args.get(k) for k in ("order", "limit", "offset"))
    parts = []
    for level in range(n + 1):
        part = select.copy()
        for k in ("order", "limit", "offset"):
            part.set(k, None)
        kept, rolled = keys[:n - level], keys[n - level:]
        # a key that names a select item (by alias or position) rolls up that item: GROUP
        # BY a, b, c with `a AS c` makes c NULL and keeps a
        kept_items = {bound[i] for i in range(n - level) if bound[i] is not None}
        rolled_items = {bound[i] for i in range(n - level, n) if bound[i] is not None}
        still = [k for k in rolled if not any(_same(k, x) for x in kept)]
        items = [e.copy() if j in kept_items else
                 _nulled(e, [e.this if isinstance(e, exp.Alias) else e])
                 if j in rolled_items else _nulled(e, still, kept)
                 for j, e in enumerate(part.expressions)]
        having = part.args.get("having")
        if having is not None:  # on the level's rows: rolled-up keys NULL, aliases resolved
            part.set("having", _having(having, items, rolled))
        items = [exp.alias_(e.this if isinstance(e, exp.Alias) else e, f"rm_c{i}")
                 for i, e in enumerate(items)]
        items += [exp.alias_(k.copy() if i < n - level else exp.null(), f"rm_k{i}")
                  for i, k in enumerate(keys)]
        items.append(exp.alias_(exp.Literal.number(level), "rm_l"))
        part.set("expressions", items)
        # the grand total is one group of all the rows: one row, none when there are none,
        # with or without an aggregate in the select list (MariaDB)
        part.set("group", exp.Group(expressions=[k.copy() for k in kept] if kept else
                                    [exp.Literal.string("rm_all")]))
        parts.append(part)
    union = parts[0]
    for part in parts[1:]:
        union = exp.Union(this=union, expression=part, distinct=False)
    outer = exp.select(*[exp.alias_(exp.column(f"rm_c{i}"), _name(e, i))
                         for i, e in enumerate(select.expressions)]).from_(
        exp.Subquery(this=union, alias=exp.TableAlias(this=exp.to_identifier("rm_rollup"))),
        copy=False)
    if order is None:
        keys_order = []
        for i in range(n):
            desc = i in group.meta.get("desc", ())  # GROUP BY k DESC (group_directions)
            keys_order += [exp.Ordered(this=exp.GTE(this=exp.column("rm_l"),
                                                    expression=exp.Literal.number(n - i)),
                                       nulls_first=True),
                           exp.Ordered(this=exp.column(f"rm_k{i}"), desc=desc,
                                       nulls_first=not desc)]
        outer.set("order", exp.Order(expressions=keys_order))
    else:
        outer.set("order", order)
    outer.set("limit", limit)
    outer.set("offset", offset)
    if select.args.get("distinct"):  # SELECT DISTINCT: over every level's rows together
        outer.set("distinct", exp.Distinct())
    return outer


def group_directions(text: str) -> tuple[str, list[int]]:
    """GROUP BY a DESC, b ASC (MariaDB sorts the groups so; sqlglot reads no direction
    there): the text without the directions, and which keys were DESC. Only a statement
    with one GROUP BY; the others are left to fail as before."""
    from rampmeter.engine.sqlite.modifiers import shape_tokens
    toks = shape_tokens(text)
    if toks is None:
        return text, []
    starts = [i for i, t in enumerate(toks[:-1]) if t.is_word("GROUP") and
              toks[i + 1].is_word("BY")]
    if len(starts) != 1:
        return text, []
    depth, key, desc, cuts = 0, 0, [], []
    for i in range(starts[0] + 2, len(toks)):
        t = toks[i]
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and t.text == ",":
            key += 1
        elif depth == 0 and t.is_word("ASC", "DESC"):
            after = toks[i + 1] if i + 1 < len(toks) else None
            if after is None or after.text in (",", ")") or after.is_word(
                    "WITH", "HAVING", "ORDER", "LIMIT", "UNION", "EXCEPT", "INTERSECT",
                    "WINDOW", "FOR", "INTO", "LOCK", "PROCEDURE"):
                cuts.append((t.start, t.end))
                if t.is_word("DESC"):
                    desc.append(key)
        elif depth == 0 and t.is_word("HAVING", "ORDER", "LIMIT", "UNION", "EXCEPT",
                                      "INTERSECT", "WINDOW"):
            break
    for start, end in reversed(cuts):
        text = text[:start] + " " * (end - start) + text[end:]
    return text, desc


def _from_columns(select: exp.Select, columns: Columns | None) -> set[str] | None:
    """The column names of every FROM item of `select` (None when one is not known)."""
    if columns is None:
        return None
    source = select.args.get("from_")
    items = ([source.this] if source is not None else []) + \
        [j.this for j in select.args.get("joins") or []]
    out: set[str] = set()
    for item in items:
        if not isinstance(item, (exp.Table, exp.Subquery)):
            return None
        names = columns((item.alias_or_name or "").lower())
        if names is None:
            return None
        out.update(n.lower() for n in names)
    return out


def _by_position(key: exp.Expression, select: exp.Select,
                 known: set[str] | None = None) -> exp.Expression:
    """GROUP BY 2: the select list's second item; GROUP BY alias: the aliased expression
    (an alias of a column too, when no table of the FROM clause has a column of that name:
    `d.date AS day ... GROUP BY day`; `known`: those columns' names, None if not known)."""
    if isinstance(key, exp.Literal) and not key.is_string and key.name.isdigit():
        i = int(key.name) - 1
        if 0 <= i < len(select.expressions):
            item = select.expressions[i]
            return item.this if isinstance(item, exp.Alias) else item
    if isinstance(key, exp.Column) and not key.table:
        for item in select.expressions:
            if isinstance(item, exp.Alias) and item.alias.lower() == key.name.lower() and (
                    not isinstance(item.this, exp.Column) or
                    known is not None and key.name.lower() not in known):
                return item.this
    return key


def _bind_keys(select: exp.Select) -> None:
    """Which select item each WITH ROLLUP key is the same expression as, found on the parsed
    tree (later rewrites may spell the select item otherwise than the key)."""
    group = select.args["group"]
    items = [_unslotted(e.this if isinstance(e, exp.Alias) else e) for e in select.expressions]
    group.meta["bound"] = [next((i for i, item in enumerate(items) if item == _unslotted(k)
                                 and not isinstance(k, exp.Literal | exp.Column |
                                                    exp.Placeholder)), None)
                           for k in group.expressions]


def _unslotted(e: exp.Expression) -> exp.Expression:
    """`e` with its literals' placeholders told apart by kind only: CONCAT(a, ':') in the
    select list and in GROUP BY hold the same literal in two slots of the shape."""
    copy = e.copy()
    for node in list(copy.find_all(exp.Placeholder)):
        node.set("this", (node.name or "?")[:1])
    return copy


def _bound(select: exp.Select, known: set[str] | None) -> list[int | None]:
    group = select.args["group"]
    early = group.meta.get("bound") or []
    return [_key_item(k, select, known) if _key_item(k, select, known) is not None
            else (early[i] if i < len(early) else None)
            for i, k in enumerate(group.expressions)]


def rolled_items(select: exp.Select, columns: Columns | None = None) -> set[int]:
    """The select items of a WITH ROLLUP query that its levels make NULL (group keys)."""
    group = select.args.get("group")
    if group is None or not group.args.get("rollup"):
        return set()
    known = _from_columns(select, columns)
    out: set[int] = set()
    for k, bound in zip(group.expressions, _bound(select, known)):
        if bound is not None:
            out.add(bound)
            continue
        key = _by_position(k, select, known)
        for i, item in enumerate(select.expressions):
            if _same(item.this if isinstance(item, exp.Alias) else item, key):
                out.add(i)
    return out


def _key_item(key: exp.Expression, select: exp.Select, known: set[str] | None) -> int | None:
    """Which select item a GROUP BY key names (by position, or by an alias _by_position
    resolves), or None."""
    if isinstance(key, exp.Literal) and not key.is_string and key.name.isdigit():
        i = int(key.name) - 1
        return i if 0 <= i < len(select.expressions) else None
    if isinstance(key, exp.Column) and not key.table:
        for i, item in enumerate(select.expressions):
            if isinstance(item, exp.Alias) and item.alias.lower() == key.name.lower() and (
                    not isinstance(item.this, exp.Column) or
                    known is not None and key.name.lower() not in known):
                return i
    return None


def _nulled(item: exp.Expression, rolled: list[exp.Expression],
            kept: list[exp.Expression] | None = None) -> exp.Expression:
    """The select item with the rolled-up group keys in it made NULL; an item that is a key
    still grouped by keeps its value (LEFT(a, 10) x ... GROUP BY x, a: x of the level that
    rolls a up is not NULL)."""
    copy = item.copy()
    if not rolled:
        return copy
    inner = copy.this if isinstance(copy, exp.Alias) else copy
    if kept and any(_same(inner, key) for key in kept):
        return copy
    for node in list(copy.walk(prune=lambda n: isinstance(n, exp.AggFunc))):
        # an aggregate's argument is not rolled up: SUM(a) of the total row sums every a
        if node is not copy and not isinstance(node, exp.AggFunc) and \
                any(_same(node, key) for key in rolled):
            node.replace(exp.null())
    inner = copy.this if isinstance(copy, exp.Alias) else copy
    if any(_same(inner, key) for key in rolled):
        return exp.alias_(exp.null(), copy.alias) if isinstance(copy, exp.Alias) else exp.null()
    return copy


def _having(having: exp.Expression, items: list[exp.Expression],
            rolled: list[exp.Expression]) -> exp.Expression:
    """A level's HAVING: a select alias it names is the (level's) aliased expression; a
    rolled-up key in it is NULL."""
    aliases = {e.alias.lower(): e.this for e in items if isinstance(e, exp.Alias)}
    copy = _nulled(having, rolled)
    for node in list(copy.walk()):
        if isinstance(node, exp.Column) and not node.table and \
                node.name.lower() in aliases and node is not copy:
            node.replace(aliases[node.name.lower()].copy())
    return copy


def _same(node: exp.Expression, key: exp.Expression) -> bool:
    """Is `node` the group key `key`? A column named with its table is the same column
    named without one (`t1.*` spelled out against GROUP BY i)."""
    if isinstance(node, exp.Column) and isinstance(key, exp.Column) and \
            not isinstance(node.this, exp.Star):
        return node.name.lower() == key.name.lower() and (
            not node.table or not key.table or node.table.lower() == key.table.lower())
    return node == key


def _name(item: exp.Expression, i: int) -> str:
    if isinstance(item, exp.Alias):
        return item.alias
    if isinstance(item, exp.Column):
        return item.name
    return f"rm_c{i}"


def implicit_aggregate(tree: exp.Expression) -> None:
    """Module rules: `SELECT a FROM t ORDER BY SUM(a)` / `... HAVING SUM(a) > 1` is SQLite's
    `SELECT coalesce(a, nullif(count(*), count(*))) ...`, an aggregate query with the same
    item (its name kept for an enclosing query)."""
    for select in list(tree.find_all(exp.Select)):
        if select.args.get("group") or not select.expressions or \
                any(own_aggregate(e) for e in select.expressions):
            continue
        having, order = select.args.get("having"), select.args.get("order")
        if not (having is not None and own_aggregate(having) or
                order is not None and own_aggregate(order)):
            continue
        first = select.expressions[0]
        target = first.this if isinstance(first, exp.Alias) else first
        if isinstance(target, exp.Star) or isinstance(target, exp.Column) and \
                isinstance(target.this, exp.Star):
            continue
        count = exp.Count(this=exp.Star())
        wrapped = exp.Coalesce(this=target.copy(), expressions=[
            exp.Nullif(this=count, expression=count.copy())])
        if isinstance(first, exp.Alias):
            first.set("this", wrapped)
        elif isinstance(first, exp.Column):
            first.replace(exp.alias_(wrapped, first.name, quoted=True))
        else:
            first.replace(wrapped)


def own_aggregate(node: exp.Expression) -> bool:
    """An aggregate of this query level (not of a subquery's, not a window function's), by
    its SQLite spelling (the library's are mf_ names)."""
    def prune(n: Any) -> bool:
        return n is not node and isinstance(n, (exp.Select, exp.Subquery, exp.Window))
    for n in node.walk(prune=prune):
        if isinstance(n, exp.Window) or isinstance(n, (exp.Select, exp.Subquery)) and \
                n is not node:
            continue
        if isinstance(n, _AGGREGATES):
            return True
        if isinstance(n, exp.Anonymous):
            name = n.name.lower()
            fn = funclib.lookup(name[3:] if name.startswith("mf_") else name)
            if fn is not None and fn.aggregate:
                return True
    return False
