"""The columns `SELECT *` (or `alias.*`) expands to, by the FROM clause's sources, with the
names MariaDB gives them; for a derived table `(SELECT ...) AS t`, the names of its select
list as typed (`SUM(DISTINCT a)`, `a+1`), which SQLite does not keep.

Rules:
- Only the FROM clause's own sources count, in their order (SQLite expands `*` in that
  order); the tables of subqueries elsewhere in the statement (a WHERE ... IN (SELECT ...))
  add no columns.
- A derived table's names come from its text: the statement's tokens are searched for the
  parenthesised query followed by the alias, and that query is scanned as a statement of its
  own (sql/statement.py names its outermost select list: for a UNION, the first SELECT's).
  `AS t (x, y)` names them itself. This runs when a shape is translated, never per execution.
- When a source cannot be named (a common table expression, a table function), None: the
  caller then names and types the columns from SQLite's answer, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlglot import exp

from rampmeter.sql import lexer
from rampmeter.sql.statement import Statement, scan


def sources(select: exp.Select) -> list[exp.Expression]:
    """The FROM clause's sources of `select`, in order (joins after the first)."""
    out: list[exp.Expression] = []
    frm = select.args.get("from_")
    if isinstance(frm, exp.From):
        out.extend(_expand(frm.this))
    for join in select.args.get("joins") or ():
        out.extend(_expand(join.this))
    return out


def _expand(node: exp.Expression) -> list[exp.Expression]:
    """A parenthesised join `(t1 JOIN t2 ON ...)` is its tables, in order."""
    if isinstance(node, exp.Subquery) and not node.alias and \
            not isinstance(node.this, exp.Query):
        return _expand(node.this)
    out = [node]
    for join in node.args.get("joins") or ():
        out.extend(_expand(join.this))
    return out


def star_outputs(select: exp.Select, qualifier: str, stmt: Statement,
                 table_outputs: Callable[[str, bool], list[Any] | None],
                 named: Callable[[str], Any],
                 windowed: Callable[[str, exp.Expression], Any] | None = None
                 ) -> list[Any] | None:
    """The outputs `*` (qualifier "") or `qualifier.*` stands for, or None (module rules).
    `table_outputs(alias, views_only)` gives a table's or a view's; `named(name)` makes an
    untyped one, `windowed(name, window)` one typed as that window function's result (its
    type is the function's, which SQLite's answer does not say: CUME_DIST's 10 decimals)."""
    outs: list[Any] = []
    found = False
    for source in sources(select):
        alias = (source.alias_or_name or "").lower()
        if qualifier and alias != qualifier:
            continue
        found = True
        if isinstance(source, exp.Subquery):
            view = table_outputs(alias, True)  # a view, read as a derived table (views.py)
            if view is not None:
                outs.extend(view)
                continue

            def star(inner: exp.Select, qual: str) -> list[str] | None:
                more = star_outputs(inner, qual, stmt, table_outputs, named)
                return None if more is None else [o.name for o in more]
            names = derived_names(source, stmt, star)
            if names is None:
                return None
            query = source.this
            items = query.expressions if isinstance(query, exp.Select) else []
            if windowed is None or len(items) != len(names):
                items = [None] * len(names)
            for n, item in zip(names, items):
                value = item.this if isinstance(item, exp.Alias) else item
                outs.append(windowed(n, value) if windowed is not None and
                            isinstance(value, exp.Window) else named(n))
        elif isinstance(source, exp.Table):
            more = table_outputs(alias, False)
            if more is None:
                names = cte_names(source, stmt)
                if names is None:
                    return None
                more = [named(n) for n in names]
            outs.extend(more)
        else:
            return None
    return outs if found else None


StarNames = Callable[[exp.Select, str], "list[str] | None"]


