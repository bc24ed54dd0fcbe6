"""Issue 10 item 2, sans IO: whatever bytes arrive, in any phase (handshake response, auth
switch, commands, prepared-statement execution with bogus ids, counts and types, long data,
change user), the protocol object yields events, asks for more data, or raises the MySQL error
of a malformed packet (ProtocolViolation / ServerError); never another exception, never a hang,
and never more buffered input than one packet of max_allowed_packet."""

from __future__ import annotations

import struct

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rampmeter.errors import ProtocolViolation, ServerError
from rampmeter.protocol import NEED_DATA
from rampmeter.protocol import events as ev
from rampmeter.protocol.columns import text_column
from rampmeter.protocol.connection import ServerProtocol
from rampmeter.protocol.constants import ServerStatus
from tests.unit.protocol.client import Client, frame
from tests.unit.protocol.conftest import SCRAMBLE, Accounts, fresh_pair

FUZZ = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
MAX_PACKET = 64 * 1024

# a packet header, possibly lying about its length or sequence, then a payload
HEADER = st.tuples(st.integers(0, 0xFFFFFF), st.integers(0, 255)).map(
    lambda t: t[0].to_bytes(3, "little") + bytes((t[1],)))
COMMAND_BYTE = st.sampled_from([0x00, 0x01, 0x02, 0x03, 0x04, 0x0e, 0x11, 0x16, 0x17, 0x18,
                                0x19, 0x1a, 0x1b, 0x1c, 0x1f, 0xfe, 0xff])
STMT_ID = st.sampled_from([0, 1, 2, 7, 2**31, 2**32 - 1])
# COM_STMT_EXECUTE: an id (real or not), flags, iteration count, then a NULL bitmap, the
# new-params-bound flag and types, and values (any of it possibly cut short or wrong)
EXECUTE = st.tuples(STMT_ID, st.integers(0, 255), st.integers(0, 2**32 - 1),
                    st.binary(max_size=4), st.sampled_from([b"", b"\x00", b"\x01"]),
                    st.binary(max_size=24), st.binary(max_size=40)).map(
    lambda t: b"\x17" + struct.pack("<IBI", t[0], t[1], t[2]) + t[3] + t[4] + t[5] + t[6])
# a well-formed execute of the two-parameter statement (id 1), its values possibly cut short
_VALUE = st.one_of(
    st.integers(-2**63, 2**63 - 1).map(lambda n: (b"\x08\x00", struct.pack("<q", n))),
    st.binary(max_size=30).map(lambda b: (b"\xfd\x00", bytes((len(b),)) + b)),
    st.just((b"\x06\x00", b"")))
VALID_EXECUTE = st.tuples(_VALUE, _VALUE, st.integers(0, 3), st.integers(0, 40)).map(
    lambda t: (b"\x17" + struct.pack("<IBI", 1, 0, 1) + bytes((t[2],)) + b"\x01" + t[0][0]
               + t[1][0] + t[0][1] + t[1][1])[: 14 + 4 + t[3] if t[3] < 40 else None])
LONG_DATA = st.tuples(STMT_ID, st.integers(0, 0xFFFF), st.binary(max_size=64)).map(
    lambda t: b"\x18" + struct.pack("<IH", t[0], t[1]) + t[2])
CHANGE_USER = st.binary(max_size=80).map(lambda b: b"\x11" + b)
PAYLOAD = st.one_of(st.tuples(COMMAND_BYTE, st.binary(max_size=64)).map(
    lambda t: bytes((t[0],)) + t[1]), EXECUTE, VALID_EXECUTE, LONG_DATA, CHANGE_USER)
# a well-framed command, a lying header, or raw garbage
CHUNK = st.one_of(PAYLOAD.map(lambda p: frame(p, 0)), st.tuples(HEADER, st.binary(max_size=64))
                  .map(lambda t: t[0] + t[1]), st.binary(max_size=64))


def _feed(server: ServerProtocol, chunks: list[bytes]) -> None:
    """Feed everything; answer events as a session would; stop at the first violation."""
    for chunk in chunks:
        server.receive_data(chunk)
        for _ in range(1000):
            try:
                event = server.next_event()
            except ProtocolViolation:  # the connection is closed with its error
                return
            except ServerError:  # a command's own error (unknown statement...): go on
                server.data_to_send()
                continue
            if event is NEED_DATA:
                break
            assert isinstance(event, ev.Event)
            if isinstance(event, ev.ConnectionClosed | ev.Quit | ev.AccessDenied):
                return  # the session closes the connection here
            server.data_to_send()
            _answer(server, event)
        else:
            raise AssertionError("one chunk produced a thousand events")
        # never more than one packet's worth buffered beyond what was asked for
        decoder = server._decoder  # noqa: SLF001
        assert len(decoder._buf) - decoder._pos <= MAX_PACKET + 4 + len(chunk)  # noqa: SLF001


def _answer(server: ServerProtocol, event: ev.Event) -> None:
    if isinstance(event, ev.StmtPrepare):
        server.prepare_ok(1, 2, [text_column("a")])
    elif not isinstance(event, ev.Quit | ev.StmtClose):
        server.ok(status=ServerStatus.AUTOCOMMIT)


@FUZZ
@given(st.lists(CHUNK, max_size=8))
def test_any_bytes_in_the_command_phase(chunks: list[bytes]) -> None:
    pair = fresh_pair(max_allowed_packet=MAX_PACKET)
    server = pair.server
    # a prepared statement with two parameters exists, so ids 1 and 7 differ
    server.receive_data(frame(b"\x16SELECT ?, ?", 0))
    event = server.next_event()
    assert isinstance(event, ev.StmtPrepare)
    _answer(server, event)
    _feed(server, chunks)


@FUZZ
@given(st.lists(st.one_of(CHUNK, st.binary(min_size=1, max_size=200)), max_size=6))
def test_any_bytes_instead_of_a_handshake_response(chunks: list[bytes]) -> None:
    accounts = Accounts()
    accounts.add("alice", b"secret")
    server = ServerProtocol(connection_id=1, server_version="10.11.6", accounts=accounts,
                            scramble=SCRAMBLE, max_allowed_packet=MAX_PACKET)
    server.greeting()
    _feed(server, chunks)


@FUZZ
@given(st.binary(max_size=120), st.lists(CHUNK, max_size=4))
def test_any_bytes_in_an_auth_switch(first: bytes, chunks: list[bytes]) -> None:
    """The client asked for a plugin the account does not use: the server switches, and the
    client answers the switch with garbage."""
    accounts = Accounts()
    accounts.add("bob", b"hunter2", "caching_sha2_password")
    server = ServerProtocol(connection_id=1, server_version="10.11.6", accounts=accounts,
                            scramble=SCRAMBLE, max_allowed_packet=MAX_PACKET)
    client = Client()
    client.receive(server.greeting())
    client.read_greeting()
    server.receive_data(client.handshake_response("bob", b"hunter2",
                                                  plugin="mysql_native_password"))
    try:
        assert server.next_event() is NEED_DATA  # the switch request is waiting to be sent
    except ServerError:
        return
    server.data_to_send()
    _feed(server, [frame(first, 3), *chunks])
