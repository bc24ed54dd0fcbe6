"""A custom engine (engine/custom.py) served under the thread pool: the example kv engine
(engine/examples/kv.py) queried with PyMySQL, mysql-connector and the mariadb CLI, many
clients at once, errors with their codes and SQLSTATEs, prepared statements; and a test engine
of this module that blocks inside `waiting()`, fails with a bug, and is KILLed."""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from typing import Any

import mysql.connector
import pymysql
import pytest

from rampmeter.engine.custom import CustomEngine, CustomSession, Query, WaitReason, ok, rows
from tests.conftest import start_process, stop_process, wait_until

KV = "rampmeter.engine.examples.kv:KvEngine"
mariadb_cli = shutil.which("mariadb") or shutil.which("mysql")
needs_cli = pytest.mark.skipif(mariadb_cli is None, reason="mariadb client not installed")


@pytest.fixture
def kv(server_factory):
    server = server_factory(engine=KV, thread_handling="pool-of-threads", thread_pool_size=2)
    with server.connect(database="kv") as conn, conn.cursor() as cur:
        cur.execute("CREATE TABLE t (k VARCHAR(64) PRIMARY KEY, v TEXT)")
        cur.execute("CREATE TABLE n (id BIGINT PRIMARY KEY, score DOUBLE)")
    return server


def _error(fn: Any) -> tuple[int, str]:
    with pytest.raises(pymysql.MySQLError) as info:
        fn()
    return info.value.args[0], info.value.args[1]


def test_pymysql_reads_and_writes_by_key(kv):
    conn = kv.connect(database="kv")
    with conn.cursor() as cur:
        assert cur.execute("INSERT INTO t VALUES ('a', 'x'), ('b', 'y'), ('c', NULL)") == 3
        assert cur.execute("SELECT v FROM t WHERE k = 'b'") == 1
        assert cur.fetchall() == (("y",),)
        assert cur.execute("REPLACE INTO t (v, k) VALUES ('z', 'a')") == 2
        assert cur.execute("UPDATE t SET v = 'q' WHERE k IN ('b', 'nope')") == 1
        assert cur.execute("DELETE FROM t WHERE k = 'c'") == 1
        cur.execute("SELECT k AS key_, v FROM kv.t")
        assert cur.fetchall() == (("a", "z"), ("b", "q"))
        assert [d[0] for d in cur.description] == ["key_", "v"]
        cur.execute("INSERT INTO n VALUES (2, 1.5), (1, -3)")
        cur.execute("SELECT * FROM n")
        assert cur.fetchall() == ((1, -3.0), (2, 1.5))  # typed as declared: BIGINT, DOUBLE
        cur.execute("DROP TABLE n")
        cur.execute("SHOW TABLES")
        assert cur.fetchall() == (("t",),)


def test_connect_time_queries_and_catalog_are_answered_by_the_server(kv):
    conn = kv.connect(database="kv")
    with conn.cursor() as cur:
        cur.execute("SELECT @@version_comment LIMIT 1")
        assert "rampmeter" in cur.fetchone()[0]
        cur.execute("SELECT DATABASE(), USER(), CONNECTION_ID() AS id, @@session.autocommit, 1")
        assert cur.fetchone() == ("kv", "root@127.0.0.1", conn.thread_id(), 1, 1)
        assert [d[0] for d in cur.description] == [
            "DATABASE()", "USER()", "id", "@@session.autocommit", "1"]
        cur.execute("SHOW VARIABLES LIKE 'version'")
        assert cur.fetchone()[1] == kv.query("SELECT @@version")[0][0]
        cur.execute("SHOW DATABASES")
        assert cur.fetchall() == (("kv",),)
        cur.execute("DESCRIBE t")
        assert cur.fetchall() == (("k", "varchar(64)", "NO", "PRI", None, ""),
                                  ("v", "text", "YES", "", None, ""))
        cur.execute("SHOW FULL TABLES FROM kv LIKE 't%'")
        assert cur.fetchall() == (("t", "BASE TABLE"),)
        cur.execute("SHOW CREATE TABLE t")
        assert "PRIMARY KEY (`k`)" in cur.fetchone()[1]
        cur.execute("BEGIN")
        cur.execute("COMMIT")
        # expressions and SHOW ... WHERE run on the server's private SQLite engine
        cur.execute("SET @greeting = CONCAT('hel', 'lo')")
        cur.execute("SELECT @greeting, 6 * 7, SLEEP(0)")
        assert cur.fetchone() == ("hello", 42, 0)
        cur.execute("SHOW VARIABLES WHERE Variable_name = 'thread_handling'")
        assert cur.fetchall() == (("thread_handling", "pool-of-threads"),)


