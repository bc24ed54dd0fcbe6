"""A minimal MySQL CLIENT codec for the protocol tests, written independently of the server's
modules (only the numeric constants are shared), plus `Pair`: a ServerProtocol and a Client
joined by an in-memory network, as h11's ConnectionPair.

The client frames and unframes packets, builds handshake responses (mysql_native_password and
caching_sha2_password, including the RSA path), follows auth switches, parses OK/ERR/EOF and
text or binary result sets, and builds COM_STMT_EXECUTE packets.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import struct
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

from rampmeter.protocol import events as ev
from rampmeter.protocol.connection import NEED_DATA, ServerProtocol
from rampmeter.protocol.constants import Capability, ColumnType, ServerStatus

MAX_CHUNK = 0xFFFFFF
CLIENT_CAPS = (
    Capability.LONG_PASSWORD | Capability.LONG_FLAG | Capability.PROTOCOL_41
    | Capability.TRANSACTIONS | Capability.SECURE_CONNECTION | Capability.MULTI_RESULTS
    | Capability.MULTI_STATEMENTS | Capability.PLUGIN_AUTH
    | Capability.PLUGIN_AUTH_LENENC_CLIENT_DATA | Capability.CONNECT_ATTRS
    | Capability.PS_MULTI_RESULTS
)


# --- framing ---------------------------------------------------------------------------------
def frame(payload: bytes, seq: int) -> bytes:
    """Split at 0xFFFFFF as the protocol docs say (an exact multiple ends with an empty chunk)."""
    out = bytearray()
    pos = 0
    while True:
        chunk = payload[pos:pos + MAX_CHUNK]
        out += struct.pack("<I", len(chunk))[:3] + bytes((seq & 0xFF,)) + chunk
        seq += 1
        pos += len(chunk)
        if len(chunk) < MAX_CHUNK:
            return bytes(out)


def unframe(data: bytes) -> list[tuple[int, bytes]]:
    """Every complete (first seq, joined payload) in `data`; asserts nothing is left over."""
    out: list[tuple[int, bytes]] = []
    pos = 0
    parts: list[bytes] = []
    first_seq = None
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 3], "little")
        seq = data[pos + 3]
        assert pos + 4 + n <= len(data), "truncated packet in server output"
        parts.append(data[pos + 4:pos + 4 + n])
        if first_seq is None:
            first_seq = seq
        pos += 4 + n
        if n < MAX_CHUNK:
            out.append((first_seq, b"".join(parts)))
            parts, first_seq = [], None
    assert not parts
    return out


# --- basic types -----------------------------------------------------------------------------
def lenenc(n: int) -> bytes:
    if n < 251:
        return bytes((n,))
    if n < 1 << 16:
        return b"\xfc" + n.to_bytes(2, "little")
    if n < 1 << 24:
        return b"\xfd" + n.to_bytes(3, "little")
    return b"\xfe" + n.to_bytes(8, "little")


def lenenc_str(b: bytes) -> bytes:
    return lenenc(len(b)) + b


class Cursor:
    def __init__(self, data: bytes, pos: int = 0) -> None:
        self.data, self.pos = data, pos

    def take(self, n: int) -> bytes:
        assert self.pos + n <= len(self.data), "client: packet too short"
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def int(self, n: int) -> int:
        return int.from_bytes(self.take(n), "little")

    def lenenc(self) -> int | None:
        first = self.int(1)
        if first < 251:
            return first
        if first == 0xFB:
            return None
        return self.int({0xFC: 2, 0xFD: 3, 0xFE: 8}[first])

    def lenenc_str(self) -> bytes | None:
        n = self.lenenc()
        return None if n is None else self.take(n)

    def nul(self) -> bytes:
        end = self.data.index(b"\0", self.pos)
        out, self.pos = self.data[self.pos:end], end + 1
        return out

    def rest(self) -> bytes:
        out, self.pos = self.data[self.pos:], len(self.data)
        return out


# --- client-side auth ------------------------------------------------------------------------
def native_scramble(password: bytes, scramble: bytes) -> bytes:
    if not password:
        return b""
    s1 = hashlib.sha1(password).digest()
    s2 = hashlib.sha1(s1).digest()
    mask = hashlib.sha1(scramble[:20] + s2).digest()
    return bytes(a ^ b for a, b in zip(s1, mask))


def sha2_scramble(password: bytes, scramble: bytes) -> bytes:
    if not password:
        return b""
    p1 = hashlib.sha256(password).digest()
    p2 = hashlib.sha256(p1).digest()
    p3 = hashlib.sha256(p2 + scramble[:20]).digest()
    return bytes(a ^ b for a, b in zip(p1, p3))


def rsa_encrypt_password(password: bytes, scramble: bytes, public_pem: bytes) -> bytes:
    plain = bytes(b ^ scramble[i % 20] for i, b in enumerate(password + b"\0"))
    key = serialization.load_pem_public_key(public_pem)
    return key.encrypt(plain, padding.OAEP(mgf=padding.MGF1(hashes.SHA1()),  # type: ignore[union-attr]
                                           algorithm=hashes.SHA1(), label=None))


def plugin_response(plugin: str, password: bytes, scramble: bytes) -> bytes:
    if plugin == "caching_sha2_password":
        return sha2_scramble(password, scramble)
    return native_scramble(password, scramble)


# --- parsed server packets -------------------------------------------------------------------
@dataclass
class Greeting:
    version: str
    connection_id: int
    scramble: bytes
    capabilities: Capability
    charset: int
    status: int
    plugin: str
    auth_data_len: int


@dataclass
class Ok:
    affected_rows: int
    last_insert_id: int
    status: int
    warnings: int
    info: bytes
    header: int = 0


@dataclass
class Err:
    code: int
    sqlstate: str
    message: str


@dataclass
class Eof:
    warnings: int
    status: int


@dataclass
class ColumnDef:
    schema: str
    table: str
    org_table: str
    name: str
    org_name: str
    charset: int
    length: int
    type: int
    flags: int
    decimals: int
    default: bytes | None = None


@dataclass
class ResultSet:
    columns: list[ColumnDef]
    rows: list[tuple[Any, ...]]
    status: int
    warnings: int


def parse_greeting(payload: bytes) -> Greeting:
    c = Cursor(payload)
    assert c.int(1) == 10
    version = c.nul().decode()
    conn_id = c.int(4)
    part1 = c.take(8)
    assert c.int(1) == 0
    caps = c.int(2)
    charset = c.int(1)
    status = c.int(2)
    caps |= c.int(2) << 16
    auth_len = c.int(1)
    assert c.take(6) == bytes(6)
    caps |= c.int(4) << 32  # MariaDB's extended capabilities (the server is no CLIENT_MYSQL)
    part2 = c.take(max(13, auth_len - 8))
    assert part2.endswith(b"\0")
    plugin = c.nul().decode()
    assert c.pos == len(payload)
    return Greeting(version, conn_id, part1 + part2[:-1], Capability(caps), charset, status,
                    plugin, auth_len)


def parse_ok(payload: bytes) -> Ok:
    """Without SESSION_TRACK the info is a length-encoded string when present, as mysqld writes
    it and libmysqlclient reads it (the protocol docs' string<EOF> is not what servers send)."""
    c = Cursor(payload)
    header = c.int(1)
    affected, insert_id = c.lenenc(), c.lenenc()
    status, warnings = c.int(2), c.int(2)
    info = b""
    if c.pos < len(payload):
        info = c.lenenc_str() or b""
        assert c.pos == len(payload), "client: bytes after the OK info"
    return Ok(affected or 0, insert_id or 0, status, warnings, info, header)


def parse_err(payload: bytes) -> Err:
    c = Cursor(payload)
    assert c.int(1) == 0xFF
    code = c.int(2)
    assert c.take(1) == b"#"
    return Err(code, c.take(5).decode(), c.rest().decode())


def parse_generic(payload: bytes, deprecate_eof: bool = False) -> Ok | Err | Eof:
    """With CLIENT_DEPRECATE_EOF a 0xFE packet is an OK (as short as 7 bytes), else an EOF."""
    if payload[0] == 0xFF:
        return parse_err(payload)
    if payload[0] == 0xFE and len(payload) < 9 and not deprecate_eof:
        c = Cursor(payload, 1)
        return Eof(c.int(2), c.int(2))
    assert payload[0] in (0x00, 0xFE), payload[:1]
    return parse_ok(payload)


def parse_column(payload: bytes, field_list: bool = False) -> ColumnDef:
    c = Cursor(payload)
    assert c.lenenc_str() == b"def"
    names = [(c.lenenc_str() or b"").decode() for _ in range(5)]
    assert c.int(1) == 0x0C
    charset, length, type_, flags, decimals = c.int(2), c.int(4), c.int(1), c.int(2), c.int(1)
    assert c.take(2) == b"\0\0"
    default = None
    if field_list:
        default = c.lenenc_str()
    assert c.pos == len(payload)
    return ColumnDef(*names, charset, length, type_, flags, decimals, default)


def parse_text_row(payload: bytes, ncols: int) -> tuple[bytes | None, ...]:
    c = Cursor(payload)
    row = tuple(c.lenenc_str() for _ in range(ncols))
    assert c.pos == len(payload)
    return row


def parse_binary_row(payload: bytes, columns: list[ColumnDef]) -> tuple[Any, ...]:
    c = Cursor(payload)
    assert c.int(1) == 0x00
    bitmap = c.take((len(columns) + 9) // 8)
    row = []
    for i, col in enumerate(columns):
        bit = i + 2
        if bitmap[bit >> 3] & (1 << (bit & 7)):
            row.append(None)
        else:
            row.append(decode_binary(c, col.type, bool(col.flags & 32)))
    assert c.pos == len(payload)
    return tuple(row)


_INTS = {ColumnType.TINY: 1, ColumnType.SHORT: 2, ColumnType.YEAR: 2, ColumnType.LONG: 4,
         ColumnType.INT24: 4, ColumnType.LONGLONG: 8}


def decode_binary(c: Cursor, type_: int, unsigned: bool) -> Any:
    if type_ in _INTS:
        return int.from_bytes(c.take(_INTS[type_]), "little", signed=not unsigned)
    if type_ == ColumnType.DOUBLE:
        return struct.unpack("<d", c.take(8))[0]
    if type_ == ColumnType.FLOAT:
        return struct.unpack("<f", c.take(4))[0]
    if type_ in (ColumnType.DATE, ColumnType.DATETIME, ColumnType.TIMESTAMP):
        n = c.int(1)
        if n == 0:
            return "zero"
        y, mo, d = c.int(2), c.int(1), c.int(1)
        h = mi = s = us = 0
        if n >= 7:
            h, mi, s = c.int(1), c.int(1), c.int(1)
        if n == 11:
            us = c.int(4)
        if type_ == ColumnType.DATE:
            assert n == 4
            return dt.date(y, mo, d)
        return dt.datetime(y, mo, d, h, mi, s, us)
    if type_ == ColumnType.TIME:
        n = c.int(1)
        if n == 0:
            return dt.timedelta(0)
        neg, days, h, m, s = c.int(1), c.int(4), c.int(1), c.int(1), c.int(1)
        us = c.int(4) if n == 12 else 0
        td = dt.timedelta(days=days, hours=h, minutes=m, seconds=s, microseconds=us)
        return -td if neg else td
    return c.lenenc_str()


def encode_param(type_: int, value: Any, unsigned: bool = False) -> bytes:
    """One COM_STMT_EXECUTE value, as a client library would encode it."""
    if type_ in _INTS:
        return value.to_bytes(_INTS[type_], "little", signed=not unsigned)
    if type_ == ColumnType.DOUBLE:
        return struct.pack("<d", value)
    if type_ == ColumnType.FLOAT:
        return struct.pack("<f", value)
    if type_ in (ColumnType.DATE, ColumnType.DATETIME, ColumnType.TIMESTAMP):
        if isinstance(value, bytes):  # raw, for zero dates
            return value
        if not isinstance(value, dt.datetime):
            return struct.pack("<BHBB", 4, value.year, value.month, value.day)
        if value.microsecond:
            return struct.pack("<BHBBBBBI", 11, value.year, value.month, value.day, value.hour,
                               value.minute, value.second, value.microsecond)
        return struct.pack("<BHBBBBB", 7, value.year, value.month, value.day, value.hour,
                           value.minute, value.second)
    if type_ == ColumnType.TIME:
        neg = value < dt.timedelta(0)
        td = -value if neg else value
        h, rem = divmod(td.seconds, 3600)
        return struct.pack("<BBIBBBI", 12, neg, td.days, h, rem // 60, rem % 60,
                           td.microseconds)
    if isinstance(value, str):
        value = value.encode()
    return lenenc_str(value)


def stmt_execute(stmt_id: int, params: list[tuple[int, bool, Any]], *, bound: bool = True,
                 flags: int = 0, long_data: frozenset[int] = frozenset()) -> bytes:
    """params: (type, unsigned, value); value None is NULL; indexes in `long_data` are sent
    without a value (their data went by COM_STMT_SEND_LONG_DATA)."""
    out = bytearray(b"\x17" + struct.pack("<IBI", stmt_id, flags, 1))
    if params:
        bitmap = bytearray((len(params) + 7) // 8)
        for i, (_, _, v) in enumerate(params):
            if v is None:
                bitmap[i // 8] |= 1 << (i % 8)
        out += bitmap + bytes((1 if bound else 0,))
        if bound:
            for t, unsigned, _ in params:
                out += bytes((t, 0x80 if unsigned else 0))
        for i, (t, unsigned, v) in enumerate(params):
            if v is not None and i not in long_data:
                out += encode_param(t, v, unsigned)
    return bytes(out)


# --- the client ------------------------------------------------------------------------------
@dataclass
class Client:
    caps: Capability = CLIENT_CAPS
    greeting: Greeting | None = None
    seq: int = 0
    inbox: list[tuple[int, bytes]] = field(default_factory=list)
    tls: bool = False
    public_key: bytes | None = None
    password: bytes = b""
    plugin: str = ""

    @property
    def deprecate_eof(self) -> bool:
        assert self.greeting is not None
        return bool(self.caps & self.greeting.capabilities & Capability.DEPRECATE_EOF)

    def receive(self, data: bytes) -> None:
        self.inbox += unframe(data)

    def read(self) -> bytes:
        """The next server payload; checks its sequence id."""
        assert self.inbox, "client: expected a packet from the server"
        seq, payload = self.inbox.pop(0)
        assert seq == self.seq, f"server packet seq {seq}, expected {self.seq}"
        self.seq = (seq + 1 + (len(payload) // MAX_CHUNK)) & 0xFF
        return payload

    def send(self, payload: bytes, *, command: bool = False) -> bytes:
        if command:
            self.seq = 0
            assert not self.inbox, f"unread server packets: {self.inbox}"
        data = frame(payload, self.seq)
        self.seq = (self.seq + 1 + len(payload) // MAX_CHUNK) & 0xFF
        return data

    # connection phase
    def read_greeting(self) -> Greeting:
        self.greeting = parse_greeting(self.read())
        return self.greeting

    def ssl_request(self) -> bytes:
        return self.send(struct.pack("<IIB23s", int(self.caps | Capability.SSL), 1 << 24, 45,
                                     b""))

    def handshake_response(self, user: str, password: bytes, *, plugin: str | None = None,
                           database: str | None = None, attrs: dict[str, str] | None = None,
                           charset: int = 45, auth: bytes | None = None) -> bytes:
        assert self.greeting is not None
        self.password = password
        self.plugin = plugin or self.greeting.plugin
        caps = self.caps | (Capability.SSL if self.tls else 0)
        if database is not None:
            caps |= Capability.CONNECT_WITH_DB
        if auth is None:
            auth = plugin_response(self.plugin, password, self.greeting.scramble)
        out = struct.pack("<IIB23s", int(caps), 1 << 24, charset, b"") + user.encode() + b"\0"
        if caps & Capability.PLUGIN_AUTH_LENENC_CLIENT_DATA:
            out += lenenc_str(auth)
        else:
            out += bytes((len(auth),)) + auth
        if database is not None:
            out += database.encode() + b"\0"
        if caps & Capability.PLUGIN_AUTH:
            out += self.plugin.encode() + b"\0"
        if caps & Capability.CONNECT_ATTRS:
            body = b"".join(lenenc_str(k.encode()) + lenenc_str(v.encode())
                            for k, v in (attrs or {}).items())
            out += lenenc_str(body)
        return self.send(out)

    def change_user(self, user: str, password: bytes, *, plugin: str = "mysql_native_password",
                    database: str = "", charset: int = 33) -> bytes:
        assert self.greeting is not None
        self.password, self.plugin = password, plugin
        auth = plugin_response(plugin, password, self.greeting.scramble)
        payload = (b"\x11" + user.encode() + b"\0" + bytes((len(auth),)) + auth
                   + database.encode() + b"\0" + struct.pack("<H", charset)
                   + plugin.encode() + b"\0" + lenenc_str(b""))
        return self.send(payload, command=True)

    def auth_reply(self, payload: bytes) -> bytes | None:
        """React to one auth packet from the server: the bytes to send back, or None."""
        assert self.greeting is not None
        if payload[0] == 0xFE:  # AuthSwitchRequest
            c = Cursor(payload, 1)
            self.plugin = c.nul().decode()
            data = c.rest()
            assert data.endswith(b"\0") and len(data) == 21
            self.greeting.scramble = data[:-1]
            return self.send(plugin_response(self.plugin, self.password, data[:-1]))
        assert payload[0] == 0x01, payload
        body = payload[1:]
        if body == b"\x03":
            return None  # fast auth succeeded; the OK follows
        if body == b"\x04":  # perform full authentication
            if self.tls:
                return self.send(self.password + b"\0")
            if self.public_key is None:
                return self.send(b"\x02")
            return self.send(rsa_encrypt_password(self.password, self.greeting.scramble,
                                                  self.public_key))
        assert body.startswith(b"-----BEGIN PUBLIC KEY-----"), body[:40]
        self.public_key = body
        return self.send(rsa_encrypt_password(self.password, self.greeting.scramble, body))

    # command phase
    def read_result(self, *, binary: bool = False) -> ResultSet | Ok | Err:
        first = self.read()
        if first[0] in (0x00, 0xFF):
            result = parse_generic(first)
            assert not isinstance(result, Eof)
            return result
        ncols = Cursor(first).lenenc()
        assert ncols
        columns = [parse_column(self.read()) for _ in range(ncols)]
        if not self.deprecate_eof:
            assert isinstance(parse_generic(self.read()), Eof)
        rows: list[tuple[Any, ...]] = []
        while True:
            payload = self.read()
            if payload[0] == 0xFE and len(payload) < MAX_CHUNK:
                end = parse_generic(payload, self.deprecate_eof)
                if self.deprecate_eof:
                    assert isinstance(end, Ok) and end.header == 0xFE
                else:
                    assert isinstance(end, Eof)
                assert isinstance(end, Ok | Eof)
                return ResultSet(columns, rows, end.status, end.warnings)
            if binary:
                rows.append(parse_binary_row(payload, columns))
            else:
                rows.append(parse_text_row(payload, ncols))

    def read_results(self, *, binary: bool = False) -> list[ResultSet | Ok | Err]:
        results: list[ResultSet | Ok | Err] = []
        while True:
            r = self.read_result(binary=binary)
            results.append(r)
            if isinstance(r, Err) or not r.status & ServerStatus.MORE_RESULTS_EXISTS:
                return results


# --- the in-memory pair ----------------------------------------------------------------------
@dataclass
class Pair:
    server: ServerProtocol
    client: Client = field(default_factory=Client)

    def start(self) -> Greeting:
        self.client.receive(self.server.greeting())
        return self.client.read_greeting()

    def to_server(self, data: bytes) -> list[ev.Event]:
        """Feed bytes to the server; its next event ([] on NEED_DATA). Auth bytes go to the
        client. One event at most: ServerProtocol's rule is to reply to an event before asking
        for the next one (the reply continues that event's sequence ids); `next_events()`
        fetches what is still buffered."""
        self.server.receive_data(data)
        return self.next_events()

    def next_events(self) -> list[ev.Event]:
        e = self.server.next_event()
        self.client.receive(self.server.data_to_send())
        if e is NEED_DATA:
            return []
        assert isinstance(e, ev.Event)
        return [e]

    def command(self, payload: bytes) -> list[ev.Event]:
        return self.to_server(self.client.send(payload, command=True))

    def login(self, user: str, password: bytes, *, plugin: str | None = None,
              database: str | None = None, attrs: dict[str, str] | None = None,
              tls: bool = False) -> tuple[list[ev.Event], Ok | Err]:
        """Run the whole connection phase; the caller's part (reply ok/error) is done here."""
        self.start()
        events: list[ev.Event] = []
        if tls:
            events += self.to_server(self.client.ssl_request())
            assert isinstance(events[-1], ev.StartTLS)
            self.server.tls_established()
            self.client.tls = True
        pending = self.to_server(self.client.handshake_response(
            user, password, plugin=plugin, database=database, attrs=attrs))
        events += pending
        while True:
            for e in pending:  # the caller's part of the conversation
                if isinstance(e, ev.Authenticated):
                    self.client.receive(self.server.ok(status=ServerStatus.AUTOCOMMIT))
                elif isinstance(e, ev.AccessDenied):
                    self.client.receive(self.server.error(1045, "28000", "Access denied"))
            pending = []
            assert self.client.inbox, f"login stalled after {events}"
            payload = self.client.read()
            if payload[0] in (0x00, 0xFF):
                result = parse_generic(payload)
                assert not isinstance(result, Eof)
                return events, result
            reply = self.client.auth_reply(payload)
            if reply is not None:
                pending = self.to_server(reply)
                events += pending
