"""Issue 8, item 2: types with their full range and metadata. Integers over their whole signed
and unsigned range, `TYPE(n) UNSIGNED ZEROFILL` in DDL, exact DECIMAL arithmetic and aggregate
scale, fractional seconds stored, returned and announced in both protocols, and SHOW CREATE
TABLE output that executes again."""

from __future__ import annotations

import datetime
import decimal

import pytest

from tests.compat.conftest import cases, drivers
from tests.compat.drivers import ALL, Step

D = decimal.Decimal


def driver_sees_unsigned_bigint(driver: str, type_: str) -> bool:
    """mysql-connector's C extension, prepared cursor, is broken for BIGINT UNSIGNED above
    2**63-1 on any server: it returns 2**64-1 as -1 and fails to send it as a parameter
    (RuntimeError "Failed raising error."). Such a test still compares the two servers."""
    return not (driver == "connector-c-prep" and type_ == "BIGINT")


def integer_params() -> list[object]:
    """(type, driver) params."""
    return [pytest.param(t, d, id=f"{t}-{d}") for t in INTEGERS for d in ALL]


# type -> (min, max) of the signed and the unsigned column
INTEGERS = {
    "TINYINT": ((-128, 127), (0, 255)),
    "SMALLINT": ((-32768, 32767), (0, 65535)),
    "MEDIUMINT": ((-8388608, 8388607), (0, 16777215)),
    "INT": ((-2147483648, 2147483647), (0, 4294967295)),
    "BIGINT": ((-(2**63), 2**63 - 1), (0, 2**64 - 1)),
}


@pytest.mark.parametrize(("type_", "driver"), integer_params())
def test_integer_full_range_literals(compat, driver, type_):
    """The extremes of the signed and the unsigned column, sent as literals; metadata too
    (type code and the UNSIGNED flag, which the binary protocol needs to decode)."""
    (lo, hi), (ulo, uhi) = INTEGERS[type_]
    compat.setup(f"CREATE TABLE t (id INT PRIMARY KEY, s {type_}, u {type_} UNSIGNED)")
    a = compat.run(driver, [
        f"INSERT INTO t VALUES (1, {lo}, {ulo}), (2, {hi}, {uhi})",
        "SELECT s, u FROM t ORDER BY id",
        "SELECT u + 0, u - 0, u = " + str(uhi) + " FROM t WHERE id = 2",
    ])
    if driver_sees_unsigned_bigint(driver, type_):
        assert a.maria[1].rows == ((lo, ulo), (hi, uhi))
    a.assert_same(columns=[1])