def test_com_field_list_reads_the_catalog(kv):
    """COM_FIELD_LIST (the mariadb CLI's column-name completion): column definitions, then EOF."""
    from pymysql.constants import COMMAND
    conn = kv.connect(database="kv")
    conn._execute_command(COMMAND.COM_FIELD_LIST, b"t\0")
    names = []
    while True:
        packet = conn._read_packet()
        if packet.is_eof_packet():
            break
        names.append(_field_name(packet))
    assert names == ["k", "v"]
    with conn.cursor() as cur:  # the connection goes on
        cur.execute("SELECT @@version_comment LIMIT 1")
        assert "kv engine" in cur.fetchone()[0]


def _field_name(packet: Any) -> str:
    for _ in range(4):  # a column definition: catalog, schema, table, org_table, name...
        packet.read_length_coded_string()
    return packet.read_length_coded_string().decode()


def test_errors_have_mariadb_codes_and_keep_the_connection(kv):
    conn = kv.connect(database="kv")
    cur = conn.cursor()
    cur.execute("INSERT INTO t VALUES ('a', 'x')")
    assert _error(lambda: cur.execute("INSERT INTO t VALUES ('a', 'again')")) == (
        1062, "Duplicate entry 'a' for key 'PRIMARY'")
    assert _error(lambda: cur.execute("SELECT * FROM nope"))[0] == 1146
    assert _error(lambda: cur.execute("SELEC 1"))[0] == 1064
    assert _error(lambda: cur.execute("SELECT nope FROM t"))[0] == 1054
    assert _error(lambda: cur.execute("SELECT kv_function(1)"))[0] == 1235
    assert _error(lambda: cur.execute("USE elsewhere"))[0] == 1049
    assert _error(lambda: cur.execute("INSERT INTO t VALUES ('b')"))[0] == 1136
    cur.execute("SELECT * FROM t")  # the connection is still fine
    assert cur.fetchall() == (("a", "x"),)
    other = kv.connect()
    assert _error(lambda: other.cursor().execute("SELECT * FROM t"))[0] == 1046


def test_mysql_connector_sqlstate_and_prepared_statements(kv):
    conn = mysql.connector.connect(host=kv.host, port=kv.port, user="root", database="kv",
                                   autocommit=True, ssl_disabled=True)
    try:
        cur = conn.cursor(prepared=True)
        cur.executemany("INSERT INTO t (k, v) VALUES (?, ?)",
                        [("p1", "it's"), ("p2", "back\\slash"), ("p3", None)])
        cur.execute("SELECT k, v FROM t WHERE k IN (?, ?)", ("p1", "p2"))
        assert [tuple(r) for r in cur.fetchall()] == [("p1", "it's"), ("p2", "back\\slash")]
        cur.execute("SELECT v FROM t WHERE k = ?", ("p3",))
        assert cur.fetchall() == [(None,)]
        with pytest.raises(mysql.connector.Error) as info:
            cur.execute("INSERT INTO t VALUES (?, ?)", ("p1", "dup"))
        assert (info.value.errno, info.value.sqlstate) == (1062, "23000")
        plain = conn.cursor()
        with pytest.raises(mysql.connector.Error) as info:
            plain.execute("SELECT * FROM missing")
        assert (info.value.errno, info.value.sqlstate) == (1146, "42S02")
    finally:
        conn.close()


def test_mysqlclient(kv):
    import MySQLdb
    conn = MySQLdb.connect(host=kv.host, port=kv.port, user="root", database="kv")
    try:
        cur = conn.cursor()
        assert cur.execute("INSERT INTO t VALUES (%s, %s), (%s, %s)", ("m1", "x", "m2", "y")) == 2
        conn.commit()  # a COMMIT statement: the kv engine's no-op commit()
        cur.execute("SELECT v, k FROM t WHERE k IN (%s, %s)", ("m2", "m1"))
        assert cur.fetchall() == (("x", "m1"), ("y", "m2"))
        with pytest.raises(MySQLdb.IntegrityError) as info:
            cur.execute("INSERT INTO t VALUES ('m1', 'z')")
        assert info.value.args[0] == 1062
    finally:
        conn.close()


