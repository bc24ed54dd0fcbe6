"""packets.py and connection.py, connection phase: the Initial Handshake v10 as the test client
parses it, HandshakeResponse41 parsing (database, attributes, plugin, charset), the SSLRequest
and the TLS phase, and what a malformed or unexpected handshake packet does."""

from __future__ import annotations

import struct
from collections.abc import Callable

import pytest

from rampmeter.errors import ER_HANDSHAKE_ERROR, ProtocolViolation
from rampmeter.protocol import NEED_DATA
from rampmeter.protocol import events as ev
from rampmeter.protocol import packets as pk
from rampmeter.protocol.auth import generate_scramble
from rampmeter.protocol.connection import Phase
from rampmeter.protocol.constants import SERVER_CAPABILITIES, Capability, ServerStatus
from tests.unit.protocol.client import CLIENT_CAPS, Ok, Pair, frame, parse_greeting
from tests.unit.protocol.conftest import SCRAMBLE

MakePair = Callable[..., Pair]

REQUIRED = (Capability.PROTOCOL_41 | Capability.SECURE_CONNECTION | Capability.PLUGIN_AUTH
            | Capability.DEPRECATE_EOF | Capability.MULTI_STATEMENTS | Capability.MULTI_RESULTS
            | Capability.PS_MULTI_RESULTS | Capability.CONNECT_ATTRS
            | Capability.PLUGIN_AUTH_LENENC_CLIENT_DATA | Capability.TRANSACTIONS)


# --- the greeting ----------------------------------------------------------------------------
def test_greeting_fields(make_pair: MakePair) -> None:
    p = make_pair(connection_id=0x01020304)
    assert p.server.phase is Phase.GREETING
    g = p.start()
    assert p.server.phase is Phase.HANDSHAKE
    assert g.version == "5.5.5-10.11.6-MariaDB-rampmeter"  # MariaDB's RPL_VERSION_HACK
    assert g.connection_id == 0x01020304
    assert g.scramble == SCRAMBLE
    assert len(g.scramble) == 20
    assert g.auth_data_len == 21
    assert g.charset == 45
    assert g.status == ServerStatus.AUTOCOMMIT
    assert g.plugin == "mysql_native_password"
    assert g.capabilities & REQUIRED == REQUIRED
    assert g.capabilities == SERVER_CAPABILITIES
    assert not g.capabilities & Capability.SSL
    # Not offered: no compression. Session tracking and LOAD DATA LOCAL (local_infile) are.
    assert not g.capabilities & Capability.COMPRESS
    assert g.capabilities & Capability.SESSION_TRACK
    assert g.capabilities & Capability.LOCAL_FILES


def test_greeting_exact_bytes() -> None:
    payload = pk.handshake_v10(server_version="8.0.36", connection_id=9, scramble=SCRAMBLE,
                               capabilities=SERVER_CAPABILITIES, charset=45,
                               status=ServerStatus.AUTOCOMMIT,
                               auth_plugin="caching_sha2_password")
    caps = int(SERVER_CAPABILITIES)
    assert payload == (b"\x0a8.0.36\0" + b"\x09\0\0\0" + b"01234567" + b"\0"
                       + struct.pack("<HBHH", caps & 0xFFFF, 45, 2, caps >> 16 & 0xFFFF)
                       + b"\x15" + bytes(6) + struct.pack("<I", caps >> 32)
                       + b"89abcdefghij\0" + b"caching_sha2_password\0")


def test_greeting_offers_ssl_only_with_tls(make_pair: MakePair) -> None:
    g = make_pair(tls_available=True).start()
    assert g.capabilities & Capability.SSL
    assert g.capabilities & ~Capability.SSL == SERVER_CAPABILITIES
    # A capability set that (wrongly) contains SSL loses it when TLS is not available.
    g = make_pair(capabilities=SERVER_CAPABILITIES | Capability.SSL).start()
    assert not g.capabilities & Capability.SSL


def test_greeting_default_plugin_and_random_scramble(make_pair: MakePair) -> None:
    p = make_pair(default_auth_plugin="caching_sha2_password", scramble=None,
                  status=ServerStatus.AUTOCOMMIT | ServerStatus.IN_TRANS)
    g = p.start()
    assert g.plugin == "caching_sha2_password"
    assert g.scramble == p.server.scramble
    assert len(g.scramble) == 20
    assert g.status == ServerStatus.AUTOCOMMIT | ServerStatus.IN_TRANS


