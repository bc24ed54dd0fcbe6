"""Privileges through real clients, the way an administrator uses them: the mariadb CLI for the
administrator's scripts, PyMySQL (and mysql-connector, mysqlclient) for the applications
(session/privileges.py states the rules these tests hold the server to)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from typing import Any

import pymysql
import pytest

from tests.conftest import ServerHandle, start_process, stop_process, wait_until

CLI = shutil.which("mariadb")
needs_cli = pytest.mark.skipif(CLI is None, reason="mariadb client not installed")


def cli(server: ServerHandle, script: str, *, user: str = "root", password: str = "",
        database: str | None = None) -> subprocess.CompletedProcess[str]:
    """The mariadb CLI in batch mode, the script on stdin, as an administrator runs one."""
    assert CLI is not None
    cmd = [CLI, "-h127.0.0.1", f"-P{server.port}", f"-u{user}", "--batch",
           "--skip-ssl"]
    if password:
        cmd.append(f"-p{password}")
    if database:
        cmd.append(database)
    return subprocess.run(cmd, input=script, capture_output=True, text=True, timeout=60,
                          check=False)


def admin(server: ServerHandle, script: str) -> str:
    done = cli(server, script)
    assert done.returncode == 0, done.stderr
    return done.stdout


def err(conn: Any, sql: str) -> tuple[int, str]:
    """The (code, message) a statement fails with."""
    with pytest.raises(pymysql.err.MySQLError) as info:
        rows(conn, sql)
    return info.value.args[0], info.value.args[1]


def rows(conn: Any, sql: str) -> list[tuple[Any, ...]]:
    with conn.cursor() as cur:
        cur.execute(sql)
        return list(cur.fetchall())


SETUP = """
CREATE DATABASE shop;
CREATE TABLE shop.orders (id INT PRIMARY KEY, item VARCHAR(20), price INT);
INSERT INTO shop.orders VALUES (1, 'tea', 3), (2, 'cake', 5);
CREATE TABLE shop.notes (txt VARCHAR(20));
CREATE DATABASE secret;
CREATE TABLE secret.keys (k VARCHAR(20));
INSERT INTO secret.keys VALUES ('launch');
CREATE USER 'app'@'%' IDENTIFIED BY 'apppw';
GRANT SELECT, INSERT ON shop.orders TO 'app'@'%';
GRANT SELECT (txt) ON shop.notes TO 'app'@'%';
"""


@pytest.fixture
def shop(server: ServerHandle) -> ServerHandle:
    if CLI is None:
        for statement in SETUP.split(";"):
            if statement.strip():
                server.query(statement)
    else:
        admin(server, SETUP)
    return server


def app(server: ServerHandle, **kw: Any) -> Any:
    return server.connect(user="app", password="apppw", **kw)


# --- an account with no grants cannot do what its administrator did not allow -------------------

def test_an_account_reads_what_it_was_granted_and_nothing_else(shop: ServerHandle) -> None:
    conn = app(shop)
    assert rows(conn, "SELECT item FROM shop.orders ORDER BY id") == [("tea",), ("cake",)]
    code, msg = err(conn, "SELECT * FROM secret.keys")
    assert (code, msg) == (1142, "SELECT command denied to user 'app'@'127.0.0.1' for table "
                                 "`secret`.`keys`")
    assert err(conn, "DROP DATABASE secret") == (
        1044, "Access denied for user 'app'@'%' to database 'secret'")
    assert err(conn, "DELETE FROM shop.orders")[0] == 1142
    assert err(conn, "UPDATE shop.orders SET price = 0") == (
        1142, "UPDATE command denied to user 'app'@'127.0.0.1' for table `shop`.`orders`")
    assert err(conn, "USE secret")[0] == 1044
    # a table that does not exist is 1142 too: privileges do not reveal what exists
    assert err(conn, "SELECT * FROM secret.nothing_here")[0] == 1142
    assert rows(conn, "SHOW DATABASES") == [("information_schema",), ("shop",)]
    assert rows(conn, "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE "
                      "TABLE_SCHEMA <> 'information_schema' ORDER BY 2") == [
        ("shop", "notes"), ("shop", "orders")]
    assert secret_still_there(shop)


def secret_still_there(server: ServerHandle) -> bool:
    return server.query("SELECT k FROM secret.keys") == (("launch",),)


def test_column_privileges(shop: ServerHandle) -> None:
    conn = app(shop)
    assert rows(conn, "SELECT txt FROM shop.notes") == []
    assert rows(conn, "SELECT COUNT(*) FROM shop.notes") == [(0,)]
    assert err(conn, "INSERT INTO shop.notes VALUES ('x')") == (
        1142, "INSERT command denied to user 'app'@'127.0.0.1' for table `shop`.`notes`")
    # (REVOKE of a table privilege also takes it from the table's columns, as in MariaDB)
    shop.query("REVOKE SELECT ON shop.orders FROM 'app'@'%'")
    shop.query("GRANT SELECT (id), UPDATE (price) ON shop.orders TO 'app'@'%'")
    assert rows(conn, "SELECT id FROM shop.orders ORDER BY id") == [(1,), (2,)]
    assert err(conn, "SELECT item FROM shop.orders") == (
        1143, "SELECT command denied to user 'app'@'127.0.0.1' for column 'item' in table "
              "'orders'")
    assert err(conn, "SELECT * FROM shop.orders")[0] == 1142
    with conn.cursor() as cur:
        cur.execute("UPDATE shop.orders SET price = 7 WHERE id = 1")
    # reading a column, in SET or in WHERE, needs SELECT on it
    assert err(conn, "UPDATE shop.orders SET price = price + 1 WHERE id = 1")[0] == 1143
    assert err(conn, "UPDATE shop.orders SET price = 1 WHERE item = 'tea'")[0] == 1143
    assert shop.query("SELECT price FROM shop.orders WHERE id = 1") == ((7,),)


def test_processlist_and_kill_need_privileges(shop: ServerHandle) -> None:
    root = shop.connect()
    conn = app(shop)
    listed = rows(conn, "SHOW PROCESSLIST")
    assert [r[1] for r in listed] == ["app"]
    assert {r[1] for r in rows(conn, "SELECT * FROM information_schema.PROCESSLIST")} == {"app"}
    assert err(conn, f"KILL {root.thread_id()}") == (
        1095, f"You are not owner of thread {root.thread_id()}")
    assert rows(root, "SELECT 1") == [(1,)]
    # one's own threads may be killed
    other = app(shop)
    with conn.cursor() as cur:
        cur.execute(f"KILL {other.thread_id()}")
    shop.query("GRANT PROCESS ON *.* TO 'app'@'%'")
    assert {r[1] for r in rows(app(shop), "SHOW PROCESSLIST")} >= {"app", "root"}


def test_server_administration_needs_privileges(shop: ServerHandle) -> None:
    conn = app(shop)
    before = shop.query("SELECT @@thread_pool_stall_limit")
    for sql, needed in [
        ("FLUSH PRIVILEGES", "RELOAD"), ("FLUSH THREAD_POOL_STATS", "RELOAD"),
        ("SHUTDOWN", "SHUTDOWN"), ("SET GLOBAL wait_timeout = 10", "SUPER"),
        ("SET GLOBAL thread_pool_size = 2", "SUPER, CONNECTION ADMIN"),
        ("SET GLOBAL thread_pool_stall_limit = 100", "SUPER, CONNECTION ADMIN"),
        ("SET GLOBAL max_connections = 10", "SUPER, CONNECTION ADMIN"),
        ("CREATE USER 'x'@'%'", "CREATE USER"), ("SHOW MASTER STATUS", "SUPER, BINLOG MONITOR"),
        ("SHOW RELAYLOG EVENTS", "SLAVE MONITOR"),
    ]:
        assert err(conn, sql) == (1227, f"Access denied; you need (at least one of) the "
                                        f"{needed} privilege(s) for this operation"), sql
    assert shop.query("SELECT @@thread_pool_stall_limit") == before
    assert err(conn, "GRANT SELECT ON *.* TO 'app'@'%'") == (
        1045, "Access denied for user 'app'@'%' (using password: YES)")
    assert err(conn, "SHOW GRANTS FOR root@localhost")[0] == 1044
    # the pool's per-thread state is performance_schema's: SELECT on it is needed, as in MySQL
    assert err(conn, "SELECT * FROM performance_schema.tp_thread_state") == (
        1142, "SELECT command denied to user 'app'@'127.0.0.1' for table "
              "`performance_schema`.`tp_thread_state`")
    assert ("performance_schema",) not in rows(conn, "SHOW DATABASES")
    shop.query("GRANT CONNECTION ADMIN ON *.* TO 'app'@'%'")
    with app(shop).cursor() as cur:  # global privileges count from the next login
        cur.execute("SET GLOBAL thread_pool_stall_limit = 123")
    assert shop.query("SELECT @@thread_pool_stall_limit") == ((123,),)


@needs_cli
def test_show_grants_through_the_cli(shop: ServerHandle) -> None:
    out = admin(shop, "SHOW GRANTS FOR 'app'@'%';")
    assert out.splitlines() == [
        "Grants for app@%",
        "GRANT USAGE ON *.* TO `app`@`%` IDENTIFIED BY PASSWORD "
        "'*8F33BFE1F3A8B5A9EBB4B3EB5F95CF9A0AC4C3D5'".replace(
            "*8F33BFE1F3A8B5A9EBB4B3EB5F95CF9A0AC4C3D5", _native_hash("apppw")),
        # MariaDB 10.11's order, which the built-in mariadb.sys grant's place in the
        # hash decides (granthash.py)
        "GRANT SELECT (`txt`) ON `shop`.`notes` TO `app`@`%`",
        "GRANT SELECT, INSERT ON `shop`.`orders` TO `app`@`%`",
    ]
    denied = cli(shop, "SELECT * FROM secret.keys;", user="app", password="apppw")
    assert denied.returncode == 1
    assert "ERROR 1142 (42000) at line 1: SELECT command denied to user 'app'@'127.0.0.1' " \
           "for table `secret`.`keys`" in denied.stderr
    mine = cli(shop, "SHOW GRANTS;", user="app", password="apppw")
    assert mine.stdout.splitlines()[0] == "Grants for app@%"


def _native_hash(password: str) -> str:
    import hashlib
    return "*" + hashlib.sha1(hashlib.sha1(password.encode()).digest()).hexdigest().upper()


# --- when grants take effect ------------------------------------------------------------------

def test_grants_take_effect_as_mariadb_says(shop: ServerHandle) -> None:
    conn = app(shop, database="shop")
    assert err(conn, "SELECT * FROM secret.keys")[0] == 1142
    shop.query("GRANT SELECT ON secret.keys TO 'app'@'%'")      # table level: at once
    assert rows(conn, "SELECT k FROM secret.keys") == [("launch",)]
    shop.query("REVOKE SELECT ON secret.keys FROM 'app'@'%'")
    assert err(conn, "SELECT k FROM secret.keys")[0] == 1142
    shop.query("GRANT DELETE ON shop.* TO 'app'@'%'")           # current database: next USE
    assert err(conn, "DELETE FROM notes")[0] == 1142
    with conn.cursor() as cur:
        cur.execute("USE shop")
        cur.execute("DELETE FROM notes")
    shop.query("GRANT SELECT ON secret.* TO 'app'@'%'")         # another database: at once
    assert rows(conn, "SELECT k FROM secret.keys") == [("launch",)]
    shop.query("GRANT PROCESS ON *.* TO 'app'@'%'")             # global: next login
    assert len(rows(conn, "SHOW PROCESSLIST")) == 1
    assert len(rows(app(shop), "SHOW PROCESSLIST")) >= 2


# --- roles ----------------------------------------------------------------------------------

def test_roles(shop: ServerHandle) -> None:
    shop.query("CREATE ROLE auditor")
    shop.query("GRANT SELECT ON secret.* TO auditor")
    shop.query("GRANT auditor TO 'app'@'%'")
    conn = app(shop)
    assert rows(conn, "SELECT CURRENT_ROLE()") == [(None,)]
    assert err(conn, "SELECT * FROM secret.keys")[0] == 1142
    with conn.cursor() as cur:
        cur.execute("SET ROLE auditor")
    assert rows(conn, "SELECT CURRENT_ROLE(), CURRENT_USER(), USER()") == [
        ("auditor", "app@%", "app@127.0.0.1")]
    assert rows(conn, "SELECT k FROM secret.keys") == [("launch",)]
    grants = [r[0] for r in rows(conn, "SHOW GRANTS")]
    assert "GRANT `auditor` TO `app`@`%`" in grants
    assert "GRANT SELECT ON `secret`.* TO `auditor`" in grants
    assert err(conn, "SET ROLE nosuch") == (1959, "Invalid role specification `nosuch`")
    with conn.cursor() as cur:
        cur.execute("SET ROLE NONE")
    assert err(conn, "SELECT * FROM secret.keys")[0] == 1142
    # SET DEFAULT ROLE: active from the next login
    with conn.cursor() as cur:
        cur.execute("SET DEFAULT ROLE auditor")
    assert rows(app(shop), "SELECT CURRENT_ROLE()") == [("auditor",)]
    assert err(conn, "GRANT auditor TO 'app'@'%'") == (
        1698, "Access denied for user 'app'@'%'")
    shop.query("CREATE ROLE boss")
    shop.query("GRANT auditor TO boss")
    assert shop.query("SHOW GRANTS FOR boss") == (
        ("GRANT `auditor` TO `boss`",), ("GRANT USAGE ON *.* TO `boss`",),
        ("GRANT USAGE ON *.* TO `auditor`",), ("GRANT SELECT ON `secret`.* TO `auditor`",))
    assert _code(shop, "GRANT boss TO auditor") == 1961
    shop.query("DROP ROLE auditor")
    assert rows(app(shop), "SELECT CURRENT_ROLE()") == [(None,)]


def _code(server: ServerHandle, sql: str) -> int:
    with pytest.raises(pymysql.err.MySQLError) as info:
        server.query(sql)
    return int(info.value.args[0])


# --- account options ---------------------------------------------------------------------------

def test_account_lock_and_connection_limits(server: ServerHandle) -> None:
    server.query("CREATE USER 'lk'@'%' IDENTIFIED BY 'pw' ACCOUNT LOCK")
    with pytest.raises(pymysql.err.OperationalError) as info:
        server.connect(user="lk", password="pw")
    assert info.value.args == (4151, "Access denied, this account is locked")
    with pytest.raises(pymysql.err.OperationalError) as info:
        server.connect(user="lk", password="wrong")
    assert info.value.args[0] == 1045
    server.query("ALTER USER 'lk'@'%' ACCOUNT UNLOCK")
    server.connect(user="lk", password="pw").close()

    server.query("CREATE USER 'few'@'%' WITH MAX_USER_CONNECTIONS 2")
    held = [server.connect(user="few") for _ in range(2)]
    with pytest.raises(pymysql.err.OperationalError) as info:
        server.connect(user="few")
    assert info.value.args == (1226, "User 'few' has exceeded the 'max_user_connections' "
                                     "resource (current value: 2)")
    held.pop().close()
    wait_until(lambda: _can_connect(server, "few"), message="a slot freed by a close")
    server.query("CREATE USER 'many'@'%'")
    server.query("SET GLOBAL max_user_connections = 1")
    try:
        keep = server.connect(user="many")
        with pytest.raises(pymysql.err.OperationalError) as info:
            server.connect(user="many")
        assert info.value.args[0] == 1203
        keep.close()
    finally:
        server.query("SET GLOBAL max_user_connections = 0")
    assert server.query("SHOW CREATE USER 'few'@'%'") == (
        ("CREATE USER `few`@`%` WITH MAX_USER_CONNECTIONS 2",),)


@needs_cli
def test_old_password_accounts_log_in_only_without_secure_auth(server: ServerHandle) -> None:
    """mysql_old_password (a 3.23 hash of 16 hex digits): refused with 1275 while secure_auth
    is ON (the default), verified by the 3.23 scramble when it is OFF - here through
    libmariadb's own mysql_old_password client plugin (the mariadb CLI)."""
    server.query("CREATE USER 'old'@'%' IDENTIFIED BY PASSWORD '09301740536db389'")  # 'oldpw'
    probe = "SELECT CURRENT_USER()"
    refused = cli(server, probe, user="old", password="oldpw")
    assert refused.returncode != 0 and "ERROR 1275" in refused.stderr
    done = cli(server, "SET GLOBAL secure_auth = 0; SHOW WARNINGS")
    assert "1287\t'@@secure_auth' is deprecated" in done.stdout, done.stdout
    try:
        ok = cli(server, probe, user="old", password="oldpw")
        assert ok.returncode == 0, ok.stderr
        assert ok.stdout.split() == ["CURRENT_USER()", "old@%"]
        wrong = cli(server, probe, user="old", password="other")
        assert wrong.returncode != 0 and "ERROR 1045" in wrong.stderr
    finally:
        server.query("SET GLOBAL secure_auth = DEFAULT")
    again = cli(server, probe, user="old", password="oldpw")
    assert again.returncode != 0 and "ERROR 1275" in again.stderr


