"""Spatial columns and functions over a real client, as MariaDB 10.11.19 answers (values
measured there): the stored bytes, WKT, errors 1416 / 1366, relations, and stored functions
named as the native spatial ones."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import error_code as _fails
from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _db(server):
    conn = server.connect()
    _run(conn, "CREATE DATABASE gis", "USE gis",
         "CREATE TABLE t1 (g GEOMETRY, p POINT NOT NULL, l LINESTRING)")
    return conn


def test_columns_store_and_return_mariadb_bytes(server):
    conn = _db(server)
    _run(conn, "INSERT INTO t1 VALUES (ST_GeomFromText('POINT(1 2)'), POINT(3, 4), NULL)",
         "INSERT INTO t1 VALUES (NULL, ST_GeomFromText('POINT(0.1 -2.5e10)', 4326), NULL)")
    rows = _run(conn, "SELECT HEX(g), ST_AsText(g), ST_AsText(p), ST_SRID(p), ST_X(p), "
                      "ST_Y(p) FROM t1")
    assert rows == (("000000000101000000000000000000F03F0000000000000040", "POINT(1 2)",
                     "POINT(3 4)", 0, 3.0, 4.0),
                    (None, None, "POINT(0.1 -25000000000)", 4326, 0.1, -25000000000.0))
    with conn.cursor() as cur:
        cur.execute("SELECT g FROM t1 LIMIT 1")
        assert cur.description[0][1] == 255  # MYSQL_TYPE_GEOMETRY
        assert cur.fetchone()[0] == bytes.fromhex(
            "000000000101000000000000000000F03F0000000000000040")
    create = _run(conn, "SHOW CREATE TABLE t1")[0][1]
    assert "`g` geometry DEFAULT NULL" in create and "`p` point NOT NULL" in create


def test_values_that_are_not_geometries_are_errors(server):
    conn = _db(server)
    assert _fails(conn, "INSERT INTO t1 VALUES ('abc', POINT(3, 4), NULL)") == 1416
    _run(conn, "SET sql_mode = ''")  # not a warning without strict mode either
    assert _fails(conn, "INSERT IGNORE INTO t1 VALUES ('abc', POINT(3, 4), NULL)") == 1416
    assert _fails(conn, "INSERT INTO t1 VALUES (NULL, ST_GeomFromText('LINESTRING(0 0,1 1)'),"
                        " NULL)") == 1366
    assert _run(conn, "SELECT COUNT(*) FROM t1") == ((0,),)


def test_functions(server):
    conn = _db(server)
    assert _run(conn, "SELECT ST_GeometryType(ST_GeomFromText('MULTIPOLYGON(((0 0,1 0,1 1,0 0)))')),"
                      " ST_AsText(ST_Envelope(ST_GeomFromText('LINESTRING(0 0,1 3)'))),"
                      " ST_AsText(LineString(Point(0,0),Point(1,1))),"
                      " ST_GeomFromText('junk')") == \
        (("MULTIPOLYGON", "POLYGON((0 0,1 0,1 3,0 3,0 0))", "LINESTRING(0 0,1 1)", None),)
    assert _run(conn, "SELECT ST_Length(ST_GeomFromText('LINESTRING(0 0,3 4)')),"
                      " ST_Area(ST_GeomFromText('POLYGON((0 0,0 2,2 2,2 0,0 0))')),"
                      " ST_Distance(Point(0,0),Point(3,4))") == ((5.0, 4.0, 5.0),)
    square = "ST_GeomFromText('POLYGON((0 0,0 1,1 1,1 0,0 0))')"
    ring = "ST_GeomFromText('LINESTRING(1 1,1 2,2 2,2 1,1 1)')"
    assert _run(conn, f"SELECT ST_Overlaps({square}, {ring}), ST_Touches({square}, {ring}),"
                      f" ST_Contains({square}, Point(0.5, 0.5)), MBRIntersects({square}, {ring}),"
                      f" Contains({square}, Point(2, 2))") == ((0, 1, 1, 1, 0),)
    assert _run(conn, "SELECT HEX(ST_AsBinary(Point(1,2))), "
                      "ST_SRID(ST_GeomFromWKB(ST_AsBinary(Point(1,2)), 7))") == \
        (("0101000000000000000000F03F0000000000000040", 7),)


def test_stored_functions_named_as_native_ones(server):
    conn = _db(server)
    with conn.cursor() as cur:
        cur.execute("CREATE FUNCTION x() RETURNS INT RETURN 2")
        cur.execute("SHOW WARNINGS")
        assert cur.fetchall() == (
            ("Note", 1585, "This function 'x' has the same name as a native function"),)
    assert _fails(conn, "SELECT x()") == 1582  # the native X(), with a wrong count
    assert _run(conn, "SELECT x(POINT(10, 20)), gis.x()") == ((10.0, 2),)
    _run(conn, "CREATE FUNCTION point() RETURNS POINT RETURN NULL")
    # MariaDB's grammar has POINT(a, b) only: another count calls the stored function
    assert _run(conn, "SELECT point(), ST_AsText(point(1, 1))") == ((None, "POINT(1 1)"),)
    _run(conn, "DROP FUNCTION point")
    assert _fails(conn, "SELECT point()") == 1305


def test_geojson_both_ways(server):
    conn = _db(server)
    assert _run(conn, "SELECT ST_AsGeoJSON(ST_GeomFromText('LINESTRING(0 0,3 4)'), 2, 1),"
                      " ST_AsGeoJSON(Point(5.363, 7.266), 1), ST_AsGeoJSON(Point(2.5, 3.5), 0)"
                      ) == (('{"bbox": [0, 0, 3, 4], "type": "LineString", "coordinates": '
                             '[[0, 0], [3, 4]]}', '{"type": "Point", "coordinates": [5.4, 7.3]}',
                             '{"type": "Point", "coordinates": [2, 4]}'),)
    assert _run(conn, """SELECT ST_AsText(ST_GeomFromGeoJSON('{"geometries":[{"coordinates":
                      [0,1],"type":"point"}],"type":"GeometryCollection"}'))""") == \
        (("GEOMETRYCOLLECTION(POINT(0 1))",),)
    with conn.cursor() as cur:
        cur.execute("""SELECT ST_GeomFromGeoJSON('{"type":"Polygon","coordinates":[]}'),
                       ST_GeomFromGeoJSON('{"type""point"}')""")
        assert cur.fetchall() == ((None, None),)
        cur.execute("SHOW WARNINGS")
        assert cur.fetchall() == (
            ("Warning", 4076, "Incorrect GeoJSON format - empty 'coordinates' array."),
            ("Warning", 4038, "Syntax error in JSON text in argument 1 to function "
                              "'st_geomfromgeojson' at position 7"))
    three = """'{"type": "Point", "coordinates": [5.3, 15.0, 4.3]}'"""
    assert _fails(conn, f"SELECT ST_GeomFromGeoJSON({three}, 1)") == 3037
    assert _fails(conn, f"SELECT ST_GeomFromGeoJSON({three}, 5)") == 1411
    assert _run(conn, f"SELECT ST_AsText(ST_GeomFromGeoJSON({three}, 2))") == (("POINT(5.3 15)",),)
    assert _run(conn, "SELECT ST_AsText(ST_Difference(POINT(0,0), POINT(0,0)))") == \
        (("GEOMETRYCOLLECTION EMPTY",),)
