"""Tables as MariaDB describes them, kept in SQLite: the table model, its SQLite DDL, and reading
both back.

Rules:
- A `TableDef` holds what MariaDB knows of a table: columns with their full MySQL types
  (types.SqlType), nullability, defaults, AUTO_INCREMENT, ON UPDATE, comments; the primary key;
  indexes with prefix lengths and direction; CHECK constraints; table options. SQLite holds the
  rows, NOT NULL, keys and indexes; everything else is one JSON row per table in
  `_rampmeter_tables` in the same file, written in the same transaction as the DDL. SQLite's
  schema says which columns and indexes exist; the JSON row adds what SQLite cannot say.
- Column declared types in SQLite are the storage affinity (types.SqlType.affinity), never the
  MySQL spelling: SQLite derives affinity from the declared type's words, and MySQL spellings
  such as `bigint(20) unsigned` are not even valid SQLite type names.
- An AUTO_INCREMENT column is SQLite's INTEGER PRIMARY KEY AUTOINCREMENT, which also never
  reuses an id, as InnoDB does not. So it must be the whole primary key, or, in a table without
  one, have a UNIQUE key of its own (SERIAL, AUTO_INCREMENT UNIQUE): then the JSON row says the
  table has no primary key for MariaDB (`no_primary`), whatever SQLite's schema says. Any
  other AUTO_INCREMENT column is an ordinary one filled by a trigger (autokey.py), and so is
  one of a MyISAM / Aria / MEMORY table (`rowid_auto`): those read their rows in the order
  written, which the rowid gives only when it is no column's value.
- SQLite index names are per database and MySQL's per table, so the SQLite name is
  "<table>.<index>"; SHOW INDEX prints the part after the dot.
- Text columns with a case-insensitive collation are declared `COLLATE <its MariaDB name>`,
  registered on every connection by collations.py (tables written before have NOCASE, ASCII
  folding, and keep it).
- Files written by earlier versions have `_rampmeter_columns` (table, column, MySQL type) and MySQL
  spellings as declared types: both are still read.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
import time
from copy import deepcopy
from dataclasses import dataclass, field, replace
from typing import Any

from rampmeter import errors
from rampmeter.engine import values
from rampmeter.engine.base import TableColumn, TableIndex
from rampmeter.engine.types import SqlType, make_type, parse_type
from rampmeter.errors import ServerError
from rampmeter.protocol.constants import ColumnFlag

META_TABLE = "_rampmeter_tables"
LEGACY_META = "_rampmeter_columns"
HIDDEN_PREFIXES = ("sqlite_", "_rampmeter")
DEFAULT_CHARSET = "utf8mb4"
DEFAULT_COLLATION = "utf8mb4_general_ci"


def q(name: str) -> str:
    """A quoted SQLite identifier."""
    return '"' + name.replace('"', '""') + '"'


def lit(value: Any) -> str:
    """A SQLite literal for a stored value."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "X'" + bytes(value).hex() + "'"
    return "'" + str(value).replace("'", "''") + "'"


# Engines whose tables MariaDB cannot roll back: STRICT_TRANS_TABLES does not cover them.
NON_TRANSACTIONAL = frozenset({"MyISAM", "MEMORY", "Aria", "CSV", "ARCHIVE", "MRG_MyISAM",
                                "BLACKHOLE", "SEQUENCE", "FEDERATED"})


@dataclass(frozen=True, slots=True)
class Default:
    """A column's DEFAULT: kind 'value' (a constant, stored form in `value`), 'now' (the
    current time, `value` = fsp), 'expr' (an expression, `value` = its MySQL text)."""

    kind: str
    value: Any = None
    shown: str = ""   # as SHOW CREATE TABLE prints it


@dataclass(frozen=True, slots=True)
class Generated:
    """GENERATED ALWAYS AS (expr) VIRTUAL | STORED: `expr` as the client wrote it, `sql` its
    SQLite text over the row's columns (generated.py computes it when a row is written)."""

    expr: str
    stored: bool
    sql: str = ""


@dataclass(slots=True)
class ColumnDef:
    name: str
    type: SqlType
    nullable: bool = True
    default: Default | None = None   # None: no DEFAULT clause
    auto_increment: bool = False
    on_update: int | None = None     # ON UPDATE CURRENT_TIMESTAMP(fsp)
    comment: str = ""
    compressed: bool = False  # COMPRESSED: MariaDB zlib-packs it; here it is only shown
    attributes: tuple[tuple[str, str], ...] = ()  # engine-defined: (name, value as shown)
    generated: Generated | None = None
    invisible: bool = False   # INVISIBLE: left out of SELECT * and of INSERT's default list

    @property
    def has_default(self) -> bool:
        return self.default is not None or self.nullable or self.auto_increment or \
            self.generated is not None


