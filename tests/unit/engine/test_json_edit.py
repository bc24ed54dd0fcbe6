"""JSON_INSERT / JSON_SET / JSON_REPLACE as MariaDB's (functions_jsonedit.py): its layout,
JSON values embedded as JSON, and its path rules."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import scalar


@pytest.mark.parametrize(("sql", "expected"), [
    ("JSON_INSERT('{\"a\":1}', '$.b', 2)", '{"a": 1, "b": 2}'),
    ("JSON_INSERT('{\"a\":1,  \"c\" : 3}', '$.b', 2, '$.a', 9)", '{"a": 1, "c": 3, "b": 2}'),
    ("JSON_INSERT('[1,2]', '$[5]', 3)", "[1, 2, 3]"),
    ("JSON_SET('{\"a\":1}', '$.a', 5, '$.z', 'x')", '{"a": 5, "z": "x"}'),
    ("JSON_REPLACE('{\"a\":1, \"b\":2}', '$.a', JSON_ARRAY(1,2), '$.q', 1)",
     '{"a": [1, 2], "b": 2}'),
    ("JSON_INSERT('{}', '$.o', '[1]')", '{"o": "[1]"}'),
    ("JSON_INSERT('{}', '$.obj', JSON_QUERY('{\"key\":\"value\"}', '$'))",
     '{"obj": {"key": "value"}}'),
    ("JSON_SET('{\"a\":{\"b\":1.50}}', '$.a.c', NULL)", '{"a": {"b": 1.50, "c": null}}'),
    ("JSON_INSERT('{\"a\":1}', '$.a[1]', 2)", '{"a": [1, 2]}'),
    ("JSON_INSERT('{\"a\":1}', '$.x.y', 2)", '{"a": 1}'),
    ("JSON_SET('1', '$', 2)", "2"),
])
def test_edits_as_mariadb(session: SqliteSession, sql: str, expected: str) -> None:
    assert scalar(session, "SELECT " + sql) == expected


def test_null_and_malformed_documents(session: SqliteSession) -> None:
    assert scalar(session, "SELECT JSON_INSERT(NULL, '$.a', 1)") is None
    assert scalar(session, "SELECT JSON_INSERT('{}', NULL, 1)") is None
    assert scalar(session, "SELECT JSON_INSERT('{', '$.a', 1)") is None
