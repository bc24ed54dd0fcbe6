"""Fixtures of the protocol tests: an in-memory account table, one RSA key pair per session,
and a factory of server/client pairs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rampmeter.protocol.auth import Credentials, RsaKeyPair, native_password_hash
from rampmeter.protocol.connection import ServerProtocol
from tests.unit.protocol.client import Client, Pair

SCRAMBLE = b"0123456789abcdefghij"


class Accounts:
    """AccountLookup over a dict: user -> (plugin, password); caches sha2 fast digests."""

    def __init__(self) -> None:
        self.users: dict[str, tuple[str, bytes]] = {}
        self.fast: dict[str, bytes] = {}
        self.lookups: list[tuple[str, str]] = []

    def add(self, user: str, password: bytes, plugin: str = "mysql_native_password") -> None:
        self.users[user] = (plugin, password)

    def credentials(self, user: str, host: str) -> Credentials | None:
        self.lookups.append((user, host))
        if user not in self.users:
            return None
        plugin, password = self.users[user]
        return Credentials(
            plugin=plugin,
            native_hash=native_password_hash(password) if password else b"",
            check_password=lambda pw: pw == password,
            empty_password=not password,
            fast_digest=self.fast.get(user),
            remember_fast_digest=lambda d: self.fast.__setitem__(user, d),
        )


def fresh_pair(client_caps: Any = None, *, user: str = "root", password: bytes = b"",
               **kw: Any) -> Pair:
    """A pair logged in without fixtures (for @given tests, which cannot take function-scoped
    fixtures): server and client as `make_pair` builds them, no RSA key."""
    accounts = Accounts()
    accounts.add(user, password)
    kw.setdefault("connection_id", 1)
    kw.setdefault("server_version", "8.0.36")
    kw.setdefault("scramble", SCRAMBLE)
    server = ServerProtocol(accounts=accounts, **kw)
    p = Pair(server, Client() if client_caps is None else Client(caps=client_caps))
    _, result = p.login(user, password)
    assert result.__class__.__name__ == "Ok", result
    return p


@pytest.fixture(scope="session")
def rsa_keys() -> RsaKeyPair:
    return RsaKeyPair.generate()


@pytest.fixture
def accounts() -> Accounts:
    a = Accounts()
    a.add("root", b"")
    a.add("alice", b"secret")
    a.add("bob", b"hunter2", "caching_sha2_password")
    a.add("empty2", b"", "caching_sha2_password")
    return a


@pytest.fixture
def make_pair(accounts: Accounts, rsa_keys: RsaKeyPair) -> Callable[..., Pair]:
    def make(client_caps: Any = None, **kw: Any) -> Pair:
        kw.setdefault("connection_id", 7)
        kw.setdefault("server_version", "10.11.6-MariaDB-rampmeter")
        kw.setdefault("accounts", accounts)
        kw.setdefault("rsa_keys", rsa_keys)
        kw.setdefault("scramble", SCRAMBLE)
        kw.setdefault("host", "127.0.0.1")
        server = ServerProtocol(**kw)
        client = Client() if client_caps is None else Client(caps=client_caps)
        return Pair(server, client)
    return make


@pytest.fixture
def pair(make_pair: Callable[..., Pair]) -> Pair:
    """A pair logged in as root (native, empty password), client with DEPRECATE_EOF off."""
    p = make_pair()
    events, result = p.login("root", b"")
    assert result.__class__.__name__ == "Ok", result
    return p
