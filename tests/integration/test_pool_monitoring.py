"""Issue 12 item 4 through real clients: TXSQL's SHOW THREADPOOL STATUS and MySQL Enterprise's
performance_schema.tp_* tables, queried like any table, fed by the same counters as MariaDB's
information_schema.THREAD_POOL_*. Observed from the extra port, so the pool stays quiet."""

from __future__ import annotations

import pymysql
import pytest

from tests.conftest import free_port, wait_until
from tests.integration.test_pool import _background

pytestmark = pytest.mark.timeout(60)

TXSQL_COLUMNS = [
    "groupid", "connection_count", "thread_count", "havelistener", "active_thread_count",
    "waiting_thread_count", "waiting_threads_size", "queue_size", "high_prio_queue_size",
    "get_high_prio_queue_num", "get_normal_queue_num", "create_thread_num", "wake_thread_num",
    "oversubscribed_num", "mysql_cond_timedwait_num", "check_stall_nolistener",
    "check_stall_stall", "max_req_latency_us", "conns_timeout_killed", "connections_moved_in",
    "connections_moved_out", "connections_moved_from_per_thread",
    "connections_moved_to_per_thread", "events_consumed", "average_wait_usecs_in_queue"]

PS_COLUMNS = {
    "tp_thread_group_state": [
        "TP_GROUP_ID", "CONSUMER_THREADS", "RESERVE_THREADS", "CONNECT_THREAD_COUNT",
        "CONNECTION_COUNT", "QUEUED_QUERIES", "QUEUED_TRANSACTIONS", "STALL_LIMIT",
        "PRIO_KICKUP_TIMER", "ALGORITHM", "THREAD_COUNT", "ACTIVE_THREAD_COUNT",
        "STALLED_THREAD_COUNT", "WAITING_THREAD_NUMBER", "OLDEST_QUEUED",
        "MAX_THREAD_IDS_IN_GROUP"],
    "tp_thread_group_stats": [
        "TP_GROUP_ID", "CONNECTIONS_STARTED", "CONNECTIONS_CLOSED", "QUERIES_EXECUTED",
        "QUERIES_QUEUED", "THREADS_STARTED", "PRIO_KICKUPS", "STALLED_QUERIES_EXECUTED",
        "BECOME_CONSUMER_THREAD", "BECOME_RESERVE_THREAD", "BECOME_WAITING_THREAD",
        "WAKE_THREAD_STALL_CHECKER", "SLEEP_WAITS", "DISK_IO_WAITS", "ROW_LOCK_WAITS",
        "GLOBAL_LOCK_WAITS", "META_DATA_LOCK_WAITS", "TABLE_LOCK_WAITS", "USER_LOCK_WAITS",
        "BINLOG_WAITS", "GROUP_COMMIT_WAITS", "FSYNC_WAITS"],
    "tp_thread_state": ["TP_GROUP_ID", "TP_THREAD_NUMBER", "PROCESS_COUNT", "WAIT_TYPE",
                        "TP_THREAD_TYPE", "THREAD_ID"],
    # MySQL 9's table, the columns rampmeter fills (session/tpstatus.py)
    "tp_connections": ["CONNECTION_ID", "TP_GROUP_ID", "STATE", "ACTIVE_FLAG"],
}


def _query(conn, sql: str) -> tuple[list[str], list[tuple]]:
    with conn.cursor() as cur:
        cur.execute(sql)
        return [d[0] for d in cur.description], list(cur.fetchall())


@pytest.fixture
def pool(server_factory):
    server = server_factory(thread_pool_size=3, thread_pool_stall_limit=100,
                            extra_port=free_port())
    return server, server.connect(port=server.extra_port)


def test_show_threadpool_status_is_txsql_s_a_row_per_group(pool):
    server, admin = pool
    conns = [server.connect() for _ in range(6)]
    names, rows = _query(admin, "SHOW THREADPOOL STATUS")
    assert names == [*TXSQL_COLUMNS, "disconnects_queued", "disconnects_running",
                     "lock_holder_escapes"]
    assert [r[0] for r in rows] == [0, 1, 2]
    assert sum(r[names.index("connection_count")] for r in rows) == 6
    # reading resets events_consumed and the average: the next read counts only what ran since
    assert sum(r[names.index("events_consumed")] for r in rows) > 0
    _, again = _query(admin, "SHOW THREADPOOL STATUS")
    assert sum(r[names.index("events_consumed")] for r in again) == 0
    with conns[0].cursor() as cur:
        cur.execute("SELECT 1")
    _, third = _query(admin, "SHOW THREADPOOL STATUS")
    assert sum(r[names.index("events_consumed")] for r in third) == 1


