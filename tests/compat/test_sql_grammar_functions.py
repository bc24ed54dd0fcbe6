"""Issue 13, second pass: grammar and functions MariaDB's own suite needed (its "syntax
refused", "function missing" and "unexpected error" causes), answers compared with MariaDB
through a real driver."""

from __future__ import annotations

import pytest

from tests.compat.conftest import drivers

CHECKS = ("rows", "error", "warnings", "warning_text")


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_regular_expressions_are_pcre2(compat, driver):
    compat.check(driver, [
        "SELECT 'à' RLIKE '\\\\x{00E0}', ' ' REGEXP '[[:blank:]]', '\\t' REGEXP '[[:space:]]'",
        "SELECT 'Я' RLIKE '\\\\p{Cyrillic}', 'ප' RLIKE '\\\\p{L&}', 'A' RLIKE '(?-i)a', "
        "'A' RLIKE '(?i)a', 'aab' RLIKE 'a++b', 'x1' RLIKE '^[[:alpha:]][[:digit:]]$'",
        "SELECT 'A' RLIKE 'a' COLLATE utf8mb4_bin, 'A' COLLATE utf8mb4_bin RLIKE 'a'",
        "SELECT REGEXP_REPLACE('aa bb', '(a)\\\\g1 (b)\\\\g2', 'c'), "
        "REGEXP_REPLACE('abc', 'b', '[\\\\0\\\\1\\\\x]'), REGEXP_REPLACE('abc', 'x*', '-'), "
        "REGEXP_SUBSTR('abc123', '[[:digit:]]+'), REGEXP_INSTR('abc', 'c')",
        "SELECT 'a.b' RLIKE '\\\\Qa.b\\\\E', 'axb' RLIKE '^\\\\Qa.b\\\\E$', "
        "'the word' RLIKE '[[:<:]]word[[:>:]]'",
        "SELECT '' RLIKE '['",
        "SELECT REGEXP_INSTR('', '(')",
        "SELECT 'a' RLIKE 'a{2,1}'",
        "CREATE TABLE rx (s VARCHAR(10), p VARCHAR(10))",
        "INSERT INTO rx VALUES ('ghi', 'ghi['), ('aaa', 'a+'), (NULL, 'a')",
        "SELECT s RLIKE p FROM rx ORDER BY s",
        "DROP TABLE rx",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_rownum_numbers_the_rows_where_accepts(compat, driver):
    compat.check(driver, [
        "CREATE TABLE rn (a INT)",
        "INSERT INTO rn VALUES (1), (2), (3), (4), (5)",
        "SELECT a, ROWNUM() FROM rn WHERE ROWNUM() <= 3 AND a > 1",
        "SELECT a FROM rn WHERE 2 >= ROWNUM() ORDER BY a DESC",
        "SELECT a FROM rn WHERE ROWNUM() < 3",
        "SELECT a FROM rn WHERE ROWNUM() = 1",
        "SELECT a FROM rn WHERE ROWNUM() = 2",
        "SELECT a FROM rn WHERE ROWNUM() > 0",
        "SELECT a FROM rn WHERE ROWNUM() <= 4 LIMIT 2 OFFSET 1",
        "SELECT SUM(a), COUNT(*) FROM rn WHERE ROWNUM() <= 2",
        "SELECT VARIANCE(a) AS f1, VARIANCE(a) AS f2 FROM rn WHERE ROWNUM() = 2 HAVING f1 > 1",
        "SELECT VARIANCE(a) AS f1 FROM rn HAVING f1 > 1",
        "SELECT a FROM (SELECT a FROM rn LIMIT 2) AS d ORDER BY a DESC",
        "DROP TABLE rn",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_json_normalize_equals_query(compat, driver):
    deep = '{"o":' * 32 + "1" + "}" * 32
    compat.check(driver, [
        "SELECT JSON_EQUALS('{}', '{}'), JSON_EQUALS('{}', '[]'), JSON_EQUALS('{}', NULL)",
        "SELECT JSON_EQUALS('', '')",
        "SELECT JSON_EQUALS('[1, 2', '[1]')",
        "SELECT JSON_EQUALS('{\"a\" : [0.10], \"b\" : [1, 2, 3]}', "
        "'{\"b\" : [1, 2, 3], \"a\" : [1e-1]}')",
        "SELECT JSON_NORMALIZE('[ \"s\", { \"key\" : \"val\", \"a\" : \"b\", "
        "\"c\" : [ 10, 9, 8, \"seven\", 11 ] }]')",
        "SELECT JSON_NORMALIZE('[ 1.2, 0.0, \"text\", 0, null, true, false, -0.05e3 ]')",
        "SELECT JSON_NORMALIZE('{\"a\": null, \"a\": true, \"a\": false, \"a\": 123, "
        "\"a\": \"string\", \"a\": [2], \"a\": [1, 2], \"a\": {}, \"a\": {\"k\": 1}}')",
        "SELECT JSON_NORMALIZE('{ \"invalid\": \"no_close\"')",
        "SELECT JSON_NORMALIZE('[1] x')",
        f"SELECT JSON_NORMALIZE('{deep}')",
        "SELECT JSON_QUERY('{\"k\":{\"a\":1, \"b\":[1,2]}}', '$.k'), "
        "JSON_QUERY('{\"k\":{\"a\":1}}', '$.k.a'), JSON_QUERY('{\"k\":1}', '$.x')",
        "SELECT JSON_VALUE('[1, true, false, null, \"x\", 1.5]', '$[1]'), "
        "JSON_VALUE('[1, true, false]', '$[2]'), JSON_VALUE('{\"a\": null}', '$.a'), "
        "JSON_VALUE('{\"a\": \"s\"}', '$.a'), JSON_VALUE('[1.5]', '$[0]')",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_odbc_escapes(compat, driver):
    answers = compat.run(driver, [
        "SELECT {fn length('hello')}, { date '1997-10-20' }, {d '1997-10-20'}, "
        "{t '10:11:12'}, {ts '2000-01-02 03:04:05'}, {fn concat('a', {fn lcase('B')})}",
        "CREATE TABLE oj1 (a INT)", "CREATE TABLE oj2 (a INT, b INT)",
        "INSERT INTO oj1 VALUES (1), (2)", "INSERT INTO oj2 VALUES (1, 10)",
        "SELECT oj1.a, oj2.b FROM { oj oj1 LEFT OUTER JOIN oj2 ON oj1.a = oj2.a } ORDER BY 1",
        "SELECT {x}", "SELECT 1 }",
        "DROP TABLE oj1, oj2",
    ])
    answers.assert_same(CHECKS, columns=(0,))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_intersect_all_and_except_all(compat, driver):
    compat.check(driver, [
        "CREATE TABLE sa (a INT, b VARCHAR(3))", "CREATE TABLE sb (c INT, d VARCHAR(3))",
        "INSERT INTO sa VALUES (1, 'x'), (1, 'x'), (1, 'x'), (2, NULL), (2, NULL), (3, 'z')",
        "INSERT INTO sb VALUES (1, 'x'), (2, NULL), (4, 'w')",
        "SELECT * FROM sa EXCEPT ALL SELECT * FROM sb ORDER BY a, b",
        "SELECT * FROM sa INTERSECT ALL SELECT * FROM sb ORDER BY 1",
        "SELECT a FROM sa EXCEPT ALL SELECT c FROM sb EXCEPT ALL SELECT 1 ORDER BY a",
        "SELECT a, b FROM sa INTERSECT ALL SELECT c, d FROM sb UNION ALL SELECT 9, 'n' "
        "ORDER BY a",
        "SELECT COUNT(*) FROM (SELECT a FROM sa EXCEPT ALL SELECT c FROM sb) AS d",
        "DROP TABLE sa, sb",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_returning_after_upsert_and_from_insert_select(compat, driver):
    compat.check(driver, [
        "CREATE TABLE r1 (id INT PRIMARY KEY, b BIT(7), f FLOAT)",
        "CREATE TABLE r2 (id INT PRIMARY KEY, b BIT(7), f FLOAT)",
        "INSERT INTO r1 VALUES (1, b'1000011', 1.5) ON DUPLICATE KEY UPDATE f = 2 RETURNING *",
        "INSERT INTO r1 VALUES (1, b'1000011', 1.5) ON DUPLICATE KEY UPDATE f = 2 "
        "RETURNING id, f",
        "INSERT INTO r2 SELECT * FROM r1 RETURNING *",
        "DROP TABLE r1, r2",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_returning_columns_are_named_as_typed(compat, driver):
    answers = compat.run(driver, [
        "CREATE TABLE rt (id1 INT PRIMARY KEY, val1 VARCHAR(3))",
        "CREATE TABLE rt2 (id2 INT, val2 VARCHAR(3))",
        "INSERT INTO rt2 VALUES (1, 'a')",
        "REPLACE INTO rt (id1, val1) VALUES (1, 'c') RETURNING id1+id1 AS total, "
        "id1&&id1, id1|id1, UPPER(val1)",
        "REPLACE INTO rt (id1, val1) VALUES (1, 'd') RETURNING (SELECT GROUP_CONCAT(val2) "
        "FROM rt2 WHERE id2=1)",
        "REPLACE INTO rt (id1, val1) VALUES (1, 'g') RETURNING rt.*",
        "DELETE FROM rt RETURNING  val1 ,  id1*2",
        "DROP TABLE rt, rt2",
    ])
    answers.assert_same(CHECKS, columns=(3, 5, 6))  # 4: GROUP_CONCAT's type is BLOB there


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_group_concat_order_by(compat, driver):
    compat.check(driver, [
        "CREATE TABLE gc (id INT, name VARCHAR(10), g INT)",
        "INSERT INTO gc VALUES (2, 'b', 1), (1, 'a', 1), (3, 'c', 2), (4, NULL, 2), "
        "(5, 'd', 1), (6, 'a', 2)",
        "SELECT GROUP_CONCAT(name ORDER BY id) FROM gc",
        "SELECT g, GROUP_CONCAT(name ORDER BY id DESC SEPARATOR ';') FROM gc GROUP BY g "
        "ORDER BY g",
        "SELECT GROUP_CONCAT(name, id ORDER BY name, id DESC) FROM gc",
        "SELECT GROUP_CONCAT(DISTINCT name ORDER BY name DESC) FROM gc",
        "SELECT GROUP_CONCAT(id ORDER BY name IS NULL, name, id) FROM gc",
        "SELECT GROUP_CONCAT(name ORDER BY id) FROM gc WHERE id > 100",
        "DROP TABLE gc",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_a_variable_where_no_operand_may_be_is_a_syntax_error(compat, driver):
    compat.check(driver, [
        "CREATE TABLE uv (a INT)",
        "SET @v = 'FROM'",
        "SELECT a @v uv WHERE a = 1",
        "SELECT @v, a FROM @v WHERE a = 1",
        "SELECT a FROM uv @v a = 1",
        "SELECT @v, a FROM uv WHERE @v = 'x' AND a IN (@v)",
        "PREPARE s FROM 'SELECT a ? uv WHERE a = 1'",
        "PREPARE s FROM 'SELECT a FROM ? WHERE a = 1'",
        "PREPARE s FROM 'SELECT a FROM uv ? a = 1'",
        "DROP TABLE uv",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_insert_values_read_the_row_being_inserted(compat, driver):
    compat.check(driver, [
        "CREATE TABLE iv (a INT DEFAULT 5, b INT, c VARCHAR(5) NOT NULL DEFAULT 'zz')",
        "INSERT INTO iv (b, a) VALUES (a + 1, 7), (a, a * 2)",
        "INSERT INTO iv (b, c) VALUES (LENGTH(c), 'x')",
        "INSERT INTO iv (c, b) VALUES ('abc', LENGTH(c))",
        "INSERT INTO iv (a) VALUES ((SELECT COUNT(*) FROM iv WHERE a = 7))",
        "SELECT * FROM iv ORDER BY a, b, c",
        "CREATE TABLE iw (a INT NOT NULL)",
        "INSERT INTO iw VALUES (EXISTS(SELECT AVG(3) OVER (ORDER BY COUNT(DISTINCT a, HEX(a)))))",
        "INSERT INTO iw VALUES (a + 10)",
        "SELECT * FROM iw",
        "DROP TABLE iv, iw",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_insert_delayed_into_myisam_skips_duplicates(compat, driver):
    compat.check(driver, [
        "CREATE TABLE dl (a VARCHAR(20) UNIQUE) ENGINE=MyISAM",
        "INSERT DELAYED INTO dl VALUES (1), (2), ('maria'), (NULL), (NULL), ('maria')",
        "INSERT DELAYED INTO dl VALUES (1), (9)",
        "FLUSH TABLES dl",
        "SELECT COUNT(*) FROM dl",
        "CREATE TABLE dl2 (a INT UNIQUE) ENGINE=InnoDB",
        "INSERT DELAYED INTO dl2 VALUES (1), (1)",
        "DROP TABLE dl, dl2",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_executable_comments_that_are_not(compat, driver):
    compat.check(driver, [
        "SELECT 2 /*M!0000 +1 */",
        "SELECT 2 /*M!100000 +1 */",
        "CREATE TABLE ec (a INT)",
        "PREPARE s FROM \"DELETE FROM ec WHERE a = 7 OR 1=1/*' AND b = 'bar';\"",
        "PREPARE s FROM \"DELETE FROM ec WHERE a = 7 OR 1=1/*! AND 2=2;\"",
        "PREPARE s FROM \"DELETE FROM ec WHERE a = 7 OR 1=1/*! AND 2=2;*\"",
        "SELECT 1 +;",
        "DROP TABLE ec",
    ], (*CHECKS, "message"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_returning_errors(compat, driver):
    compat.check(driver, [
        "CREATE TABLE re (id2 INT PRIMARY KEY, val2 VARCHAR(3))",
        "REPLACE INTO re (id2, val2) VALUES (1, 'a') RETURNING id1",
        "REPLACE INTO re SET id2 = 1, val2 = 'a' RETURNING re.nope",
        "REPLACE INTO re (id2, val2) VALUES (5, 'f') RETURNING (SELECT id2 FROM re)",
        "INSERT INTO re VALUES (6, 'g') RETURNING (SELECT * FROM re)",
        "INSERT INTO re VALUES (7, 'h') RETURNING id2, (SELECT 1)",
        "DROP TABLE re",
    ], (*CHECKS, "message"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_default_of_a_column(compat, driver):
    compat.check(driver, [
        "CREATE TABLE df (str VARCHAR(10) DEFAULT 'def', strnull VARCHAR(10), "
        "intg INT DEFAULT '10', rel DOUBLE DEFAULT '3.14', dc DECIMAL(5,2) DEFAULT 1.5, "
        "d DATETIME(2) DEFAULT '2001-01-01 10:20:30.12', nn INT NOT NULL)",
        "INSERT INTO df VALUES ('', '', 0, 0.0, 0, NOW(), 1)",
        "SELECT DEFAULT(str), DEFAULT(strnull), DEFAULT(intg), DEFAULT(rel), DEFAULT(dc), "
        "DEFAULT(d) FROM df",
        "SELECT str FROM df WHERE str <> DEFAULT(str)",
        "SELECT DEFAULT(nn) FROM df",
        "SELECT DEFAULT(nope) FROM df",
        "UPDATE df SET intg = DEFAULT(intg) + 1",
        "SELECT intg, CASE WHEN intg THEN DEFAULT(intg) END FROM df",
        "DROP TABLE df",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_round_past_bigint(compat, driver):
    compat.check(driver, [
        "SELECT ROUND(9999999999999999999)",
        "SELECT ROUND(9999999999999999999, 2), TRUNCATE(9999999999999999999, -1), "
        "ROUND(18446744073709551615)",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_nested_joins_and_straight_join(compat, driver):
    compat.check(driver, [
        "CREATE TABLE nj1 (a INT)", "CREATE TABLE nj2 (b INT)", "CREATE TABLE nj3 (c INT)",
        "INSERT INTO nj1 VALUES (1), (2)", "INSERT INTO nj2 VALUES (1)",
        "INSERT INTO nj3 VALUES (1)",
        "SELECT * FROM nj1 LEFT JOIN nj2 LEFT JOIN nj3 ON nj3.c = nj2.b ON nj1.a = nj2.b "
        "ORDER BY a",
        "SELECT a FROM nj1 STRAIGHT_JOIN nj2 ON nj2.b = nj1.a",
        "SELECT a FROM nj1 WHERE (1, 1) IN (SELECT nj2.b, nj2.b FROM nj2 STRAIGHT_JOIN nj3 "
        "ON nj3.c = nj2.b) ORDER BY a",
        "DROP TABLE nj1, nj2, nj3",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_a_scalar_subquery_of_a_table_star(compat, driver):
    compat.check(driver, [
        "CREATE TABLE sq1 (a INT)", "CREATE TABLE sq2 (b INT)", "CREATE TABLE sq3 (c INT, d INT)",
        "INSERT INTO sq1 VALUES (1), (2)", "INSERT INTO sq2 VALUES (7)",
        "INSERT INTO sq3 VALUES (1, 2)",
        "SELECT (SELECT sq2.* FROM sq2) FROM sq1",
        "SELECT (SELECT sq3.* FROM sq3) FROM sq1",
        "DROP TABLE sq1, sq2, sq3",
    ], CHECKS)
