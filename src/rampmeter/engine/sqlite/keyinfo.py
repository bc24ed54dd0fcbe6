"""Index types, collations and cardinalities as MariaDB's SHOW KEYS and
information_schema.STATISTICS show them, and MariaDB's long unique keys.

Rules:
- A key keeps its `USING BTREE | HASH | RTREE` (SHOW CREATE TABLE prints it back).
- MEMORY keys are HASH unless USING BTREE; a HASH key has no collation (NULL).
- In the other engines a UNIQUE key is a long unique (MariaDB 10.4, MDEV-371: enforced through
  a hidden hash of its columns; Index_type HASH, SHOW CREATE TABLE `USING HASH`) when it is
  asked USING HASH, or has a BLOB / TEXT column without a prefix, or is longer than the
  engine's keys may be (MyISAM and Aria 1000 bytes, InnoDB 3072). settle() marks those when a
  table's keys are made; with USING BTREE such a key is refused, 1071. A non-unique KEY ...
  USING HASH stays a B-tree (Index_type BTREE). rampmeter enforces every unique key with a
  SQLite unique index whatever its type.
- Cardinality is what MariaDB's engines report without ANALYZE TABLE: MyISAM / Aria give the
  row count at the last part of a unique B-tree key without a nullable column (the primary
  key too: one row per value), NULL elsewhere; a
  long unique gives NULL; a MEMORY HASH key, at its last part, the row count when unique,
  else rows / max(2, rows / distinct values) (heap's update_key_stats); MEMORY B-trees NULL.
  InnoDB's sampled estimates are not reproduced (NULL).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Any

from rampmeter.errors import ServerError
from rampmeter.sql import charsets

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.catalog import IndexDef, TableDef
    from rampmeter.engine.sqlite.session import SqliteSession

ER_TOO_LONG_KEY = 1071
MAX_KEY_BYTES = {"MyISAM": 1000, "Aria": 1000, "InnoDB": 3072}  # MariaDB 10.11's engines
_EXACT = ("MyISAM", "Aria", "MRG_MyISAM")
_FIXED_BYTES = {"tinyint": 1, "smallint": 2, "mediumint": 3, "int": 4, "bigint": 8,
                "float": 4, "double": 8, "date": 3, "time": 3, "datetime": 5, "timestamp": 4,
                "year": 1, "bit": 8, "enum": 2, "set": 8}


def is_memory(tdef: TableDef) -> bool:
    return tdef.engine == "MEMORY"


def is_hash(tdef: TableDef, idx: IndexDef) -> bool:
    """Does SHOW KEYS say HASH for this key?"""
    if idx.kind:
        return False
    if is_memory(tdef):
        return idx.using != "BTREE"
    return idx.unique and idx.using == "HASH"


def index_type(tdef: TableDef, idx: IndexDef) -> str:
    return idx.kind or ("HASH" if is_hash(tdef, idx) else "BTREE")


def _part_bytes(tdef: TableDef, name: str, prefix: int | None) -> int | None:
    """The bytes of one key part (None: a BLOB / TEXT without a prefix, which no B-tree
    key takes whole)."""
    col = tdef.column(name)
    if col is None:
        return 0
    t = col.type
    null = 1 if col.nullable else 0
    if t.is_blob:
        return None if prefix is None else prefix * _maxlen(t) + 2 + null
    if t.is_string and t.name not in ("enum", "set"):
        chars = prefix if prefix is not None else (t.width or 1)
        return chars * _maxlen(t) + (2 if t.name.startswith("var") else 0) + null
    if t.is_decimal:
        return (t.width or 10) // 2 + 1 + null
    return _FIXED_BYTES.get(t.name, 8) + null


def _maxlen(t: Any) -> int:
    if t.is_binary_string or not t.charset:
        return 1
    cs = charsets.charset(t.charset)
    return cs.maxlen if cs is not None else 4


def _too_long(tdef: TableDef, idx: IndexDef) -> bool:
    limit = MAX_KEY_BYTES.get(tdef.engine)
    total = 0
    for k, name in enumerate(idx.columns):
        prefix = idx.prefixes[k] if k < len(idx.prefixes) else None
        part = _part_bytes(tdef, name, prefix)
        if part is None:
            return True
        total += part
    return limit is not None and total > limit


def settle(tdef: TableDef) -> None:
    """Mark the table's long unique keys (USING HASH), or refuse a B-tree that cannot be."""
    if is_memory(tdef):
        return
    for idx in tdef.indexes:
        if not idx.unique or idx.kind or idx.using == "HASH":
            continue
        if _too_long(tdef, idx):
            if idx.using == "BTREE":
                raise ServerError(ER_TOO_LONG_KEY, sqlstate="42000", message=(
                    "Specified key was too long; max key length is "
                    f"{MAX_KEY_BYTES.get(tdef.engine, 3072)} bytes"))
            idx.using = "HASH"


