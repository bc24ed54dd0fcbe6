"""wire.py and framing.py: basic types, packet framing round trips (cut anywhere, fed byte by
byte, split at 0xFFFFFF), sequence ids and the packet size limit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rampmeter.errors import (
    ER_MALFORMED_PACKET,
    ER_NET_PACKET_TOO_LARGE,
    ER_NET_PACKETS_OUT_OF_ORDER,
    ProtocolViolation,
)
from rampmeter.protocol import wire
from rampmeter.protocol.framing import PacketDecoder, close_packet, frame
from tests.unit.protocol import client

pytestmark = pytest.mark.timeout(120)
MAX = 0xFFFFFF


# --- wire ------------------------------------------------------------------------------------
@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_lenenc_int_round_trip(n: int) -> None:
    encoded = wire.lenenc_int(n)
    assert encoded == client.lenenc(n)
    r = wire.Reader(encoded)
    assert r.lenenc_int() == n
    assert r.at_end()


@pytest.mark.parametrize(("n", "size"), [(250, 1), (251, 3), (0xFFFF, 3), (0x10000, 4),
                                         (0xFFFFFF, 4), (0x1000000, 9)])
def test_lenenc_int_boundaries(n: int, size: int) -> None:
    assert len(wire.lenenc_int(n)) == size


@given(st.binary(max_size=600))
def test_lenenc_bytes_round_trip(data: bytes) -> None:
    r = wire.Reader(wire.lenenc_bytes(data) + b"tail")
    assert r.lenenc_bytes() == data
    assert r.rest() == b"tail"


@pytest.mark.parametrize("data", [b"", b"\xfc\x01", b"\xfd\x01\x02", b"\xfe" + bytes(7),
                                  b"\x05abc", b"\xfb", b"\xff"])
def test_truncated_or_invalid_lenenc_raises(data: bytes) -> None:
    with pytest.raises(ProtocolViolation) as info:
        wire.Reader(data).lenenc_bytes()
    assert info.value.code == ER_MALFORMED_PACKET


def test_reader_fixed_ints_and_strings() -> None:
    r = wire.Reader(b"\x01\x02\x01\x03\x02\x01\x04\x03\x02\x01" + bytes(range(8)) + b"ab\0cd")
    assert (r.u8(), r.u16(), r.u24(), r.u32()) == (1, 0x0102, 0x010203, 0x01020304)
    assert r.u64() == int.from_bytes(bytes(range(8)), "little")
    assert r.nul_bytes() == b"ab"
    with pytest.raises(ProtocolViolation):
        wire.Reader(b"cd").nul_bytes()
    assert r.nul_or_rest() == b"cd"
    assert r.at_end()
    with pytest.raises(ProtocolViolation):
        r.u8()


def test_reader_reports_the_chosen_code() -> None:
    with pytest.raises(ProtocolViolation) as info:
        wire.Reader(b"", code=1043).u32()
    assert info.value.code == 1043


# --- framing ---------------------------------------------------------------------------------
def _decode_all(data: bytes, seq: int = 0, *, cuts: list[int] | None = None,
                limit: int = 1 << 30) -> list[bytes]:
    """Feed `data` in pieces (at `cuts`), collecting payloads; consecutive seq from `seq`."""
    dec = PacketDecoder(limit)
    out: list[bytes] = []
    points = sorted(set(cuts or [])) + [len(data)]
    prev = 0
    for p in points:
        dec.feed(data[prev:p])
        prev = p
        while (got := dec.next_packet(seq)) is not None:
            payload, last = got
            out.append(payload)
            seq = (last + 1) & 0xFF
    assert not dec.has_buffered
    return out


@given(st.lists(st.binary(max_size=300), max_size=8), st.integers(0, 255), st.data())
def test_round_trip_cut_anywhere(payloads: list[bytes], seq: int, data: st.DataObject) -> None:
    wire_bytes = b""
    s = seq
    for p in payloads:
        framed, s = frame(p, s)
        assert framed == client.frame(p, (s - 1) & 0xFF)
        wire_bytes += framed
    cuts = data.draw(st.lists(st.integers(0, len(wire_bytes)), max_size=10))
    assert _decode_all(wire_bytes, seq, cuts=cuts) == payloads


def test_fed_byte_by_byte_with_partial_flags() -> None:
    payloads = [b"", b"x" * 300, b"hello"]
    data = b"".join(client.frame(p, i) for i, p in enumerate(payloads))
    dec = PacketDecoder(1 << 20)
    got, seq = [], 0
    for i in range(len(data)):
        dec.feed(data[i:i + 1])
        assert dec.has_buffered
        packet = dec.next_packet(seq)
        if packet is None:
            assert dec.has_partial
            continue
        got.append(packet[0])
        seq = packet[1] + 1
        assert not dec.has_partial
    assert got == payloads


@settings(max_examples=6, deadline=None)
@given(st.sampled_from([MAX - 1, MAX, MAX + 1, 2 * MAX, 2 * MAX + 7]), st.integers(0, 255))
def test_big_payloads_split_and_join(size: int, seq: int) -> None:
    payload = bytes([size % 251]) * size
    data, next_seq = frame(payload, seq)
    chunks = size // MAX + 1
    assert next_seq == (seq + chunks) & 0xFF
    assert len(data) == size + 4 * chunks
    if size >= MAX:  # first chunk is exactly 0xFFFFFF; the last one is shorter (maybe empty)
        assert data[:3] == b"\xff\xff\xff"
    assert data == client.frame(payload, seq)
    assert _decode_all(data, seq, cuts=[1, 5, MAX + 3, MAX + 4, len(data) - 1]) == [payload]


def test_exact_multiple_ends_with_empty_packet() -> None:
    data, next_seq = frame(b"a" * MAX, 3)
    assert next_seq == 5
    assert data[-4:] == b"\x00\x00\x00\x04"


def test_wrong_sequence_id() -> None:
    dec = PacketDecoder(1000)
    dec.feed(client.frame(b"abc", 2))
    with pytest.raises(ProtocolViolation) as info:
        dec.next_packet(0)
    assert info.value.code == ER_NET_PACKETS_OUT_OF_ORDER


def test_wrong_sequence_id_in_a_continuation_chunk() -> None:
    data = bytearray(client.frame(b"z" * (MAX + 10), 0))
    data[MAX + 4 + 3] = 9  # the second chunk's seq should be 1
    dec = PacketDecoder(1 << 30)
    dec.feed(bytes(data))
    with pytest.raises(ProtocolViolation) as info:
        dec.next_packet(0)
    assert info.value.code == ER_NET_PACKETS_OUT_OF_ORDER


def test_too_large_is_refused_from_the_header() -> None:
    dec = PacketDecoder(100)
    dec.feed(client.frame(b"x" * 100, 0))
    assert dec.next_packet(0) == (b"x" * 100, 0)
    dec.feed(client.frame(b"x" * 101, 0)[:4])  # only the header: no need to wait for the body
    with pytest.raises(ProtocolViolation) as info:
        dec.next_packet(0)
    assert info.value.code == ER_NET_PACKET_TOO_LARGE


def test_limit_applies_to_the_joined_payload() -> None:
    dec = PacketDecoder(MAX + 5)
    dec.feed(client.frame(b"y" * (MAX + 5), 0))
    assert dec.next_packet(0) == (b"y" * (MAX + 5), 1)
    dec.feed(client.frame(b"y" * (MAX + 6), 0))
    with pytest.raises(ProtocolViolation) as info:
        dec.next_packet(0)
    assert info.value.code == ER_NET_PACKET_TOO_LARGE


def test_close_packet_in_place_and_split() -> None:
    out = bytearray(b"prefix")
    start = len(out)
    out += bytes(4) + b"row"
    assert close_packet(out, start, 255) == 0
    assert bytes(out) == b"prefix" + client.frame(b"row", 255)
    big = bytearray(bytes(4) + b"q" * MAX)
    assert close_packet(big, 0, 1) == 3
    assert client.unframe(bytes(big)) == [(1, b"q" * MAX)]


def test_take_buffered_returns_the_unread_bytes() -> None:
    dec = PacketDecoder(1000)
    dec.feed(client.frame(b"ssl", 1) + b"\x16\x03\x01TLS")
    assert dec.next_packet(1) == (b"ssl", 1)
    assert dec.take_buffered() == b"\x16\x03\x01TLS"
    assert not dec.has_buffered


def test_split_payload_sequence_ids_wrap() -> None:
    payload = b"w" * (MAX + 1)
    data, next_seq = frame(payload, 255)
    assert next_seq == 1
    assert (data[3], data[MAX + 4 + 3]) == (255, 0)
    assert data[MAX + 4:MAX + 8] == b"\x01\x00\x00\x00"
    dec = PacketDecoder(1 << 25)
    dec.feed(data)
    assert dec.next_packet(255) == (payload, 0)


def test_partial_flag_while_joining_chunks() -> None:
    data = client.frame(b"j" * MAX, 0)  # one full chunk, then an empty one
    dec = PacketDecoder(1 << 25)
    dec.feed(data[:-4])
    assert dec.next_packet(0) is None
    assert dec.has_partial and dec.has_buffered
    dec.feed(data[-4:])
    assert dec.next_packet(0) == (b"j" * MAX, 1)
    assert not dec.has_partial and not dec.has_buffered


@settings(max_examples=50)
@given(st.lists(st.integers(1, 40), min_size=1, max_size=30), st.data())
def test_random_chunk_sizes_give_the_same_payloads(sizes: list[int], data: st.DataObject) -> None:
    payloads = [bytes([i]) * n for i, n in enumerate(sizes)]
    stream = b"".join(client.frame(p, i) for i, p in enumerate(payloads))
    steps = data.draw(st.lists(st.integers(1, 17), min_size=1))
    dec = PacketDecoder(1000)
    got, pos, seq, k = [], 0, 0, 0
    while pos < len(stream):
        n = steps[k % len(steps)]
        k += 1
        dec.feed(stream[pos:pos + n])
        pos += n
        while (packet := dec.next_packet(seq)) is not None:
            got.append(packet[0])
            seq = (packet[1] + 1) & 0xFF
    assert got == payloads
    assert not dec.has_buffered


def test_bytes_to_packet_end_counts_header_then_payload() -> None:
    d = PacketDecoder(1000)
    assert d.bytes_to_packet_end() == 4
    d.feed(b"\x05\x00")
    assert d.bytes_to_packet_end() == 2
    d.feed(b"\x00\x01ab")
    assert d.bytes_to_packet_end() == 3
    d.feed(b"cde")
    assert d.bytes_to_packet_end() == 0  # whole: a reader bound to one packet stops here
