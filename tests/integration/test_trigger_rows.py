"""Triggers that change the row being written (issue 13, mtr trigger_no_defaults-11698):
`SET NEW.col = ...` in a BEFORE INSERT / UPDATE trigger is what the row stores and what AFTER
triggers read; a NOT NULL column without a default that an INSERT leaves out waits for the
BEFORE triggers before it is 1364 (MariaDB's MDEV-11698)."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import error_code as _error
from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def test_before_insert_and_update_triggers_rewrite_the_row(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE tr", "USE tr",
         "CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, a INT, b VARCHAR(10), c DATETIME)",
         "CREATE TABLE log (x VARCHAR(100))",
         "CREATE TRIGGER bi BEFORE INSERT ON t FOR EACH ROW BEGIN "
         "SET NEW.b = CONCAT('x', NEW.a); SET NEW.a = NEW.a * 10; END",
         "CREATE TRIGGER ai AFTER INSERT ON t FOR EACH ROW "
         "INSERT INTO log VALUES (CONCAT(NEW.id, ' ', NEW.a, ' ', NEW.b))",
         "CREATE TRIGGER bu BEFORE UPDATE ON t FOR EACH ROW "
         "SET NEW.b = UPPER(NEW.b), NEW.c = '2020-01-02 03:04:05'")
    with conn.cursor() as cur:
        assert cur.execute("INSERT INTO t (a) VALUES (1), (2)") == 2
        assert cur.lastrowid == 1
        assert cur.execute("UPDATE t SET b = 'zz' WHERE id = 2") == 1
    assert _run(conn, "SELECT id, a, b, CAST(c AS CHAR) FROM t ORDER BY id") == (
        (1, 10, "x1", None), (2, 20, "ZZ", "2020-01-02 03:04:05"))
    assert _run(conn, "SELECT x FROM log") == (("1 10 x1",), ("2 20 x2",))


def test_new_is_assigned_only_where_mariadb_allows_it(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE tr", "USE tr", "CREATE TABLE t (a INT)")
    assert _error(conn, "CREATE TRIGGER x AFTER INSERT ON t FOR EACH ROW SET NEW.a = 1") == 1362
    assert _error(conn, "CREATE TRIGGER x BEFORE UPDATE ON t FOR EACH ROW SET OLD.a = 1") == 1362
    _run(conn, "CREATE TRIGGER x BEFORE INSERT ON t FOR EACH ROW SET NEW.nope = 1")
    assert _error(conn, "INSERT INTO t VALUES (1)") == 1054


def test_a_left_out_not_null_column_waits_for_the_before_trigger(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE tr", "USE tr", "SET sql_mode = 'STRICT_ALL_TABLES'",
         "CREATE TABLE t (a INT NOT NULL, b INT)",
         "CREATE TRIGGER bi BEFORE INSERT ON t FOR EACH ROW BEGIN "
         "IF NEW.b = 10 THEN SET NEW.a = NEW.b; ELSEIF NEW.b = 30 THEN SET NEW.a = NEW.a; "
         "END IF; END")
    _run(conn, "INSERT INTO t (b) VALUES (10)")
    assert _error(conn, "INSERT INTO t (b) VALUES (20)") == 1364
    assert _error(conn, "INSERT INTO t (b) VALUES (30)") == 1048
    assert _run(conn, "SELECT a, b FROM t") == ((10, 10),)
    _run(conn, "SET sql_mode = ''")
    with conn.cursor() as cur:
        cur.execute("INSERT INTO t (b) VALUES (20)")
        cur.execute("SHOW WARNINGS")
        assert cur.fetchall() == (("Warning", 1364, "Field 'a' doesn't have a default value"),)
    assert _run(conn, "SELECT a, b FROM t ORDER BY b") == ((10, 10), (0, 20))


@pytest.mark.parametrize(("engine", "kept"), [("MyISAM", ((1, "before"),)), ("InnoDB", ())])
def test_a_failing_trigger_keeps_what_a_myisam_statement_wrote(server, engine, kept):
    """MariaDB cannot roll back a MyISAM table: the row written and the BEFORE trigger's log
    stay when the AFTER trigger fails (mtr trigger-33083); InnoDB's statement is undone."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE tr", "USE tr",
         f"CREATE TABLE t (id INT PRIMARY KEY, v INT) ENGINE={engine}",
         f"CREATE TABLE log (id INT AUTO_INCREMENT PRIMARY KEY, msg VARCHAR(20)) ENGINE={engine}",
         "INSERT INTO t VALUES (1, 1)",
         "CREATE TRIGGER bu BEFORE UPDATE ON t FOR EACH ROW INSERT INTO log (msg) VALUES "
         "('before')",
         "CREATE TRIGGER au AFTER UPDATE ON t FOR EACH ROW SIGNAL SQLSTATE '45000' SET "
         "MESSAGE_TEXT = 'no'")
    assert _error(conn, "UPDATE t SET v = 2 WHERE id = 1") == 1644
    assert _run(conn, "SELECT * FROM log") == kept
    assert _run(conn, "SELECT v FROM t") == ((2,) if kept else (1,),)


def test_replace_into_a_table_with_triggers_deletes_and_inserts(server):
    # REPLACE updates a row in place only in a table without triggers (replacing.py):
    # MariaDB fires the DELETE and INSERT triggers, never the UPDATE ones
    conn = server.connect()
    _run(conn, "CREATE DATABASE tr", "USE tr",
         "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(5))", "CREATE TABLE log (x VARCHAR(10))",
         "INSERT INTO t VALUES (1, 'a'), (2, 'b')",
         "CREATE TRIGGER td AFTER DELETE ON t FOR EACH ROW INSERT INTO log VALUES ('deleted')",
         "CREATE TRIGGER tu AFTER UPDATE ON t FOR EACH ROW INSERT INTO log VALUES ('updated')")
    with conn.cursor() as cur:
        assert cur.execute("REPLACE INTO t VALUES (1, 'x')") == 2
    assert _run(conn, "SELECT x FROM log") == (("deleted",),)
    assert _run(conn, "SELECT id, v FROM t ORDER BY id") == ((1, "x"), (2, "b"))


def test_show_create_trigger_keeps_the_text_and_a_rename_rewrites_the_table(server):
    """SHOW CREATE TRIGGER prints the client's text from TRIGGER on (MariaDB 10.11); a RENAME
    TABLE, also one that fails after the table's rename and puts it back (mtr rename),
    rewrites the ON clause as `table`."""
    conn = server.connect()
    _run(conn, "CREATE DATABASE tr", "USE tr", "CREATE TABLE t1 (a INT)",
         "CREATE TRIGGER  tr1 AFTER INSERT ON tr.t1 FOR EACH ROW\n  SET @a = 1")

    def shown():
        return _run(conn, "SHOW CREATE TRIGGER tr1")[0][2]

    assert shown() == ("CREATE DEFINER=`root`@`localhost` TRIGGER  tr1 AFTER INSERT ON tr.t1 "
                       "FOR EACH ROW\n  SET @a = 1")
    assert _error(conn, "RENAME TABLE t1 TO t2, missing TO m") == 1146
    assert shown() == ("CREATE DEFINER=`root`@`localhost` TRIGGER  tr1 AFTER INSERT ON `t1` "
                       "FOR EACH ROW\n  SET @a = 1")
    _run(conn, "RENAME TABLE t1 TO t3")
    assert "ON `t3` FOR EACH ROW" in shown()
    assert _run(conn, "SELECT event_object_table FROM information_schema.triggers "
                      "WHERE trigger_name = 'tr1'") == (("t3",),)
