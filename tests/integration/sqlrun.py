"""Small helpers the stored-program integration tests share: run statements on one
connection, and the error code a statement fails with."""

from __future__ import annotations

from typing import Any

import pymysql
import pytest


def run(conn: Any, *statements: str) -> Any:
    """Run the statements in order; the last one's rows."""
    with conn.cursor() as cur:
        for sql in statements:
            cur.execute(sql)
        return cur.fetchall()


def error_code(conn: Any, sql: str) -> int:
    """The MySQL error code `sql` fails with (the test fails if it does not)."""
    with pytest.raises(pymysql.err.MySQLError) as e:
        run(conn, sql)
    return int(e.value.args[0])
