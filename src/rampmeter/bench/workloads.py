# The built-in workloads: what each connection of a step does, as plain async functions over the
# bench's own client (wire.py), and how a step's connections are split into roles.
#
# Rules:
# - An event is one unit the step counts (tps) and times (latency): a point select, a sysbench
#   transaction, one SLEEP, one long statement. An event function runs its statements and returns
#   how many it sent (qps). A failed statement raises; a transactional event rolls back first.
# - A role is (class name, number of connections, event function). The first role of a plan is
#   the headline class: its tps and latency fill the step's main columns ("the short ones' p99
#   reported separately", as the issue asks); other classes are reported beside it.
# - Statements are sysbench's own (oltp_common.lua, 1.0.20), sent as text (like
#   --db-ps-mode=disable) on sysbench's tables sbtest1..N, so the built-in point_select and
#   sysbench oltp_point_select measure the same thing. Ids are uniform (sysbench's default
#   --rand-type is "special", a skewed distribution; uniform is simpler to reason about).
# - Every statement is portable: MariaDB, MySQL 8 and rampmeter's SQLite engine. That is why
#   the CPU-heavy statement is a bounded self-join rather than a recursive CTE (MariaDB stops a
#   recursive CTE at max_recursive_iterations = 1000 and MySQL at cte_max_recursion_depth = 1000).

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from rampmeter.bench.wire import Connection, MySQLError

# sysbench oltp_common.lua: 10 point selects and one of each range query of 100 rows.
POINT_SELECTS = 10
RANGE_SIZE = 100
# The CPU-heavy statement of long_short: a self-join over the first LONG_ROWS rows, comparing
# LONG_ROWS^2 pairs; 2000 rows took 0.27 s on MariaDB 10.11 and 0.21 s on SQLite on this 2-core
# box: long enough to hold a worker, short enough to finish within a step.
LONG_ROWS = 2000


@dataclass(frozen=True)
class Settings:
    """Knobs of the built-in workloads (CLI flags of the same names)."""

    tables: int = 4
    table_size: int = 10000
    sleep: float = 0.5            # sleepers: seconds each SLEEP lasts
    sleeper_share: float = 0.5    # sleepers: share of connections sleeping
    long_connections: int = 2     # long_short: connections running the CPU-heavy statement
    long_rows: int = LONG_ROWS    # long_short: size of the self-join
    busy_connections: int = 4     # idle_crowd: connections doing work; the rest stay idle
    hot_rows: int = 8             # transactions: rows every transaction updates from


Event = Callable[[Connection, random.Random, Settings], Awaitable[int]]


@dataclass(frozen=True)
class Role:
    name: str
    count: int
    event: Event | None  # None: the connection is opened and held idle


@dataclass(frozen=True)
class Workload:
    name: str
    summary: str
    plan: Callable[[int, Settings], list[Role]]
    main_class: str


def sb_string(rng: random.Random, groups: int) -> str:
    """sysbench's c / pad values: groups of 11 digits joined by '-'."""
    return "-".join(f"{rng.randrange(10**11):011d}" for _ in range(groups))


def _table(rng: random.Random, s: Settings) -> str:
    return f"sbtest{rng.randint(1, s.tables)}"


async def point_select(conn: Connection, rng: random.Random, s: Settings) -> int:
    await conn.query(f"SELECT c FROM {_table(rng, s)} WHERE id={rng.randint(1, s.table_size)}")
    return 1


async def select1(conn: Connection, rng: random.Random, s: Settings) -> int:
    await conn.query("SELECT 1")
    return 1


async def _reads(conn: Connection, rng: random.Random, s: Settings) -> int:
    query = conn.query
    for _ in range(POINT_SELECTS):
        await query(f"SELECT c FROM {_table(rng, s)} WHERE id={rng.randint(1, s.table_size)}")
    ranges = (
        "SELECT c FROM {t} WHERE id BETWEEN {a} AND {b}",
        "SELECT SUM(k) FROM {t} WHERE id BETWEEN {a} AND {b}",
        "SELECT c FROM {t} WHERE id BETWEEN {a} AND {b} ORDER BY c",
        "SELECT DISTINCT c FROM {t} WHERE id BETWEEN {a} AND {b} ORDER BY c",
    )
    for sql in ranges:
        a = rng.randint(1, max(1, s.table_size - RANGE_SIZE + 1))
        await query(sql.format(t=_table(rng, s), a=a, b=a + RANGE_SIZE - 1))
    return POINT_SELECTS + len(ranges)


