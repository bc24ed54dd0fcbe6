"""Events: CREATE / ALTER / DROP EVENT, SHOW CREATE EVENT, SHOW EVENTS,
information_schema.EVENTS and the scheduler compared with MariaDB through PyMySQL (errors,
notes and warnings too). STARTS defaults to the moment of CREATE, and DEFINER holds the
client's host, so those are given or left out of what is compared."""

from __future__ import annotations

import time
from typing import Any

from tests.compat.test_stored_programs import answers
from tests.compat.tools import connect

# the time columns are DATETIME in MariaDB and text here, as information_schema's other
# times are (docs/sql.md): compared as text
LISTED = ("SELECT EVENT_NAME, EVENT_BODY, EVENT_DEFINITION, EVENT_TYPE, CAST(EXECUTE_AT AS "
          "CHAR) AS x, INTERVAL_VALUE, INTERVAL_FIELD, CAST(STARTS AS CHAR) AS s, CAST(ENDS AS "
          "CHAR) AS e, STATUS, ON_COMPLETION, EVENT_COMMENT, TIME_ZONE FROM "
          "information_schema.EVENTS WHERE EVENT_SCHEMA = DATABASE() ORDER BY EVENT_NAME")


def compare(compat: Any, setup: list[str], statements: list[str]) -> None:
    compat.setup(*setup)
    got = {t: answers(compat.endpoint(t), compat.db, statements) for t in ("mariadb",
                                                                           "rampmeter")}
    for sql, maria, ramp in zip(statements, got["mariadb"], got["rampmeter"], strict=True):
        assert ramp == maria, f"{sql}\nMariaDB:   {maria!r}\nrampmeter: {ramp!r}"


def test_event_statements_errors_and_listing(compat):
    compare(compat, ["CREATE TABLE t1 (a INT)"], [
        "CREATE EVENT e1 ON SCHEDULE EVERY '2:15' YEAR_MONTH STARTS '2030-01-01 00:00:00' "
        "DO INSERT INTO t1 VALUES (1)",
        "CREATE EVENT e1 ON SCHEDULE EVERY 1 HOUR DO SELECT 1",
        "CREATE EVENT IF NOT EXISTS e1 ON SCHEDULE EVERY 1 HOUR DO SELECT 1",
        "CREATE OR REPLACE EVENT IF NOT EXISTS e1 ON SCHEDULE EVERY 1 HOUR DO SELECT 1",
        "CREATE EVENT e2 ON SCHEDULE EVERY 50 + 10 MINUTE STARTS '2030-01-01 10:00:00' "
        "ENDS '2030-02-01 00:00:00' ON COMPLETION PRESERVE DISABLE COMMENT 'it''s e2' "
        "DO BEGIN INSERT INTO t1 VALUES (2); DELETE FROM t1; END",
        "CREATE EVENT e3 ON SCHEDULE AT '2031-05-06 07:08:09' DO SELECT 3",
        "CREATE EVENT e4 ON SCHEDULE EVERY '35:66' MINUTE_SECOND STARTS '2030-01-01' DO SELECT 4",
        "CREATE EVENT e5 ON SCHEDULE EVERY '20:25' DAY_HOUR STARTS '2030-01-01' DO SELECT 5",
        LISTED,
        "SHOW EVENTS LIKE 'nomatch'",
        "ALTER EVENT e1 RENAME TO e9 DISABLE COMMENT 'renamed'",
        "ALTER EVENT e3 ON SCHEDULE EVERY 2 WEEK STARTS '2032-01-01 00:00:00' ON COMPLETION "
        "PRESERVE",
        "ALTER EVENT e9 RENAME TO e9",
        "ALTER EVENT e9 RENAME TO e2",
        "ALTER EVENT nosuch COMMENT 'x'",
        "ALTER EVENT e4 DO ALTER EVENT e4 DO SELECT 1",
        LISTED,
        "CREATE EVENT p1 ON SCHEDULE AT '2001-01-01 00:00:00' DO SELECT 1",
        "CREATE EVENT p2 ON SCHEDULE AT '2001-01-01 00:00:00' ON COMPLETION PRESERVE DO SELECT 1",
        "CREATE EVENT p3 ON SCHEDULE EVERY 1 DAY STARTS '2000-01-01' ENDS '2001-01-01' DO SELECT 1",
        "ALTER EVENT p2 ON COMPLETION NOT PRESERVE",
        "CREATE EVENT x ON SCHEDULE EVERY 0 SECOND DO SELECT 1",
        "CREATE EVENT x ON SCHEDULE EVERY -3 DAY DO SELECT 1",
        "CREATE EVENT x ON SCHEDULE EVERY 10 MICROSECOND DO SELECT 1",
        "CREATE EVENT x ON SCHEDULE EVERY 10 DAY_MICROSECOND DO SELECT 1",
        "CREATE EVENT x ON SCHEDULE EVERY 1 DAY STARTS '2030-01-02' ENDS '2030-01-01' DO SELECT 1",
        "CREATE EVENT x ON SCHEDULE AT 'not a time' DO SELECT 1",
        "CREATE EVENT x ON SCHEDULE AT '1000-01-01' DO SELECT 1",
        "CREATE EVENT x ON SCHEDULE EVERY 1 DAY ENDS '2040-01-01' DO SELECT 1",
        LISTED,
        "DROP EVENT e2",
        "DROP EVENT e2",
        "DROP EVENT IF EXISTS e2",
        "SHOW CREATE EVENT nosuch",
        "DROP EVENT e3", "DROP EVENT e4", "DROP EVENT e5", "DROP EVENT p2",
        LISTED,
    ])


