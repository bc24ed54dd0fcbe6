"""What happens after the password is right and before the session may run anything: the
account's lock, TLS requirement and connection limits; and the per-account counters behind
MAX_USER_CONNECTIONS and the hourly limits.

Rules (MariaDB 10.11's acl_authenticate and check_for_max_user_connections, in that order):
- ACCOUNT LOCK -> 4151 "Access denied, this account is locked" (only once the password was
  right; a wrong one is 1045 whatever the lock).
- REQUIRE SSL without TLS, REQUIRE X509 without a client certificate the server verified
  (--ssl-ca), REQUIRE ISSUER / SUBJECT / CIPHER that do not match -> 1045, as MariaDB: the
  client learns no more than that it may not log in.
- MAX_CONNECTIONS_PER_HOUR exceeded -> 1226; the account's MAX_USER_CONNECTIONS exceeded ->
  1226; without an account limit, the global max_user_connections exceeded -> 1203. A session
  counts from login to close (COM_CHANGE_USER moves it to the new account).
- MAX_QUERIES_PER_HOUR / MAX_UPDATES_PER_HOUR: every statement / every statement that writes
  counts against the account; past the limit, statements fail with 1226 until the hour since
  the first counted one has passed (MariaDB's per-account window).
- Counts are per account ('user'@'host-pattern'), kept in memory: a restart starts them over,
  as in MariaDB.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.session.accounts import Account

HOUR = 3600.0
_SUBJECT_KEYS = {"countryName": "C", "stateOrProvinceName": "ST", "localityName": "L",
                 "organizationName": "O", "organizationalUnitName": "OU", "commonName": "CN",
                 "emailAddress": "emailAddress"}


def _denied(user: str, host: str, password: bool) -> ServerError:
    return ServerError(errors.ER_ACCESS_DENIED_ERROR, user, host, "YES" if password else "NO")


def x509_name(parts: Any) -> str:
    """getpeercert()'s subject / issuer as OpenSSL's one-line form, '/C=FI/CN=name'."""
    out = []
    for rdn in parts or ():
        for key, value in rdn:
            out.append(f"/{_SUBJECT_KEYS.get(key, key)}={value}")
    return "".join(out)


def check_account(acct: Account, *, user: str, host: str, tls: bool, cipher: str,
                  peer: dict[str, Any] | None) -> None:
    """The lock and TLS rules (module rules); raises the login's error."""
    if acct.locked:
        raise ServerError(errors.ER_ACCOUNT_HAS_BEEN_LOCKED)
    password = bool(acct.auth_string)
    kind = acct.ssl_type
    if not kind:
        return
    if not tls:
        raise _denied(user, host, password)
    if kind == "ANY":
        return
    if not peer:
        raise _denied(user, host, password)
    if kind == "SPECIFIED":
        if acct.ssl_cipher and acct.ssl_cipher != cipher:
            raise _denied(user, host, password)
        if acct.x509_issuer and acct.x509_issuer != x509_name(peer.get("issuer")):
            raise _denied(user, host, password)
        if acct.x509_subject and acct.x509_subject != x509_name(peer.get("subject")):
            raise _denied(user, host, password)


@dataclass
class _Usage:
    connections: int = 0          # open sessions now
    window_start: float = 0.0     # when the current hour began
    conn_per_hour: int = 0
    questions: int = 0
    updates: int = 0


class UserConnections:
    """Per-account counters (module rules). Thread-safe; the clock is injectable."""

    def __init__(self, clock: Any = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._usage: dict[tuple[str, str], _Usage] = {}
        self._clock = clock

    def _window(self, u: _Usage) -> None:
        now = self._clock()
        if now - u.window_start >= HOUR:
            u.window_start = now
            u.conn_per_hour = u.questions = u.updates = 0

    def connect(self, acct: Account, global_limit: int) -> tuple[str, str]:
        """Count a new session of `acct`, or raise 1226 / 1203 without counting it."""
        key = (acct.user, acct.host.lower())
        with self._lock:
            u = self._usage.setdefault(key, _Usage())
            self._window(u)
            if acct.max_connections and u.conn_per_hour >= acct.max_connections:
                raise ServerError(errors.ER_USER_LIMIT_REACHED, acct.user,
                                  "max_connections_per_hour", acct.max_connections)
            if acct.max_user_connections:
                if u.connections >= acct.max_user_connections:
                    raise ServerError(errors.ER_USER_LIMIT_REACHED, acct.user,
                                      "max_user_connections", acct.max_user_connections)
            elif global_limit and u.connections >= global_limit:
                raise ServerError(errors.ER_TOO_MANY_USER_CONNECTIONS, acct.user)
            u.connections += 1
            u.conn_per_hour += 1
        return key

    def disconnect(self, key: tuple[str, str]) -> None:
        with self._lock:
            u = self._usage.get(key)
            if u is not None and u.connections > 0:
                u.connections -= 1

    def statement(self, key: tuple[str, str], acct_limits: tuple[int, int],
                  writes: bool) -> None:
        """Count one statement against MAX_QUERIES / MAX_UPDATES_PER_HOUR (1226 past them)."""
        max_questions, max_updates = acct_limits
        with self._lock:
            u = self._usage.setdefault(key, _Usage())
            self._window(u)
            if max_questions and u.questions >= max_questions:
                raise ServerError(errors.ER_USER_LIMIT_REACHED, key[0], "max_questions",
                                  max_questions)
            if writes and max_updates and u.updates >= max_updates:
                raise ServerError(errors.ER_USER_LIMIT_REACHED, key[0], "max_updates",
                                  max_updates)
            u.questions += 1
            if writes:
                u.updates += 1

    def open_sessions(self, key: tuple[str, str]) -> int:
        with self._lock:
            u = self._usage.get(key)
            return u.connections if u is not None else 0
