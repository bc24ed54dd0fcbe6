"""Transactions, the write lock, reported waits, cancel(), user locks, close() and durability.

Threads synchronize on observable state (the waiting hook being entered) and are joined with
deadlines; nothing sleeps to let another thread "get there first".
"""

from __future__ import annotations

import time
from collections.abc import Callable
from decimal import Decimal

import pytest

from rampmeter import errors
from rampmeter.engine.base import UpdateCount, WaitReason
from rampmeter.engine.locks import WRITE_LOCK
from rampmeter.engine.sqlite import SqliteEngine, SqliteSession
from rampmeter.errors import ServerError

from .conftest import (
    FakeContext,
    WaitRecorder,
    fails,
    rows,
    scalar,
    set_lock_wait_timeout,
    start,
    update,
)

Opener = Callable[..., SqliteSession]


@pytest.fixture
def pair(open_session: Opener) -> tuple[SqliteSession, SqliteSession]:
    a = open_session(1)
    a.execute("CREATE DATABASE db")
    a.use("db")
    a.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))")
    a.execute("INSERT INTO t VALUES (1, 'one')")
    b = open_session(2, database="db")
    return a, b


def count(s: SqliteSession) -> int:
    return int(scalar(s, "SELECT COUNT(*) FROM t"))


# --- visibility ---------------------------------------------------------------------------------
def test_commit_makes_writes_visible(pair: tuple[SqliteSession, SqliteSession]) -> None:
    a, b = pair
    a.execute("BEGIN")
    assert a.in_transaction
    a.execute("INSERT INTO t VALUES (2, 'two')")
    assert count(a) == 2
    assert count(b) == 1  # not committed yet
    a.execute("COMMIT")
    assert not a.in_transaction
    assert count(b) == 2


def test_rollback_discards_writes(pair: tuple[SqliteSession, SqliteSession]) -> None:
    a, b = pair
    a.execute("START TRANSACTION")
    a.execute("UPDATE t SET v = 'changed' WHERE id = 1")
    a.execute("DELETE FROM t WHERE id = 1")
    a.execute("ROLLBACK")
    assert rows(b.execute("SELECT v FROM t")) == [("one",)]
    assert rows(a.execute("SELECT v FROM t")) == [("one",)]


def test_savepoints(pair: tuple[SqliteSession, SqliteSession]) -> None:
    a, b = pair
    a.execute("BEGIN")
    a.execute("INSERT INTO t VALUES (2, 'two')")
    a.execute("SAVEPOINT sp1")
    a.execute("INSERT INTO t VALUES (3, 'three')")
    a.execute("ROLLBACK TO SAVEPOINT sp1")
    a.execute("COMMIT")
    assert rows(b.execute("SELECT id FROM t ORDER BY id")) == [(1,), (2,)]
    fails(a, "ROLLBACK TO SAVEPOINT sp1", errors.ER_SP_DOES_NOT_EXIST)


def test_autocommit_off_starts_an_implicit_transaction(
        pair: tuple[SqliteSession, SqliteSession]) -> None:
    a, b = pair
    a.set_autocommit(False)
    assert not a.in_transaction
    a.execute("SELECT 1")
    assert a.in_transaction  # any statement opens it, as in MySQL
    a.execute("INSERT INTO t VALUES (2, 'two')")
    assert count(b) == 1
    a.execute("COMMIT")
    assert count(b) == 2
    a.execute("INSERT INTO t VALUES (3, 'three')")
    assert a.in_transaction  # the next statement opened the next transaction
    a.execute("ROLLBACK")
    assert count(b) == 2


def test_turning_autocommit_on_commits(pair: tuple[SqliteSession, SqliteSession]) -> None:
    a, b = pair
    a.set_autocommit(False)
    a.execute("INSERT INTO t VALUES (2, 'two')")
    a.set_autocommit(True)
    assert not a.in_transaction
    assert count(b) == 2


