"""Issue 10, item 1: privileges as MariaDB has them. The same accounts and grants are made on
both servers; then the same statements, sent as those accounts, must get the same answers:
error codes and message texts, SHOW GRANTS, information_schema, the mysql tables.

Accounts are global, so each test names its own (after the test's database). Thread ids
differ between the servers and are replaced by N before messages are compared."""

from __future__ import annotations

import re
from typing import Any

import pymysql
import pytest

from tests.compat.conftest import Compat, admin
from tests.compat.servers import Endpoint

Answer = tuple[Any, ...]


def _connect(ep: Endpoint, user: str, password: str = "", database: str | None = None
             ) -> pymysql.Connection:
    return pymysql.connect(host=ep.host, port=ep.port, user=user, password=password,
                           database=database, autocommit=True, ssl_disabled=True,
                           connect_timeout=10, read_timeout=30)


def _answer(conn: pymysql.Connection, sql: str) -> Answer:
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
            return ("rows", tuple(cur.fetchall()) if cur.description else None)
    except pymysql.err.MySQLError as exc:
        return ("error", exc.args[0], re.sub(r"thread \d+", "thread N", str(exc.args[1])))


def _login(ep: Endpoint, user: str, password: str = "") -> Answer:
    try:
        _connect(ep, user, password).close()
        return ("ok",)
    except pymysql.err.MySQLError as exc:
        return ("error", exc.args[0], exc.args[1])


class Accounts:
    """A test's accounts on both servers."""

    def __init__(self, compat: Compat) -> None:
        self.compat = compat
        self.db = compat.db
        self.prefix = "p" + re.sub(r"\D", "", compat.db.split("_")[0])
        self.made: list[str] = []

    def name(self, suffix: str) -> str:
        return f"{self.prefix}{suffix}"

    def root(self, *sql: str) -> None:
        self.compat.setup(*sql)

    def endpoints(self) -> list[Endpoint]:
        return [self.compat.endpoint("mariadb"), self.compat.endpoint("rampmeter")]

    def as_user(self, user: str, statements: list[str], password: str = "",
                database: str | None = None) -> list[list[Answer]]:
        out = []
        for ep in self.endpoints():
            conn = _connect(ep, user, password, database)
            try:
                out.append([_answer(conn, sql) for sql in statements])
            finally:
                conn.close()
        return out

    def same(self, user: str, statements: list[str], **kw: Any) -> list[Answer]:
        maria, ramp = self.as_user(user, statements, **kw)
        for sql, m, r in zip(statements, maria, ramp):
            assert r == m, f"{sql!r}: MariaDB {m!r}, rampmeter {r!r}"
        return maria

    def drop(self) -> None:
        for ep in self.endpoints():
            conn = admin(ep)
            try:
                with conn.cursor() as cur:
                    for stmt in self.made:
                        try:
                            cur.execute(stmt)
                        except pymysql.err.MySQLError:
                            pass
            finally:
                conn.close()


@pytest.fixture
def acct(compat: Compat) -> Any:
    a = Accounts(compat)
    yield a
    a.drop()


def _user(acct: Accounts, suffix: str = "u", extra: str = "") -> str:
    name = acct.name(suffix)
    acct.root(f"CREATE USER '{name}'@'%'{extra}")
    acct.made.append(f"DROP USER IF EXISTS '{name}'@'%'")
    return name


def _role(acct: Accounts, suffix: str) -> str:
    name = acct.name(suffix)
    acct.root(f"CREATE ROLE {name}")
    acct.made.append(f"DROP ROLE IF EXISTS {name}")
    return name


@pytest.fixture
def tables(acct: Accounts) -> Accounts:
    acct.root("CREATE TABLE t (a INT PRIMARY KEY, b INT, c INT)",
              "INSERT INTO t VALUES (1, 2, 3)",
              "CREATE TABLE u (x INT)", "INSERT INTO u VALUES (1)",
              "CREATE TABLE w (y INT)")
    return acct


