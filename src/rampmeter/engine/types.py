"""MySQL column types for an engine that stores SQLite values: what the wire says about a column.

Rules:
- A table column's MySQL type is kept as its SQLite declared type ("varchar(10)", "int
  unsigned", "decimal(10,2)"): SQLite derives the storage affinity from it (INT -> INTEGER,
  CHAR/TEXT -> TEXT, ...) and we read it back for SHOW COLUMNS and the result-set metadata.
  The one exception is an AUTO_INCREMENT primary key, which SQLite only accepts as the exact
  type INTEGER; its MySQL type is remembered beside the table (sqlite.py).
- `column_for_type()` turns a MySQL type string into the wire `Column` a MariaDB server would
  send for it; `column_for_values()` guesses one from Python values when the result column is
  an expression (SQLite has no static expression types).
- `wire_value()` adapts a stored value to its column: DECIMAL(m,d) is shown with d digits, as
  MySQL always pads a fixed-point value to its scale.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

from rampmeter.protocol.columns import Column
from rampmeter.protocol.constants import (
    CHARSET_BINARY,
    CHARSET_UTF8MB4_GENERAL_CI,
    ColumnFlag,
    ColumnType,
)

_TYPE_RX = re.compile(r"\s*([a-z ]+?)\s*(?:\(([^)]*)\))?\s*((?:unsigned|signed|zerofill|\s)*)"
                      r"(?:\s+(?:character\s+set|charset|collate)\b.*)?$", re.IGNORECASE)

# MySQL type name -> (wire type, default display length, numeric?)
_INTEGERS = {
    "tinyint": (ColumnType.TINY, 4), "bool": (ColumnType.TINY, 1),
    "boolean": (ColumnType.TINY, 1), "smallint": (ColumnType.SHORT, 6),
    "mediumint": (ColumnType.INT24, 9), "int": (ColumnType.LONG, 11),
    "integer": (ColumnType.LONG, 11), "bigint": (ColumnType.LONGLONG, 20),
}
_STRINGS = {
    "char": ColumnType.STRING, "varchar": ColumnType.VAR_STRING,
    "binary": ColumnType.STRING, "varbinary": ColumnType.VAR_STRING,
    "tinytext": ColumnType.BLOB, "text": ColumnType.BLOB, "mediumtext": ColumnType.BLOB,
    "longtext": ColumnType.BLOB, "tinyblob": ColumnType.BLOB, "blob": ColumnType.BLOB,
    "mediumblob": ColumnType.BLOB, "longblob": ColumnType.BLOB, "json": ColumnType.BLOB,
    "enum": ColumnType.STRING, "set": ColumnType.STRING,
}
_TEXT_LENGTHS = {"tinytext": 255, "text": 65535, "mediumtext": 16777215, "longtext": 4294967295,
                 "tinyblob": 255, "blob": 65535, "mediumblob": 16777215,
                 "longblob": 4294967295, "json": 4294967295}
_BINARY_STRINGS = {"binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob"}
_TEMPORAL = {"date": (ColumnType.DATE, 10), "datetime": (ColumnType.DATETIME, 19),
             "timestamp": (ColumnType.TIMESTAMP, 19), "time": (ColumnType.TIME, 10),
             "year": (ColumnType.YEAR, 4)}


def parse_type(column_type: str) -> tuple[str, list[str], bool]:
    """'INT(11) UNSIGNED' -> ('int', ['11'], True)."""
    m = _TYPE_RX.match(column_type)
    if not m:
        return column_type.strip().lower(), [], False
    name = " ".join(m.group(1).lower().split())
    if name == "double precision":
        name = "double"
    args = [a.strip() for a in m.group(2).split(",")] if m.group(2) else []
    unsigned = "unsigned" in (m.group(3) or "").lower()
    return name, args, unsigned


def mysql_spelling(column_type: str) -> str:
    """The type as SHOW COLUMNS prints it: 'INT' -> 'int(11)', 'VARCHAR(10)' -> 'varchar(10)'."""
    name, args, unsigned = parse_type(column_type)
    if name in _INTEGERS:
        wire, length = _INTEGERS[name]
        if name in ("bool", "boolean"):
            name, args = "tinyint", ["1"]
        elif name == "integer":
            name = "int"
        # unsigned drops the sign's column: tinyint(3) ... int(10), but bigint(20) both ways
        width = length - (1 if unsigned and name != "bigint" else 0)
        text = f"{name}({args[0] if args else width})"
    elif name in ("decimal", "numeric", "dec", "fixed"):
        prec, scale = (args + ["10", "0"])[:2] if args else ["10", "0"]
        text = f"decimal({prec},{scale})"
    elif args:
        text = f"{name}({','.join(args)})"
    else:
        text = name
    return text + (" unsigned" if unsigned else "")


def column_for_type(name: str, column_type: str, *, flags: int = 0, table: str = "",
                    schema: str = "") -> Column:
    """The wire Column for a table column of MySQL type `column_type`."""
    tname, args, unsigned = parse_type(column_type)
    kw: dict[str, Any] = {"table": table, "org_table": table, "schema": schema, "org_name": name}
    if unsigned:
        flags |= ColumnFlag.UNSIGNED
    if tname in _INTEGERS:
        wire, length = _INTEGERS[tname]
        if args and args[0].isdigit():
            length = int(args[0])
        return Column(name, wire, length, flags | ColumnFlag.NUM, 0, CHARSET_BINARY, **kw)
    if tname in ("decimal", "numeric", "dec", "fixed"):
        prec = int(args[0]) if args and args[0].isdigit() else 10
        scale = int(args[1]) if len(args) > 1 and args[1].isdigit() else 0
        length = prec + (1 if scale else 0) + (0 if unsigned else 1)
        return Column(name, ColumnType.NEWDECIMAL, length, flags | ColumnFlag.NUM, scale,
                      CHARSET_BINARY, **kw)
    if tname in ("float", "real", "double"):
        wire = ColumnType.FLOAT if tname == "float" else ColumnType.DOUBLE
        scale = int(args[1]) if len(args) > 1 and args[1].isdigit() else 31
        return Column(name, wire, 12 if wire == ColumnType.FLOAT else 22,
                      flags | ColumnFlag.NUM, scale, CHARSET_BINARY, **kw)
    if tname in _TEMPORAL:
        wire, length = _TEMPORAL[tname]
        flags |= ColumnFlag.BINARY
        if tname == "timestamp":
            flags |= ColumnFlag.TIMESTAMP
        return Column(name, wire, length, flags, 0, CHARSET_BINARY, **kw)
    if tname == "bit":
        return Column(name, ColumnType.BIT, int(args[0]) if args else 1, flags | ColumnFlag.BINARY
                      | ColumnFlag.UNSIGNED, 0, CHARSET_BINARY, **kw)
    if tname in _STRINGS:
        binary = tname in _BINARY_STRINGS
        wire = _STRINGS[tname]
        if wire == ColumnType.BLOB:
            flags |= ColumnFlag.BLOB
            length = _TEXT_LENGTHS[tname]
        else:
            chars = int(args[0]) if args and args[0].isdigit() else 255
            length = chars if binary else chars * 4
        if tname == "enum":
            flags |= ColumnFlag.ENUM
        elif tname == "set":
            flags |= ColumnFlag.SET
        if binary:
            return Column(name, wire, length, flags | ColumnFlag.BINARY, 0, CHARSET_BINARY, **kw)
        if wire == ColumnType.BLOB:
            length *= 4 if length < 4294967295 else 1
        return Column(name, wire, length, flags, 0, CHARSET_UTF8MB4_GENERAL_CI, **kw)
    # Unknown or SQLite-only spellings: SQLite's affinity rules decide (sqlite.org/datatype3).
    upper = tname.upper()
    if "INT" in upper:
        return Column(name, ColumnType.LONGLONG, 20, flags | ColumnFlag.NUM, 0, CHARSET_BINARY,
                      **kw)
    if any(k in upper for k in ("REAL", "FLOA", "DOUB")):
        return Column(name, ColumnType.DOUBLE, 22, flags | ColumnFlag.NUM, 31, CHARSET_BINARY,
                      **kw)
    return Column(name, ColumnType.VAR_STRING, 1020, flags, 0, CHARSET_UTF8MB4_GENERAL_CI, **kw)


def column_for_values(name: str, values: Iterable[Any]) -> Column:
    """Guess an expression column's type from the values SQLite produced (first non-NULL wins,
    and a column mixing ints and floats is DOUBLE)."""
    kind: type | None = None
    for v in values:
        if v is None:
            continue
        t = type(v)
        if t is bool:
            t = int
        if kind is None:
            kind = t
        elif kind is not t:
            kind = float if {kind, t} <= {int, float} else str
            if kind is str:
                break
    if kind is int:
        return Column(name, ColumnType.LONGLONG, 21, ColumnFlag.NUM | ColumnFlag.BINARY, 0,
                      CHARSET_BINARY)
    if kind is float:
        return Column(name, ColumnType.DOUBLE, 22, ColumnFlag.NUM | ColumnFlag.BINARY, 31,
                      CHARSET_BINARY)
    if kind is Decimal:
        return Column(name, ColumnType.NEWDECIMAL, 66, ColumnFlag.NUM | ColumnFlag.BINARY, 30,
                      CHARSET_BINARY)
    if kind is bytes:
        return Column(name, ColumnType.BLOB, 65535, ColumnFlag.BLOB | ColumnFlag.BINARY, 0,
                      CHARSET_BINARY)
    if kind is None:
        return Column(name, ColumnType.NULL, 0, ColumnFlag.BINARY, 0, CHARSET_BINARY)
    return Column(name, ColumnType.VAR_STRING, 1020, 0, 0, CHARSET_UTF8MB4_GENERAL_CI)


def _decimal_formatter(scale: int) -> Callable[[Any], Any]:
    quantum = Decimal(1).scaleb(-scale)

    def fmt(v: Any) -> Any:
        if v is None or isinstance(v, bytes):
            return v
        try:
            d = Decimal(str(v)) if not isinstance(v, Decimal) else v
            return str(d.quantize(quantum))
        except ArithmeticError:
            return str(v)
    return fmt


def _text_of(v: Any) -> Any:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return str(v)
    return v


def wire_adapter(col: Column) -> Callable[[Any], Any] | None:
    """A per-value conversion for a table column's values, or None when they go as stored."""
    if col.type == ColumnType.NEWDECIMAL and col.org_table:
        return _decimal_formatter(col.decimals)
    if col.type in (ColumnType.STRING, ColumnType.VAR_STRING) and col.org_table:
        return _text_of  # a number stored in a char column (SQLite affinity) is still text
    return None
