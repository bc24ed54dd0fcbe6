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
- Thread-creation throttle: MariaDB 10.5+'s (sql/threadpool_generic.cc,
  microsecond_throttling_interval): no delay below 1 + oversubscribe threads in the group, then
  50 ms below 8, 100 ms below 16, and 20 ms from 16 on, each multiplied by
  F = stall_limit / max(500, stall_limit) in integer arithmetic - so F is 0 (no throttling at
  all) when thread_pool_stall_limit < 500 ms, and 1 otherwise. The last band reads `200*100`
  microseconds in the source and 20 ms in the KB; it looks like a typo for 200 ms, but code and
  documentation agree, so an operator moving from MariaDB gets the same pool. (Percona and
  MariaDB <= 10.4 used a fixed 0/50/100/200 ms table from 4 threads.)
- Percona's LOW-queue freeze is applied on top of MariaDB's limit: LOW is not dequeued while
  active + lock-waiting > 1 + oversubscribe (Percona's `>`; TXSQL uses `>=`, which starves a
  queued statement whenever the threads waiting in locks alone reach the limit). Threads blocked
  in waits do not count against oversubscribe, so without the freeze a group whose workers all
  wait on locks held by a queued connection grows to thread_pool_max_threads (Percona docs).
  Percona counts every wait; we count only lock waits (row, table, metadata, user, global
  locks), the case the freeze exists for. A thread in SLEEP() or waiting for the network cannot
  be waiting on a queued connection's lock, and counting it would run a sleep-heavy workload
  only 1 + oversubscribe statements at a time.
