"""Issue 8, item 3: transactions as drivers use them. With autocommit off (the default of
PyMySQL, mysqlclient, aiomysql and SQLAlchemy) a transaction that reads and then writes must
not fail because another connection committed in between; REPEATABLE READ snapshots; a real
row conflict waits for the lock and ends in 1205 after innodb_lock_wait_timeout; a real
deadlock is 1213.

Steps run one at a time on one thread; where a statement must block while another runs, the
test uses threads and waits on observable state (PROCESSLIST), never on a bare sleep."""

from __future__ import annotations

import asyncio
import threading

import pymysql
import pytest

from tests.compat.conftest import admin, drivers, on_rampmeter
from tests.compat.drivers import Options, Step
from tests.conftest import wait_until

ONE_WRITER = ("one writer at a time: a second transaction's UPDATE of a row nobody holds waits "
              "for the first one's write lock and ends in 1205 (MariaDB: OK at once)")
TX = {"a": Options(autocommit=False)}            # a: a driver's default, autocommit off
TX2 = {"a": Options(autocommit=False), "b": Options(autocommit=False)}


@pytest.fixture
def accounts(compat):
    compat.setup("CREATE TABLE acc (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB",
                 "INSERT INTO acc VALUES (1, 100), (2, 200), (3, 300)")
    return compat


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector", "connector-c",
                                           "aiomysql", "connector-prep"))
def test_read_then_write_after_another_commit(accounts, driver):
    a = accounts.run(driver, [
        Step("SELECT v FROM acc WHERE id = 1"),                  # a's snapshot starts
        Step("UPDATE acc SET v = v + 10 WHERE id = 2", conn="b"),  # b commits (autocommit)
        Step("UPDATE acc SET v = v + 1 WHERE id = 1"),           # a writes: no 1213
        Step("COMMIT"),
        Step("SELECT id, v FROM acc ORDER BY id"),
    ], connect=TX)
    assert [o.error for o in a.maria] == [None] * 5
    assert a.maria[4].rows == ((1, 101), (2, 210), (3, 300))
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", "aiomysql"))
def test_insert_after_read_while_another_inserted(accounts, driver):
    a = accounts.run(driver, [
        Step("SELECT COUNT(*) FROM acc"),
        Step("INSERT INTO acc VALUES (4, 400)", conn="b"),
        Step("INSERT INTO acc VALUES (5, 500)"),
        Step("COMMIT"),
        Step("SELECT COUNT(*) FROM acc"),
    ], connect=TX)
    assert a.maria[4].rows == ((5,),)
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient"))
def test_repeatable_read_snapshot(accounts, driver):
    """a's reads see the snapshot of its first read until it commits."""
    a = accounts.run(driver, [
        Step("SELECT v FROM acc WHERE id = 2"),
        Step("UPDATE acc SET v = 222 WHERE id = 2", conn="b"),
        Step("SELECT v FROM acc WHERE id = 2"),
        Step("COMMIT"),
        Step("SELECT v FROM acc WHERE id = 2"),
    ], connect=TX)
    assert [o.rows for o in a.maria if o.rows] == [((200,),), ((200,),), ((222,),)]
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient"))
def test_update_reads_the_latest_committed_row(accounts, driver):
    """InnoDB: an UPDATE reads the latest committed version, not a's snapshot; afterwards a
    sees its own change."""
    a = accounts.run(driver, [
        Step("SELECT v FROM acc WHERE id = 1"),
        Step("UPDATE acc SET v = v + 10 WHERE id = 1", conn="b"),
        Step("UPDATE acc SET v = v + 1 WHERE id = 1"),
        Step("SELECT v FROM acc WHERE id = 1"),
        Step("COMMIT"),
    ], connect=TX)
    assert a.maria[3].rows == ((111,),)
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector",
                                           "connector-prep"))
def test_row_conflict_waits_then_1205(accounts, driver):
    a = accounts.run(driver, [
        Step("UPDATE acc SET v = 1 WHERE id = 1"),                       # a holds the row
        Step("SET SESSION innodb_lock_wait_timeout = 1", conn="b"),
        Step("UPDATE acc SET v = 2 WHERE id = 1", conn="b"),           # waits 1 s: 1205
        Step("SELECT v FROM acc WHERE id = 1", conn="b"),              # b is still usable
        Step("ROLLBACK"),
        Step("UPDATE acc SET v = 3 WHERE id = 1", conn="b"),           # the lock is free
        Step("COMMIT", conn="b"),
        Step("SELECT v FROM acc WHERE id = 1"),
    ], connect=TX2)
    assert a.maria[2].code == 1205
    assert a.maria[7].rows == ((3,),)
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", xfail_all=ONE_WRITER))
def test_writers_of_different_rows_do_not_wait(accounts, driver):
    """InnoDB locks rows: two open transactions update different rows without waiting."""
    a = accounts.run(driver, [
        Step("UPDATE acc SET v = 1 WHERE id = 1"),
        Step("SET SESSION innodb_lock_wait_timeout = 1", conn="b"),
        Step("UPDATE acc SET v = 2 WHERE id = 2", conn="b"),
        Step("COMMIT", conn="b"),
        Step("COMMIT"),
        Step("SELECT id, v FROM acc ORDER BY id"),
    ], connect=TX2)
    assert [o.error for o in a.maria] == [None] * 6
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", xfail_all=ONE_WRITER))
def test_lock_wait_timeout_rolls_back_only_the_statement(accounts, driver):
    """After 1205 the waiting transaction keeps its earlier changes (innodb_rollback_on_timeout
    is OFF) and stays open."""
    a = accounts.run(driver, [
        Step("UPDATE acc SET v = 1 WHERE id = 1"),
        Step("SET SESSION innodb_lock_wait_timeout = 1", conn="b"),
        Step("UPDATE acc SET v = 30 WHERE id = 3", conn="b"),
        Step("UPDATE acc SET v = 10 WHERE id = 1", conn="b"),
        Step("ROLLBACK"),
        Step("COMMIT", conn="b"),
        Step("SELECT id, v FROM acc ORDER BY id"),
    ], connect=TX2)
    assert a.maria[3].code == 1205
    assert a.maria[6].rows == ((1, 100), (2, 200), (3, 30))
    a.assert_same()


