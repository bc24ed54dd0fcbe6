"""LockTable: named, owned, re-entrant exclusive locks with deadlines and cancellation."""

from __future__ import annotations

import threading
import time

import pytest

from rampmeter.engine.locks import WRITE_LOCK, LockTable, WaitAborted

from .conftest import start

A, B = object(), object()


def never() -> bool:
    return False


def test_try_acquire_and_owner() -> None:
    locks = LockTable()
    assert locks.owner_of("x") is None
    assert locks.try_acquire("x", A)
    assert locks.owner_of("x") is A and locks.holds("x", A) and not locks.holds("x", B)
    assert not locks.try_acquire("x", B)
    assert locks.try_acquire("y", B)  # names are independent
    assert locks.try_acquire(WRITE_LOCK, B)


def test_reentrant_holds_need_as_many_releases() -> None:
    locks = LockTable()
    assert locks.try_acquire("x", A)
    assert locks.acquire("x", A, timeout=0, cancelled=never)
    assert locks.try_acquire("x", A)
    assert locks.release("x", A) and locks.release("x", A)
    assert locks.owner_of("x") is A  # one hold left
    assert not locks.try_acquire("x", B)
    assert locks.release("x", A)
    assert locks.owner_of("x") is None
    assert not locks.release("x", A)  # nothing left to release
    assert locks.try_acquire("x", B)


def test_acquire_times_out_with_false() -> None:
    locks = LockTable()
    locks.try_acquire("x", A)
    begin = time.monotonic()
    assert locks.acquire("x", B, timeout=0.05, cancelled=never) is False
    assert 0.04 <= time.monotonic() - begin < 0.5
    assert locks.owner_of("x") is A
    assert locks.acquire("x", B, timeout=0, cancelled=never) is False  # no wait at all


def test_release_by_non_owner_returns_false() -> None:
    locks = LockTable()
    assert not locks.release("never-taken", A)
    locks.try_acquire("x", A)
    assert not locks.release("x", B)
    assert locks.owner_of("x") is A


def test_release_all_with_a_name_filter() -> None:
    locks = LockTable()
    for name in ("user:a", "user:b", WRITE_LOCK):
        locks.try_acquire(name, A)
    locks.try_acquire("user:a", A)  # a second hold counts once
    locks.try_acquire("user:c", B)
    assert locks.release_all(A, names=lambda n: n.startswith("user:")) == 2
    assert locks.owner_of("user:a") is None and locks.owner_of("user:b") is None
    assert locks.owner_of(WRITE_LOCK) is A  # filtered out
    assert locks.owner_of("user:c") is B  # another owner's
    assert locks.release_all(A) == 0  # the default filter skips the '' write lock name
    assert locks.release_all(A, names=lambda n: True) == 1
    assert locks.owner_of(WRITE_LOCK) is None


def test_waiter_gets_the_lock_on_release() -> None:
    locks = LockTable()
    locks.try_acquire("x", A)
    waiting = threading.Event()

    def wait() -> bool:
        waiting.set()
        return locks.acquire("x", B, timeout=5, cancelled=never)

    worker = start(wait)
    assert waiting.wait(2)
    assert locks.release("x", A)
    worker.finish(2)
    assert worker.result is True
    assert locks.owner_of("x") is B


def test_release_all_wakes_waiters() -> None:
    locks = LockTable()
    locks.try_acquire("x", A)
    worker = start(lambda: locks.acquire("x", B, timeout=5, cancelled=never))
    deadline = time.monotonic() + 2
    while locks._locks["x"].waiters == 0:  # observable state: the waiter is registered
        assert time.monotonic() < deadline
        time.sleep(0.001)
    assert locks.release_all(A, names=lambda n: True) == 1
    worker.finish(2)
    assert worker.result is True and locks.owner_of("x") is B


def test_cancelled_waiter_raises_wait_aborted_on_wake_all() -> None:
    locks = LockTable()
    locks.try_acquire("x", A)
    flag = threading.Event()
    worker = start(lambda: locks.acquire("x", B, timeout=30, cancelled=flag.is_set))
    deadline = time.monotonic() + 2
    while "x" not in locks._locks or locks._locks["x"].waiters == 0:
        assert time.monotonic() < deadline
        time.sleep(0.001)
    flag.set()
    locks.wake_all()
    worker.finish(2)
    assert isinstance(worker.error, WaitAborted)
    assert worker.elapsed < 2
    assert locks.owner_of("x") is A


