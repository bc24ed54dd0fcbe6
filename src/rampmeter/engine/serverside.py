"""What the server answers on a custom engine's behalf (engine/custom.py): the table-less
SELECTs clients send on connect and the catalog SHOWs tools send, so a small engine only has to
know its own statements.

Rules:
- `answer(...)` returns a Result, or None to hand the statement to the engine's `execute`.
  Nothing here guesses: a statement it does not fully understand goes to the engine.
- Table-less SELECT (no FROM, or FROM DUAL; no WHERE, GROUP BY, ORDER BY...): every item must
  be a literal, @@[session. | global.]variable, @user_variable, DATABASE() / SCHEMA(), USER() /
  SESSION_USER() / SYSTEM_USER(), CURRENT_USER(), VERSION(), CONNECTION_ID() or
  LAST_INSERT_ID(), optionally aliased; a LIMIT is obeyed. That covers what the mysql / mariadb
  CLI, PyMySQL, mysqlclient, mysql-connector, SQLAlchemy and mysqld_exporter send
  (reference/conventions.md 1.7). Column names are MariaDB's (the item as typed, Statement.items).
- SHOW DATABASES / SCHEMAS, SHOW [FULL] TABLES, SHOW [FULL] COLUMNS | FIELDS, DESCRIBE / DESC /
  EXPLAIN <table> and SHOW CREATE TABLE are read from the engine's catalog (databases(),
  tables(), columns()), with MariaDB 10.11's column names; LIKE is matched case-insensitively.
  Errors are MariaDB's: 1046 with no current database, 1049 for an unknown one, 1146 for an
  unknown table.
- What this module does not answer may still be the server's: adapter.py runs other
  table-less SELECTs and queries over the server's own information_schema tables on a private
  SQLite engine. information_schema's catalog tables are not built for custom engines.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import ResultSet, SessionContext, TableColumn
from rampmeter.engine.types import SqlType, column_for_values, parse_type
from rampmeter.errors import ServerError
from rampmeter.protocol.columns import text_column
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.engine.custom import CustomEngine


# --- the catalog ----------------------------------------------------------------------------

def find_database(engine: CustomEngine, name: str) -> str | None:
    """The catalog's spelling of `name` (compared case-insensitively, lower_case_table_names=2)."""
    low = name.lower()
    return next((d for d in engine.databases() if d.lower() == low), None)


def find_table(engine: CustomEngine, database: str | None, table: str) -> tuple[str, str]:
    """(database, table) as the catalog spells them; 1046 / 1049 / 1146 as MariaDB answers."""
    if database is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    db = find_database(engine, database)
    if db is None:
        raise ServerError(errors.ER_BAD_DB_ERROR, database)
    low = table.lower()
    name = next((t for t in engine.tables(db) if t.lower() == low), None)
    if name is None:
        raise ServerError(errors.ER_NO_SUCH_TABLE, db, table)
    return db, name


def table_columns(engine: CustomEngine, database: str | None, table: str) -> list[TableColumn]:
    db, name = find_table(engine, database, table)
    out = []
    for entry in engine.columns(db, name) or ():
        col, spelling = entry[0], entry[1]
        key = entry[2] if len(entry) > 2 else ""  # type: ignore[misc]
        sql_type = _type(spelling)
        out.append(TableColumn(col, sql_type.spelling(), key != "PRI", key, None, "",
                               sql_type.column(col, table=name, schema=db), sql_type))
    return out


def _type(spelling: str) -> SqlType:
    try:
        return parse_type(spelling)
    except ValueError:
        raise ServerError(errors.ER_UNKNOWN_ERROR,
                          f"the engine's catalog has an unknown type {spelling!r}") from None


def create_table(engine: CustomEngine, database: str | None, table: str) -> str:
    """SHOW CREATE TABLE's text, MariaDB's layout, from the catalog's columns."""
    db, name = find_table(engine, database, table)
    lines = []
    keys = []
    for c in table_columns(engine, db, name):
        null = " DEFAULT NULL" if c.nullable else " NOT NULL"
        lines.append(f"  `{c.name}` {c.column_type}{null}")
        if c.key == "PRI":
            keys.append(f"`{c.name}`")
    if keys:
        lines.append(f"  PRIMARY KEY ({','.join(keys)})")
    body = ",\n".join(lines)
    return f"CREATE TABLE `{name}` (\n{body}\n)"


# --- routing ----------------------------------------------------------------------------------

