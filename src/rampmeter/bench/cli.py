# `rampmeter bench`: the command line, the presets, and the exit code.
#
# Rules:
# - argparse; every flag defaults to None so that a preset fills what the user did not say and
#   DEFAULTS fill the rest: explicit flag > --preset > DEFAULTS. `--preset docs` is the run that
#   produces docs/benchmarks.md (`make bench`).
# - Exit codes: 0 when at least one step measured something, 1 when none did (every target
#   unreachable, every step failed), 2 for a usage error.
# - RLIMIT_NOFILE is raised to its hard limit: 2048 connections need 2048 descriptors here.
# - SIGTERM is handled like Ctrl-C (KeyboardInterrupt): the runner's finally blocks stop the
#   servers it started and delete their files, and the results so far are kept.

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import resource
import shlex
import signal
import sys
from pathlib import Path
from typing import Any

from rampmeter.bench import plots, report, sysbench
from rampmeter.bench.results import StepResult
from rampmeter.bench.runner import Plan, Runner, resolve_workload
from rampmeter.bench.targets import parse_target
from rampmeter.bench.ui import Ui
from rampmeter.bench.workloads import WORKLOADS, Settings

DEFAULTS: dict[str, Any] = {
    "target": ["rampmeter:pool=--thread-handling=pool-of-threads"],
    "workload": ["oltp_point_select"],
    "connections": "1,4,16,64,256,1024",
    "duration": 10.0,
    "warmup": 2.0,
    "out": "bench-results",
    "db_ps_mode": "disable",
    "tables": Settings().tables,
    "table_size": Settings().table_size,
}

POOL = "--thread-handling=pool-of-threads"
PER_THREAD = "--thread-handling=one-thread-per-connection"
PRESETS: dict[str, dict[str, Any]] = {
    # docs/benchmarks.md: both thread_handling modes of rampmeter and of MariaDB 10.11.
    "docs": {
        "target": [f"rampmeter:pool={POOL}", f"rampmeter:perthread={PER_THREAD}",
                   f"mariadb:pool={POOL}", f"mariadb:perthread={PER_THREAD}"],
        "workload": ["oltp_point_select", "oltp_point_select:ps=auto", "point_select",
                     "oltp_read_only", "oltp_read_write", "sleepers", "long_short", "idle_crowd",
                     "transactions"],
        "connections": "1,4,16,64,256,1024,2048",
        "duration": 10.0,
        "warmup": 2.0,
        "out": "bench-results/docs",
    },
    # seconds, not minutes: the CI smoke run
    "smoke": {
        "target": [f"rampmeter:pool={POOL}"],
        "workload": ["point_select"],
        "connections": "1,4",
        "duration": 1.0,
        "warmup": 0.0,
        "out": "bench-results/smoke",
        "tables": 1,
        "table_size": 1000,
    },
}

EPILOG = """\
targets (--target, repeatable; run one after another):
  rampmeter[:NAME][=OPTIONS]   start `rampmeter serve` on a free port with OPTIONS, e.g.
                               rampmeter:pool='--thread-handling=pool-of-threads --thread-pool-size=2'
  mariadb[:NAME][=OPTIONS]     start a throw-away mariadbd (mariadb-install-db in a temp dir), e.g.
                               mariadb:perthread=--thread-handling=one-thread-per-connection
  url:NAME=mysql://user:pass@host:port/db
                               any running server; the bench creates sbtest1..N in db (default
                               sbtest) and drops them afterwards; it never touches existing tables
workloads (--workload, repeatable or comma-separated):
  oltp_point_select, oltp_read_only, oltp_read_write
                               the real sysbench when installed (--db-ps-mode picks disable/auto;
                               NAME:ps=auto for one series; ps=auto series are labelled NAME_ps),
                               else the built-in client's text-protocol equivalents
{builtins}
outputs in --out: results.csv, results.json, summary.md, throughput.png, latency.png
  (+ one PNG pair per workload when there are several).
exit code: 0 if anything was measured, 1 if nothing could be, 2 for bad usage.
example (the docs run): rampmeter bench --preset docs
"""


