"""connection.py as a whole: the same events whatever way the input is cut, commands over
16 MiB, the phase table, and what still works after a ProtocolViolation."""

from __future__ import annotations

import struct
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rampmeter.errors import ProtocolViolation
from rampmeter.protocol import NEED_DATA
from rampmeter.protocol import events as ev
from rampmeter.protocol.connection import Phase, ServerProtocol
from rampmeter.protocol.constants import ServerStatus
from tests.unit.protocol.client import (
    CLIENT_CAPS,
    Client,
    Ok,
    Pair,
    frame,
    native_scramble,
    unframe,
)
from tests.unit.protocol.conftest import SCRAMBLE, Accounts

MakePair = Callable[..., Pair]
MAX = 0xFFFFFF
AUTOCOMMIT = ServerStatus.AUTOCOMMIT

# (payload, the event it must produce); None: no event (COM_STMT_SEND_LONG_DATA)
_sql = st.text(max_size=40)
COMMANDS = st.one_of(
    _sql.map(lambda s: (b"\x03" + s.encode(), ev.Query(s.encode()))),
    _sql.map(lambda s: (b"\x02" + s.encode(), ev.InitDb(s.encode()))),
    _sql.map(lambda s: (b"\x16" + s.encode(), ev.StmtPrepare(s.encode()))),
    st.just((b"\x0e", ev.Ping())),
    st.just((b"\x09", ev.Statistics())),
    st.just((b"\x1f", ev.ResetConnection())),
    st.integers(0, 2**32 - 1).map(lambda n: (b"\x0c" + struct.pack("<I", n), ev.ProcessKill(n))),
    st.integers(0, 2**32 - 1).map(lambda n: (b"\x19" + struct.pack("<I", n), ev.StmtClose(n))),
    st.integers(0, 2**32 - 1).map(lambda n: (b"\x1a" + struct.pack("<I", n), ev.StmtReset(n))),
    st.booleans().map(lambda on: (b"\x1b" + (b"\0\0" if on else b"\1\0"), ev.SetOption(on))),
    st.tuples(st.text(alphabet="abc_", max_size=8), _sql).map(
        lambda t: (b"\x04" + t[0].encode() + b"\0" + t[1].encode(),
                   ev.FieldList(t[0].encode(), t[1].encode()))),
    st.integers(0x20, 0xFF).map(lambda b: (bytes((b,)), ev.UnknownCommand(b))),
    st.binary(max_size=300).map(lambda d: (b"\x03" + b"\xe2\x82\xac" * 100 + d,
                                           ev.Query(b"\xe2\x82\xac" * 100 + d))),
)


def _reply(server: ServerProtocol, event: ev.Event) -> bytes:
    """What a session would answer; what matters here is that the sequence ids go on."""
    if isinstance(event, ev.Quit | ev.StmtClose):
        return b""
    if isinstance(event, ev.Statistics):
        return server.statistics("Uptime: 1")
    if isinstance(event, ev.SetOption):
        return server.eof_or_ok(status=AUTOCOMMIT)
    return server.ok(status=AUTOCOMMIT)


def _drive(server: ServerProtocol, chunks: list[bytes]) -> tuple[list[ev.Event], bytes]:
    events: list[ev.Event] = []
    out = b""
    for chunk in chunks:
        server.receive_data(chunk)
        while (e := server.next_event()) is not NEED_DATA:
            assert isinstance(e, ev.Event)
            events.append(e)
            out += server.data_to_send() + _reply(server, e)
    return events, out


def _cut(data: bytes, cuts: list[int]) -> list[bytes]:
    points = [0, *sorted(set(cuts)), len(data)]
    return [data[a:b] for a, b in zip(points, points[1:]) if b > a]


@settings(max_examples=200, deadline=None)
@given(st.lists(COMMANDS, max_size=12), st.data())
def test_same_events_however_the_input_is_cut(commands: list[tuple[bytes, ev.Event]],
                                              data: st.DataObject) -> None:
    """The handshake response and a pipeline of commands, fed in random pieces (down to one
    byte): the same events, and the same bytes answered, as when fed in one piece."""
    accounts = Accounts()
    accounts.add("alice", b"secret")
    client = Client()
    results = []
    for piecewise in (False, True):
        server = ServerProtocol(connection_id=1, server_version="8.0.36", accounts=accounts,
                                scramble=SCRAMBLE)
        client = Client()
        client.receive(server.greeting())
        client.read_greeting()
        stream = client.handshake_response("alice", b"secret", attrs={"a": "b"})
        stream += b"".join(frame(payload, 0) for payload, _ in commands)
        if piecewise:
            cuts = data.draw(st.lists(st.integers(1, len(stream) - 1), max_size=40))
            chunks = _cut(stream, cuts)
        else:
            chunks = [stream]
        assert server.next_event() is NEED_DATA
        results.append(_drive(server, chunks))
        assert not server.has_buffered_input and not server.has_partial_packet
        assert server.phase is Phase.COMMAND
    (events, out), (events2, out2) = results
    assert events == events2
    assert out == out2
    assert events[0] == ev.Authenticated("alice", None, "mysql_native_password", CLIENT_CAPS,
                                         {"a": "b"}, False, 45)
    assert events[1:] == [e for _, e in commands]


