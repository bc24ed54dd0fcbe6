"""Server behaviour a MariaDB user relies on: kills, timeouts, limits, accounts, bad input,
variables, shutdown. Every wait is on observable state with a deadline."""

from __future__ import annotations

import socket
import struct
import threading
import time

import pymysql
import pytest

from tests.conftest import start_process, stop_process, wait_until

pytestmark = pytest.mark.timeout(60)


def _in_background(fn, *args):
    box: dict[str, object] = {}

    def run():
        try:
            box["result"] = fn(*args)
        except Exception as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t, box


def _processlist_info(server, cid):
    for row in server.query("SHOW FULL PROCESSLIST"):
        if row[0] == cid:
            return row
    return None


def test_kill_query_interrupts_sleep_within_two_seconds(server):
    victim = server.connect()
    cid = victim.thread_id()

    def sleep():
        with victim.cursor() as cur:
            cur.execute("SELECT SLEEP(30)")

    t, box = _in_background(sleep)
    wait_until(lambda: (_processlist_info(server, cid) or [None] * 8)[7] == "SELECT SLEEP(30)",
               message="the victim to be running SLEEP(30)")
    assert _processlist_info(server, cid)[6] == "User sleep"
    start = time.monotonic()
    server.query(f"KILL QUERY {cid}")
    t.join(5)
    assert time.monotonic() - start < 2.0
    assert isinstance(box.get("error"), pymysql.MySQLError)
    assert box["error"].args[0] == 1317
    # the victim's connection survives a KILL QUERY
    with victim.cursor() as cur:
        cur.execute("SELECT 2")
        assert cur.fetchone() == (2,)
    victim.close()


def test_kill_connection_closes_the_victim(server):
    victim = server.connect()
    cid = victim.thread_id()
    server.query(f"KILL {cid}")
    wait_until(lambda: _processlist_info(server, cid) is None, message="the victim to go")
    with pytest.raises(pymysql.err.OperationalError) as exc:
        with victim.cursor() as cur:
            cur.execute("SELECT 1")
    assert exc.value.args[0] in (2006, 2013, 1927)


def test_kill_unknown_thread(server):
    with pytest.raises(pymysql.MySQLError) as exc:
        server.query("KILL 999999")
    assert exc.value.args[0] == 1094


def test_wait_timeout_closes_idle_session(server):
    conn = server.connect()
    cid = conn.thread_id()
    with conn.cursor() as cur:
        cur.execute("SET SESSION wait_timeout = 1")
    wait_until(lambda: _processlist_info(server, cid) is None, timeout=10,
               message="the idle session to be closed")
    with pytest.raises(pymysql.err.OperationalError):
        with conn.cursor() as cur:
            cur.execute("SELECT 1")
    assert server.status("Aborted_clients") >= 1


def test_max_connections_gives_1040(server_factory):
    server = server_factory(max_connections=2)
    # max_connections + 1 sessions are admitted (the last slot is the administrator's)
    held = [server.connect() for _ in range(3)]
    with pytest.raises(pymysql.err.OperationalError) as exc:
        server.connect()
    assert exc.value.args[0] == 1040
    for conn in held:
        conn.close()

    def freed() -> bool:
        try:  # asking takes a slot too: until the closed ones are freed, that may be a 1040
            return server.status("Threads_connected") <= 1
        except pymysql.err.OperationalError as e:
            if e.args[0] != 1040:
                raise
            return False

    wait_until(freed, message="slots to be freed")
    server.connect().close()
    assert server.status("Connection_errors_max_connections") >= 1


def test_wrong_password_is_1045(server):
    server.query("CREATE USER 'app'@'%' IDENTIFIED BY 'secret'")
    with pytest.raises(pymysql.err.OperationalError) as exc:
        server.connect(user="app", password="wrong")
    assert exc.value.args[0] == 1045
    assert "Access denied for user 'app'" in exc.value.args[1]
    with pytest.raises(pymysql.err.OperationalError) as exc:
        server.connect(user="nobody")
    assert exc.value.args[0] == 1045
    assert server.query("SELECT CURRENT_USER()", user="app", password="secret") == \
        (("app@%",),)


