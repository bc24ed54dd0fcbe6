"""A multi-row INSERT whose rows all have one shape runs as one plan and one executemany.

Drivers and frameworks send bulk inserts as `INSERT ... VALUES (..), (..), ...` with thousands
of rows (mysqlclient / PyMySQL executemany, pandas to_sql, Django bulk_create, mariadb-dump).
Translating that text whole makes a plan of thousands of placeholders for a shape that never
comes again, and it is most of the statement's time. Instead:

- `split()` reads the VALUES list of the statement's shape. The rows qualify when each is a
  flat list of items (no parentheses inside) and, position by position, every row has either a
  value (a literal's placeholder, a client's `?`, or NULL) or the same keyword (DEFAULT...).
  Anything else (expressions, subqueries, INSERT ... SELECT, REPLACE, one row) returns None and
  the statement takes the ordinary path (dml.run).
- The one-row statement (the first row, its values renamed :w0, :w1, ...) is planned through
  the plan cache like any statement, so every batch of that table and column list shares one
  plan.
- Each row's values are converted with that plan's stores (values.store via dml.convert_row,
  with the row's own number in messages: strict-mode errors and warnings are MariaDB's per
  row), then the rows go to SQLite in one executemany inside a savepoint, so that the batch
  succeeds or fails as a whole as one INSERT statement does. Affected rows, LAST_INSERT_ID(),
  the info text ("Records: n  Duplicates: n  Warnings: n") and INSERT IGNORE's skipped rows are
  dml._write's.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from rampmeter.errors import ServerError
from rampmeter.sql import charsets
from rampmeter.sql.statement import ClientParam, Statement

if TYPE_CHECKING:
    from rampmeter.engine.base import ResultSet, UpdateCount
    from rampmeter.engine.sqlite.session import SqliteSession
    from rampmeter.engine.sqlite.translate import Plan
    from rampmeter.engine.types import SqlType

_VALUES = re.compile(r"\bVALUES?\s*(?=\()", re.IGNORECASE)
_ROW = re.compile(r"\(([^()`\"]*)\)\s*(,\s*)?")
_VALUE = re.compile(r":([a-z])(\d+)(?:_\d+)?|NULL", re.IGNORECASE)
_ANY_VALUE = re.compile(r":[a-z]\d+(?:_\d+)?|\bNULL\b", re.IGNORECASE)
_SLOT = re.compile(r":[a-z](\d+)")
_INT_MAX = 2**63 - 1
_KEYWORD = re.compile(r"[A-Za-z_]+")


class Batch:
    """A multi-row INSERT split into its one-row statement and, per row, its slot indexes
    (None for NULL) at the value positions."""

    __slots__ = ("one_row", "rows", "positions")

    def __init__(self, one_row: Statement, rows: list[list[int | None]],
                 positions: list[int]) -> None:
        self.one_row = one_row
        self.rows = rows
        self.positions = positions


def split(stmt: Statement) -> Batch | None:
    shape = stmt.shape
    m = _VALUES.search(shape)
    if m is None or "SELECT" in shape[:m.start()].upper():
        return None
    pos = m.end()
    contents: list[str] = []
    while True:
        r = _ROW.match(shape, pos)
        if r is None:
            break
        contents.append(r.group(1))
        pos = r.end()
        if not r.group(2):
            break
    if len(contents) < 2 or shape[pos - 1] == ",":
        return None
    first = [item.strip() for item in contents[0].split(",")]
    kinds: list[bool] = []   # per position: a value (True) or a keyword shared by all rows
    for item in first:
        if _VALUE.fullmatch(item):
            kinds.append(True)
        elif _KEYWORD.fullmatch(item):
            kinds.append(False)
        else:
            return None
    # Rows are alike when they read the same with every value written `?` (the common case,
    # rows of one client's executemany, is decided by one substitution and a comparison).
    model = _ANY_VALUE.sub("?", contents[0])
    width = kinds.count(True)
    slot_rows: list[list[int | None]] = []
    for content in contents:
        if _ANY_VALUE.sub("?", content) != model:
            return _split_items(stmt, m.end(), pos, contents, first, kinds)
        found = _SLOT.findall(content)
        if len(found) == width:
            slot_rows.append([int(k) for k in found])
        else:   # some values are NULL
            slot_rows.append([_slot_of(item) for item, is_value in
                              zip(content.split(","), kinds, strict=True) if is_value])
    return _batch(stmt, m.end(), pos, first, kinds, slot_rows)


def _slot_of(item: str) -> int | None:
    found = _SLOT.search(item)
    return None if found is None else int(found.group(1))


def _split_items(stmt: Statement, values_at: int, end: int, contents: list[str],
                 first: list[str], kinds: list[bool]) -> Batch | None:
    """Rows written differently (spacing, NULL among values): compared item by item."""
    slot_rows: list[list[int | None]] = []
    for content in contents:
        row = [item.strip() for item in content.split(",")]
        if len(row) != len(first):
            return None
        slots: list[int | None] = []
        for item, is_value, model in zip(row, kinds, first, strict=True):
            if is_value:
                if _VALUE.fullmatch(item) is None:
                    return None
                slots.append(_slot_of(item))
            elif item.upper() != model.upper():
                return None
        slot_rows.append(slots)
    return _batch(stmt, values_at, end, first, kinds, slot_rows)


def _batch(stmt: Statement, values_at: int, end: int, first: list[str], kinds: list[bool],
           slot_rows: list[list[int | None]]) -> Batch:
    shape = stmt.shape
    values = []
    w = 0
    for item, is_value in zip(first, kinds, strict=True):
        if is_value:
            values.append(f":w{w}")
            w += 1
        else:
            values.append(item)
    suffix = shape[end:]
    one_shape = shape[:values_at] + "(" + ", ".join(values) + ") " + suffix
    names = [f"w{k}" for k in range(w)]
    slot_values = [stmt.slots[k] if k is not None else None for k in slot_rows[0]]
    tail = [k for k, name in enumerate(stmt.names) if f":{name}" in suffix]
    one = Statement(stmt.text, stmt.words, one_shape.strip(),
                    tuple(slot_values) + tuple(stmt.slots[k] for k in tail),
                    tuple(names) + tuple(stmt.names[k] for k in tail), stmt.param_count,
                    stmt.items, stmt.for_update, stmt.tokens, stmt.dialect, stmt.charset)
    return Batch(one, slot_rows, tail)


def run(s: SqliteSession, stmt: Statement, params: Any) -> UpdateCount | ResultSet | None:
    from rampmeter.engine.sqlite import dml
    b = split(stmt)
    if b is None:
        return None
    plan = s.plan(b.one_row)
    if not plan.writes or plan.replace or plan.steps or plan.kind != "INSERT" or \
            plan.returning:
        return None
    s.make_visible(plan)
    ex = dml.execution(s, plan, b.one_row)
    values = [params[v.index] if type(v) is ClientParam else v for v in stmt.slots]
    shared = {stmt.names[k]: dml.sqlite_value(values[k]) for k in b.positions}
    shared.update(plan.fixed)
    names = [f"w{k}" for k in range(len(b.rows[0]))]
    stores = [(st.slot, st.column, _fast_column(st.column, ex)) for st in plan.stores]
    nulls = [(slot, col) for slot, (col, _r) in plan.null_slots.items()
             if not col.nullable and not col.auto_increment]
    rows: list[dict[str, Any]] = []
    ends: list[int] = []   # len(ex.warnings) after each row's conversions
    for number, row in enumerate(b.rows, 1):
        bound = dict(shared)
        hexes = set()
        intros: dict[str, str] = {}
        for name, k in zip(names, row, strict=True):
            bound[name] = None if k is None else values[k]
            if k is not None and stmt.names[k][:1] == "x":
                hexes.add(name)  # a hex / bit literal: a number in a number column
            elif k is not None and stmt.names[k][:1] == "c":
                intros[name] = stmt.names[k]  # _cs'...': its bytes into a binary column
        for slot, col, fast in stores:
            v = bound.get(slot)
            if v is None:
                if not col.nullable and not col.auto_increment:
                    bound[slot] = dml.sqlite_value(ex.null_into(col, number, multi=True))
                continue
            source = None
            if slot in intros and type(v) is str and col.type.is_binary_string:
                source = dml._introduced(intros[slot])
            elif slot in hexes and type(v) is bytes:  # as dml.convert_row does for one row
                if col.type.is_numeric:
                    v = int.from_bytes(v, "big")
                elif col.type.is_text and col.type.charset not in (None, "binary"):
                    source = charsets.charset(col.type.charset)  # the column's characters
            got = fast(v) if fast is not None and source is None else _SLOW
            bound[slot] = got if got is not _SLOW else \
                dml.sqlite_value(ex.convert(col, v, number, source))
        for slot, col in nulls:
            bound[slot] = dml.sqlite_value(ex.null_into(col, number, multi=True))
        rows.append(bound)
        ends.append(len(ex.warnings))
    dml.missing_columns(plan, ex, len(rows), s)
    return dml.write_batch(s, stmt, plan, rows, ex, ends)


# --- stored values without the general conversion ------------------------------------------------
# Per column type, a check that a value is already what values.store would make of it (an int
# in range, a str that fits, a datetime text in canonical form...): then it is stored as it is.
# Anything else (and every problem: out of range, too long, malformed) goes through
# dml.Execution.convert, so errors and warnings are exactly the general path's.
_SLOW = object()
_DATETIME = re.compile(r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8]) "
                       r"([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?")
_DATE = re.compile(r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])")


def _fast_column(col: Any, ex: Any) -> Callable[[Any], Any] | None:
    """_fast for a column; an AUTO_INCREMENT column's 0 generates a value (dml.convert)."""
    fast = _fast(col.type, ex)
    if fast is None or not col.auto_increment:
        return fast
    inner = fast

    def auto(v: Any) -> Any:
        return _SLOW if v == 0 else inner(v)
    return auto


