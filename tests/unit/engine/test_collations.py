"""MariaDB's collation coercibility (collagg.py): which operations mix collations they cannot
(1267 / 1270 / 1271 "Illegal mix of collations"), and COERCIBILITY(). Expected answers measured
on MariaDB 10.11 (mtr func_in, func_test, case, null)."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession
from rampmeter.engine.sqlite.collagg import COERCIBLE, DT, EXPLICIT, IMPLICIT, NONE, aggregate
from rampmeter.errors import ServerError

from .conftest import FakeContext, fails, rows, scalar


@pytest.fixture
def t(session: SqliteSession) -> SqliteSession:
    session.execute("CREATE TABLE t (a VARCHAR(10) COLLATE latin1_general_ci, "
                    "b VARCHAR(10) COLLATE latin1_swedish_ci, c VARCHAR(10) COLLATE "
                    "latin1_danish_ci, d VARCHAR(10) CHARACTER SET koi8r, e VARCHAR(10))")
    session.execute("INSERT INTO t VALUES ('A', 'B', 'C', 'd', 'e')")
    return session


def test_columns_of_one_charset_and_two_collations(t: SqliteSession) -> None:
    err = fails(t, "SELECT * FROM t WHERE a IN (b)", 1267)  # IN of one item is '='
    assert "(latin1_general_ci,IMPLICIT) and (latin1_swedish_ci,IMPLICIT) for operation '='" \
        in str(err)
    err = fails(t, "SELECT * FROM t WHERE a IN (b, c)", 1270)
    assert "(latin1_danish_ci,IMPLICIT) for operation 'in'" in str(err)
    fails(t, "SELECT * FROM t WHERE 'a' IN (a, b, c)", 1271)
    fails(t, "SELECT * FROM t WHERE a LIKE b", 1267)
    fails(t, "SELECT CASE a WHEN b THEN 1 END FROM t", 1267)
    # a string result may have no collation (latin1_bin, NONE); comparing it may not
    assert rows(t.execute("SELECT CONCAT(a, b) FROM t")) == [("AB",)]
    err = fails(t, "SELECT CONCAT(a, b) = 'x' FROM t", 1267)
    assert "(latin1_bin,NONE) and (utf8mb4_general_ci,COERCIBLE)" in str(err)
    # COLLATE is explicit: it wins over a column's collation
    assert scalar(t, "SELECT a COLLATE latin1_bin = b FROM t") == 0


def test_character_sets_that_do_not_convert(t: SqliteSession) -> None:
    err = fails(t, "SELECT * FROM t WHERE a = d", 1267)
    assert "(latin1_general_ci,IMPLICIT) and (koi8r_general_ci,IMPLICIT)" in str(err)
    assert "'ifnull'" in str(fails(t, "SELECT IFNULL(a, d) FROM t", 1267))
    assert "'coalesce'" in str(fails(t, "SELECT COALESCE(a, d) FROM t", 1267))
    assert "'if'" in str(fails(t, "SELECT IF(1, a, d) FROM t", 1267))
    # Unicode is a superset: utf8mb4 and latin1 mix
    assert rows(t.execute("SELECT * FROM t WHERE a = e")) == []
    assert rows(t.execute("SELECT 1 FROM t WHERE a = 1")) == []  # compared as numbers


def test_literals_convert_when_their_value_does(t: SqliteSession) -> None:
    assert rows(t.execute("SELECT a FROM t WHERE d = 'abc'")) == []
    fails(t, "SELECT a FROM t WHERE a = 'Ω'", 1267)      # no Ω in latin1
    assert rows(t.execute("SELECT a FROM t WHERE a = 'é'")) == []
    assert rows(t.execute("SELECT a FROM t WHERE d = 'ж'")) == []
    fails(t, "SELECT a FROM t WHERE d = 'é'", 1267)      # the same shape, another value
    assert rows(t.execute("SELECT CONCAT(a, _koi8r'x') FROM t")) == [("Ax",)]
    fails(t, "SELECT CONCAT(a, _koi8r'ж') FROM t", 1267)
    # a function of constants is a constant: converted by its value (mtr ctype_recoding)
    t.execute("CREATE TABLE r (a VARCHAR(10) CHARACTER SET cp1251)")
    assert rows(t.execute("SELECT a FROM r WHERE a = CONCAT(_koi8r 0xC1C2)")) == []
    # an introducer before a hexadecimal literal makes text of that character set
    assert rows(t.execute("SELECT CHARSET(_koi8r 0xC1C2), COLLATION(_koi8r 0xC1C2), "
                          "CHARSET(_binary 0xC1)")) == [("koi8r", "koi8r_general_ci", "binary")]
    err = fails(t, "SELECT _koi8r'a' = _latin1'A'", 1267)
    assert "(koi8r_general_ci,COERCIBLE) and (latin1_swedish_ci,COERCIBLE)" in str(err)
    fails(t, "SELECT STRCMP(_koi8r'a', _latin1'A')", 1267)
    err = fails(t, "SELECT NULLIF(_latin1'a' COLLATE latin1_general_ci, "
                   "_latin1'a' COLLATE latin1_bin)", 1267)
    assert "(latin1_general_ci,EXPLICIT) and (latin1_bin,EXPLICIT) for operation 'nullif'" \
        in str(err)


def test_coercibility(t: SqliteSession) -> None:
    assert rows(t.execute("SELECT COERCIBILITY('a'), COERCIBILITY(1), COERCIBILITY(NULL), "
                          "COERCIBILITY(USER()), COERCIBILITY('a' COLLATE utf8mb4_bin), "
                          "COERCIBILITY(CONCAT('a', 1))")) == [(4, 5, 6, 3, 0, 4)]
    assert rows(t.execute("SELECT COERCIBILITY(a), COERCIBILITY(CONCAT(a, 'x')), "
                          "COERCIBILITY(CAST(a AS CHAR)) FROM t")) == [(2, 2, 2)]


def test_aggregate_rules() -> None:
    swedish = DT("latin1_swedish_ci", IMPLICIT, False)
    german = DT("latin1_german1_ci", IMPLICIT, False)
    assert aggregate("concat", [swedish, german], False) == DT("latin1_bin", NONE, False)
    with pytest.raises(ServerError):
        aggregate("=", [swedish, german], True)
    explicit = DT("latin1_german1_ci", EXPLICIT, False)
    assert aggregate("=", [swedish, explicit], True).collation == "latin1_german1_ci"
    ascii_koi8r = DT("koi8r_general_ci", COERCIBLE, True, "a")
    assert aggregate("=", [swedish, ascii_koi8r], True).collation == "latin1_swedish_ci"
    utf8 = DT("utf8mb3_general_ci", IMPLICIT, False)
    utf8mb4 = DT("utf8mb4_general_ci", IMPLICIT, False)
    assert aggregate("=", [utf8, utf8mb4], True).collation == "utf8mb4_general_ci"


def test_create_select_literal_takes_collation_connection(session: SqliteSession) -> None:
    ctx = session.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["collation_connection"] = "utf8mb4_bin"
    session.execute("CREATE TABLE c AS SELECT 1 AS code, ' ' AS str LIMIT 0")
    ddl = rows(session.execute("SHOW CREATE TABLE c"))[0][1]
    assert "`str` varchar(1) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL" in ddl, ddl


def test_string_functions_keep_their_character_set(session: SqliteSession) -> None:
    """CONCAT, UPPER, SUBSTR... of latin1 text are latin1 (their bytes, their CHARSET()), as
    MariaDB aggregates their operands."""
    session.execute("CREATE TABLE h (a VARCHAR(10) CHARACTER SET latin1, "
                    "b VARCHAR(10) CHARACTER SET cp1251, c VARCHAR(10) CHARACTER SET ucs2)")
    session.execute("INSERT INTO h VALUES ('é', 'ж', 'é')")
    assert rows(session.execute(
        "SELECT HEX(UPPER(a)), HEX(CONCAT(a, 'x')), HEX(CONCAT(b, 'ж')), HEX(SUBSTR(a, 1)), "
        "HEX(LOWER(c)), CHARSET(CONCAT(a, 'x')), COLLATION(UPPER(b)), LENGTH(CONCAT(a, c)), "
        "HEX(CONCAT(_koi8r 0xC1C2)) FROM h")) == [
        ("C9", "E978", "E6E6", "E9", "00E9", "latin1", "cp1251_general_ci", 4, "C1C2")]


def test_results_of_several_operands_aggregate(session: SqliteSession) -> None:
    """IF / COALESCE / CASE and the library's text functions answer in their operands'
    collation; a view's literals are in the collation_connection it was created with."""
    ctx = session.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["collation_connection"] = "ujis_japanese_ci"
    session.execute("CREATE TABLE u (c1 VARCHAR(10) CHARACTER SET ujis)")
    session.execute("INSERT INTO u VALUES ('a')")
    assert rows(session.execute(
        "SELECT COLLATION(REPEAT(c1, 2)), COLLATION(COALESCE(c1, 'x')), "
        "COLLATION(CASE WHEN 1 THEN c1 END), COLLATION(LPAD(c1, 3, _latin1'x')), "
        "COLLATION(REPEAT('a', 2)) FROM u")) == [("ujis_japanese_ci",) * 5]
    session.execute("CREATE VIEW v AS SELECT c1, IF(c1 < 0x20, CONCAT('<', HEX(c1), '>'), c1) "
                    "AS name FROM u")
    ctx.variables["collation_connection"] = "utf8mb4_general_ci"
    assert rows(session.execute(
        "SELECT column_name, collation_name FROM information_schema.columns "
        "WHERE table_name = 'v' ORDER BY column_name")) == [
        ("c1", "ujis_japanese_ci"), ("name", "ujis_japanese_ci")]


