"""SHOW and DESCRIBE about the data: databases, tables, columns, indexes, CREATE TABLE / DATABASE,
TABLE STATUS; EXPLAIN.

Rules:
- Column names and order are MariaDB 10.11's (what the mariadb CLI, dump tools and ORMs read).
- `LIKE 'pattern'` is matched here, case-insensitively; `WHERE expr` is evaluated by SQLite over
  the rows of the answer, so any expression on its columns works.
- SHOW statements about the server (VARIABLES, STATUS, PROCESSLIST, ...) are the session's; the
  session hands everything else here.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import sqlglot

from rampmeter import errors
from rampmeter.engine.base import Result, ResultSet
from rampmeter.engine.sqlite import catalog, keyinfo, routines, triggers, views
from rampmeter.engine.sqlite.infoschema import TABLES as INFOSCHEMA_TABLES
from rampmeter.engine.sqlite.infoschema import (
    checksum,
    frm_version,
    row_format,
    table_info,
)
from rampmeter.engine.sqlite.storage import INFORMATION_SCHEMA
from rampmeter.engine.sqlite.tableopts import create_options
from rampmeter.errors import ServerError, Warning_
from rampmeter.protocol.columns import Column, int_column, text_column
from rampmeter.sql.lexer import string_value, syntax_error
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

Rows = list[tuple[Any, ...]]


def like_matcher(pattern: str) -> Callable[[str], bool]:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if ch == "%" else "." if ch == "_" else re.escape(ch))
        i += 1
    rx = re.compile("".join(out) + r"\Z", re.IGNORECASE | re.DOTALL)
    return lambda name: bool(rx.match(name))


def _filtered(s: SqliteSession, r: Reader, columns: list[Column], rows: Rows,
              key: int = 0) -> ResultSet:
    """Apply a trailing LIKE 'p' (to column `key`) or WHERE expr to an answer."""
    if r.done:
        return ResultSet(columns, rows)
    if r.accept("LIKE"):
        match = like_matcher(r.string())
        r.end()
        return ResultSet(columns, [row for row in rows if match(str(row[key]))])
    if r.accept("WHERE"):
        return ResultSet(columns, where(s, r.rest_text(), columns, rows))
    raise r.error()


def where(s: SqliteSession, expr: str, columns: list[Column], rows: Rows) -> Rows:
    """The rows for which the MySQL expression `expr` over the answer's columns is true."""
    if _SUBQUERY.search(expr):
        return _where_with_tables(s, expr, columns, rows)
    names = [c.name for c in columns]
    try:
        from rampmeter.engine.sqlite import dialect
        tree = dialect.parse(f"SELECT * FROM rm_show WHERE {expr}")
        cond = tree.args["where"].this.sql(dialect="sqlite")
    except (sqlglot.errors.ParseError, sqlglot.errors.TokenError, KeyError):
        raise ServerError(errors.ER_PARSE_ERROR, expr[:80], 1) from None
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE TABLE rm_show (" + ", ".join(
            f"{catalog.q(n)} COLLATE NOCASE" for n in names) + ", rm_index)")
        conn.executemany(f"INSERT INTO rm_show VALUES ({', '.join('?' * (len(names) + 1))})",
                         [(*row, i) for i, row in enumerate(rows)])
        keep = {i for (i,) in conn.execute(f"SELECT rm_index FROM rm_show WHERE {cond}")}
    except sqlite3.Error as e:
        raise ServerError(errors.ER_BAD_FIELD_ERROR, str(e).rsplit(":", 1)[-1].strip(),
                          "WHERE") from None
    finally:
        conn.close()
    return [row for i, row in enumerate(rows) if i in keep]


_SUBQUERY = re.compile(r"\bSELECT\b", re.IGNORECASE)


def _where_with_tables(s: SqliteSession, expr: str, columns: list[Column],
                       rows: Rows) -> Rows:
    """A WHERE with a subquery reads tables, as in MariaDB (mtr show): the condition is a
    query of the session's, over the answer as a derived table of literals."""
    names = [c.name for c in columns]
    selects = []
    for i, row in enumerate(rows or [(None,) * len(names)]):
        items = ", ".join(f"{_literal(v)} AS `{n.replace('`', '``')}`"
                          for v, n in zip(row, names))
        selects.append(f"SELECT {items}, {i} AS rm_index")
    from_rows = " UNION ALL ".join(selects)
    result = s.execute(f"SELECT rm_index FROM ({from_rows}) AS rm_show WHERE {expr}")
    keep = {r[0] for r in getattr(result, "rows", ())}
    return [row for i, row in enumerate(rows) if i in keep]


