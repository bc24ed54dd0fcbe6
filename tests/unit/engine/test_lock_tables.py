"""LOCK TABLES' list (locktables.py): what a session holding LOCK TABLES may use, and how.
Each expectation was checked against MariaDB 10.11 (mtr mdev19198, truncate)."""

from __future__ import annotations

import pytest

from rampmeter import errors
from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows

NOT_LOCKED = errors.ER_TABLE_NOT_LOCKED
READ_LOCKED = errors.ER_TABLE_NOT_LOCKED_FOR_WRITE


@pytest.fixture
def s(session: SqliteSession) -> SqliteSession:
    for t in ("t1", "t2", "t3"):
        session.execute(f"CREATE TABLE {t} (a INT)")
    session.execute("INSERT INTO t1 VALUES (1)")
    return session


def test_a_table_not_named_cannot_be_used(s: SqliteSession) -> None:
    s.execute("LOCK TABLES t1 READ, t2 WRITE")
    assert rows(s.execute("SELECT * FROM t1")) == [(1,)]
    assert fails(s, "SELECT * FROM t3", NOT_LOCKED).message == \
        "Table 't3' was not locked with LOCK TABLES"
    fails(s, "SELECT * FROM nonexistent", NOT_LOCKED)
    fails(s, "INSERT INTO t2 SELECT * FROM t3", NOT_LOCKED)
    s.execute("INSERT INTO t2 SELECT * FROM t1")
    s.execute("SELECT * FROM information_schema.tables LIMIT 0")
    s.execute("UNLOCK TABLES")
    s.execute("SELECT * FROM t3")


def test_a_read_lock_refuses_writes_naming_the_alias(s: SqliteSession) -> None:
    s.execute("LOCK TABLES t1 READ, t2 WRITE")
    err = fails(s, "INSERT INTO t1 VALUES (2)", READ_LOCKED)
    assert err.message == "Table 't1' was locked with a READ lock and can't be updated"
    fails(s, "UPDATE t1 SET a = 2", READ_LOCKED)
    fails(s, "DELETE FROM t1", READ_LOCKED)
    fails(s, "REPLACE INTO t1 VALUES (2)", READ_LOCKED)
    s.execute("UPDATE t2, t1 SET t2.a = t1.a")        # t1 only read
    s.execute("DELETE t2 FROM t2, t1 WHERE t2.a = t1.a")
    s.execute("DELETE FROM t2 WHERE a IN (SELECT a FROM t1)")


def test_each_mention_needs_an_entry_of_its_own_under_its_alias(s: SqliteSession) -> None:
    s.execute("LOCK TABLES t1 READ, t1 AS x WRITE")
    s.execute("SELECT * FROM t1, t1 AS x")
    assert fails(s, "SELECT * FROM t1 AS y", NOT_LOCKED).message == \
        "Table 'y' was not locked with LOCK TABLES"
    fails(s, "SELECT * FROM t1 WHERE a IN (SELECT a FROM t1)", NOT_LOCKED)
    s.execute("SELECT * FROM t1 WHERE a IN (SELECT a FROM t1 AS x)")
    s.execute("LOCK TABLES t1 WRITE")
    fails(s, "INSERT INTO t1 SELECT * FROM t1", NOT_LOCKED)
    fails(s, "SELECT * FROM t1 UNION SELECT * FROM t1", NOT_LOCKED)


def test_the_list_itself(s: SqliteSession) -> None:
    err = fails(s, "LOCK TABLES nonexistent READ", errors.ER_NO_SUCH_TABLE)
    assert err.message == "Table 'db.nonexistent' doesn't exist"
    fails(s, "LOCK TABLES t1 READ, t1 READ", errors.ER_NONUNIQ_TABLE)
    s.execute("LOCK TABLES t1 READ LOCAL, t2 LOW_PRIORITY WRITE, t3 `x` WRITE CONCURRENT")
    s.execute("INSERT INTO t2 SELECT * FROM t3 x")
    s.execute("LOCK TABLES t2 READ")           # replaces the list
    fails(s, "SELECT * FROM t1", NOT_LOCKED)
    fails(s, "LOCK TABLES t2 READ, nonexistent READ", errors.ER_NO_SUCH_TABLE)
    s.execute("SELECT * FROM t1")              # a failed LOCK TABLES still unlocked


def test_temporary_tables_need_no_lock(s: SqliteSession) -> None:
    s.execute("CREATE TEMPORARY TABLE tt (a INT)")
    s.execute("LOCK TABLES t1 READ")
    s.execute("INSERT INTO tt SELECT * FROM t1")
    s.execute("CREATE TEMPORARY TABLE t5 LIKE t1")
    s.execute("TRUNCATE tt")
    s.execute("DROP TEMPORARY TABLE tt, t5")


def test_a_locked_view_locks_its_tables(s: SqliteSession) -> None:
    s.execute("CREATE VIEW v1 AS SELECT * FROM t1")
    s.execute("LOCK TABLES t1 WRITE")
    fails(s, "SELECT * FROM v1", NOT_LOCKED)
    s.execute("LOCK TABLES v1 READ")
    assert rows(s.execute("SELECT * FROM v1")) == [(1,)]
    s.execute("SELECT * FROM t1")
    fails(s, "TRUNCATE v1", NOT_LOCKED)
    fails(s, "TRUNCATE t1", READ_LOCKED)


