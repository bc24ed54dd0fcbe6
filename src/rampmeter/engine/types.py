"""MySQL data types as values: what a column is, how MariaDB spells it, and what the wire says.

Rules:
- `SqlType` is one column type with everything MariaDB keeps of it: the base name, display width
  or length or precision, scale or fractional-second precision, UNSIGNED / ZEROFILL, the
  character set and collation of a text type ('binary' for BINARY / VARBINARY / BLOB), ENUM and
  SET members. It is immutable and hashable (plans and caches key on it).
- `parse_type(text)` reads any spelling MariaDB accepts in a column definition (aliases such as
  BOOL, INTEGER, NUMERIC, REAL, DOUBLE PRECISION, NATIONAL CHAR, CHARACTER VARYING, LONG VARCHAR,
  TEXT(n), FLOAT(p)) into the type MariaDB would store; `spelling()` is how SHOW CREATE TABLE,
  SHOW COLUMNS and information_schema print it (`int(10) unsigned zerofill`, `decimal(10,2)`,
  `datetime(6)`, `enum('a','b')`), which parse_type reads back to the same type.
- `column()` is the Column Definition a MariaDB 10.11 server sends for a column of this type
  (type code, length, decimals, flags, charset id), measured against a running 10.11.19: text
  types report the connection's result character set, with a length of characters times its
  maximum bytes per character.
- `affinity` is the SQLite declared type that stores the values (values.py says in what form):
  INT for integers, YEAR and BIT; REAL for FLOAT and DOUBLE; TEXT for text, temporal, ENUM,
  SET, JSON and DECIMAL (exact digits, ordered by the rm_decimal collation: catalog.py);
  BLOB for binary strings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import cache
from typing import Any

from rampmeter.errors import ServerError
from rampmeter.protocol.columns import Column
from rampmeter.protocol.constants import CHARSET_BINARY, ColumnFlag, ColumnType
from rampmeter.sql import charsets


class TypeLimit(ServerError):
    """A size beyond MariaDB's limits (1425, 1426, 1427, 1439), raised where the column's name
    is not known: its "" argument is the name's place; `named(name)` is MariaDB's error."""

    def __init__(self, code: int, *args: object) -> None:
        super().__init__(code, *args)
        self.given = args

    def named(self, name: str) -> ServerError:
        return ServerError(self.code, *[name if a == "" else a for a in self.given])


MAX_DISPLAY_WIDTH = 255
MAX_FLOAT_SCALE = 30
MAX_BIT_WIDTH = 64

INTEGERS = {  # name -> (wire type, bytes, default display width signed / unsigned)
    "tinyint": (ColumnType.TINY, 1, 4, 3), "smallint": (ColumnType.SHORT, 2, 6, 5),
    "mediumint": (ColumnType.INT24, 3, 9, 8), "int": (ColumnType.LONG, 4, 11, 10),
    "bigint": (ColumnType.LONGLONG, 8, 20, 20),
}
TEXTS = {"char": ColumnType.STRING, "varchar": ColumnType.VAR_STRING,
         "tinytext": ColumnType.BLOB, "text": ColumnType.BLOB, "mediumtext": ColumnType.BLOB,
         "longtext": ColumnType.BLOB, "enum": ColumnType.STRING, "set": ColumnType.STRING,
         "json": ColumnType.BLOB, "uuid": ColumnType.STRING}
BINARIES = {"binary": ColumnType.STRING, "varbinary": ColumnType.VAR_STRING,
            "tinyblob": ColumnType.BLOB, "blob": ColumnType.BLOB,
            "mediumblob": ColumnType.BLOB, "longblob": ColumnType.BLOB}
BLOB_BYTES = {"tinytext": 255, "text": 65535, "mediumtext": 16777215, "longtext": 4294967295,
              "tinyblob": 255, "blob": 65535, "mediumblob": 16777215, "longblob": 4294967295,
              "json": 4294967295}
# the spatial types (engine/spatial.py): values are SRID + WKB bytes, sent as GEOMETRY
GEOMETRIES = frozenset({"geometry", "point", "linestring", "polygon", "multipoint",
                        "multilinestring", "multipolygon", "geometrycollection"})
TEMPORALS = {"date": ColumnType.DATE, "datetime": ColumnType.DATETIME,
             "timestamp": ColumnType.TIMESTAMP, "time": ColumnType.TIME,
             "year": ColumnType.YEAR}
_ALIASES = {"integer": "int", "int4": "int", "int1": "tinyint", "int2": "smallint",
            "int3": "mediumint", "middleint": "mediumint", "int8": "bigint",
            "dec": "decimal", "numeric": "decimal", "fixed": "decimal", "real": "double",
            "double precision": "double", "float4": "float", "float8": "double",
            "character": "char", "character varying": "varchar", "char varying": "varchar",
            "national char": "char", "nchar": "char", "national character": "char",
            "national varchar": "varchar", "nvarchar": "varchar",
            "national character varying": "varchar", "nchar varchar": "varchar",
            "nchar varying": "varchar", "national char varying": "varchar",
            "long varchar": "mediumtext", "long": "mediumtext", "long varbinary": "mediumblob",
            "char byte": "binary", "bool": "tinyint", "boolean": "tinyint"}
_NATIONAL = {"national char", "nchar", "national character", "national varchar", "nvarchar",
             "national character varying", "nchar varchar", "nchar varying",
             "national char varying"}
MAX_DECIMAL_PRECISION = 65
MAX_DECIMAL_SCALE = 38
MAX_FSP = 6


@dataclass(frozen=True, slots=True)
class SqlType:
    name: str
    width: int | None = None      # display width / length / precision / bits
    scale: int | None = None      # DECIMAL scale, FLOAT(M,D) decimals, temporal fsp
    unsigned: bool = False
    zerofill: bool = False
    charset: str | None = None    # text types; 'binary' for binary strings
    collation: str | None = None
    members: tuple[str, ...] = ()  # ENUM / SET

    # --- what kind of type -------------------------------------------------------------------
    @property
    def is_integer(self) -> bool:
        return self.name in INTEGERS

    @property
    def is_decimal(self) -> bool:
        return self.name == "decimal"

    @property
    def is_float(self) -> bool:
        return self.name in ("float", "double")

    @property
    def is_numeric(self) -> bool:
        return self.name in INTEGERS or self.name in ("decimal", "float", "double", "bit",
                                                       "year")

    @property
    def is_temporal(self) -> bool:
        return self.name in ("date", "datetime", "timestamp", "time")

    @property
    def is_text(self) -> bool:
        return self.name in TEXTS

    @property
    def is_binary_string(self) -> bool:
        return self.name in BINARIES

    @property
    def is_string(self) -> bool:
        return self.name in TEXTS or self.name in BINARIES

    @property
    def is_geometry(self) -> bool:
        return self.name in GEOMETRIES

    @property
    def is_blob(self) -> bool:
        return self.name in BLOB_BYTES

    @property
    def fsp(self) -> int:
        return self.scale or 0 if self.is_temporal else 0

    @property
    def case_insensitive(self) -> bool:
        """Text compared by a _ci collation (MariaDB's default, utf8mb4_general_ci)."""
        if not self.is_text or self.name == "json":
            return False
        coll = self.collation or ""
        return not coll.endswith("_bin") and coll != "binary"

    @property
    def max_chars(self) -> int | None:
        """Characters (bytes for binary strings) a value may hold; None when unbounded here."""
        if self.name in ("char", "varchar", "binary", "varbinary", "uuid"):
            return self.width if self.width is not None else 1
        if self.name in BLOB_BYTES:
            if self.is_binary_string:
                return BLOB_BYTES[self.name]
            maxlen = _maxlen(self.charset)
            return BLOB_BYTES[self.name] // maxlen
        return None

    @property
    def int_range(self) -> tuple[int, int]:
        size = INTEGERS[self.name][1] * 8
        if self.unsigned:
            return 0, (1 << size) - 1
        return -(1 << (size - 1)), (1 << (size - 1)) - 1

    @property
    def affinity(self) -> str:
        if self.name in INTEGERS or self.name in ("year", "bit"):
            return "INT"
        if self.name in ("float", "double"):
            return "REAL"
        if self.name in BINARIES or self.name in GEOMETRIES:
            return "BLOB"
        return "TEXT"

    # --- how MariaDB prints it -----------------------------------------------------------------
    def spelling(self) -> str:
        n = self.name
        if n in INTEGERS:
            text = f"{n}({self.width})"
        elif n == "decimal":
            text = f"decimal({self.width},{self.scale})"
        elif n in ("float", "double"):
            text = n if self.width is None else f"{n}({self.width},{self.scale})"
        elif n in ("char", "varchar", "binary", "varbinary", "bit"):
            text = f"{n}({self.width})"
        elif n in ("datetime", "timestamp", "time"):
            text = f"{n}({self.scale})" if self.scale else n
        elif n == "year":
            text = "year(4)"
        elif n in ("enum", "set"):
            text = n + "(" + ",".join(_quote(m) for m in self.members) + ")"
        elif n == "json":
            text = "longtext"
        else:
            text = n
        if self.unsigned:
            text += " unsigned"
        if self.zerofill:
            text += " zerofill"
        return text

    def stored_spelling(self) -> str:
        """How the catalog keeps this type: spelling() and its character set, except that JSON
        stays JSON (MariaDB prints it as LONGTEXT with a CHECK; we must remember it is JSON)."""
        if self.name == "json":
            return "json"
        text = self.spelling()
        if self.is_text and self.charset:
            text += f" CHARACTER SET {self.charset} COLLATE {self.collation}"
        return text

    def charset_clause(self, table_charset: str = "utf8mb4",
                       table_collation: str = "utf8mb4_general_ci") -> str:
        """' CHARACTER SET x COLLATE y' when the column differs from its table (SHOW CREATE)."""
        if not self.is_text or self.charset is None or self.name == "uuid":
            return ""
        if self.name == "json":
            return " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
        coll = self.collation or charsets.default_collation(self.charset).name
        if self.charset == table_charset and coll == table_collation:
            return ""
        return f" CHARACTER SET {self.charset} COLLATE {coll}"  # both, as 10.11 prints them

    # --- what the wire says ----------------------------------------------------------------
    def column(self, name: str, *, flags: int = 0, table: str = "", schema: str = "",
               org_name: str | None = None, results: str = "utf8mb4") -> Column:
        return _column(self, flags, results).named(name, table=table, schema=schema,
                                                   org_name=name if org_name is None
                                                   else org_name)


def _maxlen(charset: str | None) -> int:
    cs = charsets.charset(charset or "utf8mb4")
    return cs.maxlen if cs is not None else 4


def _quote(member: str) -> str:
    """An ENUM / SET member as MariaDB prints it (append_unescaped)."""
    return "'" + member.translate(_ESCAPES) + "'"


_ESCAPES = str.maketrans({"\\": "\\\\", "'": "''", "\0": "\\0", "\n": "\\n", "\r": "\\r",
                          "\x1a": "\\Z"})


@cache
def _column(t: SqlType, flags: int, results: str) -> Column:
    """The Column Definition fields for `t` (see the module rules), without names."""
    n = t.name
    if t.unsigned:
        flags |= ColumnFlag.UNSIGNED
    if t.zerofill:
        flags |= ColumnFlag.ZEROFILL
    if n in INTEGERS:
        return Column("", INTEGERS[n][0], t.width or INTEGERS[n][2], flags, 0, CHARSET_BINARY)
    if n == "decimal":
        prec, scale = t.width or 10, t.scale or 0
        length = prec + (1 if scale else 0) + (0 if t.unsigned else 1)
        return Column("", ColumnType.NEWDECIMAL, length, flags, scale, CHARSET_BINARY)
    if n in ("float", "double"):
        wire = ColumnType.FLOAT if n == "float" else ColumnType.DOUBLE
        if t.width is None:
            return Column("", wire, 12 if n == "float" else 22, flags, 31, CHARSET_BINARY)
        return Column("", wire, t.width, flags, t.scale or 0, CHARSET_BINARY)
    if n in TEMPORALS:
        wire = TEMPORALS[n]
        if n == "year":
            return Column("", wire, 4, flags | ColumnFlag.UNSIGNED | ColumnFlag.ZEROFILL, 0,
                          CHARSET_BINARY)
        base = {"date": 10, "datetime": 19, "timestamp": 19, "time": 10}[n]
        fsp = t.scale or 0
        flags |= ColumnFlag.BINARY
        if n == "timestamp":
            flags |= ColumnFlag.UNSIGNED
        return Column("", wire, base + (fsp + 1 if fsp else 0), flags, fsp, CHARSET_BINARY)
    if n == "bit":
        return Column("", ColumnType.BIT, t.width or 1, flags | ColumnFlag.UNSIGNED, 0,
                      CHARSET_BINARY)
    if n in BINARIES:
        wire = BINARIES[n]
        flags |= ColumnFlag.BINARY
        if wire == ColumnType.BLOB:
            return Column("", wire, BLOB_BYTES[n], flags | ColumnFlag.BLOB, 0, CHARSET_BINARY)
        return Column("", wire, t.width if t.width is not None else 1, flags, 0, CHARSET_BINARY)
    if n in GEOMETRIES:  # as 10.11 sends it: a binary BLOB of 4 GiB (extended: its subtype)
        return Column("", ColumnType.GEOMETRY, 4294967295,
                      flags | ColumnFlag.BINARY | ColumnFlag.BLOB, 0, CHARSET_BINARY,
                      extended=() if n == "geometry" else ((0, n),))
    if n == "null":
        return Column("", ColumnType.NULL, 0, flags | ColumnFlag.BINARY, 0, CHARSET_BINARY)
    # text: reported in the result character set
    rcs = charsets.charset(results) or charsets.UTF8MB4
    if rcs.is_binary:
        rcs = charsets.charset(t.charset or "utf8mb4") or charsets.UTF8MB4
    cid = charsets.default_collation(rcs.name).id
    coll = t.collation or ""
    if n == "json" or coll.endswith("_bin"):
        flags |= ColumnFlag.BINARY
    wire = TEXTS[n]
    if wire == ColumnType.BLOB:  # MariaDB: the byte capacity times the result's bytes/char
        length = min(BLOB_BYTES[n] * rcs.maxlen, 4294967295)
        return Column("", wire, length, flags | ColumnFlag.BLOB, 0, cid,
                      extended=((1, "json"),) if n == "json" else ())
    if n == "enum":
        chars = max((len(m) for m in t.members), default=0)
        return Column("", wire, chars * rcs.maxlen, flags | ColumnFlag.ENUM, 0, cid)
    if n == "set":
        chars = sum(len(m) for m in t.members) + max(len(t.members) - 1, 0)
        return Column("", wire, chars * rcs.maxlen, flags | ColumnFlag.SET, 0, cid)
    return Column("", wire, (t.width if t.width is not None else 1) * rcs.maxlen, flags, 0, cid,
                  extended=((0, "uuid"),) if n == "uuid" else ())


# --- parsing a type's spelling ----------------------------------------------------------------
def check_members(t: SqlType) -> SqlType:
    """A SET member may not hold a comma (it separates members in a value): 1367, as MariaDB
    says when it reads the definition."""
    if t.name == "set":
        for m in t.members:
            if "," in m:
                from rampmeter.errors import ServerError
                raise ServerError(1367, "set", m)
    return t


def parse_type(text: str, table_charset: str = "utf8mb4",
               table_collation: str | None = None) -> SqlType:
    """A MariaDB column type spelling -> SqlType (see the module rules). ValueError if it is
    not one."""
    from rampmeter.sql.lexer import (  # below us; imported late for speed
        bit_value,
        hex_value,
        string_value,
        tokens,
    )
    toks = tokens(text)
    words: list[str] = []
    i = 0
    while i < len(toks) and toks[i].kind == "word" and (toks[i].upper not in (
            "UNSIGNED", "SIGNED", "ZEROFILL", "CHARACTER", "CHARSET", "COLLATE", "BINARY",
            "ASCII", "UNICODE", "BYTE") or i == 0 or
            toks[i].upper == "CHARACTER" and i + 1 < len(toks) and toks[i + 1].upper != "SET"):
        words.append(toks[i].text.lower())
        i += 1
    if i < len(toks) and toks[i].upper == "BYTE" and words == ["char"]:
        words = ["char", "byte"]
        i += 1
    if not words:
        raise ValueError(text)
    name = " ".join(words)
    national = name in _NATIONAL
    name = _ALIASES.get(name, name)
    args: list[str] = []
    raw: dict[int, bytes] = {}  # ENUM / SET members written as 0x.. or b'..': their bytes
    if i < len(toks) and toks[i].text == "(":
        i += 1
        while i < len(toks) and toks[i].text != ")":
            t = toks[i]
            if t.kind == "str":
                args.append(string_value(t.text))
            elif t.kind == "num":
                args.append(t.text)
            elif t.kind in ("hex", "bit") and name in ("enum", "set"):
                value = hex_value(t.text) if t.kind == "hex" else bit_value(t.text)
                if value is None:
                    raise ValueError(text)
                raw[len(args)] = value
                args.append("")
            elif t.text != ",":
                raise ValueError(text)
            i += 1
        i += 1
    unsigned = zerofill = False
    charset: str | None = None
    collation: str | None = None
    binary_attr = False
    while i < len(toks):
        w = toks[i].upper
        if w == "UNSIGNED":
            unsigned = True
        elif w == "SIGNED":
            pass
        elif w == "ZEROFILL":
            zerofill = unsigned = True
        elif w in ("CHARACTER", "CHARSET"):
            if w == "CHARACTER":
                i += 1  # SET
            i += 1
            charset = _name_token(toks, i).lower()
        elif w == "COLLATE":
            i += 1
            collation = _name_token(toks, i).lower()
        elif w == "BINARY":
            binary_attr = True
        elif w == "ASCII":
            charset = "latin1"
        elif w == "UNICODE":
            charset = "ucs2"
        else:
            raise ValueError(text)
        i += 1
    if raw:  # the bytes are characters of the column's character set
        from rampmeter.sql import charsets
        cs = charsets.charset(charset or table_charset)
        codec = (cs.codec if cs is not None else "") or "latin-1"
        for k, value in raw.items():
            args[k] = value.decode(codec, "replace")
    return make_type(name, args, unsigned=unsigned, zerofill=zerofill, charset=charset,
                     collation=collation, binary_attr=binary_attr, national=national,
                     original=words, table_charset=table_charset,
                     table_collation=table_collation)


def _name_token(toks: list, i: int) -> str:  # type: ignore[type-arg]
    if i >= len(toks):
        raise ValueError("a name")
    t = toks[i]
    return t.text.strip("`'\"")


def make_type(name: str, args: list[str], *, unsigned: bool = False, zerofill: bool = False,
              charset: str | None = None, collation: str | None = None,
              binary_attr: bool = False, national: bool = False,
              original: list[str] | None = None, table_charset: str = "utf8mb4",
              table_collation: str | None = None) -> SqlType:
    """The type MariaDB stores for `name(args) [UNSIGNED] [ZEROFILL] [CHARACTER SET ...]`."""
    original = original or [name]
    nums = [int(a) for a in args if a.isdigit()] if name not in ("enum", "set") else []
    if name in ("bool", "boolean") or original[0] in ("bool", "boolean"):
        return SqlType("tinyint", 1)
    if name in INTEGERS:
        width = nums[0] if nums else INTEGERS[name][3 if unsigned else 2]
        if width > MAX_DISPLAY_WIDTH:
            raise TypeLimit(1439, "", MAX_DISPLAY_WIDTH)
        return SqlType(name, width, None, unsigned, zerofill)
    if name == "decimal":
        prec = nums[0] if nums else 10
        scale = nums[1] if len(nums) > 1 else 0
        if prec > MAX_DECIMAL_PRECISION:
            raise TypeLimit(1426, "", MAX_DECIMAL_PRECISION)
        if scale > MAX_DECIMAL_SCALE:
            raise TypeLimit(1425, "", MAX_DECIMAL_SCALE)
        if scale > prec:
            raise TypeLimit(1427, "")
        return SqlType("decimal", prec, scale, unsigned, zerofill)
    if name in ("float", "double"):
        if name == "float" and len(nums) == 1:
            return SqlType("double" if nums[0] > 24 else "float", None, None, unsigned,
                           zerofill)
        if len(nums) >= 2:
            if nums[0] > MAX_DISPLAY_WIDTH:
                raise TypeLimit(1439, "", MAX_DISPLAY_WIDTH)
            if nums[1] > MAX_FLOAT_SCALE:
                raise TypeLimit(1425, "", MAX_FLOAT_SCALE)
            if nums[1] > nums[0]:
                raise TypeLimit(1427, "")
            return SqlType(name, nums[0], nums[1], unsigned, zerofill)
        return SqlType(name, None, None, unsigned, zerofill)
    if name in ("datetime", "timestamp", "time"):
        fsp = nums[0] if nums else 0
        if fsp > MAX_FSP:
            raise TypeLimit(1426, "", MAX_FSP)
        return SqlType(name, None, fsp)
    if name in ("date", "year", "null"):
        return SqlType(name)
    if name == "bit":
        if nums and nums[0] > MAX_BIT_WIDTH:
            raise TypeLimit(1439, "", MAX_BIT_WIDTH)
        return SqlType("bit", nums[0] or 1 if nums else 1)  # BIT(0) is BIT(1)
    if name in ("binary", "varbinary"):
        return SqlType(name, nums[0] if nums else 1, charset="binary")
    if name in ("tinyblob", "blob", "mediumblob", "longblob"):
        if name == "blob" and nums:
            name = _blob_for(nums[0], 1, "blob")
        return SqlType(name, charset="binary")
    if name == "json":
        return SqlType("json", charset="utf8mb4", collation="utf8mb4_bin")
    if name in GEOMETRIES:
        return SqlType(name, charset="binary")
    if name == "uuid":  # MariaDB 10.7+: shown and compared as its 36-character text
        return SqlType("uuid", 36, charset="utf8mb4", collation="utf8mb4_general_ci")
    if name in TEXTS:
        if national:
            charset = "utf8mb3"
        if charset == "binary":  # CHAR(n) CHARACTER SET binary is BINARY(n)
            return make_type({"char": "binary", "varchar": "varbinary", "text": "blob",
                              "tinytext": "tinyblob", "mediumtext": "mediumblob",
                              "longtext": "longblob"}.get(name, "blob"), args)
        cs = charsets.charset(charset) if charset else None
        if charset and cs is None:
            raise ServerError(1115, charset)
        if collation:
            coll = charsets.collation(collation)
            if coll is None:
                raise ServerError(1273, collation)
            if cs is None:
                cs = charsets.charset(coll.charset)
            elif coll.charset != cs.name:
                raise ServerError(1253, coll.name, cs.name)
        csname = cs.name if cs is not None else table_charset
        coll_name = collation.lower() if collation else (
            table_collation if cs is None and table_collation else
            charsets.default_collation(csname).name)
        if binary_attr:
            coll_name = csname + "_bin"
            if charsets.collation(coll_name) is None:  # filename has none
                raise ServerError(1273, coll_name)
        if name == "text" and nums:
            name = _blob_for(nums[0], _maxlen(csname), "text")
        members: tuple[str, ...] = ()
        width: int | None = None
        if name in ("enum", "set"):  # MariaDB drops a member's trailing spaces
            members = tuple(a.rstrip(" ") for a in args) if csname != "binary" else tuple(args)
        elif name in ("char", "varchar"):
            width = nums[0] if nums else (1 if name == "char" else None)
            if name == "varchar" and width is None:
                raise ServerError(1064, "", 1)
        return SqlType(name, width, None, False, False, csname, coll_name, members)
    raise ValueError(name)


def _blob_for(length: int, maxlen: int, kind: str) -> str:
    n = length * maxlen
    prefix = "tiny" if n <= 255 else "" if n <= 65535 else "medium" if n <= 16777215 else "long"
    return prefix + kind


def with_table_defaults(t: SqlType, charset: str, collation: str) -> SqlType:
    """A text column without its own character set takes its table's."""
    if t.is_text and t.name != "json" and t.charset is None:
        return replace(t, charset=charset, collation=collation)
    return t


# --- types of values that are not table columns -----------------------------------------------
BIGINT = SqlType("bigint", 20)
UBIGINT = SqlType("bigint", 20, unsigned=True)
INT = SqlType("int", 11)
DOUBLE = SqlType("double")
NULL = SqlType("null")
DATE = SqlType("date")
DATETIME = SqlType("datetime", None, 0)
TIME = SqlType("time", None, 0)
BLOB = SqlType("blob", charset="binary")
LONGBLOB = SqlType("longblob", charset="binary")


def varchar(chars: int, charset: str = "utf8mb4", collation: str | None = None) -> SqlType:
    return SqlType("varchar", chars, None, False, False, charset,
                   collation or charsets.default_collation(charset).name)


def varbinary(length: int) -> SqlType:
    return SqlType("varbinary", length, charset="binary")


def longtext(charset: str = "utf8mb4") -> SqlType:
    return SqlType("longtext", None, None, False, False, charset,
                   charsets.default_collation(charset).name)


def decimal(precision: int, scale: int, unsigned: bool = False) -> SqlType:
    precision = max(1, min(precision, MAX_DECIMAL_PRECISION))
    scale = max(0, min(scale, MAX_DECIMAL_SCALE, precision))
    return SqlType("decimal", precision, scale, unsigned)


def column_for_values(name: str, values: Iterable[Any]) -> Column:
    """A column whose type nobody could infer: guessed from the values SQLite produced (the
    first non-NULL wins; ints and floats mixed are DOUBLE; anything else mixed is text)."""
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
        return Column(name, ColumnType.LONGLONG, 21, ColumnFlag.BINARY, 0, CHARSET_BINARY)
    if kind is float:
        return Column(name, ColumnType.DOUBLE, 22, ColumnFlag.BINARY, 31, CHARSET_BINARY)
    if kind is Decimal:
        return Column(name, ColumnType.NEWDECIMAL, 66, ColumnFlag.BINARY, 30, CHARSET_BINARY)
    if kind is bytes:
        return Column(name, ColumnType.BLOB, 65535, ColumnFlag.BLOB | ColumnFlag.BINARY, 0,
                      CHARSET_BINARY)
    if kind is None:
        return Column(name, ColumnType.NULL, 0, ColumnFlag.BINARY, 0, CHARSET_BINARY)
    return Column(name, ColumnType.VAR_STRING, 1020, 0, 0, charsets.UTF8MB4_ID)
