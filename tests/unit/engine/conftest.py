"""Fixtures for engine tests: a SqliteEngine on tmp_path, sessions with a fake SessionContext,
and a `waiting(reason)` hook that records every reason it was entered with."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rampmeter import errors
from rampmeter.engine.base import Result, ResultSet, UpdateCount, WaitReason
from rampmeter.engine.sqlite import SqliteEngine, SqliteSession
from rampmeter.errors import ServerError


class FakeContext:
    """The session layer as an engine sees it (base.SessionContext)."""

    def __init__(self, connection_id: int = 1, *, lock_wait_timeout: float = 1) -> None:
        self.connection_id = connection_id
        self.user = f"user{connection_id}@localhost"
        self.current_user = f"user{connection_id}@%"
        self.variables: dict[str, Any] = {
            "innodb_lock_wait_timeout": lock_wait_timeout,
            "lock_wait_timeout": lock_wait_timeout,
            "version": "10.11.99-rampmeter-test",
            "autocommit": True,
            "max_connections": 151,
            "sql_mode": "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,"
                        "NO_ENGINE_SUBSTITUTION",  # MariaDB 10.11's default
            "character_set_server": "utf8mb4", "collation_server": "utf8mb4_general_ci",
            "default_storage_engine": "InnoDB", "timestamp": 0.0,
            "collation_connection": "utf8mb4_general_ci", "div_precision_increment": 4,
            "default_week_format": 0, "sql_select_limit": 2**64 - 1,
            "max_allowed_packet": 16777216, "lc_time_names": "en_US", "old_passwords": 0,
        }
        self.client_found_rows = False
        self.row_count = -1
        self.global_variables: dict[str, Any] = {"max_connections": 1000}
        self.user_variables: dict[str, Any] = {}
        self.calls: list[tuple[str, str | None]] = []

    def system_variable(self, name: str, scope: str | None = None) -> Any:
        self.calls.append((name, scope))
        key = name.lower()
        if scope is not None and scope.lower() == "global" and key in self.global_variables:
            return self.global_variables[key]
        if key not in self.variables:
            raise ServerError(errors.ER_UNKNOWN_SYSTEM_VARIABLE, name)
        return self.variables[key]

    @property
    def translation(self) -> tuple[str, int, int]:
        v = self.variables
        return v["collation_connection"], v["div_precision_increment"], v["sql_select_limit"]

    def user_variable(self, name: str) -> Any:
        return self.user_variables.get(name.lower())

    def set_user_variable(self, name: str, value: Any) -> None:
        self.user_variables[name.lower()] = value

    def virtual_table(self, schema: str, table: str) -> None:
        return None


class WaitRecorder:
    """The `waiting` hook: records reasons (thread-safely) and lets a test wait for one."""

    def __init__(self) -> None:
        self.reasons: list[WaitReason] = []
        self.active: list[WaitReason] = []
        self._cond = threading.Condition()

    @contextmanager
    def __call__(self, reason: WaitReason, state: str | None = None) -> Iterator[None]:
        with self._cond:
            self.reasons.append(reason)
            self.active.append(reason)
            self._cond.notify_all()
        try:
            yield
        finally:
            with self._cond:
                self.active.remove(reason)

    def wait_entered(self, reason: WaitReason, timeout: float = 2.0) -> None:
        """Block until some thread is inside waiting(reason); fail after `timeout`."""
        with self._cond:
            if not self._cond.wait_for(lambda: reason in self.active, timeout):
                raise AssertionError(f"nobody entered waiting({reason}) within {timeout}s")


class Worker(threading.Thread):
    """Run `fn` in a thread; join() with a deadline, then read .result / .error / .elapsed."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        super().__init__(daemon=True)
        self._fn = fn
        self.result: Any = None
        self.error: BaseException | None = None
        self.elapsed = 0.0

    def run(self) -> None:
        start = time.monotonic()
        try:
            self.result = self._fn()
        except BaseException as e:  # reported to the test
            self.error = e
        finally:
            self.elapsed = time.monotonic() - start

    def finish(self, timeout: float = 3.0) -> Worker:
        self.join(timeout)
        assert not self.is_alive(), f"worker still running after {timeout}s"
        return self


def start(fn: Callable[[], Any]) -> Worker:
    w = Worker(fn)
    w.start()
    return w


def set_lock_wait_timeout(session: SqliteSession, seconds: float) -> None:
    """A sub-second innodb_lock_wait_timeout (and lock_wait_timeout), to prove a wait
    without paying a second."""
    ctx = session.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["innodb_lock_wait_timeout"] = seconds
    ctx.variables["lock_wait_timeout"] = seconds


def rows(result: Result) -> list[tuple[Any, ...]]:
    assert isinstance(result, ResultSet), result
    return [tuple(r) for r in result.rows]


def scalar(session: SqliteSession, sql: str) -> Any:
    got = rows(session.execute(sql))
    assert len(got) == 1 and len(got[0]) == 1, got
    return got[0][0]


def update(session: SqliteSession, sql: str) -> UpdateCount:
    result = session.execute(sql)
    assert isinstance(result, UpdateCount), result
    return result


def fails(session: SqliteSession, sql: str, code: int, sqlstate: str | None = None) -> ServerError:
    with pytest.raises(ServerError) as info:
        session.execute(sql)
    assert info.value.code == code, info.value
    if sqlstate is not None:
        assert info.value.sqlstate == sqlstate, info.value
    return info.value


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[SqliteEngine]:
    eng = SqliteEngine(tmp_path / "data", synchronous="NORMAL")
    yield eng
    eng.close()


@pytest.fixture
def waits() -> WaitRecorder:
    return WaitRecorder()


def _idle_after_each_call(s: SqliteSession) -> None:
    """Make `s` behave as the server drives it: idle() after every command, so its handle goes
    back to the engine's pool unless it is pinned (engine/sqlite/pinning.py)."""
    for name in ("execute", "prepare", "execute_prepared", "use", "set_autocommit"):
        method = getattr(s, name)

        def call(*args: Any, _method: Callable[..., Any] = method, **kw: Any) -> Any:
            try:
                return _method(*args, **kw)
            finally:
                s.idle()
        setattr(s, name, call)


@pytest.fixture(params=["owned", "pooled"])
def open_session(request: pytest.FixtureRequest, engine: SqliteEngine,
                 waits: WaitRecorder) -> Iterator[Callable[..., SqliteSession]]:
    """open_session(connection_id=1, database=None, lock_wait_timeout=1) -> SqliteSession.
    Every test runs twice: with each session keeping the handle it borrowed ("owned"), and
    giving it back after each statement as the server does ("pooled")."""
    sessions: list[SqliteSession] = []

    def factory(connection_id: int | None = None, *, database: str | None = None,
                lock_wait_timeout: float = 1, hook: WaitRecorder | None = None) -> SqliteSession:
        ctx = FakeContext(connection_id or len(sessions) + 1, lock_wait_timeout=lock_wait_timeout)
        s = engine.open_session(ctx, hook or waits)
        if request.param == "pooled":
            _idle_after_each_call(s)
        sessions.append(s)
        if database is not None:
            s.use(database)
        return s

    yield factory
    for s in sessions:
        s.close()


@pytest.fixture
def session(open_session: Callable[..., SqliteSession]) -> SqliteSession:
    """A session with database `db` created and current."""
    s = open_session(1)
    s.execute("CREATE DATABASE db")
    s.use("db")
    return s
