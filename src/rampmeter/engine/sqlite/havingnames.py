"""Which names a HAVING clause may use: MariaDB's 1054 "Unknown column 'x' in 'HAVING'".

Rules:
- MariaDB resolves a column named in HAVING (outside an aggregate of that query) against the
  query's select list (an alias, or an item that is that column; `*` is every column of the
  FROM clause), then its GROUP BY columns, then the queries around it (their FROM clauses'
  columns): never against its own FROM clause alone. So `SELECT COUNT(*) FROM t GROUP BY b
  HAVING a = 1` is 1054 for `a`, and so is an alias of an outer query's select list.
  SQLite reads any column of the FROM clause there (and an outer query's aliases), so the
  name would be answered instead.
- Checked on the parsed statement, before HAVING without GROUP BY becomes a WHERE
  (queryforms.py). Only what can be told for sure is refused: a name is 1054 when it is a
  column of this query's own tables and of no table around it, or, when every table in sight
  is a known table, when it is only an outer query's alias (SQLite would find that); a name
  nothing has is left to SQLite's "no such column". Sources whose columns are not known here
  (derived tables, CTEs, virtual schemas) make the check say nothing rather than guess.
- A name inside a subquery of HAVING is that subquery's business; one inside an aggregate
  (SUM(a)) reads the FROM clause, as in MariaDB.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp

from rampmeter import errors
from rampmeter.engine.sqlite import queryforms
from rampmeter.engine.sqlite.catalog import TableDef
from rampmeter.errors import ServerError

Lookup = Callable[[str, str], "TableDef | None"]
_VIRTUAL = ("information_schema", "performance_schema")


class _Scope:
    """The sources of one query's FROM clause: alias -> column names (None: not known)."""

    def __init__(self, select: exp.Select, database: str | None, lookup: Lookup,
                 ctes: set[str]) -> None:
        self.sources: dict[str, set[str] | None] = {}
        for node in select.find_all(exp.Table, exp.Subquery):
            if node.find_ancestor(exp.Select) is not select or \
                    not isinstance(node.parent, (exp.From, exp.Join)):
                continue
            alias = (node.alias or (node.name if isinstance(node, exp.Table) else "")).lower()
            self.sources[alias] = _columns(node, database, lookup, ctes) \
                if isinstance(node, exp.Table) else None

    @property
    def known(self) -> bool:
        return all(cols is not None for cols in self.sources.values())

    def has(self, name: str) -> bool:
        return any(cols is not None and name in cols for cols in self.sources.values())


def _columns(table: exp.Table, database: str | None, lookup: Lookup, ctes: set[str]
             ) -> set[str] | None:
    db = table.db or database
    if not table.name or not db or not table.db and table.name.lower() in ctes or \
            db.lower() in _VIRTUAL:
        return None
    try:
        tdef = lookup(db, table.name)
    except ServerError:
        return None
    if tdef is None or not tdef.columns:
        return None
    return {c.name.lower() for c in tdef.columns}


def check(tree: exp.Expression, database: str | None, lookup: Lookup) -> None:
    """1054 for a HAVING name MariaDB would not find (module rules)."""
    ctes = {c.alias_or_name.lower() for c in tree.find_all(exp.CTE)}
    for select in tree.find_all(exp.Select):
        having = select.args.get("having")
        if having is not None:
            _check(select, having, database, lookup, ctes)


# words a function takes as an argument that sqlglot reads as columns (TIMESTAMPADD(SECOND,
# ..), GET_FORMAT(DATE, ..)): no column names
_KEYWORD_ARGUMENTS = frozenset((
    "MICROSECOND", "SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "QUARTER", "YEAR",
    "SECOND_MICROSECOND", "MINUTE_MICROSECOND", "MINUTE_SECOND", "HOUR_MICROSECOND",
    "HOUR_SECOND", "HOUR_MINUTE", "DAY_MICROSECOND", "DAY_SECOND", "DAY_MINUTE", "DAY_HOUR",
    "YEAR_MONTH", "FRAC_SECOND", "DATE", "TIME", "DATETIME", "TIMESTAMP"))


def _keyword(col: exp.Column) -> bool:
    name = col.name.upper()
    return not col.table and not col.this.quoted and isinstance(
        col.parent, (exp.Anonymous, exp.Func)) and (
        name in _KEYWORD_ARGUMENTS or name.startswith("SQL_TSI_"))


