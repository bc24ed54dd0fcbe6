"""pool-of-threads through real clients, synchronised on the status tables with deadlines."""

from __future__ import annotations

import resource
import threading
import time

import pymysql
import pytest

from tests.conftest import free_port, wait_until

pytestmark = pytest.mark.timeout(120)

# A statement that keeps SQLite busy (and never reports a wait) for a second or more.
CPU_BOUND = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
             "WHERE x < {n}) SELECT COUNT(*) FROM c")


def _background(conn, sql):
    box: dict[str, object] = {}

    def run():
        try:
            with conn.cursor() as cur:
                box["start"] = time.monotonic()
                cur.execute(sql)
                box["rows"] = cur.fetchall()
        except Exception as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc
        box["end"] = time.monotonic()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t, box


# One group that runs one statement at a time and that the timer never rescues: a long
# CPU-bound statement then holds it, and everything else queues behind it.
ONE_AT_A_TIME = {"thread_pool_size": 1, "thread_pool_oversubscribe": 1,
                 "thread_pool_max_active_query_threads": 1,
                 "thread_pool_dedicated_listener": 1, "thread_pool_stall_limit": 60000}


def _present(admin, cid) -> bool:
    with admin.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = %s", (cid,))
        return cur.fetchone()[0] == 1


def _running(admin, cid):
    with admin.cursor() as cur:
        cur.execute("SELECT COMMAND FROM information_schema.PROCESSLIST WHERE ID = %s", (cid,))
        row = cur.fetchone()
    return row is not None and row[0] != "Sleep"


def test_twenty_sleeps_in_one_group_finish_in_about_a_second(server_factory):
    server = server_factory(thread_pool_size=1, thread_pool_stall_limit=100)
    conns = [server.connect() for _ in range(20)]
    start = time.monotonic()
    jobs = [_background(c, "SELECT SLEEP(1)") for c in conns]
    for t, box in jobs:
        t.join(10)
        assert "error" not in box
    elapsed = time.monotonic() - start
    assert elapsed < 2.5, elapsed
    assert server.query("SELECT COUNT FROM information_schema.THREAD_POOL_WAITS "
                        "WHERE REASON = 'SLEEP'")[0][0] >= 20


def test_second_cpu_bound_statement_starts_about_one_stall_limit_later(server_factory):
    server = server_factory(thread_pool_size=1, thread_pool_stall_limit=200,
                            thread_pool_oversubscribe=3)
    a, b = server.connect(), server.connect()
    n = _calibrate(server, 2.0)
    t1, box1 = _background(a, CPU_BOUND.format(n=n))
    time.sleep(0.05)  # let the first one reach the group first (ordering, not synchronisation)
    t2, box2 = _background(b, CPU_BOUND.format(n=n))
    t1.join(30)
    t2.join(30)
    assert "error" not in box1 and "error" not in box2
    first = box1["end"] - box1["start"]
    # Serialized, b would end ~2 x first after its start; rescued by the stall detector, it
    # starts within about a stall limit or two of a and so ends well before that. The 15 %
    # is for a loaded machine, where "first" itself stretches (8 s seen for a 2 s calibration).
    assert box2["end"] - box2["start"] < first * 1.15 + 0.2 * 3 + 0.5, (first, box2)
    stats = server.query("SELECT SUM(STALLS), SUM(THREAD_CREATIONS_DUE_TO_STALL) "
                         "FROM information_schema.THREAD_POOL_STATS")
    assert stats[0][0] >= 1 or stats[0][1] >= 1


def _calibrate(server, seconds):
    """Pick an iteration count that keeps SQLite busy for about `seconds`."""
    n = 200_000
    while True:
        start = time.monotonic()
        server.query(CPU_BOUND.format(n=n))
        took = time.monotonic() - start
        if took > 0.2:
            return int(n * seconds / took)
        n *= 4


def test_select_1_completes_while_long_statements_run(server_factory):
    server = server_factory(thread_pool_size=1, thread_pool_stall_limit=100)
    n = _calibrate(server, 3.0)
    busy = [server.connect() for _ in range(4)]
    other = server.connect()
    jobs = [_background(c, CPU_BOUND.format(n=n)) for c in busy]
    admin_view = server.connect()
    wait_until(lambda: all(_running(admin_view, c.thread_id()) for c in busy),
               message="the four long statements to run")
    # The group is over its oversubscribe limit (4 active >= 1 + 3): the statement waits for
    # the timer to see the stall (100 ms ticks) and a thread to be created for it.
    start = time.monotonic()
    with other.cursor() as cur:
        cur.execute("SELECT 1")
        assert cur.fetchone() == (1,)
    elapsed = time.monotonic() - start
    # The property is "SELECT 1 did not wait for a long statement to finish": each runs for
    # about 3 s (longer, four at once on this machine's cores), so all are still running.
    # The wall-clock bound is only a loose backstop (a 1 s bound was missed by 2 ms on a
    # loaded machine).
    assert all(t.is_alive() for t, _ in jobs), elapsed
    assert elapsed < 2.5, elapsed
    for t, _ in jobs:
        t.join(60)


