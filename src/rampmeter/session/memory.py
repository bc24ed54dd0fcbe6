"""Memory_used / Max_memory_used: the memory a session holds, as MariaDB's status variables.

Rules:
- MariaDB counts the bytes each THD has allocated (its variables, user variables, prepared
  statements, diagnostics area, network buffers): session Memory_used is that of the session,
  GLOBAL Memory_used the sum over all sessions, session Max_memory_used its peak, and GLOBAL
  Max_memory_used is NULL ("we cannot calculate this", memory_used.test).
- rampmeter measures the Python objects a session owns, with sys.getsizeof: the session object,
  its copy of the session variables, its status counters, user variables, prepared statements
  and warnings. Objects shared with other sessions (interned names, the global defaults a
  variable's value still points at) are not counted, as MariaDB does not count them to a THD.
- The peak adds the largest output buffer the connection has filled (net/connection.py records
  it in Session.out_peak at each flush): a statement's result set is held there until it is
  sent. It is folded into the peak when the status is read, so the per-statement path costs
  one comparison per flush and nothing more. It adds too the largest read buffer the
  connection has asked the socket for (Session.in_peak: 16 KiB, 256 KiB in a bulk upload), as
  MariaDB counts its net buffer (net_buffer_length, 16 KiB) to the THD.
- Nothing is measured on the statement path; reading the status walks the session's containers
  (a few hundred objects).
- max_session_mem_used: MariaDB kills a statement (1290 "... running with the
  --max-session-mem-used=N option ...") at its first allocation past the limit. A statement
  here needs what the session holds plus a working block (MariaDB's query_alloc_block_size,
  16 KiB, is the least a statement's memory root takes): when that passes the limit, every
  statement but SET (which allocates nothing there, so `SET max_session_mem_used = DEFAULT`
  gets a session out) fails. While the limit is the default, the statement path pays one
  dictionary read for it (statements.execute tests the value before calling in here).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rampmeter.session.session import Session


def _sized(values: Any) -> int:
    return sum(sys.getsizeof(v) for v in values)


def held(s: Session) -> int:
    """The bytes the session holds between statements."""
    size = sys.getsizeof
    total = size(s) + size(s.vars) + size(s.counters) + size(s.warnings)
    total += _sized(w.message for w in tuple(s.warnings))
    user_vars = tuple(s.user_vars.items())  # another session may be changing them
    total += size(s.user_vars) + _sized(k for k, _ in user_vars) + _sized(v for _, v in user_vars)
    for table in (s.prepared, s.sql_prepared):
        total += size(table)
        for stmt in tuple(table.values()):
            total += size(stmt) + size(stmt.sql) + size(stmt.columns)
    return total


def session_values(s: Session) -> tuple[int, int]:
    """(Memory_used, Max_memory_used) of one session; the peak is updated here."""
    now = held(s)
    peak = max(s.memory_peak, now + s.out_peak + s.in_peak)
    s.memory_peak = peak
    return now, peak


def global_used(sessions: Any) -> int:
    return sum(held(x) for x in sessions)


STATEMENT_BLOCK = 16384
NO_LIMIT = 2**62  # at or above: no limit (the default is 2**63 - 1)


def refuse_over_limit(s: Session, words: Sequence[str]) -> None:
    """1290 for a statement that would pass max_session_mem_used (module rules)."""
    limit = s.vars.get("max_session_mem_used")
    if limit is None or limit >= NO_LIMIT or words and words[0] == "SET":
        return
    if held(s) + STATEMENT_BLOCK > limit:
        from rampmeter import errors
        from rampmeter.errors import ServerError
        raise ServerError(errors.ER_OPTION_PREVENTS_STATEMENT,
                          f"--max-session-mem-used={limit}")
