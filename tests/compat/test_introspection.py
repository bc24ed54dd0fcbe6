"""Issue 9, item 2e: the introspection queries ORMs run, as they write them (Django 5's MySQL
backend, SQLAlchemy 2's MySQL dialect), over a schema with every kind of key and constraint;
answered as MariaDB answers them."""

from __future__ import annotations

import pytest

from tests.compat.conftest import drivers
from tests.compat.drivers import Step

SCHEMA = (
    "CREATE TABLE author (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(50) NOT NULL, "
    "email VARCHAR(254) NOT NULL UNIQUE, meta JSON, age SMALLINT UNSIGNED CHECK (age < 200))",
    "CREATE TABLE book (id BIGINT AUTO_INCREMENT PRIMARY KEY, author_id INT NOT NULL, "
    "title VARCHAR(100) NOT NULL, price DECIMAL(8,2), isbn CHAR(13), "
    "CONSTRAINT book_author_fk FOREIGN KEY (author_id) REFERENCES author (id) "
    "ON DELETE CASCADE, CONSTRAINT book_title_isbn_uniq UNIQUE (title, isbn), "
    "KEY book_price_idx (price))",
    "CREATE TABLE tag (book_id BIGINT, label VARCHAR(20), PRIMARY KEY (book_id, label), "
    "FOREIGN KEY (book_id) REFERENCES book (id))",
    "CREATE VIEW cheap AS SELECT id, title FROM book WHERE price < 10",
)

DJANGO = [
    # DatabaseIntrospection.get_table_list
    "SELECT table_name, table_type, table_comment FROM information_schema.tables "
    "WHERE table_schema = DATABASE() ORDER BY table_name",
    # get_table_description (field info)
    "SELECT column_name, data_type, character_maximum_length, numeric_precision, "
    "numeric_scale, extra, column_default, CASE WHEN collation_name = "
    "'utf8mb4_general_ci' THEN NULL ELSE collation_name END AS collation_name, "
    "CASE WHEN column_type LIKE '%% unsigned' THEN 1 ELSE 0 END AS is_unsigned, "
    "column_comment FROM information_schema.columns WHERE table_name = %s AND "
    "table_schema = DATABASE() ORDER BY ordinal_position",
    # (its JSON-column query compares text with `+` sums: a matter of expressions, not here)
    # get_relations
    "SELECT column_name, referenced_column_name, referenced_table_name FROM "
    "information_schema.key_column_usage WHERE table_name = %s AND table_schema = DATABASE() "
    "AND referenced_table_schema = DATABASE() AND referenced_table_name IS NOT NULL AND "
    "referenced_column_name IS NOT NULL",
    # get_primary_key_columns / get_constraints
    "SELECT kc.`constraint_name`, kc.`column_name`, kc.`referenced_table_name`, "
    "kc.`referenced_column_name`, c.`constraint_type` FROM "
    "information_schema.key_column_usage AS kc, information_schema.table_constraints AS c "
    "WHERE kc.table_schema = DATABASE() AND c.table_schema = kc.table_schema AND "
    "c.constraint_name = kc.constraint_name AND c.constraint_type != 'CHECK' AND "
    "kc.table_name = %s ORDER BY kc.`ordinal_position`",
    "SELECT cc.constraint_name, cc.check_clause FROM information_schema.check_constraints AS "
    "cc, information_schema.table_constraints AS tc WHERE cc.constraint_schema = DATABASE() "
    "AND tc.table_schema = cc.constraint_schema AND cc.constraint_name = tc.constraint_name "
    "AND tc.constraint_type = 'CHECK' AND tc.table_name = %s",
    # the storage engine
    "SELECT engine FROM information_schema.tables WHERE table_name = %s AND table_schema = "
    "DATABASE()",
]

SQLALCHEMY = [
    "SHOW FULL TABLES FROM `{db}`",
    "SHOW CREATE TABLE `{db}`.`book`",
    "SHOW CREATE TABLE `{db}`.`tag`",
    "SHOW CREATE TABLE `{db}`.`author`",
    "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_TYPE='VIEW' AND "
    "TABLE_SCHEMA='{db}'",
    "SHOW CREATE TABLE `{db}`.`cheap`",
    "SELECT COLUMN_NAME FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = '{db}' AND "
    "TABLE_NAME = 'book' ORDER BY ORDINAL_POSITION",
]


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient"))
@pytest.mark.parametrize("table", ["author", "book", "tag"])
def test_django_introspection(compat, driver, table):
    compat.setup(*SCHEMA)
    steps = [Step(sql, (table,)) if "%s" in sql else Step(sql.replace("%%", "%"))
             for sql in DJANGO]
    a = compat.run(driver, steps)
    a.assert_same(("error", "rowcount", "warnings"))
    for m, r in zip(a.maria, a.ramp):  # ORDER BY ordinal_position leaves ties in any order
        assert sorted(map(repr, r.rows or ())) == sorted(map(repr, m.rows or ())), m.sql


@pytest.mark.parametrize("driver", drivers("pymysql", "mysqlclient"))
def test_sqlalchemy_reflection(compat, driver):
    compat.setup(*SCHEMA)
    steps = [sql.format(db=compat.db) for sql in SQLALCHEMY]
    a = compat.run(driver, steps)
    view_step = steps.index(f"SHOW CREATE TABLE `{compat.db}`.`cheap`")
    a.assert_same(only=[k for k in range(len(steps)) if k != view_step])
    # the view's text without its DEFINER (the client's host differs between the servers)
    m, r = a.maria[view_step].rows[0][1], a.ramp[view_step].rows[0][1]
    assert r[r.index(" SQL SECURITY"):] == m[m.index(" SQL SECURITY"):]
