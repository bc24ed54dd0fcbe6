"""Views: CREATE / ALTER / DROP VIEW, SHOW CREATE VIEW, and what a statement that names a view
reads.

Rules:
- A view is one JSON row in `_rampmeter_views` of its database's file: its SELECT as the
  client wrote it (and the sql_mode it was read with), its column names - fixed when it is
  created, as MariaDB fixes them (`*` included) - and MariaDB's canonical text of the query
  (sqltext.py), which SHOW CREATE VIEW and information_schema.VIEWS print. SQLite never sees a
  view: a statement that names one reads its SELECT as a derived table (translate.py calls
  `expand`), so views work across databases and with every rewrite DML gets.
- A view's columns are typed by planning its SELECT (`load_typed`), once per schema version
  (the engine caches definitions), so result metadata, DESCRIBE and information_schema.COLUMNS
  carry real types. A view whose tables or columns are gone is error 1356 when used.
- Errors are MariaDB's: 1050 the name is taken (by a table or a view), 1347 ALTER VIEW / SHOW
  CREATE VIEW of a table, 4092 DROP VIEW of something that is not a view, 1353 a column list of
  the wrong length, 1060 duplicate column names, 1351 a user variable in the SELECT.
- ALGORITHM, DEFINER and WITH CHECK OPTION are kept and shown, and do nothing; an INSERT /
  UPDATE / DELETE through a simple view is rewritten onto its table (viewdml.py). SQL SECURITY
  decides whose privileges the view's query is read with: a DEFINER view is checked as the
  object it is, an INVOKER view's tables for its reader too (access.py).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine import types as T
from rampmeter.engine.base import Result, ResultSet, UpdateCount
from rampmeter.engine.sqlite.catalog import ColumnDef, Default, TableDef, q
from rampmeter.errors import ServerError, Warning_
from rampmeter.protocol.columns import text_column
from rampmeter.sql.lexer import Dialect
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement, scan

if TYPE_CHECKING:
    from sqlglot import exp

    from rampmeter.engine.sqlite.session import SqliteSession

META = "_rampmeter_views"
INFORMATION_SCHEMA = "information_schema"
_QUERY_KINDS = ("SELECT", "WITH", "VALUES", "TABLE")


@dataclass(slots=True)
class ViewDef:
    name: str
    database: str
    text: str                  # the SELECT as the client wrote it
    columns: list[str]         # the view's column names
    definition: str            # MariaDB's canonical text, names qualified with their database
    sql_mode: str = ""
    algorithm: str = "UNDEFINED"
    definer: str = "root@localhost"
    security: str = "DEFINER"
    check_option: str = "NONE"  # NONE | CASCADED | LOCAL
    charset_client: str = "utf8mb4"
    collation_connection: str = "utf8mb4_general_ci"
    updatable: bool = True
    star: bool = False         # the SELECT has a `*`: read through the fixed column names
    broken: str = ""           # why the view cannot be read now (1356)
    current: str = ""          # the current database at CREATE: its SELECT's unqualified
    #                            tables are there (MariaDB qualifies them when it stores it)

    @property
    def home(self) -> str:
        """The database the view's SELECT names its unqualified tables in."""
        return self.current or self.database


# --- storage -------------------------------------------------------------------------------------
def meta_ddl(schema: str) -> str:
    return (f"CREATE TABLE IF NOT EXISTS {q(schema)}.{META} (name TEXT PRIMARY KEY COLLATE "
            "NOCASE, spec TEXT NOT NULL)")


def find(conn: sqlite3.Connection, schema: str, name: str) -> str | None:
    try:
        row = conn.execute(f"SELECT name FROM {q(schema)}.{META} WHERE name = ?",
                           (name,)).fetchone()
    except sqlite3.OperationalError:
        return None
    return row[0] if row else None


def names(conn: sqlite3.Connection, schema: str) -> list[str]:
    try:
        return [r[0] for r in conn.execute(f"SELECT name FROM {q(schema)}.{META}")]
    except sqlite3.OperationalError:
        return []


def load(conn: sqlite3.Connection, schema: str, name: str) -> ViewDef | None:
    try:
        row = conn.execute(f"SELECT spec FROM {q(schema)}.{META} WHERE name = ?",
                           (name,)).fetchone()
    except sqlite3.OperationalError:
        return None
    return ViewDef(**json.loads(row[0])) if row else None


