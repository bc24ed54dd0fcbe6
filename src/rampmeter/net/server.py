"""Listening sockets and the acceptor: main port, extra port, unix socket.

Rules:
- One acceptor thread owns the listening sockets (a selector plus a self-pipe for stop). It does
  the least possible per connection: accept, the blocked-host and max_connections checks, the
  registry's `Arrival` (id, processlist row, kill flag), then hands a bare ClientConnection to
  the right handler (for the pool: queued to its group, HIGH, a worker woken). The acceptor is
  outside the pool's scheduling and oversubscribe limit, yet competes for the GIL with the
  workers: so the socket options, the Session and the ServerProtocol (its scramble) are built
  by the connection's first handle() on the handler's thread (net/connection.py), which then
  sends the greeting; handshake and login happen there too. MariaDB's acceptor does the same
  (a CONNECT object queued to the pool; the THD is created by the worker).
- A connection refused for max_connections gets ERR 1040 (without a SQLSTATE: clients say
  HY000) as its first packet, as MariaDB sends it, and is closed; the server logs nothing per refusal (a storm would flood the
  log) but counts Connection_errors_max_connections.
- A host blocked for handshake errors (max_connect_errors, session/hostcache.py) gets ERR 1129
  the same way, and takes no connection slot.
- extra_port connections always go to a one-thread-per-connection handler, whatever
  thread_handling is, so an administrator gets in when the pool is blocked (MariaDB's
  extra_port; Percona and MySQL use admin_port for the same job).
- `stop()`: close the listeners, tell every live connection the server is shutting down (a
  running statement fails with 1053, idle sockets are woken), then stop the handlers, which
  close what is left; rollback happens in each session's close.
"""

from __future__ import annotations

import functools
import logging
import os
import selectors
import socket
import ssl
import threading
from dataclasses import dataclass

from rampmeter import errors
from rampmeter.errors import ServerError
from rampmeter.net.connection import ClientConnection
from rampmeter.pool.base import ConnectionHandler
from rampmeter.protocol.framing import frame
from rampmeter.protocol.packets import err_packet_before_greeting
from rampmeter.session.context import ServerContext

log = logging.getLogger("rampmeter.net")


@functools.cache
def _too_many_connections() -> bytes:
    err = ServerError(errors.ER_CON_COUNT_ERROR)
    packet, _seq = frame(err_packet_before_greeting(err.code, err.message), 0)
    return packet


@dataclass
class Listener:
    sock: socket.socket
    extra: bool
    unix: bool


