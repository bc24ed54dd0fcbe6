"""Constants a query converts before it reads a row, as MariaDB converts them when it prepares
the statement.

Rules:
- A DATE / DATETIME / TIME compared with a constant reads the constant as that type
  (rm_temporal, compare.py). MariaDB converts it once, when the comparison is set up, so its
  warning ("Truncated incorrect datetime value: ''") comes even when no row is read (an empty
  table, a derived table with no rows). SQLite evaluates rm_temporal(:p, ...) lazily, at the
  first row. So a query (not a write: strict mode makes a write's warning its error, which
  needs the running statement) converts each such literal when it is bound: `plan.eager`
  lists (slot, type, fsp) for the slots used only there, and the bound value becomes the
  converted one, which rm_temporal then reads again without a warning (the stored forms are
  their own conversions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlglot import exp

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession


def collect(tree: exp.Expression) -> list[tuple[str, str, int]]:
    """The rm_temporal calls over a slot that the statement uses nowhere else."""
    uses: dict[str, int] = {}
    for p in tree.find_all(exp.Placeholder):
        uses[p.name] = uses.get(p.name, 0) + 1
    out: list[tuple[str, str, int]] = []
    for call in tree.find_all(exp.Anonymous):
        if call.name != "rm_temporal" or len(call.expressions) != 3:
            continue
        slot, name, fsp = call.expressions
        if isinstance(slot, exp.Placeholder) and uses.get(slot.name) == 1 and \
                isinstance(name, exp.Literal) and isinstance(fsp, exp.Literal):
            out.append((slot.name, name.this, int(fsp.this)))
    return out


def convert(s: SqliteSession, eager: list[tuple[str, str, int]], bound: dict[str, Any]) -> None:
    """Convert the listed slots' values now, with their warnings (module rules)."""
    for slot, name, fsp in eager:
        value = bound.get(slot)
        if value is not None:
            bound[slot] = s.handle.execute("SELECT rm_temporal(?, ?, ?)",
                                           (value, name, fsp)).fetchone()[0]
