"""CREATE / ALTER / DROP SERVER through a real client: the definitions land in mysql.servers as
MariaDB keeps them, with MariaDB's errors and privilege (session/servers.py states the rules;
mtr create_drop_server and grant_server run the same statements). Also SHOW BINLOG / RELAYLOG
EVENTS, answered without a log."""

from __future__ import annotations

from typing import Any

import pymysql
import pytest

from tests.conftest import ServerHandle

pytestmark = pytest.mark.timeout(30)


def run(conn: Any, sql: str) -> list[tuple[Any, ...]]:
    with conn.cursor() as cur:
        cur.execute(sql)
        return list(cur.fetchall())


def err(conn: Any, sql: str) -> tuple[int, str]:
    with pytest.raises(pymysql.err.MySQLError) as info:
        run(conn, sql)
    return info.value.args[0], info.value.args[1]


def servers(conn: Any) -> list[tuple[Any, ...]]:
    return run(conn, "SELECT Server_name, Host, Db, Username, Password, Port, Socket, Wrapper, "
                     "Owner FROM mysql.servers ORDER BY Server_name")


def test_create_alter_drop_server(server: ServerHandle) -> None:
    conn = server.connect()
    run(conn, "CREATE SERVER Srv1 FOREIGN DATA WRAPPER MySQL OPTIONS (USER 'Remote', "
              "HOST 'Server.Example.Com', DATABASE 'Test', PORT 3307, SOCKET 'Sock', "
              "OWNER 'Own', PASSWORD 'pw')")
    # the mysql wrapper's port defaults to 3306, another wrapper's to 0; nothing is lower-cased
    run(conn, "CREATE SERVER s2 FOREIGN DATA WRAPPER mysql OPTIONS (SOCKET 'q')")
    run(conn, "CREATE SERVER 's3' FOREIGN DATA WRAPPER 'w' OPTIONS (USER 'x')")
    assert servers(conn) == [
        ("s2", "", "", "", "", 3306, "q", "mysql", ""),
        ("s3", "", "", "x", "", 0, "", "w", ""),
        ("Srv1", "Server.Example.Com", "Test", "Remote", "pw", 3307, "Sock", "MySQL", "Own")]
    run(conn, "ALTER SERVER S3 OPTIONS (HOST 'AbC', PORT 12)")  # names compare without case
    assert servers(conn)[1] == ("s3", "AbC", "", "x", "", 12, "", "w", "")

    assert err(conn, "CREATE SERVER srv1 FOREIGN DATA WRAPPER mysql OPTIONS (USER 'x')") == (
        1476, "Cannot create foreign server 'srv1' as it already exists")
    with conn.cursor() as cur:
        cur.execute("CREATE SERVER IF NOT EXISTS srv1 FOREIGN DATA WRAPPER mysql "
                    "OPTIONS (HOST 'h')")
        cur.execute("SHOW WARNINGS")
        assert cur.fetchall() == (
            ("Note", 1476, "Cannot create foreign server 'srv1' as it already exists"),)
    assert err(conn, "CREATE OR REPLACE SERVER IF NOT EXISTS srv1 FOREIGN DATA WRAPPER mysql "
                     "OPTIONS (HOST 'h')") == (
        1221, "Incorrect usage of OR REPLACE and IF NOT EXISTS")
    run(conn, "CREATE OR REPLACE SERVER srv1 FOREIGN DATA WRAPPER mysql OPTIONS (HOST 'new')")
    assert servers(conn)[2] == ("srv1", "new", "", "", "", 3306, "", "mysql", "")
    assert err(conn, "CREATE SERVER s4 FOREIGN DATA WRAPPER mysql OPTIONS (USER 'x')") == (
        1434, "Can't create federated table. Foreign data src error:  "
              "either HOST or SOCKET must be set")

    missing = (1477, "The foreign server name you are trying to reference does not exist. "
                     "Data source error:  nosuch")
    assert err(conn, "ALTER SERVER nosuch OPTIONS (USER 'x')") == missing
    assert err(conn, "DROP SERVER nosuch") == missing
    run(conn, "DROP SERVER IF EXISTS nosuch")
    for name in ("srv1", "s2", "s3"):
        run(conn, f"DROP SERVER {name}")
    assert servers(conn) == []


@pytest.mark.parametrize(("sql", "near"), [
    ("CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (USER 'x', USER 'y')", "'y')"),
    ("CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (FOO 'x')", "FOO 'x')"),
    ("CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (PORT 'x')", "'x')"),
    ("CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (HOST 'h', PORT -5)", "-5)"),
    ("CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS ()", ")"),
])
def test_server_options_grammar(server: ServerHandle, sql: str, near: str) -> None:
    code, msg = err(server.connect(), sql)
    assert code == 1064
    assert f"near '{near}' at line 1" in msg


