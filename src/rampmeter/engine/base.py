"""Where statements execute: the `Engine` / `EngineSession` interface every storage backend
implements (sqlite.py is the default, embedded one).

Rules:
- Engines know nothing of the pool, of threads' roles or of packets. An EngineSession is used by
  one thread at a time (the connection handler guarantees it), but not always the same thread:
  a pooled connection is served by whichever worker dequeues it.
- Blocking is reported, never hidden: every wait that can last (SLEEP(), waiting for another
  session's lock, a user lock, disk sync) runs inside `with self.waiting(WaitReason.X):`, the hook
  the session hands in. Under the thread pool that hook is wait_begin/wait_end, so the group can
  start another thread; elsewhere it only counts.
- `cancel()` may be called from any thread (KILL QUERY, KILL, shutdown). The statement running at
  that moment, or the next wait it enters, fails with ServerError(ER_QUERY_INTERRUPTED); a cancel
  that arrives between statements is forgotten when the next statement starts, as MariaDB resets
  `killed` per statement.
- Values the SQL asks of the session (CONNECTION_ID(), DATABASE(), USER(), @@vars, @user vars,
  information_schema rows) come from the `SessionContext` the session passes in, so the engine
  stays ignorant of the session layer's classes.
- Every failure is a ServerError with the MySQL code and SQLSTATE a MariaDB user would see.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from rampmeter.engine.types import SqlType
from rampmeter.errors import Warning_
from rampmeter.protocol.columns import Column

if TYPE_CHECKING:
    from rampmeter.sql.statement import Statement


class WaitReason(enum.Enum):
    """MariaDB's thd_wait_type (include/mysql/service_thd_wait.h), in THREAD_POOL_WAITS order."""

    UNKNOWN = 0
    SLEEP = 1
    DISKIO = 2
    ROW_LOCK = 3
    GLOBAL_LOCK = 4
    META_DATA_LOCK = 5
    TABLE_LOCK = 6
    USER_LOCK = 7
    BINLOG = 8
    GROUP_COMMIT = 9
    SYNC = 10
    NET = 11


class WaitHook(Protocol):
    """Around a wait the engine makes (a lock, a sleep): the thread pool counts it and may wake
    another worker; `state` is what the processlist shows meanwhile (None: the reason's usual
    state, e.g. "User lock" for USER_LOCK)."""

    def __call__(self, reason: WaitReason, state: str | None = None
                 ) -> AbstractContextManager[None]: ...


@dataclass(slots=True)
class ResultSet:
    """Rows for the client. `rows` may be a lazy iterable; it is consumed exactly once.
    `columns` as a tuple says the same description comes back on later results (a plan's):
    the protocol then builds its packets once (protocol/connection.py, result_set_start)."""

    columns: Sequence[Column]
    rows: Iterable[Sequence[Any]]
    warnings: list[Warning_] = field(default_factory=list)


@dataclass(slots=True)
class UpdateCount:
    """An OK packet's worth: rows affected, the AUTO_INCREMENT id generated, the info text."""

    affected_rows: int = 0
    last_insert_id: int = 0
    info: str = ""
    warnings: list[Warning_] = field(default_factory=list)
    row_count: int | None = None  # ROW_COUNT() after it, when not affected_rows (UPDATE)
    # a multi-row INSERT's warnings: the row (1-based, 0 unknown) each one is about, for a
    # caller that interleaves warnings of its own per row (LOAD DATA)
    warning_rows: list[int] | None = None


@dataclass(slots=True)
class CallResult(UpdateCount):
    """CALL's answer: the result sets its procedure's statements made, sent (each with
    SERVER_MORE_RESULTS_EXISTS) before the final OK."""

    sets: list[ResultSet] = field(default_factory=list)


Result = ResultSet | UpdateCount


@dataclass(slots=True)
class PreparedStatement:
    """A server-side prepared statement: its parameter count and, for queries, its columns."""

    sql: str
    param_count: int
    columns: list[Column]
    handle: Any = None  # engine-private
    versions: Any = None  # the engine's table versions at PREPARE (session/reprepare.py)


