"""One client's server-side state (MariaDB's THD) and the COM_* dispatch table.

Rules:
- A Session is driven by exactly one thread at a time: `handle(event, proto, write)` runs one
  protocol event to completion and writes its reply through `write`. Only `kill()` and the
  read-only views (processlist, status) are called from other threads; they touch only fields
  that are single assignments (command, info, killed) and the engine's thread-safe cancel().
- Login: the protocol verifies credentials; commands.on_authenticated then applies the account's
  rules (login.py: lock, TLS requirement, connection limits), the max_connections slot kept for
  SUPER / CONNECTION ADMIN, the privileges on the initial database, and interactive_timeout.
  The session's SecurityContext (security.py) answers every privilege question afterwards.
- Statements: a COM_QUERY may carry several statements (CLIENT_MULTI_STATEMENTS); each one's
  result is written with MORE_RESULTS_EXISTS until the last, and the first error stops the rest,
  as in MySQL. SQL routing is statements.py's job.
- Kill: KILL QUERY fails the running statement with 1317 and leaves the session usable; KILL
  [CONNECTION] fails it with 1927 and closes; a wait_timeout expiry closes silently with an
  "Aborted connection" note (MariaDB without a 4031-aware version string); shutdown closes with
  1053 if a statement was running.
- Per-statement state (warnings, the running statement's text, the kill-query flag) is reset
  at the start of each statement, never at the end of the thread (PXC-3118).
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from typing import Any

from rampmeter import errors
from rampmeter.config.options import REGISTRY, Scope
from rampmeter.engine.base import (
    CallResult,
    EngineSession,
    PreparedStatement,
    Result,
    ResultSet,
    WaitReason,
)
from rampmeter.errors import ServerError, Warning_
from rampmeter.protocol import events as ev
from rampmeter.protocol.connection import ServerProtocol
from rampmeter.protocol.constants import Capability, ServerStatus
from rampmeter.sched.snapshot import SessionSnapshot
from rampmeter.session import errmsg, tracking, userstats
from rampmeter.session.context import ServerContext
from rampmeter.session.names import check_database_name
from rampmeter.session.privileges import COL_ACLS, P
from rampmeter.session.security import SecurityContext
from rampmeter.sql import charsets, limits, scancache
from rampmeter.sql.lexer import Dialect
from rampmeter.sql.statement import Statement, scan

Write = Callable[[bytes], None]

_ROWS_PER_WRITE = 256

# MariaDB's processlist State while a thread waits, by wait reason.
_WAIT_STATE = {
    WaitReason.SLEEP: "User sleep",
    WaitReason.USER_LOCK: "User lock",
    WaitReason.TABLE_LOCK: "Waiting for table level lock",
    WaitReason.META_DATA_LOCK: "Waiting for table metadata lock",
    WaitReason.GLOBAL_LOCK: "Waiting for global read lock",
    WaitReason.ROW_LOCK: "Waiting for row lock",
    WaitReason.NET: "Writing to net",
}


_COLUMN_PRIVILEGES = ((P.SELECT, "select"), (P.INSERT, "insert"), (P.UPDATE, "update"),
                      (P.REFERENCES, "references"))

_AUTOCOMMIT = int(ServerStatus.AUTOCOMMIT)
_IN_TRANS = int(ServerStatus.IN_TRANS)
_MORE_RESULTS = int(ServerStatus.MORE_RESULTS_EXISTS)
_NO_BACKSLASH_ESCAPES = int(ServerStatus.NO_BACKSLASH_ESCAPES)


# SHOW statements MariaDB answers from information_schema (through execute_sqlcom_select, so
# their empty answers count in Empty_queries): the word after SHOW
_SHOW_SELECTS = frozenset(("DATABASES", "SCHEMAS", "TABLES", "FULL", "COLUMNS", "FIELDS", "KEYS",
                           "INDEX", "INDEXES", "VARIABLES", "STATUS", "GLOBAL", "SESSION",
                           "LOCAL", "COLLATION", "CHARACTER", "CHARSET", "TABLE", "TRIGGERS",
                           "EVENTS", "OPEN", "PLUGINS", "PROCEDURE", "FUNCTION"))

class EngineContext:
    """The SessionContext an engine sees: USER() is "name@host" there, while Session.user is
    the bare account name the rest of the server uses."""

    __slots__ = ("_s",)

    def __init__(self, session: Session) -> None:
        self._s = session

    @property
    def connection_id(self) -> int:
        return self._s.connection_id

    @property
    def user(self) -> str:
        return self._s.user_host

    @property
    def counters(self) -> Counter[str]:
        """The session's status counters (the engine adds Sort_* / Handler_*: sortstats.py)."""
        return self._s.counters

    @property
    def client_charset_name(self) -> str:
        return self._s.client_charset().name

    @property
    def current_user(self) -> str:
        return self._s.current_user

    @property
    def current_role(self) -> str | None:
        sec = self._s.security
        return sec.role if sec is not None else None

    def visible(self, database: str, table: str | None = None,
                column: str | None = None) -> bool:
        """Whether the account may see this database / table / column (privileges.py)."""
        sec = self._s.security
        if sec is None or sec.unchecked:
            return True
        if table is None:
            return sec.may_see_db(database)
        if column is None:
            return sec.may_see_table(database, table)
        return sec.may_see_column(database, table, column)

    def check_file_privilege(self) -> None:
        """SELECT ... INTO OUTFILE / DUMPFILE writes the server's files: FILE (1045)."""
        if self._s.security is not None:
            self._s.security.check_global(P.FILE)

    def account_exists(self, user: str, host: str) -> bool:
        """Whether the account (or, with no host, the role) exists: a view whose DEFINER
        does not is noted with 1449 (views.py)."""
        tables = getattr(self._s.ctx.accounts, "tables", None)
        if tables is None or getattr(self._s.ctx.accounts, "skip_grants", False):
            return True
        return tables.account(user, host) is not None or host == "" and \
            bool(tables.role(user))

    def has_db_privilege(self, database: str, name: str) -> bool:
        """Whether the account holds privilege `name` (privileges.P's) in the database or
        globally (information_schema.EVENTS lists the events of databases with EVENT)."""
        sec = self._s.security
        if sec is None or sec.unchecked:
            return True
        bit = getattr(P, name)
        return sec.has(bit) or bool(sec.db_bits(database) & bit)

    def column_privileges(self, database: str, table: str, column: str) -> str:
        """information_schema.COLUMNS.PRIVILEGES: what the account may do with the column."""
        sec = self._s.security
        bits = COL_ACLS if sec is None or sec.unchecked else \
            sec.column_bits(database, table, column)
        return ",".join(name for bit, name in _COLUMN_PRIVILEGES if bits & bit)

    def system_variable(self, name: str, scope: str | None = None) -> Any:
        return self._s.system_variable(name, scope)

    @property
    def translation(self) -> tuple[str, int, int]:
        v = self._s.vars
        return v["collation_connection"], v["div_precision_increment"], v["sql_select_limit"]

    def user_variable(self, name: str) -> Any:
        return self._s.user_variable(name)

    def set_user_variable(self, name: str, value: Any) -> None:
        self._s.set_user_variable(name, value)

    def virtual_table(self, schema: str, table: str) -> Any:
        return self._s.virtual_table(schema, table)

    def virtual_tables(self, schema: str) -> list[str]:
        return self._s.virtual_tables(schema)

    def stored_function(self, name: str) -> Callable[..., Any] | None:
        from rampmeter.session.sp import calls
        return calls.function_for(self._s, name)

    def run_trigger(self, database: str, name: str, row: dict[str, Any]) -> set[str]:
        from rampmeter.session.sp import triggers
        return triggers.run(self._s, database, name, row)

    @property
    def row_count(self) -> int:
        return self._s.last_row_count

    @property
    def client_found_rows(self) -> bool:
        """CLIENT_FOUND_ROWS: affected rows of an UPDATE are the rows it matched."""
        return bool(self._s.capabilities & Capability.FOUND_ROWS)

    @property
    def time_zone(self) -> str:
        """@@session.time_zone, read on every statement (a dict read, not a lookup)."""
        return str(self._s.vars["time_zone"])


