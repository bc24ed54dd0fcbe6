# The built-in load generator's MySQL client: just enough of the client side of the wire protocol
# to log in and run text queries, on asyncio, at a few microseconds of CPU per statement.
#
# Rules:
# - This is a CLIENT. It never imports rampmeter's server modules (DESIGN.md: bench imports only
#   client libraries), so it measures MariaDB exactly as it measures rampmeter. The password
#   scrambles and the RSA step of caching_sha2_password come from PyMySQL's helpers.
# - One asyncio.Protocol per connection parses packets as they arrive and assembles a whole
#   response (OK, ERR, or a text result set, several if SERVER_MORE_RESULTS_EXISTS) before it wakes
#   the awaiting task once. Rows are counted, and decoded only on request. Why not aiomysql:
#   measured on this 2-core box against MariaDB 10.11, `SELECT 1` from 64 connections costs
#   aiomysql 44 us of client CPU per statement (27 us on uvloop): StreamReader, a Cursor, field
#   descriptor objects, value converters. This client costs 24 us (10 us on uvloop), i.e. one
#   core drives ~99k statements/s at 64 connections and ~59k/s at 2048, where aiomysql would
#   cap the bench near 22-37k/s, below what MariaDB serves (sysbench: 68k point selects/s).
# - Text protocol only (COM_QUERY, COM_QUIT); we never ask for CLIENT_DEPRECATE_EOF, so result
#   sets end with classic EOF packets on every server. No TLS, no LOCAL INFILE, no compression.
# - A failure is an exception: MySQLError(code, message) for an ERR packet (the connection stays
#   usable), ConnectionLost when the socket closes (it does not).

from __future__ import annotations

import asyncio
import struct
from collections import deque
from dataclasses import dataclass, field

from pymysql import _auth

# Capability flags (include/mysql_com.h).
CLIENT_LONG_PASSWORD = 0x1
CLIENT_LONG_FLAG = 0x4
CLIENT_CONNECT_WITH_DB = 0x8
CLIENT_PROTOCOL_41 = 0x200
CLIENT_TRANSACTIONS = 0x2000
CLIENT_SECURE_CONNECTION = 0x8000
CLIENT_MULTI_RESULTS = 0x20000
CLIENT_PLUGIN_AUTH = 0x80000
CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA = 0x200000
_WANTED = (CLIENT_LONG_PASSWORD | CLIENT_LONG_FLAG | CLIENT_PROTOCOL_41 | CLIENT_TRANSACTIONS
           | CLIENT_SECURE_CONNECTION | CLIENT_MULTI_RESULTS | CLIENT_PLUGIN_AUTH
           | CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA)
SERVER_MORE_RESULTS_EXISTS = 0x8
COM_QUIT = 0x01
COM_QUERY = 0x03
UTF8MB4_GENERAL_CI = 45
MAX_PACKET = 0xFFFFFF
CR_SERVER_LOST = 2013  # libmysqlclient's code for "Lost connection to server during query"


class MySQLError(Exception):
    """An ERR packet: the statement failed, the connection is still usable."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(f"({code}) {message}")
        self.code = code
        self.message = message


class ConnectionLost(MySQLError):
    """The socket closed or broke: the connection is gone."""

    def __init__(self, message: str = "Lost connection to server") -> None:
        super().__init__(CR_SERVER_LOST, message)


@dataclass(slots=True)
class Result:
    """What one statement returned: rows counted (and decoded when asked), or an OK's counts."""

    rows: int = 0
    affected: int = 0
    values: list[tuple[str | None, ...]] = field(default_factory=list)


def lenenc(data: bytes, pos: int) -> tuple[int, int]:
    """A length-encoded integer at `pos`: (value, position after it)."""
    first = data[pos]
    if first < 0xFB:
        return first, pos + 1
    if first == 0xFC:
        return data[pos + 1] | data[pos + 2] << 8, pos + 3
    if first == 0xFD:
        return data[pos + 1] | data[pos + 2] << 8 | data[pos + 3] << 16, pos + 4
    return struct.unpack_from("<Q", data, pos + 1)[0], pos + 9


def decode_row(data: bytes) -> tuple[str | None, ...]:
    """A text-protocol row: length-encoded strings, 0xFB for NULL."""
    out: list[str | None] = []
    pos, end = 0, len(data)
    while pos < end:
        if data[pos] == 0xFB:
            out.append(None)
            pos += 1
            continue
        n, pos = lenenc(data, pos)
        out.append(data[pos:pos + n].decode("utf-8", "replace"))
        pos += n
    return tuple(out)


def parse_error(payload: bytes) -> MySQLError:
    code = payload[1] | payload[2] << 8
    msg = payload[3:]
    if msg[:1] == b"#":  # '#' + 5-byte SQLSTATE
        msg = msg[6:]
    return MySQLError(code, msg.decode("utf-8", "replace"))


# Response assembly states.
_FIRST, _COLUMNS, _COLUMNS_EOF, _ROWS = range(4)


