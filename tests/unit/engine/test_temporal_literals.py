"""DATE'..', TIME'..', TIMESTAMP'..' and the ODBC {d '..'} / {t '..'} / {ts '..'} literals:
what is one (1525 when not), their types and nullability in CREATE TABLE ... SELECT, and
how EXPLAIN EXTENDED prints them (each expected value measured on MariaDB 10.11.19, mtr
temporal_literal)."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows


@pytest.mark.parametrize("literal", [
    "TIME'2001-01-01 10:00:00'", "TIME'0000-00-00 00:00:00'", "TIME'900:00:00'",
    "TIME'40 24:00:00'", "TIME'2001-01-01'", "TIME'12345678'", "TIME'10:10:10.5xyz'",
])
def test_a_time_literal_that_is_no_time_is_1525(session: SqliteSession, literal: str) -> None:
    fails(session, f"SELECT {literal}", 1525, "HY000")


@pytest.mark.parametrize(("literal", "value"), [
    ("TIME'1 24:00:00'", "48:00:00"), ("TIME'100000'", "10:00:00"),
    ("TIME'1000000'", "100:00:00"), ("TIME'-838:59:59.999999'", "-838:59:59.999999"),
])
def test_a_time_literal(session: SqliteSession, literal: str, value: str) -> None:
    assert str(rows(session.execute(f"SELECT {literal}"))[0][0]) == value


def test_create_select_of_literals_and_clock_is_not_null(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 SELECT DATE'2010-01-01' a, TIME'10:10:10.12' b, "
                    "TIMESTAMP'2001-01-01 10:10:10.123' c, {d'2001-01-01 10:10:10'} d, "
                    "utc_time(2) e, localtimestamp(6) f, CAST('10:00:00' AS TIME) g")
    got = rows(session.execute("SELECT COLUMN_TYPE, IS_NULLABLE FROM "
                               "information_schema.COLUMNS WHERE TABLE_NAME = 't1' "
                               "ORDER BY ORDINAL_POSITION"))
    assert got == [("date", "NO"), ("time(2)", "NO"), ("datetime(3)", "NO"),
                   ("varchar(19)", "NO"), ("time(2)", "NO"), ("datetime(6)", "NO"),
                   ("time", "YES")]


def test_explain_extended_prints_typed_literals(session: SqliteSession) -> None:
    result = session.execute("EXPLAIN EXTENDED SELECT DATE'2010-1-1', TIME'10:01:01.5', "
                             "TIMESTAMP'2010-01-01 10:10:10', {d'2010-01-01'}, "
                             "CAST('2001-01-01' AS DATE)")
    notes = [w.message for w in result.warnings if w.code == 1003]
    assert notes == ["select DATE'2010-01-01' AS `DATE'2010-1-1'`,TIME'10:01:01.5' AS "
                     "`TIME'10:01:01.5'`,TIMESTAMP'2010-01-01 10:10:10' AS "
                     "`TIMESTAMP'2010-01-01 10:10:10'`,DATE'2010-01-01' AS `{d'2010-01-01'}`,"
                     "cast('2001-01-01' as date) AS `CAST('2001-01-01' AS DATE)`"]


@pytest.mark.parametrize(("expr", "expected"), [
    # MariaDB 10.11 (mtr func_time_hires): the digits of TIME_TO_SEC / SEC_TO_TIME / DATE_ADD
    ("TIME_TO_SEC('12:34:56.789')", "45296.789"), ("TIME_TO_SEC('2:3:4.567890')", "7384.567890"),
    ("SEC_TO_TIME(1.9999999)", "00:00:01.999999"), ("SEC_TO_TIME('1.5')", "00:00:01.500000"),
    ("SEC_TO_TIME(1.5)", "00:00:01.5"),
    ("'2001-01-01 00:00:00' + INTERVAL 1 MICROSECOND", "2001-01-01 00:00:00.000001"),
    ("20010101000203.40 + INTERVAL 1 DAY", "2001-01-02 00:02:03.40"),
    ("'2001-01-01' + INTERVAL 1.50 SECOND", "2001-01-01 00:00:01.50"),
    ("CAST(CAST('2011-01-02 12:13:14.123456' AS TIME(2)) AS TIME(6))", "12:13:14.120000"),
])
def test_fractional_digits(session: SqliteSession, expr: str, expected: str) -> None:
    assert str(rows(session.execute(f"SELECT {expr}"))[0][0]) == expected


@pytest.mark.parametrize(("expr", "name"), [
    ("NOW(7)", "current_timestamp"), ("CURTIME(7)", "curtime"), ("UTC_TIME(7)", "utc_time"),
    ("CAST(1+1 AS DATETIME(7))", "1 + 1"), ("CAST(@a AS TIME(7))", "@`a`"),
])
def test_more_than_6_digits_is_1426(session: SqliteSession, expr: str, name: str) -> None:
    err = fails(session, f"SELECT {expr}", 1426, "42000")
    assert err.message == f"Too big precision specified for '{name}'. Maximum is 6"


def test_create_select_time_to_sec_and_sec_to_time_types(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t0 (v VARCHAR(20), t TIME(3), i INT, f DOUBLE)")
    session.execute("CREATE TABLE t1 SELECT TIME_TO_SEC(v) a, TIME_TO_SEC(t) b, "
                    "TIME_TO_SEC(i) c, TIME_TO_SEC('10:00:00.5') d, SEC_TO_TIME(v) e, "
                    "SEC_TO_TIME(t) f, SEC_TO_TIME(f) g, SEC_TO_TIME(12345.6789) h FROM t0")
    got = rows(session.execute("SELECT COLUMN_TYPE FROM information_schema.COLUMNS "
                               "WHERE TABLE_NAME = 't1' ORDER BY ORDINAL_POSITION"))
    assert [r[0] for r in got] == ["decimal(22,6)", "decimal(19,3)", "bigint(17)",
                                   "decimal(17,1)", "time(6)", "time(3)", "time(6)", "time(4)"]


def test_a_time_read_as_a_date_is_today_at_that_time(session: SqliteSession) -> None:
    # MariaDB 10.11 (mtr temporal_literal): TIME to DATETIME is the current date at the time
    session.context.variables["timestamp"] = 981195630.0  # type: ignore[attr-defined]
    got = rows(session.execute(
        "SELECT TO_DAYS(TIME'00:00:00'), WEEKDAY(TIME'00:00:00'), "
        "TIMESTAMP(TIME'10:00:00'), CAST(TIME'25:00:00' AS DATE), "
        "CONVERT_TZ(TIME'00:00:00', '+00:00', '+01:00')"))
    assert [str(v) for v in got[0]] == ["730884", "5", "2001-02-03 10:00:00", "2001-02-04",
                                        "2001-02-03 01:00:00"]


def test_zero_parts_in_literals(session: SqliteSession) -> None:
    # MariaDB (mtr temporal_literal): a zero month or day makes the column nullable; under
    # NO_ZERO_IN_DATE the literal, evaluated, is NULL with 1292
    session.execute("CREATE TABLE t1 AS SELECT DATE'2001-00-00' a, DATE'0000-01-01' b, "
                    "CAST(DATE'2001-00-00' AS CHAR) c")
    got = rows(session.execute("SELECT COLUMN_TYPE, IS_NULLABLE FROM "
                               "information_schema.COLUMNS WHERE TABLE_NAME = 't1' "
                               "ORDER BY ORDINAL_POSITION"))
    assert got == [("date", "YES"), ("date", "NO"), ("varchar(10)", "YES")]
    prepared = session.scan("SELECT CAST(DATE'2001-00-00' AS SIGNED)")  # read as PREPARE
    session.context.variables["sql_mode"] = "NO_ZERO_IN_DATE"  # type: ignore[attr-defined]
    assert rows(session.execute(prepared)) == [(None,)]
    assert [w.message for w in session.warnings] == ["Incorrect datetime value: '2001-00-00'"]


def test_time_plus_interval_is_a_time(session: SqliteSession) -> None:
    # MariaDB 10.11: TIME arithmetic by days and less, NULL with 1441 past TIME's range
    got = rows(session.execute(
        "SELECT DATE_ADD(TIME'00:00:00', INTERVAL 1 DAY), TIME'10:00:00.5' + INTERVAL 1 SECOND, "
        "TIME'10:00:00' - INTERVAL 1 MINUTE, DATE_ADD(TIME'838:00:00', INTERVAL 1 DAY)"))
    assert [str(v) for v in got[0]] == ["24:00:00", "10:00:01.5", "09:59:00", "None"]
    assert [w.code for w in session.warnings] == [1441]


def test_escape_by_a_temporal_literal_is_1210(session: SqliteSession) -> None:
    fails(session, "SELECT 'a' LIKE 'a' ESCAPE DATE'2001-01-01'", 1210, "HY000")


def test_sql_mode_when_read_decides_zero_dates(session: SqliteSession) -> None:
    # MariaDB (mtr temporal_literal): under NO_ZERO_IN_DATE / NO_ZERO_DATE the parser refuses
    # DATE'2001-00-00' / DATE'0000-00-00' (1525); the zero date stays fine under the first
    session.context.variables["sql_mode"] = "NO_ZERO_IN_DATE"  # type: ignore[attr-defined]
    fails(session, "SELECT DATE'2001-00-00'", 1525, "HY000")
    assert str(rows(session.execute("SELECT DATE'0000-00-00'"))[0][0]) == "0000-00-00"
    session.context.variables["sql_mode"] = "NO_ZERO_DATE"  # type: ignore[attr-defined]
    fails(session, "SELECT DATE'0000-00-00'", 1525, "HY000")


def test_create_select_extract_types(session: SqliteSession) -> None:
    # MariaDB 10.11 (mtr func_extract): INT / BIGINT by the unit's digits and a sign, a day of
    # 2 digits from a temporal, 7 from a number or string
    session.execute("CREATE TABLE t0 (t TIME, v VARCHAR(20), d DATETIME)")
    session.execute("CREATE TABLE t2 SELECT EXTRACT(DAY FROM t) a, "
                    "EXTRACT(DAY_MICROSECOND FROM t) b, EXTRACT(DAY FROM v) c, "
                    "EXTRACT(DAY_MINUTE FROM v) e, EXTRACT(YEAR FROM d) f FROM t0")
    got = rows(session.execute("SELECT COLUMN_TYPE FROM information_schema.COLUMNS "
                               "WHERE TABLE_NAME = 't2' ORDER BY ORDINAL_POSITION"))
    assert [r[0] for r in got] == ["int(3)", "bigint(15)", "int(8)", "bigint(12)", "int(5)"]


def test_temporal_arithmetic_columns_in_create_select(session: SqliteSession) -> None:
    """A DATE / TIME / DATETIME / YEAR in + - * is its number (YYYYMMDD, HHMMSS...), typed
    by that number's digits (measured on MariaDB 10.11.19, mtr type_time MDEV-4859)."""
    session.execute("CREATE TABLE t1 (d DATE, t TIME, dt DATETIME, t3 TIME(3), y YEAR)")
    session.execute("CREATE TABLE t2 AS SELECT MAX(t)+1 a, d+1 b, dt+1 c, t3+1 e, y+1 f, "
                    "t*2 g, t+1.5 h FROM t1")
    got = rows(session.execute("SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE "
                               "TABLE_NAME = 't2' ORDER BY ORDINAL_POSITION"))
    assert [r[0] for r in got] == ["int(9)", "bigint(10)", "bigint(16)", "decimal(11,3)",
                                   "int(5) unsigned", "int(9)", "decimal(9,1)"]
