"""One thread group: its lock, its epoll, its workers, the listener loop and get_event.

Rules:
- `Group.lock` guards the group's GroupState (sched/policy.py), its fd -> connection map and each
  pooled connection's `state`. Policy verbs are called only with the lock held; their Decision
  is carried out by `apply` before the lock is released (MariaDB signals and creates under the
  group mutex too). What the group needs from the pool comes from a PoolEnv (env.py).
- Under the lock the group reads a connection's snapshot (`conn.snapshot`, sched/snapshot.py)
  and, after a hang-up, asks whether a COM_QUIT waits on its socket (a peek); it never calls
  the session or the engine with the lock held. Calls that reach the session (expire,
  client_gone) are made after the lock is released.
- Sockets are registered once, edge-triggered, for EPOLLIN | EPOLLRDHUP, and never re-armed:
  the group's state machine, not EPOLLONESHOT, keeps a connection with one thread at a time.
  A connection's `state` (IDLE -> QUEUED -> RUNNING -> IDLE) changes only under the lock. An
  event for an IDLE connection queues it (exactly one thread gets it); an event for a QUEUED
  one is ignored (the thread that will run it reads everything); new input for a RUNNING one
  sets `pending`, and `arm` (start_io, after the reply) then queues it at once instead of
  waiting for an edge that has already passed. A hang-up (EPOLLRDHUP) for a queued or running
  request is TXSQL's disconnect detection: a queued request of a vanished client is dropped
  without running; a running one is stopped like KILL and its connection closed. So a
  command costs no epoll_ctl at all (MariaDB re-arms with EPOLL_CTL_MOD per request, and the
  hang-up watch needed a second one); an event that races with the timer's expiry of the same
  connection is dropped by the state check.
- Each sleeping worker waits on its own Condition bound to the group lock and sits at the head
  of the waiting list (LIFO); a waker removes it from the list and sets `woken` before notifying.
- The listener polls without the lock; a self-pipe in the epoll wakes it at shutdown, and when
  a group retired by a shrink of thread_pool_size has lost its last connection (its threads
  then leave, sched/policy.py should_leave).
"""

from __future__ import annotations

import enum
import os
import select
import threading
from typing import Any

from rampmeter.pool.base import Connection
from rampmeter.pool.env import PoolEnv
from rampmeter.sched import balance, policy, trxlimit
from rampmeter.sched.policy import Action, Decision, Entry, GroupState
from rampmeter.sched.priority import Priority, choose_priority, spend_ticket
from rampmeter.sched.snapshot import SessionSnapshot

ARM = select.EPOLLIN | select.EPOLLRDHUP | select.EPOLLET  # (EPOLLHUP/ERR always reported)
HANGUP = select.EPOLLRDHUP | select.EPOLLHUP | select.EPOLLERR
MAX_EVENTS = 1024  # MariaDB's MAX_EVENTS per epoll_wait


class ConnState(enum.Enum):
    QUEUED = "queued"
    RUNNING = "running"
    IDLE = "idle"      # armed in epoll, waiting for the client
    CLOSED = "closed"


class PoolConn:
    """The pool's bookkeeping for one connection (the connection's `handler_data`)."""

    __slots__ = ("conn", "group", "state", "deadline", "tickets", "fix_group", "registered",
                 "fd", "vanished", "delay", "moved_at", "pending")

    def __init__(self, conn: Connection, group: Group) -> None:
        self.conn = conn
        self.group = group
        self.state = ConnState.QUEUED
        self.deadline = float("inf")
        self.tickets: int | None = None  # from the session's value at the first enqueue
        self.fix_group = False
        self.registered = False
        self.fd = conn.fileno()
        self.vanished = False  # the client hung up while queued or running
        self.delay = 0.0       # thread_pool_transaction_delay before this request runs
        self.moved_at = float("-inf")  # when load balancing last moved it (sched/balance.py)
        self.pending = False   # input arrived while it ran: queue it again at `arm`


