"""A client socket glued to its protocol object and its session: the only code that calls
recv/send on client sockets.

Rules:
- Sockets are non-blocking. `handle()` drains what the kernel has, feeds the protocol, runs every
  complete command (pipelined ones too, so nothing stays buffered where epoll cannot see it) and
  writes the replies. It blocks only (a) for the rest of a packet already begun, at most
  net_read_timeout, and (b) for a slow reader, at most net_write_timeout; both inside
  `waiting(NET)` so the pool can start another thread (MariaDB MDEV-156).
- A connection is built in two steps. On the acceptor (net/server.py) it is a socket, an id and
  a `registry.Arrival` (what processlist and KILL see of it): nothing more, because the acceptor
  is outside the pool's scheduling and oversubscribe limit, and a connect storm must not make
  it compete for the GIL with the workers. The first `handle()`, on a handler's thread, builds
  the rest (`_setup`: socket options, the Session, the ServerProtocol with its scramble; the
  Session takes the Arrival's place in the registry, its kill state included), sends the
  greeting and returns: login is event driven, so a client that connects and says nothing does
  not hold a pool thread (MariaDB logs in on a worker and blocks it up to connect_timeout; the
  connect_timeout is enforced by the handler's idle timeout here instead).
- Before that first `handle()` (`_built` False) `session` and `proto` do not exist: every
  method a handler, the timer or the server may call earlier (has_buffered_input, expire,
  said_goodbye, client_gone, close, begin_shutdown) answers from the socket and the Arrival
  alone. A connection killed or expired before it was served is closed by its first handle()
  without a greeting, and counted as an aborted connect.
- Every failure stays with this connection: a malformed packet gets an ERR when one can still be
  framed and closes the connection with a log line; an unexpected exception is logged with its
  traceback and closes only this connection. Those lines are rate-limited (ratelog.py), so a
  flood of bad clients cannot fill the disk.
- After every `handle()` the connection asks its session for a fresh `snapshot`
  (sched/snapshot.py), on this thread and before the handler re-arms the socket: that attribute
  is all a handler reads of the session. A kill (KILL, wait_timeout, a vanished client) swaps in
  a copy marked killed, so the next request is queued HIGH.
- `close()` is idempotent and may come from any thread; it closes the session (rolling back) and
  the socket, takes the connection out of the registry, and frees the max_connections slot
  exactly once.
"""

from __future__ import annotations

import logging
import select
import socket
import ssl
import threading
import time
from collections.abc import Callable

from rampmeter import errors
from rampmeter.engine.base import WaitReason
from rampmeter.errors import ProtocolViolation, ServerError
from rampmeter.pool.base import Verdict
from rampmeter.protocol import events as ev
from rampmeter.protocol.connection import NEED_DATA, ServerProtocol
from rampmeter.sched.snapshot import SessionSnapshot
from rampmeter.session.context import ServerContext
from rampmeter.session.registry import Arrival
from rampmeter.session.session import KillState, Session

log = logging.getLogger("rampmeter.net")

# A read asks for 16 KiB first, and for 256 KiB while reads keep filling it (a bulk upload).
# CPython allocates the whole size asked before shrinking it to what came: 256 KiB a read is
# above malloc's initial mmap threshold, and until that threshold has risen (glibc raises it
# when a mapped chunk is freed) every read maps and unmaps pages (~13 us in a socketpair test).
_RECV_SIZE = 16 * 1024
_RECV_BULK = 256 * 1024
_FLUSH_AT = 256 * 1024
_POLL_IN = select.POLLIN | select.POLLPRI | select.POLLHUP | select.POLLERR
_POLL_OUT = select.POLLOUT | select.POLLHUP | select.POLLERR
_COM_QUIT_PACKET = b"\x01\x00\x00\x00\x01"  # payload length 1, sequence 0, COM_QUIT


class NetTimeout(Exception):
    pass


def _arriving_snapshot(ctx: ServerContext) -> SessionSnapshot:
    """What a handler knows of a connection before its first handle(): a login (HIGH), idle
    up to connect_timeout."""
    return SessionSnapshot(idle_timeout=float(ctx.variables["connect_timeout"]))


