"""information_schema.TABLE_STATISTICS / INDEX_STATISTICS under @@userstat (tablestats.py),
with MariaDB 10.11's counts of mtr information_schema_stats."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)

_ROWS = ("(1,'fa','la','California'), (2,'fb','lb','Arizona'), (3,'fc','lc','California'), "
         "(4,'fd','ld','Utah'), (5,'fe','le','Arizona')")


def _stats(conn):
    tables = _run(conn, "SELECT * FROM information_schema.TABLE_STATISTICS "
                        "WHERE TABLE_SCHEMA = 'ts'")
    indexes = _run(conn, "SELECT * FROM information_schema.INDEX_STATISTICS "
                         "WHERE TABLE_SCHEMA = 'ts' ORDER BY INDEX_NAME")
    return tables, indexes


def test_reads_changes_and_drops(server):
    conn = server.connect()
    _run(conn, "SET GLOBAL userstat = 1", "CREATE DATABASE ts", "USE ts")
    try:
        _run(conn, "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, f VARCHAR(10), "
                   "l VARCHAR(10), s VARCHAR(30), KEY (f, l), KEY (s))",
             f"INSERT INTO t VALUES {_ROWS}",
             "SELECT COUNT(*) FROM t WHERE f = 'fc' AND l = 'lc'",
             "SELECT COUNT(*) FROM t WHERE s = 'California'",
             "SELECT COUNT(*) FROM t WHERE id BETWEEN 2 AND 4")
        tables, indexes = _stats(conn)
        assert tables == (("ts", "t", 7, 5, 15),)  # 1 + 2 + (3 + the range's end)
        assert indexes == (("ts", "t", "f", 1), ("ts", "t", "PRIMARY", 4), ("ts", "t", "s", 2))
        _run(conn, "ALTER TABLE t DROP KEY f")   # a copy: every row read
        tables, indexes = _stats(conn)
        assert tables[0][2] == 12 and [i[2] for i in indexes] == ["PRIMARY", "s"]
        _run(conn, "FLUSH INDEX_STATISTICS")
        assert _stats(conn)[1] == ()
        _run(conn, "DROP TABLE t")
        assert _stats(conn) == ((), ())
    finally:
        _run(conn, "SET GLOBAL userstat = 0")