@pytest.mark.parametrize(("type_", "driver"), integer_params())
def test_integer_full_range_parameters(compat, driver, type_):
    """The same extremes sent as bound parameters (unsigned LONGLONG in the binary protocol)."""
    (lo, hi), (ulo, uhi) = INTEGERS[type_]
    compat.setup(f"CREATE TABLE t (id INT PRIMARY KEY, s {type_}, u {type_} UNSIGNED)")
    a = compat.run(driver, [
        Step("INSERT INTO t VALUES (%s, %s, %s)", (1, lo, ulo)),
        Step("INSERT INTO t VALUES (%s, %s, %s)", (2, hi, uhi)),
        Step("SELECT id FROM t WHERE u = %s", (uhi,)),
        "SELECT s, u FROM t ORDER BY id",
    ])
    if driver_sees_unsigned_bigint(driver, type_):
        assert a.maria[3].rows == ((lo, ulo), (hi, uhi))
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", "connector-prep"))
@pytest.mark.parametrize("type_", INTEGERS)
def test_integer_out_of_range_is_1264_in_strict_mode(compat, driver, type_):
    (lo, hi), (_, uhi) = INTEGERS[type_]
    compat.setup(f"CREATE TABLE t (s {type_}, u {type_} UNSIGNED)")
    a = compat.run(driver, [
        f"INSERT INTO t (s) VALUES ({hi + 1})",
        f"INSERT INTO t (s) VALUES ({lo - 1})",
        f"INSERT INTO t (u) VALUES ({uhi + 1})",
        "INSERT INTO t (u) VALUES (-1)",
        "SELECT COUNT(*) FROM t",
    ])
    assert [o.code for o in a.maria[:4]] == [1264] * 4
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", "raw-bin"))
def test_unsigned_expressions(compat, driver):
    a = compat.run(driver, [
        "SELECT 18446744073709551615, ~0, CAST(-1 AS UNSIGNED), 9223372036854775808",
        "SELECT 18446744073709551615 DIV 1, 18446744073709551614 + 1",
        "SELECT CAST(18446744073709551615 AS SIGNED), 0 - CAST(1 AS UNSIGNED)",
    ])
    assert a.maria[0].rows == ((2**64 - 1, 2**64 - 1, 2**64 - 1, 2**63),)
    assert a.maria[2].code == 1690  # BIGINT UNSIGNED value is out of range
    a.assert_same(columns=[0])


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector-prep"))
def test_integer_expression_type_codes(compat, driver):
    """What clients see as the type of integer expressions: MariaDB says LONG (3) for short
    literals and lengths, LONGLONG (8) for wide ones and for COUNT."""
    compat.setup("CREATE TABLE t (i INT, b BIGINT)", "INSERT INTO t VALUES (1, 2)")
    a = compat.run(driver, ["SELECT 1, 12345678901, LENGTH('a'), COUNT(*), i, b, i + 1 FROM t"])
    assert [c.type_code for c in a.maria[0].columns] == [3, 8, 3, 8, 3, 8, 8]
    a.assert_same(columns=[0])


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector", "raw-bin"))
def test_unsigned_zerofill_in_ddl(compat, driver):
    a = compat.run(driver, [
        "CREATE TABLE t (a bigint(20) unsigned zerofill, b int(10) unsigned NOT NULL DEFAULT '0',"
        " c tinyint(3) unsigned zerofill, d smallint(5) zerofill, e mediumint(8) unsigned)",
        "INSERT INTO t VALUES (5, 6, 7, 8, 9)",
        "SELECT a, b, c, d, e FROM t",
        "SHOW COLUMNS FROM t",
    ])
    assert a.maria[0].error is None
    assert [r[1] for r in a.maria[3].rows] == [
        "bigint(20) unsigned zerofill", "int(10) unsigned", "tinyint(3) unsigned zerofill",
        "smallint(5) unsigned zerofill", "mediumint(8) unsigned"]
    a.assert_same()
    a.assert_same(("rows", "error", "rowcount", "columns", "length"), only=[2])


TABLES = {
    "integers": "CREATE TABLE t (id bigint(20) unsigned NOT NULL AUTO_INCREMENT, "
                "a tinyint(3) unsigned zerofill DEFAULT NULL, b int(11) NOT NULL DEFAULT 0, "
                "PRIMARY KEY (id)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
    "decimals-and-times": "CREATE TABLE t (d decimal(10,2) NOT NULL DEFAULT 2.50, "
                          "dt datetime(6) DEFAULT NULL, t time(3) DEFAULT NULL, "
                          "ts timestamp(3) NULL DEFAULT NULL, f double DEFAULT NULL)",
    "strings": "CREATE TABLE t (v varchar(20) NOT NULL DEFAULT 'x''y', c char(3) DEFAULT NULL, "
               "b varbinary(8) DEFAULT NULL, bl blob, tx text, "
               "e enum('a','b') DEFAULT 'a', s set('x','y') DEFAULT NULL)",
    "keys": "CREATE TABLE t (a int NOT NULL, b int NOT NULL, c varchar(10), "
            "PRIMARY KEY (a, b), UNIQUE KEY uc (c), KEY kb (b))",
}


@pytest.mark.parametrize(("table", "target"), [
    pytest.param(table, target, id=f"{table}-{target}")
    for table in TABLES for target in ("mariadb", "rampmeter")])