def test_hex_literal_compared_with_text_is_text(session: SqliteSession) -> None:
    """x'41' against a text column is text of the column's character set (its derivation is
    weaker), compared by the column's collation; against a number it is a number."""
    session.execute("CREATE TABLE x (c1 VARCHAR(10), c2 VARCHAR(10) CHARACTER SET ujis, "
                    "c3 VARCHAR(10) CHARACTER SET latin1, n INT, b VARBINARY(4))")
    session.execute("INSERT INTO x VALUES (' ', ' ', 'é', 1, 'a'), ('A', 'A', 'A', 40, 'b'), "
                    "(0x05, 0x05, 'a', 100, 'c')")
    assert rows(session.execute(
        "SELECT c1 < 0x20, c1 = 0x41, c1 = x'61', c1 > 0x00, c2 < 0x20, c2 = 0x41, c3 = 0xE9, "
        "0x41 = c1, n < 0x30, b < 0x62, 0x20 > c1 FROM x")) == [
        (0, 0, 0, 1, 0, 0, 1, 0, 1, 1, 0),
        (0, 1, 1, 1, 0, 1, 0, 1, 1, 0, 0),
        (1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1)]


def test_upper_lower_map_one_character_at_a_time(session: SqliteSession) -> None:
    """MariaDB's UPPER / LOWER use simple case mappings: 'ß' and 'ﬁ' have no single-character
    uppercase and stay, 'İ' lowers to 'i', a final 'Σ' to 'σ' (mtr ctype_latin2)."""
    assert rows(session.execute(
        "SELECT UPPER('ßéﬁ'), LOWER('ÀİΣ'), HEX(UPPER(CONVERT(_latin2 0xDF USING latin2))), "
        "UPPER('ǅ'), LOWER('ǅ'), UPPER('abc')")) == [("ßÉﬁ", "àiσ", "DF", "Ǆ", "ǆ", "ABC")]


