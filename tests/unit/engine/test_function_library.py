"""The function library (engine/sqlite/funclib.py and functions_*.py): MariaDB's built-in
functions with MariaDB's answers (each expected value measured on MariaDB 10.11.19 with the
mariadb-test client, latin1 connection, default sql_mode)."""

from __future__ import annotations

from typing import Any

import pytest

from rampmeter import errors
from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows, scalar


def shown(v: Any) -> str:
    """A value as the text protocol shows it."""
    if v is None:
        return "NULL"
    if isinstance(v, bytes):
        return v.decode("latin-1")
    return str(v)


@pytest.mark.parametrize(("expr", "expected"), [
    # dates
    ("YEAR('2000-01-02')", "2000"), ("MONTH(20000102)", "1"), ("DAYOFMONTH('2000-1-2')", "2"),
    ("TO_DAYS('1996-01-01')", "729024"), ("FROM_DAYS(729024)", "1996-01-01"),
    ("TO_DAYS(960201) - TO_DAYS('19960101')", "31"), ("WEEKDAY('1997-11-29')", "5"),
    ("DAYOFWEEK('1997-11-29')", "7"), ("DAYOFYEAR('2000-12-31')", "366"),
    ("WEEK('2000-01-01')", "0"), ("WEEK('2000-01-01', 1)", "0"),
    ("YEARWEEK('2000-01-01')", "199952"), ("WEEKOFYEAR('2000-01-01')", "52"),
    ("LAST_DAY('2000-02-10')", "2000-02-29"), ("MAKEDATE(2000, 60)", "2000-02-29"),
    ("DATEDIFF('2000-03-01', '2000-02-01')", "29"), ("QUARTER('2000-05-01')", "2"),
    ("DATE_ADD('2000-01-31', INTERVAL 1 MONTH)", "2000-02-29"),
    ("DATE_ADD('2000-01-01 10:00:00', INTERVAL '1:30' HOUR_MINUTE)", "2000-01-01 11:30:00"),
    ("DATE_SUB('2000-03-01', INTERVAL 1 DAY)", "2000-02-29"),
    ("ADDDATE('2000-01-01', 31)", "2000-02-01"),
    ("TIMESTAMPDIFF(MONTH, '2000-01-31', '2000-02-29')", "0"),
    ("TIMESTAMPADD(HOUR, 2, '2000-01-01')", "2000-01-01 02:00:00"),
    ("DATE_FORMAT('1997-10-04 22:23:00', '%W %M %Y')", "Saturday October 1997"),
    ("DATE_FORMAT('1997-10-04 22:23:00', '%H:%i:%s %D %j %U %u %V %v %X %x')",
     "22:23:00 4th 277 39 40 39 40 1997 1997"),
    ("STR_TO_DATE('04/10/1997', '%d/%m/%Y')", "1997-10-04"),
    ("EXTRACT(YEAR_MONTH FROM '1999-01-02 10:11:12')", "199901"),
    ("EXTRACT(DAY_SECOND FROM '1999-01-02 10:11:12')", "2101112"),
    ("TIME_TO_SEC('01:00:01')", "3601"), ("SEC_TO_TIME(3601)", "01:00:01"),
    ("TIMEDIFF('2000-01-02 00:00:00', '2000-01-01 23:00:00')", "01:00:00"),
    ("PERIOD_ADD(200801, 2)", "200803"), ("PERIOD_DIFF(200802, 200703)", "11"),
    # strings
    ("LPAD('a', 3, 'x')", "xxa"), ("RPAD('abc', 2, 'x')", "ab"), ("STRCMP('a', 'B')", "-1"),
    ("STRCMP('a', 'A')", "0"), ("REPEAT('ab', 3)", "ababab"), ("LEFT('abc', 2)", "ab"),
    ("RIGHT('abc', 2)", "bc"), ("SUBSTRING_INDEX('a,b,c', ',', -2)", "b,c"),
    ("LOCATE('B', 'abc')", "2"), ("INSTR('abc', 'c')", "3"), ("FIELD('b', 'a', 'b')", "2"),
    ("FIND_IN_SET('b', 'a,b,c')", "2"), ("ELT(2, 'x', 'y')", "y"),
    ("MAKE_SET(5, 'a', 'b', 'c')", "a,c"), ("EXPORT_SET(5, 'Y', 'N', ',', 4)", "Y,N,Y,N"),
    ("CONV('a', 16, 2)", "1010"), ("BIN(12)", "1100"), ("OCT(12)", "14"),
    ("TRIM(LEADING 'x' FROM 'xxabc')", "abc"), ("SUBSTRING('abcdef', -3, 2)", "de"),
    ("SUBSTRING('abc', 0)", ""), ("MID('abcdef', 2, 3)", "bcd"),
    ("FORMAT(12345.678, 2)", "12,345.68"), ("QUOTE(\"a'b\")", "'a\\'b'"),
    ("SOUNDEX('Hello')", "H400"), ("INSERT('abc', 2, 1, 'XY')", "aXYc"),
    ("'abc' REGEXP 'B'", "1"), ("REGEXP_REPLACE('abc', 'b', 'X')", "aXc"),
    ("REGEXP_SUBSTR('abc123', '[0-9]+')", "123"), ("COALESCE(1)", "1"),
    ("SHA2('a', 256)", "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"),
    ("CRC32('a')", "3904355907"), ("TO_BASE64('abc')", "YWJj"),
    ("PASSWORD('a')", "*667F407DE7C6AD07358FA38DAED7828A72014B4E"),
    # numbers
    ("RAND(1)", "0.40540353712197724"), ("TRUNCATE(1.5555, 2)", "1.55"),
    ("ROUND(1.5, 3)", "1.500"), ("ROUND(2.5e0)", "2.0"), ("ROUND(2.5)", "3"),
    ("ROUND(15, -1)", "20"), ("BIT_COUNT(7)", "3"), ("INTERVAL(5, 1, 3, 7)", "2"),
    ("CAST(2.5 AS SIGNED)", "3"), ("CAST(2.5e0 AS SIGNED)", "2"), ("CAST(-2.5 AS SIGNED)", "-3"),
    ("INET_ATON('127.0.0.1')", "2130706433"), ("INET_NTOA(2130706433)", "127.0.0.1"),
    # comparisons as MariaDB makes them
    ("'a' = 'A'", "1"), ("'a ' = 'a'", "1"), ("0E0 <=> '0'", "1"), ("1 = '1'", "1"),
    ("'AB%' LIKE 'a_\\\\%'", "1"),
])
def test_function_values(session: SqliteSession, expr: str, expected: str) -> None:
    assert shown(scalar(session, f"SELECT {expr}")) == expected


