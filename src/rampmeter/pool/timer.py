"""The pool's timer thread: every thread_pool_stall_limit ms, rescue stalled groups and time out
idle connections (MariaDB timer_thread / check_stall / timeout_check).

Rules:
- The tick is a timed wait on a Condition; SET GLOBAL thread_pool_stall_limit notifies it, and
  the next wait uses the new interval. Work is done only when a wait times out, as in MariaDB.
- Each tick refreshes the pool's coarse clock, runs check_stall for every group that has
  connections (under that group's lock, one group at a time), looks for vanished clients in
  groups that have no listener polling at that moment, then, if the earliest idle
  deadline has passed, sweeps the idle connections of every group: an expired one whose next
  request is not already readable is killed (queued HIGH, closed by its next handle()).
- Under thread_pool_group_assignment=load the tick also samples each group's load in the same
  locked visit, plans the moves (sched/balance.py) and hands each group its Move under its
  lock; `loads` (a tuple, replaced whole) is what new connections are assigned by.
- The timer knows the pool only through its PoolEnv and two callables (the current groups, and
  the lazy wait_timeout bookkeeping), so pool/ has no import cycle.
- Times are float seconds from the pool's clock: no overflow however large the stall limit
  (Percona PS-1095).
"""

from __future__ import annotations

import logging
import select
import threading
from collections.abc import Callable

from rampmeter.pool.env import PoolEnv
from rampmeter.pool.group import Group
from rampmeter.sched import balance, policy

log = logging.getLogger("rampmeter.pool")


def readable(fd: int) -> bool:
    """Is the client's next request already waiting on the socket?"""
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLPRI)
    try:
        return bool(poller.poll(0))
    except OSError:
        return False


class TimeoutBook:
    """MariaDB's next_timeout_check: the earliest idle deadline, lowered by every re-arm, so
    the timer sweeps connections only when one may have expired."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.next_check = float("inf")

    def note(self, deadline: float) -> None:
        if deadline < self.next_check:
            with self._lock:
                if deadline < self.next_check:
                    self.next_check = deadline

    def take(self, now: float) -> bool:
        """Is a sweep due? (resets the next check time)."""
        with self._lock:
            if self.next_check > now:
                return False
            self.next_check = float("inf")
            return True


class Timer:
    def __init__(self, env: PoolEnv, groups: Callable[[], list[Group]],
                 timeouts: TimeoutBook) -> None:
        self.env = env
        self.groups = groups
        self.timeouts = timeouts
        self._cond = threading.Condition()
        self._shutdown = False
        self._thread = threading.Thread(target=self._run, name="tpool-timer", daemon=True)
        self.loads: tuple[int, ...] = ()  # each group's load at the last tick (balance.py)

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
                notified = self._cond.wait(self.env.cfg.stall_limit_ms / 1000.0)
                if self._shutdown:
                    return
            if notified:
                continue  # the interval changed: wait again with the new one
            try:
                self.tick(self.env.clock.now())
            except Exception:  # noqa: BLE001 - the timer must survive a bad tick
                log.exception("thread pool timer tick failed")

    def _balance(self, groups: list[Group]) -> None:
        """Plan this tick's moves from the samples just taken (only this thread writes the
        histories, so it reads them without the locks) and hand each group its Move."""
        states = [g.state for g in groups]
        size = self.env.cfg.group_count
        moves = balance.plan_moves([st.load for st in states],
                                   [i < size and not st.retired for i, st in enumerate(states)])
        for group, move in zip(groups, moves):
            with group.lock:
                group.state.move = move
        self.loads = tuple(st.load.current for st in states[:size])

    def tick(self, now: float) -> None:
        env = self.env
        env.coarse_now = now
        groups = self.groups()
        balancing = env.cfg.group_assignment == balance.LOAD
        for group in groups:
            with group.lock:
                st = group.state
                if balancing:
                    st.load.sample(balance.group_load(st.active_count, st.queue_length()))
                if not st.connection_count:
                    continue
                decision = policy.check_stall(st, env.cfg, now, env.counts.threads)
                group.apply(decision)
                group.count_stalled(now)
            group.sweep_hangups(now)
        if balancing:
            self._balance(groups)
        if self.timeouts.take(now):
            earliest = float("inf")
            for group in groups:
                earliest = min(earliest, group.expire_idle(now, readable))
            self.timeouts.note(earliest)