def test_column_collate_clauses(session: SqliteSession) -> None:
    """A column's COLLATE must belong to the character set its type names (1253) and agree
    with an earlier COLLATE or BINARY (1302, MDEV-28067); as MariaDB 10.11 answers
    (mtr ctype_collate, ctype_collate_column)."""
    err = fails(session, "CREATE TABLE t (a CHAR(10) COLLATE latin1_swedish_ci NOT NULL "
                         "COLLATE latin1_bin)", 1302)
    assert "'COLLATE latin1_swedish_ci' and 'COLLATE latin1_bin'" in str(err)
    fails(session, "CREATE TABLE t (a CHAR(10) CHARACTER SET latin1 COLLATE DEFAULT NOT NULL "
                   "COLLATE latin1_bin)", 1302)
    assert "'COLLATE latin1_bin' and 'COLLATE latin1_swedish_ci'" in str(fails(
        session, "CREATE TABLE t (a CHAR(10) CHARACTER SET latin1 BINARY NOT NULL "
                 "COLLATE latin1_swedish_ci)", 1302))
    err = fails(session, "CREATE TABLE t (a CHAR(32) CHARACTER SET latin1 "
                         "COLLATE koi8r_general_ci)", 1253)
    assert "COLLATION 'koi8r_general_ci' is not valid for CHARACTER SET 'latin1'" in str(err)
    fails(session, "CREATE TABLE t (e CHAR(3) ASCII COLLATE koi8r_bin)", 1253)  # ASCII: latin1
    session.execute("CREATE TABLE t (a CHAR(10) CHARACTER SET latin1 COLLATE DEFAULT "
                    "COLLATE latin1_swedish_ci, b CHAR(3) COLLATE koi8r_general_ci, "
                    "c CHAR(3) CHARACTER SET latin1 BINARY COLLATE latin1_bin, "
                    "d TEXT COLLATE utf8mb4_bin COLLATE utf8mb4_bin)")
    assert rows(session.execute(
        "SELECT column_name, collation_name FROM information_schema.columns "
        "WHERE table_name = 't' ORDER BY column_name")) == [
        ("a", "latin1_swedish_ci"), ("b", "koi8r_general_ci"), ("c", "latin1_bin"),
        ("d", "utf8mb4_bin")]
    assert "'BINARY' and 'COLLATE latin1_swedish_ci'" in str(fails(
        session, "CREATE TABLE t2 (a CHAR(10) BINARY NOT NULL COLLATE latin1_swedish_ci)", 1302))


def test_function_of_binary_string_compared_with_text(session: SqliteSession) -> None:
    """UPPER(binary_col) = 'BBB' compares bytes (mtr ctype_cp1251): the library call keeps
    its type after it is renamed for SQLite, so the text side becomes bytes too."""
    session.execute("CREATE TABLE b (a CHAR(3) BINARY, b BINARY(3)) CHARACTER SET cp1251")
    session.execute("INSERT INTO b VALUES ('aaa', 'bbb'), ('AAA', 'BBB')")
    assert rows(session.execute("SELECT a FROM b WHERE UPPER(b) = 'BBB'")) == [("AAA",)]
    assert rows(session.execute("SELECT a FROM b WHERE LOWER(b) = 'bbb'")) == [("aaa",)]


def test_locate_instr_strcmp_by_a_bin_collation(session: SqliteSession) -> None:
    """LOCATE / INSTR / POSITION / STRCMP compare by their operands' collation: a _bin one
    (or a binary string) makes case count (mtr ctype_utf8mb4_heap)."""
    assert rows(session.execute(
        "SELECT LOCATE('HE', 'hello' COLLATE utf8mb4_bin), LOCATE('HE', 'hello'), "
        "LOCATE('lo', 'hello' COLLATE utf8mb4_bin, 2), INSTR('hello' COLLATE utf8mb4_bin, "
        "'HE'), POSITION('L' IN 'hello' COLLATE utf8mb4_bin), STRCMP('a' COLLATE utf8mb4_bin, "
        "'A'), STRCMP('a', 'A'), LOCATE('B', BINARY 'abc'), "
        "LOCATE(_utf8mb4 0xD0B1, _utf8mb4 0xD0B0D0B1D0B2 COLLATE utf8mb4_bin)")) == [
        (0, 1, 4, 0, 0, 1, 0, 0, 2)]


