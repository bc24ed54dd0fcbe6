"""DECIMAL values past 15 digits reach a real client exactly, over the text and the binary
protocol, stored, summed and computed (engine/sqlite/exactdec.py)."""

from __future__ import annotations

from decimal import Decimal

import mysql.connector
import pytest

pytestmark = pytest.mark.timeout(60)


def test_big_decimals_round_trip(server):
    server.query("CREATE DATABASE IF NOT EXISTS app")
    server.query("CREATE TABLE app.d (k INT PRIMARY KEY, a DECIMAL(30,2))")
    conn = server.connect(database="app", autocommit=True)
    with conn.cursor() as cur:
        cur.execute("INSERT INTO d VALUES (1, %s), (2, %s)",
                    (Decimal("18446744073709551615.25"), Decimal("-12345678901234567.89")))
        cur.execute("SELECT a, a * 2, SUM(a) OVER () FROM d WHERE k = 1")
        a, doubled, _window = cur.fetchone()
        assert a == Decimal("18446744073709551615.25")
        assert doubled == Decimal("36893488147419103230.50")
        cur.execute("SELECT SUM(a), 0.8 = 0.7 + 0.1 FROM d")
        assert cur.fetchone() == (Decimal("18434398394808317047.36"), 1)
    conn.close()
    prepared = mysql.connector.connect(host=server.host, port=server.port, user="root",
                                       password="", database="app", use_pure=True)
    try:
        cur = prepared.cursor(prepared=True)
        cur.execute("SELECT a FROM d WHERE a > ? ORDER BY k", (0,))
        assert cur.fetchall() == [(Decimal("18446744073709551615.25"),)]
    finally:
        prepared.close()
