"""Long IN lists of literals: one JSON parameter instead of one placeholder per item.

Rules:
- Why: an ORM's `WHERE id IN (...)` of 100 000 literals cost 66 s here (MariaDB: 0.2 s):
  sqlglot parses, walks and generates every item, and SQLite looks each named parameter up in
  a list, which is quadratic (120 000 `:sN` parameters: 85 s inside sqlite3_prepare alone).
- `collapse(text)` finds `IN (` followed by at least MIN_ITEMS literal slots of one kind
  (strings, integers, decimals or doubles: values that JSON carries exactly) and nothing else,
  and keeps only the first slot, so the tree has one item typed like all the others.
- `expand(plan_sql, lists)` turns the generated `IN (:first)` into
  `IN (SELECT value FROM json_each(:rm_in_first))`. If a rewrite changed that text (the item
  was wrapped in a conversion), expansion fails and the caller translates the statement again
  without collapsing: the fast path never changes an answer, it is taken only when the plan
  compares the items exactly as the long form would.
- `bind(lists, bound)` adds each list's JSON array of the bound values; it returns False when a
  value is not one JSON carries (a binary string), and the caller then uses the long form.
- Comparison is SQLite's `x IN (SELECT ...)`: the left operand's affinity and collation apply,
  as they do for `x IN (list)`, so results are the same as the long form's.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.translate import Plan, TableLookup
    from rampmeter.sql.statement import Statement

MIN_ITEMS = 64
_LIST = re.compile(r"\bIN\s*\(\s*:([sifn])(\d+(?:_\d+)?)((?:\s*,\s*:\1\d+(?:_\d+)?){"
                   + str(MIN_ITEMS - 1) + r",})\s*\)", re.IGNORECASE)
_SLOT = re.compile(r":([sifn]\d+(?:_\d+)?)")
PREFIX = "rm_in_"


def collapse(text: str) -> tuple[str, dict[str, tuple[str, ...]]]:
    """`text` with each long literal IN list cut to its first item; first item -> all items."""
    if len(text) < MIN_ITEMS * 3:
        return text, {}
    lists: dict[str, tuple[str, ...]] = {}

    def cut(m: re.Match[str]) -> str:
        first = m.group(1) + m.group(2)
        lists[first] = (first, *_SLOT.findall(m.group(3)))
        return f"IN (:{first})"

    return _LIST.sub(cut, text), lists


def plan(stmt: Statement, database: str | None, lookup: TableLookup,
         settings: Any = None, *, zone_shift: bool = False) -> Plan:
    """translate.translate with long IN lists collapsed when the plan allows it (the rules);
    otherwise the long form's plan. The caller binds `plan.lists` with `bind`."""
    # translate imports collapse from here
    from rampmeter.engine.sqlite.translate import DEFAULT_SETTINGS, translate
    settings = settings or DEFAULT_SETTINGS

    lists: dict[str, tuple[str, ...]] = {}
    try:
        found = translate(stmt, database, lookup, settings, lists, zone_shift=zone_shift)
    except ServerError:
        if not lists:
            raise
        # the error's position is the long form's
        return translate(stmt, database, lookup, settings, zone_shift=zone_shift)
    if not lists:
        return found
    sqls = expand([found.sql] + [sql for sql, _t, _c in found.steps], lists)
    if sqls is None:
        return translate(stmt, database, lookup, settings, zone_shift=zone_shift)
    found.sql = sqls[0]
    found.steps = [(sql, t, c) for sql, (_s, t, c) in zip(sqls[1:], found.steps)]
    found.lists = lists
    return found


def expand(sqls: list[str], lists: dict[str, tuple[str, ...]]) -> list[str] | None:
    """The generated statements with each collapsed list read from its JSON parameter; None when
    a list's `IN (:first)` is not there as generated (see the rules)."""
    out = list(sqls)
    for first in lists:
        marker = f"IN (:{first})"
        hits = [i for i, sql in enumerate(out) if sql.count(marker) == 1]
        if len(hits) != 1 or sum(sql.count(f":{first}") for sql in out) != 1:
            return None
        i = hits[0]
        out[i] = out[i].replace(marker, f"IN (SELECT value FROM json_each(:{PREFIX}{first}))")
    return out


def bind(lists: dict[str, tuple[str, ...]], bound: dict[str, Any]) -> bool:
    for first, names in lists.items():
        values = [bound[n] for n in names]
        if not all(type(v) in (str, int, float) for v in values):
            return False
        text = json.dumps(values, ensure_ascii=False)
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a string that is not valid UTF-8 (kept as surrogates)
            return False
        bound[PREFIX + first] = text
    return True
