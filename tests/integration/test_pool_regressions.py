"""Issue 12 item 6: the known bugs of the reference pools (reference/threadpool.md §4) as
regression tests with real threads, real sockets and real clients against a real server. Each
test names the bug and the rampmeter code that prevents it; the report of the change that
added this file says how each was seen to fail with that code reverted.

Synchronised on the status tables with deadlines, never on bare sleeps; administrators come in
through extra_port (one thread per connection) so they can look and clean up when the pool is
stuck."""

from __future__ import annotations

import threading
import time

import pymysql
import pytest

from tests.conftest import free_port, wait_until
from tests.integration.test_pool import _background, _queued

pytestmark = pytest.mark.timeout(120)


def _count(admin, sql: str) -> int:
    with admin.cursor() as cur:
        cur.execute(sql)
        return int(cur.fetchone()[0])


def _state_count(admin, state: str) -> int:
    return _count(admin, "SELECT COUNT(*) FROM information_schema.PROCESSLIST "
                         f"WHERE STATE = '{state}'")


def _kill_all(admin, conns) -> None:
    """Clean-up when a test failed with the pool stuck: kill what the test started."""
    with admin.cursor() as cur:
        for c in conns:
            try:
                cur.execute(f"KILL {c.thread_id()}")
            except pymysql.err.MySQLError:
                pass


# --- Percona lp#1619559: lock holders at LOW behind a saturated group --------------------------

# (how the holder takes the lock, how it gives it back, what the others run, their wait state)
LOCK_KINDS = {
    "lock_tables": ("LOCK TABLES t WRITE", "UNLOCK TABLES", "INSERT INTO t VALUES (1)",
                    "Waiting for table metadata lock"),
    "get_lock": ("SELECT GET_LOCK('lp1619559', 0)", "SELECT RELEASE_LOCK('lp1619559')",
                 "SELECT GET_LOCK('lp1619559', 60)", "User lock"),
    "ftwrl": ("FLUSH TABLES WITH READ LOCK", "UNLOCK TABLES", "INSERT INTO t VALUES (1)",
              "Waiting for backup lock"),
}


@pytest.mark.parametrize("kind", sorted(LOCK_KINDS))
def test_lp1619559_a_lock_holder_passes_a_frozen_low_queue(server_factory, kind):
    """Two sessions wait for the holder's lock; with oversubscribe 1 that freezes LOW (active +
    lock-waiting > 2) and a kick-up timer of a minute keeps it frozen. The holder is not in a
    transaction, so only the lock rule (sched/priority.py: holds_locks -> HIGH) lets its
    unlock through. Without it the unlock waits in LOW for the kick-up: a minute."""
    take, give, wait_sql, wait_state = LOCK_KINDS[kind]
    server = server_factory(thread_pool_size=1, thread_pool_oversubscribe=1,
                            thread_pool_prio_kickup_timer=60000, thread_pool_stall_limit=100,
                            thread_pool_dedicated_listener=1, extra_port=free_port())
    server.query("CREATE DATABASE lk")
    server.query("CREATE TABLE lk.t (x INT)")
    admin = server.connect(port=server.extra_port)
    holder = server.connect(database="lk")
    waiters = [server.connect(database="lk") for _ in range(2)]
    reader = server.connect(database="lk")
    with holder.cursor() as cur:
        cur.execute(take)
    jobs = [_background(w, wait_sql) for w in waiters]
    try:
        wait_until(lambda: _state_count(admin, wait_state) == 2, timeout=10,
                   message="two sessions waiting for the holder's lock")
        rt, rbox = _background(reader, "SELECT 'low'")  # autocommit: LOW, and frozen
        wait_until(lambda: _queued(admin, reader.thread_id()), message="a frozen LOW entry")
        start = time.monotonic()
        with holder.cursor() as cur:
            cur.execute(give)  # HIGH: passes the freeze
        assert time.monotonic() - start < 5
        for t, box in [*jobs, (rt, rbox)]:
            t.join(20)
            assert "error" not in box, box
        assert rbox["rows"] == (("low",),)
    finally:
        _kill_all(admin, [holder, *waiters, reader])


