"""A TIMESTAMP column's value outside its range or in its zone's spring gap (each expected
value measured on MariaDB 10.11.19, mtr timezone2 and type_timestamp_round): not strict,
1264 and the zero date, or 1299 and the gap's end; strict, 1292 naming the value given."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows

pytestmark = pytest.mark.timeout(30)


def test_outside_the_range_is_the_zero_date_with_1264(session: SqliteSession) -> None:
    session.context.variables["sql_mode"] = ""
    session.execute("CREATE TABLE t1 (ts TIMESTAMP NULL)")
    result = session.execute(
        "INSERT INTO t1 VALUES ('0000-00-00 00:00:00'), ('1969-12-31 23:59:59'), "
        "('1970-01-01 00:00:00'), ('1970-01-01 00:00:01'), ('2038-01-19 03:14:07'), "
        "('2038-01-19 03:14:08')")
    assert [w.message for w in result.warnings] == [
        f"Out of range value for column 'ts' at row {n}" for n in (2, 3, 6)]
    assert [str(r[0]) for r in rows(session.execute("SELECT ts FROM t1"))] == [
        "0000-00-00 00:00:00", "0000-00-00 00:00:00", "0000-00-00 00:00:00",
        "1970-01-01 00:00:01", "2038-01-19 03:14:07", "0000-00-00 00:00:00"]


def test_strict_says_1292_of_the_value_given(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (ts TIMESTAMP NULL)")
    err = fails(session, "INSERT INTO t1 VALUES ('2038-01-19 03:14:08')", 1292)
    assert str(err.message) == ("Incorrect datetime value: '2038-01-19 03:14:08' for column "
                                "`db`.`t1`.`ts` at row 1")


@pytest.mark.parametrize("value", ["8390000", "99999999999", "'900:00:00'",
                                   "CAST(0xFFFFFFFF00000000 AS UNSIGNED)"])
def test_a_time_past_its_range_in_strict_mode_is_1292(session: SqliteSession,
                                                      value: str) -> None:
    """Strict, a TIME past 838:59:59 is 1292 for the value given (mtr type_time); not
    strict, TIME's end with 1264."""
    session.execute("CREATE TABLE t1 (a TIME(6))")
    err = fails(session, f"INSERT INTO t1 VALUES ({value})", 1292)
    assert "Incorrect time value: '" in str(err.message)
    assert "for column `db`.`t1`.`a` at row 1" in str(err.message)
    session.context.variables["sql_mode"] = ""
    result = session.execute("INSERT INTO t1 VALUES (8390000)")
    assert [w.code for w in result.warnings] == [1264]