def _write(s: SqliteSession, schema: str, view: ViewDef) -> None:
    h = s.handle
    h.execute(meta_ddl(schema))
    h.execute(f"DELETE FROM {q(schema)}.{META} WHERE name = ?", (view.name,))
    h.execute(f"INSERT INTO {q(schema)}.{META} VALUES (?, ?)",
              (view.name, json.dumps(asdict(view))))


# --- what statements read ------------------------------------------------------------------------
def statement(view: ViewDef) -> Statement:
    return scan(view.text, Dialect.of(view.sql_mode))


def load_typed(s: SqliteSession, conn: sqlite3.Connection, schema: str, database: str,
               name: str) -> TableDef | None:
    """The view as a table: its columns typed by planning its SELECT (module rules)."""
    view = load(conn, schema, name)
    if view is None:
        return None
    from rampmeter.engine.sqlite.dml import bind
    from rampmeter.engine.sqlite.translate import DEFAULT_SETTINGS, translate
    stmt = statement(view)
    try:  # its literals are in the collation_connection it was created with
        plan = translate(stmt, view.home, s.table_def,
                         (view.collation_connection, *DEFAULT_SETTINGS[1:]))
        # and run for no rows: a table or column gone is a broken view (1356). Not EXPLAIN:
        # a cached EXPLAIN statement lists its old program without seeing the schema change.
        s.make_visible(plan)
        s.handle.execute(f"SELECT * FROM ({plan.sql}) LIMIT 0",
                         {**bind(stmt, []), **plan.fixed}).fetchall()
    except (ServerError, sqlite3.Error) as e:
        view.broken = str(e)
        return TableDef(view.name, [ColumnDef(c, T.varchar(255)) for c in view.columns],
                        view=view)
    outputs = plan.outputs or []
    by_name = {_output_name(o, stmt).lower(): o for o in outputs}
    columns = []
    for k, col in enumerate(view.columns):
        if view.star:  # read by name: the tables may have more columns now
            o = by_name.get(col.lower())
        else:
            o = outputs[k] if k < len(outputs) and len(outputs) == len(view.columns) else None
        base = _source_column(s, o)
        if base is not None:  # a table's column: its type, NOT NULL and default (an
            # AUTO_INCREMENT one's default is 0, as MariaDB shows it)
            default = Default("value", 0, "0") if base.auto_increment else base.default
            columns.append(ColumnDef(col, base.type, base.nullable or o.rolled, default))
        else:
            t = o.sql_type if o is not None and o.sql_type is not None else T.varchar(255)
            columns.append(ColumnDef(col, t))
    return TableDef(view.name, columns, view=view)


def _output_name(o: Any, stmt: Statement) -> str:
    name = o.name
    if isinstance(name, int) and stmt.items is not None and name < len(stmt.items):
        return stmt.items[name]
    return name if isinstance(name, str) else ""


def _source_column(s: SqliteSession, o: Any) -> ColumnDef | None:
    if o is None or not o.org_table or not o.schema:
        return None
    tdef = s.table_def(o.schema, o.org_table)
    return tdef.column(o.org_name) if tdef is not None else None


def expansion(view: ViewDef, number: int) -> tuple[exp.Expression, dict[str, Any]]:
    """The view's SELECT for a statement that names it: a tree whose select list is aliased
    with the view's column names, and the values of its literals, renamed to stay apart from
    the statement's own (`number` counts the views expanded so far)."""
    from sqlglot import exp as E

    from rampmeter.engine.sqlite.dml import sqlite_value
    from rampmeter.engine.sqlite.translate import leftmost_select, parse
    if view.broken:
        raise broken_error(view)
    from rampmeter.engine.sqlite import defaultfn
    stmt = statement(view)
    tree = parse(stmt, defaultfn.rewrite_text(stmt.shape))  # DEFAULT(col): resolved in expand
    fixed: dict[str, Any] = {}
    base = 100_000 * (number + 1)
    for node in list(tree.find_all(E.Placeholder)):
        name = node.name
        kind, rest = name[0], name[1:]
        index, _, scale = rest.partition("_")
        new = f"{kind}{base + int(index)}" + (f"_{scale}" if scale else "")
        fixed[new] = sqlite_value(stmt.slots[int(index)])
        node.set("this", new)
    select = leftmost_select(tree)
    if select is None:
        raise broken_error(view)
    if view.star:
        inner = E.Subquery(this=tree, alias=E.TableAlias(this=E.to_identifier("rm_view")))
        tree = E.select(*[E.alias_(E.column(c, quoted=True), c, quoted=True)
                          for c in view.columns]).from_(inner, copy=False)
    else:
        items = []
        for item, col in zip(select.expressions, view.columns):
            value = item.this if isinstance(item, E.Alias) else item
            items.append(E.Alias(this=value, alias=E.to_identifier(col, quoted=True)))
        select.set("expressions", items)
    return tree, fixed