def test_like_and_pad_space_by_collation(session: SqliteSession) -> None:
    """LIKE by a _bin collation is case-sensitive; PAD SPACE compares the shorter string as
    if padded with spaces ('a\\0' < 'a'); a _bin COLLATE still ignores trailing spaces
    (mtr ctype_utf8mb4_heap)."""
    assert rows(session.execute(
        "SELECT 'A' LIKE 'a' COLLATE utf8mb4_bin, 'A' LIKE 'a', 'A' NOT LIKE 'a' COLLATE "
        "utf8mb4_bin, 'a_%' LIKE 'a|_|%' COLLATE utf8mb4_bin ESCAPE '|', 'ab' LIKE 'a_' "
        "COLLATE utf8mb4_bin, BINARY 'Abc' LIKE 'a%'")) == [(0, 1, 1, 1, 1, 0)]
    assert rows(session.execute(
        "SELECT 'a\\0' < 'a', 'a\\t' < 'a ', 'a' = 'a ' COLLATE utf8mb4_bin, "
        "'a\\0' < 'a' COLLATE utf8mb4_bin, STRCMP('a\\0', 'a'), 'a' = 'a ' COLLATE "
        "utf8mb4_nopad_bin")) == [(1, 1, 1, 1, -1, 0)]


def test_hex_literal_into_text_column_is_in_its_character_set(session: SqliteSession) -> None:
    """A hexadecimal literal's bytes are in the column's character set, whatever the client's
    (0xE9 into latin1 is 'é'); bytes not valid there are '?' with 1366 quoting them from the
    first invalid one (mtr ctype_utf8mb4_heap)."""
    session.execute("CREATE TABLE h (s1 VARCHAR(20) CHARACTER SET utf8mb4, "
                    "s2 VARCHAR(10) CHARACTER SET latin1, s3 VARCHAR(10) CHARACTER SET ucs2)")
    result = session.execute("INSERT IGNORE INTO h VALUES (0x41FFFEFDFCFBFAF9F8F7, 0xE9, "
                             "0x0041)")
    assert [(w.code, w.message) for w in result.warnings] == [
        (1366, "Incorrect string value: '\\xFF\\xFE\\xFD\\xFC\\xFB\\xFA...' for "
               "column `db`.`h`.`s1` at row 1")]
    assert rows(session.execute("SELECT HEX(s1), s2, s3 FROM h")) == [
        ("413F3F3F3F3F3F3F3F3F", "é", "A")]


def test_columns_compare_by_their_mariadb_collation(session: SqliteSession) -> None:
    """A _ci column weighs as MariaDB's collation: letters fold to upper case, so they sort
    before '[' .. '`' (SQLite's NOCASE folds to lower case); accents do not count in
    utf8mb4_general_ci ('é' = 'E', and UNIQUE says so); latin1_swedish_ci has its own table
    (ß after _, å = '[')."""
    # the _nopad_ variants: the same weights, through the Python collations (the three
    # defaults themselves are SQLite's NOCASE, see the next test)
    session.execute("CREATE TABLE c (a VARCHAR(5) COLLATE utf8mb4_general_nopad_ci UNIQUE, "
                    "b VARCHAR(5) CHARACTER SET latin1 COLLATE latin1_swedish_nopad_ci)")
    session.execute("INSERT INTO c VALUES ('a', 'a'), ('[', '['), ('_', '_'), ('é', 'é'), "
                    "('ß', 'ß')")
    assert [r[0] for r in rows(session.execute("SELECT a FROM c ORDER BY a"))] == \
        ["a", "é", "ß", "[", "_"]
    assert [r[0] for r in rows(session.execute("SELECT b FROM c ORDER BY b"))] == \
        ["a", "é", "[", "_", "ß"]
    assert rows(session.execute("SELECT a FROM c WHERE a = 'E'")) == [("é",)]
    assert rows(session.execute("SELECT b FROM c WHERE b = 'E'")) == [("é",)]
    assert "for key 'a'" in str(fails(session, "INSERT INTO c VALUES ('e', 'x')", 1062))
    assert rows(session.execute(
        "SELECT a FROM c WHERE a IN ('A', 's') ORDER BY a COLLATE utf8mb4_bin")) == \
        [("a",), ("ß",)]


