"""pool-of-threads: the server-side thread pool (MariaDB's generic pool, with the knobs of
Percona and MySQL Enterprise and TXSQL's disconnect detection), as a ConnectionHandler.

Rules:
- Connections are split into `thread_pool_size` groups: by connection id % size, or by load
  (thread_pool_group_assignment; sched/balance.py decides, `_assign` and `start_io` carry it
  out: under `load` an idle connection may move to a less loaded group at its command
  boundary, before its socket is re-armed, as the timer's last plan allows). A group has one
  listener (a role any worker takes when the group has none), a few workers, two queues and a
  waiting list; group.py is the mechanism, sched/ decides. Groups see the pool only through a
  PoolEnv (env.py).
- `serve` is what a worker does with a dequeued connection: handle() it (after the transaction
  delay, if this request starts a transaction), then close it or re-arm it (`start_io`) with
  the deadline and transaction state from the snapshot the connection took after the command.
  A connection whose client vanished while it was queued is closed without handle().
- Resizing (SET GLOBAL thread_pool_size) creates the missing groups and marks every connection;
  each moves to its new group at its next start_io (MariaDB fix_group). Groups beyond the new
  size are retired: they serve the connections still in them until those move, then their
  threads - listener included - leave (MariaDB leaves the listeners blocked in poll).
- The timer thread (timer.py) ticks every thread_pool_stall_limit ms: stall check per group,
  then the lazy wait_timeout sweep.
- Monitoring rows are built one group at a time under that group's lock (session/tpstatus.py
  names the columns; pool/tables.py builds the rows).
- `stop()`: stop the timer, wake every listener (self-pipe) and sleeper, join the threads, and
  close the connections that remain.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from rampmeter.config.variables import GlobalVariables
from rampmeter.engine.base import WaitReason
from rampmeter.pool import tables, waits
from rampmeter.pool.base import Connection, ConnectionHandler, Handle, Verdict
from rampmeter.pool.env import PoolEnv
from rampmeter.pool.group import ConnState, Group, PoolConn, Worker
from rampmeter.pool.timer import TimeoutBook, Timer
from rampmeter.sched import balance, policy
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
    "thread_pool_prio_kickup_rate": "prio_kickup_rate",
    "thread_pool_max_threads": "max_threads",
    "thread_pool_idle_timeout": "idle_timeout_s",
    "thread_pool_dedicated_listener": "dedicated_listener",
    "thread_pool_exact_stats": "exact_stats",
    "thread_pool_max_active_query_threads": "max_active_query_threads",
    "thread_pool_max_unused_threads": "max_unused_threads",
    "thread_pool_max_transactions_limit": "max_transactions_limit",
    "thread_pool_transaction_delay": "transaction_delay_ms",
    "thread_pool_longrun_trx_limit": "longrun_trx_limit_ms",
    "thread_pool_group_assignment": "group_assignment",
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
        for var, attr in _CFG_VARS.items():
            setattr(self.cfg, attr, variables[var])
        self.env = PoolEnv(self.cfg, self.clock, start_worker=self.start_worker,
                           creation_blocked=self.creation_blocked)
        self.groups: list[Group] = []
        self._groups_lock = threading.Lock()
        self._conns: dict[int, PoolConn] = {}
        self._conns_lock = threading.Lock()
        self.timeouts = TimeoutBook()
        self._created_total = 0
        self._threads: set[threading.Thread] = set()
        self._threads_lock = threading.Lock()
        self._blocked = policy.BlockedMonitor()
        self._stopped = False
        self._stopping = threading.Event()  # ends transaction delays at shutdown
        self._moves = 0  # connections moved between groups (Thread_pool_connections_moved)
        self._moves_lock = threading.Lock()
        # pool/switch.py: may another handler take this connection now? (conn, detach) -> bool
        self.release: Callable[[Connection, Callable[[], None]], bool] | None = None
        # True while another handler wants our connections (set by pool/switch.py under its
        # lock): the per-command check is this one attribute read, not a call and a lock.
        # A connection that read False just before it was set moves at its next boundary.
        self.handing_over = False
        self.timer = Timer(self.env, self.active_groups, self.timeouts)
        self._resize(variables["thread_pool_size"])
        for name in _CFG_VARS:
            variables.on_change(name, self._on_variable)
        variables.on_change("thread_pool_size", lambda name, value: self._resize(value))

    # --- configuration -----------------------------------------------------------------------
    def _on_variable(self, name: str, value: Any) -> None:
        setattr(self.cfg, _CFG_VARS[name], value)
        if name == "thread_pool_stall_limit":
            self.timer.interval_changed()
        elif name == "thread_pool_group_assignment":
            self._assignment_changed(value)

    def _assignment_changed(self, value: str) -> None:
        """Under `modulo` nothing moves for load, and every connection goes back to
        id % size at its next command boundary (as after a resize)."""
        for group in self.active_groups():
            with group.lock:
                group.state.move = balance.STAY
        if value == balance.MODULO:
            with self._conns_lock:
                for pc in self._conns.values():
                    pc.fix_group = True

    def _resize(self, size: int) -> None:
        with self._groups_lock:
            while len(self.groups) < size:
                self.groups.append(Group(self.env, len(self.groups)))
            self.cfg.group_count = size
            groups = list(self.groups)
        for i, group in enumerate(groups):
            group.retire(i >= size)
        with self._conns_lock:
            for pc in self._conns.values():
                pc.fix_group = True

    def active_groups(self) -> list[Group]:
        """Every group that has a poll descriptor, retired ones included (they may still hold
        connections that have not moved yet)."""
        with self._groups_lock:
            return list(self.groups)

    def group_for(self, connection_id: int) -> Group:
        return self.groups[connection_id % self.cfg.group_count]

    def _assign(self, connection_id: int) -> Group:
        """A new connection's group (sched/balance.py): id % size, or by load. Connection
        counts are read one group at a time under each group's lock."""
        if self.cfg.group_assignment != balance.LOAD:
            return self.group_for(connection_id)
        groups = self.active_groups()[:self.cfg.group_count]
        counts = []
        for g in groups:
            with g.lock:
                counts.append(g.state.connection_count)
        return groups[balance.assign(connection_id, counts, self.timer.loads)]

    def _home(self, pc: PoolConn) -> Group:
        """Where a connection marked fix_group belongs: id % size, or under `load` its own
        group unless that one was retired by a shrink."""
        if self.cfg.group_assignment != balance.LOAD:
            return self.group_for(pc.conn.connection_id)
        if not pc.group.state.retired:
            return pc.group
        return self._assign(pc.conn.connection_id)

    # --- threads -----------------------------------------------------------------------------
    def start_worker(self, group: Group) -> None:
        """Policy said CREATE (counts already taken). Caller holds group.lock."""
        worker = group.new_worker()
        thread = threading.Thread(target=self._worker_main, args=(worker,), daemon=True,
                                  name=f"tpool-g{group.state.group_id}")
        worker.thread = thread
        try:
            thread.start()
        except RuntimeError as exc:  # the OS refused a thread: undo, count as blocked
            policy.thread_exit(group.state)
            group.workers.discard(worker)
            self.env.counts.add_threads(-1)
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
        worker.native_id = threading.get_native_id()
        group = worker.group
        try:
            while True:
                deadline = self.clock.now() + self.cfg.idle_timeout_s
                pc = group.get_event(worker, deadline)
                if pc is None:
                    break
                self.serve(pc)
        finally:
            group.worker_exits(worker)
            with self._threads_lock:
                self._threads.discard(threading.current_thread())

    def serve(self, pc: PoolConn) -> None:
        conn = pc.conn
        if pc.vanished:
            conn.client_gone(running=False)  # its request is dropped unrun; count it, close it
            self._close(pc)
            return
        if pc.delay:
            with waits.waiting(WaitReason.SLEEP):  # thread_pool_transaction_delay
                self._stopping.wait(pc.delay)
        try:
            verdict = self._handle(conn)
        except BaseException:  # handle() catches everything; this is the last line of defence
            log.exception("connection %d: unexpected error in handle()", conn.connection_id)
            verdict = Verdict.CLOSE
        if verdict is Verdict.CLOSE or pc.vanished:
            self._close(pc)
        elif self.handing_over and self.release is not None \
                and self.release(conn, lambda: self._move_out(pc)):
            pass  # a command boundary: another handler serves it now (pool/switch.py)
        elif not self.start_io(pc):
            self._close(pc)

    def _move_out(self, pc: PoolConn) -> None:
        """Forget a connection another handler takes over (it is not armed: not ours)."""
        pc.group.detach(pc, closing=False, moved=True)
        pc.state = ConnState.CLOSED
        with self._conns_lock:
            self._conns.pop(id(pc), None)

    def adopt(self, conn: Connection) -> None:
        """Take a connection from another handler at its command boundary (pool/switch.py):
        arm it in its group, or queue it at once if its next request is already buffered."""
        pc = self._register(conn)
        if pc is None:
            return
        group, now = pc.group, self.clock.now()
        if conn.has_buffered_input():
            group.adopt(pc, now, queue=True)
            return
        group.adopt(pc, now, queue=False)
        if not self.start_io(pc):
            self._close(pc)

    def evict_idle(self) -> list[Connection]:
        """Hand over every idle connection (pool/switch.py): take them out of their groups'
        epolls and return them. Queued and running ones move at their next command boundary."""
        out: list[Connection] = []
        for group in self.active_groups():
            for pc in group.evict_idle():
                with self._conns_lock:
                    self._conns.pop(id(pc), None)
                out.append(pc.conn)
        return out

    def connection_count(self) -> int:
        total = 0
        for g in self.active_groups():
            with g.lock:
                total += g.state.connection_count
        return total

    def start_io(self, pc: PoolConn) -> bool:
        """Re-arm the connection in its (maybe new) group with its idle deadline."""
        snap = pc.conn.snapshot
        now = self.clock.now()
        if pc.fix_group:
            pc.fix_group = False
            new_group = self._home(pc)
            if new_group is not pc.group:
                since = pc.group.detach(pc, closing=False)
                new_group.attach(pc, now, since)
                self._count_move(pc, now)
        elif pc.group.state.move.target is not None \
                and self.cfg.group_assignment == balance.LOAD:  # a peek; decided under the lock
            self._migrate(pc, snap, now)
        deadline = policy.idle_deadline(now, snap.idle_timeout)
        if not pc.group.arm(pc, deadline, snap.in_transaction):
            return False
        self.timeouts.note(deadline)
        return True

    def _migrate(self, pc: PoolConn, snap: Any, now: float) -> None:
        """Load balancing at the command boundary: leave an overloaded group if the plan and
        the connection allow it (Group.migrate_out), join the destination."""
        target = pc.group.migrate_out(pc, snap, now)
        if target is None:
            return
        with self._groups_lock:
            dst = self.groups[target]
        dst.attach(pc, now, None)  # no open transaction: those never move
        self._count_move(pc, now)

    def _count_move(self, pc: PoolConn, now: float) -> None:
        pc.moved_at = now
        with self._moves_lock:
            self._moves += 1

    def _close(self, pc: PoolConn) -> None:
        pc.group.detach(pc, closing=True)
        pc.state = ConnState.CLOSED
        with self._conns_lock:
            self._conns.pop(id(pc), None)
        pc.conn.close()

    # --- ConnectionHandler -------------------------------------------------------------------
    def start(self) -> None:
        self.timer.start()

    def add_connection(self, conn: Connection) -> None:
        pc = self._register(conn)
        if pc is not None:
            pc.group.add_new(pc, self.clock.now())

    def _register(self, conn: Connection) -> PoolConn | None:
        """The pool's record of a connection, in its group by id; None (and the connection
        closed) once the pool is stopping."""
        pc = PoolConn(conn, self._assign(conn.connection_id))
        conn.handler_data = pc
        with self._conns_lock:
            if self._stopped:
                conn.close()
                return None
            self._conns[id(pc)] = pc
        return pc

    def wait_begin(self, reason: WaitReason) -> None:
        worker = getattr(_local, "worker", None)
        if worker is not None:
            _local.lock_wait = reason in LOCK_WAITS
            worker.group.wait_begin(worker, reason.value, reason.name, _local.lock_wait)

    def wait_end(self) -> None:
        worker = getattr(_local, "worker", None)
        if worker is not None:
            worker.group.wait_end(worker, _local.lock_wait)

    def stop(self, timeout: float = 5.0) -> None:
        if self._stopped:
            return
        self._stopped = True
        self._stopping.set()
        self.timer.stop()
        groups = self.active_groups()
        for group in groups:
            group.begin_shutdown()
        deadline = time.monotonic() + timeout
        with self._threads_lock:
            threads = list(self._threads)
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        for group in groups:
            for pc in group.leftovers():
                pc.conn.close()
        with self._conns_lock:
            remaining = list(self._conns.values())
            self._conns.clear()
        for pc in remaining:
            pc.conn.close()
        if all(not t.is_alive() for t in threads):
            for group in groups:
                group.close()

    @property
    def threads_created(self) -> int:
        return self._created_total

    # --- what people observe -------------------------------------------------------------------
    def status(self) -> dict[str, int]:
        threads = idle = 0
        for g in self.active_groups():
            with g.lock:
                threads += g.state.thread_count
                idle += g.state.thread_count - g.state.active_count
        with self._moves_lock:
            moved = self._moves
        return {"Threadpool_threads": threads, "Threadpool_idle_threads": idle,
                "Threads_created": self._created_total, "Thread_pool_connections_moved": moved}

    def live_threads(self) -> int:
        with self._threads_lock:
            return sum(1 for t in self._threads if t.is_alive())

    def table(self, name: str) -> list[tuple[Any, ...]]:
        """Rows of a monitoring table (columns in session/tpstatus.py and infoschema.py)."""
        if name == "THREAD_POOL_WAITS":
            return list(waits.wait_rows())
        return tables.rows(name, self.active_groups(), self.cfg, self.clock.now())

    def flush(self, what: str) -> None:
        if what == "waits":
            waits.flush_wait_counts()
            return
        for g in self.active_groups():
            with g.lock:
                g.state.counters.reset()
