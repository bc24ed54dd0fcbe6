"""What a thread group needs from the pool around it, as one small object.

Rules:
- A Group gets a `PoolEnv`, never the ThreadPool: the knobs (PoolConfig), the clock and its
  coarse reading, the pool-wide counts, and two actions (start a worker thread, report a thread
  that could not be created). So group.py imports nothing from threadpool.py and the import
  direction inside pool/ is plain: env <- group <- timer <- threadpool.
- Pool-wide counts (worker threads, sleeping workers) live in `PoolCounts` under their own lock.
  A group updates them while it holds its own lock; the order is always group lock, then the
  counts lock, never the reverse. A decision reads the current value (one attribute read); no
  group reads another group's state to learn a total (MariaDB sums other groups' counters
  without their locks; we do not).
- The coarse clock is the timer's last reading: queue stamps use it unless
  thread_pool_exact_stats is ON (MariaDB: a clock read saved per request).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from rampmeter.sched.clock import Clock
from rampmeter.sched.policy import PoolConfig

if TYPE_CHECKING:
    from rampmeter.pool.group import Group


class PoolCounts:
    """Threads and sleepers of the whole pool (MariaDB's tp_stats.num_worker_threads)."""

    __slots__ = ("_lock", "threads", "sleepers")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.threads = 0
        self.sleepers = 0

    def add_threads(self, n: int) -> None:
        with self._lock:
            self.threads += n

    def add_sleepers(self, n: int) -> None:
        with self._lock:
            self.sleepers += n

    def read(self) -> tuple[int, int]:
        with self._lock:
            return self.threads, self.sleepers


class PoolEnv:
    __slots__ = ("cfg", "clock", "counts", "coarse_now", "start_worker", "creation_blocked")

    def __init__(self, cfg: PoolConfig, clock: Clock, *,
                 start_worker: Callable[[Group], None],
                 creation_blocked: Callable[[], None]) -> None:
        self.cfg = cfg
        self.clock = clock
        self.counts = PoolCounts()
        self.coarse_now = clock.now()
        self.start_worker = start_worker
        self.creation_blocked = creation_blocked

    def stamp(self, now: float) -> float:
        return now if self.cfg.exact_stats else self.coarse_now