def test_ddl_commits_the_open_transaction(pair: tuple[SqliteSession, SqliteSession]) -> None:
    a, b = pair
    a.execute("BEGIN")
    a.execute("INSERT INTO t VALUES (2, 'two')")
    a.execute("CREATE TABLE other (x int)")
    assert not a.in_transaction
    a.execute("ROLLBACK")  # nothing left to roll back
    assert count(b) == 2


def test_read_only_transaction_rejects_writes(pair: tuple[SqliteSession, SqliteSession]) -> None:
    a, _b = pair
    a.execute("START TRANSACTION READ ONLY")
    assert count(a) == 1
    fails(a, "INSERT INTO t VALUES (2, 'two')", errors.ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION,
          "25006")
    a.execute("COMMIT")


def test_read_then_write_after_another_commit_succeeds(
        pair: tuple[SqliteSession, SqliteSession]) -> None:
    """autocommit=0 (PyMySQL's default): a transaction that read, then writes after someone
    else committed, succeeds as in MariaDB (no 1213), and its write acts on the latest rows."""
    a, b = pair
    a.set_autocommit(False)
    assert count(a) == 1  # a's snapshot starts here
    b.execute("INSERT INTO t VALUES (2, 'two')")  # autocommit: committed at once
    assert count(a) == 1  # repeatable read: a still sees its snapshot
    assert update(a, "UPDATE t SET v = 'x'").affected_rows == 2  # the write sees row 2
    assert a.txn.holds_write()
    a.execute("COMMIT")
    assert not a.txn.holds_write()
    assert rows(b.execute("SELECT v FROM t ORDER BY id")) == [("x",), ("x",)]


def test_explicit_transaction_keeps_its_savepoints_across_the_first_write(
        pair: tuple[SqliteSession, SqliteSession]) -> None:
    a, b = pair
    a.execute("BEGIN")
    assert count(a) == 1
    a.execute("SAVEPOINT s1")
    b.execute("INSERT INTO t VALUES (2, 'two')")
    a.execute("INSERT INTO t VALUES (3, 'three')")  # first write: a fresh snapshot
    a.execute("ROLLBACK TO SAVEPOINT s1")           # the savepoint survived it
    a.execute("INSERT INTO t VALUES (4, 'four')")
    a.execute("COMMIT")
    assert rows(b.execute("SELECT id FROM t ORDER BY id")) == [(1,), (2,), (4,)]


def test_concurrent_read_then_write_transactions_all_commit(open_session: Opener) -> None:
    """Many autocommit=0 sessions, each reading then writing, interleaved: all succeed."""
    first = open_session(1, lock_wait_timeout=10)
    first.execute("CREATE DATABASE db")
    first.use("db")
    first.execute("CREATE TABLE c (id INT PRIMARY KEY, n INT)")
    first.execute("INSERT INTO c VALUES (1, 0)")
    sessions = [open_session(10 + i, database="db", lock_wait_timeout=10) for i in range(8)]
    for s in sessions:
        s.set_autocommit(False)

    def job(s: SqliteSession) -> None:
        for _ in range(5):
            scalar(s, "SELECT n FROM c WHERE id = 1")
            s.execute("UPDATE c SET n = n + 1 WHERE id = 1")
            s.execute("COMMIT")

    workers = [start(lambda s=s: job(s)) for s in sessions]
    for w in workers:
        w.finish(timeout=20)
        assert w.error is None, w.error
    assert scalar(first, "SELECT n FROM c WHERE id = 1") == 40


