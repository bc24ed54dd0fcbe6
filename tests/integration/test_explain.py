"""EXPLAIN over the wire as the mariadb client reads it: MariaDB's columns (`filtered` with
EXTENDED) and Note 1003 in SHOW WARNINGS (engine/sqlite/explain.py)."""

from __future__ import annotations

import pytest

from tests.conftest import ServerHandle

pytestmark = pytest.mark.timeout(30)


def test_explain_extended_columns_and_note(server: ServerHandle) -> None:
    conn = server.connect()
    with conn.cursor() as cur:
        cur.execute("CREATE DATABASE IF NOT EXISTS explain_db")
        cur.execute("USE explain_db")
        cur.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(5))")
        cur.execute("INSERT INTO t VALUES (1, 'a'), (2, 'b')")
        cur.execute("EXPLAIN SELECT v FROM t WHERE id = 2")
        assert [d[0] for d in cur.description] == [
            "id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref",
            "rows", "Extra"]
        assert cur.fetchall() == ((1, "SIMPLE", "t", "const", "PRIMARY", "PRIMARY", "4",
                                   "const", "1", ""),)
        cur.execute("EXPLAIN EXTENDED SELECT 3 - (2 + 1), v FROM t WHERE v = 'b'")
        assert [d[0] for d in cur.description][9:] == ["filtered", "Extra"]
        assert [r[3] for r in cur.fetchall()] == ["ALL"]
        cur.execute("SHOW WARNINGS")
        assert cur.fetchall() == (("Note", 1003, "select 3 - (2 + 1) AS `3 - (2 + 1)`,"
                                   "`explain_db`.`t`.`v` AS `v` from `explain_db`.`t` where "
                                   "`explain_db`.`t`.`v` = 'b'"),)
        cur.execute("DROP DATABASE explain_db")
    conn.close()
