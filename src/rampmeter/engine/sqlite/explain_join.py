"""What MariaDB's executor adds to a join's plan rows once the join order is chosen
(explain.py's rows, in SQLite's order): join buffers and the NOT NULL tests of key lookups.

Rules (MariaDB 10.11, sql_select.cc):
- Join buffer (check_join_cache_usage): at @@join_cache_level >= 1, a table read by a scan
  (`ALL`, `index`, `range`, `index_merge`) that is not the first non-const table of its
  select is joined through a block nested loop buffer: `Using join buffer (flat, BNL join)`,
  `(incremental, BNL join)` when the table before it buffered too (level 1, or
  optimizer_switch join_cache_incremental=off: always flat). Not for the tables of a
  multi-table UPDATE / DELETE (SELECT_NO_JOIN_CACHE), nor for the inner tables of an outer
  join under outer_join_with_cache=off. From level 3 on MariaDB hashes equi-joins
  (`hash_ALL`, BNLH) and buffers key lookups (BKA), which is not said here: no join buffer
  is shown at those levels.
- NOT NULL of a key lookup (add_not_null_conds): a `ref` / `eq_ref` whose key part is
  compared with `=` to a NULL-able column of another table of the join can skip the rows
  where that column is NULL: the test `col IS NOT NULL` is added to that table's condition
  (`Using where` on it) in an inner join, and to the looking-up table's own when it is the
  inner table of an outer join.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

_SCANS = frozenset({"ALL", "index", "range", "index_merge"})
_READ_FIRST = frozenset({"system", "const"})


def _variable(s: SqliteSession, name: str) -> Any:
    try:
        return s.context.system_variable(name)
    except Exception:  # noqa: BLE001 - a session without the variable: its default
        return None


def switch(s: SqliteSession, flag: str, default: bool = True) -> bool:
    """An optimizer_switch flag of the session."""
    value = _variable(s, "optimizer_switch")
    if not value:
        return default
    for item in str(value).split(","):
        name, _, state = item.partition("=")
        if name.strip().lower() == flag:
            return state.strip().lower() == "on"
    return default


def add_where(extra: list[str]) -> None:
    """`Using where` in its place in Extra: after `Using index condition`, before the rest."""
    if any("Using where" in w for w in extra):
        return
    at = 1 if extra and extra[0].startswith("Using index condition") else 0
    extra.insert(at, "Using where")


def not_null_tests(rows: list[Any]) -> None:
    """`Using where` where MariaDB adds `col IS NOT NULL` for a key lookup by a NULL-able
    column (rows with `not_null`: the shown names of the tables whose columns they use)."""
    for row in rows:
        if not row.not_null:
            continue
        if row.outer_inner:
            add_where(row.extra)
            continue
        for other in rows:
            if other.id == row.id and other.table is not None and \
                    other.table.lower() in row.not_null and other.type not in _READ_FIRST:
                add_where(other.extra)


def join_buffers(s: SqliteSession, rows: list[Any]) -> None:
    """`Using join buffer (...)` on the rows MariaDB joins through a buffer."""
    value = _variable(s, "join_cache_level")
    try:
        level = 2 if value is None else int(value)  # (2: MariaDB's default)
    except (TypeError, ValueError):
        level = 2
    if level < 1 or level > 2:
        return  # from level 3 equi-joins are hashed (BNLH, BKA): not said here
    incremental = level >= 2 and switch(s, "join_cache_incremental")
    outer = switch(s, "outer_join_with_cache")
    previous: dict[int | None, bool] = {}   # per select: did the last table buffer?
    for row in rows:
        if row.table is None or row.id is None or row.type in _READ_FIRST or \
                row.type is None:
            continue
        if row.id not in previous:  # the first table of its select: nothing to buffer
            previous[row.id] = False
            continue
        buffered = row.type in _SCANS and (outer or not row.outer_inner)
        if buffered:
            kind = "incremental" if incremental and previous[row.id] else "flat"
            row.extra = [w for w in row.extra if w not in ("Using temporary", "Using filesort")] \
                + [f"Using join buffer ({kind}, BNL join)"] + \
                [w for w in row.extra if w in ("Using temporary", "Using filesort")]
        previous[row.id] = buffered


def uneliminated(s: SqliteSession, tables: list[Any],
                 found: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Under optimizer_switch table_elimination=off, the LEFT JOINed tables SQLite left
    out of its plan (nothing reads them and a unique key of theirs is bound by the ON
    equalities: the tables MariaDB eliminates too) put back, as the key lookup the ON
    makes: SQLite's plan lines for them, after the table before them in FROM."""
    if switch(s, "table_elimination"):
        return found
    from sqlglot import exp
    named = {str(d).split(" ")[1].lower() for _n, _p, _u, d in found
             if str(d).startswith(("SCAN ", "SEARCH "))}
    named |= {n.split(".", 1)[-1] for n in named}
    out = list(found)
    for t in tables:
        if t.shown.lower() in named or t.tdef is None or t.select is None:
            continue
        join = next((j for j in t.select.args.get("joins") or []
                     if isinstance(j.this, exp.Table) and
                     j.this.alias_or_name.lower() == t.shown.lower() and
                     str(j.args.get("side") or "").upper() == "LEFT"), None)
        detail = _lookup(t, join.args.get("on")) if join is not None else None
        if detail is None:
            continue
        before = _before(t, join)
        at = next((k for k, (_n, _p, _u, d) in enumerate(out)
                   if before is not None and str(d).startswith(("SCAN ", "SEARCH ")) and
                   str(d).split(" ")[1].split(".")[-1].lower() == before), None)
        if at is None:
            continue
        node, parent = max(n for n, _p, _u, _d in out) + 1, out[at][1]
        out.insert(at + 1, (node, parent, 0, detail))
    return out