def _can_connect(server: ServerHandle, user: str) -> bool:
    try:
        server.connect(user=user).close()
        return True
    except pymysql.err.OperationalError:
        return False


def test_hourly_query_limit(server: ServerHandle) -> None:
    server.query("CREATE USER 'q3'@'%' WITH MAX_QUERIES_PER_HOUR 3")
    conn = server.connect(user="q3")   # its own SET autocommit counts, as in MariaDB

    def four() -> None:
        for _ in range(4):
            rows(conn, "SELECT 1")
    with pytest.raises(pymysql.err.OperationalError) as info:
        four()
    assert info.value.args == (1226, "User 'q3' has exceeded the 'max_questions' resource "
                                     "(current value: 3)")
    with pytest.raises(pymysql.err.OperationalError):
        server.connect(user="q3")      # the hour is not over


def test_host_patterns_most_specific_first(server: ServerHandle) -> None:
    server.query("CREATE USER 'hp'@'%' IDENTIFIED BY 'anywhere'")
    server.query("CREATE USER 'hp'@'127.0.0.%' IDENTIFIED BY 'local-net'")
    conn = server.connect(user="hp", password="local-net")
    assert rows(conn, "SELECT CURRENT_USER()") == [("hp@127.0.0.%",)]
    with pytest.raises(pymysql.err.OperationalError):
        server.connect(user="hp", password="anywhere")
    # the anonymous account on an exact host beats a named one on '%', as in MariaDB
    server.query("CREATE USER ''@'localhost' IDENTIFIED BY 'anon'")
    server.query("CREATE USER 'named'@'%' IDENTIFIED BY 'mine'")
    conn = server.connect(user="named", password="anon")
    assert rows(conn, "SELECT CURRENT_USER(), USER()") == [("@localhost", "named@127.0.0.1")]


