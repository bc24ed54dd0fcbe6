"""Quantified comparisons: x op ANY | SOME | ALL (subquery), which SQLite does not have.

Rules (SQL's three-valued logic, as MariaDB answers):
- x = ANY (q) is x IN (q); x <> ALL (q) is x NOT IN (q): SQLite's IN already gives NULL
  when no row matches and some comparison is unknown.
- Any other form is written with EXISTS over the subquery, named as a CTE with one column:
  ANY is 1 when some row compares true, else NULL when some comparison is unknown, else 0;
  ALL is 0 when some row compares false, else NULL when some is unknown, else 1 (so ALL
  over no rows is 1, ANY over no rows 0).
- A subquery of more than one column is MariaDB's 1241.
- Runs on the MySQL tree before the other rewrites (they then see plain comparisons).
"""

from __future__ import annotations

import itertools

from sqlglot import exp

from rampmeter import errors
from rampmeter.errors import ServerError

_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.NullSafeEQ)


def rewrite(tree: exp.Expression) -> None:
    names = itertools.count(1)
    # innermost first: in `1 = SOME (q1) = ALL (q2)` the outer comparison's left side is the
    # inner one, which must be rewritten before it is copied into the outer's form
    for node in reversed(list(tree.find_all(exp.All, exp.Any))):
        cmp = node.parent
        if not isinstance(cmp, _COMPARISONS) or cmp.args.get("expression") is not node:
            continue
        query = node.this.this if isinstance(node.this, exp.Subquery) else node.this
        if not isinstance(query, exp.Query):
            continue
        if isinstance(query, exp.Select) and any(_row_width(e.unalias()) > 1
                                                 for e in query.expressions):
            raise ServerError(errors.ER_OPERAND_COLUMNS, 1)  # a ROW selected by the subquery
        width = _row_width(cmp.this)
        if width > 1:  # a ROW compared with SOME / ALL: MariaDB allows no vectors there
            raise ServerError(errors.ER_OPERAND_COLUMNS, width)
        if isinstance(query, exp.Select) and len(query.expressions) != 1:
            raise ServerError(errors.ER_OPERAND_COLUMNS, 1)
        every = isinstance(node, exp.All)
        if not every and type(cmp) is exp.EQ or every and type(cmp) is exp.NEQ:
            found = exp.In(this=cmp.this.copy(), query=exp.Subquery(this=query.copy()))
            cmp.replace(exp.Not(this=found) if every else found)
            continue
        cmp.replace(_exists_form(cmp, query, every, next(names)))


def _row_width(node: exp.Expression) -> int:
    """How many values `node` is: ROW(a, b) and (a, b) are two; anything else one."""
    if isinstance(node, exp.Tuple):
        return len(node.expressions)
    if isinstance(node, exp.Anonymous) and node.name.upper() == "ROW":
        return len(node.expressions)
    return 1


def _exists_form(cmp: exp.Expression, query: exp.Query, every: bool, n: int
                 ) -> exp.Expression:
    name, column = f"rm_q{n}", f"rm_c{n}"

    def rows_where(condition: exp.Expression) -> exp.Expression:
        cte = exp.CTE(this=query.copy(), alias=exp.TableAlias(
            this=exp.to_identifier(name), columns=[exp.to_identifier(column)]))
        select = exp.select("1").from_(name).where(condition)
        select.set("with_", exp.With(expressions=[cte]))
        return exp.Exists(this=select)

    def compared() -> exp.Expression:
        return type(cmp)(this=cmp.this.copy(), expression=exp.column(column, name))

    decisive = exp.Not(this=exp.paren(compared())) if every else compared()
    unknown = exp.Is(this=exp.paren(compared()), expression=exp.Null())
    return exp.paren(exp.Case(
        ifs=[exp.If(this=rows_where(decisive), true=exp.Literal.number(0 if every else 1)),
             exp.If(this=rows_where(unknown), true=exp.Null())],
        default=exp.Literal.number(1 if every else 0)))
