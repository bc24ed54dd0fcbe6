"""A/B of two rampmeter source trees under sysbench, interleaved in one run.

`rampmeter bench` measures one checkout; comparing a branch with main needs both servers in the
same run, taking turns, so that whatever else the machine does lands on both alike. This starts
one server per tree (`python -m rampmeter serve` with PYTHONPATH=<tree>/src, the same Python),
prepares sysbench's table on each (1 table x --table-size rows), then runs
`sysbench <script> --threads=N --time=T` against A, B, B, A, A, B ... (--rounds times each) and
prints each run's qps and the server's CPU per statement (utime + stime from /proc/<pid>/stat
over the run, divided by the statements sysbench counted).

Example (the commands behind docs/benchmarks.md's A/B tables):

  git archive main | (mkdir -p /tmp/rm-main && tar -x -C /tmp/rm-main)
  .venv/bin/python scripts/ab_sysbench.py --a /tmp/rm-main --b . --threads 16 --rounds 3
  .venv/bin/python scripts/ab_sysbench.py --a /tmp/rm-main --b . --ps-mode auto

Servers listen on 127.0.0.1 only and are stopped at the end, whatever happens.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_QPS = re.compile(r"queries:\s+\d+\s+\((?P<qps>[\d.]+) per sec")
_TOTAL = re.compile(r"queries:\s+(?P<n>\d+)")
_PORT = re.compile(r"port: (\d+)")


def cpu_seconds(pid: int) -> float:
    parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    def __init__(self, label: str, tree: Path, extra: list[str]) -> None:
        self.label = label
        self.dir = Path(tempfile.mkdtemp(prefix=f"rm-ab-{label}-"))
        log = (self.dir / "server.log").open("wb")
        env = {**os.environ, "PYTHONPATH": str(tree.resolve() / "src"), "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rampmeter", "serve", "--port=0", "--bind-address=127.0.0.1",
             f"--datadir={self.dir / 'data'}", "--max-connections=4000", *extra],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
            start_new_session=True)
        self.port = self._wait_port()

    def _wait_port(self) -> int:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            text = (self.dir / "server.log").read_text(errors="replace")
            if "ready for connections" in text and (m := _PORT.search(text)):
                return int(m.group(1))
            if self.proc.poll() is not None:
                raise SystemExit(f"{self.label}: server exited:\n{text[-2000:]}")
            time.sleep(0.1)
        raise SystemExit(f"{self.label}: not ready in 60 s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def sysbench(server: Server, args: argparse.Namespace, action: str) -> str:
    cmd = ["sysbench", args.script, "--mysql-host=127.0.0.1", f"--mysql-port={server.port}",
           "--mysql-user=root", "--mysql-password=", "--mysql-db=sbtest", "--tables=1",
           f"--table-size={args.table_size}", f"--threads={args.threads}",
           f"--time={args.time}", f"--db-ps-mode={args.ps_mode}", "--mysql-ignore-errors=all",
           action]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.time + 600)
    if done.returncode != 0:
        raise SystemExit(f"{server.label}: sysbench {action} failed:\n{done.stdout[-2000:]}"
                         f"{done.stderr[-2000:]}")
    return done.stdout


def prepare(server: Server, args: argparse.Namespace) -> None:
    subprocess.run(["mariadb", "-h127.0.0.1", f"-P{server.port}", "-uroot",
                    "-e", "CREATE DATABASE IF NOT EXISTS sbtest"], check=True, timeout=60)
    saved = args.threads
    args.threads = 1
    try:
        sysbench(server, args, "prepare")
    finally:
        args.threads = saved


def one_run(server: Server, args: argparse.Namespace) -> tuple[float, float]:
    before = cpu_seconds(server.proc.pid)
    out = sysbench(server, args, "run")
    cpu = cpu_seconds(server.proc.pid) - before
    qps = float(_QPS.search(out).group("qps"))  # type: ignore[union-attr]
    total = int(_TOTAL.search(out).group("n"))  # type: ignore[union-attr]
    return qps, cpu / max(total, 1) * 1e6


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--a", type=Path, required=True, help="source tree A (has src/rampmeter)")
    p.add_argument("--b", type=Path, required=True, help="source tree B")
    p.add_argument("--script", default="oltp_point_select")
    p.add_argument("--threads", type=int, default=16)
    p.add_argument("--time", type=int, default=10)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--ps-mode", default="disable", choices=("disable", "auto"))
    p.add_argument("--table-size", type=int, default=10000)
    p.add_argument("--server-option", action="append", default=[],
                   help="an option for both servers (repeatable)")
    args = p.parse_args(argv)
    servers = []
    try:
        for label, tree in (("A", args.a), ("B", args.b)):
            servers.append(Server(label, tree, args.server_option))
        for s in servers:
            prepare(s, args)
        results: dict[str, list[tuple[float, float]]] = {"A": [], "B": []}
        for r in range(args.rounds):
            # ABBA: whichever runs first in a round was seen to win by a few per cent
            for s in (servers if r % 2 == 0 else servers[::-1]):
                qps, us = one_run(s, args)
                results[s.label].append((qps, us))
                print(f"round {r + 1} {s.label}: {qps:8.0f} qps  {us:6.1f} us/stmt", flush=True)
        print(f"\n{args.script} --threads={args.threads} --db-ps-mode={args.ps_mode} "
              f"({args.rounds} x {args.time} s each, interleaved)")
        for label, tree in (("A", args.a), ("B", args.b)):
            runs = results[label]
            qps = sorted(q for q, _ in runs)
            us = sorted(u for _, u in runs)
            print(f"{label} {tree}: qps median {qps[len(qps) // 2]:.0f} (min {qps[0]:.0f}, "
                  f"max {qps[-1]:.0f}); server CPU/stmt median {us[len(us) // 2]:.1f} us")
    finally:
        for s in servers:
            s.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
