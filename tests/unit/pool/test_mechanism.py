"""The pool's mechanism (threads, epoll, condition variables) with scripted connections over
socketpairs: no protocol, no SQL. Synchronised on observable state with deadlines."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading

import pytest

from rampmeter.config.variables import GlobalVariables
from rampmeter.engine.base import WaitReason
from rampmeter.pool import waits
from rampmeter.pool.base import Verdict
from rampmeter.pool.group import PoolConn
from rampmeter.pool.no_threads import NoThreadsHandler
from rampmeter.pool.per_thread import PerThreadHandler
from rampmeter.pool.threadpool import ThreadPool
from rampmeter.sched.clock import VirtualClock
from rampmeter.sched.priority import Priority
from rampmeter.sched.snapshot import SessionSnapshot
from tests.conftest import wait_until

pytestmark = pytest.mark.timeout(30)


class ScriptedConn:
    """A Connection whose 'commands' are bytes: b's' sleeps (reporting a SLEEP wait) until the
    test releases it, b'b' blocks without reporting a wait (a CPU-bound statement), b'q'
    closes, anything else is echoed back. Calls that reach the session (expire, client_gone)
    record whether a group lock was held at that moment."""

    _ids = iter(range(1, 10**9))

    def __init__(self, *, idle_timeout: float = 3600.0) -> None:
        self.connection_id = next(self._ids)
        self.server_sock, self.client = socket.socketpair()
        self.server_sock.setblocking(False)
        self.handler_data = None
        self.release = threading.Event()
        self.blocked = threading.Event()  # set while a b'b' request waits for `release`
        self.in_handle = 0
        self.max_concurrency = 0
        self.handled = 0
        self.threads: set[str] = set()
        self.expired = False
        self.closed = False
        self._lock = threading.Lock()
        self.greeted = False
        self.gone = False
        self.snapshot = SessionSnapshot(logged_in=True, idle_timeout=idle_timeout)

    def fileno(self) -> int:
        return self.server_sock.fileno()

    def has_buffered_input(self) -> bool:
        return False

    locks: list[threading.Lock] = []  # the pool's group locks (set by make_pool)
    calls_under_lock = 0

    def _check_locks(self) -> None:
        if any(lock.locked() for lock in ScriptedConn.locks):
            ScriptedConn.calls_under_lock += 1

    def expire(self) -> None:
        self._check_locks()
        self.expired = True
        self.snapshot = self.snapshot._replace(killed=True)

    def said_goodbye(self) -> bool:
        return False

    def client_gone(self, *, running: bool) -> bool:
        self._check_locks()
        self.gone = True
        self.release.set()
        return True

    def close(self) -> None:
        self.closed = True
        self.server_sock.close()

    def handle(self) -> Verdict:
        with self._lock:
            self.in_handle += 1
            self.max_concurrency = max(self.max_concurrency, self.in_handle)
        try:
            self.threads.add(threading.current_thread().name)
            self.handled += 1
            if not self.greeted:
                self.greeted = True
                self.server_sock.send(b"hello\n")
                return Verdict.KEEP
            if self.expired:
                return Verdict.CLOSE
            try:
                data = self.server_sock.recv(4096)
            except BlockingIOError:
                return Verdict.KEEP
            if not data or b"q" in data:
                return Verdict.CLOSE
            if b"s" in data:
                with waits.waiting(WaitReason.SLEEP):
                    self.release.wait(20)
            if b"b" in data:
                self.blocked.set()
                self.release.wait(20)
                self.blocked.clear()
            try:
                self.server_sock.send(data)
            except OSError:
                return Verdict.CLOSE
            return Verdict.KEEP
        finally:
            with self._lock:
                self.in_handle -= 1

    def recv_line(self, timeout: float = 10.0) -> bytes:
        self.client.settimeout(timeout)
        return self.client.recv(4096)


def make_pool(clock=None, **variables) -> ThreadPool:
    gv = GlobalVariables({"thread_pool_size": 1, **variables})
    pool = ThreadPool(ScriptedConn.handle, gv, clock=clock)
    ScriptedConn.locks = [g.lock for g in pool.groups]
    return pool


def test_greeting_echo_and_close():
    pool = make_pool()
    pool.start()
    try:
        conn = ScriptedConn()
        pool.add_connection(conn)
        assert conn.recv_line() == b"hello\n"
        conn.client.sendall(b"ping")
        assert conn.recv_line() == b"ping"
        conn.client.sendall(b"q")
        wait_until(lambda: conn.closed, message="the connection to close")
        assert pool.groups[0].state.connection_count == 0
    finally:
        pool.stop()


def test_one_thread_per_connection_at_a_time_under_pipelining():
    pool = make_pool(thread_pool_size=2)
    pool.start()
    conns = [ScriptedConn() for _ in range(8)]
    try:
        for c in conns:
            pool.add_connection(c)
        for c in conns:
            assert c.recv_line() == b"hello\n"
        for _ in range(50):
            for c in conns:
                c.client.sendall(b"x")
        for c in conns:
            got = b""
            while len(got) < 50:
                got += c.recv_line()
        assert all(c.max_concurrency == 1 for c in conns)
    finally:
        pool.stop()


def test_input_that_arrives_while_a_request_runs_is_served_after_it():
    # Sockets are edge-triggered: bytes that come while the request runs raise one event, and
    # if a poller takes it then, none comes once the request is done. The pool must remember
    # them (PoolConn.pending) and queue the connection when it re-arms it.
    pool = make_pool(thread_pool_stall_limit=100)
    pool.start()
    conn = ScriptedConn()
    group = pool.groups[0]
    try:
        pool.add_connection(conn)
        assert conn.recv_line() == b"hello\n"
        for goodbye in (False, True):
            conn.release.clear()
            conn.client.sendall(b"b")  # runs until released, without reporting a wait
            wait_until(conn.blocked.is_set, message="the request to run")
            # the timer sees a group with no listener and gets it one, which polls meanwhile
            wait_until(lambda: group.state.listener is not None, message="a new listener")
            conn.client.sendall(b"q" if goodbye else b"x")
            wait_until(lambda: conn.handler_data.pending, message="the poll to see the input")
            conn.release.set()
            if goodbye:
                assert conn.recv_line() == b"b"
                wait_until(lambda: conn.closed, message="the connection to close")
            else:
                got = b""
                while len(got) < 2:  # both replies, in one read or two
                    got += conn.recv_line()
                assert got == b"bx"
                wait_until(lambda: not conn.blocked.is_set(), message="the request to end")
        assert conn.max_concurrency == 1
    finally:
        pool.stop()


def test_waits_let_the_group_start_threads_without_throttling():
    pool = make_pool(thread_pool_stall_limit=60000)  # no rescue by the timer
    pool.start()
    conns = [ScriptedConn() for _ in range(20)]
    try:
        for c in conns:
            pool.add_connection(c)
            assert c.recv_line() == b"hello\n"
        for c in conns:
            c.client.sendall(b"s")
        # every sleeper reported its wait, so every one got a thread of its own, at once
        wait_until(lambda: sum(c.in_handle for c in conns) == 20, timeout=10,
                   message="20 concurrent sleepers")
        assert pool.status()["Threadpool_threads"] >= 20
        for c in conns:
            c.release.set()
        for c in conns:
            assert c.recv_line() == b"s"
    finally:
        pool.stop()


def test_idle_connections_share_few_threads():
    pool = make_pool(thread_pool_size=2)
    pool.start()
    conns = [ScriptedConn() for _ in range(300)]
    try:
        for c in conns:
            pool.add_connection(c)
        for c in conns:
            assert c.recv_line() == b"hello\n"
        for c in conns:
            c.client.sendall(b"y")
            assert c.recv_line() == b"y"
        assert pool.status()["Threadpool_threads"] < 20
    finally:
        pool.stop()


def test_timer_expires_idle_connections_on_a_virtual_clock():
    clock = VirtualClock()
    pool = make_pool(clock=clock)
    # the timer thread is not started: the test ticks it by hand
    idle = ScriptedConn(idle_timeout=5)
    pending = ScriptedConn(idle_timeout=5)
    for c in (idle, pending):
        pool.add_connection(c)
    try:
        wait_until(lambda: all(c.handler_data.state.value == "idle" for c in (idle, pending)),
                   message="both idle")
        clock.advance(4)
        pool.timer.tick(clock.now())
        assert not idle.expired and not idle.closed
        clock.advance(2)
        # a connection whose next request already arrived is never killed (MariaDB PENDING)
        group = pool.groups[0]
        group.conns.pop(idle.fileno())  # keep `idle` out of this first sweep
        group.expire_idle(clock.now(), readable=lambda fd: True)
        assert not pending.expired
        group.conns[idle.fileno()] = idle.handler_data
        pool.timer.tick(clock.now())
        wait_until(lambda: idle.closed, message="the idle connection to be closed")
        assert idle.expired
        assert ScriptedConn.calls_under_lock == 0  # expire() ran without the group lock
        assert pool.groups[0].state.counters.timeout_kills == 2  # `pending` had nothing readable
    finally:
        pool.stop()


def test_stop_leaves_no_thread_behind():
    pool = make_pool(thread_pool_size=3)
    pool.start()
    conns = [ScriptedConn() for _ in range(6)]
    for c in conns:
        pool.add_connection(c)
    for c in conns:
        assert c.recv_line() == b"hello\n"
    assert pool.live_threads() > 0
    pool.stop(timeout=5)
    assert pool.live_threads() == 0
    assert all(c.closed for c in conns)
    assert not any(t.name == "tpool-timer" and t.is_alive() for t in threading.enumerate())


def _connected(pool: ThreadPool, n: int) -> list[ScriptedConn]:
    conns = [ScriptedConn() for _ in range(n)]
    for c in conns:
        pool.add_connection(c)
    for c in conns:
        assert c.recv_line() == b"hello\n"
    return conns


def test_a_queued_request_of_a_vanished_client_is_dropped_unrun():
    ScriptedConn.calls_under_lock = 0
    pool = make_pool(thread_pool_dedicated_listener=1, thread_pool_stall_limit=60000)
    pool.start()
    try:
        busy, victim = _connected(pool, 2)
        busy.client.sendall(b"b")  # holds the group's only worker, reporting no wait
        wait_until(lambda: busy.in_handle, message="the blocking request")
        victim.client.sendall(b"x")
        group = pool.groups[0]
        wait_until(lambda: group.state.queue_length() == 1, message="the queued request")
        handled = victim.handled
        victim.client.close()  # the client goes away while its request waits
        wait_until(lambda: group.state.counters.vanished_queued == 1, message="the hang-up")
        busy.release.set()
        wait_until(lambda: victim.closed, message="the vanished client's connection closed")
        assert victim.gone and victim.handled == handled  # never run
        assert busy.recv_line() == b"b"
        assert ScriptedConn.calls_under_lock == 0
    finally:
        pool.stop()


def test_a_running_request_of_a_vanished_client_is_stopped():
    """The listener runs the request itself, so nobody polls the group: the timer's sweep
    notices the hang-up within a tick."""
    ScriptedConn.calls_under_lock = 0
    pool = make_pool(thread_pool_stall_limit=100)
    pool.start()
    try:
        (victim,) = _connected(pool, 1)
        victim.client.sendall(b"b")
        wait_until(lambda: victim.in_handle, message="the running request")
        victim.client.close()
        wait_until(lambda: victim.gone, message="client_gone() from the listener")
        wait_until(lambda: victim.closed, message="the connection closed")
        assert pool.groups[0].state.counters.vanished_running == 1
        assert ScriptedConn.calls_under_lock == 0
        # the worker went back to the pool
        wait_until(lambda: pool.groups[0].state.active_count == 0, message="an idle group")
    finally:
        pool.stop()


def test_shrinking_the_pool_lets_surplus_groups_threads_leave():
    pool = make_pool(thread_pool_size=3)
    pool.start()
    try:
        conns = _connected(pool, 6)
        for c in conns:
            c.client.sendall(b"x")
            assert c.recv_line() == b"x"
        assert all(g.state.thread_count for g in pool.groups)
        pool.variables.set("thread_pool_size", 1)
        for c in conns:  # each moves to group 0 at its next command
            c.client.sendall(b"y")
            assert c.recv_line() == b"y"
        surplus = pool.groups[1:]
        wait_until(lambda: all(g.state.thread_count == 0 for g in surplus), timeout=10,
                   message="the surplus groups' threads, listeners included, to leave")
        wait_until(lambda: pool.groups[0].state.connection_count == 6,
                   message="every connection in group 0")  # it moves after its reply
        # and growing again brings threads back where connections go
        pool.variables.set("thread_pool_size", 3)
        for c in conns:
            c.client.sendall(b"z")
            assert c.recv_line() == b"z"
        wait_until(lambda: all(g.state.connection_count == 2 for g in pool.groups),
                   message="the connections spread over three groups again")
        assert all(g.state.thread_count for g in pool.groups)
    finally:
        pool.stop()


def test_the_pool_reads_only_the_snapshot():
    """Group.enqueue decides from conn.snapshot alone: a login round is HIGH, and Percona's
    tickets start from the session's thread_pool_high_prio_tickets (here 0: the open
    transaction's request goes LOW at once)."""
    pool = make_pool()
    group = pool.groups[0]
    conn = ScriptedConn()
    conn.snapshot = SessionSnapshot(logged_in=False)
    pc = PoolConn(conn, group)
    with group.lock:
        group.enqueue(pc, 0.0)
        conn.snapshot = SessionSnapshot(logged_in=True, in_transaction=True,
                                        high_prio_tickets=0)
        group.enqueue(pc, 0.0)
        prios = [e.priority for e in (*group.state.high, *group.state.low)]
    assert prios == [Priority.HIGH, Priority.LOW]
    pool.stop()


def test_group_does_not_import_the_pool():
    code = ("import sys, rampmeter.pool.group, rampmeter.pool.timer; "
            "sys.exit('rampmeter.pool.threadpool' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_every_handler_answers_tables_and_flush():
    handlers = [PerThreadHandler(ScriptedConn.handle), NoThreadsHandler(ScriptedConn.handle)]
    for handler in handlers:
        assert [r[0] for r in handler.table("THREAD_POOL_WAITS")][:2] == ["UNKNOWN", "SLEEP"]
        assert handler.table("THREAD_POOL_GROUPS") == []
        handler.flush("stats")
        handler.flush("waits")