def _literal(value: Any) -> str:
    """A SHOW answer's value as SQL text, the same under any sql_mode (quotes doubled, a
    backslash as CHAR(92))."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, bytes):
        value = value.decode("utf-8", "surrogateescape")
    parts = ["'" + p.replace("'", "''") + "'" for p in str(value).split("\\")]
    return parts[0] if len(parts) == 1 else \
        "CONCAT(" + ", CHAR(92 USING utf8mb4), ".join(parts) + ")"


def show(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt)
    r.expect("SHOW")
    full = r.accept("FULL")
    r.accept("EXTENDED")
    full = full or r.accept("FULL")
    if r.accept_any("DATABASES", "SCHEMAS"):
        title = "Database"
        if r.at("LIKE") and r.peek(1) is not None and r.peek(1).kind == "str":  # type: ignore[union-attr]
            title += f" ({string_value(r.peek(1).text, r.dialect.backslash_escapes)})"  # type: ignore[union-attr]
        cols = [text_column(title, length=64)]
        return _filtered(s, r, cols, [(d,) for d in s.list_databases()])
    if r.accept("TABLES"):
        return _show_tables(s, r, full)
    if r.accept_any("COLUMNS", "FIELDS"):
        db, table = _from_table(r)
        return _describe_table(s, r, db, table, full)
    if r.accept_any("INDEX", "INDEXES", "KEYS"):
        db, table = _from_table(r)
        return _show_index(s, r, db, table)
    if r.accept("CREATE"):
        return _show_create(s, r)
    if r.accept("TABLE"):
        r.expect("STATUS")  # SHOW TABLE x: the error is at x (MariaDB knows TABLE STATUS)
        db = _from_db(r) or s.database
        return _table_status(s, r, db)
    if r.accept("TRIGGERS"):
        cols = [text_column(n, length=64) for n in (
            "Trigger", "Event", "Table", "Statement", "Timing", "Created", "sql_mode",
            "Definer", "character_set_client", "collation_connection",
            "Database Collation")]
        db = _from_db(r) or s.database
        rows = [(t["name"], t["event"], t["table"], t["body"], t["timing"], t["created_at"],
                 t["sql_mode"], t["definer"], t["charset_client"], t["collation_connection"],
                 t["db_collation"]) for t in (triggers.listing(s, db) if db else [])]
        return _filtered(s, r, cols, rows, key=2)
    if r.accept("EVENTS"):
        cols = [text_column(n, length=64) for n in (
            "Db", "Name", "Definer", "Time zone", "Type", "Execute at", "Interval value",
            "Interval field", "Starts", "Ends", "Status", "Originator",
            "character_set_client", "collation_connection", "Database Collation")]
        db = _from_db(r) or s.database
        if db is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        rows = [(e[0], e[1], e[2], e[3], e[6], e[7], e[8], e[9], e[11], e[12], e[13],
                 e[19], e[20], e[21], e[22]) for e in routines.event_rows(s, db)]
        return _filtered(s, r, cols, rows, key=1)
    if kind := r.accept_any("PROCEDURE", "FUNCTION", "PACKAGE"):
        r.accept("BODY")   # SHOW PACKAGE BODY STATUS (mariadb-dump --routines)
        r.expect("STATUS")
        cols = [text_column(n, length=64) for n in (
            "Db", "Name", "Type", "Definer", "Modified", "Created", "Security_type",
            "Comment", "character_set_client", "collation_connection",
            "Database Collation")]
        return _filtered(s, r, cols, routines.status_rows(s, kind), key=1)
    name, after = r.peek(), r.peek(1)
    if name is not None and name.kind == "word":
        # SHOW <name> is a plugin's SHOW in MariaDB's grammar, refused once the token after
        # the name is read: the error is at the name, its line the next token's (mtr show)
        raise syntax_error(r.text, name.start, after.start if after else len(r.text))
    raise r.error()


def _from_db(r: Reader) -> str | None:
    if r.accept_any("FROM", "IN"):
        return r.name()
    return None


def _from_table(r: Reader) -> tuple[str | None, str]:
    if not r.accept_any("FROM", "IN"):
        raise r.error()
    db, table = r.qualified_name()
    other = _from_db(r)
    return (other or db), table


def _show_tables(s: SqliteSession, r: Reader, full: bool) -> Result:
    db = _from_db(r) or s.database
    if db is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    if not s.database_known(db):
        raise ServerError(errors.ER_BAD_DB_ERROR, db)
    names = s.list_tables(db)
    title = f"Tables_in_{db}"
    if r.at("LIKE") and r.peek(1) is not None and r.peek(1).kind == "str":  # type: ignore[union-attr]
        # MariaDB names the column after the pattern too, as SHOW DATABASES LIKE
        title += f" ({string_value(r.peek(1).text, r.dialect.backslash_escapes)})"  # type: ignore[union-attr]
    cols = [text_column(title, length=64)]
    if full:
        cols.append(text_column("Table_type", length=64))
        kind = "SYSTEM VIEW" if db.lower() == INFORMATION_SCHEMA else "BASE TABLE"
        is_view = s.list_views(db)
        return _filtered(s, r, cols, [(n, "VIEW" if n in is_view else kind) for n in names])
    return _filtered(s, r, cols, [(n,) for n in names])


def _describe_table(s: SqliteSession, r: Reader | None, db: str | None, table: str,
                    full: bool, match: Callable[[str], bool] | None = None) -> Result:
    cols = s.table_columns(table, db)
    names = ["Field", "Type", "Null", "Key", "Default", "Extra"]
    if full:
        names = ["Field", "Type", "Collation", "Null", "Key", "Default", "Extra", "Privileges",
                 "Comment"]
    rows: Rows = []
    where = s.resolve_table(db, table)
    tdef = s.table_def(*where)
    comments = {c.name: c.comment for c in tdef.columns} if tdef is not None else {}
    # the columns the account holds a privilege on, and which (as information_schema.COLUMNS)
    visible = privileges = None
    if not s.is_temporary(where[0], table):  # the session's own: nothing is checked
        visible = getattr(s.context, "visible", None)
        privileges = getattr(s.context, "column_privileges", None)
    for c in cols:
        if match is not None and not match(c.name):
            continue
        if visible is not None and not visible(where[0], where[1], c.name):
            continue
        base = [c.name, c.column_type, "YES" if c.nullable else "NO", c.key, c.default,
                c.extra]
        if full:
            t = c.sql_type
            collation = t.collation if t is not None and t.is_text else None
            base = base[:2] + [collation] + base[2:] + [
                privileges(where[0], where[1], c.name) if privileges is not None else
                "select,insert,update,references", comments.get(c.name, "")]
        rows.append(tuple(base))
    columns = [text_column(n, length=64) for n in names]
    if r is None:
        return ResultSet(columns, rows)
    return _filtered(s, r, columns, rows)


def _show_index(s: SqliteSession, r: Reader, db: str | None, table: str) -> Result:
    dbname, stored = s.resolve_table(db, table)
    tdef = s.table_def(dbname, stored)
    if tdef is None:
        raise ServerError(errors.ER_NO_SUCH_TABLE, dbname, table)
    nullable = {c.name: c.nullable for c in tdef.columns}
    names = ["Table", "Non_unique", "Key_name", "Seq_in_index", "Column_name", "Collation",
             "Cardinality", "Sub_part", "Packed", "Null", "Index_type", "Comment",
             "Index_comment", "Ignored"]
    rows: Rows = []
    with keyinfo.counted(s, dbname, stored, tdef) as counts:
        if tdef.primary:
            for seq, col in enumerate(tdef.primary, 1):
                rows.append((tdef.name, 0, "PRIMARY", seq, col, "A",
                             keyinfo.cardinality(tdef, None, seq, counts), None, None, "",
                             "BTREE", "", "", "NO"))
        for idx in sorted(tdef.indexes, key=lambda i: keyinfo.sort_key(tdef, i)[:2]):
            for seq, col in enumerate(idx.columns, 1):
                prefix = idx.prefixes[seq - 1] if seq - 1 < len(idx.prefixes) else None
                desc = idx.desc[seq - 1] if seq - 1 < len(idx.desc) else False
                rows.append((tdef.name, 0 if idx.unique else 1, idx.name, seq, col,
                             keyinfo.collation(tdef, idx, desc),
                             keyinfo.cardinality(tdef, idx, seq, counts), prefix, None,
                             "YES" if nullable.get(col) else "", keyinfo.index_type(tdef, idx),
                             catalog.index_state(tdef, idx), idx.comment, "NO"))
    columns = [int_column(n) if n in ("Non_unique", "Seq_in_index", "Cardinality",
                                       "Sub_part") else text_column(n, length=64)
               for n in names]
    return _filtered(s, r, columns, rows)


def _show_create(s: SqliteSession, r: Reader) -> Result:
    if r.accept_any("DATABASE", "SCHEMA"):
        # mariadb-dump asks IF NOT EXISTS, and prints the answer into the dump as it is
        if_not = "/*!32312 IF NOT EXISTS*/ " if r.accept("IF", "NOT", "EXISTS") else ""
        name = r.name()
        r.end()
        if not s.database_known(name):
            raise ServerError(errors.ER_BAD_DB_ERROR, name)
        from rampmeter.engine.sqlite import dbopts
        return ResultSet([text_column("Database", length=64),
                          text_column("Create Database", length=1024)],
                         [(name, dbopts.show_create(name, dbopts.load(s, name), if_not))])
    if r.accept("VIEW"):
        db, name = r.qualified_name()
        r.end()
        return views.show_create(s, db, name)
    if r.accept("TABLE"):
        db, table = r.qualified_name()
        r.end()
        dbname, stored = s.resolve_table(db, table)
        tdef = s.table_def(dbname, stored)
        if tdef is not None and tdef.view is not None:
            return views.show_create(s, dbname, stored)
        text = s.show_create_table(stored, dbname)
        return ResultSet([text_column("Table", length=64),
                          text_column("Create Table", length=1024)], [(stored, text)])
    if r.at("TRIGGER") or r.at("PROCEDURE") or r.at("FUNCTION") or r.at("EVENT"):
        what = r.next().text.upper()
        db, name = r.qualified_name()
        raise ServerError(errors.ER_SP_DOES_NOT_EXIST, what, name)
    raise r.error()


def _table_status(s: SqliteSession, r: Reader, db: str | None) -> Result:
    if db is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    names = ["Name", "Engine", "Version", "Row_format", "Rows", "Avg_row_length", "Data_length",
             "Max_data_length", "Index_length", "Data_free", "Auto_increment", "Create_time",
             "Update_time", "Check_time", "Collation", "Checksum", "Create_options", "Comment",
             "Max_index_length", "Temporary"]
    rows: Rows = []
    notes: list[Warning_] = []
    is_view = s.list_views(db)
    for t in s.list_tables(db):
        if t in is_view:
            rows.append((t,) + (None,) * 16 + ("VIEW", None, None))
            view = views.load(s.handle.conn, s.schema(db), t)
            if view is not None:  # opening it notes a DEFINER that is no account
                notes.extend(views.missing_definer(s, view.definer))
            continue
        info = table_info(s, db, t)
        tdef = s.table_def(db, t)
        engine = tdef.engine if tdef is not None else "InnoDB"
        collation = tdef.collation if tdef is not None else "utf8mb4_general_ci"
        rows.append((t, engine, frm_version(tdef), row_format(tdef), info["rows"], 0, 0, 0,
                     _index_length(tdef), 0, info["auto"],
                     None, None, None, collation, checksum(tdef), create_options(tdef),
                     tdef.comment if tdef is not None else "", 0, "N"))
    ints = {"Version", "Rows", "Avg_row_length", "Data_length", "Max_data_length",
            "Index_length", "Data_free", "Auto_increment", "Checksum", "Max_index_length"}
    cols = [int_column(n) if n in ints else text_column(n, length=64) for n in names]
    result = _filtered(s, r, cols, rows)
    result.warnings.extend(notes)
    return result


def _index_length(tdef: catalog.TableDef | None) -> int:
    """A MyISAM table's index file has at least its 1024-byte header block (more key blocks
    are SQLite's business here, not counted)."""
    return 1024 if tdef is not None and tdef.engine.upper() == "MYISAM" else 0


def describe(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt)
    r.next()  # DESCRIBE / DESC / EXPLAIN
    if r.peek_word() in ("SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "WITH",
                         "EXTENDED", "PARTITIONS", "FORMAT", "ANALYZE") or r.at("("):
        from rampmeter.engine.sqlite.explain import explain
        return explain(s, r)
    db, table = r.qualified_name()
    match = None
    if not r.done:
        t = r.next()
        pattern = t.text
        if t.kind == "str":
            from rampmeter.sql.lexer import string_value
            pattern = string_value(t.text)
        elif t.kind == "qident":
            pattern = t.text[1:-1].replace("``", "`")
        match = like_matcher(pattern)
    return _describe_table(s, None, db, table, False, match)


HANDLERS = {"SHOW": show, "DESCRIBE": describe, "DESC": describe, "EXPLAIN": describe}
_ = INFOSCHEMA_TABLES
