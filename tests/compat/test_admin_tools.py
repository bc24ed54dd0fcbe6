"""mariadb-admin and mariadb-slap against both servers: every command an operator uses answers
on rampmeter as it does on MariaDB (exit status, and the facts its output must hold).
"""

from __future__ import annotations

import time

import pymysql
import pytest

from tests.compat.servers import Endpoint
from tests.compat.tools import connect, run_tool

TARGETS = ["mariadb", "rampmeter"]


def endpoint(target: str, maria: Endpoint, ramp: Endpoint) -> Endpoint:
    return maria if target == "mariadb" else ramp


@pytest.mark.parametrize("target", TARGETS)
def test_mariadb_admin(target: str, mariadb_endpoint: Endpoint,
                       rampmeter_endpoint: Endpoint) -> None:
    ep = endpoint(target, mariadb_endpoint, rampmeter_endpoint)
    assert run_tool("mariadb-admin", ep, "ping").stdout.strip() == b"mysqld is alive"
    status = run_tool("mariadb-admin", ep, "status").stdout.decode()
    assert status.startswith("Uptime: ") and "Threads: " in status and "Questions: " in status
    version = run_tool("mariadb-admin", ep, "version").stdout.decode()
    assert "Server version" in version and "10.11" in version
    variables = run_tool("mariadb-admin", ep, "variables").stdout.decode()
    for name in ("version", "max_connections", "sql_mode", "time_zone", "thread_handling"):
        assert f"| {name} " in variables, name
    status = run_tool("mariadb-admin", ep, "extended-status").stdout.decode()
    for name in ("Uptime", "Threads_connected", "Questions", "Com_select", "Bytes_received"):
        assert f"| {name} " in status, name
    for command in ("flush-tables", "flush-status", "flush-privileges", "refresh",
                    "flush-logs", "flush-hosts"):
        run_tool("mariadb-admin", ep, command)


@pytest.mark.parametrize("target", TARGETS)
def test_mariadb_admin_create_drop(target: str, mariadb_endpoint: Endpoint,
                                   rampmeter_endpoint: Endpoint) -> None:
    ep = endpoint(target, mariadb_endpoint, rampmeter_endpoint)
    run_tool("mariadb-admin", ep, "--force", "drop", "admin_made", check=False)
    run_tool("mariadb-admin", ep, "create", "admin_made")
    conn = connect(ep)
    try:
        with conn.cursor() as cur:
            cur.execute("SHOW DATABASES LIKE 'admin_made'")
            assert cur.fetchall() == (("admin_made",),)
    finally:
        conn.close()
    done = run_tool("mariadb-admin", ep, "--force", "drop", "admin_made")
    assert b'Database "admin_made" dropped' in done.stdout
    failed = run_tool("mariadb-admin", ep, "create", "admin_made", check=False)
    assert failed.returncode == 0
    failed = run_tool("mariadb-admin", ep, "create", "admin_made", check=False)
    assert failed.returncode != 0 and b"database exists" in failed.stderr
    run_tool("mariadb-admin", ep, "--force", "drop", "admin_made")


@pytest.mark.parametrize("target", TARGETS)
def test_mariadb_admin_processlist_and_kill(target: str, mariadb_endpoint: Endpoint,
                                            rampmeter_endpoint: Endpoint) -> None:
    ep = endpoint(target, mariadb_endpoint, rampmeter_endpoint)
    victim = connect(ep)
    try:
        victim_id = victim.thread_id()
        listing = run_tool("mariadb-admin", ep, "processlist").stdout.decode()
        assert f"| {victim_id} " in listing
        assert "| Id " in listing and "| Command " in listing
        run_tool("mariadb-admin", ep, "kill", str(victim_id))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:   # the kill is observed by the victim's next query
            try:
                with victim.cursor() as cur:
                    cur.execute("SELECT 1")
            except pymysql.err.OperationalError:
                break
        else:
            pytest.fail("the killed connection still answers")
        missing = run_tool("mariadb-admin", ep, "kill", "4000000000", check=False)
        assert missing.returncode != 0 and b"Unknown thread id" in missing.stderr
    finally:
        victim.close()


@pytest.mark.parametrize("target", TARGETS)
def test_mariadb_slap(target: str, mariadb_endpoint: Endpoint,
                      rampmeter_endpoint: Endpoint) -> None:
    ep = endpoint(target, mariadb_endpoint, rampmeter_endpoint)
    done = run_tool("mariadb-slap", ep, "--auto-generate-sql", "--concurrency=8",
                    "--number-of-queries=400", "--iterations=2",
                    "--auto-generate-sql-load-type=mixed",
                    "--create-schema=slap_" + target)
    out = done.stdout.decode()
    assert "Number of clients running queries: 8" in out
    assert "Average number of seconds to run all queries" in out
