"""A sysbench sweep over connection counts, rampmeter beside MariaDB in the same run, with the
server's CPU per statement (issue 11's table).

`rampmeter bench` draws curves but does not read the server's CPU; this starts both servers
(bench/targets.py: `rampmeter serve` from this checkout, a throw-away mariadbd), prepares
sysbench's table on each (1 table x --table-size rows), and for each connection count and
each ps mode runs `sysbench <script> --threads=N --time=T` against each server in turn
(alternating which goes first). Per run: qps, and the server's utime + stime from
/proc/<pid>/stat over the run divided by the statements sysbench counted.

With --warmup W, each run is `--time=W+T --report-checkpoints=W`: sysbench connects its
threads and runs W seconds that are not counted (the checkpoint report resets its counters, as
`rampmeter bench` does), and the server's CPU is read at W and at the end, so qps and CPU per
statement are those of the steady state. Without it (the default, W = 0) the counted window
also holds the N logins of the step: at 2048 connections that is 2048 handshakes inside a 10 s
window, which is a login-cost measurement as much as a statement one.

  .venv/bin/python scripts/sweep_sysbench.py --connections 1,16,256,1024,2048 --time 10 \
      [--before /tmp/rm-before]     # and a tree to compare with (git worktree add ...)

Servers listen on 127.0.0.1 only and are stopped at the end, whatever happens.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from rampmeter.bench.targets import Target, parse_target

_QPS = re.compile(r"queries:\s+\d+\s+\((?P<qps>[\d.]+) per sec")
_TOTAL = re.compile(r"queries:\s+(?P<n>\d+)")


def cpu_seconds(pid: int) -> float:
    parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def sysbench_cmd(t: Target, args: argparse.Namespace, action: str, threads: int,
                 ps: str) -> list[str]:
    assert t.endpoint is not None
    warmup = args.warmup if action == "run" else 0
    cmd = ["sysbench", args.script, "--mysql-host=127.0.0.1", f"--mysql-port={t.endpoint.port}",
           "--mysql-user=root", "--mysql-password=", "--mysql-db=sbtest", "--tables=1",
           f"--table-size={args.table_size}", f"--threads={threads}",
           f"--time={args.time + warmup}", f"--db-ps-mode={ps}", "--mysql-ignore-errors=all"]
    if warmup:
        cmd.append(f"--report-checkpoints={warmup}")
    return [*cmd, action]


def sysbench(t: Target, args: argparse.Namespace, action: str, threads: int,
             ps: str) -> str:
    cmd = sysbench_cmd(t, args, action, threads, ps)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.time + 600)
    if done.returncode != 0:
        raise SystemExit(f"{t.spec.label}: sysbench {action} failed:\n{done.stdout[-2000:]}"
                         f"{done.stderr[-2000:]}")
    return done.stdout


def one_run(t: Target, args: argparse.Namespace, threads: int, ps: str) -> tuple[float, float]:
    assert t.process is not None
    cmd = sysbench_cmd(t, args, "run", threads, ps)
    before = cpu_seconds(t.process.pid)
    started = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if args.warmup:
        # The checkpoint at W resets sysbench's counters; read the server's CPU there too.
        time.sleep(max(0.0, started + args.warmup - time.monotonic()))
        before = cpu_seconds(t.process.pid)
    out, _ = proc.communicate(timeout=args.time + args.warmup + 600)
    cpu = cpu_seconds(t.process.pid) - before
    if proc.returncode != 0:
        raise SystemExit(f"{t.spec.label}: sysbench run failed:\n{out[-3000:]}")
    # The last report is the final one (after the checkpoint's, when there is a warm-up).
    qps = float(_QPS.findall(out)[-1])
    total = int(_TOTAL.findall(out)[-1])
    return qps, cpu / max(total, 1) * 1e6


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--script", default="oltp_point_select")
    p.add_argument("--connections", default="1,16,256,1024,2048")
    p.add_argument("--ps-modes", default="disable,auto")
    p.add_argument("--time", type=int, default=10)
    p.add_argument("--warmup", type=int, default=0,
                   help="seconds run before the counted --time (connects, caches); not counted")
    p.add_argument("--table-size", type=int, default=10000)
    p.add_argument("--target", action="append", default=[],
                   help="bench target specs [rampmeter:pool=--thread-handling=pool-of-threads, "
                        "mariadb:pool=--thread-handling=pool-of-threads]")
    p.add_argument("--before", type=Path,
                   help="also run rampmeter from this source tree (its src/ first on "
                        "PYTHONPATH), as the target rampmeter:before; a --target named "
                        "rampmeter:before... runs from that tree too")
    args = p.parse_args(argv)
    counts = [int(c) for c in args.connections.split(",")]
    specs = args.target or ["rampmeter:pool=--thread-handling=pool-of-threads",
                            "mariadb:pool=--thread-handling=pool-of-threads"]
    if args.before is not None:
        specs = ["rampmeter:before=--thread-handling=pool-of-threads", *specs]
    targets = [Target(parse_target(s)) for s in specs]
    try:
        for t in targets:
            saved = os.environ.get("PYTHONPATH")
            if t.spec.label.startswith("rampmeter:before"):
                os.environ["PYTHONPATH"] = str(args.before.resolve() / "src")
            try:
                t.start(max(counts) + 16)
            finally:
                if saved is None:
                    os.environ.pop("PYTHONPATH", None)
                else:
                    os.environ["PYTHONPATH"] = saved
            assert t.endpoint is not None
            subprocess.run(["mariadb", "-h127.0.0.1", f"-P{t.endpoint.port}", "-uroot",
                            "-e", "CREATE DATABASE IF NOT EXISTS sbtest"], check=True,
                           timeout=60)
            sysbench(t, args, "prepare", 1, "disable")
        print(f"{args.script}, 1 table x {args.table_size} rows, {args.time} s a step"
              + (f" after {args.warmup} s not counted" if args.warmup else ""))
        print("| connections | ps mode | " + " | ".join(
            f"{t.spec.label} qps (CPU/stmt)" for t in targets) + " |")
        step = 0
        for n in counts:
            for ps in args.ps_modes.split(","):
                order = targets if step % 2 == 0 else targets[::-1]
                step += 1
                got = {t.spec.label: one_run(t, args, n, ps) for t in order}
                print(f"| {n} | {ps} | " + " | ".join(
                    f"{got[t.spec.label][0]:.0f} ({got[t.spec.label][1]:.0f} us)"
                    for t in targets) + " |", flush=True)
    finally:
        for t in targets:
            t.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
