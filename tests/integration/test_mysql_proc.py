"""mysql.proc (mtr create_drop_procedure): the stored routines of every database as MariaDB's
table has them, read-only, made when a statement reads it."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def test_mysql_proc_lists_the_routines(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE mp", "USE mp",
         "CREATE PROCEDURE p(OUT n INT) COMMENT 'one' SET n = 1",
         "CREATE FUNCTION f(x INT) RETURNS INT DETERMINISTIC RETURN x")
    rows = _run(conn, "SELECT db, name, type, is_deterministic, param_list, returns, body, "
                "comment, aggregate FROM mysql.proc WHERE db = 'mp' ORDER BY name")
    assert rows == (("mp", "f", "FUNCTION", "YES", b"x INT", b"int(11)", b"RETURN x", "", "NONE"),
                    ("mp", "p", "PROCEDURE", "NO", b"OUT n INT", b"", b"SET n = 1", "one",
                     "NONE"))
    _run(conn, "CREATE OR REPLACE PROCEDURE p(OUT n INT) COMMENT 'two' SET n = 2")
    assert _run(conn, "SELECT comment FROM mysql.proc WHERE name = 'p'") == (("two",),)
    _run(conn, "DROP PROCEDURE p", "DROP FUNCTION f")
    assert _run(conn, "SELECT COUNT(*) FROM mysql.proc WHERE db = 'mp'") == ((0,),)


def test_mysql_schema_lists_proc_event_and_the_system_tables(server):
    """SHOW TABLES IN mysql as MariaDB 10.11's (mtr 1st): proc and event (made from the
    stored programs, with MariaDB's definitions) and the system tables tools read."""
    conn = server.connect()
    names = [r[0] for r in _run(conn, "SHOW TABLES IN mysql")]
    for name in ("column_stats", "event", "gtid_slave_pos", "innodb_index_stats",
                 "innodb_table_stats", "plugin", "proc", "time_zone", "time_zone_leap_second",
                 "time_zone_name", "time_zone_transition", "time_zone_transition_type",
                 "transaction_registry"):
        assert name in names
    assert names == sorted(names)
    create = _run(conn, "SHOW CREATE TABLE mysql.event")[0][1]
    assert create.startswith("CREATE TABLE `event` (\n  `db` char(64)")
    assert create.endswith("COMMENT='Events'")


def test_mysql_event_lists_the_events_in_utc(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE me", "USE me", "SET time_zone = '+03:00'",
         "CREATE EVENT e ON SCHEDULE AT '2037-01-01 03:00:00' ON COMPLETION PRESERVE "
         "DISABLE DO SELECT 1",
         "CREATE EVENT r ON SCHEDULE EVERY 2 HOUR STARTS '2037-01-01 03:00:00' DO SELECT 2")
    rows = _run(conn, "SELECT db, name, body, CAST(execute_at AS CHAR), interval_value, "
                      "interval_field, CAST(starts AS CHAR), status, on_completion, time_zone "
                      "FROM mysql.event WHERE db = 'me' ORDER BY name")
    assert rows == (
        ("me", "e", b"SELECT 1", "2037-01-01 00:00:00", None, None, None, "DISABLED",
         "PRESERVE", "+03:00"),
        ("me", "r", b"SELECT 2", None, 2, "HOUR", "2037-01-01 00:00:00", "ENABLED", "DROP",
         "+03:00"))
