"""EXTRACT of a column whose value is no interval: MariaDB's 1292 names the column and the row
("... for column `db`.`t1`.`a` at row 9"), a DECIMAL's value quoted with the column's scale
(measured on MariaDB 10.11.19, mtr type_interval)."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows

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
