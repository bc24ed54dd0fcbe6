"""MariaDB's Sort_* and Handler_read_{first,last,next,prev,key} counters for a SELECT that
orders its rows (ORDER BY, a window's ORDER BY / PARTITION BY).

Rules:
- Only statements that order rows are looked at, once per cached plan (the SQLite plan is
  read then, and the answer kept with the plan); every other query pays one attribute test.
- A temporary b-tree SQLite builds for the outer ORDER BY is a MariaDB filesort, and so is
  each window specification that orders or partitions (MariaDB sorts for it even where
  SQLite reads an index instead): Sort_range when the table is read by a range (SEARCH
  with a bound), Sort_scan otherwise (MariaDB's filesort counts Sort_range only for a quick
  range select).
- A filesort of the outer ORDER BY with a LIMIT whose rows (offset + limit) fit in
  sort_buffer_size is MariaDB's priority queue (Sort_priority_queue_sorts), sorting only
  those rows (Sort_rows); otherwise every row it reads is sorted (Sort_rows), and rows that
  do not fit in sort_buffer_size are written in chunks merged MERGEBUFF (7) at a time
  (Sort_merge_passes, MariaDB's merge_many_buff then the final merge_buffers). The record
  of one row is estimated from the ORDER BY keys (catalog lengths) plus the row reference
  and the buffer's pointer, as filesort's sort_length + ref_length + sizeof(char*).
- One table read in the index's order (no sort): Handler_read_first (Handler_read_last for
  DESC) and Handler_read_next (_prev) per further row, or Handler_read_key for a range and
  then _next per row; a read that meets the end of the index / range counts too, as in
  MariaDB's handler (so LIMIT n stopping early reads n - 1 more, a read to the end n).
- Row counts are those the client is sent (the first stream.PREFIX of a streamed result):
  what the plan reads but filters out is not seen here, so Handler_read_rnd_next & co. are
  not counted (they stay 0).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlglot import exp

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession
    from rampmeter.engine.sqlite.translate import Plan
    from rampmeter.sql.statement import Statement

_ORDERS = re.compile(r"\border\s+by\b|\bpartition\s+by\b", re.IGNORECASE)
_LIMIT = re.compile(r"\blimit\s+(\d+)(?:\s*,\s*(\d+)|\s+offset\s+(\d+))?\s*;?\s*$",
                    re.IGNORECASE)
_ACCESS = re.compile(r"^(SCAN|SEARCH) (\S+)(?: USING (?:COVERING )?INDEX (\S+))?(?: \((.*)\))?")
_MERGEBUFF = 7      # MariaDB's MERGEBUFF / MERGEBUFF2 (sql/filesort.h)
_MERGEBUFF2 = 15
_REF = 6            # MyISAM's row reference (the default storage's ref_length)
_POINTER = 8        # the sort buffer's pointer to each record


@dataclass(slots=True)
class Sorting:
    windows: int             # window specifications sorted: a filesort each
    ranged: bool             # the sorted table is read by a range (Sort_range)
    outer: bool              # the outer ORDER BY is a filesort (with LIMIT a priority queue)
    record: int              # estimated bytes of a row in the sort buffer
    index_order: str = ""    # "first" / "last" / "key" / "key_desc": read in index order


def analyse(s: SqliteSession, stmt: Statement, plan: Plan, bound: dict[str, Any]
            ) -> Sorting | None:
    if not _ORDERS.search(stmt.shape):
        return None
    from rampmeter.engine.sqlite import explain
    tree = explain._tree(stmt)
    if not isinstance(tree, exp.Select):
        return None
    try:
        found = s.handle.execute(f"EXPLAIN QUERY PLAN /*{s.engine.schema_version}*/ "
                                 f"{plan.explain_sql or plan.sql}", bound).fetchall()
    except Exception:  # noqa: BLE001 - the query itself ran: no counters rather than an error
        return None
    order = tree.args.get("order")
    accesses = [m for m in map(_ACCESS.match, (str(d) for _n, _p, _u, d in found)) if m]
    ranged = any(m.group(1) == "SEARCH" and m.group(4) and any(op in m.group(4)
                 for op in ("<", ">")) for m in accesses)
    trees = [p for _n, p, _u, d in found
             if str(d).startswith("USE TEMP B-TREE FOR") and "ORDER BY" in str(d)]
    # MariaDB sorts each window specification that orders or partitions with a filesort of
    # its own, whatever index there is; SQLite may read such an index instead
    specs = {(repr(w.args.get("partition_by")), repr(w.args.get("order")))
             for w in tree.find_all(exp.Window)
             if w.args.get("partition_by") or w.args.get("order")}
    outer = bool(order) and (0 in trees if specs else bool(trees))
    keys = order.expressions if order else []
    if not keys:
        for w in tree.find_all(exp.Window):
            inner = w.args.get("order")
            keys = list(w.args.get("partition_by") or []) + (inner.expressions if inner else [])
            break
    record = _record(s, tree, keys)
    index_order = ""
    if order and not trees and not specs and len(accesses) == 1 and accesses[0].group(3) and \
            len(list(tree.find_all(exp.Table))) == 1:
        desc = bool(keys) and isinstance(keys[0], exp.Ordered) and bool(keys[0].args.get("desc"))
        if accesses[0].group(1) == "SCAN":
            index_order = "last" if desc else "first"
        else:
            index_order = "key_desc" if desc else "key"
    if not specs and not outer and not index_order:
        return None
    return Sorting(len(specs), ranged, outer, record, index_order)


def _record(s: SqliteSession, tree: exp.Select, keys: Sequence[exp.Expression]) -> int:
    from rampmeter.engine.sqlite.explain import part_length
    tables = [t for t in tree.find_all(exp.Table) if t.name]
    tdefs = []
    for t in tables:
        try:
            tdef = s.table_def(t.db or s.database or "", t.name)
        except Exception:  # noqa: BLE001 - an unknown table was SQLite's error already
            tdef = None
        if tdef is not None:
            tdefs.append(tdef)
    total = _REF + _POINTER
    for key in keys:
        node = key.this if isinstance(key, exp.Ordered) else key
        length = 8
        if isinstance(node, exp.Column):
            for tdef in tdefs:
                c = tdef.column(node.name)
                if c is not None:
                    length = part_length(c) + (1 if c.nullable else 0)
                    break
        total += length
    return total


def count(s: SqliteSession, stmt: Statement, sorting: Sorting, rows: int) -> None:
    counters = getattr(s.context, "counters", None)
    if counters is None:
        return
    limit, offset = _limit(stmt.text)
    if sorting.index_order:
        _index_reads(counters, sorting.index_order, rows, limit)
        return
    buffer = _sort_buffer(s)
    kind = "Sort_range" if sorting.ranged else "Sort_scan"
    for _k in range(sorting.windows):  # every row, before a LIMIT applies
        counters[kind] += 1
        counters["Sort_rows"] += rows
        counters["Sort_merge_passes"] += _merge_passes(rows, sorting.record, buffer)
    if not sorting.outer:
        return
    counters[kind] += 1
    if limit is not None and (limit + offset + 1) * sorting.record <= buffer:
        counters["Sort_priority_queue_sorts"] += 1
        counters["Sort_rows"] += rows + offset if rows else 0
        return
    sorted_rows = rows + offset if limit is not None and rows == limit else rows
    counters["Sort_rows"] += sorted_rows
    counters["Sort_merge_passes"] += _merge_passes(sorted_rows, sorting.record, buffer)


def _index_reads(counters: Any, how: str, rows: int, limit: int | None) -> None:
    more = rows - 1 if limit is not None and rows == limit and rows else rows
    if how == "first":
        counters["Handler_read_first"] += 1
        counters["Handler_read_next"] += more
    elif how == "last":
        counters["Handler_read_last"] += 1
        counters["Handler_read_prev"] += more
    else:
        counters["Handler_read_key"] += 1
        counters["Handler_read_prev" if how == "key_desc" else "Handler_read_next"] += more


def _merge_passes(rows: int, record: int, buffer: int) -> int:
    per_chunk = max(1, buffer // max(record, 1))
    chunks = math.ceil(rows / per_chunk) if rows else 0
    if chunks <= 1:
        return 0
    passes = 0
    while chunks > _MERGEBUFF2:  # one merge_buffers per MERGEBUFF chunks, then again
        chunks = math.ceil(chunks / _MERGEBUFF)
        passes += chunks
    return passes + 1  # the final merge


def _limit(text: str) -> tuple[int | None, int]:
    m = _LIMIT.search(text)
    if m is None:
        return None, 0
    if m.group(2) is not None:  # LIMIT offset, count
        return int(m.group(2)), int(m.group(1))
    return int(m.group(1)), int(m.group(3) or 0)


def _sort_buffer(s: SqliteSession) -> int:
    try:
        return int(s.context.system_variable("sort_buffer_size"))
    except Exception:  # noqa: BLE001 - a context without variables: MariaDB's default
        return 2097152