def answer(engine: CustomEngine, database: str | None, context: SessionContext,
           last_insert_id: int, stmt: Statement) -> ResultSet | None:
    kind = stmt.kind
    if kind == "SELECT" and not stmt.uses_tables:
        return _tableless(database, context, last_insert_id, stmt)
    if kind == "SHOW" and stmt.tokens:
        return _show(engine, database, Reader(stmt, 1))
    if kind in ("DESCRIBE", "DESC", "EXPLAIN") and stmt.tokens and len(stmt.tokens) > 1 and \
            stmt.tokens[1].is_name and (len(stmt.words) < 2 or stmt.words[1] not in _EXPLAINED):
        r = Reader(stmt, 1)
        db, table = r.qualified_name()
        pattern = None
        if not r.done:  # DESCRIBE t col_or_pattern
            t = r.next()
            pattern = r.stmt.text[t.start:t.end] if t.kind == "word" else \
                r.stmt.text[t.start + 1:t.end - 1]
            r.end()
        return _columns(engine, db or database, table, None, full=False, pattern=pattern)
    return None


# EXPLAIN / DESCRIBE of a statement, not of a table: the engine's (or 1235)
_EXPLAINED = frozenset({"SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "WITH", "VALUES",
                        "TABLE", "FORMAT", "EXTENDED", "PARTITIONS", "ANALYZE", "FOR"})


# --- table-less SELECT --------------------------------------------------------------------------

_PARSED: dict[str, Any] = {}  # text -> sqlglot tree: connect-time queries repeat verbatim
_FUNCTIONS = {"USER", "SYSTEM_USER", "SESSION_USER", "CONNECTION_ID", "LAST_INSERT_ID",
              "DATABASE", "SCHEMA", "VERSION", "CURRENT_USER"}


def _tableless(database: str | None, context: SessionContext, last_insert_id: int,
               stmt: Statement) -> ResultSet | None:
    from sqlglot import exp
    tree = _PARSED.get(stmt.text)
    if tree is None:
        from rampmeter.engine.custom import parse_mysql
        try:
            tree = parse_mysql(stmt.text)
        except ServerError:
            return None  # MariaDB syntax sqlglot lacks: the private engine's front door decides
        if len(_PARSED) > 256:
            _PARSED.clear()
        _PARSED[stmt.text] = tree
    if not isinstance(tree, exp.Select) or any(
            tree.args.get(k) for k in tree.args if k not in ("expressions", "limit", "offset",
                                                             "from", "from_")):
        return None
    source = tree.args.get("from") or tree.args.get("from_")
    if source is not None and not (isinstance(source.this, exp.Table) and
                                   source.this.name.upper() == "DUAL" and not source.this.db):
        return None
    values: list[Any] = []
    names: list[str] = []
    items = stmt.items or ()
    env = (database, context, last_insert_id)
    for i, item in enumerate(tree.expressions):
        node, alias = (item.this, item.alias) if isinstance(item, exp.Alias) else (item, None)
        try:
            values.append(_value(node, env))
        except LookupError:
            return None
        names.append(alias or (items[i] if len(items) == len(tree.expressions) else
                               node.sql(dialect="mysql")))
    count = 1
    for key in ("limit", "offset"):
        clause = tree.args.get(key)
        if clause is not None:
            n = _value(clause.expression, env)
            if not isinstance(n, int):
                return None
            count = min(count, n) if key == "limit" else count - n
    data = [tuple(values)] if count > 0 else []
    columns = [column_for_values(n, [v]) for n, v in zip(names, values, strict=True)]
    return ResultSet(columns, data)


def _value(node: Any, env: tuple[str | None, SessionContext, int]) -> Any:
    """One item's value; LookupError when it is not one this module answers."""
    from sqlglot import exp
    database, context, last_id = env
    if isinstance(node, exp.Literal):
        return _literal(node)
    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal) and \
            not node.this.is_string:
        return -_literal(node.this)
    if isinstance(node, exp.Null):
        return None
    if isinstance(node, exp.Boolean):
        return int(bool(node.this))
    if isinstance(node, exp.SessionParameter):
        scope = (node.args.get("kind") or "").lower() or None
        value = context.system_variable(node.name, scope)
        return int(value) if isinstance(value, bool) else value
    if isinstance(node, exp.Parameter):
        return context.user_variable(node.name)
    if isinstance(node, exp.CurrentSchema):
        return database
    if isinstance(node, exp.CurrentUser):
        return context.current_user
    if isinstance(node, exp.SessionUser):
        return context.user
    if isinstance(node, exp.CurrentVersion):
        return context.system_variable("version")
    if isinstance(node, exp.Anonymous) and not node.expressions and \
            node.name.upper() in _FUNCTIONS:
        name = node.name.upper()
        if name in ("USER", "SYSTEM_USER", "SESSION_USER"):
            return context.user
        if name == "CONNECTION_ID":
            return context.connection_id
        if name == "LAST_INSERT_ID":
            return last_id
        if name in ("DATABASE", "SCHEMA"):
            return database
        if name == "VERSION":
            return context.system_variable("version")
        return context.current_user
    raise LookupError(node)