@dataclass(frozen=True, slots=True)
class TableColumn:
    """One column as SHOW COLUMNS / information_schema.COLUMNS describe it."""

    name: str
    column_type: str          # MySQL spelling: "int(11)", "varchar(10)", "char(120)"
    nullable: bool
    key: str                  # "PRI", "UNI", "MUL" or ""
    default: str | None
    extra: str                # "auto_increment", "on update current_timestamp()" or ""
    column: Column            # what a SELECT of this column reports on the wire
    sql_type: SqlType | None = None  # the full MySQL type, when the engine knows it


@dataclass(frozen=True, slots=True)
class TableAccess:
    """What one statement does to one table, for privilege checks (EngineSession.access).
    Column names are in the order the statement first names them; `star` lists every column
    of the table when the statement reads them all (`*`)."""

    database: str
    table: str                          # the stored name when the table exists
    exists: bool = True
    read: bool = False                  # rows are read (a query, or a write's WHERE / join)
    insert: bool = False
    update: bool = False
    delete: bool = False
    upsert: bool = False                # INSERT ... ON DUPLICATE KEY UPDATE
    columns_read: tuple[str, ...] = ()
    columns_inserted: tuple[str, ...] = ()
    columns_updated: tuple[str, ...] = ()
    star: tuple[str, ...] = ()
    temporary: bool = False             # the session's own temporary table: no check applies
    via_view: str = ""                  # `db`.`v`: read by the query of this SQL SECURITY
                                        # INVOKER view (a denial is the view's 1356)


@dataclass(frozen=True, slots=True)
class TableIndex:
    name: str
    unique: bool
    columns: tuple[str, ...]


class SessionContext(Protocol):
    """What an engine may ask of the session it serves."""

    @property
    def connection_id(self) -> int: ...

    @property
    def user(self) -> str: ...            # "user@host", as USER() returns it

    @property
    def current_user(self) -> str: ...    # "user@host-pattern", as CURRENT_USER() returns it

    def system_variable(self, name: str, scope: str | None = None) -> Any:
        """@@name (scope None), @@session.name or @@global.name; raises 1193 if unknown."""
        ...

    @property
    def translation(self) -> tuple[str, int, int]:
        """The session variables that change how a statement is translated:
        (collation_connection, div_precision_increment, sql_select_limit). Engines key cached
        plans on it."""
        ...

    def user_variable(self, name: str) -> Any:
        """@name; None when unset."""
        ...

    def set_user_variable(self, name: str, value: Any) -> None: ...

    @property
    def row_count(self) -> int: ...       # ROW_COUNT(): what the previous statement did

    # Optional: `visible(database, table=None, column=None) -> bool`, whether the account may
    # see that database / table / column; engines list only what it allows (SHOW DATABASES,
    # SHOW TABLES, information_schema). Contexts without it see everything. Optional too:
    # `column_privileges(database, table, column) -> str`, COLUMNS.PRIVILEGES ('select,insert').

    def virtual_table(self, schema: str, table: str) -> tuple[list[Column], list[tuple[Any, ...]]] | None:
        """Rows of a server-provided table (information_schema.PROCESSLIST, THREAD_POOL_*...),
        or None when the session does not provide that table."""
        ...

    def virtual_tables(self, schema: str) -> list[str]:
        """The tables the session provides in a schema only it fills (performance_schema); an
        engine shows such a schema when this is not empty. Optional: absent means none."""
        ...

    def stored_function(self, name: str) -> Callable[..., Any] | None:
        """A stored function of the current database named `name` (called with its
        arguments, it returns the value or raises ServerError), or None when there is none.
        Optional: absent means SQL names no stored functions."""
        ...

    def run_trigger(self, database: str, name: str, row: dict[str, Any]) -> set[str]:
        """Run trigger database.name's body for one row ('new.col' / 'old.col' -> value),
        from inside the statement writing it; the NEW columns it assigned are returned (lower
        case) with their values written into `row`. Optional: absent means no trigger fires."""
        ...


