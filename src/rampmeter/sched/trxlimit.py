"""MySQL Enterprise's transaction limit: thread_pool_max_transactions_limit,
thread_pool_transaction_delay and thread_pool_longrun_trx_limit, as plain functions.

What the MySQL manual says the limit holds back, and nothing else:
- new transactions: a request of a logged-in connection that is not inside a transaction;
- new connections: the rounds of a login.
Never held back, because holding them helps nobody and can freeze a group:
- a connection being killed or timed out (wait_timeout): it is closing, and it frees a slot;
- a client that hung up (EPOLLRDHUP with the request, or COM_QUIT then close): it is leaving;
- statements of transactions already open: they hold a slot and finishing them frees it;
- administrators (`SessionSnapshot.admin`): the extra_port, and accounts with SUPER / CONNECTION
  ADMIN (MariaDB's nearest to MySQL's TP_CONNECTION_ADMIN; Session.is_pool_admin), so someone
  can always get in to raise the limit or kill. Their login rounds on the pool's port are held
  like any new connection's, because who logs in is known only after authentication; the
  extra_port is the way in while the limit is reached.

Counting: a transaction takes its group's slot when its first request is dequeued, and gives it
back when the connection is re-armed outside a transaction (commit, rollback, an autocommit
statement's end) or leaves the group. Transactions are counted whatever the limit, so the count
is right at the moment someone sets one. The limit is per group: the global value divided by
thread_pool_size (MySQL Enterprise), at least 1.

thread_pool_longrun_trx_limit (ms): when every slot of a group is held by a transaction older
than this, the limit is suspended for that group - idle or long transactions cannot freeze it.
MySQL re-arms the limit only after the group has stayed below half of it for a while; here the
condition is simply re-evaluated at each dequeue, so the limit returns as soon as one of the
slots belongs to a young transaction again (simpler to predict, and the same in steady state).

thread_pool_transaction_delay (ms): a worker waits this long before it starts a new
transaction (not a login, not an administrator's request). The wait is reported to the pool as
a SLEEP, so statements of open transactions still run meanwhile: the delay spaces new
transactions out, it does not stop the group.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rampmeter.sched.snapshot import SessionSnapshot

if TYPE_CHECKING:
    from rampmeter.sched.policy import GroupState, PoolConfig


def classify(snap: SessionSnapshot, *, leaving: bool) -> tuple[bool, bool]:
    """(held, new_trx) for a request of a connection in this state: may the limit hold it
    back, and does it start a transaction (count a slot, take the delay)?"""
    if snap.killed or snap.admin or leaving or snap.in_transaction:
        return False, False
    if not snap.logged_in:
        return True, False
    return True, True


def limit_for_group(cfg: PoolConfig) -> int:
    if not cfg.max_transactions_limit:
        return 0
    return max(1, cfg.max_transactions_limit // max(1, cfg.group_count))


def limit_reached(g: GroupState, cfg: PoolConfig, now: float) -> bool:
    """Are held-back requests to wait now? False when there is no limit, a free slot, or the
    group's slots are all held by transactions older than thread_pool_longrun_trx_limit."""
    limit = limit_for_group(cfg)
    if not limit or len(g.trx_started) < limit:
        return False
    return not suspended(g, cfg, now)


def suspended(g: GroupState, cfg: PoolConfig, now: float) -> bool:
    if not cfg.longrun_trx_limit_ms or not g.trx_started:
        return False
    youngest = max(g.trx_started.values())
    return now - youngest > cfg.longrun_trx_limit_ms / 1000.0


def transaction_started(g: GroupState, key: Any, now: float) -> None:
    g.trx_started[key] = now


def transaction_done(g: GroupState, key: Any) -> bool:
    """The connection `key` ended its transaction (or left the group); True if it held one."""
    return g.trx_started.pop(key, None) is not None


def delay(cfg: PoolConfig, new_trx: bool) -> float:
    """Seconds a worker waits before it starts this request (thread_pool_transaction_delay)."""
    return cfg.transaction_delay_ms / 1000.0 if new_trx and cfg.transaction_delay_ms else 0.0
