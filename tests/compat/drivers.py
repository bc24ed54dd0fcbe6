"""One way to run SQL through every driver and get back what the driver gave the application.

Rules:
- A test describes its statements as `Step`s (SQL text or bytes, optional parameters, which
  named connection sends it). `run(driver, endpoint, database, steps, connect)` opens the named
  connections lazily with the driver, runs the steps in order on this thread, and returns one
  `Outcome` per step: rows exactly as the driver returned them, the column metadata the driver
  exposes, rowcount, lastrowid, warning_count and SHOW WARNINGS, or the error.
- Nothing is normalised here: a Decimal stays a Decimal, bytes stay bytes, a driver that fails
  to decode a value reports that as a client-side error. Comparing is compare.py's job.
- Errors never stop a run: the step records (code, SQLSTATE, message) and the next step runs
  (so a server that drops the connection shows up as 2013/2006 on the following steps).
- Connection options use one vocabulary (autocommit, found_rows, charset) mapped per driver.
  Defaults: autocommit on, no CLIENT_FOUND_ROWS, utf8mb4, TLS off.
- Drivers: pymysql, mysqlclient, connector (mysql-connector, pure Python), connector-prep
  (its prepared cursor: COM_STMT_PREPARE/EXECUTE, the binary protocol), connector-c and
  connector-c-prep (its C extension; run in a worker process, see cext.py, because the
  extension's bundled OpenSSL must be loaded before Python's ssl module), aiomysql (its
  coroutine API inside asyncio.run) and raw-bin (rawproto.py: the binary protocol spoken
  directly, exposing every column-definition field).
- mysqlclient has no server-side prepared statements and does not expose SQLSTATE (None on
  both sides); PyMySQL exposes it from 1.2 on (exc.sqlstate).
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pymysql

from tests.compat.servers import Endpoint

# -- what a test sends ---------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    sql: str | bytes
    params: Any = None          # a tuple/list/dict for the driver's %s placeholders, or None
    conn: str = "a"             # which named connection sends it
    many: bool = False          # executemany(sql, params)


def steps_of(*items: str | bytes | Step) -> list[Step]:
    return [item if isinstance(item, Step) else Step(item) for item in items]


@dataclass(frozen=True)
class Options:
    autocommit: bool = True
    found_rows: bool = False
    charset: str = "utf8mb4"


# -- what comes back -----------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    name: str
    type_code: int
    length: int | None = None      # column length / internal size
    decimals: int | None = None    # decimals / scale
    charset: int | None = None     # charsetnr where the driver exposes it (63 = binary)
    flags: int | None = None


@dataclass
class Outcome:
    sql: str | bytes
    driver: str
    rows: tuple[Any, ...] | None = None
    columns: tuple[Column, ...] | None = None
    prepare_columns: tuple[Column, ...] | None = None  # raw-bin: the COM_STMT_PREPARE answer
    rowcount: int | None = None
    lastrowid: int | None = None
    warning_count: int | None = None
    warnings: tuple[tuple[str, int, str], ...] = ()
    error: tuple[Any, str | None, str] | None = None   # (code, SQLSTATE, message)
    raw_rows: tuple[bytes, ...] | None = None           # raw-bin: binary-protocol row packets

    @property
    def code(self) -> Any:
        return self.error[0] if self.error else None

    def value(self) -> Any:
        """The single value of a one-row, one-column result (for oracle assertions)."""
        assert self.error is None, self.error
        assert self.rows is not None and len(self.rows) == 1 and len(self.rows[0]) == 1, self.rows
        return self.rows[0][0]


def client_error(exc: BaseException) -> tuple[Any, str | None, str]:
    """An exception a driver raised for something other than an ERR packet."""
    return (f"client:{type(exc).__name__}", None, str(exc)[:300])


def broken(error: tuple[Any, str | None, str]) -> bool:
    """After this error the driver's connection is unusable (lost, or out of step after a
    value it could not decode): the next step on that name opens a new connection, so one
    failure shows as one failure. Client error codes are 2000-2999 (CR_*), 0 is PyMySQL's
    "not connected"."""
    code = error[0]
    return isinstance(code, str) or code == 0 or 2000 <= code < 3000


def _close(conn: Any) -> None:
    try:
        conn.close()
    except Exception:  # noqa: BLE001, S110 - a dead connection is fine to lose
        pass


def _pymysql_error(exc: pymysql.err.Error) -> tuple[Any, str | None, str]:
    args = exc.args
    if len(args) >= 2 and isinstance(args[0], int):
        return (args[0], getattr(exc, "sqlstate", None), str(args[1]))
    return client_error(exc)


def _pymysql_columns(result: Any) -> tuple[Column, ...] | None:
    fields = getattr(result, "fields", None)
    if not fields:
        return None
    return tuple(Column(f.name, f.type_code, f.length, f.scale, f.charsetnr, f.flags)
                 for f in fields)


# -- the drivers ---------------------------------------------------------------------------

class SyncDriver:
    """Template for the blocking DB-API drivers."""

    name = ""
    prepared = False

    def connect(self, ep: Endpoint, database: str, opts: Options) -> Any:
        raise NotImplementedError

    def error(self, exc: BaseException) -> tuple[Any, str | None, str] | None:
        """The (code, state, message) of a driver error, None if not the driver's."""
        raise NotImplementedError

    def cursor(self, conn: Any) -> Any:
        return conn.cursor()

    def columns(self, cur: Any) -> tuple[Column, ...] | None:
        raise NotImplementedError

    def warning_count(self, conn: Any, cur: Any) -> int | None:
        raise NotImplementedError

    def show_warnings(self, conn: Any) -> tuple[tuple[str, int, str], ...]:
        cur = conn.cursor()
        try:
            cur.execute("SHOW WARNINGS")
            return tuple((str(r[0]), int(r[1]), str(r[2])) for r in cur.fetchall())
        finally:
            cur.close()

    def run(self, ep: Endpoint, database: str, steps: Sequence[Step],
            connect: dict[str, Options]) -> list[Outcome]:
        conns: dict[str, Any] = {}
        out: list[Outcome] = []
        try:
            for step in steps:
                outcome = Outcome(step.sql, self.name)
                out.append(outcome)
                try:
                    if step.conn not in conns:
                        conns[step.conn] = self.connect(ep, database,
                                                        connect.get(step.conn, Options()))
                    self.execute(conns[step.conn], step, outcome)
                except Exception as exc:  # noqa: BLE001 - every failure is an answer here
                    outcome.error = self.error(exc) or client_error(exc)
                    if broken(outcome.error) and step.conn in conns:
                        _close(conns.pop(step.conn))
        finally:
            for conn in conns.values():
                _close(conn)
        return out

    def execute(self, conn: Any, step: Step, outcome: Outcome) -> None:
        cur = self.cursor(conn)
        try:
            if step.many:
                cur.executemany(step.sql, step.params)
            elif step.params is None:
                cur.execute(step.sql)
            else:
                cur.execute(step.sql, step.params)
            outcome.columns = self.columns(cur)
            if cur.description:
                outcome.rows = tuple(tuple(r) for r in cur.fetchall())
            outcome.rowcount = cur.rowcount
            outcome.lastrowid = cur.lastrowid
            outcome.warning_count = self.warning_count(conn, cur)
        finally:
            try:
                cur.close()
            except Exception:  # noqa: BLE001, S110
                pass
        if outcome.warning_count:
            outcome.warnings = self.show_warnings(conn)


