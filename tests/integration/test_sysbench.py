"""sysbench 1.0 oltp_read_write against rampmeter: prepare, a 5 s run, cleanup, zero errors, in
both the text protocol (--db-ps-mode=disable) and sysbench's default prepared statements."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

pytestmark = pytest.mark.skipif(shutil.which("sysbench") is None, reason="sysbench not installed")


def _sysbench(server, *args: str, timeout: float = 60.0) -> str:
    cmd = ["sysbench", "oltp_read_write", "--mysql-host=127.0.0.1", f"--mysql-port={server.port}",
           "--mysql-user=root", "--mysql-db=sbtest", "--tables=1", "--table-size=2000", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "FATAL" not in out, out
    return out


def _count(out: str, name: str) -> int:
    m = re.search(rf"{name}:\s+(\d+)", out)
    assert m, out
    return int(m.group(1))


@pytest.mark.parametrize("ps_mode", ["disable", "auto"])
def test_oltp_read_write_runs_without_errors(server, ps_mode):
    server.query("CREATE DATABASE sbtest")
    _sysbench(server, "prepare")
    out = _sysbench(server, "--time=5", "--threads=4", f"--db-ps-mode={ps_mode}", "run")
    assert _count(out, "transactions") > 0
    assert _count(out, "ignored errors") == 0
    assert _count(out, "reconnects") == 0
    # every committed row is still there and consistent: the table keeps its size
    assert server.query("SELECT COUNT(*) FROM sbtest.sbtest1") == ((2000,),)
    _sysbench(server, "cleanup")
    assert server.query("SHOW TABLES FROM sbtest") == ()
