"""The binary protocol spoken directly (COM_STMT_PREPARE / EXECUTE / CLOSE) over a PyMySQL
connection, so a test sees every field of the column definitions (decimals, charset, flags,
length) in the prepare answer and in the execute answer, and the rows as sent.

Rules:
- PyMySQL does the handshake and packet framing; this module only builds the COM_STMT_* payloads
  and reads the answers with PyMySQL's packet reader (an ERR packet raises, with SQLSTATE).
- Parameters: None, int (LONGLONG, unsigned above 2**63-1), float (DOUBLE), Decimal (NEWDECIMAL),
  str (VAR_STRING, utf8mb4), bytes (BLOB), datetime/date (DATETIME/DATE). Enough for the tests.
- Rows are decoded per the execute answer's column types (unsigned flag honoured; dates and
  times as datetime values, zero dates as tuples; strings of charset 63 stay bytes, others are
  decoded as UTF-8, left as bytes when that fails) and kept raw as well. The client does not set CLIENT_DEPRECATE_EOF (PyMySQL does not), so every list
  of definitions ends with an EOF packet.
"""

from __future__ import annotations

import datetime
import decimal
import struct
from collections.abc import Sequence
from typing import Any

import pymysql
from pymysql.constants import COMMAND
from pymysql.protocol import EOFPacketWrapper, FieldDescriptorPacket, OKPacketWrapper

from tests.compat.drivers import Column, Options, Outcome, PyMySQLDriver, Step
from tests.compat.servers import Endpoint

UNSIGNED_FLAG = 32
T = {"DECIMAL": 0, "TINY": 1, "SHORT": 2, "LONG": 3, "FLOAT": 4, "DOUBLE": 5, "NULL": 6,
     "TIMESTAMP": 7, "LONGLONG": 8, "INT24": 9, "DATE": 10, "TIME": 11, "DATETIME": 12,
     "YEAR": 13, "NEWDECIMAL": 246, "BLOB": 252, "VAR_STRING": 253}
_INT_FORMATS = {1: "b", 2: "h", 3: "i", 9: "i", 8: "q", 13: "h"}


def _lenenc(data: bytes) -> bytes:
    n = len(data)
    if n < 251:
        head = bytes([n])
    elif n < 1 << 16:
        head = b"\xfc" + struct.pack("<H", n)
    elif n < 1 << 24:
        head = b"\xfd" + struct.pack("<I", n)[:3]
    else:
        head = b"\xfe" + struct.pack("<Q", n)
    return head + data


def encode_param(value: Any) -> tuple[int, int, bytes]:
    """(type, unsigned flag byte, value bytes) of one parameter."""
    if value is None:
        return T["NULL"], 0, b""
    if isinstance(value, bool | int):
        if value > (1 << 63) - 1:
            return T["LONGLONG"], 0x80, struct.pack("<Q", value)
        return T["LONGLONG"], 0, struct.pack("<q", value)
    if isinstance(value, float):
        return T["DOUBLE"], 0, struct.pack("<d", value)
    if isinstance(value, decimal.Decimal):
        return T["NEWDECIMAL"], 0, _lenenc(str(value).encode())
    if isinstance(value, str):
        return T["VAR_STRING"], 0, _lenenc(value.encode("utf-8"))
    if isinstance(value, bytes | bytearray):
        return T["BLOB"], 0, _lenenc(bytes(value))
    if isinstance(value, datetime.datetime):
        body = struct.pack("<HBBBBBI", value.year, value.month, value.day, value.hour,
                           value.minute, value.second, value.microsecond)
        return T["DATETIME"], 0, bytes([len(body)]) + body
    if isinstance(value, datetime.date):
        body = struct.pack("<HBB", value.year, value.month, value.day)
        return T["DATE"], 0, bytes([len(body)]) + body
    raise TypeError(f"raw-bin cannot send {type(value).__name__}")