class PyMySQLDriver(SyncDriver):
    name = "pymysql"

    def connect(self, ep: Endpoint, database: str, opts: Options) -> Any:
        from pymysql.constants import CLIENT
        return pymysql.connect(host=ep.host, port=ep.port, user=ep.user, password=ep.password,
                               database=database, autocommit=opts.autocommit,
                               charset=opts.charset, ssl_disabled=True, connect_timeout=10,
                               read_timeout=30,
                               client_flag=CLIENT.FOUND_ROWS if opts.found_rows else 0)

    def error(self, exc: BaseException) -> tuple[Any, str | None, str] | None:
        return _pymysql_error(exc) if isinstance(exc, pymysql.err.Error) else None

    def columns(self, cur: Any) -> tuple[Column, ...] | None:
        return _pymysql_columns(cur._result) if cur.description else None

    def warning_count(self, conn: Any, cur: Any) -> int | None:
        return cur._result.warning_count if cur._result is not None else None


class MySQLdbDriver(SyncDriver):
    name = "mysqlclient"

    def connect(self, ep: Endpoint, database: str, opts: Options) -> Any:
        import MySQLdb
        from MySQLdb.constants import CLIENT
        return MySQLdb.connect(host=ep.host, port=ep.port, user=ep.user, password=ep.password,
                               database=database, autocommit=opts.autocommit,
                               charset=opts.charset, connect_timeout=10, read_timeout=30,
                               client_flag=CLIENT.FOUND_ROWS if opts.found_rows else 0)

    def error(self, exc: BaseException) -> tuple[Any, str | None, str] | None:
        import MySQLdb
        if isinstance(exc, MySQLdb.Error) and len(exc.args) >= 2:
            return (exc.args[0], None, str(exc.args[1]))
        return None

    def columns(self, cur: Any) -> tuple[Column, ...] | None:
        if not cur.description:
            return None
        return tuple(Column(d[0], d[1], d[3], d[5], None, f)
                     for d, f in zip(cur.description, cur.description_flags))

    def warning_count(self, conn: Any, cur: Any) -> int | None:
        return conn.warning_count()


