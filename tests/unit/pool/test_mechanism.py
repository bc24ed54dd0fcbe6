"""The pool's mechanism (threads, epoll, condition variables) with scripted connections over
socketpairs: no protocol, no SQL. Synchronised on observable state with deadlines."""

from __future__ import annotations

import socket
import threading

import pytest

from rampmeter.config.variables import GlobalVariables
from rampmeter.engine.base import WaitReason
from rampmeter.pool import waits
from rampmeter.pool.base import Verdict
from rampmeter.pool.threadpool import ThreadPool
from rampmeter.sched.clock import VirtualClock
from rampmeter.sched.snapshot import SessionSnapshot
from tests.conftest import wait_until

pytestmark = pytest.mark.timeout(30)


class ScriptedConn:
    """A Connection whose 'commands' are bytes: b's' sleeps (reporting a SLEEP wait) until the
    test releases it, b'q' closes, anything else is echoed back."""

    _ids = iter(range(1, 10**9))

    def __init__(self, *, idle_timeout: float = 3600.0) -> None:
        self.connection_id = next(self._ids)
        self.server_sock, self.client = socket.socketpair()
        self.server_sock.setblocking(False)
        self.handler_data = None
        self.release = threading.Event()
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

    def expire(self) -> None:
        self.expired = True
        self.snapshot = self.snapshot._replace(killed=True)

    def client_gone(self) -> None:
        self.gone = True
        self.release.set()

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
            self.server_sock.send(data)
            return Verdict.KEEP
        finally:
            with self._lock:
                self.in_handle -= 1

    def recv_line(self, timeout: float = 10.0) -> bytes:
        self.client.settimeout(timeout)
        return self.client.recv(4096)


def make_pool(clock=None, **variables) -> ThreadPool:
    gv = GlobalVariables({"thread_pool_size": 1, **variables})
    return ThreadPool(ScriptedConn.handle, gv, clock=clock)


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