def test_seeded_rand_is_mariadbs_sequence_per_call(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a INT)")
    session.execute("INSERT INTO t VALUES (1), (2), (3)")
    got = [r[0] for r in rows(session.execute("SELECT RAND(5) FROM t"))]
    assert got == [0.40613597483014313, 0.8745439358749836, 0.15431178561813363]
    assert rows(session.execute("SELECT RAND(1), RAND(1)")) == [(0.40540353712197724,) * 2]


def test_aggregates(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a INT)")
    session.execute("INSERT INTO t VALUES (1), (2), (3), (4)")
    got = rows(session.execute("SELECT STD(a), VARIANCE(a), STDDEV_SAMP(a), VAR_SAMP(a), "
                               "BIT_AND(a), BIT_OR(a), BIT_XOR(a) FROM t"))
    assert [shown(v) for v in got[0]] == ["1.1180", "1.2500", "1.2910", "1.6667", "0", "7", "4"]


def test_wrong_argument_count_is_1582(session: SqliteSession) -> None:
    fails(session, "SELECT LPAD('a')", errors.ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT)


def test_a_bad_date_is_null_with_1292(session: SqliteSession) -> None:
    assert scalar(session, "SELECT TO_DAYS('xyz')") is None
    assert [w.code for w in session.warnings] == [1292]