def test_generated_scramble_has_no_nul_or_dollar() -> None:
    for _ in range(200):
        s = generate_scramble()
        assert len(s) == 20
        assert all(0 < b < 0x80 and b != 0x24 for b in s)


def test_scramble_must_be_20_bytes(make_pair: MakePair) -> None:
    with pytest.raises(ValueError, match="20 bytes"):
        make_pair(scramble=b"short")


def test_greeting_connection_id_wraps_to_32_bits() -> None:
    payload = pk.handshake_v10(server_version="v", connection_id=(1 << 32) + 5, scramble=SCRAMBLE,
                               capabilities=SERVER_CAPABILITIES, charset=8,
                               status=ServerStatus(0), auth_plugin="mysql_native_password")
    g = parse_greeting(payload)
    assert g.connection_id == 5
    assert g.charset == 8


# --- the handshake response ------------------------------------------------------------------
def test_login_with_database_attributes_and_charset(make_pair: MakePair) -> None:
    p = make_pair()
    p.start()
    events = p.to_server(p.client.handshake_response(
        "alice", b"secret", database="shop", attrs={"_client_name": "pytest", "k": "v" * 300},
        charset=33))
    assert events == [ev.Authenticated(
        "alice", "shop", "mysql_native_password", CLIENT_CAPS | Capability.CONNECT_WITH_DB,
        {"_client_name": "pytest", "k": "v" * 300}, False, 33)]
    assert p.server.client_capabilities == CLIENT_CAPS | Capability.CONNECT_WITH_DB
    assert p.server.phase is Phase.COMMAND
    p.client.receive(p.server.ok(status=ServerStatus.AUTOCOMMIT))
    ok = p.client.read()
    assert ok == b"\x00\x00\x00\x02\x00\x00\x00"


def test_account_lookup_gets_user_and_host(make_pair: MakePair, accounts) -> None:
    p = make_pair(host="10.1.2.3")
    p.login("alice", b"secret")
    assert accounts.lookups == [("alice", "10.1.2.3")]


def test_response_without_lenenc_auth_data(make_pair: MakePair) -> None:
    """A client without PLUGIN_AUTH_LENENC_CLIENT_DATA sends a 1-byte auth length."""
    caps = CLIENT_CAPS & ~Capability.PLUGIN_AUTH_LENENC_CLIENT_DATA & ~Capability.CONNECT_ATTRS
    p = make_pair(client_caps=caps)
    events, result = p.login("alice", b"secret", database="db1")
    assert isinstance(result, Ok)
    assert isinstance(events[0], ev.Authenticated)
    assert events[0].database == "db1"
    assert events[0].attributes == {}


def test_handshake_response_parsing_by_hand() -> None:
    body = (struct.pack("<IIB23s", int(CLIENT_CAPS | Capability.CONNECT_WITH_DB), 1 << 24, 8, b"")
            + b"u\0" + b"\x03abc" + b"mydb\0" + b"mysql_native_password\0"
            + b"\x0a" + b"\x03k_1\x02v1" + b"\x01a\x00")
    r = pk.parse_handshake_response(body, SERVER_CAPABILITIES)
    assert (r.user, r.auth_response, r.database, r.plugin) == ("u", b"abc", "mydb",
                                                               "mysql_native_password")
    assert r.attributes == {"k_1": "v1", "a": ""}
    assert (r.max_packet, r.charset, r.ssl_request) == (1 << 24, 8, False)


def test_handshake_response_optional_tail_missing() -> None:
    """Old clients stop after the auth data; the plugin name may lack its NUL."""
    head = struct.pack("<IIB23s", int(CLIENT_CAPS | Capability.CONNECT_WITH_DB), 0, 45, b"")
    r = pk.parse_handshake_response(head + b"u\0\x00", SERVER_CAPABILITIES)
    assert (r.user, r.auth_response, r.database, r.plugin, r.attributes) == (
        "u", b"", None, "", {})
    r = pk.parse_handshake_response(head + b"u\0\x00\0caching_sha2_password",
                                    SERVER_CAPABILITIES)
    assert (r.database, r.plugin) == (None, "caching_sha2_password")


