"""What the pool knows of a session: a small frozen snapshot, taken once after each command.

Rules:
- The session builds a `SessionSnapshot` when a command (or a login round) has finished, on the
  thread that ran it and outside every pool lock; the connection keeps the latest one in a
  plain attribute. The pool reads that attribute and nothing else, so it never calls up into
  the session or the engine while it holds a group lock (MariaDB's tp_callback computes the
  priority the same way, once, right after do_command).
- One value is re-read between commands by others: a kill. KILL and the wait_timeout expiry
  replace the snapshot with `killed=True` (a one-field copy) so the connection's next request
  goes to the HIGH queue and is never held back (MariaDB tp_post_kill_notification).
- A NamedTuple rather than a frozen dataclass: it is built on every command, and a tuple is the
  cheapest immutable record Python has.
"""

from __future__ import annotations

from typing import NamedTuple

UINT_MAX = 4294967295


class SessionSnapshot(NamedTuple):
    logged_in: bool = False           # False: the next request is a login round (HIGH)
    in_transaction: bool = False
    holds_locks: bool = False         # LOCK TABLES, FTWRL, GET_LOCK (Percona lp#1619559)
    holds_write: bool = False         # the engine's one write lock (sched/priority.py rule 3)
    killed: bool = False              # KILL, wait_timeout: closing; HIGH and never held back
    admin: bool = False               # exempt from thread_pool_max_transactions_limit
    pool_priority: str = "auto"       # thread_pool_priority (session)
    high_prio_mode: str = "transactions"  # thread_pool_high_prio_mode (session)
    high_priority_connection: int = 0  # thread_pool_high_priority_connection (session)
    high_prio_tickets: int = UINT_MAX  # thread_pool_high_prio_tickets (session)
    idle_timeout: float = 10.0        # wait_timeout, or connect_timeout before login (s)


LOGIN = SessionSnapshot()