def test_an_account_without_grants_is_refused_as_mariadb_refuses(tables: Accounts) -> None:
    user = _user(tables)
    db = tables.db
    tables.same(user, [
        "SELECT 1", "SELECT CURRENT_USER(), USER()",
        f"SELECT * FROM {db}.t", f"SELECT * FROM {db}.nope", f"INSERT INTO {db}.t VALUES (9,9,9)",
        f"UPDATE {db}.t SET a = 1", f"DELETE FROM {db}.t", f"REPLACE INTO {db}.t VALUES (1,1,1)",
        f"CREATE TABLE {db}.z (a INT)", f"DROP TABLE {db}.t", f"TRUNCATE {db}.t",
        f"ALTER TABLE {db}.t ADD COLUMN q INT", f"CREATE INDEX i ON {db}.t (b)",
        f"RENAME TABLE {db}.t TO {db}.t2", f"LOCK TABLES {db}.t READ",
        f"CREATE DATABASE {db}_new", f"DROP DATABASE {db}", f"USE {db}",
        f"SHOW TABLES FROM {db}", f"SHOW COLUMNS FROM {db}.t", f"DESCRIBE {db}.t",
        f"SHOW CREATE TABLE {db}.t", f"SHOW INDEX FROM {db}.t",
        f"SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '{db}'",
        f"SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '{db}'",
        "SHOW GRANTS", "SHOW GRANTS FOR root@localhost", "SELECT * FROM mysql.user",
        "FLUSH PRIVILEGES", "FLUSH STATUS", "SHUTDOWN", "CREATE USER x", "DROP USER root@localhost",
        f"GRANT SELECT ON {db}.t TO '{user}'@'%'", f"GRANT SELECT ON {db}.* TO '{user}'@'%'",
        f"GRANT SELECT ON *.* TO '{user}'@'%'", "CREATE ROLE r_x",
        "SET GLOBAL wait_timeout = 100", "SET GLOBAL thread_pool_stall_limit = 100",
        "SET GLOBAL max_connections = 100", "SET GLOBAL init_connect = ''",
        "SET GLOBAL read_only = 0", "SHOW MASTER STATUS", "SHOW SLAVE STATUS",
        "SHOW RELAYLOG EVENTS",
        "SET PASSWORD FOR root@localhost = PASSWORD('x')", "SET PASSWORD = PASSWORD('')",
    ])


def test_table_and_column_grants(tables: Accounts) -> None:
    user = _user(tables)
    db = tables.db
    tables.root(f"GRANT SELECT (a), UPDATE (b) ON {db}.t TO '{user}'@'%'",
                f"GRANT SELECT ON {db}.u TO '{user}'@'%'",
                f"GRANT INSERT ON {db}.t TO '{user}'@'%'")
    tables.same(user, [
        "SHOW TABLES", f"SELECT a FROM {db}.t", f"SELECT b FROM {db}.t", f"SELECT * FROM {db}.t",
        f"SELECT a FROM {db}.t WHERE b = 1", f"SELECT a FROM {db}.t ORDER BY c",
        f"SELECT a AS b FROM {db}.t ORDER BY b", f"SELECT COUNT(*) FROM {db}.t",
        f"UPDATE {db}.t SET b = 5", f"UPDATE {db}.t SET b = 5 WHERE a = 1",
        f"UPDATE {db}.t SET b = 5 WHERE c = 1", f"UPDATE {db}.t SET a = 1",
        f"UPDATE {db}.t SET b = a", f"INSERT INTO {db}.t VALUES (7, 8, 9)",
        f"INSERT INTO {db}.t (a) VALUES (1) ON DUPLICATE KEY UPDATE b = 2",
        f"DELETE FROM {db}.t", f"SELECT * FROM {db}.u", f"SELECT * FROM {db}.w",
        f"SELECT (SELECT b FROM {db}.t) FROM {db}.u",
        f"SELECT x FROM {db}.u WHERE x IN (SELECT b FROM {db}.t)",
        f"SELECT a FROM {db}.t UNION SELECT x FROM {db}.u",
        f"REPLACE INTO {db}.t (a) VALUES (1)", f"SHOW CREATE TABLE {db}.t",
        f"SHOW CREATE TABLE {db}.w", f"DESCRIBE {db}.w",
        f"SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = '{db}' "
        "ORDER BY 1",
        f"SELECT TABLE_NAME, COLUMN_NAME, PRIVILEGES FROM information_schema.COLUMNS "
        f"WHERE TABLE_SCHEMA = '{db}' ORDER BY 1, 2",
        f"SELECT TABLE_NAME, PRIVILEGE_TYPE FROM information_schema.TABLE_PRIVILEGES "
        f"WHERE TABLE_SCHEMA = '{db}' ORDER BY 1, 2",
        f"SELECT TABLE_NAME, COLUMN_NAME, PRIVILEGE_TYPE FROM "
        f"information_schema.COLUMN_PRIVILEGES WHERE TABLE_SCHEMA = '{db}' ORDER BY 1, 2, 3",
        f"SELECT * FROM {db}.t", f"SELECT a FROM {db}.t",
    ], database=db)