def test_show_create_table_executes_again(compat, target, table):
    """Whatever CREATE TABLE accepted, SHOW CREATE TABLE prints so that it runs again and
    prints the same. Checked on each server on its own (the texts may differ)."""
    first = compat.run_on(target, "pymysql", [TABLES[table], "SHOW CREATE TABLE t"])
    assert first[0].error is None, first[0].error
    text = first[1].rows[0][1]
    again = compat.run_on(target, "pymysql", ["DROP TABLE t", text, "SHOW CREATE TABLE t"])
    assert [o.error for o in again] == [None, None, None], (text, [o.error for o in again])
    assert again[2].rows[0][1] == text


@pytest.mark.parametrize("table", cases(TABLES))
def test_show_create_table_text(compat, table):
    """SHOW CREATE TABLE prints what MariaDB prints (tools diff it, ORMs parse it)."""
    a = compat.run("pymysql", [TABLES[table], "SHOW CREATE TABLE t"])
    a.assert_same()


# -- DECIMAL ---------------------------------------------------------------------------------


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector",
                                           "connector-prep", "raw-bin"))
def test_decimal_literal_arithmetic(compat, driver):
    a = compat.run(driver, [
        "SELECT 0.1 + 0.2, 1.10 * 3, 10.00 / 4, 1 / 3, 2.50 - 0.005",
        "SELECT CAST('12345678901234567890.123456789' AS DECIMAL(30,9)), -0.00, 1.0 = 1",
    ])
    assert a.maria[0].rows == ((D("0.3"), D("3.30"), D("2.500000"), D("0.3333"), D("2.495")),)
    a.assert_same(columns=[0, 1])


@pytest.fixture
def money(compat):
    compat.setup("CREATE TABLE m (id INT PRIMARY KEY, d DECIMAL(10,2), i INT)",
                 "INSERT INTO m VALUES (1, 1.10, 1), (2, 2.20, 2), (3, 19.19, 4)")
    return compat


@pytest.mark.parametrize("driver", drivers())
def test_decimal_sum_keeps_scale(money, driver):
    a = money.run(driver, ["SELECT SUM(d) FROM m"])
    assert a.maria[0].rows == ((D("22.49"),),)
    a.assert_same(columns=[0])


@pytest.mark.parametrize("driver", drivers())
def test_decimal_avg_adds_four_to_scale(money, driver):
    a = money.run(driver, ["SELECT AVG(d) FROM m"])
    assert a.maria[0].rows == ((D("7.496667"),),)
    a.assert_same(columns=[0])


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector-prep",
                                           "raw-bin"))
def test_integer_sum_and_avg_are_decimal(money, driver):
    a = money.run(driver, ["SELECT SUM(i), AVG(i) FROM m"])
    assert a.maria[0].rows == ((D("7"), D("2.3333")),)
    a.assert_same(columns=[0])


@pytest.mark.parametrize("driver", drivers())
def test_decimal_250_in_every_path(compat, driver):
    """DECIMAL(10,2) 2.50 is 2.50 as a column, through MIN/MAX/SUM, as a parameter, and in
    the text and the binary protocol."""
    compat.setup("CREATE TABLE t (id INT PRIMARY KEY, d DECIMAL(10,2))")
    a = compat.run(driver, [
        "INSERT INTO t VALUES (1, 2.50)",
        Step("INSERT INTO t VALUES (%s, %s)", (2, D("2.50"))),
        "SELECT d FROM t ORDER BY id",
        "SELECT MIN(d), MAX(d), SUM(d) FROM t",
        Step("SELECT id FROM t WHERE d = %s ORDER BY id", (D("2.5"),)),
        "SELECT d * 1, d + 0, CAST(d AS CHAR) FROM t WHERE id = 1",
    ])
    assert a.maria[2].rows == ((D("2.50"),), (D("2.50"),))
    assert a.maria[3].rows == ((D("2.50"), D("2.50"), D("5.00")),)
    assert a.maria[5].rows == ((D("2.50"), D("2.50"), "2.50"),)
    a.assert_same(columns=[2, 3])


# -- fractional seconds ----------------------------------------------------------------------


