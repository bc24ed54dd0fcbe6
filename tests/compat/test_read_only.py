"""Issue 13: the global `read_only` refuses writes (1290) from accounts without READ_ONLY
ADMIN - DML that changes tables, DDL, CREATE / DROP / ALTER DATABASE - but not reads, nor
writes to the session's own temporary tables; READ_ONLY ADMIN (and root) write on."""

from __future__ import annotations

from typing import Any

import pytest

from tests.compat.conftest import Compat
from tests.compat.test_privileges import Accounts, _user


@pytest.fixture
def acct(compat: Compat) -> Any:
    a = Accounts(compat)
    a.root("CREATE TABLE t (a INT)", "INSERT INTO t VALUES (1)")
    yield a
    a.root("SET GLOBAL read_only = 0")
    a.drop()


def test_read_only_refuses_writes_of_accounts_without_read_only_admin(acct: Accounts) -> None:
    db = acct.db
    user = _user(acct)
    admin_user = _user(acct, "adm")
    acct.root(f"GRANT ALL ON {db}.* TO '{user}'@'%'", f"GRANT ALL ON {db}_x.* TO '{user}'@'%'",
              f"GRANT SELECT, INSERT, UPDATE, DELETE, READ_ONLY ADMIN ON *.* TO "
              f"'{admin_user}'@'%'", "SET GLOBAL read_only = 1")
    acct.same(user, [
        f"SELECT * FROM {db}.t", f"INSERT INTO {db}.t VALUES (2)",
        f"UPDATE {db}.t SET a = 3", f"UPDATE {db}.t SET a = 3 WHERE 1 = 0",
        f"DELETE FROM {db}.t", f"REPLACE INTO {db}.t VALUES (4)",
        f"CREATE TABLE {db}.n (a INT)", f"ALTER TABLE {db}.t ADD b INT",
        f"TRUNCATE {db}.t", f"DROP TABLE {db}.t", f"CREATE DATABASE {db}_x",
        f"CREATE TEMPORARY TABLE {db}.tt (a INT)", f"INSERT INTO {db}.tt VALUES (1)",
        f"UPDATE {db}.tt SET a = 2", f"INSERT INTO {db}.tt SELECT * FROM {db}.t",
        f"SELECT * FROM {db}.tt", f"DROP TABLE {db}.tt", "SELECT @@read_only",
    ])
    acct.same(admin_user, [f"INSERT INTO {db}.t VALUES (5)", f"DELETE FROM {db}.t WHERE a = 5",
                           f"SELECT * FROM {db}.t"])
    acct.root(f"GRANT READ ONLY ADMIN ON *.* TO '{user}'@'%'")
    acct.same(user, [f"INSERT INTO {db}.t VALUES (6)", "SHOW GRANTS"])


def test_read_only_and_triggers_transactions_and_locks(acct: Accounts) -> None:
    """mtr read_only: CREATE TABLE of a name a temporary table shadows, CREATE / DROP TRIGGER
    and START TRANSACTION READ WRITE are writes; SET GLOBAL read_only is 1192 in a session
    holding LOCK TABLES or an open transaction."""
    db = acct.db
    user = _user(acct)
    acct.root(f"GRANT ALL ON {db}.* TO '{user}'@'%'",
              f"CREATE TRIGGER {db}.trg BEFORE INSERT ON {db}.t FOR EACH ROW SET @x = 1",
              "SET GLOBAL read_only = 1")
    acct.same(user, [
        f"CREATE TEMPORARY TABLE {db}.t3 (a INT)", f"CREATE TABLE {db}.t3 (a INT)",
        f"DROP TRIGGER {db}.trg",
        f"CREATE TRIGGER {db}.trg2 AFTER INSERT ON {db}.t FOR EACH ROW SET @x = 2",
        "START TRANSACTION READ WRITE", "COMMIT", "START TRANSACTION READ ONLY", "COMMIT",
    ])
    acct.root("SET GLOBAL read_only = 0")
    admin_user = _user(acct, "adm")
    acct.root(f"GRANT ALL ON *.* TO '{admin_user}'@'%'")
    acct.same(admin_user, [
        f"LOCK TABLES {db}.t WRITE", "SET GLOBAL read_only = 1", "UNLOCK TABLES",
        "BEGIN", "SET GLOBAL read_only = 1", "ROLLBACK", "SELECT @@global.read_only"])
