"""information_schema tables the engine knows: SCHEMATA, TABLES, COLUMNS, STATISTICS here;
keys and constraints in infoschema_keys.py, views and the other objects in infoschema_objects.py.

Rules:
- Column names and order are MariaDB 10.11's. A statement that names one of these tables gets it
  materialized as a temp table first (translate.py redirects the name), so any SQL works on it.
- Tables the session provides (PROCESSLIST, VARIABLES, STATUS, THREAD_POOL_*, ...) come through
  SessionContext.virtual_table and are materialized the same way.
- A database whose file cannot be read (damaged, or removed by hand) is skipped, never a failure
  of every query that lists tables.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rampmeter.engine.sqlite import catalog, dbopts, keyinfo
from rampmeter.engine.sqlite.catalog import index_state, q
from rampmeter.engine.sqlite.storage import INFORMATION_SCHEMA, SESSION_SCHEMAS, VIRTUAL_SCHEMAS
from rampmeter.engine.sqlite.tableopts import create_options
from rampmeter.engine.types import SqlType
from rampmeter.errors import ServerError
from rampmeter.protocol.columns import Column, int_column, text_column

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

Rows = list[tuple[Any, ...]]


_VARIABLE = ("varchar", "varbinary", "json")


def row_format(tdef: catalog.TableDef | None) -> str:
    """SHOW TABLE STATUS's Row_format: a MyISAM table with no variable-length column (no
    VARCHAR, VARBINARY, TEXT or BLOB) is Fixed, other MyISAM ones Dynamic; MEMORY is Fixed,
    Aria Page, InnoDB Dynamic; a ROW_FORMAT the table was given says it instead."""
    if tdef is not None and "ROW_FORMAT" in tdef.options:
        return tdef.options["ROW_FORMAT"].capitalize()
    engine = (tdef.engine if tdef is not None else "InnoDB").upper()
    if engine == "MYISAM" and tdef is not None:
        variable = any(c.type.name in _VARIABLE or c.type.is_blob for c in tdef.columns)
        return "Dynamic" if variable else "Fixed"
    return {"MEMORY": "Fixed", "HEAP": "Fixed", "ARIA": "Page"}.get(engine, "Dynamic")


def checksum(tdef: catalog.TableDef | None) -> int | None:
    """TABLES.CHECKSUM: a live checksum (CHECKSUM=1) reads 0 on an empty table here, as
    MariaDB's does; rampmeter keeps none, so it stays 0."""
    return 0 if tdef is not None and "CHECKSUM" in tdef.options else None


def table_info(s: SqliteSession, db: str, table: str) -> dict[str, Any]:
    """Row count and next AUTO_INCREMENT value of a table (SHOW TABLE STATUS, TABLES)."""
    try:
        with s.handle.meta_conn(db, s.database) as (conn, schema):
            try:
                count = conn.execute(f"SELECT COUNT(*) FROM {q(schema)}.{q(table)}").fetchone()[0]
            except sqlite3.Error:
                count = None
            auto = catalog.sequence_next(conn, schema, table)
    except (ServerError, sqlite3.Error):
        return {"rows": None, "auto": None}
    if auto is None:
        tdef = s.table_def(db, table)
        if tdef is not None and tdef.auto_column is not None:
            auto = 1
    return {"rows": count, "auto": auto}


def _user_databases(s: SqliteSession) -> list[str]:
    return [d for d in s.list_databases() if d.lower() not in VIRTUAL_SCHEMAS]


def _readable_tables(s: SqliteSession, db: str) -> list[str]:
    try:
        return s.list_tables(db)
    except (ServerError, sqlite3.Error):
        return []


def _readable_views(s: SqliteSession, db: str) -> set[str]:
    """The views of `db`; none when its file cannot be read (a damaged database is skipped,
    never a failure of every query that lists tables)."""
    try:
        return s.list_views(db)
    except (ServerError, sqlite3.Error):
        return set()


def _db_options(s: SqliteSession, db: str) -> dbopts.DatabaseOptions:
    try:
        return dbopts.load(s, db)
    except (ServerError, sqlite3.Error):  # a damaged database is listed with the defaults
        return dbopts.DatabaseOptions(*dbopts.LEGACY)


def schemata(s: SqliteSession) -> tuple[list[Column], Rows]:
    names = ["CATALOG_NAME", "SCHEMA_NAME", "DEFAULT_CHARACTER_SET_NAME",
             "DEFAULT_COLLATION_NAME", "SQL_PATH", "SCHEMA_COMMENT"]
    rows = [("def", d, o.charset, o.collation, None, o.comment)
            for d in s.list_databases() for o in (_db_options(s, d),)]
    return [text_column(n, length=64) for n in names], rows


