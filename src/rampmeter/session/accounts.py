"""Accounts: who may log in, with which authentication plugin, TLS requirement and limits; and
how a client's user name and address find its account.

Rules:
- An account is 'user'@'host-pattern'; a role is an account with host '' that cannot log in.
  Accounts are kept, with their grants, in the grant file (aclfile.py); a fresh data directory
  gets root@localhost with an empty password and every privilege, as a fresh MariaDB does for
  its root (without the unix_socket plugin, which needs OS users).
- Authentication strings follow MySQL where the format is public: mysql_native_password keeps
  '*' + HEX(SHA1(SHA1(password))); caching_sha2_password keeps a salted PBKDF2-SHA256 verifier
  (MySQL's own $A$005$ sha256-crypt format needs a hand-written crypt; PBKDF2 is in hashlib)
  and, in memory only, the SHA256(SHA256(password)) digest that its fast path needs (aclstore.py).
- Host patterns: '%' and '_' wildcards ('\\' escapes them), or 'ip/netmask'; compared without
  regard to case. The loopback addresses (127.0.0.0/8, ::1) and the unix socket match
  'localhost', since with skip_name_resolve a local client would otherwise never be 'localhost'
  over TCP.
- Which account: MariaDB's order (privileges.py, "Which account a client is"): `sort_key`
  below is its get_sort over (host, user), compared descending, ties by host text descending;
  the first account whose user ('' matches any name) and host match is the one.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
import secrets
from dataclasses import dataclass, field
from functools import lru_cache

from rampmeter.protocol.auth import hash_323, native_password_hash

NATIVE = "mysql_native_password"
SHA2 = "caching_sha2_password"
# Pre-4.1 password hashes (16 hex digits): stored and shown as MariaDB stores them, but never
# accepted at login (MariaDB refuses them too with its default secure_auth=ON).
OLD = "mysql_old_password"
PLUGINS = (NATIVE, SHA2, OLD)
_PBKDF2_ROUNDS = 5000  # MySQL's caching_sha2_password default of 5000 sha256-crypt rounds

SSL_TYPES = ("", "ANY", "X509", "SPECIFIED")  # mysql.user.ssl_type, in its ENUM order
LIMITS = ("max_questions", "max_updates", "max_connections", "max_user_connections")


@dataclass
class Account:
    """A row of mysql.global_priv: an account, or a role (host '', is_role)."""

    user: str
    host: str
    plugin: str = NATIVE               # "": the row names none (as mariadb-install-db writes
                                       # root's); it logs in as mysql_native_password
    auth_string: str = ""
    access: int = 0                    # global privileges (privileges.Priv bits)
    is_role: bool = False
    ssl_type: str = ""                 # SSL_TYPES
    ssl_cipher: str = ""
    x509_issuer: str = ""
    x509_subject: str = ""
    max_questions: int = 0             # per hour
    max_updates: int = 0               # per hour
    max_connections: int = 0           # per hour
    max_user_connections: int = 0      # at once
    locked: bool = False
    default_role: str = ""
    extra: dict[str, object] = field(default_factory=dict)  # reserved for later options
    locked_set: bool = False           # ACCOUNT LOCK / UNLOCK was given (global_priv shows it)
    expired: bool = False              # PASSWORD EXPIRE: must change it (password_last_changed 0)
    lifetime: int | None = None        # PASSWORD EXPIRE DEFAULT -1 / NEVER 0 / INTERVAL n DAY
    installed: bool = False            # global_priv row as mariadb-install-db wrote it: no
                                       # version_id until a statement rewrites the row
    proxy_all: bool = False            # GRANT PROXY ON ''@'%' WITH GRANT OPTION, which
                                       # mariadb-install-db gives root@localhost: shown by
                                       # SHOW GRANTS; GRANT PROXY itself is not supported

    def __post_init__(self) -> None:
        if self.locked:  # a locked account was locked by ACCOUNT LOCK
            self.locked_set = True

    def rewritten(self) -> None:
        """A statement rewrote the account's global_priv row (GRANT, REVOKE, ALTER USER, SET
        PASSWORD): MariaDB then writes version_id, and a row without a plugin gets the one
        it logs in with (alter_user.result: root's plugin '' becomes mysql_native_password)."""
        self.installed = False
        if not self.is_role and not self.plugin:
            self.plugin = NATIVE

    @property
    def login_plugin(self) -> str:
        return self.plugin or NATIVE

    @property
    def key(self) -> tuple[str, str]:
        return (self.user, self.host.lower())

    def display(self) -> str:
        """'user'@'host' as error messages quote an account ('r' alone for a role)."""
        return f"'{self.user}'" if self.is_role else f"'{self.user}'@'{self.host}'"

    def shown(self) -> str:
        """`user`@`host` as SHOW GRANTS spells it (`r` alone for a role)."""
        u = _bq(self.user)
        return u if self.is_role else f"{u}@{_bq(self.host)}"


def _bq(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def account_shown(user: str, host: str) -> str:
    return _bq(user) if host == "" else f"{_bq(user)}@{_bq(host)}"


# --- authentication strings -------------------------------------------------------------------

def make_auth_string(plugin: str, password: str) -> str:
    if not password:
        return ""
    raw = password.encode("utf-8")
    if plugin == NATIVE:
        return "*" + native_password_hash(raw).hex().upper()
    if plugin == OLD:
        return old_password_hash(raw)
    salt = secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", raw, salt, _PBKDF2_ROUNDS)
    return f"$pbkdf2-sha256${_PBKDF2_ROUNDS}${salt.hex()}${digest.hex()}"


def old_password_hash(password: bytes) -> str:
    """MySQL 3.23's password hash (OLD_PASSWORD()): two 31-bit sums, spaces and tabs skipped."""
    nr, nr2 = hash_323(password)
    return f"{nr:08x}{nr2:08x}"


def check_auth_string(plugin: str, auth_string: str, password: bytes) -> bool:
    if not auth_string:
        return password == b""
    if plugin == NATIVE:  # the hash as written: its hex digits in either case
        expected = "*" + native_password_hash(password).hex().upper()
        return hmac.compare_digest(expected, auth_string.upper())
    try:
        _, scheme, rounds, salt, digest = auth_string.split("$")
    except ValueError:
        return False
    if scheme != "pbkdf2-sha256":
        return False
    got = hashlib.pbkdf2_hmac("sha256", password, bytes.fromhex(salt), int(rounds))
    return hmac.compare_digest(got.hex(), digest)




INVALID_HASH = "invalid"


def valid_auth_string(plugin: str, auth_string: str) -> bool:
    """Could this string be stored for this plugin (IDENTIFIED BY PASSWORD / AS 'hash')?"""
    if not auth_string:
        return True
    if plugin == NATIVE:
        # MariaDB checks only the length (41), and takes 'invalid', its marker of a password
        # no login can match (mariadb-install-db writes it); the hash is kept as written
        return auth_string == INVALID_HASH or len(auth_string) == 41
    if plugin == OLD:  # MariaDB checks only the length of a pre-4.1 hash
        return len(auth_string) == 16
    parts = auth_string.split("$")
    return len(parts) == 5 and parts[1] == "pbkdf2-sha256" and parts[2].isdigit()


# --- host patterns ------------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def wildcard_regex(pattern: str, ignore_case: bool = True) -> re.Pattern[str]:
    """MySQL's % / _ pattern ('\\' escapes) as a regex (hosts, database grants, LIKE)."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if ch == "%" else "." if ch == "_" else re.escape(ch))
        i += 1
    flags = re.DOTALL | (re.IGNORECASE if ignore_case else 0)
    return re.compile("".join(out) + r"\Z", flags)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _netmask_match(pattern: str, host: str) -> bool | None:
    """'ip/mask' patterns (MariaDB's ip_mask form); None when `pattern` is not one."""
    ip, sep, mask = pattern.partition("/")
    if not sep:
        return None
    try:
        net_ip = int(ipaddress.IPv4Address(ip))
        net_mask = int(ipaddress.IPv4Address(mask))
        client = int(ipaddress.IPv4Address(host))
    except ValueError:
        return False
    return (client & net_mask) == net_ip


def host_matches(pattern: str, host: str) -> bool:
    """Does the client address `host` match the account's host pattern?"""
    if pattern == "":
        return True  # a role's (or an anonymous grant's) empty host matches any client
    if pattern.lower() == "localhost":
        return _is_loopback(host)
    netmask = _netmask_match(pattern, host)
    if netmask is not None:
        return netmask
    return bool(wildcard_regex(pattern).match(host))


def has_wildcards(pattern: str) -> bool:
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\":
            i += 2
            continue
        if pattern[i] in "%_":
            return True
        i += 1
    return False


def _sort_part(text: str) -> int:
    """MariaDB's get_sort for one string: 128 without wildcards, the first wildcard's position
    (+1, except for a lone '%') with them, 0 for ''."""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            i += 2
            continue
        if ch in "%_":
            pos = i + 1
            if not (pos == 1 and ch == "%" and len(text) == 1):
                pos += 1
            return min(pos, 127)
        i += 1
    return 128 if text else 0


def get_sort(*parts: str) -> int:
    sort = 0
    for part in parts:
        sort = (sort << 8) + _sort_part(part)
    return sort


def sort_accounts(accounts: list[Account]) -> list[Account]:
    """acl_users order: get_sort(host, user) descending, then host text descending."""
    by_host = sorted(accounts, key=lambda a: a.host, reverse=True)
    return sorted(by_host, key=lambda a: get_sort(a.host, a.user), reverse=True)


def find_login(ordered: list[Account], user: str, host: str) -> Account | None:
    """The account a client `user` from address `host` logs in as (module rules)."""
    for acct in ordered:
        if acct.is_role:
            continue
        if (acct.user == "" or acct.user == user) and host_matches(acct.host, host):
            return acct
    return None