class ConnectorDriver(SyncDriver):
    """mysql-connector: pure Python (use_pure=True) or its C extension; text or prepared."""

    def __init__(self, use_pure: bool, prepared: bool) -> None:
        self.use_pure = use_pure
        self.prepared = prepared
        self.name = ("connector" if use_pure else "connector-c") + ("-prep" if prepared else "")

    def connect(self, ep: Endpoint, database: str, opts: Options) -> Any:
        import mysql.connector
        from mysql.connector.constants import ClientFlag
        flags = [ClientFlag.FOUND_ROWS] if opts.found_rows else [-ClientFlag.FOUND_ROWS]
        collation = {"utf8mb4": "utf8mb4_general_ci", "latin1": "latin1_swedish_ci",
                     "binary": "binary"}[opts.charset]
        conn = mysql.connector.connect(
            host=ep.host, port=ep.port, user=ep.user, password=ep.password, database=database,
            autocommit=opts.autocommit, charset=opts.charset, collation=collation,
            use_pure=self.use_pure, ssl_disabled=True, client_flags=flags,
            connection_timeout=10, read_timeout=30)
        # mysql.connector silently falls back to pure Python when the extension is missing
        assert (type(conn).__name__ == "CMySQLConnection") != self.use_pure, type(conn)
        sock = getattr(getattr(conn, "_socket", None), "sock", None)
        if sock is not None:
            # The pure driver writes COM_STMT_CLOSE and the next COM_STMT_PREPARE as two small
            # packets without TCP_NODELAY: Nagle + delayed ACK cost 40 ms per prepared
            # statement on any server. Timing only; the bytes sent are the same.
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn

    def error(self, exc: BaseException) -> tuple[Any, str | None, str] | None:
        import mysql.connector
        if isinstance(exc, mysql.connector.Error) and exc.errno is not None and exc.errno > 0:
            return (exc.errno, exc.sqlstate, str(exc.msg))
        return None

    def cursor(self, conn: Any) -> Any:
        return conn.cursor(prepared=True) if self.prepared else conn.cursor(buffered=True)

    def columns(self, cur: Any) -> tuple[Column, ...] | None:
        if not cur.description:
            return None
        # (name, type, None, None, None, None, null_ok, flags, charset)
        return tuple(Column(d[0], d[1], None, None, d[8] if len(d) > 8 else None,
                            d[7] if len(d) > 7 else None) for d in cur.description)

    def warning_count(self, conn: Any, cur: Any) -> int | None:
        return cur.warning_count


def _escape_bytes_prefixed(value: bytes, mapping: Any = None) -> str:
    """PyMySQL 1.1's escape_bytes_prefixed, which aiomysql 0.3 imports to send a bytes
    parameter: `_binary'...'` with the raw bytes escaped (encoded back with surrogateescape).
    PyMySQL 1.2 replaced it with the string "DO NOT IMPORT THIS!!!", so aiomysql 0.3.2 with
    PyMySQL 1.2 fails every bytes parameter with TypeError before sending anything; restoring
    it here keeps aiomysql sending what it sends with the PyMySQL it was written for."""
    from pymysql.converters import _escape_table
    escaped = value.decode("ascii", "surrogateescape").translate(_escape_table)
    return f"_binary'{escaped}'"


def _fix_aiomysql() -> None:
    import aiomysql.connection
    if not callable(aiomysql.connection.escape_bytes_prefixed):
        aiomysql.connection.escape_bytes_prefixed = _escape_bytes_prefixed