def test_the_default_collations_are_sqlites_nocase(session: SqliteSession) -> None:
    """utf8mb4_general_ci and utf8mb3_general_ci columns use SQLite's NOCASE (a Python
    collation costs a call per comparison: docs/sql.md): ASCII case folds, accents count, and
    '[' .. '`' sort before the letters. latin1_swedish_ci (mtr's default) is exact: its own
    weights, PAD SPACE (mtr binary)."""
    session.execute("CREATE TABLE n (a VARCHAR(5) COLLATE utf8mb4_general_ci, "
                    "b VARCHAR(5) CHARACTER SET latin1)")
    session.execute("INSERT INTO n VALUES ('a', 'a'), ('[', '['), ('B', 'B'), ('é', 'é')")
    assert [r[0] for r in rows(session.execute("SELECT a FROM n ORDER BY a"))] == \
        ["[", "a", "B", "é"]
    assert rows(session.execute("SELECT b FROM n WHERE b = 'A'")) == [("a",)]
    assert rows(session.execute("SELECT a FROM n WHERE a = 'E'")) == []
    assert rows(session.execute("SELECT b FROM n WHERE b = 'E '")) == [("é",)]
    assert [r[0] for r in rows(session.execute("SELECT b FROM n ORDER BY b"))] == \
        ["a", "B", "é", "["]
    # ORDER BY a position and MIN / MAX of an expression sort by its collation too
    assert [r[0] for r in rows(session.execute(
        "SELECT CONCAT(b, '') FROM n ORDER BY 1"))] == ["a", "B", "é", "["]
    assert rows(session.execute("SELECT MIN(CONCAT(b, '')), MAX(CONCAT(b, '')) FROM n")) == [
        ("a", "[")]


def test_identifiers_defaults_and_lost_characters(session: SqliteSession) -> None:
    """DEFAULT _koi8r 0xFF is that character; one the column's set cannot hold is 1067; 1366
    for a character lost in conversion quotes the client's bytes from it (mtr
    ctype_recoding)."""
    session.execute("CREATE TABLE d (a CHAR(1) CHARACTER SET cp1251 DEFAULT _koi8r 0xFF)")
    assert "DEFAULT 'Ъ'" in rows(session.execute("SHOW CREATE TABLE d"))[0][1]
    fails(session, "CREATE TABLE e (a CHAR(1) CHARACTER SET latin1 DEFAULT _cp1251 0xFF)",
          1067)
    session.execute("CREATE TABLE k (a CHAR(10) CHARACTER SET koi8r)")
    result = session.execute("INSERT IGNORE INTO k VALUES ('AÊBÃÕËÊÊ')")  # a utf8mb4 client
    assert [w.message for w in result.warnings] == [
        "Incorrect string value: '\\xC3\\x8AB\\xC3\\x83\\xC3...' for column `db`.`k`.`a` "
        "at row 1"]


def test_missing_default_warns_once_per_column(session: SqliteSession) -> None:
    """INSERT IGNORE leaving out a NOT NULL column without a default warns 1364 once per
    column for the statement, however many rows, as MariaDB does (mtr ctype_common.inc)."""
    session.execute("CREATE TABLE m (a INT NOT NULL, b INT NOT NULL)")
    result = session.execute("INSERT IGNORE INTO m VALUES (), ()")
    assert [w.message for w in result.warnings] == [
        "Field 'a' doesn't have a default value", "Field 'b' doesn't have a default value"]
    result = session.execute("INSERT IGNORE INTO m (b) VALUES (1), (2)")
    assert [w.message for w in result.warnings] == ["Field 'a' doesn't have a default value"]
    assert rows(session.execute("SELECT COUNT(*) FROM m")) == [(4,)]


def test_group_concat_order_and_repeat_width(session: SqliteSession) -> None:
    """GROUP_CONCAT(... ORDER BY) of latin1 text sorts by latin1_swedish_ci's weights (ß after
    '_'); CREATE TABLE ... SELECT REPEAT('a', 10) is a VARCHAR(10) (mtr ctype_cp1250_ch)."""
    session.execute("CREATE TABLE g (b VARCHAR(5) CHARACTER SET latin1)")
    session.execute("INSERT INTO g VALUES ('a'), ('['), ('_'), ('é'), ('ß'), ('z')")
    assert rows(session.execute("SELECT GROUP_CONCAT(b ORDER BY b SEPARATOR ' ') FROM g")) == \
        [("a é z [ _ ß",)]
    session.execute("CREATE TABLE r AS SELECT REPEAT('a', 10) AS c1, LPAD('x', 5, 'y') AS c2 "
                    "LIMIT 0")
    ddl = rows(session.execute("SHOW CREATE TABLE r"))[0][1]
    assert "`c1` varchar(10)" in ddl and "`c2` varchar(5)" in ddl, ddl


def test_weight_string_of_8bit_and_nopad_collations(session: SqliteSession) -> None:
    """WEIGHT_STRING of an 8-bit collation is its sort order's bytes; AS CHAR(n) of a NO PAD
    collation pads the weights with 0x00 (mtr ctype_nopad_8bit, ctype_latin2)."""
    session.execute("CREATE TABLE w (a VARCHAR(10) CHARACTER SET latin1 COLLATE "
                    "latin1_swedish_nopad_ci, b VARCHAR(10) CHARACTER SET latin2, "
                    "c VARCHAR(10) CHARACTER SET cp1251 COLLATE cp1251_bin)")
    session.execute("INSERT INTO w VALUES ('a', 'ä', 'ж'), ('a  ', 'ß', 'Ж'), (' a', 'Ł', 'a')")
    assert rows(session.execute(
        "SELECT HEX(WEIGHT_STRING(a AS CHAR(10))), HEX(WEIGHT_STRING(b)), "
        "HEX(WEIGHT_STRING(b AS CHAR(4))), HEX(WEIGHT_STRING(c)) FROM w")) == [
        ("41000000000000000000", "43", "43202020", "E6"),
        ("41202000000000000000", "FF", "FF202020", "C6"),
        ("20410000000000000000", "52", "52202020", "61")]