class _Wire(asyncio.Protocol):
    """Packet framing plus the assembly of one response at a time."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.partial = b""  # payload of a packet split at 16 MiB, waiting for its tail
        self.seq = 0
        self.raw: deque[bytes] | None = deque()  # handshake phase: packets one by one
        self.waiter: asyncio.Future[object] | None = None
        self.lost: ConnectionLost | None = None
        self.result: Result | None = None
        self.error: MySQLError | None = None
        self.state = _FIRST
        self.columns = 0
        self.decode = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's is no subclass

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = ConnectionLost(f"Lost connection to server ({exc})" if exc else
                                   "Lost connection to server (closed by the server)")
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_exception(self.lost)

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        pos, n = 0, len(buf)
        while n - pos >= 4:
            length = buf[pos] | buf[pos + 1] << 8 | buf[pos + 2] << 16
            end = pos + 4 + length
            if end > n:
                break
            self.seq = buf[pos + 3]
            payload = bytes(buf[pos + 4:end])
            pos = end
            if length == MAX_PACKET:
                self.partial += payload
                continue
            if self.partial:
                payload, self.partial = self.partial + payload, b""
            self._packet(payload)
        if pos:
            del buf[:pos]

    def _wake(self, value: object) -> None:
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(value)

    def _packet(self, p: bytes) -> None:
        if self.raw is not None:
            self.raw.append(p)
            self._wake(None)
            return
        result = self.result
        if result is None:
            return  # nothing asked: stray packet (cannot happen with a sane server)
        state = self.state
        head = p[0] if p else 0
        if state == _ROWS:
            if head == 0xFE and len(p) < 9:
                self._end(p[3] | p[4] << 8 if len(p) >= 5 else 0)
            elif head == 0xFF:
                self.error = parse_error(p)
                self._finish()
            else:
                result.rows += 1
                if self.decode:
                    result.values.append(decode_row(p))
        elif state == _FIRST:
            if head == 0x00:
                affected, pos = lenenc(p, 1)
                _, pos = lenenc(p, pos)
                result.affected += affected
                self._end(p[pos] | p[pos + 1] << 8 if len(p) >= pos + 2 else 0)
            elif head == 0xFF:
                self.error = parse_error(p)
                self._finish()
            elif head == 0xFB:
                self.error = MySQLError(2000, "LOCAL INFILE is not supported by the bench client")
                self._finish()
            else:
                self.columns, _ = lenenc(p, 0)
                self.state = _COLUMNS
        elif state == _COLUMNS:
            self.columns -= 1
            if self.columns == 0:
                self.state = _COLUMNS_EOF
        else:  # _COLUMNS_EOF: the EOF after the column definitions
            self.state = _ROWS

    def _end(self, status: int) -> None:
        if status & SERVER_MORE_RESULTS_EXISTS:
            self.state = _FIRST
        else:
            self._finish()

    def _finish(self) -> None:
        result, self.result = self.result, None
        self._wake(result)


class Connection:
    """One client connection. Not safe for concurrent use: one statement at a time."""

    def __init__(self, wire: _Wire, server_version: str, connection_id: int) -> None:
        self._wire = wire
        self.server_version = server_version
        self.connection_id = connection_id

    @classmethod
    async def connect(cls, host: str, port: int, user: str = "root", password: str = "",
                      database: str = "", timeout: float = 10.0) -> Connection:
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(timeout):
            _, wire = await loop.create_connection(_Wire, host, port)
            try:
                return await _login(wire, user, password, database)
            except BaseException:
                if wire.transport is not None:
                    wire.transport.abort()
                raise

    @property
    def closed(self) -> bool:
        return self._wire.lost is not None

    async def query(self, sql: str, decode: bool = False) -> Result:
        """Run one statement; raise MySQLError for an ERR packet, ConnectionLost if gone."""
        wire = self._wire
        if wire.lost is not None:
            raise wire.lost
        body = sql.encode("utf-8")
        wire.result = Result()
        wire.error = None
        wire.state = _FIRST
        wire.decode = decode
        _send(wire, 0, bytes((COM_QUERY,)) + body)
        waiter = wire.waiter = asyncio.get_running_loop().create_future()
        try:
            result = await waiter
        except asyncio.CancelledError:
            self.abort()  # a half-read response leaves the stream unusable
            raise
        if wire.error is not None:
            raise wire.error
        assert isinstance(result, Result)
        return result

    def abort(self) -> None:
        if self._wire.transport is not None:
            self._wire.transport.abort()
        if self._wire.lost is None:
            self._wire.lost = ConnectionLost("connection closed by the client")

    def close(self) -> None:
        """COM_QUIT and close, without waiting."""
        wire = self._wire
        if wire.lost is None and wire.transport is not None and not wire.transport.is_closing():
            _send(wire, 0, bytes((COM_QUIT,)))
            wire.transport.close()
        if wire.lost is None:
            wire.lost = ConnectionLost("connection closed by the client")


def _send(wire: _Wire, seq: int, payload: bytes) -> None:
    assert wire.transport is not None
    out = []
    while True:  # a payload of 16 MiB - 1 or more goes out in several packets
        chunk, payload = payload[:MAX_PACKET], payload[MAX_PACKET:]
        out.append(len(chunk).to_bytes(3, "little") + bytes((seq & 0xFF,)) + chunk)
        seq += 1
        if len(chunk) < MAX_PACKET:
            break
    wire.transport.write(b"".join(out))


async def _next_packet(wire: _Wire) -> bytes:
    assert wire.raw is not None
    while not wire.raw:
        if wire.lost is not None:
            raise wire.lost
        wire.waiter = asyncio.get_running_loop().create_future()
        await wire.waiter
    return wire.raw.popleft()


def _auth_response(plugin: bytes, password: str, scramble: bytes) -> bytes:
    pw = password.encode("utf-8")
    if plugin == b"caching_sha2_password":
        return _auth.scramble_caching_sha2(pw, scramble) if pw else b""
    if plugin == b"mysql_clear_password":
        return pw + b"\0"
    return _auth.scramble_native_password(pw, scramble) if pw else b""


async def _login(wire: _Wire, user: str, password: str, database: str) -> Connection:
    hello = await _next_packet(wire)
    if hello[0] == 0xFF:
        raise parse_error(hello)  # e.g. 1040 Too many connections, sent before the handshake
    end = hello.index(b"\0", 1)
    version = hello[1:end].decode("utf-8", "replace")
    pos = end + 1
    conn_id = struct.unpack_from("<I", hello, pos)[0]
    scramble = hello[pos + 4:pos + 12]
    caps = struct.unpack_from("<H", hello, pos + 13)[0]
    plugin = b"mysql_native_password"
    pos += 15
    if len(hello) > pos:
        caps |= struct.unpack_from("<H", hello, pos + 3)[0] << 16
        data_len = hello[pos + 5]
        pos += 16
        part2 = max(13, data_len - 8)
        scramble += hello[pos:pos + part2].rstrip(b"\0")[:12]
        pos += part2
        if caps & CLIENT_PLUGIN_AUTH and pos < len(hello):
            plugin = hello[pos:].split(b"\0", 1)[0]
    flags = _WANTED & caps | CLIENT_PROTOCOL_41
    if database:
        flags |= CLIENT_CONNECT_WITH_DB
    auth = _auth_response(plugin, password, scramble)
    body = struct.pack("<IIB23x", flags, MAX_PACKET, UTF8MB4_GENERAL_CI)
    body += user.encode("utf-8") + b"\0"
    # One length byte: a lenenc integer below 251 (LENENC_CLIENT_DATA) and the 1-byte length of
    # CLIENT_SECURE_CONNECTION coincide, and every scramble here is shorter than that.
    body += bytes((len(auth),)) + auth
    if database:
        body += database.encode("utf-8") + b"\0"
    body += plugin + b"\0"
    _send(wire, wire.seq + 1, body)
    await _finish_auth(wire, plugin, password, scramble)
    wire.raw = None
    return Connection(wire, version, conn_id)


async def _finish_auth(wire: _Wire, plugin: bytes, password: str, scramble: bytes) -> None:
    while True:
        p = await _next_packet(wire)
        head = p[0]
        if head == 0x00:
            return
        if head == 0xFF:
            raise parse_error(p)
        if head == 0xFE:  # AuthSwitchRequest: plugin name NUL, new scramble
            end = p.index(b"\0", 1)
            plugin = p[1:end]
            scramble = p[end + 1:].rstrip(b"\0")
            _send(wire, wire.seq + 1, _auth_response(plugin, password, scramble))
        elif head == 0x01 and plugin == b"caching_sha2_password":
            if p[1:2] == b"\x03":  # fast auth succeeded; an OK follows
                continue
            if p[1:2] == b"\x04":  # full auth: ask for the RSA public key
                _send(wire, wire.seq + 1, b"\x02")
                key = (await _next_packet(wire))[1:]
                secret = _auth.sha2_rsa_encrypt(password.encode("utf-8"), scramble, key)
                _send(wire, wire.seq + 1, secret)
            else:
                raise MySQLError(2059, f"unexpected caching_sha2_password data {p[1:2]!r}")
        else:
            raise MySQLError(2059, f"authentication plugin {plugin.decode()!r} not supported")


@dataclass(frozen=True)
class Endpoint:
    """Where a target listens and how to log in (the bench's database included)."""

    host: str
    port: int
    user: str = "root"
    password: str = ""
    database: str = "sbtest"

    async def connect(self, database: str | None = None, timeout: float = 10.0) -> Connection:
        db = self.database if database is None else database
        return await Connection.connect(self.host, self.port, self.user, self.password, db,
                                        timeout)

    def __str__(self) -> str:
        return f"{self.user}@{self.host}:{self.port}/{self.database}"
