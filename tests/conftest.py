"""Shared fixtures: a real rampmeter server on 127.0.0.1:0, in this process or as a subprocess,
and helpers that wait on observable state with a deadline (never a bare sleep)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pymysql
import pytest

if TYPE_CHECKING:
    from rampmeter.cli import RunningServer


def pytest_report_header(config: pytest.Config) -> str:
    """Which code the suite tests: the source as written, or (after `make compile`) the hot
    path compiled from it (src/rampmeter/compiled.py)."""
    from rampmeter import compiled

    old = compiled.stale()
    if old:
        raise pytest.UsageError("compiled modules older than their source (run `make compile`, "
                                "or `make clean-compiled`): " + ", ".join(old))
    return f"rampmeter hot path: {compiled.describe()}"


def wait_until(predicate: Callable[[], Any], timeout: float = 10.0, interval: float = 0.01,
               message: str = "condition") -> Any:
    """Poll `predicate` until it returns a truthy value; fail the test after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {message}")
        time.sleep(interval)


def free_port() -> int:
    """A TCP port free right now on 127.0.0.1 (for options where 0 means "off")."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ServerHandle:
    host: str
    port: int
    datadir: Path
    running: RunningServer | None = None
    process: subprocess.Popen[str] | None = None
    extra_port: int = 0

    def connect(self, **kw: Any) -> pymysql.connections.Connection:
        kw.setdefault("user", "root")
        kw.setdefault("password", "")
        kw.setdefault("autocommit", True)
        kw.setdefault("connect_timeout", 10)
        if "ssl" not in kw:
            # PyMySQL's default PREFERRED mode builds an SSL context per connect (~30 ms of
            # certificate loading), which would dominate tests that open thousands.
            kw.setdefault("ssl_disabled", True)
        return pymysql.connect(host=self.host, port=kw.pop("port", self.port), **kw)

    def query(self, sql: str, **kw: Any) -> tuple[tuple[Any, ...], ...]:
        conn = self.connect(**kw)
        try:
            with conn.cursor() as cur:
                cur.execute(sql)
                return tuple(cur.fetchall())
        finally:
            conn.close()

    def status(self, name: str) -> int:
        rows = self.query(f"SHOW GLOBAL STATUS LIKE '{name}'")
        return int(rows[0][1])


def start_inprocess(datadir: Path, **options: Any) -> ServerHandle:
    from rampmeter.cli import RunningServer
    from rampmeter.config.variables import GlobalVariables
    from rampmeter.obs.logging import setup_logging

    values = {"port": 0, "bind_address": "127.0.0.1", "datadir": str(datadir),
              "sqlite_synchronous": "NORMAL", **options}
    gv = GlobalVariables(values)
    log = setup_logging(str(datadir / "error.log") if datadir.exists() else "", 2)
    running = RunningServer(gv, log)
    return ServerHandle("127.0.0.1", running.port, datadir, running=running,
                        extra_port=running.server.extra_port)


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Callable[..., ServerHandle]]:
    """Start in-process servers with given options; all are stopped after the test."""
    started: list[ServerHandle] = []

    def factory(**options: Any) -> ServerHandle:
        datadir = tmp_path / f"data{len(started)}"
        datadir.mkdir()
        handle = start_inprocess(datadir, **options)
        started.append(handle)
        return handle

    yield factory
    for handle in started:
        assert handle.running is not None
        handle.running.stop()


@pytest.fixture
def server(server_factory: Callable[..., ServerHandle]) -> ServerHandle:
    return server_factory()


_PORT = re.compile(r"port: (\d+)")


def start_process(datadir: Path, *args: str, timeout: float = 20.0) -> ServerHandle:
    """`rampmeter serve` as a real process; returns when it printed its port."""
    cmd = [sys.executable, "-m", "rampmeter", "serve", "--port=0", "--bind-address=127.0.0.1",
           f"--datadir={datadir}", "--sqlite-synchronous=NORMAL", *args]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    lines = []
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = _PORT.search(line)
        if m:
            return ServerHandle("127.0.0.1", int(m.group(1)), datadir, process=proc)
    proc.kill()
    raise AssertionError("server did not start:\n" + "".join(lines))


def stop_process(handle: ServerHandle, timeout: float = 20.0) -> str:
    proc = handle.process
    assert proc is not None
    proc.send_signal(signal.SIGTERM)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        raise AssertionError("server did not stop on SIGTERM:\n" + out) from None
    return out
