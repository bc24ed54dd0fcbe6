"""The pool's policy on a virtual clock: every rule of sched/policy.py, and the reference pools'
known bugs as regression cases. No threads, no sleeps."""

from __future__ import annotations

import pytest

from rampmeter.sched import policy, trxlimit
from rampmeter.sched.clock import VirtualClock
from rampmeter.sched.policy import Action, GroupState, PoolConfig
from rampmeter.sched.priority import Priority, choose_priority, spend_ticket
from rampmeter.sched.snapshot import SessionSnapshot

pytestmark = pytest.mark.timeout(10)


def Snap(**kw) -> SessionSnapshot:  # noqa: N802 - reads like the type it builds
    """A logged-in session's snapshot with the given fields."""
    return SessionSnapshot(**{"logged_in": True, **kw})


def group(**kw) -> GroupState:
    g = GroupState(0)
    for k, v in kw.items():
        setattr(g, k, v)
    return g


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


@pytest.fixture
def cfg() -> PoolConfig:
    return PoolConfig()


# --- queues and priorities ---------------------------------------------------------------------

def test_high_queue_is_served_first(clock, cfg):
    g = group(thread_count=1, active_count=1, connection_count=3)
    policy.queue_put(g, "low1", Priority.LOW, clock.now())
    policy.queue_put(g, "high1", Priority.HIGH, clock.now())
    policy.queue_put(g, "low2", Priority.LOW, clock.now())
    got = [policy.queue_get(g, cfg, clock.now(), by_listener=False).item for _ in range(3)]
    assert got == ["high1", "low1", "low2"]
    assert policy.queue_get(g, cfg, clock.now(), by_listener=False) is None
    assert g.counters.dequeues_by_worker == 3
    assert g.queue_event_count == 4  # every attempt counts for stall detection


def test_oversubscribe_limit_stops_dequeue_unless_stalled(cfg):
    g = group(active_count=1 + cfg.oversubscribe)
    assert policy.too_many_threads(g, cfg)
    g.stalled = True
    assert not policy.too_many_threads(g, cfg)
    g.stalled = False
    g.active_count = cfg.oversubscribe
    assert not policy.too_many_threads(g, cfg)


def test_max_active_query_threads_tightens_the_limit():
    cfg = PoolConfig(oversubscribe=3, max_active_query_threads=2)
    # the asking worker is counted: two active means it and one other, which the cap allows
    assert policy.too_many_threads(group(active_count=3), cfg)
    assert not policy.too_many_threads(group(active_count=2), cfg)
    one = PoolConfig(oversubscribe=3, max_active_query_threads=1)
    assert not policy.too_many_threads(group(active_count=1), one)
    assert policy.too_many_threads(group(active_count=2), one)


def test_percona_low_queue_freeze(clock, cfg):
    # active + waiting > 1 + oversubscribe freezes LOW; HIGH still flows.
    g = group(active_count=1, waiting_count=cfg.oversubscribe + 1)
    policy.queue_put(g, "low", Priority.LOW, clock.now())
    assert policy.queue_get(g, cfg, clock.now(), by_listener=False) is None
    policy.queue_put(g, "high", Priority.HIGH, clock.now())
    assert policy.queue_get(g, cfg, clock.now(), by_listener=False).item == "high"
    g.waiting_count = cfg.oversubscribe  # exactly at the limit: Percona's ">" lets LOW through
    assert policy.queue_get(g, cfg, clock.now(), by_listener=False).item == "low"


def test_priority_rules():
    base = Snap()
    assert choose_priority(base, tickets=10) is Priority.LOW
    assert choose_priority(Snap(in_transaction=True), 10) is Priority.HIGH
    assert choose_priority(Snap(holds_locks=True), 10) is Priority.HIGH
    assert choose_priority(Snap(in_transaction=True), 0) is Priority.LOW
    assert choose_priority(Snap(killed=True), 0) is Priority.HIGH
    assert choose_priority(Snap(pool_priority="high"), 0) is Priority.HIGH
    assert choose_priority(Snap(pool_priority="low", in_transaction=True), 9) \
        is Priority.LOW
    assert choose_priority(Snap(high_prio_mode="statements"), 0) is Priority.HIGH
    assert choose_priority(Snap(high_prio_mode="none", in_transaction=True), 9) \
        is Priority.LOW
    assert choose_priority(Snap(high_priority_connection=1), 0) is Priority.HIGH


