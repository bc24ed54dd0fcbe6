"""Serve your own data over MySQL: the small interface a Python author implements
(`CustomEngine`, `CustomSession`), and the helpers that build its answers. docs/engine.md is
the contract in prose; engine/examples/kv.py is a complete engine in under 200 lines.

Rules (what the server promises an engine, and what it asks back):
- One `CustomEngine` object per server, shared by every client connection: it must be
  thread-safe. The server calls `open(context)` once per client login for a `CustomSession`.
- A session runs one command at a time, on whichever pool worker thread dequeued it (not always
  the same thread). Its methods may block; a wait that can last (a lock, a remote call, a sleep)
  goes inside `with self.waiting(WaitReason.X):` so the thread pool can start another thread for
  the group meanwhile (MariaDB's thd_wait_begin / thd_wait_end).
- `cancel()` is the only method called from another thread (KILL QUERY, KILL, shutdown). The
  default sets `killed`; a long statement calls `check_killed()` now and then. `killed` is
  cleared when the next statement starts (MariaDB resets it per statement).
- `execute(query)` returns `rows(...)` (a result set) or `ok(...)` (an OK packet), or raises
  ServerError(code, ...) with the MySQL code and SQLSTATE a MariaDB user would see (1146 for an
  unknown table, 1062 for a duplicate key, 1064 for bad syntax, 1235 for what the engine does
  not do). Any other exception is a bug of the engine: that client gets 1105 and the server
  logs the traceback; other clients are not affected.
- The server answers on the engine's behalf what every client sends on connect and what tools
  ask of any server (engine/adapter.py and engine/serverside.py): SET, SHOW VARIABLES / STATUS
  / PROCESSLIST, KILL, USE (checked against `databases()`), accounts and GRANT, SELECTs of
  system and user variables and of DATABASE(), USER(), VERSION(), CONNECTION_ID(),
  LAST_INSERT_ID() and literals, other table-less SELECTs (MariaDB's expressions), queries
  over the server's own information_schema / performance_schema tables, SHOW DATABASES / TABLES / COLUMNS / CREATE TABLE and
  DESCRIBE from the catalog methods, BEGIN / COMMIT / ROLLBACK through `begin` / `commit` /
  `rollback` (no-ops by default: an engine without transactions accepts them, as MariaDB's
  MyISAM does), and prepared statements: each `?` is replaced by its value as a SQL literal,
  so `execute` only ever sees complete statement text.
- A prepared query's result columns come from `describe(query)` at COM_STMT_PREPARE (by default
  the query run once with NULL parameters), as MariaDB sends them before any execute.
- The text is the client's, decoded in its character set (Query.sql); `Query.parse()` gives a
  sqlglot tree in the MySQL dialect for an engine that wants one (a syntax error is 1064).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from rampmeter import errors
from rampmeter.engine.base import (
    Result,
    ResultSet,
    SessionContext,
    UpdateCount,
    WaitHook,
    WaitReason,
)
from rampmeter.engine.types import column_for_values, parse_type
from rampmeter.errors import ServerError
from rampmeter.protocol.columns import Column

__all__ = ["CustomEngine", "CustomSession", "Query", "Result", "ServerError", "WaitReason",
           "errors", "ok", "rows"]

# A catalog column: (name, MySQL type) or (name, MySQL type, key), key "PRI", "UNI" or "".
CatalogColumn = tuple[str, str] | tuple[str, str, str]


class Query:
    """One statement for `CustomSession.execute`."""

    __slots__ = ("sql", "kind", "database", "_tree")

    def __init__(self, sql: str, kind: str, database: str | None) -> None:
        self.sql = sql            # the statement's text, without a trailing ';'
        self.kind = kind          # its first keyword, upper case: "SELECT", "INSERT", ...
        self.database = database  # the session's current database (USE), or None
        self._tree: Any = None

    def parse(self) -> Any:
        """The statement as a sqlglot expression (MySQL dialect), parsed on first call
        (parse_mysql's rules)."""
        if self._tree is None:
            self._tree = parse_mysql(self.sql)
        return self._tree

    def __repr__(self) -> str:
        return f"Query({self.sql!r}, database={self.database!r})"


_REPLACE = re.compile(r"\s*(REPLACE)\b", re.IGNORECASE)


def parse_mysql(sql: str) -> Any:
    """`sql` as a sqlglot tree in the MySQL dialect; 1064 (quoting the text) if it is not SQL.
    A REPLACE statement comes back as an sqlglot Insert (Query.kind still says REPLACE)."""
    import sqlglot  # imported on first use: engines that never parse do not pay for it
    from sqlglot.errors import ParseError, TokenError

    from rampmeter.sql.lexer import syntax_error
    original, shift = sql, 0
    replace = _REPLACE.match(sql)
    if replace:
        shift = 1  # sqlglot has no REPLACE: it parses as the INSERT it resembles
        sql = sql[:replace.start(1)] + "INSERT" + sql[replace.end(1):]
    try:
        tree = sqlglot.parse_one(sql, read="mysql")
    except ParseError as exc:
        pos = 0
        if exc.errors:
            line = int(exc.errors[0].get("line") or 1)
            col = int(exc.errors[0].get("col") or 1)
            start = 0
            for _ in range(line - 1):
                start = sql.find("\n", start) + 1
            hit = exc.errors[0].get("highlight") or ""
            pos = max(0, start + col - len(hit))
        raise syntax_error(original, pos + shift if pos else 0) from None
    except TokenError:
        raise syntax_error(original, 0) from None
    if tree is None:
        raise ServerError(errors.ER_EMPTY_QUERY)
    return tree


def rows(columns: Sequence[str | tuple[str, str] | Column], data: Iterable[Sequence[Any]],
         ) -> ResultSet:
    """A result set. Each column is a Column, a (name, MySQL type) pair such as
    ("id", "bigint") or ("name", "varchar(64)"), or a bare name whose type is guessed from its
    values (int -> BIGINT, float -> DOUBLE, Decimal -> DECIMAL, bytes -> BLOB, else text).
    Values are Python values: int, float, Decimal, str, bytes, datetime/date/timedelta, None.
    When every column has a type, `data` is read as the rows are sent (a generator streams a
    large result); otherwise it is read whole first, to guess the types."""
    if not any(isinstance(c, str) for c in columns):
        return ResultSet([c if isinstance(c, Column) else parse_type(c[1]).column(c[0])
                          for c in columns], data)
    data = list(data)
    out: list[Column] = []
    for i, c in enumerate(columns):
        if isinstance(c, Column):
            out.append(c)
        elif isinstance(c, tuple):
            out.append(parse_type(c[1]).column(c[0]))
        else:
            out.append(column_for_values(c, (r[i] for r in data)))
    return ResultSet(out, data)


def ok(affected_rows: int = 0, last_insert_id: int = 0, info: str = "") -> UpdateCount:
    """An OK packet: rows affected, the AUTO_INCREMENT id the statement generated (0: none),
    an info text such as "Rows matched: 1  Changed: 1  Warnings: 0"."""
    return UpdateCount(affected_rows, last_insert_id, info)


class CustomSession:
    """One client connection's session. Subclass it and implement `execute`."""

    def __init__(self, engine: CustomEngine, context: SessionContext) -> None:
        self.engine = engine
        self.context = context    # connection_id, user, system_variable(name)...
        self.killed = False
        self._waiting: WaitHook = lambda reason, state=None: nullcontext()

    def execute(self, query: Query) -> Result:
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, query.kind or "this statement")

    def describe(self, query: Query) -> list[Column] | None:
        """The result columns of a statement being prepared (COM_STMT_PREPARE), None when it
        returns no rows: MariaDB sends them with the prepare's answer, and C clients (sysbench,
        libmariadb applications) bind their buffers from them. `query.sql` has NULL in place of
        each `?`. The default runs the statement and keeps only its columns: override it when
        running a query to describe it is wrong (side effects) or costly."""
        result = self.execute(query)
        if not isinstance(result, ResultSet):
            return None
        close = getattr(result.rows, "close", None)
        if close is not None:
            close()
        return result.columns

    # --- optional: transactions (no-ops unless the engine has them) ----------------------------
    @property
    def in_transaction(self) -> bool:
        """True between begin() and commit()/rollback(): the pool then gives this connection's
        statements high priority (they hold resources other clients may wait for)."""
        return False

    def begin(self) -> None:
        """BEGIN / START TRANSACTION, and the implicit start when autocommit is off."""

    def commit(self) -> None:
        """COMMIT."""

    def rollback(self) -> None:
        """ROLLBACK, and also when the client disconnects or resets its connection."""

    def set_autocommit(self, on: bool) -> None:
        """SET autocommit = 0 | 1 (the server commits an open transaction first when 1)."""

    # --- optional: cancel and close ------------------------------------------------------------
    def cancel(self) -> None:
        """KILL QUERY / KILL / shutdown, from another thread: stop the running statement soon.
        Extend it (call super()) to wake a wait of your own."""
        self.killed = True

    def close(self) -> None:
        """The client is gone (after rollback()). Called once."""

    # --- helpers for execute ---------------------------------------------------------------------
    def waiting(self, reason: WaitReason = WaitReason.UNKNOWN) -> AbstractContextManager[None]:
        """Wrap a wait that can last: the thread pool may then run another statement."""
        return self._waiting(reason)

    def check_killed(self) -> None:
        """Raise 1317 (Query execution was interrupted) if the statement was cancelled."""
        if self.killed:
            raise ServerError(errors.ER_QUERY_INTERRUPTED)


class CustomEngine:
    """The shared part of an engine: its catalog and the factory of sessions. Subclass it,
    set `session_class`, and describe your tables through the catalog methods."""

    name = "custom"
    session_class: type[CustomSession] = CustomSession

    def open(self, context: SessionContext) -> CustomSession:
        """A session for a new client connection (any thread)."""
        return self.session_class(self, context)

    # --- the catalog (any thread; must be thread-safe) ------------------------------------------
    def databases(self) -> list[str]:
        """The databases clients may USE and SHOW DATABASES lists."""
        return []

    def tables(self, database: str) -> list[str]:
        """SHOW TABLES of one database."""
        return []

    def columns(self, database: str, table: str) -> list[CatalogColumn] | None:
        """SHOW COLUMNS / DESCRIBE / COM_FIELD_LIST of one table; None if it does not exist."""
        return None

    def close(self) -> None:
        """Server shutdown, after every session is closed."""
