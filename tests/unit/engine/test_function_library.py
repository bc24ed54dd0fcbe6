"""The function library (engine/sqlite/funclib.py and functions_*.py): MariaDB's built-in
functions with MariaDB's answers (each expected value measured on MariaDB 10.11.19 with the
mariadb-test client, latin1 connection, default sql_mode)."""

from __future__ import annotations

from typing import Any

import pytest

from rampmeter import errors
from rampmeter.engine.base import UpdateCount
from rampmeter.engine.sqlite import SqliteSession

from .conftest import FakeContext, fails, rows, scalar


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
    ("OLD_PASSWORD('abc')", "7cd2b5942be28759"), ("OLD_PASSWORD('idk fa')", "5c078dc54ca0fcca"),
    ("OLD_PASSWORD('')", ""), ("OLD_PASSWORD(NULL)", "NULL"),
    # numbers
    ("RAND(1)", "0.40540353712197724"), ("TRUNCATE(1.5555, 2)", "1.55"),
    ("ROUND(1.5, 3)", "1.500"), ("ROUND(2.5e0)", "2"), ("ROUND(1e0 / 3, 5)", "0.33333"),
    ("TRUNCATE(-0.001e0, 2)", "0.00"), ("ROUND(2.5)", "3"),
    ("ROUND(15, -1)", "20"), ("BIT_COUNT(7)", "3"), ("INTERVAL(5, 1, 3, 7)", "2"),
    ("CAST(2.5 AS SIGNED)", "3"), ("CAST(2.5e0 AS SIGNED)", "2"), ("CAST(-2.5 AS SIGNED)", "-3"),
    ("INET_ATON('127.0.0.1')", "2130706433"), ("INET_NTOA(2130706433)", "127.0.0.1"),
    # comparisons as MariaDB makes them
    ("'a' = 'A'", "1"), ("'a ' = 'a'", "1"), ("0E0 <=> '0'", "1"), ("1 = '1'", "1"),
    ("'AB%' LIKE 'a_\\\\%'", "1"),
    # MOD keeps a DECIMAL's or DOUBLE's fraction, with the dividend's sign
    ("1197.90 MOD 50", "47.90"), ("MOD(-7.5, 2)", "-1.5"), ("7 % -2.5", "2.0"),
    ("'7.5' MOD 2", "1.5"), ("-7 MOD 2", "-1"), ("0x10 MOD 3", "1"), ("10 MOD 0.0", "NULL"),
    # a temporal operand of MOD / DIV is its number (temporal_scale_4283)
    ("CAST('2001-03-21 01:00:00' AS DATETIME) MOD 7", "6"),
    ("CAST('10:11:12' AS TIME) DIV 100", "1011"),
    ("100 MOD CAST('2002-05-27' AS DATE)", "100"),
])
def test_function_values(session: SqliteSession, expr: str, expected: str) -> None:
    assert shown(scalar(session, f"SELECT {expr}")) == expected


def test_decimal_arithmetic_stored_without_a_note(session: SqliteSession) -> None:
    """900 * 1.10 is 990.00 exactly in MariaDB: stored into DECIMAL(6,2) with no note 1265
    (ps_10nestset), although SQLite computes it as the double 990.0000000000001."""
    session.execute("CREATE TABLE pay (id INT PRIMARY KEY, salary DECIMAL(6,2), n INT)")
    session.execute("INSERT INTO pay VALUES (1, 900, 0), (2, 800, 0)")
    result = session.execute("UPDATE pay SET salary = salary * (1 + .10), n = 1.15 * 1")
    assert isinstance(result, UpdateCount) and result.warnings == []
    session.execute("INSERT INTO pay VALUES (3, 0.1 * 3, 2.5 * 1.1)")
    assert [(shown(a), shown(b)) for a, b in rows(session.execute(
        "SELECT salary, n FROM pay ORDER BY id"))] == [
        ("990.00", "1"), ("880.00", "1"), ("0.30", "3")]


