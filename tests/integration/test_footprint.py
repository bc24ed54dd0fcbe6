"""Connection footprint (issue 11): idle client connections hold no engine handle, so each one
costs the server about one file descriptor (its socket) and no thread.

A CI-sized version of scripts/idle_connections.py (docs/benchmarks.md has the 10 000-connection
figures): the server runs as a process of its own, so /proc shows its threads and descriptors
alone, and the clients are the bench's asyncio client, so 2 000 logins take seconds.
"""

from __future__ import annotations

import asyncio
import os
import resource
from pathlib import Path

import pytest

from rampmeter.bench.wire import Connection

from ..conftest import start_process, stop_process, wait_until

N = 2000


def _figures(pid: int) -> tuple[int, int, int]:
    """(threads, RSS KiB, open descriptors) of a process."""
    fields = dict(line.split(":", 1) for line in
                  Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return (int(fields["Threads"]), int(fields["VmRSS"].split()[0]),
            len(os.listdir(f"/proc/{pid}/fd")))


async def _open(port: int, n: int) -> list[Connection]:
    gate = asyncio.Semaphore(64)
    conns: list[Connection] = []

    async def one(i: int) -> None:
        async with gate:
            conn = await Connection.connect("127.0.0.1", port, database="fp", timeout=30)
            result = await conn.query(f"SELECT v FROM t WHERE id = {i % 10 + 1}")
            assert result.rows == 1
            conns.append(conn)

    await asyncio.gather(*(one(i) for i in range(n)))
    return conns


@pytest.mark.timeout(180)
def test_idle_connections_cost_a_descriptor_each_and_no_thread(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < 2 * N + 200:
        pytest.skip(f"open-file limit {hard} is too low for {N} connections")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server inherits it
    server = start_process(tmp_path, f"--max-connections={N + 50}")
    try:
        assert server.process is not None
        pid = server.process.pid
        admin = server.connect()
        with admin.cursor() as cur:
            cur.execute("CREATE DATABASE fp")
            cur.execute("CREATE TABLE fp.t (id INT PRIMARY KEY, v VARCHAR(20))")
            cur.execute("INSERT INTO fp.t VALUES " +
                        ", ".join(f"({i}, 'v{i}')" for i in range(1, 11)))
        threads0, rss0, fds0 = _figures(pid)

        async def scenario() -> tuple[int, int, int]:
            conns = await _open(server.port, N)
            try:
                # the pool's threads settle (a burst of logins may start extra workers)
                return wait_until(lambda: (f := _figures(pid))[0] <= 20 and f, timeout=30,
                                  message="at most 20 server threads")
            finally:
                for c in conns:
                    c.close()

        threads, rss, fds = asyncio.run(scenario())
        assert threads <= 20
        per_connection_fds = (fds - fds0) / N
        assert 0.95 <= per_connection_fds <= 1.05, (fds0, fds)  # the socket, nothing else
        # ~10 KiB each measured (docs/benchmarks.md); an engine handle per connection was ~170
        assert (rss - rss0) / N < 60, (rss0, rss)
        with admin.cursor() as cur:  # the server still answers, with the clients gone
            cur.execute("SELECT COUNT(*) FROM fp.t")
            assert cur.fetchone() == (10,)
        admin.close()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        stop_process(server)
