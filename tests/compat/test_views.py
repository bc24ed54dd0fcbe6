"""Issue 9, item 2c: views - CREATE [OR REPLACE] / ALTER / DROP VIEW, SHOW CREATE VIEW, SHOW FULL
TABLES, information_schema.VIEWS / TABLES / COLUMNS, reading a view (result metadata
included), and MariaDB's errors. DEFINER differs between the two servers (the client's host),
so it is never selected, and SHOW CREATE VIEW is compared from `VIEW` on."""

from __future__ import annotations

import pytest

from tests.compat.conftest import drivers

BOTH = ("pymysql", "mysqlclient")
WITH_TEXT = ("rows", "error", "message", "rowcount", "warnings", "warning_text")


@pytest.fixture
def src(compat):
    compat.setup("CREATE TABLE src (id INT PRIMARY KEY AUTO_INCREMENT, a VARCHAR(10) NOT NULL "
                 "DEFAULT 'q', b DECIMAL(10,2), c DATETIME(3), d DOUBLE)",
                 "CREATE TABLE other (id INT, k VARCHAR(5))",
                 "INSERT INTO src (a, b, d) VALUES ('x', 1.5, 2), ('y', 2.25, NULL), "
                 "('x', NULL, 3)",
                 "INSERT INTO other VALUES (1, 'one'), (3, 'three')")
    return compat


def _body(outcome):
    """SHOW CREATE VIEW's text from `VIEW` on, and its other columns."""
    assert outcome.error is None, outcome.error
    name, text, cs, coll = outcome.rows[0]
    return name, text[text.index(" VIEW "):], cs, coll


SIMPLE = [
    "CREATE VIEW v1 AS SELECT * FROM src",
    "CREATE VIEW v2 (x, y) AS SELECT a, b * 2 FROM src WHERE id > 1 AND a LIKE 'y%' "
    "ORDER BY a LIMIT 5",
    "CREATE VIEW v3 AS SELECT s.a, COUNT(*) AS n, SUM(s.b) FROM src s JOIN other o ON "
    "s.id = o.id GROUP BY s.a HAVING COUNT(*) > 0",
    "CREATE VIEW v4 AS SELECT DISTINCT a FROM src WHERE b IS NOT NULL AND id IN (1, 2) "
    "OR d BETWEEN 2 AND 3",
    "CREATE ALGORITHM=MERGE SQL SECURITY INVOKER VIEW v5 AS SELECT id, a FROM src "
    "WITH CHECK OPTION",
    "CREATE VIEW v6 AS SELECT a FROM src UNION ALL SELECT k FROM other",
]


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_show_create_view(src, driver):
    names = [sql.split(" VIEW ")[1].split()[0] for sql in SIMPLE]
    a = src.run(driver, [*SIMPLE, *(f"SHOW CREATE VIEW {n}" for n in names)])
    a.assert_same(("error", "rowcount"), only=range(len(SIMPLE)))
    for m, r in zip(a.maria[len(SIMPLE):], a.ramp[len(SIMPLE):]):
        assert _body(r) == _body(m)