def test_sformat_past_max_allowed_packet_is_null(session: SqliteSession) -> None:
    # MDEV-40411, measured on MariaDB 10.11 with max_allowed_packet=524288 (func_sformat)
    session.context.variables["max_allowed_packet"] = 1024  # type: ignore[attr-defined]
    got = rows(session.execute("SELECT LENGTH(SFORMAT('{:1024}', 1)), "
                               "LENGTH(SFORMAT('{:1025}', 1)), LENGTH(SFORMAT('{:1023}.', 1)), "
                               "LENGTH(SFORMAT('{:1023}..', 1)), SFORMAT('{:2147483647}', 1)"))
    assert got == [(1024, None, 1024, None, None)]
    assert session.warnings == []


def test_more_arguments_than_sqlite_takes_is_1235(session: SqliteSession) -> None:
    # MariaDB takes any number; SQLite stops at 127 (docs/sql.md): a clear error, not 1105
    args = ", ".join(["0"] * 130)
    fails(session, f"SELECT SFORMAT('{{}}', {args})", errors.ER_NOT_SUPPORTED_YET)


def test_concat_of_binary_strings_is_binary(session: SqliteSession) -> None:
    # bytes that are not UTF-8 (mtr ctype_ujis_ucs2): MariaDB's CONCAT of binary is binary
    session.execute("CREATE TABLE t2 (code BINARY(1))")
    session.execute("INSERT INTO t2 VALUES (0xA1), (0xFE)")
    got = rows(session.execute("SELECT HEX(CONCAT(a.code, b.code)) FROM t2 a, t2 b ORDER BY 1"))
    assert got == [("A1A1",), ("A1FE",), ("FEA1",), ("FEFE",)]
    assert rows(session.execute("SELECT CONCAT(code, code) = 0xA1A1 FROM t2 ORDER BY code")) \
        == [(1,), (0,)]
    session.execute("CREATE TABLE t3 (b VARBINARY(4))")
    session.execute("INSERT INTO t3 SELECT CONCAT(a.code, b.code) FROM t2 a, t2 b")
    assert rows(session.execute("SELECT HEX(b) FROM t3 ORDER BY b")) == \
        [("A1A1",), ("A1FE",), ("FEA1",), ("FEFE",)]


@pytest.mark.parametrize(("value", "expected"), [
    # EXTRACT(DAY / HOUR / ...) reads an interval DAY TO SECOND whose hours past 24 are days,
    # or a date-time (MariaDB 10.11, MDEV-17776); columns DAY, HOUR, MINUTE, DAY_SECOND,
    # HOUR_MICROSECOND
    ("'100:00:00'", "4 4 0 4040000 40000000000"),
    ("'-3 10:00:00.5'", "-3 -10 0 -3100000 -100000500000"),
    ("'100000:02:03'", "4166 16 2 4166160203 160203000000"),
    ("'2020-01-02 03:04:05'", "2 3 4 2030405 30405000000"),
    ("'20200102'", "2 4 1 2000000 40102000000"),  # DAY reads a date, HOUR a time
    ("'8385959'", "NULL 22 59 NULL 225959000000"),
    ("'12'", "NULL 0 0 NULL 12000000"),
    ("'1.5'", "0 0 0 1 1500000"),
    ("'87649416:00:00'", "NULL NULL NULL NULL NULL"),  # past 87649415 hours
    ("'10:61:00'", "NULL NULL NULL NULL NULL"),
    ("8385959", "34 22 59 34225959 225959000000"),
    ("876494155959", "3652058 23 59 3652058235959 235959000000"),
    ("20200102030405", "2 3 4 2030405 30405000000"),
])
def test_extract_reads_an_interval(session: SqliteSession, value: str, expected: str) -> None:
    units = ("DAY", "HOUR", "MINUTE", "DAY_SECOND", "HOUR_MICROSECOND")
    got = rows(session.execute("SELECT " + ", ".join(f"EXTRACT({u} FROM {value})"
                                                      for u in units)))[0]
    assert " ".join(shown(v) for v in got) == expected
    if "NULL" in expected:
        assert {w.message.split(":")[0] for w in session.warnings} == {
            "Incorrect interval value"}


