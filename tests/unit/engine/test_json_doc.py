"""MariaDB's JSON builders, mergers, search and layouts (functions_jsondoc.py): each expected
value is what MariaDB 10.11 answers for the same call."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows, scalar


@pytest.mark.parametrize(("sql", "expected"), [
    # building: MariaDB's layout, TRUE / comparisons as true / false, decimals' digits
    ("JSON_ARRAY(1, 'a', TRUE, NULL, 1.5, JSON_OBJECT('x', 1))",
     '[1, "a", true, null, 1.5, {"x": 1}]'),
    ("JSON_ARRAY()", "[]"),
    ("JSON_OBJECT('a', 1, 'b', 'x')", '{"a": 1, "b": "x"}'),
    ("JSON_OBJECT('a', JSON_ARRAY())", '{"a": []}'),
    ("JSON_ARRAY(1.50, 1e2, -0.0, -1.50)", "[1.50, 100, 0.0, -1.50]"),
    ("JSON_ARRAY(TRUE, FALSE, 1 = 1, 1 < 0, NULL = 1)", "[true, false, true, false, null]"),
    ("JSON_OBJECT(1, 2)", '{"1": 2}'),
    ("JSON_ARRAY('a\"b', 'é')", '["a\\"b", "é"]'),
    ("JSON_SET('{}', '$.a', TRUE, '$.b', 1.0)", '{"a": true, "b": 1.0}'),
    # editing arrays
    ("JSON_ARRAY_APPEND('[1,2]', '$', 3)", "[1, 2, 3]"),
    ("JSON_ARRAY_APPEND('{\"k1\":1, \"k2\":[\"a\", \"b\"]}', '$.k2', 2)",
     '{"k1": 1, "k2": ["a", "b", 2]}'),
    ("JSON_ARRAY_APPEND('[\"a\", [\"b\", \"c\"], \"d\"]', '$[0]', 2)",
     '[["a", 2], ["b", "c"], "d"]'),
    ("JSON_ARRAY_APPEND('1', '$', 2)", "[1, 2]"),
    ("JSON_ARRAY_APPEND('[1]', '$.x', 2)", "[1]"),
    ("JSON_ARRAY_APPEND('[1]', '$', 2.5, '$', JSON_ARRAY(1))", "[1, 2.5, [1]]"),
    ("JSON_ARRAY_INSERT('[\"a\", {\"b\": [1, 2]}, [3, 4]]', '$[1]', 'x')",
     '["a", "x", {"b": [1, 2]}, [3, 4]]'),
    ("JSON_ARRAY_INSERT('[\"a\", {\"b\": [1, 2]}, [3, 4]]', '$[1].b[0]', 'x')",
     '["a", {"b": ["x", 1, 2]}, [3, 4]]'),
    ("JSON_ARRAY_INSERT('[1,2]', '$[0]', 5, '$[9]', 6)", "[5, 1, 2, 6]"),
    ("JSON_ARRAY_INSERT('true', '$', 1)", None),
    ("JSON_REMOVE('{\"a\":   [1,2], \"b\":1}', '$.b')", '{"a": [1, 2]}'),
    ("JSON_REMOVE('[1,2,3]', '$[0]', '$[0]')", "[3]"),
    ("JSON_REMOVE('{\"a\":1,\"b\":2}', '$.a', '$.c')", '{"b": 2}'),
    ("JSON_REMOVE(NULL, '$.a')", None),
    # merging
    ("JSON_MERGE('[1]', '[2]')", "[1, 2]"),
    ("JSON_MERGE('1', '2')", "[1, 2]"),
    ("JSON_MERGE('[1]', '{\"a\":1}')", '[1, {"a": 1}]'),
    ("JSON_MERGE('{\"a\":1}', '[1]')", '[{"a": 1}, 1]'),
    ("JSON_MERGE_PRESERVE('{\"a\":{\"b\":1}}', '{\"a\":{\"b\":2,\"c\":3}}')",
     '{"a": {"b": [1, 2], "c": 3}}'),
    ("JSON_MERGE_PATCH('{\"a\":1,\"c\":3}', '{\"a\":null,\"b\":2}')", '{"c": 3, "b": 2}'),
    ("JSON_MERGE_PATCH('[1]', '{\"a\":1}')", '{"a": 1}'),
    ("JSON_MERGE_PATCH('{\"a\":{\"b\":1}}', '{\"a\":{\"c\":2}}')", '{"a": {"b": 1, "c": 2}}'),
    ("JSON_MERGE_PATCH('{\"a\":1}', 'null')", "null"),
    ("JSON_MERGE_PATCH(NULL, '{}')", None),
    # searching and comparing
    ("JSON_SEARCH('[\"abc\",{\"x\":\"abc\"}]', 'one', 'abc')", '"$[0]"'),
    ("JSON_SEARCH('[\"abc\",{\"x\":\"abc\"}]', 'all', 'a%')", '["$[0]", "$[1].x"]'),
    ("JSON_SEARCH('[\"ABC\"]', 'one', 'abc')", '"$[0]"'),
    ("JSON_SEARCH('[\"a_c\",\"abc\"]', 'all', 'a|_c', '|')", '"$[0]"'),
    ("JSON_SEARCH('{\"a\":[\"x\",{\"b\":\"x\"}]}', 'all', 'x', NULL, '$.a[1]')",
     '"$.a[1].b"'),
    ("JSON_SEARCH('[1,\"1\"]', 'all', '1')", '["$[0]", "$[1]"]'),
    ("JSON_SEARCH('[\"x\"]', 'one', 'y')", None),
    ("JSON_OVERLAPS('[1,2]', '[2,3]')", 1),
    ("JSON_OVERLAPS('[1,2]', '[3]')", 0),
    ("JSON_OVERLAPS('{\"a\":1}', '{\"a\":1,\"b\":2}')", 1),
    ("JSON_OVERLAPS('[1,{\"a\":1}]', '{\"a\":1}')", 1),
    ("JSON_OVERLAPS('1', '[1]')", 1),
    ("JSON_OVERLAPS('[[1]]', '[1]')", 0),
    ("JSON_OVERLAPS('{\"a\":[1]}', '{\"a\":[1,2]}')", 0),
    ("JSON_DEPTH('[1,[2]]')", 3),
    ("JSON_DEPTH('{}')", 1),
    ("JSON_DEPTH('{\"a\":[]}')", 2),
    ("JSON_EXISTS('{\"a\":1}', '$.a')", 1),
    ("JSON_EXISTS('[1]', '$[1]')", 0),
    ("JSON_EXISTS(NULL, '$')", None),
    # layouts
    ("JSON_COMPACT('[ 1 , {\"a\" : [ 2 ] } ]')", '[1,{"a":[2]}]'),
    ("JSON_LOOSE('{\"a\":[1,2],\"b\":{\"c\":1},\"d\":[]}')",
     '{"a": [1, 2], "b": {"c": 1}, "d": []}'),
    ("JSON_DETAILED('{\"a\":[1,{\"q\":[]}],\"b\":{\"c\":\"x\"}, \"d\":[]}')",
     '{\n    "a": \n    [\n        1,\n        {\n            "q": \n            []\n'
     '        }\n    ],\n    "b": \n    {\n        "c": "x"\n    },\n    "d": \n    []\n}'),
    ("JSON_DETAILED('[[1,2],[3]]')", "[\n    [\n        1,\n        2\n    ],\n    [3]\n]"),
    ("JSON_PRETTY('{}')", "{\n}"),
    ("JSON_DETAILED('{\"a\":1}', 2)", '{\n  "a": 1\n}'),
    ("JSON_DETAILED('[\"x\"]')", '["x"]'),
    ("JSON_DETAILED('{\"a\" : 1.50e0 }')", '{\n    "a": 1.50e0\n}'),
])
def test_as_mariadb(session: SqliteSession, sql: str, expected: object) -> None:
    assert scalar(session, "SELECT " + sql) == expected


def test_malformed_documents_and_paths_warn(session: SqliteSession) -> None:
    s = session
    assert scalar(s, "SELECT JSON_DETAILED('[1')") is None
    assert [w.code for w in s.warnings] == [4037]
    assert scalar(s, "SELECT JSON_SEARCH('[]', 'two', 'x')") is None
    assert [w.code for w in s.warnings] == [4046]
    assert scalar(s, "SELECT JSON_ARRAY_APPEND('[1]', '$[*]', 2)") is None
    assert [w.code for w in s.warnings] == [4044]
    assert scalar(s, "SELECT JSON_REMOVE('[1]', '$')") is None
    assert [w.code for w in s.warnings] == [4051]


def test_values_from_columns_and_json_columns(session: SqliteSession) -> None:
    s = session
    s.execute("CREATE TABLE t (id INT, j JSON, d DECIMAL(5,2), b BOOL)")
    s.execute("INSERT INTO t VALUES (1, '{\"k\": [1, 2]}', 1.5, TRUE)")
    assert rows(s.execute("SELECT JSON_OBJECT('id', id, 'j', j) FROM t")) == \
        [('{"id": 1, "j": {"k": [1, 2]}}',)]
    assert rows(s.execute("SELECT JSON_ARRAY_APPEND(j, '$.k', id) FROM t")) == \
        [('{"k": [1, 2, 1]}',)]
    assert rows(s.execute("SELECT JSON_MERGE(j, JSON_OBJECT('k', 3)) FROM t")) == \
        [('{"k": [1, 2, 3]}',)]


def test_aggregates_as_mariadb(session: SqliteSession) -> None:
    s = session
    s.execute("CREATE TABLE t (a INT, b VARCHAR(10), j JSON)")
    s.execute("INSERT INTO t VALUES (2, 'x', '{\"q\": 1}'), (1, NULL, NULL), (2, 'y', '[1, 2]'),"
              " (3, 'z', NULL)")
    assert rows(s.execute(
        "SELECT JSON_ARRAYAGG(a), JSON_ARRAYAGG(b), JSON_ARRAYAGG(j), JSON_ARRAYAGG(DISTINCT a),"
        " JSON_ARRAYAGG(a ORDER BY a DESC), JSON_OBJECTAGG(b, a), JSON_OBJECTAGG(a, j)"
        " FROM t")) == [(
            "[2,1,2,3]", '["x",null,"y","z"]', '[{"q": 1},null,[1, 2],null]', "[1,2,3]",
            "[3,2,2,1]", '{"x":2, "y":2, "z":3}',
            '{"2":{"q": 1}, "1":null, "2":[1, 2], "3":null}')]
    assert rows(s.execute("SELECT JSON_ARRAYAGG(a), JSON_OBJECTAGG(a, b) FROM t WHERE a > 9")) \
        == [(None, None)]
    assert rows(s.execute(
        "SELECT JSON_ARRAYAGG(1.50), JSON_ARRAYAGG(TRUE), JSON_ARRAYAGG(a = 2),"
        " JSON_ARRAYAGG(JSON_OBJECT('k', a)) FROM t")) == [(
            "[1.50,1.50,1.50,1.50]", "[true,true,true,true]", "[true,false,true,false]",
            '[{"k": 2},{"k": 1},{"k": 2},{"k": 3}]')]
    assert rows(s.execute("SELECT a, JSON_ARRAYAGG(b) FROM t GROUP BY a")) == \
        [(1, "[null]"), (2, '["x","y"]'), (3, '["z"]')]
    assert rows(s.execute("SELECT JSON_OBJECT('a', (SELECT JSON_OBJECTAGG(a, b) FROM t"
                          " WHERE a = 3))")) == [('{"a": {"3":"z"}}',)]


def test_json_array_and_object_embed_json_as_written(session: SqliteSession) -> None:
    s = session  # JSON_SET lays it out again; JSON_OBJECT / JSON_ARRAY keep its text
    s.execute("CREATE TABLE tj (j JSON)")
    s.execute("INSERT INTO tj VALUES ('{\"k\":[1,2]}')")
    assert rows(s.execute("SELECT JSON_OBJECT('j', j), JSON_ARRAY(j), JSON_SET('{}', '$.a', j),"
                          " JSON_MERGE(j, '{}') FROM tj")) == [
        ('{"j": {"k":[1,2]}}', '[{"k":[1,2]}]', '{"a": {"k": [1, 2]}}', '{"k": [1, 2]}')]


def test_json_column_definitions_as_mariadb(session: SqliteSession) -> None:
    from rampmeter.errors import ServerError
    s = session
    with pytest.raises(ServerError) as e:
        s.execute("CREATE TABLE t1 (a JSON CHARACTER SET utf8)")
    assert e.value.code == 1064 and "near 'CHARACTER SET utf8)'" in e.value.message
    s.execute("CREATE TABLE t1 (a JSON DEFAULT '{a:1}')")  # the CHECK is for rows written
    assert "DEFAULT '{a:1}' CHECK (json_valid(`a`))" in rows(s.execute(
        "SHOW CREATE TABLE t1"))[0][1]
    s.execute("CREATE TABLE t2 (a JSON NOT NULL CHECK (json_valid(a)), "
              "t JSON CHECK (length(t) > 0))")
    shown = rows(s.execute("SHOW CREATE TABLE t2"))[0][1]
    assert shown.count("json_valid") == 1 and "json_valid(`t`)" not in shown
    s.execute("INSERT INTO t2 VALUES ('[]', 'not json')")  # t's own CHECK only
    with pytest.raises(ServerError) as e:
        s.execute("INSERT INTO t2 VALUES ('a', '1')")
    assert e.value.code == 4025 and "CONSTRAINT `t2.a` failed" in e.value.message
    s.execute("CREATE TABLE t3 (a JSON)")
    with pytest.raises(ServerError) as e:
        s.execute("INSERT INTO t3 VALUES ('a')")
    assert "CONSTRAINT `t3.a` failed for" in e.value.message


@pytest.mark.parametrize(("sql", "expected"), [
    # paths with wildcards and ranges (jsonpath.py), answers of MariaDB 10.11
    ("JSON_EXTRACT('{\"a\":[1,2,3],\"b\":{\"a\":4}}', '$.*')", "[[1, 2, 3], {\"a\": 4}]"),
    ("JSON_EXTRACT('{\"a\":[1,2,3],\"b\":{\"a\":4}}', '$**.a')", "[[1, 2, 3], 4]"),
    ("JSON_EXTRACT('{\"a\":[1,2,3]}', '$.a[*]')", "[1, 2, 3]"),
    ("JSON_EXTRACT('{\"a\":[1,2,3]}', '$.a[last]')", "3"),
    ("JSON_EXTRACT('{\"a\":[1,2,3]}', '$.a[last-1]')", "2"),
    ("JSON_EXTRACT('{\"a\":[1,2,3]}', '$.a[1 to 2]')", "[2, 3]"),
    ("JSON_EXTRACT('{\"a\":[1,2,3]}', '$.a[-1]')", "3"),
    ("JSON_EXTRACT('[10, 20, [{\"a\": 3}, 30, 40]]', '$[2][*]')", '[{"a": 3}, 30, 40]'),
    ("JSON_EXTRACT('[1,[2,[3]]]', '$**[0]')", "[1, 2, 3]"),
    ("JSON_EXTRACT('[1,[2,[3]]]', '$**[1]')", "[[2, [3]], [3]]"),
    ("JSON_EXTRACT('{\"a\":{\"a\":1}}', '$**.a')", '[{"a": 1}, 1]'),
    ("JSON_EXTRACT('{\"a\":1,\"b\":2}', '$.b', '$.a')", "[1, 2]"),
    ("JSON_EXTRACT('{\"a\":[1,2,3]}', '$.a[*]', '$.a[0]')", "[1, 1, 2, 3]"),
    ("JSON_EXTRACT('{\"a\":1}', '$.a[0]')", "1"),
    ("JSON_EXTRACT('{\"a\":1}', '$.b[*]')", None),
    ("JSON_SEARCH('[1, [{\"k\": \"x\"}], {\"k\": \"x\"}]', 'all', 'x', NULL, '$**.k')",
     '["$[1][0].k", "$[2].k"]'),
    ("JSON_SEARCH('{\"a\":\"x\",\"b\":[\"x\"]}', 'all', 'x', NULL, '$.b', '$.a')",
     '["$.a", "$.b[0]"]'),
])
def test_wildcard_paths_as_mariadb(session: SqliteSession, sql: str, expected: object) -> None:
    assert scalar(session, "SELECT " + sql) == expected


def test_bad_paths_warn_as_mariadb(session: SqliteSession) -> None:
    s = session
    assert scalar(s, "SELECT JSON_EXTRACT('{\"a\":1}', '$.a.')") is None
    assert [(w.code, w.message) for w in s.warnings] == [(4041, "Unexpected end of JSON path "
                                                          "in argument 2 to function "
                                                          "'json_extract'")]
    assert scalar(s, "SELECT JSON_EXTRACT('{\"a\":1}', '$**')") is None
    assert [(w.code, w.message[-10:]) for w in s.warnings] == [(4042, "position 4")]


@pytest.mark.parametrize(("sql", "expected", "warning"), [
    # jsonfns.py's readers: MariaDB's paths and warnings (mtr func_json)
    ("JSON_LENGTH('')", None, 4037),
    ("JSON_LENGTH('{}{')", None, 4038),
    ("JSON_LENGTH('[ 1, [ 2, 3, 4 ], {\"a\":5, \"b\":6} ]', '$[2][0][0]')", 2, None),
    ("JSON_LENGTH('{\"a\": 1, \"b\": {\"c\": 30}}', '$.b')", 1, None),
    ("JSON_KEYS('foo')", None, 4038),
    ("JSON_CONTAINS('', '', '$')", None, 4037),
    ("JSON_CONTAINS_PATH('{\"a\":{\"b\":\"c\"}}', 'one', '$.a.*')", 1, None),
    ("JSON_CONTAINS_PATH('{\"a\":[{\"c\":[1,{\"a\":[0,1,2]},3]}], \"b\":[1,2,3]}', 'one', "
     "'$**.a[2]')", 1, None),
    ("JSON_CONTAINS_PATH('{\"foo\":\"bar\"}', 'one', '$[]')", None, 4042),
])
def test_readers_paths_and_warnings(session: SqliteSession, sql: str, expected: object,
                                    warning: int | None) -> None:
    assert scalar(session, "SELECT " + sql) == expected
    assert [w.code for w in session.warnings] == ([warning] if warning else [])


def test_decimal_columns_embed_as_numbers(session: SqliteSession) -> None:
    s = session
    s.execute("CREATE TABLE td (d DECIMAL(6,2))")
    s.execute("INSERT INTO td VALUES (1.5), (NULL)")
    assert rows(s.execute("SELECT JSON_ARRAYAGG(d), JSON_OBJECTAGG('k', d),"
                          " JSON_SET('{}', '$.d', MAX(d)) FROM td")) == \
        [('[1.50,null]', '{"k":1.50, "k":null}', '{"d": 1.50}')]
