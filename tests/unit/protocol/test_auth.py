"""auth.py through connection.py: mysql_native_password, caching_sha2_password (fast path, full
authentication over TLS and over plain TCP with the RSA key), auth switch, unknown users,
COM_CHANGE_USER; plus the hash helpers and the RSA key files."""

from __future__ import annotations

import hashlib
import stat
import struct
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from rampmeter.errors import ProtocolViolation, ServerError
from rampmeter.protocol import NEED_DATA
from rampmeter.protocol import events as ev
from rampmeter.protocol.auth import (
    Authentication,
    Credentials,
    RsaKeyPair,
    hash_323,
    native_password_hash,
    scramble_323,
    sha2_fast_digest,
    verify_native_password,
    verify_sha2_scramble,
    xor_cyclic,
)
from rampmeter.protocol.connection import Phase
from rampmeter.protocol.constants import Capability, Command, ServerStatus
from rampmeter.protocol.packets import parse_change_user
from tests.unit.protocol.client import (
    CLIENT_CAPS,
    Err,
    Ok,
    Pair,
    native_scramble,
    parse_generic,
    rsa_encrypt_password,
    sha2_scramble,
)
from tests.unit.protocol.conftest import SCRAMBLE, Accounts

MakePair = Callable[..., Pair]
NATIVE = "mysql_native_password"
SHA2 = "caching_sha2_password"


def _server_packets(p: Pair) -> list[tuple[int, bytes]]:
    """What the server sent that the client has not read yet, as (seq, payload)."""
    out, p.client.inbox = p.client.inbox, []
    return out


# --- hashes ----------------------------------------------------------------------------------
def test_native_password_hash_is_sha1_of_sha1() -> None:
    # mysql.user for PASSWORD('secret') holds *14E65567ABDB5135D0CFD9A70B3032C179A49EE7
    assert native_password_hash(b"secret").hex().upper() == (
        "14E65567ABDB5135D0CFD9A70B3032C179A49EE7")


def test_verify_native_password() -> None:
    stored = native_password_hash(b"pw")
    assert verify_native_password(native_scramble(b"pw", SCRAMBLE), SCRAMBLE, stored)
    assert not verify_native_password(native_scramble(b"pW", SCRAMBLE), SCRAMBLE, stored)
    assert not verify_native_password(native_scramble(b"pw", SCRAMBLE[::-1]), SCRAMBLE, stored)
    assert not verify_native_password(b"", SCRAMBLE, stored)
    assert not verify_native_password(native_scramble(b"pw", SCRAMBLE)[:19], SCRAMBLE, stored)


def test_verify_sha2_scramble() -> None:
    digest = sha2_fast_digest(b"pw")
    assert digest == hashlib.sha256(hashlib.sha256(b"pw").digest()).digest()
    assert verify_sha2_scramble(sha2_scramble(b"pw", SCRAMBLE), SCRAMBLE, digest)
    assert not verify_sha2_scramble(sha2_scramble(b"px", SCRAMBLE), SCRAMBLE, digest)
    assert not verify_sha2_scramble(sha2_scramble(b"pw", SCRAMBLE)[:31], SCRAMBLE, digest)


def test_xor_cyclic() -> None:
    assert xor_cyclic(b"\x01\x02\x03\x04\x05", b"\x01\x01") == b"\x00\x03\x02\x05\x04"
    assert xor_cyclic(xor_cyclic(b"password\0", SCRAMBLE), SCRAMBLE) == b"password\0"


# --- mysql_native_password -------------------------------------------------------------------
def test_native_right_password(make_pair: MakePair) -> None:
    p = make_pair()
    events, result = p.login("alice", b"secret", attrs={"_os": "Linux"})
    assert events == [ev.Authenticated("alice", None, NATIVE, CLIENT_CAPS, {"_os": "Linux"},
                                       False, 45)]
    assert result == Ok(0, 0, ServerStatus.AUTOCOMMIT, 0, b"", 0)
    assert p.client.seq == 3  # greeting 0, response 1, OK 2
    assert p.server.phase is Phase.COMMAND


