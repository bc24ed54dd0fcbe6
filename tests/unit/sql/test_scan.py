"""sql/statement.py, the front door: a statement's words, shape, literal slots and item names."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rampmeter import errors
from rampmeter.errors import ServerError
from rampmeter.sql import charsets
from rampmeter.sql.lexer import Dialect, string_value
from rampmeter.sql.statement import ClientParam, scan, scan_all, slot_kind

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
tricky_text = st.text(alphabet=st.sampled_from(list("ab'\"\\%_?:-#/*! \n\t0é")) |
                      st.characters(blacklist_categories=("Cs",)), max_size=20)


# --- shapes and slots ----------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(a=st.integers(0, BIGINT_MAX), b=st.integers(0, BIGINT_MAX), s=tricky_text,
       style=quote_styles)
def test_statements_differing_only_in_literals_share_a_shape(a: int, b: int, s: str,
                                                             style: str) -> None:
    reference = scan("SELECT c FROM t WHERE id = 1 AND name = 'x' AND k IN (2, 3)")
    got = scan(f"SELECT c FROM t WHERE id = {a} AND name = {mysql_quote(s, style)} "
               f"AND k IN ({b}, 3)")
    assert got.shape == reference.shape
    assert got.shape == "SELECT c FROM t WHERE id = :i0 AND name = :s1 AND k IN (:i2, :i3)"
    assert got.slots == (a, s, b, 3)
    assert got.names == ("i0", "s1", "i2", "i3")


@settings(max_examples=100, deadline=None)
@given(values=st.lists(st.one_of(st.integers(0, BIGINT_MAX), tricky_text), min_size=1,
                       max_size=6), style=quote_styles)
def test_slots_come_back_in_textual_order(values: list[int | str], style: str) -> None:
    literals = [str(v) if isinstance(v, int) else mysql_quote(v, style) for v in values]
    got = scan(f"INSERT INTO t VALUES ({', '.join(literals)})")
    assert list(got.slots) == values
    kinds = ["i" if isinstance(v, int) else "s" for v in values]
    assert got.shape == "INSERT INTO t VALUES (" + ", ".join(
        f":{k}{i}" for i, k in enumerate(kinds)) + ")"


def test_numbers_are_typed_as_mysql_types_literals() -> None:
    got = scan("UPDATE t SET a = 1.5, b = 2e3, c = .5, d = 7, f = 1.250 WHERE e = -2")
    assert got.slots == (Decimal("1.5"), 2000.0, Decimal(".5"), 7, Decimal("1.250"), -2)
    assert got.names == ("n0_1", "f1", "n2_1", "i3", "n4_3", "i5")
    assert slot_kind("n4_3") == ("n", 4, 3)
    assert got.shape.endswith("WHERE e = :i5")  # a unary minus is part of the literal


def test_a_word_right_after_a_literal_stays_a_word() -> None:
    """'AAA'like 'A%': the placeholder and the word are two tokens of the shape (mtr
    ctype_utf16's include), not one name `s0like`."""
    got = scan("SELECT 'AAA'like 'A%', 'b'between'a'and'c'")
    assert got.shape == "SELECT :s0 like :s1, :s2 between:s3 and:s4"


def test_unary_minus_is_folded_binary_minus_is_not() -> None:
    got = scan("SELECT -9223372036854775808, 5 -1, a - 1, (-2), x = - 3, - a, 3--1")
    assert got.slots == (-2**63, 5, 1, 1, -2, -3, 3, -1)
    assert got.shape == "SELECT :i0, :i1 -:i2, a - :i3, (:i4), x = :i5, - a, :i6-:i7"


def test_integers_beyond_bigint_are_unsigned_then_decimal() -> None:
    got = scan(f"SELECT a FROM t WHERE b = {BIGINT_MAX + 1} AND c = {2**64} AND d = {BIGINT_MAX}")
    assert got.slots == (BIGINT_MAX + 1, Decimal(2**64), BIGINT_MAX)
    assert got.names == ("u0", "n1_0", "i2")


@pytest.mark.parametrize(("literal", "value"), [
    (r"'a\nb'", "a\nb"), (r"'a\tb'", "a\tb"), (r"'\0'", "\0"), (r"'\Z'", "\x1a"),
    (r"'it\'s'", "it's"), ("'it''s'", "it's"), ('"say ""hi"""', 'say "hi"'),
    (r"'back\\slash'", "back\\slash"), (r"'\x'", "x"),
    (r"'100\%'", "100\\%"), (r"'a\_b'", "a\\_b"),  # MySQL keeps the backslash of \% and \_
])
def test_string_escapes_are_decoded_as_mysql_does(literal: str, value: str) -> None:
    assert string_value(literal) == value
    assert scan(f"SELECT a FROM t WHERE b = {literal}").slots == (value,)


def test_no_backslash_escapes_mode_keeps_backslashes() -> None:
    dialect = Dialect.of("NO_BACKSLASH_ESCAPES")
    assert scan(r"SELECT a FROM t WHERE b = 'a\nb'", dialect).slots == ("a\\nb",)


def test_ansi_quotes_make_double_quotes_identifiers() -> None:
    got = scan('SELECT "col" FROM t WHERE "x" = \'v\'', Dialect.of("ANSI_QUOTES"))
    assert got.shape == "SELECT `col` FROM t WHERE `x` = :s0"


def test_a_word_right_after_a_literal_stays_apart_from_its_slot() -> None:
    # ''AND (mtr ps_11bugs): the slot :s1 must not become a parameter named s1AND
    got = scan("SELECT DATE('') between''AND 'x' AS c1")
    assert got.shape == "SELECT DATE(:s0) between:s1 AND :s2 AS c1"


def test_select_list_literals_are_slots_named_by_their_text() -> None:
    got = scan("SELECT 1, 'a', c + 2, CONCAT(c, 'x'), 1.50 FROM t WHERE d = 3")
    assert got.shape == "SELECT :i0, :s1, c + :i2, CONCAT(c, :s3), :n4_2 FROM t WHERE d = :i5"
    assert got.items == ("1", "a", "c + 2", "CONCAT(c, 'x')", "1.50")


def test_item_names_are_the_text_as_typed() -> None:
    got = scan("SELECT 1 /* c */ + 1, 'a' 'b', _binary'x', \\N, 1/*!100000 +1*/, t.a AS x")
    assert got.items == ("1 /* c */ + 1", "ab", "x", "NULL", "1 +1", "t.a AS x")
    bad = b"SELECT HEX('u\xa2')".decode("utf-8", "surrogateescape")
    assert scan(bad).items == ("HEX('u\\xA2')",)  # invalid bytes named as MariaDB names them
    # a lone NULL / TRUE / FALSE is named in capitals, as in MariaDB (mtr null)
    assert scan("SELECT null, True, false, null IS NULL").items == (
        "NULL", "TRUE", "FALSE", "null IS NULL")


def test_string_after_an_operand_is_an_alias() -> None:
    got = scan("SELECT 1 'one', a 'two', COUNT(*) 'n' FROM t WHERE b LIKE 'x%'")
    assert got.shape == "SELECT :i0 'one', a 'two', COUNT(*) 'n' FROM t WHERE b LIKE :s1"


def test_adjacent_strings_concatenate() -> None:
    assert scan("SELECT a FROM t WHERE b = 'x' 'y' \"z\"").slots == ("xyz",)


def test_subquery_where_is_parametrized_inside_a_select_list() -> None:
    got = scan("SELECT (SELECT 1 FROM u WHERE a = 3) FROM t WHERE b = 4")
    assert got.shape == "SELECT (SELECT :i0 FROM u WHERE a = :i1) FROM t WHERE b = :i2"


def test_literal_after_interval_stays_inline() -> None:
    got = scan("SELECT a FROM t WHERE d > NOW() - INTERVAL 3 DAY AND e = 5")
    assert got.shape == "SELECT a FROM t WHERE d > NOW() - INTERVAL 3 DAY AND e = :i0"


def test_order_by_and_group_by_positions_stay_inline_but_limit_is_parametrized() -> None:
    got = scan("SELECT a, COUNT(*) FROM t WHERE b = 1 GROUP BY 1 ORDER BY 2 DESC LIMIT 5, 10")
    assert got.shape == ("SELECT a, COUNT(*) FROM t WHERE b = :i0 GROUP BY 1 ORDER BY 2 DESC "
                         "LIMIT :i1, :i2")


def test_type_arguments_and_typed_literals_stay_inline() -> None:
    got = scan("SELECT a FROM t WHERE b = CAST(3 AS DECIMAL(10,2)) AND c = DATE '2020-01-02'")
    assert got.shape == ("SELECT a FROM t WHERE b = CAST(:i0 AS DECIMAL(10,2)) AND "
                         "c = DATE '2020-01-02'")


def test_charset_introducers_reinterpret_the_bytes() -> None:
    latin1 = charsets.charset("latin1")
    assert latin1 is not None
    text = latin1.decode(b"SELECT a FROM t WHERE s = _utf8mb4'\xc3\xa9' AND b = _binary'\xe9'"
                         b" AND l = '\xe9' AND n = N'y'")
    got = scan(text, charset=latin1)
    assert got.slots == ("é", b"\xe9", "é", "y")
    # an introduced text literal carries its character set in its slot name (infer.py)
    assert got.names == ("c0_utf8mb4", "b1", "s2", "c3_utf8mb3")


def test_binary_literals_are_bytes() -> None:
    got = scan("INSERT INTO t VALUES (X'00ff', 0x0102, b'1000001', 0b11, _binary'\\0a')")
    assert got.slots == (b"\x00\xff", b"\x01\x02", b"A", b"\x03", b"\x00a")


def test_invalid_utf8_in_a_string_is_a_binary_string() -> None:
    text = b"INSERT INTO t VALUES ('a\xffb')".decode("utf-8", "surrogateescape")
    assert scan(text).slots == (b"a\xffb",)


@pytest.mark.parametrize("bad", ["X'0'", "X'zz'", "b'12'"])
def test_malformed_binary_literals_are_1064(bad: str) -> None:
    with pytest.raises(ServerError) as info:
        scan(f"SELECT a FROM t WHERE b = {bad}")
    assert info.value.code == errors.ER_PARSE_ERROR


@pytest.mark.parametrize("sql", [
    "CREATE TABLE t (a varchar(10) DEFAULT 'x', b int DEFAULT 5)",
    "ALTER TABLE t ADD COLUMN c int DEFAULT 7",
    "SHOW TABLES LIKE 'a%'",
    "DROP TABLE IF EXISTS t",
    "CREATE DATABASE x",
])
def test_no_parameters_outside_dml(sql: str) -> None:
    got = scan(sql)
    assert got.slots == ()
    assert got.shape == sql
    assert got.tokens is not None and got.tokens[0].text.upper() == sql.split()[0]


def test_comments_are_removed() -> None:
    got = scan("SELECT /* hint 1 */ a -- trailing 2\nFROM t # hash 3\nWHERE b = 4 /* 'x' */;")
    assert got.shape == "SELECT a FROM t WHERE b = :i0"


def test_double_dash_without_space_is_an_operator_not_a_comment() -> None:
    got = scan("SELECT a FROM t WHERE b = 3--1")
    assert got.shape == "SELECT a FROM t WHERE b = :i0-:i1"  # 3 - (-1)
    assert got.slots == (3, -1)


def test_comment_markers_inside_strings_are_data() -> None:
    got = scan("SELECT a FROM t WHERE b = '/* not */ -- a # comment'")
    assert got.slots == ("/* not */ -- a # comment",)


@pytest.mark.parametrize(("sql", "shape"), [
    ("SELECT /*!40001 SQL_NO_CACHE */ a FROM t WHERE b = 1",
     "SELECT SQL_NO_CACHE a FROM t WHERE b = :i0"),
    ("SELECT /*! STRAIGHT_JOIN */ a FROM t", "SELECT STRAIGHT_JOIN a FROM t"),
    ("/*!40101 SET NAMES utf8mb4 */", "SET NAMES utf8mb4"),
    ("SELECT a /*M!100500 , b */ FROM t", "SELECT a , b FROM t"),
    # MariaDB skips MySQL 5.7+ versions and versions newer than itself
    ("SELECT a /*!50700 , b */ FROM t", "SELECT a FROM t"),
    ("SELECT a /*!80000 , 'it''s' */ FROM t", "SELECT a FROM t"),
    ("SELECT a /*!999999 , b */ FROM t", "SELECT a FROM t"),
])
def test_executable_comments(sql: str, shape: str) -> None:
    assert scan(sql).shape == shape


def test_words_skip_comments_and_open_executable_ones() -> None:
    assert scan("SHOW /*!50002 GLOBAL */ STATUS LIKE 'x'").words[:3] == ("SHOW", "GLOBAL",
                                                                         "STATUS")
    assert scan("/* c */ select 1").kind == "SELECT"
    assert scan("(SELECT 1) UNION (SELECT 2)").kind == "SELECT"
    assert scan("").kind == ""


def test_trailing_semicolon_and_nul_end_the_statement() -> None:
    assert scan("  \n select 1 ;  ").shape == "select :i0"
    assert scan("select 1\0").shape == "select :i0"  # mariadb-slap sends a NUL
    assert scan("select 1;\0\0").shape == "select :i0"


@pytest.mark.parametrize("sql", ["select 1\0 + 1", "select 'unterminated", "select `x",
                                 "select 1 /* open", "select :p0", "select 1; select 2",
                                 b"select \xff".decode("utf-8", "surrogateescape")])
def test_bad_text_is_1064_quoting_the_client_text(sql: str) -> None:
    with pytest.raises(ServerError) as info:
        scan(sql)
    assert info.value.code == errors.ER_PARSE_ERROR
    assert "near '" in info.value.message


def test_scan_all_splits_at_top_level_semicolons() -> None:
    got = scan_all("select 1; select ';' ; /* ; */ select 2;;")
    assert [s.shape for s in got] == ["select :i0", "select :s0", "select :i0"]
    assert [s.text for s in got] == ["select 1", "select ';'", "/* ; */ select 2"]


def test_client_params_in_prepare_mode() -> None:
    got = scan("SELECT a, ? FROM t WHERE b = ? AND c = 'lit' AND d = ?", client_params=True)
    assert got.shape == "SELECT a, :q0 FROM t WHERE b = :q1 AND c = :s2 AND d = :q3"
    assert got.slots == (ClientParam(0), ClientParam(1), "lit", ClientParam(2))
    assert got.param_count == 3
    assert got.items == ("a", "?")


def test_with_params_types_each_marker_by_its_value() -> None:
    """EXECUTE ... USING: a value is typed as a literal of it would be (a DECIMAL of scale 2
    makes `:n_2`); NULL stays a client's marker; the items keep the text as typed."""
    got = scan("SELECT ?, ? FROM t WHERE a = ? AND b = 'x' AND c IN (?, ?, ?, ?, ?, ?, ?, ?)",
               client_params=True)
    typed = got.with_params([Decimal("0.10"), 7, "s", b"b", 1.5, None, 2**64 - 1, -(2**70),
                             Decimal("12"), True, 4])
    assert typed.shape == ("SELECT :n0_2, :i1 FROM t WHERE a = :s2 AND b = :s3 AND c IN "
                           "(:b4, :f5, :q6, :u7, :n8_0, :n9_0, :i10, :i11)")
    assert typed.slots == (Decimal("0.10"), 7, "s", "x", b"b", 1.5, None, 2**64 - 1, -(2**70),
                           Decimal("12"), True, 4)
    assert typed.param_count == 11 and typed.items == ("?", "?")
    assert typed.text == got.text


@pytest.mark.parametrize(("text", "shape"), [
    ("SELECT a, b FROM t ORDER BY ?", "SELECT a, b FROM t ORDER BY 2"),
    ("SELECT a FROM t ORDER BY a, ? DESC LIMIT ?", "SELECT a FROM t ORDER BY a, 2 DESC LIMIT :i0"),
    ("SELECT COUNT(*) FROM t GROUP BY ?", "SELECT COUNT(*) FROM t GROUP BY 2"),
    ("SELECT a FROM t ORDER BY a - ?", "SELECT a FROM t ORDER BY a - :i0"),
    ("SELECT a FROM t ORDER BY f(a, ?)", "SELECT a FROM t ORDER BY f(a, :i0)"),
    ("SELECT a FROM t WHERE b IN (1, ?) ORDER BY a", "SELECT a FROM t WHERE b IN (:i0, :i1) "
     "ORDER BY a"),
])
def test_an_integer_bound_as_a_whole_order_by_item_is_a_position(text: str, shape: str) -> None:
    """MariaDB (mtr ps_2myisam): `ORDER BY ?` with 2 sorts by the second column."""
    got = scan(text, client_params=True)
    assert got.with_params([2] * got.param_count).shape == shape


def test_question_mark_outside_prepare_mode_is_1064() -> None:
    with pytest.raises(ServerError) as info:
        scan("SELECT a FROM t WHERE b = ?")
    assert info.value.code == errors.ER_PARSE_ERROR


def test_question_mark_inside_a_string_is_data() -> None:
    got = scan("SELECT a FROM t WHERE b = '?' AND c = ?", client_params=True)
    assert got.slots == ("?", ClientParam(0))


@pytest.mark.parametrize(("sql", "for_update"), [
    ("SELECT a FROM t WHERE id = 1 FOR UPDATE", True),
    ("select a from t where id = 1 for update", True),
    ("SELECT a FROM t WHERE id = 1 LOCK IN SHARE MODE", True),
    ("SELECT a FROM t WHERE id = 1 FOR SHARE", True),
    ("SELECT a FROM t WHERE id = 1", False),
    ("SELECT 'for update' FROM t", False),
    ("UPDATE t SET a = 1", False),
    ("SELECT a FROM t /* FOR UPDATE */", False),
])
def test_for_update_detection(sql: str, for_update: bool) -> None:
    assert scan(sql).for_update is for_update


def test_syntax_error_position_maps_back_to_the_client_text() -> None:
    stmt = scan("SELECT a FROM t WHERE b = 'x' AND c = 1 +")
    err = stmt.syntax_error(stmt.shape.index("+"))
    assert "near '+' at line 1" in err.args[0]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=60))
