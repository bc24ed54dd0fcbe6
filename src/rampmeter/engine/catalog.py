"""Tables as MySQL describes them, kept in SQLite: DDL translation and metadata read-back.

Rules:
- CREATE TABLE is generated here, not by sqlglot's SQLite dialect, because we keep each column's
  MySQL type as its declared type (types.py) and turn MySQL's table-level KEY / INDEX / UNIQUE
  clauses into CREATE INDEX statements. SQLite index names are per database and MySQL's per
  table, so the SQLite name is "<table>.<index>"; SHOW INDEX prints the part after the dot.
- An AUTO_INCREMENT column must be the whole primary key (SQLite's INTEGER PRIMARY KEY
  AUTOINCREMENT, which also never reuses an id, as InnoDB does not). Its MySQL type goes into
  the `_rampmeter_columns` table of the same file; metadata reads consult it.
- Table options (ENGINE=, CHARSET=, COMMENT=, ROW_FORMAT=...) are accepted and dropped, except
  AUTO_INCREMENT=N, which seeds sqlite_sequence. FOREIGN KEY clauses are accepted and dropped
  (MySQL's MyISAM does the same); CHECK constraints are kept.
- Metadata functions take a `sqlite3.Connection` and a schema name, so the same code serves an
  attached database and a short-lived connection to an unattached file.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from rampmeter import errors
from rampmeter.engine.base import TableColumn, TableIndex
from rampmeter.engine.types import column_for_type, mysql_spelling, parse_type
from rampmeter.errors import ServerError
from rampmeter.protocol.constants import ColumnFlag

META_TABLE = "_rampmeter_columns"
_CI_TYPES = frozenset({"char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum",
                       "set", "national char", "nchar", "nvarchar"})
HIDDEN_PREFIXES = ("sqlite_", "_rampmeter")


def q(name: str) -> str:
    """A quoted SQLite identifier."""
    return '"' + name.replace('"', '""') + '"'


@dataclass(slots=True)
class CreateTable:
    """A translated CREATE TABLE: statements to run, in order, inside one transaction."""

    table: str
    database: str
    statements: list[str]
    if_not_exists: bool
    type_overrides: list[tuple[str, str]]  # (column, MySQL type) for the meta table
    auto_increment: int | None


def meta_table_ddl(schema: str) -> str:
    return (f"CREATE TABLE IF NOT EXISTS {q(schema)}.{META_TABLE} (table_name TEXT NOT NULL, "
            "column_name TEXT NOT NULL, column_type TEXT NOT NULL, "
            "PRIMARY KEY (table_name, column_name))")


def _default_sql(node: exp.Expression) -> str:
    if isinstance(node, (exp.CurrentTimestamp, exp.Anonymous)) and node.name.upper() in (
            "", "NOW", "CURRENT_TIMESTAMP"):
        return "CURRENT_TIMESTAMP"
    if isinstance(node, exp.CurrentTimestamp):
        return "CURRENT_TIMESTAMP"
    sql = node.sql(dialect="sqlite")
    if isinstance(node, (exp.Literal, exp.Null, exp.Boolean)) or sql.startswith(("'", "-")):
        return sql
    return f"({sql})"


def create_table(tree: exp.Create, database: str) -> CreateTable:
    schema = tree.this
    if not isinstance(schema, exp.Schema):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "CREATE TABLE without a column list")
    table = schema.this
    name = table.name
    db = table.db or database
    coldefs: list[str] = []
    pk: list[str] = []
    autoinc: str | None = None
    overrides: list[tuple[str, str]] = []
    indexes: list[tuple[str | None, bool, list[str]]] = []
    checks: list[str] = []
    column_types: dict[str, str] = {}
    col_pk: str | None = None
    for item in schema.expressions:
        if isinstance(item, exp.ColumnDef):
            cname = item.name
            kind = item.args.get("kind")
            ctype = kind.sql(dialect="mysql").lower().replace(", ", ",") if kind else "text"
            column_types[cname] = ctype
            parts = []
            is_auto = False
            # MySQL's default collations (utf8mb4_general_ci) compare text case-insensitively;
            # SQLite's NOCASE is the nearest (ASCII folding). A *_bin collation keeps BINARY.
            base_type = parse_type(ctype)[0]
            if base_type in _CI_TYPES and "_bin" not in item.sql(dialect="mysql").lower():
                parts.append("COLLATE NOCASE")
            for c in item.args.get("constraints") or []:
                k = c.args.get("kind") if isinstance(c, exp.ColumnConstraint) else c
                if isinstance(k, exp.NotNullColumnConstraint):
                    if not k.args.get("allow_null"):
                        parts.append("NOT NULL")
                elif isinstance(k, exp.DefaultColumnConstraint):
                    parts.append("DEFAULT " + _default_sql(k.this))
                elif isinstance(k, exp.AutoIncrementColumnConstraint):
                    is_auto = True
                elif isinstance(k, exp.PrimaryKeyColumnConstraint):
                    col_pk = cname
                elif isinstance(k, exp.UniqueColumnConstraint):
                    indexes.append((None, True, [cname]))
                elif isinstance(k, exp.CheckColumnConstraint):
                    parts.append("CHECK (" + k.this.sql(dialect="sqlite") + ")")
                # COMMENT, CHARACTER SET, COLLATE, ON UPDATE: accepted, not kept
            if is_auto:
                if autoinc is not None:
                    raise ServerError(errors.ER_WRONG_AUTO_KEY)
                autoinc = cname
            coldefs.append(f"{q(cname)} {{type:{cname}}}" + "".join(" " + p for p in parts))
        elif isinstance(item, exp.PrimaryKey):
            pk = [_index_column(e) for e in item.expressions]
        elif isinstance(item, exp.UniqueColumnConstraint):
            cols = _constraint_columns(item.this)
            iname = item.this.name if isinstance(item.this, exp.Schema) and \
                item.this.this else None
            indexes.append((iname or None, True, cols))
        elif isinstance(item, exp.IndexColumnConstraint):
            cols = [_index_column(e) for e in item.expressions]
            iname = item.this.name if item.this else None
            indexes.append((iname, item.args.get("kind") == "UNIQUE", cols))
        elif isinstance(item, (exp.ForeignKey, exp.Constraint)) and not isinstance(
                item, exp.CheckColumnConstraint):
            inner = item.expressions[0] if isinstance(item, exp.Constraint) and \
                item.expressions else item
            if isinstance(inner, exp.PrimaryKey):
                pk = [_index_column(e) for e in inner.expressions]
            elif isinstance(inner, exp.UniqueColumnConstraint):
                indexes.append((item.name or None, True, _constraint_columns(inner.this)))
            elif isinstance(inner, exp.CheckColumnConstraint):
                checks.append("CHECK (" + inner.this.sql(dialect="sqlite") + ")")
            # FOREIGN KEY: dropped (see the module rules)
        elif isinstance(item, exp.CheckColumnConstraint):
            checks.append("CHECK (" + item.this.sql(dialect="sqlite") + ")")
        else:
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, item.sql(dialect="mysql")[:64])
    if col_pk is not None:
        if pk:
            raise ServerError(errors.ER_MULTIPLE_PRI_KEY)
        pk = [col_pk]
    if autoinc is not None and pk != [autoinc]:
        raise ServerError(errors.ER_NOT_SUPPORTED_YET,
                          "AUTO_INCREMENT on a column that is not the whole PRIMARY KEY")
    body = []
    for cname_def in coldefs:
        cname = cname_def[1:cname_def.index('" {type:')].replace('""', '"')
        placeholder = "{type:" + cname + "}"
        if cname == autoinc:
            overrides.append((cname, column_types[cname]))
            cname_def = cname_def.replace(placeholder, "INTEGER PRIMARY KEY AUTOINCREMENT")
        else:
            # SQLite type names take only numeric arguments; quoted as one identifier,
            # ENUM('a','b') / SET(...) are accepted and read back unquoted by PRAGMA table_info.
            ctype = column_types[cname]
            cname_def = cname_def.replace(placeholder, q(ctype) if "'" in ctype else ctype)
        body.append(cname_def)
    if pk and autoinc is None:
        body.append("PRIMARY KEY (" + ", ".join(q(c) for c in pk) + ")")
    body += checks
    exists = bool(tree.args.get("exists"))
    stmts = [f"CREATE TABLE {'IF NOT EXISTS ' if exists else ''}{q(db)}.{q(name)} "
             f"({', '.join(body)})"]
    used: set[str] = set()
    for iname, unique, cols in indexes:
        base = iname or cols[0]
        iname = base
        n = 2
        while iname.lower() in used:
            iname = f"{base}_{n}"
            n += 1
        used.add(iname.lower())
        stmts.append(index_ddl(db, name, iname, unique, cols, exists))
    auto_start = None
    props = tree.args.get("properties")
    if props:
        for p in props.expressions:
            if isinstance(p, exp.AutoIncrementProperty):
                auto_start = int(p.this.name)
    return CreateTable(name, db, stmts, exists, overrides, auto_start)


def _index_column(e: exp.Expression) -> str:
    while isinstance(e, (exp.Ordered, exp.Paren)):
        e = e.this
    if isinstance(e, (exp.Anonymous, exp.Func)) and not isinstance(e, exp.Column):
        return e.name  # col(10): a prefix length, which SQLite indexes ignore
    return e.name


def _constraint_columns(node: exp.Expression | None) -> list[str]:
    if isinstance(node, exp.Schema):
        return [_index_column(e) for e in node.expressions]
    if node is None:
        return []
    return [_index_column(node)]


def rename_meta_ddl(schema: str, old: str, new: str) -> list[str]:
    """Statements that move `old`'s rows in the meta table to `new` (RENAME TABLE): without
    them the AUTO_INCREMENT column's MySQL type would stay behind under the old name."""
    def lit(text: str) -> str:
        return "'" + text.replace("'", "''") + "'"
    return [meta_table_ddl(schema), f"UPDATE {q(schema)}.{META_TABLE} SET table_name = "
            f"{lit(new)} WHERE table_name = {lit(old)}"]