def _fast(t: SqlType, ex: Any) -> Callable[[Any], Any] | None:
    n = t.name
    if t.is_integer and not t.zerofill:
        lo, hi = t.int_range
        hi = min(hi, _INT_MAX)

        def integer(v: Any) -> Any:
            return v if type(v) is int and lo <= v <= hi else _SLOW
        return integer
    if n == "double" and t.width is None and not t.unsigned:
        def double(v: Any) -> Any:
            if type(v) is float:
                return v if math.isfinite(v) else _SLOW
            if type(v) is int or type(v) is Decimal:
                return float(v)
            return _SLOW
        return double
    if n in ("varchar", "text", "tinytext", "mediumtext", "longtext") and \
            t.charset in (None, "utf8mb4"):
        limit = t.max_chars

        def text(v: Any) -> Any:
            return v if type(v) is str and (limit is None or len(v) <= limit) else _SLOW
        return text
    if n in ("datetime", "timestamp") and not (n == "timestamp" and ex.zone is not None):
        fsp = t.fsp or 0
        # a TIMESTAMP outside its range takes the slow road (1264, dml.convert)
        low, high = ("1970-01-01 00:00:01", "2038-01-19 03:14:07") if n == "timestamp" \
            else ("", "9")

        def moment(v: Any) -> Any:
            if type(v) is not str:
                return _SLOW
            m = _DATETIME.fullmatch(v)
            if m is None or not low <= v[:19] <= high:
                return _SLOW
            frac = m.group(4)
            if frac is None:
                return v + ("." + "0" * fsp if fsp else "")
            return v if len(frac) == fsp + 1 else _SLOW
        return moment
    if n == "date":
        def date(v: Any) -> Any:
            return v if type(v) is str and _DATE.fullmatch(v) else _SLOW
        return date
    return None


