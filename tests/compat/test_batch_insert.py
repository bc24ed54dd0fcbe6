"""Multi-row INSERTs (issue 9, item 3): rampmeter runs a batch of rows of one shape as one plan
and one executemany (engine/sqlite/batch.py). What a client sees must stay MariaDB's: affected
rows, LAST_INSERT_ID, the info's counts, strict-mode errors at the right row (and nothing
inserted), warnings per row when not strict, INSERT IGNORE's skipped duplicates, and a batch
inside a transaction that fails without undoing the transaction's earlier rows.
"""

from __future__ import annotations

import pytest

from tests.compat.conftest import drivers
from tests.compat.drivers import Options, Step

ROWS = ", ".join(f"({i}, 'n{i}', {i}.5, '2024-01-{i % 28 + 1:02d} 10:00:00')"
                 for i in range(1, 41))


@pytest.fixture
def t(compat):
    compat.setup("CREATE TABLE t (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, "
                 "name VARCHAR(5) NOT NULL, price DOUBLE, made DATETIME(3), "
                 "n TINYINT UNSIGNED DEFAULT 7, UNIQUE KEY (name))")
    return compat


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector-prep"))
def test_batch_results(t, driver):
    t.check(driver, [
        f"INSERT INTO t (id, name, price, made) VALUES {ROWS}",
        "SELECT COUNT(*), SUM(id), SUM(price), MIN(made), MAX(made), SUM(n) FROM t",
        "INSERT INTO t (name, price) VALUES ('a', 1), ('b', NULL), ('c', 3), ('d', 4)",
        "SELECT LAST_INSERT_ID(), ROW_COUNT()",
        "SELECT id, name, price, made, n FROM t WHERE id > 40 ORDER BY id",
        "INSERT INTO t (name, price, n) VALUES ('e', 1, DEFAULT), ('f', 2, DEFAULT)",
        "SELECT name, n FROM t WHERE name IN ('e', 'f') ORDER BY name",
    ])


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient"))
def test_batch_strict_errors_insert_nothing(t, driver):
    t.check(driver, [
        "INSERT INTO t (name, n) VALUES ('a', 1), ('b', 2), ('toolong', 3), ('c', 4)",
        "INSERT INTO t (name, n) VALUES ('a', 1), ('b', 2), ('c', 300), ('d', 4)",
        "INSERT INTO t (name, n) VALUES ('a', 1), ('b', 2), (NULL, 3), ('d', 4)",
        "INSERT INTO t (name, n) VALUES ('a', 1), ('b', 2), ('a', 3), ('d', 4)",
        "INSERT INTO t (name, n) VALUES ('a', 1), ('b', 'x'), ('c', 3), ('d', 4)",
        "SELECT COUNT(*) FROM t",
    ], checks=("rows", "error", "message", "rowcount"))


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient"))
def test_batch_not_strict_warns_per_row(t, driver):
    t.check(driver, [
        "SET sql_mode = ''",
        "INSERT INTO t (name, n, made) VALUES ('a', 1, '2024-01-01'), ('toolong', 2, NULL), "
        "('c', 300, 'junk'), (NULL, -1, '2024-02-30 00:00:00'), ('e', 'x', NULL)",
        "SELECT name, n, made FROM t ORDER BY id",
        "INSERT IGNORE INTO t (name, n) VALUES ('a', 1), ('new', 2), ('c', 3), ('new2', 4)",
        "INSERT IGNORE INTO t (name, n) VALUES ('x', 1), ('new', 300), ('y', 3), ('a', 4)",
        "SELECT name FROM t ORDER BY id",
    ], checks=("rows", "error", "rowcount", "warnings", "warning_text"))


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient"))
def test_batch_in_a_transaction(t, driver):
    t.check(driver, [
        "BEGIN",
        "INSERT INTO t (name) VALUES ('keep1'), ('keep2'), ('keep3')",
        "INSERT INTO t (name) VALUES ('x1'), ('x2'), ('keep1'), ('x3')",
        "SELECT name FROM t ORDER BY id",
        "COMMIT",
        "SELECT name FROM t ORDER BY id",
    ], checks=("rows", "error", "rowcount"))


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient"))
def test_executemany(t, driver):
    rows = [(f"r{i}", i * 1.25, f"2024-03-{i % 28 + 1:02d} 12:34:56.789") for i in range(200)]
    t.check(driver, [
        Step("INSERT INTO t (name, price, made) VALUES (%s, %s, %s)", rows, many=True),
        "SELECT COUNT(*), SUM(price), MAX(made), MIN(id), MAX(id) FROM t",
        Step("INSERT INTO t (name, price, made) VALUES (%s, %s, %s)",
             [("ok", 1, None), ("r5", 2, None)], many=True),
        "SELECT COUNT(*) FROM t",
    ], checks=("rows", "error", "rowcount"), connect={"a": Options(autocommit=True)})


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector-prep"))
def test_batch_upsert(t, driver):
    t.check(driver, [
        "INSERT INTO t (id, name, n) VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)",
        "INSERT INTO t (id, name, n) VALUES (1, 'a', 5), (4, 'd', 4), (2, 'b', 2) "
        "ON DUPLICATE KEY UPDATE n = n + 10",
        "SELECT id, name, n FROM t ORDER BY id",
        "INSERT INTO t (id, name, n) VALUES (1, 'x', 1), (5, 'e', 5), (5, 'f', 6) "
        "ON DUPLICATE KEY UPDATE name = VALUES(name), n = VALUES(n)",
        "SELECT id, name, n FROM t ORDER BY id",
        "SELECT LAST_INSERT_ID()",
    ])