def test_performance_schema_tables_have_mysql_s_columns_and_take_where(pool):
    server, admin = pool
    for table, columns in PS_COLUMNS.items():
        names, _ = _query(admin, f"SELECT * FROM performance_schema.{table}")
        assert names == columns
    names, rows = _query(admin, "SELECT TP_GROUP_ID, STALL_LIMIT, PRIO_KICKUP_TIMER FROM "
                                "performance_schema.tp_thread_group_state "
                                "WHERE TP_GROUP_ID >= 1 ORDER BY TP_GROUP_ID DESC")
    assert rows == [(2, 100, 1000), (1, 100, 1000)]
    _, rows = _query(admin, "SHOW DATABASES")
    assert ("performance_schema",) in rows
    _, rows = _query(admin, "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA "
                            "WHERE SCHEMA_NAME = 'performance_schema'")
    assert rows == [("performance_schema",)]
    _, rows = _query(admin, "SHOW TABLES FROM performance_schema LIKE 'tp%'")
    assert [r[0] for r in rows] == sorted(PS_COLUMNS)
    with pytest.raises(pymysql.err.OperationalError) as info:
        _query(admin, "DELETE FROM performance_schema.tp_thread_state")
    assert info.value.args[0] == 1044  # read-only
    with pytest.raises(pymysql.err.ProgrammingError) as info:
        _query(admin, "SELECT * FROM performance_schema.tp_no_such_table")
    assert info.value.args[0] == 1146
    me = server.connect()
    sql = ("SELECT TP_GROUP_ID, STATE, ACTIVE_FLAG FROM performance_schema.tp_connections "
           f"WHERE CONNECTION_ID = {me.thread_id()}")
    # id % thread_pool_size; idle once the worker that answered its login has re-armed it
    wait_until(lambda: _query(admin, sql)[1] == [(me.thread_id() % 3, "Armed", 0)],
               timeout=5, message="the new connection armed in its group")


def test_every_table_reads_the_same_counters(pool):
    server, admin = pool
    conns = [server.connect() for _ in range(7)]
    for c in conns:
        with c.cursor() as cur:
            cur.execute("SELECT SLEEP(0.01)")
    _, maria = _query(admin, "SELECT g.GROUP_ID, g.CONNECTIONS, g.THREADS, s.THREAD_CREATIONS "
                             "FROM information_schema.THREAD_POOL_GROUPS g JOIN "
                             "information_schema.THREAD_POOL_STATS s USING (GROUP_ID) "
                             "ORDER BY GROUP_ID")
    _, mysql = _query(admin, "SELECT st.TP_GROUP_ID, st.CONNECTION_COUNT, st.THREAD_COUNT, "
                             "ss.THREADS_STARTED FROM performance_schema.tp_thread_group_state st "
                             "JOIN performance_schema.tp_thread_group_stats ss "
                             "ON st.TP_GROUP_ID = ss.TP_GROUP_ID ORDER BY st.TP_GROUP_ID")
    names, txsql = _query(admin, "SHOW THREADPOOL STATUS")
    txsql_view = [(r[0], r[names.index("connection_count")], r[names.index("thread_count")],
                   r[names.index("create_thread_num")]) for r in txsql]
    assert maria == mysql == txsql_view
    assert sum(r[1] for r in maria) == 7
    _, waits = _query(admin, "SELECT SUM(SLEEP_WAITS) FROM performance_schema.tp_thread_group_stats")
    assert int(waits[0][0]) == 7
    _, (row,) = _query(admin, "SELECT COUNT FROM information_schema.THREAD_POOL_WAITS "
                              "WHERE REASON = 'SLEEP'")
    assert row[0] >= 7  # global (it also counts other handlers' waits)
    with admin.cursor() as cur:
        cur.execute("FLUSH THREAD_POOL_STATS")
    _, rows = _query(admin, "SELECT SUM(SLEEP_WAITS + THREADS_STARTED + QUERIES_EXECUTED) "
                            "FROM performance_schema.tp_thread_group_stats")
    assert int(rows[0][0]) == 0


def test_thread_state_shows_a_sleeping_statement(pool):
    server, admin = pool
    sleeper = server.connect()
    t, _ = _background(sleeper, "SELECT SLEEP(30)")
    row = wait_until(lambda: _query(
        admin, "SELECT TP_GROUP_ID, PROCESS_COUNT, TP_THREAD_TYPE, THREAD_ID FROM "
               "performance_schema.tp_thread_state WHERE WAIT_TYPE = 'THD_WAIT_SLEEP'")[1],
        message="the sleeping thread")[0]
    assert row[0] == sleeper.thread_id() % 3
    assert row[1] >= 1 and row[2] == "QUERY_WORKER_THREAD" and row[3] > 0
    _, groups = _query(admin, "SELECT TP_GROUP_ID FROM performance_schema.tp_thread_state "
                              "WHERE TP_THREAD_TYPE = 'LISTENER_WORKER_THREAD'")
    assert (row[0],) in groups  # a waiting statement handed the listener role to another
    with admin.cursor() as cur:
        cur.execute(f"KILL QUERY {sleeper.thread_id()}")
    t.join(10)


def test_tables_exist_and_are_empty_without_the_pool(server_factory):
    server = server_factory(thread_handling="one-thread-per-connection")
    conn = server.connect()
    for table in PS_COLUMNS:
        names, rows = _query(conn, f"SELECT * FROM performance_schema.{table}")
        assert names == PS_COLUMNS[table] and rows == []
    names, rows = _query(conn, "SHOW THREADPOOL STATUS")
    assert names[:len(TXSQL_COLUMNS)] == TXSQL_COLUMNS and rows == []
