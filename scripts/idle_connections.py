"""Connection footprint: what N idle client connections cost the server, and a connect storm.

Two measurements, both against a server this script starts (rampmeter, or MariaDB for the
same-run comparison) on 127.0.0.1, the server's figures read from /proc/<pid>:

  idle   N connections each log in, run one point select on a 100-row table, then sit idle.
         Reported: server threads, RSS and open file descriptors before and after, and the
         cost per connection.
  storm  a few busy connections (in a process of their own) run point selects in a loop while
         M connects arrive at once;
         the server has max_connections = --max-connections. Reported: how many connects
         were accepted, refused with 1040, or failed otherwise, how long the storm took, and
         the busy connections' throughput before and during it.

Examples (the commands behind docs/benchmarks.md's connection-footprint section):

  .venv/bin/python scripts/idle_connections.py idle --connections 10000
  .venv/bin/python scripts/idle_connections.py idle --connections 4000 \
      --target 'mariadb=--thread-handling=pool-of-threads'
  .venv/bin/python scripts/idle_connections.py storm --connects 10000 --max-connections 2000

The process's open-file limit (ulimit -n) must exceed the connection count, for this script
and for the server it starts (which inherits it): the script raises its soft limit to the
hard one. Only loopback addresses are used; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

from rampmeter.bench.targets import Target, parse_target
from rampmeter.bench.wire import Connection, Endpoint, MySQLError

ROWS = 100
QUERY = "SELECT c FROM t WHERE id = {}"


def proc_figures(pid: int) -> dict[str, float]:
    """Threads, RSS (MiB) and open file descriptors of a process, from /proc."""
    status = Path(f"/proc/{pid}/status").read_text()
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    rss_kib = int(fields["VmRSS"].split()[0])
    return {"threads": int(fields["Threads"]), "rss_mib": round(rss_kib / 1024, 1),
            "fds": len(os.listdir(f"/proc/{pid}/fd"))}


def cpu_seconds(pid: int) -> float:
    parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


async def prepare(ep: Endpoint) -> None:
    conn = await ep.connect(database="")
    try:
        await conn.query("CREATE DATABASE IF NOT EXISTS idle")
        await conn.query("CREATE TABLE IF NOT EXISTS idle.t "
                         "(id INT PRIMARY KEY, c VARCHAR(120) NOT NULL)")
        rows = ", ".join(f"({i}, '{'x' * 60}-{i}')" for i in range(1, ROWS + 1))
        await conn.query(f"REPLACE INTO idle.t VALUES {rows}")
    finally:
        conn.close()


async def open_idle(ep: Endpoint, n: int, parallel: int) -> list[Connection]:
    """n connections, each having run one point select; at most `parallel` logging in at once."""
    gate = asyncio.Semaphore(parallel)
    conns: list[Connection] = []

    async def one(i: int) -> None:
        async with gate:
            conn = await ep.connect(database="idle", timeout=60.0)
            await conn.query(QUERY.format(i % ROWS + 1))
            conns.append(conn)

    await asyncio.gather(*(one(i) for i in range(n)))
    return conns


async def settle(pid: int, seconds: float = 15.0) -> dict[str, float]:
    """The server's figures once its thread count has stopped moving (idle threads retire
    only after thread_pool_idle_timeout, so this reads what an idle server holds *now*)."""
    last = proc_figures(pid)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(1.0)
        now = proc_figures(pid)
        if now["threads"] == last["threads"] and abs(now["rss_mib"] - last["rss_mib"]) < 1:
            return now
        last = now
    return last


async def idle(args: argparse.Namespace, target: Target) -> dict[str, object]:
    assert target.endpoint is not None and target.process is not None
    pid = target.process.pid
    await prepare(target.endpoint)
    before = await settle(pid, 5.0)
    started = time.monotonic()
    conns = await open_idle(target.endpoint, args.connections, args.parallel)
    opened = time.monotonic() - started
    after = await settle(pid)
    n = len(conns)
    for c in conns:
        c.close()
    return {
        "mode": "idle", "target": target.spec.label, "connections": n,
        "open_seconds": round(opened, 1), "before": before, "after": after,
        "rss_kib_per_connection": round((after["rss_mib"] - before["rss_mib"]) * 1024 / n, 1),
        "fds_per_connection": round((after["fds"] - before["fds"]) / n, 2),
    }


async def _busy(ep: Endpoint, seconds: float, n: int, stop: Any) -> list[float]:
    """n connections running point selects until `stop` is set (at most `seconds`); the wall
    time of each answer."""
    done: list[float] = []
    stop_at = time.time() + seconds

    async def loop() -> None:
        conn = await ep.connect(database="idle")
        i = 0
        try:
            while time.time() < stop_at and not (i % 64 == 0 and stop.is_set()):
                await conn.query(QUERY.format(i % ROWS + 1))
                done.append(time.time())
                i += 1
        finally:
            conn.close()

    await asyncio.gather(*(loop() for _ in range(n)))
    return done


def busy_process(ep: Endpoint, seconds: float, n: int, stop: Any, out: Any) -> None:
    """The busy connections run in a process of their own, so the storm's client work does
    not slow them down: what they see is the server's answer time alone."""
    out.put(asyncio.run(_busy(ep, seconds, n, stop)))


