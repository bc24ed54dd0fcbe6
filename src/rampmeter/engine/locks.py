"""The locks sessions of the SQLite engine wait for, in Python so that waiting is visible.

Rules:
- SQLite allows one writer per database file and answers a second one SQLITE_BUSY at once (we
  set no busy timeout). Rather than poll, writers queue here first: `WriteLock` is the engine's
  single write lock, held from a write transaction's first write (or from an explicit BEGIN)
  to its COMMIT / ROLLBACK, or for the length of one autocommit write statement. One lock for
  every database file, because BEGIN IMMEDIATE takes every attached file at once.
- Waiting is reported: the caller wraps `acquire()` in `waiting(TABLE_LOCK)` (or USER_LOCK),
  so under the thread pool the group may start another worker meanwhile.
- Waiters queue in FIFO order, and a release hands the lock to the first of them and wakes
  that one thread only (InnoDB grants a lock queue in order too). Every waiter waits on a
  condition of its own: hundreds of sessions may queue on the write lock (oltp_read_write at
  256 connections), and waking them all on every COMMIT to find the one that wins cost the
  whole server its throughput (docs/performance.md, "Writes under many connections"). A
  session that arrives while others wait queues behind them; it does not barge.
- Waiters give up at their deadline (innodb_lock_wait_timeout -> 1205, or GET_LOCK's timeout)
  or when their session is cancelled (KILL QUERY -> 1317): `wake_all()` makes every waiter
  re-check its `cancelled()` callback. A waiter the lock was handed to has it, whatever its
  deadline or cancellation say by the time it runs.
- Re-entrant per owner: a session that holds the lock may acquire it again (LOCK TABLES, then
  a write) and must release it as often.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable


class WaitAborted(Exception):
    """The owner was cancelled while it waited."""


class _Waiter:
    __slots__ = ("owner", "cond", "granted")

    def __init__(self, owner: object, mutex: threading.Lock) -> None:
        self.owner = owner
        self.cond = threading.Condition(mutex)
        self.granted = False


class _Lock:
    __slots__ = ("count", "owner", "queue")

    def __init__(self) -> None:
        self.owner: object | None = None
        self.count = 0
        self.queue: deque[_Waiter] = deque()

    @property
    def waiters(self) -> int:
        return len(self.queue)


class LockTable:
    """Named exclusive locks with owners (the write lock is the name ''; GET_LOCK names are
    the rest). One mutex for the table; one condition per waiter, woken when it is granted the
    lock (or by `wake_all`)."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._locks: dict[str, _Lock] = {}

    def try_acquire(self, name: str, owner: object) -> bool:
        with self._mutex:
            return self._take(name, owner)

    def _take(self, name: str, owner: object) -> bool:
        lock = self._locks.get(name)
        if lock is None:
            lock = self._locks[name] = _Lock()
        if lock.owner is owner or (lock.owner is None and not lock.queue):
            lock.owner = owner
            lock.count += 1
            return True
        return False

    def acquire(self, name: str, owner: object, timeout: float,
                cancelled: Callable[[], bool]) -> bool:
        """Wait for `name`; False at the timeout; WaitAborted when `cancelled()` turns true."""
        deadline = time.monotonic() + timeout
        with self._mutex:
            if self._take(name, owner):
                return True
            lock = self._locks[name]
            me = _Waiter(owner, self._mutex)
            lock.queue.append(me)
            try:
                while not me.granted:
                    if cancelled():
                        raise WaitAborted
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return False
                    me.cond.wait(left)
                return True
            finally:
                if not me.granted:
                    lock.queue.remove(me)
                    if lock.owner is None and not lock.queue:
                        self._locks.pop(name, None)

    def _free(self, name: str, lock: _Lock) -> None:
        """`lock` has no owner now: hand it to its first waiter, or forget it."""
        if lock.queue:
            first = lock.queue.popleft()
            first.granted = True
            lock.owner = first.owner
            lock.count = 1
            first.cond.notify()
        else:
            lock.owner = None
            lock.count = 0
            del self._locks[name]

    def release(self, name: str, owner: object) -> bool:
        """Release one hold; False when `owner` does not hold `name`."""
        with self._mutex:
            lock = self._locks.get(name)
            if lock is None or lock.owner is not owner:
                return False
            lock.count -= 1
            if lock.count == 0:
                self._free(name, lock)
            return True

    def release_all(self, owner: object, *, names: Callable[[str], bool] = bool) -> int:
        """Release every lock `owner` holds whose name passes `names`; returns how many."""
        with self._mutex:
            freed = 0
            for name, lock in list(self._locks.items()):
                if lock.owner is owner and names(name):
                    freed += 1
                    self._free(name, lock)
            return freed

    def owner_of(self, name: str) -> object | None:
        with self._mutex:
            lock = self._locks.get(name)
            return lock.owner if lock else None

    def holds(self, name: str, owner: object) -> bool:
        return self.owner_of(name) is owner

    def wake_all(self) -> None:
        """Every waiter re-checks its `cancelled()` (KILL QUERY of one of them)."""
        with self._mutex:
            for lock in self._locks.values():
                for waiter in lock.queue:
                    waiter.cond.notify()