class KillState(enum.IntEnum):
    NONE = 0
    QUERY = 1
    WAIT_TIMEOUT = 2
    CONNECTION = 3
    SERVER = 4


SESSION_OPTIONS = [o for o in REGISTRY.values() if o.scope & Scope.SESSION]
_SESSION_NAMES = tuple(o.name for o in SESSION_OPTIONS)


class Session:
    def __init__(self, ctx: ServerContext, connection_id: int, host: str, *,
                 extra_port: bool = False) -> None:
        self.ctx = ctx
        self.connection_id = connection_id
        self.host = host
        self.extra_port = extra_port
        self.user = ""
        self.account_host = ""
        self.logged_in = False
        self.interactive = False
        self.multi_statements = False
        self.capabilities = Capability(0)
        # logged in with an expired password (PASSWORD EXPIRE): MariaDB's sandbox mode, where
        # only SET and ALTER USER run until the password is changed (statements.py)
        self.must_change_password = False
        self.vars: dict[str, Any] = ctx.variables.values_of(_SESSION_NAMES)
        self.user_vars: dict[str, Any] = {}
        self.engine: EngineSession | None = None
        self.prepared: dict[int, PreparedStatement] = {}
        self.sql_prepared: dict[str, PreparedStatement] = {}  # PREPARE name FROM ...
        self._stmt_ids = itertools.count(1)
        self.warnings: list[Warning_] = []
        self.stale_warnings = False  # they belong to an earlier statement (see new_statement)
        self.counters: Counter[str] = Counter()
        # (character set, collation) the handshake named: COM_RESET_CONNECTION returns to it
        self.handshake_charset = ("utf8mb4", "utf8mb4_general_ci")
        self.killed = KillState.NONE
        # processlist view (single assignments, read by other threads)
        self.command = "Connect"
        self.command_started = time.monotonic()
        self.info: str | None = None
        self.state = "login"
        self.executing = False
        self.on_kill: Callable[[], None] = lambda: None  # net: wake an idle connection
        # net: LOAD DATA LOCAL INFILE's exchange - ask the client for a file, get its bytes
        # (None: this connection cannot; the client did not offer CLIENT_LOCAL_FILES).
        self.client_file: Callable[[bytes], bytes] | None = None
        self.vanished = False  # the client hung up mid-request (counted as aborted once)
        self.last_error: str | None = None
        self.tls_active = False
        self.tls_peer: dict[str, Any] | None = None  # the verified client certificate (net/)
        # set by net/connection.py after a TLS handshake (Ssl_cipher, Ssl_version), and by
        # session/sp/calls.py (routines running, for the recursion limit): declared here because
        # a compiled Session (rampmeter/compiled.py) has only the attributes its class assigns
        self.tls_cipher = ""
        self.tls_version = ""
        self.sp_active: dict[str, int] | None = None
        self.sp_out_calls: Any = None  # the running SET's / DO's calls (sp/calls.py)
        self.security: SecurityContext | None = None  # set at login (privileges.py)
        self.connection_key: tuple[str, str] | None = None  # the account counted at login
        self.charsets_changed = False  # SET NAMES & co.: tell the protocol (sync_charsets)
        self.last_row_count = -1       # ROW_COUNT()
        self.found_rows = 0
        self.out_peak = 0     # the largest output buffer flushed (session/memory.py)
        self.in_peak = 0      # the largest read buffer asked for (session/memory.py)
        self.memory_peak = 0  # Max_memory_used (session/memory.py)
        self.userstat_base: Any = None  # counted in USER_STATISTICS since (session/userstats.py)
        self.track_changed: list[str] = []  # set by this statement (session/tracking.py)
        self.counts_empty = False  # an empty result of this statement is an Empty_queries
        # the front door's inputs, kept with the variable values they were made from
        self._client_cs: tuple[Any, charsets.Charset] = (None, charsets.UTF8MB4)
        self._dialect: tuple[Any, Dialect, Any] = (None, Dialect.of(""), None)

    # ------------------------------------------------------------------------------------------
    # the front door: bytes in the client's character set -> scanned statements
    def client_charset(self) -> charsets.Charset:
        name = self.vars["character_set_client"]
        if name is not self._client_cs[0]:  # looked up again only when the variable changed
            self._client_cs = (name, charsets.charset(name) or charsets.UTF8MB4)
        return self._client_cs[1]

    def decode(self, raw: bytes) -> str:
        return self.client_charset().decode(raw)

    @staticmethod
    def shown(text: str) -> str:
        """Text with invalid bytes, as an error message quotes it."""
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")

    def use_database(self, name: str) -> None:
        """USE / COM_INIT_DB: MariaDB's checks of the name (1300, 1102), then privileges
        (1044), then the engine's 1049."""
        assert self.engine is not None
        check_database_name(self, name)
        sec = self.security
        bits = sec.check_use(name) if sec is not None else 0
        self.engine.use(name)
        if sec is not None:
            sec.set_db(name, bits)
        self.track_changed.append(tracking.SCHEMA_MARK)

    def dialect(self) -> Dialect:
        mode, client = self.vars["sql_mode"], self.vars["character_set_client"]
        made = self._dialect
        if mode is not made[0] or client is not made[2]:
            # made again only when sql_mode or the client's character set changed
            dialect = Dialect.of(mode)
            if str(client).lower() == "latin1":  # its letters alone make identifiers
                dialect = dataclasses.replace(dialect, latin1=True)
            self._dialect = made = (mode, dialect, client)
        return made[1]

    def scan(self, text: str, *, client_params: bool = False) -> Statement:
        limits.check(text)  # depth and nesting, before anything recursive reads it
        if client_params:
            return scan(text, self.dialect(), self.client_charset(), client_params=True)
        return scancache.scan(text, self.dialect(), self.client_charset())

    def scan_all(self, text: str) -> list[Statement]:
        limits.check(text)
        return scancache.scan_all(text, self.dialect(), self.client_charset())

    def sync_charsets(self, proto: ServerProtocol) -> None:
        """Give the protocol the client's and the results' character sets."""
        self.charsets_changed = False
        client = self.client_charset()
        results = charsets.charset(self.vars["character_set_results"] or "binary")
        if results is None or not results.codec:
            results = charsets.UTF8MB4
        if results.is_binary:  # no conversion: the stored UTF-8, announced as binary (63)
            proto.set_charsets(client_codec=client.codec or "utf-8", results_codec="utf-8",
                               results_collation=63, results_maxlen=4)
            return
        proto.set_charsets(client_codec=client.codec or "utf-8",
                           results_codec=results.codec or "utf-8",
                           results_collation=charsets.default_collation(results.name).id,
                           results_maxlen=results.maxlen)

    # ------------------------------------------------------------------------------------------
    # SessionContext (what the engine may ask)
    @property
    def user_host(self) -> str:
        return f"{self.user}@{self.host}"

    @property
    def current_user(self) -> str:
        sec = self.security
        return sec.current_user if sec is not None else f"{self.user}@{self.account_host}"

    def system_variable(self, name: str, scope: str | None = None) -> Any:
        from rampmeter.session import sysvars
        return sysvars.read(self, name, scope)

    def user_variable(self, name: str) -> Any:
        return self.user_vars.get(name.lower())

    def set_user_variable(self, name: str, value: Any) -> None:
        self.user_vars[name.lower()] = value

    def virtual_table(self, schema: str, table: str) -> Any:
        from rampmeter.session import infoschema
        return infoschema.table(self, schema, table)

    def virtual_tables(self, schema: str) -> list[str]:
        from rampmeter.session import infoschema
        return infoschema.tables_of(schema)

    # ------------------------------------------------------------------------------------------
    # status the pool and SHOW use
    @property
    def in_transaction(self) -> bool:
        return self.engine is not None and self.engine.in_transaction

    @property
    def holds_locks(self) -> bool:
        return self.engine is not None and self.engine.holds_locks

    def status_flags(self, more: bool = False) -> int:
        """SERVER_STATUS bits for the next OK/EOF (plain int arithmetic: this runs on every
        reply, and IntFlag operations cost a microsecond each)."""
        flags = _AUTOCOMMIT if self.vars["autocommit"] else 0
        if self.in_transaction:
            flags |= _IN_TRANS
        if more:
            flags |= _MORE_RESULTS
        if "NO_BACKSLASH_ESCAPES" in self.vars["sql_mode"]:
            flags |= _NO_BACKSLASH_ESCAPES
        return flags

    def pool_snapshot(self) -> SessionSnapshot:
        """What the connection handler may know of this session until its next command
        (sched/snapshot.py). Built once per command, on the session's own thread."""
        v = self.vars
        engine = self.engine
        logged_in = self.logged_in
        in_txn = engine is not None and engine.in_transaction
        return SessionSnapshot(
            logged_in, in_txn, engine is not None and engine.holds_locks,
            in_txn and engine is not None and engine.holds_write, self.killed != KillState.NONE,
            self.is_pool_admin(), v["thread_pool_priority"], v["thread_pool_high_prio_mode"],
            v["thread_pool_high_priority_connection"], v["thread_pool_high_prio_tickets"],
            float(v["wait_timeout"] if logged_in else self.ctx.variables["connect_timeout"]))

    def is_pool_admin(self) -> bool:
        """Exempt from thread_pool_max_transactions_limit (sched/trxlimit.py). MySQL Enterprise
        exempts accounts with TP_CONNECTION_ADMIN; MariaDB has no such privilege, and its
        nearest, CONNECTION ADMIN (or SUPER, which includes it in 10.11), is what already
        lets an administrator past max_connections. So: extra_port connections (which never
        enter the pool anyway) and accounts with SUPER / CONNECTION ADMIN. root has ALL, so it
        is exempt, as MySQL's root is (it holds every dynamic privilege); applications that
        the limit is meant to hold back run as ordinary accounts. The snapshot carries the
        answer to the pool after each command, so a GRANT takes effect at the next login, as
        global privileges do in MariaDB."""
        sec = self.security
        return self.extra_port or (sec is not None and sec.is_admin())

    def may_kill(self, victim: Session) -> bool:
        """MariaDB: SUPER / CONNECTION ADMIN kill anyone, others only their own threads (a
        connection still logging in has no user: only the former)."""
        sec = self.security
        if not victim.logged_in:
            return self.may_kill_unauthenticated()
        return sec is None or sec.may_kill(victim.user)

    def may_kill_unauthenticated(self) -> bool:
        sec = self.security
        return sec is None or sec.is_admin()

    def may_see(self, other: Session) -> bool:
        """PROCESSLIST and the pool's queues: other users' threads need PROCESS (and so does a
        connection still logging in: it has no user to match)."""
        sec = self.security
        if other is self or sec is None:
            return True
        if not other.logged_in:
            return sec.may_see_threads_of(None)
        return sec.may_see_threads_of(other.user)

    def is_admin(self) -> bool:
        """SUPER or CONNECTION ADMIN (init_connect skipped, the extra connection slot)."""
        sec = self.security
        return sec is not None and sec.is_admin()

    # ------------------------------------------------------------------------------------------
    # kill (any thread)
    def kill(self, *, query_only: bool) -> None:
        state = KillState.QUERY if query_only else KillState.CONNECTION
        if state > self.killed:
            self.killed = state
        if self.engine is not None and self.executing:
            self.engine.cancel()
        if not query_only:
            self.on_kill()

    def expire(self) -> None:
        """The handler saw the idle timeout pass (wait_timeout / connect_timeout)."""
        if self.killed < KillState.WAIT_TIMEOUT:
            self.killed = KillState.WAIT_TIMEOUT

    def shutdown(self) -> None:
        self.killed = KillState.SERVER
        if self.engine is not None and self.executing:
            self.engine.cancel()
        self.on_kill()

    @contextmanager
    def _waiting(self, reason: WaitReason, state: str | None = None) -> Any:
        """The hook handed to the engine: the handler's wait_begin/end plus processlist state."""
        previous = self.state
        self.state = state or _WAIT_STATE.get(reason, "Waiting")
        try:
            with self.ctx.waiting(reason):
                yield
        finally:
            self.state = previous

    # ------------------------------------------------------------------------------------------
    # the dispatch table
    def handle(self, event: object, proto: ServerProtocol, write: Write) -> bool:
        """Run one protocol event; False means: close the connection now."""
        handler = _DISPATCH.get(type(event))
        if handler is None:
            raise TypeError(f"no handler for {event!r}")
        try:
            return handler(self, event, proto, write)
        finally:
            engine = self.engine
            if engine is not None:
                engine.idle()  # an idle connection holds no engine handle (DESIGN.md)

    def _begin_command(self, name: str, info: str | None = None) -> None:
        self.command = name
        self.info = info
        self.command_started = time.monotonic()
        self.state = "starting"  # MariaDB 10.11 stage_starting

    def _end_command(self) -> None:
        self.counts_empty = False
        self.command = "Sleep"
        self.info = None
        self.state = ""
        self.command_started = time.monotonic()

    def check_killed_before_command(self, proto: ServerProtocol, write: Write) -> bool:
        """Called before a command runs: a pending connection kill ends the session here."""
        killed = self.killed
        if killed == KillState.QUERY:
            self.killed = KillState.NONE  # MariaDB resets KILL QUERY between statements
            return True
        if killed == KillState.NONE:
            return True
        if killed == KillState.WAIT_TIMEOUT:
            self.ctx.registry.aborted(connect=not self.logged_in)
            if not self.logged_in:  # connect_timeout passed mid-handshake (hostcache.py)
                self.ctx.hosts.handshake_error(self.host)
            self.ctx.rate_log.log(
                self.ctx.log, "aborted", logging.INFO, "Aborted connection %d to db: '%s' user: '%s' host: "
                "'%s' (Got timeout reading communication packets)", self.connection_id,
                self.database or "unconnected", self.user or "unauthenticated", self.host)
            return False
        if killed == KillState.SERVER:
            write(proto.error_from(ServerError(errors.ER_SERVER_SHUTDOWN)))
        return False

    @property
    def database(self) -> str | None:
        return self.engine.database if self.engine is not None else None

    # ------------------------------------------------------------------------------------------
    # results
    def new_statement(self, stmt: Statement) -> None:
        """Diagnostics at the start of a statement, as MariaDB keeps them: a statement that
        names a table clears the previous statement's warnings; one that does not (SELECT 1,
        SET, DO, BEGIN) leaves them for SHOW WARNINGS until it raises a condition itself;
        SHOW WARNINGS / ERRORS read them."""
        kind = stmt.kind
        # MariaDB's Empty_queries: a SELECT, or a SHOW answered from information_schema
        # (execute_sqlcom_select), that sent no row
        self.counts_empty = kind == "SELECT" or kind == "SHOW" and len(stmt.words) > 1 and \
            stmt.words[1] in _SHOW_SELECTS
        if stmt.keeps_warnings:
            self.stale_warnings = True  # kept to be read, but not this statement's own
            return
        if stmt.uses_tables:
            self.warnings.clear()
            self.stale_warnings = False
        else:
            self.stale_warnings = True

    def clear_warnings(self) -> None:
        self.warnings.clear()
        self.stale_warnings = False

    def _add_conditions(self, conditions: Sequence[Warning_]) -> int:
        """Add this statement's conditions; the count its OK / EOF packet reports."""
        if self.stale_warnings:
            if not conditions:
                return 0
            self.clear_warnings()
        self.warnings.extend(conditions)
        return len(self.warnings)

    def write_result(self, result: Result, proto: ServerProtocol, write: Write, *,
                     more: bool = False, binary: bool = False) -> None:
        if isinstance(result, CallResult):  # a procedure's result sets, then CALL's OK
            for rs in result.sets:
                self.write_result(rs, proto, write, more=True, binary=binary)
        if isinstance(result, ResultSet):
            rows = result.rows
            if type(rows) is list and len(rows) <= _ROWS_PER_WRITE:  # small: one buffer
                warnings = self._add_conditions(result.warnings)
                self.last_row_count = -1
                self.found_rows = len(rows)
                if not rows and self.counts_empty:
                    self.counters["Empty_queries"] += 1
                write(proto.result_set(result.columns, rows, status=self.status_flags(more),
                                       warnings=warnings, binary=binary))
                return
            write(proto.result_set_start(result.columns, binary=binary))
            batch: list[Any] = []
            count = 0
            rows = iter(result.rows)  # may be read from the engine as it goes (streamed)
            try:
                for row in rows:
                    batch.append(row)
                    if len(batch) >= _ROWS_PER_WRITE:
                        write(proto.result_rows(batch))
                        count += len(batch)
                        batch = []
            finally:
                close = getattr(rows, "close", None)
                if close is not None:
                    close()  # a stream given up (an error, a client gone) frees its cursor
            if batch:
                write(proto.result_rows(batch))
                count += len(batch)
            warnings = self._add_conditions(result.warnings)
            self.last_row_count = -1
            self.found_rows = count
            if not count and self.counts_empty:
                self.counters["Empty_queries"] += 1
            write(proto.result_set_end(status=self.status_flags(more), warnings=warnings))
        else:
            warnings = self._add_conditions(result.warnings)
            self.last_row_count = result.affected_rows if result.row_count is None \
                else result.row_count
            write(proto.ok(result.affected_rows, result.last_insert_id,
                           status=self.status_flags(more), warnings=warnings,
                           info=result.info,
                           state=tracking.take(self) if self.track_changed else b""))

    def write_error(self, exc: ServerError, proto: ServerProtocol, write: Write) -> None:
        for rs in getattr(exc, "result_sets", ()):  # a procedure's results before its error
            self.write_result(rs, proto, write, more=True)
        lang = errmsg.language(self.vars.get("lc_messages") or "en_US")
        if lang != "english":  # the message in the session's language (errmsg.py)
            exc = self._translated(exc, lang)
        trail = getattr(exc, "trail", None)  # a routine's (session/sp/run.py): the last ones
        self._add_conditions(trail[-max(int(self.vars.get("max_error_count") or 64), 1):]
                             if trail else (Warning_("Error", exc.code, exc.message),))
        self.last_error = exc.message
        self.track_changed.clear()  # a failed statement reports no state change
        write(proto.error_from(exc))

    def _translated(self, exc: ServerError, lang: str) -> ServerError:
        text = errmsg.translate(exc.code, exc.message, lang,
                                str(self.ctx.variables["lc_messages_dir"] or ""))
        if text == exc.message:
            return exc
        out = ServerError(exc.code, message=text, sqlstate=exc.sqlstate)
        for attr in ("result_sets", "trail"):
            if hasattr(exc, attr):
                setattr(out, attr, getattr(exc, attr))
        return out

    def translate_interrupt(self, exc: ServerError) -> ServerError:
        """A statement interrupted by a kill reports what killed it."""
        if exc.code != errors.ER_QUERY_INTERRUPTED:
            return exc
        if self.killed in (KillState.CONNECTION, KillState.WAIT_TIMEOUT):
            return ServerError(errors.ER_CONNECTION_KILLED)
        if self.killed == KillState.SERVER:
            return ServerError(errors.ER_SERVER_SHUTDOWN)
        return exc

    def close(self) -> None:
        """Roll back and release everything; the connection is gone. Idempotent."""
        engine, self.engine = self.engine, None
        if engine is not None:
            try:
                engine.close()
            except Exception:  # noqa: BLE001 - a failing rollback must not leak the slot
                self.ctx.log.exception("closing the engine session of connection %d",
                                       self.connection_id)
        if self.killed == KillState.CONNECTION and not self.vanished:
            # MariaDB counts a killed thread as an aborted client, logged in or not (once: a
            # client that vanished was counted when the pool saw it go)
            self.vanished = True
            self.ctx.registry.aborted(connect=False)
        if self.logged_in:
            userstats.ended(self)
        self.logged_in = False
        self.ctx.registry.unregister(self)  # listed from its first handle(), login or not
        key, self.connection_key = self.connection_key, None
        if key is not None:
            self.ctx.user_connections.disconnect(key)


from rampmeter.session.commands import DISPATCH as _DISPATCH  # noqa: E402  (table needs Session)

__all__ = ["KillState", "Session", "ev"]
