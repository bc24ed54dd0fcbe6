"""no-threads: one thread serves every connection, one command at a time (for debugging).

Rules:
- MariaDB's no-threads runs each connection to completion in the main thread, so a second
  client waits until the first disconnects. Ours keeps one thread too but interleaves
  connections command by command through a poller, which is as deterministic (one command at a
  time, in readiness order) and does not freeze the server behind an idle client.
- Idle timeouts are deadlines kept per connection; an expired connection is expire()d and then
  handled once more so it closes itself.
- A statement that blocks (SLEEP, a lock wait) blocks every connection: that is the point of
  the mode when debugging, and the reason nobody runs it in production.
"""

from __future__ import annotations

import os
import queue
import selectors
import threading
import time

from rampmeter.engine.base import WaitReason
from rampmeter.pool import waits
from rampmeter.pool.base import Connection, ConnectionHandler, Handle, Verdict


class NoThreadsHandler(ConnectionHandler):
    thread_handling = "no-threads"

    def __init__(self, handle: Handle) -> None:
        super().__init__(handle)
        self._incoming: queue.SimpleQueue[Connection] = queue.SimpleQueue()
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe()
        self._deadlines: dict[Connection, float] = {}
        self._thread = threading.Thread(target=self._run, name="no-threads", daemon=True)
        self._stopping = False

    def start(self) -> None:
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._thread.start()

    def add_connection(self, conn: Connection) -> None:
        self._incoming.put(conn)
        os.write(self._wake_w, b"c")

    def _run(self) -> None:
        waits.bind_thread(self)
        while not self._stopping:
            timeout = self._next_timeout()
            for key, _ in self._selector.select(timeout):
                if key.data is None:
                    os.read(self._wake_r, 4096)
                    self._take_new()
                else:
                    self._serve(key.data)
            self._expire_idle()
        for conn in list(self._deadlines):
            self._drop(conn)

    def _take_new(self) -> None:
        while True:
            try:
                conn = self._incoming.get_nowait()
            except queue.Empty:
                return
            self._selector.register(conn.fileno(), selectors.EVENT_READ, conn)
            self._serve(conn)

    def _serve(self, conn: Connection) -> None:
        while True:
            if self._handle(conn) is Verdict.CLOSE:
                self._drop(conn)
                return
            if not conn.has_buffered_input():
                break
        self._deadlines[conn] = time.monotonic() + conn.snapshot.idle_timeout

    def _drop(self, conn: Connection) -> None:
        self._deadlines.pop(conn, None)
        try:
            self._selector.unregister(conn.fileno())
        except (KeyError, ValueError):
            pass
        conn.close()

    def _next_timeout(self) -> float | None:
        if not self._deadlines:
            return None
        return max(0.0, min(self._deadlines.values()) - time.monotonic())

    def _expire_idle(self) -> None:
        now = time.monotonic()
        for conn, deadline in list(self._deadlines.items()):
            if deadline <= now:
                conn.expire()
                self._serve(conn)

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping = True
        os.write(self._wake_w, b"s")
        if self._thread.is_alive():
            self._thread.join(timeout)
        while True:
            try:
                self._incoming.get_nowait().close()
            except queue.Empty:
                break

    def wait_begin(self, reason: WaitReason) -> None:
        pass

    def wait_end(self) -> None:
        pass

    @property
    def threads_created(self) -> int:
        return 1

    def status(self) -> dict[str, int]:
        return {"Threads_created": 1}