def test_native_wrong_password(make_pair: MakePair) -> None:
    p = make_pair()
    events, result = p.login("alice", b"wrong")
    assert events == [ev.AccessDenied("alice", using_password=True, change_user=False)]
    assert result == Err(1045, "28000", "Access denied")
    assert p.server.phase is Phase.FAILED
    # After a refused login nothing more is read...
    p.server.receive_data(p.client.send(b"\x03SELECT 1", command=True))
    assert p.server.next_event() is NEED_DATA
    # ...until the peer goes away.
    p.server.receive_data(b"")
    assert p.server.next_event() == ev.ConnectionClosed()
    assert p.server.phase is Phase.CLOSED


def test_native_empty_password(make_pair: MakePair) -> None:
    events, result = make_pair().login("root", b"")
    assert isinstance(result, Ok)
    assert events == [ev.Authenticated("root", None, NATIVE, CLIENT_CAPS, {}, False, 45)]
    # A password for an account without one is wrong...
    events, result = make_pair().login("root", b"x")
    assert events == [ev.AccessDenied("root", True, False)]
    # ...and no password for an account with one too ("using password: NO").
    events, result = make_pair().login("alice", b"")
    assert events == [ev.AccessDenied("alice", False, False)]
    assert isinstance(result, Err)


def test_unknown_user_is_denied_like_a_wrong_password(make_pair: MakePair) -> None:
    events, result = make_pair().login("mallory", b"secret")
    assert events == [ev.AccessDenied("mallory", True, False)]
    assert isinstance(result, Err) and result.code == 1045
    events, result = make_pair().login("mallory", b"")
    assert events == [ev.AccessDenied("mallory", False, False)]


def test_unknown_user_walks_the_sha2_rounds_too(make_pair: MakePair) -> None:
    """No user enumeration: a sha2 client naming an unknown user gets 'perform full auth', the
    key, and only then the refusal, exactly as a known user with a wrong password."""
    p = make_pair()
    p.start()
    p.to_server(p.client.handshake_response("mallory", b"pw", plugin=SHA2))
    assert _server_packets(p) == [(2, b"\x01\x04")]
    p.client.seq = 3
    p.to_server(p.client.send(b"\x02"))
    [(seq, key)] = _server_packets(p)
    assert seq == 4 and key[1:].startswith(b"-----BEGIN PUBLIC KEY-----")
    p.client.seq = 5
    events = p.to_server(p.client.send(rsa_encrypt_password(b"pw", SCRAMBLE, key[1:])))
    assert events == [ev.AccessDenied("mallory", True, False)]
    assert p.server.error(1045, "28000", "denied")[3] == 6


def test_login_refusal_error_bytes(make_pair: MakePair) -> None:
    p = make_pair()
    p.start()
    p.to_server(p.client.handshake_response("alice", b"bad"))
    msg = "Access denied for user 'alice'@'127.0.0.1' (using password: YES)"
    data = p.server.error(1045, "28000", msg)
    assert data == (len(msg) + 9).to_bytes(3, "little") + b"\x02\xff\x15\x04#28000" + msg.encode()


# --- caching_sha2_password -------------------------------------------------------------------
def test_sha2_full_auth_over_tcp_with_rsa_key(make_pair: MakePair, accounts: Accounts,
                                              rsa_keys: RsaKeyPair) -> None:
    p = make_pair(default_auth_plugin=SHA2)
    p.start()
    assert p.to_server(p.client.handshake_response("bob", b"hunter2")) == []
    assert p.server.phase is Phase.AUTH
    assert _server_packets(p) == [(2, b"\x01\x04")]  # perform full authentication
    p.client.seq = 3
    assert p.to_server(p.client.send(b"\x02")) == []  # request the public key
    assert _server_packets(p) == [(4, b"\x01" + rsa_keys.public_pem)]
    p.client.seq = 5
    ciphertext = rsa_encrypt_password(b"hunter2", SCRAMBLE, rsa_keys.public_pem)
    assert len(ciphertext) == 256
    events = p.to_server(p.client.send(ciphertext))
    assert events == [ev.Authenticated("bob", None, SHA2, CLIENT_CAPS, {}, False, 45)]
    assert accounts.fast["bob"] == sha2_fast_digest(b"hunter2")
    assert p.server.ok(status=ServerStatus.AUTOCOMMIT)[3] == 6