async def _writes(conn: Connection, rng: random.Random, s: Settings) -> int:
    query = conn.query
    await query(f"UPDATE {_table(rng, s)} SET k=k+1 WHERE id={rng.randint(1, s.table_size)}")
    await query(f"UPDATE {_table(rng, s)} SET c='{sb_string(rng, 10)}' "
                f"WHERE id={rng.randint(1, s.table_size)}")
    table, row = _table(rng, s), rng.randint(1, s.table_size)
    await query(f"DELETE FROM {table} WHERE id={row}")
    await query(f"INSERT INTO {table} (id, k, c, pad) VALUES ({row}, "
                f"{rng.randint(1, s.table_size)}, '{sb_string(rng, 10)}', '{sb_string(rng, 5)}')")
    return 4


async def _transaction(conn: Connection, body: Callable[[], Awaitable[int]]) -> int:
    await conn.query("BEGIN")
    try:
        n = await body()
        await conn.query("COMMIT")
    except MySQLError:
        if not conn.closed:
            try:
                await conn.query("ROLLBACK")
            except MySQLError:
                pass
        raise
    return n + 2


async def read_only(conn: Connection, rng: random.Random, s: Settings) -> int:
    return await _transaction(conn, lambda: _reads(conn, rng, s))


async def read_write(conn: Connection, rng: random.Random, s: Settings) -> int:
    async def body() -> int:
        return await _reads(conn, rng, s) + await _writes(conn, rng, s)
    return await _transaction(conn, body)


async def sleep(conn: Connection, rng: random.Random, s: Settings) -> int:
    await conn.query(f"SELECT SLEEP({s.sleep:g})")
    return 1


async def long_statement(conn: Connection, rng: random.Random, s: Settings) -> int:
    n = s.long_rows
    await conn.query("SELECT COUNT(*), SUM(a.k + b.k) FROM sbtest1 a, sbtest1 b "
                     f"WHERE a.id <= {n} AND b.id <= {n} AND a.c < b.c")
    return 1


async def contended(conn: Connection, rng: random.Random, s: Settings) -> int:
    """Two updates of hot rows (in id order, so no deadlock cycle) around a point select."""
    hot = sorted(rng.sample(range(1, min(s.hot_rows, s.table_size) + 1), 2)) \
        if s.hot_rows >= 2 else [1, 1]

    async def body() -> int:
        await conn.query(f"UPDATE sbtest1 SET k=k+1 WHERE id={hot[0]}")
        await conn.query(f"SELECT c FROM {_table(rng, s)} WHERE id={rng.randint(1, s.table_size)}")
        await conn.query(f"UPDATE sbtest1 SET k=k+1 WHERE id={hot[1]}")
        return 3
    return await _transaction(conn, body)


def _all(name: str, event: Event) -> Callable[[int, Settings], list[Role]]:
    return lambda c, s: [Role(name, c, event)]


def _sleepers(c: int, s: Settings) -> list[Role]:
    sleeping = min(int(c * s.sleeper_share), c - 1)  # always at least one point-select
    return [Role("select", c - sleeping, point_select), Role("sleep", sleeping, sleep)]


def _long_short(c: int, s: Settings) -> list[Role]:
    long = min(s.long_connections, c // 2)  # at 1 connection: short ones only
    return [Role("short", c - long, point_select), Role("long", long, long_statement)]


def _idle_crowd(c: int, s: Settings) -> list[Role]:
    busy = min(s.busy_connections, c)
    return [Role("select", busy, point_select), Role("idle", c - busy, None)]


WORKLOADS: dict[str, Workload] = {w.name: w for w in (
    Workload("select1", "SELECT 1: no data touched, only the round trip through the server's "
             "connection handling (and the client's own ceiling)", _all("select", select1),
             "select"),
    Workload("point_select", "sysbench's point select, one statement per event",
             _all("select", point_select), "select"),
    Workload("read_only", "sysbench's read-only transaction: 10 point selects, 4 ranges",
             _all("txn", read_only), "txn"),
    Workload("read_write", "sysbench's read/write transaction: read_only + 2 updates, "
             "a delete and an insert", _all("txn", read_write), "txn"),
    Workload("sleepers", "a share of the connections inside SELECT SLEEP(), the others "
             "run point selects (headline: the point selects)", _sleepers, "select"),
    Workload("long_short", "a few connections run a CPU-heavy self-join, the rest point "
             "selects (headline: the short ones)", _long_short, "short"),
    Workload("idle_crowd", "a few busy connections run point selects while the rest sit "
             "idle (headline: the busy ones)", _idle_crowd, "select"),
    Workload("transactions", "BEGIN; UPDATE a hot row; point select; UPDATE another hot row; "
             "COMMIT, contended on a few rows", _all("txn", contended), "txn"),
)}
