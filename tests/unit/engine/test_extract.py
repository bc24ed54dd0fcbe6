"""translate.extract(): a statement's shape (literals out, comments out) and its literal slots."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rampmeter.engine.translate import ClientParam, bind, extract, unescape

BIGINT_MAX = 2**63 - 1


def mysql_quote(value: str, style: str) -> str:
    """A MySQL string literal whose value is `value` (three legal spellings)."""
    body = value.replace("\\", "\\\\")
    if style == "backslash":
        return "'" + body.replace("'", "\\'") + "'"
    if style == "doubled":
        return "'" + body.replace("'", "''") + "'"
    return '"' + body.replace('"', '""') + '"'  # double-quoted (ANSI_QUOTES off)


quote_styles = st.sampled_from(["backslash", "doubled", "double_quoted"])
# Text rich in the characters that break naive scanners: quotes, backslashes, comment openers.
tricky_text = st.text(alphabet=st.sampled_from(list("ab'\"\\%_?:-#/*! \n\t0é")) | st.characters(),
                      max_size=20)


# --- shapes and slots ----------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(a=st.integers(0, BIGINT_MAX), b=st.integers(0, BIGINT_MAX), s=tricky_text,
       style=quote_styles)
def test_statements_differing_only_in_literals_share_a_shape(a: int, b: int, s: str,
                                                             style: str) -> None:
    reference = extract("SELECT c FROM t WHERE id = 1 AND name = 'x' AND k IN (2, 3)")
    sql = f"SELECT c FROM t WHERE id = {a} AND name = {mysql_quote(s, style)} AND k IN ({b}, 3)"
    got = extract(sql)
    assert got.shape == reference.shape
    assert got.shape == "SELECT c FROM t WHERE id = :p0 AND name = :p1 AND k IN (:p2, :p3)"
    assert got.slots == [a, s, b, 3]
    assert bind(got.slots) == {"p0": a, "p1": s, "p2": b, "p3": 3}


@settings(max_examples=100, deadline=None)
@given(values=st.lists(st.one_of(st.integers(0, BIGINT_MAX), tricky_text), min_size=1,
                       max_size=6), style=quote_styles)
def test_slots_come_back_in_textual_order(values: list[int | str], style: str) -> None:
    literals = [str(v) if isinstance(v, int) else mysql_quote(v, style) for v in values]
    got = extract(f"INSERT INTO t VALUES ({', '.join(literals)})")
    assert got.slots == values
    assert got.shape == "INSERT INTO t VALUES (" + ", ".join(
        f":p{i}" for i in range(len(values))) + ")"


def test_numbers_become_int_or_float() -> None:
    got = extract("UPDATE t SET a = 1.5, b = 2e3, c = .5, d = 7 WHERE e = -2")
    assert got.slots == [1.5, 2000.0, 0.5, 7, 2]
    assert all(type(v) is t for v, t in zip(got.slots, [float, float, float, int, int]))
    assert got.shape.endswith("WHERE e = -:p4")  # the sign is an operator, it stays in the text


def test_integer_too_big_for_bigint_stays_inline() -> None:
    got = extract(f"SELECT a FROM t WHERE b = {BIGINT_MAX + 1} AND c = {BIGINT_MAX}")
    assert got.shape == f"SELECT a FROM t WHERE b = {BIGINT_MAX + 1} AND c = :p0"
    assert got.slots == [BIGINT_MAX]


@pytest.mark.parametrize(("literal", "value"), [
    (r"'a\nb'", "a\nb"), (r"'a\tb'", "a\tb"), (r"'\0'", "\0"), (r"'\Z'", "\x1a"),
    (r"'it\'s'", "it's"), ("'it''s'", "it's"), ('"say ""hi"""', 'say "hi"'),
    (r"'back\\slash'", "back\\slash"), (r"'\x'", "x"),
    (r"'100\%'", "100\\%"), (r"'a\_b'", "a\\_b"),  # MySQL keeps the backslash of \% and \_
])
def test_string_escapes_are_decoded_as_mysql_does(literal: str, value: str) -> None:
    assert unescape(literal) == value
    assert extract(f"SELECT a FROM t WHERE b = {literal}").slots == [value]


def test_literals_in_the_outermost_select_list_stay_inline() -> None:
    got = extract("SELECT 1, 'a', c + 2, CONCAT(c, 'x') FROM t WHERE d = 3")
    assert got.shape == "SELECT 1, 'a', c + 2, CONCAT(c, 'x') FROM t WHERE d = :p0"
    assert got.slots == [3]


def test_subquery_where_is_parametrized_inside_a_select_list() -> None:
    got = extract("SELECT (SELECT 1 FROM u WHERE a = 3) FROM t WHERE b = 4")
    assert got.shape == "SELECT (SELECT 1 FROM u WHERE a = :p0) FROM t WHERE b = :p1"
    assert got.slots == [3, 4]


def test_literal_after_interval_stays_inline() -> None:
    got = extract("SELECT a FROM t WHERE d > NOW() - INTERVAL 3 DAY AND e = 5")
    assert got.shape == "SELECT a FROM t WHERE d > NOW() - INTERVAL 3 DAY AND e = :p0"
    assert got.slots == [5]


