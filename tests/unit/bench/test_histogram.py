"""Percentiles from the bench's histograms: recorded latencies and sysbench's printed histogram."""

from __future__ import annotations

import random

import pytest

from rampmeter.bench.histogram import (
    Latencies,
    from_sysbench,
    nearest_rank,
    sysbench_buckets,
)

pytestmark = pytest.mark.timeout(30)

SYSBENCH_TAIL = """\
[ 3s ] thds: 2 tps: 64666.24 qps: 64666.24 (r/w/o: 64666.24/0.00/0.00) lat (ms,95%): 0.11 err/s: 0.00 reconn/s: 0.00
Latency histogram (values are in milliseconds)
       value  ------------- distribution ------------- count
       0.050 |****                                     100
       0.100 |****************************************  700
       1.000 |*****                                    150
      10.000 |*                                        40
     100.000 |                                         10

SQL statistics:
    queries performed:
"""


def test_uniform_latencies_give_their_percentiles() -> None:
    lat = Latencies()
    for us in range(1, 10_001):  # 1 us .. 10 ms, uniform
        lat.record_us(us)
    s = lat.summary()
    assert s.count == 10_000
    assert s.p50 == pytest.approx(5.0, rel=0.002)
    assert s.p95 == pytest.approx(9.5, rel=0.002)
    assert s.p99 == pytest.approx(9.9, rel=0.002)
    assert s.max == pytest.approx(10.0, rel=0.002)
    assert s.p50 <= s.p95 <= s.p99 <= s.max


def test_absorb_returns_the_batch_p95_and_feeds_the_histogram() -> None:
    lat = Latencies()
    batch = [float(v) for v in range(100, 0, -1)]  # 1..100 us, unsorted
    assert lat.absorb(batch) == pytest.approx(0.095)
    assert lat.count == 100
    assert lat.absorb([]) == 0.0


def test_merge_adds_counts() -> None:
    a, b = Latencies(), Latencies()
    a.record_us(1000, 3)
    b.record_us(5000, 1)
    a.merge(b)
    assert a.count == 4
    assert a.summary().max == pytest.approx(5.0, rel=0.001)


def test_out_of_range_values_are_clamped_not_lost() -> None:
    lat = Latencies()
    lat.record_us(0)
    lat.record_us(10**13)
    assert lat.count == 2


def test_empty_summary_is_zero() -> None:
    s = Latencies().summary()
    assert (s.count, s.p50, s.p99, s.max) == (0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize(("n", "pct", "index"), [(1, 99, 0), (100, 95, 94), (100, 50, 49),
                                                   (10, 99, 9), (3, 50, 1)])
def test_nearest_rank(n: int, pct: float, index: int) -> None:
    assert nearest_rank(n, pct) == index


def test_nearest_rank_matches_sorting() -> None:
    rng = random.Random(3)
    values = sorted(rng.random() for _ in range(999))
    assert values[nearest_rank(999, 95)] == pytest.approx(sorted(values)[int(0.95 * 999)], abs=0.01)


def test_sysbench_histogram_is_parsed() -> None:
    rows = sysbench_buckets(SYSBENCH_TAIL)
    assert rows == [(0.05, 100), (0.1, 700), (1.0, 150), (10.0, 40), (100.0, 10)]


def test_sysbench_percentiles_from_buckets() -> None:
    lat = from_sysbench(sysbench_buckets(SYSBENCH_TAIL))
    s = lat.summary(exact_max_ms=123.4)
    assert s.count == 1000
    assert s.p50 == pytest.approx(0.1, rel=0.002)    # 100 + 700 cover the 50th
    assert s.p95 == pytest.approx(1.0, rel=0.002)    # 100 + 700 + 150 = 950: the 950th
    assert s.p99 == pytest.approx(10.0, rel=0.002)   # 990: the 990th; only 10 lie above
    assert s.max == 123.4                            # sysbench's exact max wins


def test_no_histogram_no_rows() -> None:
    assert sysbench_buckets("SQL statistics:\n    transactions: 1\n") == []
