"""INSERT / UPDATE / DELETE through a view: the statement is rewritten onto the view's table.

Rules (MariaDB 10.11's updatable views, for the simple ones):
- translate.py meets a view as the target of a write and raises `ThroughView` (a 1235 to
  anyone who does not catch it); session._run catches it and runs `run`: the statement's text
  is read by sqlglot, rewritten and run again as any statement, so every rule of the table's
  own DML (types, strict mode, defaults, CHECK, triggers, RETURNING...) applies. Only a
  statement that names a view pays this; nothing is added to the common path.
- A view is written through when its query is one SELECT of one table (or of another such
  view: the rewritten statement meets it and is rewritten again), without DISTINCT, GROUP BY,
  HAVING, LIMIT, aggregates, window functions or subqueries. A column of it that is an
  expression is read (the expression replaces it) but never written (`a COLLATE x` and `(a)`
  are the column a, as MariaDB's field_for_view_update says): SET of it is 1348
  "Column 'c' is not updatable", an INSERT naming it 1471. Otherwise an UPDATE / DELETE is 1288 "The target table v of the UPDATE is not
  updatable" and an INSERT 1471 "... is not insertable-into" (MariaDB's errors).
- The rewrite: the view becomes its table; the view's column names, unqualified or qualified
  by the view's name or alias, become the table's; an INSERT without a column list names the
  view's columns; UPDATE and DELETE get the view's WHERE ANDed to theirs (rows the view does
  not show are not touched).
- Not done: WITH CHECK OPTION is not checked, views over joins are not writable, and a
  statement writing a view and reading other tables is refused (1288 / 1471) unless it is
  one of INSERT ... VALUES / SELECT, UPDATE or DELETE of that one view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlglot import exp

from rampmeter import errors
from rampmeter.engine.sqlite import dialect
from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rampmeter.engine.base import Result
    from rampmeter.engine.sqlite.session import SqliteSession
    from rampmeter.engine.sqlite.views import ViewDef

ER_NON_UPDATABLE_TABLE = 1288
ER_NON_INSERTABLE_TABLE = 1471


class ThroughView(ServerError):
    """A write whose target is a view (translate.py raises it, session._run runs `run`)."""

    def __init__(self, view: ViewDef) -> None:
        super().__init__(errors.ER_NOT_SUPPORTED_YET, "writing through a view")
        self.view = view


def run(s: SqliteSession, text: str, params: Sequence[Any], view: ViewDef,
        client_params: bool) -> Result:
    items = s.scan(text, client_params=client_params).items  # RETURNING's names
    sql = rewrite(text, view, s.sql_mode(), items)
    if view.security == "INVOKER":
        return s.run_rewritten(s.scan(sql, client_params=client_params), params)
    from rampmeter.engine.sqlite.views import definer_context
    saved, s.definer_context = s.definer_context, definer_context(view)
    try:  # the table's defaults are computed as the view's definer (CURRENT_USER() & co.)
        return s.run_rewritten(s.scan(sql, client_params=client_params), params)
    finally:
        s.definer_context = saved


def _refuse(view: ViewDef, kind: str) -> ServerError:
    if kind == "INSERT":
        return ServerError(ER_NON_INSERTABLE_TABLE, message=f"The target table {view.name} of "
                           "the INSERT is not insertable-into", sqlstate="HY000")
    return ServerError(ER_NON_UPDATABLE_TABLE, message=f"The target table {view.name} of the "
                       f"{kind} is not updatable", sqlstate="HY000")


def base_of(view: ViewDef, sql_mode: str) -> tuple[exp.Table, dict[str, Any], Any] | None:
    """(the view's table, view column -> table column (a name) or expression (a tree: read,
    never written), the view's WHERE) or None when the view cannot be written through."""
    try:
        query = dialect.parse(view.text, "PIPES_AS_CONCAT" in sql_mode)
    except Exception:  # noqa: BLE001 - not a view that can be written
        return None
    if not isinstance(query, exp.Select) or query.args.get("joins") or \
            any(query.args.get(k) for k in ("distinct", "group", "having", "limit", "with")):
        return None
    source = query.args.get("from_") or query.args.get("from")
    table = source.this if source is not None else None
    if not isinstance(table, exp.Table) or \
            query.find(exp.AggFunc, exp.Window, exp.Subquery) is not None:
        return None
    names: list[Any] = []
    for item in query.expressions:
        value = item.this if isinstance(item, exp.Alias) else item
        while isinstance(value, exp.Collate | exp.Paren) and \
                isinstance(value.this, exp.Column | exp.Collate | exp.Paren):
            value = value.this  # `a COLLATE x`, `(a)`: the column (field_for_view_update)
        if isinstance(value, exp.Star) or isinstance(value, exp.Column) and \
                isinstance(value.this, exp.Star):
            return (table, {c.lower(): c for c in view.columns}, query.args.get("where")) \
                if len(query.expressions) == 1 else None
        names.append(value.name if isinstance(value, exp.Column) else value)
    if len(names) != len(view.columns):
        return None
    return table, {v.lower(): b for v, b in zip(view.columns, names)}, query.args.get("where")