def long_unique(tdef: TableDef, idx: IndexDef) -> bool:
    return not is_memory(tdef) and is_hash(tdef, idx)


def sort_key(tdef: TableDef, idx: IndexDef) -> tuple[bool, bool, bool]:
    """MariaDB's order of keys after the primary: unique, long unique, others, FULLTEXT."""
    return not idx.unique, long_unique(tdef, idx), bool(idx.kind)


def collation(tdef: TableDef, idx: IndexDef | None, desc: bool) -> str | None:
    if idx is not None and (idx.kind or is_hash(tdef, idx)):
        return None if idx.kind or is_memory(tdef) else "A"
    return "D" if desc else "A"


class Counts:
    """Row counts and distinct counts of one table, read once for SHOW KEYS."""

    def __init__(self, conn: sqlite3.Connection | None, table_sql: str) -> None:
        self._conn = conn
        self._table = table_sql
        self._rows: int | None = None

    def rows(self) -> int | None:
        if self._rows is None and self._conn is not None:
            try:
                self._rows = self._conn.execute(f"SELECT COUNT(*) FROM {self._table}").fetchone()[0]
            except sqlite3.Error:
                self._conn = None
        return self._rows

    def distinct(self, columns: list[str]) -> int | None:
        if self._conn is None:
            return None
        cols = ", ".join('"' + c.replace('"', '""') + '"' for c in columns)
        try:
            return self._conn.execute(
                f"SELECT COUNT(*) FROM (SELECT DISTINCT {cols} FROM {self._table})").fetchone()[0]
        except sqlite3.Error:
            return None


def cardinality(tdef: TableDef, idx: IndexDef | None, seq: int, counts: Counts) -> int | None:
    """One key part's Cardinality (module rules); idx None is the primary key."""
    last = len(idx.columns) if idx is not None else len(tdef.primary)
    if seq != last:
        return None
    unique = idx is None or idx.unique
    if idx is not None and is_hash(tdef, idx):
        if not is_memory(tdef):
            return None  # a long unique
        rows = counts.rows()
        if rows is None or unique:
            return rows
        distinct = counts.distinct(idx.columns) or 1
        return rows // max(2, rows // distinct)
    if idx is not None and idx.kind:
        return None
    if tdef.engine in _EXACT and unique and not _nullable(tdef, idx):
        return counts.rows()
    return None


def _nullable(tdef: TableDef, idx: IndexDef | None) -> bool:
    if idx is None:
        return False
    for name in idx.columns:
        col = tdef.column(name)
        if col is not None and col.nullable:
            return True
    return False


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@contextmanager
def counted(s: SqliteSession, db: str, table: str, tdef: TableDef) -> Iterator[Counts]:
    """The Counts of a table, for as long as SHOW KEYS / STATISTICS reads it."""
    if tdef.location is not None:  # a temporary table
        yield Counts(s.handle.conn, f"{_q(tdef.location[0])}.{_q(tdef.location[1])}")
        return
    with ExitStack() as stack:
        try:
            conn, schema = stack.enter_context(s.handle.meta_conn(db, s.database))
        except ServerError:
            yield Counts(None, "")
            return
        yield Counts(conn, f"{_q(schema)}.{_q(table)}")
