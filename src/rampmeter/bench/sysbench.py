# Driving the real sysbench (1.0.x) for the oltp_* workloads, and reading what it prints.
#
# Rules:
# - One sysbench process per step: `run --threads=C --time=W+D --report-checkpoints=W`.
#   sysbench 1.0.20 has no --warmup-time (that is 1.1); a checkpoint report at W prints the
#   warm-up's statistics and resets every counter and the latency histogram, so the final report
#   covers the measured window only (checked on this machine: the final histogram holds the
#   window's events, not the run's).
# - Percentiles: sysbench computes one (--percentile=95); --histogram=on prints its whole latency
#   histogram, which histogram.from_sysbench() turns into p50/p95/p99 (see histogram.py); max is
#   sysbench's exact "max:". A sysbench event is a transaction (1 statement for point_select).
# - --mysql-ignore-errors=all: a failing statement is counted ("ignored errors", err/s) and the
#   thread goes on, as the built-in client does; lost connections show as reconnects. A failure
#   to connect still aborts sysbench: the step fails with sysbench's FATAL line.
# - The bench creates the tables itself (prepare.py, sysbench's own DDL), so this module only
#   runs `run`; sysbench never needs `prepare`/`cleanup` here.
# - A sysbench that outlives its time by HANG_GRACE_S (a hung server) is killed.

from __future__ import annotations

import asyncio
import re
import resource
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass

from rampmeter.bench.histogram import from_sysbench, sysbench_buckets
from rampmeter.bench.probes import Sampler
from rampmeter.bench.results import FAILED, ClassStats, Interval, StepResult
from rampmeter.bench.wire import Endpoint
from rampmeter.bench.workloads import Settings

SCRIPTS = ("oltp_point_select", "oltp_read_only", "oltp_read_write")
PS_MODES = ("disable", "auto")
HANG_GRACE_S = 30.0

_INTERVAL = re.compile(
    r"^\[\s*(?P<t>[\d.]+)s\s*\]\s+thds:\s*(?P<thds>\d+)\s+tps:\s*(?P<tps>[\d.]+)\s+"
    r"qps:\s*(?P<qps>[\d.]+).*?lat \(ms,\d+%\):\s*(?P<lat>[\d.]+)\s+"
    r"err/s:?\s*(?P<err>[\d.]+)\s+reconn/s:\s*(?P<reconn>[\d.]+)")


def find() -> str | None:
    return shutil.which("sysbench")


def version(binary: str | None = None) -> str:
    import subprocess

    binary = binary or find()
    if not binary:
        return ""
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10)
    return out.stdout.strip()


def command(binary: str, script: str, endpoint: Endpoint, settings: Settings, threads: int,
            warmup: int, duration: int, ps_mode: str) -> list[str]:
    cmd = [binary, script, f"--mysql-host={endpoint.host}", f"--mysql-port={endpoint.port}",
           f"--mysql-user={endpoint.user}", f"--mysql-db={endpoint.database}",
           f"--tables={settings.tables}", f"--table-size={settings.table_size}",
           f"--threads={threads}", f"--time={warmup + duration}", "--report-interval=1",
           f"--db-ps-mode={ps_mode}", "--percentile=95", "--histogram=on",
           "--mysql-ignore-errors=all"]
    if endpoint.password:
        cmd.insert(5, f"--mysql-password={endpoint.password}")
    if warmup > 0:
        cmd.append(f"--report-checkpoints={warmup}")
    cmd.append("run")
    return cmd


def parse_interval(line: str, warmup_s: float) -> Interval | None:
    m = _INTERVAL.match(line.strip())
    if not m:
        return None
    t = float(m["t"])
    return Interval(t, t <= warmup_s, int(m["thds"]), float(m["tps"]), float(m["qps"]),
                    float(m["lat"]), float(m["err"]), float(m["reconn"]))


@dataclass
class Summary:
    """sysbench's final report (the last one printed)."""

    transactions: int = 0
    tps: float = 0.0
    queries: int = 0
    qps: float = 0.0
    errors: int = 0
    reconnects: int = 0
    total_time: float = 0.0
    max_ms: float = 0.0
    percentile_ms: float = 0.0


