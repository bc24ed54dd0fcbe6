"""information_schema.TABLE_STATISTICS and INDEX_STATISTICS: MariaDB's userstat counters per
table and per index (@@userstat, FLUSH TABLE_STATISTICS / INDEX_STATISTICS).

Rules:
- Counted only while @@global.userstat is ON, after each statement the engine runs (one
  variable test per statement otherwise).
- Reads: a SELECT's rows read are what its EXPLAIN says it reads of each table (rows: the
  matching rows, counted; the whole table for a scan), one more for a range (the read that
  finds the range's end, as MariaDB's handler counts it); they count for the table, and for
  the index EXPLAIN names (key). An ALTER TABLE reads every row of the table it copies (MariaDB
  copies MyISAM / Aria tables).
- Changes: INSERT / REPLACE / UPDATE / DELETE / LOAD DATA add their affected rows to
  ROWS_CHANGED, times the table's number of indexes (at least 1) to ROWS_CHANGED_X_INDEXES
  (MariaDB's rows_changed * keys).
- A table's rows go with DROP TABLE; an index's with the index (DROP INDEX, ALTER TABLE DROP
  KEY, or dropping its columns), as MariaDB's MDEV-8633 has them.
- Approximations: a table is named as the statement names it (the current database unless
  qualified; an alias in a join is not resolved); what a stored program runs is not counted,
  nor the reads of a result streamed to the client; the EXPLAIN / COUNT / SHOW INDEX run to
  count leave FOUND_ROWS() as they leave it.
"""

from __future__ import annotations

import re
import threading
from typing import TYPE_CHECKING, Any

from rampmeter.engine.base import ResultSet, UpdateCount
from rampmeter.session.tpstatus import columns
from rampmeter.sql.lexer import ident_value

if TYPE_CHECKING:
    from rampmeter.session.session import Session
    from rampmeter.sql.statement import Statement

TABLE_COLUMNS = columns("TABLE_SCHEMA:text, TABLE_NAME:text, ROWS_READ:int, ROWS_CHANGED:int, "
                        "ROWS_CHANGED_X_INDEXES:int")
INDEX_COLUMNS = columns("TABLE_SCHEMA:text, TABLE_NAME:text, INDEX_NAME:text, ROWS_READ:int")

_NAME = r"(`(?:[^`]|``)+`|[\w$]+)"
_TARGET = re.compile(r"^\s*(?:INSERT|REPLACE|UPDATE|DELETE|ALTER|TRUNCATE)\b"
                     r"(?:\s+(?:LOW_PRIORITY|DELAYED|HIGH_PRIORITY|IGNORE|QUICK|ONLINE|TABLE|"
                     r"INTO|FROM))*\s+" + _NAME + r"(?:\s*\.\s*" + _NAME + ")?", re.IGNORECASE)
_DROP = re.compile(r"^\s*DROP\s+(?:TEMPORARY\s+)?TABLES?\s+(?:IF\s+EXISTS\s+)?(.*)$",
                   re.IGNORECASE | re.DOTALL)
_CHANGES = frozenset({"INSERT", "REPLACE", "UPDATE", "DELETE"})


class TableStatistics:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: dict[tuple[str, str], list[int]] = {}
        self._indexes: dict[tuple[str, str, str], int] = {}

    def read(self, db: str, table: str, index: str | None, rows: int) -> None:
        with self._lock:
            self._tables.setdefault((db, table), [0, 0, 0])[0] += rows
            if index:
                key = (db, table, index)
                self._indexes[key] = self._indexes.get(key, 0) + rows

    def changed(self, db: str, table: str, rows: int, keys: int) -> None:
        with self._lock:
            row = self._tables.setdefault((db, table), [0, 0, 0])
            row[1] += rows
            row[2] += rows * max(keys, 1)

    def dropped(self, db: str, table: str) -> None:
        with self._lock:
            self._tables.pop((db, table), None)
            for key in [k for k in self._indexes if k[:2] == (db, table)]:
                del self._indexes[key]

    def keep_indexes(self, db: str, table: str, names: set[str]) -> None:
        with self._lock:
            for key in [k for k in self._indexes if k[:2] == (db, table) and
                        k[2].lower() not in names]:
                del self._indexes[key]

    def flush(self, tables: bool, indexes: bool) -> None:
        with self._lock:
            if tables:
                self._tables.clear()
            if indexes:
                self._indexes.clear()

    def table_rows(self) -> list[tuple[Any, ...]]:
        with self._lock:
            return [(db, t, *v) for (db, t), v in sorted(self._tables.items())]

    def index_rows(self) -> list[tuple[Any, ...]]:
        with self._lock:
            return [(*k, v) for k, v in sorted(self._indexes.items())]


