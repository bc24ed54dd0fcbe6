"""The engine's pool of handles: sessions borrow an sqlite3 connection for a command, not own one.

Rules:
- One pool per SqliteEngine. `borrow()` takes the most recently returned idle handle (LIFO: its
  page cache, statement cache and attachments are the warmest) or opens a new one; `give_back()`
  keeps at most `idle_limit` idle handles and closes the rest. Handles in use are not bounded:
  there is one per running command plus one per pinned session (pinning.py), because a session
  that holds a transaction cannot wait for another's to end without deadlocking. So the handles
  alive are about (commands running at once) + (sessions pinned) + (idle ones kept), and an
  idle client connection costs none.
- Why a shared pool and not a handle per worker thread: a pinned session is served by whichever
  worker dequeues it, so a thread's handle could not be the session's; workers come and go
  (thread_pool_idle_timeout), and their handles would have to be handed over anyway. A shared
  LIFO list gives the same warmth (the handle a worker just returned is the one it takes next)
  for a lock and a list pop (well under a microsecond; a statement costs ~150 us).
- `idle_limit` default (IDLE_LIMIT): more than the threads that run statements at once under the
  default pool (thread_pool_size x (1 + thread_pool_oversubscribe) on a small machine, plus the
  listeners that run a command themselves), so a steady load of autocommit statements neither
  opens nor closes handles. A handle costs ~100-200 KiB and, per database it has ATTACHed, two
  file descriptors (the file and its WAL; the WAL index is shared per process).
- Beyond `idle_limit`, the pool keeps as many handles as were lent at once at the peak of the
  last one or two windows of PEAK_WINDOW seconds (`give_back` closes a handle only while more
  are open than that). Without it, a steady load with more pinned sessions than idle_limit
  (oltp_read_write at 256 connections: every open transaction pins one) closed a handle at
  every COMMIT and opened one, with its ~500 functions registered and a cold statement cache,
  at every BEGIN - a third of the server's CPU (docs/performance.md, "Writes under many
  connections"). When the load falls, the surplus is closed as handles come back (the one
  returned and the coldest idle one), within two windows; an idle server closes nothing until
  its next command.
- Functions are registered once per handle, when it is opened; they answer for the session that
  holds the handle at the moment they are called, through the handle's Occupant (below): the
  session is never captured in a closure.
- A handle is given back clean: no SQLite transaction open. One that is (a fault of ours: a
  session that is not pinned left one) is rolled back and logged, never lent out dirty.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from rampmeter.engine.sqlite.handle import Handle

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession
    from rampmeter.engine.sqlite.storage import SqliteEngine

log = logging.getLogger("rampmeter.engine")

IDLE_LIMIT = 16
PEAK_WINDOW = 10.0  # seconds; see the module rules


class _Context:
    """The occupant's SessionContext, forwarded: functions.register reads `host.context` once."""

    __slots__ = ("_occupant",)

    def __init__(self, occupant: Occupant) -> None:
        self._occupant = occupant

    def __getattr__(self, name: str) -> Any:
        return getattr(self._occupant.session.context, name)


class Occupant:
    """The session a handle serves right now, as the functions registered on it see it
    (functions.Host). Methods that registration binds once are forwarded explicitly; any other
    attribute is looked up on the session at the moment it is asked for."""

    __slots__ = ("session", "context")

    def __init__(self) -> None:
        self.session: SqliteSession | None = None
        self.context = _Context(self)

    def __getattr__(self, name: str) -> Any:
        session = self.session
        if session is None:
            raise AttributeError(f"no session holds this handle (asked for {name!r})")
        return getattr(session, name)

    def stop_requested(self) -> int:
        """SQLite's progress handler: non-zero interrupts the running statement."""
        s = self.session
        return 1 if s is not None and s.cancelled() else 0

    # bound at registration (functions.register: found_rows, row_count, rm_row_*, rm_cv)
    def found_rows(self) -> int:
        return self.session.found_rows()  # type: ignore[union-attr]

    def row_count(self) -> int:
        return self.session.row_count()  # type: ignore[union-attr]

    def row_updated(self, changed: int) -> None:
        self.session.row_updated(changed)  # type: ignore[union-attr]

    def row_deleted(self, *old: Any) -> None:
        self.session.row_deleted(*old)  # type: ignore[union-attr]

    def cast(self, index: int, value: Any) -> Any:
        return self.session.cast(index, value)  # type: ignore[union-attr]

    def warn(self, code: int, message: str, level: str = "Warning") -> None:
        self.session.warn(code, message, level)  # type: ignore[union-attr]

    def function_failed(self, error: Any) -> None:
        self.session.function_failed(error)  # type: ignore[union-attr]