def expand(table: exp.Table, tdef: TableDef, alias: str, tables: Any,
           qualify: Callable[..., list[str]], new_tables: Callable[[Any], Any]) -> list[str]:
    """translate.py's hook: the view `table` names becomes its SELECT, a derived table named
    `alias`, qualified in the view's own database (`qualify`, with a scope of its own made by
    `new_tables`); returns the information_schema tables it reads."""
    from sqlglot import exp as E
    view = tdef.view
    if isinstance(table.parent, (E.Insert, E.Update, E.Delete, E.Schema)):
        from rampmeter.engine.sqlite.viewdml import ThroughView
        raise ThroughView(view)  # session._run writes through it (viewdml.py)
    if tables.views > 64:  # a view that reads itself, through others
        raise broken_error(view)
    tree, fixed = expansion(view, tables.views)
    tables.views += 1
    tables.fixed.update(fixed)
    inner = new_tables(tables.lookup)
    inner.views = tables.views
    found = qualify(tree, view.home, inner)
    if any(isinstance(n, E.Anonymous) and n.name.upper() == "RM_DEFAULT_OF"
           for n in tree.find_all(E.Anonymous)):
        from rampmeter.engine.sqlite import defaultfn, translate
        stmt = statement(view)
        defaultfn.resolve(tree, inner.find, translate._now_call, stmt.syntax_error)
    if view.security != "INVOKER":  # the query runs as its definer (defaults included)
        user, role = definer_context(view)
        for node in list(tree.find_all(E.CurrentUser, E.CurrentRole)):
            value = user if isinstance(node, E.CurrentUser) else role
            node.replace(E.Literal.string(value) if value is not None else E.Null())
    tables.views = inner.views
    tables.fixed.update(inner.fixed)
    tables.more_databases += [d for d, _t, _x in inner.by_alias.values()
                              if d.lower() != INFORMATION_SCHEMA] + inner.more_databases
    table.replace(E.Subquery(this=tree, alias=E.TableAlias(
        this=E.to_identifier(alias, quoted=True))))
    return found


def definer_context(view: ViewDef) -> tuple[str, str | None]:
    """(CURRENT_USER(), CURRENT_ROLE()) inside an SQL SECURITY DEFINER view: its definer's;
    a role definer (stored `role@`) is MariaDB's "@" with that role (mtr default_session)."""
    user, _, host = view.definer.rpartition("@")
    if not host and user:
        return "@", user
    return view.definer, None


def broken_error(view: ViewDef) -> ServerError:
    return ServerError(1356, message=f"View '{view.database}.{view.name}' references invalid "
                       "table(s) or column(s) or function(s) or definer/invoker of view lack "
                       "rights to use them", sqlstate="HY000")