def test_library_aggregates_serve_as_window_functions(session: SqliteSession) -> None:
    """BIT_OR / BIT_AND / BIT_XOR / STD OVER (...), with sliding frames (mtr win_bit)."""
    session.execute("CREATE TABLE wb (pk INT PRIMARY KEY, b INT)")
    session.execute("INSERT INTO wb VALUES (1, 1), (2, 2), (3, 4), (4, 8)")
    got = rows(session.execute(
        "SELECT pk, BIT_OR(b) OVER (ORDER BY pk), BIT_AND(b) OVER (ORDER BY pk), "
        "BIT_XOR(b) OVER (ORDER BY pk ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM wb "
        "ORDER BY pk"))
    assert [tuple(int(v) for v in r) for r in got] == [
        (1, 1, 1, 3), (2, 3, 0, 7), (3, 7, 0, 14), (4, 15, 0, 12)]


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


def test_a_time_past_its_range_is_its_end_with_1292(session: SqliteSession) -> None:
    # MariaDB (mtr type_time): the end of TIME's range, "Truncated incorrect time value"
    got = rows(session.execute("SELECT CAST(-9223372036854775808 AS TIME), "
                               "CAST(18446744073709551615 AS TIME), CAST('839:00:00' AS TIME), "
                               "CAST(8390000.5 AS TIME(1)), CAST('10:70:00' AS TIME)"))
    assert [str(v) for v in got[0]] == ["-838:59:59", "838:59:59", "838:59:59",
                                        "838:59:59.9", "None"]
    assert [w.message for w in session.warnings] == [
        "Truncated incorrect time value: '-9223372036854775808'",
        "Truncated incorrect time value: '18446744073709551615'",
        "Truncated incorrect time value: '839:00:00'",
        "Truncated incorrect time value: '8390000.5'", "Incorrect time value: '10:70:00'"]


def test_a_one_field_interval_reads_its_value_as_an_integer(session: SqliteSession) -> None:
    # MariaDB 10.11 (mtr func_date_add): a string by its leading digits, with 1292 when more
    # follows; a number rounded, 1916 past 64 bits; the unit after a string is the unit
    got = rows(session.execute(
        "SELECT DATE_ADD('2001-01-23', INTERVAL '1.5' DAY), DATE_ADD('2001-01-23', "
        "INTERVAL 1.5 DAY), '2001-01-01' - INTERVAL '2x' DAY, "
        "DATE_ADD('01-01-23', INTERVAL -9223372036854775809 WEEK)"))
    assert [shown(v) for v in got[0]] == ["2001-01-24", "2001-01-25", "2000-12-30", "NULL"]
    assert [(w.code, w.message) for w in session.warnings] == [
        (1292, "Truncated incorrect INTEGER value: '1.5'"),
        (1292, "Truncated incorrect INTEGER value: '2x'"),
        (1916, "Got overflow when converting '-9223372036854775809' to INT. Value truncated"),
        (1441, "Datetime function: datetime field overflow")]


def test_sformat_past_max_allowed_packet_is_null(session: SqliteSession) -> None:
    # MDEV-40411, measured on MariaDB 10.11 with max_allowed_packet=524288 (func_sformat)
    session.context.variables["max_allowed_packet"] = 1024  # type: ignore[attr-defined]
    got = rows(session.execute("SELECT LENGTH(SFORMAT('{:1024}', 1)), "
                               "LENGTH(SFORMAT('{:1025}', 1)), LENGTH(SFORMAT('{:1023}.', 1)), "
                               "LENGTH(SFORMAT('{:1023}..', 1)), SFORMAT('{:2147483647}', 1)"))
    assert got == [(1024, None, 1024, None, None)]
    assert session.warnings == []


def test_sformat_of_strings_of_one_character_set_is_in_it(session: SqliteSession) -> None:
    # MariaDB aggregates the arguments' character sets (mtr func_sformat)
    got = rows(session.execute("SELECT HEX(SFORMAT(_ucs2 x'003D007B007D003D', "
                               "_ucs2 x'0442043504410442')), CHARSET(SFORMAT('{}', 1))"))
    assert got == [("003D0442043504410442003D", "utf8mb4")]


