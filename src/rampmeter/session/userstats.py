"""information_schema.USER_STATISTICS: MariaDB's per-account counters (@@userstat, the
userstat plugin's table, FLUSH USER_STATISTICS).

Rules:
- Counted only while @@global.userstat is ON, as MariaDB: a connection that logs in while it
  is ON is counted (TOTAL_CONNECTIONS) and its activity from the end of its login on; its
  counts are added to its user's row when it ends, and a live connection's so far are added
  when the table is read (CONCURRENT_CONNECTIONS counts those). Nothing runs per statement.
- The counts come from the session's status counters (status.py): BYTES_RECEIVED /
  BYTES_SENT after the login (MariaDB's userstat-badlogin-4824: a `select 1` and a COM_QUIT
  are 18 bytes), SELECT_COMMANDS = Com_select, UPDATE_COMMANDS = Com_insert / update /
  delete / replace / load, OTHER_COMMANDS the other statements, COMMIT_TRANSACTIONS /
  ROLLBACK_TRANSACTIONS = Com_commit / Com_rollback, MAX_STATEMENT_TIME_EXCEEDED;
  CONNECTED_TIME in seconds. DENIED_CONNECTIONS counts refused logins, one each (MariaDB
  10.11 was seen to count 2 for a wrong password: its second count is not reproduced).
- What rampmeter does not measure stays 0 (BUSY_TIME, CPU_TIME, BINLOG_BYTES_WRITTEN, ROWS_*,
  LOST_CONNECTIONS, ACCESS_DENIED, EMPTY_QUERIES): MariaDB's optimizer / handler counters
  are not faked.
- FLUSH USER_STATISTICS empties the table; live connections count again from then.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

from rampmeter.session.tpstatus import columns

if TYPE_CHECKING:
    from rampmeter.session.session import Session

COLUMNS = columns(
    "USER:text, TOTAL_CONNECTIONS:int, CONCURRENT_CONNECTIONS:int, CONNECTED_TIME:int, "
    "BUSY_TIME:double, CPU_TIME:double, BYTES_RECEIVED:int, BYTES_SENT:int, "
    "BINLOG_BYTES_WRITTEN:int, ROWS_READ:int, ROWS_SENT:int, ROWS_DELETED:int, "
    "ROWS_INSERTED:int, ROWS_UPDATED:int, SELECT_COMMANDS:int, UPDATE_COMMANDS:int, "
    "OTHER_COMMANDS:int, COMMIT_TRANSACTIONS:int, ROLLBACK_TRANSACTIONS:int, "
    "DENIED_CONNECTIONS:int, LOST_CONNECTIONS:int, ACCESS_DENIED:int, EMPTY_QUERIES:int, "
    "TOTAL_SSL_CONNECTIONS:int, MAX_STATEMENT_TIME_EXCEEDED:int")
_NAMES = [c.name for c in COLUMNS[1:]]
_UPDATES = ("Com_insert", "Com_update", "Com_delete", "Com_replace", "Com_load")


class UserStatistics:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: dict[str, Counter[str]] = {}

    def _add(self, user: str, counts: Counter[str]) -> None:
        with self._lock:
            self._rows.setdefault(user, Counter()).update(counts)

    def flush(self, live: list[Session]) -> None:
        with self._lock:
            self._rows.clear()
        for s in live:
            if s.userstat_base is not None:
                s.userstat_base = _snapshot(s)

    def rows(self, live: list[Session]) -> list[tuple[Any, ...]]:
        with self._lock:
            rows = {u: Counter(c) for u, c in self._rows.items()}
        for s in live:
            if s.userstat_base is not None:
                counts = _delta(s)
                counts["CONCURRENT_CONNECTIONS"] = 1
                rows.setdefault(s.user, Counter()).update(counts)
        return [(user, *(c[n] for n in _NAMES)) for user, c in sorted(rows.items())]


def _on(s: Session) -> bool:
    return bool(s.ctx.variables["userstat"])


def _snapshot(s: Session) -> tuple[float, Counter[str]]:
    return time.time(), Counter(s.counters)


def _delta(s: Session) -> Counter[str]:
    assert s.userstat_base is not None
    since, base = s.userstat_base
    now = s.counters

    def d(name: str) -> int:
        return max(0, now[name] - base[name])
    updates = sum(d(n) for n in _UPDATES)
    selects = d("Com_select")
    return Counter({
        "CONNECTED_TIME": int(time.time() - since),
        "BYTES_RECEIVED": d("Bytes_received"), "BYTES_SENT": d("Bytes_sent"),
        "SELECT_COMMANDS": selects, "UPDATE_COMMANDS": updates,
        "OTHER_COMMANDS": max(0, d("Questions") - selects - updates),
        "COMMIT_TRANSACTIONS": d("Com_commit"), "ROLLBACK_TRANSACTIONS": d("Com_rollback"),
        "MAX_STATEMENT_TIME_EXCEEDED": d("Max_statement_time_exceeded"),
    })


def logged_in(s: Session) -> None:
    """A connection's login succeeded: counted from here if userstat is ON."""
    if not _on(s):
        s.userstat_base = None
        return
    s.userstat_base = _snapshot(s)
    counts = Counter({"TOTAL_CONNECTIONS": 1})
    if s.tls_active:
        counts["TOTAL_SSL_CONNECTIONS"] = 1
    s.ctx.registry.user_stats._add(s.user, counts)


def ended(s: Session) -> None:
    """A counted connection ends: its counts go to its user's row."""
    if s.userstat_base is not None:
        s.ctx.registry.user_stats._add(s.user, _delta(s))
        s.userstat_base = None


def denied(s: Session, user: str) -> None:
    """A login refused after the password (DENIED_CONNECTIONS)."""
    if _on(s):
        s.ctx.registry.user_stats._add(user, Counter({"DENIED_CONNECTIONS": 1}))


def table(s: Session) -> tuple[list[Any], list[tuple[Any, ...]]]:
    return COLUMNS, s.ctx.registry.user_stats.rows(s.ctx.registry.sessions())
