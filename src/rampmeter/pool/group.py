"""One thread group: its lock, its epoll, its workers, the listener loop and get_event.

Rules:
- `Group.lock` guards the group's GroupState (sched/policy.py), its fd -> connection map and each
  pooled connection's `state`. Policy verbs are called only with the lock held; their Decision
  is carried out by `apply` before the lock is released (MariaDB signals and creates under the
  group mutex too).
- Sockets are registered one-shot (EPOLLIN | EPOLLRDHUP | EPOLLONESHOT): an event hands the
  connection to exactly one thread, and the socket stays disarmed until `start_io` re-arms it
  after the reply. A connection's `state` (IDLE -> QUEUED -> RUNNING -> IDLE) changes only under
  the lock, so an event that races with the timer's expiry of the same connection is dropped.
- Each sleeping worker waits on its own Condition bound to the group lock and sits at the head
  of the waiting list (LIFO); a waker removes it from the list and sets `woken` before notifying.
- The listener polls without the lock; a self-pipe in the epoll wakes it at shutdown.
"""

from __future__ import annotations

import enum
import os
import select
import threading
from typing import TYPE_CHECKING, Any

from rampmeter.pool.base import Connection
from rampmeter.sched import policy
from rampmeter.sched.policy import Action, Decision, Entry, GroupState
from rampmeter.sched.priority import Priority, choose_priority, spend_ticket

if TYPE_CHECKING:
    from rampmeter.pool.threadpool import ThreadPool

ARM = select.EPOLLIN | select.EPOLLRDHUP | select.EPOLLONESHOT
MAX_EVENTS = 1024  # MariaDB's MAX_EVENTS per epoll_wait


class ConnState(enum.Enum):
    QUEUED = "queued"
    RUNNING = "running"
    IDLE = "idle"      # armed in epoll, waiting for the client
    CLOSED = "closed"


class PoolConn:
    """The pool's bookkeeping for one connection (the connection's `handler_data`)."""

    __slots__ = ("conn", "group", "state", "deadline", "tickets", "counted_trx", "fix_group",
                 "registered", "fd")

    def __init__(self, conn: Connection, group: Group) -> None:
        self.conn = conn
        self.group = group
        self.state = ConnState.QUEUED
        self.deadline = float("inf")
        self.tickets = 4294967295
        self.counted_trx = False
        self.fix_group = False
        self.registered = False
        self.fd = conn.fileno()


class Worker:
    __slots__ = ("group", "cond", "woken", "thread")

    def __init__(self, group: Group) -> None:
        self.group = group
        self.cond = threading.Condition(group.lock)
        self.woken = False
        self.thread: threading.Thread | None = None