def test_the_write_lock_holder_passes_a_frozen_low_queue_even_when_forced_low(server_factory):
    """sched/priority.py rule 3: the session holding the engine's one write lock is HIGH, at
    the head of the queue, whatever its thread_pool_priority. Here it forces `low`: its
    transaction's COMMIT would otherwise queue in LOW, frozen behind two writers that wait
    for its lock (active + lock-waiting > 1 + oversubscribe), until the kick-up timer (a
    minute) moved it."""
    server = server_factory(thread_pool_size=1, thread_pool_oversubscribe=1,
                            thread_pool_prio_kickup_timer=60000, thread_pool_stall_limit=100,
                            thread_pool_dedicated_listener=1, extra_port=free_port())
    server.query("CREATE DATABASE wl")
    server.query("CREATE TABLE wl.t (x INT)")
    admin = server.connect(port=server.extra_port)
    holder = server.connect(database="wl")
    writers = [server.connect(database="wl") for _ in range(2)]
    reader = server.connect(database="wl")
    with holder.cursor() as cur:
        cur.execute("SET SESSION thread_pool_priority = 'low'")
        cur.execute("BEGIN")
        cur.execute("INSERT INTO t VALUES (0)")  # takes the write lock
    jobs = [_background(w, f"INSERT INTO t VALUES ({i + 1})") for i, w in enumerate(writers)]
    try:
        wait_until(lambda: _state_count(admin, "Waiting for table level lock") == 2,
                   timeout=10, message="two writers waiting for the holder's write lock")
        rt, rbox = _background(reader, "SELECT 'low'")  # autocommit: LOW, and frozen
        wait_until(lambda: _queued(admin, reader.thread_id()), message="a frozen LOW entry")
        start = time.monotonic()
        with holder.cursor() as cur:
            cur.execute("COMMIT")
        assert time.monotonic() - start < 5
        for t, box in [*jobs, (rt, rbox)]:
            t.join(20)
            assert "error" not in box, box
        assert _count(admin, "SELECT COUNT(*) FROM wl.t") == 3
    finally:
        _kill_all(admin, [holder, *writers, reader])


# --- MDEV-33070: KILL during a wait, at the oversubscribe threshold -----------------------------

def test_mdev33070_the_killed_waiters_thread_runs_the_queued_statement(server_factory):
    """MariaDB's case: 1 group, a dedicated listener, oversubscribe 1, max threads 3. Two
    sessions wait (here for a user lock, so the waits count toward Percona's LOW freeze) and
    take the group's two workers; an INSERT queues behind them. KILL QUERY one waiter: its
    thread comes back and must dequeue the INSERT instead of sleeping. The freeze test is
    Percona's `active + lock-waiting > 1 + oversubscribe` (sched/policy.py); TXSQL's `>=`
    would see 1 + 1 >= 2 and starve the INSERT for good (the stall timer never fires: the
    frozen LOW queue counts as empty)."""
    server = server_factory(thread_pool_size=1, thread_pool_oversubscribe=1,
                            thread_pool_dedicated_listener=1, thread_pool_max_threads=3,
                            thread_pool_stall_limit=100, thread_pool_prio_kickup_timer=60000,
                            extra_port=free_port())
    server.query("CREATE DATABASE mk")
    server.query("CREATE TABLE mk.t (x INT)")
    admin = server.connect(port=server.extra_port)
    holder = server.connect()
    with holder.cursor() as cur:
        cur.execute("SELECT GET_LOCK('mdev33070', 0)")
    waiters = [server.connect() for _ in range(2)]
    inserter = server.connect(database="mk")
    jobs = [_background(w, "SELECT GET_LOCK('mdev33070', 60)") for w in waiters]
    try:
        wait_until(lambda: _state_count(admin, "User lock") == 2, message="two waiters")
        it, ibox = _background(inserter, "INSERT INTO t VALUES (1)")
        wait_until(lambda: _queued(admin, inserter.thread_id()), message="the queued INSERT")
        with admin.cursor() as cur:
            cur.execute(f"KILL QUERY {waiters[0].thread_id()}")
        jobs[0][0].join(10)
        assert jobs[0][1]["error"].args[0] == 1317
        it.join(5)
        assert "end" in ibox and "error" not in ibox, ibox  # ran; the other still waits
        assert _count(admin, "SELECT COUNT(*) FROM mk.t") == 1
        with holder.cursor() as cur:
            cur.execute("SELECT RELEASE_LOCK('mdev33070')")
        jobs[1][0].join(10)
        assert jobs[1][1].get("rows") == ((1,),)
    finally:
        _kill_all(admin, [holder, *waiters, inserter])