def build_parser() -> argparse.ArgumentParser:
    builtins = "\n".join(f"  {w.name:<28} {w.summary}" for w in WORKLOADS.values())
    p = argparse.ArgumentParser(
        prog="rampmeter bench", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Sweep client connections (log2 steps) against one or more MySQL servers "
                    "and draw throughput and latency against connections.",
        epilog=EPILOG.format(builtins=builtins))
    p.add_argument("--target", action="append", metavar="SPEC", help="a server to measure")
    p.add_argument("--workload", action="append", metavar="NAME", help="what each step runs")
    p.add_argument("--connections", metavar="N,N,...",
                   help=f"connection counts, one step each [{DEFAULTS['connections']}]")
    p.add_argument("--duration", type=float, metavar="S",
                   help=f"measured seconds per step [{DEFAULTS['duration']:g}]")
    p.add_argument("--warmup", type=float, metavar="S",
                   help=f"warm-up seconds before each step's window [{DEFAULTS['warmup']:g}]")
    p.add_argument("--out", metavar="DIR", help=f"where files go [{DEFAULTS['out']}]")
    p.add_argument("--workdir", metavar="DIR",
                   help="where the servers the bench starts keep their files, one fresh "
                        "directory each, removed afterwards [the system temp dir]")
    p.add_argument("--preset", choices=sorted(PRESETS), help="a named set of the flags above")
    p.add_argument("--db-ps-mode", metavar="MODES",
                   help="sysbench workloads: disable, auto or disable,auto [disable]")
    s = Settings()
    g = p.add_argument_group("data and workload knobs")
    g.add_argument("--tables", type=int, help=f"[{s.tables}]")
    g.add_argument("--table-size", type=int, help=f"rows per table [{s.table_size}]")
    g.add_argument("--sleep", type=float, default=s.sleep,
                   help="sleepers: seconds per SLEEP [%(default)s]")
    g.add_argument("--sleeper-share", type=float, default=s.sleeper_share,
                   help="sleepers: share of connections sleeping [%(default)s]")
    g.add_argument("--long-connections", type=int, default=s.long_connections,
                   help="long_short: connections running the heavy statement [%(default)s]")
    g.add_argument("--long-rows", type=int, default=s.long_rows,
                   help="long_short: the heavy self-join compares N*N rows [%(default)s]")
    g.add_argument("--busy-connections", type=int, default=s.busy_connections,
                   help="idle_crowd: connections at work, the rest idle [%(default)s]")
    g.add_argument("--hot-rows", type=int, default=s.hot_rows,
                   help="transactions: rows the updates contend on [%(default)s]")
    g.add_argument("--seed", type=int, default=1, help="random seed [%(default)s]")
    o = p.add_argument_group("output")
    o.add_argument("--quiet", action="store_true", help="no per-second lines")
    o.add_argument("--no-plots", action="store_true", help="skip the PNGs")
    o.add_argument("--from-json", action="append", metavar="FILE",
                   help="measure nothing: redraw tables and PNGs from earlier results.json "
                        "files (repeatable: merges runs, e.g. rampmeter's and MariaDB's)")
    return p


def _pick(args: argparse.Namespace, name: str) -> Any:
    value = getattr(args, name)
    if value is not None:
        return value
    preset = PRESETS.get(args.preset or "", {})
    return preset.get(name, DEFAULTS[name])


def _split(values: list[str]) -> list[str]:
    return [v.strip() for item in values for v in item.split(",") if v.strip()] \
        if values else []


def make_plan(args: argparse.Namespace, argv: list[str]) -> Plan:
    """Turn flags into a Plan; raise ValueError with a message for bad input."""
    targets = [parse_target(t) for t in _pick(args, "target")]
    labels = [t.label for t in targets]
    if len(set(labels)) != len(labels):
        raise ValueError(f"target labels must be unique, got {labels}: name them KIND:NAME")
    modes = _split([_pick(args, "db_ps_mode")])
    if not modes or any(m not in sysbench.PS_MODES for m in modes):
        raise ValueError(f"--db-ps-mode: {modes} (use disable, auto or disable,auto)")
    sb = sysbench.find()
    workload_names = [w for item in _pick(args, "workload") for w in _split([item])]
    workloads = [run for name in workload_names for run in resolve_workload(name, modes, sb)]
    if len({w.label for w in workloads}) != len(workloads):
        raise ValueError("a workload is listed twice")
    try:
        conns = [int(c) for c in _split([_pick(args, "connections")])]
    except ValueError:
        raise ValueError("--connections: comma-separated integers, e.g. 1,4,16,64") from None
    if not conns or min(conns) < 1:
        raise ValueError("--connections: at least one count, each >= 1")
    duration, warmup = _pick(args, "duration"), _pick(args, "warmup")
    if duration <= 0 or warmup < 0:
        raise ValueError("--duration must be > 0 and --warmup >= 0")
    settings = Settings(_pick(args, "tables"), _pick(args, "table_size"), args.sleep, args.sleeper_share,
                        args.long_connections, args.long_rows, args.busy_connections,
                        args.hot_rows)
    if settings.tables < 1 or settings.table_size < 1:
        raise ValueError("--tables and --table-size must be >= 1")
    out = Path(_pick(args, "out"))
    meta = {"command": "rampmeter bench " + shlex.join(argv), "started": _now(),
            "machine": machine(), "sysbench": sysbench.version(sb) if sb else "not installed",
            "python": platform.python_version(), "settings": vars(settings),
            "connections": conns, "duration_s": duration, "warmup_s": warmup,
            "workloads": [vars(w) for w in workloads]}
    workdir = Path(args.workdir) if args.workdir else None
    return Plan(targets, workloads, conns, warmup, duration, settings, out, args.seed, meta,
                workdir=workdir)