WRITE_LOCK = ""  # the name of the engine's write lock in its LockTable


class TableLocks:
    """LOCK TABLES' locks, per table (MariaDB takes them as metadata locks): a READ lock is
    shared with other READ locks, a WRITE lock with nobody. Two sessions may therefore hold
    LOCK TABLES on different tables, or READ on the same one, at once.

    Rules:
    - A session's LOCK TABLES takes its whole list at once or waits (so two lists never
      deadlock on each other); `holders` keys are (database, table) lower-cased.
    - Another session's statement waits (`wait_free`) until nobody else holds a table it
      reads WRITE, or a table it writes (or changes the schema of) at all; it takes nothing.
      The table name "*" stands for every table of its database (DROP DATABASE).
    - LOCK TABLES is rare: one mutex, one condition, every waiter woken by every release.
      `active` (a plain count, read without the mutex) lets statements skip all of this while
      no session holds LOCK TABLES.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._held: dict[tuple[str, str], dict[object, bool]] = {}
        self._owners: set[int] = set()
        self.active = 0

    def _blocked(self, owner: object, wants: list[tuple[tuple[str, str], bool]]) -> bool:
        for key, write in wants:
            if key[1] == "*":  # the whole database (DROP DATABASE): any table of it
                held = [h for k, h in self._held.items() if k[0] == key[0]]
            else:
                held = [self._held.get(key, {})]
            for holders in held:
                for other, other_write in holders.items():
                    if other is not owner and (write or other_write):
                        return True
        return False

    def _wait(self, owner: object, wants: list[tuple[tuple[str, str], bool]], timeout: float,
              cancelled: Callable[[], bool]) -> bool:
        deadline = time.monotonic() + timeout
        while self._blocked(owner, wants):
            if cancelled():
                raise WaitAborted
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self._cond.wait(min(left, 1.0))  # the bound re-checks cancelled() (KILL)
        return True

    def would_wait(self, owner: object, wants: list[tuple[tuple[str, str], bool]]) -> bool:
        with self._cond:
            return self._blocked(owner, wants)

    def acquire(self, owner: object, wants: list[tuple[tuple[str, str], bool]],
                timeout: float, cancelled: Callable[[], bool]) -> bool:
        """Take every (table, write) of `wants` once none conflicts; False at the timeout."""
        with self._cond:
            if not self._wait(owner, wants, timeout, cancelled):
                return False
            for key, write in wants:
                mine = self._held.setdefault(key, {})
                mine[owner] = mine.get(owner, False) or write
            self._owners.add(id(owner))
            self.active = len(self._owners)
            return True

    def wait_free(self, owner: object, wants: list[tuple[tuple[str, str], bool]],
                  timeout: float, cancelled: Callable[[], bool]) -> bool:
        """Wait until no other session's lock conflicts with `wants`; False at the timeout."""
        with self._cond:
            return self._wait(owner, wants, timeout, cancelled)

    def _writer(self, owner: object) -> bool:
        return any(other is not owner and write for holders in self._held.values()
                   for other, write in holders.items())

    def has_writer(self, owner: object) -> bool:
        """Does a session other than `owner` hold a WRITE lock?"""
        with self._cond:
            return self._writer(owner)

    def wait_no_writer(self, owner: object, timeout: float,
                       cancelled: Callable[[], bool]) -> bool:
        """Wait until no other session holds a WRITE lock (the global read lock's wait)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._writer(owner):
                if cancelled():
                    raise WaitAborted
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(min(left, 1.0))
            return True

    def release(self, owner: object) -> None:
        with self._cond:
            if id(owner) not in self._owners:
                return
            for key in list(self._held):
                holders = self._held[key]
                holders.pop(owner, None)
                if not holders:
                    del self._held[key]
            self._owners.discard(id(owner))
            self.active = len(self._owners)
            self._cond.notify_all()

    def wake_all(self) -> None:
        with self._cond:
            self._cond.notify_all()
