"""Bit operators and BIT_COUNT read a DOUBLE, DECIMAL or string operand as MariaDB 10.11 does
(mtr func_bit, MDEV-20305): rounded half away from zero, saturated at the 64-bit ends with
1916, a string through DECIMAL with 1292. Values measured on MariaDB 10.11."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rampmeter.engine.base import ResultSet
from rampmeter.engine.sqlite import SqliteSession, bitconv

from .conftest import rows

Open = Callable[..., SqliteSession]
_OVER_U = "Got overflow when converting '{}' to UNSIGNED INT. Value truncated"
_OVER_S = "Got overflow when converting '{}' to INT. Value truncated"


def _one(s: SqliteSession, expr: str) -> tuple[object, list[tuple[int, str]]]:
    result = s.execute(f"SELECT {expr}")
    assert isinstance(result, ResultSet)
    return rows(result)[0][0], [(w.code, w.message) for w in result.warnings]


@pytest.mark.parametrize(("expr", "value", "warnings"), [
    ("18446744073709551615e0 & 1", 1, [(1916, _OVER_U.format("18446744073709552000"))]),
    ("1e30 | 0", 18446744073709551615,
     [(1916, _OVER_U.format("1000000000000000000000000000000"))]),
    ("-1e30 | 0", 9223372036854775808,
     [(1916, _OVER_S.format("-1000000000000000000000000000000"))]),
    ("-9223372036854775808e0 | 0", 9223372036854775808,
     [(1916, _OVER_S.format("-9223372036854776000"))]),
    ("-1.0e0 | 0", 18446744073709551615, []),
    ("1.5e0 | 0", 2, []), ("2.5e0 | 0", 3, []), ("-2.5e0 | 0", 18446744073709551613, []),
    ("1.6 | 0", 2, []), ("-1.5 | 0", 18446744073709551614, []),
    ("18446744073709551616.0 | 0", 18446744073709551615,
     [(1916, _OVER_U.format("18446744073709551616.0"))]),
    ("'1e30' | 0", 18446744073709551615,
     [(1916, _OVER_U.format("1000000000000000000000000000000"))]),
    ("'-1.5' | 0", 18446744073709551614, []),
    ("'abc' | 0", 0, [(1292, "Truncated incorrect DECIMAL value: 'abc'")]),
    ("'12abc' | 0", 12, [(1292, "Truncated incorrect DECIMAL value: '12abc'")]),
    ("~1e30", 0, [(1916, _OVER_U.format("1000000000000000000000000000000"))]),
    ("~-1e30", 9223372036854775807,
     [(1916, _OVER_S.format("-1000000000000000000000000000000"))]),
    ("1e30 << 0", 18446744073709551615,
     [(1916, _OVER_U.format("1000000000000000000000000000000"))]),
    ("BIT_COUNT(18446744073709551615e0)", 64, [(1916, _OVER_U.format("18446744073709552000"))]),
    ("BIT_COUNT(-1e0)", 64, []),
    ("BIT_COUNT('abc')", 0, [(1292, "Truncated incorrect DECIMAL value: 'abc'")]),
    ("CAST(CAST(18446744073709551615 AS UNSIGNED) AS DOUBLE) << 0", 18446744073709551615,
     [(1916, _OVER_U.format("18446744073709552000"))]),
    ("CAST(CAST(18446744073709551615 AS UNSIGNED) AS DECIMAL(32)) << 0",
     18446744073709551615, []),
    ("CAST(0xFFFFFFFFFFFFFFFF AS UNSIGNED)", 18446744073709551615, []),
    ("CAST(x'41' AS UNSIGNED)", 65, []),
])
def test_bit_operand_conversions(open_session: Open, expr: str, value: object,
                                 warnings: list[tuple[int, str]]) -> None:
    s = open_session(1)
    assert _one(s, expr) == (value, warnings)


def test_columns_by_their_type(open_session: Open) -> None:
    s = open_session(1)
    s.execute("CREATE DATABASE db")
    s.use("db")
    s.execute("CREATE TABLE t (d double, s varchar(30))")
    s.execute("INSERT INTO t VALUES (1e30, '1e30')")
    result = s.execute("SELECT d | 0, s | 0, BIT_COUNT(d) FROM t")
    assert isinstance(result, ResultSet)
    assert rows(result) == [(18446744073709551615, 18446744073709551615, 64)]
    assert [w.code for w in result.warnings] == [1916, 1916, 1916]


def test_kind_of_static_types() -> None:
    from rampmeter.engine.types import SqlType
    assert [bitconv.kind_of(SqlType(n)) for n in ("double", "decimal", "varchar", "int")] == \
        ["r", "d", "s", "i"]
    assert bitconv.kind_of(None) == ""