@dataclass(slots=True)
class IndexDef:
    name: str
    unique: bool
    columns: list[str]
    prefixes: list[int | None] = field(default_factory=list)
    desc: list[bool] = field(default_factory=list)
    kind: str = ""          # '' | 'FULLTEXT' | 'SPATIAL'
    comment: str = ""
    generated: bool = False  # made for a foreign key (foreign.py): dropped when redundant
    using: str = ""          # USING BTREE | HASH | RTREE as given, HASH for a long unique
    attributes: tuple[tuple[str, str], ...] = ()  # engine-defined (tableopts.py)


@dataclass(slots=True)
class ForeignKey:
    """FOREIGN KEY (columns) REFERENCES [ref_db.]ref_table (ref_columns) [ON DELETE / UPDATE]:
    `ref_db` is None for a table of the same database; an action is '' when not given (it
    then acts as RESTRICT, and SHOW CREATE TABLE prints nothing). foreign.py enforces it."""

    name: str
    columns: list[str]
    ref_table: str
    ref_columns: list[str]
    ref_db: str | None = None
    on_delete: str = ""     # '' | RESTRICT | CASCADE | SET NULL | NO ACTION | SET DEFAULT
    on_update: str = ""


# The comment that marks mysql.user as the server's (MariaDB's view of global_priv,
# session/mysqldb.py), not a table a client made in its place; it follows a RENAME.
USER_VIEW_COMMENT = "Users and global privileges (the view of mysql.global_priv)"


@dataclass(slots=True)
class TableDef:
    name: str
    columns: list[ColumnDef]
    primary: list[str] = field(default_factory=list)
    indexes: list[IndexDef] = field(default_factory=list)
    checks: list[tuple[str, str]] = field(default_factory=list)  # (name, MySQL expression)
    charset: str = DEFAULT_CHARSET
    collation: str = DEFAULT_COLLATION
    comment: str = ""
    engine: str = "InnoDB"
    auto_increment: int | None = None   # AUTO_INCREMENT=N of CREATE TABLE
    renamed: dict[str, str] = field(default_factory=dict)  # ALTER: new column -> old name
    foreign: list[ForeignKey] = field(default_factory=list)
    location: tuple[str, str] | None = None  # (SQLite schema, table): a temporary table
    view: Any = None                          # views.ViewDef: a view, columns typed
    keys_disabled: bool = False  # ALTER TABLE ... DISABLE KEYS (MyISAM & co.): shown only
    options: dict[str, str] = field(default_factory=dict)  # ROW_FORMAT & co. (tableopts.py)
    attributes: tuple[tuple[str, str], ...] = ()  # engine-defined (tableopts.py)
    notes: list[Any] = field(default_factory=list)  # keys.py's notes, for the statement
    version: str = ""  # stamped at each write of the definition (prepared statements' check)
    # table CHECK constraints named as a column is (lower case): not that column's own
    table_named: list[str] = field(default_factory=list)

    @property
    def shown_as_view(self) -> bool:
        """A view, or the server's mysql.user (MariaDB's view of global_priv, marked by its
        comment): its columns are named as it names them in a result, not as typed."""
        return self.view is not None or self.comment == USER_VIEW_COMMENT

    def column_check(self, name: str) -> bool:
        """Is the CHECK constraint `name` a column's own (named after its column)?"""
        low = name.lower()
        return low not in self.table_named and any(c.name.lower() == low
                                                   for c in self.columns)

    def column(self, name: str) -> ColumnDef | None:
        low = name.lower()
        for c in self.columns:
            if c.name.lower() == low:
                return c
        return None

    @property
    def auto_column(self) -> ColumnDef | None:
        return next((c for c in self.columns if c.auto_increment), None)


# Engines whose table scan reads rows in the order written, a deleted row's place reused
# (slots.py): their AUTO_INCREMENT column is not SQLite's rowid, which would order the scan
# by its values (autokey.py fills it).
ORDERED_ENGINES = frozenset({"MyISAM", "Aria", "MEMORY"})


def rowid_auto(tdef: TableDef, column: str) -> bool:
    """Is AUTO_INCREMENT `column` SQLite's INTEGER PRIMARY KEY AUTOINCREMENT (module rules)?"""
    return auto_keyed_alone(tdef, column) and tdef.engine not in ORDERED_ENGINES


