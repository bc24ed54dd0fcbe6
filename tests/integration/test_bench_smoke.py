"""`rampmeter bench` end to end, in seconds: the CI smoke run against a rampmeter the bench starts
on port 0, the built-in workloads (and sysbench) against a real MariaDB, and bad input: an
unreachable target, 1040 Too many connections, a server that dies mid-run, one that cannot
start. Each run is a few 1-second steps; the whole file stays well under a minute."""

from __future__ import annotations

import csv
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pymysql
import pytest

from rampmeter.bench import cli
from rampmeter.bench.results import StepResult
from rampmeter.bench.runner import Plan, Runner, resolve_workload
from rampmeter.bench.targets import Target, TargetSpec, free_port, parse_target
from rampmeter.bench.ui import Ui
from rampmeter.bench.wire import Endpoint
from rampmeter.bench.workloads import WORKLOADS, Settings

pytestmark = pytest.mark.timeout(120)

HAVE_MARIADB = shutil.which("mariadbd") is not None or Path("/usr/sbin/mariadbd").exists()
needs_mariadb = pytest.mark.skipif(not HAVE_MARIADB, reason="mariadbd is not installed")
SMALL = ["--tables", "2", "--table-size", "1000", "--long-rows", "300", "--sleep", "0.2",
         "--quiet"]