def test_mdev33070_kill_of_a_sleep_frees_its_thread_for_the_queue(server_factory):
    """The same shape with SLEEP (not a lock wait: no freeze involved): the killed sleeper's
    thread must dequeue the waiting INSERT at once, not go to sleep."""
    server = server_factory(thread_pool_size=1, thread_pool_oversubscribe=1,
                            thread_pool_dedicated_listener=1, thread_pool_max_threads=3,
                            thread_pool_stall_limit=100, extra_port=free_port())
    server.query("CREATE DATABASE ms")
    server.query("CREATE TABLE ms.t (x INT)")
    admin = server.connect(port=server.extra_port)
    sleepers = [server.connect() for _ in range(2)]
    inserter = server.connect(database="ms")
    jobs = [_background(s, "SELECT SLEEP(60)") for s in sleepers]
    try:
        wait_until(lambda: _state_count(admin, "User sleep") == 2, message="two sleepers")
        it, ibox = _background(inserter, "INSERT INTO t VALUES (1)")
        wait_until(lambda: _queued(admin, inserter.thread_id()), message="the queued INSERT")
        with admin.cursor() as cur:
            cur.execute(f"KILL QUERY {sleepers[0].thread_id()}")
        it.join(5)
        assert "end" in ibox and "error" not in ibox, ibox
    finally:
        _kill_all(admin, [*sleepers, inserter])
    for t, _ in jobs:
        t.join(10)


# --- PS-1095: wait_timeout with a stall limit above 2.1 s, under load ----------------------------

def test_ps1095_idle_connections_time_out_with_a_long_stall_limit_under_load(server_factory):
    """Percona computed `tick_interval * 1000000` in 32 bits: with thread_pool_stall_limit
    above ~2.1 s the product overflowed and idle connections were never timed out. rampmeter
    keeps times as float seconds (sched/clock.py, policy.idle_deadline). Here the stall limit
    is 3 s while other clients keep the group busy; an idle session with wait_timeout = 1 is
    closed at the first tick after its deadline, and a busy one is not."""
    server = server_factory(thread_pool_size=1, thread_pool_stall_limit=3000,
                            extra_port=free_port())
    admin = server.connect(port=server.extra_port)
    busy = [server.connect() for _ in range(4)]
    stop = threading.Event()
    errors: list[BaseException] = []

    def load(conn) -> None:
        try:
            with conn.cursor() as cur:
                cur.execute("SET SESSION wait_timeout = 1")  # busy: never idle for 1 s
                while not stop.is_set():
                    cur.execute("SELECT SLEEP(0.05)")
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    threads = [threading.Thread(target=load, args=(c,), daemon=True) for c in busy]
    for t in threads:
        t.start()
    idle = server.connect()
    with idle.cursor() as cur:
        cur.execute("SET SESSION wait_timeout = 1")
    cid = idle.thread_id()
    start = time.monotonic()
    try:
        wait_until(lambda: _count(admin, "SELECT COUNT(*) FROM information_schema.PROCESSLIST "
                                         f"WHERE ID = {cid}") == 0,
                   timeout=15, interval=0.05, message="the idle session timed out")
        # deadline 1 s, then at most one 3 s tick (plus a loaded machine's slack)
        assert time.monotonic() - start < 10
    finally:
        stop.set()
        for t in threads:
            t.join(10)
    assert not errors, errors[:2]
    assert _count(admin, "SELECT COUNT(*) FROM information_schema.PROCESSLIST "
                         "WHERE USER = 'root' AND COMMAND <> 'Daemon'") >= 5  # busy ones alive


# --- MDEV-38219: the lock holder's group at thread_pool_max_threads -----------------------------

def test_mdev38219_a_lock_holder_gets_a_thread_past_max_threads(server_factory):
    """Three writers wait for a LOCK TABLES holder and hold the pool's three threads
    (thread_pool_max_threads): the listener itself took the third writer, so nobody polls the
    sockets any more and the holder's UNLOCK TABLES is never even read. MariaDB deadlocks here
    (MDEV-38219). rampmeter lets a group whose threads all wait in locks create one thread
    past the cap (sched/policy.py holder_needs_thread) at the next stall check: it becomes the
    listener, reads the UNLOCK and runs it."""
    server = server_factory(thread_pool_size=1, thread_pool_max_threads=3,
                            thread_pool_stall_limit=100, extra_port=free_port())
    server.query("CREATE DATABASE mx")
    server.query("CREATE TABLE mx.t (x INT)")
    admin = server.connect(port=server.extra_port)
    holder = server.connect(database="mx")
    writers = [server.connect(database="mx") for _ in range(3)]
    with holder.cursor() as cur:
        cur.execute("LOCK TABLES t WRITE")
    jobs = []
    try:
        for w in writers:
            jobs.append(_background(w, "INSERT INTO t VALUES (1)"))
            wait_until(lambda: _state_count(admin, "Waiting for table metadata lock")
                       == len(jobs), message="the writer waiting for the lock")
        # the cap, and one thread past it: nobody listened any more
        wait_until(lambda: _count(admin, "SELECT SUM(THREADS), SUM(HAS_LISTENER) FROM "
                                         "information_schema.THREAD_POOL_GROUPS") == 4,
                   message="a fourth thread")
        start = time.monotonic()
        with holder.cursor() as cur:
            cur.execute("UNLOCK TABLES")
        assert time.monotonic() - start < 5
        for t, box in jobs:
            t.join(20)
            assert "end" in box and "error" not in box, box
        assert _count(admin, "SELECT COUNT(*) FROM mx.t") == 3
        with admin.cursor() as cur:
            cur.execute("SHOW THREADPOOL STATUS")
            names = [d[0] for d in cur.description]
            escapes = sum(r[names.index("lock_holder_escapes")] for r in cur.fetchall())
        assert escapes >= 1
    finally:
        _kill_all(admin, [holder, *writers])