def test_sha2_full_auth_with_the_pair_helper(make_pair: MakePair, accounts: Accounts) -> None:
    events, result = make_pair().login("bob", b"hunter2", plugin=SHA2)
    assert isinstance(result, Ok)
    assert [type(e) for e in events] == [ev.Authenticated]
    assert "bob" in accounts.fast


def test_sha2_fast_path_after_full_auth(make_pair: MakePair, accounts: Accounts) -> None:
    make_pair().login("bob", b"hunter2", plugin=SHA2)
    assert accounts.fast["bob"] == sha2_fast_digest(b"hunter2")
    p = make_pair(scramble=b"ABCDEFGHIJKLMNOPQRST")
    p.start()
    events = p.to_server(p.client.handshake_response("bob", b"hunter2", plugin=SHA2))
    assert events == [ev.Authenticated("bob", None, SHA2, CLIENT_CAPS, {}, False, 45)]
    assert _server_packets(p) == [(2, b"\x01\x03")]  # fast auth success, then our OK
    assert p.server.ok(status=ServerStatus.AUTOCOMMIT)[3] == 3


def test_sha2_fast_path_wrong_password_falls_back_and_fails(make_pair: MakePair,
                                                            accounts: Accounts) -> None:
    accounts.fast["bob"] = sha2_fast_digest(b"hunter2")
    events, result = make_pair().login("bob", b"hunter3", plugin=SHA2)
    assert events == [ev.AccessDenied("bob", True, False)]
    assert isinstance(result, Err)
    assert accounts.fast["bob"] == sha2_fast_digest(b"hunter2")


def test_sha2_full_auth_over_tls_is_cleartext(make_pair: MakePair, accounts: Accounts) -> None:
    p = make_pair(tls_available=True)
    p.start()
    assert p.to_server(p.client.ssl_request()) == [ev.StartTLS(b"")]
    p.server.tls_established()
    p.client.tls = True
    assert p.to_server(p.client.handshake_response("bob", b"hunter2", plugin=SHA2)) == []
    assert _server_packets(p) == [(3, b"\x01\x04")]
    p.client.seq = 4
    events = p.to_server(p.client.send(b"hunter2\0"))
    assert [type(e) for e in events] == [ev.Authenticated]
    assert events[0].client_capabilities & Capability.SSL
    assert accounts.fast["bob"] == sha2_fast_digest(b"hunter2")
    assert p.server.ok(status=ServerStatus.AUTOCOMMIT)[3] == 5


def test_sha2_tls_wrong_cleartext_password(make_pair: MakePair, accounts: Accounts) -> None:
    events, result = make_pair(tls_available=True).login("bob", b"nope", plugin=SHA2, tls=True)
    assert events[-1] == ev.AccessDenied("bob", True, False)
    assert isinstance(result, Err)
    assert "bob" not in accounts.fast


def test_sha2_cleartext_without_nul_is_refused(make_pair: MakePair) -> None:
    p = make_pair(secure_transport=True)
    p.start()
    p.to_server(p.client.handshake_response("bob", b"hunter2", plugin=SHA2))
    assert _server_packets(p) == [(2, b"\x01\x04")]
    p.client.seq = 3
    assert p.to_server(p.client.send(b"hunter2")) == [ev.AccessDenied("bob", True, False)]


def test_sha2_cleartext_on_a_unix_socket(make_pair: MakePair) -> None:
    """secure_transport (a unix socket) allows the cleartext password without TLS."""
    p = make_pair(secure_transport=True)
    p.start()
    p.to_server(p.client.handshake_response("bob", b"hunter2", plugin=SHA2))
    assert _server_packets(p) == [(2, b"\x01\x04")]
    p.client.seq = 3
    assert [type(e) for e in p.to_server(p.client.send(b"hunter2\0"))] == [ev.Authenticated]


def test_sha2_cleartext_on_plain_tcp_is_refused(make_pair: MakePair,
                                                accounts: Accounts) -> None:
    p = make_pair()
    p.start()
    p.to_server(p.client.handshake_response("bob", b"hunter2", plugin=SHA2))
    _server_packets(p)
    p.client.seq = 3
    assert p.to_server(p.client.send(b"hunter2\0")) == [ev.AccessDenied("bob", True, False)]
    assert "bob" not in accounts.fast


