"""Group assignment and load balancing (sched/balance.py) on a VirtualClock: where a new
connection goes, when an idle one may move, and that moves converge without bouncing."""

from __future__ import annotations

import random

import pytest

from rampmeter.sched import balance
from rampmeter.sched.balance import MARGIN, LoadHistory, Move, assign, may_move, plan_moves
from rampmeter.sched.clock import VirtualClock

TICK = 0.5  # thread_pool_stall_limit = 500 ms


def histories(*pairs: tuple[int, int]) -> list[LoadHistory]:
    out = []
    for previous, current in pairs:
        h = LoadHistory()
        h.sample(previous)
        h.sample(current)
        out.append(h)
    return out


# --- assignment of new connections -----------------------------------------------------------

def test_a_quiet_pool_assigns_exactly_as_modulo():
    for cid in range(1, 40):
        assert assign(cid, [0, 0, 0, 0], [0, 0, 0, 0]) == cid % 4


def test_a_new_connection_avoids_hot_groups_then_takes_the_fewest_connections():
    # group 1 is hot (load 5 against a floor of 0); among the cool ones group 2 has fewest
    assert assign(4, [3, 0, 2, 3], [0, 5, 1, 0]) == 2
    # equal counts: the first cool group after id % size
    assert assign(5, [2, 2, 2, 2], [0, 6, 0, 0]) == 2
    # load within the margin of the floor is not hot
    assert assign(1, [5, 1], [1, 2]) == 1


def test_assignment_skips_retired_groups_and_works_before_the_first_tick():
    assert assign(3, [9, 0, 0], [], eligible=[True, True, False]) == 1
    assert assign(7, [1, 1, 1], ()) == 1


def test_a_storm_of_connects_between_two_ticks_spreads_by_count():
    counts = [0, 0]
    loads = [0, 4]  # group 1 was busy at the last tick
    for cid in range(100, 120):
        counts[assign(cid, counts, loads)] += 1
    assert counts == [20, 0]  # the hot group gets none...
    loads = [1, 1]            # ...until a tick says it is not hot any more
    for cid in range(120, 160):
        counts[assign(cid, counts, loads)] += 1
    assert counts == [30, 30]


# --- the plan a tick makes -------------------------------------------------------------------

def test_no_move_below_the_margin():
    assert plan_moves(histories((1, 1), (0, 0))) == [balance.STAY, balance.STAY]
    assert plan_moves(histories((3, 3), (2, 2), (2, 2))) == [balance.STAY] * 3


def test_one_tick_s_burst_moves_nothing():
    # group 0 spikes to 6 at one tick only: the sustained level is the lower sample
    assert plan_moves(histories((0, 6), (0, 0))) == [balance.STAY, balance.STAY]
    # and a destination that was busy at either tick is not "low"
    assert plan_moves(histories((6, 6), (5, 0))) == [balance.STAY, balance.STAY]


def test_a_sustained_imbalance_moves_half_the_gap_to_the_least_loaded_group():
    moves = plan_moves(histories((4, 5), (1, 0), (0, 0)))
    assert moves[0] == Move(target=2, budget=2)   # gap 4 - 0
    assert moves[1:] == [balance.STAY, balance.STAY]


def test_two_sources_do_not_overfill_one_destination():
    moves = plan_moves(histories((6, 6), (6, 6), (0, 0), (2, 2)))
    # group 0 sends 3 to group 2 (then counted 3 and 3); group 1 then sees group 3 as the
    # least loaded (2) and sends 2 there: estimates end 3, 4, 3, 4, not 3, 6, 6, 2.
    assert moves == [Move(2, 3), Move(3, 2), balance.STAY, balance.STAY]


def test_retired_groups_receive_nothing_and_are_drained_first():
    moves = plan_moves(histories((3, 3), (0, 0), (0, 0)), eligible=[True, True, False])
    assert moves[0].target == 1


# --- may this connection move now -------------------------------------------------------------

