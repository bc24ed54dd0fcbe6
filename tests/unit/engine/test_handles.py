"""Engine handles lent to sessions (engine/sqlite/handles.py, pinning.py): sessions share a few
sqlite3 connections between statements and keep one only while pinned.

Sessions here call idle() by hand where the server would (after each command)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from rampmeter import errors
from rampmeter.engine.sqlite import SqliteEngine, SqliteSession
from rampmeter.engine.sqlite.handles import HandlePool

from .conftest import FakeContext, WaitRecorder, fails, rows, scalar

Opener = Callable[..., SqliteSession]


@pytest.fixture
def opener(engine: SqliteEngine, waits: WaitRecorder) -> Opener:
    sessions: list[SqliteSession] = []

    def factory(connection_id: int, database: str | None = None) -> SqliteSession:
        s = engine.open_session(FakeContext(connection_id), waits)
        sessions.append(s)
        if database is not None:
            s.use(database)
            s.idle()
        return s

    yield factory  # type: ignore[misc]
    for s in sessions:
        s.close()


def run(s: SqliteSession, sql: str) -> list[tuple[object, ...]] | None:
    """One command as the server runs it: execute, then idle()."""
    try:
        result = s.execute(sql)
        return rows(result) if hasattr(result, "rows") else None
    finally:
        s.idle()


@pytest.fixture
def db(opener: Opener) -> Opener:
    a = opener(100)
    run(a, "CREATE DATABASE db")
    run(a, "CREATE TABLE db.t (id INT PRIMARY KEY AUTO_INCREMENT, v INT)")
    run(a, "INSERT INTO db.t (v) VALUES (1)")
    return opener


def test_idle_sessions_hold_no_handle_and_share_one(db: Opener, engine: SqliteEngine) -> None:
    sessions = [db(i, "db") for i in range(1, 21)]
    for s in sessions:
        assert run(s, "SELECT v FROM t WHERE id = 1") == [(1,)]
        assert s._handle is None
    assert engine.handles.opened == 1      # one at a time: one handle served all
    assert engine.handles.idle_count() == 1


def test_functions_answer_for_the_session_holding_the_handle(db: Opener,
                                                              engine: SqliteEngine) -> None:
    a, b = db(7, "db"), db(8, "db")
    run(a, "INSERT INTO t (v) VALUES (2)")
    assert run(a, "SELECT CONNECTION_ID(), LAST_INSERT_ID(), DATABASE()") == [(7, 2, "db")]
    assert run(b, "SELECT CONNECTION_ID(), LAST_INSERT_ID()") == [(8, 0)]
    b.context.user_variables["x"] = 5  # type: ignore[attr-defined]  # the session layer's
    assert run(b, "SELECT @x") == [(5,)]
    assert run(a, "SELECT @x") == [(None,)]
    assert engine.handles.opened == 1


def test_settings_are_read_per_statement_not_left_on_the_handle(db: Opener) -> None:
    strict, lax = db(1, "db"), db(2, "db")
    lax.context.variables["sql_mode"] = ""  # type: ignore[attr-defined]
    run(lax, "CREATE TABLE small (x TINYINT)")
    fails(strict, "INSERT INTO small VALUES (1000)", errors.ER_WARN_DATA_OUT_OF_RANGE)
    strict.idle()
    run(lax, "INSERT INTO small VALUES (1000)")
    assert run(strict, "SELECT x FROM small") == [(127,)]
    fails(strict, "INSERT INTO small VALUES (1000)", errors.ER_WARN_DATA_OUT_OF_RANGE)


def test_an_open_transaction_pins_and_keeps_its_snapshot(db: Opener,
                                                         engine: SqliteEngine) -> None:
    reader, writer = db(1, "db"), db(2, "db")
    run(reader, "BEGIN")
    assert run(reader, "SELECT v FROM t WHERE id = 1") == [(1,)]
    assert reader.pinned and reader._handle is not None
    run(writer, "UPDATE t SET v = 2 WHERE id = 1")          # on another handle
    assert engine.handles.opened == 2
    assert run(reader, "SELECT v FROM t WHERE id = 1") == [(1,)]   # REPEATABLE READ
    run(reader, "COMMIT")
    assert reader._handle is None
    assert run(reader, "SELECT v FROM t WHERE id = 1") == [(2,)]


def test_autocommit_off_pins_once_a_statement_opened_the_transaction(db: Opener) -> None:
    s = db(1, "db")
    s.set_autocommit(False)
    s.idle()
    assert s._handle is None                       # nothing opened yet
    run(s, "SELECT v FROM t")
    assert s.pinned
    run(s, "ROLLBACK")
    assert s._handle is None


def test_savepoints_live_on_the_pinned_handle(db: Opener) -> None:
    s = db(1, "db")
    run(s, "BEGIN")
    run(s, "INSERT INTO t (v) VALUES (10)")
    run(s, "SAVEPOINT a")
    run(s, "INSERT INTO t (v) VALUES (11)")
    run(s, "ROLLBACK TO SAVEPOINT a")
    run(s, "COMMIT")
    assert run(s, "SELECT v FROM t ORDER BY id") == [(1,), (10,)]


def test_temporary_tables_pin_and_leave_with_their_handle(db: Opener,
                                                          engine: SqliteEngine) -> None:
    s, other = db(1, "db"), db(2, "db")
    run(s, "CREATE TEMPORARY TABLE tmp (x INT)")
    run(s, "INSERT INTO tmp VALUES (1)")
    assert s.pinned
    fails(other, "SELECT x FROM tmp", errors.ER_NO_SUCH_TABLE)
    other.idle()
    assert run(s, "SELECT x FROM tmp") == [(1,)]
    opened = engine.handles.opened
    s.close()                                   # the handle with the table is closed
    assert engine.handles.opened == opened - 1
    fails(other, "SELECT x FROM tmp", errors.ER_NO_SUCH_TABLE)


def test_dropping_the_last_temporary_table_unpins(db: Opener) -> None:
    s = db(1, "db")
    run(s, "CREATE TEMPORARY TABLE tmp (x INT)")
    run(s, "DROP TEMPORARY TABLE tmp")
    assert s._handle is None


def test_table_locks_and_user_locks_do_not_pin(db: Opener) -> None:
    holder, other = db(1, "db"), db(2, "db")
    run(holder, "LOCK TABLES t WRITE")
    assert holder.holds_locks and holder._handle is None
    run(holder, "INSERT INTO t (v) VALUES (5)")    # its lock, on whatever handle it borrows
    with pytest.raises(errors.ServerError) as exc:  # others still wait for it (1 s here)
        other.execute("INSERT INTO t (v) VALUES (6)")
    other.idle()
    assert exc.value.code == errors.ER_LOCK_WAIT_TIMEOUT
    run(holder, "UNLOCK TABLES")
    assert run(holder, "SELECT GET_LOCK('g', 0)") == [(1,)]
    assert holder._handle is None
    assert run(other, "SELECT IS_USED_LOCK('g'), GET_LOCK('g', 0)") == [(1, 0)]
    assert run(holder, "SELECT RELEASE_LOCK('g')") == [(1,)]


def test_prepared_statements_do_not_pin(db: Opener) -> None:
    s = db(1, "db")
    stmt = s.prepare("SELECT v FROM t WHERE id = ?")
    s.idle()
    assert s._handle is None
    assert rows(s.execute_prepared(stmt, [1])) == [(1,)]
    s.idle()
    assert s._handle is None


def test_cancel_interrupts_only_the_handle_the_session_holds(db: Opener) -> None:
    a, b = db(1, "db"), db(2, "db")
    run(a, "SELECT 1")
    b_handle = b.handle                  # b now holds the handle a gave back
    a.cancel()                           # a holds none: nothing of b's is interrupted
    assert scalar(b, "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c "
                     "WHERE n < 300000) SELECT COUNT(*) FROM c") == 300000
    assert b.handle is b_handle
    b.idle()
    b.cancel()                           # b's flag; its next statement clears it
    assert run(b, "SELECT 2") == [(2,)]


def test_a_handle_given_back_inside_a_transaction_is_rolled_back(
        db: Opener, engine: SqliteEngine, caplog: pytest.LogCaptureFixture) -> None:
    s = db(1, "db")
    s.handle.execute("BEGIN")            # a fault of ours: SQLite's transaction, not the session's
    s.handle.execute("DELETE FROM db.t")
    log = logging.getLogger("rampmeter.engine")
    log.addHandler(caplog.handler)  # not through the root: the server's logging setup (run by
    try:                            # an earlier test) stops rampmeter's records propagating
        with caplog.at_level(logging.ERROR, logger="rampmeter.engine"):
            s.idle()
    finally:
        log.removeHandler(caplog.handler)
    assert "inside a transaction" in caplog.text
    assert run(db(2, "db"), "SELECT COUNT(*) FROM t") == [(1,)]


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_pool_keeps_at_most_idle_limit_handles(engine: SqliteEngine) -> None:
    clock = FakeClock()
    pool = HandlePool(engine, idle_limit=2, window=10, clock=clock)
    lent = [pool.borrow() for _ in range(5)]
    assert pool.opened == 5
    for h in lent[:3]:
        pool.give_back(h)
    clock.now += 25          # the burst is more than two windows old: 2 lent now count
    for h in lent[3:]:
        pool.give_back(h)
    assert pool.opened == 2 and pool.idle_count() == 2
    assert pool.borrow() is lent[2]       # LIFO: the warmest handle first
    pool.close()


def test_pool_keeps_the_recent_peak_of_handles_lent_at_once(engine: SqliteEngine) -> None:
    # more sessions pinned at once than idle_limit (oltp_read_write at 256 connections: one
    # handle per open transaction): a COMMIT must not close a handle that the next BEGIN opens
    clock = FakeClock()
    pool = HandlePool(engine, idle_limit=2, window=10, clock=clock)
    lent = [pool.borrow() for _ in range(6)]
    for _ in range(5):                     # transactions end and begin, across windows
        clock.now += 4
        for h in lent[:4]:
            pool.give_back(h)
        lent[:4] = [pool.borrow() for _ in range(4)]
    assert pool.created == 6 and pool.opened == 6
    # the load falls to one handle: the surplus goes within two windows, as handles come back
    for h in lent:
        pool.give_back(h)
    assert pool.opened == 6
    for _ in range(3):
        clock.now += 10
        pool.give_back(pool.borrow())
    for _ in range(6):
        pool.give_back(pool.borrow())
    assert pool.opened == 2 and pool.idle_count() == 2
    pool.close()


def test_attachments_are_least_recently_used(opener: Opener) -> None:
    s = opener(1)
    names = [f"d{i}" for i in range(12)]
    for name in names:
        s.execute(f"CREATE DATABASE {name}")
        s.execute(f"CREATE TABLE {name}.t (x INT)")
    h = s.handle
    limit = h.attachable() + len(h._attached)
    for name in names[:limit]:
        s.execute(f"SELECT x FROM {name}.t")
    s.execute(f"SELECT x FROM {names[0]}.t")         # d0 is used again: d1 is the oldest now
    s.execute(f"SELECT x FROM {names[limit]}.t")     # needs room
    assert h.attached(names[0]) and not h.attached(names[1])


def test_ddl_elsewhere_leaves_no_stale_trigger_or_attachment(opener: Opener,
                                                             engine: SqliteEngine) -> None:
    a, b = opener(1), opener(2)
    run(a, "CREATE DATABASE gone")
    run(a, "CREATE TABLE gone.t (id INT PRIMARY KEY, v INT)")
    run(a, "INSERT INTO gone.t VALUES (1, 1)")
    run(a, "UPDATE gone.t SET v = 2")            # the shared handle gets a temp trigger on it
    a_handle = engine.handles.borrow()
    engine.handles.give_back(a_handle)
    assert a_handle.triggers and a_handle.attached("gone")
    assert b.handle is a_handle                  # b holds it while the database goes
    run(a, "DROP DATABASE gone")
    b.idle()
    run(a, "CREATE DATABASE gone")               # a new file of the same name
    run(a, "CREATE TABLE gone.other (x INT)")
    run(a, "CREATE DATABASE kept")
    run(a, "CREATE TABLE kept.u (id INT PRIMARY KEY, x INT, y INT)")
    # SQLite checks every trigger of the connection in ALTER ... DROP COLUMN / RENAME
    run(b, "ALTER TABLE kept.u DROP COLUMN y")
    run(b, "ALTER TABLE kept.u RENAME COLUMN x TO z")
    assert run(b, "SELECT z FROM kept.u") == []
    assert all(key[1] != "gone" for key in a_handle.triggers)
