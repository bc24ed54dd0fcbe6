"""Which clause of a statement names a column: the last word of MariaDB's 1054 / 1052.

Rules:
- MariaDB 10.11 words ER_BAD_FIELD_ERROR as "Unknown column 'x' in 'CLAUSE'" where CLAUSE is
  the part of the statement being resolved when the name was not found: 'SELECT' (the
  select list), 'WHERE', 'ON', 'GROUP BY', 'HAVING', 'ORDER BY', 'FROM' (USING), 'SET'
  (UPDATE), 'IN/ALL/ANY' (the left operand of IN (subquery), op ANY / ALL (subquery)),
  'RETURNING', 'UPDATE' (ON DUPLICATE KEY UPDATE), 'INSERT INTO' (the column list).
- SQLite's "no such column" does not say where; `clause_of` finds the column in the SQLite
  text the statement ran as (the names survive translation) and names the innermost clause
  around its first occurrence, in the order MariaDB resolves a query's clauses (FROM, SELECT,
  WHERE, ON, ORDER BY, GROUP BY, HAVING), so the answer matches when a name occurs twice.
- Runs only when a statement failed, never on the common path. When the text cannot be
  parsed or the column is not found, the answer is 'SELECT', MariaDB's most common one.
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

DEFAULT = "SELECT"

# arg key of a query node -> (order MariaDB resolves it in, clause name)
_SELECT_ARGS = {
    "joins": (0, "FROM"), "expressions": (1, "SELECT"), "where": (2, "WHERE"),
    "order": (4, "ORDER BY"), "group": (5, "GROUP BY"), "having": (6, "HAVING"),
}
_UPDATE_ARGS = {"expressions": (1, "SET"), "where": (2, "WHERE"), "order": (4, "ORDER BY"),
                "returning": (7, "RETURNING")}
_DML_ARGS = {"where": (2, "WHERE"), "order": (4, "ORDER BY"), "returning": (7, "RETURNING")}


def _quantified_left(node: exp.Expression) -> bool:
    """Is `node` the left operand of IN (subquery) / op ANY / op ALL (MariaDB resolves it
    as 'IN/ALL/ANY')?"""
    parent = node.parent
    if isinstance(parent, exp.In) and node.arg_key == "this":
        return parent.args.get("query") is not None
    if isinstance(parent, exp.Binary) and node.arg_key == "this":
        return isinstance(parent.expression, exp.Any | exp.All)
    return False


def _clause(col: exp.Column) -> tuple[int, str] | None:
    node: exp.Expression = col
    quantified = False
    while node.parent is not None:
        quantified = quantified or _quantified_left(node)
        parent, key = node.parent, node.arg_key
        found: tuple[int, str] | None = None
        if isinstance(parent, exp.Join) and key in ("on", "using"):
            found = (3, "ON") if key == "on" else (0, "FROM")
        elif isinstance(parent, exp.Select):
            found = _SELECT_ARGS.get(key)
        elif isinstance(parent, exp.Update):
            found = _UPDATE_ARGS.get(key)
        elif isinstance(parent, exp.Delete | exp.Insert):
            found = _DML_ARGS.get(key)
            if isinstance(parent, exp.Insert) and key == "conflict":
                found = (1, "UPDATE")
        elif isinstance(parent, exp.Returning):
            found = (7, "RETURNING")
        if found is not None:
            return (found[0], "IN/ALL/ANY") if quantified else found
        node = parent
    return None


def clause_of_node(node: exp.Expression) -> str:
    """The clause a node of a parsed statement is in, as MariaDB names it."""
    found = _clause(node)  # type: ignore[arg-type]
    return found[1] if found is not None else DEFAULT


def clause_of(sql: str, column: str) -> str:
    """The clause MariaDB would name for the unknown `column` ('t.c' or 'c') of `sql`."""
    parts = column.lower().split(".")
    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except (sqlglot.errors.ParseError, sqlglot.errors.TokenError, ValueError):
        return DEFAULT
    best: tuple[int, str] | None = None
    for col in tree.find_all(exp.Column):
        if col.name.lower() != parts[-1]:
            continue
        if len(parts) > 1 and col.table.lower() != parts[-2]:
            continue
        found = _clause(col)
        if found is not None and (best is None or found[0] < best[0]):
            best = found
    return best[1] if best is not None else DEFAULT
