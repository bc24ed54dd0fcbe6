"""When a session keeps its engine handle between commands (is *pinned*): the policy, in one place.

DESIGN.md ("connections, threads, engine handles"): a session borrows a handle (one sqlite3
connection, handle.py) from the engine's pool (handles.py) for a command and gives it back at
the command's end, unless it holds state that lives *in the handle*. That is how connection
multiplexers decide it: PgBouncer's transaction mode gives a server connection back at the end
of each transaction; ProxySQL keeps a backend for a client while a transaction, temporary
tables, user locks or session settings it cannot replay live there; GoldenDB's proxy binds a
task to a session for a transaction and unbinds it after. What pins is the state that cannot
move to another handle; everything the session can carry itself does not pin.

| the session holds                         | where it lives                          | pins |
|-------------------------------------------|-----------------------------------------|------|
| an open transaction: BEGIN / START        | SQLite's transaction on the handle: its | yes  |
|   TRANSACTION [WITH CONSISTENT SNAPSHOT], |   snapshot (REPEATABLE READ), its       |      |
|   autocommit=0's implicit one once a      |   writes, its savepoints                |      |
|   statement opened it; its savepoints     |                                         |      |
| temporary tables                          | the handle's `temp` schema              | yes  |
| LOCK TABLES / FLUSH TABLES WITH READ LOCK | the engine's write lock in locks.py,    | no   |
|                                           |   owned by the session's Transactions   |      |
| user locks (GET_LOCK)                     | the engine's LockTable, same owner      | no   |
| prepared statements (binary protocol,     | the scanned Statement (session layer)   | no   |
|   PREPARE ... FROM)                       |   and the engine's plan cache by shape  |      |
| current database, LAST_INSERT_ID(),       | the SqliteSession                       | no   |
|   FOUND_ROWS(), ROW_COUNT(), warnings     |                                         |      |
| session variables (sql_mode, time_zone,   | the session layer; read per statement   | no   |
|   foreign_key_checks, ...)                |   through SessionContext, never left as |      |
|                                           |   a PRAGMA on the handle                |      |
| a result still being sent (streamed)      | a cursor on the handle                  | for  |
|                                           |                                         | the  |
|                                           |                                         | command |

Notes on the "no" rows:
- LOCK TABLES and FTWRL: this engine implements both as the session holding the engine's write
  lock (txn.py). The lock's owner is the session's Transactions object, not a handle, and
  LOCK TABLES commits first, so no SQLite state is left behind; the session's later statements
  may run on any handle and still find the lock theirs (re-entrant). A write under autocommit=0
  opens a transaction, which pins by the first row.
- GET_LOCK: same owner, same table; a lock outlives handles and is released at disconnect
  (Transactions.release_everything).
- Prepared statements: their plans are per engine and shape (SqliteSession.plan), rebuilt on any
  handle; sqlite3's per-connection statement cache only makes the second run on a handle cheaper.
- Things that live in a handle but belong to no session stay there for the next borrower:
  ATTACHed databases, the temp triggers that count changed rows (per table and schema version),
  the statement cache, information_schema's materialized tables (made again by each statement
  that reads them).

A handle goes back to the pool clean: no SQLite transaction open (handles.py checks, and rolls
back and logs one as a fault of ours).
"""

from __future__ import annotations

from typing import NamedTuple


class Rule(NamedTuple):
    state: str      # what the session holds (the names SqliteSession.held() reports)
    pins: bool
    why: str


RULES: tuple[Rule, ...] = (
    Rule("transaction", True, "its snapshot, writes and savepoints are SQLite's, on the handle"),
    Rule("temporary_tables", True, "they live in the handle's temp schema"),
    Rule("table_locks", False, "the write lock is the engine's, owned by the session"),
    Rule("user_locks", False, "GET_LOCK locks are the engine's, owned by the session"),
    Rule("prepared_statements", False, "plans are per engine and shape, rebuilt anywhere"),
)

PINNING = frozenset(r.state for r in RULES if r.pins)
KNOWN = frozenset(r.state for r in RULES)


def pinned(held: frozenset[str] | set[str] | tuple[str, ...]) -> bool:
    """Must a session that holds `held` keep its handle? Unknown names are a bug."""
    unknown = set(held) - KNOWN
    if unknown:
        raise ValueError(f"no pinning rule for {sorted(unknown)}")
    return not PINNING.isdisjoint(held)


def reasons(held: frozenset[str] | set[str] | tuple[str, ...]) -> list[str]:
    """Why a session holding `held` is pinned (empty when it is not), for status views."""
    return [f"{r.state}: {r.why}" for r in RULES if r.pins and r.state in held]
