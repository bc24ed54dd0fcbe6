"""CAST's target types as MariaDB 10.11's grammar has them (dialect._check_cast_type)."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows, scalar


@pytest.mark.parametrize(("target", "near"), [
    ("TEXT", "TEXT)"), ("JSON", "JSON)"), ("VARCHAR", ")"), ("BIGINT", "BIGINT)"),
    ("FLOAT(5)", "(5))"), ("TIMESTAMP", "TIMESTAMP)"), ("GEOMETRY(1)", "(1))"),
])
def test_cast_targets_mariadb_has_not(session: SqliteSession, target: str, near: str) -> None:
    from rampmeter.errors import ServerError
    with pytest.raises(ServerError) as e:
        session.execute(f"SELECT CAST('1' AS {target})")
    assert e.value.code == 1064 and f"near '{near}'" in e.value.message


def test_cast_to_a_spatial_type_is_4162(session: SqliteSession) -> None:
    from rampmeter.errors import ServerError
    with pytest.raises(ServerError) as e:
        session.execute("SELECT CAST('1' AS POINT)")
    assert e.value.code == 4162 and "'CAST(expr AS point)'" in e.value.message
    assert scalar(session, "SELECT CAST('1.5' AS DECIMAL(5,2))") is not None


def test_cast_as_signed_int_and_unsigned_int(session: SqliteSession) -> None:
    assert rows(session.execute("SELECT CAST('7' AS SIGNED INT), CAST(-1 AS UNSIGNED INT),"
                                " CAST('8' AS SIGNED INTEGER)")) == [(7, 18446744073709551615, 8)]
