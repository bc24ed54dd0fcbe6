"""CHECKSUM TABLE t [, t ...] [QUICK | EXTENDED]: a (Table, Checksum) row per table.

MariaDB's checksum of a table with no live checksum (mysql_checksum_table, sql_table.cc) is the
sum, modulo 2^32, of one CRC-32 per row, computed over the row as the server's record format
holds it. We compute the same number from the stored values, so a checksum taken here equals
the one MariaDB gives for the same rows. Rules:
- A row's CRC starts over its null bytes, when the record has any: one bit per nullable column
  (set when NULL), plus a first bit of its own when the record is not packed (no VARCHAR, BLOB
  or TEXT column: MyISAM's static format), the unused high bits set. Then each column that is
  not NULL: VARCHAR, BLOB / TEXT and BIT by their value's bytes; the others by their fixed
  binary image (integers little-endian, FLOAT / DOUBLE as IEEE, DECIMAL in MariaDB's binary
  decimal format, DATE as 3 bytes, DATETIME / TIME / TIMESTAMP in the MySQL 5.6 formats MariaDB
  uses by default, CHAR padded with spaces to its byte length, ENUM / SET as their index /
  bitmask).
- QUICK reads a live checksum, which no table here keeps: NULL. An unknown table is NULL with
  the 1146 error as a warning; a view is NULL too (MariaDB).
- Known difference: MyISAM keeps the odd bits of a BIT(n) column among the null bits; we count
  a BIT column by its value's bytes only.
"""

from __future__ import annotations

import datetime as dt
import struct
import zlib
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import Result, ResultSet
from rampmeter.engine.sqlite.catalog import ColumnDef, TableDef, q
from rampmeter.engine.types import BLOB_BYTES, INTEGERS
from rampmeter.errors import ServerError, Warning_
from rampmeter.protocol.columns import int_column, text_column
from rampmeter.sql import charsets
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

_DIG2BYTES = (0, 1, 1, 2, 2, 3, 3, 4, 4, 4)
_FRAC_BYTES = (0, 1, 1, 2, 2, 3, 3)
_VARIABLE = frozenset({"varchar", "varbinary", "bit", "json", *BLOB_BYTES})


def checksum(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt)
    r.next()
    r.accept_any("TABLE", "TABLES")
    targets = [r.qualified_name()]
    while r.accept(","):
        targets.append(r.qualified_name())
    quick = r.accept("QUICK")
    if not quick:
        r.accept("EXTENDED")
    rows: list[tuple[str, Any]] = []
    warnings: list[Warning_] = []
    for db, table in targets:
        dbname = db or s.database or ""
        if not dbname:
            raise ServerError(errors.ER_NO_DB_ERROR)
        tdef = s.table_def(dbname, table)
        if tdef is None:
            warnings.append(Warning_("Error", errors.ER_NO_SUCH_TABLE,
                                     errors.format_message(errors.ER_NO_SUCH_TABLE,
                                                           dbname, table)))
            rows.append((f"{dbname}.{table}", None))
            continue
        if tdef.view is not None or quick:
            rows.append((f"{dbname}.{tdef.name}", None))
            continue
        if tdef.location is not None:
            schema, stored = tdef.location
        else:
            schema = s.schema(dbname)
            stored = s.find_table(schema, table) or tdef.name
        cols = ", ".join(q(c.name) for c in tdef.columns)
        cursor = s.handle.execute(f"SELECT {cols} FROM {q(schema)}.{q(stored)}")
        rows.append((f"{dbname}.{tdef.name}", table_checksum(tdef, cursor)))
    columns = [text_column("Table", length=192), int_column("Checksum", length=21)]
    return ResultSet(columns, rows, warnings=warnings)


def table_checksum(tdef: TableDef, rows: Any) -> int:
    """The sum of the rows' CRC-32s, as MariaDB's CHECKSUM TABLE (module rules)."""
    packed = any(c.type.name in _VARIABLE and c.type.name != "bit" for c in tdef.columns)
    nullable = [c.nullable for c in tdef.columns]
    null_bits = sum(nullable) + (0 if packed else 1)
    null_bytes = (null_bits + 7) // 8
    total = 0
    for row in rows:
        bits = 0 if packed else 1
        pos = 0 if packed else 1
        crc = 0
        images = []
        for col, value, may_be_null in zip(tdef.columns, row, nullable):
            if may_be_null:
                if value is None:
                    bits |= 1 << pos
                pos += 1
            if value is not None:
                images.append(field_image(col, value))
        if null_bytes:
            bits |= ~((1 << pos) - 1) & ((1 << (8 * null_bytes)) - 1)
            crc = zlib.crc32(bits.to_bytes(null_bytes, "little"))
        for image in images:
            crc = zlib.crc32(image, crc)
        total += crc
    return total & 0xFFFFFFFF