# --- the write lock, its waits and its timeout -----------------------------------------------------
def test_writer_waits_for_open_transaction_then_proceeds(open_session: Opener,
                                                         waits: WaitRecorder) -> None:
    a = open_session(1, lock_wait_timeout=10)
    a.execute("CREATE DATABASE db")
    a.use("db")
    a.execute("CREATE TABLE t (id INT PRIMARY KEY)")
    b = open_session(2, database="db", lock_wait_timeout=10)
    a.execute("BEGIN")
    a.execute("INSERT INTO t VALUES (1)")
    worker = start(lambda: b.execute("INSERT INTO t VALUES (2)"))
    waits.wait_entered(WaitReason.TABLE_LOCK)
    assert worker.is_alive()
    a.execute("COMMIT")
    worker.finish(timeout=3)
    assert worker.error is None, worker.error
    assert isinstance(worker.result, UpdateCount) and worker.result.affected_rows == 1
    assert rows(a.execute("SELECT id FROM t ORDER BY id")) == [(1,), (2,)]


@pytest.mark.timeout(10)
def test_lock_wait_timeout_is_1205(pair: tuple[SqliteSession, SqliteSession],
                                   waits: WaitRecorder) -> None:
    a, b = pair  # innodb_lock_wait_timeout = 1 in the fake context
    a.execute("BEGIN")
    a.execute("UPDATE t SET v = 'mine' WHERE id = 1")
    begin = time.monotonic()
    with pytest.raises(ServerError) as info:
        b.execute("UPDATE t SET v = 'yours' WHERE id = 1")
    elapsed = time.monotonic() - begin
    assert (info.value.code, info.value.sqlstate) == (errors.ER_LOCK_WAIT_TIMEOUT, "HY000")
    assert 0.9 <= elapsed < 3
    assert waits.reasons == [WaitReason.TABLE_LOCK]
    assert not b.in_transaction
    a.execute("COMMIT")
    assert rows(b.execute("SELECT v FROM t")) == [("mine",)]


def test_select_does_not_wait_for_a_writer(pair: tuple[SqliteSession, SqliteSession],
                                           waits: WaitRecorder) -> None:
    a, b = pair
    a.execute("BEGIN")
    a.execute("INSERT INTO t VALUES (2, 'two')")
    assert count(b) == 1
    assert waits.reasons == []
    a.execute("ROLLBACK")


def test_select_for_update_in_a_transaction_takes_the_write_lock(
        pair: tuple[SqliteSession, SqliteSession], waits: WaitRecorder) -> None:
    a, b = pair
    a.set_autocommit(False)
    assert rows(a.execute("SELECT v FROM t WHERE id = 1 FOR UPDATE")) == [("one",)]
    assert a.engine.locks.owner_of(WRITE_LOCK) is a.txn
    set_lock_wait_timeout(b, 0.05)
    fails(b, "DELETE FROM t", errors.ER_LOCK_WAIT_TIMEOUT)
    assert waits.reasons == [WaitReason.TABLE_LOCK]
    a.execute("COMMIT")
    assert a.engine.locks.owner_of(WRITE_LOCK) is None


def test_autocommit_write_holds_the_lock_for_one_statement(
        pair: tuple[SqliteSession, SqliteSession]) -> None:
    a, b = pair
    a.execute("INSERT INTO t VALUES (2, 'two')")
    assert a.engine.locks.owner_of(WRITE_LOCK) is None
    b.execute("INSERT INTO t VALUES (3, 'three')")  # no wait
    fails(a, "INSERT INTO t VALUES (3, 'dup')", errors.ER_DUP_ENTRY)
    assert a.engine.locks.owner_of(WRITE_LOCK) is None  # released on error too


def test_cancel_of_a_lock_wait_is_1317(open_session: Opener, waits: WaitRecorder) -> None:
    a = open_session(1, lock_wait_timeout=30)
    a.execute("CREATE DATABASE db")
    a.use("db")
    a.execute("CREATE TABLE t (id INT)")
    b = open_session(2, database="db", lock_wait_timeout=30)
    a.execute("BEGIN")
    a.execute("INSERT INTO t VALUES (0)")  # the first write takes the lock
    worker = start(lambda: b.execute("INSERT INTO t VALUES (1)"))
    waits.wait_entered(WaitReason.TABLE_LOCK)
    b.cancel()
    worker.finish(timeout=2)
    assert isinstance(worker.error, ServerError)
    assert (worker.error.code, worker.error.sqlstate) == (errors.ER_QUERY_INTERRUPTED, "70100")
    assert a.engine.locks.owner_of(WRITE_LOCK) is a.txn  # the holder is unaffected
    a.execute("COMMIT")
    assert b.execute("INSERT INTO t VALUES (2)").affected_rows == 1  # type: ignore[union-attr]


