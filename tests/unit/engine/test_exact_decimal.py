"""DECIMAL values are exact end to end: stored as their digits, compared and ordered as
numbers, computed (+ - * / MOD, unary minus, ABS / CEILING / FLOOR, SUM, AVG) without doubles,
as MariaDB's decimal.c (mtr func_bit, type_newdecimal, bigint)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from rampmeter.engine.sqlite import SqliteSession, exactdec
from rampmeter.errors import ServerError

from .conftest import rows

pytestmark = pytest.mark.timeout(60)


def test_digits_past_fifteen_read_back(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a DECIMAL(30,2), k INT)")
    session.execute("INSERT INTO t VALUES (18446744073709551615, 1), "
                    "(-12345678901234567.89, 2), (1.5, 3)")
    assert rows(session.execute("SELECT a FROM t ORDER BY a")) == [
        (Decimal("-12345678901234567.89"),), (Decimal("1.50"),),
        (Decimal("18446744073709551615.00"),)]
    assert rows(session.execute("SELECT k FROM t WHERE a = 1.5")) == [(3,)]
    assert rows(session.execute("SELECT k FROM t WHERE a > 2 ORDER BY k")) == [(1,)]
    assert rows(session.execute("SELECT k FROM t WHERE a < 0")) == [(2,)]


def test_arithmetic_and_aggregates_are_exact(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a DECIMAL(30,2))")
    session.execute("INSERT INTO t VALUES (18446744073709551615), (-12345678901234567.89)")
    assert rows(session.execute("SELECT a + 1, a * 2, -a FROM t ORDER BY a")) == [
        (Decimal("-12345678901234566.89"), Decimal("-24691357802469135.78"),
         Decimal("12345678901234567.89")),
        (Decimal("18446744073709551616.00"), Decimal("36893488147419103230.00"),
         Decimal("-18446744073709551615.00"))]
    assert rows(session.execute("SELECT SUM(a), AVG(DISTINCT a), SUM(DISTINCT a) FROM t")) == [
        (Decimal("18434398394808317047.11"), Decimal("9217199197404158523.555000"),
         Decimal("18434398394808317047.11"))]


def test_literals_compute_and_compare_exactly(session: SqliteSession) -> None:
    assert rows(session.execute("SELECT 0.8 = 0.7 + 0.1, 1/3, 1/3 = 0.3333, "
                                "CAST(1.5 AS DECIMAL(5,2)) > 1.2, CAST(1 AS DECIMAL) = 1")) == [
        (1, Decimal("0.3333"), 0, 1, 1)]
    assert rows(session.execute("SELECT 7777777777777777777777777777777777777 * 10, "
                                "ABS(-9999999999999999999999), "
                                "CEILING(-9.9999999999999999999), -0.123 * 0")) == [
        (Decimal("77777777777777777777777777777777777770"),
         Decimal("9999999999999999999999"), -9, Decimal("0.000"))]


def test_runtime_helpers() -> None:
    assert exactdec.dec("0.7", 0.1, "+", 1) == "0.8"
    assert exactdec.dec(1, 3, "/", 4) == "0.333333333"  # 9-digit words, truncated
    assert exactdec.dec("-7.5", 2, "%", 1) == "-1.5"    # the dividend's sign
    assert exactdec.dec(1, 0, "/", 4) is None
    assert exactdec.dcmp("~18446744073709551615", "18446744073709551614.99") == 1
    assert exactdec.dcmp(None, 1) is None
    assert exactdec.dfn("floor", "-1.5") == -2
    assert exactdec.dfn("ceil", "99999999999999999999.5") == "100000000000000000000"


def test_in_lists_and_cast_limits(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a DECIMAL(6,3))")
    session.execute("INSERT INTO t VALUES (1.0), (NULL), (0.1)")
    assert rows(session.execute("SELECT 0.1 IN (1.2, a, 0.5) FROM t")) == [(0,), (None,), (1,)]
    assert rows(session.execute("SELECT CAST(19999999999999999999 AS SIGNED), "
                                "CAST(-1.5 AS UNSIGNED), CAST(a AS SIGNED) FROM t "
                                "WHERE a = 1")) == [(2**63 - 1, 0, 1)]
    with pytest.raises(ServerError) as e:
        session.execute("SELECT CAST(1 AS DECIMAL(66,10))")
    assert e.value.code == 1426
    with pytest.raises(ServerError) as e:
        session.execute("SELECT CAST(1 AS DECIMAL(65,39))")
    assert e.value.code == 1425


def test_greatest_least_and_json(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a DECIMAL(10,2), b INT)")
    session.execute("INSERT INTO t VALUES (1.5, 2), (-12.25, 3)")
    assert rows(session.execute("SELECT GREATEST(a, b), LEAST(a, 0.5), JSON_ARRAY(a) "
                                "FROM t ORDER BY b")) == [
        (Decimal("2.00"), Decimal("0.50"), "[1.50]"),
        (Decimal("3.00"), Decimal("-12.25"), "[-12.25]")]
