"""Which tables and columns a DML statement reads and writes: the engine's answer to
EngineSession.access, for the session's privilege checks (session/privileges.py).

Rules:
- Read from the statement's sqlglot tree once its tables are qualified (translate.qualified),
  before any rewrite, and cached with the plans (by shape, database and schema version), so a
  shape is analysed once whoever runs it.
- A table that does not exist is reported too (exists=False): privileges are checked before
  existence, so an account without privileges gets 1142, not 1146, as in MariaDB.
- Columns are resolved as MariaDB resolves names: a qualified column belongs to the table of
  that alias; an unqualified one to the nearest enclosing query (or UPDATE / DELETE) whose own
  tables have a column of that name (so a correlated subquery's outer columns are the outer
  table's); a name that is a select-list alias in ORDER BY / GROUP BY / HAVING is the alias.
  Columns of derived tables and CTEs are checked where the derived query reads them.
- Writes: INSERT / REPLACE into the target's listed columns (every column without a list);
  ON DUPLICATE KEY UPDATE updates its SET columns; REPLACE also deletes; UPDATE writes its SET
  columns; DELETE deletes from its targets. Everything else a statement names is read.
- A view is read like a table (SELECT on the view and on the view's columns): what its query
  reads is the view's definer's business (MariaDB's default SQL SECURITY DEFINER), so the
  tables inside the expansion translate.py made are not reported. A view with SQL SECURITY
  INVOKER also reports what its query reads, for the reader to be checked on it.
- A session's temporary table is reported with temporary=True (MariaDB checks nothing on it).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from sqlglot import exp

from rampmeter.engine.base import TableAccess
from rampmeter.engine.sqlite.catalog import TableDef
from rampmeter.engine.sqlite.translate import INFORMATION_SCHEMA, TableLookup, qualified
from rampmeter.sql.lexer import Dialect
from rampmeter.sql.statement import Statement, scan

_QUERY_NODES = (exp.Select, exp.Update, exp.Delete)
_ALIAS_SCOPES = (exp.Order, exp.Group, exp.Having)


@dataclass
class _Use:
    database: str
    table: str
    tdef: TableDef | None
    read: bool = False
    insert: bool = False
    update: bool = False
    delete: bool = False
    upsert: bool = False
    columns_read: dict[str, None] = field(default_factory=dict)
    inserted: dict[str, None] = field(default_factory=dict)
    updated: dict[str, None] = field(default_factory=dict)
    star: bool = False

    def frozen(self) -> TableAccess:
        star = tuple(c.name for c in self.tdef.columns) if self.star and self.tdef else ()
        temporary = self.tdef is not None and self.tdef.location is not None
        return TableAccess(self.database, self.table, self.tdef is not None, self.read,
                           self.insert, self.update, self.delete, self.upsert,
                           tuple(self.columns_read), tuple(self.inserted),
                           tuple(self.updated), star, temporary)


_VIEW_DEPTH = 16  # views of views reported through SQL SECURITY INVOKER, at most this deep


def table_access(stmt: Statement, database: str | None, lookup: TableLookup,
                 depth: int = 0) -> tuple[TableAccess, ...]:
    from rampmeter.engine.sqlite.viewdml import ThroughView
    try:
        tree, tables, _infoschema = qualified(stmt, database, lookup, {})  # IN lists cut
    except ThroughView as e:  # a write through a view needs that privilege on the view
        kind = stmt.kind
        view = e.view
        if kind == "DELETE":
            read, star = _view_delete_reads(stmt, view)
            # a DELETE's reads are checked column by column (MariaDB: SELECT of the columns
            # its WHERE / RETURNING name, 1143), never as the whole table's SELECT
            write = TableAccess(view.database, view.name, read=False, delete=True,
                                columns_read=read, star=star)
        else:
            write = TableAccess(view.database, view.name, read=kind == "UPDATE",
                                insert=kind in ("INSERT", "REPLACE"), update=kind == "UPDATE",
                                delete=kind == "REPLACE")
        return (write, *_beside_view_write(stmt, view, database, lookup, depth))
    analysis = _Analysis(tree, tables.by_alias, lookup)
    found = analysis.run(replace=stmt.kind == "REPLACE")
    for view in analysis.invoker_views:
        if depth < _VIEW_DEPTH:
            inner = scan(view.text, Dialect.of(view.sql_mode))
            name = f"{view.database}.{view.name}"
            found += tuple(replace(a, via_view=name)
                           for a in table_access(inner, view.home, lookup, depth + 1))
    return found


def _view_delete_reads(stmt: Statement, view: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The view's columns a DELETE through it reads (its WHERE, ORDER BY, RETURNING; `*` of
    RETURNING is every column): `DELETE FROM v` reads none, and needs only DELETE, as in
    MariaDB; `RETURNING a` needs SELECT on a (1143 names the column)."""
    from rampmeter.engine.sqlite import dialect
    try:
        tree = dialect.parse(stmt.shape, stmt.dialect.pipes_as_concat)
    except Exception:  # noqa: BLE001 - unreadable: read as a whole, as before
        return tuple(view.columns), ()
    names = {c.lower(): c for c in view.columns}
    read: dict[str, None] = {}
    star: tuple[str, ...] = ()
    for key in ("where", "order", "returning"):
        part = tree.args.get(key)
        if not isinstance(part, exp.Expression):
            continue
        if part.find(exp.Star) is not None:
            star = tuple(view.columns)
        for col in part.find_all(exp.Column):
            name = names.get(col.name.lower())
            if name is not None:
                read[name] = None
    return tuple(read), star