class Outcome:
    """What a batch did: rows written, and the rows INSERT IGNORE skipped as duplicates."""

    __slots__ = ("rowcount", "skipped", "description")

    def __init__(self, rowcount: int, skipped: list[int]) -> None:
        self.rowcount = rowcount
        self.skipped = skipped
        self.description = None


# warnings of rows INSERT IGNORE skipped for another reason than a duplicate: a foreign key
# (fkcheck.py), a CHECK constraint (checks.py)
SKIPPING = (1451, 1452, 4025)


def executemany(s: SqliteSession, plan: Plan, rows: list[dict[str, Any]]) -> Outcome:
    """All rows or none: a savepoint inside a transaction, else a transaction of its own.
    INSERT IGNORE runs row by row, to know which rows it skipped (MariaDB warns of each with
    its value); a failing batch is replayed row by row to name the row that failed, so the
    error is the one-row statement's (1062 with the duplicate value, as MariaDB says it)."""
    h = s.handle
    own = not h.in_transaction
    h.execute("BEGIN" if own else "SAVEPOINT rm_batch")
    try:
        if plan.sql.startswith("INSERT OR IGNORE"):
            outcome = _one_by_one(s, plan.sql, rows)
        else:
            outcome = Outcome(h.executemany(plan.sql, rows).rowcount, [])
    except sqlite3.Error as e:
        _undo(h, own)
        if plan.partial:  # MyISAM & co.: the rows before the failing one stay
            raise _rows_until_failure(s, plan, rows, own) or e from None
        raise _failing_row(s, plan, rows, own) or e from None
    except BaseException:
        _undo(h, own)
        raise
    if own:
        h.execute("COMMIT")
        h.committed()
    else:
        h.execute("RELEASE rm_batch")
    return outcome