def execute_payload(stmt_id: int, params: Sequence[Any]) -> bytes:
    payload = struct.pack("<IBI", stmt_id, 0, 1)
    if params:
        bitmap = bytearray((len(params) + 7) // 8)
        types, values = b"", b""
        for i, value in enumerate(params):
            kind, unsigned, data = encode_param(value)
            if value is None:
                bitmap[i // 8] |= 1 << (i % 8)
            types += bytes([kind, unsigned])
            values += data
        payload += bytes(bitmap) + b"\x01" + types + values
    return payload


def _read_lenenc(data: bytes, pos: int) -> tuple[bytes, int]:
    first = data[pos]
    if first < 251:
        n, pos = first, pos + 1
    elif first == 0xFC:
        n, pos = struct.unpack_from("<H", data, pos + 1)[0], pos + 3
    elif first == 0xFD:
        n, pos = int.from_bytes(data[pos + 1:pos + 4], "little"), pos + 4
    else:
        n, pos = struct.unpack_from("<Q", data, pos + 1)[0], pos + 9
    return data[pos:pos + n], pos + n


def decode_row(data: bytes, cols: Sequence[Column]) -> tuple[Any, ...]:
    """One binary-protocol row packet (0x00, NULL bitmap with offset 2, values)."""
    n = len(cols)
    bitmap = data[1:1 + (n + 9) // 8]
    pos = 1 + len(bitmap)
    out: list[Any] = []
    for i, col in enumerate(cols):
        bit = i + 2
        if bitmap[bit // 8] & (1 << (bit % 8)):
            out.append(None)
            continue
        t, unsigned = col.type_code, bool((col.flags or 0) & UNSIGNED_FLAG)
        if t in _INT_FORMATS:
            fmt = _INT_FORMATS[t]
            size = struct.calcsize(fmt)
            out.append(struct.unpack_from("<" + (fmt.upper() if unsigned else fmt), data, pos)[0])
            pos += size
        elif t == T["FLOAT"]:
            out.append(struct.unpack_from("<f", data, pos)[0])
            pos += 4
        elif t == T["DOUBLE"]:
            out.append(struct.unpack_from("<d", data, pos)[0])
            pos += 8
        elif t in (T["DATE"], T["DATETIME"], T["TIMESTAMP"]):
            size = data[pos]
            body = data[pos + 1:pos + 1 + size] + bytes(11 - size)
            y, mo, d, h, mi, s, us = struct.unpack("<HBBBBBI", body)
            try:
                out.append(datetime.date(y, mo, d) if t == T["DATE"] else
                           datetime.datetime(y, mo, d, h, mi, s, us))
            except ValueError:  # zero dates: kept as the tuple of their fields
                out.append((y, mo, d) if t == T["DATE"] else (y, mo, d, h, mi, s, us))
            pos += 1 + size
        elif t == T["TIME"]:
            size = data[pos]
            body = data[pos + 1:pos + 1 + size] + bytes(12 - size)
            neg, days, h, mi, s, us = struct.unpack("<BIBBBI", body)
            delta = datetime.timedelta(days=days, hours=h, minutes=mi, seconds=s,
                                       microseconds=us)
            out.append(-delta if neg else delta)
            pos += 1 + size
        else:
            value, pos = _read_lenenc(data, pos)
            if t in (T["DECIMAL"], T["NEWDECIMAL"]):
                out.append(decimal.Decimal(value.decode()))
            elif col.charset == 63:
                out.append(bytes(value))
            else:
                try:
                    out.append(value.decode("utf-8"))
                except UnicodeDecodeError:
                    out.append(bytes(value))
    return tuple(out)


def _column(f: FieldDescriptorPacket) -> Column:
    return Column(f.name, f.type_code, f.length, f.scale, f.charsetnr, f.flags)


class RawBinaryDriver(PyMySQLDriver):
    name = "raw-bin"
    prepared = True

    def execute(self, conn: Any, step: Step, outcome: Outcome) -> None:
        assert not step.many, "raw-bin: one execution per step"
        sql = step.sql if isinstance(step.sql, bytes) else step.sql.replace("%s", "?").encode()
        conn._execute_command(COMMAND.COM_STMT_PREPARE, sql)
        head = conn._read_packet()
        head.read_uint8()
        stmt_id, ncols, nparams = head.read_uint32(), head.read_uint16(), head.read_uint16()
        try:
            for _ in range(nparams):
                conn._read_packet()
            if nparams:
                conn._read_packet()  # EOF
            prep = [_column(conn._read_packet(FieldDescriptorPacket)) for _ in range(ncols)]
            if ncols:
                conn._read_packet()  # EOF
            outcome.prepare_columns = tuple(prep)
            params = list(step.params or ())
            assert len(params) == nparams, f"{nparams} placeholders, {len(params)} params"
            conn._execute_command(COMMAND.COM_STMT_EXECUTE, execute_payload(stmt_id, params))
            self._read_execute(conn, outcome)
        finally:
            conn._execute_command(COMMAND.COM_STMT_CLOSE, struct.pack("<I", stmt_id))
        if outcome.warning_count:
            outcome.warnings = self.show_warnings(conn)

    def _read_execute(self, conn: Any, outcome: Outcome) -> None:
        first = conn._read_packet()
        if first.is_ok_packet():
            ok = OKPacketWrapper(first)
            outcome.rowcount, outcome.lastrowid = ok.affected_rows, ok.insert_id
            outcome.warning_count = ok.warning_count
            return
        ncols = first.read_length_encoded_integer()
        cols = tuple(_column(conn._read_packet(FieldDescriptorPacket)) for _ in range(ncols))
        conn._read_packet()  # EOF after the definitions
        raw: list[bytes] = []
        while True:
            pkt = conn._read_packet()
            if pkt.is_eof_packet():
                outcome.warning_count = EOFPacketWrapper(pkt).warning_count
                break
            raw.append(pkt.get_all_data())
        outcome.columns = cols
        outcome.raw_rows = tuple(raw)
        outcome.rows = tuple(decode_row(r, cols) for r in raw)
        outcome.rowcount = len(raw)

    def show_warnings(self, conn: Any) -> tuple[tuple[str, int, str], ...]:
        with conn.cursor() as cur:
            cur.execute("SHOW WARNINGS")
            return tuple((str(r[0]), int(r[1]), str(r[2])) for r in cur.fetchall())


def connect(ep: Endpoint, database: str, opts: Options | None = None) -> pymysql.Connection:
    return RawBinaryDriver().connect(ep, database, opts or Options())