def test_weight_string_of_collations_whose_table_follows_a_comment(
        session: SqliteSession) -> None:
    """cp866_general_ci and latin7_general_ci have comments before their <map> in MariaDB's
    charsets/*.xml: their sort orders are used too, one byte per character, not weighed as
    Unicode (mtr ctype_nopad_8bit)."""
    session.execute("CREATE TABLE w2 (a VARCHAR(10) CHARACTER SET cp866 COLLATE "
                    "cp866_general_nopad_ci, b VARCHAR(10) CHARACTER SET latin7)")
    session.execute("INSERT INTO w2 VALUES ('a ', 'a'), (' a', 'B')")
    assert rows(session.execute(
        "SELECT HEX(WEIGHT_STRING(a AS CHAR(4))), HEX(WEIGHT_STRING(b)) FROM w2")) == [
        ("41200000", "86"), ("20410000", "92")]


def test_between_and_simple_case_of_literals_by_collation(session: SqliteSession) -> None:
    """'B' BETWEEN 'a' AND 'c' compares by the literals' _ci collation; CASE x WHEN compares
    as MariaDB aggregates x and the WHENs: a binary string makes bytes (mtr func_test, case)."""
    assert rows(session.execute(
        "SELECT 'B' BETWEEN 'a' AND 'c', 'B' BETWEEN 'a' COLLATE utf8mb4_bin AND 'c', "
        "CASE BINARY 'b' WHEN 'a' THEN 1 WHEN 'B' THEN 2 WHEN 'b' THEN 'ok' END, "
        "CASE 'b' WHEN 'a' THEN 1 WHEN BINARY 'B' THEN 2 WHEN 'b' THEN 'ok' END, "
        "CASE 'B' WHEN 'a' THEN 1 WHEN 'b' THEN 'ok' END, "
        "CASE 'a ' WHEN 'a' THEN 'pad' END")) == [(1, 0, "ok", "ok", "ok", "pad")]


def test_literal_in_columns_compares_by_the_columns_collation(session: SqliteSession) -> None:
    """'a' IN (col) compares by the column's collation (its IMPLICIT derivation wins over the
    literal's), as 'a' = col does (mtr func_in)."""
    session.execute("CREATE TABLE i (a CHAR(1) CHARACTER SET latin1 COLLATE latin1_general_ci,"
                    " c CHAR(1) CHARACTER SET latin1 COLLATE latin1_bin)")
    session.execute("INSERT INTO i VALUES ('A', 'C'), ('a', 'c')")
    assert rows(session.execute("SELECT a FROM i WHERE 'a' IN (a) ORDER BY c")) == \
        [("A",), ("a",)]
    assert rows(session.execute("SELECT a FROM i WHERE 'C' IN (c, c)")) == [("A",)]


def test_collate_names_a_collation_in_quotes(session: SqliteSession) -> None:
    """COLLATE 'latin1_bin' is COLLATE latin1_bin (the quoted name was taken for a literal:
    'Unknown collation: s1'); COLLATION() of it names it (mtr ctype_pad.inc)."""
    assert rows(session.execute(
        "SELECT IF(_latin1'abc' COLLATE 'latin1_swedish_nopad_ci' = 'abc ', 'pad', 'nopad'), "
        "'a' COLLATE 'utf8mb4_bin' = 'A', COLLATION('a' COLLATE 'utf8mb4_bin'), "
        "COLLATION('a' COLLATE utf8mb4_unicode_ci), COERCIBILITY('x' COLLATE 'utf8mb4_bin')"
        )) == [("nopad", 0, "utf8mb4_bin", "utf8mb4_unicode_ci", 0)]
    fails(session, "SELECT 'a' COLLATE 'nosuch'", 1273)


def test_collation_functions() -> None:
    """collations.py's comparisons: PAD SPACE against NO PAD, sort-order tables, general_ci
    weights (MariaDB 10.11's answers)."""
    from rampmeter.engine.sqlite.collations import comparison
    from rampmeter.sql import charsets
    pad = comparison(charsets.COLLATIONS["latin1_swedish_ci"])
    nopad = comparison(charsets.COLLATIONS["latin1_swedish_nopad_ci"])
    assert pad("a", "A ") == 0 and nopad("a", "A ") == -1
    assert pad("a\0", "a") == -1 and pad("ß", "_") == 1 and pad("å", "[") == 0
    general = comparison(charsets.COLLATIONS["utf8mb4_general_ci"])
    assert general("é", "E") == 0 and general("ß", "s") == 0 and general("a", "_") == -1
    assert general("😀", "🎉") == 0  # every supplementary character weighs U+FFFD
    assert comparison(charsets.COLLATIONS["utf8mb4_bin"])("a", "A") == 1


def test_case_binary_under_a_latin1_connection(session: SqliteSession) -> None:
    """BINARY 'b' of latin1 text is rm_cast_binary, typed as a binary string, so CASE compares
    bytes there too (mtr case runs with a latin1 connection)."""
    ctx = session.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["collation_connection"] = "latin1_swedish_ci"
    assert rows(session.execute(
        "SELECT CASE BINARY 'b' WHEN 'a' THEN 1 WHEN 'B' THEN 2 WHEN 'b' THEN 'ok' END")) == \
        [("ok",)]