def test_sha2_key_request_without_a_key(make_pair: MakePair) -> None:
    p = make_pair(rsa_keys=None)
    p.start()
    p.to_server(p.client.handshake_response("bob", b"hunter2", plugin=SHA2))
    _server_packets(p)
    p.client.seq = 3
    assert p.to_server(p.client.send(b"\x02")) == [ev.AccessDenied("bob", True, False)]


def test_sha2_client_that_already_has_the_key(make_pair: MakePair,
                                              rsa_keys: RsaKeyPair) -> None:
    """A client configured with the server's public key sends the ciphertext at once."""
    p = make_pair()
    p.start()
    p.to_server(p.client.handshake_response("bob", b"hunter2", plugin=SHA2))
    assert _server_packets(p) == [(2, b"\x01\x04")]
    p.client.seq = 3
    ciphertext = rsa_encrypt_password(b"hunter2", SCRAMBLE, rsa_keys.public_pem)
    assert [type(e) for e in p.to_server(p.client.send(ciphertext))] == [ev.Authenticated]


def test_sha2_garbage_ciphertext_is_refused(make_pair: MakePair, rsa_keys: RsaKeyPair) -> None:
    p = make_pair()
    p.start()
    p.to_server(p.client.handshake_response("bob", b"hunter2", plugin=SHA2))
    p.client.seq = 3
    p.to_server(p.client.send(b"\x02"))
    _server_packets(p)
    p.client.seq = 5
    assert p.to_server(p.client.send(b"\x55" * 256)) == [ev.AccessDenied("bob", True, False)]


def test_sha2_ciphertext_with_the_wrong_scramble(make_pair: MakePair,
                                                 rsa_keys: RsaKeyPair) -> None:
    """The password is masked with the connection's scramble: another scramble gives garbage."""
    p = make_pair()
    p.start()
    p.to_server(p.client.handshake_response("bob", b"hunter2", plugin=SHA2))
    p.client.seq = 3
    ciphertext = rsa_encrypt_password(b"hunter2", b"X" * 20, rsa_keys.public_pem)
    assert p.to_server(p.client.send(ciphertext)) == [ev.AccessDenied("bob", True, False)]


@pytest.mark.parametrize("response", [b"", b"\0"])
def test_sha2_empty_password(make_pair: MakePair, response: bytes) -> None:
    p = make_pair()
    p.start()
    events = p.to_server(p.client.handshake_response("empty2", b"", plugin=SHA2, auth=response))
    assert events == [ev.Authenticated("empty2", None, SHA2, CLIENT_CAPS, {}, False, 45)]
    assert _server_packets(p) == []
    # bob has a password: an empty response is "using password: NO".
    p = make_pair()
    p.start()
    events = p.to_server(p.client.handshake_response("bob", b"", plugin=SHA2, auth=response))
    assert events == [ev.AccessDenied("bob", False, False)]


def test_sha2_password_for_an_account_without_one(make_pair: MakePair) -> None:
    events, _ = make_pair().login("empty2", b"something", plugin=SHA2)
    assert events == [ev.AccessDenied("empty2", True, False)]


# --- auth switch -----------------------------------------------------------------------------
def test_switch_from_native_to_sha2(make_pair: MakePair, accounts: Accounts) -> None:
    accounts.fast["bob"] = sha2_fast_digest(b"hunter2")
    p = make_pair()  # greeting announces mysql_native_password
    p.start()
    assert p.to_server(p.client.handshake_response("bob", b"hunter2")) == []
    assert _server_packets(p) == [(2, b"\xfecaching_sha2_password\0" + SCRAMBLE + b"\0")]
    p.client.seq = 3
    events = p.to_server(p.client.send(sha2_scramble(b"hunter2", SCRAMBLE)))
    assert events == [ev.Authenticated("bob", None, SHA2, CLIENT_CAPS, {}, False, 45)]
    assert _server_packets(p) == [(4, b"\x01\x03")]
    assert p.server.ok(status=ServerStatus.AUTOCOMMIT)[3] == 5


def test_switch_from_sha2_to_native(make_pair: MakePair) -> None:
    p = make_pair(default_auth_plugin=SHA2)
    events, result = p.login("alice", b"secret")
    assert events == [ev.Authenticated("alice", None, NATIVE, CLIENT_CAPS, {}, False, 45)]
    assert isinstance(result, Ok)
    assert p.client.plugin == NATIVE
    assert p.client.seq == 5  # greeting 0, response 1, switch 2, response 3, OK 4


