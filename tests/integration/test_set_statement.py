"""SET STATEMENT ... FOR through a real client: what MariaDB refuses in the assignments, and a
stored program's CREATE or BEGIN NOT ATOMIC after FOR (mtr set_statement, lotofstack)."""

from __future__ import annotations

import pymysql
import pytest

from tests.conftest import ServerHandle


def _error(server: ServerHandle, sql: str) -> tuple[int, str]:
    with pytest.raises(pymysql.err.MySQLError) as info:
        server.query(sql)
    return info.value.args[0], info.value.args[1]


def test_set_statement_refusals(server: ServerHandle) -> None:
    near = "check the manual that corresponds to your MariaDB server version for the right " \
           "syntax to use near "
    assert _error(server, "SET STATEMENT max_error_count=100 SELECT 1") == (
        1064, f"You have an error in your SQL syntax; {near}'SELECT 1' at line 1")
    assert _error(server, "SET STATEMENT FOR SELECT 1")[1].endswith("near 'FOR SELECT 1' at line 1")
    assert _error(server, "SET STATEMENT GLOBAL max_error_count=1 FOR SELECT 1")[1].endswith(
        "near 'max_error_count=1 FOR SELECT 1' at line 1")
    assert _error(server, "SET STATEMENT @@max_error_count=1 FOR SELECT 1")[0] == 1064
    assert _error(server, "SET STATEMENT autocommit=0 FOR SELECT 1") == (
        1971, "The system variable autocommit cannot be set in SET STATEMENT.")
    assert _error(server, "SET STATEMENT max_error_count=(SELECT COUNT(*) FROM "
                          "information_schema.COLLATIONS) FOR SELECT 1")[0] == 1970
    assert server.query("SET STATEMENT max_error_count=(SELECT 7) FOR "
                        "SELECT @@max_error_count") == ((7,),)


def test_a_program_after_for(server: ServerHandle) -> None:
    server.query("CREATE DATABASE sf")
    server.query("SET STATEMENT sql_mode = '' FOR CREATE PROCEDURE sf.p(INOUT r INT) "
                 "BEGIN SET r = r * 2; SET r = r + 1; END")
    conn = server.connect()
    try:
        with conn.cursor() as cur:
            cur.execute("SET @r = 3")
            cur.execute("CALL sf.p(@r)")
            cur.execute("SELECT @r")
            assert cur.fetchall() == ((7,),)
    finally:
        conn.close()
    assert server.query("SET STATEMENT sql_mode = 'ANSI_QUOTES' FOR "
                        "BEGIN NOT ATOMIC SELECT @@sql_mode; END") == (("ANSI_QUOTES",),)


def test_set_statement_for_call_inside_a_procedure_keeps_its_results(server) -> None:
    """`SET STATEMENT ... FOR CALL p1()` in a procedure: p1's result sets are the caller's."""
    conn = server.connect()
    with conn.cursor() as cur:
        for sql in ("CREATE DATABASE ssc", "USE ssc",
                    "CREATE PROCEDURE p1() SELECT @@sort_buffer_size",
                    "CREATE PROCEDURE p2() BEGIN SET STATEMENT sort_buffer_size = 300000 FOR "
                    "CALL p1(); END"):
            cur.execute(sql)
        cur.execute("CALL p2()")
        assert cur.fetchall() == ((300000,),)
