"""Spatial values as MariaDB keeps them: a 4-byte SRID and the OpenGIS well-known binary.

Rules (MariaDB 10.11's sql/spatial.cc, measured against a running 10.11.19):
- A GEOMETRY value (and a value of its subtypes POINT, LINESTRING, POLYGON, MULTIPOINT,
  MULTILINESTRING, MULTIPOLYGON, GEOMETRYCOLLECTION) is stored and sent as bytes: the SRID as
  a little-endian uint32, then the WKB: a byte order byte (1, little-endian, is what MariaDB
  writes; 0 is read too), a uint32 type code (1..7, the order above) and the body. So
  `HEX(POINT(1, 2))` is `00000000 01 01000000 000000000000F03F 0000000000000040`.
- `Geometry` is the decoded value: `kind` (the type code) and `body`: (x, y) for a point, a
  list of points for a linestring, a list of rings (lists of points) for a polygon, a list of
  Geometry for the multi types and collections. EMPTY exists only for GEOMETRYCOLLECTION (as
  in MariaDB: `POINT EMPTY` is NULL).
- `from_wkt` reads MariaDB's WKT: case-insensitive names, any whitespace, coordinates as
  numbers with optional sign and exponent, separated by commas; what follows a complete value
  is ignored ('POINT(1 1) x' is POINT(1 1)); anything else malformed is None (the SQL result
  is NULL). MULTIPOINT's points are bare coordinates ('MULTIPOINT(1 1,2 2)').
- `to_wkt` writes it back without spaces after commas, each coordinate as MariaDB prints a
  DOUBLE (shortest round-trip digits, `1e15`, `0.0000001`, `1.5e-20`).
- Relations and measures that need real geometry algebra (ST_Contains, ST_Area of a
  multipolygon, ...) go through shapely (GEOS) in functions_spatial.py; this module has no
  dependency beyond struct.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import Any

POINT, LINESTRING, POLYGON, MULTIPOINT, MULTILINESTRING, MULTIPOLYGON, COLLECTION = range(1, 8)
NAMES = {POINT: "POINT", LINESTRING: "LINESTRING", POLYGON: "POLYGON",
         MULTIPOINT: "MULTIPOINT", MULTILINESTRING: "MULTILINESTRING",
         MULTIPOLYGON: "MULTIPOLYGON", COLLECTION: "GEOMETRYCOLLECTION"}
CODES = {name: code for code, name in NAMES.items()}
# the column types: GEOMETRY takes any kind, each other type its own
COLUMN_TYPES = {"geometry": None, "point": POINT, "linestring": LINESTRING, "polygon": POLYGON,
                "multipoint": MULTIPOINT, "multilinestring": MULTILINESTRING,
                "multipolygon": MULTIPOLYGON, "geometrycollection": COLLECTION}
_MEMBER = {MULTIPOINT: POINT, MULTILINESTRING: LINESTRING, MULTIPOLYGON: POLYGON}


@dataclass(frozen=True)
class Geometry:
    kind: int
    body: Any
    srid: int = 0

    @property
    def name(self) -> str:
        return NAMES[self.kind]

    def points(self) -> list[tuple[float, float]]:
        """Every vertex, in order (for envelopes)."""
        if self.kind == POINT:
            return [self.body]
        if self.kind == LINESTRING:
            return list(self.body)
        if self.kind == POLYGON:
            return [p for ring in self.body for p in ring]
        return [p for g in self.body for p in g.points()]

    def envelope(self) -> tuple[float, float, float, float] | None:
        pts = self.points()
        if not pts:
            return None
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return min(xs), min(ys), max(xs), max(ys)

    def dimension(self) -> int:
        if self.kind in (POINT, MULTIPOINT):
            return 0
        if self.kind in (LINESTRING, MULTILINESTRING):
            return 1
        if self.kind in (POLYGON, MULTIPOLYGON):
            return 2
        return max((g.dimension() for g in self.body), default=0)


# --- binary -------------------------------------------------------------------------------------
class _Reader:
    __slots__ = ("data", "pos")

    def __init__(self, data: bytes, pos: int = 0) -> None:
        self.data, self.pos = data, pos

    def take(self, fmt: str) -> tuple[Any, ...]:
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.data):
            raise ValueError("short")
        values = struct.unpack_from(fmt, self.data, self.pos)
        self.pos += size
        return values


def _read_wkb(r: _Reader, depth: int = 0) -> Geometry:
    if depth > 32:
        raise ValueError("too deep")
    (order,) = r.take("B")
    if order not in (0, 1):
        raise ValueError("byte order")
    e = "<" if order == 1 else ">"
    (kind,) = r.take(e + "I")
    if kind == POINT:
        return Geometry(POINT, r.take(e + "dd"))
    if kind == LINESTRING:
        (n,) = r.take(e + "I")
        return Geometry(LINESTRING, _points(r, e, n))
    if kind == POLYGON:
        (rings,) = r.take(e + "I")
        body = []
        for _ in range(rings):
            (n,) = r.take(e + "I")
            body.append(_points(r, e, n))
        return Geometry(POLYGON, body)
    if kind in (MULTIPOINT, MULTILINESTRING, MULTIPOLYGON, COLLECTION):
        (n,) = r.take(e + "I")
        if n > len(r.data):
            raise ValueError("count")
        members = [_read_wkb(r, depth + 1) for _ in range(n)]
        want = _MEMBER.get(kind)
        if want is not None and any(m.kind != want for m in members):
            raise ValueError("member kind")
        return Geometry(kind, members)
    raise ValueError("kind")


def _points(r: _Reader, e: str, n: int) -> list[tuple[float, float]]:
    if n * 16 > len(r.data) - r.pos:
        raise ValueError("short")
    flat = r.take(e + "d" * (2 * n))
    return [(flat[i], flat[i + 1]) for i in range(0, 2 * n, 2)]


def from_wkb(data: bytes, srid: int = 0) -> Geometry | None:
    """Plain WKB (no SRID) -> Geometry, None if malformed or followed by other bytes."""
    try:
        r = _Reader(bytes(data))
        g = _read_wkb(r)
    except (ValueError, struct.error):
        return None
    if r.pos != len(r.data):
        return None
    return Geometry(g.kind, g.body, srid)


def decode(value: Any) -> Geometry | None:
    """A stored value (SRID + WKB) -> Geometry; None if it is not one."""
    if isinstance(value, str):
        value = value.encode("latin-1", "replace")
    if not isinstance(value, (bytes, bytearray, memoryview)) or len(value) < 4 + 5:
        return None
    data = bytes(value)
    (srid,) = struct.unpack_from("<I", data, 0)
    return from_wkb(data[4:], srid)


def _write_wkb(g: Geometry, out: list[bytes]) -> None:
    out.append(struct.pack("<BI", 1, g.kind))
    if g.kind == POINT:
        out.append(struct.pack("<dd", *g.body))
    elif g.kind == LINESTRING:
        out.append(struct.pack("<I", len(g.body)))
        out.extend(struct.pack("<dd", *p) for p in g.body)
    elif g.kind == POLYGON:
        out.append(struct.pack("<I", len(g.body)))
        for ring in g.body:
            out.append(struct.pack("<I", len(ring)))
            out.extend(struct.pack("<dd", *p) for p in ring)
    else:
        out.append(struct.pack("<I", len(g.body)))
        for m in g.body:
            _write_wkb(m, out)


def to_wkb(g: Geometry) -> bytes:
    out: list[bytes] = []
    _write_wkb(g, out)
    return b"".join(out)


def encode(g: Geometry) -> bytes:
    """Geometry -> the stored form (SRID + WKB)."""
    return struct.pack("<I", g.srid & 0xFFFFFFFF) + to_wkb(g)


# --- text ---------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\s*(?:([A-Za-z_]+)|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|(.))",
                    re.S)


class _Text:
    def __init__(self, text: str) -> None:
        self.toks: list[tuple[str, str]] = []
        for m in _TOKEN.finditer(text):
            if m.group(1):
                self.toks.append(("word", m.group(1).upper()))
            elif m.group(2):
                self.toks.append(("num", m.group(2)))
            elif m.group(3) and not m.group(3).isspace():
                self.toks.append(("sym", m.group(3)))
        self.i = 0

    def peek(self) -> tuple[str, str] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def expect(self, sym: str) -> None:
        t = self.peek()
        if t is None or t != ("sym", sym):
            raise ValueError(sym)
        self.i += 1

    def at(self, sym: str) -> bool:
        if self.peek() == ("sym", sym):
            self.i += 1
            return True
        return False

    def number(self) -> float:
        t = self.peek()
        if t is None or t[0] != "num":
            raise ValueError("number")
        self.i += 1
        return float(t[1])


def _point(t: _Text) -> tuple[float, float]:
    return t.number(), t.number()


def _point_list(t: _Text) -> list[tuple[float, float]]:
    t.expect("(")
    pts = [_point(t)]
    while t.at(","):
        pts.append(_point(t))
    t.expect(")")
    return pts


def _ring_list(t: _Text) -> list[list[tuple[float, float]]]:
    t.expect("(")
    rings = [_point_list(t)]
    while t.at(","):
        rings.append(_point_list(t))
    t.expect(")")
    return rings


def _read_wkt(t: _Text, depth: int = 0) -> Geometry:
    if depth > 32:
        raise ValueError("too deep")
    word = t.peek()
    if word is None or word[0] != "word" or word[1] not in CODES:
        raise ValueError("name")
    t.i += 1
    kind = CODES[word[1]]
    if kind == COLLECTION and t.peek() == ("word", "EMPTY"):
        t.i += 1
        return Geometry(COLLECTION, [])
    if kind == POINT:
        t.expect("(")
        p = _point(t)
        t.expect(")")
        return Geometry(POINT, p)
    if kind == LINESTRING:
        return Geometry(LINESTRING, _point_list(t))
    if kind == POLYGON:
        return Geometry(POLYGON, _ring_list(t))
    if kind == MULTIPOINT:
        return Geometry(MULTIPOINT, [Geometry(POINT, p) for p in _point_list(t)])
    t.expect("(")
    members: list[Geometry] = []
    while True:
        if kind == MULTILINESTRING:
            members.append(Geometry(LINESTRING, _point_list(t)))
        elif kind == MULTIPOLYGON:
            members.append(Geometry(POLYGON, _ring_list(t)))
        else:
            members.append(_read_wkt(t, depth + 1))
        if not t.at(","):
            break
    t.expect(")")
    return Geometry(kind, members)


def from_wkt(text: str, srid: int = 0) -> Geometry | None:
    try:
        g = _read_wkt(_Text(text))
    except ValueError:
        return None
    if not _valid(g):
        return None
    return Geometry(g.kind, g.body, srid)


def _valid(g: Geometry) -> bool:
    """MariaDB's minimum sizes: a linestring has a point, a polygon's ring is closed and has
    at least... (MariaDB reads 'POLYGON((0 0,1 1,0 0))', so only emptiness is refused)."""
    if g.kind == LINESTRING:
        return len(g.body) >= 1
    if g.kind == POLYGON:
        return all(len(r) >= 1 for r in g.body)
    if g.kind in (MULTIPOINT, MULTILINESTRING, MULTIPOLYGON):
        return bool(g.body) and all(_valid(m) for m in g.body)
    if g.kind == COLLECTION:
        return all(_valid(m) for m in g.body)
    return True


def _num(v: float) -> str:
    from rampmeter.protocol.results import format_float
    text = format_float(v)
    return "0" if text == "-0" else text


def _pts(points: list[tuple[float, float]]) -> str:
    return ",".join(f"{_num(x)} {_num(y)}" for x, y in points)


def _body_wkt(g: Geometry) -> str:
    if g.kind == POINT:
        return f"({_num(g.body[0])} {_num(g.body[1])})"
    if g.kind == LINESTRING:
        return f"({_pts(g.body)})"
    if g.kind == POLYGON:
        return "(" + ",".join(f"({_pts(r)})" for r in g.body) + ")"
    if g.kind == MULTIPOINT:
        return f"({_pts([m.body for m in g.body])})"
    if g.kind in (MULTILINESTRING, MULTIPOLYGON):
        return "(" + ",".join(_body_wkt(m) for m in g.body) + ")"
    if not g.body:
        return " EMPTY"
    return "(" + ",".join(to_wkt(m) for m in g.body) + ")"


def to_wkt(g: Geometry) -> str:
    return g.name + _body_wkt(g)


# --- shapely (GEOS), for the functions that need geometry algebra -------------------------------
def to_shape(g: Geometry) -> Any:
    import shapely
    return shapely.from_wkb(to_wkb(g))


def from_shape(shape: Any, srid: int = 0) -> Geometry | None:
    import shapely
    if shape is None:
        return None
    if shape.is_empty and shape.geom_type != "GeometryCollection":
        return None  # MariaDB has no empty point, linestring or polygon
    g = from_wkb(shapely.to_wkb(shape, byte_order=1, output_dimension=2), srid)
    return g