def tables_table(s: Session) -> tuple[list[Any], list[tuple[Any, ...]]]:
    return TABLE_COLUMNS, s.ctx.registry.table_stats.table_rows()


def indexes_table(s: Session) -> tuple[list[Any], list[tuple[Any, ...]]]:
    return INDEX_COLUMNS, s.ctx.registry.table_stats.index_rows()


def after(s: Session, stmt: Statement, result: Any) -> None:
    """Count what the statement just run read and changed (module rules)."""
    kind = stmt.kind
    try:
        if kind == "SELECT" and isinstance(result, ResultSet) and \
                isinstance(result.rows, list | tuple):  # (not while a result streams)
            _reads(s, stmt)
        elif kind in _CHANGES and isinstance(result, UpdateCount):
            target = _target(s, stmt.text)
            if target is not None and result.affected_rows:
                s.ctx.registry.table_stats.changed(*target, result.affected_rows,
                                                   len(_indexes(s, *target)))
        elif kind == "ALTER":
            target = _target(s, stmt.text)
            if target is not None:
                _altered(s, *target)
        elif kind == "DROP":
            _dropped(s, stmt.text)
    except Exception:  # noqa: BLE001 - what the statement did stands; its statistics are
        pass           # not worth an error (an EXPLAIN this module cannot run, ...)


def loaded(s: Session, db: str | None, table: str, rows: int) -> None:
    """LOAD DATA's rows (it does not run through the engine's statement path)."""
    db = db or s.database or ""
    if rows:
        s.ctx.registry.table_stats.changed(db, table, rows, len(_indexes(s, db, table)))


def _engine_rows(s: Session, text: str) -> list[Any]:
    assert s.engine is not None
    result = s.engine.execute(s.scan(text))
    return list(result.rows) if isinstance(result, ResultSet) else []


def _reads(s: Session, stmt: Statement) -> None:
    text = stmt.text
    if "information_schema" in text.lower() or s.database is None:
        return
    stats = s.ctx.registry.table_stats
    for row in _engine_rows(s, "EXPLAIN " + text):
        table, kind, key, rows = row[2], row[3], row[5], row[8]
        if not table or str(table).startswith("<") or rows is None:
            continue
        n = int(rows) + (1 if kind == "range" else 0)
        stats.read(s.database, str(table), key, n)


def _altered(s: Session, db: str, table: str) -> None:
    q = f"`{db.replace('`', '``')}`.`{table.replace('`', '``')}`"
    rows = _engine_rows(s, f"SELECT COUNT(*) FROM {q}")
    stats = s.ctx.registry.table_stats
    if rows:
        stats.read(db, table, None, int(rows[0][0]))
    stats.keep_indexes(db, table, {n.lower() for n in _indexes(s, db, table)})


def _dropped(s: Session, text: str) -> None:
    m = _DROP.match(text)
    if m is None:
        return
    for part in m.group(1).split(","):
        names = [ident_value(n) if n.startswith("`") else n
                 for n in re.findall(_NAME, part.strip().split()[0] if part.strip() else "")]
        if len(names) == 1 and s.database:
            s.ctx.registry.table_stats.dropped(s.database, names[0])
        elif len(names) == 2:
            s.ctx.registry.table_stats.dropped(names[0], names[1])


def _target(s: Session, text: str) -> tuple[str, str] | None:
    m = _TARGET.match(text)
    if m is None:
        return None
    first, second = (ident_value(n) if n and n.startswith("`") else n for n in m.groups())
    if second:
        return first, second
    return (s.database, first) if s.database else None


def _indexes(s: Session, db: str, table: str) -> set[str]:
    q = f"`{db.replace('`', '``')}`.`{table.replace('`', '``')}`"
    return {str(r[2]) for r in _engine_rows(s, f"SHOW INDEX FROM {q}")}
