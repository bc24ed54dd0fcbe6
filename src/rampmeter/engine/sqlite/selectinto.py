"""SELECT ... INTO @var [, @var ...]: the one row a query gives, into user variables.

Rules (MariaDB 10.11's):
- The INTO clause may stand after the select list or at the end of the statement (after FROM,
  WHERE, ORDER BY, LIMIT). It is taken out of the statement's shape here and the rest runs as
  the ordinary SELECT it is (one plan, cached by that shape).
- One row: each variable gets its column's value (a different count is 1222). No row: the
  variables keep their values, with warning 1329. More than one: 1172, nothing assigned.
- The client gets an OK packet counting the row (1, or 0). INTO after the FROM clause also
  gets MariaDB's deprecation warning 1287.
- `SELECT ... INTO OUTFILE / DUMPFILE` is outfile.py's; INTO of local variables (stored
  programs) is not here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rampmeter.engine.base import ResultSet, UpdateCount
from rampmeter.errors import (
    ER_SP_FETCH_NO_DATA,
    ER_TOO_MANY_ROWS,
    ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT,
    ServerError,
    Warning_,
)
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

_INTO = re.compile(r"\bINTO\s+(@[\w$.]+(?:\s*,\s*@[\w$.]+)*)", re.IGNORECASE)
MAYBE = re.compile(r"\bINTO\s+@", re.IGNORECASE)


_FROM = re.compile(r"\bFROM\b", re.IGNORECASE)
_DEPRECATED = ("'<select expression> INTO <destination>;' is deprecated and will be removed "
               "in a future release. Please use 'SELECT <select list> INTO <destination> "
               "FROM...' instead")


def split(stmt: Statement) -> tuple[Statement, list[str], bool] | None:
    """The statement without its INTO clause, the variables, and whether the clause came
    after FROM; None when it has none at the outer level."""
    shape = stmt.shape
    for m in _INTO.finditer(shape):
        if _depth(shape, m.start()) != 0:
            continue
        names = [n.strip()[1:] for n in m.group(1).split(",")]
        rest = shape[:m.start()] + shape[m.end():]
        late = any(_depth(shape, f.start()) == 0 for f in _FROM.finditer(shape, 0, m.start()))
        return Statement(stmt.text, stmt.words, " ".join(rest.split()), stmt.slots,
                         stmt.names, stmt.param_count, stmt.items, stmt.for_update,
                         stmt.tokens, stmt.dialect, stmt.charset), names, late
    return None


def _depth(text: str, end: int) -> int:
    depth = 0
    quoted = False
    for ch in text[:end]:
        if ch == "`":
            quoted = not quoted
        elif not quoted:
            depth += ch == "("
            depth -= ch == ")"
    return depth


def assign(s: SqliteSession, result: Any, names: list[str], late: bool) -> UpdateCount:
    if not isinstance(result, ResultSet):
        raise ServerError(ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT)
    rows = list(result.rows)
    if rows and len(rows[0]) != len(names):
        raise ServerError(ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT)
    if len(rows) > 1:
        raise ServerError(ER_TOO_MANY_ROWS)
    warnings = list(result.warnings)
    if late:
        warnings.insert(0, Warning_("Warning", 1287, _DEPRECATED))
    if not rows:
        warnings.append(Warning_.of(ER_SP_FETCH_NO_DATA))
        return UpdateCount(0, warnings=warnings)
    for name, value in zip(names, rows[0], strict=True):
        s.context.set_user_variable(name, value)
    return UpdateCount(1, warnings=warnings)
