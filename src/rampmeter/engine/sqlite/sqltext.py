"""What a view's SELECT becomes when it is defined: its column names, whether MariaDB would call
it updatable, and MariaDB's canonical text of it (SHOW CREATE VIEW, information_schema.VIEWS,
EXPLAIN EXTENDED's Note 1003).

Rules:
- The SELECT is planned (translate.py) and compiled by SQLite, so a view over a missing table or
  column fails as MariaDB's does (1146, 1054), and its result columns are named as a query's
  are (Statement.items); a column list given with the view replaces them (1353 when its
  length differs), duplicates are 1060, a user variable 1351.
- The canonical text is printed from sqlglot's tree of the client's text, the way MariaDB 10.11
  prints a parsed query (measured): lower-case keywords and function names, every column
  qualified with its table (`db`.`t`.`c`, the database dropped by SHOW CREATE VIEW in the
  view's own database), `*` expanded, every select item `AS` its name, joins in parentheses
  with `on(...)`, `count(*)` as `count(0)`, `limit offset,count`, strings in single quotes
  with a backslash before a quote. What MariaDB's parser rewrites is rewritten too (`negate`:
  NOT (a > 1) is a <= 1, NOT col is col = 0; x IN (y) is x = y); what its optimizer rewrites
  on top (constant propagation, subquery caches) is not reproduced: such a text differs, and
  still means the same (docs/sql.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sqlglot
from sqlglot import exp

from rampmeter import errors
from rampmeter.engine.sqlite.catalog import TableDef
from rampmeter.errors import ServerError
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession
    from rampmeter.engine.sqlite.views import ViewDef


def describe(s: SqliteSession, stmt: Statement, database: str, columns: list[str] | None,
             view: ViewDef) -> tuple[list[str], bool, bool, str]:
    """(column names, has a star, updatable, canonical text) of a view's SELECT."""
    from rampmeter.engine.sqlite.dml import bind
    from rampmeter.engine.sqlite.translate import leftmost_select, parse, translate
    tree = parse(stmt, stmt.shape)
    if any(isinstance(n, exp.Parameter) for n in tree.walk()):
        raise ServerError(1351, message="View's SELECT contains a variable or parameter",
                          sqlstate="HY000")
    plan = translate(stmt, database, s.table_def)
    s.make_visible(plan)
    bound = bind(stmt, [])
    bound.update(plan.fixed)
    try:
        cur = s.handle.execute(f"SELECT * FROM ({plan.sql}) LIMIT 0", bound)
    except Exception as e:  # noqa: BLE001 - sqlite3.Error, mapped as a query's would be
        import sqlite3
        if isinstance(e, sqlite3.Error):
            raise s.sqlite_error(e, plan) from None
        raise
    found = [d[0] for d in cur.description or ()]
    names = _names(plan, stmt, found)
    if columns is not None:
        if len(columns) != len(names):
            raise ServerError(1353, message="View's SELECT and view's field list have "
                              "different column counts", sqlstate="HY000")
        names = columns
    else:
        outs = plan.outputs
        names = view_column_names(names, [
            outs is None or len(outs) != len(names) or not isinstance(outs[k].name, int)
            for k in range(len(names))])
    seen: set[str] = set()
    for n in names:
        if n.lower() in seen:
            raise ServerError(errors.ER_DUP_FIELDNAME, n)
        seen.add(n.lower())
    select = leftmost_select(tree)
    star = select is not None and any(
        isinstance(x, exp.Star) or isinstance(x, exp.Column) and isinstance(x.this, exp.Star)
        for x in select.expressions)
    original = _parse(stmt.text, stmt)
    printer = _Printer(s, database, stmt)
    printer.written = _written_text(stmt.text)
    text = printer.query(original, names, top=True)
    return names, star, _updatable(original, view), text


def view_column_names(names: list[str], explicit: list[bool]) -> list[str]:
    """A view's column names as MariaDB fixes them (sql_view.cc): a name no column may have -
    empty, longer than 64 characters, ending in a space (a derived table's column may have
    one) - becomes Name_exp_<position>; a name made from the item's text (not an alias, not
    a column) equal to another column's (case-insensitive) becomes My_exp_<name>, or
    My_exp_<n>_<name> while that is taken too. Two explicit names alike stay alike (1060
    follows)."""
    names = list(names)
    made = [not e for e in explicit]
    orig = list(names)
    for k, name in enumerate(names):
        if not name or name.endswith(" ") or len(name) > 64:
            names[k] = f"Name_exp_{k + 1}"  # (MariaDB refuses such an alias: 1166)

    def unique(target: int, last: int) -> None:
        base = orig[target]
        attempt = 0
        while True:
            candidate = f"My_exp_{attempt}_{base}" if attempt else f"My_exp_{base}"
            if not any(j != target and names[j].lower() == candidate.lower()
                       for j in range(last + 1)):
                break
            attempt += 1
        orig[target] = names[target]
        names[target] = candidate

    for k in range(len(names)):
        for j in range(k):
            if names[k].lower() != names[j].lower():
                continue
            if made[k]:
                unique(k, k)
            elif made[j]:
                unique(j, k)
    return names


