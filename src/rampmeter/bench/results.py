# What a benchmark run produces, as plain data: one StepResult per (target, workload,
# connections), with the per-second intervals behind it. Drivers fill these in; report.py and
# plots.py only read them.
#
# Rules:
# - A step is "ok" when it measured something; "failed" carries the reason in `error` (what the
#   server or the network said, per target and step); "skipped" says why it did not run.
# - Throughput is per second of the measured window, after the warm-up. Latencies are in ms.
# - `flat()` is the CSV row: stable column names, headline class first, one background class.

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from rampmeter.bench.histogram import EMPTY, LatencySummary

OK, FAILED, SKIPPED = "ok", "failed", "skipped"


@dataclass
class Interval:
    """One sysbench-style report line."""

    t: float            # seconds since the load started (warm-up included)
    warmup: bool
    threads: int        # connections doing work
    tps: float
    qps: float
    p95_ms: float
    err_s: float
    reconn_s: float


@dataclass
class ClassStats:
    """One class of statements of a step (the short ones, the long ones, the sleepers...)."""

    connections: int
    events: int = 0
    queries: int = 0
    errors: int = 0
    per_s: float = 0.0
    latency: LatencySummary = EMPTY


@dataclass
class StepResult:
    target: str
    kind: str                   # rampmeter | mariadb | url
    workload: str
    driver: str                 # builtin | sysbench
    connections: int
    status: str = OK
    error: str = ""
    duration_s: float = 0.0
    connections_open: int = 0
    connect_s: float = 0.0      # time to open every connection of the step
    connect_errors: int = 0
    events: int = 0
    queries: int = 0
    tps: float = 0.0
    qps: float = 0.0
    latency: LatencySummary = EMPTY
    errors: int = 0
    reconnects: int = 0
    server_threads: int | None = None   # the highest seen during the step
    server_rss_mb: float | None = None  # the highest seen during the step
    server_stats_from: str = ""         # "/proc" or "SHOW STATUS"
    client_cpu: float = 0.0             # cores the load generator used in the window
    server_cpu: float | None = None     # cores the server used in the window (/proc only)
    classes: dict[str, ClassStats] = field(default_factory=dict)
    intervals: list[Interval] = field(default_factory=list)

    def server_us_per_query(self) -> float | None:
        """Server CPU per statement in microseconds (all threads, all statements)."""
        if self.server_cpu is None or not self.qps:
            return None
        return round(self.server_cpu / self.qps * 1e6, 1)

    @property
    def ok(self) -> bool:
        return self.status == OK

    def background(self) -> tuple[str, ClassStats] | None:
        """The first non-headline class that ran statements (long ones, sleepers), if any."""
        for name, stats in list(self.classes.items())[1:]:
            if stats.connections and (stats.events or stats.errors):
                return name, stats
        return None

    def flat(self) -> dict[str, Any]:
        bg = self.background()
        row: dict[str, Any] = {
            "target": self.target, "kind": self.kind, "workload": self.workload,
            "driver": self.driver, "connections": self.connections, "status": self.status,
            "tps": round(self.tps, 2), "qps": round(self.qps, 2),
            "p50_ms": self.latency.p50, "p95_ms": self.latency.p95,
            "p99_ms": self.latency.p99, "max_ms": self.latency.max,
            "mean_ms": self.latency.mean, "events": self.events, "queries": self.queries,
            "errors": self.errors, "reconnects": self.reconnects,
            "connect_errors": self.connect_errors, "connections_open": self.connections_open,
            "connect_s": round(self.connect_s, 3), "duration_s": round(self.duration_s, 3),
            "server_threads": self.server_threads, "server_rss_mb": self.server_rss_mb,
            "server_stats_from": self.server_stats_from,
            "client_cpu": round(self.client_cpu, 2),
            "server_cpu": None if self.server_cpu is None else round(self.server_cpu, 3),
            "server_us_per_query": self.server_us_per_query(),
            "bg_class": bg[0] if bg else "",
            "bg_connections": bg[1].connections if bg else "",
            "bg_per_s": round(bg[1].per_s, 2) if bg else "",
            "bg_p50_ms": bg[1].latency.p50 if bg else "",
            "bg_p99_ms": bg[1].latency.p99 if bg else "",
            "error": self.error,
        }
        return row

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> StepResult:
        """The inverse of as_dict (results.json back into results, to re-plot or merge runs)."""
        d = dict(d)
        d["latency"] = LatencySummary(**d.get("latency", EMPTY.as_dict()))
        d["classes"] = {name: ClassStats(**{**c, "latency": LatencySummary(**c["latency"])})
                        for name, c in d.get("classes", {}).items()}
        d["intervals"] = [Interval(**iv) for iv in d.get("intervals", [])]
        return cls(**d)


CSV_COLUMNS = list(StepResult("", "", "", "", 0).flat())


def failed(template: StepResult, reason: str) -> StepResult:
    """A failed copy of a step (keeps its identity columns)."""
    return StepResult(template.target, template.kind, template.workload, template.driver,
                      template.connections, status=FAILED, error=reason)