def _literal(node: Any) -> Any:
    text = node.this
    if node.is_string:
        return text
    if re.fullmatch(r"\d+", text):
        return int(text)
    if "e" in text.lower():
        return float(text)
    return Decimal(text)


# --- SHOW ---------------------------------------------------------------------------------------

def _show(engine: CustomEngine, database: str | None, r: Reader) -> ResultSet | None:
    full = r.accept("FULL")
    what = r.accept_any("DATABASES", "SCHEMAS", "TABLES", "COLUMNS", "FIELDS", "CREATE")
    if what in ("DATABASES", "SCHEMAS") and not full:
        pattern = _like(r)
        names = sorted(d for d in engine.databases() if _match(pattern, d))
        title = "Database" + (f" ({pattern})" if pattern is not None else "")
        return ResultSet([text_column(title, length=64)], [(d,) for d in names])
    if what == "TABLES":
        db = r.name() if r.accept_any("FROM", "IN") else database
        pattern = _like(r)
        if db is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        found = find_database(engine, db)
        if found is None:
            raise ServerError(errors.ER_BAD_DB_ERROR, db)
        title = f"Tables_in_{found}" + (f" ({pattern})" if pattern is not None else "")
        names = sorted(t for t in engine.tables(found) if _match(pattern, t))
        cols = [text_column(title, length=64)]
        if full:
            cols.append(text_column("Table_type", length=64))
            return ResultSet(cols, [(t, "BASE TABLE") for t in names])
        return ResultSet(cols, [(t,) for t in names])
    if what in ("COLUMNS", "FIELDS"):
        if not r.accept_any("FROM", "IN"):
            raise r.error()
        db, table = r.qualified_name()
        if r.accept_any("FROM", "IN"):
            db = r.name()
        return _columns(engine, db or database, table, r, full=full)
    if what == "CREATE" and not full and r.accept("TABLE"):
        db, table = r.qualified_name()
        r.end()
        _, name = find_table(engine, db or database, table)
        text = create_table(engine, db or database, table)
        return ResultSet([text_column("Table", length=64), text_column("Create Table")],
                         [(name, text)])
    return None


def _columns(engine: CustomEngine, database: str | None, table: str, r: Reader | None, *,
             full: bool, pattern: str | None = None) -> ResultSet:
    if r is not None:
        pattern = _like(r)
    rows = []
    for c in table_columns(engine, database, table):
        if not _match(pattern, c.name):
            continue
        null = "YES" if c.nullable else "NO"
        if full:
            collation = c.sql_type.collation if c.sql_type is not None else None
            rows.append((c.name, c.column_type, collation, null, c.key, c.default, c.extra,
                         "select,insert,update,references", ""))
        else:
            rows.append((c.name, c.column_type, null, c.key, c.default, c.extra))
    names = ["Field", "Type", "Collation", "Null", "Key", "Default", "Extra", "Privileges",
             "Comment"] if full else ["Field", "Type", "Null", "Key", "Default", "Extra"]
    return ResultSet([text_column(n, length=64) for n in names], rows)


def _like(r: Reader) -> str | None:
    if r.done:
        return None
    if not r.accept("LIKE"):
        raise r.error()
    pattern = r.string()
    r.end()
    return pattern


def _match(pattern: str | None, name: str) -> bool:
    if pattern is None:
        return True
    rx = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            i += 1
            rx.append(re.escape(pattern[i]))
        elif ch == "%":
            rx.append(".*")
        elif ch == "_":
            rx.append(".")
        else:
            rx.append(re.escape(ch))
        i += 1
    return re.fullmatch("".join(rx), name, re.IGNORECASE | re.DOTALL) is not None
