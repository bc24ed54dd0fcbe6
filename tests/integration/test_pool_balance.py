"""Issue 12 item 2 through real clients: thread_pool_group_assignment = modulo | load. Two long
statements that `id % size` put in one group are split by load balancing at a command
boundary, and stay split; under `modulo` nothing moves; a new connection avoids a hot group.
Watched through performance_schema.tp_connections and SHOW THREADPOOL STATUS, with deadlines."""

from __future__ import annotations

import threading
import time

import pymysql
import pytest

from tests.conftest import free_port, wait_until
from tests.integration.test_pool import CPU_BOUND, _calibrate

pytestmark = pytest.mark.timeout(120)


def _group_of(admin, cid: int) -> int | None:
    with admin.cursor() as cur:
        cur.execute("SELECT TP_GROUP_ID FROM performance_schema.tp_connections "
                    "WHERE CONNECTION_ID = %s", (cid,))
        row = cur.fetchone()
    return None if row is None else int(row[0])


def _moved(admin) -> tuple[int, int, int]:
    with admin.cursor() as cur:
        cur.execute("SHOW THREADPOOL STATUS")
        names = [d[0] for d in cur.description]
        rows = cur.fetchall()
        cur.execute("SHOW GLOBAL STATUS LIKE 'Thread_pool_connections_moved'")
        total = int(cur.fetchone()[1])
    moved_in = sum(r[names.index("connections_moved_in")] for r in rows)
    moved_out = sum(r[names.index("connections_moved_out")] for r in rows)
    return moved_in, moved_out, total


def _moved_out_of(admin, group: int) -> int:
    with admin.cursor() as cur:
        cur.execute("SHOW THREADPOOL STATUS")
        names = [d[0] for d in cur.description]
        rows = cur.fetchall()
    row = next(r for r in rows if r[names.index("groupid")] == group)
    return int(row[names.index("connections_moved_out")])


def _same_group(server, admin, n: int, group: int = 0) -> list:
    """n connections that `id % 2` puts in `group` (the others are closed)."""
    picked, spare = [], []
    while len(picked) < n:
        c = server.connect()
        (picked if c.thread_id() % 2 == group else spare).append(c)
    for c in spare:
        c.close()
    return picked


class Looper:
    """Runs one statement over and over on a connection until stopped (bounded in time)."""

    def __init__(self, conn, sql: str, *, begin: bool = False, limit_s: float = 60.0) -> None:
        self.conn, self.sql, self.begin = conn, sql, begin
        self.stop = threading.Event()
        self.errors: list[Exception] = []
        self.runs = 0
        self.deadline = time.monotonic() + limit_s
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            with self.conn.cursor() as cur:
                if self.begin:
                    cur.execute("BEGIN")
                while not self.stop.is_set() and time.monotonic() < self.deadline:
                    cur.execute(self.sql)
                    cur.fetchall()
                    self.runs += 1
                if self.begin:
                    cur.execute("COMMIT")
        except Exception as exc:  # noqa: BLE001 - handed to the test
            self.errors.append(exc)

    def join(self) -> None:
        self.stop.set()
        self.thread.join(30)
        assert not self.thread.is_alive()
        assert self.errors == []


@pytest.fixture
def pool2(server_factory):
    server = server_factory(thread_pool_size=2, thread_pool_stall_limit=100,
                            extra_port=free_port())
    admin = server.connect(port=server.extra_port)
    return server, admin


def test_load_balancing_splits_two_long_statements_of_one_group(pool2):
    server, admin = pool2
    long_sql = CPU_BOUND.format(n=_calibrate(server, 0.3))
    longs = _same_group(server, admin, 2)
    assert [_group_of(admin, c.thread_id()) for c in longs] == [0, 0]
    loops = [Looper(c, long_sql) for c in longs]
    with admin.cursor() as cur:
        cur.execute("SET GLOBAL thread_pool_group_assignment = 'load'")
    wait_until(lambda: {_group_of(admin, c.thread_id()) for c in longs} == {0, 1}, timeout=20,
               message="one long statement's connection moved to group 1")
    moved_in, moved_out, total = _moved(admin)
    assert moved_in == moved_out == total >= 1
    # and they stay split: balanced groups plan no move, so nothing moves any more
    wait_until(lambda: all(lp.runs >= 3 for lp in loops), timeout=20, message="more runs")
    before = [_group_of(admin, c.thread_id()) for c in longs]
    runs = [lp.runs for lp in loops]
    wait_until(lambda: all(lp.runs >= r + 3 for lp, r in zip(loops, runs)), timeout=20,
               message="three more runs each")
    assert [_group_of(admin, c.thread_id()) for c in longs] == before
    assert _moved(admin)[2] == total
    for lp in loops:
        lp.join()
    for c in longs:  # a moved connection still works, in its new group
        with c.cursor() as cur:
            cur.execute("SELECT CONNECTION_ID()")
            assert cur.fetchone() == (c.thread_id(),)


