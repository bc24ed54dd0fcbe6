"""The bench's own MySQL client against a scripted fake server on 127.0.0.1:0 (no real server):
handshake and scramble, result sets, OK, ERR, multi-results, 1040 before the handshake, loss."""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Awaitable

import pytest
from pymysql import _auth

from rampmeter.bench import wire
from rampmeter.bench.wire import Connection, ConnectionLost, MySQLError

pytestmark = pytest.mark.timeout(30)
SCRAMBLE = b"abcdefghijklmnopqrst"


def packet(seq: int, payload: bytes) -> bytes:
    return len(payload).to_bytes(3, "little") + bytes((seq,)) + payload


def lenenc_str(s: bytes) -> bytes:
    return bytes((len(s),)) + s


def handshake() -> bytes:
    caps = 0xFFFFF7FF & ~wire.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA
    return (b"\x0a" + b"5.5.5-fake\0" + struct.pack("<I", 42) + SCRAMBLE[:8] + b"\0"
            + struct.pack("<HBHH", caps & 0xFFFF, 45, 2, caps >> 16) + bytes((21,)) + b"\0" * 10
            + SCRAMBLE[8:] + b"\0" + b"mysql_native_password\0")


OK = b"\x00\x00\x00\x02\x00\x00\x00"
EOF_PKT = b"\xfe\x00\x00\x02\x00"


def result_set(rows: list[list[bytes | None]], more: bool = False) -> list[bytes]:
    cols = [b"\x03def" + b"\x00" * 20 for _ in rows[0]] if rows else [b"\x03def"]
    out = [bytes((len(cols),)), *cols, EOF_PKT]
    out += [b"".join(b"\xfb" if v is None else lenenc_str(v) for v in row) for row in rows]
    out.append(b"\xfe\x00\x00" + struct.pack("<H", 0x0A if more else 0x02))
    return out


async def read_packet(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readexactly(4)
    n = int.from_bytes(head[:3], "little")
    return head[3], await reader.readexactly(n)


async def serve_queries(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(packet(0, handshake()))
    seq, login = await read_packet(reader)
    user_end = login.index(b"\0", 32)
    assert login[32:user_end] == b"bench"
    auth_len = login[user_end + 1]
    auth = login[user_end + 2:user_end + 2 + auth_len]
    if auth != _auth.scramble_native_password(b"pw", SCRAMBLE):
        writer.write(packet(seq + 1, b"\xff\x15\x04#28000Access denied for user 'bench'"))
        await writer.drain()
        writer.close()
        return
    writer.write(packet(seq + 1, OK))
    while True:
        try:
            _, cmd = await read_packet(reader)
        except asyncio.IncompleteReadError:
            return
        if cmd[0] == wire.COM_QUIT:
            writer.close()
            return
        sql = cmd[1:]
        if sql == b"SELECT 1":
            replies = result_set([[b"1", None]])
        elif sql == b"MULTI":
            replies = result_set([[b"a"]], more=True) + result_set([[b"b"], [b"c"]])
        elif sql == b"UPDATE":
            replies = [b"\x00\x03\x00\x02\x00\x00\x00"]
        elif sql == b"BAD":
            replies = [b"\xff\x28\x04#42000You have an error in your SQL syntax"]
        else:  # "DIE"
            writer.close()
            return
        # one write, one byte at a time or all at once: the client must not care
        data = b"".join(packet(i + 1, p) for i, p in enumerate(replies))
        if sql == b"MULTI":
            for i in range(len(data)):
                writer.write(data[i:i + 1])
                await writer.drain()
        else:
            writer.write(data)
        await writer.drain()




def run(coro: Awaitable[None]) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


def test_login_and_queries() -> None:
    async def main() -> None:
        server = await asyncio.start_server(serve_queries, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        conn = await Connection.connect("127.0.0.1", port, "bench", "pw", "sbtest")
        assert conn.server_version == "5.5.5-fake" and conn.connection_id == 42
        r = await conn.query("SELECT 1", decode=True)
        assert r.rows == 1 and r.values == [("1", None)]
        r = await conn.query("MULTI", decode=True)
        assert r.rows == 3 and r.values == [("a",), ("b",), ("c",)]
        assert (await conn.query("UPDATE")).affected == 3
        with pytest.raises(MySQLError) as err:
            await conn.query("BAD")
        assert err.value.code == 1064 and "SQL syntax" in err.value.message
        assert (await conn.query("SELECT 1")).rows == 1  # still usable after an ERR
        with pytest.raises(ConnectionLost):
            await conn.query("DIE")
        assert conn.closed
        with pytest.raises(ConnectionLost):
            await conn.query("SELECT 1")
        conn.close()
        server.close()
    run(main())


def test_wrong_password_is_an_error() -> None:
    async def main() -> None:
        server = await asyncio.start_server(serve_queries, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        with pytest.raises(MySQLError) as err:
            await Connection.connect("127.0.0.1", port, "bench", "nope", "")
        assert err.value.code == 1045
        server.close()
    run(main())


def test_too_many_connections_before_the_handshake() -> None:
    async def refuse(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(packet(0, b"\xff\x10\x04Too many connections"))
        await writer.drain()
        writer.close()

    async def main() -> None:
        server = await asyncio.start_server(refuse, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        with pytest.raises(MySQLError) as err:
            await Connection.connect("127.0.0.1", port)
        assert err.value.code == 1040
        server.close()
    run(main())


def test_refused_connection_is_an_oserror() -> None:
    async def main() -> None:
        server = await asyncio.start_server(serve_queries, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        server.close()
        await server.wait_closed()
        with pytest.raises(OSError):
            await Connection.connect("127.0.0.1", port, timeout=5)
    run(main())


def test_lenenc_and_rows() -> None:
    assert wire.lenenc(b"\xfa", 0) == (250, 1)
    assert wire.lenenc(b"\xfc\x01\x02", 0) == (0x0201, 3)
    assert wire.lenenc(b"\xfd\x01\x02\x03", 0) == (0x030201, 4)
    assert wire.lenenc(b"\xfe" + struct.pack("<Q", 2**40), 0) == (2**40, 9)
    assert wire.decode_row(b"\x02ab\xfb\x00") == ("ab", None, "")
    err = wire.parse_error(b"\xff\x10\x04Too many connections")
    assert (err.code, err.message) == (1040, "Too many connections")