def query_text(s: SqliteSession, stmt: Statement, database: str, names: list[str],
               tree: exp.Expression | None = None) -> str:
    """MariaDB's text of a query (`tree`, else the statement's) with its result column
    names, every column qualified with its database (EXPLAIN EXTENDED's Note 1003)."""
    printer = _Printer(s, database, stmt)
    if tree is None:
        tree = _parse(stmt.text, stmt)
        printer.written = _written_text(stmt.text)
    return printer.query(tree, names, top=True)


def _written_text(text: str) -> str | None:
    """The text _parse's tree has the positions of (None: it parsed another one)."""
    from rampmeter.engine.sqlite import defaultfn
    return text if defaultfn.rewrite_text(text) == text else None


def _parse(text: str, stmt: Statement | None = None) -> exp.Expression:
    """sqlglot's tree of a query's text, DEFAULT(col) read as RM_DEFAULT_OF(col)
    (defaultfn.py), printed back as default(...); || is concat() where the statement's
    sql_mode says so. MariaDB's parser drops a FROM DUAL: so does the tree."""
    from rampmeter.engine.sqlite import defaultfn, dialect, odbc
    d = stmt.dialect if stmt is not None else None
    if stmt is not None:
        text = odbc.rewrite(text, stmt)  # {d '..'}: DATE'..'
    text = defaultfn.rewrite_text(text)
    cycles = None
    if "CYCLE" in text.upper():  # WITH RECURSIVE ... CYCLE cols RESTRICT (cycle.py)
        from rampmeter.engine.sqlite import cycle, modifiers
        text, cycles, _bad = cycle.strip(text, modifiers.shape_tokens(text))
    tree: Any = dialect.parse(text, bool(d and d.pipes_as_concat), bool(d and d.high_not))
    if cycles:
        for cte in tree.find_all(exp.CTE):
            found = cycles.get(cte.alias_or_name.lower())
            if found is not None:
                cte.meta["cycle"] = found.columns
    for select in tree.find_all(exp.Select):
        key = "from_" if "from_" in select.args else "from"
        source = select.args.get(key)
        if source is not None and not select.args.get("joins") and \
                isinstance(source.this, exp.Table) and not source.this.args.get("db") and \
                isinstance(source.this.this, exp.Identifier) and \
                not source.this.this.quoted and source.this.name.lower() == "dual" and \
                not source.this.alias:
            select.set(key, None)
    return tree


def result_names(plan: Any, stmt: Statement, found: list[str]) -> list[str]:
    """A query's result column names, from its plan and SQLite's names of its columns."""
    return _names(plan, stmt, found)


def _names(plan: Any, stmt: Statement, found: list[str]) -> list[str]:
    outs = plan.outputs
    if outs is None or len(outs) != len(found):
        return found
    names = []
    for o, sqlite_name in zip(outs, found):
        name = o.name
        if isinstance(name, int):
            name = stmt.items[name] if stmt.items is not None and name < len(stmt.items) \
                else sqlite_name
        names.append(name if isinstance(name, str) else sqlite_name)
    return names


def _updatable(tree: exp.Expression, view: ViewDef) -> bool:
    if view.algorithm == "TEMPTABLE" or not isinstance(tree, exp.Select):
        return False
    if tree.args.get("distinct") or tree.args.get("group") or tree.args.get("having") or \
            tree.args.get("limit") or tree.args.get("from") is None and \
            tree.args.get("from_") is None:
        return False
    for item in tree.expressions:
        if item.find(exp.AggFunc) is not None or item.find(exp.Subquery) is not None:
            return False
    return True