def test_cancel_between_statements_is_forgotten(pair: tuple[SqliteSession, SqliteSession]) -> None:
    a, _b = pair
    a.cancel()
    assert count(a) == 1


@pytest.mark.timeout(10)
def test_sleep_reports_its_wait_and_cancel_ends_it(pair: tuple[SqliteSession, SqliteSession],
                                                   waits: WaitRecorder) -> None:
    a, b = pair
    worker = start(lambda: a.execute("SELECT SLEEP(5)"))
    waits.wait_entered(WaitReason.SLEEP)
    canceller = start(a.cancel)  # KILL QUERY comes from another thread
    canceller.finish(timeout=2)
    worker.finish(timeout=2)
    assert worker.elapsed < 2
    assert isinstance(worker.error, ServerError)
    assert worker.error.code == errors.ER_QUERY_INTERRUPTED
    assert waits.reasons == [WaitReason.SLEEP]
    assert count(a) == 1  # the session still works


def test_short_sleep_returns_zero(pair: tuple[SqliteSession, SqliteSession],
                                  waits: WaitRecorder) -> None:
    a, _b = pair
    assert scalar(a, "SELECT SLEEP(0.01)") == 0
    assert scalar(a, "SELECT SLEEP(0)") == 0
    assert waits.reasons == [WaitReason.SLEEP]  # SLEEP(0) does not wait at all


def test_holds_write_from_the_first_write_to_commit(
        pair: tuple[SqliteSession, SqliteSession]) -> None:
    """What the pool reads to queue the write-lock holder first (sched/priority.py rule 3):
    a transaction holds it from its first write to COMMIT / ROLLBACK, a reading transaction
    and an autocommit write (released at the statement's end) never show it."""
    a, b = pair
    a.execute("BEGIN")
    assert count(a) == 1
    assert a.in_transaction and not a.holds_write
    a.execute("UPDATE t SET v = 'uno' WHERE id = 1")
    assert a.holds_write and not b.holds_write
    a.execute("COMMIT")
    assert not a.holds_write
    b.execute("INSERT INTO t VALUES (3, 'three')")  # autocommit
    assert not b.holds_write
    a.execute("BEGIN")
    a.execute("DELETE FROM t WHERE id = 3")
    assert a.holds_write
    a.execute("ROLLBACK")
    assert not a.holds_write


# --- user locks -------------------------------------------------------------------------------------
def test_get_lock_release_lock_is_used_lock(pair: tuple[SqliteSession, SqliteSession],
                                            waits: WaitRecorder) -> None:
    a, b = pair
    assert not a.holds_locks
    assert scalar(a, "SELECT GET_LOCK('job', 5)") == 1
    assert a.holds_locks and not b.holds_locks
    assert scalar(b, "SELECT IS_USED_LOCK('JOB')") == 1  # names are case-insensitive
    assert scalar(b, "SELECT IS_FREE_LOCK('job')") == 0
    assert scalar(b, "SELECT GET_LOCK('job', 0.05)") == 0  # timed out
    assert waits.reasons == [WaitReason.USER_LOCK]
    assert scalar(b, "SELECT RELEASE_LOCK('job')") == 0  # held by someone else
    assert scalar(a, "SELECT RELEASE_LOCK('job')") == 1
    assert not a.holds_locks
    assert scalar(a, "SELECT RELEASE_LOCK('job')") is None  # nobody holds it
    assert scalar(b, "SELECT IS_USED_LOCK('job')") is None
    assert scalar(b, "SELECT GET_LOCK('job', 0)") == 1
    assert b.holds_locks


