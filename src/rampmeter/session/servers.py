"""CREATE [OR REPLACE] SERVER [IF NOT EXISTS], ALTER SERVER, DROP SERVER [IF EXISTS]: the
foreign servers of MariaDB (FEDERATED / CONNECT / SPIDER connection definitions), kept in the
mysql.servers table (mysqldb.SYSTEM_TABLES) as MariaDB keeps them.

Rules (MariaDB 10.11's sql_servers.cc and grammar, measured):
- Each needs SUPER or FEDERATED ADMIN, else 1227 naming both; it commits what is open first.
- The options are USER, HOST, DATABASE, OWNER, PASSWORD, SOCKET (strings) and PORT (an
  unsigned number); naming one twice, another word, or a wrong kind of value is 1064 there.
  An option not given is '' (PORT 0); the `mysql` wrapper needs HOST or SOCKET (1434) and its
  PORT defaults to 3306. Values are stored as given (no case folding: MDEV-726).
- Server names compare without case (mysql.servers' utf8mb3_general_ci key). An existing name
  is 1476 (a Note with IF NOT EXISTS; replaced with OR REPLACE, which IF NOT EXISTS may not
  join: 1221); a missing one is 1477 for ALTER and DROP, and DROP IF EXISTS says nothing.
- The table is written through the client's engine session without the client's table
  privileges: the statement's own privilege is what MariaDB checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import UpdateCount
from rampmeter.errors import ServerError, Warning_
from rampmeter.session.mysqldb import MYSQL
from rampmeter.session.privileges import P
from rampmeter.sql.lexer import string_value
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session

# option word -> mysql.servers column
_OPTIONS = {"HOST": "Host", "DATABASE": "Db", "USER": "Username", "PASSWORD": "Password",
            "PORT": "Port", "SOCKET": "Socket", "OWNER": "Owner"}
_COLUMNS = ("Server_name", "Host", "Db", "Username", "Password", "Port", "Socket", "Wrapper",
            "Owner")
_MYSQL_PORT = 3306  # MYSQL_PORT, the mysql wrapper's default
_PORT_MAX = 2**31 - 1  # mysql.servers.Port is int(4): larger is 1690


def create_server(s: Session, stmt: Statement) -> UpdateCount:
    r = Reader(stmt, 1)
    or_replace = r.accept("OR", "REPLACE")
    r.expect("SERVER")
    if_not_exists = r.accept("IF", "NOT", "EXISTS")
    name = r.name_or_string()
    r.expect("FOREIGN", "DATA", "WRAPPER")
    wrapper = r.name_or_string()
    options = _read_options(r)
    r.end()
    if or_replace and if_not_exists:
        raise ServerError(errors.ER_WRONG_USAGE, "OR REPLACE", "IF NOT EXISTS")
    _require(s)
    _commit(s)
    exists = _exists(s, name)
    if exists and not or_replace:
        if if_not_exists:
            return UpdateCount(0, warnings=[
                Warning_.of(errors.ER_FOREIGN_SERVER_EXISTS, name, level="Note")])
        raise ServerError(errors.ER_FOREIGN_SERVER_EXISTS, name)
    if wrapper.lower() == "mysql":
        if "Host" not in options and "Socket" not in options:
            raise ServerError(errors.ER_CANT_CREATE_FEDERATED_TABLE,
                              "either HOST or SOCKET must be set")
        options.setdefault("Port", _MYSQL_PORT)
    if exists:
        _run(s, f"DELETE FROM {MYSQL}.servers WHERE Server_name = {_lit(name)}")
    row = {"Server_name": name, "Wrapper": wrapper, **options}
    values = ", ".join(_lit(row.get(c, 0 if c == "Port" else "")) for c in _COLUMNS)
    _run(s, f"INSERT INTO {MYSQL}.servers ({', '.join(_COLUMNS)}) VALUES ({values})")
    return UpdateCount(1)


def alter_server(s: Session, stmt: Statement) -> UpdateCount:
    r = Reader(stmt, 1)
    r.expect("SERVER")
    name = r.name_or_string()
    options = _read_options(r)
    r.end()
    _require(s)
    _commit(s)
    if not _exists(s, name):
        raise ServerError(errors.ER_FOREIGN_SERVER_DOESNT_EXIST, name)
    sets = ", ".join(f"{column} = {_lit(value)}" for column, value in options.items())
    _run(s, f"UPDATE {MYSQL}.servers SET {sets} WHERE Server_name = {_lit(name)}")
    return UpdateCount(1)


def drop_server(s: Session, stmt: Statement) -> UpdateCount:
    r = Reader(stmt, 1)
    r.expect("SERVER")
    if_exists = r.accept("IF", "EXISTS")
    name = r.name_or_string()
    r.end()
    _require(s)
    _commit(s)
    if not _exists(s, name):
        if if_exists:  # MariaDB 10.11 adds no note
            return UpdateCount(0)
        raise ServerError(errors.ER_FOREIGN_SERVER_DOESNT_EXIST, name)
    _run(s, f"DELETE FROM {MYSQL}.servers WHERE Server_name = {_lit(name)}")
    return UpdateCount(1)


def _read_options(r: Reader) -> dict[str, Any]:
    """OPTIONS (word value, ...) -> {column: value}."""
    r.expect("OPTIONS", "(")
    out: dict[str, Any] = {}
    while True:
        column = _OPTIONS.get(r.peek_word())
        if column is None:
            raise r.error()
        r.next()
        t = r.next()
        if column in out:
            raise r.error(t)
        if column == "Port":
            if t.kind != "num" or not t.text[:1].isdigit():
                raise r.error(t)
            port = int(float(t.text)) if not t.text.lower().startswith("0x") else int(t.text, 16)
            if port > _PORT_MAX:
                raise ServerError(errors.ER_DATA_OUT_OF_RANGE, "port", "INT")
            out[column] = port
        elif t.kind == "str":
            out[column] = string_value(t.text, r.dialect.backslash_escapes)
        else:
            raise r.error(t)
        if r.accept(")"):
            return out
        r.expect(",")


def _require(s: Session) -> None:
    sec = s.security
    if sec is not None:
        sec.check_global(P.SUPER, P.FEDERATED_ADMIN)


def _commit(s: Session) -> None:
    """MariaDB's implicit commit before a statement that changes the server definitions."""
    engine = s.engine
    if engine is not None and engine.in_transaction:
        engine.execute("COMMIT")


def _exists(s: Session, name: str) -> bool:
    result = _run(s, f"SELECT 1 FROM {MYSQL}.servers WHERE Server_name = {_lit(name)}")
    return bool(getattr(result, "rows", None))


def _run(s: Session, sql: str) -> Any:
    if s.engine is None:
        raise ServerError(errors.ER_UNKNOWN_ERROR, "no engine session")
    return s.engine.execute(sql)


def _lit(value: Any) -> str:
    if isinstance(value, int):
        return str(value)
    return "'" + str(value).replace("\\", "\\\\").replace("'", "''") + "'"
