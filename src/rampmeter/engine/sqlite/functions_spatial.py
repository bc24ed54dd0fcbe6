"""MariaDB's spatial functions (the library, funclib.py), over engine/spatial.py's values.

Rules (MariaDB 10.11, measured against a running 10.11.19):
- Values are SRID + WKB bytes (spatial.py). A geometry argument that is NULL or not a
  geometry gives NULL.
- Constructors: ST_GeomFromText(wkt [, srid]) and its typed spellings (ST_PointFromText,
  ST_LineFromText, ...: 10.11 does not check the kind, so they are the same function), the
  same for WKB (ST_GeomFromWKB ...), and POINT(x, y), LINESTRING(p, ...), POLYGON(ls, ...),
  MULTIPOINT / MULTILINESTRING / MULTIPOLYGON / GEOMETRYCOLLECTION(g, ...). Each also answers
  to its name without ST_ (MySQL 5's spellings, still MariaDB's).
- Output: ST_AsText / ST_AsWKT (LONGTEXT), ST_AsBinary / ST_AsWKB (LONGBLOB, no SRID).
- Accessors: ST_X, ST_Y, ST_SRID, ST_GeometryType, ST_IsEmpty, ST_Dimension, ST_NumPoints,
  ST_PointN, ST_StartPoint, ST_EndPoint, ST_NumGeometries, ST_GeometryN, ST_ExteriorRing,
  ST_NumInteriorRings, ST_InteriorRingN, ST_Envelope, ST_IsClosed; the name without ST_ too
  (X(p) is ST_X(p)).
- Measures and relations use shapely (GEOS): ST_Length, ST_Area, ST_Centroid, ST_Distance,
  ST_Contains, ST_Within, ST_Intersects, ST_Overlaps, ST_Touches, ST_Crosses, ST_Disjoint,
  ST_Equals. MariaDB computes them with its own Gcalc library; the two agree except where a
  result rests on floating-point rounding.
- The spellings without ST_ of the relations (CONTAINS, WITHIN, INTERSECTS, OVERLAPS,
  TOUCHES, DISJOINT, EQUALS, CROSSES) and the MBR... functions compare minimum bounding
  rectangles, as MariaDB documents: "based on the original MySQL implementation, uses object
  bounding rectangles".
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from rampmeter.engine import spatial
from rampmeter.engine import types as T
from rampmeter.engine.spatial import Geometry
from rampmeter.engine.sqlite.funclib import sqlfunction
from rampmeter.engine.types import SqlType

GEOMETRY = SqlType("geometry", charset="binary")
DOUBLE = T.DOUBLE
INT1 = SqlType("int", 1)
INT10 = SqlType("int", 10)
LONGTEXT = T.longtext()
LONGBLOB = T.LONGBLOB
VARCHAR20 = T.varchar(20)


def _geo(v: Any) -> Geometry | None:
    return spatial.decode(v) if isinstance(v, (bytes, str)) else None


def _out(g: Geometry | None) -> bytes | None:
    return None if g is None else spatial.encode(g)


def _float(v: Any) -> float:
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, Decimal):
        return float(v)
    from rampmeter.engine.values import parse_number
    n, _ = parse_number(v.decode("latin-1") if isinstance(v, bytes) else str(v))
    return float(n) if n is not None else 0.0


def _srid(v: Any) -> int:
    return int(_float(v)) & 0xFFFFFFFF


def _text(v: Any) -> str:
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)


# --- constructors -----------------------------------------------------------------------------
_FROM_TEXT = ("ST_GEOMETRYFROMTEXT", "GEOMFROMTEXT", "GEOMETRYFROMTEXT",
              "ST_POINTFROMTEXT", "POINTFROMTEXT", "ST_LINEFROMTEXT", "LINEFROMTEXT",
              "ST_LINESTRINGFROMTEXT", "LINESTRINGFROMTEXT", "ST_POLYFROMTEXT", "POLYFROMTEXT",
              "ST_POLYGONFROMTEXT", "POLYGONFROMTEXT", "ST_MPOINTFROMTEXT", "MPOINTFROMTEXT",
              "ST_MULTIPOINTFROMTEXT", "MULTIPOINTFROMTEXT", "ST_MLINEFROMTEXT",
              "MLINEFROMTEXT", "ST_MULTILINESTRINGFROMTEXT", "MULTILINESTRINGFROMTEXT",
              "ST_MPOLYFROMTEXT", "MPOLYFROMTEXT", "ST_MULTIPOLYGONFROMTEXT",
              "MULTIPOLYGONFROMTEXT", "ST_GEOMCOLLFROMTEXT", "GEOMCOLLFROMTEXT",
              "ST_GEOMETRYCOLLECTIONFROMTEXT", "GEOMETRYCOLLECTIONFROMTEXT", "ST_WKTTOSQL")


@sqlfunction("ST_GEOMFROMTEXT", (1, 2), GEOMETRY, aliases=_FROM_TEXT)
def st_geomfromtext(wkt: Any, srid: Any = 0) -> bytes | None:
    if wkt is None or srid is None:
        return None
    return _out(spatial.from_wkt(_text(wkt), _srid(srid)))


_FROM_WKB = tuple(n.replace("TEXT", "WKB") for n in _FROM_TEXT if n != "ST_WKTTOSQL") + \
    ("ST_WKBTOSQL",)


@sqlfunction("ST_GEOMFROMWKB", (1, 2), GEOMETRY, aliases=_FROM_WKB)
def st_geomfromwkb(wkb: Any, srid: Any = 0) -> bytes | None:
    if wkb is None or srid is None:
        return None
    raw = wkb if isinstance(wkb, bytes) else _text(wkb).encode("latin-1", "replace")
    g = spatial.from_wkb(raw, _srid(srid))
    if g is None:  # a geometry value itself (SRID + WKB) is taken as it is
        g = spatial.decode(raw)
        g = None if g is None else Geometry(g.kind, g.body, _srid(srid))
    return _out(g)


@sqlfunction("POINT", 2, GEOMETRY, aliases=("ST_POINT",))
def point(x: Any, y: Any) -> bytes | None:
    if x is None or y is None:
        return None
    return _out(Geometry(spatial.POINT, (_float(x), _float(y))))


def _members(args: tuple[Any, ...], kind: int | None) -> list[Geometry] | None:
    out = []
    for a in args:
        g = _geo(a)
        if g is None or kind is not None and g.kind != kind:
            return None
        out.append(g)
    return out


@sqlfunction("LINESTRING", (1, -1), GEOMETRY)
def linestring(*pts: Any) -> bytes | None:
    ms = _members(pts, spatial.POINT)
    return None if ms is None else _out(Geometry(spatial.LINESTRING, [m.body for m in ms]))


@sqlfunction("POLYGON", (1, -1), GEOMETRY)
def polygon(*rings: Any) -> bytes | None:
    ms = _members(rings, spatial.LINESTRING)
    if ms is None or any(len(m.body) < 4 or m.body[0] != m.body[-1] for m in ms):
        return None  # a ring is closed, with at least 4 points (MariaDB: NULL otherwise)
    return _out(Geometry(spatial.POLYGON, [m.body for m in ms]))


def _multi(kind: int, member: int | None) -> Any:
    def build(*args: Any) -> bytes | None:
        ms = _members(args, member)
        return None if ms is None else _out(Geometry(kind, ms))
    return build


sqlfunction("MULTIPOINT", (1, -1), GEOMETRY)(_multi(spatial.MULTIPOINT, spatial.POINT))
sqlfunction("MULTILINESTRING", (1, -1), GEOMETRY)(_multi(spatial.MULTILINESTRING,
                                                          spatial.LINESTRING))
sqlfunction("MULTIPOLYGON", (1, -1), GEOMETRY)(_multi(spatial.MULTIPOLYGON, spatial.POLYGON))
sqlfunction("GEOMETRYCOLLECTION", (1, -1), GEOMETRY)(_multi(spatial.COLLECTION, None))


# --- output -----------------------------------------------------------------------------------
@sqlfunction("ST_ASTEXT", 1, LONGTEXT, aliases=("ASTEXT", "ST_ASWKT", "ASWKT"))
def st_astext(v: Any) -> str | None:
    g = _geo(v)
    return None if g is None else spatial.to_wkt(g)


@sqlfunction("ST_ASBINARY", 1, LONGBLOB, aliases=("ASBINARY", "ST_ASWKB", "ASWKB"))
def st_asbinary(v: Any) -> bytes | None:
    g = _geo(v)
    return None if g is None else spatial.to_wkb(g)


# --- accessors --------------------------------------------------------------------------------
def _point_coord(i: int) -> Any:
    def coord(v: Any) -> float | None:
        g = _geo(v)
        return None if g is None or g.kind != spatial.POINT else float(g.body[i])
    return coord


sqlfunction("ST_X", 1, DOUBLE, aliases=("X",))(_point_coord(0))
sqlfunction("ST_Y", 1, DOUBLE, aliases=("Y",))(_point_coord(1))


@sqlfunction("ST_SRID", 1, INT10, aliases=("SRID",))
def st_srid(v: Any) -> int | None:
    g = _geo(v)
    return None if g is None else g.srid


@sqlfunction("ST_GEOMETRYTYPE", 1, VARCHAR20, aliases=("GEOMETRYTYPE",))
def st_geometrytype(v: Any) -> str | None:
    g = _geo(v)
    return None if g is None else g.name


@sqlfunction("ST_ISEMPTY", 1, INT1, aliases=("ISEMPTY",))
def st_isempty(v: Any) -> int | None:
    g = _geo(v)
    return None if g is None else int(not g.points())


@sqlfunction("ST_DIMENSION", 1, INT10, aliases=("DIMENSION",))
def st_dimension(v: Any) -> int | None:
    g = _geo(v)
    return None if g is None else g.dimension()


def _of_kind(v: Any, kind: int) -> Geometry | None:
    """The geometry if it is of that kind (a LINESTRING for ST_NumPoints...), else None."""
    g = _geo(v)
    return g if g is not None and g.kind == kind else None


def _line(v: Any) -> Geometry | None:
    return _of_kind(v, spatial.LINESTRING)


@sqlfunction("ST_NUMPOINTS", 1, INT10, aliases=("NUMPOINTS",))
def st_numpoints(v: Any) -> int | None:
    g = _line(v)
    return None if g is None else len(g.body)


def _nth(items: list[Any], n: Any) -> Any:
    if n is None:
        return None
    i = int(_float(n))
    return items[i - 1] if 1 <= i <= len(items) else None


@sqlfunction("ST_POINTN", 2, GEOMETRY, aliases=("POINTN",))
def st_pointn(v: Any, n: Any) -> bytes | None:
    g = _line(v)
    p = None if g is None else _nth(g.body, n)
    return None if p is None else _out(Geometry(spatial.POINT, p, g.srid))  # type: ignore[union-attr]


@sqlfunction("ST_STARTPOINT", 1, GEOMETRY, aliases=("STARTPOINT",))
def st_startpoint(v: Any) -> bytes | None:
    return st_pointn(v, 1)


@sqlfunction("ST_ENDPOINT", 1, GEOMETRY, aliases=("ENDPOINT",))
def st_endpoint(v: Any) -> bytes | None:
    g = _line(v)
    return None if g is None else st_pointn(v, len(g.body))


@sqlfunction("ST_ISCLOSED", 1, INT1, aliases=("ISCLOSED",))
def st_isclosed(v: Any) -> int | None:
    g = _geo(v)
    if g is None:
        return None
    lines = [g] if g.kind == spatial.LINESTRING else g.body \
        if g.kind == spatial.MULTILINESTRING else None
    if lines is None:
        return None
    return int(all(m.body[0] == m.body[-1] for m in lines))


@sqlfunction("ST_NUMGEOMETRIES", 1, INT10, aliases=("NUMGEOMETRIES",))
def st_numgeometries(v: Any) -> int | None:
    g = _geo(v)
    if g is None or g.kind in (spatial.POINT, spatial.LINESTRING, spatial.POLYGON):
        return None
    return len(g.body)


@sqlfunction("ST_GEOMETRYN", 2, GEOMETRY, aliases=("GEOMETRYN",))
def st_geometryn(v: Any, n: Any) -> bytes | None:
    g = _geo(v)
    if g is None or g.kind in (spatial.POINT, spatial.LINESTRING, spatial.POLYGON):
        return None
    m = _nth(g.body, n)
    return None if m is None else _out(Geometry(m.kind, m.body, g.srid))


def _polygon(v: Any) -> Geometry | None:
    return _of_kind(v, spatial.POLYGON)


@sqlfunction("ST_EXTERIORRING", 1, GEOMETRY, aliases=("EXTERIORRING",))
def st_exteriorring(v: Any) -> bytes | None:
    g = _polygon(v)
    return None if g is None else _out(Geometry(spatial.LINESTRING, g.body[0], g.srid))


@sqlfunction("ST_NUMINTERIORRINGS", 1, INT10, aliases=("NUMINTERIORRINGS",))
def st_numinteriorrings(v: Any) -> int | None:
    g = _polygon(v)
    return None if g is None else len(g.body) - 1


@sqlfunction("ST_INTERIORRINGN", 2, GEOMETRY, aliases=("INTERIORRINGN",))
def st_interiorringn(v: Any, n: Any) -> bytes | None:
    g = _polygon(v)
    ring = None if g is None else _nth(g.body[1:], n)
    return None if ring is None else _out(Geometry(spatial.LINESTRING, ring, g.srid))  # type: ignore[union-attr]


def _mbr(g: Geometry) -> tuple[float, float, float, float] | None:
    return g.envelope()


@sqlfunction("ST_ENVELOPE", 1, GEOMETRY, aliases=("ENVELOPE",))
def st_envelope(v: Any) -> bytes | None:
    g = _geo(v)
    box = None if g is None else _mbr(g)
    if box is None:
        return None
    x0, y0, x1, y1 = box
    ring = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
    return _out(Geometry(spatial.POLYGON, [ring], g.srid))  # type: ignore[union-attr]


# --- measures and relations (shapely) ---------------------------------------------------------
def _shape(v: Any) -> Any:
    g = _geo(v)
    return None if g is None else spatial.to_shape(g)


@sqlfunction("ST_LENGTH", 1, DOUBLE, aliases=("GLENGTH",))
def st_length(v: Any) -> float | None:
    g = _geo(v)
    if g is None or g.kind not in (spatial.LINESTRING, spatial.MULTILINESTRING,
                                   spatial.COLLECTION):
        return None
    return float(spatial.to_shape(g).length)


@sqlfunction("ST_AREA", 1, DOUBLE, aliases=("AREA",))
def st_area(v: Any) -> float | None:
    s = _shape(v)
    return None if s is None else float(s.area)


@sqlfunction("ST_CENTROID", 1, GEOMETRY, aliases=("CENTROID",))
def st_centroid(v: Any) -> bytes | None:
    g = _geo(v)
    if g is None:
        return None
    c = spatial.from_shape(spatial.to_shape(g).centroid, g.srid)
    return _out(c)


@sqlfunction("ST_DISTANCE", 2, DOUBLE, aliases=("DISTANCE",))
def st_distance(a: Any, b: Any) -> float | None:
    sa, sb = _shape(a), _shape(b)
    return None if sa is None or sb is None else float(sa.distance(sb))


# (MariaDB's name, shapely's predicate) of each relation
_RELATIONS = (("CONTAINS", "contains"), ("WITHIN", "within"), ("INTERSECTS", "intersects"),
              ("OVERLAPS", "overlaps"), ("TOUCHES", "touches"), ("CROSSES", "crosses"),
              ("DISJOINT", "disjoint"), ("EQUALS", "equals"))


def _box_shape(box: tuple[float, ...]) -> Any:
    import shapely
    x0, y0, x1, y1 = box
    if x0 == x1 and y0 == y1:
        return shapely.Point(x0, y0)
    if x0 == x1 or y0 == y1:
        return shapely.LineString([(x0, y0), (x1, y1)])
    return shapely.box(x0, y0, x1, y1)


def _mbr_shape(v: Any) -> Any:
    g = _geo(v)
    box = None if g is None else _mbr(g)
    return None if box is None else _box_shape(box)


def _relation(method: str, shape: Any) -> Any:
    """The SQL function testing `method` between the two arguments' shapes as `shape` makes
    them: the geometry itself (ST_...) or its bounding rectangle (MBR... and the names
    without ST_)."""
    def relate(a: Any, b: Any) -> int | None:
        sa, sb = shape(a), shape(b)
        if sa is None or sb is None:
            return None
        return int(bool(getattr(sa, method)(sb)))
    return relate


for _name, _method in _RELATIONS:
    sqlfunction("ST_" + _name, 2, INT1)(_relation(_method, _shape))
    sqlfunction("MBR" + _name, 2, INT1, aliases=(_name,))(_relation(_method, _mbr_shape))
sqlfunction("MBREQUAL", 2, INT1)(_relation("equals", _mbr_shape))


# --- GeoJSON ----------------------------------------------------------------------------------
# ST_AsGeoJSON(g [, max_dec [, options]]) writes MariaDB's layout (", " and ": "), each
# coordinate rounded to max_dec decimals (half to even, as rint) when given; options bit 1
# adds "bbox" first. ST_GeomFromGeoJSON(doc [, options [, srid]]) reads Geometry, Feature
# and FeatureCollection objects (type names in any case, keys in any order); a malformed
# document is 4037 / 4038 / 4040 as the JSON functions say, a structure that is not GeoJSON
# 4048, an empty coordinates array 4076, each a warning and NULL. A position with more than
# two numbers is an error 3037 with options 1 and is cut to two with 2, 3 or 4; another option
# is error 1411.
_GEOJSON_NAMES = {spatial.POINT: "Point", spatial.LINESTRING: "LineString",
                  spatial.POLYGON: "Polygon", spatial.MULTIPOINT: "MultiPoint",
                  spatial.MULTILINESTRING: "MultiLineString",
                  spatial.MULTIPOLYGON: "MultiPolygon", spatial.COLLECTION: "GeometryCollection"}
_GEOJSON_KINDS = {name.upper(): kind for kind, name in _GEOJSON_NAMES.items()}


def _json_number(v: float, max_dec: int | None) -> str:
    from rampmeter.protocol.results import format_float
    if max_dec is not None:
        v = round(v, max_dec)
    text = format_float(v)
    return "0" if text == "-0" else text


def _position(p: tuple[float, float], max_dec: int | None) -> str:
    return f"[{_json_number(p[0], max_dec)}, {_json_number(p[1], max_dec)}]"


def _coordinates(g: Geometry, max_dec: int | None) -> str:
    if g.kind == spatial.POINT:
        return _position(g.body, max_dec)
    if g.kind == spatial.LINESTRING:
        return "[" + ", ".join(_position(p, max_dec) for p in g.body) + "]"
    if g.kind == spatial.POLYGON:
        return "[" + ", ".join("[" + ", ".join(_position(p, max_dec) for p in ring) + "]"
                               for ring in g.body) + "]"
    return "[" + ", ".join(_coordinates(m, max_dec) for m in g.body) + "]"


def _geojson(g: Geometry, max_dec: int | None, bbox: bool) -> str:
    head = ""
    if bbox:
        box = g.envelope()
        if box is not None:
            head = '"bbox": [' + ", ".join(_json_number(v, max_dec) for v in box) + "], "
    name = _GEOJSON_NAMES[g.kind]
    if g.kind == spatial.COLLECTION:
        inner = ", ".join(_geojson(m, max_dec, False) for m in g.body)
        return f'{{{head}"type": "{name}", "geometries": [{inner}]}}'
    return f'{{{head}"type": "{name}", "coordinates": {_coordinates(g, max_dec)}}}'


@sqlfunction("ST_ASGEOJSON", (1, 3), LONGTEXT)
def st_asgeojson(v: Any, max_dec: Any = None, options: Any = 0) -> str | None:
    g = _geo(v)
    if g is None:
        return None
    dec = None if max_dec is None else int(_float(max_dec))
    if dec is not None and dec < 0:
        dec = None
    opts = 0 if options is None else int(_float(options))
    return _geojson(g, dec, bool(opts & 1))


class _NotGeoJSON(Exception):
    def __init__(self, code: int, words: str, position: int | None = None) -> None:
        super().__init__(words)
        self.code, self.words, self.position = code, words, position


_BAD_FORMAT = "Incorrect GeoJSON format specified for st_geomfromgeojson function."
_EMPTY = "Incorrect GeoJSON format - empty 'coordinates' array."
_JSON_LIMIT = 32


class _Stream:
    """A JSON reader that stops at the nesting limit where MariaDB's streaming reader does
    (4040 at the 32nd open bracket), before any later syntax error; a syntax error is left
    to the JSON functions' reader (functions_json._read), which places it as MariaDB does."""

    _NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")

    def __init__(self, text: str) -> None:
        self.text, self.i, self.depth = text, 0, 0

    def ws(self) -> None:
        while self.i < len(self.text) and self.text[self.i] in " \t\n\r":
            self.i += 1

    def value(self) -> Any:
        self.ws()
        if self.i >= len(self.text):
            raise ValueError("end")
        c = self.text[self.i]
        if c in "{[":
            self.depth += 1
            if self.depth >= _JSON_LIMIT:
                raise _NotGeoJSON(4040, f"Limit of {_JSON_LIMIT} on JSON nested structures "
                                        "depth is reached", self.i + 1)
            self.i += 1
            out = self.obj() if c == "{" else self.arr()
            self.depth -= 1
            return out
        if c == '"':
            import json
            s, end = json.decoder.scanstring(self.text, self.i + 1)
            self.i = end
            return s
        for word, val in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, self.i):
                self.i += len(word)
                return val
        m = self._NUMBER.match(self.text, self.i)
        if not m:
            raise ValueError("value")
        self.i = m.end()
        return float(m.group(0))

    def obj(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        self.ws()
        if self.text.startswith("}", self.i):
            self.i += 1
            return out
        while True:
            self.ws()
            key = self.value()
            if not isinstance(key, str):
                raise ValueError("key")
            self.ws()
            if not self.text.startswith(":", self.i):
                raise ValueError(":")
            self.i += 1
            val = self.value()
            out.setdefault(key, val)
            self.ws()
            if self.text.startswith(",", self.i):
                self.i += 1
                continue
            if self.text.startswith("}", self.i):
                self.i += 1
                return out
            raise ValueError("}")

    def arr(self) -> list[Any]:
        out: list[Any] = []
        self.ws()
        if self.text.startswith("]", self.i):
            self.i += 1
            return out
        while True:
            out.append(self.value())
            self.ws()
            if self.text.startswith(",", self.i):
                self.i += 1
                continue
            if self.text.startswith("]", self.i):
                self.i += 1
                return out
            raise ValueError("]")


def _read_geojson(text: str) -> Any:
    try:
        s = _Stream(text)
        doc = s.value()
        s.ws()
        if s.i != len(text):
            raise ValueError("trailing")
        return doc
    except ValueError:
        from rampmeter.engine.sqlite.functions_json import _Malformed, _read
        try:
            _read(text)
        except _Malformed as e:
            raise _NotGeoJSON(e.code, e.words, e.position) from None
        raise _NotGeoJSON(4048, _BAD_FORMAT) from None


def _pos(v: Any, strict: bool) -> tuple[float, float]:
    if not isinstance(v, list) or len(v) < 2 or \
            not all(isinstance(n, float) for n in v):
        raise _NotGeoJSON(4048, _BAD_FORMAT)
    if len(v) > 2 and strict:
        raise _NotGeoJSON(3037, "")
    return v[0], v[1]


def _pos_list(v: Any, strict: bool, empty_ok: bool = False) -> list[tuple[float, float]]:
    if not isinstance(v, list):
        raise _NotGeoJSON(4048, _BAD_FORMAT)
    if not v and not empty_ok:
        raise _NotGeoJSON(4076, _EMPTY)
    return [_pos(p, strict) for p in v]


def _rings(v: Any, strict: bool) -> list[list[tuple[float, float]]]:
    if not isinstance(v, list):
        raise _NotGeoJSON(4048, _BAD_FORMAT)
    if not v:
        raise _NotGeoJSON(4076, _EMPTY)
    return [_pos_list(r, strict) for r in v]


def _from_geojson(doc: Any, strict: bool) -> Geometry:
    if not isinstance(doc, dict) or not isinstance(doc.get("type"), str):
        raise _NotGeoJSON(4048, _BAD_FORMAT)
    kind_name = doc["type"].upper()
    if kind_name == "FEATURE":
        return _from_geojson(doc.get("geometry"), strict)
    if kind_name == "FEATURECOLLECTION":
        features = doc.get("features")
        if not isinstance(features, list):
            raise _NotGeoJSON(4048, _BAD_FORMAT)
        return Geometry(spatial.COLLECTION, [_from_geojson(f, strict) for f in features])
    kind = _GEOJSON_KINDS.get(kind_name)
    if kind is None:
        raise _NotGeoJSON(4048, _BAD_FORMAT)
    if kind == spatial.COLLECTION:
        members = doc.get("geometries")
        if not isinstance(members, list):
            raise _NotGeoJSON(4048, _BAD_FORMAT)
        return Geometry(kind, [_from_geojson(m, strict) for m in members])
    if "coordinates" not in doc:
        raise _NotGeoJSON(4048, _BAD_FORMAT)
    c = doc["coordinates"]
    if kind == spatial.POINT:
        return Geometry(kind, _pos(c, strict))
    if kind == spatial.LINESTRING:
        return Geometry(kind, _pos_list(c, strict))
    if kind == spatial.POLYGON:
        return Geometry(kind, _rings(c, strict))
    if kind == spatial.MULTIPOINT:
        return Geometry(kind, [Geometry(spatial.POINT, p) for p in _pos_list(c, strict)])
    if not isinstance(c, list):
        raise _NotGeoJSON(4048, _BAD_FORMAT)
    if not c:
        raise _NotGeoJSON(4076, _EMPTY)
    if kind == spatial.MULTILINESTRING:
        return Geometry(kind, [Geometry(spatial.LINESTRING, _pos_list(x, strict)) for x in c])
    return Geometry(kind, [Geometry(spatial.POLYGON, _rings(x, strict)) for x in c])


@sqlfunction("ST_GEOMFROMGEOJSON", (1, 3), GEOMETRY, host=True)
def st_geomfromgeojson(host: Any, doc: Any, options: Any = 1, srid: Any = 0) -> bytes | None:
    from rampmeter.errors import ServerError
    if doc is None or options is None or srid is None:
        return None
    opt = int(_float(options))
    if opt not in (1, 2, 3, 4):
        raise ServerError(1411, message=f"Incorrect option value: '{_text(options)}' for "
                                        "function ST_GeomFromGeoJSON", sqlstate="HY000")
    try:
        g = _from_geojson(_read_geojson(_text(doc)), strict=opt == 1)
    except _NotGeoJSON as e:
        if e.code == 3037:
            raise ServerError(3037, message="Invalid GIS data provided to function "
                                            "ST_GeomFromGeoJSON.", sqlstate="22023") from None
        if e.code in (4048, 4076):
            host.warn(e.code, e.words)
        else:
            at = f" at position {e.position}" if e.position is not None else ""
            host.warn(e.code, f"{e.words} in argument 1 to function 'st_geomfromgeojson'{at}")
        return None
    return _out(Geometry(g.kind, g.body, _srid(srid)))


# --- set operations (shapely) -----------------------------------------------------------------
# An empty result is GEOMETRYCOLLECTION EMPTY, as MariaDB's. GEOS may order a polygon's
# vertices from another starting point than MariaDB's Gcalc does: the shape is the same.
def _set_operation(method: str) -> Any:
    def operate(a: Any, b: Any) -> bytes | None:
        ga, gb = _geo(a), _geo(b)
        if ga is None or gb is None:
            return None
        shape = getattr(spatial.to_shape(ga), method)(spatial.to_shape(gb))
        if shape.is_empty:
            return _out(Geometry(spatial.COLLECTION, [], ga.srid))
        return _out(spatial.from_shape(shape, ga.srid))
    return operate


for _name, _method in (("UNION", "union"), ("INTERSECTION", "intersection"),
                       ("DIFFERENCE", "difference"), ("SYMDIFFERENCE", "symmetric_difference")):
    sqlfunction("ST_" + _name, 2, GEOMETRY)(_set_operation(_method))
