# The bench's data: sysbench's tables sbtest1..N, created before a target's first step and
# dropped after its last.
#
# Rules:
# - The DDL and the row format are sysbench 1.0.20's (oltp_common.lua: create_table), so sysbench
#   and the built-in client run on identical tables: id AUTO_INCREMENT primary key, k with the
#   secondary index k_N (created after the load, as sysbench does), c CHAR(120), pad CHAR(60).
# - Rows go in as multi-row INSERTs of BATCH rows, one connection per table, tables in parallel.
# - Everything the bench creates it removes: `cleanup` drops the tables, and the database too
#   if the bench created it. On a server given by URL, an existing sbtest1 is never overwritten:
#   the target fails with a message instead (it may be somebody's data).

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

from rampmeter.bench.wire import Connection, Endpoint, MySQLError
from rampmeter.bench.workloads import Settings, sb_string

BATCH = 500  # rows per INSERT: ~100 kB statements, well under any max_allowed_packet

DDL = ("CREATE TABLE {t} (id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER DEFAULT '0' NOT NULL, "
       "c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id)) "
       "/*! ENGINE = innodb */")
INDEX = "CREATE INDEX k_{n} ON {t}(k)"


@dataclass
class Prepared:
    created_database: bool
    tables: list[str]


def _quote_ident(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


async def _exists(conn: Connection, database: str, table: str) -> bool:
    try:
        await conn.query(f"SELECT 1 FROM {_quote_ident(database)}.{table} LIMIT 1")
    except MySQLError as exc:
        if exc.code in (1146, 1049):  # no such table / database
            return False
        raise
    return True


async def _load(endpoint: Endpoint, table: str, n: int, settings: Settings, seed: int) -> None:
    rng = random.Random(seed)
    conn = await endpoint.connect(timeout=30.0)
    try:
        await conn.query(DDL.format(t=table))
        for first in range(1, settings.table_size + 1, BATCH):
            last = min(first + BATCH, settings.table_size + 1)
            rows = ",".join(
                f"({i},{rng.randint(1, settings.table_size)},'{sb_string(rng, 10)}',"
                f"'{sb_string(rng, 5)}')" for i in range(first, last))
            await conn.query(f"INSERT INTO {table} (id, k, c, pad) VALUES {rows}")
        await conn.query(INDEX.format(n=n, t=table))
    finally:
        conn.close()


async def prepare(endpoint: Endpoint, settings: Settings, *, exclusive: bool) -> Prepared:
    """Create the database (if missing) and the tables; `exclusive`: refuse existing tables."""
    admin = await endpoint.connect(database="", timeout=30.0)
    try:
        db = _quote_ident(endpoint.database)
        created = False
        try:
            await admin.query(f"USE {db}")
        except MySQLError as exc:
            await admin.query(f"CREATE DATABASE IF NOT EXISTS {db}")
            # only a clear "unknown database" lets us drop it afterwards; when in doubt, keep it
            created = exc.code == 1049
        tables = [f"sbtest{n}" for n in range(1, settings.tables + 1)]
        for table in tables:
            if await _exists(admin, endpoint.database, table):
                if exclusive:
                    raise MySQLError(1050, f"table {endpoint.database}.{table} already exists; "
                                     "the bench creates and drops its own tables: drop it or "
                                     "point the target at another database")
                await admin.query(f"DROP TABLE {db}.{table}")
    finally:
        admin.close()
    prepared = Prepared(created, tables)
    try:
        await asyncio.gather(*(_load(endpoint, t, n, settings, seed=n)
                               for n, t in enumerate(tables, start=1)))
    except BaseException:
        await cleanup(endpoint, prepared)  # every table here is ours: none existed before
        raise
    return prepared


async def cleanup(endpoint: Endpoint, prepared: Prepared) -> None:
    conn = await endpoint.connect(database="", timeout=30.0)
    try:
        db = _quote_ident(endpoint.database)
        for table in prepared.tables:
            await conn.query(f"DROP TABLE IF EXISTS {db}.{table}")
        if prepared.created_database:
            await conn.query(f"DROP DATABASE IF EXISTS {db}")
    finally:
        conn.close()