_MODIFIERS = ("LOW_PRIORITY", "HIGH_PRIORITY", "DELAYED", "QUICK", "IGNORE")


def _verb(text: str) -> tuple[str, bool, str]:
    """(REPLACE or '', IGNORE given, the text with INSERT for REPLACE and without the
    modifiers after the first word, which sqlglot does not all read): `rewrite` puts the
    verb and IGNORE back; the others change nothing here."""
    words = text.lstrip().split(None, 1)
    verb = words[0].upper() if words else ""
    rest = words[1] if len(words) > 1 else ""
    ignore = False
    while rest.split(None, 1) and rest.split(None, 1)[0].upper() in _MODIFIERS:
        ignore = ignore or rest.split(None, 1)[0].upper() == "IGNORE"
        rest = rest.split(None, 1)[1] if len(rest.split(None, 1)) > 1 else ""
    replace = verb == "REPLACE"
    return ("REPLACE" if replace else ""), ignore, \
        ("INSERT" if replace else words[0] if words else "") + " " + rest


def rewrite(text: str, view: ViewDef, sql_mode: str,
            items: Sequence[str] | None = None) -> str:
    if len(text.split(None, 2)) > 1 and text.split(None, 2)[1].upper() == "DELAYED":
        raise ServerError(1347, message=f"'{view.database}.{view.name}' is not of type "
                          "'BASE TABLE'", sqlstate="HY000")  # INSERT DELAYED: MariaDB's
    replace, ignore, text = _verb(text)
    tree = dialect.parse(text, "PIPES_AS_CONCAT" in sql_mode)
    kind = type(tree).__name__.upper()
    if kind not in ("INSERT", "UPDATE", "DELETE"):
        raise _refuse(view, "UPDATE")
    found = base_of(view, sql_mode)
    if found is None or kind != "INSERT" and (tree.args.get("joins") or tree.args.get("using")
                                              or tree.args.get("tables")):
        raise _refuse(view, kind)
    base, mapping, where = found
    target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
    if not isinstance(target, exp.Table) or target.name.lower() != view.name.lower():
        raise _refuse(view, kind)
    names = {view.name.lower(), target.alias_or_name.lower()}
    _name_returning(tree, view, names, items)
    new_table = exp.Table(this=exp.to_identifier(base.name, quoted=True),
                          db=exp.to_identifier(base.db or view.home, quoted=True))
    _rename_columns(tree, mapping, names, view, kind)
    if kind == "INSERT":
        cols = tree.this.expressions if isinstance(tree.this, exp.Schema) else \
            [exp.to_identifier(c) for c in view.columns]
        unknown = next((c.name for c in cols if c.name.lower() not in mapping), None)
        if unknown is not None:
            raise ServerError(errors.ER_BAD_FIELD_ERROR, unknown, "INSERT INTO")
        if any(not isinstance(mapping[c.name.lower()], str) for c in cols):
            raise _refuse(view, kind)  # a column that is an expression: MariaDB's 1471
        tree.set("this", exp.Schema(this=new_table, expressions=[
            exp.to_identifier(mapping.get(c.name.lower(), c.name), quoted=True)
            for c in cols]))
    else:
        target.replace(new_table)
        if where is not None:
            inner = where.this.copy()
            for col in inner.find_all(exp.Column):
                col.set("table", None)
            mine = tree.args.get("where")
            tree.set("where", exp.Where(this=exp.and_(_wrap(inner), _wrap(mine.this))
                                        if mine is not None else inner))
    out = tree.sql(dialect=dialect.RampMySQL, normalize_functions=False)  # g() stays g()
    first, _sp, rest = out.partition(" ")
    return (replace or first) + (" IGNORE " if ignore else " ") + rest