def test_switch_then_full_sha2_auth(make_pair: MakePair) -> None:
    """native -> switch -> caching_sha2 full auth with the RSA key: every round in order."""
    p = make_pair()
    events, result = p.login("bob", b"hunter2")
    assert events == [ev.Authenticated("bob", None, SHA2, CLIENT_CAPS, {}, False, 45)]
    assert isinstance(result, Ok)
    # greeting 0, resp 1, switch 2, scramble 3, full-auth 4, key req 5, key 6, rsa 7, OK 8
    assert p.client.seq == 9


def test_switch_with_wrong_password(make_pair: MakePair) -> None:
    events, result = make_pair(default_auth_plugin=SHA2).login("alice", b"nope")
    assert events == [ev.AccessDenied("alice", True, False)]
    assert isinstance(result, Err)


def test_switch_decides_using_password_from_the_new_response(make_pair: MakePair) -> None:
    """A native client that sent a scramble, switched to caching_sha2, answers with nothing:
    "using password: NO" follows the response the check was made on."""
    p = make_pair()
    p.start()
    p.to_server(p.client.handshake_response("bob", b"x"))
    assert _server_packets(p) == [(2, b"\xfecaching_sha2_password\0" + SCRAMBLE + b"\0")]
    p.client.seq = 3
    assert p.to_server(p.client.send(b"")) == [ev.AccessDenied("bob", False, False)]
    events, _ = make_pair().login("bob", b"")
    assert events == [ev.AccessDenied("bob", False, False)]


def test_unsupported_client_plugin_is_switched(make_pair: MakePair) -> None:
    p = make_pair()
    p.start()
    p.to_server(p.client.handshake_response("alice", b"secret", plugin="mysql_clear_password",
                                            auth=b"secret\0"))
    assert _server_packets(p) == [(2, b"\xfemysql_native_password\0" + SCRAMBLE + b"\0")]


def test_no_switch_without_client_plugin_auth(make_pair: MakePair) -> None:
    """A client without CLIENT_PLUGIN_AUTH answers with a native scramble and cannot switch:
    fine for a native account, refused for a sha2 one."""
    caps = CLIENT_CAPS & ~Capability.PLUGIN_AUTH & ~Capability.PLUGIN_AUTH_LENENC_CLIENT_DATA
    p = make_pair(client_caps=caps, default_auth_plugin=SHA2)
    p.start()
    p.client.plugin = NATIVE
    body = (struct.pack("<IIB23s", int(caps), 1 << 24, 45, b"") + b"alice\0" + b"\x14"
            + native_scramble(b"secret", SCRAMBLE) + b"\x00")
    assert [type(e) for e in p.to_server(p.client.send(body))] == [ev.Authenticated]
    p = make_pair(client_caps=caps)
    p.start()
    body = (struct.pack("<IIB23s", int(caps), 1 << 24, 45, b"") + b"bob\0" + b"\x14"
            + native_scramble(b"hunter2", SCRAMBLE) + b"\x00")
    assert p.to_server(p.client.send(body)) == [ev.AccessDenied("bob", True, False)]
    assert _server_packets(p) == []


class _OneAccount:
    def __init__(self, creds: Credentials) -> None:
        self.creds = creds

    def credentials(self, user: str, host: str) -> Credentials | None:
        return self.creds


def test_account_with_an_unsupported_plugin(make_pair: MakePair) -> None:
    creds = Credentials("auth_socket", check_password=lambda pw: True, empty_password=True)
    events, result = make_pair(accounts=_OneAccount(creds)).login("sock", b"")
    assert events == [ev.AccessDenied("sock", False, False)]
    assert isinstance(result, Err)


def test_feed_without_a_pending_round_fails() -> None:
    auth = Authentication(None, client_plugin=NATIVE, client_plugin_auth=True,
                          default_plugin=NATIVE, scramble=SCRAMBLE, secure=False, rsa_keys=None)
    step = auth.feed(b"anything")
    assert (step.send, step.done, step.success) == (b"", True, False)
    assert not auth.known_user


