"""How the built-in workloads split a step's connections into roles."""

from __future__ import annotations

import random

import pytest

from rampmeter.bench.workloads import WORKLOADS, Settings, sb_string

pytestmark = pytest.mark.timeout(30)
S = Settings()


def roles(name: str, conns: int) -> dict[str, int]:
    return {r.name: r.count for r in WORKLOADS[name].plan(conns, S)}


def test_every_plan_uses_exactly_the_step_connections() -> None:
    for name, w in WORKLOADS.items():
        for conns in (1, 2, 4, 16, 64, 2048):
            plan = w.plan(conns, S)
            assert sum(r.count for r in plan) == conns, name
            assert plan[0].name == w.main_class and plan[0].count >= 1, name


def test_sleepers_keep_a_share_asleep_and_one_worker_awake() -> None:
    assert roles("sleepers", 1) == {"select": 1, "sleep": 0}
    assert roles("sleepers", 64) == {"select": 32, "sleep": 32}


def test_long_short_has_a_few_long_ones() -> None:
    assert roles("long_short", 1) == {"short": 1, "long": 0}
    assert roles("long_short", 4) == {"short": 2, "long": 2}
    assert roles("long_short", 1024) == {"short": 1022, "long": 2}


def test_idle_crowd_keeps_a_fixed_busy_set() -> None:
    assert roles("idle_crowd", 2) == {"select": 2, "idle": 0}
    assert roles("idle_crowd", 2048) == {"select": 4, "idle": 2044}
    assert [r.event for r in WORKLOADS["idle_crowd"].plan(8, S)][1] is None


def test_sysbench_strings() -> None:
    c = sb_string(random.Random(1), 10)
    assert len(c) == 119 and c.count("-") == 9  # fits CHAR(120)
    assert len(sb_string(random.Random(1), 5)) == 59  # fits CHAR(60)
