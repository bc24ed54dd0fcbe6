"""Issue 12 item 1 through real clients: SET GLOBAL thread_handling switches between the pool
and one thread per connection without a restart. New connections take the new mode at once;
idle ones move at once; busy ones after their current command; nothing is dropped, lost or
repeated."""

from __future__ import annotations

import threading
import time

import pymysql
import pytest

from tests.conftest import free_port, wait_until
from tests.integration.test_pool import _background

pytestmark = pytest.mark.timeout(180)


def _status(conn, name: str) -> int:
    with conn.cursor() as cur:
        cur.execute(f"SHOW GLOBAL STATUS LIKE '{name}'")
        row = cur.fetchone()
        return int(row[1]) if row else -1


def _sleeping(admin, cid: int) -> bool:
    with admin.cursor() as cur:
        cur.execute("SELECT STATE FROM information_schema.PROCESSLIST WHERE ID = %s", (cid,))
        return cur.fetchone() == ("User sleep",)


def _switch(conn, mode: str) -> None:
    with conn.cursor() as cur:
        cur.execute(f"SET GLOBAL thread_handling = '{mode}'")


def test_idle_connections_move_at_once_both_ways(server_factory):
    server = server_factory(thread_pool_size=2, extra_port=free_port())
    admin = server.connect(port=server.extra_port)
    conns = [server.connect() for _ in range(20)]
    assert _status(admin, "Thread_handling_pool_connections") == 20
    _switch(admin, "one-thread-per-connection")
    wait_until(lambda: _status(admin, "Thread_handling_per_thread_connections") == 20,
               message="the idle pool connections moved to threads of their own")
    assert _status(admin, "Thread_handling_pool_connections") == 0
    for i, c in enumerate(conns):
        with c.cursor() as cur:
            cur.execute("SELECT %s", (i,))
            assert cur.fetchone() == (i,)
    _switch(admin, "pool-of-threads")
    wait_until(lambda: _status(admin, "Thread_handling_pool_connections") == 20,
               message="the idle per-thread connections moved into the pool")
    assert _status(admin, "Thread_handling_per_thread_connections") == 0
    with admin.cursor() as cur:
        cur.execute("SHOW THREADPOOL STATUS")
        names = [d[0] for d in cur.description]
        rows = cur.fetchall()
    moved_to = sum(r[names.index("connections_moved_to_per_thread")] for r in rows)
    moved_from = sum(r[names.index("connections_moved_from_per_thread")] for r in rows)
    assert (moved_to, moved_from) == (20, 20)
    assert _status(admin, "Thread_handling_switches") == 2


def test_new_connections_take_the_new_mode_and_no_threads_is_refused(server_factory):
    server = server_factory(thread_handling="one-thread-per-connection", extra_port=free_port())
    admin = server.connect(port=server.extra_port)
    with admin.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM information_schema.THREAD_POOL_GROUPS")
        assert cur.fetchone() == (0,)  # no pool yet, as MariaDB with this mode
        with pytest.raises(pymysql.err.OperationalError) as info:
            cur.execute("SET GLOBAL thread_handling = 'no-threads'")
        assert info.value.args[0] == 1231
        with pytest.raises(pymysql.err.OperationalError) as info:
            cur.execute("SET SESSION thread_handling = 'pool-of-threads'")
        assert info.value.args[0] == 1229
    first = server.connect()
    assert _status(admin, "Thread_handling_per_thread_connections") == 1
    _switch(admin, "pool-of-threads")
    second = server.connect()
    wait_until(lambda: _status(admin, "Thread_handling_pool_connections") == 2,
               message="the new one in the pool, the idle old one moved in")
    with admin.cursor() as cur:
        cur.execute("SELECT @@global.thread_handling")
        assert cur.fetchone() == ("pool-of-threads",)
    for c in (first, second):
        with c.cursor() as cur:
            cur.execute("SELECT 1")
            assert cur.fetchone() == (1,)


