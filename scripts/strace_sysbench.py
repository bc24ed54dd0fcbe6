"""System calls per statement of one rampmeter tree under sysbench (`strace -c -f`).

Starts the tree's server on 127.0.0.1 (scripts/ab_sysbench.py's Server), prepares sysbench's
table, warms up, then attaches `strace -c -f` to the server for one sysbench run and prints
each system call's count divided by the statements sysbench counted. strace slows the server
several times over, so read the counts, not the qps.

  .venv/bin/python scripts/strace_sysbench.py --tree . --threads 16 --time 8 [--ps-mode auto]
"""

from __future__ import annotations

import argparse
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ab_sysbench as ab  # noqa: E402

_ROW = re.compile(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(?P<calls>\d+)\s+(?:\d+\s+)?(?P<name>\w+)\s*$")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tree", type=Path, required=True)
    p.add_argument("--script", default="oltp_point_select")
    p.add_argument("--threads", type=int, default=16)
    p.add_argument("--time", type=int, default=8)
    p.add_argument("--ps-mode", default="disable", choices=("disable", "auto"))
    p.add_argument("--table-size", type=int, default=10000)
    p.add_argument("--server-option", action="append", default=[])
    p.add_argument("--top", type=int, default=12)
    args = p.parse_args(argv)
    server = ab.Server("S", args.tree, args.server_option)
    try:
        ab.prepare(server, args)
        saved = args.time
        args.time = 3
        ab.sysbench(server, args, "run")  # warm-up
        args.time = saved
        out = Path(tempfile.mkstemp(prefix="strace-", suffix=".txt")[1])
        tracer = subprocess.Popen(["strace", "-c", "-f", "-o", str(out), "-p",
                                   str(server.proc.pid)], stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        text = ab.sysbench(server, args, "run")
        tracer.send_signal(signal.SIGINT)
        tracer.wait(60)
        total = int(ab._TOTAL.search(text).group("n"))  # type: ignore[union-attr]
        qps = float(ab._QPS.search(text).group("qps"))  # type: ignore[union-attr]
        rows = []
        for line in out.read_text().splitlines():
            m = _ROW.match(line)
            if m and m.group("name") != "total":
                rows.append((int(m.group("calls")), m.group("name")))
        rows.sort(reverse=True)
        print(f"{args.tree}: {args.script} --threads={args.threads} --db-ps-mode={args.ps_mode}"
              f": {total} statements ({qps:.0f} qps under strace)")
        print(" ".join(f"{name}={calls / total:.2f}" for calls, name in rows[:args.top]))
        print(f"all={sum(c for c, _ in rows) / total:.2f} per statement")
        out.unlink()
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