class EngineSession(ABC):
    """One client's view of the engine: its current database, transaction and locks."""

    @property
    @abstractmethod
    def database(self) -> str | None: ...

    @abstractmethod
    def use(self, database: str | None) -> None:
        """Make `database` current; ServerError 1049 if it does not exist."""

    @abstractmethod
    def execute(self, sql: Statement | str) -> Result:
        """Run one statement (MySQL dialect, no trailing ';'): the front door's scan of it, or
        its text."""

    @abstractmethod
    def prepare(self, sql: Statement | str) -> PreparedStatement: ...

    @abstractmethod
    def execute_prepared(self, stmt: PreparedStatement, params: Sequence[Any]) -> Result: ...

    def close_prepared(self, stmt: PreparedStatement) -> None:  # noqa: B027 - optional hook
        pass

    def system_read(self) -> AbstractContextManager[None]:
        """Around the server's own reads of its system tables (HELP's mysql.help_*): they
        are not the client's statements, so LOCK TABLES' list does not apply to them, as
        MariaDB opens them (open_system_tables_for_read)."""
        return nullcontext()

    @abstractmethod
    def cancel(self) -> None:
        """Interrupt the running statement (thread-safe). See the module rules."""

    @abstractmethod
    def set_autocommit(self, on: bool) -> None:
        """SET autocommit: turning it on commits an open transaction, as in MySQL."""

    @property
    @abstractmethod
    def in_transaction(self) -> bool: ...

    @property
    def lock_mode(self) -> str | None:
        """"tables" while the session holds LOCK TABLES, "global" while it holds FLUSH TABLES
        WITH READ LOCK, else None."""
        return None

    def wait_for_read_only(self, timeout: float) -> None:
        """SET GLOBAL read_only = 1 takes the global read lock for a moment (MariaDB): it
        waits for other sessions' writes in progress and LOCK TABLES ... WRITE."""
        return None  # an engine without such locks has nothing to wait for

    @property
    @abstractmethod
    def holds_locks(self) -> bool:
        """True while the session holds LOCK TABLES, user locks (GET_LOCK) or the global read
        lock: the thread pool treats such a session as high priority (Percona lp#1619559)."""

    @property
    def holds_write(self) -> bool:
        """True while the session holds a lock every other writer of the server waits for (an
        engine with a single writer, as SQLite is): the pool queues its next request first
        (sched/priority.py rule 3). Engines with row locks keep the default."""
        return False

    @property
    @abstractmethod
    def last_insert_id(self) -> int: ...

    def idle(self) -> None:  # noqa: B027 - optional hook
        """Between commands (the session layer calls it after each one, once its reply is
        written): give back what the session does not need to keep until its next command,
        such as a pooled handle (engine/sqlite/handles.py). A result's rows are consumed
        before it is called."""

    @abstractmethod
    def reset(self) -> None:
        """COM_RESET_CONNECTION / COM_CHANGE_USER: roll back, release locks, forget state."""

    @abstractmethod
    def close(self) -> None:
        """Roll back any open transaction and release every lock. Idempotent."""

    # --- metadata for SHOW / DESCRIBE / information_schema -----------------------------------
    @abstractmethod
    def list_databases(self) -> list[str]: ...

    @abstractmethod
    def list_tables(self, database: str | None = None) -> list[str]: ...

    @abstractmethod
    def table_columns(self, table: str, database: str | None = None) -> list[TableColumn]: ...

    @abstractmethod
    def table_indexes(self, table: str, database: str | None = None) -> list[TableIndex]: ...

    @abstractmethod
    def show_create_table(self, table: str, database: str | None = None) -> str: ...

    def is_temporary(self, database: str | None, table: str) -> bool:
        """Is database.table this session's own temporary table? (Privileges do not apply.)"""
        return False

    def table_versions(self, stmt: Any) -> Any:
        """What tells, at an EXECUTE, whether a table the prepared statement uses changed
        since its PREPARE (tables_changed); None where the engine cannot tell."""
        return None

    def tables_changed(self, versions: Any) -> bool:
        return False

    def access(self, stmt: Any) -> tuple[TableAccess, ...]:
        """The tables a DML statement (a scanned sql.statement.Statement) reads and writes,
        with their columns: what the privilege checks need, known from the engine's plan.
        Raises what planning raises (1064, 1046...), never for a table that does not exist."""
        raise NotImplementedError


class Engine(ABC):
    name = "engine"

    @abstractmethod
    def open_session(self, context: SessionContext, waiting: WaitHook) -> EngineSession: ...

    @abstractmethod
    def database_exists(self, name: str) -> bool: ...

    @abstractmethod
    def close(self) -> None:
        """Close shared resources after every session is closed (shutdown)."""
