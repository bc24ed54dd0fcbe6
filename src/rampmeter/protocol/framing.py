"""Packet framing: every MySQL packet is a 3-byte little-endian payload length, a 1-byte sequence
id, then the payload.

Rules (MySQL protocol docs, "MySQL Packets" and "Sending More Than 16Mb"):
- A payload of 0xFFFFFF bytes or more travels as chunks of exactly 0xFFFFFF bytes followed by one
  shorter chunk, possibly empty (so a payload of exactly 0xFFFFFF bytes is two packets, the second
  of length 0). Each chunk takes the next sequence id; the receiver joins them.
- Sequence ids count modulo 256 within one exchange. The caller says which id the next packet
  must carry; a different one is ER_NET_PACKETS_OUT_OF_ORDER (1156), as mysqld's my_net_read.
- The limit (max_allowed_packet) applies to the joined payload, and is checked as soon as a
  header announces a payload that would exceed it: we never buffer 16 MiB to reject it
  (ER_NET_PACKET_TOO_LARGE, 1153).
The decoder only buffers and cuts; it knows nothing of phases or commands.
"""

from __future__ import annotations

from rampmeter.errors import (
    ER_NET_PACKET_TOO_LARGE,
    ER_NET_PACKETS_OUT_OF_ORDER,
    ProtocolViolation,
)
from rampmeter.protocol.constants import MAX_PACKET_PAYLOAD

HEADER_SIZE = 4


def frame_into(out: bytearray, payload: bytes | bytearray | memoryview, seq: int) -> int:
    """Append `payload` framed as one or more packets starting at `seq`; return the next seq."""
    n = len(payload)
    if n < MAX_PACKET_PAYLOAD:
        out += n.to_bytes(3, "little")
        out.append(seq)
        out += payload
        return (seq + 1) & 0xFF
    view = memoryview(payload)
    pos = 0
    while True:
        chunk = view[pos:pos + MAX_PACKET_PAYLOAD]
        out += len(chunk).to_bytes(3, "little")
        out.append(seq)
        out += chunk
        seq = (seq + 1) & 0xFF
        pos += len(chunk)
        if len(chunk) < MAX_PACKET_PAYLOAD:
            return seq


def frame(payload: bytes, seq: int) -> tuple[bytes, int]:
    """`payload` framed from `seq`: (the bytes to send, the next seq)."""
    out = bytearray()
    seq = frame_into(out, payload, seq)
    return bytes(out), seq


def close_packet(out: bytearray, start: int, seq: int) -> int:
    """Finish a packet built in place: `out[start:start+4]` was reserved for its header and the
    payload follows up to the end of `out`. Splits it if it reached 0xFFFFFF. Returns next seq."""
    n = len(out) - start - HEADER_SIZE
    if n < MAX_PACKET_PAYLOAD:
        out[start] = n & 0xFF
        out[start + 1] = (n >> 8) & 0xFF
        out[start + 2] = n >> 16
        out[start + 3] = seq
        return (seq + 1) & 0xFF
    payload = bytes(out[start + HEADER_SIZE:])
    del out[start:]
    return frame_into(out, payload, seq)


class PacketDecoder:
    """Receive buffer: bytes in, whole (joined) payloads out."""

    __slots__ = ("_buf", "_chunks", "_chunks_len", "_next_chunk_seq", "_pos", "max_payload")

    def __init__(self, max_payload: int) -> None:
        self.max_payload = max_payload
        self._buf = bytearray()
        self._pos = 0  # start of unconsumed data in _buf (compacted lazily)
        self._chunks: list[bytes] = []  # 0xFFFFFF-byte chunks of a payload still being joined
        self._chunks_len = 0
        self._next_chunk_seq = 0

    def feed(self, data: bytes) -> None:
        if self._pos and self._pos == len(self._buf):
            self._buf.clear()
            self._pos = 0
        self._buf += data

    @property
    def has_buffered(self) -> bool:
        return self._pos < len(self._buf) or bool(self._chunks)

    @property
    def has_partial(self) -> bool:
        """Bytes of a packet whose end has not arrived yet are buffered."""
        if self._chunks:
            return True
        avail = len(self._buf) - self._pos
        if avail == 0:
            return False
        if avail < HEADER_SIZE:
            return True
        b, p = self._buf, self._pos
        return avail < HEADER_SIZE + (b[p] | b[p + 1] << 8 | b[p + 2] << 16)

    def bytes_to_packet_end(self) -> int:
        """How many more bytes end the packet being received (a header first, then its
        payload): a reader that must not read past one packet asks for exactly these."""
        avail = len(self._buf) - self._pos
        if avail < HEADER_SIZE:
            return HEADER_SIZE - avail
        b, p = self._buf, self._pos
        n = b[p] | b[p + 1] << 8 | b[p + 2] << 16
        return max(HEADER_SIZE + n - avail, 0)

    def take_buffered(self) -> bytes:
        """Remove and return every unconsumed byte (what follows an SSLRequest is TLS data)."""
        data = bytes(self._buf[self._pos:])
        self._buf.clear()
        self._pos = 0
        self._chunks.clear()
        self._chunks_len = 0
        return data

    def next_packet(self, expected_seq: int) -> tuple[bytes, int] | None:
        """The next whole payload and the sequence id of its last chunk, or None if incomplete.
        `expected_seq` is the id the packet's first chunk must carry."""
        b = self._buf
        while True:
            p = self._pos
            if len(b) - p < HEADER_SIZE:
                return None
            n = b[p] | b[p + 1] << 8 | b[p + 2] << 16
            seq = b[p + 3]
            want = self._next_chunk_seq if self._chunks else expected_seq
            if seq != want:
                raise ProtocolViolation(f"packet sequence id {seq}, expected {want}",
                                        code=ER_NET_PACKETS_OUT_OF_ORDER)
            if self._chunks_len + n > self.max_payload:
                raise ProtocolViolation(
                    f"packet of {self._chunks_len + n}+ bytes exceeds the limit of "
                    f"{self.max_payload}", code=ER_NET_PACKET_TOO_LARGE)
            end = p + HEADER_SIZE + n
            if len(b) < end:
                return None
            payload = bytes(b[p + HEADER_SIZE:end])
            self._pos = end
            if end == len(b):
                b.clear()
                self._pos = 0
            elif end > 65536 and end * 2 > len(b):
                del b[:end]
                self._pos = 0
            if n == MAX_PACKET_PAYLOAD:
                self._chunks.append(payload)
                self._chunks_len += n
                self._next_chunk_seq = (seq + 1) & 0xFF
                continue
            if self._chunks:
                self._chunks.append(payload)
                payload = b"".join(self._chunks)
                self._chunks.clear()
                self._chunks_len = 0
            return payload, seq
