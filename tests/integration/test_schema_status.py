"""Status variables that are real measurements and the `mysql` schema's statistics tables
(the mtr tests memory_used, sp-no-valgrind, status2, ...)."""

from __future__ import annotations

import shutil
import subprocess
import time

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _status(conn, name: str, scope: str = "SESSION"):
    rows = _run(conn, f"SHOW {scope} STATUS LIKE '{name}'")
    return rows[0][1]


def test_memory_used_is_what_the_session_holds(server):
    """Memory_used grows with what a session keeps (user variables), does not move with a
    statement that keeps nothing; Max_memory_used grows with a big result; GLOBAL Memory_used
    sums the sessions and GLOBAL Max_memory_used is NULL, as MariaDB's."""
    conn = server.connect()
    other = server.connect()
    first = int(_status(conn, "Memory_used"))
    assert first > 0
    assert int(_status(conn, "Memory_used")) == first
    _run(conn, "SET @big = REPEAT('x', 100000)")
    held = int(_status(conn, "Memory_used"))
    assert held >= first + 100000
    peak = int(_status(conn, "Max_memory_used"))
    assert peak >= held + 16 * 1024  # the 16 KiB read buffer, as MariaDB's net buffer
    _run(conn, "SELECT REPEAT('y', 200000)")
    assert int(_status(conn, "Max_memory_used")) >= peak + 200000
    total = int(_run(conn, "SELECT variable_value FROM information_schema.global_status "
                           "WHERE variable_name = 'MEMORY_USED'")[0][0])
    assert total >= held + int(_status(other, "Memory_used"))
    # VARIABLE_VALUE is text: compared with a number it is read as a number (mtr status2)
    assert _run(conn, "SELECT variable_value < 1024*1024*1024, variable_value > 1000, "
                      "1000 < variable_value FROM information_schema.global_status "
                      "WHERE variable_name = 'memory_used'") == ((1, 1, 1),)
    assert _status(conn, "Max_memory_used", "GLOBAL") is None


def test_statistics_tables_exist_and_alter_warns_when_one_is_missing(server):
    """mysql.table_stats / column_stats / index_stats exist (empty); an ALTER TABLE that
    renames, retypes or drops columns warns 1177 once per opening of them when one is missing
    (mtr stat_tables_missing), and not when they are there."""
    conn = server.connect()
    names = {r[0] for r in _run(conn, "SHOW TABLES IN mysql")}
    assert {"table_stats", "column_stats", "index_stats"} <= names
    assert _run(conn, "SELECT COUNT(*) FROM mysql.column_stats") == ((0,),)
    _run(conn, "CREATE DATABASE st", "USE st", "CREATE TABLE t1 (a INT, c INT, d INT)")
    _run(conn, "ALTER TABLE t1 CHANGE a a0 INT")
    assert _run(conn, "SHOW WARNINGS") == ()
    _run(conn, "ALTER TABLE mysql.column_stats RENAME TO mysql.column_stats1")
    message = ("Got error 1146 when trying to open statistics table `table_stats` for "
               "updating statistics")
    for sql, count in (("ALTER TABLE t1 CHANGE a0 b VARCHAR(100)", 2),
                       ("ALTER TABLE t1 CHANGE b e VARCHAR(100)", 1),
                       ("ALTER TABLE t1 MODIFY e INT", 1), ("ALTER TABLE t1 MODIFY e INT", 0),
                       ("ALTER TABLE t1 ADD COLUMN f INT", 0),
                       ("ALTER TABLE t1 DROP COLUMN f, DROP COLUMN d", 2)):
        _run(conn, sql)
        assert _run(conn, "SHOW WARNINGS") == (("Warning", 1177, message),) * count, sql
    _run(conn, "ALTER TABLE mysql.column_stats1 RENAME TO mysql.column_stats")
    _run(conn, "ALTER TABLE t1 DROP COLUMN c")
    assert _run(conn, "SHOW WARNINGS") == ()


def test_user_statistics_count_while_userstat_is_on(server):
    """information_schema.USER_STATISTICS (mtr userstat-badlogin-4824): a connection made
    while @@userstat is ON is counted, its bytes after the login (a COM_QUERY 'select 1' and
    a COM_QUIT: 18 bytes; PyMySQL's SET AUTOCOMMIT = 1 before them, 22), its statements by
    kind; a refused login is a denied connection and adds no bytes; FLUSH USER_STATISTICS
    empties the table."""

    root = server.connect()
    _run(root, "CREATE USER foo@'%' IDENTIFIED BY 'foo'", "FLUSH USER_STATISTICS")
    query = ("SELECT user, total_connections, concurrent_connections, bytes_received, "
             "select_commands, denied_connections FROM information_schema.user_statistics "
             "WHERE user = 'foo'")
    other = server.connect(user="foo", password="foo")  # before userstat: not counted
    _run(root, "SET GLOBAL userstat = 1")
    try:
        conn = server.connect(user="foo", password="foo")
        _run(conn, "select 1")
        assert _run(root, query) == (("foo", 1, 1, 22 + 13, 1, 0),)
        conn.close()
        with pytest.raises(pymysql.err.OperationalError):
            server.connect(user="foo", password="bar")
        expected = (("foo", 1, 0, 22 + 18, 1, 1),)
        deadline = time.monotonic() + 5
        while _run(root, query) != expected and time.monotonic() < deadline:
            time.sleep(0.01)  # the server sees the COM_QUIT on its own thread
        assert _run(root, query) == expected
        _run(root, "FLUSH USER_STATISTICS")
        assert _run(root, query) == ()
    finally:
        _run(root, "SET GLOBAL userstat = 0")
        other.close()