def _beside_view_write(stmt: Statement, view: Any, database: str | None,
                       lookup: TableLookup, depth: int) -> tuple[TableAccess, ...]:
    """What a write through a view needs besides the view: what the rest of the statement
    reads (INSERT ... SELECT), and, for an SQL SECURITY INVOKER view, the write on the view's
    table, checked for the writer (a denial is the view's 1356, as in MariaDB); a DEFINER
    view's table is its definer's business. Nothing when the write cannot be rewritten (its
    run reports why)."""
    from rampmeter.engine.sqlite import viewdml
    if depth >= _VIEW_DEPTH:
        return ()
    mode = "PIPES_AS_CONCAT" if stmt.dialect.pipes_as_concat else ""
    try:
        found = viewdml.base_of(view, mode)
        text = viewdml.rewrite(stmt.text, view, mode)
        inner = table_access(scan(text, stmt.dialect), database, lookup, depth + 1)
    except Exception:  # noqa: BLE001 - refused or not rewritable: the run says so
        return ()
    if found is None:
        return ()
    base_db = (found[0].db or view.home).lower()
    base = found[0].name.lower()
    name = f"{view.database}.{view.name}"
    out = []
    for a in inner:
        if a.database.lower() == base_db and a.table.lower() == base and \
                (a.insert or a.update or a.delete):
            if view.security == "INVOKER":
                out.append(replace(a, via_view=name))
        else:
            out.append(a)
    return tuple(out)