def auto_keyed_alone(tdef: TableDef, column: str) -> bool:
    """Can `column` be AUTO_INCREMENT here (module rules): the whole primary key, or the
    whole of a UNIQUE key in a table without a primary key."""
    if tdef.primary:
        return tdef.primary == [column]
    return any(i.unique and not i.kind and i.columns == [column] for i in tdef.indexes)


# Engines whose AUTO_INCREMENT may be a later part of a key (values counted per group of the
# earlier parts, autokey.py); InnoDB & co. want it first in some key (ha_innobase: 1075).
_SUBKEY_AUTO_ENGINES = frozenset({"MyISAM", "Aria", "MRG_MyISAM"})


def auto_key_ok(tdef: TableDef, column: str) -> bool:
    """Is `column` keyed as MariaDB wants an AUTO_INCREMENT column (else 1075): the first
    part of some key, or, in a MyISAM / Aria table, any part."""
    keys = [tdef.primary] + [i.columns for i in tdef.indexes if not i.kind]
    low = column.lower()
    if any(k[:1] and k[0].lower() == low for k in keys):
        return True
    return tdef.engine in _SUBKEY_AUTO_ENGINES and \
        any(low in (c.lower() for c in k) for k in keys)


# --- SQLite DDL for a TableDef ---------------------------------------------------------------
def _collate(t: SqlType) -> str:
    """A text column compares by its MariaDB collation (collations.py): case-insensitive ones,
    and the PAD SPACE _bin ones ('a' = 'a '); binary, json and _nopad_bin stay BINARY. A
    DECIMAL column's exact text (values.py) compares as numbers: rm_decimal (funclib.py)."""
    if t.name == "decimal":
        return " COLLATE rm_decimal"
    coll = t.collation or ""
    if t.is_text and t.name != "json" and coll.endswith("_bin") and "_nopad_" not in coll:
        return f" COLLATE {coll}"
    if not t.case_insensitive:
        return ""
    from rampmeter.engine.sqlite.collations import sqlite_name
    return f" COLLATE {sqlite_name(t.collation)}"


def column_sql(c: ColumnDef, tdef: TableDef) -> str:
    if c.auto_increment and rowid_auto(tdef, c.name):
        return f"{q(c.name)} INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL"
    parts = [q(c.name), c.type.affinity + _collate(c.type)]
    if not c.nullable and not c.auto_increment:  # a detached one is filled after (autokey.py)
        parts.append("NOT NULL")
    if c.default is not None and c.default.kind == "value":
        parts.append("DEFAULT " + lit(c.default.value))
    return " ".join(parts)


def create_sql(tdef: TableDef, schema: str, name: str | None = None, *,
               if_not_exists: bool = False) -> list[str]:
    """CREATE TABLE and CREATE INDEX statements for `tdef` in `schema`."""
    table = name or tdef.name
    body = [column_sql(c, tdef) for c in tdef.columns]
    auto = tdef.auto_column
    if tdef.primary and not (auto is not None and tdef.primary == [auto.name] and
                             rowid_auto(tdef, auto.name)):
        body.append("PRIMARY KEY (" + ", ".join(q(c) for c in tdef.primary) + ")")
    out = [f"CREATE TABLE {'IF NOT EXISTS ' if if_not_exists else ''}{q(schema)}.{q(table)} "
           f"({', '.join(body)})"]
    out += [index_sql(schema, table, i, tdef) for i in tdef.indexes if not i.kind]
    return out


def index_sql(schema: str, table: str, idx: IndexDef, tdef: TableDef | None = None) -> str:
    cols = []
    for k, col in enumerate(idx.columns):
        text = q(col)
        if tdef is not None:
            c = tdef.column(col)
            if c is not None:
                text += _collate(c.type)
        if k < len(idx.desc) and idx.desc[k]:
            text += " DESC"
        cols.append(text)
    return (f"CREATE {'UNIQUE ' if idx.unique else ''}INDEX {q(schema)}."
            f"{q(table + '.' + idx.name)} ON {q(table)} ({', '.join(cols)})")


def meta_table_ddl(schema: str) -> str:
    return (f"CREATE TABLE IF NOT EXISTS {q(schema)}.{META_TABLE} (table_name TEXT PRIMARY KEY, "
            "spec TEXT NOT NULL)")


def meta_write_sql(schema: str) -> str:
    return f"INSERT OR REPLACE INTO {q(schema)}.{META_TABLE} VALUES (?, ?)"


