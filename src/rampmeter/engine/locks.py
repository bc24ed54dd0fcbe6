"""The locks sessions of the SQLite engine wait for, in Python so that waiting is visible.

Rules:
- SQLite allows one writer per database file and answers a second one SQLITE_BUSY at once (we
  set no busy timeout). Rather than poll, writers queue here first: `WriteLock` is the engine's
  single write lock, held from a write transaction's first write (or from an explicit BEGIN)
  to its COMMIT / ROLLBACK, or for the length of one autocommit write statement. One lock for
  every database file, because BEGIN IMMEDIATE takes every attached file at once.
- Waiting is reported: the caller wraps `acquire()` in `waiting(TABLE_LOCK)` (or USER_LOCK),
  so under the thread pool the group may start another worker meanwhile.
- Waiters give up at their deadline (innodb_lock_wait_timeout -> 1205, or GET_LOCK's timeout)
  or when their session is cancelled (KILL QUERY -> 1317): `wake_all()` makes every waiter
  re-check its `cancelled()` callback.
- Re-entrant per owner: a session that holds the lock may acquire it again (LOCK TABLES, then
  a write) and must release it as often.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class WaitAborted(Exception):
    """The owner was cancelled while it waited."""


class _Lock:
    __slots__ = ("count", "owner", "waiters")

    def __init__(self) -> None:
        self.owner: object | None = None
        self.count = 0
        self.waiters = 0


class LockTable:
    """Named exclusive locks with owners (the write lock is the name ''; GET_LOCK names are
    the rest). One condition variable: contention here is a few sessions, not thousands."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._locks: dict[str, _Lock] = {}

    def try_acquire(self, name: str, owner: object) -> bool:
        with self._cond:
            return self._take(name, owner)

    def _take(self, name: str, owner: object) -> bool:
        lock = self._locks.get(name)
        if lock is None:
            lock = self._locks[name] = _Lock()
        if lock.owner is None or lock.owner is owner:
            lock.owner = owner
            lock.count += 1
            return True
        return False

    def acquire(self, name: str, owner: object, timeout: float,
                cancelled: Callable[[], bool]) -> bool:
        """Wait for `name`; False at the timeout; WaitAborted when `cancelled()` turns true."""
        deadline = time.monotonic() + timeout
        with self._cond:
            if self._take(name, owner):
                return True
            lock = self._locks[name]
            lock.waiters += 1
            try:
                while True:
                    if cancelled():
                        raise WaitAborted
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return False
                    self._cond.wait(left)
                    if self._take(name, owner):
                        return True
            finally:
                lock.waiters -= 1
                if lock.owner is None and not lock.waiters:
                    self._locks.pop(name, None)

    def release(self, name: str, owner: object) -> bool:
        """Release one hold; False when `owner` does not hold `name`."""
        with self._cond:
            lock = self._locks.get(name)
            if lock is None or lock.owner is not owner:
                return False
            lock.count -= 1
            if lock.count == 0:
                lock.owner = None
                if not lock.waiters:
                    del self._locks[name]
                self._cond.notify_all()
            return True

    def release_all(self, owner: object, *, names: Callable[[str], bool] = bool) -> int:
        """Release every lock `owner` holds whose name passes `names`; returns how many."""
        with self._cond:
            freed = 0
            for name, lock in list(self._locks.items()):
                if lock.owner is owner and names(name):
                    freed += 1
                    lock.owner = None
                    lock.count = 0
                    if not lock.waiters:
                        del self._locks[name]
            if freed:
                self._cond.notify_all()
            return freed

    def owner_of(self, name: str) -> object | None:
        with self._cond:
            lock = self._locks.get(name)
            return lock.owner if lock else None

    def holds(self, name: str, owner: object) -> bool:
        return self.owner_of(name) is owner

    def wake_all(self) -> None:
        with self._cond:
            self._cond.notify_all()


WRITE_LOCK = ""  # the name of the engine's write lock in its LockTable
