"""Column metadata shared by engines (which produce result sets) and the protocol (which encodes
them): one immutable `Column` per result column, the Column Definition 41 packet's fields.

Rules:
- `Column` carries only what the wire needs; helpers build the common kinds so an engine never
  spells charset ids or flags by hand.
- The value kind of each column decides its text encoding and binary encoding (results.py):
  integers for the integer types, floats for FLOAT/DOUBLE, Decimal or str for NEWDECIMAL,
  datetime/date/timedelta or str for the temporal types, str or bytes for strings and blobs.
"""

from __future__ import annotations

from dataclasses import dataclass

from rampmeter.protocol.constants import (
    CHARSET_BINARY,
    CHARSET_UTF8MB4_GENERAL_CI,
    ColumnFlag,
    ColumnType,
)

_NUMERIC = {
    ColumnType.TINY, ColumnType.SHORT, ColumnType.LONG, ColumnType.INT24, ColumnType.LONGLONG,
    ColumnType.FLOAT, ColumnType.DOUBLE, ColumnType.DECIMAL, ColumnType.NEWDECIMAL,
    ColumnType.YEAR, ColumnType.BIT,
}


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type: ColumnType = ColumnType.VAR_STRING
    length: int = 0
    flags: int = 0
    decimals: int = 0
    charset: int = CHARSET_UTF8MB4_GENERAL_CI
    table: str = ""
    org_table: str = ""
    schema: str = ""
    org_name: str | None = None   # None: the name; "" for an expression, as MariaDB sends it
    # MariaDB's extended metadata: (0, data type name) / (1, format), e.g. ((1, "json"),)
    extended: tuple[tuple[int, str], ...] = ()

    def named(self, name: str, *, table: str = "", schema: str = "", org_name: str = "",
              org_table: str | None = None) -> Column:
        """This column's type under another name (and table)."""
        return Column(name, self.type, self.length, self.flags, self.decimals, self.charset,
                      table, table if org_table is None else org_table, schema, org_name,
                      self.extended)

    @property
    def is_numeric(self) -> bool:
        return self.type in _NUMERIC

    @property
    def unsigned(self) -> bool:
        return bool(self.flags & ColumnFlag.UNSIGNED)


# Display lengths are what MariaDB reports for expressions of each kind (utf8mb4: 4 bytes/char).
def int_column(name: str, *, length: int = 21, flags: int = 0, **kw: object) -> Column:
    return Column(name, ColumnType.LONGLONG, length, flags | ColumnFlag.NUM | ColumnFlag.BINARY,
                  0, CHARSET_BINARY, **kw)  # type: ignore[arg-type]


def double_column(name: str, *, decimals: int = 31, **kw: object) -> Column:
    return Column(name, ColumnType.DOUBLE, 22, ColumnFlag.NUM | ColumnFlag.BINARY, decimals,
                  CHARSET_BINARY, **kw)  # type: ignore[arg-type]


def decimal_column(name: str, *, length: int = 66, decimals: int = 30, **kw: object) -> Column:
    return Column(name, ColumnType.NEWDECIMAL, length, ColumnFlag.NUM | ColumnFlag.BINARY,
                  decimals, CHARSET_BINARY, **kw)  # type: ignore[arg-type]


def text_column(name: str, *, length: int = 1024, flags: int = 0, **kw: object) -> Column:
    return Column(name, ColumnType.VAR_STRING, length * 4, flags, 0, CHARSET_UTF8MB4_GENERAL_CI,
                  **kw)  # type: ignore[arg-type]


def blob_column(name: str, *, length: int = 65535, **kw: object) -> Column:
    return Column(name, ColumnType.BLOB, length, ColumnFlag.BLOB | ColumnFlag.BINARY, 0,
                  CHARSET_BINARY, **kw)  # type: ignore[arg-type]


def null_column(name: str, **kw: object) -> Column:
    return Column(name, ColumnType.NULL, 0, ColumnFlag.BINARY, 0, CHARSET_BINARY,
                  **kw)  # type: ignore[arg-type]