def test_bin_columns_pad_space(session: SqliteSession) -> None:
    """A PAD SPACE _bin column ignores trailing spaces ('a' = 'a '), a _nopad_bin one does
    not; GROUP_CONCAT ... ORDER BY of a _bin column sorts by code point (mtr ctype_nopad_8bit)."""
    session.execute("CREATE TABLE p (a VARCHAR(10) CHARACTER SET dec8 COLLATE dec8_bin, "
                    "b VARCHAR(10) COLLATE utf8mb4_bin, c VARCHAR(10) COLLATE utf8mb4_nopad_bin)")
    session.execute("INSERT INTO p VALUES ('a', 'a', 'a'), ('a ', 'a ', 'a '), ('A', 'A', 'A')")
    assert rows(session.execute(
        "SELECT (SELECT COUNT(*) FROM p WHERE a = 'a'), (SELECT COUNT(*) FROM p WHERE b = 'a'), "
        "(SELECT COUNT(*) FROM p WHERE c = 'a')")) == [(2, 2, 1)]
    order = rows(session.execute("SELECT GROUP_CONCAT(b ORDER BY b) FROM p"))[0][0]
    assert order.startswith("A,")  # 'a' and 'a ' tie: their order is not MariaDB's to say


def test_strcmp_by_an_explicit_collation(session: SqliteSession) -> None:
    """STRCMP(a COLLATE c, b) compares by c: case counts in a _cs one, trailing spaces and a
    shorter string count in a NO PAD one (MariaDB 10.11; mtr ctype_cp932)."""
    ctx = session.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["collation_connection"] = "latin1_swedish_ci"
    assert rows(session.execute(
        "SELECT STRCMP('a' COLLATE latin1_general_cs, 'A'), "
        "STRCMP('a ' COLLATE latin1_swedish_nopad_ci, 'A'), "
        "STRCMP('a ' COLLATE latin1_swedish_ci, 'A'), "
        "STRCMP(_latin1'' COLLATE latin1_nopad_bin, _latin1 0x0001), "
        "STRCMP('B' COLLATE latin1_german1_ci, 'a')")) == [(1, 1, 0, -1, 1)]


def test_weight_string_of_multibyte_japanese_and_korean(session: SqliteSession) -> None:
    """cp932, sjis, ujis, eucjpms, euckr weigh a single byte by its sort order (ASCII letters
    upper-cased) and a multi-byte character by its bytes (MariaDB's my_strnxfrm_mb)."""
    assert rows(session.execute(
        "SELECT HEX(WEIGHT_STRING(_cp932 0x617A7E2082A0)), "
        "HEX(WEIGHT_STRING(_ujis 0x617A7E20A4A2)), "
        "HEX(WEIGHT_STRING(_sjis 'a' AS CHAR(3)))")) == [
        ("415A7E2082A0", "415A7E20A4A2", "412020")]


def test_date_arithmetic_on_strings_and_numbers_in_concat(session: SqliteSession) -> None:
    """'2013-11-15' - INTERVAL 7 DAY is a string of the connection's character set
    (coercible); CONCAT of numbers or temporals only is in the connection's character set
    too (MariaDB 10.11, mtr ctype_latin2 MDEV-5298)."""
    ctx = session.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["collation_connection"] = "latin2_general_ci"
    assert rows(session.execute(
        "SELECT CHARSET('2013-11-15 00:41:28' - INTERVAL 7 DAY), "
        "COERCIBILITY('2013-11-15 00:41:28' - INTERVAL 7 DAY), "
        "CHARSET(CONCAT(TIMESTAMP'2013-11-15 00:41:28' - INTERVAL 7 DAY)), "
        "CHARSET(CONCAT(1)), COERCIBILITY(CONCAT(1)), "
        "CHARSET(TIMESTAMP'2013-11-15 00:41:28' - INTERVAL 7 DAY)")) == [
        ("latin2", 4, "latin2", "latin2", 4, "binary")]
    session.execute("CREATE TABLE l2 (a VARCHAR(64) CHARACTER SET latin2)")
    session.execute("INSERT INTO l2 VALUES ('')")
    assert rows(session.execute(
        "SELECT COERCIBILITY(CONCAT(a, '2001-01-08 00:00:00' - INTERVAL 7 DAY)) FROM l2")) == \
        [(2,)]


def test_like_escape_nul(session: SqliteSession) -> None:
    """ESCAPE with a NUL character (a hex literal, 0x0): SQLite refuses it, MariaDB escapes
    with it (mtr ctype_cp850, MDEV-25610)."""
    ctx = session.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["collation_connection"] = "cp850_general_ci"
    assert rows(session.execute(
        "SELECT _cp850'' LIKE _cp850'' ESCAPE _cp850 0x0, 'a%' LIKE 'a|%' ESCAPE '|', "
        "'ab' LIKE 'a|%' ESCAPE '|', 'AB' LIKE 'a%' ESCAPE _cp850 0x00, "
        "'ab' LIKE 'a_' ESCAPE _cp850 0xFF")) == [(1, 1, 0, 1, 1)]


