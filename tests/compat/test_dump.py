"""mariadb-dump end to end: a database holding every type is dumped and restored, and the
restored database must be identical (tests/compat/tools.py `snapshot`).

- rampmeter -> rampmeter and rampmeter -> MariaDB, with and without --hex-blob, through
  --single-transaction (START TRANSACTION WITH CONSISTENT SNAPSHOT, then USE of the database);
- MariaDB -> rampmeter: what the real server's dump holds restores here;
- --all-databases from one rampmeter into a second, fresh one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.compat.servers import Endpoint
from tests.compat.tools import connect, execute, fresh_database, restore, run_tool, snapshot

ALL_BYTES = bytes(range(256))
TEXT = "héllo wörld ✓ 漢字 😀 'quote' \"dq\" back\\slash\nnew\tline"

SCHEMA = (
    "CREATE TABLE parent (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, "
    "name VARCHAR(50) NOT NULL, UNIQUE KEY uq_name (name))",
    "CREATE TABLE every ("
    " id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,"
    " parent_id INT NULL,"
    " ti TINYINT, si SMALLINT UNSIGNED, mi MEDIUMINT, i INT NOT NULL DEFAULT 0,"
    " bi BIGINT, ubi BIGINT UNSIGNED, f FLOAT, d DOUBLE,"
    " dec1 DECIMAL(10,2), dec2 DECIMAL(15,5) UNSIGNED,"
    " c CHAR(5), vc VARCHAR(100) NOT NULL DEFAULT '', t TEXT, lt LONGTEXT,"
    " bn BINARY(4), vb VARBINARY(300), b BLOB, mb MEDIUMBLOB,"
    " dt DATETIME(6), ts TIMESTAMP(3) NULL DEFAULT NULL, dte DATE, tm TIME(2), y YEAR,"
    " e ENUM('x','y','z') DEFAULT 'x', st SET('a','b','c'),"
    " PRIMARY KEY (id), KEY k_vc (vc), KEY k_multi (i, dte), UNIQUE KEY uq_bi (bi),"
    " CONSTRAINT fk_parent FOREIGN KEY (parent_id) REFERENCES parent (id) ON DELETE CASCADE"
    ") AUTO_INCREMENT=5",
    "CREATE VIEW v_every AS SELECT e.id, p.name, e.dec1 FROM every e "
    "JOIN parent p ON p.id = e.parent_id",
)


def populate(ep: Endpoint, db: str) -> None:
    execute(ep, db, *SCHEMA)
    conn = connect(ep, db)
    try:
        with conn.cursor() as cur:
            cur.execute("INSERT INTO parent (name) VALUES ('first'), ('zweite ü')")
            cur.execute(
                "INSERT INTO every (parent_id, ti, si, mi, i, bi, ubi, f, d, dec1, dec2, c, vc,"
                " t, lt, bn, vb, b, mb, dt, ts, dte, tm, y, e, st) VALUES "
                "(1, -128, 65535, -8388608, 2147483647, -9223372036854775808,"
                " 18446744073709551615, 1.5, -2.25e100, -12345678.99, 1234567890.12345,"
                " 'abc', %s, %s, %s, %s, %s, %s, %s,"
                " '2024-02-29 23:59:59.123456', '2024-07-01 12:00:00.5', '1000-01-01',"
                " '-838:59:59.99', 2155, 'z', 'a,c')",
                (TEXT, TEXT * 3, "x" * 70000, b"\x00\x01\xfe\xff", ALL_BYTES,
                 ALL_BYTES * 4, ALL_BYTES * 300))
            cur.execute("INSERT INTO every (parent_id, i, vc) VALUES (2, 0, ''), (NULL, -1, ' ')")
            cur.execute("INSERT INTO every () VALUES ()")
    finally:
        conn.close()


@pytest.fixture
def names(request: pytest.FixtureRequest) -> str:
    return "dump_" + request.node.name.split("[")[-1].rstrip("]").replace("-", "_")


def dump(ep: Endpoint, *args: str) -> bytes:
    return run_tool("mariadb-dump", ep, "--single-transaction", "--routines", "--events",
                    "--triggers", *args).stdout


@pytest.mark.parametrize("hexblob", [pytest.param(False, id="plain"),
                                     pytest.param(True, id="hexblob")])
def test_dump_from_rampmeter_restores_into_both(rampmeter_endpoint: Endpoint,
                                                mariadb_endpoint: Endpoint,
                                                hexblob: bool, names: str) -> None:
    src = fresh_database(rampmeter_endpoint, names + "_src")
    populate(rampmeter_endpoint, src)
    original = snapshot(rampmeter_endpoint, src)
    text = dump(rampmeter_endpoint, *(["--hex-blob"] if hexblob else []), src)
    assert b"INSERT INTO `every` VALUES" in text
    for ep in (rampmeter_endpoint, mariadb_endpoint):
        dst = fresh_database(ep, names + "_dst")
        restore(ep, text, dst)
        restored = snapshot(ep, dst)
        assert restored.keys() == original.keys()
        for table, (kind, create, rows) in original.items():
            assert restored[table][0] == kind, (ep.name, table)
            assert restored[table][2] == rows, (ep.name, table)
            if kind == "BASE TABLE":
                assert restored[table][1] == create, (ep.name, table)


def test_dump_from_mariadb_restores_into_rampmeter(rampmeter_endpoint: Endpoint,
                                                   mariadb_endpoint: Endpoint) -> None:
    src = fresh_database(mariadb_endpoint, "dump_from_maria")
    populate(mariadb_endpoint, src)
    original = snapshot(mariadb_endpoint, src)
    text = dump(mariadb_endpoint, src)
    dst = fresh_database(rampmeter_endpoint, "dump_from_maria")
    restore(rampmeter_endpoint, text, dst)
    restored = snapshot(rampmeter_endpoint, dst)
    assert restored.keys() == original.keys()
    for table, (_kind, create, rows) in original.items():
        assert restored[table][2] == rows, table
        assert restored[table][1] == create, table


def test_all_databases_into_a_fresh_server(tmp_path: Path) -> None:
    """Two servers of their own: --all-databases takes every database of the source. The
    `mysql` schema is the grant tables' read-only mirror (issue 10), so a server is moved with
    --ignore-database=mysql and the accounts as statements (--system=users --insert-ignore),
    as MariaDB's documentation advises between servers."""
    from tests.conftest import start_inprocess
    handles = []
    try:
        for name in ("source", "target"):
            (tmp_path / name).mkdir()
            handles.append(start_inprocess(tmp_path / name))
        source, target = (Endpoint("rampmeter", h.host, h.port) for h in handles)
        dbs = [fresh_database(source, f"dump_all_{n}") for n in range(3)]
        for db in dbs:
            populate(source, db)
        execute(source, None, "CREATE USER 'app'@'%' IDENTIFIED BY 'app-pw'",
                "GRANT SELECT ON dump_all_1.* TO 'app'@'%'")
        whole = dump(source, "--all-databases")
        assert b"CREATE DATABASE /*!32312 IF NOT EXISTS*/ `mysql`" in whole
        assert all(f"USE `{db}`".encode() in whole for db in dbs)
        text = dump(source, "--all-databases", "--ignore-database=mysql", "--system=users",
                    "--insert-ignore")
        restore(target, text)
        for db in dbs:
            assert snapshot(target, db) == snapshot(source, db)
        app = Endpoint("rampmeter", target.host, target.port, "app", "app-pw")
        assert snapshot(app, "dump_all_1") == snapshot(source, "dump_all_1")
    finally:
        for h in handles:
            assert h.running is not None
            h.running.stop()