def test_byte_by_byte_partial_flags(pair: Pair) -> None:
    data = pair.client.send(b"\x03SELECT 1", command=True)
    for i, b in enumerate(data):
        pair.server.receive_data(bytes((b,)))
        if i < len(data) - 1:
            assert pair.server.next_event() is NEED_DATA
            assert pair.server.has_partial_packet and pair.server.has_buffered_input
    assert pair.server.next_event() == ev.Query(b"SELECT 1")
    assert not pair.server.has_partial_packet


# --- commands over 16 MiB ----------------------------------------------------------------------
@pytest.mark.parametrize("size", [MAX, MAX + 1, 2 * MAX + 5])
def test_command_over_16mib(make_pair: MakePair, size: int) -> None:
    """Split by the client: chunks seq 0, 1, ...; the reply continues after the last chunk."""
    p = make_pair(max_allowed_packet=64 << 20)
    p.login("root", b"")
    payload = b"\x03" + b"q" * (size - 1)
    data = frame(payload, 0)
    chunks = size // MAX + 1
    assert [seq for seq in (data[i * (MAX + 4) + 3] for i in range(chunks))] == list(range(chunks))
    p.server.receive_data(data[:MAX + 3])
    assert p.server.next_event() is NEED_DATA
    p.server.receive_data(data[MAX + 3:])
    event = p.server.next_event()
    assert isinstance(event, ev.Query) and len(event.sql) == size - 1
    ok = p.server.ok(status=AUTOCOMMIT)
    assert ok[3] == chunks
    assert p.server.next_event() is NEED_DATA


def test_command_over_max_allowed_packet_refused_at_its_first_header(make_pair: MakePair) -> None:
    p = make_pair()  # 16 MiB
    p.login("root", b"")
    p.server.receive_data(frame(b"\x03" + b"x" * (MAX + 10), 0)[:MAX + 8])
    with pytest.raises(ProtocolViolation) as info:
        p.server.next_event()
    assert info.value.code == 1153


# --- phases ------------------------------------------------------------------------------------
def test_phase_walk(make_pair: MakePair) -> None:
    p = make_pair(default_auth_plugin="caching_sha2_password")
    assert p.server.phase is Phase.GREETING
    p.start()
    assert p.server.phase is Phase.HANDSHAKE
    p.to_server(p.client.handshake_response("alice", b"secret"))
    assert p.server.phase is Phase.AUTH  # switched to native
    p.client.inbox.clear()
    p.client.seq = 3
    assert [type(e) for e in p.to_server(p.client.send(native_scramble(b"secret", SCRAMBLE)))] == [
        ev.Authenticated]
    assert p.server.phase is Phase.COMMAND
    assert p.server.ok(status=AUTOCOMMIT)[3] == 4
    p.server.receive_data(b"")
    assert p.server.next_event() == ev.ConnectionClosed()
    assert p.server.phase is Phase.CLOSED


def test_eof_in_the_middle_of_a_command(pair: Pair) -> None:
    pair.server.receive_data(pair.client.send(b"\x03SELECT 1", command=True)[:7])
    assert pair.server.next_event() is NEED_DATA
    pair.server.receive_data(b"")
    assert pair.server.has_buffered_input
    assert pair.server.next_event() == ev.ConnectionClosed()


def test_buffered_commands_before_eof_are_served(pair: Pair) -> None:
    pair.server.receive_data(pair.client.send(b"\x0e", command=True))
    pair.server.receive_data(b"")
    assert pair.server.has_buffered_input
    assert pair.server.next_event() == ev.Ping()
    assert pair.server.next_event() == ev.ConnectionClosed()
    assert not pair.server.has_buffered_input


def test_after_a_violation_events_stop_but_replies_work(pair: Pair) -> None:
    pair.server.receive_data(b"\x01\x00\x00\x05\x0e")
    with pytest.raises(ProtocolViolation) as info:
        pair.server.next_event()
    assert info.value.code == 1156
    assert pair.server.phase is Phase.ERROR
    with pytest.raises(ProtocolViolation):
        pair.server.next_event()
    err = pair.server.error_from(info.value)
    assert unframe(err) == [(1, b"\xff\x84\x04#08S01Got packets out of order")]


def test_error_before_the_greeting_has_seq_0(make_pair: MakePair) -> None:
    """Too many connections: mysqld sends an ERR instead of the greeting."""
    p = make_pair()
    data = p.server.error(1040, "08004", "Too many connections")
    assert data == b"\x1d\x00\x00\x00\xff\x10\x04#08004Too many connections"


def test_greeting_twice_is_refused(make_pair: MakePair) -> None:
    p = make_pair()
    p.server.greeting()
    with pytest.raises(RuntimeError, match="greeting"):
        p.server.greeting()


def test_login_reply_continues_the_sequence(make_pair: MakePair) -> None:
    p = make_pair()
    events, result = p.login("alice", b"secret")
    assert isinstance(result, Ok)
    assert p.client.seq == 3
    assert p.command(b"\x0e") == [ev.Ping()]
    assert p.server.ok(status=AUTOCOMMIT)[3] == 1
