"""Which queue a connection's next request goes to.

The vendors' rules, combined in one order of precedence, read from the session's snapshot
(sched/snapshot.py) taken after its previous command:
1. A connection still logging in is HIGH. MariaDB runs the whole login in one worker call, queued
   HIGH by add(); our login is event driven (greeting, then the client's reply, maybe an auth
   round), and each of its rounds must not wait behind ordinary statements either, or under a
   frozen LOW queue a new client would wait for the kick-up timer.
2. A connection being killed (KILL, wait_timeout) is HIGH, so the kill is processed soon
   (MariaDB tp_post_kill_notification / tp_timeout_handler).
3. rampmeter's own rule, for its engine: the session holding the engine's one write lock
   (SQLite has a single writer; the lock is taken by a transaction's first write and held to
   its COMMIT or ROLLBACK, engine/sqlite/txn.py) is HIGH and goes to the *head* of the HIGH
   queue. Every other writer of the server waits for that COMMIT, so each statement the holder
   spends behind other requests lengthens everyone's wait: under sysbench oltp_read_write at
   256 connections every connection is inside a transaction, so rule 6 makes them all HIGH and
   the holder's next UPDATE queued at the tail waited behind up to a group's worth of requests.
   It is Percona's reasoning for lock holders (lp#1619559) applied to the lock that every
   writer shares, and, like that rule, it does not wait for the LOW queue or for tickets: a
   holder stuck in LOW behind writers blocked on its lock could exhaust
   thread_pool_max_threads. MariaDB with InnoDB has no server-wide write lock, so it has no
   such rule. At most one session holds the lock, so "the head" is never contested.
4. MySQL Enterprise `thread_pool_high_priority_connection = 1`: every statement is HIGH.
5. MariaDB `thread_pool_priority`: `high` / `low` force the queue; `auto` (the default) defers
   to the transaction rule below.
6. Percona `thread_pool_high_prio_mode`:
   - `statements`: always HIGH;
   - `none`: always LOW;
   - `transactions` (default): HIGH while tickets remain and the connection is inside a
     transaction OR holds locks (LOCK TABLES, user locks, the global read lock). The lock part is
     Percona's fix for lp#1619559: a LOCK TABLES holder stuck in the LOW queue behind SELECTs
     that wait for its lock deadlocked the pool. MariaDB's `auto` is the same rule with
     unlimited tickets and without locks; MySQL Enterprise's "first statement of a transaction
     LOW, the following ones HIGH" is the same rule read after each statement.
Tickets (Percona): a connection starts with the session's thread_pool_high_prio_tickets; a HIGH
enqueue under rule 6 spends one, a LOW enqueue refills them to the session's value, so a long
transaction cannot monopolise the HIGH queue. Rules 1-5 neither spend nor refill.
"""

from __future__ import annotations

import enum

from rampmeter.sched.snapshot import SessionSnapshot


class Priority(enum.IntEnum):
    HIGH = 0
    LOW = 1


def choose_priority(snap: SessionSnapshot, tickets: int) -> Priority:
    if not snap.logged_in or snap.killed or snap.holds_write \
            or snap.high_priority_connection:
        return Priority.HIGH
    if snap.pool_priority == "high":
        return Priority.HIGH
    if snap.pool_priority == "low":
        return Priority.LOW
    mode = snap.high_prio_mode
    if mode == "statements":
        return Priority.HIGH
    if mode == "none":
        return Priority.LOW
    if tickets > 0 and (snap.in_transaction or snap.holds_locks):
        return Priority.HIGH
    return Priority.LOW


def spend_ticket(priority: Priority, tickets: int, snap: SessionSnapshot) -> int:
    """Tickets left after an enqueue at `priority` (Percona's queue_put)."""
    if not snap.logged_in or snap.killed or snap.holds_write \
            or snap.high_priority_connection or snap.pool_priority != "auto" or snap.high_prio_mode != "transactions":
        return tickets
    if priority is Priority.HIGH:
        return max(0, tickets - 1)
    return snap.high_prio_tickets
