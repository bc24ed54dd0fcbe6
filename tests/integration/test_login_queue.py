"""A connection between its accept and its first handle() on a pool worker (net/server.py,
net/connection.py): the acceptor only registers it (registry.Arrival), a worker builds its
session and greets it. Until then it is listed, killable, counted against max_connections,
and a connect beyond max_connections is still refused at once - even while every pool thread
is busy and the connection waits in the queue."""

from __future__ import annotations

import socket
import struct
import threading
import time

import pymysql
import pytest

from tests.conftest import free_port, wait_until

pytestmark = pytest.mark.timeout(60)

ROW = "SELECT ID, USER, HOST, DB, COMMAND, STATE, INFO FROM information_schema.PROCESSLIST"


def _raw(server) -> socket.socket:
    sock = socket.create_connection((server.host, server.port), timeout=10)
    return sock


def _packet(sock: socket.socket) -> bytes:
    """One packet's payload (sequence id checked: 0), or b'' when the server closed first."""
    head = b""
    while len(head) < 4:
        chunk = sock.recv(4 - len(head))
        if not chunk:
            return b""
        head += chunk
    assert head[3] == 0
    n = int.from_bytes(head[:3], "little")
    body = b""
    while len(body) < n:
        chunk = sock.recv(n - len(body))
        assert chunk, "the packet was cut short"
        body += chunk
    return body


def _rows(conn, sql):
    with conn.cursor() as cur:
        cur.execute(sql)
        return cur.fetchall()


def _status(conn, name) -> int:
    return int(_rows(conn, f"SHOW GLOBAL STATUS LIKE '{name}'")[0][1])


def _logins(admin):
    return _rows(admin, ROW + " WHERE USER = 'unauthenticated user' ORDER BY ID")


def _saturated(server_factory, **options):
    """A pool whose two threads both sleep: a new connection waits in the queue, ungreeted.
    Returns the server, an extra_port administrator and a function that frees the pool."""
    server = server_factory(thread_pool_size=1, thread_pool_max_threads=2,
                            extra_port=free_port(), extra_max_connections=2,
                            thread_pool_stall_limit=100, **options)
    sleepers = [server.connect() for _ in range(2)]
    errors: list[Exception] = []

    def sleep(conn) -> None:
        try:
            _rows(conn, "SELECT SLEEP(60)")
        except pymysql.err.OperationalError as exc:
            errors.append(exc)

    threads = [threading.Thread(target=sleep, args=(c,), daemon=True) for c in sleepers]
    for t in threads:
        t.start()
    admin = server.connect(port=server.extra_port)
    ids = tuple(c.thread_id() for c in sleepers)
    wait_until(lambda: len(_rows(admin, ROW + f" WHERE ID IN {ids} AND STATE = 'User sleep'"))
               == 2, message="both pool threads asleep")

    def free() -> None:
        for cid in ids:
            _rows(admin, f"KILL QUERY {cid}")
        for t in threads:
            t.join(10)
        assert [e.args[0] for e in errors] == [1317, 1317]

    return server, admin, free


def test_a_connection_not_yet_greeted_is_listed_and_killed(server_factory):
    server, admin, free = _saturated(server_factory)
    _rows(admin, "CREATE USER app@'%'")
    app = server.connect(port=server.extra_port, user="app")
    aborted = _status(admin, "Aborted_connects")
    waiting = _raw(server)
    wait_until(lambda: len(_logins(admin)) == 1, message="the queued connection listed")
    (cid, user, host, db, command, state, info), = _logins(admin)
    assert (user, host, db, command, state, info) == \
        ("unauthenticated user", "127.0.0.1", None, "Connect", "login", None)
    # no user to match: hidden from and not killable by an account without PROCESS / SUPER
    assert cid not in [r[0] for r in _rows(app, "SHOW PROCESSLIST")]
    with pytest.raises(pymysql.err.OperationalError) as denied:
        _rows(app, f"KILL {cid}")
    assert denied.value.args[0] == 1095
    _rows(admin, f"KILL {cid}")
    assert _rows(admin, f"SELECT COMMAND FROM information_schema.PROCESSLIST WHERE ID = {cid}") \
        == (("Killed",),)
    free()
    # its first handle() closes it without a greeting
    assert _packet(waiting) == b""
    wait_until(lambda: not _logins(admin), message="the killed connection gone")
    assert _status(admin, "Aborted_connects") == aborted + 1
    assert server.query("SELECT 1") == ((1,),)


def test_a_refusal_is_answered_while_the_pool_is_saturated(server_factory):
    server, admin, free = _saturated(server_factory, max_connections=3)
    refused = _status(admin, "Connection_errors_max_connections")
    # two sleepers + two queued connections: max_connections + 1 (the administrator's slot)
    queued = [_raw(server) for _ in range(2)]
    wait_until(lambda: len(_logins(admin)) == 2, message="both queued connections listed")
    assert _status(admin, "Threads_connected") == 5  # and the administrator on extra_port
    beyond = _raw(server)
    start = time.monotonic()
    err = _packet(beyond)  # from the acceptor: no pool thread is free
    assert time.monotonic() - start < 5
    assert err[:1] == b"\xff" and struct.unpack("<H", err[1:3])[0] == 1040
    assert b"Too many connections" in err
    assert _packet(beyond) == b""
    assert _status(admin, "Connection_errors_max_connections") == refused + 1
    free()
    for sock in queued:  # greeted once a worker is free
        assert _packet(sock)[:1] == b"\x0a"
        sock.close()
    wait_until(lambda: not _logins(admin), message="the queued connections gone")


@pytest.mark.parametrize("handling", ["pool-of-threads", "one-thread-per-connection"])
def test_a_client_that_says_nothing_is_closed_at_connect_timeout(server_factory, handling):
    server = server_factory(connect_timeout=2, thread_pool_stall_limit=100,
                            thread_handling=handling)
    admin = server.connect()
    aborted = _status(admin, "Aborted_connects")
    silent = _raw(server)
    start = time.monotonic()
    assert _packet(silent)[:1] == b"\x0a"  # the greeting, then the client says nothing
    wait_until(lambda: len(_logins(admin)) == 1, message="the silent login listed")
    (_cid, user, _host, db, command, state, info), = _logins(admin)
    assert (user, db, command, state, info) == \
        ("unauthenticated user", None, "Connect", "Reading from net", None)
    silent.settimeout(10)
    assert _packet(silent) == b""
    assert time.monotonic() - start >= 1.5
    wait_until(lambda: not _logins(admin), message="the silent login gone")
    assert _status(admin, "Aborted_connects") == aborted + 1


def test_a_client_that_hangs_up_while_queued_is_counted_and_dropped(server_factory):
    server, admin, free = _saturated(server_factory)
    aborted = _status(admin, "Aborted_connects")
    gone = _raw(server)
    wait_until(lambda: len(_logins(admin)) == 1, message="the queued connection listed")
    gone.close()  # before any greeting: the pool sees the hang-up while it is queued
    free()
    wait_until(lambda: not _logins(admin), message="the vanished connection gone")
    assert _status(admin, "Aborted_connects") == aborted + 1
    assert _status(admin, "Threads_connected") == 3  # the two sleepers and admin