class _Analysis:
    def __init__(self, tree: exp.Expression,
                 by_alias: dict[str, tuple[str, str, TableDef | None]],
                 lookup: TableLookup | None = None) -> None:
        self.tree = tree
        self.by_alias = by_alias
        self.lookup = lookup
        self.uses: dict[tuple[str, str], _Use] = {}
        self.skip: set[int] = set()     # ids of nodes not to analyse (write targets, views' own)
        self.view_aliases: set[str] = set()
        self.invoker_views: list[Any] = []

    def use(self, alias: str) -> _Use | None:
        entry = self.by_alias.get(alias.lower())
        if entry is None or entry[0].lower() == INFORMATION_SCHEMA:
            return None
        db, name, tdef = entry
        stored = tdef.name if tdef is not None else name
        key = (db, stored.lower())
        found = self.uses.get(key)
        if found is None:
            found = self.uses[key] = _Use(db, stored, tdef)
        return found

    def use_table(self, table: exp.Table) -> _Use | None:
        """The table a FROM / INTO names: by its alias, unless it is an unaliased table of
        another database than the alias's (`INSERT INTO db2.t1 SELECT * FROM t1`: two tables
        named t1, the alias names one of them)."""
        entry = self.by_alias.get(table.alias_or_name.lower())
        if entry is None or table.alias or not table.db or self.lookup is None or \
                entry[0].lower() == table.db.lower():
            return self.use(table.alias_or_name)
        tdef = self.lookup(table.db, table.name)
        key = (table.db, (tdef.name if tdef is not None else table.name).lower())
        found = self.uses.get(key)
        if found is None:
            found = self.uses[key] = _Use(table.db, key[1] if tdef is None else tdef.name,
                                          tdef)
        return found

    def run(self, *, replace: bool) -> tuple[TableAccess, ...]:
        tree = self.tree
        targets: set[int] = set()
        if isinstance(tree, exp.Insert):
            targets = self._insert(tree, replace)
        elif isinstance(tree, exp.Update):
            targets = self._update(tree)
        elif isinstance(tree, exp.Delete):
            targets = self._delete(tree)
        returning = tree.args.get("returning")
        if isinstance(returning, exp.Returning) and isinstance(tree, (exp.Insert, exp.Delete)):
            self._returning(tree, returning)
        self._views(tree)
        for table in tree.find_all(exp.Table):
            if id(table) in targets or id(table) in self.skip or not table.name:
                continue
            u = self.use_table(table)
            if u is not None:
                u.read = True
        for col in tree.find_all(exp.Column):
            if id(col) not in self.skip:
                self._column(col)
        for select in tree.find_all(exp.Select):
            if id(select) in self.skip:
                continue
            if any(isinstance(e, exp.Star) for e in select.expressions):
                for alias in _own_tables(select, self.view_aliases):
                    u = self.use(alias)
                    if u is not None:
                        u.star = True
        return tuple(u.frozen() for u in self.uses.values())

    def _views(self, tree: exp.Expression) -> None:
        """Each view the statement names became a derived table (translate.py): the view is
        read; what its query reads is not this statement's (module rules)."""
        for sub in list(tree.find_all(exp.Subquery)):
            alias = sub.alias
            entry = self.by_alias.get(alias.lower()) if alias else None
            if entry is None or entry[2] is None or entry[2].view is None:
                continue
            self.view_aliases.add(alias.lower())
            u = self.use(alias)
            if u is not None:
                u.read = True
            if entry[2].view.security == "INVOKER":
                self.invoker_views.append(entry[2].view)
            self.skip.update(id(n) for n in sub.this.walk())

    # --- writes ---------------------------------------------------------------------------
    def _insert(self, tree: exp.Insert, replace: bool) -> set[int]:
        node = tree.this
        table = node.this if isinstance(node, exp.Schema) else node
        if not isinstance(table, exp.Table):
            return set()
        u = self.use_table(table)
        if u is None:
            return {id(table)}
        u.insert = True
        u.delete = replace
        if isinstance(node, exp.Schema):
            for c in node.expressions:
                u.inserted[c.name] = None
                self.skip.add(id(c))
        elif u.tdef is not None:
            for cd in u.tdef.columns:
                u.inserted[cd.name] = None
        conflict = tree.args.get("conflict")
        if isinstance(conflict, exp.OnConflict):
            u.upsert = True
            u.update = True
            for eq in conflict.expressions or ():
                if isinstance(eq, exp.EQ) and isinstance(eq.this, exp.Column):
                    u.updated[eq.this.name] = None
                    self.skip.add(id(eq.this))
        return {id(table)}

    def _update(self, tree: exp.Update) -> set[int]:
        """The tables whose columns are SET are written, not read (their other columns are
        checked as columns read); the other tables of a multi-table UPDATE are read."""
        target = tree.this
        default = target.alias_or_name if isinstance(target, exp.Table) else None
        written: set[str] = set()
        for eq in tree.expressions:
            if not isinstance(eq, exp.EQ) or not isinstance(eq.this, exp.Column):
                continue
            col = eq.this
            alias = col.table or default or ""
            u = self.use(alias)
            if u is not None:
                u.update = True
                u.updated[col.name] = None
                written.add(alias.lower())
            self.skip.add(id(col))
        return {id(t) for t in tree.find_all(exp.Table)
                if t.alias_or_name.lower() in written}

    def _delete(self, tree: exp.Delete) -> set[int]:
        named = tree.args.get("tables") or [tree.this]
        out: set[int] = set()
        for t in named:
            if isinstance(t, exp.Table):
                u = self.use(t.alias_or_name)
                if u is not None:
                    u.delete = True
                if tree.args.get("tables") is None:
                    out.add(id(t))
        return out

    # --- reads ----------------------------------------------------------------------------
    def _returning(self, tree: exp.Insert | exp.Delete, returning: exp.Returning) -> None:
        """INSERT / DELETE ... RETURNING reads what it returns of the target: SELECT on
        those columns (on every column for `*`), as MariaDB checks it (MDEV-37950)."""
        node = tree.this
        table = node.this if isinstance(node, exp.Schema) else node
        if not isinstance(table, exp.Table):
            return
        u = self.use(table.alias_or_name)
        if u is None:
            return
        for e in returning.expressions:
            if isinstance(e, exp.Star):  # each column, as named: 1143 names the first
                for cd in u.tdef.columns if u.tdef is not None else ():
                    u.columns_read[cd.name] = None
                continue
            for col in e.find_all(exp.Column):
                if isinstance(col.this, exp.Star) or \
                        col.table and col.table.lower() != table.alias_or_name.lower():
                    continue
                if u.tdef is None or u.tdef.column(col.name) is not None:
                    u.columns_read[col.name] = None
                    self.skip.add(id(col))

    def _column(self, col: exp.Column) -> None:
        if isinstance(col.this, exp.Star):
            u = self.use(col.table)
            if u is not None:
                u.star = u.read = True
            return
        name = col.name
        if col.table:
            u = self.use(col.table)
            if u is not None and (u.tdef is None or u.tdef.column(name) is not None):
                u.columns_read[name] = None
            return
        for query in _enclosing_queries(col):
            if _is_select_alias(col, query):
                return
            for alias in _own_tables(query, self.view_aliases):
                u = self.use(alias)
                if u is not None and u.tdef is not None and u.tdef.column(name) is not None:
                    u.columns_read[name] = None
                    return