def field_image(col: ColumnDef, value: Any) -> bytes:
    """The bytes MariaDB's checksum reads for one non-NULL value of `col`."""
    t = col.type
    name = t.name
    if name in INTEGERS:
        size = INTEGERS[name][1]
        n = int(value[1:]) if isinstance(value, str) and value[:1] == "~" else int(value)
        return (n & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
    if name in ("float", "double"):
        return struct.pack("<f" if name == "float" else "<d", float(value))
    if name == "decimal":
        return _decimal_bin(Decimal(str(value)), t.width or 10, t.scale or 0)
    if name == "year":
        n = int(value)
        return bytes([n - 1900 if n else 0])
    if name == "date":
        y, m, d = (int(x) for x in str(value)[:10].split("-"))
        return (d + m * 32 + y * 16 * 32).to_bytes(3, "little")
    if name in ("datetime", "timestamp"):
        return _datetime_bin(name, str(value), t.scale or 0)
    if name == "time":
        return _time_bin(str(value), t.scale or 0)
    if name == "enum":
        index = _member_index(t.members, value)
        return index.to_bytes(1 if len(t.members) < 256 else 2, "little")
    if name == "set":
        size = (len(t.members) + 7) // 8
        size = 8 if size > 4 else size
        mask = 0
        for part in str(value).split(",") if value != "" else ():
            mask |= 1 << (_member_index(t.members, part) - 1)
        return mask.to_bytes(size, "little")
    if name == "bit":
        n = int(value)
        return n.to_bytes(max(1, ((t.width or 1) + 7) // 8), "big")
    data = value if isinstance(value, bytes) else _charset(col).encode(str(value))
    if name in ("char", "binary"):
        cs = _charset(col)
        length = (t.width if t.width is not None else 1) * (1 if name == "binary" else cs.maxlen)
        pad = b"\0" if name == "binary" else cs.encode(" ")
        if len(data) < length:
            data += pad * ((length - len(data)) // len(pad))
    return data


def _charset(col: ColumnDef) -> charsets.Charset:
    name = col.type.charset or "latin1"
    return charsets.charset(name) or charsets.BINARY


def _member_index(members: tuple[str, ...], value: Any) -> int:
    text = str(value)
    for i, m in enumerate(members, 1):
        if m == text:
            return i
    low = text.lower()
    for i, m in enumerate(members, 1):
        if m.lower() == low:
            return i
    return 0


def _decimal_bin(value: Decimal, precision: int, scale: int) -> bytes:
    """MariaDB's decimal2bin: the integer and fraction digits in groups of nine, each group in
    4 bytes big-endian (a short group in as few bytes as its digits need), all bits inverted
    for a negative value, then the first bit flipped."""
    negative = value < 0
    digits = f"{abs(value):.{scale}f}"
    int_part, _, frac_part = digits.partition(".")
    intg = precision - scale
    int_part = int_part.lstrip("0")[-intg:] if intg else ""
    int_part = int_part.rjust(intg, "0")
    out = bytearray()
    lead = intg % 9
    if lead:
        out += int(int_part[:lead]).to_bytes(_DIG2BYTES[lead], "big")
    for i in range(lead, intg, 9):
        out += int(int_part[i:i + 9]).to_bytes(4, "big")
    for i in range(0, scale - scale % 9, 9):
        out += int(frac_part[i:i + 9]).to_bytes(4, "big")
    tail = scale % 9
    if tail:
        out += int(frac_part[scale - tail:]).to_bytes(_DIG2BYTES[tail], "big")
    if negative:
        out = bytearray(b ^ 0xFF for b in out)
    if out:
        out[0] ^= 0x80
    return bytes(out)


def _frac_bin(micro: int, dec: int) -> bytes:
    size = _FRAC_BYTES[dec]
    if not size:
        return b""
    n = micro // (10000 if size == 1 else 100 if size == 2 else 1)
    return n.to_bytes(size, "big")


def _split_fraction(text: str) -> tuple[str, int]:
    whole, _, frac = text.partition(".")
    return whole, int((frac + "000000")[:6]) if frac else 0


def _datetime_bin(kind: str, text: str, dec: int) -> bytes:
    whole, micro = _split_fraction(text.strip())
    date, _, clock = whole.partition(" ")
    y, mo, d = (int(x) for x in date.split("-"))
    h, mi, sec = (int(x) for x in (clock or "0:0:0").split(":"))
    if kind == "timestamp":
        if (y, mo, d) == (0, 0, 0):
            seconds = 0
        else:
            stamp = dt.datetime(y, mo, d, h, mi, sec, tzinfo=dt.UTC)
            seconds = int(stamp.timestamp())
        return seconds.to_bytes(4, "big") + _frac_bin(micro, dec)
    ymd = ((y * 13 + mo) << 5) | d
    hms = (h << 12) | (mi << 6) | sec
    intpart = (ymd << 17) | hms
    return (intpart + 0x8000000000).to_bytes(5, "big") + _frac_bin(micro, dec)


def _time_bin(text: str, dec: int) -> bytes:
    text = text.strip()
    negative = text.startswith("-")
    whole, micro = _split_fraction(text.lstrip("-"))
    h, mi, sec = (int(x) for x in whole.split(":"))
    packed = (((h << 12) | (mi << 6) | sec) << 24) + micro
    if negative:
        packed = -packed
    if dec >= 5:
        return (packed + 0x800000000000).to_bytes(6, "big")
    # MY_PACKED_TIME_GET_INT_PART is an arithmetic shift, GET_FRAC_PART C's remainder
    head = ((packed >> 24) + 0x800000).to_bytes(3, "big")
    if not dec:
        return head
    div = 10000 if dec <= 2 else 100
    return head + (-(micro // div) if negative else micro // div).to_bytes(
        _FRAC_BYTES[dec], "big", signed=True)