def test_database_grants_and_the_current_database(tables: Accounts) -> None:
    user = _user(tables)
    db = tables.db
    tables.root(f"GRANT SELECT, INSERT ON {db}.* TO '{user}'@'%' WITH GRANT OPTION")
    tables.same(user, [
        "SHOW TABLES", "SELECT * FROM t", "SELECT * FROM nope", "INSERT INTO w VALUES (1)",
        "DELETE FROM w", "CREATE TABLE z (a INT)",
        f"SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '{db}'",
        "SELECT PRIVILEGE_TYPE, IS_GRANTABLE FROM information_schema.SCHEMA_PRIVILEGES "
        f"WHERE TABLE_SCHEMA = '{db}' ORDER BY 1",
        f"GRANT SELECT ON {db}.t TO '{user}'@'%'", f"GRANT DELETE ON {db}.t TO '{user}'@'%'",
        f"GRANT SELECT ON {db}.* TO '{user}'@'%'", f"GRANT UPDATE ON {db}.* TO '{user}'@'%'",
        f"GRANT SELECT ON {db}.t TO '{user}_new'@'%' IDENTIFIED BY 'x'",
        f"GRANT SELECT ON {db}.t TO '{user}_new'@'%'",
    ], database=db)


@pytest.mark.parametrize("grants", [
    ["GRANT SELECT ON {db}.t TO {u}"],
    ["GRANT SELECT, INSERT ON {db}.* TO {u} WITH GRANT OPTION"],
    ["GRANT ALL ON {db}.* TO {u}"],
    ["GRANT ALL PRIVILEGES ON {db}.t TO {u}"],
    ["GRANT SELECT (a, b), INSERT (a) ON {db}.t TO {u}"],
    ["GRANT SELECT (a), INSERT, UPDATE (b) ON {db}.t TO {u}"],
    ["GRANT SELECT, SELECT (a) ON {db}.t TO {u}"],
    ["GRANT PROCESS, RELOAD ON *.* TO {u}"],
    ["GRANT ALL ON *.* TO {u} WITH GRANT OPTION"],
    ["GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, RELOAD, SHUTDOWN, PROCESS, FILE, "
     "REFERENCES, INDEX, ALTER, SHOW DATABASES, SUPER, CREATE TEMPORARY TABLES, LOCK TABLES, "
     "EXECUTE, REPLICATION SLAVE, BINLOG MONITOR, CREATE VIEW, SHOW VIEW, CREATE ROUTINE, "
     "ALTER ROUTINE, CREATE USER, EVENT, TRIGGER, CREATE TABLESPACE, DELETE HISTORY, SET USER, "
     "FEDERATED ADMIN, READ_ONLY ADMIN, REPLICATION SLAVE ADMIN, REPLICATION MASTER ADMIN, "
     "BINLOG ADMIN, BINLOG REPLAY, SLAVE MONITOR ON *.* TO {u}"],
    ["GRANT USAGE ON *.* TO {u} WITH MAX_QUERIES_PER_HOUR 3 MAX_USER_CONNECTIONS 5"],
    ["GRANT USAGE ON *.* TO {u} REQUIRE SSL"],
    ["GRANT USAGE ON *.* TO {u} REQUIRE SUBJECT '/CN=app' AND ISSUER '/CN=ca'"],
    ["GRANT SELECT ON {db}.* TO {u}", "REVOKE SELECT ON {db}.* FROM {u}"],
    ["GRANT SELECT, INSERT ON {db}.* TO {u} WITH GRANT OPTION",
     "REVOKE GRANT OPTION ON {db}.* FROM {u}"],
    ["GRANT ALL ON {db}.* TO {u}", "REVOKE SELECT ON {db}.* FROM {u}"],
    ["GRANT SELECT (a, b), INSERT (a) ON {db}.t TO {u}", "REVOKE SELECT (a) ON {db}.t FROM {u}"],
    ["GRANT SELECT, SELECT (a) ON {db}.t TO {u}", "REVOKE SELECT ON {db}.t FROM {u}"],
    ["GRANT ALL ON *.* TO {u}", "REVOKE ALL PRIVILEGES, GRANT OPTION FROM {u}"],
], ids=lambda g: " / ".join(g)[:60])
def test_show_grants(tables: Accounts, grants: list[str]) -> None:
    user = _user(tables)
    tables.root(*(g.format(db=tables.db, u=f"'{user}'@'%'") for g in grants))
    tables.same("root", [f"SHOW GRANTS FOR '{user}'@'%'", f"SHOW CREATE USER '{user}'@'%'"])


