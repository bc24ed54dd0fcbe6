"""What every session shares: the server-wide objects, handed down by the composition root.

The session layer sits below pool/ and net/, so what it needs from them (the blocking hook, the
handler's counters and thread-pool tables, shutdown) arrives here as plain callables.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from rampmeter.config.variables import GlobalVariables
from rampmeter.engine.base import Engine, WaitReason
from rampmeter.protocol.auth import RsaKeyPair
from rampmeter.ratelog import RateLimitedLog
from rampmeter.session.aclstore import AccountStore
from rampmeter.session.hostcache import HostCache
from rampmeter.session.login import UserConnections
from rampmeter.session.registry import Registry
from rampmeter.session.replica import ReplicaSettings

Rows = list[tuple[Any, ...]]


def _no_rows(table: str) -> Rows:
    return []


PoolWait = Callable[[WaitReason], AbstractContextManager[None]]


@dataclass
class ServerContext:
    variables: GlobalVariables
    registry: Registry
    accounts: AccountStore
    engine: Engine
    waiting: PoolWait  # the handler's wait_begin/end (pool/waits.py); Session._waiting adds state
    rsa_keys: RsaKeyPair | None = None
    tls_enabled: bool = False
    # From the connection handler (pool/): SHOW STATUS rows and the THREAD_POOL_* tables.
    handler_status: Callable[[], dict[str, int]] = dict
    pool_table: Callable[[str], Rows] = _no_rows  # rows of information_schema.THREAD_POOL_*
    flush_pool: Callable[[str], None] = lambda what: None
    request_shutdown: Callable[[], None] = lambda: None
    log: logging.Logger = field(default_factory=lambda: logging.getLogger("rampmeter"))
    user_connections: UserConnections = field(default_factory=UserConnections)
    started: float = field(default_factory=time.time)
    hosts: HostCache = field(init=False)  # max_connect_errors (hostcache.py)
    rate_log: RateLimitedLog = field(default_factory=RateLimitedLog)  # lines clients cause
    replica: ReplicaSettings = field(default_factory=ReplicaSettings)  # CHANGE MASTER TO

    def __post_init__(self) -> None:
        from rampmeter.session.sysvars import pair_startup
        pair_startup(self.variables)
        gv = self.variables
        self.hosts = HostCache(lambda: int(gv["max_connect_errors"]),
                               lambda: int(gv["host_cache_size"]))
