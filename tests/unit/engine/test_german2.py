"""latin1_german2_ci and the comparisons of constants by the connection's collation; answers
measured on MariaDB 10.11 (mtr ctype_latin1_de)."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import FakeContext, rows

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def de(session: SqliteSession) -> SqliteSession:
    ctx = session.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["collation_connection"] = "latin1_german2_ci"
    session.execute("CREATE TABLE w (word VARCHAR(20) CHARACTER SET latin1 "
                    "COLLATE latin1_german2_ci)")
    session.execute("INSERT INTO w VALUES ('ss'), (0xDF), (0xE4), ('ae'), ('ue')")
    return session


def test_constants_compare_by_the_connection_collation(de: SqliteSession) -> None:
    assert rows(de.execute("SELECT 'ä' = 'ae', 'ä' < 'af', STRCMP('ä', 'ae'), "
                           "STRCMP('a', 'ä'), STRCMP('ß', 'ss')")) == [(1, 1, 0, -1, 0)]


def test_like_weighs_one_character_at_a_time(de: SqliteSession) -> None:
    """my_wildcmp_8bit by sort_order_latin1_de: ä is Ä, not a, nor ae."""
    assert rows(de.execute("SELECT 'ä' LIKE 'Ä', 'ä' LIKE 'a', 'ß' LIKE 's%', "
                           "'ÿ' LIKE 'y', 'É' LIKE 'e'")) == [(1, 0, 0, 1, 1)]
    assert rows(de.execute("SELECT word FROM w WHERE word LIKE 'ä%'")) == [("ä",)]


def test_field_and_binary_comparisons(de: SqliteSession) -> None:
    assert rows(de.execute("SELECT word, FIELD('ae', word) FROM w ORDER BY word, BINARY(word)")
                ) == [("ae", 1), ("ä", 1), ("ss", 0), ("ß", 0), ("ue", 0)]
    assert rows(de.execute("SELECT word FROM w WHERE word LIKE BINARY 0xDF")) == [("ß",)]
    assert rows(de.execute("SELECT word, word = BINARY 0xDF AS t FROM w HAVING t > 0")) == [
        ("ß", 1)]
    # CAST AS CHAR is text of the connection's character set: 0xDF is 'ß', equal to 'ss'
    assert rows(de.execute("SELECT word FROM w WHERE word = CAST(0xDF AS CHAR) "
                           "ORDER BY BINARY word")) == [("ss",), ("ß",)]


def test_weight_string_counts_expansions_as_weights(de: SqliteSession) -> None:
    assert rows(de.execute("SELECT HEX(WEIGHT_STRING('ä')), HEX(WEIGHT_STRING('xä' AS CHAR(2))), "
                           "HEX(WEIGHT_STRING(CAST(_latin1 0x80 AS CHAR)))")) == [
        ("4145", "5841", "80")]


def test_null_divided_by_zero_warns_nothing(session: SqliteSession) -> None:
    result = session.execute("SELECT NULL / 0, NULL MOD 0, NULL DIV 0")
    assert rows(result) == [(None, None, None)] and result.warnings == []
    assert [w.code for w in session.execute("SELECT 1 / 0, 1 MOD 0").warnings] == [1365, 1365]


def test_numbers_as_string_arguments_and_nul_members(session: SqliteSession) -> None:
    """Internal errors (1105) no more: a number where a string piece goes, an empty string as
    MAKETIME's seconds, a NUL in an ENUM member sorted by its number."""
    assert rows(session.execute("SELECT INSERT(1133, 3, 0, 22), SUBSTRING_INDEX(1121, 2, 1), "
                                "MAKETIME(1, 2, ''), MAKETIME(1, 2, '3.5x')")) == [
        ("112233", "11", "01:02:00.000000", "01:02:03.500000")]
    session.execute("CREATE TABLE e (a ENUM('a', 0x0061))")
    session.execute("INSERT INTO e VALUES (2), (1)")
    assert rows(session.execute("SELECT HEX(a) FROM e ORDER BY a")) == [("61",), ("0061",)]
