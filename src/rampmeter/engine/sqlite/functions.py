"""SQL functions the engine registers on each handle: values of the session (@@vars, @vars,
CONNECTION_ID(), DATABASE(), USER(), LAST_INSERT_ID()...), time, user locks, SLEEP, and the
engine's own helpers (rm_cv converts a stored value, rm_row_* count changed rows).

Rules:
- A function reaches the session only through `Host`, the narrow face SqliteSession shows it;
  nothing here touches the session's other state.
- An error a function raises (a ServerError, or an interrupted wait) is handed to the host and
  reported as the statement's error: SQLite would otherwise turn it into "user-defined function
  raised exception".
- Arguments arrive as SQLite gives them; numbers in text are read as MariaDB reads them
  (values.parse_number), so SLEEP('x') sleeps 0 seconds, as in MariaDB, rather than failing.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import time
import uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any, Protocol

from rampmeter import errors
from rampmeter.engine.base import SessionContext, WaitHook, WaitReason
from rampmeter.engine.locks import LockTable, WaitAborted
from rampmeter.engine.values import parse_number
from rampmeter.errors import ServerError


class Host(Protocol):
    """What the functions may ask of the session they run for."""

    context: SessionContext
    waiting: WaitHook

    @property
    def database(self) -> str | None: ...

    @property
    def last_insert_id(self) -> int: ...

    def set_last_insert_id(self, value: int) -> None: ...

    def found_rows(self) -> int: ...

    def row_count(self) -> int: ...

    def cancelled(self) -> bool: ...

    def sleep(self, seconds: float) -> None: ...

    def function_failed(self, error: ServerError) -> None: ...

    def cast(self, index: int, value: Any) -> Any: ...

    def row_updated(self, changed: int) -> None: ...

    def row_deleted(self) -> None: ...

    def user_locks(self) -> UserLocks: ...


class UserLocks(Protocol):
    connection_id: int
    user_locks: int


def _number(v: Any) -> float:
    if v is None:
        return 0.0
    if isinstance(v, (int, float)):
        return float(v)
    num, _whole = parse_number(v.decode("latin-1") if isinstance(v, bytes) else str(v))
    return float(num) if num is not None else 0.0


def _bytes(v: Any) -> bytes:
    return v if isinstance(v, bytes) else str(v).encode("utf-8", "surrogateescape")


def _now() -> dt.datetime:
    return dt.datetime.now()


def now_text(fsp: Any = 0) -> str:
    n = max(0, min(int(_number(fsp)), 6))
    text = _now().strftime("%Y-%m-%d %H:%M:%S.%f")
    return text[:20 + n] if n else text[:19]


def _unix_timestamp(value: Any) -> Any:
    if value is None:
        return None
    try:
        return int(dt.datetime.fromisoformat(str(value)).timestamp())
    except ValueError:
        return 0


def _from_unixtime(value: Any) -> Any:
    if value is None:
        return None
    return dt.datetime.fromtimestamp(_number(value)).strftime("%Y-%m-%d %H:%M:%S")


def _rand(seed: Any = None) -> float:
    return random.Random(seed).random() if seed is not None else random.random()


def _concat_ws(sep: Any, *args: Any) -> Any:
    if sep is None:
        return None
    return str(sep).join(str(a) for a in args if a is not None)


def _hash(algorithm: str) -> Callable[[Any], Any]:
    def digest(v: Any) -> Any:
        return None if v is None else hashlib.new(algorithm, _bytes(v)).hexdigest()
    return digest


def register(handle: Any, host: Host, locks: LockTable) -> None:
    """Register every function on `handle` (a Handle), answering for `host`."""

    def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            try:
                return fn(*args)
            except ServerError as e:
                host.function_failed(e)
                raise
            except WaitAborted:
                host.function_failed(ServerError(errors.ER_QUERY_INTERRUPTED))
                raise
        return call

    def sysvar(name: str, scope: str | None) -> Any:
        value = host.context.system_variable(name, scope)
        return int(value) if isinstance(value, bool) else value

    def uservar(name: str) -> Any:
        value = host.context.user_variable(name)
        if isinstance(value, Decimal):
            return int(value) if value == value.to_integral_value() and \
                abs(value) < 2**63 else float(value)
        return value

    def set_last_insert_id(value: Any) -> Any:
        host.set_last_insert_id(int(_number(value)))
        return value

    def sleep(seconds: Any) -> int:
        secs = _number(seconds)
        if secs > 0:
            host.sleep(secs)
        return 0

    def lock_name(name: Any) -> str:
        return "user:" + str(name).lower()

    def get_lock(name: Any, timeout: Any) -> int | None:
        if name is None:
            return None
        t = _number(timeout)
        if t < 0:
            t = 365 * 86400.0
        owner = host.user_locks()
        key = lock_name(name)
        if locks.try_acquire(key, owner):
            owner.user_locks += 1
            return 1
        with host.waiting(WaitReason.USER_LOCK):
            ok = locks.acquire(key, owner, t, host.cancelled)
        if ok:
            owner.user_locks += 1
        return 1 if ok else 0

    def release_lock(name: Any) -> int | None:
        owner = host.user_locks()
        key = lock_name(name)
        holder = locks.owner_of(key)
        if holder is None:
            return None
        if holder is not owner:
            return 0
        locks.release(key, owner)
        owner.user_locks -= 1
        return 1

    def is_free_lock(name: Any) -> int:
        return 0 if locks.owner_of(lock_name(name)) else 1

    def is_used_lock(name: Any) -> int | None:
        holder = locks.owner_of(lock_name(name))
        return getattr(holder, "connection_id", None)

    def release_all_locks() -> int:
        owner = host.user_locks()
        freed = owner.user_locks
        locks.release_all(owner, names=lambda n: n.startswith("user:"))
        owner.user_locks = 0
        return freed

    ctx = host.context
    fns: list[tuple[str, int, Callable[..., Any]]] = [
        ("rm_sysvar", 2, guarded(sysvar)), ("rm_uservar", 1, uservar),
        ("rm_database", 0, lambda: host.database), ("database", 0, lambda: host.database),
        ("schema", 0, lambda: host.database),
        ("rm_version", 0, lambda: ctx.system_variable("version")),
        ("rm_user", 0, lambda: ctx.user), ("rm_current_user", 0, lambda: ctx.current_user),
        ("connection_id", 0, lambda: ctx.connection_id),
        ("last_insert_id", 0, lambda: host.last_insert_id),
        ("last_insert_id", 1, set_last_insert_id),
        ("found_rows", 0, host.found_rows), ("row_count", 0, host.row_count),
        ("rm_now", 0, now_text), ("rm_now", 1, now_text),
        ("rm_curdate", 0, lambda: _now().strftime("%Y-%m-%d")),
        ("rm_curtime", 0, lambda: now_text()[11:]),
        ("rm_curtime", 1, lambda fsp: now_text(fsp)[11:]),
        ("rm_utc_timestamp", 0,
         lambda: dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S")),
        ("rm_unix_timestamp", 0, lambda: int(time.time())),
        ("rm_unix_timestamp", 1, _unix_timestamp),
        ("rm_from_unixtime", 1, _from_unixtime),
        ("rm_octet_length", 1, lambda v: None if v is None else len(_bytes(v))),
        ("sleep", 1, guarded(sleep)),
        ("get_lock", 2, guarded(get_lock)), ("release_lock", 1, release_lock),
        ("is_free_lock", 1, is_free_lock), ("is_used_lock", 1, is_used_lock),
        ("release_all_locks", 0, release_all_locks),
        ("uuid", 0, lambda: str(uuid.uuid1())),
        ("rand", 0, _rand), ("rand", 1, _rand),
        ("md5", 1, _hash("md5")), ("sha1", 1, _hash("sha1")),
        ("lcase", 1, lambda v: None if v is None else str(v).lower()),
        ("ucase", 1, lambda v: None if v is None else str(v).upper()),
        ("concat_ws", -1, _concat_ws),
        ("benchmark", 2, lambda n, v: 0),
        ("rm_cv", 2, guarded(lambda v, i: host.cast(i, v))),
        ("rm_row_updated", 1, host.row_updated),
        ("rm_row_deleted", 0, host.row_deleted),
    ]
    for name, nargs, fn in fns:
        handle.create_function(name, nargs, fn)