def test_grant_and_revoke_errors(tables: Accounts) -> None:
    user = _user(tables)
    db = tables.db
    tables.same("root", [
        f"GRANT PROCESS ON {db}.* TO '{user}'@'%'",
        f"GRANT CREATE TEMPORARY TABLES ON {db}.t TO '{user}'@'%'",
        f"GRANT SELECT (nope) ON {db}.t TO '{user}'@'%'",
        f"GRANT SELECT ON {db}.nope TO '{user}'@'%'",
        f"GRANT SELECT ON *.* TO '{user}_nobody'@'%'",
        f"GRANT SELECT ON *.* TO '{user}'@'localhost'",
        f"REVOKE SELECT ON {db}.* FROM '{user}'@'%'",
        f"REVOKE SELECT ON {db}.t FROM '{user}'@'%'",
        f"REVOKE SELECT ON *.* FROM '{user}_nobody'@'%'",
        f"GRANT INSERT (a) ON {db}.* TO '{user}'@'%'",
        f"CREATE USER '{user}'@'%'", f"CREATE USER IF NOT EXISTS '{user}'@'%'", "SHOW WARNINGS",
        f"DROP USER '{user}_nobody'@'%'", f"DROP USER IF EXISTS '{user}_nobody'@'%'",
        "SHOW WARNINGS", f"SHOW GRANTS FOR '{user}_nobody'@'%'",
        f"SHOW GRANTS FOR '{user}'@'localhost'",
        f"GRANT SELECT ON {db}.t TO '{user}_made'@'%' IDENTIFIED BY 'pw'",
        f"SHOW GRANTS FOR '{user}_made'@'%'", f"DROP USER '{user}_made'@'%'",
    ], database=db)


