"""Issue 12 item 3 through real clients: a client that goes away while its request waits in a
queue, or while its statement runs, is noticed (TXSQL's disconnect detection). The running
statement is stopped and the worker freed; the queued request never runs."""

from __future__ import annotations

import signal
import socket
import subprocess
import time

import pytest

from tests.conftest import free_port, wait_until
from tests.integration.test_pool import (
    CPU_BOUND,
    ONE_AT_A_TIME,
    _background,
    _calibrate,
    _present,
    _queued,
    _running,
)

pytestmark = pytest.mark.timeout(120)


def _status_column(admin, column: str) -> int:
    with admin.cursor() as cur:
        cur.execute("SHOW THREADPOOL STATUS")
        names = [d[0] for d in cur.description]
        return sum(int(row[names.index(column)]) for row in cur.fetchall())


def _status(admin, name: str) -> int:
    with admin.cursor() as cur:
        cur.execute(f"SHOW GLOBAL STATUS LIKE '{name}'")
        return int(cur.fetchone()[1])


def _mariadb_cli(server, sql: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(["mariadb", "-h127.0.0.1", f"-P{server.port}", "-uroot",
                             "--skip-ssl", "-e", sql],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _newest_session(admin, info: str) -> int:
    with admin.cursor() as cur:
        cur.execute("SELECT ID FROM information_schema.PROCESSLIST WHERE INFO = %s", (info,))
        row = cur.fetchone()
        return int(row[0]) if row else 0


def test_a_sleep_whose_client_was_killed_frees_its_worker_at_once(server_factory):
    server = server_factory(thread_pool_size=1, thread_pool_stall_limit=100,
                            extra_port=free_port())
    admin = server.connect(port=server.extra_port)
    aborted = _status(admin, "Aborted_clients")
    cli = _mariadb_cli(server, "SELECT SLEEP(60)")
    cid = wait_until(lambda: _newest_session(admin, "SELECT SLEEP(60)"), timeout=10,
                     message="the CLI's SLEEP(60) running")
    started = time.monotonic()
    cli.send_signal(signal.SIGKILL)  # the client is gone: its socket is closed by the kernel
    cli.wait(10)
    wait_until(lambda: not _present(admin, cid), timeout=5, message="the sleep stopped")
    assert time.monotonic() - started < 3  # not a minute
    assert _status_column(admin, "disconnects_running") == 1
    assert _status(admin, "Aborted_clients") == aborted + 1
    with admin.cursor() as cur:
        cur.execute("SELECT ACTIVE_THREADS FROM information_schema.THREAD_POOL_GROUPS")
        assert cur.fetchone() == (0,)  # the worker is back in the pool


def test_a_cpu_bound_statement_of_a_vanished_client_is_stopped_within_a_tick(server_factory):
    """The statement reports no wait: it runs on the listener's thread, nobody polls the group,
    and the timer's sweep must notice the hang-up."""
    server = server_factory(thread_pool_size=1, thread_pool_stall_limit=200,
                            extra_port=free_port())
    admin = server.connect(port=server.extra_port)
    n = _calibrate(server, 60.0)
    victim = server.connect()
    t, box = _background(victim, CPU_BOUND.format(n=n))
    wait_until(lambda: _running(admin, victim.thread_id()), message="the long statement")
    started = time.monotonic()
    victim._sock.shutdown(socket.SHUT_RDWR)  # the client machine goes away (FIN)
    wait_until(lambda: not _present(admin, victim.thread_id()), timeout=10,
               message="the statement stopped")
    assert time.monotonic() - started < 5  # a 60 s statement, stopped within ticks
    assert _status_column(admin, "disconnects_running") == 1
    t.join(10)


def test_a_queued_request_of_a_vanished_client_is_dropped_unrun(server_factory):
    server = server_factory(**ONE_AT_A_TIME, extra_port=free_port())
    server.query("CREATE DATABASE dq")
    server.query("CREATE TABLE dq.t (x INT)")
    admin = server.connect(port=server.extra_port)
    victim = server.connect(database="dq")
    blocker = server.connect()
    n = _calibrate(server, 60.0)
    bt, _ = _background(blocker, CPU_BOUND.format(n=n))
    wait_until(lambda: _running(admin, blocker.thread_id()), message="the blocker")
    vt, _ = _background(victim, "INSERT INTO t VALUES (1)")
    wait_until(lambda: _queued(admin, victim.thread_id()), message="the queued INSERT")
    victim._sock.shutdown(socket.SHUT_RDWR)  # gone while its INSERT waits
    wait_until(lambda: _status_column(admin, "disconnects_queued") == 1, timeout=5,
               message="the hang-up noticed in the queue")
    with admin.cursor() as cur:
        cur.execute(f"KILL QUERY {blocker.thread_id()}")
    wait_until(lambda: not _present(admin, victim.thread_id()), timeout=10,
               message="the vanished client's connection closed")
    bt.join(30)
    vt.join(10)
    assert server.query("SELECT COUNT(*) FROM dq.t") == ((0,),)  # the INSERT never ran


def test_clients_that_say_goodbye_are_not_counted_as_vanished(server_factory):
    """COM_QUIT then close, hundreds of times, racing the pool's re-arm: never an aborted
    client, never a disconnect counted."""
    server = server_factory(thread_pool_size=2, thread_pool_stall_limit=50,
                            extra_port=free_port())
    admin = server.connect(port=server.extra_port)
    aborted = _status(admin, "Aborted_clients")
    for i in range(200):
        conn = server.connect()
        with conn.cursor() as cur:
            cur.execute("SELECT %s", (i,))
            assert cur.fetchone() == (i,)
        conn.close()
    assert _status_column(admin, "disconnects_running") == 0
    assert _status_column(admin, "disconnects_queued") == 0
    assert _status(admin, "Aborted_clients") == aborted
