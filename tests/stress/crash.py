"""The crash workload (issue 10 item 3): writers that record what the server acknowledged, a
kill -9 in the middle, and the check after the restart. Used by CI's slice
(tests/integration/test_durability.py) and by `make stress` (tests/stress/run.py).

Rules:
- Two kinds of writers run at once: autocommit INSERTs of single rows, and multi-statement
  transactions (BEGIN; PARTS inserts; an UPDATE of a counter row; COMMIT). A write counts as
  acknowledged when its OK (for a transaction: the COMMIT's OK) has been read by the client.
- The server is killed with SIGKILL once `commits` acknowledgements have been seen, while the
  writers are still writing: some statements and transactions are in flight.
- After a restart on the same datadir: every acknowledged row and transaction must be there
  (`lost` lists the ones that are not), and every transaction must be all there or not at all,
  its counter row agreeing (`partial`).
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymysql

PARTS = 5          # rows per transaction
WRITERS = 2        # of each kind


@dataclass
class Acked:
    rows: list[int] = field(default_factory=list)
    txns: list[int] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.rows) + len(self.txns)


@dataclass
class Report:
    acked_rows: int
    acked_txns: int
    lost: list[str]
    partial: list[int]


def prepare(server: Any) -> None:
    with server.connect().cursor() as cur:
        cur.execute("CREATE DATABASE IF NOT EXISTS crash")
        cur.execute("CREATE TABLE IF NOT EXISTS crash.auto (id BIGINT PRIMARY KEY, w INT)")
        cur.execute("CREATE TABLE IF NOT EXISTS crash.txn (tag BIGINT, part INT, "
                    "PRIMARY KEY (tag, part))")
        cur.execute("CREATE TABLE IF NOT EXISTS crash.counter (tag BIGINT PRIMARY KEY, "
                    "parts INT)")


def _start(server: Any) -> int:
    with server.connect().cursor() as cur:
        cur.execute("SELECT COALESCE(MAX(id), 0) FROM crash.auto")
        a = int(cur.fetchone()[0])
        cur.execute("SELECT COALESCE(MAX(tag), 0) FROM crash.counter")
        b = int(cur.fetchone()[0])
    return max(a, b) + 1_000_000


def run_until_killed(server: Any, commits: int, timeout: float = 60.0) -> Acked:
    """Write until `commits` writes are acknowledged, then SIGKILL the server process."""
    base = _start(server)
    acked = Acked()
    lock = threading.Lock()
    enough = threading.Event()

    def note(kind: list[int], value: int) -> None:
        with lock:
            kind.append(value)
            if len(acked) >= commits:
                enough.set()

    def autocommit(w: int) -> None:
        try:
            with server.connect().cursor() as cur:
                for i in range(10**9):
                    rid = base + i * WRITERS * 2 + w
                    cur.execute("INSERT INTO crash.auto VALUES (%s, %s)", (rid, w))
                    note(acked.rows, rid)
        except (pymysql.MySQLError, OSError):
            return  # the server died under us

    def transactions(w: int) -> None:
        try:
            # the database is attached before the first BEGIN (a first use inside a
            # transaction is refused, docs/sql.md)
            with server.connect(database="crash").cursor() as cur:
                cur.execute("SELECT COUNT(*) FROM counter")
                for i in range(10**9):
                    tag = base + i * WRITERS * 2 + WRITERS + w
                    cur.execute("BEGIN")
                    for p in range(PARTS):
                        cur.execute("INSERT INTO crash.txn VALUES (%s, %s)", (tag, p))
                    cur.execute("INSERT INTO crash.counter VALUES (%s, 0)", (tag,))
                    cur.execute("UPDATE crash.counter SET parts = %s WHERE tag = %s",
                                (PARTS, tag))
                    cur.execute("COMMIT")
                    note(acked.txns, tag)
        except (pymysql.MySQLError, OSError):
            return

    threads = [threading.Thread(target=autocommit, args=(w,)) for w in range(WRITERS)]
    threads += [threading.Thread(target=transactions, args=(w,)) for w in range(WRITERS)]
    for t in threads:
        t.start()
    finished = enough.wait(timeout)
    server.process.kill()  # SIGKILL, writers still writing
    server.process.wait(30)
    for t in threads:
        t.join(30)
    if not finished:
        raise AssertionError(f"only {len(acked)} writes acknowledged in {timeout} s")
    with lock:
        return Acked(list(acked.rows), list(acked.txns))


def check_after_crash(server: Any, acked: Acked) -> Report:
    with server.connect().cursor() as cur:
        cur.execute("SELECT id FROM crash.auto")
        rows = {int(r[0]) for r in cur.fetchall()}
        cur.execute("SELECT tag, COUNT(*) FROM crash.txn GROUP BY tag")
        parts = {int(t): int(n) for t, n in cur.fetchall()}
        cur.execute("SELECT tag, parts FROM crash.counter")
        counters = {int(t): int(n) for t, n in cur.fetchall()}
    lost = [f"row {r}" for r in acked.rows if r not in rows]
    lost += [f"transaction {t}" for t in acked.txns if parts.get(t) != PARTS]
    partial = sorted(t for t in set(parts) | set(counters)
                     if parts.get(t) != PARTS or counters.get(t) != PARTS)
    return Report(len(acked.rows), len(acked.txns), lost, partial)


def integrity(datadir: Path) -> dict[str, str]:
    """SQLite's own check of every database file of a stopped server: name -> its verdict
    when that is not "ok" (so an empty dict means nothing is corrupted)."""
    bad = {}
    for path in sorted(Path(datadir).glob("*.sqlite3")):
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        from rampmeter.engine.sqlite import collations
        collations.install(conn)  # text columns' indexes are ordered by MariaDB's collations
        try:
            verdict = "; ".join(str(r[0]) for r in conn.execute("PRAGMA integrity_check"))
        finally:
            conn.close()
        if verdict != "ok":
            bad[path.name] = verdict
    return bad