def rate(stamps: list[float], start: float, end: float) -> float:
    return sum(1 for t in stamps if start <= t < end) / max(end - start, 1e-9)


async def storm(args: argparse.Namespace, target: Target) -> dict[str, object]:
    assert target.endpoint is not None and target.process is not None
    ep, pid = target.endpoint, target.process.pid
    await prepare(ep)
    results: Any = multiprocessing.Queue()
    stop = multiprocessing.Event()
    busy = multiprocessing.Process(target=busy_process,
                                   args=(ep, args.window + 300, args.busy, stop, results))
    busy.start()
    await asyncio.sleep(1.0 + args.window)  # warm-up, then the quiet window
    quiet = (time.time() - args.window, time.time())

    outcome = {"accepted": 0, "refused_1040": 0, "other": 0}
    kept: list[Connection] = []

    async def connect(i: int) -> None:
        try:
            conn = await ep.connect(database="idle", timeout=120.0)
            await conn.query(QUERY.format(i % ROWS + 1))
            kept.append(conn)
            outcome["accepted"] += 1
        except MySQLError as e:
            outcome["refused_1040" if e.code == 1040 else "other"] += 1
        except (OSError, TimeoutError):
            outcome["other"] += 1

    t1, cpu1 = time.time(), cpu_seconds(pid)
    await asyncio.gather(*(connect(i) for i in range(args.connects)))
    t2 = time.time()
    cpu_storm = cpu_seconds(pid) - cpu1
    figures = proc_figures(pid)
    await asyncio.sleep(1.0)
    stop.set()
    stamps: list[float] = await asyncio.get_running_loop().run_in_executor(None, results.get)
    busy.join()
    for c in kept:
        c.close()
    return {"mode": "storm", "target": target.spec.label, "connects": args.connects,
            "max_connections": args.max_connections, **outcome,
            "storm_seconds": round(t2 - t1, 1), "server_cpu_seconds": round(cpu_storm, 1),
            "busy_connections": args.busy, "busy_qps_before": round(rate(stamps, *quiet)),
            "busy_qps_during": round(rate(stamps, t1, t2)), "server_after": figures}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("mode", choices=("idle", "storm"))
    p.add_argument("--target", default="rampmeter",
                   help="rampmeter[=OPTIONS] or mariadb[=OPTIONS] (bench target syntax)")
    p.add_argument("--connections", type=int, default=2000, help="idle: connections to open")
    p.add_argument("--parallel", type=int, default=64, help="idle: logins in flight at once")
    p.add_argument("--connects", type=int, default=10000, help="storm: connects at once")
    p.add_argument("--max-connections", type=int, default=0,
                   help="server max_connections (idle: connections + 50 when 0)")
    p.add_argument("--busy", type=int, default=4, help="storm: busy connections")
    p.add_argument("--window", type=float, default=5.0, help="storm: seconds of the quiet sample")
    args = p.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if not args.max_connections:
        args.max_connections = args.connections + 50 if args.mode == "idle" else 1000
    target = Target(parse_target(args.target))
    target.start(args.max_connections)
    try:
        run = idle if args.mode == "idle" else storm
        report = asyncio.run(run(args, target))
    finally:
        note = target.stop()
        if note:
            print(note, file=sys.stderr)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
