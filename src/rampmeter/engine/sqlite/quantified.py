"""Quantified comparisons: x op ANY | SOME | ALL (subquery), which SQLite does not have.

Rules (SQL's three-valued logic, as MariaDB answers):
- x = ANY (q) is x IN (q); x <> ALL (q) is x NOT IN (q): SQLite's IN already gives NULL
  when no row matches and some comparison is unknown.
- Any other form is written with EXISTS over the subquery, named as a CTE with one column:
  ANY is 1 when some row compares true, else NULL when some comparison is unknown, else 0;
  ALL is 0 when some row compares false, else NULL when some is unknown, else 1 (so ALL
  over no rows is 1, ANY over no rows 0).
- The subquery must have as many columns as the left operand has values, else MariaDB's
  1241 naming that width (`ROW(1, 2) = SOME (SELECT 1)`: 2 column(s)); a row among the
  subquery's columns is 1241 (1 column), and so is a row compared other than as = ANY /
  <> ALL.
- Comparisons chained on quantified ones (`1 = SOME (q1) = ALL (q2)`) are rewritten from the
  innermost out, so the outer rewrite copies an already rewritten operand.
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
    # deepest first (find_all walks breadth first): an outer comparison copies its operands
    for node in reversed(list(tree.find_all(exp.All, exp.Any))):
        cmp = node.parent
        if not isinstance(cmp, _COMPARISONS) or cmp.args.get("expression") is not node:
            continue
        query = node.this.this if isinstance(node.this, exp.Subquery) else node.this
        if not isinstance(query, exp.Query):
            continue
        width = _row_width(cmp.this)
        if isinstance(query, exp.Select):
            if any(_row_width(e.unalias()) > 1 for e in query.expressions):
                raise ServerError(errors.ER_OPERAND_COLUMNS, 1)  # no rows inside SOME / ALL
            if len(query.expressions) != width:
                raise ServerError(errors.ER_OPERAND_COLUMNS, width)
        every = isinstance(node, exp.All)
        in_form = not every and type(cmp) is exp.EQ or every and type(cmp) is exp.NEQ
        if width > 1 and not in_form:  # a row compares only as = ANY / <> ALL (IN)
            raise ServerError(errors.ER_OPERAND_COLUMNS, 1)
        if in_form:
            found = exp.In(this=cmp.this.copy(), query=exp.Subquery(this=query.copy()))
            cmp.replace(exp.Not(this=found) if every else found)
            continue
        cmp.replace(_exists_form(cmp, query, every, next(names)))


def _row_width(operand: exp.Expression) -> int:
    """How many values a row operand holds (ROW(a, b) / (a, b)); 1 for a scalar."""
    if isinstance(operand, exp.Tuple):
        return len(operand.expressions)
    if isinstance(operand, exp.Anonymous) and str(operand.this).lower() == "row":
        return len(operand.expressions)
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