def test_roles(tables: Accounts) -> None:
    user = _user(tables)
    db = tables.db
    r1, r2 = _role(tables, "r1"), _role(tables, "r2")
    tables.root(f"GRANT SELECT ON {db}.t TO {r1}", f"GRANT {r1} TO {r2}",
                f"GRANT INSERT ON {db}.u TO {r2}", f"GRANT {r2} TO '{user}'@'%'")
    tables.same("root", [
        f"SHOW GRANTS FOR {r1}", f"SHOW GRANTS FOR {r2}", f"SHOW GRANTS FOR '{user}'@'%'",
        f"GRANT {r2} TO {r1}", f"GRANT {r1} TO {r1}", f"GRANT nosuch_{r1} TO {r1}",
        f"GRANT {r1} TO nosuch_{r1}", f"REVOKE {r1} FROM '{user}'@'%'", f"CREATE ROLE {r1}",
        f"DROP ROLE nosuch_{r1}", "CREATE ROLE none", "CREATE ROLE public",
        f"SELECT User, Role, Admin_option FROM mysql.roles_mapping WHERE User LIKE "
        f"'{tables.prefix}%' ORDER BY 1, 2",
        f"SELECT User, Host, is_role FROM mysql.user WHERE User LIKE '{tables.prefix}%' "
        "ORDER BY 1",
    ])
    tables.same(user, [
        "SELECT CURRENT_ROLE()", f"SELECT * FROM {db}.t", f"SET ROLE {r1}",
        f"SET ROLE nosuch_{r1}", f"SET ROLE {r2}", "SELECT CURRENT_ROLE()",
        f"SELECT * FROM {db}.t", f"INSERT INTO {db}.u VALUES (5)", "SHOW GRANTS",
        "SELECT * FROM information_schema.ENABLED_ROLES ORDER BY 1",
        "SELECT * FROM information_schema.APPLICABLE_ROLES ORDER BY 1, 2",
        f"SHOW GRANTS FOR {r1}", f"GRANT {r1} TO '{user}'@'%'", "SET ROLE NONE",
        f"SELECT * FROM {db}.t", f"SET DEFAULT ROLE {r1}", f"SET DEFAULT ROLE {r2}",
        "SHOW GRANTS FOR CURRENT_USER",
    ])
    tables.same(user, ["SELECT CURRENT_ROLE()", f"SELECT COUNT(*) FROM {db}.t"])


def test_account_options_at_login(acct: Accounts) -> None:
    locked = _user(acct, "l", " IDENTIFIED BY 'pw' ACCOUNT LOCK")
    ssl = _user(acct, "s", " IDENTIFIED BY 'pw' REQUIRE SSL")
    few = _user(acct, "f", " WITH MAX_USER_CONNECTIONS 1")
    maria, ramp = acct.endpoints()
    for ep_pair in [(maria, ramp)]:
        for user, pw in [(locked, "pw"), (locked, "bad"), (ssl, "pw")]:
            assert _login(ep_pair[1], user, pw) == _login(ep_pair[0], user, pw), user
    held = [_connect(ep, few) for ep in (maria, ramp)]
    try:
        assert _login(ramp, few) == _login(maria, few)
        assert _login(ramp, few)[1] == 1226
    finally:
        for c in held:
            c.close()
    acct.same("root", [f"SHOW CREATE USER '{locked}'@'%'", f"SHOW CREATE USER '{ssl}'@'%'",
                       f"SHOW CREATE USER '{few}'@'%'",
                       f"SELECT User, ssl_type, max_user_connections FROM mysql.user WHERE "
                       f"User LIKE '{acct.prefix}%' ORDER BY 1"])


def test_mysql_tables_show_the_grants(tables: Accounts) -> None:
    user = _user(tables)
    db = tables.db
    tables.root(f"GRANT SELECT, DELETE ON {db}.* TO '{user}'@'%'",
                f"GRANT INSERT, SELECT (a) ON {db}.t TO '{user}'@'%'",
                f"GRANT RELOAD ON *.* TO '{user}'@'%'")
    tables.same("root", [
        f"SELECT Host, Db, User, Select_priv, Insert_priv, Delete_priv, Grant_priv FROM mysql.db "
        f"WHERE User = '{user}'",
        f"SELECT Host, Db, User, Table_name, Table_priv, Column_priv FROM mysql.tables_priv "
        f"WHERE User = '{user}'",
        f"SELECT Host, Db, User, Table_name, Column_name, Column_priv FROM mysql.columns_priv "
        f"WHERE User = '{user}'",
        f"SELECT Host, User, Select_priv, Reload_priv, Grant_priv, plugin, is_role FROM "
        f"mysql.user WHERE User = '{user}'",
        f"SELECT PRIVILEGE_TYPE, IS_GRANTABLE FROM information_schema.USER_PRIVILEGES WHERE "
        f"GRANTEE = '''{user}''@''%'''",
    ])