class Group:
    def __init__(self, pool: ThreadPool, group_id: int) -> None:
        self.pool = pool
        self.lock = threading.Lock()
        self.state = GroupState(group_id)
        self.epoll = select.epoll()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self.epoll.register(self._wake_r, select.EPOLLIN)
        self.conns: dict[int, PoolConn] = {}   # registered fds
        self.members: set[PoolConn] = set()    # every connection of the group, in any state

    # --- decisions ---------------------------------------------------------------------------
    def apply(self, decision: Decision) -> None:
        """Carry out a policy decision. Caller holds the lock."""
        action = decision.action
        if action is Action.NONE or action is Action.THROTTLED:
            return
        if action is Action.WAKE:
            worker = decision.worker
            worker.woken = True
            worker.cond.notify()
        elif action is Action.CREATE:
            self.pool.start_worker(self)
        elif action is Action.BLOCKED:
            self.pool.creation_blocked()

    def total_threads(self) -> int:
        return self.pool.total_threads()

    # --- queueing ----------------------------------------------------------------------------
    def enqueue(self, pc: PoolConn, now: float, *, priority: Priority | None = None) -> None:
        """Queue a connection with its priority (computed now from its session). Lock held."""
        inputs = pc.conn.priority_inputs()
        prio = priority if priority is not None else choose_priority(inputs, pc.tickets)
        pc.tickets = spend_ticket(prio, pc.tickets, inputs)
        pc.state = ConnState.QUEUED
        starts = self.pool.cfg.transactions_per_group > 0 and not inputs.in_transaction
        policy.queue_put(self.state, pc, prio, self.pool.stamp(now), starts_transaction=starts)

    def _enqueue_events(self, events: list[tuple[int, int]], now: float) -> int:
        queued = 0
        for fd, _mask in events:
            if fd == self._wake_r:
                try:
                    os.read(self._wake_r, 4096)
                except BlockingIOError:
                    pass
                continue
            pc = self.conns.get(fd)
            if pc is None or pc.state is not ConnState.IDLE:
                continue  # stale: closed, or already queued by the timer
            self.enqueue(pc, now)
            queued += 1
        return queued

    def _dequeued(self, entry: Entry | None) -> PoolConn | None:
        if entry is None:
            return None
        pc: PoolConn = entry.item
        pc.state = ConnState.RUNNING
        pc.counted_trx = pc.counted_trx or entry.starts_transaction
        return pc

    # --- the listener ------------------------------------------------------------------------
    def listen(self) -> PoolConn | None:
        """Poll for readable connections and distribute them; maybe keep one (MariaDB
        listener()). Called without the lock; returns with it released."""
        st, cfg = self.state, self.pool.cfg
        while True:
            if st.shutdown:
                return None
            try:
                events = self.epoll.poll(-1, MAX_EVENTS)
            except InterruptedError:
                continue
            now = self.pool.clock.now()
            with self.lock:
                st.counters.polls_by_listener += 1
                if st.shutdown:
                    return None
                st.io_event_count += len(events)
                take_one = policy.listener_takes_one(st, cfg)
                if not self._enqueue_events(events, now):
                    continue
                if take_one:
                    entry = policy.queue_get(st, cfg, now, by_listener=True)
                    if entry is not None:
                        return self._dequeued(entry)
                self.apply(policy.after_listener_enqueue(st, cfg, now, self.total_threads()))

    # --- workers -----------------------------------------------------------------------------
    def get_event(self, worker: Worker, deadline: float) -> PoolConn | None:
        """A worker's next connection, or None to exit (idle timeout, shutdown, or the
        max_unused_threads cap). MariaDB's get_event with Percona's LOW-queue freeze."""
        st, cfg, clock = self.state, self.pool.cfg, self.pool.clock
        with self.lock:
            try:
                while True:
                    if st.shutdown:
                        return None
                    now = clock.now()
                    over = policy.too_many_threads(st, cfg)
                    if not over:
                        entry = policy.queue_get(st, cfg, now, by_listener=False)
                        if entry is not None:
                            return self._dequeued(entry)
                    if st.listener is None:
                        return self._become_listener(worker)
                    if not over:
                        # Last try before sleeping: a non-blocking poll.
                        events = self.epoll.poll(0, MAX_EVENTS)
                        st.counters.polls_by_worker += 1
                        if events and self._enqueue_events(events, now):
                            entry = policy.queue_get(st, cfg, now, by_listener=False)
                            if entry is not None:
                                return self._dequeued(entry)
                            continue
                    if not policy.may_sleep(cfg, self.pool.idle_threads()):
                        return None
                    if not self._sleep(worker, deadline):
                        return None
            finally:
                policy.get_event_done(st)

    def _become_listener(self, worker: Worker) -> PoolConn | None:
        st = self.state
        st.listener = worker
        st.active_count -= 1
        self.lock.release()
        try:
            return self.listen()
        finally:
            self.lock.acquire()
            st.active_count += 1
            st.listener = None

    def _sleep(self, worker: Worker, deadline: float) -> bool:
        """Sleep on the waiting list; False when the idle timeout passed without a wake-up."""
        st = self.state
        worker.woken = False
        policy.go_to_sleep(st, worker)
        timeout = deadline - self.pool.clock.now()
        if timeout > 0:
            worker.cond.wait(timeout)
        policy.woke_up(st, worker, signalled=worker.woken)
        return worker.woken or self.pool.clock.now() < deadline

    # --- waits -------------------------------------------------------------------------------
    def wait_begin(self, lock_wait: bool) -> None:
        with self.lock:
            now = self.pool.clock.now()
            self.apply(policy.wait_begin(self.state, self.pool.cfg, now, self.total_threads(),
                                         lock_wait=lock_wait))

    def wait_end(self, lock_wait: bool) -> None:
        with self.lock:
            policy.wait_end(self.state, lock_wait=lock_wait)

    # --- connections -------------------------------------------------------------------------
    def arm(self, pc: PoolConn, deadline: float, in_transaction: bool) -> bool:
        """start_io: the reply is written; wait for the client's next request. False if the
        group is shutting down (the caller closes the connection instead)."""
        with self.lock:
            if self.state.shutdown:
                return False
            if pc.counted_trx and not in_transaction:
                policy.transaction_done(self.state)
                pc.counted_trx = False
            pc.deadline = deadline
            pc.state = ConnState.IDLE
            if pc.registered:
                self.epoll.modify(pc.fd, ARM)
            else:
                self.epoll.register(pc.fd, ARM)
                self.conns[pc.fd] = pc
                pc.registered = True
        return True

    def detach(self, pc: PoolConn) -> None:
        """Take a connection out of this group (closing, or moving to another group)."""
        with self.lock:
            if pc.registered:
                try:
                    self.epoll.unregister(pc.fd)
                except OSError:
                    pass
                self.conns.pop(pc.fd, None)
                pc.registered = False
            if pc in self.members:
                self.members.discard(pc)
                self.state.connection_count -= 1
            if pc.counted_trx:
                policy.transaction_done(self.state)

    def attach(self, pc: PoolConn, now: float) -> None:
        """A connection moved here after thread_pool_size changed (MariaDB change_group)."""
        with self.lock:
            pc.group = self
            self.members.add(pc)
            self.state.connection_count += 1
            if pc.counted_trx:
                self.state.transactions += 1
            if self.state.thread_count == 0:
                self.apply(policy.create_worker(self.state, self.pool.cfg, now,
                                                self.total_threads(), due_to_stall=False))

    def add_new(self, pc: PoolConn, now: float) -> None:
        with self.lock:
            self.members.add(pc)
            pc.state = ConnState.QUEUED
            self.apply(policy.on_new_connection(self.state, self.pool.cfg, self.pool.stamp(now),
                                                self.total_threads(), pc))

    def expire_idle(self, now: float, readable: Any) -> float:
        """The timer's wait_timeout sweep of this group; returns the earliest live deadline."""
        earliest = float("inf")
        with self.lock:
            for pc in list(self.conns.values()):
                if pc.state is not ConnState.IDLE:
                    continue
                if pc.deadline <= now and not readable(pc.fd):
                    pc.conn.expire()
                    self.epoll.modify(pc.fd, 0)  # disarm: the timer hands it over itself
                    self.enqueue(pc, now, priority=Priority.HIGH)
                    if self.state.active_count == 0:
                        self.apply(policy.wake_or_create_thread(
                            self.state, self.pool.cfg, now, self.total_threads()))
                elif pc.deadline < earliest:
                    earliest = pc.deadline
        return earliest

    # --- shutdown ----------------------------------------------------------------------------
    def begin_shutdown(self) -> None:
        with self.lock:
            st = self.state
            st.shutdown = True
            os.write(self._wake_w, b"x")
            while st.waiting:
                self.apply(policy.wake_thread(st, due_to_stall=False))

    def leftovers(self) -> list[PoolConn]:
        with self.lock:
            items = list(self.members)
            self.members.clear()
            self.conns.clear()
            self.state.high.clear()
            self.state.low.clear()
            self.state.connection_count = 0
        return items

    def close(self) -> None:
        self.epoll.close()
        os.close(self._wake_r)
        os.close(self._wake_w)