def test_two_thousand_idle_connections_few_threads(server_factory):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 8192:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 16384), hard))
    server = server_factory(thread_pool_size=2, max_connections=2100)
    conns = [server.connect() for _ in range(2000)]
    try:
        threads = server.status("Threadpool_threads")
        assert threads < 20, threads
        assert server.status("Threads_connected") >= 2000
        for c in conns:
            with c.cursor() as cur:
                cur.execute("SELECT 1")
                assert cur.fetchone() == (1,)
        assert server.status("Threadpool_threads") < 20
    finally:
        for c in conns:
            c.close()


def test_transaction_statement_overtakes_queued_new_ones(server_factory):
    server = server_factory(thread_pool_size=1, thread_pool_oversubscribe=1,
                            thread_pool_max_active_query_threads=1,
                            thread_pool_dedicated_listener=1,
                            thread_pool_stall_limit=60000, extra_port=free_port())
    server.query("CREATE DATABASE tq")
    server.query("CREATE TABLE tq.t (x INT)")
    admin = server.connect(port=server.extra_port)
    trx = server.connect(database="tq")
    with trx.cursor() as cur:
        cur.execute("START TRANSACTION READ ONLY")
        cur.execute("SELECT COUNT(*) FROM t")
    blocker = server.connect()
    # log everyone in first: with one active thread allowed, a login also waits for the blocker
    others = [server.connect() for _ in range(3)]
    n = _calibrate(server, 60.0)
    bt, bbox = _background(blocker, CPU_BOUND.format(n=n))
    wait_until(lambda: _running(admin, blocker.thread_id()), message="the blocker to run")
    jobs = []
    for c in others:
        jobs.append(_background(c, "SELECT 1"))
        wait_until(lambda c=c: _queued(admin, c.thread_id()), message="a LOW entry")
    tt, tbox = _background(trx, "SELECT COUNT(*) FROM t")
    wait_until(lambda: _queued(admin, trx.thread_id()), message="the transaction's entry")
    with admin.cursor() as cur:
        cur.execute("SELECT CONNECTION_ID, PRIORITY FROM information_schema.THREAD_POOL_QUEUES "
                    "ORDER BY POSITION")
        queue = cur.fetchall()
    # A closing calibration connection's COM_QUIT may also wait: LOW, or HIGH when the
    # listener saw its hang-up with it (a leaving connection, pool/group.py). Only this
    # test's own entries are in question.
    others_ids = {c.thread_id() for c in others}
    ours = [(cid, p) for cid, p in queue if cid in others_ids or cid == trx.thread_id()]
    # queued last, but first in line: HIGH (0) before the three LOW (1) entries
    assert ours == [(trx.thread_id(), 0)] + [(cid, 1) for cid, _ in ours[1:]]
    assert len(ours) == 4
    with admin.cursor() as cur:
        cur.execute(f"KILL QUERY {blocker.thread_id()}")
    tt.join(30)
    for t, _ in jobs:
        t.join(30)
    bt.join(30)
    # The server answers the transaction first; the client threads then race for the GIL to
    # note their end times, so only "not served after the new ones" is robust on the client.
    assert tbox["end"] < max(box["end"] for _, box in jobs)


def _queued(admin, cid):
    with admin.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM information_schema.THREAD_POOL_QUEUES "
                    "WHERE CONNECTION_ID = %s", (cid,))
        return cur.fetchone()[0] > 0


def test_extra_port_admin_kills_when_max_threads_is_reached(server_factory):
    server = server_factory(thread_pool_size=1, thread_pool_max_threads=2, extra_port=free_port(),
                            thread_pool_stall_limit=100)
    sleepers = [server.connect() for _ in range(2)]
    jobs = [_background(c, "SELECT SLEEP(60)") for c in sleepers]
    admin = server.connect(port=server.extra_port)
    wait_until(lambda: all(_running(admin, c.thread_id()) for c in sleepers),
               message="both sleepers running")
    # every pool thread is blocked: a new client cannot even log in
    with pytest.raises(pymysql.err.OperationalError):
        server.connect(connect_timeout=2, read_timeout=2)
    with admin.cursor() as cur:
        for c in sleepers:
            cur.execute(f"KILL QUERY {c.thread_id()}")
    for t, box in jobs:
        t.join(10)
        assert box["error"].args[0] == 1317
    assert server.query("SELECT 1", connect_timeout=5) == ((1,),)