def test_sformat_past_max_session_mem_used_is_null(session: SqliteSession) -> None:
    # measured on MariaDB 10.11 (mtr func_sformat): 512K of session memory holds 524288
    session.context.variables["max_session_mem_used"] = 512 * 1024  # type: ignore[attr-defined]
    got = rows(session.execute("SELECT LENGTH(SFORMAT('{:524288}', 1)), "
                               "LENGTH(SFORMAT('{:524289}', 1))"))
    assert got == [(524288, None)]


def test_more_arguments_than_sqlite_takes(session: SqliteSession) -> None:
    # MariaDB takes any number; SQLite stops at 127: a library function gets them in packs
    # (mtr func_sformat), SQLite's own functions say so clearly (docs/sql.md), not 1105
    args = ", ".join(["0"] * 130)
    assert scalar(session, f"SELECT SFORMAT('{{}} {{}}', {args})") == "0 0"
    assert scalar(session, f"SELECT FIELD(1, {args}, 1)") == 131
    got = rows(session.execute(f"SELECT SFORMAT('{{}}{{}}', a, {args}) FROM "
                               "(SELECT 1 AS a UNION ALL SELECT 2) d"))
    assert got == [("10",), ("20",)]
    fails(session, f"SELECT COALESCE({args})", errors.ER_NOT_SUPPORTED_YET)


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


@pytest.mark.parametrize(("expr", "expected"), [
    # a TIME result has the arguments' fractional digits (a string's as written) ...
    ("TIMEDIFF('10:00:00.5', '09:00:00.5')", "01:00:00.0"),
    ("TIMEDIFF('1997-01-01 23:59:59.000001', '1995-12-31 23:59:59.000002')",
     "838:59:59.999999"),  # ... and past 838:59:59 is the largest those digits write
    ("TIMEDIFF('2000-01-01 00:00:00.5', '1999-01-01 00:00:00')", "838:59:59.9"),
    ("MAKETIME(900, 0, 0.5)", "838:59:59.9"), ("SEC_TO_TIME(4000000.5)", "838:59:59.9"),
    ("SEC_TO_TIME(1.50)", "00:00:01.50"), ("TIME('10:00:00.25')", "10:00:00.25"),
    # ADDTIME / SUBTIME of strings: 6 digits when the fraction is not zero
    ("SUBTIME('02:01:01.999999', '01:01:01.999999')", "01:00:00"),
    ("ADDTIME('01:01:01.999999', '00:00:00.000001')", "01:01:02"),
    ("SUBTIME('02:01:01.5', '01:01:01')", "01:00:00.500000"),
    ("ADDTIME('800:00:00', '100:00:00')", "838:59:59.999999"),
    # ... of a TIME / DATETIME: that type's digits
    ("ADDTIME(CAST('10:00:00.5' AS TIME(2)), '00:00:00.5')", "10:00:01.00"),
    ("ADDTIME(CAST('2001-01-01 10:00:00' AS DATETIME(3)), '1.5')", "2001-01-01 10:00:01.500"),
    # an interval string's number past what a 64-bit integer reads: NULL (mtr func_date_add)
    ("DATE_ADD('1000-01-01 00:00:00', INTERVAL '0 00:00:01.5000000000000000000' "
     "DAY_MICROSECOND)", "1000-01-01 00:00:01.500000"),
    ("DATE_ADD('1000-01-01 00:00:00', INTERVAL '0 00:00:01.50000000000000000000' "
     "DAY_MICROSECOND)", "NULL"),
    # a temporal in a numeric CAST is its digits
    ("CAST(TIME('-73:42:12') AS DECIMAL)", "-734212"),
    ("CAST(TIME('-73:42:12.5') AS DECIMAL(10,1))", "-734212.5"),
    ("CAST(TIME('10:00:00') AS SIGNED)", "100000"),
    ("CAST(CAST('2001-02-03 04:05:06' AS DATETIME) AS UNSIGNED)", "20010203040506"),
    ("CAST(CAST('2001-02-03' AS DATE) AS DECIMAL(10,2))", "20010203.00"),
])
def test_time_digits_and_numbers(session: SqliteSession, expr: str, expected: str) -> None:
    assert shown(scalar(session, f"SELECT {expr}")) == expected