# --- the mysql database -------------------------------------------------------------------------

def test_mysql_tables_read_as_tools_read_them(shop: ServerHandle) -> None:
    got = shop.query("SELECT User, Host, Select_priv, Grant_priv, plugin FROM mysql.user "
                     "WHERE User IN ('root', 'app') ORDER BY User")
    # root's row is mariadb-install-db's, which names no plugin (as MariaDB shows it)
    assert got == (("app", "%", "N", "N", "mysql_native_password"),
                   ("root", "localhost", "Y", "Y", ""))
    assert shop.query("SELECT Db, Table_name, Table_priv, Column_priv FROM mysql.tables_priv "
                      "WHERE User = 'app' ORDER BY Table_name") == (
        ("shop", "notes", "", "Select"), ("shop", "orders", "Select,Insert", ""))
    assert shop.query("SELECT Column_name, Column_priv FROM mysql.columns_priv") == (
        ("txt", "Select"),)
    shop.query("GRANT SELECT ON shop.* TO 'app'@'%'")
    assert shop.query("SELECT Db, Select_priv, Insert_priv FROM mysql.db WHERE User = 'app'") \
        == (("shop", "Y", "N"),)
    # mysql.user is a view of global_priv in MariaDB: not insertable (grantedit.py)
    assert _code(shop, "INSERT INTO mysql.user (Host, User) VALUES ('%', 'sneaky')") == 1356
    assert _code(shop, "DROP TABLE mysql.db") == 1036
    # the privilege tables of grants rampmeter lacks: empty, ordinary tables (mysqldb.py)
    assert shop.query("SELECT COUNT(*) FROM mysql.procs_priv") == ((0,),)
    assert shop.query("SELECT COUNT(*) FROM mysql.func") == ((0,),)
    shop.query("RENAME TABLE mysql.proxies_priv TO mysql.pp")
    shop.query("RENAME TABLE mysql.pp TO mysql.proxies_priv")
    assert shop.query("SELECT COUNT(*) FROM mysql.proxies_priv") == ((0,),)
    assert err(app(shop), "SELECT * FROM mysql.user")[0] == 1142