def test_user_locks_are_reentrant(pair: tuple[SqliteSession, SqliteSession]) -> None:
    a, b = pair
    assert rows(a.execute("SELECT GET_LOCK('x', 0), GET_LOCK('x', 0), GET_LOCK('y', 0)")) == [
        (1, 1, 1)]
    assert scalar(a, "SELECT RELEASE_LOCK('x')") == 1
    assert a.holds_locks
    assert scalar(b, "SELECT IS_USED_LOCK('x')") == 1  # one hold left
    assert scalar(a, "SELECT RELEASE_ALL_LOCKS()") == 2
    assert not a.holds_locks
    assert rows(b.execute("SELECT IS_FREE_LOCK('x'), IS_FREE_LOCK('y')")) == [(1, 1)]


def test_get_lock_waiter_gets_the_lock_when_released(open_session: Opener,
                                                     waits: WaitRecorder) -> None:
    a = open_session(1)
    b = open_session(2)
    assert scalar(a, "SELECT GET_LOCK('l', 0)") == 1
    worker = start(lambda: scalar(b, "SELECT GET_LOCK('l', 10)"))
    waits.wait_entered(WaitReason.USER_LOCK)
    assert scalar(a, "SELECT RELEASE_LOCK('l')") == 1
    worker.finish(timeout=2)
    assert worker.error is None and worker.result == 1
    assert scalar(a, "SELECT IS_USED_LOCK('l')") == 2


def test_cancel_of_get_lock_wait_is_1317(open_session: Opener, waits: WaitRecorder) -> None:
    a = open_session(1)
    b = open_session(2)
    a.execute("SELECT GET_LOCK('l', 0)")
    worker = start(lambda: b.execute("SELECT GET_LOCK('l', 30)"))
    waits.wait_entered(WaitReason.USER_LOCK)
    b.cancel()
    worker.finish(timeout=2)
    assert isinstance(worker.error, ServerError)
    assert worker.error.code == errors.ER_QUERY_INTERRUPTED
    assert not b.holds_locks


def test_lock_tables_write_makes_others_wait_for_its_table(
        pair: tuple[SqliteSession, SqliteSession]) -> None:
    a, b = pair
    a.execute("LOCK TABLES t WRITE")
    assert a.holds_locks
    set_lock_wait_timeout(b, 0.05)
    fails(b, "INSERT INTO t VALUES (5, 'x')", errors.ER_LOCK_WAIT_TIMEOUT)
    fails(b, "SELECT * FROM t", errors.ER_LOCK_WAIT_TIMEOUT)  # a read waits for WRITE too
    a.execute("INSERT INTO t VALUES (5, 'x')")  # the holder may write
    a.execute("UNLOCK TABLES")
    assert not a.holds_locks
    b.execute("INSERT INTO t VALUES (6, 'y')")


def test_lock_tables_of_different_tables_do_not_wait(
        pair: tuple[SqliteSession, SqliteSession]) -> None:
    a, b = pair
    a.execute("CREATE TABLE u (id INT)")
    a.execute("LOCK TABLES t WRITE")
    set_lock_wait_timeout(b, 0.05)
    b.execute("LOCK TABLES u WRITE")  # MariaDB's locks are per table
    b.execute("INSERT INTO u VALUES (1)")
    a.execute("INSERT INTO t VALUES (7, 'z')")
    fails(b, "LOCK TABLES t READ", errors.ER_LOCK_WAIT_TIMEOUT)
    a.execute("UNLOCK TABLES")
    b.execute("UNLOCK TABLES")
    assert count(b) == 2