@pytest.mark.parametrize("plugin", ["mysql_native_password", "caching_sha2_password"])
def test_accounts_by_plugin(server, plugin):
    server.query(f"CREATE USER 'u1'@'%' IDENTIFIED WITH {plugin} BY 'pw1'")
    # first login: full authentication (RSA public key over plain TCP for caching_sha2)
    assert server.query("SELECT USER()", user="u1", password="pw1")[0][0].startswith("u1@")
    # second login: the caching_sha2 fast path
    assert server.query("SELECT 1", user="u1", password="pw1") == ((1,),)
    server.query("ALTER USER 'u1'@'%' IDENTIFIED BY 'pw2'")
    with pytest.raises(pymysql.err.OperationalError):
        server.connect(user="u1", password="pw1")
    assert server.query("SELECT 1", user="u1", password="pw2") == ((1,),)
    server.query("DROP USER 'u1'@'%'")
    with pytest.raises(pymysql.err.OperationalError):
        server.connect(user="u1", password="pw2")


def test_accounts_and_grants_survive_restart(tmp_path):
    proc = start_process(tmp_path / "d")
    try:
        proc.query("CREATE USER 'keep'@'%' IDENTIFIED BY 'kp'")
        proc.query("CREATE DATABASE kept")
        proc.query("CREATE TABLE kept.t (x INT)")
        proc.query("CREATE TABLE kept.hidden (y INT)")
        proc.query("INSERT INTO kept.t VALUES (1), (2)")
        proc.query("GRANT SELECT ON kept.t TO 'keep'@'%'")
    finally:
        stop_process(proc)
    proc = start_process(tmp_path / "d")
    try:
        rows = proc.query("SELECT SUM(x) FROM kept.t", user="keep", password="kp")
        assert int(rows[0][0]) == 3
        with pytest.raises(pymysql.err.OperationalError) as denied:
            proc.query("SELECT * FROM kept.hidden", user="keep", password="kp")
        assert denied.value.args[0] == 1142
    finally:
        stop_process(proc)


def _raw_login(server):
    """A socket past the handshake, using PyMySQL's connection to do the login."""
    conn = server.connect()
    return conn, conn._sock


def test_malformed_packet_closes_only_that_connection(server):
    bystander = server.connect()
    bad, sock = _raw_login(server)
    # a COM_STMT_EXECUTE too short to hold a statement id
    sock.sendall(struct.pack("<I", 2)[:3] + b"\x00" + b"\x17\x01")
    sock.settimeout(5)
    data = b""
    try:
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    assert data[4:5] == b"\xff"  # an ERR packet, then the server closed the connection
    with bystander.cursor() as cur:
        cur.execute("SELECT 42")
        assert cur.fetchone() == (42,)
    bystander.close()


def test_huge_packet_gives_1153_and_other_clients_continue(server):
    server.query("SET GLOBAL max_allowed_packet = 1048576")
    conn = server.connect()
    with pytest.raises(pymysql.MySQLError) as exc:
        with conn.cursor() as cur:
            cur.execute("SELECT '" + "x" * (2 * 1024 * 1024) + "'")
    assert exc.value.args[0] in (1153, 2006, 2013)
    assert server.query("SELECT 1") == ((1,),)


@pytest.mark.timeout(180)  # 34 MiB through the scanner and back: ~20 s here, 60+ under load
def test_packets_of_16mib_and_more_are_joined(server):
    conn = server.connect(max_allowed_packet=64 * 1024 * 1024)
    with conn.cursor() as cur:
        cur.execute("SET GLOBAL max_allowed_packet = 67108864")
    conn.close()
    conn = server.connect(max_allowed_packet=64 * 1024 * 1024)
    big = "y" * (17 * 1024 * 1024)
    with conn.cursor() as cur:
        cur.execute("SELECT LENGTH(%s), %s", (big, big))
        length, echoed = cur.fetchone()
    assert length == len(big)
    assert echoed == big
    conn.close()