def _name_returning(tree: exp.Expression, view: ViewDef, names: set[str],
                    items: Sequence[str] | None) -> None:
    """RETURNING through a view names its columns as written (the rewrite's text would
    name them otherwise), and its `*` is the view's columns, named and computed as the view
    shows them (`UPPER(b)`), not the table's."""
    returning = tree.args.get("returning")
    if not isinstance(returning, exp.Returning):
        return
    named = list(items) if items is not None and \
        len(items) == len(returning.expressions) else None
    out: list[exp.Expression] = []
    for k, e in enumerate(returning.expressions):
        star = isinstance(e, exp.Star) or isinstance(e, exp.Column) and \
            isinstance(e.this, exp.Star)
        if star and (not isinstance(e, exp.Column) or e.table.lower() in names):
            out.extend(exp.alias_(exp.column(c, quoted=True), c, quoted=True)
                       for c in view.columns)
        elif isinstance(e, exp.Alias) or star or named is None:
            out.append(e)
        else:
            out.append(exp.alias_(e, named[k], quoted=True))
    returning.set("expressions", out)


def _wrap(e: exp.Expression) -> exp.Expression:
    return e if isinstance(e, (exp.Paren, exp.Subquery)) else exp.paren(e)


def _rename_columns(tree: exp.Expression, mapping: dict[str, str], names: set[str],
                    view: ViewDef, kind: str) -> None:
    """The view's column names in the statement become its table's (of an INSERT, in its ON
    DUPLICATE KEY UPDATE and RETURNING: its query reads other tables)."""
    parts = [v for k, v in tree.args.items() if kind != "INSERT" or k not in ("expression",
                                                                            "this")]
    found = [c for p in parts if isinstance(p, exp.Expression) for c in p.find_all(exp.Column)]
    found += [c for p in parts if isinstance(p, list) for e in p
              if isinstance(e, exp.Expression) for c in e.find_all(exp.Column)]
    for col in found:
        qualifier = col.table.lower()
        if qualifier and qualifier not in names:
            continue
        base = mapping.get(col.name.lower())
        if base is None:
            if qualifier:  # names the view, and no column of it
                raise ServerError(errors.ER_BAD_FIELD_ERROR, f"{col.table}.{col.name}",
                                  "field list")
            continue
        if isinstance(base, str):
            col.set("this", exp.to_identifier(base, quoted=True))
            col.set("table", None)
            continue
        if isinstance(col.parent, exp.EQ) and col.parent.this is col and \
                col.parent.parent is tree and kind == "UPDATE":
            raise ServerError(1348, message=f"Column '{col.name}' is not updatable",
                              sqlstate="HY000")
        value = base.copy()
        for inner in value.find_all(exp.Column):
            inner.set("table", None)
        col.replace(exp.paren(value))
