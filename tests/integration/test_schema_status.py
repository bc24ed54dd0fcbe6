"""Status variables that are real measurements and the `mysql` schema's statistics tables
(the mtr tests memory_used, sp-no-valgrind, status2, ...)."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _status(conn, name: str, scope: str = "SESSION"):
    rows = _run(conn, f"SHOW {scope} STATUS LIKE '{name}'")
    return rows[0][1]


def test_memory_used_is_what_the_session_holds(server):
    """Memory_used grows with what a session keeps (user variables), does not move with a
    statement that keeps nothing; Max_memory_used grows with a big result; GLOBAL Memory_used
    sums the sessions and GLOBAL Max_memory_used is NULL, as MariaDB's."""
    conn = server.connect()
    other = server.connect()
    first = int(_status(conn, "Memory_used"))
    assert first > 0
    assert int(_status(conn, "Memory_used")) == first
    _run(conn, "SET @big = REPEAT('x', 100000)")
    held = int(_status(conn, "Memory_used"))
    assert held >= first + 100000
    peak = int(_status(conn, "Max_memory_used"))
    assert peak >= held
    _run(conn, "SELECT REPEAT('y', 200000)")
    assert int(_status(conn, "Max_memory_used")) >= peak + 200000
    total = int(_run(conn, "SELECT variable_value FROM information_schema.global_status "
                           "WHERE variable_name = 'MEMORY_USED'")[0][0])
    assert total >= held + int(_status(other, "Memory_used"))
    assert _status(conn, "Max_memory_used", "GLOBAL") is None