def test_percona_tickets_spend_and_refill():
    inputs = Snap(in_transaction=True, high_prio_tickets=2)
    tickets = 2
    seen = []
    for _ in range(5):
        prio = choose_priority(inputs, tickets)
        tickets = spend_ticket(prio, tickets, inputs)
        seen.append(prio)
    # two HIGH, then one LOW that refills, then HIGH again
    assert seen == [Priority.HIGH, Priority.HIGH, Priority.LOW, Priority.HIGH, Priority.HIGH]


def test_write_lock_holder_is_high_whatever_the_mode_and_spends_no_ticket():
    """Rule 3: the engine's write-lock holder is HIGH even where the vendors' rules say LOW
    (forced low, Percona's `none`, no tickets left), and its enqueue leaves tickets alone."""
    for snap in (Snap(holds_write=True, in_transaction=True, pool_priority="low"),
                 Snap(holds_write=True, in_transaction=True, high_prio_mode="none"),
                 Snap(holds_write=True, in_transaction=True)):
        assert choose_priority(snap, tickets=0) is Priority.HIGH
        assert spend_ticket(Priority.HIGH, 3, snap) == 3


def test_write_lock_holder_goes_to_the_head_of_high(clock, cfg):
    """Under sysbench oltp_read_write every connection is inside a transaction, so all are
    HIGH; the holder's next statement goes first instead of behind the group's other requests,
    which the writers among them would only spend waiting for its COMMIT."""
    g = group(thread_count=1, active_count=1, connection_count=4)
    policy.queue_put(g, "reader", Priority.HIGH, clock.now())
    policy.queue_put(g, "blocked-writer", Priority.HIGH, clock.now())
    policy.queue_put(g, "low", Priority.LOW, clock.now())
    holder = Snap(in_transaction=True, holds_write=True)
    policy.queue_put(g, "holder's UPDATE", choose_priority(holder, 10), clock.now(),
                     first=holder.holds_write)
    got = [policy.queue_get(g, cfg, clock.now(), by_listener=False).item for _ in range(4)]
    assert got == ["holder's UPDATE", "reader", "blocked-writer", "low"]


# --- kick-up -------------------------------------------------------------------------------------

def test_kickup_moves_every_aged_entry_by_default_as_mariadb(clock):
    cfg = PoolConfig(prio_kickup_timer_ms=1000)
    g = group()
    for i in range(3):
        policy.queue_put(g, f"low{i}", Priority.LOW, clock.now())
    clock.advance_ms(500)
    policy.queue_put(g, "young", Priority.LOW, clock.now())
    clock.advance_ms(499)
    assert policy.kick_up(g, cfg, clock.now()) == 0
    clock.advance_ms(2)
    assert policy.kick_up(g, cfg, clock.now()) == 3  # all of them at once, no rate limit
    assert [e.item for e in g.high] == ["low0", "low1", "low2"]
    assert [e.item for e in g.low] == ["young"]
    assert g.counters.prio_kickups == 3


def test_kickup_rate_is_mysql_enterprise_one_per_10ms(clock):
    cfg = PoolConfig(prio_kickup_timer_ms=1000, prio_kickup_rate=100)
    g = group()
    for i in range(300):
        policy.queue_put(g, f"low{i}", Priority.LOW, clock.now())
    clock.advance_ms(1001)
    assert policy.kick_up(g, cfg, clock.now()) == 50  # the first check: one tick's budget
    assert policy.kick_up(g, cfg, clock.now()) == 0   # nothing accrued since
    clock.advance_ms(9)
    assert policy.kick_up(g, cfg, clock.now()) == 0
    clock.advance_ms(1)
    assert policy.kick_up(g, cfg, clock.now()) == 1
    # a frozen group checked only by the timer (500 ms ticks) still moves 100 a second
    moved = 0
    for _ in range(4):
        clock.advance_ms(cfg.stall_limit_ms)
        moved += policy.kick_up(g, cfg, clock.now())
    assert moved == 200
    assert [e.item for e in g.high][:3] == ["low0", "low1", "low2"]


