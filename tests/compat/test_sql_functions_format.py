"""Issue 13, third pass: string functions MariaDB's own suite needed (SFORMAT), answers
compared with MariaDB through a real driver."""

from __future__ import annotations

import pytest

from tests.compat.conftest import drivers

CHECKS = ("rows", "error", "warnings", "warning_text")


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_sformat_follows_fmt(compat, driver):
    compat.check(driver, [
        "SELECT SFORMAT('string test'), SFORMAT(0), SFORMAT(-4.2), SFORMAT(5, 5, 5)",
        "SELECT SFORMAT('{{{}}}', 0), SFORMAT(' {{ {} {}', 'p1', 'p2'), "
        "SFORMAT('{0}{1}{0}', 'abra', 'cad'), SFORMAT('{} {}', FALSE, TRUE)",
        "SELECT SFORMAT('Float {} Number {} Sum {}', 3.14159, -50, 2 + 3)",
        "SELECT SFORMAT('{:.2f}|{: }|{:*^15}|{:<6}|{:x}|{:#b}', 1.5, 1, 'mid', 'l', 255, 5)",
        "SELECT SFORMAT('{:+} {:08.3f} {:e} {:.3s}', 7, -2.5, 1234.5e0, 'abcdef')",
        "SELECT SFORMAT('{}', 100e0), SFORMAT('{}', 1e20), SFORMAT('{}', 0.5e0)",
        "SELECT SFORMAT('Num {:L}', 13800000000), SFORMAT('Number: {:*^{}}', 4, 5), "
        "SFORMAT('{0:d} {0:#x} {0:#o}', 42), SFORMAT('{:.2f} {:f} {:.3}', 42.0, 42.0, 3.1416)",
        "SELECT SFORMAT('Large {0:+010.4g}', 392.64), SFORMAT('{:02}-{:c}', 1, 104)",
        "SELECT SFORMAT('{:.2f}', 45)",
        "SELECT sformat()",
        "SELECT SFORMAT('R={ }', 42)",
        "SELECT SFORMAT('My { Test')",
        "SELECT SFORMAT('Test {:c}', 'word')",
        "SELECT SFORMAT('Test {one}', 1)",
        "SELECT SFORMAT('Number {:{<}', 8)",
        "SELECT SFORMAT('Number {:10000000000}', 5)",
        "SELECT SFORMAT('1={1} 2={2}', 0, 1)",
        "SELECT SFORMAT('{:.2d}', 42)",
        "SELECT SFORMAT('{:%}', 0.25)",
        "SELECT SFORMAT('{:f}', 45)",
        "SELECT SFORMAT('{:,}', 13800000000)",
        "SELECT SFORMAT('{:-}', 'hello')",
        "SELECT SFORMAT(NULL, 'a'), SFORMAT('{} {}', 0, NULL)",
        "SELECT LENGTH(SFORMAT('{:1024}', 1)), LENGTH(SFORMAT('{:2147483647}', 1))",
        "SELECT SFORMAT()",
        "CREATE TABLE sf (f TEXT, d FLOAT, i INT, s VARCHAR(30))",
        "INSERT INTO sf VALUES ('{:.2f} {: } |{:*^15}', 1.11, 1, 'example I'), "
        "('{:.4f} {:d} |{:^15}', -4.44, -4, 'example IV')",
        "SELECT SFORMAT(f, d, i, s) FROM sf ORDER BY i",
        "DROP TABLE sf",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_weight_string_of_the_simple_collations(compat, driver):
    compat.check(driver, [
        "SET NAMES latin1",
        "SELECT HEX(WEIGHT_STRING(0x010203)), HEX(WEIGHT_STRING('aa' AS CHAR(3))), "
        "HEX(WEIGHT_STRING('ab' AS CHAR(1))), HEX(WEIGHT_STRING('ab'))",
        "SELECT HEX(WEIGHT_STRING('aa' AS BINARY(3))), "
        "HEX(WEIGHT_STRING(CAST('aa' AS BINARY(3)))), WEIGHT_STRING(NULL)",
        "SELECT HEX(WEIGHT_STRING('a' AS CHAR(0)))",
        "SELECT HEX(WEIGHT_STRING('a' AS CHAR(-1)))",
        "SELECT HEX(WEIGHT_STRING('ab' LEVEL 1 ASC)), HEX(WEIGHT_STRING('ab' LEVEL 1 DESC)), "
        "HEX(WEIGHT_STRING('ab' LEVEL 1 REVERSE)), HEX(WEIGHT_STRING('ab' LEVEL 1 DESC REVERSE))",
        "SELECT HEX(WEIGHT_STRING('ab' LEVEL 1-1 ASC))",
        "SET NAMES utf8mb4",
        "SELECT HEX(WEIGHT_STRING('aé ' COLLATE utf8mb4_general_ci)), "
        "HEX(WEIGHT_STRING('aé' COLLATE utf8mb4_bin)), HEX(WEIGHT_STRING('Ab' AS CHAR(3)))",
        "CREATE TABLE ws (s VARCHAR(5), i INT)",
        "INSERT INTO ws VALUES ('a', 1), (NULL, 2)",
        "SELECT HEX(WEIGHT_STRING(s)), WEIGHT_STRING(i) IS NULL FROM ws ORDER BY i",
        "DROP TABLE ws",
        "CREATE TABLE wsrc (s VARCHAR(4), l VARCHAR(4) CHARACTER SET latin1, "
        "b VARCHAR(4) COLLATE utf8mb4_bin)",
        "CREATE TABLE wt SELECT WEIGHT_STRING(s) AS w, WEIGHT_STRING(l) AS x, "
        "WEIGHT_STRING(b) AS y, WEIGHT_STRING(s AS CHAR(300)) AS z, "
        "WEIGHT_STRING(s AS BINARY(3)) AS c FROM wsrc",
        "SHOW CREATE TABLE wt",
        "DROP TABLE wt, wsrc",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_json_extract_keeps_the_documents_text(compat, driver):
    compat.check(driver, [
        "SELECT JSON_EXTRACT('{\"b\": 0.0E0, \"b\": 3}', '$.b'), "
        "JSON_EXTRACT('{\"a\" :{\"b\":[1,2 ,\"x, y\"]}}', '$.a'), "
        "JSON_EXTRACT('{\"k\":\"asd\", \"l\":[2,3]}', '$.k', '$.l'), "
        "JSON_EXTRACT('[1, 2]', '$[5]'), JSON_EXTRACT('{\"s\": \"\\\\u00e9\"}', '$.s')",
        "SELECT JSON_EXTRACT('{\"a\": 1', '$.a')",
        "SELECT JSON_QUERY('{\"key1\":123, \"key1\": [1,2,3]}', '$.key1')",
        "SELECT JSON_QUERY('{\"key1\": 1}', CONCAT('$', REPEAT('.k', 1000)))",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_json_valid_notes_say_why(compat, driver):
    compat.check(driver, [
        "SELECT JSON_VALID(REPEAT('[', 1000))",
        "SELECT JSON_VALID('[1, 2')",
        "SELECT JSON_VALID('[1, 2] x')",
        "SELECT JSON_VALID('{\"a\": [1, {\"b\": null}]}'), JSON_VALID(NULL)",
    ], CHECKS)
