"""The mypyc-compiled hot path (src/rampmeter/compiled.py) against real clients.

The rest of the suite tests the source as written (on a clean checkout nothing is compiled).
This module builds a compiled copy of the tree once (scripts/compile_mypyc.py into a temporary
directory: the checkout's own modules stay as they are), starts that copy's server as a process
and runs a smoke set through it: sysbench point selects in both ps modes and a short read-write
run, PyMySQL statements and errors, KILL QUERY and KILL under the pool, the pool's tables. It is
skipped where the build cannot run (no C compiler, no Python headers, no mypy).

The build is the cost: about 50 s of CPU (mypy, then gcc -O3 on one large C file)."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import threading
import time
from pathlib import Path
from typing import Any

import pymysql
import pytest

from rampmeter import compiled
from tests.conftest import ServerHandle, stop_process, wait_until

ROOT = Path(__file__).resolve().parents[2]


def _missing() -> str | None:
    if shutil.which(sysconfig.get_config_var("CC").split()[0] if sysconfig.get_config_var("CC")
                    else "cc") is None:
        return "no C compiler"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers"
    if importlib.util.find_spec("mypyc") is None:
        return "mypy (mypyc) not installed"
    if shutil.which("sysbench") is None:
        return "sysbench not installed"
    return None


pytestmark = [pytest.mark.skipif(_missing() is not None, reason=_missing() or ""),
              pytest.mark.slow, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def compiled_src(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of src/ with the hot-path modules compiled in it."""
    tree = tmp_path_factory.mktemp("compiled")
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.egg-info"))
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "compile_mypyc.py"),
                           "--src", str(tree / "src")], capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    for name in compiled.MODULES:
        assert compiled.extensions(name, tree / "src"), f"{name} was not compiled"
    return tree / "src"


@pytest.fixture(scope="module")
def server(compiled_src: Path, tmp_path_factory: pytest.TempPathFactory):
    datadir = tmp_path_factory.mktemp("data")
    cmd = [sys.executable, "-m", "rampmeter", "serve", "--port=0", "--bind-address=127.0.0.1",
           f"--datadir={datadir}", "--sqlite-synchronous=NORMAL", "--thread-pool-size=2"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(compiled_src)}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=compiled_src)
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + 60
    port = None
    while port is None and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if m := re.search(r"port: (\d+)", line):
            port = int(m.group(1))
    if port is None:
        proc.kill()
        raise AssertionError("compiled server did not start:\n" + "".join(lines))
    handle = ServerHandle("127.0.0.1", port, datadir, process=proc)
    handle.startup = "".join(lines)  # what it logged up to its port
    yield handle
    out = stop_process(handle)
    assert "Traceback" not in out, out


def test_the_server_runs_the_compiled_modules(server):
    total = len(compiled.MODULES)
    assert f"Hot path: {total} of {total} hot-path modules compiled (mypyc)" in server.startup
    assert "older than their source" not in server.startup


