"""Issue 9, item 2a: foreign keys kept, printed and enforced as MariaDB 10.11 with InnoDB does:
constraint and index names, ON DELETE / ON UPDATE actions, 1451 / 1452 with MariaDB's text,
FOREIGN_KEY_CHECKS, ALTER TABLE ... ADD / DROP FOREIGN KEY, and what information_schema says
of them."""

from __future__ import annotations

import pytest

from tests.compat.conftest import drivers
from tests.compat.drivers import Step

WITH_TEXT = ("rows", "error", "message", "rowcount", "warnings", "warning_text")
BOTH = ("pymysql", "mysqlclient")


@pytest.fixture
def pc(compat):
    compat.setup(
        "CREATE TABLE p (id INT PRIMARY KEY, u INT UNIQUE, name VARCHAR(10))",
        "CREATE TABLE c (id INT AUTO_INCREMENT PRIMARY KEY, pid INT, x INT, "
        "CONSTRAINT fk_x FOREIGN KEY (x) REFERENCES p (u) ON DELETE CASCADE ON UPDATE SET NULL, "
        "FOREIGN KEY (pid) REFERENCES p (id))",
        "INSERT INTO p VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c')")
    return compat


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_show_create_table_and_indexes(pc, driver):
    a = pc.run(driver, ["SHOW CREATE TABLE c", "SHOW INDEX FROM c",
                        "ALTER TABLE c ADD FOREIGN KEY (x) REFERENCES p (id)",
                        "SHOW CREATE TABLE c"])
    assert "CONSTRAINT `c_ibfk_1` FOREIGN KEY (`pid`)" in a.maria[0].rows[0][1]
    a.assert_same(("rows", "error", "rowcount"), only=[0, 2, 3])
    # SHOW INDEX: the names and columns (cardinality is InnoDB's estimate)
    maria = [(r[2], r[3], r[4]) for r in a.maria[1].rows]
    ramp = [(r[2], r[3], r[4]) for r in a.ramp[1].rows]
    assert maria == ramp