def test_any_bytes_scan_or_fail_with_1064(raw: bytes) -> None:
    text = raw.decode("utf-8", "surrogateescape")
    code = None
    try:
        scan_all(text)
    except ServerError as e:
        code = e.code
    # invalid bytes in a quoted identifier are 1300, as in MariaDB (docs/sql.md)
    assert code in (None, errors.ER_PARSE_ERROR, errors.ER_INVALID_CHARACTER_STRING)


def test_invalid_bytes_in_a_quoted_identifier_are_1300() -> None:
    with pytest.raises(ServerError) as info:
        scan(b"SELECT `\xffa`".decode("utf-8", "surrogateescape"))
    assert (info.value.code, info.value.message) == (
        errors.ER_INVALID_CHARACTER_STRING, "Invalid utf8mb4 character string: '\\xFFa'")


# --- compound statements (issue 13: stored programs) -------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("CREATE PROCEDURE p() BEGIN SELECT 1; IF a THEN SELECT 2; END IF; END; SELECT 3",
     ["CREATE PROCEDURE p() BEGIN SELECT 1; IF a THEN SELECT 2; END IF; END", "SELECT 3"]),
    ("BEGIN; SELECT 1", ["BEGIN", "SELECT 1"]),
    ("BEGIN NOT ATOMIC SELECT CASE WHEN 1 THEN 2 END; END; DO 1",
     ["BEGIN NOT ATOMIC SELECT CASE WHEN 1 THEN 2 END; END", "DO 1"]),
    ("IF 1 THEN SELECT 1; ELSE SELECT 2; END IF; SELECT IF(1, 2, 3)",
     ["IF 1 THEN SELECT 1; ELSE SELECT 2; END IF", "SELECT IF(1, 2, 3)"]),
    ("l: LOOP LEAVE l; END LOOP l; SELECT 1", ["l: LOOP LEAVE l; END LOOP l", "SELECT 1"]),
    ("FOR i IN 1..2 DO SELECT REPEAT('a', i); END FOR; SELECT 1",
     ["FOR i IN 1..2 DO SELECT REPEAT('a', i); END FOR", "SELECT 1"]),
    ("CREATE TABLE t (a INT); DROP TABLE IF EXISTS t", ["CREATE TABLE t (a INT)",
                                                        "DROP TABLE IF EXISTS t"]),
])
def test_a_program_body_is_one_statement(text, expected):
    assert [s.text for s in scan_all(text)] == expected
    first = scan(expected[0])
    assert first.text == expected[0]


