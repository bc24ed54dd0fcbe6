"""Login rules after the password (login.py): lock, TLS requirement, connection limits."""

from __future__ import annotations

import pytest

from rampmeter.errors import ServerError
from rampmeter.session.accounts import Account
from rampmeter.session.login import HOUR, UserConnections, check_account, x509_name


def _code(fn, *args, **kw) -> int:  # noqa: ANN001
    with pytest.raises(ServerError) as info:
        fn(*args, **kw)
    return info.value.code


PEER = {"subject": ((("countryName", "FI"),), (("commonName", "app"),)),
        "issuer": ((("commonName", "ca"),),)}


def test_lock_then_tls_requirements() -> None:
    plain = dict(user="a", host="h", tls=False, cipher="", peer=None)
    assert _code(check_account, Account("a", "%", locked=True), **plain) == 4151
    assert _code(check_account, Account("a", "%", ssl_type="ANY"), **plain) == 1045
    check_account(Account("a", "%", ssl_type="ANY"), **{**plain, "tls": True})
    x509 = Account("a", "%", ssl_type="X509")
    assert _code(check_account, x509, **{**plain, "tls": True}) == 1045
    check_account(x509, **{**plain, "tls": True, "peer": PEER})
    spec = Account("a", "%", ssl_type="SPECIFIED", x509_subject="/C=FI/CN=app",
                   x509_issuer="/CN=ca", ssl_cipher="TLS_AES_256_GCM_SHA384")
    ok = {**plain, "tls": True, "peer": PEER, "cipher": "TLS_AES_256_GCM_SHA384"}
    check_account(spec, **ok)
    assert _code(check_account, spec, **{**ok, "cipher": "OTHER"}) == 1045
    assert x509_name(PEER["subject"]) == "/C=FI/CN=app"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_max_user_connections_then_the_global_limit() -> None:
    counts = UserConnections(Clock())
    acct = Account("m", "%", max_user_connections=2)
    keys = [counts.connect(acct, 0), counts.connect(acct, 0)]
    with pytest.raises(ServerError) as info:
        counts.connect(acct, 0)
    assert info.value.code == 1226
    assert info.value.message == ("User 'm' has exceeded the 'max_user_connections' resource "
                                  "(current value: 2)")
    counts.disconnect(keys[0])
    counts.connect(acct, 0)
    plain = Account("p", "%")
    counts.connect(plain, 1)
    assert _code(counts.connect, plain, 1) == 1203


def test_hourly_limits_reset_after_an_hour() -> None:
    clock = Clock()
    counts = UserConnections(clock)
    acct = Account("q", "%", max_connections=1)
    counts.connect(acct, 0)
    assert _code(counts.connect, acct, 0) == 1226
    key = acct.key
    counts.statement(key, (2, 1), writes=True)
    assert _code(counts.statement, key, (2, 1), writes=True) == 1226   # max_updates
    counts.statement(key, (2, 1), writes=False)
    assert _code(counts.statement, key, (2, 1), writes=False) == 1226  # max_questions
    clock.now += HOUR
    counts.statement(key, (2, 1), writes=True)
    counts.connect(acct, 0)