def index_ddl(db: str, table: str, index: str, unique: bool, cols: list[str],
              if_not_exists: bool = False) -> str:
    return (f"CREATE {'UNIQUE ' if unique else ''}INDEX "
            f"{'IF NOT EXISTS ' if if_not_exists else ''}{q(db)}.{q(table + '.' + index)} "
            f"ON {q(table)} ({', '.join(q(c) for c in cols)})")


def create_index(tree: exp.Create, database: str | None) -> tuple[str, str, str]:
    """CREATE [UNIQUE] INDEX name ON t (cols) -> (db, table, sqlite ddl)."""
    index = tree.this
    table = index.args.get("table")
    db = table.db or database
    if db is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    params = index.args.get("params")
    cols = [_index_column(c) for c in (params.args.get("columns") or [])] if params else []
    return db, table.name, index_ddl(db, table.name, index.name, bool(tree.args.get("unique")),
                                     cols)


# --- metadata --------------------------------------------------------------------------
def table_names(conn: sqlite3.Connection, schema: str) -> list[str]:
    rows = conn.execute(f"SELECT name FROM {q(schema)}.sqlite_master WHERE type='table' "
                        "ORDER BY name").fetchall()
    return [r[0] for r in rows if not r[0].startswith(HIDDEN_PREFIXES)]