- Kick-up is MariaDB's by default: every LOW entry older than prio_kickup_timer moves to the tail
  of HIGH, checked at every timer tick (and, here, at every dequeue too, which only makes it
  more punctual). MySQL Enterprise moves at most one entry per 10 ms per group; that is the
  explicit choice thread_pool_prio_kickup_rate = 100 (entries per second per group; 0, the
  default, is MariaDB's "all of them"). A rate is a budget that accrues between checks, capped
  at one timer tick's worth, so a frozen group checked only by the timer still promotes `rate`
  entries a second rather than one per tick.
- MySQL Enterprise's thread_pool_max_active_query_threads caps active threads per group next to
  oversubscribe; both limits are suspended while the group is stalled, so a long statement can
  never block its group for good.
- MySQL Enterprise's transaction limit, delay and long-transaction escape: sched/trxlimit.py.
- MDEV-38219 (a MariaDB feature request, not fixed there): when thread_pool_max_threads is
  reached and every thread of a group waits - typically for a lock - the lock holder's UNLOCK
  or COMMIT gets no thread (often nobody even polls its socket: the listener itself took a
  request and now waits too), and the server deadlocks. Here a group may create a thread
  beyond the cap when nobody in it is active, some of its threads are in lock waits, and
  either nobody listens or its HIGH queue holds a request of a connection that holds locks or
  has an open transaction (the one the others most likely wait for). Either condition ends as
  soon as that thread exists, so a group goes at most one thread past the cap at a time.
  Percona lets admin connections past the cap in the same spirit. Counted as
  `holder_escapes`; the thread is an ordinary worker and leaves at the idle timeout.
"""

from __future__ import annotations

import enum
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from rampmeter.sched import trxlimit
from rampmeter.sched.balance import STAY, LoadHistory, Move
from rampmeter.sched.counters import Counters
from rampmeter.sched.priority import Priority

# MariaDB 10.5+ microsecond_throttling_interval, in seconds, by threads in the group: below
# 1 + oversubscribe none; then (below this many threads, delay).
THROTTLE_BANDS = ((8, 0.050), (16, 0.100))
THROTTLE_MAX = 0.020             # sic: `200*100` us in MariaDB's source and 20 ms in its KB
THROTTLE_MIN_STALL_LIMIT_MS = 500  # DEFAULT_THREADPOOL_STALL_LIMIT: F = 0 below it
MIN_THREADS_PER_GROUP = 2  # a listener and one worker, even above thread_pool_max_threads
BLOCKED_MESSAGE_DELAY = 30.0  # MariaDB's BLOCK_MSG_DELAY: log "pool blocked" after 30 s
_EPSILON = 1e-9  # float seconds: 10 ms measured as 0.00999... must still count as 10 ms


@dataclass(slots=True)
class PoolConfig:
    """The pool's knobs, refreshed from the global variables when one changes."""

    oversubscribe: int = 3
    stall_limit_ms: int = 500
    prio_kickup_timer_ms: int = 1000
    prio_kickup_rate: int = 0          # kick-ups per second per group; 0: all aged (MariaDB)
    max_threads: int = 65536
    idle_timeout_s: int = 60
    dedicated_listener: bool = False
    exact_stats: bool = False
    max_active_query_threads: int = 0
    max_unused_threads: int = 0
    max_transactions_limit: int = 0
    transaction_delay_ms: int = 0
    longrun_trx_limit_ms: int = 2000
    group_assignment: str = "modulo"   # sched/balance.py: modulo | load
    group_count: int = 1


@dataclass(slots=True)
class Entry:
    """A queued request: the connection (opaque), when it was queued, its queue, and what the
    transaction limit makes of it (sched/trxlimit.py: may it be held back, does it start a
    transaction)."""

    item: Any
    enqueued_at: float
    priority: Priority
    held: bool = False
    new_trx: bool = False
    holder: bool = False  # its connection holds locks or an open transaction (MDEV-38219)


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
    trx_started: dict[Any, float] = field(default_factory=dict)  # open transactions by item
    retired: bool = False        # beyond thread_pool_size after a shrink: drain, then leave
    load: LoadHistory = field(default_factory=LoadHistory)  # sched/balance.py, timer-sampled
    move: Move = STAY            # what the last tick lets idle connections do (balance.py)
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


def low_queue_frozen(g: GroupState, cfg: PoolConfig, *, joining: int = 0) -> bool:
    """Percona's too_many_busy_threads: active + waiting threads exceed the limit. A dequeuing
    worker is itself active; `joining` counts threads not yet active that would be (the timer
    asks whether a thread it wakes could take LOW work)."""
    return g.active_count + joining + g.waiting_count > 1 + cfg.oversubscribe


def throttle_interval(thread_count: int, cfg: PoolConfig) -> float:
    """MariaDB 10.5+: seconds that must pass since the group's last thread creation."""
    if thread_count < 1 + cfg.oversubscribe or cfg.stall_limit_ms < THROTTLE_MIN_STALL_LIMIT_MS:
        return 0.0
    for below, delay in THROTTLE_BANDS:
        if thread_count < below:
            return delay
    return THROTTLE_MAX


# --- queues ----------------------------------------------------------------------------------

def queue_put(g: GroupState, item: Any, priority: Priority, now: float, *,
              held: bool = False, new_trx: bool = False, holder: bool = False,
              first: bool = False) -> Entry:
    """Queue at the tail, or at the head of HIGH for the engine's write-lock holder
    (sched/priority.py rule 3)."""
    entry = Entry(item, now, priority, held, new_trx, holder)
    if priority is Priority.HIGH:
        if first:
            g.high.appendleft(entry)
        else:
            g.high.append(entry)
    else:
        g.low.append(entry)
    return entry


def kick_up(g: GroupState, cfg: PoolConfig, now: float) -> int:
    """Move LOW entries older than the kick-up timer to the tail of HIGH; returns how many.
    All of them (MariaDB), or within thread_pool_prio_kickup_rate's budget (MySQL)."""
    age = cfg.prio_kickup_timer_ms / 1000.0
    budget = len(g.low)
    if cfg.prio_kickup_rate:
        interval = 1.0 / cfg.prio_kickup_rate
        cap = max(1, int(cfg.stall_limit_ms / 1000.0 / interval))
        elapsed = now - g.last_kickup
        accrued = cap if elapsed > cap * interval else int(elapsed / interval + _EPSILON)
        budget = min(budget, cap, accrued)
    moved = 0
    while moved < budget and g.low and now - g.low[0].enqueued_at > age:
        head = g.low.popleft()
        head.priority = Priority.HIGH
        g.high.append(head)
        moved += 1
    if moved:
        g.last_kickup = now
        g.counters.prio_kickups += moved
    return moved


def _take(queue: deque[Entry], held_back: bool) -> Entry | None:
    if not queue:
        return None
    if not held_back:
        return queue.popleft()
    # The transaction limit is reached: only requests it does not hold back may run.
    for i, entry in enumerate(queue):
        if not entry.held:
            del queue[i]
            return entry
    return None


def queue_get(g: GroupState, cfg: PoolConfig, now: float, *, by_listener: bool) -> Entry | None:
    """Dequeue HIGH first, then LOW unless frozen; counts for stall detection and stats."""
    if g.low:
        kick_up(g, cfg, now)
    g.queue_event_count += 1
    held_back = bool(cfg.max_transactions_limit) and trxlimit.limit_reached(g, cfg, now)
    entry = _take(g.high, held_back)
    c = g.counters
    if entry is not None:
        c.high_dequeues += 1
    elif not low_queue_frozen(g, cfg):
        entry = _take(g.low, held_back)
        if entry is not None:
            c.low_dequeues += 1
    if entry is None:
        return None
    if by_listener:
        c.dequeues_by_listener += 1
    else:
        c.dequeues_by_worker += 1
    c.dequeued(max(0, int((now - entry.enqueued_at) * 1_000_000)))
    if entry.new_trx:
        trxlimit.transaction_started(g, entry.item, now)
    return entry


def remove(g: GroupState, item: Any) -> Entry | None:
    """Take `item`'s entry out of the queues (its client vanished while it waited)."""
    for queue in (g.high, g.low):
        for i, entry in enumerate(queue):
            if entry.item is item:
                del queue[i]
                return entry
    return None


# --- threads ---------------------------------------------------------------------------------

def can_create(g: GroupState, cfg: PoolConfig, total_threads: int) -> bool:
    """MariaDB's create_worker check: the global cap, except that a group may always have 2."""
    return total_threads < cfg.max_threads or g.thread_count < MIN_THREADS_PER_GROUP


def holder_needs_thread(g: GroupState) -> bool:
    """MDEV-38219's deadlock in the making: nobody in the group is active, threads wait in
    locks, and nobody listens or a lock holder's (or open transaction's) request waits in HIGH."""
    if g.active_count > 0 or g.waiting_count <= 0:
        return False
    return g.listener is None or any(e.holder for e in g.high)


def create_worker(g: GroupState, cfg: PoolConfig, now: float, total_threads: int, *,
                  due_to_stall: bool) -> Decision:
    if not can_create(g, cfg, total_threads):
        if not holder_needs_thread(g):
            return Decision(Action.BLOCKED, due_to_stall=due_to_stall)
        g.counters.holder_escapes += 1
    g.thread_count += 1
    g.active_count += 1  # a worker starts out active (MariaDB add_thread_count)
    g.last_thread_creation = now
    g.counters.thread_creations += 1
    if due_to_stall:
        g.counters.thread_creations_due_to_stall += 1
        g.counters.stall_checker_wakes += 1
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
        g.counters.stall_checker_wakes += 1
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
    if now - g.last_thread_creation > throttle_interval(g.thread_count, cfg):
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
                      item: Any, *, held: bool = True) -> Decision:
    """MariaDB's add(): a new connection is queued HIGH for its login; wake or create a thread
    if nobody is active. The transaction limit may hold a login back (`held`)."""
    g.connection_count += 1
    g.counters.connections_started += 1
    queue_put(g, item, Priority.HIGH, now, held=held)
    if g.active_count == 0:
        return wake_or_create_thread(g, cfg, now, total_threads)
    return NOTHING


