"""engine/spatial.py: MariaDB's stored form of a geometry (SRID + WKB) and its WKT, with
values measured on MariaDB 10.11.19."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rampmeter.engine import spatial
from rampmeter.engine.sqlite import SqliteSession
from rampmeter.errors import ServerError

from .conftest import rows

pytestmark = pytest.mark.timeout(60)


def test_point_bytes_as_mariadb_stores_them():
    g = spatial.from_wkt("POINT(1 2)")
    assert spatial.encode(g).hex().upper() == \
        "000000000101000000000000000000F03F0000000000000040"
    assert spatial.to_wkb(g).hex().upper() == "0101000000000000000000F03F0000000000000040"
    with_srid = spatial.from_wkt("POINT(1 2)", 7)
    assert spatial.encode(with_srid)[:4] == struct.pack("<I", 7)
    assert spatial.decode(spatial.encode(with_srid)) == with_srid


@pytest.mark.parametrize(("text", "shown"), [
    ("POINT(1 2)", "POINT(1 2)"),
    (" point ( 1   1 ) ", "POINT(1 1)"),
    ("POINT(1 1) x", "POINT(1 1)"),  # what follows a complete value is ignored
    ("POLYGON((0 0,0 1,1 1,1 0,0 0),(0.2 0.2, 0.3 0.3, 0.2 0.3,0.2 0.2))",
     "POLYGON((0 0,0 1,1 1,1 0,0 0),(0.2 0.2,0.3 0.3,0.2 0.3,0.2 0.2))"),
    ("MULTIPOINT(1 1, 2 2)", "MULTIPOINT(1 1,2 2)"),
    ("GEOMETRYCOLLECTION(POINT(1 1),LINESTRING(1 1,2 2))",
     "GEOMETRYCOLLECTION(POINT(1 1),LINESTRING(1 1,2 2))"),
    ("GEOMETRYCOLLECTION EMPTY", "GEOMETRYCOLLECTION EMPTY"),
    ("MULTIPOLYGON(((0 0,1 0,1 1,0 0)))", "MULTIPOLYGON(((0 0,1 0,1 1,0 0)))"),
    ("POINT(1e20 1.23456789012345678)", "POINT(1e20 1.2345678901234567)"),
    ("POINT(0.1 -2.5e10)", "POINT(0.1 -25000000000)"),
    ("POINT(1e-7 1.5e-20)", "POINT(0.0000001 1.5e-20)"),
])
def test_wkt_read_and_written_as_mariadb(text, shown):
    g = spatial.from_wkt(text)
    assert g is not None
    assert spatial.to_wkt(g) == shown


@pytest.mark.parametrize("text", ["junk", "POINT EMPTY", "MULTIPOINT((1 1),(2 2))",
                                  "POINT(1)", "LINESTRING()", "POLYGON(0 0,1 1)", ""])
def test_malformed_wkt_is_none(text):
    assert spatial.from_wkt(text) is None


@pytest.mark.parametrize("raw", [b"", b"abc", b"\0" * 8, b"\0\0\0\0\x01\x01\0\0\0",
                                 b"\0\0\0\0\x01\x09\0\0\0" + b"\0" * 16])
def test_bytes_that_are_not_a_geometry(raw):
    assert spatial.decode(raw) is None


def test_trailing_bytes_are_refused():
    raw = spatial.encode(spatial.from_wkt("POINT(1 2)"))
    assert spatial.decode(raw + b"x") is None


_coord = st.floats(allow_nan=False, allow_infinity=False, width=64)


@given(st.lists(st.tuples(_coord, _coord), min_size=1, max_size=8), st.integers(0, 2**32 - 1))
def test_linestring_round_trips_through_bytes_and_text(points, srid):
    g = spatial.Geometry(spatial.LINESTRING, points, srid)
    assert spatial.decode(spatial.encode(g)) == g
    again = spatial.from_wkt(spatial.to_wkt(g), srid)
    assert again is not None
    assert [(abs(x), abs(y)) for x, y in again.body] == [(abs(x), abs(y)) for x, y in points]


def test_envelope_and_dimension():
    g = spatial.from_wkt("GEOMETRYCOLLECTION(POINT(1 5),LINESTRING(0 0,3 4))")
    assert g.envelope() == (0, 0, 3, 5)
    assert g.dimension() == 1
    assert spatial.from_wkt("MULTIPOLYGON(((0 0,1 0,1 1,0 0)))").dimension() == 2


def test_a_geometry_beside_a_number_is_4078(session: SqliteSession) -> None:
    """MariaDB refuses a geometry compared or computed with a number or a temporal value,
    NATURAL / USING joins included (geomops.py; mtr bug13633383); a string is fine."""
    session.execute("CREATE TABLE gi (a INT, b INT)")
    session.execute("CREATE TABLE gg (a GEOMETRY, c INT)")
    for sql, message in (
            ("SELECT 1.5 = POINT(1, 1)", "decimal and geometry for operation '='"),
            ("SELECT a + 1 FROM gg", "geometry and int for operation '+'"),
            ("SELECT 1 IN (POINT(1, 1), 2)", "int and geometry for operation 'in'"),
            ("SELECT * FROM gi NATURAL JOIN gg", "int and geometry for operation '='"),
            ("SELECT * FROM gi JOIN gg USING (a)", "int and geometry for operation '='")):
        with pytest.raises(ServerError) as e:
            session.execute(sql)
        assert e.value.code == 4078
        assert str(e.value.message).endswith(message)
    assert rows(session.execute("SELECT 'a' = POINT(1, 1), NULL = POINT(1, 1)")) == [(0, None)]
