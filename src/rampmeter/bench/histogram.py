# Latency histograms: every latency the bench reports comes out of one of these.
#
# Rules:
# - Values are recorded in microseconds into an HdrHistogram (1 us .. 1 h, 3 significant digits:
#   0.1 % relative error at any magnitude, a fixed cost per record, mergeable).
# - The built-in client appends raw latencies to a plain list on its hot path (a list append is
#   ~40 ns, a record_value ~1 us) and drains that list once per report interval with `absorb()`,
#   which also yields the interval's own p95 for the per-second line.
# - sysbench 1.0 prints only one percentile per run; with --histogram=on it also prints its own
#   latency histogram (1024 log-spaced buckets from 1 us to 100 s, ~1.8 % wide, printed as
#   "value |*** count" in ms). `from_sysbench()` records each bucket's count at its value, so
#   p50/p95/p99 of a sysbench run come from the same place as sysbench's own 95th percentile
#   (the bucket resolution bounds their error); max comes from sysbench's exact "max:" line.
# - Percentiles are reported in milliseconds, as sysbench does.

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from hdrh.histogram import HdrHistogram

LOWEST_US = 1
HIGHEST_US = 3_600_000_000  # one hour: anything longer is clamped, not dropped
SIGNIFICANT_DIGITS = 3


@dataclass(frozen=True)
class LatencySummary:
    """What a step reports about one class of statements (milliseconds)."""

    count: int
    p50: float
    p95: float
    p99: float
    max: float
    mean: float

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


EMPTY = LatencySummary(0, 0.0, 0.0, 0.0, 0.0, 0.0)


class Latencies:
    """An HdrHistogram in microseconds with the few operations the bench needs."""

    def __init__(self) -> None:
        self.hdr = HdrHistogram(LOWEST_US, HIGHEST_US, SIGNIFICANT_DIGITS)

    def record_us(self, value_us: float, count: int = 1) -> None:
        v = min(max(int(value_us), LOWEST_US), HIGHEST_US)
        self.hdr.record_value(v, count)

    def absorb(self, values_us: list[float]) -> float:
        """Record a batch of latencies; return the batch's own p95 in ms (0 if empty)."""
        if not values_us:
            return 0.0
        record = self.hdr.record_value
        for value in values_us:
            record(min(max(int(value), LOWEST_US), HIGHEST_US))
        values_us.sort()
        return values_us[nearest_rank(len(values_us), 95.0)] / 1000.0

    def merge(self, other: Latencies) -> None:
        self.hdr.add(other.hdr)

    @property
    def count(self) -> int:
        return int(self.hdr.get_total_count())

    def percentile_ms(self, pct: float) -> float:
        if self.count == 0:
            return 0.0
        return self.hdr.get_value_at_percentile(pct) / 1000.0

    def summary(self, exact_max_ms: float | None = None) -> LatencySummary:
        if self.count == 0:
            return EMPTY
        hdr = self.hdr
        top = exact_max_ms if exact_max_ms is not None else hdr.get_max_value() / 1000.0
        return LatencySummary(
            count=self.count,
            p50=round(self.percentile_ms(50), 3),
            p95=round(self.percentile_ms(95), 3),
            p99=round(self.percentile_ms(99), 3),
            max=round(top, 3),
            mean=round(hdr.get_mean_value() / 1000.0, 3),
        )


def nearest_rank(n: int, pct: float) -> int:
    """Index of the nearest-rank percentile in a sorted list of n values (n > 0)."""
    rank = -(-pct * n // 100)  # ceil(pct/100 * n), without float round-off for whole numbers
    return int(min(max(rank, 1), n)) - 1


# "       0.020 |******                                   39" (value in ms, then the count)
_SYSBENCH_BUCKET = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s+\|\**\s+([0-9]+)\s*$")


def sysbench_buckets(text: str) -> list[tuple[float, int]]:
    """The (value_ms, count) rows of sysbench's "Latency histogram" section."""
    rows: list[tuple[float, int]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("Latency histogram"):
            inside, rows = True, []  # the last histogram printed wins
            continue
        if not inside:
            continue
        m = _SYSBENCH_BUCKET.match(line)
        if m:
            rows.append((float(m.group(1)), int(m.group(2))))
        elif rows or (line.strip() and "distribution" not in line):
            inside = False
    return rows


def from_sysbench(buckets: Iterable[tuple[float, int]]) -> Latencies:
    lat = Latencies()
    for value_ms, count in buckets:
        if count > 0:
            lat.record_us(value_ms * 1000.0, count)
    return lat