def meta_delete_sql(schema: str) -> str:
    return f"DELETE FROM {q(schema)}.{META_TABLE} WHERE table_name = ?"


def spec_json(tdef: TableDef) -> str:
    cols = {}
    for c in tdef.columns:
        d: dict[str, Any] = {"type": c.type.stored_spelling()}
        if c.default is not None:
            d["default"] = [c.default.kind, _jsonable(c.default.value), c.default.shown]
        if c.auto_increment:
            d["auto"] = True
        if c.on_update is not None:
            d["on_update"] = c.on_update
        if c.comment:
            d["comment"] = c.comment
        if c.compressed:
            d["compressed"] = True
        if c.attributes:
            d["attrs"] = [list(a) for a in c.attributes]
        if c.generated is not None:
            d["gen"] = [c.generated.expr, c.generated.stored, c.generated.sql]
        if c.invisible:
            d["invisible"] = True
        cols[c.name] = d
    idx = {i.name: {"prefixes": i.prefixes, "desc": i.desc, "kind": i.kind,
                    "comment": i.comment, "columns": i.columns, "unique": i.unique,
                    **({"generated": True} if i.generated else {}),
                    **({"using": i.using} if i.using else {}),
                    **({"attrs": [list(a) for a in i.attributes]} if i.attributes else {})}
           for i in tdef.indexes}
    spec: dict[str, Any] = {"columns": cols, "indexes": idx, "checks": tdef.checks,
                            "charset": tdef.charset, "collation": tdef.collation,
                            "comment": tdef.comment, "engine": tdef.engine,
                            "version": _stamp()}
    if tdef.keys_disabled:
        spec["keys_disabled"] = True
    named = [n for n in tdef.table_named if any(c[0].lower() == n for c in tdef.checks)]
    if named:
        spec["table_named"] = named
    if tdef.options:
        spec["options"] = tdef.options
    if tdef.attributes:
        spec["attrs"] = [list(a) for a in tdef.attributes]
    auto = tdef.auto_column
    if auto is not None and not tdef.primary:
        spec["no_primary"] = True
    if tdef.foreign:
        spec["foreign"] = [[f.name, f.columns, f.ref_db, f.ref_table, f.ref_columns,
                            f.on_delete, f.on_update] for f in tdef.foreign]
    return json.dumps(spec)


_STAMPS = itertools.count()


def _stamp() -> str:
    """A new table version: every write of a definition (CREATE, each ALTER, RENAME) gets
    one, so a prepared statement can tell that a table it uses changed since its PREPARE
    (MariaDB's table version; session/reprepare.py)."""
    return f"{time.time_ns():x}.{next(_STAMPS)}"


def copy_table(tdef: TableDef) -> TableDef:
    """A deep copy to alter (without the ALTER bookkeeping of an earlier copy)."""
    new = deepcopy(tdef)
    new.renamed = {}
    new.auto_increment = None
    return new


def _jsonable(v: Any) -> Any:
    if isinstance(v, bytes):
        return {"hex": v.hex()}
    return v


def _from_json(v: Any) -> Any:
    if isinstance(v, dict) and "hex" in v:
        return bytes.fromhex(v["hex"])
    return v


# --- reading back -----------------------------------------------------------------------------
def table_names(conn: sqlite3.Connection, schema: str) -> list[str]:
    rows = conn.execute(f"SELECT name FROM {q(schema)}.sqlite_master WHERE type='table' "
                        "ORDER BY name").fetchall()
    return [r[0] for r in rows if not r[0].startswith(HIDDEN_PREFIXES)]


def find_table(conn: sqlite3.Connection, schema: str, table: str) -> str | None:
    """The stored spelling of `table` (SQLite matches names case-insensitively)."""
    row = conn.execute(f"SELECT name FROM {q(schema)}.sqlite_master WHERE type='table' AND "
                       "name = ? COLLATE NOCASE", (table,)).fetchone()
    if row is None or row[0].startswith(HIDDEN_PREFIXES):
        return None
    return row[0]


def _spec(conn: sqlite3.Connection, schema: str, table: str) -> dict[str, Any]:
    try:
        row = conn.execute(f"SELECT spec FROM {q(schema)}.{META_TABLE} WHERE table_name = ?",
                           (table,)).fetchone()
    except sqlite3.OperationalError:
        row = None
    if row is not None:
        return json.loads(row[0])
    legacy: dict[str, Any] = {"columns": {}, "legacy": True}
    try:
        for col, ctype in conn.execute(f"SELECT column_name, column_type FROM {q(schema)}."
                                       f"{LEGACY_META} WHERE table_name = ?", (table,)):
            legacy["columns"][col] = {"type": ctype, "auto": True}
    except sqlite3.OperationalError:
        pass
    return legacy