def test_wait_timeout_under_the_pool(server_factory):
    server = server_factory(thread_pool_stall_limit=100)
    conn = server.connect()
    cid = conn.thread_id()
    with conn.cursor() as cur:
        cur.execute("SET wait_timeout = 1")
    wait_until(lambda: not server.query(
        f"SELECT ID FROM information_schema.PROCESSLIST WHERE ID = {cid}"), timeout=10,
        message="the idle connection to be closed")


def test_kill_query_under_the_pool(server_factory):
    server = server_factory(thread_pool_size=1)
    victim = server.connect()
    t, box = _background(victim, "SELECT SLEEP(30)")
    wait_until(lambda: server.query(
        f"SELECT STATE FROM information_schema.PROCESSLIST WHERE ID = {victim.thread_id()}")
        == (("User sleep",),), message="the sleep")
    start = time.monotonic()
    server.query(f"KILL QUERY {victim.thread_id()}")
    t.join(5)
    assert time.monotonic() - start < 2
    assert box["error"].args[0] == 1317


def test_status_variables_and_tables(server_factory):
    server = server_factory(thread_pool_size=3)
    conn = server.connect()
    with conn.cursor() as cur:
        cur.execute("SHOW GLOBAL VARIABLES LIKE 'thread_pool%'")
        names = {r[0] for r in cur.fetchall()}
        assert {"thread_pool_size", "thread_pool_stall_limit", "thread_pool_oversubscribe",
                "thread_pool_max_threads", "thread_pool_idle_timeout",
                "thread_pool_prio_kickup_timer", "thread_pool_priority",
                "thread_pool_dedicated_listener", "thread_pool_exact_stats"} <= names
        cur.execute("SELECT @@thread_handling")
        assert cur.fetchone() == ("pool-of-threads",)
        cur.execute("SHOW GLOBAL STATUS LIKE 'Threadpool%'")
        status = dict(cur.fetchall())
        assert int(status["Threadpool_threads"]) >= 1
        assert "Threadpool_idle_threads" in status
        cur.execute("SELECT * FROM information_schema.THREAD_POOL_GROUPS")
        assert [d[0] for d in cur.description] == [
            "GROUP_ID", "CONNECTIONS", "THREADS", "ACTIVE_THREADS", "STANDBY_THREADS",
            "QUEUE_LENGTH", "HAS_LISTENER", "IS_STALLED"]
        assert len(cur.fetchall()) == 3
        cur.execute("SELECT * FROM information_schema.THREAD_POOL_STATS")
        assert [d[0] for d in cur.description][:3] == ["GROUP_ID", "THREAD_CREATIONS",
                                                      "THREAD_CREATIONS_DUE_TO_STALL"]
        cur.execute("SELECT * FROM information_schema.THREAD_POOL_QUEUES")
        assert [d[0] for d in cur.description] == [
            "GROUP_ID", "POSITION", "PRIORITY", "CONNECTION_ID", "QUEUEING_TIME_MICROSECONDS"]
        cur.execute("FLUSH THREAD_POOL_STATS")
        cur.execute("SELECT SUM(DEQUEUES_BY_LISTENER + DEQUEUES_BY_WORKER) "
                    "FROM information_schema.THREAD_POOL_STATS")
        assert int(cur.fetchone()[0]) <= 1  # only this statement's own dequeue
        cur.execute("SET GLOBAL thread_pool_oversubscribe = 100000")
        cur.execute("SHOW WARNINGS")
        assert cur.fetchall()[0][1] == 1292
        cur.execute("SELECT @@global.thread_pool_oversubscribe")
        assert cur.fetchone() == (65536,)
        cur.execute("SET GLOBAL thread_pool_size = 4")
        cur.execute("SELECT COUNT(*) FROM information_schema.THREAD_POOL_GROUPS")
        assert cur.fetchone() == (4,)
    conn.close()


def test_resize_moves_connections_to_their_new_group(server_factory):
    server = server_factory(thread_pool_size=1)
    conns = [server.connect() for _ in range(8)]
    server.query("SET GLOBAL thread_pool_size = 4")
    for c in conns:  # each moves at its next command
        with c.cursor() as cur:
            cur.execute("SELECT 1")
    rows = dict(server.query("SELECT GROUP_ID, CONNECTIONS FROM "
                             "information_schema.THREAD_POOL_GROUPS"))
    assert sum(1 for v in rows.values() if v > 0) >= 3
    for c in conns:
        with c.cursor() as cur:
            cur.execute("SELECT 2")
            assert cur.fetchone() == (2,)
