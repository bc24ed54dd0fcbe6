"""Results streamed from SQLite's cursor to the client as the engine produces them.

Rules:
- A query's first PREFIX rows are read at once: a result that fits is handled whole, as before
  (column types that the plan does not know are guessed from all its values). A longer one
  keeps its cursor open, and the rest of its rows are read while the session writes them: the
  network layer flushes every 256 KiB and blocks on a slow reader (a NET wait, bounded by
  net_write_timeout), so a result the client never reads costs a bounded buffer, not the whole
  result in memory (it was held whole: RSS grew by 1.2 times the result).
- Column types the plan does not know are then guessed from the first PREFIX rows; MariaDB
  knows them before the first row too, so a column never changes type mid-result.
- Not streamed: SELECT ... FOR UPDATE inside a transaction (its write-lock guard ends with the
  statement), information_schema reads (their temporary tables are the statement's).
- While the tail is read, an SQLite error (a KILL's interrupt, a function's error) becomes the
  MySQL error as it would have before the first row; the session writes it after the rows sent
  (an ERR packet in place of the next row, as mysqld does). FOUND_ROWS() and the warnings of the
  tail are known when the last row is read; the cursor is closed when the rows are done with,
  read to the end or not.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from rampmeter.engine.base import ResultSet
from rampmeter.engine.sqlite import timefns, uservars

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession
    from rampmeter.engine.sqlite.translate import Plan

PREFIX = 1000          # rows read before a result is streamed
_BATCH = 256           # rows per fetchmany while streaming (the session writes 256 per packet)


def rows(s: SqliteSession, plan: Plan, bound: dict[str, Any], cur: sqlite3.Cursor,
         result: ResultSet, first: list[Any], load: Callable[[Any], Any] | None
         ) -> Iterator[Any]:
    """The `first` rows already read, then the rest as they are consumed."""
    first_warning = len(s.warnings)
    count = len(first)
    try:
        yield from first
        while True:
            try:
                batch = cur.fetchmany(_BATCH)
            except sqlite3.Error as e:
                raise s.sqlite_error(e, plan, bound) from None
            if not batch:
                break
            count += len(batch)
            if load is None:
                yield from batch
            else:
                yield from map(load, batch)
        s.stats.found_rows = count
        if len(s.warnings) > first_warning:
            result.warnings.extend(s.warnings[first_warning:])
    finally:
        cur.close()


def loader(s: SqliteSession, plan: Plan, width: int) -> Callable[[Any], Any] | None:
    """What dml._query and dml.result_set do to each row (the time zone shift of TIMESTAMP
    outputs, then each output's load), for the rows read after the first PREFIX."""
    outputs = plan.outputs
    loads = [(i, o.load) for i, o in enumerate(outputs) if o is not None and o.load is not None] \
        if outputs is not None and len(outputs) == width else []
    if outputs is not None and len(outputs) == width:  # SELECT @v of a DECIMAL (uservars.py)
        for i, o in enumerate(outputs):
            if o is not None and o.uservar is not None:
                held = uservars.loader(s.context.user_variable(o.uservar))
                if held is not None:
                    loads.append((i, held))
    load = apply(loads) if loads else None
    if not plan.tz_outputs:
        return load
    zone = s.time_zone()

    def shifted(r: Any) -> Any:
        row = list(r)
        for i in plan.tz_outputs:
            row[i] = timefns.shift(row[i], zone, to_utc=False)
        return load(row) if load is not None else row
    return shifted


def apply(loads: list[tuple[int, Callable[[Any], Any]]]) -> Callable[[Any], Any]:
    """One row through each (column index, load) of `loads`."""
    def load(r: Any) -> list[Any]:
        row = list(r)
        for i, fn in loads:
            row[i] = fn(row[i])
        return row
    return load