def test_a_hex_literal_with_a_character_set_introducer_is_typed_by_it() -> None:
    # _ucs2 x'003D': text of that character set (a :c slot), as _ucs2'..' is
    got = scan("SELECT _ucs2 x'003D', _latin1 0xE9, _binary x'41', x'41'")
    assert got.slots == ("=", "é", b"A", b"A")
    assert got.names == ("c0_ucs2", "c1_latin1", "x2", "x3")


@pytest.mark.parametrize(("text", "parts"), [
    ("CREATE PROCEDURE p1()\n FOR i IN 1..10 DO\n set @x = 5;\n END FOR;\nSELECT 1", 2),
    ("CREATE FUNCTION f() RETURNS VARCHAR(9) CHARACTER SET latin1 DETERMINISTIC "
     "IF 1 THEN RETURN 1; END IF; SELECT 2", 2),
    ("CREATE PROCEDURE p() COMMENT 'x' WHILE 1 DO SELECT 1; END WHILE; SELECT 3", 2),
    ("CREATE TRIGGER t BEFORE INSERT ON t1 FOR EACH ROW IF NEW.a THEN SET @a = 1; "
     "ELSE SET @a = 2; END IF; SELECT 4", 2),
    ("CREATE PROCEDURE p() SELECT IF(1, 2, 3); SELECT 5", 2),
    ("CREATE FUNCTION f() RETURNS DOUBLE PRECISION RETURN IF(1, 2, 3); SELECT 6", 2),
])
def test_a_routine_body_without_begin_keeps_its_semicolons(text: str, parts: int) -> None:
    """MariaDB's parser reads a body that is an IF / loop without BEGIN to its END: the ';'
    inside it do not end the CREATE (mtr sp-bugs)."""
    got = scan_all(text)
    assert len(got) == parts
    assert got[-1].text.startswith("SELECT")