def test_create_select_times_have_their_arguments_digits(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 SELECT TIMEDIFF('1997-12-31 23:59:59.000001', "
                    "'1997-12-30 01:01:01.000002') AS f4, TIME('1997-12-31 23:59:59.000001') "
                    "AS f9, TIMEDIFF('10:00:00', '09:00:00') AS f0")
    got = rows(session.execute("SELECT COLUMN_TYPE FROM information_schema.COLUMNS "
                               "WHERE TABLE_NAME = 't1' ORDER BY ORDINAL_POSITION"))
    assert got == [("time(6)",), ("time(6)",), ("time",)]
    assert [shown(v) for v in rows(session.execute("SELECT * FROM t1"))[0]] == \
        ["46:58:57.999999", "23:59:59.000001", "01:00:00"]


def test_concat_of_expressions_and_doubles(session: SqliteSession) -> None:
    # mtr func_concat: an operator inside CONCAT is one argument (SQLite's || binds tighter),
    # and a double is written as MariaDB writes it (105, not 105.0)
    session.execute("CREATE TABLE t1 (a char(4), b double, c date, d tinyint(4))")
    session.execute("INSERT INTO t1 VALUES ('AAAA', 105, '2003-03-01', 1)")
    assert scalar(session, "SELECT CONCAT(a, c, b, d) FROM t1") == "AAAA2003-03-011051"
    assert rows(session.execute("SELECT a FROM t1 WHERE CONCAT(a, c, b, d) = "
                                "'AAAA2003-03-011051'")) == [("AAAA",)]
    assert rows(session.execute("SELECT CONCAT('a', 4 - 5, 2 > 1), "
                                "CONCAT_WS(',', 1 + 1, 2e0, 1.5e0)")) == [("a-11", "2,2,1.5")]


def test_temporals_in_arithmetic_are_their_digits(session: SqliteSession) -> None:
    # mtr temporal_scale_4283, type_time: MariaDB computes with YYYYMMDDhhmmss[.ffffff]
    session.execute("CREATE TABLE t1 (t0 time, t1 time(1), d date, dt datetime, "
                    "dt2 datetime(2))")
    session.execute("INSERT INTO t1 VALUES ('10:10:10', '10:10:10.5', '2001-01-01', "
                    "'2001-01-01 10:10:11', '2001-01-01 10:10:11.25')")
    got = rows(session.execute(
        "SELECT t0 + 1, t1 + 1, d + 1, dt + 1, dt2 + 1, MAX(t0) + 1, d - d, t0 / 2, "
        "t0 MOD 7, d + INTERVAL 1 DAY FROM t1"))
    assert [shown(v) for v in got[0]] == [
        "101011", "101011.5", "20010102", "20010101101012", "20010101101012.25", "101011",
        "0", "50505.0000", "0", "2001-01-02"]
    got = rows(session.execute(
        "SELECT 100 MOD TIMESTAMPADD(WEEK, 1, '2002-05-20'), "
        "DATE_ADD('2001-01-01', INTERVAL 1 HOUR) + 0, ('2001-01-01' + INTERVAL 1 DAY) * 1"))
    assert [shown(v) for v in got[0]] == ["100", "20010101010000", "20010102"]
    got = rows(session.execute("SELECT 3 & 20010101 + INTERVAL 2 DAY, "
                               "CAST('2001-01-01' AS DATE) | 0"))
    assert [shown(v) for v in got[0]] == ["3", "20010101"]  # bit operators too
    assert session.warnings == []


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


def test_weight_string_derivation_and_binary_length_warnings(session: SqliteSession) -> None:
    """WEIGHT_STRING keeps its argument's derivation; AS BINARY(n) past max_allowed_packet
    warns for the cast and then for the weights, as MariaDB does (mtr func_weight_string)."""
    assert rows(session.execute(
        "SELECT COERCIBILITY(WEIGHT_STRING('t')), "
        "COERCIBILITY(WEIGHT_STRING('t' COLLATE latin1_swedish_ci))")) == [(4, 0)]
    assert scalar(session, "SELECT WEIGHT_STRING('ab' AS BINARY(1000000000000000000))") is None
    assert [w.message.split(" was")[0] for w in session.warnings] == [
        "Result of cast_as_binary()", "Result of weight_string()"]


def test_float_zerofill_and_default_expression_text(session: SqliteSession) -> None:
    """DOUBLE ZEROFILL pads to 22 digits (FLOAT to 12, (M,D) to M); a DEFAULT expression is
    shown as MariaDB prints it (weight_string(`a`,0,10,65))."""
    session.execute("CREATE TABLE zf (a DOUBLE ZEROFILL, b FLOAT ZEROFILL, c DOUBLE(6,2) "
                    "ZEROFILL)")
    session.execute("INSERT INTO zf VALUES (1, 2.5, 3.25)")
    assert rows(session.execute("SELECT * FROM zf")) == [
        ("0000000000000000000001", "0000000002.5", "003.25")]
    session.execute("CREATE TABLE wd (a VARCHAR(10) CHARACTER SET latin1, b VARBINARY(10) "
                    "DEFAULT WEIGHT_STRING(a AS CHAR(10)))")
    ddl = rows(session.execute("SHOW CREATE TABLE wd"))[0][1]
    assert "DEFAULT weight_string(`a`,0,10,65)\n" in ddl


def test_weight_string_with_length_nweights_and_flags(session: SqliteSession) -> None:
    """weight_string(s, length, nweights, flags): MariaDB's own printed form, measured on
    10.11 (mtr include/weight_string.inc)."""
    ctx = session.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["collation_connection"] = "latin2_general_ci"
    assert rows(session.execute(
        "SELECT HEX(WEIGHT_STRING('abc', 1, 2, 0xC0)), HEX(WEIGHT_STRING('abc', 5, 2, 0xC0)), "
        "HEX(WEIGHT_STRING('abc', 3, 2, 0)), HEX(WEIGHT_STRING('abc', 5, 0, 0xC0)), "
        "HEX(WEIGHT_STRING('a', 0, 3, 0x40)), HEX(WEIGHT_STRING(_binary'ab', 5, 2, 0xC0)), "
        "HEX(WEIGHT_STRING(_utf8mb4'abc', 7, 2, 0xC0)), WEIGHT_STRING(1, 2, 2, 0xC0)")) == [
        ("41", "4144202020", "4144", "4144452020", "412020", "6162000000",
         "00410042002000", None)]


def test_a_count_that_is_not_a_number_warns_1292(session: SqliteSession) -> None:
    # MariaDB (mtr ps_11bugs): LEFT('12345', @@ft_boolean_syntax) is '' with the warning
    session.execute("CREATE TABLE cn (s VARCHAR(10), n VARCHAR(10))")
    session.execute("INSERT INTO cn VALUES ('12345', 'x'), ('12345', '2'), ('12345', '3y')")
    got = rows(session.execute("SELECT LEFT(s, n), SUBSTRING(s, 2, n), RIGHT(s, n), "
                               "REPEAT('a', n) FROM cn"))
    assert got == [("", "", "", ""), ("12", "23", "45", "aa"), ("123", "234", "345", "aaa")]
    assert [w.message for w in session.warnings] == \
        [f"Truncated incorrect INTEGER value: '{v}'" for v in ("x",) * 4 + ("3y",) * 4]
