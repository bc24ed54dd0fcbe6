"""mysql-connector's C extension, run in a worker process.

Why a process: the extension (`_mysql_connector`) ships its own OpenSSL (3.2+) and needs it
loaded before anything else maps the system's libssl.so.3; in the test process PyMySQL has long
imported `ssl` (system OpenSSL 3.0 on Debian 12), so there `mysql.connector.HAVE_CEXT` is False.
The worker imports `_mysql_connector` first thing and then runs the same driver code
(drivers.run_local) for the requests it is sent.

A second reason: the extension corrupts its heap. Ten executions of a prepared INSERT with a
Decimal parameter (cursor(prepared=True), use_pure=False) crash the process with SIGSEGV or
"corrupted size vs. prev_size", against MariaDB as much as rampmeter. So each test that uses it
gets a fresh worker (a spare is started ahead, so this costs little); a crash fails that one
test and says so.

Rules:
- Frames on stdin/stdout: 8-byte length + pickle. Request: (driver, endpoint, db, steps,
  connect); answer: ("ok", outcomes) or ("error", traceback text).
- The first answer is a hello: ("hello", have_cext, reason). Without the C extension the
  worker says why and the connector-c drivers are skipped.
- Every read has a deadline; a worker that does not answer in time is killed (the test fails,
  the next one starts a new worker).
"""

from __future__ import annotations

import os
import pickle
import select
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ANSWER_TIMEOUT_S = 60.0
ROOT = Path(__file__).resolve().parents[2]


def _send(stream: Any, obj: Any) -> None:
    data = pickle.dumps(obj)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def _recv_blocking(stream: Any) -> Any:
    head = stream.read(8)
    if len(head) < 8:
        return None
    (n,) = struct.unpack("<Q", head)
    return pickle.loads(stream.read(n))


class Worker:
    """The worker process of the current test, and a spare started ahead for the next one."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.spare: subprocess.Popen[bytes] | None = None
        self.used = False
        self.have_cext = False
        self.reason = ""

    @staticmethod
    def _spawn() -> subprocess.Popen[bytes]:
        path = os.environ.get("PYTHONPATH", "")
        env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{path}" if path else str(ROOT)}
        return subprocess.Popen([sys.executable, "-m", "tests.compat.cext"], cwd=ROOT,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)

    def _activate(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            return
        self._retire(self.proc)
        self.proc, self.spare = self.spare or self._spawn(), None
        kind, self.have_cext, self.reason = self._recv()
        assert kind == "hello"
        self.spare = self._spawn()

    def probe(self) -> bool:
        """Whether the C extension loads (starts a worker if none is running)."""
        self._activate()
        return self.have_cext

    def recycle(self) -> None:
        """Called before each test: a worker that ran something is replaced by the spare, so
        one test's driver faults (see the module comment) cannot reach the next test."""
        if self.used:
            self._retire(self.proc)
            self.proc, self.used = None, False

    def _recv(self) -> Any:
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + ANSWER_TIMEOUT_S
        buf = b""
        need, length = 8, None
        while True:
            while len(buf) < need:
                ready, _, _ = select.select([fd], [], [], max(deadline - time.monotonic(), 0))
                if not ready:
                    self._retire(self.proc)
                    self.proc = None
                    raise TimeoutError("C-extension worker did not answer in time")
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    code = self.proc.wait()
                    self.proc = None
                    raise RuntimeError(f"C-extension worker died (exit status {code}): "
                                       "a crash inside mysql-connector's C extension")
                buf += chunk
            if length is None:
                (length,) = struct.unpack("<Q", buf[:8])
                need = 8 + length
                continue
            return pickle.loads(buf[8:need])

    def run(self, driver: str, ep: Any, database: str, steps: list[Any],
            connect: dict[str, Any]) -> Any:
        self._activate()
        assert self.proc is not None and self.proc.stdin is not None
        self.used = True
        _send(self.proc.stdin, (driver, ep, database, steps, connect))
        kind, payload = self._recv()
        if kind != "ok":
            raise RuntimeError(f"C-extension worker failed:\n{payload}")
        return payload

    @staticmethod
    def _retire(proc: subprocess.Popen[bytes] | None) -> None:
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()  # the worker's loop ends at EOF
            proc.wait(timeout=10)
        except (subprocess.TimeoutExpired, OSError):
            proc.kill()
            proc.wait()

    def stop(self) -> None:
        self._retire(self.proc)
        self._retire(self.spare)
        self.proc = self.spare = None


def main() -> None:
    try:
        import _mysql_connector  # noqa: F401 - first, before ssl: see the module comment
        have, reason = True, ""
    except ImportError as exc:
        have, reason = False, str(exc)
    import traceback

    import mysql.connector

    from tests.compat.drivers import run_local
    have = have and bool(mysql.connector.HAVE_CEXT)
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write to the answer stream
    _send(out, ("hello", have, reason))
    while True:
        request = _recv_blocking(sys.stdin.buffer)
        if request is None:
            return
        try:
            _send(out, ("ok", run_local(*request)))
        except BaseException:  # noqa: BLE001 - reported to the test process
            _send(out, ("error", traceback.format_exc()))


if __name__ == "__main__":
    main()
