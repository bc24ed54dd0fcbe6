"""`waiting(reason)`: the blocking hook handed to engines and used by the network code.

Rules:
- A handler thread registers itself with `bind_thread(handler)` before it calls handle(); the
  hook then calls that handler's wait_begin / wait_end around the blocking section. Threads that
  belong to no handler (tests, the shutdown path) pass straight through.
- Nested waits count once (MariaDB keeps a per-connection counter; one thread serves a
  connection at a time, so a per-thread depth is the same thing).
- Every outermost wait is counted by reason for information_schema.THREAD_POOL_WAITS; the
  counters are global, not per group, as in MariaDB.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rampmeter.engine.base import WaitReason

if TYPE_CHECKING:
    from rampmeter.pool.base import ConnectionHandler

_local = threading.local()
_counts_lock = threading.Lock()
_counts: dict[WaitReason, int] = {reason: 0 for reason in WaitReason}


def bind_thread(handler: ConnectionHandler | None) -> None:
    _local.handler = handler
    _local.depth = 0


@contextmanager
def waiting(reason: WaitReason) -> Iterator[None]:
    depth = getattr(_local, "depth", 0)
    handler = getattr(_local, "handler", None)
    if depth:
        _local.depth = depth + 1
        try:
            yield
        finally:
            _local.depth -= 1
        return
    with _counts_lock:
        _counts[reason] += 1
    _local.depth = 1
    if handler is not None:
        handler.wait_begin(reason)
    try:
        yield
    finally:
        _local.depth = 0
        if handler is not None:
            handler.wait_end()


def wait_counts() -> dict[WaitReason, int]:
    with _counts_lock:
        return dict(_counts)


def wait_rows() -> list[tuple[str, int]]:
    """information_schema.THREAD_POOL_WAITS: (REASON, COUNT) in MariaDB's order."""
    counts = wait_counts()
    return [(reason.name, counts[reason]) for reason in WaitReason]


def flush_wait_counts() -> None:
    """FLUSH THREAD_POOL_WAITS."""
    with _counts_lock:
        for reason in _counts:
            _counts[reason] = 0
