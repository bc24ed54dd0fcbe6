"""The arithmetic of the Sort_* / Handler_read_* counters (engine/sqlite/sortstats.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from rampmeter.engine.sqlite import sortstats

pytestmark = pytest.mark.timeout(10)


def test_merge_passes_follow_filesorts_chunks():
    assert sortstats._merge_passes(100, 20, 32768) == 0      # fits: no chunk written
    assert sortstats._merge_passes(114, 19, 1024) == 1       # 3 chunks: one final merge
    # 100 chunks: merges of 7 while more than 15 are left (15 of them), then the final one
    assert sortstats._merge_passes(100 * 50, 20, 1000) == 15 + 1
    assert sortstats._merge_passes(200 * 50, 20, 1000) == 29 + 5 + 1


def test_limit_forms():
    assert sortstats._limit("SELECT a FROM t ORDER BY a LIMIT 5") == (5, 0)
    assert sortstats._limit("SELECT a FROM t ORDER BY a LIMIT 2, 5") == (5, 2)
    assert sortstats._limit("SELECT a FROM t ORDER BY a LIMIT 5 OFFSET 3;") == (5, 3)
    assert sortstats._limit("SELECT a FROM t ORDER BY a") == (None, 0)


def test_index_reads_count_the_read_past_the_end():
    c: Counter[str] = Counter()
    sortstats._index_reads(c, "first", 3, 3)          # LIMIT 3 stops at the third row
    assert (c["Handler_read_first"], c["Handler_read_next"]) == (1, 2)
    c.clear()
    sortstats._index_reads(c, "last", 4, None)        # to the start: one more read
    assert (c["Handler_read_last"], c["Handler_read_prev"]) == (1, 4)
    c.clear()
    sortstats._index_reads(c, "key", 2, None)         # a range: its end is read too
    assert (c["Handler_read_key"], c["Handler_read_next"]) == (1, 2)