def test_handshake_response_options_the_server_did_not_offer_are_ignored() -> None:
    """CONNECT_ATTRS set by the client but not offered: the attributes are not read."""
    body = (struct.pack("<IIB23s", int(CLIENT_CAPS), 0, 45, b"") + b"u\0\x00"
            + b"mysql_native_password\0" + b"\x04\x01a\x01b")
    r = pk.parse_handshake_response(body, SERVER_CAPABILITIES & ~Capability.CONNECT_ATTRS)
    assert r.attributes == {}
    assert r.capabilities == CLIENT_CAPS


@pytest.mark.parametrize("payload", [
    b"",
    b"\x00" * 31,
    # no PROTOCOL_41: a pre-4.1 client is refused
    struct.pack("<IIB23s", int(CLIENT_CAPS & ~Capability.PROTOCOL_41), 0, 45, b"") + b"u\0\0",
    # user without its NUL
    struct.pack("<IIB23s", int(CLIENT_CAPS), 0, 45, b"") + b"user",
    # auth data longer than the packet
    struct.pack("<IIB23s", int(CLIENT_CAPS), 0, 45, b"") + b"u\0\x14abc",
    # attributes block longer than the packet
    struct.pack("<IIB23s", int(CLIENT_CAPS), 0, 45, b"") + b"u\0\0p\0\x10\x01a",
])
def test_malformed_handshake_response_is_a_handshake_error(make_pair: MakePair,
                                                           payload: bytes) -> None:
    p = make_pair()
    p.start()
    p.server.receive_data(frame(payload, 1))
    with pytest.raises(ProtocolViolation) as info:
        p.server.next_event()
    assert info.value.code == ER_HANDSHAKE_ERROR
    assert p.server.phase is Phase.ERROR
    with pytest.raises(ProtocolViolation):
        p.server.next_event()
    # Replies still work: the caller can tell the client why.
    err = p.server.error_from(info.value)
    assert err[4:7] == b"\xff\x13\x04"  # 1043
    assert err[7:13] == b"#08S01"


def test_handshake_packet_too_large_before_login(make_pair: MakePair) -> None:
    """Before login the limit is 64 KiB, whatever max_allowed_packet says."""
    p = make_pair()
    p.start()
    p.server.receive_data(b"\x01\x00\x01\x01")  # header of a 65537-byte packet, seq 1
    with pytest.raises(ProtocolViolation) as info:
        p.server.next_event()
    assert info.value.code == 1153


def test_data_before_the_greeting_waits(make_pair: MakePair) -> None:
    p = make_pair()
    p.server.receive_data(b"\x01\x00\x00\x00\x0e")
    assert p.server.next_event() is NEED_DATA
    assert p.server.has_buffered_input


def test_eof_during_handshake(make_pair: MakePair) -> None:
    p = make_pair()
    p.start()
    p.server.receive_data(frame(b"partial", 1)[:6])
    assert p.server.next_event() is NEED_DATA
    assert p.server.has_partial_packet
    p.server.receive_data(b"")
    assert p.server.next_event() == ev.ConnectionClosed()
    assert p.server.phase is Phase.CLOSED
    assert p.server.next_event() == ev.ConnectionClosed()
    with pytest.raises(RuntimeError):
        p.server.receive_data(b"more")


# --- SSLRequest / TLS --------------------------------------------------------------------------
def test_ssl_request_starts_tls_and_hands_over_buffered_bytes(make_pair: MakePair) -> None:
    p = make_pair(tls_available=True)
    p.start()
    p.server.receive_data(p.client.ssl_request() + b"\x16\x03\x01\x00\x05hello")
    event = p.server.next_event()
    assert event == ev.StartTLS(b"\x16\x03\x01\x00\x05hello")
    assert p.server.phase is Phase.TLS
    assert not p.server.has_buffered_input
    assert p.server.next_event() is NEED_DATA  # until the caller says TLS is up
    p.server.tls_established()
    assert p.server.phase is Phase.HANDSHAKE
    p.client.tls = True
    events = p.to_server(p.client.handshake_response("alice", b"secret"))
    assert [type(e) for e in events] == [ev.Authenticated]
    assert events[0].client_capabilities & Capability.SSL
    ok = p.server.ok(status=ServerStatus.AUTOCOMMIT)
    assert ok[3] == 3  # greeting 0, SSLRequest 1, response 2, OK 3


