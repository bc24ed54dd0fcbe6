"""JSON_TABLE (engine/sqlite/jsontable.py): rows and columns as MariaDB 10.11 answers them
(measured), and what is refused by name (mtr sp-cursor)."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession, jsontable

from .conftest import FakeContext, fails, rows


def test_rows_columns_and_ordinality(session: SqliteSession) -> None:
    doc = '[{"a":1,"b":"x"},{"a":2,"b":"y"},{"b":"z"}]'
    assert rows(session.execute(
        f"SELECT * FROM JSON_TABLE('{doc}', '$[*]' COLUMNS(id FOR ORDINALITY, "
        "a INT PATH '$.a', b VARCHAR(10) PATH '$.b')) AS jt")) == [
        (1, 1, "x"), (2, 2, "y"), (3, None, "z")]
    got = session.execute("SELECT jt.b, a + 1 FROM JSON_TABLE('{\"k\":[{\"a\":\"5\",\"b\":[1,2]}]}', "
                          "'$.k[*]' COLUMNS(a INT PATH '$.a', b JSON PATH '$.b')) jt WHERE a > 1")
    assert rows(got) == [("[1,2]", 6)]


def test_a_document_from_a_variable_and_scalars(session: SqliteSession) -> None:
    ctx = session.context
    assert isinstance(ctx, FakeContext)
    ctx.user_variables["j"] = '[1, "two", true, null]'
    assert rows(session.execute("SELECT * FROM JSON_TABLE(@j, '$[*]' COLUMNS(v VARCHAR(10) "
                                "PATH '$', o FOR ORDINALITY)) t")) == [
        ("1", 1), ("two", 2), ("true", 3), (None, 4)]
    assert rows(session.execute("SELECT * FROM JSON_TABLE(NULL, '$' COLUMNS(a CHAR(1) PATH "
                                "'$.*')) tmp")) == []  # a NULL document has no rows


def test_what_is_refused(session: SqliteSession) -> None:
    session.execute("CREATE TABLE tj (j TEXT)")
    fails(session, "SELECT * FROM tj, JSON_TABLE(tj.j, '$[*]' COLUMNS(a INT PATH '$')) x",
          1235)
    fails(session, "SELECT * FROM JSON_TABLE('[1]', '$[*]' COLUMNS(NESTED PATH '$' "
          "COLUMNS (a INT PATH '$'))) x", 1235)
    fails(session, "SELECT * FROM JSON_TABLE('[1', '$[*]' COLUMNS(a INT PATH '$')) x", 4038)
    fails(session, "SELECT * FROM JSON_TABLE('[1]', '$[*]' COLUMNS(a INT PATH '$'))", 4177)


def test_paths() -> None:
    doc = {"a": [{"b": 1}, {"b": 2, "c": {"b": 3}}], "d e": 4}
    find = jsontable._find
    assert find(doc, jsontable._steps("$.a[*].b")) == [1, 2]
    assert find(doc, jsontable._steps('$."d e"')) == [4]
    assert find(doc, jsontable._steps("$.a[1].*")) == [2, {"b": 3}]
    assert find(doc, jsontable._steps("$**.b")) == [1, 2, 3]
    assert find(5, jsontable._steps("$[0]")) == [5]  # a scalar is an array of one