# --- CREATE / ALTER / DROP -------------------------------------------------------------------
def create(s: SqliteSession, r: Reader, *, or_replace: bool, alter: bool = False) -> Result:
    """[ALGORITHM=..] [DEFINER=..] [SQL SECURITY ..] VIEW [IF NOT EXISTS] name [(cols)] AS
    select [WITH [CASCADED | LOCAL] CHECK OPTION], the reader after CREATE [OR REPLACE] /
    ALTER."""
    algorithm, definer, security = "UNDEFINED", _current_user(s), "DEFINER"
    named = False  # DEFINER = an account given by name
    while not r.at("VIEW"):
        if r.accept("ALGORITHM"):
            r.expect("=")
            algorithm = r.next().text.upper()
        elif r.accept("DEFINER"):
            r.expect("=")
            named = not r.at("CURRENT_USER")
            definer = _definer(s, r)
        elif r.accept("SQL", "SECURITY"):
            security = r.next().text.upper()
        else:
            raise r.error()
    r.expect("VIEW")
    if_not_exists = r.accept("IF", "NOT", "EXISTS")
    if or_replace and if_not_exists:
        raise ServerError(errors.ER_WRONG_USAGE, "OR REPLACE", "IF NOT EXISTS")
    db, name = r.qualified_name()
    database = db or s.database
    if database is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    schema = s.schema(database)
    columns: list[str] | None = None
    if r.accept("("):
        columns = []
        while True:
            columns.append(r.name())
            if r.accept(")"):
                break
            r.expect(",")
    r.expect("AS")
    first = r.i
    last = len(r.toks) - 1
    check_option = "NONE"
    words = [t.text.upper() for t in r.toks[-4:]]
    if words[-2:] == ["CHECK", "OPTION"]:
        check_option = words[-3] if words[-3] in ("CASCADED", "LOCAL") else "CASCADED"
        last -= 3 if words[-3] in ("CASCADED", "LOCAL") else 2
        if r.toks[last].text.upper() != "WITH":
            raise r.error(r.toks[last])
        last -= 1
    if last < first:
        raise r.error()
    text = r.text_between(first, last)
    result = _define(s, schema, database, name, text, columns, or_replace=or_replace,
                     alter=alter, if_not_exists=if_not_exists, algorithm=algorithm,
                     definer=definer, security=security, check_option=check_option)
    if named and not result.warnings:
        result.warnings.extend(missing_definer(s, definer))
    return result


def missing_definer(s: SqliteSession, definer: str) -> list[Warning_]:
    """Note 1449 when the view's DEFINER is no account (MariaDB creates and lists it all the
    same, and fails when it is read)."""
    exists = getattr(s.context, "account_exists", None)
    user, _, host = definer.rpartition("@")
    if exists is None or exists(user, host):
        return []
    return [Warning_("Note", errors.ER_NO_SUCH_USER,
                     f"The user specified as a definer ('{user}'@'{host}') does not exist")]


def _current_user(s: SqliteSession) -> str:
    user = str(getattr(s.context, "current_user", "") or getattr(s.context, "user", "root@%"))
    return user if "@" in user else user + "@%"


def _definer(s: SqliteSession, r: Reader) -> str:
    if r.accept("CURRENT_USER"):
        if r.accept("("):
            r.expect(")")
        return _current_user(s)
    user = r.name_or_string()
    t = r.peek()
    if t is not None and t.text.startswith("@"):
        r.next()
        host = t.text[1:].strip("'`\"") or r.name_or_string()
        return f"{user}@{host}"
    # no host: a role of that name (MariaDB stores `role@`), else the account user@'%'
    exists = getattr(s.context, "account_exists", None)
    return f"{user}@" if exists is not None and exists(user, "") else f"{user}@%"


def _define(s: SqliteSession, schema: str, database: str, name: str, text: str,
            columns: list[str] | None, *, or_replace: bool, alter: bool, if_not_exists: bool,
            **attrs: Any) -> Result:
    from rampmeter.engine.sqlite import sqltext
    existing = find(s.handle.conn, schema, name)
    table = s.find_table(schema, name)
    if alter and existing is None:
        if table is not None:
            raise not_view(database, name)
        raise ServerError(errors.ER_NO_SUCH_TABLE, database, name)
    if table is not None:
        if or_replace:
            raise not_view(database, name)
        raise ServerError(errors.ER_TABLE_EXISTS_ERROR, name)
    if existing is not None and not (or_replace or alter):
        if if_not_exists:
            return UpdateCount(warnings=[Warning_.of(errors.ER_TABLE_EXISTS_ERROR, name,
                                                     level="Note")])
        raise ServerError(errors.ER_TABLE_EXISTS_ERROR, name)
    mode = s.sql_mode()
    stmt = s.scan(text)
    if stmt.kind not in _QUERY_KINDS and not (stmt.kind == "SELECT" and text[:1] == "("):
        raise stmt.syntax_error()
    # the client's character set and collation, as SHOW CREATE VIEW and I_S.VIEWS show them
    attrs.setdefault("charset_client", _variable(s, "character_set_client", "utf8mb4"))
    attrs.setdefault("collation_connection", _variable(s, "collation_connection",
                                                       "utf8mb4_general_ci"))
    view = ViewDef(name, database, text, [], "", mode, **attrs)
    view.current = s.database or database
    view.columns, view.star, view.updatable, view.definition = sqltext.describe(
        s, stmt, view.home, columns, view)
    with s.ddl():
        _write(s, schema, view)
    return UpdateCount()