def _own_columns(select: exp.Select, having: exp.Having) -> list[exp.Column]:
    out = []
    for col in having.find_all(exp.Column):
        if isinstance(col.this, exp.Star) or _keyword(col):
            continue
        node: exp.Expression | None = col.parent
        inside = False
        while node is not None and node is not having:
            if isinstance(node, (exp.Select, exp.Subquery)) or queryforms.is_aggregate(node):
                inside = True
                break
            node = node.parent
        if not inside:
            out.append(col)
    return out


def _check(select: exp.Select, having: exp.Having, database: str | None, lookup: Lookup,
           ctes: set[str]) -> None:
    columns = _own_columns(select, having)
    if not columns:
        return
    items: set[str] = set()
    aliases: set[str] = set()
    fields: dict[str, set[str]] = {}  # a select item that is a column: name -> its tables
    grouped: dict[str, set[str]] = {}
    star = bare_star = False
    for e in select.expressions:
        value = e.this if isinstance(e, exp.Alias) else e
        if isinstance(e, exp.Alias):
            aliases.add(e.alias.lower())
        if isinstance(value, exp.Star) or isinstance(value, exp.Column) and \
                isinstance(value.this, exp.Star):
            star = True
            bare_star = bare_star or isinstance(value, exp.Star)
        elif isinstance(value, exp.Column):  # found by its alias and by its own name
            fields.setdefault(value.name.lower(), set()).add(value.table.lower())
    group = select.args.get("group")
    for e in group.expressions if group is not None else ():
        if isinstance(e, exp.Column):
            grouped.setdefault(e.name.lower(), set()).add(e.table.lower())
    items = aliases | set(fields) | set(grouped)
    own = _Scope(select, database, lookup, ctes)
    outer_selects = _outer_selects(select)
    outer = [_Scope(s, database, lookup, ctes) for s in outer_selects]
    # an outer query's aliases are seen from a subquery in its select list, GROUP BY,
    # HAVING or ORDER BY, not from one in its WHERE / ON / FROM
    visible: set[str] = set()
    hidden: set[str] = set()
    for s in outer_selects:
        names = {e.alias.lower() for e in s.expressions if isinstance(e, exp.Alias)}
        (hidden if _placed(select, s) in ("where", "joins", "from_", "from") else
         visible).update(names)
    for col in columns:
        name = col.name.lower()
        if not col.table and name in visible and name not in items:
            continue
        if not col.table and name not in aliases:
            # two select items (else two GROUP BY columns) of that name from different
            # tables: MariaDB cannot tell which one HAVING means
            tables = fields.get(name) or grouped.get(name) or set()
            if len(tables) > 1 or bare_star and name not in fields and sum(
                    1 for cols in own.sources.values() if cols is not None and name in cols) > 1:
                raise ServerError(errors.ER_NON_UNIQ_ERROR, col.name, "HAVING")
        if name in items or star and own.has(name):
            continue
        qualifier = col.table.lower()
        if qualifier:
            if any(qualifier in s.sources for s in outer) or qualifier not in own.sources:
                continue
            cols = own.sources[qualifier]
            if cols is not None and name in cols:
                raise ServerError(errors.ER_BAD_FIELD_ERROR, f"{col.table}.{col.name}",
                                  "HAVING")
            continue
        if any(s.has(name) for s in outer) or not all(s.known for s in outer):
            continue
        # a name no table has is SQLite's "no such column" too (1054 'HAVING' by
        # clauses.py), unless SQLite finds it as an outer query's alias
        if own.has(name) or own.known and name in hidden:
            raise ServerError(errors.ER_BAD_FIELD_ERROR, col.name, "HAVING")


def _placed(select: exp.Select, outer: exp.Select) -> str:
    """The clause of `outer` (its arg key) that holds `select`."""
    node: exp.Expression = select
    while node.parent is not None and node.parent is not outer:
        node = node.parent
    return node.arg_key


def _outer_selects(select: exp.Select) -> list[exp.Select]:
    out = []
    node = select.parent
    while node is not None:
        if isinstance(node, exp.Select):
            out.append(node)
        node = node.parent
    return out
