# The two pictures a user decides from: throughput vs connections and p95/p99 latency vs
# connections, one curve per target, per workload.
#
# Rules:
# - matplotlib with the Agg backend (no display). x: connections on a log2 axis labelled with
#   the connection counts themselves; throughput on a linear axis from 0 (so a flat curve looks
#   flat); latency on a log axis (it spans orders of magnitude across a sweep).
# - One color per target, the same in every picture of a run; p99 solid, p95 dashed.
# - A failed step is a red "x" on the x axis, so a gap in a curve is never silent.
# - Files: throughput-<workload>.png and latency-<workload>.png per workload, plus
#   throughput.png and latency.png holding every workload as panels of one figure.

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import (  # noqa: E402
    FixedLocator,
    FuncFormatter,
    LogLocator,
    NullFormatter,
    NullLocator,
)

from rampmeter.bench.report import ordered  # noqa: E402
from rampmeter.bench.results import StepResult  # noqa: E402

PANEL = (7.0, 4.3)  # inches, one workload


def colors(results: Sequence[StepResult]) -> dict[str, str]:
    palette = plt.get_cmap("tab10").colors
    return {t: matplotlib.colors.to_hex(palette[i % len(palette)])
            for i, t in enumerate(ordered(r.target for r in results))}


def _x_axis(ax: Axes, conns: list[int]) -> None:
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(FixedLocator(conns))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([str(c) for c in conns])
    ax.set_xlabel("client connections (log2)")
    if len(conns) == 1:
        ax.set_xlim(conns[0] / 2, conns[0] * 2)
    ax.grid(True, which="major", alpha=0.3)


def _failures(ax: Axes, rows: Sequence[StepResult], y: float) -> None:
    bad = [r.connections for r in rows if not r.ok]
    if bad:
        ax.plot(bad, [y] * len(bad), "x", color="red", markersize=9, mew=2, clip_on=False,
                zorder=5)


def throughput_panel(ax: Axes, results: Sequence[StepResult], workload: str,
                     palette: dict[str, str]) -> None:
    rows = [r for r in results if r.workload == workload]
    for target in ordered(r.target for r in rows):
        mine = sorted((r for r in rows if r.target == target), key=lambda r: r.connections)
        good = [r for r in mine if r.ok]
        ax.plot([r.connections for r in good], [r.tps for r in good], "o-", lw=2,
                color=palette[target], label=target)
        _failures(ax, mine, 0.0)
    _x_axis(ax, sorted({r.connections for r in rows}))
    ax.set_ylim(bottom=0)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax.set_ylabel("transactions / s")
    ax.set_title(f"{workload}: throughput")
    ax.legend(loc="best", fontsize=8)


def latency_panel(ax: Axes, results: Sequence[StepResult], workload: str,
                  palette: dict[str, str]) -> None:
    rows = [r for r in results if r.workload == workload]
    lows: list[float] = []
    for target in ordered(r.target for r in rows):
        mine = sorted((r for r in rows if r.target == target), key=lambda r: r.connections)
        good = [r for r in mine if r.ok and r.latency.count > 0]
        xs = [r.connections for r in good]
        color = palette[target]
        ax.plot(xs, [max(r.latency.p99, 1e-3) for r in good], "o-", lw=2, color=color)
        ax.plot(xs, [max(r.latency.p95, 1e-3) for r in good], "s--", lw=1.2, color=color,
                alpha=0.8, markersize=4)
        lows += [max(r.latency.p95, 1e-3) for r in good]
        _failures(ax, mine, min(lows) if lows else 1.0)
    _x_axis(ax, sorted({r.connections for r in rows}))
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_ylabel("latency, ms (log)")
    ax.set_title(f"{workload}: p99 (solid) and p95 (dashed) latency")
    handles = [Line2D([], [], color=palette[t], lw=2, label=t)
               for t in ordered(r.target for r in rows)]
    handles += [Line2D([], [], color="gray", lw=2, label="p99"),
                Line2D([], [], color="gray", lw=1.2, ls="--", label="p95")]
    ax.legend(handles=handles, loc="best", fontsize=8)


def _figure(results: Sequence[StepResult], workloads: list[str], panel, subtitle: str,
            path: Path) -> None:
    n = len(workloads)
    cols = 1 if n == 1 else 2
    nrows = math.ceil(n / cols)
    wrapped = textwrap.fill(subtitle, width=int(16 * PANEL[0] * cols))  # ~16 chars per inch
    head = 0.14 * (wrapped.count("\n") + 1)  # inches kept for the subtitle
    height = PANEL[1] * nrows + head
    fig, axes = plt.subplots(nrows, cols, figsize=(PANEL[0] * cols, height), squeeze=False)
    palette = colors(results)
    for i, workload in enumerate(workloads):
        panel(axes[i // cols][i % cols], results, workload, palette)
    for j in range(n, nrows * cols):
        axes[j // cols][j % cols].set_visible(False)
    fig.suptitle(wrapped, fontsize=8, color="dimgray", y=1 - 0.04 / height, va="top")
    fig.tight_layout()  # it makes room for the suptitle itself
    fig.savefig(path, dpi=110)
    plt.close(fig)


def safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)


def write_plots(out: Path, results: Sequence[StepResult], subtitle: str) -> list[Path]:
    """Write every PNG of a run; return their paths."""
    workloads = ordered(r.workload for r in results)
    if not workloads:
        return []
    written = []
    for kind, panel in (("throughput", throughput_panel), ("latency", latency_panel)):
        path = out / f"{kind}.png"
        _figure(results, workloads, panel, subtitle, path)
        written.append(path)
        if len(workloads) > 1:
            for workload in workloads:
                path = out / f"{kind}-{safe(workload)}.png"
                _figure(results, [workload], panel, subtitle, path)
                written.append(path)
    return written
