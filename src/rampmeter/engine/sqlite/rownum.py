"""MariaDB's ROWNUM() (10.6, Oracle's ROWNUM) rewritten into LIMITs and row numbers.

Rules:
- ROWNUM() numbers the rows a query's WHERE accepts, in the order it accepts them, before
  grouping and ordering; a row gets the next number only when the whole WHERE holds for it.
  So a top-level conjunct `ROWNUM() op X` (X without columns: a literal, a placeholder, a
  variable) keeps the first m accepted rows, where m + 1 is the first number for which the
  comparison fails, and the rest of the WHERE is an ordinary filter. m is an SQL expression
  of X (bound at execution, as every literal of the shape is): `< X` gives X - 1, `<= X`
  gives X, `= X` gives 1 when X is 1 else 0, `> X` / `>= X` keep every row or none, `<> X`
  keeps X - 1 rows when X is a positive whole number, else all.
- A query that neither groups, aggregates, orders nor removes duplicates takes m as its
  LIMIT (with its own LIMIT / OFFSET applied after it); a query over one table that does
  reads that table as `(SELECT * FROM t WHERE rest LIMIT m) AS t`. ROWNUM() in a select
  list of a query that does not group is ROW_NUMBER() OVER (). Anything else (ROWNUM() in
  an OR, in a join's ON, in a grouped select list) is 1235, never a wrong answer.
- Only statements that name ROWNUM pay for this (translate checks the shape first).
"""

from __future__ import annotations

from sqlglot import exp

from rampmeter import errors
from rampmeter.engine.sqlite import queryforms
from rampmeter.errors import ServerError

_ALL = exp.Literal.number(9223372036854775807)  # "no limit" for SQLite's MIN()


def names_rownum(shape: str) -> bool:
    return "ROWNUM" in shape.upper()


def _is_rownum(node: exp.Expression) -> bool:
    return isinstance(node, exp.Anonymous) and node.name.upper() == "ROWNUM" and \
        not node.expressions


def rewrite(tree: exp.Expression) -> None:
    for select in list(tree.find_all(exp.Select)):
        _rewrite_select(select)
    if any(_is_rownum(n) for n in tree.walk()):
        raise _unsupported()


def _unsupported() -> ServerError:
    return ServerError(errors.ER_NOT_SUPPORTED_YET, "ROWNUM() in this position")


def _rewrite_select(select: exp.Select) -> None:
    where = select.args.get("where")
    limits: list[exp.Expression] = []
    if where is not None:
        rest: list[exp.Expression] = []
        for term in where.this.flatten() if isinstance(where.this, exp.And) else [where.this]:
            m = _keep(term.unnest())
            if m is not None:
                limits.append(m)
            else:
                rest.append(term)
        if limits and rest:
            where.set("this", exp.and_(*rest))
        elif limits:
            select.set("where", None)
    grouped = bool(select.args.get("group")) or any(
        queryforms.is_aggregate(n) for e in select.expressions for n in e.walk())
    simple = not grouped and not select.args.get("order") and not select.args.get("distinct")
    for item in select.expressions:
        for node in list(item.walk()):
            if _is_rownum(node):
                if grouped:
                    raise _unsupported()
                node.replace(exp.Window(this=exp.RowNumber()))
    if not limits:
        return
    m = limits[0] if len(limits) == 1 else exp.Anonymous(this="MIN", expressions=limits)
    if simple:
        _cap_limit(select, m)
        return
    _limit_source(select, m)


def _keep(term: exp.Expression) -> exp.Expression | None:
    """How many accepted rows `term` keeps, as SQL; None when it is not `ROWNUM() op X`."""
    if not isinstance(term, (exp.EQ, exp.NEQ, exp.LT, exp.LTE, exp.GT, exp.GTE)):
        return None
    left, right, op = term.this, term.expression, type(term)
    if _is_rownum(right) and not _is_rownum(left):
        left, right = right, left
        op = {exp.LT: exp.GT, exp.LTE: exp.GTE, exp.GT: exp.LT, exp.GTE: exp.LTE}.get(op, op)
    if not _is_rownum(left) or right.find(exp.Column) is not None or \
            any(_is_rownum(n) for n in right.walk()):
        return None
    x = right.copy()
    if op is exp.LTE:
        return _max0(exp.Floor(this=x))
    if op is exp.LT:
        return _max0(exp.Sub(this=exp.Ceil(this=x), expression=exp.Literal.number(1)))
    if op is exp.EQ:
        return _case(exp.EQ(this=x, expression=exp.Literal.number(1)), exp.Literal.number(1),
                     exp.Literal.number(0))
    if op is exp.GT:
        return _case(exp.LT(this=x, expression=exp.Literal.number(1)), _ALL.copy(),
                     exp.Literal.number(0))
    if op is exp.GTE:
        return _case(exp.LTE(this=x, expression=exp.Literal.number(1)), _ALL.copy(),
                     exp.Literal.number(0))
    whole = exp.and_(exp.GTE(this=x, expression=exp.Literal.number(1)),
                     exp.EQ(this=x.copy(), expression=exp.Floor(this=x.copy())))
    return _case(whole, exp.Sub(this=x.copy(), expression=exp.Literal.number(1)), _ALL.copy())


def _max0(e: exp.Expression) -> exp.Expression:
    return exp.Anonymous(this="MAX", expressions=[e, exp.Literal.number(0)])


def _case(cond: exp.Expression, yes: exp.Expression, no: exp.Expression) -> exp.Expression:
    # NULL compared with ROWNUM() holds for no row: the default keeps none
    return exp.Case(ifs=[exp.If(this=cond, true=yes)], default=no)


def _cap_limit(select: exp.Select, m: exp.Expression) -> None:
    """LIMIT l OFFSET o over the first m rows: LIMIT MIN(l, MAX(m - o, 0)) OFFSET o."""
    limit = select.args.get("limit")
    offset = select.args.get("offset")
    o = offset.expression.copy() if isinstance(offset, exp.Offset) else None
    if isinstance(limit, exp.Limit) and limit.args.get("offset") is not None:
        o = limit.args["offset"].copy()
    room = _max0(exp.Sub(this=m, expression=o)) if o is not None else m
    if isinstance(limit, exp.Limit) and limit.expression is not None:
        room = exp.Anonymous(this="MIN", expressions=[limit.expression.copy(), room])
        limit.set("expression", room)
    else:
        select.set("limit", exp.Limit(expression=room))


def _limit_source(select: exp.Select, m: exp.Expression) -> None:
    """A grouped or ordered query over one table reads that table's first m accepted rows."""
    source = select.args.get("from_")
    if select.args.get("joins") or source is None or not isinstance(source.this, exp.Table):
        raise _unsupported()
    table = source.this
    alias = table.alias_or_name
    inner = exp.Select(expressions=[exp.Star()]).from_(table.copy())
    where = select.args.get("where")
    if where is not None:
        inner.set("where", where.copy())
        select.set("where", None)
    inner.set("limit", exp.Limit(expression=m))
    source.set("this", exp.Subquery(this=inner, alias=exp.TableAlias(
        this=exp.to_identifier(alias))))