@pytest.mark.parametrize("driver", drivers(*BOTH, "connector"))
def test_child_and_parent_rows(pc, driver):
    pc.check(driver, [
        "INSERT INTO c (pid) VALUES (5)",
        "INSERT INTO c (pid) VALUES (1), (2), (9)",
        "INSERT INTO c (pid, x) VALUES (1, 10), (2, 20), (NULL, 30)",
        "UPDATE c SET pid = 7 WHERE pid = 1",
        "DELETE FROM p WHERE id = 1",
        "UPDATE p SET id = 11 WHERE id = 2",
        "UPDATE p SET name = 'z' WHERE id = 1",
        # not the ids: InnoDB spends AUTO_INCREMENT values on failed rows (docs/sql.md)
        "SELECT pid, x FROM c ORDER BY pid, x",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_cascade_and_set_null(pc, driver):
    pc.check(driver, [
        "INSERT INTO c (x) VALUES (10), (10), (20), (30)",
        "UPDATE p SET u = 11 WHERE id = 1",
        "SELECT id, x FROM c ORDER BY id",
        "DELETE FROM p WHERE id IN (2, 3)",
        "SELECT id, x FROM c ORDER BY id",
    ])


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_self_referencing_table(compat, driver):
    compat.check(driver, [
        "CREATE TABLE tree (id INT PRIMARY KEY, parent INT, FOREIGN KEY (parent) "
        "REFERENCES tree (id) ON DELETE CASCADE)",
        "INSERT INTO tree VALUES (1, 1)",
        "INSERT INTO tree VALUES (2, 1), (3, 2), (4, NULL)",
        "INSERT INTO tree VALUES (5, 6), (6, 5)",
        "DELETE FROM tree WHERE id = 2",
        "SELECT id, parent FROM tree ORDER BY id",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_foreign_key_checks_off(pc, driver):
    pc.check(driver, [
        Step("SET autocommit = 0"),
        "SET foreign_key_checks = 0",
        "INSERT INTO c (pid) VALUES (99)",
        "INSERT INTO c (x) VALUES (10)",
        "DELETE FROM p WHERE id = 1",
        "SET foreign_key_checks = 1",
        "COMMIT",
        "SELECT pid, x FROM c ORDER BY id",
        "INSERT INTO c (pid) VALUES (98)",
        "SELECT @@foreign_key_checks",
    ])


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_insert_ignore_skips_with_a_warning(pc, driver):
    pc.check(driver, [
        "INSERT IGNORE INTO c (pid) VALUES (78), (1), (79)",
        "SHOW WARNINGS",
        "SELECT pid FROM c",
        "DELETE IGNORE FROM p",
        "SELECT id FROM p ORDER BY id",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_alter_table_foreign_keys(pc, driver):
    pc.check(driver, [
        "CREATE TABLE d (id INT, a INT)",
        "INSERT INTO d VALUES (1, 9)",
        "ALTER TABLE d ADD CONSTRAINT fz FOREIGN KEY (a) REFERENCES p (id)",
        "UPDATE d SET a = 1",
        "ALTER TABLE d ADD CONSTRAINT fz FOREIGN KEY (a) REFERENCES p (id)",
        "ALTER TABLE d ADD CONSTRAINT fz FOREIGN KEY (id) REFERENCES p (id)",
        "ALTER TABLE d ADD CONSTRAINT fk_x FOREIGN KEY (id) REFERENCES p (id)",
        "ALTER TABLE d ADD FOREIGN KEY (id) REFERENCES nosuch (id)",
        "ALTER TABLE d ADD FOREIGN KEY (id) REFERENCES p (name)",
        "ALTER TABLE d DROP INDEX fz",
        "ALTER TABLE d DROP FOREIGN KEY nosuch",
        "ALTER TABLE d DROP FOREIGN KEY fz",
        "SHOW CREATE TABLE d",
        "ALTER TABLE d ADD FOREIGN KEY (id) REFERENCES p (id), ADD FOREIGN KEY (a) "
        "REFERENCES p (id)",
        "SHOW CREATE TABLE d",
        "INSERT INTO d VALUES (7, 1)",
    ], checks=("rows", "error", "rowcount", "warnings"))


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_definitions_that_do_not_fit(pc, driver):
    pc.check(driver, [
        "CREATE TABLE d (a INT, FOREIGN KEY (a) REFERENCES nosuch (id))",
        "CREATE TABLE d (a VARCHAR(10), FOREIGN KEY (a) REFERENCES p (id))",
        "CREATE TABLE d (a BIGINT, FOREIGN KEY (a) REFERENCES p (id))",
        "CREATE TABLE d (a INT NOT NULL, FOREIGN KEY (a) REFERENCES p (id) ON DELETE SET NULL)",
        "CREATE TABLE d (a INT, CONSTRAINT fk_x FOREIGN KEY (a) REFERENCES p (id))",
        "CREATE TABLE d (a INT, b INT, FOREIGN KEY (a) REFERENCES p (id, u))",
        "ALTER TABLE p DROP COLUMN id",
        "ALTER TABLE c MODIFY pid BIGINT",
        "ALTER TABLE p MODIFY id BIGINT",
        "ALTER TABLE c DROP COLUMN pid",
    ], checks=("error", "message"))


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_tables_created_in_dump_order(compat, driver):
    compat.check(driver, [
        "SET foreign_key_checks = 0",
        "CREATE TABLE a_child (id INT, pid INT, FOREIGN KEY (pid) REFERENCES b_parent (id))",
        "INSERT INTO a_child VALUES (1, 1)",
        "CREATE TABLE b_parent (id INT PRIMARY KEY)",
        "INSERT INTO b_parent VALUES (1)",
        "SET foreign_key_checks = 1",
        "INSERT INTO a_child VALUES (2, 2)",
        "DELETE FROM b_parent",
        "TRUNCATE TABLE b_parent",
        "DROP TABLE b_parent, a_child",
        "SHOW TABLES",
        "DROP TABLE b_parent",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_rename_follows_names(pc, driver):
    pc.check(driver, [
        "RENAME TABLE c TO cc",
        "SHOW CREATE TABLE cc",
        "ALTER TABLE p RENAME TO pp",
        "SHOW CREATE TABLE cc",
        "ALTER TABLE cc CHANGE pid pid2 INT",
        "ALTER TABLE pp CHANGE id id2 INT",
        "SHOW CREATE TABLE cc",
        "INSERT INTO cc (pid2) VALUES (7)",
    ], checks=WITH_TEXT)


@pytest.mark.parametrize("driver", drivers(*BOTH))
def test_information_schema(pc, driver):
    pc.setup("CREATE TABLE k (a INT, b INT, z INT CHECK (z > 0), UNIQUE KEY ub (b), "
             "CONSTRAINT zz FOREIGN KEY (a) REFERENCES p (id) ON DELETE CASCADE, "
             "FOREIGN KEY fkidx (b) REFERENCES p (u), CONSTRAINT chk CHECK (a < 100), KEY (a), "
             "doc JSON)")
    where = "WHERE CONSTRAINT_SCHEMA = DATABASE()"
    pc.check(driver, [
        f"SELECT * FROM information_schema.KEY_COLUMN_USAGE {where} "
        "ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION",
        f"SELECT * FROM information_schema.REFERENTIAL_CONSTRAINTS {where} "
        "ORDER BY TABLE_NAME, CONSTRAINT_NAME",
        f"SELECT * FROM information_schema.TABLE_CONSTRAINTS {where} "
        "ORDER BY TABLE_NAME, CONSTRAINT_TYPE, CONSTRAINT_NAME",
        f"SELECT * FROM information_schema.CHECK_CONSTRAINTS {where} "
        "ORDER BY TABLE_NAME, CONSTRAINT_NAME",
        "SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM "
        "information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() "
        "ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX",
        "SHOW CREATE TABLE k",
    ])
