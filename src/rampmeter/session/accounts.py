"""Accounts: who may log in, with which authentication plugin, kept in the data directory.

Rules:
- An account is 'user'@'host-pattern' with a plugin and an authentication string, stored in
  <datadir>/mysql/accounts.json (written atomically: temp file, fsync, rename), so accounts
  survive restarts. A fresh data directory gets root@localhost with an empty password, as a
  fresh MariaDB does for its root (without the unix_socket plugin, which needs OS users).
- Authentication strings follow MySQL where the format is public: mysql_native_password keeps
  '*' + HEX(SHA1(SHA1(password))); caching_sha2_password keeps a salted PBKDF2-SHA256 verifier
  (MySQL's own $A$005$ sha256-crypt format needs a hand-written crypt; PBKDF2 is in hashlib)
  and, in memory only, the SHA256(SHA256(password)) digest that its fast path needs. That cache
  is filled by a successful full authentication and emptied by ALTER USER / FLUSH PRIVILEGES,
  exactly as MySQL's sha2 cache behaves.
- Host matching: '%' and '_' wildcards; the loopback addresses (127.0.0.0/8, ::1) and the unix
  socket match 'localhost', since with skip_name_resolve a local client would otherwise never be
  'localhost' over TCP. The most specific matching account wins (fewest wildcards), like
  MySQL's sorted acl_users.
- There is no privilege system yet: every account may do everything (see README).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import os
import re
import secrets
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from rampmeter import errors
from rampmeter.errors import ServerError
from rampmeter.protocol.auth import Credentials, native_password_hash

NATIVE = "mysql_native_password"
SHA2 = "caching_sha2_password"
PLUGINS = (NATIVE, SHA2)
_PBKDF2_ROUNDS = 5000  # MySQL's caching_sha2_password default of 5000 sha256-crypt rounds


@dataclass
class Account:
    user: str
    host: str
    plugin: str
    auth_string: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.user, self.host.lower())

    def display(self) -> str:
        return f"'{self.user}'@'{self.host}'"


def make_auth_string(plugin: str, password: str) -> str:
    if not password:
        return ""
    raw = password.encode("utf-8")
    if plugin == NATIVE:
        return "*" + native_password_hash(raw).hex().upper()
    salt = secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", raw, salt, _PBKDF2_ROUNDS)
    return f"$pbkdf2-sha256${_PBKDF2_ROUNDS}${salt.hex()}${digest.hex()}"


def check_auth_string(plugin: str, auth_string: str, password: bytes) -> bool:
    if not auth_string:
        return password == b""
    if plugin == NATIVE:
        expected = "*" + native_password_hash(password).hex().upper()
        return hmac.compare_digest(expected, auth_string)
    try:
        _, scheme, rounds, salt, digest = auth_string.split("$")
    except ValueError:
        return False
    if scheme != "pbkdf2-sha256":
        return False
    got = hashlib.pbkdf2_hmac("sha256", password, bytes.fromhex(salt), int(rounds))
    return hmac.compare_digest(got.hex(), digest)


def _host_regex(pattern: str) -> re.Pattern[str]:
    out = [".*" if ch == "%" else "." if ch == "_" else re.escape(ch) for ch in pattern.lower()]
    return re.compile("".join(out) + r"\Z")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_matches(pattern: str, host: str) -> bool:
    pattern = pattern.lower()
    host = host.lower()
    if pattern == "localhost":
        return _is_loopback(host)
    return bool(_host_regex(pattern).match(host))


def _specificity(account: Account) -> tuple[int, int]:
    wild = account.host.count("%") + account.host.count("_")
    return (wild, -len(account.host))


class AccountStore:
    """The accounts of one data directory; also the protocol's AccountLookup."""

    def __init__(self, datadir: str | os.PathLike[str]) -> None:
        self._path = Path(datadir) / "mysql" / "accounts.json"
        self._lock = threading.Lock()
        self._accounts: dict[tuple[str, str], Account] = {}
        self._fast_digests: dict[tuple[str, str], bytes] = {}
        self._load()

    # --- persistence -----------------------------------------------------------------------
    def _load(self) -> None:
        if self._path.exists():
            data = json.loads(self._path.read_text(encoding="utf-8"))
            for item in data.get("accounts", []):
                acct = Account(**item)
                self._accounts[acct.key] = acct
        else:
            root = Account("root", "localhost", NATIVE, "")
            self._accounts[root.key] = root
            self._save()

    def _save(self) -> None:
        self._path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self._path.with_suffix(".tmp")
        payload = {"accounts": [asdict(a) for a in self._accounts.values()]}
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(payload, handle, indent=1)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self._path)

    # --- lookup ----------------------------------------------------------------------------
    def find(self, user: str, host: str) -> Account | None:
        with self._lock:
            candidates = [a for a in self._accounts.values()
                          if a.user == user and host_matches(a.host, host)]
        if not candidates:
            return None
        return min(candidates, key=_specificity)

    def credentials(self, user: str, host: str) -> Credentials | None:
        acct = self.find(user, host)
        if acct is None:
            return None
        key = acct.key
        native_hash = b""
        if acct.plugin == NATIVE and acct.auth_string:
            native_hash = bytes.fromhex(acct.auth_string[1:])

        def remember(digest: bytes) -> None:
            with self._lock:
                if self._accounts.get(key) is acct:
                    self._fast_digests[key] = digest

        return Credentials(
            plugin=acct.plugin,
            native_hash=native_hash,
            check_password=lambda pw: check_auth_string(acct.plugin, acct.auth_string, pw),
            empty_password=acct.auth_string == "",
            fast_digest=self._fast_digests.get(key),
            remember_fast_digest=remember,
        )

    def list(self) -> list[Account]:
        with self._lock:
            return sorted(self._accounts.values(), key=lambda a: (a.user, a.host))

    # --- CREATE / ALTER / DROP USER ------------------------------------------------------------
    def create(self, user: str, host: str, plugin: str, password: str, *,
               if_not_exists: bool = False, or_replace: bool = False) -> bool:
        acct = Account(user, host, plugin, make_auth_string(plugin, password))
        with self._lock:
            if acct.key in self._accounts and not or_replace:
                if if_not_exists:
                    return False
                raise ServerError(errors.ER_CANNOT_USER, "CREATE USER", acct.display())
            self._accounts[acct.key] = acct
            self._fast_digests.pop(acct.key, None)
            self._save()
        return True

    def alter(self, user: str, host: str, plugin: str | None, password: str, *,
              if_exists: bool = False) -> bool:
        key = (user, host.lower())
        with self._lock:
            acct = self._accounts.get(key)
            if acct is None:
                if if_exists:
                    return False
                raise ServerError(errors.ER_CANNOT_USER, "ALTER USER", f"'{user}'@'{host}'")
            new_plugin = plugin or acct.plugin
            self._accounts[key] = Account(acct.user, acct.host, new_plugin,
                                          make_auth_string(new_plugin, password))
            self._fast_digests.pop(key, None)
            self._save()
        return True

    def drop(self, user: str, host: str, *, if_exists: bool = False) -> bool:
        key = (user, host.lower())
        with self._lock:
            if key not in self._accounts:
                if if_exists:
                    return False
                raise ServerError(errors.ER_CANNOT_USER, "DROP USER", f"'{user}'@'{host}'")
            del self._accounts[key]
            self._fast_digests.pop(key, None)
            self._save()
        return True

    def flush(self) -> None:
        """FLUSH PRIVILEGES: reload from disk and forget the sha2 fast-path cache."""
        with self._lock:
            self._accounts.clear()
            self._fast_digests.clear()
            self._load()