@pytest.mark.parametrize("driver", drivers(*BOTH, "connector", "connector-prep", "raw-bin"))
def test_reading_views(src, driver):
    src.setup(*SIMPLE)
    src.check(driver, [
        "SELECT * FROM v1 ORDER BY id",
        "SELECT x, y FROM v2",
        "SELECT * FROM v3 ORDER BY a",
        "SELECT * FROM v4 ORDER BY a",
        "SELECT a FROM v6 ORDER BY a",
        "SELECT v1.a, o.k FROM v1 JOIN other o ON v1.id = o.id ORDER BY v1.id",
        "SELECT COUNT(*), MAX(x) FROM v2",
        "SELECT id FROM (SELECT id FROM v5) AS t ORDER BY id",
    ], checks=("rows", "error", "rowcount", "warnings", "columns"))


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_listing_views(src, driver):
    src.setup(*SIMPLE)
    src.check(driver, [
        "SHOW TABLES",
        "SHOW FULL TABLES",
        "SHOW FULL TABLES WHERE Table_type = 'VIEW'",
        "SELECT TABLE_NAME, TABLE_TYPE, ENGINE, TABLE_COMMENT FROM information_schema.TABLES "
        "WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME",
        "SELECT TABLE_NAME, VIEW_DEFINITION, CHECK_OPTION, IS_UPDATABLE, SECURITY_TYPE, "
        "ALGORITHM FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE() "
        "ORDER BY TABLE_NAME",
        "SELECT TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, IS_NULLABLE, DATA_TYPE, "
        "COLUMN_TYPE, COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = "
        "DATABASE() AND TABLE_NAME IN ('v1', 'v5') ORDER BY TABLE_NAME, ORDINAL_POSITION",
        "DESCRIBE v1",
        "SHOW COLUMNS FROM v5",
    ])


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_replace_alter_drop(src, driver):
    src.setup(*SIMPLE[:2])
    src.check(driver, [
        "CREATE OR REPLACE VIEW v1 AS SELECT id FROM src WHERE id < 3",
        "SELECT * FROM v1",
        "ALTER VIEW v1 AS SELECT a FROM src WHERE id = 1",
        "SELECT * FROM v1",
        "CREATE VIEW IF NOT EXISTS v1 AS SELECT 1",
        "DROP VIEW v1, v2",
        "SHOW TABLES",
        "DROP VIEW IF EXISTS v1, nosuch",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_view_errors(src, driver):
    src.setup(*SIMPLE[:1])
    src.check(driver, [
        "CREATE VIEW v1 AS SELECT 1",
        "CREATE VIEW src AS SELECT 1",
        "CREATE TABLE v1 (a INT)",
        "CREATE OR REPLACE VIEW src AS SELECT 1",
        "DROP TABLE v1",
        "DROP VIEW src",
        "DROP VIEW nosuch",
        "ALTER VIEW nosuch AS SELECT 1",
        "ALTER VIEW src AS SELECT 1",
        "SHOW CREATE VIEW src",
        "SHOW CREATE VIEW nosuch",
        "CREATE VIEW vbad (a, b) AS SELECT 1",
        "CREATE VIEW vbad AS SELECT 1 a, 2 a",
        "CREATE VIEW vbad AS SELECT * FROM nosuch",
        "CREATE VIEW vbad AS SELECT @v",
        "ALTER TABLE v1 ADD x INT",
    ], checks=("error",))


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_writing_through_a_simple_view(src, driver):
    """INSERT / UPDATE / DELETE through a one-table view land in its table, limited to the rows
    the view shows; a view of a count or a join is 1288 / 1471."""
    src.check(driver, [
        "CREATE VIEW w1 AS SELECT id AS k, a, b FROM src WHERE id < 5",
        "CREATE VIEW w2 AS SELECT * FROM w1",
        "CREATE VIEW w3 AS SELECT COUNT(*) AS n FROM src",
        "CREATE VIEW w4 AS SELECT id, a, b * 2 AS b2 FROM src",
        "INSERT INTO w1 (k, a) VALUES (4, 'z')",
        "INSERT INTO w1 VALUES (7, 'w', 9.5)",
        "INSERT INTO w2 (a) VALUES ('n')",
        "UPDATE w1 SET b = 100 WHERE a IN ('x', 'w')",
        "UPDATE w1 AS t SET t.a = CONCAT(t.a, '!') WHERE t.k = 2",
        "DELETE FROM w2 WHERE b IS NULL",
        "SELECT * FROM src ORDER BY id",
        "REPLACE INTO w1 (k, a) VALUES (4, 'r')",
        "INSERT IGNORE INTO w1 (k, a) VALUES (4, 'dup'), (3, 'ok')",
        "UPDATE LOW_PRIORITY w2 SET b = b + 1 ORDER BY k DESC LIMIT 2",
        "SELECT * FROM src ORDER BY id",
        "DELETE FROM w3",
        "UPDATE w3 SET n = 1",
        "INSERT INTO w3 VALUES (1)",
        "INSERT INTO w1 (nosuch) VALUES (1)",
        "INSERT INTO w4 (id, a) VALUES (20, 'e')",
        "INSERT INTO w4 VALUES (21, 'f', 3)",
        "INSERT INTO w4 (id, b2) VALUES (22, 3)",
        "UPDATE w4 SET b2 = 1",
        "UPDATE w4 SET a = 'big' WHERE b2 > 150",
        "DELETE FROM w4 WHERE b2 IS NULL AND id > 5",
        "INSERT DELAYED INTO w1 (k) VALUES (30)",
        "DELETE FROM w1 WHERE (SELECT nosuchfn())",
        "DELETE FROM w1",
        "SELECT * FROM src ORDER BY id",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_prepared_write_through_a_view(src, driver):
    src.check(driver, [
        "CREATE VIEW w1 AS SELECT id, a FROM src WHERE id > 1",
        "PREPARE s FROM 'UPDATE w1 SET a = ? WHERE id = ?'",
        "SET @a = 'p', @i = 2",
        "EXECUTE s USING @a, @i",
        "SET @i = 1",
        "EXECUTE s USING @a, @i",
        "SELECT * FROM src ORDER BY id",
    ], checks=WITH_TEXT)


NAMING = [
    "CREATE VIEW n1 AS SELECT 'c1', 'c2 ', ' c3', ' c4 ', 'Name_exp_2'",
    "CREATE VIEW n2 AS SELECT 1, 1, 1 AS `My_exp_1`",
    "CREATE VIEW n3 AS SELECT '<--- 65 char including the arrows                            --->'",
    "CREATE VIEW n4 AS SELECT * FROM (SELECT id, id+1, 'z ' FROM src) d "
    "WHERE id IN (SELECT id FROM other WHERE id > (SELECT MAX(id) FROM other))",
    "CREATE VIEW n5 AS SELECT a AS x, id + 1 AS y FROM src GROUP BY x ORDER BY y",
    "CREATE VIEW n6 AS SELECT a FROM src WHERE EXISTS (SELECT 1 FROM other o WHERE o.id = 0)",
    "CREATE VIEW n7 AS SELECT INTERVAL(55, 10) AS c, (SELECT ' c1 ')",
]


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_view_column_names_and_text(src, driver):
    """view_alias: names no column may have become Name_exp_N, made names equal to another
    become My_exp_..., leading spaces are dropped; subqueries used as values print no
    made names; a GROUP BY / ORDER BY alias prints as its expression; the client's
    character set is the view's."""
    names = [sql.split(" VIEW ")[1].split()[0] for sql in NAMING]
    a = src.run(driver, ["SET NAMES latin1", *NAMING,
                         *(f"SHOW CREATE VIEW {n}" for n in names),
                         "SELECT TABLE_NAME, COLUMN_NAME FROM information_schema.COLUMNS "
                         "WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE 'n_' "
                         "ORDER BY TABLE_NAME, ORDINAL_POSITION",
                         "SELECT ' c3', 'c2 '"])
    a.assert_same(("error", "rowcount"), only=range(len(NAMING) + 1))
    first = len(NAMING) + 1
    for m, r in zip(a.maria[first:first + len(names)], a.ramp[first:first + len(names)]):
        assert _body(r) == _body(m)
    a.assert_same(("rows", "columns"), only=range(first + len(names), len(a.maria)))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_unknown_definer_and_table_status(compat, driver):
    """show_bad_definer-5553: a view whose DEFINER is no account is created and listed with
    note 1449; SHOW TABLE STATUS gives a MyISAM table of fixed-width columns Row_format Fixed
    and its index file's first 1024 bytes."""
    compat.check(driver, [
        "CREATE TABLE fixed_t (id INT PRIMARY KEY, c CHAR(3)) ENGINE=MyISAM",
        "CREATE TABLE var_t (id INT, v VARCHAR(5)) ENGINE=MyISAM",
        "CREATE DEFINER=unknownuser@'%' SQL SECURITY DEFINER VIEW bad_v AS "
        "SELECT fixed_t.id FROM fixed_t GROUP BY fixed_t.id",
        "SHOW TABLE STATUS WHERE Name IN ('fixed_t', 'var_t', 'bad_v')",
    ], checks=("error", "warnings", "warning_text"))
    a = compat.run(driver, ["SHOW TABLE STATUS WHERE Name IN ('fixed_t', 'var_t', 'bad_v')"])
    for m, r in zip(a.maria[0].rows, a.ramp[0].rows):
        assert (r[0], r[1], r[3], r[8], r[17]) == (m[0], m[1], m[3], m[8], m[17])


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_view_in_another_database_reads_the_current_one(compat, driver):
    """default_session: `CREATE VIEW otherdb.v AS SELECT * FROM t` names the current
    database's t (MariaDB qualifies it when it stores the view); DEFINER=name without a host
    is that role when it exists, else name@'%' with note 1449."""
    compat.setup("DROP DATABASE IF EXISTS vw_other", "CREATE DATABASE vw_other",
                 "CREATE TABLE home_t (n INT)", "INSERT INTO home_t VALUES (5)",
                 "DROP ROLE IF EXISTS vw_role", "CREATE ROLE vw_role")
    a = compat.run(driver, [
        "CREATE VIEW vw_other.v1 AS SELECT * FROM home_t",
        "INSERT INTO vw_other.v1 (n) VALUES (6)",
        "SELECT * FROM vw_other.v1 ORDER BY n",
        "CREATE DEFINER=vw_role VIEW vr1 AS SELECT 1",
        "CREATE DEFINER=vw_nosuch VIEW vr2 AS SELECT 1",
        "SELECT TABLE_NAME, DEFINER FROM information_schema.VIEWS WHERE TABLE_NAME IN "
        "('vr1', 'vr2') ORDER BY TABLE_NAME",
        "SHOW CREATE VIEW vw_other.v1",
        "DROP VIEW vr1, vr2",
        "DROP DATABASE vw_other",
        "DROP ROLE vw_role",
    ])
    a.assert_same(("rows", "error", "warnings"), only=range(6))
    assert _body(a.ramp[6]) == _body(a.maria[6])


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_table_maintenance_of_views_and_temporary_tables(compat, driver):
    """mtr check: CHECK TABLE of a view is OK, REPAIR / ANALYZE / OPTIMIZE of one say it is
    no BASE TABLE; a temporary table is a table to all four."""
    compat.check(driver, [
        "CREATE TABLE ck1 (a INT) ENGINE=MyISAM",
        "CREATE VIEW ckv AS SELECT * FROM ck1",
        "CREATE TEMPORARY TABLE ckt (a INT) ENGINE=MyISAM",
        "CHECK TABLE ckv, ckt",
        "REPAIR TABLE ckv, ckt",
        "ANALYZE TABLE ckv, ckt",
        "OPTIMIZE TABLE ckv, ckt",
        "DROP VIEW ckv",
    ])


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_default_function_in_a_view(compat, driver):
    """default_session: DEFAULT(col) in a view's SELECT reads the column's default (it was
    1064 when the view was read)."""
    compat.check(driver, [
        "CREATE TABLE dft (n VARCHAR(10), d INT DEFAULT 5, e VARCHAR(5) DEFAULT 'q')",
        "CREATE VIEW dv AS SELECT DEFAULT(n), DEFAULT(d), DEFAULT(e) FROM dft",
        "INSERT INTO dft (n) VALUES ('x')",
        "SELECT * FROM dv",
        "DROP VIEW dv",
    ], checks=("rows", "error"))