def test_ssl_request_when_tls_is_not_offered(make_pair: MakePair) -> None:
    p = make_pair()
    p.start()
    p.server.receive_data(p.client.ssl_request())
    with pytest.raises(ProtocolViolation) as info:
        p.server.next_event()
    assert info.value.code == ER_HANDSHAKE_ERROR


def test_second_ssl_request_after_tls(make_pair: MakePair) -> None:
    p = make_pair(tls_available=True)
    p.start()
    assert p.to_server(p.client.ssl_request()) == [ev.StartTLS(b"")]
    p.server.tls_established()
    p.server.receive_data(p.client.ssl_request())
    with pytest.raises(ProtocolViolation) as info:
        p.server.next_event()
    assert info.value.code == ER_HANDSHAKE_ERROR


def test_tls_established_out_of_phase(make_pair: MakePair) -> None:
    p = make_pair(tls_available=True)
    p.start()
    with pytest.raises(RuntimeError, match="tls_established"):
        p.server.tls_established()


def test_wrong_sequence_id_in_handshake_response(make_pair: MakePair) -> None:
    p = make_pair()
    p.start()
    p.client.seq = 0
    p.server.receive_data(p.client.handshake_response("alice", b"secret"))
    with pytest.raises(ProtocolViolation) as info:
        p.server.next_event()
    assert info.value.code == 1156


def test_handshake_response_with_nul_terminated_auth_data() -> None:
    """Neither SECURE_CONNECTION nor the lenenc flag: the auth data is a C string."""
    caps = (CLIENT_CAPS & ~Capability.SECURE_CONNECTION
            & ~Capability.PLUGIN_AUTH_LENENC_CLIENT_DATA & ~Capability.PLUGIN_AUTH
            & ~Capability.CONNECT_ATTRS) | Capability.CONNECT_WITH_DB
    body = struct.pack("<IIB23s", int(caps), 0, 45, b"") + b"old\0scrambled\0db\0"
    r = pk.parse_handshake_response(body, SERVER_CAPABILITIES)
    assert (r.user, r.auth_response, r.database, r.plugin) == ("old", b"scrambled", "db", "")


def test_mariadb_extended_capabilities_are_read_from_the_filler() -> None:
    """A MariaDB client (no CLIENT_MYSQL = LONG_PASSWORD) puts its extended capabilities in the
    last 4 of the 23 filler bytes; a MySQL client's filler is zeros and stays unread."""
    ext = struct.pack("<I", int(Capability.MARIADB_EXTENDED_METADATA) >> 32)
    caps = int(CLIENT_CAPS & ~Capability.LONG_PASSWORD)
    r = pk.parse_handshake_response(struct.pack("<IIB", caps, 0, 45) + bytes(19) + ext
                                    + b"u\0\x00", SERVER_CAPABILITIES)
    assert r.capabilities & Capability.MARIADB_EXTENDED_METADATA
    r = pk.parse_handshake_response(struct.pack("<IIB", caps | 1, 0, 45) + bytes(19) + ext
                                    + b"u\0\x00", SERVER_CAPABILITIES)
    assert not r.capabilities & Capability.MARIADB_EXTENDED_METADATA
    assert not SERVER_CAPABILITIES & Capability.LONG_PASSWORD  # a MariaDB server's greeting


def test_column_definition_with_extended_metadata() -> None:
    from rampmeter.protocol.columns import Column
    from rampmeter.protocol.constants import ColumnType
    col = Column("j", ColumnType.BLOB, 4294967295, 144, 0, 45, extended=((1, "json"),))
    plain = pk.column_definition(col)
    extended = pk.column_definition(col, extended=True)
    # after org_name "j": the block's length 6, then kind 1 and "json" length-encoded
    assert extended == plain.replace(b"\x01j\x01j\x0c", b"\x01j\x01j\x06\x01\x04json\x0c")
    bare = Column("t", ColumnType.BLOB, 65535, 16, 0, 45)
    assert pk.column_definition(bare, extended=True) == \
        pk.column_definition(bare).replace(b"\x01t\x01t\x0c", b"\x01t\x01t\x00\x0c")
