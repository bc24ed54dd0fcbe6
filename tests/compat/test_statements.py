"""Issue 9, item 2d: temporary tables per session, CREATE TABLE ... LIKE / ... SELECT,
INSERT ... SELECT, multi-table UPDATE and DELETE with MariaDB's affected-row counts, window
functions; item 2e: the information_schema tables dump tools query even when empty."""

from __future__ import annotations

import pytest

from tests.compat.conftest import drivers
from tests.compat.drivers import Step

BOTH = ("pymysql", "mysqlclient")
WITH_TEXT = ("rows", "error", "message", "rowcount", "warnings", "warning_text")


@pytest.fixture
def ab(compat):
    compat.setup("CREATE TABLE a (id INT PRIMARY KEY, v INT, w INT, t TIMESTAMP(3) NULL "
                 "ON UPDATE CURRENT_TIMESTAMP(3))",
                 "CREATE TABLE b (id INT PRIMARY KEY, aid INT, x INT)",
                 "INSERT INTO a (id, v, w) VALUES (1, 10, 0), (2, 20, 0), (3, 30, 0)",
                 "INSERT INTO b VALUES (1, 1, 100), (2, 1, 200), (3, 2, 300), (4, 9, 400)")
    return compat


@pytest.mark.parametrize("driver", drivers(*BOTH, "connector", "connector-prep"))
def test_multi_table_update(ab, driver):
    ab.check(driver, [
        "UPDATE a JOIN b ON a.id = b.aid SET a.v = b.x",
        "SELECT id, v, w FROM a ORDER BY id",
        "UPDATE a JOIN b ON a.id = b.aid SET a.w = a.w + 1, b.x = b.x + 1 WHERE b.x > 150",
        "SELECT id, v, w FROM a ORDER BY id",
        "SELECT * FROM b ORDER BY id",
        "UPDATE a, b SET a.v = 0 WHERE a.id = b.aid AND b.id = 3",
        "UPDATE a LEFT JOIN b ON a.id = b.aid SET a.w = 9 WHERE b.id IS NULL",
        "UPDATE a AS x JOIN b AS y ON x.id = y.aid SET x.v = x.v WHERE y.id = 3",
        "SELECT id, v, w, t IS NULL FROM a ORDER BY id",
        "UPDATE a JOIN b ON a.id = b.aid SET nosuch = 1",
        "UPDATE a JOIN b ON a.id = b.aid SET id = 1",
    ])