def test_many_concurrent_clients(kv):
    clients, rounds = 48, 20
    failures: list[BaseException] = []

    def client(i: int) -> None:
        try:
            conn = kv.connect(database="kv")
            with conn.cursor() as cur:
                for r in range(rounds):
                    cur.execute("INSERT INTO t VALUES (%s, %s)", (f"c{i}-{r}", str(i * r)))
                    cur.execute("SELECT v FROM t WHERE k = %s", (f"c{i}-{r}",))
                    assert cur.fetchone() == (str(i * r),)
            conn.close()
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            failures.append(exc)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not failures, failures[:3]
    with kv.connect(database="kv") as conn, conn.cursor() as cur:
        cur.execute("SELECT k FROM t")
        assert len(cur.fetchall()) == clients * rounds
    assert kv.status("Threadpool_threads") < clients  # served by the pool, not a thread each


def test_privileges_apply_to_a_custom_engine(kv):
    kv.query("CREATE USER reader@'%' IDENTIFIED BY 'pw'")
    kv.query("GRANT SELECT ON kv.t TO reader@'%'")
    kv.query("INSERT INTO kv.t VALUES ('a', 'x')")
    conn = kv.connect(user="reader", password="pw", database="kv")
    with conn.cursor() as cur:
        cur.execute("SELECT v FROM t WHERE k = 'a'")
        assert cur.fetchone() == ("x",)
        assert _error(lambda: cur.execute("DELETE FROM t WHERE k = 'a'"))[0] == 1142
        assert _error(lambda: cur.execute("REPLACE INTO t VALUES ('a', 'y')"))[0] == 1142


@needs_cli
def test_mariadb_cli_against_rampmeter_serve_engine(tmp_path):
    server = start_process(tmp_path, f"--engine={KV}", "--thread-handling=pool-of-threads")
    try:
        script = """
        CREATE TABLE colors (name VARCHAR(20) PRIMARY KEY, hex CHAR(7));
        INSERT INTO colors VALUES ('red', '#ff0000'), ('blue', '#0000ff');
        SELECT * FROM colors WHERE name = 'blue';
        SELECT @@version_comment LIMIT 1;
        """
        out = subprocess.run([mariadb_cli, "-h127.0.0.1", f"-P{server.port}", "-uroot",
                              "--batch", "kv"], input=script, capture_output=True, text=True,
                             timeout=30)
        assert out.returncode == 0, out.stderr
        lines = out.stdout.splitlines()
        assert "blue\t#0000ff" in lines
        assert any("rampmeter" in line for line in lines)
        out = subprocess.run([mariadb_cli, "-h127.0.0.1", f"-P{server.port}", "-uroot", "kv",
                              "-e", "INSERT INTO colors VALUES ('red', '#f00')"],
                             capture_output=True, text=True, timeout=30)
        assert out.returncode == 1
        assert "ERROR 1062 (23000)" in out.stderr
    finally:
        stop_process(server)


# A sysbench script: a prepared point select whose result buffers libmariadb binds from the
# prepare's column definitions (a prepare answered without them leaves sysbench waiting).
_SYSBENCH_PS = """
function thread_init()
  con = sysbench.sql.driver():connect()
  stmt = con:prepare("SELECT k, v FROM t WHERE k = ?")
  param = stmt:bind_create(sysbench.sql.type.INT)
  stmt:bind_param(param)
end
function event()
  param:set(sysbench.rand.uniform(1, 3))
  local rs = stmt:execute()
  if rs.nrows ~= 1 then error("expected one row, got " .. tostring(rs.nrows)) end
end
"""


