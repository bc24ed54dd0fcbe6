"""Switching thread_handling at run time (TXSQL's dynamic thread pool), as one ConnectionHandler
that owns both a ThreadPool and a PerThreadHandler.

Rules:
- `SET GLOBAL thread_handling = 'pool-of-threads' | 'one-thread-per-connection'` changes the
  mode at once: new connections go to the new mode's handler.
- An existing connection moves only at a command boundary, never inside one: a statement in
  flight finishes where it started, and its reply is written before the move. Idle ones move
  right away: the pool hands over every connection armed in its epolls; one-thread-per-
  connection wakes its idle threads (a wake pipe in their poll), and each offers its connection.
  A busy one moves after its current command (ThreadPool.serve / PerThreadHandler._serve ask
  `release`). Nothing is closed or re-read, so no connection is dropped and no result lost or
  repeated; bytes a client already sent (pipelining, TLS) travel with the connection and the
  receiving handler runs them at once.
- The mode check and the move happen under one lock, and so does a switch: a connection never
  lands in the old mode after the switch has swept the idle ones.
- TXSQL also has thread_handling_switch_mode (disabled/stable/fast/sharp); rampmeter implements
  "fast" (the default there) with idle connections moved at once rather than at their next
  request, and no "sharp" (it drops connections so they reconnect).
- no-threads is a start-up choice only: switching to or from it is refused (1231).
- A server started with one-thread-per-connection builds its pool at the first switch to it,
  so until then it has no pool threads and empty thread pool tables, as MariaDB.
- Counted (SHOW GLOBAL STATUS): connections in each mode now, switches, moves each way.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from rampmeter import errors
from rampmeter.config.variables import GlobalVariables
from rampmeter.engine.base import WaitReason
from rampmeter.errors import ServerError
from rampmeter.pool.base import Connection, ConnectionHandler, Handle
from rampmeter.pool.per_thread import PerThreadHandler
from rampmeter.pool.threadpool import ThreadPool

POOL = "pool-of-threads"
PER_THREAD = "one-thread-per-connection"


class Switchboard(ConnectionHandler):
    def __init__(self, handle: Handle, variables: GlobalVariables) -> None:
        super().__init__(handle)
        self._variables = variables
        self._pool: ThreadPool | None = None
        self._started = False
        self.per_thread = PerThreadHandler(handle)
        self._lock = threading.Lock()
        self.mode = variables["thread_handling"]
        self._stopping = False
        self.switches = 0
        self.moved_to_pool = 0
        self.moved_to_per_thread = 0
        self.per_thread.release = self._from_per_thread
        if self.mode == POOL:
            self._make_pool()
        variables.on_validate("thread_handling", self._validate)
        variables.on_change("thread_handling", lambda name, value: self.switch(value))

    @property
    def thread_handling(self) -> str:  # type: ignore[override]
        return self.mode

    @property
    def pool(self) -> ThreadPool | None:
        return self._pool

    def _make_pool(self) -> ThreadPool:
        if self._pool is None:
            self._pool = ThreadPool(self._handle, self._variables)
            self._pool.release = self._from_pool
            if self._started:
                self._pool.start()
        return self._pool

    # --- switching ---------------------------------------------------------------------------
    @staticmethod
    def _validate(name: str, value: Any) -> None:
        if value not in (POOL, PER_THREAD):
            raise ServerError(errors.ER_WRONG_VALUE_FOR_VAR, name, value)

    def switch(self, mode: str) -> None:
        with self._lock:
            if mode == self.mode or self._stopping:
                return
            self.mode = mode
            self.switches += 1
            if mode == POOL:
                self._make_pool().handing_over = False
                self.per_thread.evict()  # idle threads offer their connections now
            else:
                if self._pool is not None:
                    self._pool.handing_over = True
                self.per_thread.settle()
                for conn in self._pool.evict_idle() if self._pool is not None else ():
                    self.moved_to_per_thread += 1
                    self.per_thread.adopt(conn)

    def _from_pool(self, conn: Connection, detach: Callable[[], None]) -> bool:
        if self.mode != PER_THREAD:
            # Every command of every pooled connection asks: the usual answer is read without
            # the lock. A switch this read misses finds the connection running, not idle, so it
            # moves at its next command boundary - as one does that is running when the switch
            # sweeps the idle ones (the locked check below has the same window).
            return False
        with self._lock:
            if self.mode != PER_THREAD or self._stopping:
                return False
            detach()
            self.moved_to_per_thread += 1
            self.per_thread.adopt(conn)
            return True

    def _from_per_thread(self, conn: Connection) -> bool:
        with self._lock:
            if self.mode != POOL or self._stopping or self._pool is None:
                return False
            self.moved_to_pool += 1
            self._pool.adopt(conn)
            return True

    # --- ConnectionHandler -------------------------------------------------------------------
    def start(self) -> None:
        with self._lock:
            self._started = True
            if self._pool is not None:
                self._pool.start()
        self.per_thread.start()

    def add_connection(self, conn: Connection) -> None:
        with self._lock:
            handler: ConnectionHandler = self._pool if self.mode == POOL and \
                self._pool is not None else self.per_thread
        handler.add_connection(conn)

    def stop(self, timeout: float = 5.0) -> None:
        with self._lock:
            self._stopping = True
        self.per_thread.stop(timeout)
        if self._pool is not None:
            self._pool.stop(timeout)

    def wait_begin(self, reason: WaitReason) -> None:
        pass  # each handler binds its own threads (pool/waits.py)

    def wait_end(self) -> None:
        pass

    @property
    def threads_created(self) -> int:
        pool = self._pool.threads_created if self._pool is not None else 0
        return pool + self.per_thread.threads_created

    def status(self) -> dict[str, int]:
        status = dict(self._pool.status()) if self._pool is not None else {}
        status["Threads_created"] = self.threads_created
        with self._lock:
            status.update({
                "Thread_handling_switches": self.switches,
                "Thread_handling_moved_to_pool": self.moved_to_pool,
                "Thread_handling_moved_to_per_thread": self.moved_to_per_thread,
            })
        status["Thread_handling_pool_connections"] = \
            self._pool.connection_count() if self._pool is not None else 0
        status["Thread_handling_per_thread_connections"] = self.per_thread.thread_count()
        return status

    def table(self, name: str) -> list[tuple[Any, ...]]:
        return self._pool.table(name) if self._pool is not None else super().table(name)

    def flush(self, what: str) -> None:
        if self._pool is not None:
            self._pool.flush(what)
        else:
            super().flush(what)
