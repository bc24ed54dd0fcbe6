"""The connection-handler interface: how a connection gets a thread for each command.

Every `thread_handling` mode (one-thread-per-connection, no-threads, pool-of-threads) is a
`ConnectionHandler`. The handler owns threads and readiness polling; the connection owns the
socket, the protocol and the session. They meet at one call:

    verdict = handle(connection)

which the handler makes from one of its threads whenever the connection is new (to send the
greeting) or its socket is readable. `handle` processes every complete command it can read
(pipelined input and TLS-buffered bytes included, so nothing is left that epoll would not signal),
writes the replies, and returns KEEP (poll me again) or CLOSE (I am done; call close()).

Rules:
- At most one thread runs `handle(c)` for a given connection at any time.
- Between two `handle` calls a connection may be handed to another handler or another thread
  group (`detach` / `add_connection`): it keeps no thread-local state across calls.
- Blocking inside `handle` is reported through `waiting(reason)` (pool/waits.py), which routes to
  the current thread's handler: the pool turns it into wait_begin / wait_end.
- After each `handle` the connection holds a fresh `snapshot` (sched/snapshot.py): what a
  handler may know of the session - transaction, locks, priority settings, idle timeout. A
  handler reads that attribute, never the session itself.
- The handler enforces the connection's idle timeout (snapshot.idle_timeout: wait_timeout, or
  connect_timeout before login) by calling `expire()`; the next `handle` then closes the
  connection with the right error. A connection whose next request is already readable is
  never expired.
- Every handler answers `table(name)` and `flush(what)` (the monitoring tables, FLUSH
  THREAD_POOL_STATS / _WAITS); the defaults here give what any handler has - the global wait
  counters - and the pool overrides them with its groups' rows.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Protocol

from rampmeter.engine.base import WaitReason
from rampmeter.pool import waits
from rampmeter.sched.snapshot import SessionSnapshot


class Verdict(enum.Enum):
    KEEP = "keep"
    CLOSE = "close"


class Connection(Protocol):
    """What a handler needs of a client connection (net/connection.py implements it)."""

    connection_id: int
    handler_data: Any  # the handler's per-connection bookkeeping (group, queue stamp...)

    def fileno(self) -> int: ...

    def has_buffered_input(self) -> bool:
        """Bytes were received but not yet processed (pipelined commands, TLS records)."""
        ...

    @property
    def snapshot(self) -> SessionSnapshot:
        """The session as of the end of the last handle() (sched/snapshot.py)."""
        ...

    def expire(self) -> None:
        """The idle timeout passed: mark the session killed so the next handle() closes it."""
        ...

    def said_goodbye(self) -> bool:
        """The next thing on the socket is the client's COM_QUIT (a hang-up after it is an
        ordinary end, not a vanished client). Looks at the socket only; False when unknown."""
        ...

    def client_gone(self, *, running: bool) -> bool:
        """The client hung up while its request was queued (`running` False: the request will
        not run) or running. Returns True when that cut a request short: an aborted client is
        counted and a running statement is stopped as KILL stops it; False when the client was
        in fact between requests (nothing to stop). The handler then closes the connection."""
        ...

    def close(self) -> None:
        """Release the socket and the session; idempotent, callable from any thread."""
        ...


Handle = Callable[[Connection], Verdict]


class ConnectionHandler(ABC):
    """A thread_handling mode. Subclasses: PerThreadHandler, NoThreadsHandler, ThreadPool."""

    thread_handling: str = ""

    def __init__(self, handle: Handle) -> None:
        self._handle = handle

    @abstractmethod
    def start(self) -> None: ...

    @abstractmethod
    def add_connection(self, conn: Connection) -> None:
        """Take a new (or handed-over) connection; its first handle() comes from our threads."""

    @abstractmethod
    def stop(self, timeout: float = 5.0) -> None:
        """Stop every thread; close the connections still attached. Idempotent."""

    @abstractmethod
    def wait_begin(self, reason: WaitReason) -> None:
        """The calling thread (one of ours, inside handle()) is about to block."""

    @abstractmethod
    def wait_end(self) -> None: ...

    def status(self) -> dict[str, int]:
        """SHOW GLOBAL STATUS rows this handler contributes (Threadpool_threads...)."""
        return {}

    def table(self, name: str) -> list[tuple[Any, ...]]:
        """Rows of a thread pool monitoring table (columns in session/infoschema.py): only the
        global wait counts exist without a pool."""
        if name == "THREAD_POOL_WAITS":
            return list(waits.wait_rows())
        return []

    def flush(self, what: str) -> None:
        """FLUSH THREAD_POOL_WAITS ("waits") / THREAD_POOL_STATS ("stats")."""
        if what == "waits":
            waits.flush_wait_counts()

    @property
    @abstractmethod
    def threads_created(self) -> int:
        """OS threads this handler has started (the Threads_created status)."""
