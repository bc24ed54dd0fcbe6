"""ratelog.py on a virtual clock: a burst is written, a flood is counted not written, and the
next line written says how many were left out."""

from __future__ import annotations

import logging

from rampmeter.ratelog import RateLimitedLog


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_flood_is_bounded_and_the_next_line_counts_what_was_left_out(caplog):
    clock = _Clock()
    limited = RateLimitedLog(burst=5, rate=2.0, clock=clock)
    log = logging.getLogger("t.ratelog")
    with caplog.at_level(logging.INFO, logger="t.ratelog"):
        written = [limited.log(log, "k", logging.INFO, "line %d", i) for i in range(1000)]
        assert sum(written) == 5 and limited.suppressed == 995
        clock.now += 0.5  # one token back
        assert limited.log(log, "k", logging.INFO, "after")
        assert limited.log(log, "other", logging.INFO, "another kind is not limited by this one")
    texts = [r.getMessage() for r in caplog.records]
    assert texts[:5] == [f"line {i}" for i in range(5)]
    assert texts[5] == "after (and 995 more like it were not logged: rate limit)"
    assert len(texts) == 7