def load_table(conn: sqlite3.Connection, schema: str, table: str) -> TableDef:
    spec = _spec(conn, schema, table)
    colspec = spec.get("columns", {})
    info = conn.execute(f"PRAGMA {q(schema)}.table_info({q(table)})").fetchall()
    columns: list[ColumnDef] = []
    primary = [] if spec.get("no_primary") else \
        [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5]]
    for _cid, name, decl, notnull, dflt, pkpos in info:
        cs = colspec.get(name, {})
        type_text = cs.get("type") or decl or "text"
        try:
            t = parse_type(type_text)
        except (ValueError, ServerError):
            t = _legacy_type(decl or "")
        if t.is_text and t.charset is None:
            t = replace(t, charset=spec.get("charset", DEFAULT_CHARSET),
                        collation=spec.get("collation", DEFAULT_COLLATION))
        default = None
        if "default" in cs:
            kind, value, shown = cs["default"]
            default = Default(kind, _from_json(value), shown)
        elif spec.get("legacy") and dflt is not None:
            default = _legacy_default(dflt)
        columns.append(ColumnDef(
            name, t, nullable=not notnull and not pkpos and not cs.get("auto"),
            default=default,
            auto_increment=bool(cs.get("auto")), on_update=cs.get("on_update"),
            comment=cs.get("comment", ""), compressed=bool(cs.get("compressed")),
            attributes=tuple((n, v) for n, v in cs.get("attrs", ())),
            generated=Generated(*cs["gen"]) if "gen" in cs else None,
            invisible=bool(cs.get("invisible"))))
    idxspec = spec.get("indexes", {})
    indexes: list[IndexDef] = []
    for row in conn.execute(f"PRAGMA {q(schema)}.index_list({q(table)})").fetchall():
        sname, unique, origin = row[1], bool(row[2]), row[3]
        if origin == "pk":
            continue
        cols = [r[2] for r in conn.execute(f"PRAGMA {q(schema)}.index_info({q(sname)})")]
        shown = sname.split(".", 1)[1] if sname.startswith(table + ".") else sname
        extra = idxspec.get(shown, {})
        indexes.append(IndexDef(shown, unique, cols, extra.get("prefixes") or [],
                                extra.get("desc") or [], extra.get("kind", ""),
                                extra.get("comment", ""), bool(extra.get("generated")),
                                extra.get("using", ""),
                                tuple((n, v) for n, v in extra.get("attrs", ()))))
    for name, extra in idxspec.items():  # FULLTEXT / SPATIAL: kept, not built
        if extra.get("kind"):
            indexes.append(IndexDef(name, False, extra.get("columns", []),
                                    extra.get("prefixes") or [], [], extra["kind"]))
    order = {name.lower(): k for k, name in enumerate(idxspec)}  # creation order
    indexes.sort(key=lambda i: order.get(i.name.lower(), len(order)))
    foreign = [ForeignKey(name, cols, ref_table, ref_cols, ref_db, on_delete, on_update)
               for name, cols, ref_db, ref_table, ref_cols, on_delete, on_update
               in spec.get("foreign", [])]
    return TableDef(table, columns, primary, indexes, [tuple(c) for c in spec.get("checks", [])],
                    spec.get("charset", DEFAULT_CHARSET), spec.get("collation", DEFAULT_COLLATION),
                    spec.get("comment", ""), spec.get("engine", "InnoDB"), foreign=foreign,
                    keys_disabled=bool(spec.get("keys_disabled")),
                    table_named=list(spec.get("table_named", [])),
                    version=str(spec.get("version", "")),
                    options=dict(spec.get("options", {})),
                    attributes=tuple((n, v) for n, v in spec.get("attrs", ())))


def _legacy_type(decl: str) -> SqlType:
    upper = decl.upper()
    if "INT" in upper:
        return make_type("bigint", [])
    if any(k in upper for k in ("REAL", "FLOA", "DOUB")):
        return make_type("double", [])
    if "BLOB" in upper:
        return make_type("blob", [])
    return make_type("text", [])