def tables(s: SqliteSession) -> tuple[list[Column], Rows]:
    names = ["TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "TABLE_TYPE", "ENGINE", "VERSION",
             "ROW_FORMAT", "TABLE_ROWS", "AVG_ROW_LENGTH", "DATA_LENGTH", "MAX_DATA_LENGTH",
             "INDEX_LENGTH", "DATA_FREE", "AUTO_INCREMENT", "CREATE_TIME", "UPDATE_TIME",
             "CHECK_TIME", "TABLE_COLLATION", "CHECKSUM", "CREATE_OPTIONS", "TABLE_COMMENT",
             "MAX_INDEX_LENGTH", "TEMPORARY"]
    rows: Rows = []
    for db in _user_databases(s):
        is_view = _readable_views(s, db)
        for t in _readable_tables(s, db):
            if t in is_view:
                rows.append(("def", db, t, "VIEW") + (None,) * 16 + ("VIEW", None, None))
                continue
            info = table_info(s, db, t)
            tdef = s.table_def(db, t)
            rows.append(("def", db, t, "BASE TABLE", tdef.engine if tdef else "InnoDB",
                         frm_version(tdef),
                         row_format(tdef), info["rows"], 0, 0, 0, 0, 0, info["auto"], None, None, None,
                         tdef.collation if tdef else "utf8mb4_general_ci", checksum(tdef),
                         create_options(tdef), tdef.comment if tdef else "", 0, "N"))
    rows.extend(("def", INFORMATION_SCHEMA, t, "SYSTEM VIEW", "MEMORY", 10, "Fixed", None, 0, 0,
                 0, 0, 0, None, None, None, None, "utf8mb4_general_ci", None, "", "", 0, "Y")
                for t in sorted(TABLES))
    for schema in SESSION_SCHEMAS:  # performance_schema, when the session provides it
        if s.is_virtual(schema):
            rows.extend(("def", schema, t, "BASE TABLE", schema.upper(), 10, "Fixed", None, 0,
                         0, 0, 0, 0, None, None, None, None, "utf8mb4_general_ci", None, "", "",
                         0, "N") for t in s.list_tables(schema))
    ints = {"VERSION", "TABLE_ROWS", "AVG_ROW_LENGTH", "DATA_LENGTH", "MAX_DATA_LENGTH",
            "INDEX_LENGTH", "DATA_FREE", "AUTO_INCREMENT", "CHECKSUM", "MAX_INDEX_LENGTH"}
    return [int_column(n) if n in ints else text_column(n, length=64) for n in names], rows


def columns(s: SqliteSession) -> tuple[list[Column], Rows]:
    names = ["TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "COLUMN_NAME", "ORDINAL_POSITION",
             "COLUMN_DEFAULT", "IS_NULLABLE", "DATA_TYPE", "CHARACTER_MAXIMUM_LENGTH",
             "CHARACTER_OCTET_LENGTH", "NUMERIC_PRECISION", "NUMERIC_SCALE",
             "DATETIME_PRECISION", "CHARACTER_SET_NAME", "COLLATION_NAME", "COLUMN_TYPE",
             "COLUMN_KEY", "EXTRA", "PRIVILEGES", "COLUMN_COMMENT", "IS_GENERATED",
             "GENERATION_EXPRESSION"]
    rows: Rows = []
    for db in _user_databases(s):
        for t in _readable_tables(s, db):
            tdef = s.table_def(db, t)
            if tdef is None:
                continue
            described = {c.name: c for c in catalog.table_columns(tdef, db)}
            visible = getattr(s.context, "visible", None)
            privileges = getattr(s.context, "column_privileges", None)
            for pos, c in enumerate(tdef.columns, 1):
                if visible is not None and not visible(db, t, c.name):
                    continue
                tc = described[c.name]
                st = c.type
                chars, octets = _lengths(st)
                prec = scale = None
                if st.is_integer:
                    prec, scale = {"tinyint": 3, "smallint": 5, "mediumint": 7, "int": 10,
                                   "bigint": 19 if not st.unsigned else 20}[st.name], 0
                elif st.is_decimal:
                    prec, scale = st.width, st.scale
                elif st.name in ("float", "double"):
                    prec = st.width if st.width is not None else (12 if st.name == "float"
                                                                 else 22)
                    scale = st.scale
                elif st.name == "bit":
                    prec = st.width
                data_type = st.name if st.name != "json" else "longtext"
                rows.append(("def", db, t, c.name, pos, _column_default(tc.default, c),
                             "YES" if c.nullable else "NO", data_type, chars, octets, prec,
                             scale, st.fsp if st.is_temporal and st.name != "date" else None,
                             st.charset if st.is_text else None,
                             st.collation if st.is_text else None, tc.column_type, tc.key,
                             tc.extra, privileges(db, t, c.name) if privileges else
                             "select,insert,update,references", c.comment,
                             "NEVER" if c.generated is None else "ALWAYS",
                             catalog.generated_text(c) or None))
    ints = {"ORDINAL_POSITION", "CHARACTER_MAXIMUM_LENGTH", "CHARACTER_OCTET_LENGTH",
            "NUMERIC_PRECISION", "NUMERIC_SCALE", "DATETIME_PRECISION"}
    return [int_column(n) if n in ints else text_column(n, length=64) for n in names], rows


