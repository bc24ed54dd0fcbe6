"""The thread pool's monitoring tables, as each reference shows them: names and columns.

Rules:
- Every table here is a view over the same per-group counters (sched/counters.py) and group
  state; the rows come from the connection handler (`handler.table(name)`, pool/tables.py),
  built one group at a time under that group's lock, in the column order declared here.
- MariaDB's four information_schema.THREAD_POOL_* tables are in infoschema.py (exact copies of
  sql/threadpool_info.cc). Here:
  - TXSQL's `SHOW THREADPOOL STATUS`: a row per group, its 25 columns in TXSQL's order, then
    columns of our own, appended as TDSQL builds append theirs: `disconnects_queued` and
    `disconnects_running` (clients that vanished while their request waited or ran), and
    `lock_holder_escapes` (threads created past thread_pool_max_threads so that a lock
    holder's request could run: MDEV-38219, sched/policy.py).
    Reading it resets events_consumed and average_wait_usecs_in_queue, as in TXSQL.
    max_req_latency_us is microseconds (TXSQL's source; its documentation says ms).
  - MySQL Enterprise's performance_schema.tp_thread_group_state, tp_thread_group_stats and
    tp_thread_state (8.0.32 columns). Where MySQL's value has no counterpart here it is stated in
    docs/threadpool.md: CONNECT_THREAD_COUNT is 0 (a login runs on an ordinary worker),
    ALGORITHM is 0, STALL_LIMIT is thread_pool_stall_limit in ms (MySQL counts 10 ms units).
  - MySQL 9's performance_schema.tp_connections, the columns rampmeter can fill truly: which
    group a connection is in now (load balancing moves it, sched/balance.py), its STATE
    (Armed: idle in its group's epoll; Queued; Attached: a thread runs its request; Killed:
    killed, timed out or its client vanished) and ACTIVE_FLAG. MySQL's thread numbers,
    cleanup stages and timestamps are not kept.
- performance_schema tables are queried like any table (the engine materializes them, as it
  does information_schema's); they are read-only.
"""

from __future__ import annotations

from rampmeter.protocol.columns import Column, int_column, text_column


def columns(spec: str) -> list[Column]:
    """'NAME:int, OTHER:text' -> columns."""
    out = []
    for item in spec.split(","):
        name, kind = item.strip().split(":")
        out.append(int_column(name) if kind == "int" else text_column(name, length=64))
    return out


def _ints(names: str) -> list[Column]:
    return [int_column(n.strip()) for n in names.split(",")]


THREADPOOL_STATUS = _ints(
    "groupid, connection_count, thread_count, havelistener, active_thread_count, "
    "waiting_thread_count, waiting_threads_size, queue_size, high_prio_queue_size, "
    "get_high_prio_queue_num, get_normal_queue_num, create_thread_num, wake_thread_num, "
    "oversubscribed_num, mysql_cond_timedwait_num, check_stall_nolistener, check_stall_stall, "
    "max_req_latency_us, conns_timeout_killed, connections_moved_in, connections_moved_out, "
    "connections_moved_from_per_thread, connections_moved_to_per_thread, events_consumed, "
    "average_wait_usecs_in_queue, disconnects_queued, disconnects_running, "
    "lock_holder_escapes")

PERFORMANCE_SCHEMA: dict[str, list[Column]] = {
    "tp_thread_group_state": _ints(
        "TP_GROUP_ID, CONSUMER_THREADS, RESERVE_THREADS, CONNECT_THREAD_COUNT, "
        "CONNECTION_COUNT, QUEUED_QUERIES, QUEUED_TRANSACTIONS, STALL_LIMIT, "
        "PRIO_KICKUP_TIMER, ALGORITHM, THREAD_COUNT, ACTIVE_THREAD_COUNT, "
        "STALLED_THREAD_COUNT") + [int_column("WAITING_THREAD_NUMBER")] + _ints(
        "OLDEST_QUEUED, MAX_THREAD_IDS_IN_GROUP"),
    "tp_thread_group_stats": _ints(
        "TP_GROUP_ID, CONNECTIONS_STARTED, CONNECTIONS_CLOSED, QUERIES_EXECUTED, "
        "QUERIES_QUEUED, THREADS_STARTED, PRIO_KICKUPS, STALLED_QUERIES_EXECUTED, "
        "BECOME_CONSUMER_THREAD, BECOME_RESERVE_THREAD, BECOME_WAITING_THREAD, "
        "WAKE_THREAD_STALL_CHECKER, SLEEP_WAITS, DISK_IO_WAITS, ROW_LOCK_WAITS, "
        "GLOBAL_LOCK_WAITS, META_DATA_LOCK_WAITS, TABLE_LOCK_WAITS, USER_LOCK_WAITS, "
        "BINLOG_WAITS, GROUP_COMMIT_WAITS, FSYNC_WAITS"),
    "tp_connections": columns(
        "CONNECTION_ID:int, TP_GROUP_ID:int, STATE:text, ACTIVE_FLAG:int"),
    "tp_thread_state": columns(
        "TP_GROUP_ID:int, TP_THREAD_NUMBER:int, PROCESS_COUNT:int, WAIT_TYPE:text, "
        "TP_THREAD_TYPE:text, THREAD_ID:int"),
}


def names(cols: list[Column]) -> list[str]:
    return [c.name for c in cols]
