"""The host cache's error counts: a host whose connections keep failing before login is blocked
(MariaDB's max_connect_errors), until FLUSH HOSTS or `mariadb-admin flush-hosts`.

Rules (MariaDB 10.11, sql/hostname.cc and sql_connect.cc):
- What counts is a *handshake* error: a connection that ends before login completes for any
  reason other than a refused login (a malformed or truncated packet, a timeout, a client that
  hangs up mid-handshake). A wrong password does not count (MariaDB's Host_errors keeps
  authentication errors apart: they never block a host; max_password_errors, per account, is
  the knob for those and is not implemented).
- When a host's count reaches max_connect_errors (default 100) its next connections are refused
  with 1129 before the greeting. A successful login from the host resets its count to 0.
- The loopback address 127.0.0.1 / ::1 and the unix socket are never counted nor blocked:
  MariaDB resolves them to 'localhost' without the host cache, so a local administrator (and
  a local fuzzer) cannot lock the machine out of its own server.
- The cache holds at most host_cache_size hosts (default 128), least recently seen evicted
  first, so a storm from many addresses costs a bounded table. 0 turns the cache off (nothing
  is counted or blocked), as in MariaDB.
- Thread-safe: the acceptor, the handler's threads and FLUSH HOSTS all reach it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

_LOOPBACK = frozenset(("127.0.0.1", "::1", "localhost", "::ffff:127.0.0.1"))


class HostCache:
    def __init__(self, max_errors: Callable[[], int], size: Callable[[], int]) -> None:
        self._max_errors = max_errors
        self._size = size
        self._errors: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()
        self.blocked_connects = 0  # Connection_errors_host_blocked

    def blocked(self, host: str) -> bool:
        if host in _LOOPBACK:
            return False
        with self._lock:
            count = self._errors.get(host, 0)
            if count >= self._max_errors():
                self.blocked_connects += 1
                return True
        return False

    def handshake_error(self, host: str) -> None:
        if host in _LOOPBACK:
            return
        size = self._size()
        if size <= 0:
            return
        with self._lock:
            self._errors[host] = self._errors.get(host, 0) + 1
            self._errors.move_to_end(host)
            while len(self._errors) > size:
                self._errors.popitem(last=False)

    def logged_in(self, host: str) -> None:
        if host in _LOOPBACK:
            return
        with self._lock:
            self._errors.pop(host, None)

    def flush(self) -> None:
        with self._lock:
            self._errors.clear()

    def rows(self) -> list[tuple[str, int]]:
        """(host, errors) for each cached host, oldest first."""
        with self._lock:
            return list(self._errors.items())