def test_cancelled_before_waiting_aborts_at_once() -> None:
    locks = LockTable()
    locks.try_acquire("x", A)
    with pytest.raises(WaitAborted):
        locks.acquire("x", B, timeout=30, cancelled=lambda: True)
    # but a free lock is taken even by a cancelled owner: nothing to wait for
    assert locks.acquire("y", B, timeout=30, cancelled=lambda: True)


def test_no_bookkeeping_left_behind() -> None:
    locks = LockTable()
    locks.try_acquire("x", A)
    assert not locks.acquire("x", B, timeout=0.01, cancelled=never)
    locks.release("x", A)
    assert locks._locks == {}


def _queued(locks: LockTable, name: str, n: int) -> None:
    deadline = time.monotonic() + 2
    while name not in locks._locks or locks._locks[name].waiters < n:
        assert time.monotonic() < deadline
        time.sleep(0.001)


def test_waiters_are_granted_in_arrival_order_and_newcomers_queue_behind() -> None:
    locks = LockTable()
    C, D = object(), object()
    locks.try_acquire("x", A)
    b = start(lambda: locks.acquire("x", B, timeout=5, cancelled=never))
    _queued(locks, "x", 1)
    c = start(lambda: locks.acquire("x", C, timeout=5, cancelled=never))
    _queued(locks, "x", 2)
    assert not locks.try_acquire("x", D)      # no barging past the queue
    assert locks.release("x", A)
    assert locks.owner_of("x") is B           # handed over at the release, before B runs
    b.finish(2)
    assert b.result is True and locks._locks["x"].waiters == 1
    assert locks.release("x", B)
    c.finish(2)
    assert c.result is True and locks.owner_of("x") is C


def test_a_release_wakes_only_the_waiter_it_grants() -> None:
    # hundreds of sessions queue on the write lock under oltp_read_write; a COMMIT that woke
    # them all cost the server its throughput. A woken waiter re-checks cancelled().
    locks = LockTable()
    C = object()
    c_checked = threading.Event()

    def c_cancelled() -> bool:
        c_checked.set()
        return False

    locks.try_acquire("x", A)
    b = start(lambda: locks.acquire("x", B, timeout=5, cancelled=never))
    _queued(locks, "x", 1)
    c = start(lambda: locks.acquire("x", C, timeout=5, cancelled=c_cancelled))
    _queued(locks, "x", 2)
    assert c_checked.is_set()                 # C checked once before it first waited
    c_checked.clear()
    assert locks.release("x", A)
    b.finish(2)
    assert b.result is True
    assert not c_checked.wait(0.2)            # C was not woken to find the lock taken
    assert locks._locks["x"].waiters == 1
    locks.release("x", B)
    c.finish(2)
    assert c.result is True


def test_a_waiter_that_times_out_leaves_the_queue() -> None:
    locks = LockTable()
    C = object()
    locks.try_acquire("x", A)
    b = start(lambda: locks.acquire("x", B, timeout=0.05, cancelled=never))
    _queued(locks, "x", 1)
    c = start(lambda: locks.acquire("x", C, timeout=5, cancelled=never))
    _queued(locks, "x", 2)
    b.finish(2)
    assert b.result is False and locks._locks["x"].waiters == 1
    locks.release("x", A)
    c.finish(2)
    assert c.result is True and locks.owner_of("x") is C


def test_release_all_hands_each_lock_to_its_first_waiter() -> None:
    locks = LockTable()
    locks.try_acquire("user:a", A)
    locks.try_acquire("user:b", A)
    wa = start(lambda: locks.acquire("user:a", B, timeout=5, cancelled=never))
    _queued(locks, "user:a", 1)
    assert locks.release_all(A, names=lambda n: n.startswith("user:")) == 2
    wa.finish(2)
    assert wa.result is True and locks.owner_of("user:a") is B
    assert locks.owner_of("user:b") is None and "user:b" not in locks._locks
