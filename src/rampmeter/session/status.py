"""Status variables: SHOW [GLOBAL|SESSION] STATUS and information_schema.*_STATUS.

Rules:
- Names and meanings are MariaDB's (conventions.md §1.3); prometheus mysqld_exporter turns every
  numeric row into mysql_global_status_<name>, so invented counters stay out of this namespace
  (they belong in information_schema and /metrics).
- Session scope shows the session's own Com_* / Questions / Bytes counters and the global value
  of everything else, as MariaDB does.
- Threads_connected counts client connections, not OS threads: under the pool they differ, and
  Threadpool_threads / Threadpool_idle_threads say how many threads there are.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

from rampmeter.session import memory

if TYPE_CHECKING:
    from rampmeter.session.session import Session

# Com_* counters MariaDB always lists (even at 0), in the order tools expect to find them.
COM_NAMES = (
    "Com_admin_commands", "Com_alter_table", "Com_alter_user", "Com_begin", "Com_change_db",
    "Com_commit", "Com_create_db", "Com_create_index", "Com_create_table", "Com_create_user",
    "Com_create_view", "Com_dealloc_sql", "Com_delete", "Com_do", "Com_drop_db", "Com_drop_index", "Com_drop_table",
    "Com_drop_user", "Com_drop_view", "Com_execute_sql", "Com_flush", "Com_grant", "Com_insert", "Com_kill", "Com_load",
    "Com_lock_tables", "Com_prepare_sql", "Com_release_savepoint", "Com_rename_table", "Com_replace", "Com_revoke",
    "Com_rollback", "Com_rollback_to_savepoint", "Com_savepoint", "Com_select", "Com_set_option",
    "Com_show_collations", "Com_show_create_db", "Com_show_create_table", "Com_show_databases",
    "Com_show_engine_status", "Com_show_fields", "Com_show_grants", "Com_show_keys",
    "Com_show_processlist", "Com_show_status", "Com_show_storage_engines", "Com_show_tables",
    "Com_show_variables", "Com_show_warnings", "Com_shutdown", "Com_stmt_close",
    "Com_stmt_execute", "Com_stmt_fetch", "Com_stmt_prepare", "Com_stmt_reprepare",
    "Com_stmt_reset", "Com_truncate",
    "Com_unlock_tables", "Com_update",
)

# Feature_* counters of MariaDB that rampmeter counts (per session, summed for GLOBAL)
FEATURE_NAMES = ("Feature_window_functions",)

# Sort_* and Handler_* of the reads the engine counts (engine/sqlite/sortstats.py): MariaDB
# lists every one, at 0 when nothing counted it
SORT_NAMES = ("Sort_merge_passes", "Sort_priority_queue_sorts", "Sort_range", "Sort_rows",
              "Sort_scan")
HANDLER_NAMES = ("Handler_read_first", "Handler_read_key", "Handler_read_last",
                 "Handler_read_next", "Handler_read_prev", "Handler_read_retry",
                 "Handler_read_rnd", "Handler_read_rnd_deleted", "Handler_read_rnd_next")

_SESSION_OWNED = {"Questions", "Queries", "Bytes_received", "Bytes_sent", "Empty_queries",
                  "Max_statement_time_exceeded", *COM_NAMES, *FEATURE_NAMES, *SORT_NAMES,
                  *HANDLER_NAMES}

_WORDS = re.compile(r"\b(select|over)\b|[()]", re.IGNORECASE)
_WINDOW_SELECTS: dict[str, int] = {}


def window_selects(shape: str) -> int:
    """How many SELECTs of a statement use window functions (MariaDB's
    Feature_window_functions counts one per such SELECT), kept per shape (bounded)."""
    found = _WINDOW_SELECTS.get(shape)
    if found is not None:
        return found
    count = 0
    if "over" in shape.lower():
        blocks: list[list[int]] = []   # open SELECTs: [paren depth, has a window]
        depth = 0
        for m in _WORDS.finditer(shape):
            tok = m.group(0)
            if tok == "(":
                depth += 1
            elif tok == ")":
                while blocks and blocks[-1][0] >= depth:
                    count += blocks.pop()[1]
                depth -= 1
            elif tok.lower() == "select":
                if blocks and blocks[-1][0] == depth:  # UNION: the previous one ends
                    count += blocks.pop()[1]
                blocks.append([depth, 0])
            elif blocks:
                blocks[-1][1] = 1
        count += sum(b[1] for b in blocks)
    if len(_WINDOW_SELECTS) >= 4096:
        _WINDOW_SELECTS.clear()
    _WINDOW_SELECTS[shape] = count
    return count


def status_rows(s: Session, *, scope_global: bool) -> list[tuple[str, Any]]:
    ctx = s.ctx
    reg = ctx.registry
    counters = reg.summed_counters() if scope_global else s.counters
    sessions = reg.sessions()
    now = time.time()
    values: dict[str, Any] = {
        "Aborted_clients": reg.aborted_clients,
        "Aborted_connects": reg.aborted_connects,
        "Bytes_received": counters["Bytes_received"],
        "Bytes_sent": counters["Bytes_sent"],
    }
    for name in COM_NAMES:
        values[name] = counters[name]
    for name in (*FEATURE_NAMES, *SORT_NAMES, *HANDLER_NAMES):
        values[name] = counters[name]
    values.update({
        "Connection_errors_host_blocked": ctx.hosts.blocked_connects,
        "Connection_errors_max_connections": reg.refused_max_connections,
        "Connections": reg.connections,
        "Empty_queries": counters["Empty_queries"],
        "Max_statement_time_exceeded": counters["Max_statement_time_exceeded"],
        "Max_memory_used": None if scope_global else memory.session_values(s)[1],
        "Max_used_connections": reg.max_used,
        "Max_used_connections_time": time.strftime("%Y-%m-%d %H:%M:%S",
                                                   time.localtime(reg.max_used_time))
        if reg.max_used_time else "",
        "Memory_used": memory.global_used(sessions) if scope_global else memory.held(s),
        "Open_tables": 0,
        "Queries": counters["Questions"],
        "Questions": counters["Questions"],
        "Slow_queries": 0,
        "Ssl_cipher": "",
        "Ssl_version": "",
    })
    handler = ctx.handler_status()
    values["Threadpool_idle_threads"] = handler.get("Threadpool_idle_threads", 0)
    values["Threadpool_threads"] = handler.get("Threadpool_threads", 0)
    values["Threads_cached"] = 0
    values["Threads_connected"] = reg.connected + reg.connected_extra
    values["Threads_created"] = handler.get("Threads_created", 0)
    # rampmeter's thread_handling switch (pool/switch.py): connections in each mode, moves
    values.update({k: v for k, v in handler.items() if k.startswith("Thread_handling_")})
    # rampmeter's group load balancing (sched/balance.py): connections moved between groups
    values["Thread_pool_connections_moved"] = handler.get("Thread_pool_connections_moved", 0)
    values["Stack_usage"] = 0 if scope_global else _stack_usage()  # global: 0, as MariaDB
    values["Threads_running"] = sum(1 for x in sessions if x.executing)
    values["Uptime"] = int(now - reg.started)
    values["Uptime_since_flush_status"] = int(now - reg.flushed)
    if s.tls_active:
        values["Ssl_cipher"] = getattr(s, "tls_cipher", "")
        values["Ssl_version"] = getattr(s, "tls_version", "")
    return sorted(values.items())


_FRAME_BYTES = 512  # about what CPython's evaluation loop takes of the C stack per call


def _stack_usage() -> int:
    """MariaDB's Stack_usage, the bytes of stack the thread running the statement uses: here
    its Python frames at that size each (so it grows with a routine's recursion, and is the
    same for each row of a recursive query, as MariaDB's)."""
    import sys
    from types import FrameType
    depth = 0
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth * _FRAME_BYTES


def is_session_owned(name: str) -> bool:
    return name in _SESSION_OWNED
