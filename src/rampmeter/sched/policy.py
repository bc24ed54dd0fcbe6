"""The thread pool's POLICY: one thread group's state as plain data, and the decisions made on it.

MariaDB's generic pool (sql/threadpool_generic.cc, 10.5+) is the base algorithm; the knobs of
Percona and MySQL Enterprise sit on top of it (../shared/reference/threadpool.md §3). Verbs
keep MariaDB's names so the two can be read side by side: queue_put, queue_get,
too_many_threads, wake_or_create_thread, check_stall, wait_begin, wait_end.

Rules:
- No threads, locks, sockets or clocks here. The mechanism (pool/) holds the group lock, calls a
  verb with `now`, and carries out the `Decision` it returns: signal a sleeping worker, start a
  thread, or nothing. Tests drive the same verbs on a VirtualClock.
- Queue entries and sleeping workers are opaque objects to the policy; it only orders them.
- "Active" threads are the ones running a request: not the listener, not a sleeper, not a thread
  between wait_begin and wait_end. A new thread starts active; an exiting one leaves active.

Where rampmeter differs from MariaDB, and why:
- Thread-creation throttle: the issue's table, which is Percona's and MariaDB <= 10.4's
  (< 4 threads: none, < 8: 50 ms, < 16: 100 ms, else 200 ms). MariaDB 10.5+ scales it by
  stall_limit (zero below 500 ms) and its last band reads 20 ms, a likely typo (reference §3.5).
- Percona's LOW-queue freeze is applied on top of MariaDB's limit: LOW is not dequeued while
  active + lock-waiting > 1 + oversubscribe (Percona's `>`; TXSQL uses `>=`, which starves a
  queued statement whenever the threads waiting in locks alone reach the limit). Threads blocked
  in waits do not count against oversubscribe, so without the freeze a group whose workers all
  wait on locks held by a queued connection grows to thread_pool_max_threads (Percona docs).
  Percona counts every wait; we count only lock waits (row, table, metadata, user, global
  locks), the case the freeze exists for. A thread in SLEEP() or waiting for the network cannot
  be waiting on a queued connection's lock, and counting it would run a sleep-heavy workload
  only 1 + oversubscribe statements at a time.
- Kick-up follows MySQL Enterprise: a LOW entry older than prio_kickup_timer moves to HIGH, at
  most one per 10 ms per group, checked on every dequeue and every timer tick. MariaDB moves
  every aged entry at each tick, which lets one tick flood the HIGH queue.
- MySQL Enterprise's thread_pool_max_active_query_threads caps active threads per group next to
  oversubscribe; both limits are suspended while the group is stalled, so a long statement can
  never block its group for good.
"""

from __future__ import annotations

import enum
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from rampmeter.sched.priority import Priority

KICKUP_INTERVAL = 0.010  # MySQL Enterprise: at most one kick-up per 10 ms per group
# Throttle table (Percona threadpool_unix.cc, MariaDB <= 10.4): (thread count below, delay s)
THROTTLE_BANDS = ((4, 0.0), (8, 0.050), (16, 0.100))
THROTTLE_MAX = 0.200
MIN_THREADS_PER_GROUP = 2  # a listener and one worker, even above thread_pool_max_threads
BLOCKED_MESSAGE_DELAY = 30.0  # MariaDB's BLOCK_MSG_DELAY: log "pool blocked" after 30 s
_EPSILON = 1e-9  # float seconds: 10 ms measured as 0.00999... must still count as 10 ms


