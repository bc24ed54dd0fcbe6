"""Which tables a multi-table DELETE names as its targets, as MariaDB 10.11 reads them.

Rules:
- MariaDB's grammar takes no alias on a DELETE's targets (`DELETE FROM t a WHERE`, `DELETE
  FROM t a USING ...`, `DELETE t a FROM ...`: 1064 near the alias); its tables list (FROM of
  `DELETE t FROM`, USING of `DELETE FROM t USING`) does (`aliased_target`, on the shape).
- A target is matched against that list as sql_delete.cc's multi_delete_table_match does:
  a target written with its database matches only an entry without alias, by name and
  database; a target without one matches an aliased entry by its alias, any other by its
  name and the current database. No match is 1109 "Unknown table 't' in MULTI DELETE", two
  are 1066 "Not unique table/alias", both before any table is opened (a missing table is
  1146 after: multi.plan_delete). Without a current database the check is left out.
"""

from __future__ import annotations

from sqlglot import exp

from rampmeter import errors
from rampmeter.engine.sqlite.modifiers import shape_tokens
from rampmeter.errors import ServerError

_MODIFIERS = frozenset({"LOW_PRIORITY", "QUICK", "IGNORE"})
# what may follow a target: the next clause (a PARTITION list, FOR PORTION OF)
_AFTER_TARGET = frozenset({"FROM", "USING", "WHERE", "ORDER", "LIMIT", "RETURNING",
                           "PARTITION", "FOR"})


def aliased_target(shape: str) -> int | None:
    """Where in a DELETE's shape a target has an alias (MariaDB's 1064 is near it), or None."""
    toks = shape_tokens(shape)
    if not toks or toks[0].upper != "DELETE":
        return None
    i = 1
    while i < len(toks) and toks[i].upper in _MODIFIERS:
        i += 1
    if i < len(toks) and toks[i].upper == "FROM":
        i += 1
    expect_name = True   # after DELETE / FROM, a comma or a dot
    for t in toks[i:]:
        if expect_name:
            if t.kind not in ("word", "qident") and t.text != "*":
                return None
            expect_name = False
        elif t.text in (".", ","):
            expect_name = True
        elif t.upper in _AFTER_TARGET or t.kind not in ("word", "qident"):
            return None
        else:
            return t.start  # a name right after a target: its alias
    return None


def check(tree: exp.Expression, database: str | None) -> None:
    """1109 / 1066 for a multi-table DELETE's targets (module rules)."""
    if not isinstance(tree, exp.Delete) or not database:
        return
    using = tree.args.get("using")
    if using:
        first = tree.this
        targets = [first] + [j.this for j in first.args.get("joins") or []]
        source = using[0] if isinstance(using, list) else using
    else:
        targets = tree.args.get("tables") or []
        source = tree.this
    if not targets or not isinstance(source, (exp.Table, exp.Subquery)):
        return
    entries = [source] + [j.this for j in source.args.get("joins") or []]
    for t in targets:
        if not isinstance(t, exp.Table):
            continue
        match = None
        for e in entries:
            if not isinstance(e, (exp.Table, exp.Subquery)):
                continue
            if e.alias or not isinstance(e, exp.Table):
                if t.db or t.name.lower() != e.alias.lower():
                    continue
            elif t.name.lower() != e.name.lower() or \
                    (t.db or database) != (e.db or database):
                continue
            if match is not None:
                raise ServerError(errors.ER_NONUNIQ_TABLE, e.alias_or_name)
            match = e
        if match is None:
            raise ServerError(1109, message=f"Unknown table '{t.name}' in MULTI DELETE",
                              sqlstate="42S02")