def test_identifiers_mariadb_refuses(acct: Accounts) -> None:
    acct.same("root", ["CREATE DATABASE `e\U0001F600x`", f"CREATE TABLE {acct.db}.`t\U0001F600` "
                       "(a INT)", f"CREATE TABLE {acct.db}.t (`c\U0001F600` INT)",
                       "CREATE DATABASE `trail `", "CREATE DATABASE ``"])


def test_views_and_temporary_tables(tables: Accounts) -> None:
    """A DEFINER view lends its query to a reader with SELECT on the view; an INVOKER view
    does not (1356); SHOW CREATE VIEW needs SHOW VIEW; a session's temporary tables need no
    privilege beyond CREATE TEMPORARY TABLES."""
    user = _user(tables)
    db = tables.db
    tables.root(f"CREATE SQL SECURITY DEFINER VIEW {db}.vd AS SELECT a FROM {db}.t",
                f"CREATE SQL SECURITY INVOKER VIEW {db}.vi AS SELECT a FROM {db}.t",
                f"GRANT SELECT ON {db}.vd TO '{user}'@'%'",
                f"GRANT SELECT ON {db}.vi TO '{user}'@'%'",
                f"GRANT CREATE TEMPORARY TABLES ON {db}.* TO '{user}'@'%'")
    tables.same(user, [
        "SELECT * FROM vd", "SELECT a FROM vd WHERE a = 1", "SELECT * FROM vi", "SELECT * FROM t",
        "SHOW CREATE VIEW vd", f"CREATE VIEW {db}.v2 AS SELECT 1",
        "CREATE TEMPORARY TABLE tt (x INT)", "INSERT INTO tt VALUES (1)", "SELECT * FROM tt",
        "UPDATE tt SET x = 2", "SELECT * FROM tt", "DROP TABLE tt", "SELECT * FROM tt",
        "CREATE TEMPORARY TABLE t (z INT)", "INSERT INTO t VALUES (5)", "SELECT * FROM t",
        "DROP TEMPORARY TABLE t", "SELECT * FROM t", "CREATE TABLE tt2 (x INT)",
    ], database=db)


def test_routine_privileges(acct: Accounts) -> None:
    """Issue 13: CREATE ROUTINE to create, EXECUTE to run, ALTER ROUTINE to drop, in the
    database (routine-level grants are not supported: docs/sql.md)."""
    db = acct.db
    reader, runner = _user(acct, "r"), _user(acct, "x")
    acct.root("CREATE PROCEDURE p() SELECT 1 AS one",
              "CREATE FUNCTION f() RETURNS INT RETURN 7",
              f"GRANT SELECT ON `{db}`.* TO '{reader}'@'%'",
              f"GRANT EXECUTE, CREATE ROUTINE ON `{db}`.* TO '{runner}'@'%'")
    acct.same(reader, ["CALL p()", "SELECT f()", "CREATE PROCEDURE q() SELECT 2",
                       "DROP PROCEDURE p", "ALTER PROCEDURE p COMMENT 'x'"], database=db)
    acct.same(runner, ["CALL p()", "SELECT f()", "DROP PROCEDURE p"], database=db)


def test_check_table_needs_any_privilege_on_the_table(tables: Accounts) -> None:
    """MDEV-37971 (mtr check): CHECK TABLE is allowed with any privilege on the table, a
    global CREATE or a table-level one; with none it is 1142."""
    db = tables.db
    glob, local, none = _user(tables, "g"), _user(tables, "l"), _user(tables, "n")
    tables.root(f"GRANT CREATE ON *.* TO '{glob}'@'%'",
                f"GRANT CREATE ON {db}.t TO '{local}'@'%'")
    for user in (glob, local, none):
        tables.same(user, [f"CHECK TABLE {db}.t"])