# --- COM_CHANGE_USER -------------------------------------------------------------------------
def test_change_user_native(pair: Pair) -> None:
    assert pair.command(b"\x16DO 1") == [ev.StmtPrepare(b"DO 1")]
    pair.client.receive(pair.server.prepare_ok(1, 0, []))
    assert pair.client.read() == b"\x00\x01\x00\x00\x00" + bytes(7)
    events = pair.to_server(pair.client.change_user("alice", b"secret", database="db2"))
    assert events == [ev.Authenticated("alice", "db2", NATIVE, CLIENT_CAPS, {}, True, 33)]
    assert pair.server.phase is Phase.COMMAND
    ok = pair.server.ok(status=ServerStatus.AUTOCOMMIT)
    assert ok[3] == 1
    pair.client.receive(ok)
    assert isinstance(parse_generic(pair.client.read()), Ok)
    # The new session has no prepared statements: executing the old one is 1243.
    pair.server.receive_data(pair.client.send(b"\x17\x01\0\0\0\0\x01\0\0\0", command=True))
    with pytest.raises(ServerError) as info:
        pair.server.next_event()
    assert info.value.code == 1243


def test_change_user_wrong_password_keeps_the_connection(pair: Pair) -> None:
    events = pair.to_server(pair.client.change_user("alice", b"bad"))
    assert events == [ev.AccessDenied("alice", True, True)]
    assert pair.server.phase is Phase.COMMAND
    err = pair.server.error(1045, "28000", "Access denied")
    assert err[3] == 1
    pair.client.receive(err)
    assert parse_generic(pair.client.read()) == Err(1045, "28000", "Access denied")
    assert pair.command(b"\x0e") == [ev.Ping()]


def test_three_refused_change_users_then_unknown_command(pair: Pair) -> None:
    for _ in range(3):
        assert pair.to_server(pair.client.change_user("alice", b"bad")) == [
            ev.AccessDenied("alice", True, True)]
        pair.client.receive(pair.server.error(1045, "28000", "Access denied"))
        pair.client.read()
    events = pair.to_server(pair.client.change_user("alice", b"secret"))
    assert events == [ev.UnknownCommand(Command.CHANGE_USER)]
    assert pair.server.phase is Phase.COMMAND


def test_change_user_with_switch_and_rsa(pair: Pair, rsa_keys: RsaKeyPair,
                                         accounts: Accounts) -> None:
    assert pair.to_server(pair.client.change_user("bob", b"hunter2")) == []
    assert pair.server.phase is Phase.REAUTH
    assert _server_packets(pair) == [(1, b"\xfecaching_sha2_password\0" + SCRAMBLE + b"\0")]
    pair.client.seq = 2
    assert pair.to_server(pair.client.send(sha2_scramble(b"hunter2", SCRAMBLE))) == []
    assert _server_packets(pair) == [(3, b"\x01\x04")]
    pair.client.seq = 4
    assert pair.to_server(pair.client.send(b"\x02")) == []
    assert _server_packets(pair) == [(5, b"\x01" + rsa_keys.public_pem)]
    pair.client.seq = 6
    events = pair.to_server(pair.client.send(
        rsa_encrypt_password(b"hunter2", SCRAMBLE, rsa_keys.public_pem)))
    assert events == [ev.Authenticated("bob", None, SHA2, CLIENT_CAPS, {}, True, 33)]
    assert pair.server.ok(status=ServerStatus.AUTOCOMMIT)[3] == 7
    assert pair.server.phase is Phase.COMMAND
    assert accounts.fast["bob"] == sha2_fast_digest(b"hunter2")


def test_change_user_parsing_without_charset() -> None:
    cu = parse_change_user(b"\x11joe\0\x03abcdb\0", CLIENT_CAPS)
    assert (cu.user, cu.auth_response, cu.database, cu.charset, cu.plugin, cu.attributes) == (
        "joe", b"abc", "db", None, "", {})
    cu = parse_change_user(b"\x11joe\0\x00\0\x21\x00caching_sha2_password\0\x04\x01k\x01v",
                           CLIENT_CAPS)
    assert (cu.database, cu.charset, cu.plugin, cu.attributes) == (
        None, 33, "caching_sha2_password", {"k": "v"})


def test_change_user_malformed_is_a_violation(pair: Pair) -> None:
    pair.server.receive_data(pair.client.send(b"\x11no-terminator", command=True))
    with pytest.raises(ProtocolViolation) as info:
        pair.server.next_event()
    assert info.value.code == 1835  # ER_MALFORMED_PACKET


