"""`rampmeter bench` flags: presets, overrides, workload expansion, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from rampmeter.bench import cli, runner
from rampmeter.bench.runner import resolve_workload

pytestmark = pytest.mark.timeout(30)


def plan(*argv: str) -> runner.Plan:
    args = cli.build_parser().parse_args(list(argv))
    return cli.make_plan(args, list(argv))


def test_defaults() -> None:
    p = plan()
    assert [t.label for t in p.targets] == ["rampmeter:pool"]
    assert p.connections == [1, 4, 16, 64, 256, 1024]
    assert (p.duration, p.warmup, p.out) == (10.0, 2.0, Path("bench-results"))


def test_docs_preset_and_explicit_flags_win() -> None:
    p = plan("--preset", "docs")
    assert [t.label for t in p.targets] == ["rampmeter:pool", "rampmeter:perthread",
                                            "mariadb:pool", "mariadb:perthread"]
    assert p.connections[-1] == 2048
    labels = [w.label for w in p.workloads]
    assert labels[:3] == ["oltp_point_select", "oltp_point_select_ps", "point_select"]
    assert {"sleepers", "long_short", "idle_crowd", "transactions"} <= set(labels)
    q = plan("--preset", "docs", "--target", "mariadb:x", "--connections", "2,8",
             "--duration", "1")
    assert [t.label for t in q.targets] == ["mariadb:x"]
    assert (q.connections, q.duration, q.warmup) == ([2, 8], 1.0, 2.0)
    assert q.meta["command"].startswith("rampmeter bench --preset docs")


def test_workload_lists_and_ps_modes() -> None:
    p = plan("--workload", "sleepers,long_short", "--workload", "idle_crowd")
    assert [w.label for w in p.workloads] == ["sleepers", "long_short", "idle_crowd"]
    with_sb = resolve_workload("oltp_read_only", ["disable", "auto"], "/usr/bin/sysbench")
    assert [(w.label, w.driver, w.ps_mode) for w in with_sb] == [
        ("oltp_read_only", "sysbench", "disable"), ("oltp_read_only_ps", "sysbench", "auto")]
    one = resolve_workload("oltp_point_select:ps=auto", ["disable"], "/usr/bin/sysbench")
    assert [(w.label, w.ps_mode) for w in one] == [("oltp_point_select_ps", "auto")]


def test_without_sysbench_the_builtin_client_stands_in() -> None:
    runs = resolve_workload("oltp_point_select", ["disable", "auto"], None)
    assert [(w.label, w.driver, w.builtin, bool(w.skip_reason)) for w in runs] == [
        ("oltp_point_select", "builtin", "point_select", False),
        ("oltp_point_select_ps", "sysbench", "", True)]


@pytest.mark.parametrize("argv", [
    ["--workload", "nope"], ["--workload", "sleepers:ps=auto"], ["--connections", "0,4"],
    ["--connections", "a"], ["--duration", "0"], ["--target", "bogus:x"],
    ["--target", "rampmeter:a", "--target", "rampmeter:a"], ["--db-ps-mode", "sometimes"],
    ["--workload", "sleepers,sleepers"], ["--tables", "0"]])
def test_bad_input_is_a_usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    assert "rampmeter bench: error:" in capsys.readouterr().err


def test_help_lists_targets_and_workloads(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    for word in ("rampmeter[:NAME][=OPTIONS]", "mariadb[:NAME][=OPTIONS]", "url:NAME=mysql://",
                 "sleepers", "long_short", "idle_crowd", "transactions", "--preset"):
        assert word in text


def test_entry_point_is_importable_cheaply() -> None:
    import rampmeter.bench as bench

    assert callable(bench.main)


def test_smoke_preset_is_small() -> None:
    p = plan("--preset", "smoke")
    assert p.connections == [1, 4] and p.duration == 1.0 and p.warmup == 0.0
    assert (p.settings.tables, p.settings.table_size) == (1, 1000)
    assert plan("--preset", "smoke", "--table-size", "50").settings.table_size == 50
