"""Issue 10 items 4 and 5 through real clients: results are streamed to the socket as the engine
produces them, so a client that reads slowly or not at all costs a bounded buffer and a network
wait (State "Writing to net"), not the whole result in memory nor a thread group; a reader
slower than net_write_timeout is disconnected and logged."""

from __future__ import annotations

import socket
import threading

import pymysql
import pytest

from tests.conftest import start_process, stop_process, wait_until

pytestmark = pytest.mark.timeout(120)

ROWS = 60_000
WIDTH = 300          # bytes per row: an 18 MB result


def _fill(conn, rows: int = ROWS) -> None:
    with conn.cursor() as cur:
        cur.execute("CREATE DATABASE IF NOT EXISTS s")
        cur.execute("CREATE TABLE s.t (id INT PRIMARY KEY, v VARCHAR(400))")
        for k in range(0, rows, 10_000):
            cur.executemany("INSERT INTO s.t VALUES (%s, %s)",
                            [(i, "x" * WIDTH) for i in range(k, min(rows, k + 10_000))])


def _state(admin, info: str) -> str | None:
    with admin.cursor() as cur:
        cur.execute("SELECT STATE FROM information_schema.PROCESSLIST WHERE INFO = %s", (info,))
        row = cur.fetchone()
        return row[0] if row else None


def _unread_query(server, sql: str, **kw) -> tuple[pymysql.Connection, socket.socket]:
    """Send `sql` on a logged-in connection and never read the answer (the connection is
    returned too: were it collected, PyMySQL would close the socket)."""
    conn = server.connect(**kw)
    sock = conn._sock
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    conn._execute_command(3, sql)  # COM_QUERY, answer left unread
    return conn, sock


def _vanish(conn: pymysql.Connection) -> None:
    """Close the client's socket for real, unread data and all (the kernel answers with a
    reset), as when a client process dies; PyMySQL's file object holds a second reference."""
    conn._rfile.close()
    conn._sock.close()


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_client_that_never_reads_costs_a_bounded_buffer_and_no_thread_group(tmp_path):
    server = start_process(tmp_path, "--thread-pool-size=1", "--thread-pool-stall-limit=50")
    try:
        admin = server.connect()
        _fill(admin)
        before = _rss_kib(server.process.pid)
        sql = "SELECT * FROM s.t"
        conn, sock = _unread_query(server, sql)
        wait_until(lambda: _state(admin, sql) == "Writing to net", timeout=30,
                   message="the statement to block on the unread socket")
        grown = _rss_kib(server.process.pid) - before
        assert grown < ROWS * WIDTH // 1024 // 4, f"RSS grew {grown} KiB for an unread result"
        # the only thread group is not pinned: other sessions are still answered
        assert server.query("SELECT 1") == ((1,),)
        _vanish(conn)
        wait_until(lambda: _state(admin, sql) is None, timeout=30,
                   message="the abandoned statement to end")
        admin.close()
    finally:
        stop_process(server)


def test_a_reader_slower_than_net_write_timeout_is_disconnected_and_logged(server):
    admin = server.connect()
    _fill(admin, 20_000)
    sql = "SELECT * FROM s.t"
    conn = server.connect()
    with conn.cursor() as cur:
        # long enough that a loaded machine's poll still sees the blocked state
        cur.execute("SET SESSION net_write_timeout = 3")
    sock = conn._sock
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    conn._execute_command(3, sql)
    wait_until(lambda: _state(admin, sql) == "Writing to net", timeout=30,
               message="the slow reader's statement to block")
    wait_until(lambda: _state(admin, sql) is None, timeout=30,
               message="the slow reader to be disconnected after net_write_timeout")
    wait_until(lambda: "Got timeout writing communication packets"
               in (server.datadir / "error.log").read_text(), timeout=10,
               message="the timeout's log line")
    sock.shutdown(socket.SHUT_RDWR)
    assert server.query("SELECT 1") == ((1,),)


def test_a_streamed_result_is_whole_and_found_rows_counts_it(server):
    admin = server.connect()
    _fill(admin, 5_000)
    with admin.cursor(pymysql.cursors.SSCursor) as cur:
        cur.execute("SELECT id, v FROM s.t ORDER BY id")
        ids = [row[0] for row in cur]
    assert ids == list(range(5_000))
    with admin.cursor() as cur:
        cur.execute("SELECT id FROM s.t WHERE id % 2 = 0")
        assert len(cur.fetchall()) == 2_500
        cur.execute("SELECT FOUND_ROWS()")
        assert cur.fetchone()[0] == 2_500
        cur.execute("SELECT id DIV 0 FROM s.t")  # warnings raised while streaming are counted
        assert len(cur.fetchall()) == 5_000
        cur.execute("SHOW COUNT(*) WARNINGS")
        assert cur.fetchone()[0] >= 1


def test_kill_query_while_streaming_ends_the_result_with_an_error(server):
    admin = server.connect()
    _fill(admin, 20_000)
    sql = "SELECT a.id FROM s.t a JOIN s.t b ON b.id < 20000"  # 400 M rows: never finishes
    reader = server.connect(cursorclass=pymysql.cursors.SSCursor)
    got: list[object] = []

    def read() -> None:
        try:
            with reader.cursor() as cur:
                cur.execute(sql)
                for _row in cur:
                    pass
        except pymysql.MySQLError as e:
            got.append(e.args[0])

    t = threading.Thread(target=read)
    t.start()
    cid = wait_until(lambda: _id_of(admin, sql), timeout=30, message="the statement to run")
    with admin.cursor() as cur:
        cur.execute(f"KILL QUERY {cid}")
    t.join(30)
    assert got == [1317]
    with reader.cursor() as cur:
        cur.execute("SELECT 1")
        assert list(cur.fetchall()) == [(1,)]


def _id_of(admin, info: str) -> int | None:
    with admin.cursor() as cur:
        cur.execute("SELECT ID FROM information_schema.PROCESSLIST WHERE INFO = %s", (info,))
        row = cur.fetchone()
        return int(row[0]) if row else None