def _now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()


def machine() -> str:
    """"2 cores, 24 GiB, Debian GNU/Linux 12, Intel Xeon ..." for titles and the JSON."""
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    try:
        osname = platform.freedesktop_os_release().get("PRETTY_NAME", platform.system())
    except OSError:
        osname = platform.system()
    parts = [f"{os.cpu_count()} cores", f"{mem:.0f} GiB", osname, cpu]
    return ", ".join(p for p in parts if p)


def _versions(targets: list[dict[str, Any]]) -> str:
    return "; ".join(f"{t['label']}: {t['version']}" for t in targets if t.get("version"))


def subtitle(meta: dict[str, Any]) -> str:
    return (f"{meta.get('machine', '')} | {meta.get('duration_s', 0):g} s per step after "
            f"{meta.get('warmup_s', 0):g} s warm-up | {_versions(meta.get('targets', []))}")


def raise_fd_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = 1 << 20
    if soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            return hard
        except (ValueError, OSError):
            return soft
    return soft


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        plan = make_plan(args, argv)
    except ValueError as exc:
        parser.print_usage(sys.stderr)
        print(f"rampmeter bench: error: {exc}", file=sys.stderr)
        return 2
    if args.from_json:
        return replot(args, parser)
    signal.signal(signal.SIGTERM, _interrupt)  # stop our servers on SIGTERM as on Ctrl-C
    limit = raise_fd_limit()
    total = len(plan.targets) * len(plan.workloads) * len(plan.connections)
    with Ui(total, quiet=args.quiet) as ui:
        if limit < max(plan.connections) + 64:
            ui.note(f"open files limit is {limit}: steps above ~{limit - 64} connections "
                    "will fail to connect (ulimit -n)", error=True)
        ui.note(f"{plan.meta['machine']}; sysbench: {plan.meta['sysbench']}")
        runner = Runner(plan, ui)
        try:
            results = runner.run()
        except KeyboardInterrupt:
            ui.note("interrupted: servers stopped, partial results kept", error=True)
            results = runner.results
        render(ui, plan.out, plan.meta, results, plots_too=not args.no_plots)
    if not any(r.ok for r in results):
        print("rampmeter bench: nothing could be measured", file=sys.stderr)
        return 1
    return 0


def _interrupt(signum: int, frame: object) -> None:
    # Whoever handles SIGINT right now handles this too: asyncio's Runner cancels the step's
    # task cleanly; outside a step, Python's default handler raises KeyboardInterrupt.
    signal.raise_signal(signal.SIGINT)


def render(ui: Ui, out: Path, meta: dict[str, Any], results: list[StepResult],
           plots_too: bool) -> None:
    """The end of a run: tables on the console, then the files and pictures."""
    if not results:
        return
    for title, table in report.summary_tables(results):
        ui.console.print(f"\n[bold]{title}[/bold]")
        ui.console.print(table)
    report.write_all(out, meta, results)
    if plots_too:
        for path in plots.write_plots(out, results, subtitle(meta)):
            ui.note(f"wrote {path}")
    ui.note(f"wrote {out / 'results.csv'}, results.json, summary.md")


def replot(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """--from-json: merge earlier runs' results.json files and write tables and pictures."""
    metas, results = [], []
    for name in args.from_json:
        try:
            meta, steps = report.load_json(Path(name))
        except (OSError, ValueError, TypeError, KeyError) as exc:
            parser.print_usage(sys.stderr)
            print(f"rampmeter bench: error: --from-json {name}: {exc}", file=sys.stderr)
            return 2
        metas.append(meta)
        results += steps
    merged = dict(metas[0]) if metas else {}
    merged["targets"] = [t for m in metas for t in m.get("targets", [])]
    merged["merged_from"] = [{"file": f, "command": m.get("command", "")}
                             for f, m in zip(args.from_json, metas)]
    with Ui(0, quiet=True) as ui:
        render(ui, Path(_pick(args, "out")), merged, results, plots_too=not args.no_plots)
    return 0 if any(r.ok for r in results) else 1
