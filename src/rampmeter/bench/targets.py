# Targets: the servers a run measures. The bench starts rampmeter and throw-away MariaDB servers
# itself, as subprocesses, and stops them and deletes their data afterwards; any other running
# server is given by URL and left as found.
#
# Rules:
# - Spec syntax (--target): KIND[:NAME][=OPTIONS] where KIND is rampmeter or mariadb and
#   OPTIONS are server options in shell syntax, appended last (so they override ours); or
#   url:NAME=mysql://user:pass@host:port/db; or a bare mysql:// URL. The label "KIND:NAME"
#   names the target in every output; labels are unique.
# - rampmeter: `python -m rampmeter serve --port=0 --datadir=<tmp> --bind-address=127.0.0.1`;
#   ready when its log has "ready for connections" and the port from "port: N" (the contract of
#   `rampmeter serve`). mariadbd: mariadb-install-db into a temp dir, then mariadbd --no-defaults
#   on a free port chosen here (mariadbd reads --port=0 as "the default, 3306"), with its socket
#   and pid file in the temp dir; as root it needs --user=root. Both: max_connections is raised
#   to what the sweep needs; the server runs in its own session so a terminal's Ctrl-C reaches
#   the bench, which then stops it (SIGTERM, then SIGKILL after STOP_TIMEOUT_S).
# - A target that cannot start raises TargetError carrying the tail of the server's log.
# - Each started server gets its own fresh directory (data, log, socket), made with mkdtemp
#   under `workdir_root` (--workdir; default: the system temp dir) and removed at stop, so two
#   bench runs at once never share or count each other's directories.

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from rampmeter.bench.probes import Probe, ProcProbe, StatusProbe
from rampmeter.bench.wire import Endpoint

KINDS = ("rampmeter", "mariadb", "url")
START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 60.0
HEADROOM = 16          # max_connections above the sweep's largest step (probes, admin)
PREPARED_STMTS = 1_048_576  # mariadbd: 2048 connections x 9 sysbench statements > 16382 default
_READY = re.compile(r"ready for connections")
_PORT = re.compile(r"port: (\d+)")
_VERSION = re.compile(r"Version: '([^']*)'")


class TargetError(Exception):
    """A target could not be started, reached or stopped."""


@dataclass(frozen=True)
class TargetSpec:
    kind: str
    name: str
    options: tuple[str, ...] = ()
    url: str = ""

    @property
    def label(self) -> str:
        return f"{self.kind}:{self.name}"


def parse_target(text: str) -> TargetSpec:
    """Parse one --target value (see the rules above); raise ValueError when malformed."""
    text = text.strip()
    if text.startswith(("mysql://", "mariadb://")):
        parse_url(text)
        return TargetSpec("url", urlsplit(text).hostname or "server", url=text)
    head, _, rest = text.partition("=")
    kind, _, name = head.partition(":")
    kind = kind.strip().lower()
    if kind not in KINDS:
        raise ValueError(f"unknown target kind {kind!r} in {text!r}: use rampmeter[:NAME]"
                         "[=OPTIONS], mariadb[:NAME][=OPTIONS] or url:NAME=mysql://...")
    name = name.strip() or kind
    if not re.fullmatch(r"[\w.+-]+", name):
        raise ValueError(f"target name {name!r}: letters, digits, '.', '+', '-', '_' only")
    if kind == "url":
        parse_url(rest)
        return TargetSpec(kind, name, url=rest.strip())
    return TargetSpec(kind, name, tuple(shlex.split(rest)))


def parse_url(url: str) -> Endpoint:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("mysql", "mariadb"):
        raise ValueError(f"target URL {url!r}: expected mysql://user:password@host:port/db")
    try:
        port = parts.port or 3306
    except ValueError as exc:
        raise ValueError(f"target URL {url!r}: {exc}") from None
    database = unquote(parts.path.lstrip("/")) or "sbtest"
    return Endpoint(parts.hostname or "127.0.0.1", port, unquote(parts.username or "root"),
                    unquote(parts.password or ""), database)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tail(path: Path, lines: int = 15) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