def _undo(h: Any, own: bool) -> None:
    if own:
        if h.in_transaction:
            h.execute("ROLLBACK")
        h.rolled_back()
    else:
        h.execute("ROLLBACK TO rm_batch")
        h.execute("RELEASE rm_batch")


def _one_by_one(s: SqliteSession, sql: str, rows: list[dict[str, Any]]) -> Outcome:
    total = 0
    skipped: list[int] = []
    for k, row in enumerate(rows):
        before = len(s.warnings)
        n = s.handle.execute(sql, row).rowcount
        total += n
        if n == 0 and not any(w.code in SKIPPING for w in s.warnings[before:]):
            skipped.append(k)   # a duplicate (a foreign key's or CHECK's skip warned already)
    return Outcome(total, skipped)


def _failing_row(s: SqliteSession, plan: Plan, rows: list[dict[str, Any]],
                 own: bool) -> ServerError | None:
    """The error of the first row that fails on its own (the batch is undone already)."""
    h = s.handle
    h.execute("BEGIN" if own else "SAVEPOINT rm_find")
    try:
        for row in rows:
            try:
                h.execute(plan.sql, row)
            except sqlite3.Error as e:
                return s.sqlite_error(e, plan, row)
        return None
    finally:
        if own:
            if h.in_transaction:
                h.execute("ROLLBACK")
            h.rolled_back()
        else:
            h.execute("ROLLBACK TO rm_find")
            h.execute("RELEASE rm_find")


def _rows_until_failure(s: SqliteSession, plan: Plan, rows: list[dict[str, Any]],
                        own: bool) -> ServerError | None:
    """A table MariaDB cannot roll back: the rows are written one by one up to the first that
    fails, and kept; its error says so (txn.py commits what the statement did)."""
    h = s.handle
    h.execute("BEGIN" if own else "SAVEPOINT rm_part")
    error = None
    for row in rows:
        try:
            h.execute(plan.sql, row)
        except sqlite3.Error as e:
            error = s.sqlite_error(e, plan, row)
            error.keeps_changes = True  # type: ignore[attr-defined]
            break
    if own:
        h.execute("COMMIT")
        h.committed()
    else:
        h.execute("RELEASE rm_part")
    return error


def duplicate_messages(s: SqliteSession, plan: Plan, rows: list[dict[str, Any]],
                       skipped: list[int]) -> dict[int, str]:
    """INSERT IGNORE: the 1062 text of each skipped row, as the plain INSERT of that row
    says it now (probed in a savepoint, undone)."""
    probe = "INSERT" + plan.sql[len("INSERT OR IGNORE"):]
    out: dict[int, str] = {}
    h = s.handle
    for k in skipped:
        message = "Duplicate entry for key"
        h.execute("SAVEPOINT rm_probe")
        try:
            h.execute(probe, rows[k])
        except sqlite3.IntegrityError as e:
            message = s.sqlite_error(e, plan, rows[k]).message
        except sqlite3.Error:
            pass
        finally:
            h.execute("ROLLBACK TO rm_probe")
            h.execute("RELEASE rm_probe")
        out[k] = message
    return out