def _show_create(ep: Any, db: str, name: str) -> tuple[Any, ...]:
    conn = connect(ep, db)
    try:
        with conn.cursor() as cur:
            cur.execute(f"SHOW CREATE EVENT {name}")
            desc = tuple(d[0] for d in cur.description)
            row = cur.fetchone()
    finally:
        conn.close()
    text = row[3]
    return desc, row[0], row[2], text[text.index(" EVENT "):], row[4:6]


def test_show_create_event(compat):
    compat.setup(
        "CREATE EVENT e1 ON SCHEDULE EVERY '10:20' MINUTE_SECOND STARTS '2030-01-01 00:00:00' "
        "ON COMPLETION PRESERVE ENABLE COMMENT 'some comment' DO select 1",
        "CREATE EVENT e2 ON SCHEDULE AT '2030-03-04 05:06:07' DISABLE DO BEGIN SELECT 1; END",
        "CREATE EVENT e3 ON SCHEDULE EVERY 2 YEAR STARTS '2030-01-01' ENDS '2035-01-01' DO "
        "DO 1")
    for name in ("e1", "e2", "e3"):
        got = {t: _show_create(compat.endpoint(t), compat.db, name)
               for t in ("mariadb", "rampmeter")}
        assert got["rampmeter"] == got["mariadb"], name


def _scalar(ep: Any, db: str, sql: str) -> Any:
    conn = connect(ep, db)
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
            return cur.fetchone()[0]
    finally:
        conn.close()


def _wait(ep: Any, db: str, sql: str, deadline: float = 20.0) -> bool:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if _scalar(ep, db, sql):
            return True
        time.sleep(0.1)
    return False


def test_scheduler_runs_events_as_mariadb(compat):
    """With event_scheduler ON, both servers run a recurring event, run and drop a one-time
    one, show the daemon in PROCESSLIST, and stop it again with OFF."""
    compat.setup("CREATE TABLE t1 (a INT)", "CREATE TABLE t2 (a INT)",
                 "CREATE EVENT r ON SCHEDULE EVERY 1 SECOND DO INSERT INTO t1 VALUES (1)",
                 "CREATE EVENT o ON SCHEDULE AT CURRENT_TIMESTAMP + INTERVAL 1 SECOND "
                 "DO INSERT INTO t2 VALUES (2)")
    daemon = ("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = "
              "'event_scheduler' AND COMMAND = 'Daemon'")
    for target in ("mariadb", "rampmeter"):
        ep = compat.endpoint(target)
        db = compat.db
        assert answers(ep, db, ["SET GLOBAL event_scheduler = ON"]) == [([], ())]
        try:
            assert _wait(ep, db, daemon), target
            assert _wait(ep, db, "SELECT COUNT(*) > 0 FROM t1"), target
            assert _wait(ep, db, "SELECT COUNT(*) = 1 FROM t2"), target
            assert _wait(ep, db, "SELECT COUNT(*) = 0 FROM information_schema.EVENTS "
                                 f"WHERE EVENT_SCHEMA = '{db}' AND EVENT_NAME = 'o'"), target
            assert _scalar(ep, db, "SELECT LAST_EXECUTED IS NOT NULL FROM information_schema."
                                   f"EVENTS WHERE EVENT_SCHEMA = '{db}' AND EVENT_NAME = 'r'")
        finally:
            answers(ep, db, ["SET GLOBAL event_scheduler = OFF"])
        assert _wait(ep, db, daemon.replace("COUNT(*)", "COUNT(*) = 0")), target


def test_event_scheduler_variable(compat):
    steps = ["SET GLOBAL event_scheduler = DISABLED", "SET GLOBAL event_scheduler = 5",
             "SET GLOBAL event_scheduler = 2", "SET GLOBAL event_scheduler = -1",
             "SET GLOBAL event_scheduler = 0", "SELECT @@global.event_scheduler",
             "SET event_scheduler = ON"]
    got = {t: answers(compat.endpoint(t), compat.db, steps) for t in ("mariadb", "rampmeter")}
    assert got["rampmeter"] == got["mariadb"]