# --- idle_timeout: surplus workers leave --------------------------------------------------------

def test_idle_workers_exit_after_thread_pool_idle_timeout(server_factory):
    """A burst of sleeps makes the group create workers; once idle for
    thread_pool_idle_timeout they exit (MariaDB get_event's timed wait), and the listener
    stays."""
    server = server_factory(thread_pool_size=1, thread_pool_idle_timeout=1,
                            thread_pool_stall_limit=100, extra_port=free_port())
    admin = server.connect(port=server.extra_port)
    conns = [server.connect() for _ in range(6)]
    jobs = [_background(c, "SELECT SLEEP(0.5)") for c in conns]
    for t, box in jobs:
        t.join(10)
        assert box.get("rows") == ((0,),)

    def threads() -> int:
        return _count(admin, "SELECT SUM(THREADS) FROM information_schema.THREAD_POOL_GROUPS")
    assert threads() >= 4
    wait_until(lambda: threads() <= 1, timeout=10, message="idle workers gone")
    assert _count(admin, "SELECT SUM(HAS_LISTENER) FROM information_schema."
                         "THREAD_POOL_GROUPS") == 1
    for c in conns:  # the pool still serves them
        with c.cursor() as cur:
            cur.execute("SELECT 1")


# --- shrink and grow under load -------------------------------------------------------------------

def test_shrink_and_grow_thread_pool_size_under_load(server_factory):
    """Clients commit numbered rows in a loop while thread_pool_size goes 4 -> 1 -> 3 -> 2.
    Nothing is lost, repeated or refused; every connection ends in group id % 2; the
    groups beyond the final size have no connection and no thread left (surplus listeners
    leave: MariaDB leaves them blocked in poll)."""
    server = server_factory(thread_pool_size=4, thread_pool_stall_limit=100,
                            max_connections=100, extra_port=free_port())
    server.query("CREATE DATABASE sg")
    server.query("CREATE TABLE sg.t (conn INT, seq INT, PRIMARY KEY (conn, seq))")
    admin = server.connect(port=server.extra_port)
    n = 24
    conns = [server.connect(database="sg") for _ in range(n)]
    stop = threading.Event()
    errors: list[BaseException] = []
    done = [0] * n

    def client(i: int) -> None:
        try:
            with conns[i].cursor() as cur:
                while not stop.is_set():
                    cur.execute("INSERT INTO t VALUES (%s, %s)", (i, done[i] + 1))
                    done[i] += 1
                    cur.execute("SELECT COUNT(*) FROM t WHERE conn = %s", (i,))
                    assert cur.fetchone() == (done[i],)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    try:
        for size in (1, 3, 2):
            marks = list(done)
            with admin.cursor() as cur:
                cur.execute(f"SET GLOBAL thread_pool_size = {size}")
            wait_until(lambda m=marks: all(d >= x + 3 for d, x in zip(done, m)) or errors,
                       timeout=30, message=f"every client three rows further at size {size}")
    finally:
        stop.set()
        for t in threads:
            t.join(30)
    assert not errors, errors[:3]
    with admin.cursor() as cur:
        cur.execute("SELECT conn, COUNT(*), MAX(seq) FROM sg.t GROUP BY conn ORDER BY conn")
        assert [tuple(r) for r in cur.fetchall()] == [(i, done[i], done[i]) for i in range(n)]
    ids = {c.thread_id() for c in conns}
    wait_until(lambda: _count(admin, "SELECT COUNT(*) FROM performance_schema.tp_connections "
                                     "WHERE TP_GROUP_ID <> CONNECTION_ID % 2") == 0,
               message="every connection in group id % 2")
    assert _count(admin, "SELECT COUNT(*) FROM performance_schema.tp_connections") >= len(ids)
    wait_until(lambda: _count(admin, "SELECT COALESCE(SUM(THREADS + CONNECTIONS), 0) FROM "
                                     "information_schema.THREAD_POOL_GROUPS "
                                     "WHERE GROUP_ID >= 2") == 0,
               timeout=10, message="groups 2 and 3 empty, their threads gone")
