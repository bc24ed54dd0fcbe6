"""Helpers for the tests that drive MariaDB's command-line tools (mariadb-dump, mariadb,
mariadb-admin, mariadb-import, mariadb-slap) against either server, and for comparing two
databases.

Rules:
- A tool runs as a subprocess with no option files (`--no-defaults`), on TCP to the endpoint,
  with a timeout; a non-zero exit fails the test with the tool's stderr.
- `snapshot()` is what "identical database" means in these tests: per table (and view), the
  SHOW CREATE text and every row in primary-key order as the driver decodes it (bytes, Decimal,
  datetime...), read through PyMySQL.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pymysql
import pytest

from tests.compat.servers import Endpoint, which

TOOL_TIMEOUT_S = 60


def tool(name: str) -> str:
    found = which(name, name.replace("mariadb-", "mysql").replace("-", ""))
    if not found:
        pytest.skip(f"{name} not installed (apt-get install mariadb-client)")
    return found


def run_tool(name: str, ep: Endpoint, *args: str, stdin: bytes | None = None,
             check: bool = True, timeout: float = TOOL_TIMEOUT_S
             ) -> subprocess.CompletedProcess[bytes]:
    cmd = [tool(name), "--no-defaults", f"--host={ep.host}", f"--port={ep.port}",
           "--protocol=tcp", f"--user={ep.user}", f"--password={ep.password}", *args]
    done = subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout,
                          stdin=None if stdin is not None else subprocess.DEVNULL)
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(cmd[:1] + list(args))} on {ep.name} exited "
                             f"{done.returncode}:\n{done.stderr.decode(errors='replace')[-3000:]}")
    return done


def restore(ep: Endpoint, dump: bytes, database: str | None = None) -> None:
    """Feed a dump file to the `mariadb` client, as a person restores one."""
    args = ["--binary-mode", "--batch"] + ([database] if database else [])
    run_tool("mariadb", ep, *args, stdin=dump)


def connect(ep: Endpoint, database: str | None = None, **kw: Any) -> pymysql.Connection:
    return pymysql.connect(host=ep.host, port=ep.port, user=ep.user, password=ep.password,
                           database=database, autocommit=True, connect_timeout=10,
                           read_timeout=30, charset="utf8mb4", **kw)


def execute(ep: Endpoint, database: str | None, *sql: str) -> None:
    conn = connect(ep, database)
    try:
        with conn.cursor() as cur:
            for statement in sql:
                cur.execute(statement)
    finally:
        conn.close()


def snapshot(ep: Endpoint, database: str) -> dict[str, Any]:
    """{table: (SHOW CREATE text, rows in key order)} of every table and view."""
    conn = connect(ep, database)
    out: dict[str, Any] = {}
    try:
        with conn.cursor() as cur:
            cur.execute("SHOW FULL TABLES")
            for name, kind in cur.fetchall():
                cur.execute(f"SHOW CREATE TABLE `{name}`")
                create = cur.fetchone()[1]
                cur.execute(f"SELECT * FROM `{name}` ORDER BY 1")
                out[name] = (kind, create, cur.fetchall())
    finally:
        conn.close()
    return out


def fresh_database(ep: Endpoint, name: str) -> str:
    execute(ep, None, f"DROP DATABASE IF EXISTS `{name}`", f"CREATE DATABASE `{name}`")
    return name


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def load_zones(ep: Endpoint, zones: tuple[str, ...]) -> None:
    """Named time zones into a MariaDB's mysql.time_zone* tables, from the system's zoneinfo
    through mariadb-tzinfo-to-sql, as an administrator loads them (once per zone)."""
    converter = which("mariadb-tzinfo-to-sql", "mysql_tzinfo_to_sql")
    if converter is None:
        pytest.skip("mariadb-tzinfo-to-sql not installed")
    conn = connect(ep, "mysql")
    try:
        with conn.cursor() as cur:
            for name in zones:
                cur.execute("SELECT COUNT(*) FROM time_zone_name WHERE Name = %s", (name,))
                if cur.fetchone()[0]:
                    continue
                sql = subprocess.run([converter, f"/usr/share/zoneinfo/{name}", name],
                                     capture_output=True, check=True, timeout=30).stdout
                for statement in sql.decode().split(";\n"):
                    if statement.strip():
                        cur.execute(statement)
    finally:
        conn.close()
