"""The two servers a compat test talks to: a throw-away MariaDB (the oracle) and rampmeter.

Rules:
- MariaDB is the Debian package's mariadbd: mariadb-install-db into a temp dir, then
  `mariadbd --no-defaults` on a free 127.0.0.1 port (mariadbd reads --port=0 as 3306, so the
  port is chosen here and retried if it was taken meanwhile); as root it needs --user=root.
  The recipe mirrors src/rampmeter/bench/targets.py `_start_mariadb` (not imported, so the
  compat suite does not depend on the bench's internals).
- --no-defaults also skips Debian's my.cnf, whose utf8mb4 server charset rampmeter follows; it
  is given here. Durability knobs are relaxed (they change speed, not answers).
- Readiness is observed ("ready for connections" in its log), never waited for blindly.
- Stopping: SIGTERM, then SIGKILL after a deadline; the temp dir is removed.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 30.0


def terminate(proc: subprocess.Popen | None, timeout: float) -> None:
    """SIGTERM a server process and wait for it; SIGKILL when it does not stop in `timeout`."""
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# Server options that make MariaDB answer as the Debian package configures it (utf8mb4) and
# as rampmeter does by design; everything else is MariaDB 10.11's compiled-in default.
MARIADB_OPTIONS = (
    "--character-set-server=utf8mb4",
    "--collation-server=utf8mb4_general_ci",
    "--skip-log-bin",
    "--skip-name-resolve",
    "--innodb-flush-log-at-trx-commit=0",
    "--innodb-buffer-pool-size=64M",
    "--innodb-log-file-size=16M",
    "--max-connections=300",
)


@dataclass(frozen=True)
class Endpoint:
    name: str          # "mariadb" or "rampmeter": which server answered
    host: str
    port: int
    user: str = "root"
    password: str = ""


def which(*names: str, extra: tuple[str, ...] = ("/usr/sbin", "/usr/bin")) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
        for folder in extra:
            candidate = Path(folder) / name
            if candidate.exists():
                return str(candidate)
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class MariaDB:
    """A mariadbd in a temp dir; `start()` returns its Endpoint, `stop()` removes everything."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.workdir: Path | None = None
        self.log: Path | None = None

    @staticmethod
    def available() -> bool:
        return bool(which("mariadbd", "mysqld") and which("mariadb-install-db",
                                                           "mysql_install_db"))

    def start(self) -> Endpoint:
        try:
            return self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> Endpoint:
        mariadbd = which("mariadbd", "mysqld")
        install = which("mariadb-install-db", "mysql_install_db")
        assert mariadbd and install
        self.workdir = Path(tempfile.mkdtemp(prefix="rampmeter-compat-mariadb-"))
        datadir = self.workdir / "data"
        # a temp dir of its own: servers bootstrapped at once in other PID namespaces name
        # their /tmp files alike (#sql-temptable-<pid>-...) and delete each other's
        tmpdir = self.workdir / "tmp"
        tmpdir.mkdir()
        as_root = ["--user=root", f"--tmpdir={tmpdir}"] if os.geteuid() == 0 else \
            [f"--tmpdir={tmpdir}"]
        done = subprocess.run(
            [install, "--no-defaults", f"--datadir={datadir}", *as_root,
             "--auth-root-authentication-method=normal", "--skip-test-db"],
            capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"mariadb-install-db failed:\n{done.stdout[-2000:]}"
                               f"{done.stderr[-2000:]}")
        for _attempt in range(3):  # the free port may be taken between our check and the bind
            port = free_port()
            self.log = self.workdir / f"server-{port}.log"
            cmd = [mariadbd, "--no-defaults", f"--datadir={datadir}", *as_root,
                   f"--port={port}", "--bind-address=127.0.0.1",
                   f"--socket={self.workdir / 'mysqld.sock'}",
                   f"--pid-file={self.workdir / 'mysqld.pid'}", *MARIADB_OPTIONS]
            with self.log.open("wb") as out:
                self.process = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                                stdin=subprocess.DEVNULL, start_new_session=True)
            if self._wait_ready():
                return Endpoint("mariadb", "127.0.0.1", port)
            self._kill()
        raise RuntimeError(f"mariadbd did not start:\n{self.tail()}")

    def _wait_ready(self) -> bool:
        assert self.process is not None and self.log is not None
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            text = self.log.read_text(errors="replace") if self.log.exists() else ""
            if "ready for connections" in text:
                return True
            if self.process.poll() is not None:
                if "already in use" in text or "Bind on TCP/IP port" in text:
                    return False
                raise RuntimeError(f"mariadbd exited with {self.process.returncode}:\n"
                                   f"{self.tail()}")
            time.sleep(0.05)  # polling the log with a deadline, not a blind wait
        raise RuntimeError(f"mariadbd not ready after {START_TIMEOUT_S:.0f} s:\n{self.tail()}")

    def tail(self, lines: int = 20) -> str:
        if self.log is None or not self.log.exists():
            return ""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def _kill(self) -> None:
        proc, self.process = self.process, None
        terminate(proc, STOP_TIMEOUT_S)

    def stop(self) -> None:
        self._kill()
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None
