"""HELP reads the mysql.help_* tables as MariaDB's sql_help.cc does (session/help.py; mtr help
runs the same searches)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import ServerHandle

pytestmark = pytest.mark.timeout(30)

FILL = [
    "INSERT INTO mysql.help_category (help_category_id, name, url) VALUES (1, 'cat_a', ''), "
    "(2, 'cat_b', '')",
    "INSERT INTO mysql.help_category (help_category_id, name, parent_category_id, url) "
    "VALUES (3, 'cat_c', 2, '')",
    "INSERT INTO mysql.help_topic (help_topic_id, name, help_category_id, description, "
    "example, url) VALUES (11, 'fn_one', 1, 'd1', 'e1', ''), (12, 'fn_two', 1, 'd2', 'e2', ''), "
    "(13, 'fn_three', 2, 'd3', 'e3', ''), (14, 'fn_four', 2, 'd4', 'e4', '')",
    "INSERT INTO mysql.help_keyword (help_keyword_id, name) VALUES (21, 'kw_one'), "
    "(22, 'kw_many')",
    "INSERT INTO mysql.help_relation (help_keyword_id, help_topic_id) VALUES (21, 12), "
    "(22, 13), (22, 14)",
]


def ask(cur: Any, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    cur.execute(sql)
    return [d[0] for d in cur.description], list(cur.fetchall())


def test_help_searches_topics_keywords_and_categories(server: ServerHandle) -> None:
    conn = server.connect()
    with conn.cursor() as cur:
        for sql in FILL:
            cur.execute(sql)
        # one topic: the topic itself
        assert ask(cur, "HELP 'fn_one'") == (["name", "description", "example"],
                                             [("fn_one", "d1", "e1")])
        # several topics: their names, then the categories the pattern names
        assert ask(cur, "HELP 'fn_t%'") == (["name", "is_it_category"],
                                            [("fn_three", "N"), ("fn_two", "N")])
        # no topic: the topics of the one keyword named
        assert ask(cur, "HELP 'kw_one'")[1] == [("fn_two", "d2", "e2")]
        assert ask(cur, "HELP 'kw_many'")[1] == [("fn_four", "N"), ("fn_three", "N")]
        # no topic nor keyword: one category is its topics and subcategories
        assert ask(cur, "HELP 'cat_b'") == (
            ["source_category_name", "name", "is_it_category"],
            [("cat_b", "fn_four", "N"), ("cat_b", "fn_three", "N"), ("cat_b", "cat_c", "Y")])
        assert ask(cur, "HELP 'cat%'")[1] == [("cat_a", "Y"), ("cat_b", "Y"), ("cat_c", "Y")]
        assert ask(cur, "HELP nothing_here") == (["name", "is_it_category"], [])


def test_help_works_under_lock_tables(server: ServerHandle) -> None:
    """HELP reads the help tables as the server's own system tables, so LOCK TABLES' list does
    not apply to it (mtr help); a client's own SELECT of them still needs them locked."""
    server.query("CREATE DATABASE IF NOT EXISTS lt")
    server.query("CREATE TABLE lt.t (a INT)")
    conn = server.connect()
    with conn.cursor() as cur:
        cur.execute("LOCK TABLES lt.t READ")
        assert ask(cur, "HELP no_such_topic") == (["name", "is_it_category"], [])
        with pytest.raises(Exception) as info:
            cur.execute("SELECT * FROM mysql.help_topic")
        assert info.value.args[0] == 1100
        cur.execute("UNLOCK TABLES")