def rampmeter_serves() -> bool:
    """Can `rampmeter serve` start at all? (Its modules are being written by others.)"""
    try:
        done = subprocess.run([sys.executable, "-m", "rampmeter", "serve", "--help"],
                              capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0


def rows(out: Path) -> list[dict[str, str]]:
    with (out / "results.csv").open() as f:
        return list(csv.DictReader(f))


def bench_dirs(root: Path) -> set[str]:
    """The servers' directories under this test's own --workdir (never the shared /tmp, where
    a concurrent bench run keeps its own)."""
    return {p.name for p in root.glob("rampmeter-bench-*")}


@pytest.fixture(scope="module")
def mariadb() -> Iterator[Endpoint]:
    """One throw-away MariaDB for the URL-target tests, started by the bench's own code."""
    if not HAVE_MARIADB:
        pytest.skip("mariadbd is not installed")
    target = Target(TargetSpec("mariadb", "fixture"))
    target.start(max_connections=200)
    assert target.endpoint is not None
    yield target.endpoint
    target.stop()


def admin(ep: Endpoint) -> pymysql.connections.Connection:
    return pymysql.connect(host=ep.host, port=ep.port, user=ep.user, password=ep.password,
                           autocommit=True, connect_timeout=10)


def url(ep: Endpoint, name: str = "m") -> str:
    return f"url:{name}=mysql://{ep.user}@{ep.host}:{ep.port}/benchdb"


@pytest.mark.timeout(90)
@pytest.mark.skipif(not rampmeter_serves(), reason="`rampmeter serve` is not functional yet")
def test_smoke_run_against_rampmeter_on_port_0(tmp_path: Path) -> None:
    work = tmp_path / "work"
    code = cli.main(["--preset", "smoke", "--out", str(tmp_path), "--quiet",
                     "--workdir", str(work)])
    assert code == 0
    got = rows(tmp_path)
    assert [(r["target"], r["connections"], r["status"]) for r in got] == [
        ("rampmeter:pool", "1", "ok"), ("rampmeter:pool", "4", "ok")]
    for r in got:
        assert float(r["tps"]) > 0 and float(r["p99_ms"]) > 0
        assert r["server_stats_from"] == "/proc" and int(r["server_threads"]) > 0
    for name in ("results.json", "summary.md", "throughput.png", "latency.png"):
        assert (tmp_path / name).stat().st_size > 0
    assert work.is_dir() and bench_dirs(work) == set()  # made there, and gone


@needs_mariadb
def test_builtin_workloads_and_sysbench_against_mariadb(mariadb: Endpoint,
                                                         tmp_path: Path) -> None:
    workloads = ",".join(WORKLOADS)
    if shutil.which("sysbench"):
        workloads += ",oltp_point_select"
    code = cli.main(["--target", url(mariadb), "--workload", workloads, "--connections", "4",
                     "--duration", "1", "--warmup", "0", "--out", str(tmp_path), "--no-plots",
                     *SMALL])
    assert code == 0
    got = {r["workload"]: r for r in rows(tmp_path)}
    assert set(got) == set(workloads.split(","))
    for name, r in got.items():
        assert r["status"] == "ok", (name, r["error"])
        assert float(r["tps"]) > 0, name
        assert float(r["p50_ms"]) <= float(r["p95_ms"]) <= float(r["p99_ms"]) \
            <= float(r["max_ms"]), name
        assert r["server_stats_from"] == "SHOW STATUS" and int(r["server_threads"]) > 0
    assert got["long_short"]["bg_class"] == "long"
    assert float(got["long_short"]["bg_p50_ms"]) > float(got["long_short"]["p50_ms"])
    assert got["sleepers"]["bg_class"] == "sleep"
    assert float(got["sleepers"]["bg_p50_ms"]) >= 200  # SLEEP(0.2)
    assert float(got["read_write"]["qps"]) == pytest.approx(20 * float(got["read_write"]["tps"]),
                                                            rel=0.2)
    with admin(mariadb) as conn, conn.cursor() as cur:  # what it created, it removed
        cur.execute("SHOW DATABASES LIKE 'benchdb'")
        assert cur.fetchall() == ()


@needs_mariadb
def test_existing_tables_of_a_url_target_are_never_touched(mariadb: Endpoint,
                                                           tmp_path: Path) -> None:
    with admin(mariadb) as conn, conn.cursor() as cur:
        cur.execute("CREATE DATABASE keep")
        cur.execute("CREATE TABLE keep.sbtest1 (id INT PRIMARY KEY)")
        cur.execute("INSERT INTO keep.sbtest1 VALUES (7)")
    try:
        target = f"url:k=mysql://root@{mariadb.host}:{mariadb.port}/keep"
        code = cli.main(["--target", target, "--workload", "point_select", "--connections",
                         "1", "--duration", "1", "--warmup", "0", "--out", str(tmp_path),
                         "--no-plots", *SMALL])
        assert code == 1
        assert "already exists" in rows(tmp_path)[0]["error"]
        with admin(mariadb) as conn, conn.cursor() as cur:
            cur.execute("SELECT id FROM keep.sbtest1")
            assert cur.fetchall() == ((7,),)
    finally:
        with admin(mariadb) as conn, conn.cursor() as cur:
            cur.execute("DROP DATABASE keep")


@needs_mariadb
def test_unreachable_target_is_reported_and_others_kept(mariadb: Endpoint,
                                                        tmp_path: Path) -> None:
    dead = f"url:gone=mysql://root@127.0.0.1:{free_port()}/benchdb"
    code = cli.main(["--target", dead, "--target", url(mariadb), "--workload", "point_select",
                     "--connections", "1,2", "--duration", "1", "--warmup", "0",
                     "--out", str(tmp_path), "--no-plots", *SMALL])
    assert code == 0
    got = rows(tmp_path)
    assert [(r["target"], r["status"]) for r in got] == [
        ("url:gone", "failed"), ("url:gone", "failed"), ("url:m", "ok"), ("url:m", "ok")]
    assert "target not available" in got[0]["error"]
    assert "refused" in got[0]["error"].lower()


def test_nothing_measured_exits_non_zero(tmp_path: Path) -> None:
    dead = f"url:gone=mysql://root@127.0.0.1:{free_port()}/benchdb"
    code = cli.main(["--target", dead, "--workload", "point_select", "--connections", "1",
                     "--duration", "1", "--out", str(tmp_path), "--no-plots", "--quiet"])
    assert code == 1
    assert rows(tmp_path)[0]["status"] == "failed"


@pytest.mark.timeout(90)
def test_a_server_that_cannot_start_fails_its_steps(tmp_path: Path) -> None:
    work = tmp_path / "work"
    code = cli.main(["--target", "rampmeter:broken=--no-such-option-anywhere",
                     "--workload", "point_select", "--connections", "1,2", "--duration", "1",
                     "--out", str(tmp_path), "--no-plots", "--quiet", "--workdir", str(work)])
    assert code == 1
    got = rows(tmp_path)
    assert [r["status"] for r in got] == ["failed", "failed"]
    assert "target not available" in got[0]["error"]
    assert work.is_dir() and bench_dirs(work) == set()


@needs_mariadb
def test_too_many_connections_are_counted_not_fatal(mariadb: Endpoint, tmp_path: Path) -> None:
    with admin(mariadb) as conn, conn.cursor() as cur:
        cur.execute("SET GLOBAL max_connections = 6")
    try:
        code = cli.main(["--target", url(mariadb), "--workload", "point_select",
                         "--connections", "16", "--duration", "1", "--warmup", "0",
                         "--out", str(tmp_path), "--no-plots", *SMALL, "--tables", "1"])
    finally:
        with admin(mariadb) as conn, conn.cursor() as cur:
            cur.execute("SET GLOBAL max_connections = 200")
    assert code == 0
    (r,) = rows(tmp_path)
    assert r["status"] == "ok" and float(r["tps"]) > 0
    assert int(r["connect_errors"]) > 0 and int(r["connections_open"]) < 16
    assert "1040" in r["error"]


@needs_mariadb
@pytest.mark.timeout(90)
def test_a_server_dying_mid_run_fails_the_rest_of_its_steps(tmp_path: Path) -> None:
    seen: dict[str, Path | None] = {}

    def kill_after_first(result: StepResult, target: Target) -> None:
        if "workdir" not in seen:
            seen["workdir"] = target.workdir
            assert target.process is not None
            os.kill(target.process.pid, signal.SIGKILL)
            target.process.wait(timeout=10)

    settings = Settings(tables=1, table_size=500)
    plan = Plan([parse_target("mariadb:victim")],
                resolve_workload("point_select", ["disable"], None), [1, 2, 4],
                warmup=0, duration=1, settings=settings, out=tmp_path)
    with Ui(3, quiet=True) as ui:
        results = Runner(plan, ui, on_step=kill_after_first).run()
    assert [r.status for r in results] == ["ok", "failed", "failed"]
    assert "server died" in results[1].error and "code -9" in results[1].error
    assert seen["workdir"] is not None and not seen["workdir"].exists()