@pytest.mark.parametrize("target", on_rampmeter(
    "one writer at a time: b's UPDATE of row 2 already waits for a's write lock and ends in "
    "1205, so the deadlock never forms"))
def test_real_deadlock_is_1213(accounts, target):
    """a locks row 1, b locks row 2, a wants row 2 (waits), b wants row 1: a deadlock, and
    exactly one of them gets 1213 while the other goes on."""
    ep = accounts.endpoint(target)
    a, b = admin(ep, accounts.db), admin(ep, accounts.db)
    results: dict[str, object] = {}
    try:
        for conn in (a, b):
            conn.autocommit(False)
            conn.cursor().execute("SET SESSION innodb_lock_wait_timeout = 2")
        a.cursor().execute("UPDATE acc SET v = v + 1 WHERE id = 1")
        b.cursor().execute("UPDATE acc SET v = v + 1 WHERE id = 2")
        a_id = a.thread_id()

        def a_wants_row_2() -> None:
            try:
                a.cursor().execute("UPDATE acc SET v = v + 1 WHERE id = 2")
                results["a"] = "ok"
            except pymysql.err.MySQLError as exc:
                results["a"] = exc.args[0]

        thread = threading.Thread(target=a_wants_row_2, daemon=True)
        thread.start()
        watcher = admin(ep)
        try:
            def a_is_waiting() -> bool:
                with watcher.cursor() as cur:
                    cur.execute("SELECT INFO FROM information_schema.PROCESSLIST "
                                f"WHERE ID = {a_id}")
                    row = cur.fetchone()
                return bool(row and row[0] and "id = 2" in row[0])
            wait_until(a_is_waiting, timeout=5, message="a blocked on row 2")
        finally:
            watcher.close()
        try:
            b.cursor().execute("UPDATE acc SET v = v + 1 WHERE id = 1")
            results["b"] = "ok"
        except pymysql.err.MySQLError as exc:
            results["b"] = exc.args[0]
        thread.join(10)  # whichever was the victim, its locks are gone and the other goes on
        assert not thread.is_alive()
        assert sorted(map(str, results.values())) == ["1213", "ok"], results
    finally:
        a.close()
        b.close()


JOBS, POOL_SIZE, ROWS = 100, 10, 10


async def _pool_jobs(host: str, port: int, db: str) -> tuple[list[object], int]:
    import aiomysql
    pool = await aiomysql.create_pool(host=host, port=port, user="root", password="", db=db,
                                      minsize=1, maxsize=POOL_SIZE, autocommit=False)
    try:
        async def job(n: int) -> object:
            async with pool.acquire() as conn:
                try:
                    async with conn.cursor() as cur:
                        await cur.execute("SELECT v FROM counters WHERE id = %s", (n % ROWS,))
                        await cur.fetchall()
                        await cur.execute("UPDATE counters SET v = v + 1 WHERE id = %s",
                                          (n % ROWS,))
                    await conn.commit()
                    return "ok"
                except pymysql.err.MySQLError as exc:
                    await conn.rollback()
                    return exc.args[0]

        outcomes = await asyncio.gather(*(job(n) for n in range(JOBS)))
        async with pool.acquire() as conn, conn.cursor() as cur:
            await cur.execute("SELECT SUM(v) FROM counters")
            (total,) = await cur.fetchone()
        return list(outcomes), int(total)
    finally:
        pool.close()
        await pool.wait_closed()


@pytest.mark.parametrize("target", on_rampmeter(None))
def test_aiomysql_pool_of_100_read_then_write_jobs(compat, target):
    compat.setup("CREATE TABLE counters (id INT PRIMARY KEY, v INT NOT NULL)",
                 "INSERT INTO counters VALUES " + ", ".join(f"({i}, 0)" for i in range(ROWS)))
    ep = compat.endpoint(target)
    outcomes, total = asyncio.run(asyncio.wait_for(_pool_jobs(ep.host, ep.port, compat.db),
                                                   25))
    failures = [o for o in outcomes if o != "ok"]
    assert failures == [] and total == JOBS, (len(failures), sorted(set(map(str, failures))),
                                              total)