class AioMySQLDriver:
    """aiomysql through its coroutine API, one asyncio.run per call."""

    name = "aiomysql"
    prepared = False

    def run(self, ep: Endpoint, database: str, steps: Sequence[Step],
            connect: dict[str, Options]) -> list[Outcome]:
        return asyncio.run(asyncio.wait_for(self._run(ep, database, steps, connect), 60))

    async def _run(self, ep: Endpoint, database: str, steps: Sequence[Step],
                   connect: dict[str, Options]) -> list[Outcome]:
        import aiomysql
        from pymysql.constants import CLIENT
        _fix_aiomysql()
        conns: dict[str, Any] = {}
        out: list[Outcome] = []
        try:
            for step in steps:
                outcome = Outcome(step.sql, self.name)
                out.append(outcome)
                try:
                    if step.conn not in conns:
                        opts = connect.get(step.conn, Options())
                        conns[step.conn] = await aiomysql.connect(
                            host=ep.host, port=ep.port, user=ep.user, password=ep.password,
                            db=database, autocommit=opts.autocommit, charset=opts.charset,
                            connect_timeout=10,
                            client_flag=CLIENT.FOUND_ROWS if opts.found_rows else 0)
                    await self._execute(conns[step.conn], step, outcome)
                except pymysql.err.Error as exc:
                    outcome.error = _pymysql_error(exc)
                except Exception as exc:  # noqa: BLE001
                    outcome.error = client_error(exc)
                if outcome.error and broken(outcome.error) and step.conn in conns:
                    conns.pop(step.conn).close()
        finally:
            for conn in conns.values():
                conn.close()
        return out

    async def _execute(self, conn: Any, step: Step, outcome: Outcome) -> None:
        async with conn.cursor() as cur:
            if step.many:
                await cur.executemany(step.sql, step.params)
            elif step.params is None:
                await cur.execute(step.sql)
            else:
                await cur.execute(step.sql, step.params)
            outcome.columns = _pymysql_columns(cur._result) if cur.description else None
            if cur.description:
                outcome.rows = tuple(tuple(r) for r in await cur.fetchall())
            outcome.rowcount = cur.rowcount
            outcome.lastrowid = cur.lastrowid
            outcome.warning_count = conn._result.warning_count if conn._result else None
        if outcome.warning_count:
            async with conn.cursor() as cur:
                await cur.execute("SHOW WARNINGS")
                outcome.warnings = tuple((str(r[0]), int(r[1]), str(r[2]))
                                         for r in await cur.fetchall())


def _raw_bin() -> Any:
    from tests.compat.rawproto import RawBinaryDriver
    return RawBinaryDriver()


LOCAL = {
    "pymysql": PyMySQLDriver,
    "mysqlclient": MySQLdbDriver,
    "connector": lambda: ConnectorDriver(use_pure=True, prepared=False),
    "connector-prep": lambda: ConnectorDriver(use_pure=True, prepared=True),
    "aiomysql": AioMySQLDriver,
    "raw-bin": _raw_bin,
    # run in-process only inside the worker (cext.py), where the C extension could load
    "connector-c": lambda: ConnectorDriver(use_pure=False, prepared=False),
    "connector-c-prep": lambda: ConnectorDriver(use_pure=False, prepared=True),
}

CEXT = ("connector-c", "connector-c-prep")
TEXT = ("pymysql", "mysqlclient", "connector", "connector-c", "aiomysql")
BINARY = ("connector-prep", "connector-c-prep", "raw-bin")
ALL = TEXT + BINARY
# what each driver puts on the wire for a bytes parameter
SENDS_RAW_BYTES_IN_TEXT = ("mysqlclient", "connector", "connector-c", "aiomysql")
# PyMySQL sends _binary X'hex', aiomysql _binary'<escaped raw bytes>'; the prepared ones send the
# bytes as a binary-protocol parameter.


def run_local(driver: str, ep: Endpoint, database: str, steps: Sequence[Step],
              connect: dict[str, Options] | None = None) -> list[Outcome]:
    return LOCAL[driver]().run(ep, database, list(steps), connect or {})


@dataclass
class Runner:
    """Dispatches a run to the right place: this process, or the C-extension worker."""

    cext: Any = None     # cext.Worker, started on first use
    notes: list[str] = field(default_factory=list)

    def run(self, driver: str, ep: Endpoint, database: str, steps: Sequence[Step],
            connect: dict[str, Options] | None = None) -> list[Outcome]:
        if driver in CEXT:
            assert self.cext is not None, "C-extension worker not started"
            return self.cext.run(driver, ep, database, list(steps), connect or {})
        return run_local(driver, ep, database, steps, connect)