@pytest.fixture
def times(compat):
    compat.setup(
        "CREATE TABLE tm (id INT PRIMARY KEY, dt DATETIME(6), t3 TIME(3), ts TIMESTAMP(3) NULL, "
        "d0 DATETIME, dt3 DATETIME(3))")
    return compat


TZ = "SET time_zone = '+00:00'"


@pytest.mark.parametrize("driver", drivers())
def test_fractional_seconds_stored_and_returned(times, driver):
    a = times.run(driver, [
        TZ,
        "INSERT INTO tm VALUES (1, '2024-05-06 07:08:09.123456', '12:34:56.789', "
        "'2024-05-06 07:08:09.123', '2024-05-06 07:08:09', '2024-05-06 07:08:09.5')",
        "SELECT dt, t3, ts, d0, dt3 FROM tm",
    ])
    assert a.maria[2].rows[0][0] == datetime.datetime(2024, 5, 6, 7, 8, 9, 123456)
    a.assert_same(columns=[2])


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector", "raw-bin"))
def test_fractional_seconds_column_decimals(times, driver):
    """The column definitions announce the fractional digits (a client that trusts them keeps
    the microseconds); checked on an empty result so only the metadata speaks."""
    a = times.run(driver, ["SELECT dt, t3, ts, d0, dt3 FROM tm"])
    cols = a.maria[0].columns
    if cols[0].decimals is not None:
        assert [c.decimals for c in cols] == [6, 3, 3, 0, 3]
    a.assert_same(columns=[0])


@pytest.mark.parametrize("driver", drivers("raw-bin"))
def test_fractional_seconds_decimals_at_prepare(times, driver):
    a = times.run(driver, ["SELECT dt, t3, ts, d0, dt3 FROM tm"])
    assert [c.decimals for c in a.maria[0].prepare_columns] == [6, 3, 3, 0, 3]
    a.assert_same(("rows", "error", "columns", "prepare_columns"))


@pytest.mark.parametrize("driver", drivers())
def test_fractional_seconds_parameters(times, driver):
    a = times.run(driver, [
        TZ,
        Step("INSERT INTO tm (id, dt, dt3, d0) VALUES (%s, %s, %s, %s)",
             (2, datetime.datetime(2024, 1, 2, 3, 4, 5, 678901),
              datetime.datetime(2024, 1, 2, 3, 4, 5, 678901),
              datetime.datetime(2024, 1, 2, 3, 4, 5, 678901))),
        "SELECT dt, dt3, d0 FROM tm WHERE id = 2",
    ])
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", "raw-bin"))
def test_fractional_seconds_truncated_to_column_precision(times, driver):
    a = times.run(driver, [
        TZ,
        "INSERT INTO tm (id, dt3, d0, t3) VALUES (3, '2024-01-01 00:00:00.123999', "
        "'2024-01-01 00:00:00.999', '00:00:01.9999')",
        "SELECT dt3, d0, t3 FROM tm WHERE id = 3",
    ])
    a.assert_same()


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient", "connector-prep",
                                           "raw-bin"))
def test_fractional_seconds_in_expressions(compat, driver):
    a = compat.run(driver, [
        "SELECT CAST('2024-01-02 03:04:05.5' AS DATETIME(3)), CAST('01:02:03.25' AS TIME(2))",
        "SELECT MICROSECOND('2024-01-02 03:04:05.000007')",
    ])
    a.assert_same(columns=[0])


@pytest.mark.parametrize("driver", drivers("pymysql", "raw-bin"))
def test_now6_announces_six_decimals(compat, driver):
    """NOW(6) / CURTIME(3): the values differ between servers, the metadata must not."""
    a = compat.run(driver, ["SELECT NOW(6), CURTIME(3), SYSDATE(6)"])
    a.assert_same(("error", "columns"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_utc_timestamp_with_precision(compat, driver):
    a = compat.run(driver, ["SELECT UTC_TIMESTAMP(6), UTC_TIME(3)"])
    assert a.maria[0].error is None
    a.assert_same(("error", "columns"))
