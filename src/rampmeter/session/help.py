"""HELP 'pattern': MariaDB's server-side help, read from the mysql.help_topic, help_category,
help_keyword and help_relation tables (mysqldb.SYSTEM_TABLES; empty until a client fills them,
as mariadb-install-db's fill_help_tables.sql does).

Rules (MariaDB 10.11's sql_help.cc):
- The pattern is a LIKE pattern (escape '\\') over the names. The topics it names come first;
  when there are none, the topics of the one keyword it names; one topic found is answered as
  (name, description, example).
- Several topics are listed as (name, is_it_category) with 'N', then the categories the
  pattern names with 'Y'. No topic at all: one category is answered with its topics ('N') and
  its subcategories ('Y') as (source_category_name, name, is_it_category); several categories
  are listed with 'Y'; none is an empty list. Lists are sorted by name.
- HELP reads the tables whatever the account's privileges on them, as MariaDB does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import ResultSet
from rampmeter.errors import ServerError
from rampmeter.protocol.columns import text_column
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session

_MYSQL = "mysql"


def help_statement(s: Session, stmt: Statement) -> ResultSet:
    r = Reader(stmt, 1)
    mask = r.name_or_string()
    r.end()
    like = _lit(mask)
    topics = _rows(s, f"SELECT name, description, example FROM {_MYSQL}.help_topic "
                      f"WHERE name LIKE {like}")
    if not topics:
        keywords = _rows(s, f"SELECT help_keyword_id FROM {_MYSQL}.help_keyword "
                            f"WHERE name LIKE {like}")
        if len(keywords) == 1:
            topics = _rows(s, f"SELECT t.name, t.description, t.example FROM "
                              f"{_MYSQL}.help_topic t JOIN {_MYSQL}.help_relation r "
                              f"ON r.help_topic_id = t.help_topic_id "
                              f"WHERE r.help_keyword_id = {int(keywords[0][0])}")
    if len(topics) == 1:
        name, description, example = topics[0]
        return ResultSet([text_column("name", length=64), text_column("description", length=1000),
                          text_column("example", length=1000)],
                         [(_name(name), description, example)])
    if topics:
        categories = _rows(s, f"SELECT name FROM {_MYSQL}.help_category WHERE name LIKE {like}")
        return _list(_sorted(topics, "N") + _sorted(categories, "Y"))
    categories = _rows(s, f"SELECT help_category_id, name FROM {_MYSQL}.help_category "
                          f"WHERE name LIKE {like}")
    if len(categories) != 1:
        return _list(_sorted([(name,) for _, name in categories], "Y"))
    cid, cname = int(categories[0][0]), categories[0][1]
    inside = _rows(s, f"SELECT name FROM {_MYSQL}.help_topic WHERE help_category_id = {cid}")
    subs = _rows(s, f"SELECT name FROM {_MYSQL}.help_category WHERE parent_category_id = {cid}")
    rows = [(_name(cname), *row) for row in _sorted(inside, "N") + _sorted(subs, "Y")]
    return ResultSet([text_column("source_category_name", length=64),
                      text_column("name", length=64), text_column("is_it_category", length=1)],
                     rows)


def _sorted(rows: list[tuple[Any, ...]], flag: str) -> list[tuple[Any, ...]]:
    return [(name, flag) for name in sorted(_name(row[0]) for row in rows)]


def _name(value: Any) -> str:
    """A CHAR name as MariaDB's help reads it: never padded (PAD_CHAR_TO_FULL_LENGTH,
    MDEV-9524)."""
    return str(value).rstrip(" ")


def _list(rows: list[tuple[Any, ...]]) -> ResultSet:
    return ResultSet([text_column("name", length=64), text_column("is_it_category", length=1)],
                     rows)


def _rows(s: Session, sql: str) -> list[tuple[Any, ...]]:
    if s.engine is None:
        raise ServerError(errors.ER_UNKNOWN_ERROR, "no engine session")
    with s.engine.system_read():  # HELP works under LOCK TABLES too (MariaDB)
        result = s.engine.execute(sql)
    return [tuple(row) for row in getattr(result, "rows", None) or ()]


def _lit(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'"