def test_modulo_never_moves_a_connection(pool2):
    server, admin = pool2
    long_sql = CPU_BOUND.format(n=_calibrate(server, 0.2))
    longs = _same_group(server, admin, 2)
    loops = [Looper(c, long_sql) for c in longs]
    wait_until(lambda: all(lp.runs >= 5 for lp in loops), timeout=30, message="five runs each")
    for lp in loops:
        lp.join()
    assert [_group_of(admin, c.thread_id()) for c in longs] == [0, 0]
    assert _moved(admin) == (0, 0, 0)


def test_new_connections_avoid_a_hot_group_and_transactions_never_move(pool2):
    server, admin = pool2
    long_sql = CPU_BOUND.format(n=_calibrate(server, 0.3))
    # Three long statements inside open transactions in group 0: hot, and never moved (a
    # connection in a transaction keeps its group).
    busy = _same_group(server, admin, 3)
    loops = [Looper(c, long_sql, begin=True) for c in busy]
    with admin.cursor() as cur:
        cur.execute("SET GLOBAL thread_pool_group_assignment = 'load'")
    wait_until(lambda: all(lp.runs >= 1 for lp in loops), timeout=20, message="a run each")
    new = [server.connect() for _ in range(4)]
    # modulo would put two of the four in group 0; load puts them all in the cool group 1
    assert [_group_of(admin, c.thread_id()) for c in new] == [1, 1, 1, 1]
    # From here group 0 holds only the transactions. A newcomer may have been assigned there
    # before a tick sampled the load and have moved out at its first command boundary
    # (PyMySQL's connect sends commands): the policy working, so the count starts now.
    left_before = _moved_out_of(admin, 0)
    runs = [lp.runs for lp in loops]
    wait_until(lambda: all(lp.runs >= r + 2 for lp, r in zip(loops, runs)), timeout=20,
               message="two more runs each, every one at a command boundary")
    assert [_group_of(admin, c.thread_id()) for c in busy] == [0, 0, 0]
    # and none left meanwhile (a 0 -> 1 -> 0 round trip would hide from the check above)
    assert _moved_out_of(admin, 0) == left_before
    for lp in loops:
        lp.join()  # (after COMMIT they may move: they are idle connections like any other)


def test_back_to_modulo_returns_connections_home_and_the_variable_is_checked(pool2):
    server, admin = pool2
    long_sql = CPU_BOUND.format(n=_calibrate(server, 0.3))
    longs = _same_group(server, admin, 2)
    loops = [Looper(c, long_sql) for c in longs]
    with admin.cursor() as cur:
        cur.execute("SET GLOBAL thread_pool_group_assignment = 'load'")
    wait_until(lambda: {_group_of(admin, c.thread_id()) for c in longs} == {0, 1}, timeout=20,
               message="a move")
    with admin.cursor() as cur:
        cur.execute("SET GLOBAL thread_pool_group_assignment = 'modulo'")
    wait_until(lambda: [_group_of(admin, c.thread_id()) for c in longs] == [0, 0], timeout=20,
               message="both back in id % 2")
    for lp in loops:
        lp.join()
    with admin.cursor() as cur:
        cur.execute("SELECT @@global.thread_pool_group_assignment")
        assert cur.fetchone() == ("modulo",)
        with pytest.raises(pymysql.err.OperationalError) as info:
            cur.execute("SET GLOBAL thread_pool_group_assignment = 'random'")
        assert info.value.args[0] == 1231
        with pytest.raises(pymysql.err.OperationalError) as info:
            cur.execute("SET SESSION thread_pool_group_assignment = 'load'")
        assert info.value.args[0] == 1229