def _variable(s: SqliteSession, name: str, default: str) -> str:
    try:
        return str(s.context.system_variable(name) or default)
    except ServerError:  # a host without it
        return default


def not_view(database: str, name: str) -> ServerError:
    return ServerError(1347, message=f"'{database}.{name}' is not of type 'VIEW'",
                       sqlstate="HY000")


def drop(s: SqliteSession, r: Reader) -> Result:
    if_exists = r.accept("IF", "EXISTS")
    targets = [r.qualified_name()]
    while r.accept(","):
        targets.append(r.qualified_name())
    r.accept_any("RESTRICT", "CASCADE")
    r.end()
    missing: list[str] = []
    wrong: list[Warning_] = []  # the tables named: a Warning each before the Note (MariaDB)
    found: list[tuple[str, str]] = []
    for db, name in targets:
        database = db or s.database
        if database is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        try:
            schema = s.schema(database)
        except ServerError:
            missing.append(f"{database}.{name}")
            continue
        stored = find(s.handle.conn, schema, name)
        if stored is None:
            missing.append(f"{database}.{name}")
            if s.find_table(schema, name) is not None:
                wrong.append(Warning_("Warning", 1347,
                                      f"'{database}.{name}' is not of type 'VIEW'"))
        else:
            found.append((schema, stored))
    if found:
        with s.ddl():
            for schema, stored in found:
                s.handle.execute(f"DELETE FROM {q(schema)}.{META} WHERE name = ?", (stored,))
    message = f"Unknown VIEW: '{','.join(missing)}'"
    if missing and not if_exists:
        raise ServerError(4092, message=message, sqlstate="42S02")
    return UpdateCount(warnings=wrong + [Warning_("Note", 4092, message)] if missing else [])


# --- SHOW CREATE VIEW ----------------------------------------------------------------------------
def show_create(s: SqliteSession, db: str | None, name: str) -> Result:
    database = db or s.database
    if database is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    schema = s.schema(database)
    view = load(s.handle.conn, schema, name) if find(s.handle.conn, schema, name) else None
    if view is None:
        if s.find_table(schema, name) is not None:
            raise not_view(database, name)
        raise ServerError(errors.ER_NO_SUCH_TABLE, database, name)
    cols = [text_column("View", length=64), text_column("Create View", length=1024),
            text_column("character_set_client", length=32),
            text_column("collation_connection", length=32)]
    text = create_text(view, s.database)
    if "ANSI_QUOTES" in s.sql_mode().upper().split(","):
        from rampmeter.engine.sqlite.showmode import ansi_quoted
        text = ansi_quoted(text)  # MariaDB quotes as the session's sql_mode says when shown
    return ResultSet(cols, [(view.name, text, view.charset_client, view.collation_connection)])


def create_text(view: ViewDef, current: str | None) -> str:
    user, _, host = view.definer.rpartition("@")  # the user may hold an @
    same = current is not None and current.lower() == view.database.lower()
    name = f"`{_bq(view.name)}`" if same else f"`{_bq(view.database)}`.`{_bq(view.name)}`"
    body = unqualified(view.definition, view.database) if same else view.definition
    text = (f"CREATE ALGORITHM={view.algorithm} DEFINER=`{_bq(user)}`@`{_bq(host)}` "
            f"SQL SECURITY {view.security} VIEW {name} AS {body}")
    if view.check_option != "NONE":
        text += f" WITH {view.check_option} CHECK OPTION"
    return text


def unqualified(definition: str, database: str) -> str:
    """The canonical text as SHOW CREATE VIEW prints it in the view's own database."""
    return definition.replace(f"`{_bq(database)}`.", "")


def _bq(name: str) -> str:
    return name.replace("`", "``")