def _grab(pattern: str, text: str) -> re.Match[str] | None:
    return re.search(pattern, text, re.MULTILINE)


def parse_summary(text: str) -> Summary | None:
    """The numbers of the LAST "SQL statistics" block, or None when there is none."""
    at = text.rfind("SQL statistics:")
    if at < 0:
        return None
    block = text[at:]
    s = Summary()
    if m := _grab(r"^\s*transactions:\s+(\d+)\s+\(([\d.]+) per sec", block):
        s.transactions, s.tps = int(m[1]), float(m[2])
    if m := _grab(r"^\s*queries:\s+(\d+)\s+\(([\d.]+) per sec", block):
        s.queries, s.qps = int(m[1]), float(m[2])
    if m := _grab(r"^\s*ignored errors:\s+(\d+)", block):
        s.errors = int(m[1])
    if m := _grab(r"^\s*reconnects:\s+(\d+)", block):
        s.reconnects = int(m[1])
    if m := _grab(r"^\s*total time:\s+([\d.]+)s", block):
        s.total_time = float(m[1])
    if m := _grab(r"^\s*max:\s+([\d.]+)", block):
        s.max_ms = float(m[1])
    if m := _grab(r"^\s*\d+th percentile:\s+([\d.]+)", block):
        s.percentile_ms = float(m[1])
    return s


def fatal_line(text: str) -> str:
    """sysbench's reason for giving up (FATAL lines, or the last non-empty line)."""
    fatal = [ln.strip() for ln in text.splitlines() if "FATAL" in ln or "error" in ln.lower()]
    if fatal:
        return " | ".join(dict.fromkeys(fatal))[:500]
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1][:500] if lines else "sysbench printed nothing"


def fill(result: StepResult, text: str, duration: int) -> StepResult:
    """Turn sysbench's output into the step's numbers."""
    summary = parse_summary(text)
    if summary is None or summary.transactions == 0 and summary.errors == 0:
        result.status, result.error = FAILED, fatal_line(text)
        return result
    latency = from_sysbench(sysbench_buckets(text)).summary(exact_max_ms=summary.max_ms)
    result.events, result.tps = summary.transactions, summary.tps
    result.queries, result.qps = summary.queries, summary.qps
    result.errors, result.reconnects = summary.errors, summary.reconnects
    result.latency = latency
    result.duration_s = float(duration)
    result.connections_open = result.connections
    result.classes["txn"] = ClassStats(result.connections, summary.transactions,
                                       summary.queries, summary.errors, summary.tps, latency)
    if summary.errors:
        result.error = f"{summary.errors} ignored errors (sysbench does not say which)"
    return result


async def run_step(binary: str, script: str, ps_mode: str, endpoint: Endpoint,
                   settings: Settings, result: StepResult, warmup: int, duration: int,
                   sampler: Sampler, on_interval: Callable[[Interval], None]) -> StepResult:
    cmd = command(binary, script, endpoint, settings, result.connections, warmup, duration,
                  ps_mode)
    await sampler.start()
    cpu0 = _children_cpu()
    start = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(*cmd, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.STDOUT)
    assert proc.stdout is not None
    lines: list[str] = []
    dead: str | None = None
    try:
        async with asyncio.timeout(warmup + duration + HANG_GRACE_S + result.connections * 0.05):
            while raw := await proc.stdout.readline():
                line = raw.decode("utf-8", "replace")
                lines.append(line)
                interval = parse_interval(line, warmup)
                if interval is not None:
                    on_interval(interval)
                    if dead := sampler.dead():
                        break
            if dead is None:
                await proc.wait()
    except TimeoutError:
        dead = dead or "sysbench did not finish in time (server hung?); killed"
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await sampler.stop()
    elapsed = time.perf_counter() - start
    fill(result, "".join(lines), duration)
    result.client_cpu = (_children_cpu() - cpu0) / max(elapsed, 1e-6)
    result.server_threads, result.server_rss_mb = sampler.threads, sampler.rss_mb
    result.server_stats_from = sampler.source
    if dead or (result.ok and proc.returncode not in (0, None)):
        result.status = FAILED
        result.error = dead or f"sysbench exited with {proc.returncode}: {fatal_line(''.join(lines))}"
    return result


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