def test_a_long_program_is_scanned_once_not_again_at_each_semicolon(monkeypatch) -> None:
    """open_blocks is asked at each ';' of a growing CREATE PROCEDURE: it goes on from where
    it stopped (mtr sp_stress_case generates a CASE of thousands of WHENs)."""
    import rampmeter.sql.statement as S
    calls = []
    real = S._routine_body
    monkeypatch.setattr(S, "_routine_body", lambda toks: calls.append(1) or real(toks))
    body = "CREATE PROCEDURE p(i INT)\nBEGIN\n  DECLARE s CHAR(10);\n  CASE i\n" + "".join(
        f"    WHEN {k} THEN SET s = '{k}';\n" for k in range(300)) + "  END CASE;\nEND"
    got = scan_all(body + "; SELECT 1")
    assert [g.text[:6] for g in got] == ["CREATE", "SELECT"]
    assert len(calls) == 1


def test_an_item_in_parentheses_keeps_the_name_of_a_literal_inside() -> None:
    # MariaDB names only items that have no name yet: a number, a string, NULL / TRUE / FALSE
    # already have one, so parentheses around them do not change it (mtr parser_stack)
    got = scan("SELECT (1), ((( 1.5 ))), ('a' 'b'), (null), (\\N), (true), (-1), (1)+1, "
               "(x'41'), (date'2001-01-01'), (a), (@v)")
    assert got.items == ("1", "1.5", "ab", "NULL", "NULL", "TRUE", "(-1)", "(1)+1",
                         "(x'41')", "(date'2001-01-01')", "(a)", "(@v)")


