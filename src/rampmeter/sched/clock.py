"""Clocks for the scheduling policy: the real monotonic clock, and a virtual one for tests.

Every policy function takes `now` (seconds, float) from one of these; nothing in sched/ reads
the wall clock itself, so a test can drive stall detection, kick-up and throttling through
minutes of virtual time without sleeping (trio's MockClock is the model).
Times are floats in seconds: no 32-bit overflow for long stall limits (Percona PS-1095 was a
32-bit `tick_interval * 1000000`).
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...


class MonotonicClock:
    def now(self) -> float:
        return time.monotonic()


class VirtualClock:
    def __init__(self, start: float = 1000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError("time does not go backwards")
        self._now += seconds
        return self._now

    def advance_ms(self, ms: float) -> float:
        return self.advance(ms / 1000.0)
