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