def test_only_idle_connections_outside_transactions_and_locks_move_and_then_stay_put():
    clock = VirtualClock()
    move = Move(1, 1)
    kw = {"moved_at": float("-inf"), "now": clock.now(), "tick_s": TICK}
    assert may_move(move, in_transaction=False, holds_locks=False, **kw)
    assert not may_move(move, in_transaction=True, holds_locks=False, **kw)
    assert not may_move(move, in_transaction=False, holds_locks=True, **kw)
    assert not may_move(Move(1, 0), in_transaction=False, holds_locks=False, **kw)
    assert not may_move(balance.STAY, in_transaction=False, holds_locks=False, **kw)
    moved_at = clock.now()
    clock.advance(TICK * (balance.COOLDOWN_TICKS - 1))
    assert not may_move(move, in_transaction=False, holds_locks=False, moved_at=moved_at,
                        now=clock.now(), tick_s=TICK)
    clock.advance(TICK)
    assert may_move(move, in_transaction=False, holds_locks=False, moved_at=moved_at,
                    now=clock.now(), tick_s=TICK)


# --- the whole loop: ticks, plans, command boundaries ------------------------------------------

class Sim:
    """Groups of connections with a load each (1: a long statement always running; 0: idle).
    Every tick samples the groups, plans, then lets every connection pass a command boundary
    in random order, as the pool does between two ticks."""

    def __init__(self, groups: list[list[float]], seed: int = 1) -> None:
        self.clock = VirtualClock()
        self.rng = random.Random(seed)
        self.conns = [{"load": w, "group": g, "moved_at": float("-inf"), "path": [g]}
                      for g, ws in enumerate(groups) for w in ws]
        self.hist = [LoadHistory() for _ in groups]
        self.moves = 0

    def loads(self, noise: int = 0) -> list[int]:
        out = [0] * len(self.hist)
        for c in self.conns:
            out[c["group"]] += c["load"]
        return [round(x) + self.rng.randint(0, noise) for x in out]

    def tick(self, noise: int = 0) -> None:
        self.clock.advance(TICK)
        for h, load in zip(self.hist, self.loads(noise)):
            h.sample(load)
        plan = plan_moves(self.hist)
        budget = {i: m for i, m in enumerate(plan)}
        order = list(self.conns)
        self.rng.shuffle(order)
        for c in order:
            m = budget[c["group"]]
            if may_move(m, in_transaction=False, holds_locks=False, moved_at=c["moved_at"],
                        now=self.clock.now(), tick_s=TICK):
                budget[c["group"]] = m._replace(budget=m.budget - 1)
                c["group"], c["moved_at"] = m.target, self.clock.now()
                c["path"].append(m.target)
                self.moves += 1


def test_two_long_statements_in_one_group_are_split_and_stay_split():
    # Idle connections (load 0) pass command boundaries too and may be the ones that move
    # first; moving them changes nothing, so the plan goes on until a long one has moved.
    sim = Sim([[1, 1, 0, 0, 0], [0, 0, 0, 0, 0]])
    for _ in range(40):
        sim.tick()
    assert sorted(c["group"] for c in sim.conns if c["load"] == 1) == [0, 1]
    assert all(len(c["path"]) <= 2 for c in sim.conns)  # nobody moved twice
    settled = sim.moves
    for _ in range(40):
        sim.tick()
    assert sim.moves == settled


@pytest.mark.parametrize("seed", range(5))
def test_many_groups_converge_and_no_connection_ever_returns(seed):
    rng = random.Random(seed)
    groups = [[1.0] * rng.randint(0, 8) + [0.0] * rng.randint(0, 8) for _ in range(6)]
    sim = Sim(groups, seed)
    for _ in range(100):
        sim.tick()
    loads = sim.loads()
    assert max(loads) - min(loads) < MARGIN
    for c in sim.conns:
        # no A -> B -> A: a connection never goes back to a group it left
        assert len(c["path"]) == len(set(c["path"])), c["path"]
    settled = sim.moves
    for _ in range(50):
        sim.tick()
    assert sim.moves == settled  # balanced: nothing moves any more


def test_noisy_samples_do_not_make_connections_bounce():
    # Two balanced groups whose samples jitter by up to one queued request each tick.
    sim = Sim([[1, 1, 0, 0], [1, 1, 0, 0]], seed=7)
    for _ in range(200):
        sim.tick(noise=1)
    assert sim.moves == 0