def test_extract_of_a_cut_interval_warns(session: SqliteSession) -> None:
    assert scalar(session, "SELECT EXTRACT(HOUR FROM '10:00:00 abc')") == 10
    assert [w.message for w in session.warnings] == ["Incorrect time value: '10:00:00 abc'"]


def test_cast_as_interval_day_second(session: SqliteSession) -> None:
    """CAST(x AS INTERVAL DAY_SECOND(n)) (MDEV-17776), measured on MariaDB 10.11."""
    got = rows(session.execute(
        "SELECT CAST('1 10:00:00' AS INTERVAL DAY_SECOND(6)), CAST(1.5 AS INTERVAL "
        "DAY_SECOND(2)), CAST(-100.5 AS INTERVAL DAY_SECOND(1)), CAST('100:00:00.99' AS "
        "INTERVAL DAY_SECOND(1)), CAST('20200102' AS INTERVAL DAY_SECOND(0)), "
        "CAST('876494155959' AS INTERVAL DAY_SECOND(0)), CAST(NULL AS INTERVAL DAY_SECOND(0))"))
    assert got == [("1 10:00:00.000000", "00:00:01.50", "-00:01:00.5", "4 04:00:00.9",
                    "84 04:01:02", "3652058 23:59:59", None)]
    assert not session.warnings
    got = rows(session.execute(
        "SELECT CAST('2020-01-02' AS INTERVAL DAY_SECOND(0)), CAST('87649416:00:00' AS "
        "INTERVAL DAY_SECOND(0)), CAST('10:00:00 abc' AS INTERVAL DAY_SECOND(0)), "
        "CAST(1.0000001 AS INTERVAL DAY_SECOND(6))"))
    assert got == [(None, None, "10:00:00", "00:00:01.000000")]
    assert [(w.level, w.message) for w in session.warnings] == [
        ("Warning", "Incorrect INTERVAL DAY TO SECOND value: '2020-01-02'"),
        ("Warning", "Incorrect INTERVAL DAY TO SECOND value: '87649416:00:00'"),
        ("Warning", "Truncated incorrect INTERVAL DAY TO SECOND value: '10:00:00 abc'"),
        ("Note", "Truncated incorrect INTERVAL DAY TO SECOND value: '1.0000001'")]
    fails(session, "SELECT CAST('1' AS INTERVAL DAY_SECOND)", errors.ER_PARSE_ERROR)
    fails(session, "SELECT CAST('1' AS INTERVAL HOUR_SECOND(1))", 4161)
    fails(session, "SELECT CAST(a AS INTERVAL DAY_SECOND(7)) FROM (SELECT 1 a) t", 1426)


def test_weight_string_level_lists(session: SqliteSession) -> None:
    """LEVEL n, m, ... and LEVEL n-m: these collations have one level, so the first level's
    flags apply (MariaDB 10.11, mtr include/weight_string_l12.inc)."""
    got = rows(session.execute(
        "SELECT HEX(WEIGHT_STRING('a' LEVEL 1,2)), HEX(WEIGHT_STRING('A' LEVEL 1-2)), "
        "HEX(WEIGHT_STRING('ab' LEVEL 1 DESC, 2)), HEX(WEIGHT_STRING('ab' LEVEL 1, 2 DESC))"))
    assert got == [("0041", "0041", "FFBEFFBD", "00410042")]