class ClientConnection:
    # built by the first handle() (_setup); read only once _built is True
    session: Session
    proto: ServerProtocol

    def __init__(self, sock: socket.socket, arrival: Arrival, ctx: ServerContext, *,
                 unix: bool, tls_context: ssl.SSLContext | None,
                 on_close: Callable[[ClientConnection], None]) -> None:
        self.sock: socket.socket = sock
        self.host = arrival.host
        self.connection_id = arrival.connection_id
        self.extra_port = arrival.extra_port
        self.ctx = ctx
        self.handler_data: object = None
        self._fd = sock.fileno()
        self._arrival = arrival
        # not `_unix`: mypyc names the C field `__unix`, which C compilers predefine as 1
        self._over_unix_socket = unix
        self._tls_context = tls_context
        self._on_close = on_close
        self._out = bytearray()
        self._built = False
        self._aborted = False  # counted as an aborted connect (before a session existed)
        self._greeted = False
        self._closed = False
        self._close_lock = threading.Lock()
        self.snapshot: SessionSnapshot = _arriving_snapshot(ctx)
        arrival.on_kill = self._on_kill

    def _setup(self) -> None:
        """The first handle(), on a handler's thread: what the acceptor left undone."""
        sock, ctx, arrival = self.sock, self.ctx, self._arrival
        sock.setblocking(False)
        if not self._over_unix_socket:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        gv = ctx.variables
        session = Session(ctx, self.connection_id, self.host, extra_port=self.extra_port)
        self.proto = ServerProtocol(
            connection_id=self.connection_id, server_version=gv["version"],
            accounts=ctx.accounts, tls_available=self._tls_context is not None,
            max_allowed_packet=gv["max_allowed_packet"],
            default_auth_plugin=gv["default_authentication_plugin"],
            rsa_keys=ctx.rsa_keys, host=self.host, secure_transport=self._over_unix_socket)
        session.on_kill = self._on_kill
        session.client_file = self._client_file
        session.command_started = arrival.command_started
        self.session = session
        self._built = True
        ctx.registry.arrived(arrival, session)  # a KILL from now on reaches the session
        if arrival.killed > session.killed:
            session.killed = KillState(arrival.killed)

    # --- pool.base.Connection --------------------------------------------------------------
    def fileno(self) -> int:
        return self._fd

    def has_buffered_input(self) -> bool:
        if not self._built:
            return False  # nothing has been read yet
        if self.proto.has_buffered_input:
            return True
        return isinstance(self.sock, ssl.SSLSocket) and self.sock.pending() > 0

    def expire(self) -> None:
        if self._built:
            self.session.expire()
        elif self._arrival.killed < KillState.WAIT_TIMEOUT:
            self._arrival.killed = KillState.WAIT_TIMEOUT
        self.snapshot = self.snapshot._replace(killed=True)

    def said_goodbye(self) -> bool:
        """Is a COM_QUIT the next packet on the socket? Peeks at plaintext sockets only; a TLS
        record cannot be read without consuming it, so there the answer is False."""
        if isinstance(self.sock, ssl.SSLSocket) or \
                self._built and self.proto.has_buffered_input:
            return False
        try:
            head = self.sock.recv(5, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except OSError:
            return False
        return head == _COM_QUIT_PACKET

    def client_gone(self, *, running: bool) -> bool:
        """The pool saw the client hang up mid-request (pool.base.Connection.client_gone)."""
        if not self._built:  # hung up before its first handle(): an aborted connect
            if self.said_goodbye():
                return False
            self._aborted_connect("the client went away before the greeting", logging.DEBUG)
            return True
        s = self.session
        if self.said_goodbye() or (running and not s.executing):
            return False
        if not s.vanished:
            s.vanished = True
            s.ctx.registry.aborted(connect=not s.logged_in)
            if not s.logged_in:
                s.ctx.hosts.handshake_error(self.host)
            level = logging.INFO if s.logged_in else logging.DEBUG
            s.ctx.rate_log.log(log, "aborted", level, "Aborted connection %d to db: '%s' user: '%s' "
                         "host: '%s' (the client went away while its request was %s)",
                         self.connection_id, s.database or "unconnected",
                         s.user or "unauthenticated", self.host,
                         "running" if running else "queued")
        if running:
            s.kill(query_only=False)  # the statement stops as under KILL; the connection closes
        return True

    def close(self) -> None:
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        try:
            if self._built:
                self.session.close()
            else:
                self.ctx.registry.departed(self._arrival)
        finally:
            try:
                self.sock.close()
            finally:
                self._on_close(self)

    def begin_shutdown(self) -> None:
        """Server shutdown: fail a running statement with 1053 and wake an idle connection."""
        if self._built:
            self.session.shutdown()
        else:
            self._arrival.shutdown()

    # --- serving ---------------------------------------------------------------------------
    def handle(self) -> Verdict:
        try:
            return self._handle()
        except ProtocolViolation as exc:
            self._abort(f"malformed packet: {exc.detail}", reply=exc)
        except NetTimeout as exc:
            self._abort(str(exc))
        except (ConnectionError, ssl.SSLError, OSError) as exc:
            self._abort(f"Got an error reading communication packets: {exc}", quiet=True)
        except Exception:  # noqa: BLE001 - a bug must cost one connection, not the server
            self.session.ctx.rate_log.log(
                log, "internal", logging.ERROR, "connection %d: internal error; closing it",
                self.connection_id, exc_info=True)
            self._abort("internal error", reply=ServerError(errors.ER_UNKNOWN_ERROR,
                                                            "internal server error"))
        return Verdict.CLOSE

    def _handle(self) -> Verdict:
        verdict = self._serve()
        if verdict is Verdict.KEEP:
            self.snapshot = self.session.pool_snapshot()
        return verdict

    def _serve(self) -> Verdict:
        if not self._built:
            self._setup()
        session, proto = self.session, self.proto
        if not self._greeted:
            self._greeted = True
            killed = session.killed  # killed, expired or shut down while it was queued
            if killed == KillState.WAIT_TIMEOUT:
                session.check_killed_before_command(proto, self._write)  # counts it, logs
                return Verdict.CLOSE
            if killed >= KillState.CONNECTION:
                if killed == KillState.CONNECTION:
                    self._aborted_connect("killed before the greeting", logging.DEBUG)
                return Verdict.CLOSE
            self._send_now(proto.greeting())
            session.state = "Reading from net"  # MariaDB's state while a login waits
            return Verdict.KEEP
        if session.killed >= KillState.WAIT_TIMEOUT:
            session.check_killed_before_command(proto, self._write)
            self._flush()
            return Verdict.CLOSE
        self._receive()
        while True:
            try:
                event = proto.next_event()
            except ProtocolViolation:
                raise
            except ServerError as exc:  # a per-command error (unknown statement id...)
                session.write_error(exc, proto, self._write)
                continue
            if event is NEED_DATA:
                pending = proto.data_to_send()  # auth rounds the protocol answered itself
                if pending:
                    self._write(pending)
                if proto.has_partial_packet:
                    self._wait_io(_POLL_IN, session.vars["net_read_timeout"], "reading")
                    self._receive()
                    continue
                break
            if isinstance(event, ev.StartTLS):
                if event.tls_data:  # cannot happen with bounded reads; never feed it as SQL
                    raise ProtocolViolation("bytes after the SSLRequest were read as the "
                                            "protocol's", code=errors.ER_HANDSHAKE_ERROR)
                self._start_tls()
                continue
            keep = session.handle(event, proto, self._write)
            proto.max_allowed_packet = session.vars["max_allowed_packet"]
            if not keep:
                self._flush()
                return Verdict.CLOSE
        self._flush()
        return Verdict.KEEP

    def _client_file(self, filename: bytes) -> bytes:
        """LOAD DATA LOCAL INFILE: ask the client for `filename` and read every packet of it
        up to the empty one (a refusal is just that empty packet), waiting as for any packet
        (net_read_timeout, a NET wait). Always read to the end, so the protocol stays in step."""
        proto = self.proto
        if not proto.client_sends_files:
            raise ServerError(errors.ER_LOAD_INFILE_CAPABILITY_DISABLED)
        self._send_now(proto.local_infile_request(filename))
        chunks: list[bytes] = []
        while True:
            packet = proto.next_infile_packet()
            if packet is NEED_DATA:
                self._wait_io(_POLL_IN, self.session.vars["net_read_timeout"], "reading")
                self._receive()
                continue
            assert isinstance(packet, bytes)
            if not packet:
                return b"".join(chunks)
            chunks.append(packet)

    def _receive(self) -> None:
        """Drain the socket without blocking; EOF is passed on to the protocol as b''. Before a
        possible TLS start, read no byte past the client's first packet (reads_up_to_tls)."""
        received = 0
        size = _RECV_SIZE
        if size > self.session.in_peak:  # Max_memory_used (session/memory.py)
            self.session.in_peak = size
        while True:
            limit = self.proto.reads_up_to_tls
            if limit == 0:
                break
            try:
                data = self.sock.recv(limit if limit is not None else size)
            except (BlockingIOError, ssl.SSLWantReadError):
                break
            except ssl.SSLWantWriteError:
                self._wait_io(_POLL_OUT, self.session.vars["net_write_timeout"], "writing")
                continue
            self.proto.receive_data(data)
            if not data:
                break
            received += len(data)
            if limit is not None:
                continue  # a bounded read: go on until the packet is whole or nothing is left
            if len(data) < size and not self.has_pending_tls():
                break
            size = _RECV_BULK
            self.session.in_peak = size
        if received:
            self.session.counters["Bytes_received"] += received

    def has_pending_tls(self) -> bool:
        return isinstance(self.sock, ssl.SSLSocket) and self.sock.pending() > 0

    def _write(self, data: bytes) -> None:
        self._out += data
        if len(self._out) >= _FLUSH_AT:
            self._flush()

    def _send_now(self, data: bytes) -> None:
        self._out += data
        self._flush()

    def _flush(self) -> None:
        if not self._out:
            return
        view = memoryview(self._out)
        sent_total = 0
        if len(view) > self.session.out_peak:  # Max_memory_used (session/memory.py)
            self.session.out_peak = len(view)
        try:
            while sent_total < len(view):
                try:
                    sent_total += self.sock.send(view[sent_total:])
                except (BlockingIOError, ssl.SSLWantWriteError):
                    self._wait_io(_POLL_OUT, self.session.vars["net_write_timeout"], "writing")
                except ssl.SSLWantReadError:
                    self._wait_io(_POLL_IN, self.session.vars["net_write_timeout"], "writing")
        finally:
            view.release()
            del self._out[:sent_total]
            self.session.counters["Bytes_sent"] += sent_total

    def _wait_io(self, events: int, timeout: float, what: str) -> None:
        """Block until the socket is ready, reported to the handler as a NET wait."""
        poller = select.poll()
        poller.register(self._fd, events)
        deadline = time.monotonic() + timeout
        session = self.session
        state = session.state
        if what == "writing":
            session.state = "Writing to net"  # a slow reader, as MariaDB's processlist says
        try:
            with self.ctx.waiting(WaitReason.NET):
                while True:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        raise NetTimeout(f"Got timeout {what} communication packets")
                    if poller.poll(remaining * 1000):
                        return
        finally:
            session.state = state

    def _start_tls(self) -> None:
        if self._tls_context is None:
            raise ProtocolViolation("SSLRequest without TLS configured")
        tls = self._tls_context.wrap_socket(self.sock, server_side=True,
                                            do_handshake_on_connect=False)
        self.sock = tls
        timeout = float(self.session.ctx.variables["connect_timeout"])
        while True:
            try:
                tls.do_handshake()
                break
            except ssl.SSLWantReadError:
                self._wait_io(_POLL_IN, timeout, "reading")
            except ssl.SSLWantWriteError:
                self._wait_io(_POLL_OUT, timeout, "writing")
        self.proto.tls_established()
        self.session.tls_active = True
        cipher = tls.cipher()
        self.session.tls_cipher = cipher[0] if cipher else ""  # type: ignore[attr-defined]
        self.session.tls_version = tls.version() or ""  # type: ignore[attr-defined]
        # the client's certificate when --ssl-ca verified one (REQUIRE X509 / SUBJECT / ISSUER)
        self.session.tls_peer = tls.getpeercert() or None

    def _on_kill(self) -> None:
        self.snapshot = self.snapshot._replace(killed=True)
        self._shutdown_read()

    def _shutdown_read(self) -> None:
        """Wake a thread (or epoll) waiting on this socket: MariaDB's post_kill_notification."""
        try:
            self.sock.shutdown(socket.SHUT_RD)
        except OSError:
            pass

    def _aborted_connect(self, why: str, level: int) -> None:
        """A connection that ended before its login, counted (Aborted_connects, the host's
        handshake errors) and logged like MariaDB's aborted connects; once."""
        ctx = self.ctx
        if self._aborted or self._built and self.session.vanished:
            return
        self._aborted = True
        ctx.registry.aborted(connect=True)
        ctx.hosts.handshake_error(self.host)
        ctx.rate_log.log(log, "aborted", level, "Aborted connection %d to db: 'unconnected' "
                         "user: 'unauthenticated' host: '%s' (%s)", self.connection_id,
                         self.host, why)

    def _abort(self, why: str, *, reply: ServerError | None = None, quiet: bool = False) -> None:
        if not self._built:  # _setup failed (the socket was gone already)
            self._aborted_connect(why, logging.DEBUG)
            return
        s = self.session
        if s.vanished:
            return  # counted and logged when the pool saw the client go (client_gone)
        s.ctx.registry.aborted(connect=not s.logged_in)
        if not s.logged_in:
            s.ctx.hosts.handshake_error(self.host)  # max_connect_errors (hostcache.py)
        level = logging.DEBUG if quiet else logging.WARNING
        s.ctx.rate_log.log(log, "aborted", level, "Aborted connection %d to db: '%s' user: '%s' host: '%s' "
                     "(%s)", self.connection_id, s.database or "unconnected",
                     s.user or "unauthenticated", self.host, why)
        if reply is not None:
            try:
                self._out.clear()
                self._send_now(self.proto.error_from(reply))
            except Exception:  # noqa: BLE001 - best effort on a connection we are dropping
                pass