def _before(t: Any, join: Any) -> str | None:
    """The shown name (lower case) of the table read before `t` in its FROM."""
    from sqlglot import exp
    select = t.select
    source = select.args.get("from_") or select.args.get("from")
    names = [source.this] if source is not None else []
    for j in select.args.get("joins") or []:
        if j is join:
            break
        names.append(j.this)
    names = [n for n in names if isinstance(n, exp.Table)]
    return names[-1].alias_or_name.lower() if names else None


def _lookup(t: Any, on: Any) -> str | None:
    """SQLite's plan line for a lookup of `t` by a unique key the ON equalities bind."""
    from sqlglot import exp
    if on is None:
        return None
    bound: set[str] = set()
    conds = [on]
    while conds:
        c = conds.pop()
        if isinstance(c, exp.Paren):
            conds.append(c.this)
        elif isinstance(c, exp.And):
            conds += [c.this, c.expression]
        elif isinstance(c, exp.EQ):
            for side, other in ((c.this, c.expression), (c.expression, c.this)):
                mine = isinstance(side, exp.Column) and \
                    (side.table or "").lower() in ("", t.shown.lower()) and \
                    t.tdef.column(side.name) is not None
                theirs = all(col.table and col.table.lower() != t.shown.lower()
                             for col in other.find_all(exp.Column))
                if mine and theirs:
                    bound.add(side.name.lower())
    tdef = t.tdef
    keys = ([("", list(tdef.primary))] if tdef.primary else []) + \
        [(i.name, list(i.columns)) for i in tdef.indexes if i.unique and not i.kind]
    for name, columns in keys:
        if not columns or not {c.lower() for c in columns} <= bound:
            continue
        where = " AND ".join(f"{c}=?" for c in columns)
        auto = tdef.auto_column
        if name == "" and len(columns) == 1 and auto is not None and auto.name == columns[0]:
            return f"SEARCH {t.shown} USING INTEGER PRIMARY KEY (rowid=?)"
        covering = not t.all_columns and t.columns <= {c.lower() for c in columns}
        index = "sqlite_autoindex_" + t.name if name == "" else f"{t.name}.{name}"
        return f"SEARCH {t.shown} USING {'COVERING ' if covering else ''}INDEX {index} " \
            f"({where})"
    return None