def _legacy_default(text: str) -> Default | None:
    if text.upper() == "NULL":
        return Default("value", None, "NULL")
    if text.upper().startswith("CURRENT_TIMESTAMP"):
        return Default("now", 0, "current_timestamp()")
    if len(text) >= 2 and text[0] == text[-1] == "'":
        v = text[1:-1].replace("''", "'")
        return Default("value", v, "'" + v.replace("'", "''") + "'")
    try:
        num: Any = int(text)
    except ValueError:
        try:
            num = float(text)
        except ValueError:
            return Default("value", text, text)
    return Default("value", num, text)


def sequence_next(conn: sqlite3.Connection, schema: str, table: str) -> int | None:
    try:
        row = conn.execute(f"SELECT seq FROM {q(schema)}.sqlite_sequence WHERE name = ?",
                           (table,)).fetchone()
    except sqlite3.OperationalError:
        return None
    return row[0] + 1 if row else None


# --- the engine-neutral view (SHOW COLUMNS, information_schema, result metadata) -------------
def key_flags(tdef: TableDef) -> dict[str, tuple[str, int]]:
    """column -> (SHOW COLUMNS Key, wire flags for keys)."""
    out: dict[str, tuple[str, int]] = {}
    for c in tdef.primary or implicit_primary(tdef):
        out[c.lower()] = ("PRI", ColumnFlag.PRI_KEY)
    for i in tdef.indexes:
        if not i.columns or i.kind:
            continue
        first = i.columns[0].lower()
        if first in out:
            continue
        if i.unique and len(i.columns) == 1:
            out[first] = ("UNI", ColumnFlag.UNIQUE_KEY)
        else:
            out[first] = ("MUL", ColumnFlag.MULTIPLE_KEY)
    return out


def implicit_primary(tdef: TableDef) -> list[str]:
    """A table without a PRIMARY KEY: MariaDB takes its first UNIQUE key whose parts are all
    NOT NULL for one (sql_table.cc sort_keys, table.cc primary_key), and SHOW COLUMNS says
    PRI for its columns."""
    for i in tdef.indexes:
        if i.unique and not i.kind and i.columns and not any(i.prefixes or ()) and all(
                (c := tdef.column(n)) is not None and not c.nullable for n in i.columns):
            return list(i.columns)
    return []


def table_columns(tdef: TableDef, schema: str) -> list[TableColumn]:
    keys = key_flags(tdef)
    in_keys = {c.lower() for c in tdef.primary}
    for i in tdef.indexes:
        in_keys.update(c.lower() for c in i.columns)
    out = []
    for c in tdef.columns:
        key, flags = keys.get(c.name.lower(), ("", 0))
        if not c.nullable:
            flags |= ColumnFlag.NOT_NULL
        if c.auto_increment:
            flags |= ColumnFlag.AUTO_INCREMENT
        if c.name.lower() in in_keys:
            flags |= 0x4000  # PART_KEY_FLAG
        if c.type.is_blob:
            flags |= ColumnFlag.BLOB
        if not c.has_default:
            flags |= ColumnFlag.NO_DEFAULT_VALUE
        if c.on_update is not None:
            flags |= ColumnFlag.ON_UPDATE_NOW
        if c.type.name == "timestamp":
            flags |= ColumnFlag.TIMESTAMP
        extra = "auto_increment" if c.auto_increment else (
            "on update " + _now_spelling(c.on_update) if c.on_update is not None else
            generated_extra(c))
        if c.invisible:
            extra = f"{extra}, INVISIBLE" if extra else "INVISIBLE"
        out.append(TableColumn(
            name=c.name, column_type=c.type.spelling() + (COMPRESSED if c.compressed else ""),
            nullable=c.nullable, key=key,
            default=describe_default(c), extra=extra,
            column=c.type.column(c.name, flags=flags, table=tdef.name, schema=schema),
            sql_type=c.type))
    return out


def generated_extra(c: ColumnDef) -> str:
    """DESCRIBE's / information_schema.COLUMNS' EXTRA of a generated column."""
    if c.generated is None:
        return ""
    return "STORED GENERATED" if c.generated.stored else "VIRTUAL GENERATED"


def generated_text(c: ColumnDef) -> str:
    """The expression as MariaDB prints it (SHOW CREATE TABLE, GENERATION_EXPRESSION)."""
    if c.generated is None:
        return ""
    from rampmeter.engine.sqlite.sqltext import expression
    return expression(c.generated.expr)


def _now_spelling(fsp: int) -> str:
    return f"current_timestamp({fsp})" if fsp else "current_timestamp()"


