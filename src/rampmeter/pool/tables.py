"""Rows of the thread pool's monitoring tables, from the groups' state and counters.

Rules:
- One group at a time, under that group's lock (MySQL Enterprise's snapshots do the same; never
  all groups at once). Each builder returns a dict per row keyed by column name, and `rows`
  orders the values by the table's declared columns (session/tpstatus.py, infoschema.py), so
  a renamed or reordered column cannot silently shift values.
- The same counters feed every table: MariaDB's THREAD_POOL_*, TXSQL's SHOW THREADPOOL STATUS,
  MySQL Enterprise's tp_* tables. Mappings that are not one-to-one are commented where made.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rampmeter.engine.base import WaitReason
from rampmeter.pool.group import ConnState, Group, PoolConn
from rampmeter.sched.policy import PoolConfig
from rampmeter.session import tpstatus
from rampmeter.session.infoschema import THREAD_POOL_COLUMNS

Row = dict[str, Any]
Builder = Callable[[Group, PoolConfig, float], list[Row]]


def _groups(g: Group, cfg: PoolConfig, now: float) -> list[Row]:
    st = g.state
    return [{"GROUP_ID": st.group_id, "CONNECTIONS": st.connection_count,
             "THREADS": st.thread_count, "ACTIVE_THREADS": st.active_count,
             "STANDBY_THREADS": len(st.waiting), "QUEUE_LENGTH": st.queue_length(),
             "HAS_LISTENER": int(st.listener is not None), "IS_STALLED": int(st.stalled)}]


def _stats(g: Group, cfg: PoolConfig, now: float) -> list[Row]:
    c = g.state.counters
    return [{"GROUP_ID": g.state.group_id, "THREAD_CREATIONS": c.thread_creations,
             "THREAD_CREATIONS_DUE_TO_STALL": c.thread_creations_due_to_stall,
             "WAKES": c.wakes, "WAKES_DUE_TO_STALL": c.wakes_due_to_stall,
             "THROTTLES": c.throttles, "STALLS": c.stalls,
             "POLLS_BY_LISTENER": c.polls_by_listener, "POLLS_BY_WORKER": c.polls_by_worker,
             "DEQUEUES_BY_LISTENER": c.dequeues_by_listener,
             "DEQUEUES_BY_WORKER": c.dequeues_by_worker}]


def _queues(g: Group, cfg: PoolConfig, now: float) -> list[Row]:
    st = g.state
    rows = []
    for pos, entry in enumerate([*st.high, *st.low]):
        pc: PoolConn = entry.item
        rows.append({"GROUP_ID": st.group_id, "POSITION": pos, "PRIORITY": int(entry.priority),
                     "CONNECTION_ID": pc.conn.connection_id,
                     "QUEUEING_TIME_MICROSECONDS": max(0, int((now - entry.enqueued_at) * 1e6))})
    return rows


def _txsql_status(g: Group, cfg: PoolConfig, now: float) -> list[Row]:
    st, c = g.state, g.state.counters
    consumed, average = c.take_queue_average()  # TXSQL: reading resets these two
    return [{
        "groupid": st.group_id, "connection_count": st.connection_count,
        "thread_count": st.thread_count, "havelistener": int(st.listener is not None),
        "active_thread_count": st.active_count, "waiting_thread_count": st.waiting_count,
        "waiting_threads_size": len(st.waiting), "queue_size": len(st.low),
        "high_prio_queue_size": len(st.high), "get_high_prio_queue_num": c.high_dequeues,
        "get_normal_queue_num": c.low_dequeues, "create_thread_num": c.thread_creations,
        "wake_thread_num": c.wakes, "oversubscribed_num": c.oversubscribed,
        "mysql_cond_timedwait_num": c.sleeps, "check_stall_nolistener": c.stall_no_listener,
        "check_stall_stall": c.stalls, "max_req_latency_us": c.max_queue_wait_us,
        "conns_timeout_killed": c.timeout_kills, "connections_moved_in": c.moved_in,
        "connections_moved_out": c.moved_out,
        "connections_moved_from_per_thread": c.moved_from_per_thread,
        "connections_moved_to_per_thread": c.moved_to_per_thread,
        "events_consumed": consumed, "average_wait_usecs_in_queue": average,
        "disconnects_queued": c.vanished_queued, "disconnects_running": c.vanished_running,
        "lock_holder_escapes": c.holder_escapes}]


def _stalled_now(g: Group, cfg: PoolConfig, now: float) -> int:
    limit = cfg.stall_limit_ms / 1000.0
    return sum(1 for w in g.workers
               if w.running_since is not None and now - w.running_since > limit)


def _tp_group_state(g: Group, cfg: PoolConfig, now: float) -> list[Row]:
    st = g.state
    oldest = min((q[0].enqueued_at for q in (st.high, st.low) if q), default=None)
    return [{
        "TP_GROUP_ID": st.group_id,
        # MySQL keeps one "consumer" sleeper and the rest in reserve: our LIFO waiting list
        # read the same way (its head is the one woken next).
        "CONSUMER_THREADS": min(1, len(st.waiting)),
        "RESERVE_THREADS": max(0, len(st.waiting) - 1),
        "CONNECT_THREAD_COUNT": 0,  # logins run on ordinary workers
        "CONNECTION_COUNT": st.connection_count,
        "QUEUED_QUERIES": len(st.high), "QUEUED_TRANSACTIONS": len(st.low),
        "STALL_LIMIT": cfg.stall_limit_ms, "PRIO_KICKUP_TIMER": cfg.prio_kickup_timer_ms,
        "ALGORITHM": 0, "THREAD_COUNT": st.thread_count, "ACTIVE_THREAD_COUNT": st.active_count,
        "STALLED_THREAD_COUNT": _stalled_now(g, cfg, now),
        "WAITING_THREAD_NUMBER": st.listener.number if st.listener is not None else None,
        "OLDEST_QUEUED": 0 if oldest is None else max(0, int((now - oldest) * 1000)),
        "MAX_THREAD_IDS_IN_GROUP": max((w.number for w in g.workers), default=0)}]


# MySQL's per-reason wait columns; FSYNC_WAITS is THD_WAIT_SYNC.
_WAIT_COLUMNS = {
    "SLEEP_WAITS": WaitReason.SLEEP, "DISK_IO_WAITS": WaitReason.DISKIO,
    "ROW_LOCK_WAITS": WaitReason.ROW_LOCK, "GLOBAL_LOCK_WAITS": WaitReason.GLOBAL_LOCK,
    "META_DATA_LOCK_WAITS": WaitReason.META_DATA_LOCK,
    "TABLE_LOCK_WAITS": WaitReason.TABLE_LOCK, "USER_LOCK_WAITS": WaitReason.USER_LOCK,
    "BINLOG_WAITS": WaitReason.BINLOG, "GROUP_COMMIT_WAITS": WaitReason.GROUP_COMMIT,
    "FSYNC_WAITS": WaitReason.SYNC,
}


def _tp_group_stats(g: Group, cfg: PoolConfig, now: float) -> list[Row]:
    c = g.state.counters
    row: Row = {
        "TP_GROUP_ID": g.state.group_id, "CONNECTIONS_STARTED": c.connections_started,
        "CONNECTIONS_CLOSED": c.connections_closed, "QUERIES_EXECUTED": c.queries_executed,
        # statements that waited in a queue: the ones a worker (not the listener that polled
        # them with an empty queue) dequeued
        "QUERIES_QUEUED": c.dequeues_by_worker, "THREADS_STARTED": c.thread_creations,
        "PRIO_KICKUPS": c.prio_kickups, "STALLED_QUERIES_EXECUTED": c.stalled_queries,
        "BECOME_CONSUMER_THREAD": c.become_consumer, "BECOME_RESERVE_THREAD": c.become_reserve,
        "BECOME_WAITING_THREAD": c.become_listener,
        "WAKE_THREAD_STALL_CHECKER": c.stall_checker_wakes}
    for column, reason in _WAIT_COLUMNS.items():
        row[column] = c.waits[reason.value]
    return [row]


def _tp_thread_state(g: Group, cfg: PoolConfig, now: float) -> list[Row]:
    rows = []
    for w in sorted(g.workers, key=lambda w: w.number):
        since = w.running_since
        rows.append({
            "TP_GROUP_ID": g.state.group_id, "TP_THREAD_NUMBER": w.number,
            # which 10 ms slice of its statement the thread is in; 0: none running
            "PROCESS_COUNT": 0 if since is None else int((now - since) / 0.010) + 1,
            "WAIT_TYPE": f"THD_WAIT_{w.wait}" if w.wait else None,
            "TP_THREAD_TYPE": "LISTENER_WORKER_THREAD" if g.state.listener is w
            else "QUERY_WORKER_THREAD",
            "THREAD_ID": w.native_id})
    return rows


_TP_STATES = {ConnState.IDLE: "Armed", ConnState.QUEUED: "Queued",
              ConnState.RUNNING: "Attached", ConnState.CLOSED: "Killed"}


def _tp_connections(g: Group, cfg: PoolConfig, now: float) -> list[Row]:
    rows = []
    for pc in sorted(g.members, key=lambda pc: pc.conn.connection_id):
        gone = pc.vanished or pc.conn.snapshot.killed
        rows.append({"CONNECTION_ID": pc.conn.connection_id, "TP_GROUP_ID": g.state.group_id,
                     "STATE": "Killed" if gone else _TP_STATES[pc.state],
                     "ACTIVE_FLAG": int(pc.state is ConnState.RUNNING)})
    return rows


_BUILDERS: dict[str, tuple[Builder, list[str]]] = {
    "THREAD_POOL_GROUPS": (_groups, tpstatus.names(THREAD_POOL_COLUMNS["THREAD_POOL_GROUPS"])),
    "THREAD_POOL_STATS": (_stats, tpstatus.names(THREAD_POOL_COLUMNS["THREAD_POOL_STATS"])),
    "THREAD_POOL_QUEUES": (_queues, tpstatus.names(THREAD_POOL_COLUMNS["THREAD_POOL_QUEUES"])),
    "THREADPOOL_STATUS": (_txsql_status, tpstatus.names(tpstatus.THREADPOOL_STATUS)),
    "tp_thread_group_state": (
        _tp_group_state, tpstatus.names(tpstatus.PERFORMANCE_SCHEMA["tp_thread_group_state"])),
    "tp_thread_group_stats": (
        _tp_group_stats, tpstatus.names(tpstatus.PERFORMANCE_SCHEMA["tp_thread_group_stats"])),
    "tp_connections": (
        _tp_connections, tpstatus.names(tpstatus.PERFORMANCE_SCHEMA["tp_connections"])),
    "tp_thread_state": (
        _tp_thread_state, tpstatus.names(tpstatus.PERFORMANCE_SCHEMA["tp_thread_state"])),
}


def rows(name: str, groups: list[Group], cfg: PoolConfig, now: float) -> list[tuple[Any, ...]]:
    found = _BUILDERS.get(name)
    if found is None:
        return []
    build, cols = found
    out: list[tuple[Any, ...]] = []
    for g in groups:
        with g.lock:
            out.extend(tuple(row[c] for c in cols) for row in build(g, cfg, now))
    return out
