"""engine/sqlite/compare.py: the columns of server-provided tables against numbers."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows


def test_information_schema_text_compared_with_a_number_is_a_number(
        session: SqliteSession) -> None:
    """A column of information_schema is read as a number against a number, as MariaDB reads
    a VARCHAR (compare.py): '10' < 100, where SQLite would compare text with an integer."""
    session.execute("CREATE TABLE `10` (a INT)")
    assert rows(session.execute(
        "SELECT table_name < 100, table_name > 9, 100 > table_name FROM "
        "information_schema.tables WHERE table_name = '10'")) == [(1, 1, 1)]
