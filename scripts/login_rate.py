"""Logins per second and server CPU per login against a running server (the handshake path).

N clients connect, log in to `--database`, run one point select and stay connected (or
close at once with --close), `--parallel` at a time; the server's utime and stime over the
logins are read from /proc/<pid>/stat. Used with py-spy for docs/performance.md:

  .venv/bin/python scripts/login_rate.py --port P --pid PID --logins 3000 [--parallel 32]

Only 127.0.0.1; bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

from rampmeter.bench.wire import Connection, Endpoint


def cpu(pid: int) -> tuple[float, float]:
    parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(parts[11]) / tick, int(parts[12]) / tick


async def run(args: argparse.Namespace) -> None:
    ep = Endpoint("127.0.0.1", args.port, database="")
    setup = await ep.connect(database="")
    try:
        await setup.query("CREATE DATABASE IF NOT EXISTS logins")
        await setup.query("CREATE TABLE IF NOT EXISTS logins.t (id INT PRIMARY KEY, c TEXT)")
        await setup.query("REPLACE INTO logins.t VALUES (1, 'x')")
    finally:
        setup.close()
    gate = asyncio.Semaphore(args.parallel)
    kept: list[Connection] = []

    async def one() -> None:
        async with gate:
            conn = await ep.connect(database="logins", timeout=60.0)
            await conn.query("SELECT c FROM t WHERE id = 1")
            if args.close:
                conn.close()
            else:
                kept.append(conn)

    t0, (u0, s0) = time.monotonic(), cpu(args.pid)
    await asyncio.gather(*(one() for _ in range(args.logins)))
    (u1, s1), elapsed, n = cpu(args.pid), time.monotonic() - t0, args.logins
    print(f"{n} logins in {elapsed:.1f} s ({n / elapsed:.0f}/s); server CPU per login "
          f"{(u1 - u0 + s1 - s0) / n * 1e6:.0f} us (user {(u1 - u0) / n * 1e6:.0f}, "
          f"system {(s1 - s0) / n * 1e6:.0f})")
    for conn in kept:
        conn.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--pid", type=int, required=True, help="the server's process id")
    p.add_argument("--logins", type=int, default=2000)
    p.add_argument("--parallel", type=int, default=32)
    p.add_argument("--close", action="store_true", help="close each connection at once")
    asyncio.run(run(p.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