@dataclass(slots=True)
class PoolConfig:
    """The pool's knobs, refreshed from the global variables when one changes."""

    oversubscribe: int = 3
    stall_limit_ms: int = 500
    prio_kickup_timer_ms: int = 1000
    max_threads: int = 65536
    idle_timeout_s: int = 60
    dedicated_listener: bool = False
    exact_stats: bool = False
    max_active_query_threads: int = 0
    max_unused_threads: int = 0
    max_transactions_limit: int = 0
    group_count: int = 1

    @property
    def transactions_per_group(self) -> int:
        """MySQL Enterprise divides thread_pool_max_transactions_limit among the groups."""
        if not self.max_transactions_limit:
            return 0
        return max(1, self.max_transactions_limit // max(1, self.group_count))


@dataclass(slots=True)
class Counters:
    """information_schema.THREAD_POOL_STATS, one field per column (MariaDB's
    thread_group_counters_t), plus the MySQL Enterprise kick-up count."""

    thread_creations: int = 0
    thread_creations_due_to_stall: int = 0
    wakes: int = 0
    wakes_due_to_stall: int = 0
    throttles: int = 0
    stalls: int = 0
    polls_by_listener: int = 0
    polls_by_worker: int = 0
    dequeues_by_listener: int = 0
    dequeues_by_worker: int = 0
    prio_kickups: int = 0

    def reset(self) -> None:
        for name in self.__slots__:  # type: ignore[attr-defined]
            setattr(self, name, 0)


@dataclass(slots=True)
class Entry:
    """A queued request: the connection (opaque), when it was queued, and whether running it
    would start a new transaction (for thread_pool_max_transactions_limit)."""

    item: Any
    enqueued_at: float
    priority: Priority
    starts_transaction: bool = False


class Action(enum.Enum):
    NONE = "none"
    WAKE = "wake"            # signal `Decision.worker`, already removed from the waiting list
    CREATE = "create"        # start a worker thread; counts were already updated
    THROTTLED = "throttled"  # a thread was wanted but the throttle said not yet
    BLOCKED = "blocked"      # a thread was wanted but thread_pool_max_threads forbids it


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    worker: Any = None
    due_to_stall: bool = False


NOTHING = Decision(Action.NONE)


@dataclass(slots=True)
class GroupState:
    group_id: int
    high: deque[Entry] = field(default_factory=deque)
    low: deque[Entry] = field(default_factory=deque)
    waiting: list[Any] = field(default_factory=list)  # sleeping workers, most recent first
    thread_count: int = 0
    active_count: int = 0
    waiting_count: int = 0       # threads inside a lock wait (Percona's waiting_thread_count)
    connection_count: int = 0
    listener: Any = None
    io_event_count: int = 0
    queue_event_count: int = 0
    stalled: bool = False
    last_thread_creation: float = float("-inf")
    last_kickup: float = float("-inf")
    transactions: int = 0        # open transactions started through this group
    shutdown: bool = False
    counters: Counters = field(default_factory=Counters)

    def queue_length(self) -> int:
        return len(self.high) + len(self.low)

    def is_queue_empty(self) -> bool:
        return not self.high and not self.low


# --- limits ----------------------------------------------------------------------------------

def too_many_threads(g: GroupState, cfg: PoolConfig) -> bool:
    """MariaDB's too_many_threads: enough active threads run; do not dequeue (unless stalled).

    active_count includes the asking worker. MariaDB's test is active >= 1 + oversubscribe.
    MySQL's thread_pool_max_active_query_threads=N allows N threads running statements, the
    asking one included, so that cap is exceeded only at active > N (with N=1 and MariaDB's
    ">=" form a lone worker could never dequeue its own group's work)."""
    if g.stalled:
        return False
    if g.active_count >= 1 + cfg.oversubscribe:
        return True
    return bool(cfg.max_active_query_threads) and g.active_count > cfg.max_active_query_threads


def low_queue_frozen(g: GroupState, cfg: PoolConfig) -> bool:
    """Percona's too_many_busy_threads: active + waiting threads exceed the limit."""
    return g.active_count + g.waiting_count > 1 + cfg.oversubscribe


def throttle_interval(thread_count: int) -> float:
    for below, delay in THROTTLE_BANDS:
        if thread_count < below:
            return delay
    return THROTTLE_MAX


# --- queues ----------------------------------------------------------------------------------

def queue_put(g: GroupState, item: Any, priority: Priority, now: float, *,
              starts_transaction: bool = False) -> Entry:
    entry = Entry(item, now, priority, starts_transaction)
    (g.high if priority is Priority.HIGH else g.low).append(entry)
    return entry


def kick_up(g: GroupState, cfg: PoolConfig, now: float) -> bool:
    """Move the oldest LOW entry to HIGH if it waited past the kick-up timer (one per 10 ms)."""
    if not g.low or now - g.last_kickup < KICKUP_INTERVAL - _EPSILON:
        return False
    head = g.low[0]
    if now - head.enqueued_at <= cfg.prio_kickup_timer_ms / 1000.0:
        return False
    g.low.popleft()
    head.priority = Priority.HIGH
    g.high.append(head)
    g.last_kickup = now
    g.counters.prio_kickups += 1
    return True


def _take(queue: deque[Entry], g: GroupState, cfg: PoolConfig) -> Entry | None:
    limit = cfg.transactions_per_group
    if not limit or g.transactions < limit:
        return queue.popleft() if queue else None
    # Transaction limit reached: only statements of already open transactions may run.
    for i, entry in enumerate(queue):
        if not entry.starts_transaction:
            del queue[i]
            return entry
    return None


def queue_get(g: GroupState, cfg: PoolConfig, now: float, *, by_listener: bool) -> Entry | None:
    """Dequeue HIGH first, then LOW unless frozen; counts for stall detection and stats."""
    kick_up(g, cfg, now)
    g.queue_event_count += 1
    entry = _take(g.high, g, cfg)
    if entry is None and not low_queue_frozen(g, cfg):
        entry = _take(g.low, g, cfg)
    if entry is not None:
        if by_listener:
            g.counters.dequeues_by_listener += 1
        else:
            g.counters.dequeues_by_worker += 1
        if entry.starts_transaction:
            g.transactions += 1
    return entry


def transaction_done(g: GroupState) -> None:
    """The connection that started a counted transaction finished it (commit, rollback, or an
    autocommit statement completing)."""
    if g.transactions > 0:
        g.transactions -= 1


# --- threads ---------------------------------------------------------------------------------

def can_create(g: GroupState, cfg: PoolConfig, total_threads: int) -> bool:
    """MariaDB's create_worker check: the global cap, except that a group may always have 2."""
    return total_threads < cfg.max_threads or g.thread_count < MIN_THREADS_PER_GROUP


def create_worker(g: GroupState, cfg: PoolConfig, now: float, total_threads: int, *,
                  due_to_stall: bool) -> Decision:
    if not can_create(g, cfg, total_threads):
        return Decision(Action.BLOCKED, due_to_stall=due_to_stall)
    g.thread_count += 1
    g.active_count += 1  # a worker starts out active (MariaDB add_thread_count)
    g.last_thread_creation = now
    g.counters.thread_creations += 1
    if due_to_stall:
        g.counters.thread_creations_due_to_stall += 1
    return Decision(Action.CREATE, due_to_stall=due_to_stall)


def wake_thread(g: GroupState, *, due_to_stall: bool) -> Decision:
    """Wake the most recently slept worker (LIFO: hot caches, and idle timeouts can work).

    The woken worker counts as active from this moment, not from when it gets the lock back:
    in MariaDB that gap is microseconds, under a GIL it can be milliseconds, and during a
    connection storm every new arrival would otherwise see "nobody active, nobody asleep" and
    create a thread."""
    if not g.waiting:
        return NOTHING
    worker = g.waiting.pop(0)
    g.active_count += 1
    g.counters.wakes += 1
    if due_to_stall:
        g.counters.wakes_due_to_stall += 1
    return Decision(Action.WAKE, worker=worker, due_to_stall=due_to_stall)


def wake_or_create_thread(g: GroupState, cfg: PoolConfig, now: float, total_threads: int, *,
                          due_to_stall: bool = False) -> Decision:
    if g.shutdown:
        return NOTHING
    woken = wake_thread(g, due_to_stall=due_to_stall)
    if woken.action is Action.WAKE:
        return woken
    if g.thread_count > g.connection_count:
        return NOTHING  # never more threads than connections (+ the listener)
    if g.active_count == 0:
        # No delay: nobody runs, and nobody could be woken. Smells like a deadlock or very slow
        # requests (sleeps, user locks), as MariaDB's comment says.
        return create_worker(g, cfg, now, total_threads, due_to_stall=due_to_stall)
    if now - g.last_thread_creation > throttle_interval(g.thread_count):
        return create_worker(g, cfg, now, total_threads, due_to_stall=due_to_stall)
    g.counters.throttles += 1
    return Decision(Action.THROTTLED, due_to_stall=due_to_stall)


# --- the listener ----------------------------------------------------------------------------

def listener_takes_one(g: GroupState, cfg: PoolConfig) -> bool:
    """Q1 of MariaDB's listener(): handle an event itself when the group is not behind (its
    queues were empty before this poll) and listeners are not dedicated."""
    return g.is_queue_empty() and not cfg.dedicated_listener


def after_listener_enqueue(g: GroupState, cfg: PoolConfig, now: float,
                           total_threads: int) -> Decision:
    """Q2: the listener queued everything; wake one worker only if nobody is active, and create
    one (unthrottled) only if the listener is alone in its group. Otherwise rely on the timer."""
    if g.active_count != 0:
        return NOTHING
    woken = wake_thread(g, due_to_stall=False)
    if woken.action is Action.WAKE:
        return woken
    if g.thread_count == 1:
        return create_worker(g, cfg, now, total_threads, due_to_stall=False)
    return NOTHING


def on_new_connection(g: GroupState, cfg: PoolConfig, now: float, total_threads: int,
                      item: Any) -> Decision:
    """MariaDB's add(): a new connection is queued HIGH for its login; wake or create a thread
    if nobody is active."""
    g.connection_count += 1
    queue_put(g, item, Priority.HIGH, now)
    if g.active_count == 0:
        return wake_or_create_thread(g, cfg, now, total_threads)
    return NOTHING


# --- waits -----------------------------------------------------------------------------------

def wait_begin(g: GroupState, cfg: PoolConfig, now: float, total_threads: int, *,
               lock_wait: bool = False) -> Decision:
    g.active_count -= 1
    if lock_wait:
        g.waiting_count += 1
    if g.active_count == 0 and (not g.is_queue_empty() or g.listener is None):
        return wake_or_create_thread(g, cfg, now, total_threads)
    return NOTHING


def wait_end(g: GroupState, *, lock_wait: bool = False) -> None:
    # No limit is checked here (MariaDB): a thread back from a wait may push active above the
    # limit; the limit applies at its next dequeue.
    g.active_count += 1
    if lock_wait:
        g.waiting_count -= 1


# --- the timer -------------------------------------------------------------------------------

def check_stall(g: GroupState, cfg: PoolConfig, now: float,
                total_threads: int) -> Decision:
    """One timer tick for one group, MariaDB's check_stall with MySQL's kick-up rate."""
    kick_up(g, cfg, now)
    if g.listener is None and g.io_event_count == 0:
        # No listener and no I/O since the last tick: the listener is busy running a request
        # (or a wait was not reported). Get a thread that will become the listener. The
        # counters are deliberately not reset on this path (MariaDB).
        return wake_or_create_thread(g, cfg, now, total_threads, due_to_stall=True)
    g.io_event_count = 0
    decision = NOTHING
    if _has_runnable(g, cfg) and g.queue_event_count == 0:
        g.stalled = True
        g.counters.stalls += 1
        decision = wake_or_create_thread(g, cfg, now, total_threads, due_to_stall=True)
    g.queue_event_count = 0
    return decision


def _runnable(queue: deque[Entry], g: GroupState, cfg: PoolConfig) -> bool:
    if not queue:
        return False
    limit = cfg.transactions_per_group
    if not limit or g.transactions < limit:
        return True
    return any(not entry.starts_transaction for entry in queue)


def _has_runnable(g: GroupState, cfg: PoolConfig) -> bool:
    # Percona: a frozen LOW queue counts as empty, so the timer does not fight the freeze; and
    # entries held back by the transaction limit are not work a new thread could do.
    return _runnable(g.high, g, cfg) or (not low_queue_frozen(g, cfg) and _runnable(g.low, g, cfg))


# --- sleeping and exiting --------------------------------------------------------------------

def may_sleep(cfg: PoolConfig, idle_threads_in_pool: int) -> bool:
    """MySQL Enterprise thread_pool_max_unused_threads: beyond the cap a worker exits instead of
    sleeping (0: no cap)."""
    return not cfg.max_unused_threads or idle_threads_in_pool < cfg.max_unused_threads


def go_to_sleep(g: GroupState, worker: Any) -> None:
    g.waiting.insert(0, worker)  # the head: LIFO wake-ups
    g.active_count -= 1


def woke_up(g: GroupState, worker: Any, *, signalled: bool) -> None:
    if signalled:
        return  # the waker removed us from the list and counted us active (wake_thread)
    g.active_count += 1
    if worker in g.waiting:
        g.waiting.remove(worker)  # timeout or spurious wake-up


def thread_exit(g: GroupState) -> None:
    g.thread_count -= 1
    g.active_count -= 1


def get_event_done(g: GroupState) -> None:
    """Whenever get_event returns, the stall is over (MariaDB resets `stalled` there)."""
    g.stalled = False


# --- idle connections (wait_timeout) ---------------------------------------------------------

def idle_deadline(now: float, wait_timeout_s: float) -> float:
    # MariaDB adds one tick because its coarse clock may be a tick stale; our clock is exact, and
    # the timer's scan still gives the one-tick resolution.
    return now + wait_timeout_s


class BlockedMonitor:
    """MariaDB's print_pool_blocked_message: one error per blocking episode, after 30 s of
    failed thread creations; a successful creation ends the episode."""

    def __init__(self) -> None:
        self.since: float | None = None
        self.reported = False

    def failed(self, now: float) -> float | None:
        """A creation failed; returns the seconds blocked when it is time to log, else None."""
        if self.since is None:
            self.since, self.reported = now, False
            return None
        if not self.reported and now - self.since > BLOCKED_MESSAGE_DELAY:
            self.reported = True
            return now - self.since
        return None

    def succeeded(self) -> None:
        self.since = None


def should_expire(deadline: float, now: float, *, readable: bool) -> bool:
    """Kill an idle connection whose deadline passed, unless its next request already arrived
    (MariaDB 10.6+ marks such a connection PENDING instead of killing it)."""
    return deadline <= now and not readable
