"""Reports from results: the per-second line, the tables, CSV, JSON, Markdown and the PNGs."""

from __future__ import annotations

import csv
import json
import struct
from pathlib import Path

import pytest

from rampmeter.bench import plots, report
from rampmeter.bench.histogram import LatencySummary
from rampmeter.bench.results import (
    CSV_COLUMNS,
    FAILED,
    ClassStats,
    Interval,
    StepResult,
    failed,
)

pytestmark = pytest.mark.timeout(60)


def step(target: str, conns: int, tps: float, p99: float, workload: str = "point_select",
         **kw: object) -> StepResult:
    lat = LatencySummary(count=int(tps) * 10, p50=p99 / 4, p95=p99 / 2, p99=p99, max=p99 * 3,
                         mean=p99 / 3)
    r = StepResult(target, target.split(":")[0], workload, "builtin", conns, tps=tps,
                   qps=tps * 2, latency=lat, events=int(tps) * 10, duration_s=10.0,
                   connections_open=conns, server_threads=conns + 5, server_rss_mb=100.0 + conns,
                   server_stats_from="/proc", **kw)  # type: ignore[arg-type]
    r.classes["select"] = ClassStats(conns, r.events, r.events, 0, tps, lat)
    return r


@pytest.fixture
def results() -> list[StepResult]:
    rows = []
    for conns, a, b in ((1, 900.0, 1000.0), (16, 3000.0, 2500.0), (256, 2900.0, 400.0)):
        rows.append(step("rampmeter:pool", conns, a, 1.0 + conns / 10))
        rows.append(step("mariadb:perthread", conns, b, 0.5 + conns))
    rows[-1] = failed(rows[-1], "1040 Too many connections (x200)")
    long = step("rampmeter:pool", 16, 800.0, 3.0, workload="long_short")
    long.classes["long"] = ClassStats(2, 40, 40, 0, 4.0, LatencySummary(40, 250, 260, 270,
                                                                        280, 252))
    rows.append(long)
    return rows


def test_interval_line_is_sysbench_shaped() -> None:
    iv = Interval(3.0, False, 64, 1234.5678, 2469.1, 61.08, 0.0, 0.25)
    assert report.interval_line(iv) == ("[ 3s ] thds: 64 tps: 1234.57 qps: 2469.10 "
                                        "lat (ms,95%): 61.08 err/s: 0.00 reconn/s: 0.25")
    assert report.interval_line(Interval(1.0, True, 1, 1, 1, 1, 0, 0)).endswith("(warm-up)")


def test_step_line_mentions_failure_reason(results: list[StepResult]) -> None:
    assert "FAILED: 1040 Too many connections" in report.step_line(results[5])
    line = report.step_line(results[-1])
    assert "long: 4.00/s p99 270 ms" in line and "server: 21 threads" in line


def test_csv_has_one_row_per_step(results: list[StepResult], tmp_path: Path) -> None:
    report.write_csv(tmp_path / "r.csv", results)
    with (tmp_path / "r.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == CSV_COLUMNS
    assert len(rows) == len(results)
    assert rows[0]["target"] == "rampmeter:pool" and rows[0]["tps"] == "900.0"
    assert rows[5]["status"] == FAILED and "1040" in rows[5]["error"]
    assert rows[-1]["bg_class"] == "long" and rows[-1]["bg_p99_ms"] == "270"
    for row in rows:
        if row["status"] == "ok":
            assert float(row["p50_ms"]) <= float(row["p95_ms"]) <= float(row["p99_ms"]) \
                <= float(row["max_ms"])


def test_json_keeps_meta_and_every_field(results: list[StepResult], tmp_path: Path) -> None:
    results[0].intervals.append(Interval(1.0, False, 1, 900.0, 1800.0, 1.0, 0.0, 0.0))
    report.write_json(tmp_path / "r.json", {"machine": "2 cores"}, results)
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["meta"] == {"machine": "2 cores"}
    assert len(doc["steps"]) == len(results)
    first = doc["steps"][0]
    assert first["latency"]["p99"] == pytest.approx(1.1)
    assert first["intervals"][0]["tps"] == 900.0
    assert first["classes"]["select"]["connections"] == 1


def test_tables_rows_are_connections_columns_targets(results: list[StepResult]) -> None:
    conns, targets, cells = report.grid(results, "point_select")
    assert conns == [1, 16, 256]
    assert targets == ["rampmeter:pool", "mariadb:perthread"]
    md = report.markdown(results)
    assert "| connections | rampmeter:pool | mariadb:perthread |" in md
    assert "| 16 | 3000 | 2500 |" in md
    assert "| 256 | 2900 | failed |" in md
    assert "**long_short: p99 latency (ms)**" in md
    assert "| 1 | 6 / 101 | 6 / 101 |" in md  # threads / MiB
    titles = [title for title, _ in report.summary_tables(results)]
    assert titles == ["point_select: tps / p99 latency (ms)",
                      "long_short: tps / p99 latency (ms)"]


def test_write_all_writes_the_three_files(results: list[StepResult], tmp_path: Path) -> None:
    report.write_all(tmp_path / "out", {}, results)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == \
        ["results.csv", "results.json", "summary.md"]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_plots_are_written_and_readable(results: list[StepResult], tmp_path: Path) -> None:
    written = plots.write_plots(tmp_path, results, "2 cores, test")
    names = sorted(p.name for p in written)
    assert names == ["latency-long_short.png", "latency-point_select.png", "latency.png",
                     "throughput-long_short.png", "throughput-point_select.png",
                     "throughput.png"]
    w, h = png_size(tmp_path / "throughput.png")
    assert w > 1000 and h > 400  # two panels side by side
    w1, h1 = png_size(tmp_path / "latency-point_select.png")
    assert 600 < w1 < 1000 and 300 < h1 < 700


def test_one_workload_gives_just_the_two_pictures(results: list[StepResult],
                                                   tmp_path: Path) -> None:
    only = [r for r in results if r.workload == "point_select"]
    assert sorted(p.name for p in plots.write_plots(tmp_path, only, "x")) == \
        ["latency.png", "throughput.png"]
    assert plots.write_plots(tmp_path, [], "x") == []


def test_colors_are_stable_per_target(results: list[StepResult]) -> None:
    palette = plots.colors(results)
    assert list(palette) == ["rampmeter:pool", "mariadb:perthread"]
    assert len(set(palette.values())) == 2


def test_results_json_round_trips_and_replots(results: list[StepResult], tmp_path: Path) -> None:
    results[0].intervals.append(Interval(1.0, True, 1, 900.0, 1800.0, 1.0, 0.0, 0.0))
    report.write_json(tmp_path / "a.json", {"machine": "2 cores", "targets": [
        {"label": "rampmeter:pool", "version": "0.1.0"}]}, results[:3])
    report.write_json(tmp_path / "b.json", {"targets": [{"label": "mariadb:perthread"}]},
                      results[3:])
    meta, back = report.load_json(tmp_path / "a.json")
    assert meta["machine"] == "2 cores"
    assert [r.as_dict() for r in back] == [r.as_dict() for r in results[:3]]

    from rampmeter.bench import cli

    out = tmp_path / "merged"
    assert cli.main(["--from-json", str(tmp_path / "a.json"), "--from-json",
                     str(tmp_path / "b.json"), "--out", str(out), "--no-plots"]) == 0
    _, merged = report.load_json(out / "results.json")
    assert len(merged) == len(results)
    assert "| 256 | 2900 | failed |" in (out / "summary.md").read_text()
    assert cli.main(["--from-json", str(tmp_path / "missing.json"), "--out", str(out)]) == 2