def should_leave(g: GroupState) -> bool:
    """A group beyond thread_pool_size (after a shrink) whose last connection has moved away:
    its threads leave, listener included (MariaDB leaves them blocked in poll)."""
    return g.retired and g.connection_count == 0


# --- waits -----------------------------------------------------------------------------------

def wait_begin(g: GroupState, cfg: PoolConfig, now: float, total_threads: int, *,
               lock_wait: bool = False, reason: int = 0) -> Decision:
    g.active_count -= 1
    g.counters.waits[reason] += 1
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
    """One timer tick for one group: MariaDB's check_stall (kick-up first)."""
    if g.low:
        kick_up(g, cfg, now)
    if g.listener is None and g.io_event_count == 0:
        # No listener and no I/O since the last tick: the listener is busy running a request
        # (or a wait was not reported). Get a thread that will become the listener. The
        # counters are deliberately not reset on this path (MariaDB).
        g.counters.stall_no_listener += 1
        return wake_or_create_thread(g, cfg, now, total_threads, due_to_stall=True)
    g.io_event_count = 0
    decision = NOTHING
    if _has_runnable(g, cfg, now) and g.queue_event_count == 0:
        g.stalled = True
        g.counters.stalls += 1
        decision = wake_or_create_thread(g, cfg, now, total_threads, due_to_stall=True)
    g.queue_event_count = 0
    return decision


def _runnable(queue: deque[Entry], held_back: bool) -> bool:
    if not queue:
        return False
    return not held_back or any(not entry.held for entry in queue)


def _has_runnable(g: GroupState, cfg: PoolConfig, now: float) -> bool:
    # Percona: a frozen LOW queue counts as empty, so the timer does not fight the freeze - and
    # "frozen" is judged with the thread it would wake counted, or it would wake one every other
    # tick only to see it freeze and sleep again. Entries held back by the transaction limit are
    # not work a new thread could do either.
    held_back = trxlimit.limit_reached(g, cfg, now)
    return _runnable(g.high, held_back) or (
        not low_queue_frozen(g, cfg, joining=1) and _runnable(g.low, held_back))


# --- sleeping and exiting --------------------------------------------------------------------

def may_sleep(cfg: PoolConfig, idle_threads_in_pool: int) -> bool:
    """MySQL Enterprise thread_pool_max_unused_threads: beyond the cap a worker exits instead of
    sleeping (0: no cap). The cap is pool-wide, as MySQL's "unused threads" are."""
    return not cfg.max_unused_threads or idle_threads_in_pool < cfg.max_unused_threads


def go_to_sleep(g: GroupState, worker: Any, *, oversubscribed: bool = False) -> None:
    c = g.counters
    c.sleeps += 1
    if oversubscribed:
        c.oversubscribed += 1
    if g.waiting:
        c.become_reserve += 1    # MySQL: one consumer sleeper, the others are reserve
    else:
        c.become_consumer += 1
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
