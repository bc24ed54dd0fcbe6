"""MySQL Enterprise's transaction limit, delay and long-transaction escape, and the snapshot's
priority rules (logins, tickets), on a virtual clock. No threads, no sleeps."""

from __future__ import annotations

import pytest

from rampmeter.sched import policy, trxlimit
from rampmeter.sched.clock import VirtualClock
from rampmeter.sched.policy import GroupState, PoolConfig
from rampmeter.sched.priority import Priority, choose_priority, spend_ticket
from rampmeter.sched.snapshot import SessionSnapshot

pytestmark = pytest.mark.timeout(10)

IDLE = SessionSnapshot(logged_in=True)


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


def put(g: GroupState, item: str, snap: SessionSnapshot, now: float, *, leaving: bool = False,
        prio: Priority = Priority.LOW) -> None:
    held, new_trx = trxlimit.classify(snap, leaving=leaving)
    policy.queue_put(g, item, prio, now, held=held, new_trx=new_trx)


def get(g: GroupState, cfg: PoolConfig, now: float) -> str | None:
    entry = policy.queue_get(g, cfg, now, by_listener=False)
    return None if entry is None else entry.item


def test_what_the_limit_holds_back_and_what_it_never_does():
    assert trxlimit.classify(IDLE, leaving=False) == (True, True)           # new transaction
    assert trxlimit.classify(SessionSnapshot(), leaving=False) == (True, False)  # a login
    never = [IDLE._replace(killed=True),           # KILL, wait_timeout: closing
             IDLE._replace(in_transaction=True),   # its transaction holds a slot already
             IDLE._replace(admin=True)]            # TP_CONNECTION_ADMIN / extra_port
    for snap in never:
        assert trxlimit.classify(snap, leaving=False) == (False, False)
    assert trxlimit.classify(IDLE, leaving=True) == (False, False)  # COM_QUIT + close, hang-up


def test_quit_kill_and_timeout_pass_a_full_group(clock):
    cfg = PoolConfig(max_transactions_limit=1, group_count=1, longrun_trx_limit_ms=0)
    g = GroupState(0)
    put(g, "trx-a", IDLE, clock.now())
    assert get(g, cfg, clock.now()) == "trx-a"          # takes the only slot
    put(g, "new-trx", IDLE, clock.now())
    put(g, "login", SessionSnapshot(), clock.now(), prio=Priority.HIGH)
    put(g, "quitter", IDLE, clock.now(), leaving=True, prio=Priority.HIGH)
    put(g, "killed", IDLE._replace(killed=True), clock.now(), prio=Priority.HIGH)
    put(g, "expired", IDLE._replace(killed=True), clock.now(), prio=Priority.HIGH)
    got = [get(g, cfg, clock.now()) for _ in range(4)]
    assert got == ["quitter", "killed", "expired", None]  # the login and new-trx wait
    trxlimit.transaction_done(g, "trx-a")
    assert get(g, cfg, clock.now()) == "login"
    assert get(g, cfg, clock.now()) == "new-trx"


def test_long_transactions_suspend_the_limit_of_their_group(clock):
    cfg = PoolConfig(max_transactions_limit=2, group_count=1, longrun_trx_limit_ms=2000)
    g = GroupState(0)
    for name in ("old-1", "old-2"):
        put(g, name, IDLE, clock.now())
        assert get(g, cfg, clock.now()) == name
    put(g, "waiting", IDLE, clock.now())
    clock.advance_ms(1999)
    assert get(g, cfg, clock.now()) is None
    clock.advance_ms(2)  # every slot is held by a transaction older than 2 s
    assert trxlimit.suspended(g, cfg, clock.now())
    assert get(g, cfg, clock.now()) == "waiting"
    # three transactions now: the youngest is young again, so the limit is back
    put(g, "next", IDLE, clock.now())
    assert get(g, cfg, clock.now()) is None
    trxlimit.transaction_done(g, "waiting")
    # old-1 and old-2 fill both slots again, but they are long: suspended again
    assert get(g, cfg, clock.now()) == "next"


def test_longrun_zero_never_suspends(clock):
    cfg = PoolConfig(max_transactions_limit=1, group_count=1, longrun_trx_limit_ms=0)
    g = GroupState(0)
    put(g, "a", IDLE, clock.now())
    get(g, cfg, clock.now())
    put(g, "b", IDLE, clock.now())
    clock.advance(3600)
    assert get(g, cfg, clock.now()) is None


def test_limit_is_divided_among_groups_and_transactions_are_counted_without_it(clock):
    assert trxlimit.limit_for_group(PoolConfig(max_transactions_limit=10, group_count=4)) == 2
    assert trxlimit.limit_for_group(PoolConfig(max_transactions_limit=1, group_count=4)) == 1
    assert trxlimit.limit_for_group(PoolConfig()) == 0
    g = GroupState(0)
    put(g, "a", IDLE, clock.now())
    get(g, PoolConfig(), clock.now())
    assert list(g.trx_started) == ["a"]  # so a limit set later counts what is open


def test_timer_does_not_create_threads_for_held_back_work(clock):
    cfg = PoolConfig(max_transactions_limit=1, group_count=1, longrun_trx_limit_ms=0)
    g = GroupState(0, thread_count=1, active_count=0, connection_count=3, listener="L",
                   io_event_count=1)
    put(g, "a", IDLE, clock.now())
    get(g, cfg, clock.now())
    put(g, "b", IDLE, clock.now())
    g.queue_event_count = 0
    assert policy.check_stall(g, cfg, clock.now(), 1).action is policy.Action.NONE
    assert not g.stalled


def test_transaction_delay_applies_to_new_transactions_only():
    cfg = PoolConfig(transaction_delay_ms=250)
    assert trxlimit.delay(cfg, new_trx=True) == pytest.approx(0.25)
    assert trxlimit.delay(cfg, new_trx=False) == 0
    assert trxlimit.delay(PoolConfig(), new_trx=True) == 0


def test_logins_and_kills_are_high_and_spend_no_tickets():
    login = SessionSnapshot(in_transaction=False)
    assert choose_priority(login, 0) is Priority.HIGH
    assert spend_ticket(Priority.HIGH, 5, login) == 5
    killed = IDLE._replace(killed=True, high_prio_tickets=7)
    assert choose_priority(killed, 0) is Priority.HIGH
    assert spend_ticket(Priority.HIGH, 0, killed) == 0


def test_tickets_refill_to_the_sessions_value():
    snap = IDLE._replace(in_transaction=True, high_prio_tickets=1)
    assert choose_priority(snap, 1) is Priority.HIGH
    assert spend_ticket(Priority.HIGH, 1, snap) == 0
    assert choose_priority(snap, 0) is Priority.LOW
    assert spend_ticket(Priority.LOW, 0, snap) == 1