def test_client_vanishing_mid_query_keeps_server_serving(server):
    victim = server.connect()
    cid = victim.thread_id()
    with victim.cursor() as cur:
        cur.execute("CREATE DATABASE IF NOT EXISTS v")
        cur.execute("CREATE TABLE v.t (x INT)")
        cur.execute("BEGIN")
        cur.execute("INSERT INTO v.t VALUES (1)")
    victim._sock.sendall(struct.pack("<I", 17)[:3] + b"\x00\x03SELECT SLEEP(0.3)")
    # PyMySQL's reader keeps the descriptor open past close(): shut the socket down for real.
    victim._sock.shutdown(socket.SHUT_RDWR)
    victim._sock.close()
    wait_until(lambda: _processlist_info(server, cid) is None, message="the victim to go")
    # its uncommitted insert was rolled back, and the write lock released
    assert server.query("SELECT COUNT(*) FROM v.t") == ((0,),)
    server.query("INSERT INTO v.t VALUES (2)")


def test_variables_set_and_show(server):
    conn = server.connect()
    with conn.cursor() as cur:
        cur.execute("SET SESSION wait_timeout = 123, @x = 5, NAMES utf8mb4")
        cur.execute("SELECT @@wait_timeout, @@session.wait_timeout, @x, @@character_set_client")
        assert cur.fetchone() == (123, 123, 5, "utf8mb4")
        cur.execute("SHOW VARIABLES LIKE 'wait_timeout'")
        assert cur.fetchall() == (("wait_timeout", "123"),)
        cur.execute("SHOW GLOBAL VARIABLES LIKE 'wait_timeout'")
        assert cur.fetchall() == (("wait_timeout", "28800"),)
        cur.execute("SET GLOBAL max_connections = 0")
        cur.execute("SHOW WARNINGS")
        assert cur.fetchall()[0][1] == 1292
        cur.execute("SELECT @@global.max_connections")
        assert cur.fetchone() == (1,)
        cur.execute("SET GLOBAL max_connections = DEFAULT")
        with pytest.raises(pymysql.MySQLError) as exc:
            cur.execute("SET wait_timeout = 'soon'")
        assert exc.value.args[0] == 1232
        with pytest.raises(pymysql.MySQLError) as exc:
            cur.execute("SET max_connections = 10")
        assert exc.value.args[0] == 1229
        # one name per assignment: `SET option option = 1` is MariaDB's 1064 (mtr keywords)
        with pytest.raises(pymysql.MySQLError) as exc:
            cur.execute("SET option option = 1")
        assert exc.value.args[0] == 1064 and "near 'option = 1'" in exc.value.args[1]
        cur.execute("SHOW VARIABLES WHERE Variable_name IN ('autocommit', 'port')")
        assert {r[0] for r in cur.fetchall()} == {"autocommit", "port"}
        cur.execute("SHOW GLOBAL STATUS LIKE 'Threads_connected'")
        assert int(cur.fetchone()[1]) >= 1
    conn.close()


def test_processlist_and_connection_ids(server):
    a = server.connect()
    b = server.connect()
    ids = {row[0] for row in server.query("SHOW PROCESSLIST")}
    assert {a.thread_id(), b.thread_id()} <= ids
    with a.cursor() as cur:
        cur.execute("SELECT ID, COMMAND FROM information_schema.PROCESSLIST "
                    "WHERE ID = CONNECTION_ID()")
        assert cur.fetchone() == (a.thread_id(), "Query")
    a.close()
    b.close()


def test_ping_statistics_and_unknown_command(server):
    conn = server.connect()
    conn.ping()
    conn._execute_command(0x09, b"")  # COM_STATISTICS
    assert b"Uptime:" in conn._read_packet().get_all_data()
    conn._execute_command(0x1D, b"")  # COM_DAEMON: clients never send it
    with pytest.raises(pymysql.MySQLError) as exc:
        conn._read_packet()
    assert exc.value.args[0] == 1047
    conn.ping()
    conn.close()