def test_kicked_up_entry_overtakes_new_high_work_queued_later(clock):
    cfg = PoolConfig(prio_kickup_timer_ms=100)
    g = group()
    policy.queue_put(g, "old-low", Priority.LOW, clock.now())
    clock.advance_ms(150)
    policy.queue_put(g, "new-high", Priority.HIGH, clock.now())
    # queue_get kicks the aged entry up first; it then sits behind the HIGH entry already there
    assert policy.queue_get(g, cfg, clock.now(), by_listener=False).item == "new-high"
    assert policy.queue_get(g, cfg, clock.now(), by_listener=False).item == "old-low"


# --- thread creation -------------------------------------------------------------------------------

@pytest.mark.parametrize(("threads", "delay_ms"),
                         [(1, 0), (3, 0), (4, 50), (7, 50), (8, 100), (15, 100), (16, 20),
                          (100, 20)])
def test_throttle_follows_mariadb_10_5(threads, delay_ms):
    # bands start at 1 + oversubscribe; the last one is MariaDB's 20 ms (sic)
    assert policy.throttle_interval(threads, PoolConfig()) == pytest.approx(delay_ms / 1000)


def test_throttle_scales_with_oversubscribe_and_is_off_below_500ms_stall_limit():
    assert policy.throttle_interval(5, PoolConfig(oversubscribe=7)) == 0  # first band empty
    assert policy.throttle_interval(8, PoolConfig(oversubscribe=7)) == pytest.approx(0.1)
    for stall in (1, 100, 499):
        assert policy.throttle_interval(100, PoolConfig(stall_limit_ms=stall)) == 0
    assert policy.throttle_interval(100, PoolConfig(stall_limit_ms=60000)) == \
        pytest.approx(0.02)


def test_wake_or_create_prefers_the_most_recent_sleeper(clock, cfg):
    g = group(thread_count=3, active_count=2, connection_count=5)
    policy.go_to_sleep(g, "w1")
    policy.go_to_sleep(g, "w2")
    assert g.active_count == 0
    d = policy.wake_or_create_thread(g, cfg, clock.now(), 3)
    assert d.action is Action.WAKE and d.worker == "w2"  # LIFO
    assert g.waiting == ["w1"]
    assert g.counters.wakes == 1
    assert g.active_count == 1  # the woken worker is active at once
    policy.woke_up(g, "w2", signalled=True)
    assert g.active_count == 1
    # a second wake-or-create sees someone active and is throttled, not a new creation
    g.last_thread_creation = clock.now()
    assert policy.wake_or_create_thread(g, cfg, clock.now(), 3).action is Action.WAKE


def test_create_without_delay_when_nobody_is_active(clock, cfg):
    g = group(thread_count=10, active_count=0, connection_count=20)
    g.last_thread_creation = clock.now()
    d = policy.wake_or_create_thread(g, cfg, clock.now(), 10)
    assert d.action is Action.CREATE
    assert (g.thread_count, g.active_count) == (11, 1)


def test_throttled_creation_by_thread_count(clock, cfg):
    g = group(thread_count=5, active_count=2, connection_count=20)
    g.last_thread_creation = clock.now()
    clock.advance_ms(49)
    assert policy.wake_or_create_thread(g, cfg, clock.now(), 5).action is Action.THROTTLED
    assert g.counters.throttles == 1
    clock.advance_ms(2)
    assert policy.wake_or_create_thread(g, cfg, clock.now(), 5).action is Action.CREATE
    assert g.thread_count == 6


def test_never_more_threads_than_connections(clock, cfg):
    g = group(thread_count=3, active_count=0, connection_count=2)
    assert policy.wake_or_create_thread(g, cfg, clock.now(), 3).action is Action.NONE
    g.connection_count = 3
    assert policy.wake_or_create_thread(g, cfg, clock.now(), 3).action is Action.CREATE


def test_max_threads_but_two_per_group(clock):
    cfg = PoolConfig(max_threads=4)
    g = group(thread_count=1, active_count=0, connection_count=10)
    # the pool is at its cap, but a group may always have 2 threads
    assert policy.wake_or_create_thread(g, cfg, clock.now(), 4).action is Action.CREATE
    assert policy.wake_or_create_thread(group(thread_count=2, connection_count=10), cfg,
                                        clock.now(), 4).action is Action.BLOCKED