_MARIADB_TEST = shutil.which("mariadb-test") or shutil.which("mysqltest")


@pytest.mark.skipif(_MARIADB_TEST is None, reason="mariadb-test not installed")
def test_session_state_tracking_as_mariadb_test_prints_it(server, tmp_path):
    """The OK packet's session state (mtr mysqltest_tracking_info): the tracked variables a
    SET changed, the schema after USE; nothing for an untracked variable."""
    script = tmp_path / "t.test"
    script.write_text(
        "CREATE DATABASE trk;\n"
        "SET @@session.session_track_system_variables='character_set_connection,autocommit';\n"
        "--enable_session_track_info\n"
        "SET NAMES 'utf8';\n"
        "SET autocommit=0, sql_mode='';\n"
        "USE trk;\n"
        "SET time_zone='+01:00';\n"
        "--disable_session_track_info\n"
        "SELECT @@session_track_system_variables;\n")
    out = subprocess.run([_MARIADB_TEST, "-h127.0.0.1", f"-P{server.port}", "-uroot",
                          f"--test-file={script}"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.split("SET NAMES 'utf8';\n", 1)[1].split("SELECT @@")[0] == (
        "-- Tracker : SESSION_TRACK_SYSTEM_VARIABLES\n"
        "-- character_set_connection: utf8mb3\n\n"
        "SET autocommit=0, sql_mode='';\n"
        "-- Tracker : SESSION_TRACK_SYSTEM_VARIABLES\n"
        "-- autocommit: OFF\n\n"
        "USE trk;\n"
        "-- Tracker : SESSION_TRACK_SCHEMA\n"
        "-- trk\n\n"
        "SET time_zone='+01:00';\n")
    assert "autocommit,character_set_connection" in out.stdout


def test_optimizer_switch_warns_while_engine_condition_pushdown_is_on(server):
    """MariaDB's fix_optimizer_switch: 1681 on each SET while the deprecated flag is on."""
    conn = server.connect()
    message = ("'engine_condition_pushdown=on' is deprecated and will be removed in a future "
               "release")
    for sql, count in (("SET optimizer_switch='mrr=on'", 0),
                       ("SET optimizer_switch='engine_condition_pushdown=on'", 1),
                       ("SET optimizer_switch='mrr=off'", 1),
                       ("SET optimizer_switch='engine_condition_pushdown=off'", 0)):
        with conn.cursor() as cur:
            cur.execute(sql)
            assert cur._result.warning_count == count, sql  # the OK packet's count
        if count:
            assert _run(conn, "SHOW WARNINGS") == (("Warning", 1681, message),) * count, sql


def test_empty_queries_counts_selects_that_sent_no_row(server):
    """Empty_queries (mtr empty_table): a SELECT or an information_schema SHOW with no row
    counts, one with a row or an error does not, nor another statement."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE eq", "USE eq", "CREATE TABLE t1 (a INT)")
    before = int(_status(conn, "Empty_queries"))
    _run(conn, "SELECT COUNT(*) FROM t1", "SELECT * FROM t1", "SELECT * FROM t1 LIMIT 0",
         "SHOW TABLES LIKE 'none'", "INSERT INTO t1 VALUES (1)", "SELECT * FROM t1")
    with pytest.raises(pymysql.err.MySQLError):
        _run(conn, "SELECT * FROM t2")
    assert int(_status(conn, "Empty_queries")) == before + 3


def test_ft_variables_as_mariadb_shows_and_checks_them(server):
    conn = server.connect()
    assert _run(conn, "SHOW VARIABLES LIKE 'ft_stopword_file'") == (
        ("ft_stopword_file", "(built-in)"),)
    for value in ('@ -><()~*:""@|', '+ -><()~*:""@!|'):
        with pytest.raises(pymysql.err.MySQLError) as e:
            _run(conn, f"SET GLOBAL ft_boolean_syntax = '{value}'")
        assert e.value.args[0] == 1231
    _run(conn, "SET GLOBAL ft_boolean_syntax = '@ -><()~*:\"\"&|'",
         "SET GLOBAL ft_boolean_syntax = DEFAULT")
    assert _run(conn, "SELECT @@global.ft_boolean_syntax") == (('+ -><()~*:""&|',),)