def test_lock_tables_read_is_shared_and_lets_others_read(
        pair: tuple[SqliteSession, SqliteSession]) -> None:
    a, b = pair
    a.execute("LOCK TABLES t READ")
    set_lock_wait_timeout(b, 0.05)
    assert count(b) == 1  # a read of a READ-locked table does not wait
    fails(b, "UPDATE t SET v = 'w'", errors.ER_LOCK_WAIT_TIMEOUT)
    b.execute("LOCK TABLES t READ")  # READ with READ
    b.execute("UNLOCK TABLES")
    a.execute("UNLOCK TABLES")
    b.execute("UPDATE t SET v = 'w'")


# --- close, reset and durability ---------------------------------------------------------------------
def test_close_rolls_back_and_releases_every_lock(pair: tuple[SqliteSession, SqliteSession],
                                                  waits: WaitRecorder) -> None:
    a, b = pair
    a.execute("SELECT GET_LOCK('u', 0)")
    a.execute("BEGIN")
    a.execute("INSERT INTO t VALUES (2, 'two')")
    a.close()
    a.close()  # idempotent
    assert a.engine.locks.owner_of(WRITE_LOCK) is None
    b.execute("INSERT INTO t VALUES (3, 'three')")  # no wait for the write lock
    assert waits.reasons == []
    assert rows(b.execute("SELECT id FROM t ORDER BY id")) == [(1,), (3,)]
    assert scalar(b, "SELECT IS_FREE_LOCK('u')") == 1


def test_close_wakes_a_waiting_writer(open_session: Opener, waits: WaitRecorder) -> None:
    a = open_session(1, lock_wait_timeout=10)
    a.execute("CREATE DATABASE db")
    a.use("db")
    a.execute("CREATE TABLE t (id INT)")
    b = open_session(2, database="db", lock_wait_timeout=10)
    a.execute("BEGIN")
    a.execute("INSERT INTO t VALUES (1)")
    worker = start(lambda: b.execute("INSERT INTO t VALUES (2)"))
    waits.wait_entered(WaitReason.TABLE_LOCK)
    a.close()
    worker.finish(timeout=2)
    assert worker.error is None, worker.error
    assert rows(b.execute("SELECT id FROM t")) == [(2,)]


def test_reset_rolls_back_and_forgets_state(pair: tuple[SqliteSession, SqliteSession]) -> None:
    a, b = pair
    a.set_autocommit(False)
    a.execute("INSERT INTO t VALUES (2, 'two')")
    a.execute("SELECT GET_LOCK('r', 0)")
    a.execute("SELECT LAST_INSERT_ID(9)")
    a.reset()
    assert not a.in_transaction and not a.holds_locks
    assert a.last_insert_id == 0
    assert count(b) == 1
    a.execute("INSERT INTO t VALUES (3, 'three')")  # autocommit is back on
    assert count(b) == 2


def test_committed_data_survives_an_engine_restart(engine: SqliteEngine,
                                                   open_session: Opener) -> None:
    a = open_session(1)
    a.execute("CREATE DATABASE keep")
    a.use("keep")
    a.execute("CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, v DECIMAL(6,2))")
    a.execute("BEGIN")
    a.execute("INSERT INTO t (v) VALUES (1.5), (2.25)")
    a.execute("COMMIT")
    a.execute("BEGIN")
    a.execute("INSERT INTO t (v) VALUES (99)")  # never committed
    a.close()
    engine.close()

    again = SqliteEngine(engine.datadir)
    s = again.open_session(FakeContext(7), WaitRecorder())
    try:
        assert "keep" in s.list_databases()
        s.use("keep")
        assert rows(s.execute("SELECT id, v FROM t ORDER BY id")) == [
            (1, Decimal("1.50")), (2, Decimal("2.25"))]
        assert [c.extra for c in s.table_columns("t")] == ["auto_increment", ""]
        assert s.execute("INSERT INTO t (v) VALUES (3)").last_insert_id == 3  # type: ignore
    finally:
        s.close()
        again.close()