def find_table(conn: sqlite3.Connection, schema: str, table: str) -> str | None:
    """The stored spelling of `table` (SQLite matches names case-insensitively)."""
    row = conn.execute(f"SELECT name FROM {q(schema)}.sqlite_master WHERE type='table' AND "
                       "name = ? COLLATE NOCASE", (table,)).fetchone()
    return row[0] if row else None


def _overrides(conn: sqlite3.Connection, schema: str, table: str) -> dict[str, str]:
    try:
        rows = conn.execute(f"SELECT column_name, column_type FROM {q(schema)}.{META_TABLE} "
                            "WHERE table_name = ?", (table,)).fetchall()
    except sqlite3.OperationalError:
        return {}
    return dict(rows)


def indexes(conn: sqlite3.Connection, schema: str, table: str) -> list[TableIndex]:
    out: list[TableIndex] = []
    info = conn.execute(f"PRAGMA {q(schema)}.table_info({q(table)})").fetchall()
    pk = [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5]]
    if pk:
        out.append(TableIndex("PRIMARY", True, tuple(pk)))
    for row in conn.execute(f"PRAGMA {q(schema)}.index_list({q(table)})").fetchall():
        name, unique, origin = row[1], bool(row[2]), row[3]
        if origin == "pk":
            continue
        cols = tuple(r[2] for r in conn.execute(
            f"PRAGMA {q(schema)}.index_info({q(name)})").fetchall())
        shown = name.split(".", 1)[1] if name.startswith(table + ".") else name
        out.append(TableIndex(shown, unique, cols))
    out.sort(key=lambda i: (i.name != "PRIMARY", not i.unique, i.name))
    return out