def describe_default(c: ColumnDef) -> str | None:
    """The Default column of SHOW COLUMNS / information_schema.COLUMNS (MariaDB 10.11)."""
    d = c.default
    if d is None or d.kind == "value" and d.value is None:
        return None
    if d.kind == "now":
        return _now_spelling(d.value or 0)
    if d.kind == "expr":
        return d.shown
    if c.type.is_blob:
        return d.shown  # MariaDB shows BLOB/TEXT defaults as expressions: 'abc' with quotes
    shown = d.shown
    if len(shown) >= 2 and shown[0] == shown[-1] == "'":
        return shown[1:-1].replace("''", "'")
    return shown


def index_state(tdef: TableDef, idx: IndexDef) -> str:
    """SHOW INDEX's / information_schema.STATISTICS' COMMENT: MariaDB's DISABLE KEYS switches
    off the non-unique keys only, and says so there ('disabled')."""
    return "disabled" if tdef.keys_disabled and not idx.unique else ""


def table_indexes(tdef: TableDef) -> list[TableIndex]:
    out: list[TableIndex] = []
    if tdef.primary:
        out.append(TableIndex("PRIMARY", True, tuple(tdef.primary)))
    ordered = sorted(tdef.indexes, key=lambda i: not i.unique)
    out += [TableIndex(i.name, i.unique, tuple(i.columns)) for i in ordered]
    return out


COMPRESSED = " /*M!100301 COMPRESSED*/"  # after the type, as MariaDB prints it


def show_create(tdef: TableDef, auto_next: int | None, sql_mode: str = "") -> str:
    """SHOW CREATE TABLE's text, as `sql_mode` shapes it (showmode.py)."""
    from rampmeter.engine.sqlite.showmode import ansi_quoted, style
    from rampmeter.engine.sqlite.tableopts import attributes_text, create_text
    how = style(sql_mode)
    lines = []
    for c in tdef.columns:
        line = f"  `{_bq(c.name)}` {c.type.spelling()}{COMPRESSED if c.compressed else ''}"
        if how.charsets:
            line += c.type.charset_clause(tdef.charset, tdef.collation)
        elif c.type.name in ("char", "varchar") and c.type.charset is not None and \
                (c.type.collation or "").endswith("_bin"):
            line += " binary"
        if c.generated is not None:
            line += f" GENERATED ALWAYS AS ({generated_text(c)}) " + \
                ("STORED" if c.generated.stored else "VIRTUAL")
        if not c.nullable:
            line += " NOT NULL"
        elif c.type.name == "timestamp" and c.generated is None:
            line += " NULL"
        if c.invisible:
            line += " INVISIBLE"
        if c.auto_increment:
            line += " AUTO_INCREMENT" if how.auto_increment else ""
        elif c.default is not None:
            if c.default.kind == "value" and c.default.value is None:
                line += " DEFAULT NULL"
            else:
                line += " DEFAULT " + (c.default.shown if c.default.kind != "now"
                                       else _now_spelling(c.default.value or 0))
        elif c.nullable and c.generated is None:
            line += " DEFAULT NULL"
        if c.on_update is not None and how.on_update:
            line += " ON UPDATE " + _now_spelling(c.on_update)
        if c.comment:
            line += " COMMENT " + _quote(c.comment)
        line += attributes_text(c.attributes, sql_mode)
        if c.type.name == "json":
            line += f" CHECK (json_valid(`{_bq(c.name)}`))"
        line += "".join(f" CHECK ({_check_text(e)})" for n, e in tdef.checks
                        if n.lower() == c.name.lower() and tdef.column_check(n))
        lines.append(line)
    if tdef.primary:
        lines.append("  PRIMARY KEY (" + ",".join(f"`{_bq(c)}`" for c in tdef.primary) + ")")
    from rampmeter.engine.sqlite.keyinfo import sort_key
    for i in sorted(tdef.indexes, key=lambda i: sort_key(tdef, i)):
        cols = []
        for k, col in enumerate(i.columns):
            text = f"`{_bq(col)}`"
            if k < len(i.prefixes) and i.prefixes[k]:
                text += f"({i.prefixes[k]})"
            if k < len(i.desc) and i.desc[k]:
                text += " DESC"
            cols.append(text)
        kind = "UNIQUE KEY" if i.unique else f"{i.kind} KEY" if i.kind else "KEY"
        line = f"  {kind} `{_bq(i.name)}` ({','.join(cols)})"
        if i.using and not i.kind and how.key_options:
            line += f" USING {i.using}"
        if i.comment and how.key_options:
            line += " COMMENT " + _quote(i.comment)
        if how.key_options:
            line += attributes_text(i.attributes, sql_mode)
        lines.append(line)
    # InnoDB lists the foreign keys by name
    lines.extend("  " + foreign_clause(fk) for fk in sorted(tdef.foreign, key=lambda f: f.name))
    lines.extend(f"  CONSTRAINT `{_bq(name)}` CHECK ({_check_text(expr)})"
                 for name, expr in tdef.checks if not tdef.column_check(name))
    opts = ")"
    if how.table_options:
        opts += f" {'TYPE' if how.old_types else 'ENGINE'}={tdef.engine}"
        if auto_next is not None and auto_next > 1:
            opts += f" AUTO_INCREMENT={auto_next}"
        if how.charsets:
            opts += f" DEFAULT CHARSET={tdef.charset} COLLATE={tdef.collation}"
        known, attrs = create_text(tdef, sql_mode)
        opts += known
        if tdef.comment:
            opts += " COMMENT=" + _quote(tdef.comment)
        opts += attrs
    text = f"CREATE TABLE `{_bq(tdef.name)}` (\n" + ",\n".join(lines) + "\n" + opts
    return ansi_quoted(text) if how.ansi_quotes else text


