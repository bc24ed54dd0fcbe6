"""Which queue a connection's next request goes to.

The vendors' rules, combined in one order of precedence:
1. A connection being killed (KILL, wait_timeout) is HIGH, so the kill is processed soon
   (MariaDB tp_post_kill_notification / tp_timeout_handler).
2. MySQL Enterprise `thread_pool_high_priority_connection = 1`: every statement is HIGH.
3. MariaDB `thread_pool_priority`: `high` / `low` force the queue; `auto` (the default) defers
   to the transaction rule below.
4. Percona `thread_pool_high_prio_mode`:
   - `statements`: always HIGH;
   - `none`: always LOW;
   - `transactions` (default): HIGH while tickets remain and the connection is inside a
     transaction OR holds locks (LOCK TABLES, user locks, the global read lock). The lock part is
     Percona's fix for lp#1619559: a LOCK TABLES holder stuck in the LOW queue behind SELECTs
     that wait for its lock deadlocked the pool. MariaDB's `auto` is the same rule with
     unlimited tickets and without locks; MySQL Enterprise's "first statement of a transaction
     LOW, the following ones HIGH" is the same rule read after each statement.
Tickets (Percona): a HIGH enqueue spends one; a LOW enqueue refills them to
thread_pool_high_prio_tickets, so a long transaction cannot monopolise the HIGH queue.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Priority(enum.IntEnum):
    HIGH = 0
    LOW = 1


@dataclass(frozen=True, slots=True)
class PriorityInputs:
    """The session facts and settings the rule reads (a snapshot taken at enqueue time)."""

    in_transaction: bool = False
    holds_locks: bool = False
    killed: bool = False
    pool_priority: str = "auto"          # thread_pool_priority (session)
    high_prio_mode: str = "transactions"  # thread_pool_high_prio_mode (session)
    high_priority_connection: int = 0    # thread_pool_high_priority_connection (session)
    tickets_refill: int = 4294967295     # thread_pool_high_prio_tickets (session)


def choose_priority(inputs: PriorityInputs, tickets: int) -> Priority:
    if inputs.killed or inputs.high_priority_connection:
        return Priority.HIGH
    if inputs.pool_priority == "high":
        return Priority.HIGH
    if inputs.pool_priority == "low":
        return Priority.LOW
    mode = inputs.high_prio_mode
    if mode == "statements":
        return Priority.HIGH
    if mode == "none":
        return Priority.LOW
    if tickets > 0 and (inputs.in_transaction or inputs.holds_locks):
        return Priority.HIGH
    return Priority.LOW


def spend_ticket(priority: Priority, tickets: int, inputs: PriorityInputs) -> int:
    """Tickets left after an enqueue at `priority` (Percona's queue_put)."""
    if priority is Priority.HIGH:
        return max(0, tickets - 1)
    return inputs.tickets_refill