def columns(conn: sqlite3.Connection, schema: str, table: str) -> list[TableColumn]:
    info = conn.execute(f"PRAGMA {q(schema)}.table_info({q(table)})").fetchall()
    overrides = _overrides(conn, schema, table)
    idx = indexes(conn, schema, table)
    out = []
    for _cid, name, decl, notnull, default, pkpos in info:
        mysql_type = overrides.get(name, decl or "text")
        key = ""
        flags = 0
        if pkpos:
            key = "PRI"
            flags |= ColumnFlag.PRI_KEY | ColumnFlag.NOT_NULL
        elif any(i.unique and i.columns[:1] == (name,) and len(i.columns) == 1 for i in idx):
            key = "UNI"
            flags |= ColumnFlag.UNIQUE_KEY
        elif any(i.columns[:1] == (name,) for i in idx):
            key = "MUL"
            flags |= ColumnFlag.MULTIPLE_KEY
        if notnull:
            flags |= ColumnFlag.NOT_NULL
        extra = "auto_increment" if name in overrides else ""
        if extra:
            flags |= ColumnFlag.AUTO_INCREMENT
        tname, _args, _uns = parse_type(mysql_type)
        if tname in ("blob", "text", "tinyblob", "tinytext", "mediumblob", "mediumtext",
                     "longblob", "longtext", "json"):
            flags |= ColumnFlag.BLOB
        out.append(TableColumn(
            name=name, column_type=mysql_spelling(mysql_type), nullable=not notnull and not pkpos,
            key=key, default=_unquote_default(default), extra=extra,
            column=column_for_type(name, mysql_type, flags=flags, table=table, schema=schema)))
    return out


def _unquote_default(default: str | None) -> str | None:
    if default is None or default.upper() == "NULL":
        return None
    if len(default) >= 2 and default[0] == default[-1] == "'":
        return default[1:-1].replace("''", "'")
    return default


def show_create_table(conn: sqlite3.Connection, schema: str, table: str) -> str:
    cols = columns(conn, schema, table)
    lines = []
    for c in cols:
        line = f"  `{c.name}` {c.column_type}"
        if not c.nullable:
            line += " NOT NULL"
        if c.extra == "auto_increment":
            line += " AUTO_INCREMENT"
        elif c.default is not None:
            d = c.default
            line += " DEFAULT " + (d if d.upper().startswith("CURRENT_TIMESTAMP") or
                                   _is_number(d) and not c.column.type >= 0xF7
                                   else "'" + d.replace("'", "''") + "'")
        elif c.nullable:
            line += " DEFAULT NULL"
        lines.append(line)
    for i in indexes(conn, schema, table):
        cols_sql = ",".join(f"`{col}`" for col in i.columns)
        if i.name == "PRIMARY":
            lines.append(f"  PRIMARY KEY ({cols_sql})")
        else:
            lines.append(f"  {'UNIQUE ' if i.unique else ''}KEY `{i.name}` ({cols_sql})")
    auto = ""
    try:
        row = conn.execute(f"SELECT seq FROM {q(schema)}.sqlite_sequence WHERE name = ?",
                           (table,)).fetchone()
        if row:
            auto = f" AUTO_INCREMENT={row[0] + 1}"
    except sqlite3.OperationalError:
        pass
    return (f"CREATE TABLE `{table}` (\n" + ",\n".join(lines) +
            f"\n) ENGINE=SQLite{auto} DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def parse_mysql(sql: str) -> exp.Expression:
    try:
        tree = sqlglot.parse_one(sql, read="mysql")
    except (sqlglot.errors.ParseError, sqlglot.errors.TokenError):
        raise ServerError(errors.ER_PARSE_ERROR, sql[:80], 1) from None
    if tree is None:
        raise ServerError(errors.ER_PARSE_ERROR, sql[:80], 1)
    return tree
