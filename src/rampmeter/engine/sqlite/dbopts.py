"""Database options and table defaults: the character set, collation and engine a new table
gets when its CREATE TABLE does not say.

Rules (MariaDB 10.11):
- CREATE DATABASE ... [DEFAULT] CHARACTER SET cs [DEFAULT] COLLATE c [COMMENT 'x'] and
  ALTER DATABASE store them in the database file's rm_db table (key, value). A database
  created without them gets the session's character_set_server / collation_server; one made
  before rampmeter kept options has utf8mb4 / utf8mb4_general_ci, what it always had.
- CHARACTER SET alone takes that set's default collation, COLLATE alone its set; both must
  agree (1253); unknown names are 1115 / 1273.
- A new table without CHARACTER SET / COLLATE takes its database's; without ENGINE= the
  session's default_storage_engine. Engine names are shown in MariaDB's spelling (MyISAM,
  InnoDB, MEMORY, Aria, ...); whatever the name, the table is stored by SQLite.
- SHOW CREATE DATABASE prints them as MariaDB does.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.engine.sqlite.catalog import q
from rampmeter.errors import ServerError
from rampmeter.sql import charsets
from rampmeter.sql.lexer import string_value
from rampmeter.sql.reader import Reader

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

TABLE = "_rampmeter_database"  # hidden from SHOW TABLES (catalog.HIDDEN_PREFIXES)
LEGACY = ("utf8mb4", "utf8mb4_general_ci")
ENGINES = {"myisam": "MyISAM", "innodb": "InnoDB", "memory": "MEMORY", "heap": "MEMORY",
           "aria": "Aria", "csv": "CSV", "archive": "ARCHIVE", "blackhole": "BLACKHOLE",
           "merge": "MRG_MyISAM", "mrg_myisam": "MRG_MyISAM", "sequence": "SEQUENCE",
           "federated": "FEDERATED", "sqlite": "SQLite"}


@dataclass(frozen=True)
class DatabaseOptions:
    charset: str
    collation: str
    comment: str = ""


@dataclass(frozen=True)
class TableDefaults:
    charset: str
    collation: str
    engine: str


def engine_name(name: str) -> str:
    return ENGINES.get(name.lower(), name)


def resolve(cs_name: str | None, coll_name: str | None) -> tuple[str, str] | None:
    """(charset, collation) from the names given (either may be None); None if neither."""
    cs = None
    if cs_name is not None:
        cs = charsets.charset(cs_name)
        if cs is None:
            raise ServerError(errors.ER_UNKNOWN_CHARACTER_SET, cs_name)
    if coll_name is not None:
        coll = charsets.collation(coll_name)
        if coll is None:
            raise ServerError(errors.ER_UNKNOWN_COLLATION, coll_name)
        if cs is not None and charsets.charset(coll.charset) is not cs:
            raise ServerError(errors.ER_COLLATION_CHARSET_MISMATCH, coll.name, cs.name)
        return coll.charset, coll.name
    if cs is not None:
        return cs.name, cs.default_collation
    return None


def read_options(r: Reader) -> tuple[list[tuple[str, str]], str | None]:
    """[DEFAULT] CHARACTER SET [=] x | CHARSET [=] x | [DEFAULT] COLLATE [=] y | COMMENT [=] 's',
    in any order, to the end of the statement: (the character set clauses in order, for
    charclauses.combine; the comment)."""
    clauses: list[tuple[str, str]] = []
    comment = None
    while not r.done:
        r.accept("DEFAULT")
        if r.accept("CHARACTER", "SET") or r.accept("CHARSET"):
            r.accept("=")
            clauses.append(("CHARSET", _value(r)))
        elif r.accept("COLLATE"):
            r.accept("=")
            clauses.append(("COLLATE", _value(r)))
        elif r.accept("COMMENT"):
            r.accept("=")
            comment = r.string()
        else:
            raise r.error()
    return clauses, comment


def _value(r: Reader) -> str:
    t = r.next()
    if t.kind == "str":
        return string_value(t.text, r.stmt.dialect.backslash_escapes)
    return t.text.strip("`")


def server_default(s: SqliteSession) -> tuple[str, str]:
    ctx = s.context
    found = resolve(str(ctx.system_variable("character_set_server")),
                    str(ctx.system_variable("collation_server")))
    return found or LEGACY


def store(s: SqliteSession, name: str, options: DatabaseOptions) -> None:
    with s.handle.meta_conn(name, s.database) as (conn, schema):
        conn.execute(f"CREATE TABLE IF NOT EXISTS {q(schema)}.{TABLE} "
                     "(k TEXT PRIMARY KEY, v TEXT NOT NULL)")
        conn.executemany(f"INSERT OR REPLACE INTO {q(schema)}.{TABLE} VALUES (?, ?)",
                         [("charset", options.charset), ("collation", options.collation),
                          ("comment", options.comment)])


def load(s: SqliteSession, name: str) -> DatabaseOptions:
    from rampmeter.engine.sqlite.storage import VIRTUAL_SCHEMAS
    if name.lower() in VIRTUAL_SCHEMAS:  # information_schema & co.: MariaDB's system charset
        return DatabaseOptions("utf8mb3", "utf8mb3_general_ci")
    try:
        with s.handle.meta_conn(name, s.database) as (conn, schema):
            rows = dict(conn.execute(f"SELECT k, v FROM {q(schema)}.{TABLE}").fetchall())
    except sqlite3.OperationalError:  # no table: a database made before options were kept
        rows = {}
    return DatabaseOptions(rows.get("charset", LEGACY[0]), rows.get("collation", LEGACY[1]),
                           rows.get("comment", ""))


def table_defaults(s: SqliteSession, database: str) -> TableDefaults:
    opts = load(s, database)
    engine = engine_name(str(s.context.system_variable("default_storage_engine")))
    return TableDefaults(opts.charset, opts.collation, engine)


def show_create(name: str, options: DatabaseOptions, if_not: str = "") -> str:
    """`if_not`: SHOW CREATE DATABASE IF NOT EXISTS's /*!32312 IF NOT EXISTS*/ prefix."""
    text = (f"CREATE DATABASE {if_not}`{name}` /*!40100 DEFAULT CHARACTER SET "
            f"{options.charset} COLLATE {options.collation} */")
    if options.comment:
        text += " COMMENT '" + options.comment.replace("'", "''") + "'"
    return text