def _check_text(expr: str) -> str:
    """A CHECK expression as MariaDB prints it (a column-level one is named after its column
    and printed in its column's line)."""
    from rampmeter.engine.sqlite.sqltext import expression
    return expression(expr)


def foreign_clause(fk: ForeignKey, qualify: str | None = None) -> str:
    """`CONSTRAINT name FOREIGN KEY (...) REFERENCES t (...) [ON ...]` as MariaDB prints it:
    the referenced table's database only when it is another one (or `qualify`, for 1701)."""
    ref_db = fk.ref_db or qualify
    table = (f"`{_bq(ref_db)}`." if ref_db else "") + f"`{_bq(fk.ref_table)}`"
    text = (f"CONSTRAINT `{_bq(fk.name)}` FOREIGN KEY ("
            + ", ".join(f"`{_bq(c)}`" for c in fk.columns) + f") REFERENCES {table} ("
            + ", ".join(f"`{_bq(c)}`" for c in fk.ref_columns) + ")")
    for event, action in (("DELETE", fk.on_delete), ("UPDATE", fk.on_update)):
        if action in ("CASCADE", "SET NULL", "NO ACTION"):
            text += f" ON {event} {action}"
    return text


def _bq(name: str) -> str:
    return name.replace("`", "``")


def _quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def stored_default(c: ColumnDef) -> Any:
    """The value an INSERT that leaves `c` out stores (constant defaults only)."""
    if c.default is None or c.default.kind != "value":
        return None
    return c.default.value


def implicit_default(t: SqlType) -> Any:
    """What a NOT NULL column without a default gets when sql_mode is not strict."""
    if t.is_numeric:
        return 0
    if t.name == "date":
        return "0000-00-00"
    if t.name in ("datetime", "timestamp"):
        return "0000-00-00 00:00:00" + ("." + "0" * t.fsp if t.fsp else "")
    if t.name == "time":
        return "00:00:00"
    if t.name == "enum":
        return t.members[0] if t.members else ""
    if t.is_binary_string:
        return b"\0" * (t.width or 0) if t.name == "binary" else b""
    return ""


def check_value_default(c: ColumnDef, value: Any) -> Default:
    """A constant DEFAULT for column `c`: stored and shown as MariaDB does (1067 when the value
    does not fit the type)."""
    if value is None:
        if not c.nullable:
            raise ServerError(errors.ER_INVALID_DEFAULT, c.name)
        return Default("value", None, "NULL")
    stored, problem = values.store(c.type, value)
    if problem is not None and not problem.note and problem.code != 4025:
        # (4025: a JSON column's json_valid is a CHECK, tried on the rows written, not here)
        raise ServerError(errors.ER_INVALID_DEFAULT, c.name)
    return Default("value", stored, show_default(c.type, stored))


def show_default(t: SqlType, stored: Any) -> str:
    load = values.load(t)
    v = load(stored) if load is not None else stored
    if t.name == "bit":
        n = int.from_bytes(v, "big") if isinstance(v, bytes) else int(v)
        return f"b'{n:b}'"
    if t.is_numeric and not isinstance(v, (str, bytes)):
        from rampmeter.protocol.results import text_value
        return text_value(v).decode()
    if t.is_numeric and isinstance(v, str):
        return v
    if isinstance(v, bytes):
        text = v.decode("utf-8", "surrogateescape")
    else:
        from rampmeter.protocol.results import text_value
        text = text_value(v).decode("utf-8", "surrogateescape")
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"
