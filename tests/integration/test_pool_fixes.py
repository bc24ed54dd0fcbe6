"""Issue 12 item 5 through real clients: what the transaction limit holds back (and what it must
never hold), logins and tickets, reported commit fsyncs and SQLite busy waits, shrinking.
Synchronised on the status tables with deadlines, never on bare sleeps."""

from __future__ import annotations

import sqlite3
import threading
import time

import pymysql
import pytest

from tests.conftest import free_port, wait_until
from tests.integration.test_pool import (
    CPU_BOUND,
    ONE_AT_A_TIME,
    _background,
    _calibrate,
    _present,
    _queued,
    _running,
)

pytestmark = pytest.mark.timeout(120)


def _rows(conn, sql: str) -> list[tuple]:
    with conn.cursor() as cur:
        cur.execute(sql)
        return list(cur.fetchall())


def _count(conn, sql: str) -> int:
    with conn.cursor() as cur:
        cur.execute(sql)
        return int(cur.fetchone()[0])


def _waits(server, reason: str) -> int:
    return int(server.query("SELECT COUNT FROM information_schema.THREAD_POOL_WAITS "
                            f"WHERE REASON = '{reason}'", port=server.extra_port or server.port)
               [0][0])


def _with_app_account(server):
    """The limit holds back applications, not administrators (root has CONNECTION ADMIN):
    an ordinary account that may work in database `test`, as an application would log in."""
    server.query("CREATE DATABASE IF NOT EXISTS test")
    server.query("CREATE USER 'app'@'%' IDENTIFIED BY 'pw'")
    server.query("GRANT ALL ON test.* TO 'app'@'%'")
    return lambda **kw: server.connect(user="app", password="pw", database="test", **kw)


def test_transaction_limit_holds_new_work_but_never_quit_kill_or_timeout(server_factory):
    server = server_factory(thread_pool_size=1, thread_pool_max_transactions_limit=1,
                            thread_pool_longrun_trx_limit=0, thread_pool_stall_limit=100,
                            extra_port=free_port())
    app = _with_app_account(server)
    admin = server.connect(port=server.extra_port)
    pool_admin = server.connect()  # root on the pool's port: CONNECTION ADMIN, never held
    holder, waiter, quitter, victim, idler = (app() for _ in range(5))
    with idler.cursor() as cur:
        cur.execute("SET SESSION wait_timeout = 1")
    with holder.cursor() as cur:
        cur.execute("BEGIN")
        cur.execute("SELECT 1")  # the group's only transaction slot is held, idle
    jobs = [_background(waiter, "SELECT 'waited'"), _background(victim, "SELECT 'victim'")]
    for c in (waiter, victim):
        wait_until(lambda c=c: _queued(admin, c.thread_id()), message="a held-back request")
    # a new connection is held back too: it cannot log in while the limit is reached
    with pytest.raises(pymysql.err.OperationalError):
        app(connect_timeout=1, read_timeout=1)
    # ...but an administrator's statements are not (root holds CONNECTION ADMIN)
    assert _rows(pool_admin, "SELECT 'admin passes'") == [("admin passes",)]
    # ...but a client can always leave, be killed, or time out
    quitter_id = quitter.thread_id()
    quitter.close()
    wait_until(lambda: not _present(admin, quitter_id), timeout=5, message="the quit")
    with admin.cursor() as cur:
        cur.execute(f"KILL {victim.thread_id()}")
    wait_until(lambda: not _present(admin, victim.thread_id()), timeout=5, message="the kill")
    wait_until(lambda: not _present(admin, idler.thread_id()), timeout=10,
               message="the wait_timeout expiry")
    assert _queued(admin, waiter.thread_id())  # still held: the slot is still taken
    with holder.cursor() as cur:
        cur.execute("COMMIT")
    jobs[0][0].join(10)
    assert jobs[0][1].get("rows") == (("waited",),)
    assert server.query("SELECT 'after'") == (("after",),)


def test_long_transactions_suspend_the_limit(server_factory):
    server = server_factory(thread_pool_size=1, thread_pool_max_transactions_limit=1,
                            thread_pool_longrun_trx_limit=300, thread_pool_stall_limit=100)
    app = _with_app_account(server)
    holder, other = app(), app()
    with holder.cursor() as cur:
        cur.execute("BEGIN")
        cur.execute("SELECT 1")
    started = time.monotonic()
    with other.cursor() as cur:
        cur.execute("SELECT 'through'")  # runs once the holder's transaction is 300 ms old
        assert cur.fetchone() == ("through",)
    assert 0.25 < time.monotonic() - started < 5


