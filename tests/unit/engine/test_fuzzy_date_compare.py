"""DATE(x) / CAST(x AS DATE / DATETIME) as an operand of a comparison reads x with MariaDB's
TIME_FUZZY_DATES (compare.py, rm_fuzzy_date): a string that is no date is the zero date with
"Truncated incorrect datetime value", where elsewhere it is NULL with "Incorrect datetime
value"; a DATE compared with a TIME compares as DATETIMEs, the TIME on the statement's date.
Each expected value measured on MariaDB 10.11.19 (mtr ps_11bugs, MDEV-25593)."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows

pytestmark = pytest.mark.timeout(30)

_TRUNCATED = "Truncated incorrect datetime value: '{}'"


def _warnings(result) -> list[str]:
    return [w.message for w in result.warnings]


def test_a_date_cast_compared_is_the_zero_date(session: SqliteSession) -> None:
    result = session.execute("SELECT CAST('' AS DATE) = '', CAST('' AS DATETIME) = '', "
                             "CAST('x' AS DATE) = '0000-00-00', "
                             "DATE('2001-13-01') = '0000-00-00'")
    assert rows(result) == [(1, 1, 1, 1)]
    assert _warnings(result) == [_TRUNCATED.format(v) for v in ("", "", "", "", "x",
                                                                "2001-13-01")]


def test_only_a_comparison_reads_it_fuzzily(session: SqliteSession) -> None:
    result = session.execute("SELECT DATE('') < DATE('2001-01-01'), DATE('') IS NULL, "
                             "DATE('') IN ('0000-00-00'), DATE('') <=> NULL")
    assert rows(result) == [(1, 1, 1, 0)]
    assert _warnings(result) == [_TRUNCATED.format(""), "Incorrect datetime value: ''",
                                 _TRUNCATED.format(""), _TRUNCATED.format("")]


def test_a_date_against_a_time_compares_as_datetimes(session: SqliteSession) -> None:
    session.context.variables["timestamp"] = 978344430.0  # 2001-01-01 10:20:30 UTC
    result = session.execute("SELECT DATE('2001-01-01') < TIME'10:00:00', "
                             "DATE('2001-01-01') = TIME'00:00:00', "
                             "TIMESTAMP'2001-01-01 10:20:30' = TIME'10:20:30', "
                             "DATE('') BETWEEN '' AND TIME'10:20:30'")
    assert rows(result) == [(1, 1, 1, 1)]
    assert _warnings(result) == [_TRUNCATED.format(""), _TRUNCATED.format("")]