def _sysbench(server: ServerHandle, script: str, *args: str) -> str:
    cmd = ["sysbench", script, "--mysql-host=127.0.0.1", f"--mysql-port={server.port}",
           "--mysql-user=root", "--mysql-db=sbtest", "--tables=1", "--table-size=1000", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "FATAL" not in out, out
    return out


def _count(out: str, name: str) -> int:
    m = re.search(rf"{name}:\s+(\d+)", out)
    assert m, out
    return int(m.group(1))


@pytest.fixture(scope="module")
def sbtest(server: ServerHandle) -> ServerHandle:
    server.query("CREATE DATABASE sbtest")
    _sysbench(server, "oltp_point_select", "prepare")
    return server


@pytest.mark.parametrize("ps_mode", ["disable", "auto"])
def test_sysbench_point_select(sbtest, ps_mode):
    out = _sysbench(sbtest, "oltp_point_select", "--time=3", "--threads=8",
                    f"--db-ps-mode={ps_mode}", "run")
    assert _count(out, "queries") > 100
    assert _count(out, "ignored errors") == 0
    assert _count(out, "reconnects") == 0


def test_sysbench_read_write(sbtest):
    out = _sysbench(sbtest, "oltp_read_write", "--time=3", "--threads=4", "run")
    assert _count(out, "transactions") > 0
    assert _count(out, "ignored errors") == 0
    assert sbtest.query("SELECT COUNT(*) FROM sbtest.sbtest1") == ((1000,),)


def test_pymysql_statements_and_errors(server):
    conn = server.connect()
    with conn.cursor() as cur:
        cur.execute("CREATE DATABASE IF NOT EXISTS smoke")
        cur.execute("CREATE TABLE smoke.t (id INT PRIMARY KEY AUTO_INCREMENT, "
                    "name VARCHAR(20), price DECIMAL(8,2), at DATETIME, data BLOB)")
        cur.execute("INSERT INTO smoke.t (name, price, at, data) VALUES "
                    "(%s, %s, %s, %s), (%s, NULL, NULL, NULL)",
                    ("été", "12.50", "2026-11-25 20:00:00", b"\x00\xff", "b"))
        assert cur.rowcount == 2
        assert cur.lastrowid == 1
        cur.execute("SELECT id, name, price, at, data FROM smoke.t ORDER BY id")
        rows = cur.fetchall()
        assert [r[1] for r in rows] == ["été", "b"]
        assert str(rows[0][2]) == "12.50" and str(rows[0][3]) == "2026-11-25 20:00:00"
        assert rows[0][4] == b"\x00\xff" and rows[1][2:] == (None, None, None)
        cur.execute("UPDATE smoke.t SET name = 'c' WHERE id = 2")
        assert cur.rowcount == 1
        cur.execute("SET NAMES latin1")
        cur.execute("SELECT @@character_set_results")
        assert cur.fetchone() == ("latin1",)
        cur.execute("SET NAMES utf8mb4")
        for sql, code in (("SELEC 1", 1064), ("SELECT * FROM smoke.nope", 1146),
                          ("INSERT INTO smoke.t (id) VALUES (1)", 1062)):
            with pytest.raises(pymysql.err.MySQLError) as exc:
                cur.execute(sql)
            assert exc.value.args[0] == code, (sql, exc.value.args)
        cur.execute("SELECT 1")  # the connection goes on after errors
        assert cur.fetchone() == (1,)
    conn.close()


def _background(conn: Any, sql: str) -> tuple[threading.Thread, dict[str, Any]]:
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            with conn.cursor() as cur:
                cur.execute(sql)
                box["rows"] = cur.fetchall()
        except pymysql.err.MySQLError as exc:
            box["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t, box


def _sleeping(server: ServerHandle, cid: int) -> bool:
    return server.query(f"SELECT STATE FROM information_schema.PROCESSLIST WHERE ID = {cid}") \
        == (("User sleep",),)


def test_kill_query_and_kill_connection(server):
    victim = server.connect()
    t, box = _background(victim, "SELECT SLEEP(30)")
    wait_until(lambda: _sleeping(server, victim.thread_id()), message="the sleep")
    server.query(f"KILL QUERY {victim.thread_id()}")
    t.join(10)
    assert not t.is_alive() and box["error"].args[0] == 1317
    with victim.cursor() as cur:  # KILL QUERY leaves the connection usable
        cur.execute("SELECT 2")
        assert cur.fetchone() == (2,)
    t, box = _background(victim, "SELECT SLEEP(30)")
    wait_until(lambda: _sleeping(server, victim.thread_id()), message="the second sleep")
    server.query(f"KILL {victim.thread_id()}")
    t.join(10)
    assert not t.is_alive() and "error" in box
    wait_until(lambda: not server.query(
        f"SELECT ID FROM information_schema.PROCESSLIST WHERE ID = {victim.thread_id()}"),
        message="the killed connection gone")


def test_pool_tables(server):
    conns = [server.connect() for _ in range(3)]
    for c in conns:
        with c.cursor() as cur:
            cur.execute("SELECT SLEEP(0.01)")
    groups = server.query("SELECT GROUP_ID, CONNECTIONS FROM information_schema.THREAD_POOL_GROUPS "
                          "ORDER BY GROUP_ID")
    assert [g[0] for g in groups] == [0, 1]
    assert sum(g[1] for g in groups) >= 3
    server.query("SELECT GROUP_ID, POSITION, PRIORITY, CONNECTION_ID, "
                 "QUEUEING_TIME_MICROSECONDS FROM information_schema.THREAD_POOL_QUEUES")
    stats = server.query("SELECT SUM(DEQUEUES_BY_LISTENER + DEQUEUES_BY_WORKER) "
                         "FROM information_schema.THREAD_POOL_STATS")
    assert int(stats[0][0]) > 0
    waits = server.query("SELECT COUNT FROM information_schema.THREAD_POOL_WAITS "
                         "WHERE REASON = 'SLEEP'")
    assert waits[0][0] >= 3
    status = dict(server.query("SHOW GLOBAL STATUS LIKE 'Threadpool%'"))
    assert int(status["Threadpool_threads"]) >= 1
    for c in conns:
        c.close()
