"""Issue 10 item 3 through real clients: nothing acknowledged is lost. kill -9 in the middle of
autocommit writes and multi-statement transactions, then a restart on the same datadir: every
acknowledged commit is there and no transaction is half there. SIGTERM drains: idle sessions
are closed, open transactions rolled back, the process exits within seconds. A full disk gives
the writer a MySQL error and a log line while reads go on, and nothing is corrupted.

The crash rounds here are CI's slice; `make stress` runs many more (tests/stress/crash.py
shares the workload)."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pymysql
import pytest

from tests.conftest import start_process, stop_process
from tests.stress.crash import check_after_crash, integrity, prepare, run_until_killed

pytestmark = pytest.mark.timeout(180)


def test_kill_9_loses_no_acknowledged_commit(tmp_path):
    for round_ in range(2):
        server = start_process(tmp_path)
        try:
            if round_ == 0:
                prepare(server)
            acked = run_until_killed(server, commits=150)
        finally:
            if server.process.poll() is None:
                server.process.kill()
            server.process.wait(10)
        assert integrity(tmp_path) == {}  # after the crash, before recovery
        server = start_process(tmp_path)
        try:
            report = check_after_crash(server, acked)
        finally:
            stop_process(server)
        assert report.lost == [], report
        assert report.partial == [], report
        assert report.acked_rows > 0 and report.acked_txns > 0, report


def test_sigterm_drains_idle_sessions_and_rolls_back_open_transactions(tmp_path):
    server = start_process(tmp_path)
    admin = server.connect()
    with admin.cursor() as cur:
        cur.execute("CREATE DATABASE d")
        cur.execute("CREATE TABLE d.t (id INT PRIMARY KEY)")
        cur.execute("INSERT INTO d.t VALUES (1)")
    idle = [server.connect() for _ in range(20)]
    open_txn = server.connect(database="d")
    with open_txn.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM t")
        cur.execute("BEGIN")
        cur.execute("INSERT INTO d.t VALUES (2), (3)")
    t0 = time.monotonic()
    out = stop_process(server, timeout=10)
    took = time.monotonic() - t0
    assert server.process.returncode == 0, out
    assert took < 10, f"SIGTERM took {took:.1f} s"
    for conn in idle:  # each idle session was closed by the server
        with pytest.raises(pymysql.err.OperationalError):
            conn.ping(reconnect=False)
    server = start_process(tmp_path)
    try:
        assert server.query("SELECT id FROM d.t ORDER BY id") == ((1,),)
    finally:
        stop_process(server)


@pytest.fixture
def small_disk(tmp_path):
    """A 6 MiB tmpfs as the datadir (root only; skipped where mounting is not allowed)."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(mnt)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here: " + done.stderr.decode(errors="replace"))
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def test_a_full_disk_is_an_error_for_the_writer_and_reads_go_on(small_disk: Path):
    datadir = small_disk / "data"
    datadir.mkdir()
    server = start_process(datadir)
    try:
        conn = server.connect()
        with conn.cursor() as cur:
            cur.execute("CREATE DATABASE d")
            cur.execute("CREATE TABLE d.t (id INT PRIMARY KEY, v LONGTEXT)")
            cur.execute("INSERT INTO d.t VALUES (0, 'before')")
            ballast = small_disk / "ballast"
            # leave about 1 MiB free, then write until the disk is full
            free = shutil.disk_usage(small_disk).free
            ballast.write_bytes(b"\0" * max(0, free - (1 << 20)))
            code = None
            for i in range(1, 200):
                try:
                    cur.execute("INSERT INTO d.t VALUES (%s, %s)", (i, "x" * 65536))
                except pymysql.MySQLError as e:
                    code = e.args[0]
                    break
            assert code == 1021, code
            cur.execute("SELECT v FROM d.t WHERE id = 0")
            assert cur.fetchall() == (("before",),)  # reads go on
            n = _count(cur)
            ballast.unlink()  # space is back: writes work again
            cur.execute("INSERT INTO d.t VALUES (1000, 'after')")
            assert _count(cur) == n + 1
    finally:
        out = stop_process(server)
    assert "Disk full" in out or "disk is full" in out, out[-2000:]
    assert integrity(datadir) == {}
    server = start_process(datadir)
    try:
        rows = server.query("SELECT COUNT(*), MIN(id), MAX(id) FROM d.t")
        assert rows[0][0] == n + 1 and rows[0][2] == 1000
    finally:
        stop_process(server)


def _count(cur) -> int:
    cur.execute("SELECT COUNT(*) FROM d.t")
    return int(cur.fetchone()[0])


def test_a_read_only_datadir_refuses_writes_and_serves_reads(tmp_path):
    datadir = tmp_path / "data"
    datadir.mkdir()
    server = start_process(datadir)
    try:
        with server.connect().cursor() as cur:
            cur.execute("CREATE DATABASE d")
            cur.execute("CREATE TABLE d.t (id INT PRIMARY KEY)")
            cur.execute("INSERT INTO d.t VALUES (1)")
    finally:
        stop_process(server)
    bound = subprocess.run(["mount", "--bind", str(datadir), str(datadir)], capture_output=True)
    if bound.returncode != 0:
        pytest.skip("cannot bind-mount here: " + bound.stderr.decode(errors="replace"))
    try:
        ro = subprocess.run(["mount", "-o", "remount,bind,ro", str(datadir)],
                            capture_output=True)
        if ro.returncode != 0:
            pytest.skip("cannot remount read-only: " + ro.stderr.decode(errors="replace"))
        server = start_process(datadir)
        out = ""
        try:
            conn = server.connect()
            with conn.cursor() as cur:
                cur.execute("SELECT id FROM d.t")
                assert cur.fetchall() == ((1,),)
                with pytest.raises(pymysql.MySQLError) as e:
                    cur.execute("INSERT INTO d.t VALUES (2)")
                assert e.value.args[0] == 1036, e.value.args
                cur.execute("SELECT COUNT(*) FROM d.t")  # reads go on
                assert cur.fetchall() == ((1,),)
        finally:
            out = stop_process(server)
        assert "Table 't' is read only" in out, out[-2000:]
    finally:
        subprocess.run(["umount", str(datadir)], check=False)
    server = start_process(datadir)
    try:
        assert server.query("SELECT id FROM d.t") == ((1,),)
    finally:
        stop_process(server)