def test_flush_tables_with_read_lock_blocks_writers_until_unlock(session, open_session, waits):
    holder = session
    writer = open_session(2, database="db")
    holder.execute("CREATE TABLE t (x INT)")
    holder.execute("FLUSH TABLES WITH READ LOCK")
    assert holder.holds_locks
    with pytest.raises(ServerError) as exc:
        writer.execute("INSERT INTO t VALUES (1)")  # innodb_lock_wait_timeout is 1 s here
    assert exc.value.code == 1205
    # MariaDB 10.11's FTWRL is its backup lock, an MDL: the writer waits as META_DATA_LOCK
    assert WaitReason.META_DATA_LOCK in waits.reasons
    for sql in ("INSERT INTO t VALUES (2)", "CREATE TABLE u (x INT)", "DROP TABLE t"):
        with pytest.raises(ServerError) as exc:  # the holder may not write itself
            holder.execute(sql)
        assert exc.value.code == 1223, sql
    holder.execute("UNLOCK TABLES")
    assert not holder.holds_locks
    writer.execute("INSERT INTO t VALUES (1)")


def _two_databases(open_session: Opener) -> SqliteSession:
    a = open_session(1)
    for db in ("one", "two"):
        a.execute(f"CREATE DATABASE {db}")
        a.execute(f"CREATE TABLE {db}.t (id INT PRIMARY KEY)")
        a.execute(f"INSERT INTO {db}.t VALUES (1)")
    return a


def test_consistent_snapshot_covers_every_database(open_session: Opener,
                                                   engine: SqliteEngine) -> None:
    """mariadb-dump --single-transaction --all-databases: START TRANSACTION WITH CONSISTENT
    SNAPSHOT, then USE of each database, reading all of them from the same moment."""
    writer = _two_databases(open_session)
    dumper = open_session(2)
    dumper.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT")
    writer.execute("INSERT INTO two.t VALUES (2)")
    dumper.use("one")
    assert scalar(dumper, "SELECT COUNT(*) FROM t") == 1
    dumper.use("two")
    assert scalar(dumper, "SELECT COUNT(*) FROM t") == 1   # the snapshot's, not the new row
    dumper.execute("COMMIT")
    assert scalar(dumper, "SELECT COUNT(*) FROM t") == 2
    assert engine.databases().count("information_schema") == 1


def test_first_use_of_a_database_inside_a_transaction(open_session: Opener) -> None:
    _two_databases(open_session)
    s = open_session(2, database="one")
    s.execute("BEGIN")
    assert scalar(s, "SELECT COUNT(*) FROM t") == 1
    s.use("two")                               # nothing written yet: allowed
    assert scalar(s, "SELECT COUNT(*) FROM t") == 1
    s.execute("ROLLBACK")
    s3 = open_session(3, database="one")
    s3.execute("BEGIN")
    assert scalar(s3, "SELECT COUNT(*) FROM t") == 1   # its handle is its own from here
    # a database its handle has never attached (one made while s3's transaction is open, so
    # no shared handle can be lent to it with that database)
    maker = open_session(4)
    maker.execute("CREATE DATABASE three")
    maker.execute("CREATE TABLE three.t (id INT PRIMARY KEY)")
    s3.execute("INSERT INTO t VALUES (5)")
    err = fails(s3, "SELECT COUNT(*) FROM three.t", errors.ER_NOT_SUPPORTED_YET)
    assert "written" in err.message
    s3.execute("ROLLBACK")


def test_read_only_waits_for_other_sessions_lock_tables_write(
        pair: tuple[SqliteSession, SqliteSession]) -> None:
    """SET GLOBAL read_only = 1 takes the global read lock for a moment: it waits for another
    session's LOCK TABLES ... WRITE (1205 at the timeout), not for a READ one."""
    a, b = pair
    a.execute("LOCK TABLES t WRITE")
    with pytest.raises(ServerError) as e:
        b.wait_for_read_only(0.05)
    assert e.value.code == errors.ER_LOCK_WAIT_TIMEOUT
    a.execute("LOCK TABLES t READ")
    b.wait_for_read_only(0.05)
    a.execute("UNLOCK TABLES")