def derived_names(source: exp.Subquery, stmt: Statement, star: StarNames) -> list[str] | None:
    alias = source.args.get("alias")
    if isinstance(alias, exp.TableAlias) and alias.columns:
        return [c.name for c in alias.columns]
    name = source.alias
    if not name:
        return None
    try:
        toks = lexer.tokens(stmt.text, stmt.dialect)
    except Exception:  # noqa: BLE001 - the text scanned once already; be safe, not clever
        return None
    for i, tok in enumerate(toks):
        if tok.text != "(" or i + 1 >= len(toks) or not toks[i + 1].is_word("SELECT", "WITH"):
            continue
        j = _closing(toks, i)
        if j is None:
            return None
        k = j + 1
        if k < len(toks) and toks[k].is_word("AS"):
            k += 1
        if k < len(toks) and toks[k].is_name and _ident(toks[k]).lower() == name.lower():
            inner = stmt.text[toks[i + 1].start:toks[j].start]
            items = scan(inner, stmt.dialect, stmt.charset).items
            return _named(source, list(items), star) if items is not None else None
    return None


def cte_names(table: exp.Table, stmt: Statement) -> list[str] | None:
    """The columns of the common table expression `table` reads, named as MariaDB names
    them (its column list, else its first query's select list as typed: `count(*)`), found
    in the statement's text as derived tables are; None when it names no CTE or a name
    cannot be told (`*` in it)."""
    if table.db:
        return None
    cte = next((c for c in table.root().find_all(exp.CTE)
                if c.alias_or_name.lower() == table.name.lower()), None)
    if cte is None:
        return None
    alias = cte.args.get("alias")
    if isinstance(alias, exp.TableAlias) and alias.columns:
        return [c.name for c in alias.columns]
    try:
        toks = lexer.tokens(stmt.text, stmt.dialect)
    except Exception:  # noqa: BLE001 - as derived_names
        return None
    for i, tok in enumerate(toks[:-2]):
        if not tok.is_name or _ident(tok).lower() != table.name.lower() or \
                not toks[i + 1].is_word("AS") or toks[i + 2].text != "(":
            continue
        j = _closing(toks, i + 2)
        if j is None or i + 3 >= j or not toks[i + 3].is_word("SELECT", "WITH"):
            return None
        items = scan(stmt.text[toks[i + 3].start:toks[j].start], stmt.dialect,
                     stmt.charset).items
        return _named_query(cte.this, list(items), lambda _s, _q: None) \
            if items is not None else None
    return None


def _named(source: exp.Subquery, items: list[str], star: StarNames) -> list[str] | None:
    return _named_query(source.this, items, star)


def _named_query(select: exp.Expression, items: list[str], star: StarNames
                 ) -> list[str] | None:
    """An aliased item is named by its alias, a column by its name, `*` by the columns it
    stands for, others as typed."""
    while isinstance(select, exp.Subquery):
        select = select.this
    while isinstance(select, exp.SetOperation):
        select = select.left
    if not isinstance(select, exp.Select) or len(select.expressions) != len(items):
        return None
    out = []
    for e, text in zip(select.expressions, items):
        if isinstance(e, exp.Alias):
            out.append(e.alias)
        elif isinstance(e, exp.Star) or isinstance(e, exp.Column) and \
                isinstance(e.this, exp.Star):
            names = star(select, e.table.lower() if isinstance(e, exp.Column) else "")
            if names is None:
                return None
            out.extend(names)
        elif isinstance(_unparen(e), exp.Column):
            out.append(_unparen(e).name)  # `(a)` too
        else:
            out.append(text)
    return out


def _unparen(e: exp.Expression) -> exp.Expression:
    while isinstance(e, exp.Paren) and isinstance(e.this, (exp.Paren, exp.Column)):
        e = e.this
    return e


def _closing(toks: list[lexer.Token], i: int) -> int | None:
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j].text
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
            if depth == 0:
                return j
    return None


def _ident(tok: lexer.Token) -> str:
    return lexer.ident_value(tok.text) if tok.kind == "qident" else tok.text