class Worker:
    __slots__ = ("group", "cond", "woken", "thread", "number", "native_id", "running_since",
                 "stall_counted", "wait")

    def __init__(self, group: Group, number: int) -> None:
        self.group = group
        self.cond = threading.Condition(group.lock)
        self.woken = False
        self.thread: threading.Thread | None = None
        self.number = number               # MySQL's TP_THREAD_NUMBER, per group
        self.native_id = 0
        self.running_since: float | None = None  # the request it runs started then
        self.stall_counted = False
        self.wait: str | None = None       # the wait it is in (THD_WAIT_* name), if any


class Group:
    def __init__(self, env: PoolEnv, group_id: int) -> None:
        self.env = env
        self.lock = threading.Lock()
        self.state = GroupState(group_id)
        self.epoll = select.epoll()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self.epoll.register(self._wake_r, select.EPOLLIN)
        self.conns: dict[int, PoolConn] = {}   # registered fds
        self.members: set[PoolConn] = set()    # every connection of the group, in any state
        self.workers: set[Worker] = set()      # threads of the group (tp_thread_state)
        self.running: set[PoolConn] = set()    # connections a thread is serving now
        self._numbers = 0

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
            self.env.counts.add_threads(1)
            self.env.start_worker(self)
        elif action is Action.BLOCKED:
            self.env.creation_blocked()

    def total_threads(self) -> int:
        return self.env.counts.threads

    def new_worker(self) -> Worker:
        """A Worker record for a thread the policy decided to create. Lock held."""
        self._numbers += 1
        worker = Worker(self, self._numbers)
        self.workers.add(worker)
        return worker

    # --- queueing ----------------------------------------------------------------------------
    def enqueue(self, pc: PoolConn, now: float, *, priority: Priority | None = None,
                leaving: bool = False) -> None:
        """Queue a connection by its session's snapshot. Lock held."""
        snap = pc.conn.snapshot
        if pc.tickets is None and snap.logged_in:
            pc.tickets = snap.high_prio_tickets  # Percona: from the session's value
        tickets = pc.tickets or 0
        if priority is None:
            priority = Priority.HIGH if leaving else choose_priority(snap, tickets)
        if pc.tickets is not None:
            pc.tickets = spend_ticket(priority, tickets, snap)
        held, new_trx = trxlimit.classify(snap, leaving=leaving)
        pc.state = ConnState.QUEUED
        policy.queue_put(self.state, pc, priority, self.env.stamp(now), held=held,
                         new_trx=new_trx, holder=snap.holds_locks or snap.in_transaction,
                         first=snap.holds_write)

    def _enqueue_events(self, events: list[tuple[int, int]], now: float
                        ) -> tuple[int, list[PoolConn]]:
        """Queue what the poll returned. Returns (requests queued, connections whose client
        vanished while their request ran: the caller stops them after releasing the lock)."""
        queued = 0
        vanished: list[PoolConn] = []
        for fd, mask in events:
            if fd == self._wake_r:
                try:
                    os.read(self._wake_r, 4096)
                except BlockingIOError:
                    pass
                continue
            pc = self.conns.get(fd)
            if pc is None:
                continue  # closed meanwhile
            hangup = bool(mask & HANGUP)
            state = pc.state
            if state is ConnState.IDLE:
                self.enqueue(pc, now, leaving=hangup)
                queued += 1
                continue
            if state is ConnState.RUNNING:
                # Edge-triggered: nobody would hear of these bytes (a next request, a COM_QUIT,
                # the EOF) again; `arm` queues the connection once this request is done.
                pc.pending = True
            if hangup and not pc.vanished:
                queued += self._hung_up(pc, now, vanished)
        return queued, vanished

    def _hung_up(self, pc: PoolConn, now: float, running: list[PoolConn]) -> int:
        """The client of a queued or running request hung up. A COM_QUIT waiting on the socket
        makes it an ordinary goodbye (the quit is queued HIGH, past any limit). Otherwise a
        queued request is dropped unrun; a running one is handed back in `running` for the
        caller to stop without the lock. Returns how many requests were queued. Lock held."""
        if pc.conn.said_goodbye():
            if pc.state is ConnState.QUEUED and policy.remove(self.state, pc) is not None:
                self.enqueue(pc, now, leaving=True)
                return 1
            return 0
        if pc.state is ConnState.QUEUED:
            return self._drop_queued(pc, now)
        if pc.state is ConnState.RUNNING:
            running.append(pc)
        return 0

    def _drop_queued(self, pc: PoolConn, now: float) -> int:
        """A queued request of a vanished client is not run: the connection is queued HIGH
        again, as a job to close it (ThreadPool.serve). Lock held."""
        if policy.remove(self.state, pc) is None:
            return 0  # not in a queue (the timer is handing it over itself)
        pc.vanished = True
        self.state.counters.vanished_queued += 1
        policy.queue_put(self.state, pc, Priority.HIGH, self.env.stamp(now))
        return 1

    def stop_vanished(self, running: list[PoolConn]) -> None:
        """Stop the statements of clients that hung up mid-request (as KILL would). Called
        without the lock: this reaches the session."""
        for pc in running:
            if pc.conn.client_gone(running=True):
                with self.lock:
                    if not pc.vanished:
                        pc.vanished = True
                        self.state.counters.vanished_running += 1

    def _dequeued(self, entry: Entry | None, worker: Worker, now: float) -> PoolConn | None:
        if entry is None:
            return None
        pc: PoolConn = entry.item
        pc.state = ConnState.RUNNING
        self.running.add(pc)
        pc.delay = trxlimit.delay(self.env.cfg, entry.new_trx) if entry.new_trx else 0.0
        worker.running_since = now
        worker.stall_counted = False
        self.state.counters.queries_executed += 1
        return pc

    # --- the listener ------------------------------------------------------------------------
    def listen(self, worker: Worker) -> PoolConn | None:
        """Poll for readable connections and distribute them; maybe keep one (MariaDB
        listener()). Called without the lock; returns with it released.

        The decisions are MariaDB's (sql/threadpool_generic.cc, listener()): if the queues
        were empty before this poll the listener runs the first request itself (Q1: it is
        awake already, and a hand-off would wake a worker - under the GIL a futex round trip
        and a GIL hand-off each); if they were not, it stays the listener, queues everything
        and wakes one worker only when nobody in the group is active (Q2), leaving the rest to
        the timer. Where we differ is what an event is: sockets are edge-triggered and stay
        registered (see the module rules), so a poll also reports input of connections that
        are queued (ignored: their thread reads it) or running (remembered as `pending`)."""
        st, cfg = self.state, self.env.cfg
        while True:
            if st.shutdown or policy.should_leave(st):
                return None
            try:
                events = self.epoll.poll(-1, MAX_EVENTS)
            except InterruptedError:
                continue
            now = self.env.clock.now()
            taken = None
            with self.lock:
                st.counters.polls_by_listener += 1
                if st.shutdown or policy.should_leave(st):
                    return None
                st.io_event_count += len(events)
                take_one = policy.listener_takes_one(st, cfg)
                queued, vanished = self._enqueue_events(events, now)
                if queued and take_one:
                    taken = self._dequeued(
                        policy.queue_get(st, cfg, now, by_listener=True), worker, now)
                if queued and taken is None:
                    self.apply(policy.after_listener_enqueue(st, cfg, now,
                                                             self.total_threads()))
            if vanished:
                self.stop_vanished(vanished)
            if taken is not None:
                return taken

    # --- workers -----------------------------------------------------------------------------
    def get_event(self, worker: Worker, deadline: float) -> PoolConn | None:
        """A worker's next connection, or None to exit (idle timeout, shutdown, a retired
        group emptied, or the max_unused_threads cap). MariaDB's get_event with Percona's
        LOW-queue freeze."""
        st, cfg, clock = self.state, self.env.cfg, self.env.clock
        with self.lock:
            worker.running_since = None
            try:
                while True:
                    if st.shutdown or policy.should_leave(st):
                        return None
                    now = clock.now()
                    over = policy.too_many_threads(st, cfg)
                    if not over:
                        if not st.high and not st.low:
                            st.queue_event_count += 1  # queue_get's count, without the call
                        else:
                            entry = policy.queue_get(st, cfg, now, by_listener=False)
                            if entry is not None:
                                return self._dequeued(entry, worker, now)
                    if st.listener is None:
                        return self._become_listener(worker)
                    if not over:
                        # Last try before sleeping: a non-blocking poll.
                        events = self.epoll.poll(0, MAX_EVENTS)
                        st.counters.polls_by_worker += 1
                        if events:
                            queued, vanished = self._enqueue_events(events, now)
                            if vanished:
                                self._stop_vanished_unlocked(vanished)  # look again after
                            if queued or vanished:
                                continue
                    if not policy.may_sleep(cfg, self.env.counts.sleepers):
                        return None
                    if not self._sleep(worker, deadline, oversubscribed=over):
                        return None
            finally:
                policy.get_event_done(st)

    def _stop_vanished_unlocked(self, vanished: list[PoolConn]) -> None:
        """stop_vanished from a caller that holds the lock (released meanwhile)."""
        self.lock.release()
        try:
            self.stop_vanished(vanished)
        finally:
            self.lock.acquire()

    def _become_listener(self, worker: Worker) -> PoolConn | None:
        st = self.state
        st.listener = worker
        st.active_count -= 1
        st.counters.become_listener += 1
        self.lock.release()
        try:
            return self.listen(worker)
        finally:
            self.lock.acquire()
            st.active_count += 1
            st.listener = None

    def _sleep(self, worker: Worker, deadline: float, *, oversubscribed: bool) -> bool:
        """Sleep on the waiting list; False when the idle timeout passed without a wake-up."""
        st, clock = self.state, self.env.clock
        worker.woken = False
        policy.go_to_sleep(st, worker, oversubscribed=oversubscribed)
        self.env.counts.add_sleepers(1)
        timeout = deadline - clock.now()
        try:
            if timeout > 0:
                worker.cond.wait(timeout)
        finally:
            self.env.counts.add_sleepers(-1)
        policy.woke_up(st, worker, signalled=worker.woken)
        return worker.woken or clock.now() < deadline

    def worker_exits(self, worker: Worker) -> None:
        """The thread of `worker` leaves (idle timeout, shutdown, an emptied retired group)."""
        with self.lock:
            st = self.state
            policy.thread_exit(st)
            self.workers.discard(worker)
            self.env.counts.add_threads(-1)
            if st.thread_count == 0 and st.connection_count and not st.shutdown:
                # A connection arrived (a grow, a move) while this last thread was leaving.
                self.apply(policy.create_worker(st, self.env.cfg, self.env.clock.now(),
                                                self.total_threads(), due_to_stall=False))

    # --- waits -------------------------------------------------------------------------------
    def wait_begin(self, worker: Worker, reason: int, name: str, lock_wait: bool) -> None:
        with self.lock:
            worker.wait = name
            now = self.env.clock.now()
            self.apply(policy.wait_begin(self.state, self.env.cfg, now, self.total_threads(),
                                         lock_wait=lock_wait, reason=reason))

    def wait_end(self, worker: Worker, lock_wait: bool) -> None:
        with self.lock:
            worker.wait = None
            policy.wait_end(self.state, lock_wait=lock_wait)

    # --- connections -------------------------------------------------------------------------
    def arm(self, pc: PoolConn, deadline: float, in_transaction: bool) -> bool:
        """start_io: the reply is written; wait for the client's next request. False if the
        group is shutting down (the caller closes the connection instead)."""
        with self.lock:
            if self.state.shutdown:
                return False
            if not in_transaction:
                trxlimit.transaction_done(self.state, pc)
            pc.deadline = deadline
            self.running.discard(pc)
            if pc.registered:
                if pc.pending:  # its next request came while this one ran: no edge will
                    pc.pending = False
                    self._requeue(pc, self.env.clock.now())
                    return True
                pc.state = ConnState.IDLE
            else:
                pc.state = ConnState.IDLE
                self.epoll.register(pc.fd, ARM)  # reports input that is already there
                self.conns[pc.fd] = pc
                pc.registered = True
        return True

    def _requeue(self, pc: PoolConn, now: float) -> None:
        """Queue a connection whose input came while its last request ran, as the poll would
        have, and get it a thread if nobody in the group is active. Lock held."""
        self.enqueue(pc, now)
        st = self.state
        if st.active_count == 0:
            self.apply(policy.wake_or_create_thread(st, self.env.cfg, now, self.total_threads()))

    def detach(self, pc: PoolConn, *, closing: bool, moved: bool = False) -> float | None:
        """Take a connection out of this group (closing, moving to another group, or - moved -
        to another thread_handling). Returns when its open transaction started, if it holds a
        slot here."""
        with self.lock:
            st = self.state
            if moved:
                st.counters.moved_to_per_thread += 1
            elif not closing:
                st.counters.moved_out += 1
            return self._leave(pc, closing=closing)

    def _leave(self, pc: PoolConn, *, closing: bool) -> float | None:
        """detach's work. Lock held."""
        st = self.state
        self._unregister(pc)
        self.running.discard(pc)
        if pc in self.members:
            self.members.discard(pc)
            st.connection_count -= 1
            if closing:
                st.counters.connections_closed += 1
        since = st.trx_started.pop(pc, None)
        if policy.should_leave(st):
            self._wake_all()
        return since

    def migrate_out(self, pc: PoolConn, snap: SessionSnapshot, now: float) -> int | None:
        """Load balancing at a command boundary (sched/balance.py): if the last tick's plan lets
        this idle connection leave, take it out of this group (socket off our epoll, counts,
        one unit of the tick's budget) and return the destination group's id. The connection
        is not armed anywhere, so no event can reach a thread of either group meanwhile."""
        with self.lock:
            st = self.state
            move = st.move
            if st.shutdown or not balance.may_move(
                    move, in_transaction=snap.in_transaction, holds_locks=snap.holds_locks,
                    moved_at=pc.moved_at, now=now, tick_s=self.env.cfg.stall_limit_ms / 1000.0):
                return None
            st.move = move._replace(budget=move.budget - 1)
            st.counters.moved_out += 1
            self._leave(pc, closing=False)
            return move.target

    def attach(self, pc: PoolConn, now: float, trx_since: float | None) -> None:
        """A connection moved here from another group (thread_pool_size changed, MariaDB
        change_group; or load balancing)."""
        with self.lock:
            st = self.state
            pc.group = self
            self.members.add(pc)
            st.connection_count += 1
            st.counters.moved_in += 1
            if trx_since is not None:
                st.trx_started[pc] = trx_since
            if st.thread_count == 0:
                self.apply(policy.create_worker(st, self.env.cfg, now, self.total_threads(),
                                                due_to_stall=False))

    def _unregister(self, pc: PoolConn) -> None:
        """Take the socket out of the epoll. Lock held."""
        if pc.registered:
            try:
                self.epoll.unregister(pc.fd)
            except OSError:
                pass
            self.conns.pop(pc.fd, None)
            pc.registered = False
            pc.pending = False  # registering again reports input already there

    def adopt(self, pc: PoolConn, now: float, *, queue: bool) -> None:
        """A connection arrives from one-thread-per-connection at its command boundary. With
        `queue` its next request is already buffered: queue it now, or nobody would see it."""
        with self.lock:
            st = self.state
            self.members.add(pc)
            st.connection_count += 1
            st.counters.moved_from_per_thread += 1
            if queue:
                self.enqueue(pc, now)
                if st.active_count == 0:
                    self.apply(policy.wake_or_create_thread(st, self.env.cfg, now,
                                                            self.total_threads()))
            elif st.thread_count == 0:  # someone must listen for its next request
                self.apply(policy.create_worker(st, self.env.cfg, now, self.total_threads(),
                                                due_to_stall=False))

    def evict_idle(self) -> list[PoolConn]:
        """Take every idle connection out of the group, for another thread_handling."""
        out: list[PoolConn] = []
        with self.lock:
            st = self.state
            for pc in list(self.conns.values()):
                if pc.state is not ConnState.IDLE:
                    continue
                self._unregister(pc)
                pc.state = ConnState.CLOSED
                self.members.discard(pc)
                st.connection_count -= 1
                st.counters.moved_to_per_thread += 1
                st.trx_started.pop(pc, None)
                out.append(pc)
            if out and policy.should_leave(st):
                self._wake_all()
        return out

    def add_new(self, pc: PoolConn, now: float) -> None:
        with self.lock:
            self.members.add(pc)
            pc.state = ConnState.QUEUED
            held, _ = trxlimit.classify(pc.conn.snapshot, leaving=False)
            self.apply(policy.on_new_connection(self.state, self.env.cfg, self.env.stamp(now),
                                                self.total_threads(), pc, held=held))

    def expire_idle(self, now: float, readable: Any) -> float:
        """The timer's wait_timeout sweep of this group; returns the earliest live deadline.
        An expired connection is disarmed under the lock, told it expired without the lock
        (that reaches its session), then queued HIGH so a worker closes it."""
        earliest = float("inf")
        expired: list[PoolConn] = []
        with self.lock:
            for pc in list(self.conns.values()):
                if pc.state is not ConnState.IDLE:
                    continue
                if policy.should_expire(pc.deadline, now, readable=readable(pc.fd)):
                    pc.state = ConnState.QUEUED   # not IDLE: a late event is ignored
                    expired.append(pc)
                elif pc.deadline < earliest:
                    earliest = pc.deadline
        if not expired:
            return earliest
        for pc in expired:
            pc.conn.expire()
        with self.lock:
            st = self.state
            for pc in expired:
                st.counters.timeout_kills += 1
                self.enqueue(pc, now, priority=Priority.HIGH)
            if st.active_count == 0:
                self.apply(policy.wake_or_create_thread(st, self.env.cfg, now,
                                                        self.total_threads()))
        return earliest

    def sweep_hangups(self, now: float) -> None:
        """Timer: with no listener polling (it is running a request itself), look for clients
        that hung up while queued or running, so that is noticed within one tick anyway."""
        with self.lock:
            st = self.state
            if st.listener is not None or st.shutdown:
                return
            watched = [pc for pc in self.running if not pc.vanished]
            watched += [e.item for q in (st.high, st.low) for e in q if not e.item.vanished]
        if not watched:
            return
        poller = select.poll()
        for pc in watched:
            poller.register(pc.fd, select.POLLRDHUP)
        gone = {fd for fd, ev in poller.poll(0)
                if ev & (select.POLLRDHUP | select.POLLHUP | select.POLLERR)
                and not ev & select.POLLNVAL}
        if not gone:
            return
        running: list[PoolConn] = []
        with self.lock:
            for pc in watched:
                if pc.fd in gone and not pc.vanished:
                    self._hung_up(pc, now, running)
        if running:
            self.stop_vanished(running)

    def count_stalled(self, now: float) -> None:
        """Timer: count running requests that outlived the stall limit (MySQL's
        STALLED_QUERIES_EXECUTED), once each. Lock held."""
        limit = self.env.cfg.stall_limit_ms / 1000.0
        for w in self.workers:
            if w.running_since is not None and not w.stall_counted \
                    and now - w.running_since > limit:
                w.stall_counted = True
                self.state.counters.stalled_queries += 1

    # --- shrinking and shutdown ----------------------------------------------------------------
    def retire(self, retired: bool) -> None:
        with self.lock:
            self.state.retired = retired
            if policy.should_leave(self.state):
                self._wake_all()

    def _wake_all(self) -> None:
        """Wake the listener (self-pipe) and every sleeper. Lock held."""
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass
        st = self.state
        while st.waiting:
            self.apply(policy.wake_thread(st, due_to_stall=False))

    def begin_shutdown(self) -> None:
        with self.lock:
            self.state.shutdown = True
            self._wake_all()

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