def test_transaction_delay_spaces_out_new_transactions_only(server_factory):
    server = server_factory(thread_pool_size=1)
    server.query("SET GLOBAL thread_pool_transaction_delay = 300")
    conn = _with_app_account(server)()  # an administrator's transactions are not delayed
    with conn.cursor() as cur:
        cur.execute("BEGIN")  # a new transaction: delayed
        started = time.monotonic()
        cur.execute("SELECT 1")  # inside it: not delayed
        assert time.monotonic() - started < 0.25
        cur.execute("COMMIT")
        started = time.monotonic()
        cur.execute("SELECT 2")  # autocommit: a new transaction again
        assert time.monotonic() - started >= 0.29
    root = server.connect()
    started = time.monotonic()
    assert _rows(root, "SELECT 'root'") == [("root",)]  # CONNECTION ADMIN: no delay
    assert time.monotonic() - started < 0.25


def test_login_and_lock_holders_pass_a_frozen_low_queue(server_factory):
    """Percona's LOW freeze (active + lock-waiting > 1 + oversubscribe: with oversubscribe 1,
    two writers waiting for the table lock and the dequeuing worker itself) with a kick-up timer
    of a minute: a new client still logs in (its login rounds are HIGH), and the LOCK TABLES
    holder still gets its UNLOCK TABLES through (lp#1619559)."""
    server = server_factory(thread_pool_size=1, thread_pool_oversubscribe=1,
                            thread_pool_prio_kickup_timer=60000, thread_pool_stall_limit=100,
                            thread_pool_dedicated_listener=1, extra_port=free_port())
    server.query("CREATE DATABASE fz")
    server.query("CREATE TABLE fz.t (x INT)")
    admin = server.connect(port=server.extra_port)
    holder = server.connect(database="fz")
    writers = [server.connect(database="fz") for _ in range(2)]
    readers = [server.connect() for _ in range(2)]
    with holder.cursor() as cur:
        cur.execute("LOCK TABLES t WRITE")
    jobs = [_background(w, "INSERT INTO t VALUES (1)") for w in writers]
    wait_until(lambda: _count(admin, "SELECT COUNT(*) FROM information_schema.PROCESSLIST "
                              "WHERE STATE = 'Waiting for table metadata lock'") == 2,
               message="two writers waiting for the table lock")
    jobs += [_background(r, "SELECT 'low'") for r in readers]
    for r in readers:
        wait_until(lambda r=r: _queued(admin, r.thread_id()), message="a frozen LOW entry")
    known = {r[0] for r in _rows(admin, "SELECT ID FROM information_schema.PROCESSLIST")}
    box: dict[str, object] = {}
    late = threading.Thread(target=lambda: box.setdefault("conn", server.connect()), daemon=True)
    late.start()
    # The login rounds are HIGH: the new session is logged in (it is in the processlist) while
    # the first ordinary statement PyMySQL sends after login (SET NAMES) waits, frozen, in LOW.
    new_id = wait_until(lambda: {r[0] for r in _rows(
        admin, "SELECT ID FROM information_schema.PROCESSLIST WHERE USER = 'root'")} - known,
        timeout=5, message="the new client logged in").pop()
    wait_until(lambda: _rows(admin, "SELECT PRIORITY FROM information_schema.THREAD_POOL_QUEUES "
                                    f"WHERE CONNECTION_ID = {new_id}") == [(1,)],
               message="its first statement frozen in LOW")
    with holder.cursor() as cur:
        cur.execute("UNLOCK TABLES")  # a lock holder is HIGH: it gets through the freeze
    for t, job in jobs:
        t.join(20)
        assert "error" not in job, job
    late.join(20)
    assert box["conn"].thread_id() == new_id
    assert server.query("SELECT COUNT(*) FROM fz.t") == ((2,),)


