"""EXTRACT of a column whose value is no interval: MariaDB's 1292 names the column and the row
("... for column `db`.`t1`.`a` at row 9"), a DECIMAL's value quoted with the column's scale
(measured on MariaDB 10.11.19, mtr type_interval)."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows

pytestmark = pytest.mark.timeout(30)


def test_extract_of_a_column_names_it_and_the_row(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (a VARCHAR(128))")
    session.execute("INSERT INTO t1 VALUES ('00:00:01'), ('87649416:00:00'), ('1 10:00:00')")
    result = session.execute("SELECT EXTRACT(DAY FROM a), EXTRACT(HOUR FROM a) FROM t1")
    assert rows(result) == [(0, 0), (None, None), (1, 10)]
    message = "Incorrect interval value: '87649416:00:00' for column `db`.`t1`.`a` at row 2"
    assert [w.message for w in result.warnings] == [message, message]
    # a value that is no column keeps the plain message
    result = session.execute("SELECT EXTRACT(DAY FROM '87649416:00:00')")
    assert [w.message for w in result.warnings] == [
        "Incorrect interval value: '87649416:00:00'"]


def test_a_decimal_column_is_quoted_with_its_scale(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (a DECIMAL(32,9))")
    session.execute("INSERT INTO t1 VALUES (1), (876494160000)")
    result = session.execute("SELECT EXTRACT(DAY FROM a) FROM t1")
    assert rows(result) == [(0,), (None,)]
    assert [w.message for w in result.warnings] == [
        "Incorrect interval value: '876494160000.000000000' for column `db`.`t1`.`a` at row 2"]


def test_date_functions_name_a_text_column_and_keep_quiet_on_a_date(
        session: SqliteSession) -> None:
    """func_time: a CHAR column's zero date is 1292 naming it; a DATE / DATETIME /
    TIMESTAMP column's zero date is NULL without a warning (MariaDB reads it by its type)."""
    session.execute("CREATE TABLE t1 (d DATE, dt DATETIME, t TIMESTAMP, c CHAR(10))")
    session.execute("INSERT INTO t1 VALUES ('0000-00-00', '0000-00-00', '0000-00-00', "
                    "'0000-00-00')")
    result = session.execute("SELECT DAYOFYEAR('0000-00-00'), DAYOFYEAR(d), DAYOFYEAR(dt), "
                             "DAYOFYEAR(t), DAYOFYEAR(c), WEEK(c), YEAR(d) FROM t1")
    assert rows(result) == [(None, None, None, None, None, None, 0)]
    column = "Incorrect datetime value: '0000-00-00' for column `db`.`t1`.`c` at row 1"
    assert [w.message for w in result.warnings] == [
        "Incorrect datetime value: '0000-00-00'", column, column]


def test_maketime_of_text_reads_its_leading_number(session: SqliteSession) -> None:
    """MAKETIME's seconds that are no number: 'x' is 0 with MariaDB's 1292 (was 1105)."""
    result = session.execute("SELECT MAKETIME(1, 1, 'x'), MAKETIME(1, 1, '2001-01-01 10:00')")
    assert rows(result) == [("01:01:00.000000", None)]  # a string's seconds: 6 digits (10.11)
    assert [w.message for w in result.warnings] == ["Truncated incorrect DECIMAL value: 'x'"]


def test_an_interval_of_a_shift(session: SqliteSession) -> None:
    """INTERVAL 1<<37 SECOND: MariaDB's grammar takes a bit expression before the unit."""
    result = session.execute("SELECT '1900-01-01 00:00:00' + INTERVAL 1<<37 SECOND, "
                             "'1900-01-01 00:00:00' + INTERVAL 1<<38 SECOND")
    assert rows(result) == [("6255-04-08 15:04:32", None)]
    assert [w.code for w in result.warnings] == [1441]


def test_extract_of_a_time_has_no_year(session: SqliteSession) -> None:
    """EXTRACT(YEAR / MONTH / QUARTER / YEAR_MONTH FROM a TIME) is 0 and WEEK MariaDB's
    613566757 (its calc_week of the zero date), without a warning (mtr func_time)."""
    session.execute("CREATE TABLE t1 (a TIME(6))")
    session.execute("INSERT INTO t1 VALUES ('-838:59:59.999999')")
    result = session.execute("SELECT EXTRACT(YEAR FROM a), EXTRACT(QUARTER FROM a), "
                             "EXTRACT(WEEK FROM a), EXTRACT(DAY FROM a), "
                             "EXTRACT(YEAR_MONTH FROM TIME'10:00:00') FROM t1")
    assert rows(result) == [(0, 0, 613566757, -34, 0)]
    assert result.warnings == []


@pytest.mark.parametrize(("call", "name"), [
    ("FROM_DAYS(ROW(1,1))", "from_days"), ("MAKETIME(1, 1, ROW(1,1))", "maketime"),
    ("CONVERT_TZ(1, ROW(1,1), 1)", "convert_tz"), ("LAST_DAY(ROW(1,1))", "last_day"),
    ("DATE_FORMAT('2001-01-01', ROW(1,1))", "date_format"), ("TIMEDIFF(1, ROW(1,1))",
                                                            "timediff")])
def test_a_row_into_a_date_function_is_4079(session: SqliteSession, call: str,
                                            name: str) -> None:
    err = fails(session, f"SELECT {call}", 4079, "HY000")
    assert err.message == f"Illegal parameter data type row for operation '{name}'"


def test_sec_to_time_past_its_range_says_seconds(session: SqliteSession) -> None:
    """MariaDB's 1292 for SEC_TO_TIME past 838:59:59 quotes the seconds as it read them."""
    result = session.execute("SELECT SEC_TO_TIME('1234567890123.123'), "
                             "SEC_TO_TIME(1234567890123e30), SEC_TO_TIME(3300000)")
    assert rows(result) == [("838:59:59.999999", "838:59:59.999999", "838:59:59")]
    assert [w.message for w in result.warnings] == [
        f"Truncated incorrect seconds value: '{v}'"
        for v in ("1234567890123.123000", "1.234567890123e42", "3300000")]