def test_blocked_message_once_per_episode_after_30s(clock):
    mon = policy.BlockedMonitor()
    assert mon.failed(clock.now()) is None
    clock.advance(29)
    assert mon.failed(clock.now()) is None
    clock.advance(2)
    assert mon.failed(clock.now()) == pytest.approx(31)
    clock.advance(100)
    assert mon.failed(clock.now()) is None  # one message per episode
    mon.succeeded()
    assert mon.failed(clock.now()) is None
    clock.advance(31)
    assert mon.failed(clock.now()) is not None  # a new episode


# --- the listener --------------------------------------------------------------------------------

def test_listener_takes_an_event_only_when_the_group_is_not_behind(cfg):
    assert policy.listener_takes_one(group(), cfg)
    g = group()
    policy.queue_put(g, "x", Priority.LOW, 0.0)
    assert not policy.listener_takes_one(g, cfg)
    assert not policy.listener_takes_one(group(), PoolConfig(dedicated_listener=True))


def test_listener_wakes_only_when_nobody_is_active(clock, cfg):
    g = group(thread_count=2, active_count=1, connection_count=4)
    assert policy.after_listener_enqueue(g, cfg, clock.now(), 2).action is Action.NONE
    g.active_count = 0
    policy.go_to_sleep(g, "sleeper")
    g.active_count = 0
    assert policy.after_listener_enqueue(g, cfg, clock.now(), 2).worker == "sleeper"
    # alone in its group and nobody to wake: create, without throttling
    g = group(thread_count=1, active_count=0, connection_count=4)
    g.last_thread_creation = clock.now()
    assert policy.after_listener_enqueue(g, cfg, clock.now(), 1).action is Action.CREATE
    # others exist (all busy in waits): leave it to the timer
    g = group(thread_count=3, active_count=0, connection_count=4)
    assert policy.after_listener_enqueue(g, cfg, clock.now(), 3).action is Action.NONE


def test_new_connections_queue_high_and_get_a_thread(clock, cfg):
    g = group()
    d = policy.on_new_connection(g, cfg, clock.now(), 0, "c1")
    assert d.action is Action.CREATE
    assert [e.item for e in g.high] == ["c1"]
    assert g.connection_count == 1


# --- waits ---------------------------------------------------------------------------------------

def test_wait_begin_wakes_or_creates_when_the_group_would_idle_with_work(clock, cfg):
    g = group(thread_count=2, active_count=1, connection_count=3, listener="L")
    policy.queue_put(g, "q", Priority.LOW, clock.now())
    d = policy.wait_begin(g, cfg, clock.now(), 2, lock_wait=True)
    assert d.action is Action.CREATE  # active hit 0 with work queued: no throttle
    assert (g.active_count, g.waiting_count) == (1, 1)  # the new thread starts active
    policy.wait_end(g, lock_wait=True)
    assert (g.active_count, g.waiting_count) == (2, 0)


def test_sleep_waits_do_not_freeze_the_low_queue(clock, cfg):
    g = group(thread_count=9, active_count=1 + cfg.oversubscribe, connection_count=20,
              listener="L")
    for _ in range(1 + cfg.oversubscribe):
        policy.wait_begin(g, cfg, clock.now(), 9)  # SLEEP(): not a lock wait
    policy.queue_put(g, "next", Priority.LOW, clock.now())
    assert not policy.low_queue_frozen(g, cfg)
    assert policy.queue_get(g, cfg, clock.now(), by_listener=False).item == "next"


def test_wait_begin_without_work_and_with_a_listener_does_nothing(clock, cfg):
    g = group(thread_count=2, active_count=1, connection_count=3, listener="L")
    assert policy.wait_begin(g, cfg, clock.now(), 2).action is Action.NONE


def test_wait_begin_without_listener_gets_one(clock, cfg):
    g = group(thread_count=1, active_count=1, connection_count=3, listener=None)
    assert policy.wait_begin(g, cfg, clock.now(), 1).action is Action.CREATE


# --- the timer -----------------------------------------------------------------------------------

def test_check_stall_marks_stalled_and_creates_when_queue_does_not_drain(clock, cfg):
    g = group(thread_count=1, active_count=1, connection_count=3, listener="L")
    policy.queue_put(g, "waiting", Priority.LOW, clock.now())
    g.io_event_count = 1
    g.queue_event_count = 0
    d = policy.check_stall(g, cfg, clock.now(), 1)
    assert g.stalled and g.counters.stalls == 1
    assert d.action is Action.CREATE and d.due_to_stall
    assert g.counters.thread_creations_due_to_stall == 1
    # stalled lifts the oversubscribe limit until some thread returns from get_event
    g.active_count = 1 + cfg.oversubscribe
    assert not policy.too_many_threads(g, cfg)
    policy.get_event_done(g)
    assert not g.stalled and policy.too_many_threads(g, cfg)