def test_sigterm_rolls_back_and_stops(tmp_path):
    proc = start_process(tmp_path / "d")
    conn = proc.connect(autocommit=False)
    with conn.cursor() as cur:
        cur.execute("CREATE DATABASE s")
        cur.execute("CREATE TABLE s.t (x INT)")
        cur.execute("INSERT INTO s.t VALUES (1)")
        conn.commit()
        cur.execute("INSERT INTO s.t VALUES (2)")  # left open
    out = stop_process(proc)
    assert "Shutdown complete" in out
    proc = start_process(tmp_path / "d")
    try:
        assert proc.query("SELECT x FROM s.t") == ((1,),)
    finally:
        stop_process(proc)


def test_reset_connection_zeroes_status_and_keeps_the_handshake_charset(server):
    """COM_RESET_CONNECTION (mtr main.reset_connection): the session's status counters start
    from zero, the global ones keep the counts, and the character sets return to the ones
    the client named in its handshake, not to the server's."""
    import mysql.connector as mysql_connector

    conn = mysql_connector.connect(host="127.0.0.1", port=server.port, user="root",
                                   charset="latin1", ssl_disabled=True, use_pure=True)
    try:
        cur = conn.cursor()

        def one(sql):
            cur.execute(sql)
            return cur.fetchall()[0]

        cur.execute("FLUSH STATUS")
        for _ in range(3):
            one("SELECT 1")
        assert one("SHOW SESSION STATUS LIKE 'Com_select'") == ("Com_select", "3")
        before = int(one("SHOW GLOBAL STATUS LIKE 'Com_select'")[1])
        cur.execute("SET NAMES utf8mb4")
        cur.close()
        conn.cmd_reset_connection()
        cur = conn.cursor()
        assert one("SHOW SESSION STATUS LIKE 'Com_select'") == ("Com_select", "0")
        assert int(one("SHOW GLOBAL STATUS LIKE 'Com_select'")[1]) >= before
        assert one("SELECT @@character_set_client, @@collation_connection") == (
            "latin1", "latin1_swedish_ci")
    finally:
        conn.close()


def test_sql_big_selects_follows_max_join_size_and_change_user_resets(server):
    """MariaDB derives sql_big_selects from max_join_size (ON exactly when it is unlimited), and
    COM_CHANGE_USER starts the session's variables from the global values (mtr
    main.change_user); SET of a deprecated variable warns 1287."""
    import mysql.connector as mysql_connector

    conn = mysql_connector.connect(host="127.0.0.1", port=server.port, user="root",
                                   ssl_disabled=True, use_pure=True)
    try:
        cur = conn.cursor()

        def one(sql):
            cur.execute(sql)
            return cur.fetchall()[0]

        assert one("SELECT @@sql_big_selects") == (1,)
        cur.execute("SET max_join_size = 1000")
        assert one("SELECT @@sql_big_selects") == (0,)
        cur.execute("SET timestamp = 1000000000")
        cur.execute("SET big_tables = 0")
        assert one("SHOW WARNINGS") == (
            "Warning", 1287, "'@@big_tables' is deprecated and will be removed in a future "
                             "release")
        cur.close()
        conn.cmd_change_user(username="root", password="")
        cur = conn.cursor()
        assert one("SELECT @@sql_big_selects, @@max_join_size = 18446744073709551615, "
                   "YEAR(NOW()) > 2001") == (1, 1, 1)
    finally:
        conn.close()


def _state_of(admin, cid):
    with admin.cursor() as cur:
        cur.execute(f"SELECT STATE FROM information_schema.PROCESSLIST WHERE ID = {cid}")
        row = cur.fetchone()
    return row[0] if row else None