# --- the printer ---------------------------------------------------------------------------------
def _q(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _string(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


_BINARY = {exp.EQ: "=", exp.NEQ: "<>", exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<=",
           exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.Div: "/", exp.IntDiv: "DIV",
           exp.Mod: "MOD", exp.And: "and", exp.Or: "or", exp.Xor: "xor", exp.Like: "like",
           exp.BitwiseAnd: "&", exp.BitwiseOr: "|", exp.BitwiseXor: "^",
           exp.BitwiseLeftShift: "<<", exp.BitwiseRightShift: ">>", exp.NullSafeEQ: "<=>",
           exp.RegexpLike: "regexp"}
# MariaDB's operator precedence (item.h, enum precedence): an operand is printed in
# parentheses when its precedence is lower than its place needs; the client's own
# parentheses are not kept (the parser drops them), so the text is MariaDB's either way.
_PRECEDENCE = {exp.Or: 2, exp.Xor: 3, exp.And: 4, exp.Not: 5,
               **dict.fromkeys((exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE,
                                exp.NullSafeEQ, exp.Is), 6),
               exp.Between: 7, exp.In: 8, exp.Like: 8, exp.RegexpLike: 8,
               exp.BitwiseOr: 9, exp.BitwiseAnd: 10, exp.BitwiseLeftShift: 11,
               exp.BitwiseRightShift: 11, exp.Add: 13, exp.Sub: 13,
               **dict.fromkeys((exp.Mul, exp.Div, exp.IntDiv, exp.Mod), 14),
               exp.BitwiseXor: 15, exp.Neg: 17}
_HIGHEST = 20
_COLLATE = 18


def _precedence(e: exp.Expression) -> int:
    """The precedence of `e` as printed: a NOT is printed `!x` (NEG_PRECEDENCE), or as
    the `not in` / `not like` / `not between` / `is not` of its operand; COLLATE and `-`
    of a number literal are their own."""
    if isinstance(e, exp.Not):
        inner = _bare(e.this)
        if isinstance(inner, exp.In) and inner.args.get("query") is None and \
                len(inner.expressions) == 1:
            return _PRECEDENCE[exp.EQ]
        if isinstance(inner, (exp.Like, exp.Between, exp.In)) and not (
                isinstance(inner, exp.In) and inner.args.get("query") is not None):
            return _PRECEDENCE[type(inner)]
        if isinstance(inner, exp.Is) and (e.meta.get("is_not") or
                                          isinstance(inner.expression, exp.Null)):
            return _PRECEDENCE[exp.Is]
        return _PRECEDENCE[exp.Neg]
    if isinstance(e, exp.Collate):
        return _COLLATE
    if isinstance(e, exp.BitwiseNot):
        return _PRECEDENCE[exp.Neg]
    if isinstance(e, exp.In) and e.args.get("query") is None and len(e.expressions) == 1:
        return _PRECEDENCE[exp.EQ]  # x IN (y) is printed x = y
    return _PRECEDENCE.get(type(e), _HIGHEST)
_FLAT = (exp.And, exp.Or, exp.Xor)  # MariaDB keeps AND / OR as one list: no parens inside
_RENAMED = {"SUBSTRING": "substr", "RM_DEFAULT_OF": "default", "SCHEMA": "database",
            "LENGTH": "octet_length", "NOW": "current_timestamp", "CURRENTTIMESTAMP":
            "current_timestamp", "CURRENT_TIMESTAMP": "current_timestamp"}


def expression(text: str) -> str:
    """MariaDB's canonical text of an expression that names no table (CHECK clauses)."""
    from rampmeter.engine.sqlite import defaultfn
    try:  # DEFAULT(col) read as RM_DEFAULT_OF(col), printed back as default(`col`)
        tree = sqlglot.parse_one(f"SELECT {defaultfn.rewrite_text(text)}", read="mysql")
        assert isinstance(tree, exp.Select)
        return _Printer(None, "").expr(tree.expressions[0])
    except Exception:  # noqa: BLE001 - text sqlglot cannot read: shown as it was written
        return text


class _Printer:
    """MariaDB's text of a query (st_select_lex::print): the view's own select list names
    every column (`AS name`); a derived table's names its columns but those no column may
    have; a subquery used as a value (IN, EXISTS, a scalar) names only what has an alias."""

    def __init__(self, s: SqliteSession | None, database: str,
                 stmt: Statement | None = None) -> None:
        self.s = s
        self.database = database
        self.stmt = stmt
        self.scopes: list[list[tuple[str, str, TableDef | None, str]]] = []
        self.ctes: dict[str, TableDef | None] = {}  # the WITH names in sight (lower case)
        self.written: str | None = None  # the text the tree was parsed from (its positions)

    # queries
    def query(self, node: exp.Expression, names: list[str] | None = None, *,
              top: bool = False, function: bool = False) -> str:
        with_ = node.args.get("with_") if isinstance(node, exp.Query) else None
        if isinstance(with_, exp.With):
            node = node.copy()
            node.set("with_", None)
            head = self._with(with_)
            return head + self.query(node, names, top=top, function=function)
        if isinstance(node, exp.Subquery):
            return "(" + self.query(node.this, function=function) + ")"
        if isinstance(node, exp.Union):
            word = "union" if node.args.get("distinct") else "union all"
            left = self.query(node.this, names, top=top, function=function)
            right = self.query(node.expression, function=function)
            text = f"{left} {word} {right}"
            return text + self._tail(node)
        if not isinstance(node, exp.Select):
            return node.sql("mysql")
        scope = self._scope(node)
        self.scopes.append(scope)
        try:
            return self._select(node, names, top=top, function=function)
        finally:
            self.scopes.pop()

    def _with(self, node: exp.With) -> str:
        """`with [recursive] name[(`a`,`b`)] as (query)[ CYCLE `a` RESTRICT ], ...` as
        MariaDB prints it (With_clause::print): the name bare, no space before the query
        that follows unless a CYCLE clause ends the CTE."""
        parts = []
        for cte in node.expressions:
            alias = cte.args.get("alias")
            names = [c.name for c in alias.columns] if isinstance(alias, exp.TableAlias) \
                and alias.columns else None
            self.ctes[cte.alias_or_name.lower()] = _derived(cte.this, names)
            text = cte.alias_or_name + (
                "(" + ",".join(_q(n) for n in names) + ")" if names else "")
            text += f" as ({self.query(cte.this, names)})"
            cycle = cte.meta.get("cycle")
            if cycle:
                text += " CYCLE " + ",".join(_q(c) for c in cycle) + " RESTRICT "
            parts.append(text)
        return "with " + ("recursive " if node.args.get("recursive") else "") + \
            ", ".join(parts)

    def _derived_names(self, sub: exp.Subquery) -> list[str] | None:
        """A derived table's column names as MariaDB gives them (derived.py)."""
        if self.stmt is None:
            return None
        from rampmeter.engine.sqlite import derived
        try:
            return derived.derived_names(sub, self.stmt, lambda _s, _q: None)
        except Exception:  # noqa: BLE001 - unnamed: the printer falls back to sqlglot's
            return None

    def _select(self, node: exp.Select, names: list[str] | None, *, top: bool = False,
                function: bool = False) -> str:
        items: list[str] = []
        aliases: dict[str, exp.Expression] = {}
        k = 0
        for item in node.expressions:
            value = item.this if isinstance(item, exp.Alias) else item
            if isinstance(value, exp.Star) or isinstance(value, exp.Column) and \
                    isinstance(value.this, exp.Star):
                qual = value.table if isinstance(value, exp.Column) else ""
                for alias, _table, tdef, _db in self.scopes[-1]:
                    if tdef is None or qual and alias.lower() != qual.lower():
                        continue
                    for c in tdef.columns:
                        if c.invisible:  # `*` leaves it out
                            continue
                        name = names[k] if names and k < len(names) else c.name
                        items.append(f"{self._column_ref(alias, c.name)} AS {_q(name)}")
                        k += 1
                continue
            name = names[k] if names and k < len(names) else (
                item.alias if isinstance(item, exp.Alias) else self._item_name(value))
            explicit = isinstance(item, exp.Alias)
            if explicit:
                aliases.setdefault(item.alias.lower(), value)
            if function and not explicit or not (top or explicit or isinstance(
                    value, exp.Column)) and (not name or name.endswith(" ") or len(name) > 64):
                items.append(self.expr(value))  # no name printed (module rules)
            else:
                items.append(f"{self.expr(value)} AS {_q(name)}")
            k += 1
        text = "select " + ("distinct " if node.args.get("distinct") else "") + ",".join(items)
        source = node.args.get("from_") or node.args.get("from")
        if source is not None:
            text += " from " + self._from(source.this, node.args.get("joins") or [])
        if node.args.get("where") is not None:
            text += " where " + self.expr(node.args["where"].this)
        if node.args.get("group") is not None:
            text += " group by " + ",".join(self._key(e, aliases)
                                            for e in node.args["group"].expressions)
            if node.args["group"].args.get("rollup"):
                text += " with rollup"
        if node.args.get("having") is not None:
            text += " having " + self.expr(node.args["having"].this)
        return text + self._tail(node, aliases)

    def _item_name(self, value: exp.Expression) -> str:
        """The name MariaDB gives a select item without an alias: a column's name, else the
        item as the client wrote it (found by the positions sqlglot keeps)."""
        if isinstance(value, exp.Column) and not isinstance(value.this, exp.Star):
            return value.name
        if self.written is not None:
            spans = [(n.meta["start"], n.meta["end"]) for n in value.walk()
                     if "start" in n.meta and "end" in n.meta]
            if spans:
                return _span(self.written, min(a for a, _b in spans),
                             max(b for _a, b in spans) + 1)
        return value.sql("mysql")

    def _key(self, e: exp.Expression, aliases: dict[str, exp.Expression]) -> str:
        """A GROUP BY / ORDER BY key: a select list alias that is no column of the FROM
        clause's tables is printed as the expression it names (MariaDB resolves it)."""
        if isinstance(e, exp.Column) and not e.table and e.name.lower() in aliases and \
                not any(tdef is not None and tdef.column(e.name) is not None
                        for _a, _t, tdef, _d in (self.scopes[-1] if self.scopes else [])):
            return self.expr(aliases[e.name.lower()])
        return self.expr(e)

    def _tail(self, node: exp.Expression, aliases: dict[str, exp.Expression] | None = None
              ) -> str:
        text = ""
        order = node.args.get("order")
        if order is not None:
            parts = [self._key(o.this, aliases or {}) + (" desc" if o.args.get("desc") else "")
                     for o in order.expressions]
            text += " order by " + ",".join(parts)
        limit = node.args.get("limit")
        offset = node.args.get("offset")
        if limit is not None:
            count = self.expr(limit.expression if limit.expression is not None else limit.this)
            text += " limit " + (f"{self.expr(offset.expression)},{count}" if offset is not None
                                 else count)
        return text

    # tables
    def _scope(self, node: exp.Select) -> list[tuple[str, str, TableDef | None, str]]:
        out = []
        for t in node.find_all(exp.Table):
            if t.find_ancestor(exp.Select) is not node:
                continue
            if not t.db and t.name.lower() in self.ctes:
                out.append((t.alias or t.name, t.name, self.ctes[t.name.lower()], ""))
                continue
            db = t.db or self.database
            tdef = self.s.table_def(db, t.name) if t.name and self.s is not None else None
            out.append((t.alias or t.name, t.name, tdef, db))
        out.extend((sub.alias, sub.alias, _derived(sub.this, self._derived_names(sub)), "")
                   for sub in node.find_all(exp.Subquery)
                   if sub.find_ancestor(exp.Select) is node and sub.alias and
                   isinstance(sub.parent, (exp.From, exp.Join)))
        return out

    def _table(self, node: exp.Expression) -> str:
        if isinstance(node, exp.Subquery) and isinstance(node.this, exp.Table) and \
                node.this.args.get("joins"):  # `from (a join b on(..))`, as views are printed
            inner = node.this.copy()
            joins = inner.args.pop("joins")
            return self._from(inner, joins)
        if isinstance(node, exp.Subquery):
            return "(" + self.query(node.this, self._derived_names(node)) + ")" + (
                f" {_q(node.alias)}" if node.alias else "")
        if isinstance(node, exp.Table) and not node.db and node.name.lower() == "dual":
            return "dual"
        if isinstance(node, exp.Table) and not node.db and node.name.lower() in self.ctes:
            return _q(node.name) + (f" {_q(node.alias)}" if node.alias else "")
        if isinstance(node, exp.Table):
            db = node.db or self.database
            text = f"{_q(db)}.{_q(node.name)}"
            if node.alias:
                text += f" {_q(node.alias)}"
            return text
        return node.sql("mysql")

    def _from(self, first: exp.Expression, joins: list[exp.Join]) -> str:
        text = self._table(first)
        for j in joins:
            side = (j.args.get("side") or "").lower()
            word = f"{side} join" if side else "join"
            right = self._table(j.this)
            on = j.args.get("on")
            while isinstance(on, exp.Paren):
                on = on.this
            cond = f" on({self.expr(on)})" if on is not None else ""
            text = f"({text} {word} {right}{cond})"
        return text

    def _column_ref(self, alias: str, column: str) -> str:
        # the innermost query naming the table (a correlated subquery's outer reference)
        for scope in reversed(self.scopes):
            if not any(a == alias for a, _t, _d, _db in scope):
                continue
            for a, table, tdef, db in scope:
                if a == alias and tdef is not None and tdef.view is None and a == table and db:
                    return f"{_q(db)}.{_q(a)}.{_q(column)}"
            break
        return f"{_q(alias)}.{_q(column)}"

    def _resolve(self, col: exp.Column) -> str:
        name = col.name
        if col.table and col.args.get("db") is not None:
            return f"{_q(col.db)}.{_q(col.table)}.{_q(name)}"
        if col.table:
            return self._column_ref(col.table, name)
        for scope in reversed(self.scopes):
            for alias, _table, tdef, _db in scope:
                if tdef is not None and tdef.column(name) is not None:
                    saved = self.scopes
                    self.scopes = [scope]
                    try:
                        return self._column_ref(alias, tdef.column(name).name)  # type: ignore[union-attr]
                    finally:
                        self.scopes = saved
        return _q(name)

    # expressions
    def expr(self, e: exp.Expression) -> str:  # noqa: C901 - one case per node kind
        if isinstance(e, exp.Column):
            if isinstance(e.this, exp.Star):
                return "*"
            return self._resolve(e)
        if isinstance(e, exp.Literal):
            return _string(e.this) if e.is_string else e.this
        if isinstance(e, exp.Null):
            return "NULL"
        if isinstance(e, exp.Boolean):
            return "1" if e.this else "0"  # (after IS: true / false, see _is_operand)
        if isinstance(e, exp.Paren):
            return self.expr(e.this)
        if isinstance(e, exp.Neg):
            inner = _bare(e.this)
            if isinstance(inner, exp.Literal) and inner.is_number and \
                    not inner.this.startswith("-") and not inner.this.strip("0."):
                return inner.this  # the parser's -0 is the number 0
            if isinstance(inner, exp.Literal) and inner.is_number:
                return "-" + inner.this
            return "-" + self._operand(e.this, _PRECEDENCE[exp.Neg])
        if isinstance(e, exp.BitwiseNot):
            return "~" + self._operand(e.this, _PRECEDENCE[exp.Neg])
        if isinstance(e, exp.Collate) and isinstance(e.expression, (exp.Var, exp.Identifier,
                                                                    exp.Column)):
            return (f"{self._operand(e.this, _COLLATE)} collate "
                    f"{e.expression.name.lower()}")
        if isinstance(e, exp.Not):
            inner = _bare(e.this)
            negated = negate(inner)
            if not isinstance(negated, exp.Not):
                return self.expr(negated)
            if isinstance(inner, exp.Like):
                prec = _PRECEDENCE[exp.Like]
                return (f"{self._operand(inner.this, prec)}  not like "
                        f"{self._operand(inner.expression, prec + 1)}")
            if isinstance(inner, exp.In) and inner.args.get("query") is not None:
                return "!(" + self._in(inner, " in ") + ")"
            if isinstance(inner, exp.In):
                return self._in(inner, " not in ")
            if isinstance(inner, exp.Between):
                return self._between(inner, " not between ")
            if isinstance(inner, exp.Is) and (e.meta.get("is_not") or
                                              isinstance(inner.expression, exp.Null)):
                # x IS NOT TRUE as written; NOT x IS NULL is x IS NOT NULL (MariaDB's parser)
                return (f"{self._operand(inner.this, _PRECEDENCE[exp.Is])} is not "
                        f"{self._is_operand(inner.expression)}")
            if isinstance(inner, exp.EQ):
                return f"{self.expr(inner.this)} <> {self.expr(inner.expression)}"
            if isinstance(inner, exp.Exists):
                return "!" + self.expr(inner)
            return "!" + self._operand(inner, _PRECEDENCE[exp.Neg])
        if isinstance(e, exp.DPipe):  # || under PIPES_AS_CONCAT is the function concat
            return f"concat({self.expr(e.this)},{self.expr(e.expression)})"
        if type(e) in _BINARY:
            prec = _PRECEDENCE.get(type(e), _HIGHEST)
            right = prec if isinstance(e, _FLAT) else prec + 1
            return (f"{self._operand(e.this, prec)} {_BINARY[type(e)]} "
                    f"{self._operand(e.expression, right)}")
        if isinstance(e, exp.Is):
            return (f"{self._operand(e.this, _PRECEDENCE[exp.Is])} is "
                    f"{self._is_operand(e.expression)}")
        if isinstance(e, exp.In):
            return self._in(e, " in ")
        if isinstance(e, exp.Between):
            return self._between(e, " between ")
        if isinstance(e, exp.Exists):
            inner = e.this
            text = self.query(inner if not isinstance(inner, exp.Subquery) else inner.this,
                              function=True)
            if " limit " not in text:
                text += " limit 1"
            return f"exists({text})"
        if isinstance(e, exp.Subquery):
            return "(" + self.query(e.this, function=True) + ")"
        if isinstance(e, exp.Interval) and isinstance(e.this, exp.Tuple) and \
                not e.args.get("unit"):  # the function INTERVAL(n, n1, n2...)
            return "interval(" + ",".join(self.expr(x) for x in e.this.expressions) + ")"
        if isinstance(e, exp.Extract) and isinstance(e.this, (exp.Var, exp.Column)):
            return f"extract({e.this.name.lower()} from {self.expr(e.expression)})"
        if isinstance(e, exp.Interval) and e.args.get("unit") is not None:
            value = e.this
            shown = value.this if isinstance(value, exp.Literal) and value.is_string and \
                e.meta.get("number") else self.expr(value)
            return f"interval {shown} {e.args['unit'].name.lower()}"
        if isinstance(e, exp.Parameter) and isinstance(e.this, (exp.Var, exp.Identifier)) and \
                not e.name.startswith("@"):
            return "@" + _q(e.name)  # a user variable: @`name`
        if isinstance(e, exp.Cast) and isinstance(e.this, exp.Literal) and \
                e.this.is_string and "safe" not in e.args:
            typed = _typed_literal(e)  # DATE'..': sqlglot's Cast without CAST's own args
            if typed is not None:
                return typed
        if isinstance(e, exp.Cast) and not e.args.get("format"):
            shown = self._cast_type(e.args["to"])
            if shown is not None:
                return f"cast({self.expr(e.this)} as {shown})"
        if isinstance(e, (exp.All, exp.Any)):  # x <= all (select ...)
            inner = e.this.this if isinstance(e.this, exp.Subquery) else e.this
            word = "all" if isinstance(e, exp.All) else "any"
            return f"{word} ({self.query(inner, function=True)})"
        if isinstance(e, exp.Tuple):
            return "(" + ",".join(self.expr(x) for x in e.expressions) + ")"
        if isinstance(e, exp.Case):
            parts = ["case"]
            if e.this is not None:
                parts.append(self.expr(e.this))
            parts.extend(f"when {self.expr(w.this)} then {self.expr(w.args['true'])}"
                         for w in e.args.get("ifs") or [])
            if e.args.get("default") is not None:
                parts.append("else " + self.expr(e.args["default"]))
            return " ".join(parts) + " end"
        if isinstance(e, exp.Count):
            inner = e.this
            if isinstance(inner, exp.Star) or inner is None:
                return "count(0)"
            if isinstance(inner, exp.Distinct):
                return "count(distinct " + ",".join(self.expr(x) for x in inner.expressions) \
                    + ")"
            return f"count({self.expr(inner)})"
        if isinstance(e, exp.Introducer):
            return self._introduced(e)
        if isinstance(e, exp.Collate):
            name = e.expression.name if isinstance(e.expression, (exp.Var, exp.Column,
                                                                  exp.Identifier)) \
                else self.expr(e.expression).strip("'`")
            return f"{self._operand(e.this, _HIGHEST)} collate {name.lower()}"
        if isinstance(e, (exp.Func, exp.Anonymous)):
            return self._function(e)
        return e.sql("mysql")

    def _introduced(self, e: exp.Introducer) -> str:
        """_cs'...' as MariaDB's Item_string::print writes a literal with an introducer: no
        space, the value's bytes in that character set, each non-ASCII byte as \\xHH and
        nothing escaped (the bytes must reach the client unchanged)."""
        from rampmeter.sql import charsets
        name = e.this if isinstance(e.this, str) else e.this.name
        cs = charsets.charset(name.lstrip("_"))
        value = e.expression
        if cs is None or not isinstance(value, (exp.Literal, exp.HexString, exp.BitString)):
            return e.sql("mysql")
        if isinstance(value, exp.HexString):
            digits = value.this if len(value.this) % 2 == 0 else "0" + value.this
            data = bytes.fromhex(digits)
        elif isinstance(value, exp.BitString):
            bits = int(value.this or "0", 2)
            data = bits.to_bytes((bits.bit_length() + 7) // 8, "big")
        else:
            client = self.stmt.charset if self.stmt is not None else charsets.UTF8MB4
            data = client.encode(value.this)
        shown = "".join(chr(b) if b < 0x80 else f"\\x{b:02X}" for b in data)
        return f"_{cs.name}'{shown}'"

    def _cast_type(self, to: exp.Expression) -> str | None:
        """CAST's target as MariaDB prints it: signed, unsigned, char(n) charset cs (the
        connection's when not given; BINARY is char charset binary), decimal(m,d),
        datetime(n)...; None for a type printed as sqlglot spells it."""
        if not isinstance(to, exp.DataType):
            return None
        t = exp.DataType.Type
        params = [p.this.sql("mysql") if isinstance(p, exp.DataTypeParam) else p.sql("mysql")
                  for p in to.expressions]
        size = f"({','.join(params)})" if params else ""
        kind = to.this
        if kind in (t.BIGINT, t.INT):
            return "signed"
        if kind == t.UBIGINT:
            return "unsigned"
        if kind in (t.CHAR, t.BINARY, t.CHARACTER_SET):
            if kind == t.BINARY:
                charset = "binary"
            elif kind == t.CHARACTER_SET and to.args.get("kind") is not None:
                charset = to.args["kind"].name.lower()
            else:
                charset = self._connection_charset()
            if charset == "utf8":
                charset = "utf8mb3"
            return f"char{size} charset {charset}"
        if kind == t.DECIMAL:
            return f"decimal{size or '(10,0)'}"
        if kind in (t.DATE, t.DATETIME, t.TIME, t.DOUBLE, t.FLOAT):
            if kind in (t.DATETIME, t.TIME) and params == ["0"]:
                size = ""  # MariaDB prints no (0) digits
            return kind.value.lower() + size
        return None

    def _connection_charset(self) -> str:
        try:
            got = self.s.context.system_variable("character_set_connection") \
                if self.s is not None else None
        except Exception:  # noqa: BLE001 - a host without the variable: the default
            got = None
        return str(got or "utf8mb4")

    def _operand(self, e: exp.Expression, needs: int) -> str:
        """`e` where an operand of precedence `needs` goes: in parentheses when it binds
        less tightly (MariaDB's Item::print_parenthesised)."""
        while isinstance(e, exp.Paren):
            e = e.this
        if isinstance(e, exp.Not) and not isinstance(negate(_bare(e.this)), exp.Not):
            e = negate(_bare(e.this))
        text = self.expr(e)
        if _precedence(e) < needs:
            return "(" + text + ")"
        return text

    def _between(self, e: exp.Expression, word: str) -> str:
        prec = _PRECEDENCE[exp.Between]
        return (f"{self._operand(e.this, prec + 1)}{word}{self._operand(e.args['low'], prec)} "
                f"and {self._operand(e.args['high'], prec)}")

    def _is_operand(self, e: exp.Expression) -> str:
        """IS NULL / IS TRUE: MariaDB prints the keyword in lower case there."""
        if isinstance(e, exp.Boolean):
            return "true" if e.this else "false"
        return self.expr(e).lower() if isinstance(e, exp.Null) else self.expr(e)

    def _in(self, e: exp.In, word: str) -> str:
        query = e.args.get("query")
        if query is None and len(e.expressions) == 1:
            # x IN (y) is x = y in MariaDB's parser (x NOT IN (y): x <> y)
            make = exp.NEQ if word.strip() == "not in" else exp.EQ
            return self.expr(make(this=e.this, expression=e.expressions[0]))
        if query is not None:
            inner = query.this if isinstance(query, exp.Subquery) else query
            return f"{self._operand(e.this, _PRECEDENCE[exp.In])}{word}(" \
                f"{self.query(inner, function=True)})"
        return f"{self._operand(e.this, _PRECEDENCE[exp.In])}{word}(" \
            f"{','.join(self.expr(x) for x in e.expressions)})"

    def _function(self, e: exp.Expression) -> str:
        if isinstance(e, exp.WeightString):
            # weight_string(x,0,length,flags): AS CHAR(n) / BINARY(n) give the length
            # (flags 65); BINARY(n) reads x cast to binary first
            to = e.args.get("to")
            x = self.expr(e.this)
            if not isinstance(to, exp.DataType):
                return f"weight_string({x},0,0,1)"
            n = to.expressions[0].this.sql("mysql") if to.expressions else "1"
            if to.this == exp.DataType.Type.BINARY:
                x = f"cast({x} as char({n}) charset binary)"
            return f"weight_string({x},0,{n},65)"
        if isinstance(e, exp.TimestampDiff) and e.args.get("unit"):
            # timestampdiff(UNIT,from,to): the unit in capitals
            return (f"timestampdiff({e.args['unit'].name.upper()},{self.expr(e.expression)},"
                    f"{self.expr(e.this)})")
        if isinstance(e, exp.Anonymous):
            name = str(e.this)
            args = list(e.expressions)
            moved = _interval_arithmetic(name.upper(), args)
            if moved is not None:  # MariaDB's parser makes these `date + interval n unit`
                return self.expr(moved)
            if name.upper() == "TIMESTAMPDIFF" and len(args) == 3 and \
                    isinstance(args[0], exp.Column) and not args[0].table:
                return (f"timestampdiff({args[0].name.upper()},{self.expr(args[1])},"
                        f"{self.expr(args[2])})")
        else:
            shown = e.sql("mysql")
            if "(" not in shown:
                return shown.lower()
            name = shown.split("(", 1)[0]
            args = []
            for key in type(e).arg_types:
                value = e.args.get(key)
                if isinstance(value, list):
                    args.extend(v for v in value if isinstance(v, exp.Expression))
                elif isinstance(value, exp.Expression):
                    args.append(value)
        upper = name.upper()
        if upper in ("CURRENT_TIMESTAMP", "NOW") and not args:
            return "current_timestamp()"
        low = _RENAMED.get(upper, name.lower())
        return f"{low}(" + ",".join(self.expr(a) for a in args) + ")"


def _typed_literal(e: exp.Cast) -> str | None:
    """DATE'..', TIME'..', TIMESTAMP'..' as MariaDB prints them: the value in its normal
    spelling, with the literal's fractional digits (Item_*_literal::print)."""
    from rampmeter.engine.sqlite import temporal
    D = exp.DataType.Type
    kind = e.to.this if isinstance(e.to, exp.DataType) else None
    text = e.this.name
    if kind == D.TIME:
        read = temporal.read_time(text)
        return None if read is None else f"TIME'{temporal.time_text(*read)}'"
    m = temporal.read_datetime(text)
    if m is None:
        return None
    if kind == D.DATE:
        return f"DATE'{m.date_text()}'"
    if kind in (D.TIMESTAMP, D.TIMESTAMPTZ):
        return f"TIMESTAMP'{m.text()}'"
    return None


def _interval_arithmetic(name: str, args: list[exp.Expression]) -> exp.Expression | None:
    """DATE_ADD / ADDDATE / DATE_SUB / SUBDATE / TIMESTAMPADD as the `+` / `-` of an
    interval MariaDB's parser turns them into (a bare number of ADDDATE is days)."""
    def interval(value: exp.Expression, unit: str) -> exp.Interval:
        node = exp.Interval(this=value.copy(), unit=exp.Var(this=unit.upper()))
        if isinstance(value, exp.Literal) and not value.is_string:
            node.this.set("is_string", True)
            node.meta["number"] = True
        return node
    if name in ("DATE_ADD", "ADDDATE", "DATE_SUB", "SUBDATE") and len(args) == 2:
        step = args[1]
        if not isinstance(step, exp.Interval):
            if name in ("DATE_ADD", "DATE_SUB"):
                return None
            step = interval(step, "DAY")
        kind = exp.Add if name in ("DATE_ADD", "ADDDATE") else exp.Sub
        return kind(this=args[0].copy(), expression=step.copy())
    if name == "TIMESTAMPADD" and len(args) == 3 and isinstance(args[0], exp.Column) and \
            not args[0].table:
        return exp.Add(this=args[2].copy(), expression=interval(args[1], args[0].name))
    return None


def _bare(e: exp.Expression) -> exp.Expression:
    while isinstance(e, exp.Paren):
        e = e.this
    return e


_BOOLEAN = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.NullSafeEQ, exp.And, exp.Or,
            exp.Xor, exp.Not, exp.Like, exp.In, exp.Between, exp.Is, exp.Exists, exp.RegexpLike)
_FLIPPED: dict[type, type] = {exp.GT: exp.LTE, exp.GTE: exp.LT, exp.LT: exp.GTE, exp.LTE: exp.GT,
                              exp.EQ: exp.NEQ, exp.NEQ: exp.EQ}


def negate(e: exp.Expression) -> exp.Expression:
    """NOT e as MariaDB's parser builds it (negate_expression, neg_transformer): NOT NOT x
    is x when x is a condition, else x <> 0; a comparison turns over (NOT a > 1 is
    a <= 1); AND and OR swap with their operands negated; NOT (NOT a XOR b) is a XOR b;
    NOT col is col = 0; anything else stays a NOT (printed `!(...)`, `not in`, ...)."""
    e = _bare(e)
    if isinstance(e, exp.Not):
        inner = _bare(e.this)
        if isinstance(inner, _BOOLEAN):
            return inner
        return exp.NEQ(this=inner, expression=exp.Literal.number(0))
    flipped = _FLIPPED.get(type(e))
    if flipped is not None:
        assert isinstance(e, exp.Binary)
        return flipped(this=e.this, expression=e.expression)
    if isinstance(e, exp.And):
        return exp.Or(this=negate(e.this), expression=negate(e.expression))
    if isinstance(e, exp.Or):
        return exp.And(this=negate(e.this), expression=negate(e.expression))
    if isinstance(e, exp.Xor) and e.this is not None and e.expression is not None:
        if isinstance(_bare(e.this), exp.Not):
            return exp.Xor(this=_bare(e.this).this, expression=e.expression)
        if isinstance(_bare(e.expression), exp.Not):
            return exp.Xor(this=e.this, expression=_bare(e.expression).this)
    if isinstance(e, exp.Column) and not isinstance(e.this, exp.Star):
        return exp.EQ(this=e, expression=exp.Literal.number(0))
    return exp.Not(this=e)


def _span(text: str, start: int, end: int) -> str:
    """text[start:end] grown to the parentheses it opens or closes (a function's `)`, the
    `(` of a parenthesised item: sqlglot keeps the positions of names and literals only)."""
    while True:
        depth = 0
        low = 0
        for ch in text[start:end]:
            depth += (ch == "(") - (ch == ")")
            low = min(low, depth)
        if low < 0:
            back = text.rfind("(", 0, start)
            if back < 0:
                break
            start = back
        elif depth > 0:
            ahead = text.find(")", end)
            if ahead < 0:
                break
            end = ahead + 1
        else:
            break
    return text[start:end].strip()


def _derived(inner: exp.Expression, names: list[str] | None = None) -> TableDef | None:
    """A derived table's columns (names only), for qualifying references to them."""
    from rampmeter.engine import types as T
    from rampmeter.engine.sqlite.catalog import ColumnDef
    from rampmeter.engine.sqlite.translate import leftmost_select
    select = leftmost_select(inner)
    if select is None:
        return None
    if names is not None:
        return TableDef("", [ColumnDef(n, T.varchar(255)) for n in names])
    cols = [ColumnDef(x.alias_or_name, T.varchar(255)) for x in select.expressions
            if x.alias_or_name]
    return TableDef("", cols)
