"""pool-of-threads: the server-side thread pool (MariaDB's generic pool, with the knobs of
Percona and MySQL Enterprise), as a ConnectionHandler.

Rules:
- Connections are split into `thread_pool_size` groups by connection id % size. A group has one
  listener (a role any worker takes when the group has none), a few workers, two queues and a
  waiting list; group.py is the mechanism, sched/policy.py decides.
- `serve` is what a worker does with a dequeued connection: handle() it, then either close it
  or re-arm it (`start_io`), recomputing nothing but the idle deadline here; the priority is read
  from the session when the next request is queued.
- Resizing (SET GLOBAL thread_pool_size) creates the missing groups and marks every connection;
  each moves to its new group at its next start_io (MariaDB fix_group). Shrinking leaves the
  surplus groups' threads to leave through the idle timeout.
- The timer thread (timer.py) ticks every thread_pool_stall_limit ms: stall check per group,
  then the lazy wait_timeout sweep.
- Queue stamps use the timer's coarse clock unless thread_pool_exact_stats is ON (MariaDB: it
  saves a clock read per request; it shows in QUEUEING_TIME_MICROSECONDS and kick-up).
- `stop()`: stop the timer, wake every listener (self-pipe) and sleeper, join the threads, and
  close the connections that remain.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from rampmeter.config.variables import GlobalVariables
from rampmeter.engine.base import WaitReason
from rampmeter.pool import waits
from rampmeter.pool.base import Connection, ConnectionHandler, Handle, Verdict
from rampmeter.pool.group import ConnState, Group, PoolConn, Worker
from rampmeter.pool.timer import Timer
from rampmeter.sched import policy
from rampmeter.sched.clock import Clock, MonotonicClock
from rampmeter.sched.policy import PoolConfig

log = logging.getLogger("rampmeter.pool")

MAX_THREADS_REACHED_MSG = (
    "Threadpool could not create additional thread to handle queries, because the number of "
    "allowed threads was reached. Increasing 'thread_pool_max_threads' parameter can help in "
    "this situation. If 'extra_port' parameter is set, you can still connect to the database "
    "with superuser account (it must be TCP connection using extra_port as TCP port) and "
    "troubleshoot the situation. A likely cause of pool blocks are clients that lock resources "
    "for long time. 'show processlist' can give additional hints.")

_CFG_VARS = {
    "thread_pool_oversubscribe": "oversubscribe",
    "thread_pool_stall_limit": "stall_limit_ms",
    "thread_pool_prio_kickup_timer": "prio_kickup_timer_ms",
    "thread_pool_max_threads": "max_threads",
    "thread_pool_idle_timeout": "idle_timeout_s",
    "thread_pool_dedicated_listener": "dedicated_listener",
    "thread_pool_exact_stats": "exact_stats",
    "thread_pool_max_active_query_threads": "max_active_query_threads",
    "thread_pool_max_unused_threads": "max_unused_threads",
    "thread_pool_max_transactions_limit": "max_transactions_limit",
}

# Waits that count toward Percona's LOW-queue freeze (sched/policy.py explains the choice).
LOCK_WAITS = frozenset({WaitReason.ROW_LOCK, WaitReason.TABLE_LOCK, WaitReason.META_DATA_LOCK,
                        WaitReason.USER_LOCK, WaitReason.GLOBAL_LOCK})

_local = threading.local()


class ThreadPool(ConnectionHandler):
    thread_handling = "pool-of-threads"

    def __init__(self, handle: Handle, variables: GlobalVariables,
                 clock: Clock | None = None) -> None:
        super().__init__(handle)
        self.variables = variables
        self.clock: Clock = clock or MonotonicClock()
        self.cfg = PoolConfig()
        self._reconfigure()
        self.groups: list[Group] = []
        self._groups_lock = threading.Lock()
        self._conns: dict[int, PoolConn] = {}
        self._conns_lock = threading.Lock()
        self.coarse_now = self.clock.now()
        self.next_timeout_check = float("inf")
        self._timeout_lock = threading.Lock()
        self._created_total = 0
        self._threads: set[threading.Thread] = set()
        self._threads_lock = threading.Lock()
        self._blocked = policy.BlockedMonitor()
        self._stopped = False
        self.timer = Timer(self)
        self._resize(variables["thread_pool_size"])
        for name in _CFG_VARS:
            variables.on_change(name, self._on_variable)
        variables.on_change("thread_pool_size", lambda name, value: self._resize(value))

    # --- configuration -----------------------------------------------------------------------
    def _reconfigure(self) -> None:
        for var, attr in _CFG_VARS.items():
            setattr(self.cfg, attr, self.variables[var])

    def _on_variable(self, name: str, value: Any) -> None:
        setattr(self.cfg, _CFG_VARS[name], value)
        if name == "thread_pool_stall_limit":
            self.timer.interval_changed()

    def _resize(self, size: int) -> None:
        with self._groups_lock:
            while len(self.groups) < size:
                self.groups.append(Group(self, len(self.groups)))
            self.cfg.group_count = size
        with self._conns_lock:
            for pc in self._conns.values():
                pc.fix_group = True

    def group_for(self, connection_id: int) -> Group:
        return self.groups[connection_id % self.cfg.group_count]

    def stamp(self, now: float) -> float:
        return now if self.cfg.exact_stats else self.coarse_now

    # --- threads -----------------------------------------------------------------------------
    def total_threads(self) -> int:
        return sum(g.state.thread_count for g in self.groups)

    def idle_threads(self) -> int:
        """Sleeping workers in the whole pool (MySQL's "unused threads")."""
        return sum(len(g.state.waiting) for g in self.groups)

    def start_worker(self, group: Group) -> None:
        """Policy said CREATE (counts already taken). Caller holds group.lock."""
        worker = Worker(group)
        thread = threading.Thread(target=self._worker_main, args=(worker,), daemon=True,
                                  name=f"tpool-g{group.state.group_id}")
        worker.thread = thread
        try:
            thread.start()
        except RuntimeError as exc:  # the OS refused a thread: undo, count as blocked
            policy.thread_exit(group.state)
            log.error("Can't create threads in threadpool (%s).", exc)
            self.creation_blocked()
            return
        with self._threads_lock:
            self._threads.add(thread)
            self._created_total += 1
        self._blocked.succeeded()

    def creation_blocked(self) -> None:
        blocked_for = self._blocked.failed(self.clock.now())
        if blocked_for is not None:
            log.error("%s", MAX_THREADS_REACHED_MSG)
            log.info("Threadpool has been blocked for %d seconds", int(blocked_for))

    def _worker_main(self, worker: Worker) -> None:
        waits.bind_thread(self)
        _local.worker = worker
        group = worker.group
        try:
            while True:
                deadline = self.clock.now() + self.cfg.idle_timeout_s
                pc = group.get_event(worker, deadline)
                if pc is None:
                    break
                self.serve(pc)
        finally:
            with group.lock:
                policy.thread_exit(group.state)
            with self._threads_lock:
                self._threads.discard(threading.current_thread())

    def serve(self, pc: PoolConn) -> None:
        conn = pc.conn
        try:
            verdict = self._handle(conn)
        except BaseException:  # handle() catches everything; this is the last line of defence
            log.exception("connection %d: unexpected error in handle()", conn.connection_id)
            verdict = Verdict.CLOSE
        if verdict is Verdict.CLOSE or not self.start_io(pc):
            self._close(pc)

    def start_io(self, pc: PoolConn) -> bool:
        """Re-arm the connection in its (maybe new) group with its idle deadline."""
        conn = pc.conn
        now = self.clock.now()
        if pc.fix_group:
            pc.fix_group = False
            new_group = self.group_for(conn.connection_id)
            if new_group is not pc.group:
                pc.group.detach(pc)
                new_group.attach(pc, now)
        deadline = policy.idle_deadline(now, conn.idle_timeout())
        if not pc.group.arm(pc, deadline, conn.priority_inputs().in_transaction):
            return False
        self.note_deadline(deadline)
        return True

    def note_deadline(self, deadline: float) -> None:
        if deadline < self.next_timeout_check:
            with self._timeout_lock:
                if deadline < self.next_timeout_check:
                    self.next_timeout_check = deadline

    def take_timeout_check(self, now: float) -> bool:
        """The timer's lazy check: is a sweep due? (resets the next check time)."""
        with self._timeout_lock:
            if self.next_timeout_check > now:
                return False
            self.next_timeout_check = float("inf")
            return True

    def _close(self, pc: PoolConn) -> None:
        pc.group.detach(pc)
        pc.state = ConnState.CLOSED
        with self._conns_lock:
            self._conns.pop(id(pc), None)
        pc.conn.close()

    # --- ConnectionHandler -------------------------------------------------------------------
    def start(self) -> None:
        self.timer.start()

    def add_connection(self, conn: Connection) -> None:
        group = self.group_for(conn.connection_id)
        pc = PoolConn(conn, group)
        conn.handler_data = pc
        with self._conns_lock:
            if self._stopped:
                conn.close()
                return
            self._conns[id(pc)] = pc
        group.add_new(pc, self.clock.now())

    def wait_begin(self, reason: WaitReason) -> None:
        worker = getattr(_local, "worker", None)
        if worker is not None:
            _local.lock_wait = reason in LOCK_WAITS
            worker.group.wait_begin(_local.lock_wait)

    def wait_end(self) -> None:
        worker = getattr(_local, "worker", None)
        if worker is not None:
            worker.group.wait_end(_local.lock_wait)

    def stop(self, timeout: float = 5.0) -> None:
        if self._stopped:
            return
        self._stopped = True
        self.timer.stop()
        for group in self.groups:
            group.begin_shutdown()
        deadline = time.monotonic() + timeout
        with self._threads_lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        for group in self.groups:
            for pc in group.leftovers():
                pc.conn.close()
        with self._conns_lock:
            remaining = list(self._conns.values())
            self._conns.clear()
        for pc in remaining:
            pc.conn.close()
        if all(not t.is_alive() for t in threads):
            for group in self.groups:
                group.close()

    @property
    def threads_created(self) -> int:
        return self._created_total

    # --- what people observe -------------------------------------------------------------------
    def status(self) -> dict[str, int]:
        threads = idle = 0
        for g in self.groups:
            threads += g.state.thread_count
            idle += g.state.thread_count - g.state.active_count
        return {"Threadpool_threads": threads, "Threadpool_idle_threads": idle,
                "Threads_created": self._created_total}

    def live_threads(self) -> int:
        with self._threads_lock:
            return sum(1 for t in self._threads if t.is_alive())

    def table(self, name: str) -> list[tuple[Any, ...]]:
        """Rows of information_schema.THREAD_POOL_* (columns in session/infoschema.py)."""
        if name == "THREAD_POOL_WAITS":
            return list(waits.wait_rows())
        rows: list[tuple[Any, ...]] = []
        now = self.clock.now()
        for g in list(self.groups):
            with g.lock:
                rows.extend(_group_rows(name, g, now))
        return rows

    def flush(self, what: str) -> None:
        if what == "waits":
            waits.flush_wait_counts()
            return
        for g in self.groups:
            with g.lock:
                g.state.counters.reset()


def _group_rows(name: str, g: Group, now: float) -> list[tuple[Any, ...]]:
    st = g.state
    gid = st.group_id
    if name == "THREAD_POOL_GROUPS":
        return [(gid, st.connection_count, st.thread_count, st.active_count, len(st.waiting),
                 st.queue_length(), int(st.listener is not None), int(st.stalled))]
    if name == "THREAD_POOL_STATS":
        c = st.counters
        return [(gid, c.thread_creations, c.thread_creations_due_to_stall, c.wakes,
                 c.wakes_due_to_stall, c.throttles, c.stalls, c.polls_by_listener,
                 c.polls_by_worker, c.dequeues_by_listener, c.dequeues_by_worker)]
    if name == "THREAD_POOL_QUEUES":
        rows = []
        for pos, entry in enumerate([*st.high, *st.low]):
            pc: PoolConn = entry.item
            rows.append((gid, pos, int(entry.priority), pc.conn.connection_id,
                         max(0, int((now - entry.enqueued_at) * 1_000_000))))
        return rows
    return []