class Server:
    def __init__(self, ctx: ServerContext, handler: ConnectionHandler,
                 extra_handler: ConnectionHandler | None = None,
                 tls_context: ssl.SSLContext | None = None) -> None:
        self.ctx = ctx
        self.handler = handler
        self.extra_handler = extra_handler
        self.tls_context = tls_context
        self.listeners: list[Listener] = []
        self.port = 0
        self.extra_port = 0
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._conns: set[ClientConnection] = set()
        self._conns_lock = threading.Lock()

    # --- set-up ----------------------------------------------------------------------------
    def bind(self) -> None:
        gv = self.ctx.variables
        backlog = gv["back_log"]
        self.port = self._bind_tcp(gv["bind_address"], gv["port"], backlog, extra=False)
        gv.set_internal("port", self.port)
        if gv["extra_port"]:
            self.extra_port = self._bind_tcp(gv["bind_address"], gv["extra_port"], backlog,
                                             extra=True)
        if gv["socket"]:
            self._bind_unix(gv["socket"], backlog)

    def _bind_tcp(self, address: str, port: int, backlog: int, *, extra: bool) -> int:
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((address, port))
        except OSError as exc:
            sock.close()
            raise OSError(exc.errno, f"Can't start server: Bind on TCP/IP port {port}: "
                                     f"{exc.strerror}") from exc
        sock.listen(backlog)
        sock.setblocking(False)
        self.listeners.append(Listener(sock, extra, unix=False))
        return int(sock.getsockname()[1])

    def _bind_unix(self, path: str, backlog: int) -> None:
        if os.path.exists(path):
            os.unlink(path)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(path)
        os.chmod(path, 0o777)
        sock.listen(backlog)
        sock.setblocking(False)
        self.listeners.append(Listener(sock, extra=False, unix=True))

    def start(self) -> None:
        self.handler.start()
        if self.extra_handler is not None:
            self.extra_handler.start()
        for listener in self.listeners:
            self._selector.register(listener.sock, selectors.EVENT_READ, listener)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._thread = threading.Thread(target=self._accept_loop, name="acceptor", daemon=True)
        self._thread.start()

    # --- accepting -------------------------------------------------------------------------
    def _accept_loop(self) -> None:
        while not self._stopping.is_set():
            for key, _ in self._selector.select():
                listener = key.data
                if listener is None:
                    return
                self._accept_burst(listener)

    def _accept_burst(self, listener: Listener) -> None:
        for _ in range(256):  # bounded, so one busy port cannot starve the others
            try:
                sock, addr = listener.sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:  # EMFILE and friends: log, back off to the selector
                log.error("accept() failed: %s", exc)
                return
            try:
                self._admit(sock, addr, listener)
            except Exception:  # noqa: BLE001 - one bad accept must not stop the acceptor
                log.exception("could not set up a new connection")
                sock.close()

    def _admit(self, sock: socket.socket, addr: object, listener: Listener) -> None:
        # Refusals first: a storm past max_connections is mostly refusals, made on this one
        # thread, so a refused socket gets no options set (its one ERR is sent MSG_DONTWAIT).
        # An admitted one gets none here either: its first handle() sets them, on a worker.
        host = "localhost" if listener.unix or not isinstance(addr, tuple) else str(addr[0])
        if self.ctx.hosts.blocked(host):
            self._refuse(sock, ServerError(errors.ER_HOST_IS_BLOCKED, host))
            return
        arrival = self.ctx.registry.arrive(host, extra_port=listener.extra)
        if arrival is None:
            self._refuse(sock, None)
            return
        conn = ClientConnection(sock, arrival, self.ctx, unix=listener.unix,
                                tls_context=self.tls_context, on_close=self._on_close)
        with self._conns_lock:
            self._conns.add(conn)
        handler = self.extra_handler if listener.extra and self.extra_handler else self.handler
        handler.add_connection(conn)

    def _on_close(self, conn: ClientConnection) -> None:
        self.ctx.registry.release(extra_port=conn.extra_port)
        with self._conns_lock:
            self._conns.discard(conn)

    def _refuse(self, sock: socket.socket, err: ServerError | None) -> None:
        """ERR 1129 (`err`) or 1040 (None: the same bytes every time, framed once) with
        sequence id 0, before any greeting: what mysqld sends (no SQLSTATE there: it does not
        know yet that the client speaks 4.1)."""
        if err is None:
            packet = _too_many_connections()
        else:
            packet, _seq = frame(err_packet_before_greeting(err.code, err.message), 0)
        try:
            sock.send(packet, socket.MSG_DONTWAIT)
        except OSError:
            pass
        sock.close()

    # --- stopping --------------------------------------------------------------------------
    def connections(self) -> list[ClientConnection]:
        with self._conns_lock:
            return list(self._conns)

    def stop(self, timeout: float = 5.0) -> None:
        if self._stopping.is_set():
            return
        self._stopping.set()
        os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(timeout)
        for listener in self.listeners:
            listener.sock.close()
            if listener.unix:
                try:
                    os.unlink(self.ctx.variables["socket"])
                except OSError:
                    pass
        for conn in self.connections():
            conn.begin_shutdown()
        self.handler.stop(timeout)
        if self.extra_handler is not None:
            self.extra_handler.stop(timeout)
        for conn in self.connections():  # anything a handler could not stop in time
            conn.close()
        self._selector.close()
        os.close(self._wake_r)
        os.close(self._wake_w)