def _lengths(st: SqlType) -> tuple[int | None, int | None]:
    """CHARACTER_MAXIMUM_LENGTH and CHARACTER_OCTET_LENGTH as MariaDB gives them: TEXT and
    BLOB types say their size in bytes in both; ENUM the longest member, SET all members with
    their commas."""
    from rampmeter.engine.types import BLOB_BYTES
    from rampmeter.sql import charsets
    if st.name in ("enum", "set"):
        members = [len(m) for m in st.members] or [0]
        chars = max(members) if st.name == "enum" else sum(members) + len(members) - 1
    elif st.is_blob:
        return BLOB_BYTES[st.name], BLOB_BYTES[st.name]
    elif st.is_string:
        chars = st.max_chars
    else:
        return None, None
    if chars is None:
        return None, None
    cs = charsets.charset(st.charset or "binary")
    return chars, chars * (cs.maxlen if cs is not None and st.is_text else 1)


def frm_version(tdef: catalog.TableDef | None) -> int:
    """VERSION: 11 for a table with expressions (a DEFAULT (expr), a CHECK, a JSON column's
    implicit CHECK), 10 otherwise (MariaDB's FRM_VER_EXPRESSSIONS / FRM_VER_TRUE_VARCHAR)."""
    if tdef is None:
        return 10
    expressions = tdef.checks or any(
        c.type.name == "json" or c.default is not None and c.default.kind == "expr"
        for c in tdef.columns)
    return 11 if expressions else 10


def _column_default(shown: str | None, c: catalog.ColumnDef) -> str | None:
    """information_schema.COLUMNS.COLUMN_DEFAULT: MariaDB quotes string literals there."""
    if c.default is None:
        return "NULL" if c.nullable and not c.auto_increment else None
    if c.default.kind == "value":
        return c.default.shown if c.default.value is not None else "NULL"
    return shown


def statistics(s: SqliteSession) -> tuple[list[Column], Rows]:
    names = ["TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "NON_UNIQUE", "INDEX_SCHEMA",
             "INDEX_NAME", "SEQ_IN_INDEX", "COLUMN_NAME", "COLLATION", "CARDINALITY",
             "SUB_PART", "PACKED", "NULLABLE", "INDEX_TYPE", "COMMENT", "INDEX_COMMENT",
             "IGNORED"]
    rows: Rows = []
    for db in _user_databases(s):
        for t in _readable_tables(s, db):
            tdef = s.table_def(db, t)
            if tdef is None:
                continue
            nullable = {c.name: c.nullable for c in tdef.columns}
            with keyinfo.counted(s, db, t, tdef) as counts:
                for seq, col in enumerate(tdef.primary, 1):
                    rows.append(("def", db, t, 0, db, "PRIMARY", seq, col, "A",
                                 keyinfo.cardinality(tdef, None, seq, counts), None, None,
                                 "", "BTREE", "", "", "NO"))
                for idx in tdef.indexes:
                    for seq, col in enumerate(idx.columns, 1):
                        prefix = idx.prefixes[seq - 1] if seq - 1 < len(idx.prefixes) \
                            else None
                        desc = idx.desc[seq - 1] if seq - 1 < len(idx.desc) else False
                        rows.append(("def", db, t, 0 if idx.unique else 1, db, idx.name, seq,
                                     col, keyinfo.collation(tdef, idx, desc),
                                     keyinfo.cardinality(tdef, idx, seq, counts), prefix,
                                     None, "YES" if nullable.get(col) else "",
                                     keyinfo.index_type(tdef, idx), index_state(tdef, idx),
                                     idx.comment, "NO"))
    ints = {"NON_UNIQUE", "SEQ_IN_INDEX", "CARDINALITY", "SUB_PART"}
    return [int_column(n) if n in ints else text_column(n, length=64) for n in names], rows


TABLES: dict[str, Callable[[SqliteSession], tuple[list[Column], Rows]]] = {
    "SCHEMATA": schemata, "TABLES": tables, "COLUMNS": columns, "STATISTICS": statistics,
}

# The tables about keys and about other objects live in rooms of their own.
from rampmeter.engine.sqlite import infoschema_keys, infoschema_objects  # noqa: E402

TABLES.update(infoschema_keys.TABLES)
TABLES.update(infoschema_objects.TABLES)