def test_schema_statements(s: SqliteSession) -> None:
    s.execute("LOCK TABLES t1 READ, t2 WRITE")
    fails(s, "CREATE TABLE t4 (a INT)", NOT_LOCKED)
    fails(s, "CREATE TABLE IF NOT EXISTS t1 LIKE t2", READ_LOCKED)
    fails(s, "CREATE TABLE IF NOT EXISTS t3 LIKE t1", NOT_LOCKED)
    s.execute("CREATE TABLE IF NOT EXISTS t2 LIKE t1")         # a Note 1050
    fails(s, "CREATE TABLE t4 SELECT * FROM t1", NOT_LOCKED)
    fails(s, "DROP TABLE t1", READ_LOCKED)
    fails(s, "DROP TABLE IF EXISTS t3", NOT_LOCKED)
    fails(s, "TRUNCATE t1", READ_LOCKED)
    fails(s, "TRUNCATE t3", NOT_LOCKED)
    fails(s, "ALTER TABLE t1 ADD b INT", READ_LOCKED)
    fails(s, "CREATE INDEX i ON t1 (a)", READ_LOCKED)
    fails(s, "FLUSH TABLE t1", READ_LOCKED)
    fails(s, "FLUSH TABLES", READ_LOCKED)
    fails(s, "FLUSH TABLES t3", NOT_LOCKED)
    fails(s, "SHOW CREATE TABLE t3", NOT_LOCKED)
    s.execute("SHOW CREATE TABLE t1")
    for sql in ("RENAME TABLE t2 TO t5", "CREATE VIEW v9 AS SELECT 1", "DROP DATABASE db",
                "CREATE DATABASE d2", "FLUSH TABLES WITH READ LOCK"):
        fails(s, sql, errors.ER_LOCK_OR_ACTIVE_TRANSACTION)
    s.execute("TRUNCATE t2")
    s.execute("ALTER TABLE t2 ADD b INT")
    s.execute("DROP TABLE t2")
    fails(s, "SELECT * FROM t2", NOT_LOCKED)   # a dropped table leaves the list
    fails(s, "CREATE TABLE t2 (a INT)", NOT_LOCKED)


def test_dropping_the_last_locked_table_ends_lock_tables(s: SqliteSession) -> None:
    s.execute("LOCK TABLES t1 WRITE, t2 WRITE")
    s.execute("DROP TABLE t1")
    fails(s, "SELECT * FROM t3", NOT_LOCKED)
    s.execute("DROP TABLE t2")      # the list is empty: MariaDB leaves locked-tables mode
    assert not s.holds_locks
    s.execute("SELECT * FROM t3")
    s.execute("CREATE DATABASE d2")


def test_a_transaction_ends_lock_tables_commit_does_not(s: SqliteSession) -> None:
    s.execute("LOCK TABLES t1 WRITE")
    s.execute("COMMIT")
    fails(s, "SELECT * FROM t2", NOT_LOCKED)
    s.execute("START TRANSACTION")
    assert not s.holds_locks
    s.execute("SELECT * FROM t2")
    s.execute("COMMIT")


def test_system_tables_wait_and_nowait(s: SqliteSession) -> None:
    s.execute("LOCK TABLES t1 READ, mysql.event READ")   # MariaDB's, kept elsewhere here
    err = fails(s, "LOCK TABLES t1 READ, mysql.event WRITE", 1428)
    assert err.message == \
        "You can't combine write-locking of system tables with other tables or lock types"
    s.execute("LOCK TABLES mysql.event WRITE")
    # several system tables written together are fine (mtr public_basic), not with a READ
    s.execute("LOCK TABLES mysql.event WRITE, mysql.proc WRITE")
    fails(s, "LOCK TABLES mysql.event WRITE, mysql.proc READ", 1428)
    s.execute("LOCK TABLES t1 WRITE NOWAIT")
    result = s.execute("LOCK TABLES t1 WRITE WAIT 31536001")
    assert [(w.code, w.message) for w in result.warnings] == \
        [(1292, "Truncated incorrect lock_wait_timeout value: '31536001'")]
    fails(s, "LOCK TABLES t1 WRITE WAIT", errors.ER_PARSE_ERROR)
    s.execute("UNLOCK TABLES")


def test_the_global_read_lock_and_lock_tables(s: SqliteSession) -> None:
    """mtr flush (Bug#9459): no global read lock with tables locked (1192); under one, LOCK
    TABLE ... WRITE is 1223 and READ locks are taken beside it; UNLOCK TABLES ends both."""
    s.execute("LOCK TABLE t1 WRITE")
    fails(s, "FLUSH TABLES WITH READ LOCK", errors.ER_LOCK_OR_ACTIVE_TRANSACTION)
    s.execute("LOCK TABLE t1 READ")
    fails(s, "FLUSH TABLES WITH READ LOCK", errors.ER_LOCK_OR_ACTIVE_TRANSACTION)
    s.execute("UNLOCK TABLES")
    s.execute("FLUSH TABLES WITH READ LOCK")
    fails(s, "LOCK TABLE t1 WRITE", errors.ER_CANT_UPDATE_WITH_READLOCK)
    s.execute("LOCK TABLE t1 READ")
    assert rows(s.execute("SELECT * FROM t1")) == [(1,)]
    fails(s, "SELECT * FROM t2", NOT_LOCKED)
    fails(s, "LOCK TABLE t1 WRITE", errors.ER_CANT_UPDATE_WITH_READLOCK)
    s.execute("UNLOCK TABLES")
    s.execute("INSERT INTO t2 VALUES (2)")