# --- RSA key files ---------------------------------------------------------------------------
def test_rsa_key_files_round_trip(tmp_path: Path, rsa_keys: RsaKeyPair) -> None:
    rsa_keys.save(tmp_path / "data")
    priv = tmp_path / "data" / "private_key.pem"
    pub = tmp_path / "data" / "public_key.pem"
    assert stat.S_IMODE(priv.stat().st_mode) == 0o600
    assert stat.S_IMODE(pub.stat().st_mode) == 0o644
    assert pub.read_bytes() == rsa_keys.public_pem
    assert priv.read_bytes().startswith(b"-----BEGIN RSA PRIVATE KEY-----")
    loaded = RsaKeyPair.load(tmp_path / "data")
    assert loaded.public_pem == rsa_keys.public_pem
    assert loaded.key_bytes == 256
    ciphertext = rsa_encrypt_password(b"pw", SCRAMBLE, loaded.public_pem)
    assert xor_cyclic(rsa_keys.decrypt(ciphertext), SCRAMBLE) == b"pw\0"
    pub.unlink()
    again = RsaKeyPair.load_or_create(tmp_path / "data")
    assert again.public_pem == rsa_keys.public_pem
    assert pub.read_bytes() == rsa_keys.public_pem


def test_rsa_load_rejects_a_non_rsa_key(tmp_path: Path) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    (tmp_path / "private_key.pem").write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    with pytest.raises(ValueError, match="not an RSA private key"):
        RsaKeyPair.load(tmp_path)


def test_rsa_load_or_create_creates_once(tmp_path: Path, rsa_keys: RsaKeyPair,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[RsaKeyPair] = []

    def generate() -> RsaKeyPair:  # a 2048-bit key takes long; reuse the session's
        made.append(rsa_keys)
        return rsa_keys

    monkeypatch.setattr(RsaKeyPair, "generate", staticmethod(generate))
    first = RsaKeyPair.load_or_create(tmp_path / "new")
    assert first is rsa_keys and len(made) == 1
    assert (tmp_path / "new" / "private_key.pem").exists()
    second = RsaKeyPair.load_or_create(tmp_path / "new")
    assert len(made) == 1
    assert second.public_pem == rsa_keys.public_pem


# --- mysql_old_password (secure_auth OFF) -----------------------------------------------------
def _old_auth(old_hash: tuple[int, int] | None, empty: bool = False) -> Authentication:
    creds = Credentials("mysql_old_password", old_hash=old_hash, empty_password=empty)
    return Authentication(creds, client_plugin=NATIVE, client_plugin_auth=True,
                          default_plugin=NATIVE, scramble=SCRAMBLE, secure=False, rsa_keys=None)


def test_old_password_switches_to_the_323_scramble() -> None:
    pw_hash = hash_323(b"oldpw")
    assert f"{pw_hash[0]:08x}{pw_hash[1]:08x}" == "09301740536db389"  # OLD_PASSWORD('oldpw')
    auth = _old_auth(pw_hash)
    step = auth.start(b"x" * 20)  # the client's native answer: switch plugins
    assert not step.done and step.send.startswith(b"\xfemysql_old_password\0" + SCRAMBLE)
    answer = scramble_323(SCRAMBLE, pw_hash)
    assert len(answer) == 8 and all(64 <= b < 128 for b in answer)  # printable, as 3.23 made it
    step = auth.feed(answer + b"\0")
    assert (step.done, step.success) == (True, True)
    wrong = _old_auth(pw_hash)
    wrong.start(b"x" * 20)
    step = wrong.feed(scramble_323(SCRAMBLE, hash_323(b"other")) + b"\0")
    assert (step.done, step.success, wrong.using_password) == (True, False, True)


def test_old_password_without_secure_auth_off_or_password() -> None:
    assert _old_auth(None).start(b"x" * 20).success is False  # secure_auth ON: never verified
    auth = _old_auth((0, 0), empty=True)
    auth.start(b"")
    step = auth.feed(b"")
    assert (step.done, step.success, auth.using_password) == (True, True, False)
    auth = _old_auth(hash_323(b"pw"))
    auth.start(b"")
    assert auth.feed(b"").success is False