@pytest.mark.parametrize(("hold", "release", "waiter", "state"), [
    # MariaDB 10.11's states for each (checked against a 10.11.19 server)
    ("FLUSH TABLES WITH READ LOCK", "UNLOCK TABLES", "INSERT INTO w.t VALUES (1)",
     "Waiting for backup lock"),
    ("LOCK TABLES w.t WRITE", "UNLOCK TABLES", "INSERT INTO w.t VALUES (1)",
     "Waiting for table metadata lock"),
    ("LOCK TABLES w.t WRITE", "UNLOCK TABLES", "DROP DATABASE w",
     "Waiting for schema metadata lock"),
    ("START TRANSACTION; INSERT INTO w.t VALUES (2)", "COMMIT", "ALTER TABLE w.t ADD c INT",
     "Waiting for table metadata lock"),
    ("START TRANSACTION; INSERT INTO w.t VALUES (2)", "COMMIT", "DROP DATABASE w",
     "Waiting for table metadata lock"),
    ("START TRANSACTION; INSERT INTO w.t VALUES (2)", "COMMIT", "LOCK TABLES w.t WRITE",
     "Waiting for table metadata lock"),
])
def test_lock_waits_show_mariadbs_processlist_states(server, hold, release, waiter, state):
    """A statement waiting for a lock shows the state MariaDB shows for the lock it would wait
    for (the state DBAs look for, "Waiting for table metadata lock" above all); the holder of
    FLUSH TABLES WITH READ LOCK may not write itself (1223)."""
    server.query("CREATE DATABASE w")
    server.query("CREATE TABLE w.t (a INT)")
    holder, other, admin = (server.connect(autocommit=True) for _ in range(3))
    try:
        with holder.cursor() as cur:
            for sql in hold.split("; "):
                cur.execute(sql)
            if hold.startswith("FLUSH"):
                with pytest.raises(pymysql.err.OperationalError) as info:
                    cur.execute("INSERT INTO w.t VALUES (3)")
                assert info.value.args[0] == 1223
        cid = other.thread_id()
        done, box = _in_background(lambda: other.cursor().execute(waiter))
        wait_until(lambda: _state_of(admin, cid) == state, timeout=10,
                   message=f"{waiter!r} showing {state!r}")
        with holder.cursor() as cur:
            cur.execute(release)
        done.join(10)
        assert not done.is_alive() and "error" not in box, box
    finally:
        for c in (holder, other, admin):
            c.close()
        server.query("DROP DATABASE IF EXISTS w")


def test_information_schema_system_variables(server):
    # mariadb-test's include/not_msan.inc and opt_trace_default read it
    conn = server.connect()
    with conn.cursor() as cur:
        cur.execute("SET SESSION sql_mode = 'ANSI_QUOTES'")
        cur.execute("SELECT VARIABLE_NAME, SESSION_VALUE, GLOBAL_VALUE, GLOBAL_VALUE_ORIGIN, "
                    "VARIABLE_SCOPE, VARIABLE_TYPE, READ_ONLY FROM "
                    "information_schema.SYSTEM_VARIABLES WHERE VARIABLE_NAME IN "
                    "('SQL_MODE', 'MAX_CONNECTIONS', 'OPTIMIZER_TRACE') ORDER BY 1")
        assert cur.fetchall() == (
            ("MAX_CONNECTIONS", None, "151", "COMPILE-TIME", "GLOBAL", "BIGINT UNSIGNED", "NO"),
            ("OPTIMIZER_TRACE", "enabled=off", "enabled=off", "COMPILE-TIME", "SESSION",
             "FLAGSET", "NO"),
            ("SQL_MODE", "ANSI_QUOTES", "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,"
             "NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION", "COMPILE-TIME", "SESSION", "SET",
             "NO"))
        cur.execute("SELECT COUNT(*) FROM information_schema.SYSTEM_VARIABLES "
                    "WHERE VARIABLE_NAME = 'have_sanitizer' AND GLOBAL_VALUE LIKE 'MSAN%'")
        assert cur.fetchone() == (0,)
    conn.close()
