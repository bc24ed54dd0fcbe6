"""HANDLER: MariaDB's direct cursor over a table (HANDLER tbl OPEN [[AS] alias], HANDLER alias
READ ..., HANDLER alias CLOSE).

Rules (MariaDB 10.11's sql_handler.cc, as its tests show it):
- OPEN names an existing base table (1146; a view is 1347) under an alias, its name by
  default, unique among the session's open handlers (1066). The handler is the session's:
  it holds the table's database and name and a position, nothing of SQLite's, so the session
  is not pinned to an engine handle for it.
- READ [index] {FIRST | NEXT | PREV | LAST} [WHERE ...] [LIMIT [offset,] n] reads n rows
  (1 by default) in the table's natural order (SQLite's rowid), or in the index's order (its
  columns, then the rowid); NEXT / PREV go on from the last row read (from the start / end
  when none was); WHERE filters the rows read. READ index {= | >= | > | <= | <} (values) reads
  from the first key of that comparison with a prefix of the index's columns, forwards for
  = >= >, backwards for <= <; `=` reads only rows of that key. The position is the last row
  read. A result is the table's `SELECT *` result.
- CLOSE forgets it; READ / CLOSE of an alias not open is 1109 "Unknown table 'a' in HANDLER".
  Schema statements naming the table close its handlers (TRUNCATE, ALTER, DROP, RENAME...);
  FLUSH TABLES reopens them at the start.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import Result, UpdateCount
from rampmeter.errors import ServerError
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

_DIRECTIONS = ("FIRST", "NEXT", "PREV", "LAST")
_OPS = {"=": "=", ">=": ">=", ">": ">", "<=": "<=", "<": "<"}
_CLOSING = frozenset({"TRUNCATE", "ALTER", "DROP", "RENAME", "CREATE", "OPTIMIZE", "REPAIR"})


@dataclass
class Open:
    database: str
    table: str                       # as named at OPEN
    index: str = ""                  # the index the position is in ("" natural order)
    position: tuple[Any, ...] | None = None   # the last row read: its key values and rowid


def run(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt, 1)
    db, name = r.qualified_name()
    if r.accept("OPEN"):
        return _open(s, r, db, name)
    alias = name
    h = s.handlers.get(alias.lower())
    if h is None or db is not None and db.lower() != h.database.lower():
        raise ServerError(errors.ER_UNKNOWN_TABLE, name, "HANDLER")
    if r.accept("CLOSE"):
        r.end()
        del s.handlers[alias.lower()]
        return UpdateCount()
    r.expect("READ")
    return _read(s, r, alias, h)


def _open(s: SqliteSession, r: Reader, db: str | None, name: str) -> Result:
    alias = name
    if r.accept("AS") or not r.done:
        alias = r.name()
    r.end()
    database = db or s.database
    if database is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    s.existing_table(database, name)  # 1146, or 1347 for a view
    if alias.lower() in s.handlers:
        raise ServerError(errors.ER_NONUNIQ_TABLE, alias)
    s.handlers[alias.lower()] = Open(database, name)
    return UpdateCount()


def _index_columns(s: SqliteSession, h: Open, index: str) -> list[str]:
    tdef = s.table_def(h.database, h.table)
    if tdef is None:
        raise ServerError(errors.ER_NO_SUCH_TABLE, h.database, h.table)
    if index.upper() == "PRIMARY" and tdef.primary:
        return list(tdef.primary)
    for ix in tdef.indexes:
        if ix.name.lower() == index.lower() and not ix.kind:
            return list(ix.columns)
    raise ServerError(errors.ER_KEY_DOES_NOT_EXISTS, index, h.table)


def _read(s: SqliteSession, r: Reader, alias: str, h: Open) -> Result:
    index = ""
    columns: list[str] = []
    word = r.peek_word()
    if word not in _DIRECTIONS:
        index = r.name()
        columns = _index_columns(s, h, index)
    keys = [*(q(c) for c in columns), "rowid"]
    op = ""
    values_text = ""
    if r.peek_word() in _DIRECTIONS:
        direction = r.next().text.upper()
    elif index and r.peek() is not None and r.peek().text in _OPS:  # type: ignore[union-attr]
        op = _OPS[r.next().text]
        start = r.i
        r.expect("(")
        depth = 1
        while depth:
            t = r.next()
            depth += {"(": 1, ")": -1}.get(t.text, 0)
        values_text = r.text_between(start, r.i - 1)
        direction = "PREV" if op in ("<", "<=") else "NEXT"
    else:
        raise r.error()
    where = ""
    if r.accept("WHERE"):
        start = r.i
        while not r.done and not r.at("LIMIT"):
            r.next()
        if r.i == start:
            raise r.error()
        where = r.text_between(start, r.i - 1)
    limit = "1"
    if r.accept("LIMIT"):
        start = r.i
        r.next()
        if r.accept(","):
            r.next()
        limit = r.text_between(start, r.i - 1)
    r.end()
    if index != h.index or direction in ("FIRST", "LAST") or op:
        h.index, h.position = index, None
    backwards = direction in ("PREV", "LAST")
    conds = []
    if op:
        n = values_text.count(",") + 1   # the prefix of the index the values give
        prefix = ", ".join(q(c) for c in columns[:n])
        conds.append(f"({prefix}) {op} {values_text}")
    elif h.position is not None:
        conds.append(f"({', '.join(keys)}) {'<' if backwards else '>'} "
                     f"({', '.join(_literal(v) for v in h.position)})")
    if where:
        conds.append(f"({where})")
    order = ", ".join(f"{k} {'DESC' if backwards else 'ASC'}" for k in keys)
    source = f"{q(h.database)}.{q(h.table)} AS {q(alias)}"
    tail = (f" WHERE {' AND '.join(conds)}" if conds else "") + f" ORDER BY {order} " \
        f"LIMIT {limit}"
    result = s.execute(f"SELECT * FROM {source}{tail}")
    marks = s.execute(f"SELECT {', '.join(keys)} FROM {source}{tail}")
    last = list(getattr(marks, "rows", []))
    if last:
        h.position = tuple(last[-1])
    return result


def q(name: str) -> str:
    """A name quoted for MariaDB's SQL (the statements run through the translator)."""
    return "`" + name.replace("`", "``") + "`"


def _literal(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, bytes):
        return "X'" + v.hex() + "'"
    return "'" + str(v).replace("\\", "\\\\").replace("'", "''") + "'"


def after(s: SqliteSession, stmt: Statement) -> None:
    """A schema statement naming a table closes its handlers; FLUSH TABLES reopens them."""
    toks = stmt.tokens or ()
    if stmt.kind == "FLUSH":
        words = [t.text.strip("`").lower() for t in toks]
        at = next((i for i, w in enumerate(words) if w in ("table", "tables")), None)
        if at is None:
            return
        names = set(words[at + 1:]) - {"with", "read", "lock", "for", "export", ","}
        for h in s.handlers.values():
            if not names or h.table.lower() in names:
                h.position = None
        return
    if stmt.kind not in _CLOSING:
        return
    named = {t.text.strip("`").lower() for t in toks if t.kind in ("word", "qident")}
    for alias in [a for a, h in s.handlers.items() if h.table.lower() in named]:
        del s.handlers[alias]