def test_a_byte_invalid_in_the_clients_charset_is_1300_where_a_name_would_be() -> None:
    # kept as a lone surrogate (lexer.py); MariaDB's lexer refuses it (mtr ctype_dec8)
    from rampmeter.sql import charsets
    with pytest.raises(ServerError) as e:
        scan("SET STATEMENT a.\udcd0=1 SELECT 1", charset=charsets.charset("dec8"))
    assert (e.value.code, e.value.message) == (1300, "Invalid dec8 character string: '\\xD0'")
    with pytest.raises(ServerError) as e:  # the whole identifier is quoted
        scan("select a\udcd0", charset=charsets.charset("dec8"))
    assert e.value.message == "Invalid dec8 character string: 'a\\xD0'"


def test_an_unmapped_multibyte_sequence_makes_an_identifier_1300() -> None:
    """A sequence with a character's structure but no character (cp932 0x81AD, big5 0xA3C0)
    is part of the identifier, which is refused quoting its bytes; after a dot only up to the
    first byte when the trail byte is a character alone (MariaDB 10.11, mtr ctype_cp932)."""
    from rampmeter.sql import charsets
    cp932, big5 = charsets.charset("cp932"), charsets.charset("big5")
    assert cp932 is not None and big5 is not None

    def refused(raw: bytes, cs: charsets.Charset) -> str:
        with pytest.raises(ServerError) as e:
            scan(cs.decode(raw), charset=cs)
        assert e.value.code == 1300
        return e.value.message
    assert refused(b"SET \x81\xad=1", cp932) == "Invalid cp932 character string: '\\x81\\xAD'"
    assert refused(b"SELECT A\x81\xadA", cp932) == \
        "Invalid cp932 character string: 'A\\x81\\xADA'"
    assert refused(b"SET a.\x81\xad=1", cp932) == "Invalid cp932 character string: '\\x81'"
    assert refused(b"SET a.\xa3\xc0=1", big5) == "Invalid big5 character string: '\\xA3\\xC0'"
    scan(cp932.decode(b"SELECT \x82\xa0"), charset=cp932)  # a character: a name


def test_a_program_after_set_statement_for_keeps_its_semicolons() -> None:
    text = "SET STATEMENT sql_mode='' FOR CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END"
    assert [s.text for s in scan_all(text)] == [text]
    text = "SET STATEMENT sql_mode='' FOR BEGIN NOT ATOMIC SELECT 1; END; SELECT 3"
    assert [s.text for s in scan_all(text)] == [text[:-10], "SELECT 3"]
