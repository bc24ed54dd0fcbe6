"""The pool's timer thread: every thread_pool_stall_limit ms, rescue stalled groups and time out
idle connections (MariaDB timer_thread / check_stall / timeout_check).

Rules:
- The tick is a timed wait on a Condition; SET GLOBAL thread_pool_stall_limit notifies it, and
  the next wait uses the new interval. Work is done only when a wait times out, as in MariaDB.
- Each tick refreshes the pool's coarse clock, runs check_stall for every group that has
  connections (under that group's lock, one group at a time), then, if the earliest idle
  deadline has passed, sweeps the idle connections of every group: an expired one whose next
  request is not already readable is killed (queued HIGH, closed by its next handle()).
- Times are float seconds from the pool's clock: no overflow however large the stall limit
  (Percona PS-1095).
"""

from __future__ import annotations

import logging
import select
import threading
from typing import TYPE_CHECKING

from rampmeter.sched import policy

if TYPE_CHECKING:
    from rampmeter.pool.threadpool import ThreadPool

log = logging.getLogger("rampmeter.pool")


def readable(fd: int) -> bool:
    """Is the client's next request already waiting on the socket?"""
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLPRI)
    try:
        return bool(poller.poll(0))
    except OSError:
        return False


class Timer:
    def __init__(self, pool: ThreadPool) -> None:
        self.pool = pool
        self._cond = threading.Condition()
        self._shutdown = False
        self._thread = threading.Thread(target=self._run, name="tpool-timer", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def interval_changed(self) -> None:
        with self._cond:
            self._cond.notify()

    def stop(self) -> None:
        with self._cond:
            self._shutdown = True
            self._cond.notify()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        while True:
            with self._cond:
                notified = self._cond.wait(self.pool.cfg.stall_limit_ms / 1000.0)
                if self._shutdown:
                    return
            if notified:
                continue  # the interval changed: wait again with the new one
            try:
                self.tick(self.pool.clock.now())
            except Exception:  # noqa: BLE001 - the timer must survive a bad tick
                log.exception("thread pool timer tick failed")

    def tick(self, now: float) -> None:
        pool = self.pool
        pool.coarse_now = now
        total = pool.total_threads()
        for group in list(pool.groups):
            if not group.state.connection_count:
                continue
            with group.lock:
                decision = policy.check_stall(group.state, pool.cfg, now, total)
                group.apply(decision)
        if pool.take_timeout_check(now):
            earliest = float("inf")
            for group in list(pool.groups):
                earliest = min(earliest, group.expire_idle(now, readable))
            pool.note_deadline(earliest)
