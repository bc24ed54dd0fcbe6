"""A DATE / DATETIME / TIME stored into a number column is its number, and a TIMESTAMP / TIME
literal keeps its fractional digits, as MariaDB's (mtr type_uint)."""

from __future__ import annotations

from decimal import Decimal

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows, update


def test_temporal_values_store_their_numbers(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a INT UNSIGNED, b BIGINT, c DECIMAL(20,4), d DOUBLE)")
    result = update(session, "INSERT INTO t VALUES (MAKEDATE(2023, 1), "
                             "CAST('2001-01-01 10:20:30' AS DATETIME), "
                             "TIMESTAMP'2001-01-01 10:20:30.5', TIME'10:20:30')")
    assert result.warnings == []
    update(session, "INSERT INTO t SELECT MAKEDATE(2023, 2), NULL, "
                    "CAST('10:20:30.25' AS TIME(2)), DATE'2001-02-03'")
    assert rows(session.execute("SELECT * FROM t")) == [
        (20230101, 20010101102030, Decimal("20010101102030.5000"), 102030.0),
        (20230102, None, Decimal("102030.2500"), 20010203.0)]
    update(session, "UPDATE t SET a = MAKEDATE(2023, 5)")
    assert rows(session.execute("SELECT a FROM t")) == [(20230105,), (20230105,)]


def test_typed_literals_keep_their_fraction(session: SqliteSession) -> None:
    assert rows(session.execute("SELECT CAST(TIMESTAMP'2001-01-01 10:20:30.5' AS CHAR), "
                                "CAST(TIME'10:20:30.25' AS CHAR), "
                                "CAST(TIMESTAMP'2001-01-01 10:20:30' AS CHAR)")) == [
        ("2001-01-01 10:20:30.5", "10:20:30.25", "2001-01-01 10:20:30")]