def install_functions(handle: Handle) -> None:
    """Every SQL function the engine offers, registered on a new handle for its occupants."""
    from rampmeter.engine.sqlite import (
        autoinc,
        autokey,
        checks,
        fkcheck,
        fulltext,
        functions,
        jsonfns,
        retkeep,
        slots,
        timefns,
        triggers,
        updates,
    )
    host: Any = handle.occupant
    functions.register(handle, host, handle.engine.locks)
    timefns.register(handle, host)   # after functions: its clock functions win
    jsonfns.register(handle, host)
    fkcheck.register(handle, host)
    fulltext.register(handle, host)
    checks.register(handle, host)
    autoinc.register(handle, host)
    autokey.register(handle, host)
    updates.register(handle, host)
    triggers.register(handle, host)
    slots.register(handle, host)
    retkeep.register(handle, host)


class HandlePool:
    def __init__(self, engine: SqliteEngine, idle_limit: int = IDLE_LIMIT, *,
                 window: float = PEAK_WINDOW, clock: Any = time.monotonic) -> None:
        self.engine = engine
        self.idle_limit = idle_limit
        self._window = window
        self._clock = clock
        self._window_end = clock() + window
        self._peak = 0        # most handles open at once in this window ...
        self._last_peak = 0   # ... and in the one before
        self._lock = threading.Lock()
        self._idle: deque[Handle] = deque()
        self._closed = False
        self.opened = 0      # handles open now (idle or lent)
        self.created = 0     # handles ever opened (a steady load stops adding to it)

    def borrow(self) -> Handle:
        idle = self._idle
        try:
            handle = idle.pop()   # deque: a thread-safe pop, no lock on the hot path
        except IndexError:
            pass
        else:
            lent = self.opened - len(idle)   # the peak is a heuristic: no lock for it
            if lent > self._peak:
                self._peak = lent
            return handle
        with self._lock:
            self.opened += 1
            self.created += 1
            if self.opened > self._peak:   # none idle: all open handles are lent
                self._peak = self.opened
        try:
            handle = Handle(self.engine)
            install_functions(handle)
        except BaseException:
            with self._lock:
                self.opened -= 1
            raise
        return handle

    def give_back(self, handle: Handle) -> None:
        handle.vacate()
        if handle.in_transaction:
            log.error("an engine handle was given back inside a transaction; rolled back")
            try:
                handle.execute("ROLLBACK")
                handle.rolled_back()
            except Exception:  # noqa: BLE001 - a handle we cannot clean is closed instead
                self.discard(handle)
                return
        idle = self._idle
        if (len(idle) < self.idle_limit or self.opened <= self._keep()) and not self._closed:
            # thread-safe append; two racing returns may keep one more than idle_limit
            idle.append(handle)
            if not self._closed:
                return
            self.close()   # closed meanwhile: do not keep it
            return
        with self._lock:
            self.opened -= 1
        handle.close()
        if len(idle) > self.idle_limit:   # and one of the surplus that came back earlier
            try:
                cold = idle.popleft()
            except IndexError:
                return
            with self._lock:
                self.opened -= 1
            cold.close()

    def _keep(self) -> int:
        """How many open handles the recent peak justifies (module rules)."""
        now = self._clock()
        if now >= self._window_end:
            with self._lock:
                if now >= self._window_end:
                    # after a quiet spell longer than a window, only what is lent now counts
                    lent = self.opened - len(self._idle)
                    quiet = now >= self._window_end + self._window
                    self._last_peak = lent if quiet else self._peak
                    self._peak = lent
                    self._window_end = now + self._window
        return max(self._peak, self._last_peak)

    def discard(self, handle: Handle) -> None:
        """Close a handle that must not be lent again (it holds a session's temp tables)."""
        handle.vacate()
        with self._lock:
            self.opened -= 1
        handle.close()

    def idle_count(self) -> int:
        return len(self._idle)

    def close(self) -> None:
        """Shutdown: close the idle handles; those still lent are closed when given back."""
        self._closed = True
        while True:
            try:
                handle = self._idle.pop()
            except IndexError:
                return
            with self._lock:
                self.opened -= 1
            handle.close()
