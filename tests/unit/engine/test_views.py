"""Result column names through views (translate._outputs), as MariaDB 10.11 names them."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession


def test_a_view_column_is_named_as_the_view_names_it(session: SqliteSession) -> None:
    # MariaDB 10.11: `SELECT col FROM v` shows the view's `Col`; a base table's column is
    # shown as typed (`SELECT A FROM t` is `A`)
    s = session
    s.execute("CREATE TABLE tv (a INT)")
    s.execute("CREATE VIEW v1 AS SELECT a AS Col, a + 1 AS Expr FROM tv")
    s.execute("INSERT INTO tv VALUES (1)")
    result = s.execute("SELECT col, expr, x.COL, col AS mine FROM v1 AS x")
    assert [c.name for c in result.columns] == ["Col", "Expr", "Col", "mine"]
    assert [c.name for c in s.execute("SELECT A FROM tv").columns] == ["A"]


def test_the_server_mysql_user_is_named_as_mariadbs_view(session: SqliteSession) -> None:
    from rampmeter.engine.sqlite.catalog import USER_VIEW_COMMENT
    s = session
    s.execute(f"CREATE TABLE u (Host CHAR(60), plugin TEXT) COMMENT='{USER_VIEW_COMMENT}'")
    assert [c.name for c in s.execute("SELECT HOST, Plugin FROM u").columns] == \
        ["Host", "plugin"]