def _enclosing_queries(node: exp.Expression):  # noqa: ANN202 - a generator of query nodes
    parent = node.parent
    while parent is not None:
        if isinstance(parent, _QUERY_NODES):
            yield parent
        parent = parent.parent


def _is_select_alias(col: exp.Column, query: exp.Expression) -> bool:
    if not isinstance(query, exp.Select):
        return False
    inside = col.find_ancestor(*_ALIAS_SCOPES)
    if inside is None or inside.parent is not query:
        return False
    return any(isinstance(e, exp.Alias) and e.alias.lower() == col.name.lower()
               for e in query.expressions)


def _own_tables(query: exp.Expression, views: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """Aliases of the tables (and views) a query reads directly, not those of its
    subqueries."""
    candidates: list[exp.Expression] = []
    if isinstance(query, exp.Select):
        frm = query.args.get("from_")
        if frm is not None:
            candidates.append(frm.this)
        candidates.extend(j.this for j in query.args.get("joins") or ())
    else:
        candidates.append(query.this)
        for key in ("using", "tables", "from_"):
            extra = query.args.get(key)
            if isinstance(extra, list):
                candidates.extend(extra)
            elif isinstance(extra, exp.From):
                candidates.append(extra.this)
        this = query.this
        if isinstance(this, exp.Table):
            candidates.extend(j.this for j in this.args.get("joins") or ())
    return [c.alias_or_name for c in candidates if isinstance(c, exp.Table) and c.name or
            isinstance(c, exp.Subquery) and c.alias and c.alias.lower() in views]
