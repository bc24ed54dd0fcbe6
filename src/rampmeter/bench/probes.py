# What the server itself costs during a step: its thread count and memory, sampled once a second
# while the load runs; a step reports the highest values seen.
#
# Rules:
# - A server the bench started is a child process: read /proc/<pid>/status (Threads, VmRSS).
#   That is exact and costs the server nothing. Its exit is noticed here too (`dead()`).
# - A server given by URL is read through SHOW GLOBAL STATUS on one extra connection, opened
#   before the step's own: threads = Threadpool_threads under a pool, otherwise
#   Threads_connected + Threads_cached (one thread per connection plus the cache); memory =
#   MariaDB's Memory_used (what the server accounts for, not RSS; absent on MySQL, left empty).
# - Sampling never fails a step: a probe that cannot read leaves the columns empty.
# - Server CPU (user + system seconds, /proc/<pid>/stat) is read at the window's start and end
#   for a child process only: with the step's queries that gives the server's CPU per
#   statement, the figure that says what a change costs even when the client is the ceiling.
#   A URL target has no such reading (None).

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path
from typing import Protocol

from rampmeter.bench.wire import Connection, Endpoint, MySQLError


class Probe(Protocol):
    source: str

    async def open(self) -> None: ...
    async def sample(self) -> tuple[int | None, float | None]: ...
    def dead(self) -> str | None: ...
    def cpu_seconds(self) -> float | None: ...
    def close(self) -> None: ...


def read_proc_status(pid: int) -> tuple[int | None, float | None]:
    """(threads, RSS in MiB) of a live process, from /proc/<pid>/status."""
    threads: int | None = None
    rss: float | None = None
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None, None
    for line in text.splitlines():
        if line.startswith("Threads:"):
            threads = int(line.split()[1])
        elif line.startswith("VmRSS:"):
            rss = round(int(line.split()[1]) / 1024.0, 1)  # kB
    return threads, rss


def read_proc_cpu(pid: int) -> float | None:
    """User + system CPU seconds of a live process (all its threads), from /proc/<pid>/stat."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # after "pid (comm) ": state is field 3
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14, 15)


class ProcProbe:
    source = "/proc"

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process

    async def open(self) -> None:
        return None

    async def sample(self) -> tuple[int | None, float | None]:
        return read_proc_status(self.process.pid)

    def cpu_seconds(self) -> float | None:
        return read_proc_cpu(self.process.pid)

    def dead(self) -> str | None:
        code = self.process.poll()
        return None if code is None else f"server exited with code {code}"

    def close(self) -> None:
        return None


def threads_from_status(status: dict[str, str]) -> int | None:
    """Server threads from SHOW GLOBAL STATUS values (see the rules above)."""
    def num(name: str) -> int | None:
        value = status.get(name)
        return int(value) if value is not None and value.strip().isdigit() else None

    pool = num("Threadpool_threads")
    if pool:
        return pool
    connected, cached = num("Threads_connected"), num("Threads_cached")
    if connected is None:
        return None
    return connected + (cached or 0)


class StatusProbe:
    source = "SHOW STATUS"

    def __init__(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint
        self.conn: Connection | None = None
        self.failures = 0

    async def open(self) -> None:
        try:
            self.conn = await self.endpoint.connect(database="", timeout=5.0)
        except (MySQLError, OSError, TimeoutError):
            self.conn = None

    async def sample(self) -> tuple[int | None, float | None]:
        if self.conn is None or self.conn.closed:
            return None, None
        try:
            async with asyncio.timeout(5.0):
                result = await self.conn.query("SHOW GLOBAL STATUS", decode=True)
        except (MySQLError, TimeoutError):
            self.failures += 1
            return None, None
        status = {str(row[0]): str(row[1]) for row in result.values if len(row) >= 2}
        used = status.get("Memory_used", "")
        mem = round(int(used) / 1048576.0, 1) if used.isdigit() else None
        return threads_from_status(status), mem

    def dead(self) -> str | None:
        return None  # a URL target's death shows as failed statements and reconnects

    def cpu_seconds(self) -> float | None:
        return None  # not ours to read

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


class Sampler:
    """Samples a probe once a second in the background; keeps the highest values seen."""

    def __init__(self, probe: Probe | None) -> None:
        self.probe = probe
        self.threads: int | None = None
        self.rss_mb: float | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def source(self) -> str:
        return self.probe.source if self.probe is not None else ""

    def dead(self) -> str | None:
        return self.probe.dead() if self.probe is not None else None

    def cpu_seconds(self) -> float | None:
        return self.probe.cpu_seconds() if self.probe is not None else None

    async def start(self) -> None:
        if self.probe is not None:
            await self.probe.open()
            self._task = asyncio.create_task(self._loop())

    async def _loop(self) -> None:
        assert self.probe is not None
        while True:
            threads, rss = await self.probe.sample()
            if threads is not None:
                self.threads = max(self.threads or 0, threads)
            if rss is not None:
                self.rss_mb = max(self.rss_mb or 0.0, rss)
            await asyncio.sleep(1.0)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        if self.probe is not None:
            # one last look, with every connection of the step still open
            threads, rss = await self.probe.sample()
            if threads is not None:
                self.threads = max(self.threads or 0, threads)
            if rss is not None:
                self.rss_mb = max(self.rss_mb or 0.0, rss)
            self.probe.close()
