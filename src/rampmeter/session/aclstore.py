"""AccountStore: the grant tables of one data directory, shared by every session; also the
protocol's AccountLookup.

Rules:
- `tables` is the current snapshot (grants.py): sessions read it without a lock. `change(fn)`
  runs fn on a copy under the writers' lock, writes the copy to the grant file (aclfile.py:
  write, fsync, rename) and only then makes it current, so a change is on disk before anyone
  can rely on it, and a failed write (disk full, read-only datadir) changes nothing and is the
  client's 1026 error.
- Listeners (the `mysql` database mirror, mysqldb.py) hear of every new snapshot, in order.
- FLUSH PRIVILEGES reloads the file and then asks `hand_edits` (the mirror, grantedit.py) for
  grants edited by hand in the mysql tables; when there are, they are written to the file
  first, as `change` writes, and become current.
- The caching_sha2 fast-path digests are kept in memory only, per account, and forgotten when
  the account's authentication string changes or on FLUSH PRIVILEGES, exactly as MySQL's sha2
  cache behaves.
- --skip-grant-tables (`skip_grants`): every login succeeds without a password check, and no
  privilege is checked, until FLUSH PRIVILEGES loads the file (`flush`) and turns both on.
- max_password_errors (MariaDB's ACL_USER::password_errors): the wrong passwords given for an
  account in a row are counted in memory; once they reach the limit, every login as it - with
  the right password too - is 4150 until FLUSH PRIVILEGES, an ALTER USER or GRANT naming it,
  or another change to the account. A login that succeeds starts the count again. Accounts with SUPER or
  CONNECTION ADMIN are never counted.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
from collections.abc import Callable
from typing import TypeVar

from rampmeter import errors
from rampmeter.errors import ServerError
from rampmeter.protocol.auth import Credentials
from rampmeter.session import aclfile
from rampmeter.session.accounts import NATIVE, OLD, Account, check_auth_string
from rampmeter.session.grants import GrantTables

T = TypeVar("T")
Listener = Callable[[GrantTables], None]


class AccountStore:
    def __init__(self, datadir: str | os.PathLike[str], *, skip_grant_tables: bool = False,
                 log: logging.Logger | None = None) -> None:
        self.path = aclfile.path_of(datadir)
        self.log = log or logging.getLogger("rampmeter")
        self._lock = threading.Lock()
        self._fast_digests: dict[tuple[str, str], tuple[str, bytes]] = {}
        self._password_errors: dict[tuple[str, str], int] = {}
        self._listeners: list[Listener] = []
        self.hand_edits: Callable[[GrantTables], GrantTables | None] | None = None
        self.skip_grants = skip_grant_tables
        # secure_auth (the server sets it to read the variable): while ON, accounts of
        # mysql_old_password cannot log in (1275), as in MariaDB
        self.secure_auth: Callable[[], bool] = lambda: True
        if skip_grant_tables:
            self.tables = self._read_leniently()
        else:
            self.tables = self._read()

    # --- the file ----------------------------------------------------------------------------
    def _read(self) -> GrantTables:
        """The file's grants; a new file for a new data directory. DamagedGrantFile if bad."""
        if not self.path.exists():
            tables = aclfile.fresh()
            aclfile.save(self.path, tables)
            return tables
        tables, warnings = aclfile.load(self.path)
        for w in warnings:
            self.log.warning("Grant file upgraded: %s", w)
        if warnings:  # an upgraded file is written back in the current format at once
            aclfile.save(self.path, tables)
        return tables

    def _read_leniently(self) -> GrantTables:
        try:
            return self._read()
        except aclfile.DamagedGrantFile as exc:
            self.log.error("%s (running with --skip-grant-tables: no privilege is checked)",
                           exc)
            return GrantTables()

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)
        listener(self.tables)

    def _publish(self, tables: GrantTables) -> None:
        self.tables = tables
        for listener in self._listeners:
            try:
                listener(tables)
            except Exception:  # noqa: BLE001 - a mirror must not undo a committed change
                self.log.exception("updating a view of the grant tables")

    # --- changes -----------------------------------------------------------------------------
    def change(self, fn: Callable[[GrantTables], T]) -> T:
        """Apply fn to a copy of the grants, write it, make it current (module rules)."""
        if self.skip_grants:
            raise ServerError(errors.ER_OPTION_PREVENTS_STATEMENT, "--skip-grant-tables")
        with self._lock:
            new = self.tables.copy()
            result = fn(new)
            new.changed()
            self._save(new)
            old = self.tables
            self._forget_changed_digests(old, new)
            for key in [k for k in self._password_errors
                        if old.accounts.get(k) != new.accounts.get(k)]:
                del self._password_errors[key]  # ALTER USER / GRANT unblock the account
            self._publish(new)
        return result

    def _save(self, tables: GrantTables) -> None:
        try:
            aclfile.save(self.path, tables)
        except OSError as exc:
            self.log.error("Could not write the grant file %s: %s", self.path, exc)
            code = exc.errno or errno.EIO
            raise ServerError(errors.ER_ERROR_ON_WRITE, str(self.path), code,
                              os.strerror(code)) from None

    def _forget_changed_digests(self, old: GrantTables, new: GrantTables) -> None:
        for key, (auth, _digest) in list(self._fast_digests.items()):
            acct = new.accounts.get(key)
            if acct is None or acct.auth_string != auth:
                del self._fast_digests[key]

    def flush(self) -> None:
        """FLUSH PRIVILEGES: reload the file, forget the sha2 cache, end --skip-grant-tables."""
        with self._lock:
            try:
                tables = self._read()
            except aclfile.DamagedGrantFile as exc:
                raise ServerError(errors.ER_UNKNOWN_ERROR,
                                  message=f"FLUSH PRIVILEGES failed: {exc}") from None
            except OSError as exc:
                raise ServerError(errors.ER_UNKNOWN_ERROR,
                                  message=f"FLUSH PRIVILEGES failed: {exc}") from None
            edited = self.hand_edits(tables) if self.hand_edits and not self.skip_grants \
                else None
            if edited is not None:
                self._save(edited)
                tables = edited
            tables.version = self.tables.version + 1
            self._fast_digests.clear()
            self._password_errors.clear()
            if self.skip_grants:
                self.log.info("FLUSH PRIVILEGES: grant tables loaded, privileges are checked")
            self.skip_grants = False
            self._publish(tables)

    # --- max_password_errors -------------------------------------------------------------------
    def password_blocked(self, account: Account, limit: int) -> bool:
        """Has `account` given `limit` wrong passwords in a row (module rules)?"""
        return self._password_errors.get(account.key, 0) >= limit and not _exempt(account)

    def password_error(self, account: Account) -> None:
        if not _exempt(account):
            with self._lock:
                key = account.key
                self._password_errors[key] = self._password_errors.get(key, 0) + 1

    def password_ok(self, account: Account) -> None:
        if self._password_errors:
            self.unblock(account.user, account.host)

    def unblock(self, user: str, host: str) -> None:
        """Start the account's count again (a login, ALTER USER, GRANT)."""
        if self._password_errors:
            with self._lock:
                self._password_errors.pop((user, host.lower()), None)

    # --- lookups -----------------------------------------------------------------------------
    def find(self, user: str, host: str) -> Account | None:
        """The account a client `user` from `host` logs in as (accounts.py rules)."""
        return self.tables.login(user, host)

    def exact(self, user: str, host: str) -> Account | None:
        return self.tables.account(user, host)

    def list(self) -> list[Account]:
        return sorted(self.tables.users(), key=lambda a: (a.user, a.host))

    def credentials(self, user: str, host: str) -> Credentials | None:
        if self.skip_grants:
            return Credentials(NATIVE, accept_any=True)
        acct = self.find(user, host)
        if acct is None:
            return None
        key, auth, plugin = acct.key, acct.auth_string, acct.login_plugin
        native_hash = _native_hash(auth) if plugin == NATIVE else b""

        def remember(digest: bytes) -> None:
            current = self.tables.accounts.get(key)
            if current is not None and current.auth_string == auth:
                self._fast_digests[key] = (auth, digest)

        old_hash = None
        if plugin == OLD and not self.secure_auth():
            try:
                old_hash = (int(auth[:8], 16), int(auth[8:16], 16)) if auth else (0, 0)
            except ValueError:  # 16 characters that are not hex: no password matches
                old_hash = None
        cached = self._fast_digests.get(key)
        return Credentials(
            old_hash=old_hash,
            plugin=plugin,
            native_hash=native_hash,
            check_password=lambda pw: check_auth_string(plugin, auth, pw),
            empty_password=auth == "",
            fast_digest=cached[1] if cached is not None and cached[0] == auth else None,
            remember_fast_digest=remember,
        )


def _exempt(account: Account) -> bool:
    """MariaDB's PRIV_IGNORE_MAX_PASSWORD_ERRORS: SUPER or CONNECTION ADMIN."""
    from rampmeter.session.privileges import ADMIN_ACLS
    return bool(account.access & ADMIN_ACLS)


def _native_hash(auth: str) -> bytes:
    """SHA1(SHA1(password)) of a stored mysql_native_password hash; b"" for no password, and
    one byte, which no client reply can match, for a text that is no hash ('invalid', or 41
    characters that are not hex: MariaDB stores both and never lets them log in)."""
    if not auth:
        return b""
    try:
        raw = bytes.fromhex(auth[1:]) if auth[:1] == "*" else b""
    except ValueError:
        raw = b""
    return raw if len(raw) == 20 else b"\x00"