def test_check_stall_no_stall_when_something_was_dequeued(clock, cfg):
    g = group(thread_count=2, active_count=1, connection_count=3, listener="L")
    policy.queue_put(g, "waiting", Priority.LOW, clock.now())
    g.io_event_count = 1
    g.queue_event_count = 3
    assert policy.check_stall(g, cfg, clock.now(), 2).action is Action.NONE
    assert not g.stalled
    assert g.queue_event_count == 0 and g.io_event_count == 0  # reset for the next tick


def test_check_stall_missing_listener_without_io_keeps_counters(clock, cfg):
    g = group(thread_count=1, active_count=1, connection_count=2, listener=None)
    g.queue_event_count = 5
    d = policy.check_stall(g, cfg, clock.now(), 1)
    assert d.action is Action.CREATE and d.due_to_stall
    assert g.queue_event_count == 5  # MariaDB returns before resetting on this path


def test_timer_does_not_fight_the_low_queue_freeze(clock, cfg):
    g = group(thread_count=5, active_count=1, waiting_count=4, connection_count=9,
              listener="L", io_event_count=1)
    policy.queue_put(g, "frozen", Priority.LOW, clock.now())
    assert policy.check_stall(g, cfg, clock.now(), 5).action is Action.NONE
    assert not g.stalled
    # nobody active, lock waiters at the limit: a worker it woke would freeze the queue the
    # moment it asked (it is active itself), so the timer does not wake one
    g = group(thread_count=4, active_count=0, waiting_count=1 + cfg.oversubscribe,
              connection_count=9, listener="L", io_event_count=1)
    policy.queue_put(g, "frozen", Priority.LOW, clock.now())
    assert policy.check_stall(g, cfg, clock.now(), 4).action is Action.NONE


def test_two_cpu_bound_statements_second_starts_one_tick_later(clock):
    """Simulated: one group, stall_limit 100 ms; a CPU-bound statement runs on the listener's
    thread, a second one queues. Nothing dequeues, so at the next tick the group is stalled and
    gets a thread for the second statement: it starts one stall limit later, not after the
    first ends."""
    cfg = PoolConfig(stall_limit_ms=100, oversubscribe=3)
    g = group(thread_count=1, active_count=1, connection_count=2, listener=None)
    start = clock.now()
    policy.queue_put(g, "second", Priority.LOW, clock.now())
    g.io_event_count = 2  # the listener saw both, took the first itself
    g.queue_event_count = 1
    clock.advance_ms(100)
    d = policy.check_stall(g, cfg, clock.now(), 1)  # tick 1: the listener is gone but I/O
    assert d.action is Action.NONE            # happened since the last tick
    clock.advance_ms(100)
    d = policy.check_stall(g, cfg, clock.now(), 1)  # tick 2: no listener, no I/O
    assert d.action is Action.CREATE
    # the new thread dequeues "second" (it is within the limit)
    entry = policy.queue_get(g, cfg, clock.now(), by_listener=False)
    assert entry.item == "second"
    assert clock.now() - start == pytest.approx(2 * cfg.stall_limit_ms / 1000)


# --- transactions limit (MySQL Enterprise) --------------------------------------------------------

def test_transaction_limit_holds_new_transactions_but_not_running_ones(clock):
    cfg = PoolConfig(max_transactions_limit=1, group_count=1)
    g = group()
    policy.queue_put(g, "t1", Priority.LOW, clock.now(), held=True, new_trx=True)
    policy.queue_put(g, "t2", Priority.LOW, clock.now(), held=True, new_trx=True)
    policy.queue_put(g, "in-trx", Priority.HIGH, clock.now())
    assert policy.queue_get(g, cfg, clock.now(), by_listener=False).item == "in-trx"
    assert policy.queue_get(g, cfg, clock.now(), by_listener=False).item == "t1"
    assert list(g.trx_started) == ["t1"]
    assert policy.queue_get(g, cfg, clock.now(), by_listener=False) is None  # t2 waits
    trxlimit.transaction_done(g, "t1")
    assert policy.queue_get(g, cfg, clock.now(), by_listener=False).item == "t2"


