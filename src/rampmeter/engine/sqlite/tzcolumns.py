"""TIMESTAMP columns hold UTC; a session sees them in its own time zone (MariaDB's rule).

Rules:
- Stored: every value written to a TIMESTAMP column is converted from the session's zone to
  UTC where dml.Execution converts stored values; DEFAULT / ON UPDATE CURRENT_TIMESTAMP of a
  TIMESTAMP column store UTC_TIMESTAMP() directly (translate._now_call).
- Read: when the session's zone is not UTC (the plan cache keeps both kinds of plans apart),
  the plan reads TIMESTAMP columns through rm_from_utc(): a column the query returns as it is
  (a bare column of a base table in the outer SELECT, `*` included) is converted in Python
  after the query (`Plan.tz_outputs`, dml.py), so SQLite still sees the bare column and
  `SELECT *` needs no expansion; every other reference (WHERE, ON, expressions, subqueries,
  views, UNION branches) is wrapped in SQL, so comparisons and functions see local times. A
  wrapped column cannot use an index; sessions in UTC (the default on a UTC machine) pay
  nothing.
- Not wrapped: the columns a statement writes (INSERT's column list, UPDATE's and ON
  DUPLICATE KEY UPDATE's targets).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.infer import Typer
    from rampmeter.engine.sqlite.translate import Output


def python_outputs(tree: exp.Expression, outputs: list[Output] | None) -> list[int]:
    """Indexes of the outputs converted after the query: bare TIMESTAMP columns of base
    tables in a plain SELECT."""
    if not isinstance(tree, exp.Select) or outputs is None:
        return []
    return [i for i, o in enumerate(outputs)
            if o is not None and o.sql_type is not None and o.sql_type.name == "timestamp"
            and o.org_table and not o.view]


def wrap_reads(tree: exp.Expression, typer: Typer, *, outputs_in_python: bool) -> None:
    """rm_from_utc() around the TIMESTAMP column references SQLite must see as local times."""
    exempt: set[int] = set()
    if outputs_in_python and isinstance(tree, exp.Select):
        for e in tree.expressions:
            inner = e.this if isinstance(e, exp.Alias) else e
            if isinstance(inner, exp.Column):
                exempt.add(id(inner))
    for col in list(tree.find_all(exp.Column)):
        if id(col) in exempt or _written(col) or isinstance(col.this, exp.Star):
            continue
        t = typer.infer(col)
        if t is None or t.name != "timestamp":
            continue
        wrapped = exp.Anonymous(this="rm_from_utc", expressions=[col.copy()])
        if isinstance(col.parent, exp.Select) and col.arg_key == "expressions":
            wrapped = exp.alias_(wrapped, col.name, quoted=True)
        col.replace(wrapped)


def _written(col: exp.Column) -> bool:
    parent = col.parent
    if isinstance(parent, exp.Schema):           # INSERT INTO t (a, b)
        return True
    if isinstance(parent, exp.EQ) and col.arg_key == "this":
        return isinstance(parent.parent, (exp.Update, exp.OnConflict))
    return False
