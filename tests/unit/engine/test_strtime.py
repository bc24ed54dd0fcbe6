"""MariaDB's reading of strings as dates, date-times and times (engine/strtime.py), and what
CAST and a column store make of what it left out. Expected values measured on MariaDB
10.11.19 (mtr str_to_datetime_457, temporal_literal)."""

from __future__ import annotations

import pytest

from rampmeter.engine import strtime
from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows


@pytest.mark.parametrize(("text", "kind", "fields", "warnings"), [
    ("2012103123595912", "datetime", (2012, 10, 31, 23, 59, 59, 0), strtime.TRUNCATED),
    ("2002.011.012", "date", (2002, 11, 12, 0, 0, 0, 0), 0),
    ("12:00:00.12.34.56", "datetime", (2012, 0, 0, 12, 34, 56, 0), 0),
    ("2001-01-01x", "date", (2001, 1, 1, 0, 0, 0, 0), strtime.TRUNCATED),
    ("2001-01-01 00:00:00.1234567", "datetime", (2001, 1, 1, 0, 0, 0, 123456),
     strtime.NOTE_TRUNCATED),
    ("010101", "date", (2001, 1, 1, 0, 0, 0, 0), 0),
    ("0", "none", (0, 0, 0, 0, 0, 0, 0), strtime.TRUNCATED),
    ("2001-02-29", "error", (0, 0, 0, 0, 0, 0, 0), 0),
])
def test_str_to_datetime(text: str, kind: str, fields: tuple[int, ...], warnings: int) -> None:
    r = strtime.str_to_datetime(text)
    assert (r.kind, (r.year, r.month, r.day, r.hour, r.minute, r.second, r.micro),
            r.warnings) == (kind, fields, warnings)


@pytest.mark.parametrize(("text", "kind", "hms", "warnings"), [
    ("01:02:03    ", "time", (1, 2, 3, 0), 0),
    ("12:00:00.12.34.56", "time", (12, 0, 0, 120000), strtime.TRUNCATED),
    ("12:00:00 12.34.56", "datetime", (12, 34, 56, 0), 0),
    ("12:00:00-12.34.56", "time", (12, 0, 0, 0), strtime.TRUNCATED),
    ("10 10", "time", (250, 0, 0, 0), 0), ("2001-01-01", "time", (0, 20, 1, 0), 1),
    ("900:00:00", "time", (838, 59, 59, 999999), strtime.OUT_OF_RANGE),
    ("10:70:00", "error", (0, 0, 0, 0), strtime.TRUNCATED),
    ("abc", "none", (0, 0, 0, 0), strtime.TRUNCATED),
])
def test_str_to_time(text: str, kind: str, hms: tuple[int, ...], warnings: int) -> None:
    r = strtime.str_to_time(text)
    assert (r.kind, (r.hour, r.minute, r.second, r.micro), r.warnings) == \
        (kind, hms, warnings)


def test_cast_keeps_a_value_with_text_after_it(session: SqliteSession) -> None:
    got = rows(session.execute(
        "SELECT CAST('2012103123595912' AS DATETIME(6)), CAST('2001-01-01x' AS DATE), "
        "CAST('12:00:00-12.34.56' AS TIME), CAST('10:00:00.1234567' AS TIME(6)), "
        "CAST('abc' AS TIME)"))
    assert [None if v is None else str(v) for v in got[0]] == [
        "2012-10-31 23:59:59.000000", "2001-01-01", "12:00:00", "10:00:00.123456", None]
    assert [(w.level, w.message) for w in session.warnings] == [
        ("Warning", "Truncated incorrect datetime value: '2012103123595912'"),
        ("Warning", "Truncated incorrect date value: '2001-01-01x'"),
        ("Warning", "Truncated incorrect time value: '12:00:00-12.34.56'"),
        ("Note", "Truncated incorrect time value: '10:00:00.1234567'"),
        ("Warning", "Incorrect time value: 'abc'")]