def test_server_statements_need_super_or_federated_admin(server: ServerHandle) -> None:
    server.query("CREATE USER u@'%' IDENTIFIED BY 'pw'")
    server.query("GRANT ALL PRIVILEGES ON *.* TO u@'%'")
    server.query("REVOKE FEDERATED ADMIN, SUPER ON *.* FROM u@'%'")
    conn = server.connect(user="u", password="pw")
    denied = (1227, "Access denied; you need (at least one of) the SUPER, FEDERATED ADMIN "
                    "privilege(s) for this operation")
    assert err(conn, "CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (HOST 'h')") == denied
    assert err(conn, "ALTER SERVER s OPTIONS (HOST 'h')") == denied
    assert err(conn, "DROP SERVER s") == denied
    server.query("GRANT FEDERATED ADMIN ON *.* TO u@'%'")
    conn = server.connect(user="u", password="pw")  # global privileges count from the next login
    run(conn, "CREATE SERVER s FOREIGN DATA WRAPPER mysql OPTIONS (HOST 'h')")
    run(conn, "DROP SERVER s")


def test_show_log_events_are_empty_after_the_privilege_check(server: ServerHandle) -> None:
    """This server keeps no binary or relay log: SHOW BINLOG / RELAYLOG EVENTS list nothing,
    after MariaDB's check (BINLOG MONITOR, SLAVE MONITOR; mtr grant_slave_monitor)."""
    conn = server.connect()
    with conn.cursor() as cur:
        cur.execute("SHOW RELAYLOG EVENTS FROM 4 LIMIT 1, 2")
        assert [d[0] for d in cur.description] == ["Log_name", "Pos", "Event_type",
                                                   "Server_id", "End_log_pos", "Info"]
        assert cur.fetchall() == ()
        cur.execute("SHOW BINLOG EVENTS IN 'x'")
        assert cur.fetchall() == ()
    server.query("CREATE USER u@'%' IDENTIFIED BY 'pw'")
    server.query("GRANT SELECT ON *.* TO u@'%'")
    conn = server.connect(user="u", password="pw")
    assert err(conn, "SHOW RELAYLOG EVENTS") == (
        1227, "Access denied; you need (at least one of) the SLAVE MONITOR privilege(s) for "
              "this operation")
    assert err(conn, "SHOW BINLOG EVENTS")[0] == 1227
    assert err(conn, "SHOW BINLOG EVENTS FROM 'x'")[0] == 1064


def test_replica_statements_on_a_server_that_is_no_replica(server: ServerHandle) -> None:
    """CHANGE MASTER TO keeps its options; START SLAVE without MASTER_HOST is MariaDB's 1200,
    with one 1235 (rampmeter does not replicate); STOP SLAVE notes it was stopped; all need
    SUPER or REPLICATION SLAVE ADMIN (session/replica.py, mtr grant_slave_admin)."""
    server.query("CREATE USER u@'%' IDENTIFIED BY 'pw'")
    server.query("GRANT ALL PRIVILEGES ON *.* TO u@'%'")
    server.query("REVOKE REPLICATION SLAVE ADMIN, SUPER ON *.* FROM u@'%'")
    conn = server.connect(user="u", password="pw")
    denied = (1227, "Access denied; you need (at least one of) the SUPER, REPLICATION SLAVE "
                    "ADMIN privilege(s) for this operation")
    for sql in ("START SLAVE", "STOP SLAVE", "CHANGE MASTER TO MASTER_HOST='127.0.0.1'"):
        assert err(conn, sql) == denied
    conn = server.connect()
    assert err(conn, "START SLAVE") == (1200, "Misconfigured slave: MASTER_HOST was not set; "
                                              "Fix in config file or with CHANGE MASTER TO")
    assert err(conn, "START SLAVE 'other'")[0] == 1617
    assert err(conn, "CHANGE MASTER TO MASTER_BOGUS=1")[0] == 1064
    with conn.cursor() as cur:
        cur.execute("CHANGE MASTER TO MASTER_USER='root', MASTER_PORT=3307")
        cur.execute("STOP REPLICA")
        cur.execute("SHOW WARNINGS")
        assert cur.fetchall() == (("Note", 1255, "Slave already has been stopped"),)
        cur.execute("CHANGE MASTER TO MASTER_HOST='127.0.0.1'")
    assert err(conn, "START SLAVE")[0] == 1235