@pytest.mark.parametrize("driver", drivers(*BOTH, "connector", "connector-prep"))
def test_multi_table_delete(ab, driver):
    ab.check(driver, [
        "DELETE a FROM a JOIN b ON a.id = b.aid WHERE b.x > 250",
        "DELETE FROM a USING a, b WHERE a.id = b.aid AND b.id = 1",
        "SELECT id FROM a ORDER BY id",
        "INSERT INTO a (id, v, w) VALUES (1, 1, 1), (2, 2, 2)",
        "DELETE a, b FROM a JOIN b ON a.id = b.aid",
        "SELECT id FROM a ORDER BY id",
        "SELECT id FROM b ORDER BY id",
        "DELETE t1 FROM a AS t1 WHERE t1.id = 3",
        "DELETE nosuch FROM a",
        "SELECT COUNT(*) FROM a",
    ])


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_update_delete_ignore_subquery_of_many_rows(ab, driver):
    """IGNORE makes 1242 a warning and touches no row (mtr update_ignore_216)."""
    ab.check(driver, [
        "UPDATE IGNORE a, b SET a.v = 1, b.x = 2 WHERE a.id != (SELECT 1 UNION SELECT 2)",
        "UPDATE IGNORE a SET v = 1 WHERE id != (SELECT id FROM b)",
        "DELETE IGNORE FROM a WHERE id = (SELECT aid FROM b)",
        "UPDATE a SET v = 1 WHERE id != (SELECT id FROM b)",
        "SELECT id, v FROM a ORDER BY id",
        "SELECT id, x FROM b ORDER BY id",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_insert_select(ab, driver):
    ab.check(driver, [
        "CREATE TABLE c (id INT PRIMARY KEY, total INT NOT NULL)",
        "INSERT INTO c SELECT aid, SUM(x) FROM b GROUP BY aid",
        "INSERT INTO c (id, total) SELECT id + 100, v FROM a WHERE id > 1",
        "INSERT IGNORE INTO c SELECT id, v FROM a",
        "INSERT INTO c SELECT id, NULL FROM a WHERE id = 3",
        "SELECT * FROM c ORDER BY id",
    ])


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_temporary_tables(ab, driver):
    ab.check(driver, [
        Step("CREATE TEMPORARY TABLE a (k VARCHAR(5))", conn="a"),
        Step("INSERT INTO a VALUES ('tmp')", conn="a"),
        Step("SELECT * FROM a", conn="a"),
        Step("SELECT id FROM a ORDER BY id", conn="b"),   # the other session sees the table
        Step("SHOW CREATE TABLE a", conn="a"),
        Step("SHOW TABLES", conn="a"),
        Step("CREATE TEMPORARY TABLE t2 AS SELECT id, v FROM b JOIN a ON FALSE", conn="a"),
        Step("CREATE TEMPORARY TABLE t3 LIKE b", conn="a"),
        Step("INSERT INTO t3 SELECT * FROM b WHERE id < 3", conn="a"),
        Step("UPDATE t3 SET x = x + 1", conn="a"),
        Step("SELECT * FROM t3 ORDER BY id", conn="a"),
        Step("SELECT * FROM t3", conn="b"),
        Step("DROP TEMPORARY TABLE t3", conn="a"),
        Step("DROP TEMPORARY TABLE t3", conn="a"),
        Step("DROP TABLE a", conn="a"),
        Step("SELECT id FROM a ORDER BY id", conn="a"),
        Step("CREATE TEMPORARY TABLE tx (a INT, FOREIGN KEY (a) REFERENCES b (id))", conn="a"),
    ], checks=("rows", "error", "rowcount", "warnings"))


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_create_table_like_and_select(ab, driver):
    ab.check(driver, [
        "CREATE TABLE a2 LIKE a",
        "SHOW CREATE TABLE a2",
        "CREATE TABLE a3 AS SELECT * FROM a",
        "SHOW CREATE TABLE a3",
        "CREATE TABLE a4 (z INT, v VARCHAR(20)) SELECT v, id FROM a",
        "SHOW CREATE TABLE a4",
        "SELECT * FROM a4 ORDER BY id",
        "CREATE TABLE a5 SELECT 1 AS one, 'abc' AS s, 1.5 AS d, NULL AS n, COUNT(*) AS c "
        "FROM b",
        "SHOW CREATE TABLE a5",
        "CREATE TABLE a6 (PRIMARY KEY (x)) SELECT 1 AS x UNION ALL SELECT 1",
        "SHOW TABLES LIKE 'a6'",
        "CREATE TABLE a7 SELECT aid FROM b GROUP BY aid",
        "SELECT * FROM a7 ORDER BY aid",
        "CREATE TABLE IF NOT EXISTS a7 SELECT 1",
        "CREATE TABLE a (x INT) SELECT 1",
    ])


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_create_table_select_derives_mariadbs_types(ab, driver):
    """The column types MariaDB derives for CREATE TABLE ... SELECT: integer and DECIMAL
    arithmetic by precision (a + 1 of an INT is BIGINT(12)), string functions by length and
    the arguments' character set, ROUND / FLOOR, and a UNION's column over every branch."""
    ab.check(driver, [
        "SET NAMES latin1",
        "CREATE TABLE ty (a INT, ua INT UNSIGNED, b BIGINT, s SMALLINT, c DECIMAL(5,2), "
        "v VARCHAR(10), ch CHAR(3)) CHARSET latin1",
        "CREATE TABLE tc SELECT 1+1 x1, a+1 x2, a*2 x3, -a x4, s+1 x5, b+1 x6, ua+1 x7, "
        "c+1 x8, c*c x9, c/3 x10, a/3 x11, a DIV 2 x12, a MOD 3 x13, c MOD 2 x14, ABS(a) x15, "
        "FLOOR(c) x16, ROUND(c) x17, ROUND(c,1) x18, TRUNCATE(c,1) x19, SUM(a) x20, "
        "AVG(c) x21, GREATEST(a,1) x22, LEAST(c,2) x23, COALESCE(a,s) x24, IFNULL(a,c) x25, "
        "a+0.5 x26, -1 x27 FROM ty",
        "SHOW CREATE TABLE tc",
        "CREATE TABLE ts SELECT CONCAT(v, 'x') k, UPPER(v) l, SUBSTR(v,2) m, "
        "REPLACE('a', v, ch) n, LEFT(v,3) o, REPEAT(v,2) p, LPAD(v,5,'x') q, TRIM(v) r, "
        "IFNULL(v, ch) z, 'abc' i FROM ty",
        "SHOW CREATE TABLE ts",
        "CREATE TABLE tu SELECT 'a' AS a UNION ALL SELECT REPLACE('aa', v, ch) FROM ty",
        "SHOW CREATE TABLE tu",
    ])


@pytest.mark.parametrize("driver", drivers(*BOTH, "connector", "raw-bin"))
def test_window_functions(ab, driver):
    ab.check(driver, [
        "SELECT id, aid, x, ROW_NUMBER() OVER (ORDER BY id) AS rn, RANK() OVER (ORDER BY aid) "
        "AS rk, DENSE_RANK() OVER (ORDER BY aid) AS dr, SUM(x) OVER (PARTITION BY aid) AS s "
        "FROM b ORDER BY id",
        "SELECT id, LAG(x) OVER w AS prev, LEAD(x, 1) OVER w AS nxt, FIRST_VALUE(x) OVER w AS "
        "fv, NTILE(2) OVER w AS nt FROM b WINDOW w AS (ORDER BY id) ORDER BY id",
        "SELECT id, COUNT(*) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS c, "
        "MAX(x) OVER (ORDER BY id RANGE UNBOUNDED PRECEDING) AS m FROM b ORDER BY id",
    ], checks=("rows", "error", "rowcount", "warnings", "columns"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_feature_window_functions_status(ab, driver):
    """Feature_window_functions counts the SELECTs that use window functions (win_i_s)."""
    ab.check(driver, [
        "FLUSH STATUS",
        "SHOW STATUS LIKE '%window%'",
        "SELECT id, RANK() OVER (ORDER BY id), SUM(x) OVER (ORDER BY id) FROM b",
        "SHOW STATUS LIKE '%window%'",
        "SELECT * FROM (SELECT id, RANK() OVER (ORDER BY id) r FROM b) x, "
        "(SELECT id, ROW_NUMBER() OVER (ORDER BY id) n FROM b) y LIMIT 1",
        "SHOW STATUS LIKE '%window%'",
    ])


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_empty_information_schema_tables(ab, driver):
    ab.check(driver, [
        "SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()",
        "SELECT COUNT(*) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE()",
        "SELECT COUNT(*) FROM information_schema.EVENTS WHERE EVENT_SCHEMA = DATABASE()",
        "SELECT COUNT(*) FROM information_schema.PARAMETERS WHERE SPECIFIC_SCHEMA = DATABASE()",
        "SELECT DISTINCT LOGFILE_GROUP_NAME, FILE_NAME, TOTAL_EXTENTS, INITIAL_SIZE, ENGINE, "
        "EXTRA FROM information_schema.FILES WHERE FILE_TYPE = 'UNDO LOG' AND FILE_NAME IS NOT "
        "NULL AND LOGFILE_GROUP_NAME IS NOT NULL",
        "SELECT TABLE_NAME, PARTITION_NAME, PARTITION_METHOD FROM information_schema.PARTITIONS "
        "WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME",
    ])


@pytest.mark.parametrize("driver", drivers("pymysql"))
@pytest.mark.parametrize("table", ["TRIGGERS", "ROUTINES", "EVENTS", "FILES", "PARTITIONS",
                                   "VIEWS", "KEY_COLUMN_USAGE", "REFERENTIAL_CONSTRAINTS",
                                   "TABLE_CONSTRAINTS", "CHECK_CONSTRAINTS", "STATISTICS",
                                   "COLUMNS", "TABLES", "PARAMETERS"])
def test_information_schema_columns(ab, driver, table):
    """MariaDB 10.11's column lists, in order (what `SELECT *` gives a dump tool)."""
    a = ab.run(driver, [f"SELECT * FROM information_schema.{table} LIMIT 0"])
    assert a.maria[0].error is None
    assert [c.name for c in a.ramp[0].columns] == [c.name for c in a.maria[0].columns]


EVERY_TYPE = (
    "CREATE TABLE ty (id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY, a INT DEFAULT 5, "
    "b DECIMAL(10,2) DEFAULT 2.5, c VARCHAR(10) DEFAULT 'x''y', d DATETIME(3) DEFAULT "
    "CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3), e TIMESTAMP NOT NULL DEFAULT "
    "CURRENT_TIMESTAMP, f FLOAT DEFAULT 1.5, g ENUM('a','b') NOT NULL, h BIT(3) DEFAULT b'101', "
    "i DATE DEFAULT '2020-01-01', j TIME(2), k BLOB, l TEXT DEFAULT 'abc', m VARCHAR(5) "
    "CHARACTER SET latin1, n JSON, o BIGINT NOT NULL, p DOUBLE, q CHAR(2) DEFAULT '', "
    "r VARBINARY(3), s YEAR, t TINYINT(1), u INT DEFAULT (1+1), v SET('x','y') DEFAULT 'x', "
    "w MEDIUMTEXT, x BINARY(4), y DOUBLE(10,3), z SMALLINT UNSIGNED ZEROFILL, "
    "UNIQUE KEY uq (c, i), KEY kd (d))")


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_information_schema_of_every_type(compat, driver):
    compat.setup(EVERY_TYPE, "CREATE TABLE plain (a INT)")
    compat.check(driver, [
        "SELECT * FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() "
        "ORDER BY TABLE_NAME, ORDINAL_POSITION",
        "SELECT TABLE_NAME, NON_UNIQUE, INDEX_SCHEMA, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, "
        "COLLATION, SUB_PART, PACKED, NULLABLE, INDEX_TYPE, COMMENT, INDEX_COMMENT, IGNORED "
        "FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() "
        "ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX",
        "SELECT TABLE_NAME, TABLE_TYPE, ENGINE, VERSION, ROW_FORMAT, TABLE_COLLATION, "
        "CREATE_OPTIONS, TABLE_COMMENT, TEMPORARY, AUTO_INCREMENT FROM information_schema.TABLES "
        "WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME",
        "SHOW FULL COLUMNS FROM ty",
    ])


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_statements_refused_under_lock_tables(ab, driver):
    """Under LOCK TABLES, account statements are 1100 (the grant tables are not locked) and
    database / view / routine DDL 1192; under FLUSH TABLES WITH READ LOCK account statements
    are 1223. rampmeter used to wait for the write lock the session held itself (view_grant
    timed out)."""
    ab.check(driver, [
        "CREATE VIEW lv AS SELECT 1",
        "LOCK TABLES lv READ",
        "CREATE USER 'locked_u'@'%'",
        "GRANT SELECT ON test.* TO 'locked_u'@'%'",
        "SET PASSWORD FOR 'locked_u'@'%' = PASSWORD('x')",
        "CREATE DATABASE locked_db",
        "CREATE DEFINER=CURRENT_USER VIEW lv2 AS SELECT 2",
        "DROP VIEW lv",
        "CREATE PROCEDURE lp() BEGIN END",
        "UNLOCK TABLES",
        "FLUSH TABLES WITH READ LOCK",
        "CREATE USER 'locked_u'@'%'",
        "UNLOCK TABLES",
        "DROP VIEW lv",
    ], checks=("error", "message"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_check_table_waits_for_another_sessions_lock_tables(ab, driver):
    """mtr check: CHECK TABLE of a table another session holds under LOCK TABLES ... WRITE
    waits lock_wait_timeout, then reports the timeout in its rows."""
    ab.check(driver, [
        Step("LOCK TABLE a WRITE", conn="a"),
        Step("SET lock_wait_timeout = 1", conn="b"),
        Step("CHECK TABLE a", conn="b"),
        Step("UNLOCK TABLES", conn="a"),
        Step("CHECK TABLE a", conn="b"),
    ], checks=("rows", "error"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_writing_a_table_locked_read_is_1099(ab, driver):
    """mdev19198: under LOCK TABLES, CREATE TABLE IF NOT EXISTS of a table locked READ and
    writes into it are 1099; locked WRITE, or after UNLOCK TABLES, they go on."""
    ab.check(driver, [
        "LOCK TABLES a WRITE, b READ",
        "CREATE TABLE IF NOT EXISTS a LIKE b",
        "INSERT INTO a (id, v, w) VALUES (9, 9, 9)",
        "UNLOCK TABLES",
        "LOCK TABLES a READ, b READ",
        "CREATE TABLE IF NOT EXISTS a LIKE b",
        "INSERT INTO a (id, v, w) VALUES (8, 8, 8)",
        "UPDATE a SET v = 0",
        "UNLOCK TABLES",
        "CREATE TABLE IF NOT EXISTS a LIKE b",
        "SELECT id FROM a ORDER BY id",
    ], checks=("rows", "error", "message", "warnings"))