@dataclass
class Target:
    spec: TargetSpec
    endpoint: Endpoint | None = None
    version: str = ""
    command: list[str] = field(default_factory=list)
    process: subprocess.Popen[bytes] | None = None
    workdir: Path | None = None
    workdir_root: Path | None = None  # where the server's temp dir goes (None: system temp)

    @property
    def exclusive(self) -> bool:
        """True when the server holds data that is not ours (never drop a table we did not make)."""
        return self.spec.kind == "url"

    def start(self, max_connections: int) -> None:
        """Start (or, for a URL, just resolve) the target; on failure leave nothing behind."""
        try:
            if self.spec.kind == "url":
                self.endpoint = parse_url(self.spec.url)
                self.command = [self.spec.url]
            elif self.spec.kind == "rampmeter":
                self._start_rampmeter(max_connections)
            else:
                self._start_mariadb(max_connections)
        except BaseException:
            self.stop()
            raise

    def probe(self) -> Probe:
        if self.process is not None:
            return ProcProbe(self.process)
        assert self.endpoint is not None
        return StatusProbe(self.endpoint)

    def dead(self) -> str | None:
        if self.process is None:
            return None
        code = self.process.poll()
        return None if code is None else f"server exited with code {code}"

    # -- starting -----------------------------------------------------------------------------

    def _workdir(self) -> Path:
        root = self.workdir_root
        if root is not None:
            root.mkdir(parents=True, exist_ok=True)
        self.workdir = Path(tempfile.mkdtemp(prefix=f"rampmeter-bench-{self.spec.kind}-",
                                             dir=root))
        return self.workdir

    def _launch(self, cmd: list[str], log: Path) -> None:
        self.command = cmd
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True)

    def _wait_ready(self, log: Path) -> int:
        """Poll the server's log until it is ready; return its port."""
        assert self.process is not None
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            text = log.read_text(errors="replace") if log.exists() else ""
            ready = _READY.search(text)
            if ready:
                port = _PORT.search(text, ready.end())
                if port:
                    version = _VERSION.search(text, ready.end())
                    self.version = version.group(1) if version else ""
                    return int(port.group(1))
            if self.process.poll() is not None:
                raise TargetError(f"{self.spec.label} exited with code "
                                  f"{self.process.returncode} before it was ready:\n{_tail(log)}")
            time.sleep(0.05)
        raise TargetError(f"{self.spec.label} not ready after {START_TIMEOUT_S:.0f} s:\n"
                          f"{_tail(log)}")

    def _start_rampmeter(self, max_connections: int) -> None:
        work = self._workdir()
        cmd = [sys.executable, "-m", "rampmeter", "serve", "--port=0",
               f"--datadir={work / 'data'}", "--bind-address=127.0.0.1",
               f"--max-connections={max_connections}", *self.spec.options]
        log = work / "server.log"
        self._launch(cmd, log)
        port = self._wait_ready(log)
        self.endpoint = Endpoint("127.0.0.1", port)

    def _start_mariadb(self, max_connections: int) -> None:
        mariadbd = _which("mariadbd", "mysqld", extra=("/usr/sbin",))
        install = _which("mariadb-install-db", "mysql_install_db", extra=("/usr/bin",))
        if not mariadbd or not install:
            raise TargetError("mariadbd / mariadb-install-db not found "
                              "(Debian: apt-get install mariadb-server)")
        work = self._workdir()
        datadir = work / "data"
        as_root = ["--user=root"] if os.geteuid() == 0 else []
        done = subprocess.run(
            [install, "--no-defaults", f"--datadir={datadir}", *as_root,
             "--auth-root-authentication-method=normal", "--skip-test-db"],
            capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise TargetError(f"mariadb-install-db failed:\n{done.stdout[-2000:]}"
                              f"{done.stderr[-2000:]}")
        for _attempt in range(3):  # the free port may be taken between our check and the bind
            port = free_port()
            cmd = [mariadbd, "--no-defaults", f"--datadir={datadir}", *as_root,
                   f"--port={port}", "--bind-address=127.0.0.1",
                   f"--socket={work / 'mysqld.sock'}", f"--pid-file={work / 'mysqld.pid'}",
                   "--skip-log-bin", "--skip-name-resolve",
                   f"--max-connections={max_connections}",
                   f"--max-prepared-stmt-count={PREPARED_STMTS}", *self.spec.options]
            log = work / "server.log"
            self._launch(cmd, log)
            try:
                self._wait_ready(log)
            except TargetError as exc:
                if "already in use" in str(exc) or "Bind on TCP/IP port" in str(exc):
                    continue
                raise
            self.endpoint = Endpoint("127.0.0.1", port)
            return
        raise TargetError(f"{self.spec.label}: no free port after 3 attempts")

    # -- stopping -----------------------------------------------------------------------------

    def stop(self) -> str:
        """Stop what we started and delete its files; return a note if it needed a kill."""
        note = ""
        proc, self.process = self.process, None
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                note = f"{self.spec.label} ignored SIGTERM for {STOP_TIMEOUT_S:.0f} s: killed"
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None
        return note

    def log_tail(self) -> str:
        return _tail(self.workdir / "server.log") if self.workdir else ""


def _which(*names: str, extra: tuple[str, ...] = ()) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
        for folder in extra:
            candidate = Path(folder) / name
            if candidate.exists():
                return str(candidate)
    return None