# --- idle timeouts ---------------------------------------------------------------------------------

def test_wait_timeout_never_kills_a_connection_with_a_request_waiting(clock):
    deadline = policy.idle_deadline(clock.now(), 5)
    clock.advance(6)
    assert policy.should_expire(deadline, clock.now(), readable=False)
    assert not policy.should_expire(deadline, clock.now(), readable=True)


def test_ps1095_large_stall_limit_still_times_out(clock):
    """Percona PS-1095: with stall_limit > 2.1 s a 32-bit product overflowed and idle
    connections were never timed out. Floats do not overflow: ticks of 4.5 s expire a 1 s
    wait_timeout at the first tick after it passes."""
    cfg = PoolConfig(stall_limit_ms=4500)
    deadline = policy.idle_deadline(clock.now(), 1)
    ticks = 0
    while not policy.should_expire(deadline, clock.now(), readable=False):
        clock.advance_ms(cfg.stall_limit_ms)
        ticks += 1
    assert ticks == 1


# --- regressions from the reference pools ----------------------------------------------------------

def test_mdev_33070_worker_dequeues_after_kill_at_the_oversubscribe_limit(clock):
    """MariaDB MDEV-33070: 1 group, dedicated listener, oversubscribe 1, max_threads 3. Two
    sleepers hold both workers; an INSERT is queued; KILL QUERY ends one sleep. The freed worker
    must dequeue the INSERT rather than go to sleep (the stall limit is 10 s: no rescue)."""
    cfg = PoolConfig(oversubscribe=1, max_threads=3, dedicated_listener=True,
                     stall_limit_ms=10000)
    g = group(thread_count=3, active_count=2, connection_count=5, listener="L")
    # both workers enter SLEEP(): wait_begin twice
    assert policy.wait_begin(g, cfg, clock.now(), 3).action is Action.NONE
    assert policy.wait_begin(g, cfg, clock.now(), 3).action is Action.NONE
    # the INSERT arrives; the dedicated listener queues it and finds nobody to wake or create
    policy.queue_put(g, "insert", Priority.LOW, clock.now())
    assert policy.after_listener_enqueue(g, cfg, clock.now(), 3).action is Action.NONE
    # KILL QUERY: the first sleeper's wait ends, its statement fails, it calls get_event
    policy.wait_end(g)
    assert not policy.too_many_threads(g, cfg)
    entry = policy.queue_get(g, cfg, clock.now(), by_listener=False)
    assert entry is not None and entry.item == "insert"


def test_lp1619559_lock_holder_is_not_stuck_behind_a_frozen_low_queue(clock, cfg):
    """Percona lp#1619559: a LOCK TABLES (or user lock) holder outside a transaction waited in
    the LOW queue while SELECTs that wait for its lock filled the group: a permanent deadlock.
    Lock holders are HIGH priority, and HIGH is never frozen."""
    g = group(thread_count=6, active_count=0, waiting_count=1 + cfg.oversubscribe + 1,
              connection_count=8, listener="L")
    holder = Snap(in_transaction=False, holds_locks=True)
    prio = choose_priority(holder, tickets=4294967295)
    assert prio is Priority.HIGH
    policy.queue_put(g, "blocked-select", Priority.LOW, clock.now())
    policy.queue_put(g, "UNLOCK TABLES", prio, clock.now())
    assert policy.low_queue_frozen(g, cfg)
    assert policy.queue_get(g, cfg, clock.now(), by_listener=False).item == "UNLOCK TABLES"


def test_max_unused_threads_caps_sleepers():
    assert policy.may_sleep(PoolConfig(max_unused_threads=0), 1000)
    assert policy.may_sleep(PoolConfig(max_unused_threads=2), 1)
    assert not policy.may_sleep(PoolConfig(max_unused_threads=2), 2)


def test_woke_up_by_timeout_leaves_the_waiting_list():
    g = group(thread_count=2, active_count=1)
    policy.go_to_sleep(g, "w")
    assert g.waiting == ["w"] and g.active_count == 0
    policy.woke_up(g, "w", signalled=False)
    assert g.waiting == [] and g.active_count == 1
