"""max_session_mem_used (session/memory.py): past the limit every statement but SET is 1290
with MariaDB's text, and SET gets the session out again (mtr truncate_notembedded)."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import error_code as _error
from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def test_a_session_past_its_memory_limit_runs_only_set(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE mem", "USE mem", "CREATE TABLE t (a INT)",
         "SET SESSION max_session_mem_used = 50000")
    assert _run(conn, "SELECT COUNT(*) FROM t") == ((0,),)
    _run(conn, "SET SESSION max_session_mem_used = 8192")
    assert _error(conn, "TRUNCATE TABLE t") == 1290
    with conn.cursor() as cur:
        with pytest.raises(Exception) as info:
            cur.execute("SELECT 1")
    assert "--max-session-mem-used=8192 option so it cannot execute" in str(info.value)
    _run(conn, "SET @x = 1", "SET SESSION max_session_mem_used = DEFAULT")
    assert _run(conn, "SELECT @x") == ((1,),)