def test_a_store_keeps_it_with_1265(session: SqliteSession) -> None:
    session.context.variables["sql_mode"] = ""  # type: ignore[attr-defined]
    session.execute("CREATE TABLE td (a DATETIME(6), b DATE, c TIME(6))")
    result = session.execute("INSERT INTO td VALUES ('2012103123595912', '2001-01-01x', "
                             "'10:00:00.1234567')")
    assert [(w.level, w.code) for w in result.warnings] == [
        ("Warning", 1265), ("Warning", 1265), ("Note", 1265)]
    assert [str(v) for v in rows(session.execute("SELECT * FROM td"))[0]] == [
        "2012-10-31 23:59:59.000000", "2001-01-01", "10:00:00.123456"]


@pytest.mark.parametrize(("expr", "value", "warning"), [
    # MariaDB 10.11: a date function reads its string as str_to_datetime does
    ("YEAR('2001-01-01x')", "2001", ("Warning", "Truncated incorrect date value: '2001-01-01x'")),
    ("DAYOFMONTH('2001-01-01 10:00:00.1234567')", "1",
     ("Note", "Truncated incorrect datetime value: '2001-01-01 10:00:00.1234567'")),
    ("TIME('10:10:10.123456xyz')", "10:10:10.123456",
     ("Warning", "Truncated incorrect time value: '10:10:10.123456xyz'")),
    ("TIME('900:00:00')", "838:59:59", ("Warning", "Truncated incorrect time value: '900:00:00'")),
    ("DATE('2001x01x01')", "None", ("Warning", "Incorrect datetime value: '2001x01x01'")),
    ("DATE('12:00:00.12.34.56')", "2012-00-00", None),
])
def test_date_functions_read_strings_so(session: SqliteSession, expr: str, value: str,
                                        warning: tuple[str, str] | None) -> None:
    assert str(rows(session.execute(f"SELECT {expr}"))[0][0]) == value
    assert [(w.level, w.message) for w in session.warnings] == ([warning] if warning else [])


def test_times_are_put_in_order_as_durations(session: SqliteSession) -> None:
    # MariaDB (mtr type_time): '100:55:50' is after '24:00:00', '-00:20:03' before '-00:20:01'
    got = rows(session.execute(
        "SELECT CAST('100:55:50' AS TIME) < CAST('24:00:00' AS TIME), "
        "CAST('-00:20:03' AS TIME) < CAST('-00:20:01' AS TIME), "
        "CAST('100:00:00' AS TIME) BETWEEN CAST('20:00:00' AS TIME) AND '150:00:00'"))
    assert got == [(0, 1, 1)]


@pytest.mark.parametrize(("number", "fields"), [
    (101, (2000, 1, 1, 0, 0, 0)), (691231, (2069, 12, 31, 0, 0, 0)),
    (700101, (1970, 1, 1, 0, 0, 0)), (10000101, (1000, 1, 1, 0, 0, 0)),
    (101000000, (2000, 1, 1, 0, 0, 0)), (991231235959, (1999, 12, 31, 23, 59, 59)),
    (20030100000000, (2003, 1, 0, 0, 0, 0)),
])
def test_number_to_datetime(number: int, fields: tuple[int, ...]) -> None:
    r = strtime.number_to_datetime(number)
    assert r.ok and (r.year, r.month, r.day, r.hour, r.minute, r.second) == fields


def test_numbers_into_dates(session: SqliteSession) -> None:
    # MariaDB 10.11 (mtr type_datetime): a number is [YY]YYMMDD[hhmmss]; a date's fraction is
    # dropped with a Note naming the date
    got = rows(session.execute("SELECT CAST(101 AS DATE), CAST(20010101.5 AS DATETIME(1)), "
                               "CAST(991231235959.5 AS DATETIME(1)), CAST(1 AS DATE)"))
    assert [str(v) for v in got[0]] == ["2000-01-01", "2001-01-01 00:00:00.0",
                                        "1999-12-31 23:59:59.5", "None"]
    assert [(w.level, w.message) for w in session.warnings] == [
        ("Note", "Truncated incorrect date value: '20010101.5'"),
        ("Warning", "Incorrect datetime value: '1'")]


def test_date_functions_read_numbers_so(session: SqliteSession) -> None:
    # MariaDB 10.11 (mtr type_date): YEAR(1111) reads 1111 as 2000-11-11
    got = rows(session.execute("SELECT YEAR(1111), MONTH(1111), TO_DAYS(20010101), "
                               "DAYOFMONTH(991231235959), YEAR(101)"))
    assert got == [(2000, 11, 730851, 31, 2000)]
    assert session.warnings == []
