"""The composition root: `rampmeter serve | bench`. The only module that may import every layer.

`serve` builds, in order: options (command line over option files over defaults) -> logging ->
the data directory, engine, accounts, RSA keys, TLS -> the connection handler chosen by
thread_handling (and a one-thread-per-connection handler for extra_port) -> the network server.
It prints MariaDB's "ready for connections" lines (tools parse the port from them) and stops on
SIGTERM / SIGINT / SHUTDOWN: stop accepting, roll back open transactions, close every client.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import ssl
import sys
import threading
from pathlib import Path

from rampmeter import __version__, compiled, errors
from rampmeter.config.cmdline import UsageError, help_text, parse_server_args
from rampmeter.config.variables import GlobalVariables
from rampmeter.engine.adapter import load as load_engine
from rampmeter.engine.base import Engine
from rampmeter.engine.sqlite import SqliteEngine
from rampmeter.errors import ServerError
from rampmeter.net.connection import ClientConnection
from rampmeter.net.server import Server
from rampmeter.obs.logging import setup_logging
from rampmeter.pool import waits
from rampmeter.pool.base import ConnectionHandler
from rampmeter.pool.no_threads import NoThreadsHandler
from rampmeter.pool.per_thread import PerThreadHandler
from rampmeter.pool.switch import Switchboard
from rampmeter.protocol.auth import RsaKeyPair
from rampmeter.session.aclfile import DamagedGrantFile
from rampmeter.session.aclstore import AccountStore
from rampmeter.session.context import ServerContext
from rampmeter.session.mysqldb import MysqlMirror
from rampmeter.session.registry import Registry
from rampmeter.session.sp.scheduler import EventScheduler


def build_handler(gv: GlobalVariables) -> ConnectionHandler:
    """no-threads, or the pool and one-thread-per-connection behind one Switchboard, so SET
    GLOBAL thread_handling switches between them at run time (pool/switch.py)."""
    handle = ClientConnection.handle
    if gv["thread_handling"] == "no-threads":
        gv.on_validate("thread_handling", _refuse_switch)
        return NoThreadsHandler(handle)
    return Switchboard(handle, gv)


def _refuse_switch(name: str, value: object) -> None:
    raise ServerError(errors.ER_WRONG_VALUE_FOR_VAR, name, value)


def tls_context(gv: GlobalVariables) -> ssl.SSLContext | None:
    cert, key = gv["ssl_cert"], gv["ssl_key"]
    if not cert and not key:
        return None
    if not (cert and key):
        raise UsageError("--ssl-cert and --ssl-key must be given together")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(cert, key)
    if gv["ssl_ca"]:
        ctx.load_verify_locations(gv["ssl_ca"])
        ctx.verify_mode = ssl.CERT_OPTIONAL  # client certificates, for REQUIRE X509
    return ctx


class RunningServer:
    """A started server and the objects behind it (tests start one in-process with this)."""

    def __init__(self, gv: GlobalVariables, log: logging.Logger) -> None:
        datadir = Path(gv["datadir"])
        datadir.mkdir(parents=True, exist_ok=True)
        self.variables = gv
        self.engine: Engine = load_engine(gv["engine"]) if gv["engine"] else \
            SqliteEngine(datadir, synchronous=gv["sqlite_synchronous"])
        if not isinstance(self.engine, SqliteEngine):  # the banner names what serves the data
            gv.set_internal("version_comment",
                            f"rampmeter: MySQL protocol, thread pool, {self.engine.name} engine")
        tls = tls_context(gv)
        gv.set_internal("have_ssl", "YES" if tls else "DISABLED")
        self.handler = build_handler(gv)
        self.extra_handler = PerThreadHandler(ClientConnection.handle, name="extra") \
            if gv["extra_port"] else None
        self.stopped = threading.Event()
        accounts = AccountStore(datadir, skip_grant_tables=gv["skip_grant_tables"], log=log)
        accounts.secure_auth = lambda: bool(gv["secure_auth"])
        if gv["skip_grant_tables"]:
            log.warning("--skip-grant-tables: every login is accepted and no privilege is "
                        "checked until FLUSH PRIVILEGES")
        self.ctx = ServerContext(
            variables=gv,
            registry=Registry(lambda: gv["max_connections"], lambda: gv["extra_max_connections"]),
            accounts=accounts,
            engine=self.engine,
            waiting=waits.waiting,
            rsa_keys=RsaKeyPair.load_or_create(datadir),
            tls_enabled=tls is not None,
            handler_status=self._handler_status,
            pool_table=self.handler.table,
            flush_pool=self.handler.flush,
            request_shutdown=lambda: threading.Thread(target=self.stop, daemon=True).start(),
            log=log,
        )
        # the mysql database mirrors the grant file in the SQLite engine only: a custom
        # engine serves its own databases (docs/engine.md)
        self.mirror = MysqlMirror(self.engine, gv, log) \
            if isinstance(self.engine, SqliteEngine) else None
        try:
            if self.mirror is not None:
                accounts.add_listener(self.mirror)
                accounts.hand_edits = self.mirror.edited
        except Exception:  # noqa: BLE001 - the grant file is the truth; the view can wait
            log.exception("could not write the mysql database's grant tables")
        self.server = Server(self.ctx, self.handler, self.extra_handler, tls)
        self.server.bind()
        self.server.start()
        self.events = EventScheduler(self.ctx)  # a thread only while event_scheduler is ON

    @property
    def port(self) -> int:
        return self.server.port

    def _handler_status(self) -> dict[str, int]:
        status = dict(self.handler.status())
        if self.extra_handler is not None:
            status["Threads_created"] = status.get("Threads_created", 0) + \
                self.extra_handler.threads_created
        return status

    def stop(self) -> None:
        if self.stopped.is_set():
            return
        self.events.stop()
        self.server.stop()
        if self.mirror is not None:
            self.mirror.close()
        self.engine.close()
        self.stopped.set()


def _log_hot_path(log: logging.Logger) -> None:
    """Whether this process runs the mypyc-compiled hot path (rampmeter/compiled.py), and a
    warning when a compiled module is older than its source (the edit would not run)."""
    log.info("Hot path: %s", compiled.describe())
    old = compiled.stale()
    if old:
        log.warning("Compiled modules older than their source (run `make compile`, or `make "
                    "clean-compiled` for pure Python): %s", ", ".join(old))


def serve(argv: list[str]) -> int:
    try:
        args = parse_server_args(argv)
    except UsageError as exc:
        print(f"rampmeter serve: {exc}", file=sys.stderr)
        return 2
    if args.help:
        print("usage: rampmeter serve [options]\n")
        print(help_text())
        return 0
    gv = GlobalVariables(args.values)
    log = setup_logging(gv["log_error"], gv["log_warnings"])
    for warning in args.warnings:
        log.warning("%s", warning)
    if gv["pid_file"]:
        Path(gv["pid_file"]).write_text(f"{os.getpid()}\n")
    try:
        running = RunningServer(gv, log)
    except (OSError, UsageError, ssl.SSLError, ValueError) as exc:
        log.error("%s", exc)
        log.error("Aborting")
        return 1
    except DamagedGrantFile as exc:
        log.error("Fatal error: %s", exc)
        log.error("Aborting")
        return 1

    def on_signal(signum: int, frame: object) -> None:
        log.info("Received %s: shutting down", signal.Signals(signum).name)
        threading.Thread(target=running.stop, daemon=True).start()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    socket_path = gv["socket"]
    _log_hot_path(log)
    log.info("rampmeter %s (%s, %s): ready for connections.", __version__,
             gv["thread_handling"], running.engine.name)
    log.info("Version: '%s'  socket: '%s'  port: %d  rampmeter", gv["version"], socket_path,
             running.port)
    host = gv["bind_address"]
    print(f"Connect with:  mariadb -h{host} -P{running.port} -uroot    "
          f"(data in {Path(gv['datadir']).resolve()})", file=sys.stderr, flush=True)
    while not running.stopped.wait(0.5):
        pass
    log.info("Shutdown complete")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="rampmeter", description=(
        "A MySQL-compatible server with MariaDB's thread pool, on embedded SQLite."))
    parser.add_argument("--version", action="version", version=f"rampmeter {__version__}")
    parser.add_argument("command", choices=["serve", "bench"], help="what to run")
    if not argv or argv[0] not in ("serve", "bench"):
        parser.parse_args(argv[:1] or ["--help"])
        return 2
    command, rest = argv[0], argv[1:]
    if command == "serve":
        return serve(rest)
    from rampmeter.bench import main as bench_main
    return bench_main(rest)


if __name__ == "__main__":
    raise SystemExit(main())