def test_sys_schema_is_installed(shop: ServerHandle) -> None:
    # MariaDB's install creates it: SHOW DATABASES lists it (mtr create_drop_role, 1st)
    assert ("sys",) in shop.query("SHOW DATABASES")
    assert shop.query("SELECT sys_version FROM sys.version") == (("1.5.1",),)
    assert shop.query("SELECT value FROM sys.sys_config "
                      "WHERE variable = 'statement_truncate_len'") == (("64",),)
    assert ("sys",) not in rows(app(shop), "SHOW DATABASES")  # no privilege on it


# --- prepared statements and COM_CHANGE_USER ----------------------------------------------------

def test_prepared_statements_are_checked_again_at_execute(shop: ServerHandle) -> None:
    mysql_connector = pytest.importorskip("mysql.connector")
    conn = mysql_connector.connect(host=shop.host, port=shop.port, user="app", password="apppw",
                                   ssl_disabled=True, use_pure=True)
    try:
        cur = conn.cursor(prepared=True)
        cur.execute("SELECT item FROM shop.orders WHERE id = %s", (1,))
        assert cur.fetchall() == [("tea",)]
        shop.query("REVOKE SELECT ON shop.orders FROM 'app'@'%'")
        with pytest.raises(mysql_connector.Error) as info:
            cur.execute("SELECT item FROM shop.orders WHERE id = %s", (1,))
        assert info.value.errno == 1142
        with pytest.raises(mysql_connector.Error) as info:
            conn.cursor(prepared=True).execute("SELECT * FROM secret.keys WHERE k = %s", ("x",))
        assert info.value.errno == 1142
        conn.cmd_change_user(username="root", password="")
        cur = conn.cursor()
        cur.execute("SELECT k FROM secret.keys")
        assert cur.fetchall() == [("launch",)]
    finally:
        conn.close()