def test_system_functions_types_and_mixing(session: SqliteSession) -> None:
    """USER() is VARCHAR(384) utf8mb3, CHARSET()/COLLATION() VARCHAR(64) utf8mb3; a SYSCONST
    (USER()) mixes with a latin1 column by its value; CREATE ... SELECT puts a defined column
    the query names at the query's position (MariaDB 10.11; mtr func_system)."""
    session.execute("CREATE TABLE fs (c1 VARCHAR(10) CHARACTER SET latin1)")
    session.execute("INSERT INTO fs VALUES ('row 1')")
    assert rows(session.execute("SELECT CONCAT(DATABASE(), '--', c1), "
                                "CHARSET(CHARSET('a')) FROM fs")) == [("db--row 1", "utf8mb3")]
    session.execute("CREATE TABLE fs2 (a INT, version CHAR(60)) SELECT DATABASE(), USER(), "
                    "VERSION() AS version, COLLATION('a')")
    ddl = rows(session.execute("SHOW CREATE TABLE fs2"))[0][1]
    assert [line.split()[0].lower() for line in ddl.splitlines()[1:6]] == [
        "`a`", "`database()`", "`user()`", "`version`", "`collation('a')`"]
    assert "()` varchar(384) CHARACTER SET utf8mb3" in ddl
    assert "('a')` varchar(64) CHARACTER SET utf8mb3" in ddl


def test_like_by_the_collation(session: SqliteSession) -> None:
    """LIKE weighs characters by the comparison's collation (MariaDB's my_wildcmp): non-ASCII
    case in the Unicode _ci ones, an 8-bit sort order's equal letters ('ä' is 'A' in
    latin1_german1_ci), case in a _cs one (mtr ctype_utf8mb4, ctype_latin2_ch)."""
    session.execute("CREATE TABLE lk (a VARCHAR(10) CHARACTER SET latin1 COLLATE "
                    "latin1_german1_ci, b VARCHAR(10) COLLATE utf8mb4_unicode_ci, "
                    "c VARCHAR(10) CHARACTER SET latin2 COLLATE latin2_czech_cs)")
    session.execute("INSERT INTO lk VALUES ('Äb', 'Äb', 'Aa'), ('ab', 'ab', 'Aas'), "
                    "('a%b', 'a_b', 'x')")
    assert sorted(rows(session.execute("SELECT a FROM lk WHERE a LIKE 'ä%'"))) == [
        ("a%b",), ("ab",), ("Äb",)]
    assert rows(session.execute("SELECT a FROM lk WHERE a LIKE 'a\\\\%%'")) == [("a%b",)]
    assert rows(session.execute("SELECT b FROM lk WHERE b NOT LIKE 'Ä_'")) == [("a_b",)]
    assert rows(session.execute("SELECT b FROM lk WHERE b LIKE 'a|_b' ESCAPE '|'")) == [
        ("a_b",)]
    assert rows(session.execute("SELECT c FROM lk WHERE c LIKE 'AA%'")) == []
    assert rows(session.execute("SELECT c FROM lk WHERE c LIKE 'Aa%' ORDER BY c")) == [
        ("Aa",), ("Aas",)]
    assert rows(session.execute(
        "SELECT CONVERT('Günter André' USING utf8mb4) LIKE CONVERT('GÜNTER%' USING utf8mb4), "
        "CONVERT('вася' USING utf8mb4) LIKE CONVERT('ВАСЯ' USING utf8mb4)")) == [(1, 1)]


def test_latin1_german2_expands_umlauts(session: SqliteSession) -> None:
    """latin1_german2_ci weighs Ä as AE, ß as SS (MariaDB 10.11's weights; mtr
    ctype_latin1_de)."""
    session.execute("CREATE TABLE de2 (a VARCHAR(10) CHARACTER SET latin1 COLLATE "
                    "latin1_german2_ci)")
    session.execute("INSERT INTO de2 VALUES ('af'), ('ä'), ('ad'), ('ss'), ('ß'), ('st')")
    assert [r[0] for r in rows(session.execute("SELECT a FROM de2 ORDER BY a, HEX(a)"))] == [
        "ad", "ä", "af", "ss", "ß", "st"]
    assert rows(session.execute("SELECT COUNT(*) FROM de2 WHERE a = 'AE'")) == [(1,)]
    assert rows(session.execute(
        "SELECT HEX(WEIGHT_STRING(_latin1 X'61C462DF' COLLATE latin1_german2_ci))")) == [
        ("414145425353",)]


def test_an_explicit_collation_wins_over_sets_that_do_not_mix(session: SqliteSession) -> None:
    """agg_item_collations: latin1 and latin2 literals leave binary / NONE, which a later
    EXPLICIT operand wins over (mtr ctype_collate); without one it is 1267."""
    assert rows(session.execute(
        "SELECT LEAST(_latin1'a', _latin2'b', _latin5'c' COLLATE latin5_turkish_ci), "
        "COLLATION(CONCAT(_latin1'a', _latin2'b', _latin5'c' COLLATE latin5_turkish_ci))")) == [
        ("a", "latin5_turkish_ci")]
    fails(session, "SELECT CONCAT(_latin1'a', _latin2'b')", 1267)