def test_order_by_and_group_by_positions_stay_inline_but_limit_is_parametrized() -> None:
    got = extract("SELECT a, COUNT(*) FROM t WHERE b = 1 GROUP BY 1 ORDER BY 2 DESC LIMIT 5, 10")
    assert got.shape == ("SELECT a, COUNT(*) FROM t WHERE b = :p0 GROUP BY 1 ORDER BY 2 DESC "
                         "LIMIT :p1, :p2")
    assert got.slots == [1, 5, 10]


def test_type_arguments_inside_cast_stay_inline() -> None:
    got = extract("SELECT a FROM t WHERE b = CAST(3 AS DECIMAL(10,2)) AND c = CAST(d AS CHAR(4))")
    assert got.shape == ("SELECT a FROM t WHERE b = CAST(:p0 AS DECIMAL(10,2)) AND "
                         "c = CAST(d AS CHAR(4))")
    assert got.slots == [3]


def test_charset_introducer_keeps_its_string_inline() -> None:
    got = extract("SELECT a FROM t WHERE s = _utf8mb4'x' AND n = N'y' AND z = 'z'")
    assert got.shape == "SELECT a FROM t WHERE s = _utf8mb4'x' AND n = N'y' AND z = :p0"
    assert got.slots == ["z"]


@pytest.mark.parametrize("sql", [
    "CREATE TABLE t (a varchar(10) DEFAULT 'x', b int DEFAULT 5)",
    "ALTER TABLE t ADD COLUMN c int DEFAULT 7",
    "SHOW TABLES LIKE 'a%'",
    "DROP TABLE IF EXISTS t",
    "CREATE DATABASE x",
])
def test_no_parameters_outside_dml(sql: str) -> None:
    got = extract(sql)
    assert got.slots == []
    assert got.shape == sql


def test_comments_are_removed() -> None:
    got = extract("SELECT /* hint 1 */ a -- trailing 2\nFROM t # hash 3\nWHERE b = 4 /* 'x' */;")
    assert got.shape == "SELECT a FROM t WHERE b = :p0"
    assert got.slots == [4]


def test_double_dash_without_space_is_an_operator_not_a_comment() -> None:
    got = extract("SELECT a FROM t WHERE b = 3--1")
    assert got.shape == "SELECT a FROM t WHERE b = :p0--:p1"
    assert got.slots == [3, 1]


def test_comment_markers_inside_strings_are_data() -> None:
    got = extract("SELECT a FROM t WHERE b = '/* not */ -- a # comment'")
    assert got.slots == ["/* not */ -- a # comment"]


@pytest.mark.parametrize(("sql", "shape"), [
    ("SELECT /*!40001 SQL_NO_CACHE */ a FROM t WHERE b = 1",
     "SELECT SQL_NO_CACHE a FROM t WHERE b = :p0"),
    ("SELECT /*! STRAIGHT_JOIN */ a FROM t", "SELECT STRAIGHT_JOIN a FROM t"),
    ("/*!40101 SET NAMES utf8mb4 */", "SET NAMES utf8mb4"),
])
def test_versioned_comment_content_is_kept(sql: str, shape: str) -> None:
    assert extract(sql).shape == shape


def test_first_word_and_trailing_semicolon() -> None:
    got = extract("  \n select 1 ;  ")
    assert got.first_word == "SELECT"
    assert got.shape == "select 1"
    assert extract("").first_word == ""


def test_client_params_in_prepare_mode() -> None:
    got = extract("SELECT a, ? FROM t WHERE b = ? AND c = 'lit' AND d = ?", client_params=True)
    assert got.shape == "SELECT a, :p0 FROM t WHERE b = :p1 AND c = :p2 AND d = :p3"
    assert got.slots == [ClientParam(0), ClientParam(1), "lit", ClientParam(2)]
    assert bind(got.slots, ["x", 10, 20]) == {"p0": "x", "p1": 10, "p2": "lit", "p3": 20}


def test_question_mark_is_not_a_parameter_outside_prepare_mode() -> None:
    got = extract("SELECT a FROM t WHERE b = ?")
    assert got.slots == []
    assert got.shape == "SELECT a FROM t WHERE b = ?"


def test_question_mark_inside_a_string_is_data() -> None:
    got = extract("SELECT a FROM t WHERE b = '?' AND c = ?", client_params=True)
    assert got.slots == ["?", ClientParam(0)]


@pytest.mark.parametrize(("sql", "for_update"), [
    ("SELECT a FROM t WHERE id = 1 FOR UPDATE", True),
    ("select a from t where id = 1 for update", True),
    ("SELECT a FROM t WHERE id = 1 LOCK IN SHARE MODE", True),
    ("SELECT a FROM t WHERE id = 1", False),
    ("SELECT 'for update' FROM t", False),
    ("UPDATE t SET a = 1", False),
    ("SELECT a FROM t /* FOR UPDATE */", False),
])
def test_for_update_detection(sql: str, for_update: bool) -> None:
    assert extract(sql).for_update is for_update
