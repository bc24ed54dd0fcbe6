"""one-thread-per-connection: MySQL's classic model, the baseline the pool is measured against.

Rules:
- Each connection gets its own OS thread for its whole life here: handle(), then a blocking poll
  on its socket until the next command or the idle timeout (snapshot.idle_timeout: wait_timeout;
  connect_timeout before login), then handle() again. A timeout calls expire(), and the
  following handle() closes the connection, so the closing logic is the connection's, not ours.
- There is no thread cache (MariaDB's thread_cache_size): a thread ends with its connection;
  Threads_created counts every one.
- Waits are counted (THREAD_POOL_WAITS is global) but change nothing: every thread already runs.
- A connection can leave for another handler at a command boundary (pool/switch.py): after each
  handle(), and while it idles - the poll also watches a wake pipe that `evict()` fills, so an
  idle connection is offered at once. `release(conn)` decides; if it took the connection, the
  thread ends without closing it. `adopt(conn)` takes a connection that is already greeted (and
  maybe logged in) from another handler.
- `stop()` expects the server to have woken every connection (socket read side shut down); it
  joins the threads and closes whatever did not finish in time.
"""

from __future__ import annotations

import os
import select
import threading
import time
from collections.abc import Callable

from rampmeter.engine.base import WaitReason
from rampmeter.pool import waits
from rampmeter.pool.base import Connection, ConnectionHandler, Handle, Verdict

_READABLE = select.POLLIN | select.POLLPRI | select.POLLHUP | select.POLLERR

Release = Callable[[Connection], bool]


def wait_readable(conn: Connection, timeout: float, wake_fd: int | None = None) -> bool | None:
    """Block until `conn` is readable (True), `timeout` seconds pass (False), or `wake_fd`
    becomes readable (None)."""
    if conn.has_buffered_input():
        return True
    poller = select.poll()
    poller.register(conn.fileno(), _READABLE)
    if wake_fd is not None:
        poller.register(wake_fd, select.POLLIN)
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        # poll() takes milliseconds as an int; cap each wait so huge timeouts stay valid.
        ready = poller.poll(min(remaining, 3600.0) * 1000)
        if any(fd != wake_fd for fd, _ in ready):
            return True
        if ready:
            return None


class PerThreadHandler(ConnectionHandler):
    thread_handling = "one-thread-per-connection"

    def __init__(self, handle: Handle, *, name: str = "conn") -> None:
        super().__init__(handle)
        self._name = name
        self._lock = threading.Lock()
        self._threads: dict[threading.Thread, Connection] = {}
        self._created_total = 0
        self._stopping = False
        self.release: Release | None = None  # pool/switch.py: may another handler take it?
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)

    def start(self) -> None:
        pass

    def add_connection(self, conn: Connection) -> None:
        self._start(conn, adopted=False)

    def adopt(self, conn: Connection) -> None:
        """Serve a connection another handler greeted; its next request may already wait."""
        self._start(conn, adopted=True)

    def _start(self, conn: Connection, *, adopted: bool) -> None:
        thread = threading.Thread(target=self._serve, args=(conn, adopted), daemon=True,
                                  name=f"{self._name}-{conn.connection_id}")
        with self._lock:
            if self._stopping:
                conn.close()
                return
            self._threads[thread] = conn
            self._created_total += 1
        thread.start()

    def _serve(self, conn: Connection, adopted: bool) -> None:
        waits.bind_thread(self)
        handed_over = False
        try:
            if not adopted and self._handle(conn) is Verdict.CLOSE:
                return
            while not self._stopping:
                if self.release is not None and self.release(conn):
                    handed_over = True  # a command boundary: it lives elsewhere now
                    return
                ready = wait_readable(conn, conn.snapshot.idle_timeout, self._wake_r)
                if ready is None:
                    continue  # evict(): offer it to release() at once
                if not ready:
                    conn.expire()
                if self._handle(conn) is Verdict.CLOSE:
                    return
        finally:
            if not handed_over:
                conn.close()
            with self._lock:
                self._threads.pop(threading.current_thread(), None)

    def evict(self) -> None:
        """Wake every idle connection so each is offered to `release` now. The pipe stays
        readable until `settle()`: a thread that wakes late still sees it."""
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass

    def settle(self) -> None:
        """Connections stay here again: empty the wake pipe."""
        try:
            while os.read(self._wake_r, 4096):
                pass
        except (BlockingIOError, OSError):
            pass

    def stop(self, timeout: float = 5.0) -> None:
        with self._lock:
            self._stopping = True
            threads = list(self._threads)
        self.evict()
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        with self._lock:
            leftovers = list(self._threads.values())
        for conn in leftovers:
            conn.close()
        if all(not t.is_alive() for t in threads):
            os.close(self._wake_r)
            os.close(self._wake_w)

    def wait_begin(self, reason: WaitReason) -> None:
        pass

    def wait_end(self) -> None:
        pass

    @property
    def threads_created(self) -> int:
        return self._created_total

    def status(self) -> dict[str, int]:
        return {"Threads_created": self._created_total}

    def thread_count(self) -> int:
        with self._lock:
            return len(self._threads)