# --- recovery and durability --------------------------------------------------------------------

def _restart(handle: ServerHandle, *args: str) -> ServerHandle:
    stop_process(handle)
    return start_process(handle.datadir, *args)


def test_grants_survive_kill_9(tmp_path: Any) -> None:
    proc = start_process(tmp_path / "d")
    try:
        proc.query("CREATE DATABASE k9")
        proc.query("CREATE TABLE k9.t (x INT)")
        proc.query("CREATE USER 'dur'@'%' IDENTIFIED BY 'pw'")
        proc.query("GRANT SELECT ON k9.t TO 'dur'@'%'")
        assert proc.process is not None
        os.kill(proc.process.pid, signal.SIGKILL)   # acknowledged: it must be on disk
        proc.process.wait(20)
    except BaseException:
        stop_process(proc)
        raise
    proc = start_process(tmp_path / "d")
    try:
        assert proc.query("SELECT COUNT(*) FROM k9.t", user="dur", password="pw") == ((0,),)
        assert proc.query("SHOW GRANTS FOR 'dur'@'%'")[1] == (
            "GRANT SELECT ON `k9`.`t` TO `dur`@`%`",)
    finally:
        stop_process(proc)


def test_grants_edited_by_hand_are_flushed_to_the_grant_file(tmp_path: Any) -> None:
    """grantedit.py: FLUSH PRIVILEGES writes hand-edited rows to the grant file before they
    count, so they survive a kill -9; a row the grants cannot hold is left out, and an edit
    not flushed is not a grant."""
    proc = start_process(tmp_path / "d")
    try:
        proc.query("CREATE DATABASE he")
        proc.query("CREATE TABLE he.t (x INT)")
        proc.query("CREATE USER 'ed'@'%' IDENTIFIED BY 'pw'")
        proc.query("INSERT INTO mysql.db (Host, Db, User, Select_priv) VALUES "
                   "('%', 'he', 'ed', 'Y')")
        with pytest.raises(pymysql.err.MySQLError) as info:
            proc.query("SELECT COUNT(*) FROM he.t", user="ed", password="pw")
        assert info.value.args[0] == 1142
        proc.query("INSERT INTO mysql.global_priv VALUES ('%', 'broken', '[1]'), "
                   "('%', 'odd', '{\"access\": 0, \"plugin\": \"no_such_plugin\"}')")
        proc.query("FLUSH PRIVILEGES")
        assert proc.query("SELECT COUNT(*) FROM he.t", user="ed", password="pw") == ((0,),)
        # a plugin rampmeter lacks is kept, as MariaDB keeps it; nobody logs in with it
        assert proc.query("SELECT User FROM mysql.global_priv WHERE User IN "
                          "('broken', 'odd')") == (("odd",),)
        with pytest.raises(pymysql.err.MySQLError) as info:
            proc.query("SELECT 1", user="odd", password="")
        assert info.value.args[0] == 1045
        proc.query("UPDATE mysql.db SET Select_priv = 'N' WHERE User = 'ed'")  # not flushed
        assert proc.process is not None
        os.kill(proc.process.pid, signal.SIGKILL)
        proc.process.wait(20)
    except BaseException:
        stop_process(proc)
        raise
    proc = start_process(tmp_path / "d")
    try:
        assert proc.query("SELECT COUNT(*) FROM he.t", user="ed", password="pw") == ((0,),)
        assert proc.query("SELECT Select_priv FROM mysql.db WHERE User = 'ed'") == (("Y",),)
    finally:
        stop_process(proc)