def test_high_prio_tickets_start_from_the_sessions_value(server_factory):
    server = server_factory(**ONE_AT_A_TIME, extra_port=free_port())
    server.query("SET GLOBAL thread_pool_high_prio_tickets = 0")
    admin = server.connect(port=server.extra_port)
    trx = server.connect()  # its session starts with 0 tickets
    with trx.cursor() as cur:
        cur.execute("BEGIN")
        cur.execute("SELECT 1")
    blocker = server.connect()
    n = _calibrate(server, 60.0)
    bt, _ = _background(blocker, CPU_BOUND.format(n=n))
    wait_until(lambda: _running(admin, blocker.thread_id()), message="the blocker")
    tt, tbox = _background(trx, "SELECT 2")
    wait_until(lambda: _queued(admin, trx.thread_id()), message="the transaction's entry")
    with admin.cursor() as cur:
        cur.execute("SELECT PRIORITY FROM information_schema.THREAD_POOL_QUEUES "
                    f"WHERE CONNECTION_ID = {trx.thread_id()}")
        assert cur.fetchone() == (1,)  # LOW: no tickets to spend (was HIGH with 4294967295)
        cur.execute(f"KILL QUERY {blocker.thread_id()}")
    tt.join(30)
    bt.join(30)
    assert tbox.get("rows") == ((2,),)


def test_commit_fsync_is_a_diskio_wait(server_factory):
    server = server_factory(sqlite_synchronous="FULL")
    server.query("CREATE DATABASE dk")
    server.query("CREATE TABLE dk.t (x INT)")
    before = _waits(server, "DISKIO")
    server.query("INSERT INTO dk.t VALUES (1)")                  # autocommit: one commit
    assert _waits(server, "DISKIO") == before + 1
    conn = server.connect(database="dk", autocommit=False)
    with conn.cursor() as cur:
        cur.execute("INSERT INTO t VALUES (2)")
        cur.execute("INSERT INTO t VALUES (3)")
        conn.commit()                                            # one commit, one fsync
        cur.execute("SELECT COUNT(*) FROM t")
        assert cur.fetchone() == (3,)
        conn.commit()                                            # read only: no fsync
    assert _waits(server, "DISKIO") == before + 2


def test_sqlite_busy_waits_are_reported_and_survived(server_factory):
    server = server_factory(thread_pool_size=1, extra_port=free_port())
    server.query("CREATE DATABASE bz")
    server.query("CREATE TABLE bz.t (x INT)")
    server.query("INSERT INTO bz.t VALUES (1)")
    before = _waits(server, "TABLE_LOCK")
    # Another process holds the file's write lock (the server's idle engine handles keep the
    # file open, so it cannot be locked exclusively, but its writer can be kept out): the
    # server's write meets SQLITE_BUSY.
    outsider = sqlite3.connect(server.datadir / "bz.sqlite3", isolation_level=None)
    outsider.execute("BEGIN IMMEDIATE")
    outsider.execute("INSERT INTO t VALUES (2)")
    writer = server.connect(autocommit=True)
    t, box = _background(writer, "INSERT INTO bz.t VALUES (3)")
    wait_until(lambda: _waits(server, "TABLE_LOCK") > before, timeout=5,
               message="the busy wait reported to the pool")
    outsider.execute("COMMIT")
    outsider.close()
    t.join(10)
    assert "error" not in box, box
    assert server.query("SELECT COUNT(*) FROM bz.t") == ((3,),)


def test_shrinking_the_pool_lets_surplus_threads_leave(server_factory):
    server = server_factory(thread_pool_size=4)
    conns = [server.connect() for _ in range(8)]
    for c in conns:
        with c.cursor() as cur:
            cur.execute("SELECT 1")
    server.query("SET GLOBAL thread_pool_size = 1")
    for c in conns:
        with c.cursor() as cur:
            cur.execute("SELECT 2")  # moves to group 0 after this command
    wait_until(lambda: server.query(
        "SELECT SUM(THREADS), SUM(CONNECTIONS) FROM information_schema.THREAD_POOL_GROUPS "
        "WHERE GROUP_ID > 0") == ((0, 0),), timeout=10,
        message="no thread left in groups 1-3")
    assert server.query("SELECT 3") == ((3,),)


def test_kickup_rate_variable(server):
    conn = server.connect()
    with conn.cursor() as cur:
        cur.execute("SELECT @@thread_pool_prio_kickup_rate, @@thread_pool_transaction_delay, "
                    "@@thread_pool_longrun_trx_limit")
        assert cur.fetchone() == (0, 0, 2000)
        cur.execute("SET GLOBAL thread_pool_prio_kickup_rate = 100")
        cur.execute("SELECT @@global.thread_pool_prio_kickup_rate")
        assert cur.fetchone() == (100,)
        with pytest.raises(pymysql.err.OperationalError) as info:
            cur.execute("SET SESSION thread_pool_prio_kickup_rate = 1")
        assert info.value.args[0] == 1229
        cur.execute("SET GLOBAL thread_pool_prio_kickup_rate = DEFAULT")
