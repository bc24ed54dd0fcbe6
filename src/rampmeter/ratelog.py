"""Log lines a client can cause, rate-limited so that a flood cannot fill the disk.

Rules:
- Every hostile or failing connection still gets its own line ("Aborted connection ..."), as
  MariaDB writes one, until a flood begins: each kind of line (`key`) has a bucket of BURST
  lines that refills at RATE lines per second. Past it, lines of that kind are counted, not
  written, and the next line written says how many were left out, so the log stays truthful
  ("... (and 4 812 more like it since 12:00:01 were not logged)").
- The worst case is bounded: RATE lines per second per kind, whatever the clients send; with
  the defaults, about 10 lines a second, a few megabytes a day.
- One limiter per server (ServerContext.rate_log; the engine has its own), so servers in one
  process (tests) do not spend each other's budget; a bucket is per logger and kind.
- Thread-safe; clocks come from time.monotonic (tests may pass their own).
- Bottom layer (like errors.py): the engine, the session and the network code all use it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

BURST = 50          # lines written at once before limiting starts
RATE = 10.0         # lines per second after that


class RateLimitedLog:
    def __init__(self, *, burst: int = BURST, rate: float = RATE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[tuple[str, str], list[float]] = {}  # -> [tokens, last refill]
        self._dropped: dict[tuple[str, str], int] = {}
        self.suppressed = 0                          # lines left out in all (a status figure)

    def log(self, logger: logging.Logger, kind: str, level: int, msg: str, *args: object,
            exc_info: bool = False) -> bool:
        """Write the line unless its kind is over the limit; True when it was written."""
        if not logger.isEnabledFor(level):
            return False
        key = (logger.name, kind)
        now = self.clock()
        with self._lock:
            bucket = self._buckets.get(key)
            if bucket is None:
                bucket = self._buckets[key] = [float(self.burst), now]
            bucket[0] = min(float(self.burst), bucket[0] + (now - bucket[1]) * self.rate)
            bucket[1] = now
            if bucket[0] < 1.0:
                self._dropped[key] = self._dropped.get(key, 0) + 1
                self.suppressed += 1
                return False
            bucket[0] -= 1.0
            dropped = self._dropped.pop(key, 0)
        if dropped:
            msg += " (and %d more like it were not logged: rate limit)"
            args = (*args, dropped)
        logger.log(level, msg, *args, exc_info=exc_info)
        return True

