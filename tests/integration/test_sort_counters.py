"""Sort_* and Handler_read_* status counters of ordered queries (sortstats.py), as MariaDB
10.11 counts them in mtr order_by_sortkey, handler_read_last and win_big-mdev-10092."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _status(conn, like):
    return {k: int(v) for k, v in _run(conn, f"SHOW SESSION STATUS LIKE '{like}'")}


def _db(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE sc", "USE sc",
         "CREATE TABLE t1 (a INT, INDEX (a))",
         "INSERT INTO t1 VALUES (),(),(),(),(),(),(),(),(),()",
         "CREATE TABLE t2 (f0 INT AUTO_INCREMENT PRIMARY KEY, f1 INT, f2 VARCHAR(200))",
         "INSERT INTO t2 (f1, f2) WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL "
         "SELECT i + 1 FROM n WHERE i < 300) SELECT i, CONCAT('x', i) FROM n")
    return conn


def test_listed_at_zero_after_flush(server):
    conn = _db(server)
    _run(conn, "SELECT * FROM t2 ORDER BY f2", "FLUSH STATUS")
    assert _status(conn, "Sort%") == {"Sort_merge_passes": 0, "Sort_priority_queue_sorts": 0,
                                      "Sort_range": 0, "Sort_rows": 0, "Sort_scan": 0}
    assert set(_status(conn, "Handler_read%").values()) == {0}


def test_filesort_with_and_without_limit(server):
    conn = _db(server)
    _run(conn, "FLUSH STATUS", "SELECT * FROM t2 ORDER BY f2 LIMIT 100")
    got = _status(conn, "Sort%")
    assert (got["Sort_priority_queue_sorts"], got["Sort_rows"], got["Sort_scan"]) == (1, 100, 1)
    _run(conn, "FLUSH STATUS", "SET sort_buffer_size = 1024",
         "SELECT f1, AVG(f1) OVER (ORDER BY f1) FROM t2")
    got = _status(conn, "Sort%")
    assert got["Sort_rows"] == 300 and got["Sort_merge_passes"] > 0
    assert got["Sort_priority_queue_sorts"] == 0


def test_index_order_reads(server):
    conn = _db(server)
    _run(conn, "FLUSH STATUS", "SELECT a FROM t1 ORDER BY a DESC LIMIT 3")
    got = _status(conn, "Handler_read%")
    assert (got["Handler_read_last"], got["Handler_read_prev"], got["Handler_read_first"]) \
        == (1, 2, 0)
    _run(conn, "FLUSH STATUS", "SELECT a FROM t1 ORDER BY a LIMIT 1")
    got = _status(conn, "Handler_read%")
    assert (got["Handler_read_first"], got["Handler_read_next"]) == (1, 0)
    assert _status(conn, "Sort_scan") == {"Sort_scan": 0}
