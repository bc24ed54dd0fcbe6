"""One thread group's counters: every monitoring table reads these and nothing else.

Rules:
- One field per fact, counted where the fact happens (under the group lock). The tables are
  views over the same numbers: information_schema.THREAD_POOL_STATS (MariaDB's
  thread_group_counters_t, the first block), TXSQL's SHOW THREADPOOL STATUS and MySQL
  Enterprise's performance_schema.tp_thread_group_stats (session/tpstatus.py maps the names).
- FLUSH THREAD_POOL_STATS zeroes them all (MariaDB zeroes its block; MySQL Enterprise's table
  cannot be truncated, and keeping two clocks for one set of counters would make the tables
  disagree).
- TXSQL's average queue wait is "since the last SHOW THREADPOOL STATUS": `take_queue_average`
  reads and resets the two fields it is made of, as TXSQL does.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

# MariaDB's thd_wait_type values 0..11 (UNKNOWN .. NET); engine.base.WaitReason names them, but
# sched sits below engine in the import order, so only the count is written here.
N_REASONS = 12


@dataclass(slots=True)
class Counters:
    # MariaDB information_schema.THREAD_POOL_STATS
    thread_creations: int = 0
    thread_creations_due_to_stall: int = 0
    wakes: int = 0
    wakes_due_to_stall: int = 0
    throttles: int = 0
    stalls: int = 0
    polls_by_listener: int = 0
    polls_by_worker: int = 0
    dequeues_by_listener: int = 0
    dequeues_by_worker: int = 0
    # MySQL Enterprise tp_thread_group_stats
    prio_kickups: int = 0
    connections_started: int = 0
    connections_closed: int = 0
    queries_executed: int = 0       # requests handed to handle(), counted as they start
    stalled_queries: int = 0        # running requests that outlived the stall limit
    become_consumer: int = 0        # a worker went to sleep with no other sleeper
    become_reserve: int = 0         # ... with other sleepers already there
    become_listener: int = 0        # MySQL's "waiting thread": the one polling the sockets
    stall_checker_wakes: int = 0    # the timer woke or created a thread
    waits: list[int] = field(default_factory=lambda: [0] * N_REASONS)  # by WaitReason value
    # TXSQL SHOW THREADPOOL STATUS
    high_dequeues: int = 0          # get_high_prio_queue_num
    low_dequeues: int = 0           # get_normal_queue_num
    oversubscribed: int = 0         # a worker saw the limit and went to sleep
    sleeps: int = 0                 # mysql_cond_timedwait_num
    stall_no_listener: int = 0      # check_stall_nolistener
    max_queue_wait_us: int = 0      # max_req_latency_us
    timeout_kills: int = 0          # conns_timeout_killed
    moved_in: int = 0               # connections_moved_in (load balancing, item 2)
    moved_out: int = 0
    moved_from_per_thread: int = 0  # thread_handling switches (item 1)
    moved_to_per_thread: int = 0
    events_consumed: int = 0        # reset by SHOW THREADPOOL STATUS
    queue_wait_total_us: int = 0    # reset by SHOW THREADPOOL STATUS
    # TXSQL's disconnect detection (rampmeter counts both places a client can vanish)
    vanished_queued: int = 0        # dropped from the queue without running
    vanished_running: int = 0       # the running statement was stopped
    # MDEV-38219: threads created beyond thread_pool_max_threads for a lock holder's request
    holder_escapes: int = 0

    def reset(self) -> None:
        for f in fields(self):
            setattr(self, f.name, [0] * N_REASONS if f.name == "waits" else 0)

    def dequeued(self, wait_us: int) -> None:
        self.events_consumed += 1
        self.queue_wait_total_us += wait_us
        if wait_us > self.max_queue_wait_us:
            self.max_queue_wait_us = wait_us

    def take_queue_average(self) -> tuple[int, int]:
        """(events consumed, average µs in queue) since the last call; both reset."""
        n, total = self.events_consumed, self.queue_wait_total_us
        self.events_consumed = self.queue_wait_total_us = 0
        return n, (total // n if n else 0)