def test_a_damaged_grant_file_stops_the_server(tmp_path: Any) -> None:
    datadir = tmp_path / "d"
    (datadir / "mysql").mkdir(parents=True)
    (datadir / "mysql" / "accounts.json").write_text('{"version": 2, "accounts": [{"us')
    done = subprocess.run(
        [__import__("sys").executable, "-m", "rampmeter", "serve", "--port=0",
         "--bind-address=127.0.0.1", f"--datadir={datadir}"],
        capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert "the grant file" in done.stderr and "is damaged" in done.stderr
    assert "--skip-grant-tables" in done.stderr


def test_skip_grant_tables_recovers_a_lost_root_password(tmp_path: Any) -> None:
    proc = start_process(tmp_path / "d")
    try:
        proc.query("ALTER USER root@localhost IDENTIFIED BY 'forgotten'")
    finally:
        stop_process(proc)
    proc = start_process(tmp_path / "d", "--skip-grant-tables")
    try:
        conn = proc.connect(password="anything at all")
        assert _conn_code(conn, "ALTER USER root@localhost IDENTIFIED BY 'x'") == 1290
        with conn.cursor() as cur:
            cur.execute("FLUSH PRIVILEGES")
            cur.execute("ALTER USER root@localhost IDENTIFIED BY 'remembered'")
        with pytest.raises(pymysql.err.OperationalError):
            proc.connect(password="anything at all")   # checks are on again
    finally:
        stop_process(proc)
    proc = start_process(tmp_path / "d")
    try:
        assert proc.query("SELECT CURRENT_USER()", password="remembered") == (
            ("root@localhost",),)
    finally:
        stop_process(proc)


def _conn_code(conn: Any, sql: str) -> int:
    with pytest.raises(pymysql.err.MySQLError) as info, conn.cursor() as cur:
        cur.execute(sql)
    return int(info.value.args[0])


# --- names and the datadir ----------------------------------------------------------------------

def test_names_are_checked_before_the_datadir_and_a_damaged_file_harms_no_one(
        server: ServerHandle) -> None:
    conn = server.connect()
    emoji = "CREATE DATABASE `e\U0001F600`"
    assert _conn_code(conn, emoji) == 1300
    assert _conn_code(conn, "CREATE DATABASE `trail `") == 1102
    assert _conn_code(conn, "CREATE TABLE x.`" + "t" * 65 + "` (a INT)") in (1103, 1049)
    assert not list(server.datadir.glob("e*.sqlite3"))
    server.query("CREATE DATABASE fine")
    server.query("CREATE TABLE fine.t (a INT)")
    (server.datadir / "broken.sqlite3").write_bytes(b"this is not an SQLite file" * 10)
    (server.datadir / "bad\udcff.sqlite3".encode("utf-8", "surrogateescape").decode(
        "utf-8", "surrogateescape")).write_bytes(b"x")
    other = server.connect()
    assert rows(other, "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES "
                       "WHERE TABLE_SCHEMA = 'fine'") == [("fine", "t")]
    assert _conn_code(conn, "USE broken") == 1033
    assert rows(conn, "SELECT 1") == [(1,)]          # the connection is still there
    with conn.cursor() as cur:
        cur.execute("DROP DATABASE broken")
    assert ("broken",) not in rows(other, "SHOW DATABASES")



def test_grant_proxy_on_any_account_as_dumps_write_it(server):
    """mariadb-dump --all-databases writes root's install-time proxy grant back: it is
    taken from an account that holds it; another proxy grant is still 1235."""
    conn = server.connect()
    with conn.cursor() as cur:
        cur.execute("CREATE USER proxied@localhost")
        cur.execute("GRANT PROXY ON ''@'%' TO proxied@localhost WITH GRANT OPTION")
        cur.execute("SHOW GRANTS FOR proxied@localhost")
        assert ("GRANT PROXY ON ``@`%` TO `proxied`@`localhost` WITH GRANT OPTION",) in \
            cur.fetchall()
        with pytest.raises(pymysql.err.NotSupportedError) as e:
            cur.execute("GRANT PROXY ON 'x'@'%' TO proxied@localhost")
        assert e.value.args[0] == 1235
        cur.execute("DROP USER proxied@localhost")
