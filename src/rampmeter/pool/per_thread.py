"""one-thread-per-connection: MySQL's classic model, the baseline the pool is measured against.

Rules:
- Each connection gets its own OS thread for its whole life: handle(), then a blocking poll on
  its socket until the next command or the idle timeout (wait_timeout; connect_timeout before
  login), then handle() again. A timeout calls expire(), and the following handle() closes the
  connection, so the closing logic is the connection's, not ours.
- There is no thread cache (MariaDB's thread_cache_size): a thread ends with its connection;
  Threads_created counts every one.
- Waits are counted (THREAD_POOL_WAITS is global) but change nothing: every thread already runs.
- `stop()` expects the server to have woken every connection (socket read side shut down); it
  joins the threads and closes whatever did not finish in time.
"""

from __future__ import annotations

import select
import threading
import time

from rampmeter.engine.base import WaitReason
from rampmeter.pool import waits
from rampmeter.pool.base import Connection, ConnectionHandler, Handle, Verdict

_READABLE = select.POLLIN | select.POLLPRI | select.POLLHUP | select.POLLERR


def wait_readable(conn: Connection, timeout: float) -> bool:
    """Block until `conn` is readable (True) or `timeout` seconds pass (False)."""
    if conn.has_buffered_input():
        return True
    poller = select.poll()
    poller.register(conn.fileno(), _READABLE)
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        # poll() takes milliseconds as an int; cap each wait so huge timeouts stay valid.
        if poller.poll(min(remaining, 3600.0) * 1000):
            return True


class PerThreadHandler(ConnectionHandler):
    thread_handling = "one-thread-per-connection"

    def __init__(self, handle: Handle, *, name: str = "conn") -> None:
        super().__init__(handle)
        self._name = name
        self._lock = threading.Lock()
        self._threads: dict[threading.Thread, Connection] = {}
        self._created_total = 0
        self._stopping = False

    def start(self) -> None:
        pass

    def add_connection(self, conn: Connection) -> None:
        thread = threading.Thread(target=self._serve, args=(conn,), daemon=True,
                                  name=f"{self._name}-{conn.connection_id}")
        with self._lock:
            if self._stopping:
                conn.close()
                return
            self._threads[thread] = conn
            self._created_total += 1
        thread.start()

    def _serve(self, conn: Connection) -> None:
        waits.bind_thread(self)
        try:
            while not self._stopping:
                if self._handle(conn) is Verdict.CLOSE:
                    break
                if not wait_readable(conn, conn.snapshot.idle_timeout):
                    conn.expire()
        finally:
            conn.close()
            with self._lock:
                self._threads.pop(threading.current_thread(), None)

    def stop(self, timeout: float = 5.0) -> None:
        with self._lock:
            self._stopping = True
            threads = list(self._threads)
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        with self._lock:
            leftovers = list(self._threads.values())
        for conn in leftovers:
            conn.close()

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