@pytest.mark.skipif(shutil.which("sysbench") is None, reason="sysbench not installed")
def test_sysbench_prepared_point_selects(kv, tmp_path):
    kv.query("INSERT INTO kv.t VALUES ('1', 'a'), ('2', 'b'), ('3', 'c')")
    script = tmp_path / "kv_ps.lua"
    script.write_text(_SYSBENCH_PS)
    out = subprocess.run(["sysbench", str(script), "--mysql-host=127.0.0.1",
                          f"--mysql-port={kv.port}", "--mysql-user=root", "--mysql-db=kv",
                          "--threads=4", "--events=400", "--time=0", "--db-ps-mode=auto", "run"],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "ignored errors:                      0" in out.stdout, out.stdout
    assert "total number of events:              400" in out.stdout, out.stdout


def test_bad_engine_spec_stops_the_server_with_a_message(tmp_path):
    from tests.conftest import start_inprocess
    with pytest.raises(ValueError, match="module:name"):
        start_inprocess(tmp_path, engine="no_colon_here")
    with pytest.raises(ValueError, match="No module named"):
        start_inprocess(tmp_path, engine="no.such.module:Engine")


# --- a test engine: blocks in waiting(), has a bug, can be killed -------------------------------

GATE = threading.Event()


class GateSession(CustomSession):
    def execute(self, query: Query) -> Any:
        word = query.sql.split()[-1].lower()
        if word == "gate":  # block until the test opens the gate, as a lock wait would
            with self.waiting(WaitReason.ROW_LOCK):
                while not GATE.wait(0.01):
                    self.check_killed()
            return ok(1)
        if word == "bug":
            return 1 // 0
        if word == "many":  # typed columns: the generator is read as rows are sent
            return rows([("n", "bigint"), ("s", "varchar(20)")],
                        ((i, f"row {i}") for i in range(50_000)))
        if word == "broken":
            return rows([("n", "int")], _broken())
        return rows(["answer"], [(42,)])


def _broken() -> Any:
    yield from ((i,) for i in range(10))
    raise RuntimeError("the backend went away")


class GateEngine(CustomEngine):
    session_class = GateSession

    def databases(self) -> list[str]:
        return ["g"]


def test_a_blocked_session_does_not_block_its_group_and_can_be_killed(server_factory):
    GATE.clear()
    server = server_factory(engine=f"{__name__}:GateEngine", thread_pool_size=1,
                            thread_pool_stall_limit=60000)
    blocked = [server.connect() for _ in range(3)]
    boxes: list[dict[str, Any]] = []
    for conn in blocked:
        box: dict[str, Any] = {}
        boxes.append(box)

        def run(conn: Any = conn, box: dict[str, Any] = box) -> None:
            try:
                with conn.cursor() as cur:
                    cur.execute("SELECT gate")
            except pymysql.MySQLError as exc:
                box["error"] = exc.args[0]
        threading.Thread(target=run, daemon=True).start()
    wait_until(lambda: sum(r[6] == "Waiting for row lock"
                           for r in server.query("SHOW PROCESSLIST")) == 3,
               message="the three statements to wait")
    # With one group and a stall limit of a minute, only wait_begin lets this one through.
    start = time.monotonic()
    assert server.query("SELECT x")[0] == (42,)
    assert time.monotonic() - start < 5
    killer = server.connect()
    killer.cursor().execute(f"KILL QUERY {blocked[0].thread_id()}")
    wait_until(lambda: "error" in boxes[0], message="the killed statement to fail")
    assert boxes[0]["error"] == 1317
    GATE.set()
    wait_until(lambda: all("error" not in b for b in boxes[1:]) and
               server.status("Threads_running") <= 1, message="the others to finish")


def test_an_engine_bug_is_1105_for_that_statement_only(server_factory):
    server = server_factory(engine=f"{__name__}:GateEngine")
    conn = server.connect()
    code, message = _error(lambda: conn.cursor().execute("SELECT bug"))
    assert code == 1105 and "ZeroDivisionError" in message
    with conn.cursor() as cur:
        cur.execute("SELECT x")
        assert cur.fetchone() == (42,)


def test_the_pool_tables_are_there_for_a_custom_engine(kv):
    conn = kv.connect(database="kv")
    with conn.cursor() as cur:
        cur.execute("SELECT COUNT(*), SUM(CONNECTIONS) >= 1 "
                    "FROM information_schema.THREAD_POOL_GROUPS")
        assert cur.fetchone() == (2, 1)
        cur.execute("SELECT ID, DB, INFO FROM information_schema.PROCESSLIST WHERE ID = "
                    "CONNECTION_ID()")
        assert cur.fetchone()[:2] == (conn.thread_id(), "kv")
        cur.execute("SELECT COUNT(*) FROM performance_schema.tp_thread_group_state")
        assert cur.fetchone() == (2,)
        cur.execute("SELECT v FROM t WHERE k = 'none'")  # the kv engine still answers the rest
        assert cur.fetchall() == ()
        assert _error(lambda: cur.execute("SELECT * FROM information_schema.TABLES"))[0] == 1146


def test_streamed_rows_and_a_failure_while_sending_them(server_factory):
    server = server_factory(engine=f"{__name__}:GateEngine")
    conn = server.connect()
    with conn.cursor(pymysql.cursors.SSCursor) as cur:
        cur.execute("SELECT many")
        count = 0
        for n, text in cur:
            assert text == f"row {n}"
            count += 1
        assert count == 50_000
    code, message = _error(lambda: conn.cursor().execute("SELECT broken"))
    assert code == 1105 and "the backend went away" in message
    with conn.cursor() as cur:
        cur.execute("SELECT x")
        assert cur.fetchone() == (42,)
