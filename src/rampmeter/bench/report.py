# Reports: the sysbench-style line of each second, the summary tables (MariaDB's threadpool
# benchmark layout: one row per number of connections, one column per target), and the files
# results.csv, results.json and summary.md.
#
# Rules:
# - Only reads results; never measures. Every function here is deterministic given its input,
#   so the unit tests check the files byte by byte where it matters.
# - A failed step shows as "failed" in the tables (the reason is in the CSV/JSON `error`), a
#   missing one as "-". Numbers: tps with no decimals above 100, latency in ms with 2-3
#   significant figures, as sysbench prints them.
# - results.json = {"meta": {...how the run was made...}, "steps": [every field, intervals
#   included]}; results.csv = one flat row per step (results.CSV_COLUMNS).

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rich.table import Table

from rampmeter.bench.results import CSV_COLUMNS, Interval, StepResult


def interval_line(iv: Interval) -> str:
    """sysbench's per-second line, e.g. `[ 3s ] thds: 64 tps: 123.45 qps: ... reconn/s: 0.00`."""
    tag = " (warm-up)" if iv.warmup else ""
    return (f"[ {iv.t:.0f}s ] thds: {iv.threads} tps: {iv.tps:.2f} qps: {iv.qps:.2f} "
            f"lat (ms,95%): {iv.p95_ms:.2f} err/s: {iv.err_s:.2f} reconn/s: {iv.reconn_s:.2f}"
            f"{tag}")


def step_line(r: StepResult) -> str:
    """One line per finished step."""
    head = f"{r.target} {r.workload} @{r.connections}"
    if not r.ok:
        return f"{head}: {r.status.upper()}: {r.error}"
    lat = r.latency
    extra = ""
    bg = r.background()
    if bg:
        extra = f" | {bg[0]}: {bg[1].per_s:.2f}/s p99 {fmt_ms(bg[1].latency.p99)} ms"
    server = ""
    if r.server_threads is not None:
        server = f" | server: {r.server_threads} threads"
        if r.server_rss_mb is not None:
            server += f", {r.server_rss_mb:.0f} MiB"
        if r.server_cpu is not None:
            server += f", {r.server_cpu:.2f} cpu, {r.server_us_per_query()} us/query"
    warn = f" | {r.error}" if r.error else ""
    return (f"{head}: tps {fmt_num(r.tps)} qps {fmt_num(r.qps)} | ms p50 {fmt_ms(lat.p50)} "
            f"p95 {fmt_ms(lat.p95)} p99 {fmt_ms(lat.p99)} max {fmt_ms(lat.max)} | "
            f"err {r.errors} reconn {r.reconnects}{extra}{server} | client "
            f"{r.client_cpu:.2f} cpu{warn}")


def fmt_num(x: float) -> str:
    return f"{x:.0f}" if abs(x) >= 100 else f"{x:.2f}"


def fmt_ms(x: float) -> str:
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}" if x >= 0.1 else f"{x:.3f}"


def ordered(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(values))


def grid(results: Sequence[StepResult], workload: str) -> tuple[list[int], list[str],
                                                                   dict[tuple[int, str], StepResult]]:
    """Rows (connections), columns (targets) and cells of one workload's table."""
    rows = [r for r in results if r.workload == workload]
    conns = sorted({r.connections for r in rows})
    targets = ordered(r.target for r in rows)
    return conns, targets, {(r.connections, r.target): r for r in rows}


def cell(r: StepResult | None, metric: str) -> str:
    if r is None:
        return "-"
    if not r.ok:
        return r.status
    value = r.tps if metric == "tps" else getattr(r.latency, metric)
    return fmt_num(value) if metric == "tps" else fmt_ms(value)


def summary_tables(results: Sequence[StepResult]) -> list[tuple[str, Table]]:
    """(title, table) per workload: rows = connections, columns = targets, "tps / p99 ms"."""
    tables = []
    for workload in ordered(r.workload for r in results):
        conns, targets, cells = grid(results, workload)
        table = Table()
        table.add_column("connections", justify="right")
        for t in targets:
            table.add_column(t, justify="right")
        for c in conns:
            table.add_row(str(c), *(_pair(cells.get((c, t))) for t in targets))
        tables.append((f"{workload}: tps / p99 latency (ms)", table))
    return tables


def _pair(r: StepResult | None) -> str:
    if r is None or not r.ok:
        return cell(r, "tps")
    return f"{cell(r, 'tps')} / {cell(r, 'p99')}"


def _md_table(title: str, conns: list[int], targets: list[str], text) -> list[str]:
    head = [f"**{title}**", "", "| connections | " + " | ".join(targets) + " |",
            "|---:|" + "---:|" * len(targets)]
    body = [f"| {c} | " + " | ".join(text(c, t) for t in targets) + " |" for c in conns]
    return [*head, *body, ""]


def markdown(results: Sequence[StepResult]) -> str:
    """The same tables in Markdown (for docs/benchmarks.md): tps, p99, server threads/memory."""
    out: list[str] = []
    for workload in ordered(r.workload for r in results):
        conns, targets, cells = grid(results, workload)
        for metric, title in (("tps", "throughput (tps)"), ("p99", "p99 latency (ms)")):
            out += _md_table(f"{workload}: {title}", conns, targets,
                             lambda c, t, m=metric, g=cells: cell(g.get((c, t)), m))
        if any(r.ok and r.server_threads is not None for r in cells.values()):
            out += _md_table(f"{workload}: server threads / memory (MiB), highest seen",
                             conns, targets, lambda c, t, g=cells: _server(g.get((c, t))))
    return "\n".join(out)


def _server(r: StepResult | None) -> str:
    if r is None or not r.ok or r.server_threads is None:
        return "-"
    mem = f"{r.server_rss_mb:.0f}" if r.server_rss_mb is not None else "?"
    return f"{r.server_threads} / {mem}"


def write_csv(path: Path, results: Sequence[StepResult]) -> None:
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        for r in results:
            writer.writerow(r.flat())


def write_json(path: Path, meta: dict[str, Any], results: Sequence[StepResult]) -> None:
    doc = {"meta": meta, "steps": [r.as_dict() for r in results]}
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(doc, indent=1, default=str) + "\n")
    tmp.replace(path)  # a reader never sees half a file


def load_json(path: Path) -> tuple[dict[str, Any], list[StepResult]]:
    """A results.json written by write_json: (meta, steps)."""
    doc = json.loads(path.read_text())
    return doc.get("meta", {}), [StepResult.from_dict(s) for s in doc.get("steps", [])]


def write_all(out: Path, meta: dict[str, Any], results: Sequence[StepResult]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    write_csv(out / "results.csv", results)
    write_json(out / "results.json", meta, results)
    (out / "summary.md").write_text(markdown(results) + "\n")