def test_a_statement_in_flight_finishes_where_it_started(server_factory):
    server = server_factory(thread_pool_size=1, extra_port=free_port())
    admin = server.connect(port=server.extra_port)
    sleeper = server.connect()
    t, box = _background(sleeper, "SELECT SLEEP(1), 'done'")
    wait_until(lambda: _sleeping(admin, sleeper.thread_id()), message="the sleep running")
    _switch(admin, "one-thread-per-connection")
    assert _status(admin, "Thread_handling_pool_connections") == 1  # still running there
    t.join(10)
    assert box["rows"] == ((0, "done"),)
    wait_until(lambda: _status(admin, "Thread_handling_per_thread_connections") == 1,
               message="moved after its statement")


def test_flipping_modes_under_load_loses_and_repeats_nothing(server_factory):
    """Hundreds of live connections run transactions while the mode flips back and forth."""
    server = server_factory(thread_pool_size=2, max_connections=400, extra_port=free_port(),
                            thread_pool_stall_limit=100)
    server.query("CREATE DATABASE sw")
    server.query("CREATE TABLE sw.t (conn INT, seq INT, PRIMARY KEY (conn, seq))")
    admin = server.connect(port=server.extra_port)
    n_clients = 200
    stop = threading.Event()
    errors: list[BaseException] = []
    committed = [0] * n_clients
    conns = [server.connect(database="sw", autocommit=False) for _ in range(n_clients)]

    def client(i: int) -> None:
        conn = conns[i]
        seq = 0
        try:
            with conn.cursor() as cur:
                while not stop.is_set():
                    seq += 1
                    cur.execute("INSERT INTO t VALUES (%s, %s)", (i, seq))
                    cur.execute("SELECT COUNT(*) FROM t WHERE conn = %s", (i,))
                    assert cur.fetchone() == (seq,)
                    conn.commit()
                    committed[i] = seq
                    time.sleep(0.02)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(n_clients)]
    for t in threads:
        t.start()
    modes = ["one-thread-per-connection", "pool-of-threads"] * 3
    for mode in modes:
        time.sleep(0.7)
        _switch(admin, mode)
        # the next flip only once every connection has moved: a connection still waiting to
        # move when the mode flips back never moves at all, which is right but uncountable
        gauge = ("Thread_handling_per_thread_connections" if mode.startswith("one")
                 else "Thread_handling_pool_connections")
        wait_until(lambda g=gauge: _status(admin, g) == n_clients, timeout=60,
                   message=f"every connection moved for {mode}")
    time.sleep(0.7)
    stop.set()
    for t in threads:
        t.join(60)
    assert not errors, errors[:3]
    assert min(committed) > 0
    with admin.cursor() as cur:
        cur.execute("SELECT conn, COUNT(*), MAX(seq) FROM sw.t GROUP BY conn ORDER BY conn")
        rows = cur.fetchall()
    assert [(r[0], r[1], r[2]) for r in rows] == [(i, committed[i], committed[i])
                                                   for i in range(n_clients)]
    wait_until(lambda: _status(admin, "Thread_handling_per_thread_connections") == 0,
               message="every connection back in the pool")
    assert _status(admin, "Thread_handling_pool_connections") == n_clients
    # every connection started and ended in the pool: each move out was matched by one back
    moved_out = _status(admin, "Thread_handling_moved_to_per_thread")
    assert _status(admin, "Thread_handling_moved_to_pool") == moved_out == 3 * n_clients
    for c in conns:
        c.close()


def test_no_threads_is_a_start_up_choice(server_factory):
    server = server_factory(thread_handling="no-threads")
    conn = server.connect()
    with conn.cursor() as cur:
        with pytest.raises(pymysql.err.OperationalError) as info:
            cur.execute("SET GLOBAL thread_handling = 'pool-of-threads'")
        assert info.value.args[0] == 1231
        cur.execute("SELECT @@thread_handling")
        assert cur.fetchone() == ("no-threads",)
