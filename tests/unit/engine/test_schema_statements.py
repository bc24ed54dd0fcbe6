"""Temporary tables, views, CREATE TABLE ... LIKE / SELECT, multi-table UPDATE / DELETE and ALTER
TABLE in the engine alone: what is cheaper to prove here than through a server (sessions and
their plans kept apart, a handle's temporary tables gone with it). tests/compat compares the
same statements with MariaDB."""

from __future__ import annotations

from collections.abc import Callable

from rampmeter import errors
from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows, scalar, update

Open = Callable[..., SqliteSession]


def test_temporary_table_is_the_sessions_own(open_session: Open) -> None:
    a = open_session(1)
    a.execute("CREATE DATABASE db")
    a.use("db")
    b = open_session(2, database="db")
    a.execute("CREATE TABLE t (x int)")
    update(a, "INSERT INTO t VALUES (1)")
    assert rows(b.execute("SELECT x FROM t")) == [(1,)]  # b's plan for this shape is cached
    a.execute("CREATE TEMPORARY TABLE t (y varchar(5))")
    update(a, "INSERT INTO t VALUES ('tmp')")
    assert rows(a.execute("SELECT * FROM t")) == [("tmp",)]
    assert rows(b.execute("SELECT x FROM t")) == [(1,)]  # same shape, b's own plan
    assert rows(b.execute("SELECT * FROM t")) == [(1,)]
    fails(b, "DROP TEMPORARY TABLE t", 1051)
    assert a.list_tables() == ["t"]  # SHOW TABLES does not list temporary tables
    a.execute("DROP TABLE t")  # the temporary one
    assert rows(a.execute("SELECT * FROM t")) == [(1,)]


def test_temporary_table_goes_with_its_session(open_session: Open) -> None:
    a = open_session(1)
    a.execute("CREATE DATABASE db")
    a.use("db")
    a.execute("CREATE TEMPORARY TABLE tmp (x int primary key)")
    update(a, "INSERT INTO tmp VALUES (1), (2)")
    assert update(a, "UPDATE tmp SET x = x + 10").affected_rows == 2
    a.close()
    b = open_session(2, database="db")
    fails(b, "SELECT * FROM tmp", 1146)


def test_temporary_table_ddl(session: SqliteSession) -> None:
    session.execute("CREATE TEMPORARY TABLE tt (a int)")
    session.execute("ALTER TABLE tt ADD b varchar(3) DEFAULT 'x'")
    session.execute("CREATE INDEX ia ON tt (a)")
    update(session, "INSERT INTO tt (a) VALUES (1)")
    text = str(rows(session.execute("SHOW CREATE TABLE tt"))[0][1])
    assert text.startswith("CREATE TEMPORARY TABLE `tt` (")
    assert "KEY `ia` (`a`)" in text
    session.execute("RENAME TABLE tt TO tt2")
    assert rows(session.execute("SELECT a, b FROM tt2")) == [(1, "x")]
    session.execute("TRUNCATE TABLE tt2")
    assert scalar(session, "SELECT COUNT(*) FROM tt2") == 0
    fails(session, "CREATE TEMPORARY TABLE fk (a int, FOREIGN KEY (a) REFERENCES tt2 (a))",
          1005)


def test_view_reads_and_follows_its_tables(session: SqliteSession) -> None:
    session.execute("CREATE TABLE src (id int primary key, a varchar(10))")
    update(session, "INSERT INTO src VALUES (1, 'x'), (2, 'y')")
    session.execute("CREATE VIEW v AS SELECT id, a, 'lit' AS l FROM src WHERE id > 1")
    assert rows(session.execute("SELECT * FROM v")) == [(2, "y", "lit")]
    update(session, "INSERT INTO src VALUES (3, 'z')")
    assert rows(session.execute("SELECT a FROM v ORDER BY a DESC")) == [("z",), ("y",)]
    session.execute("CREATE VIEW w AS SELECT a FROM v WHERE a <> 'z'")  # a view of a view
    assert rows(session.execute("SELECT * FROM w")) == [("y",)]
    session.execute("CREATE DATABASE other")
    assert rows(session.execute("SELECT COUNT(*) FROM db.w JOIN db.src USING (a)")) == [(1,)]
    fails(session, "INSERT INTO v VALUES (9, 'q', 'l')", 1471)  # a literal column
    fails(session, "UPDATE v SET l = 'x'", 1348)
    session.execute("DROP TABLE src")
    fails(session, "SELECT * FROM v", 1356)


def test_view_columns_are_fixed_when_created(session: SqliteSession) -> None:
    session.execute("CREATE TABLE src (id int, a int)")
    update(session, "INSERT INTO src VALUES (1, 2)")
    session.execute("CREATE VIEW v AS SELECT * FROM src")
    session.execute("ALTER TABLE src ADD b int DEFAULT 7")
    assert rows(session.execute("SELECT * FROM v")) == [(1, 2)]
    text = str(rows(session.execute("SHOW CREATE VIEW v"))[0][1])
    assert text.endswith("VIEW `v` AS select `src`.`id` AS `id`,`src`.`a` AS `a` from `src`")


def test_create_table_select_undone_when_rows_fail(session: SqliteSession) -> None:
    fails(session, "CREATE TABLE c (PRIMARY KEY (x)) SELECT 1 AS x UNION ALL SELECT 1", 1062)
    assert session.list_tables() == []
    result = update(session, "CREATE TABLE c SELECT 1 AS x UNION ALL SELECT 2")
    assert (result.affected_rows, result.info) == (2, "Records: 2  Duplicates: 0  Warnings: 0")


def test_create_table_select_orders_columns_as_mariadb(session: SqliteSession) -> None:
    # the defined columns the query does not name, then the query's in its order (10.11)
    session.execute("CREATE TABLE t9 (a int, b char(5), c int) SELECT 1 AS x, 'q' AS b, 2 AS y")
    assert [r[0] for r in rows(session.execute("SHOW COLUMNS FROM t9"))] == \
        ["a", "c", "x", "b", "y"]
    assert rows(session.execute("SHOW COLUMNS FROM t9 LIKE 'b'"))[0][1] == "char(5)"
    session.execute("CREATE TABLE t8 SELECT user() AS u")
    assert rows(session.execute("SHOW COLUMNS FROM t8"))[0][1] == "varchar(384)"


def test_multi_table_update_counts_each_table(session: SqliteSession) -> None:
    session.execute("CREATE TABLE a (id int primary key, v int)")
    session.execute("CREATE TABLE b (id int primary key, aid int, x int)")
    update(session, "INSERT INTO a VALUES (1, 10), (2, 20)")
    update(session, "INSERT INTO b VALUES (1, 1, 100), (2, 1, 200), (3, 2, 20)")
    result = update(session, "UPDATE a JOIN b ON a.id = b.aid SET a.v = b.x, b.x = 0")
    assert result.info == "Rows matched: 5  Changed: 4  Warnings: 0"
    assert rows(session.execute("SELECT v FROM a ORDER BY id")) == [(100,), (20,)]
    assert update(session, "DELETE a, b FROM a JOIN b ON a.id = b.aid").affected_rows == 5


def test_multi_table_update_of_a_using_column(session: SqliteSession) -> None:
    # a column joined USING is one column, the leftmost table's (mtr lock_multi_bug38691)
    for t in ("t1", "t2", "t3"):
        session.execute(f"CREATE TABLE {t} (a int, b int)")
        session.execute(f"INSERT INTO {t} VALUES (1, 1), (2, 2)")
    update(session, "UPDATE t2 JOIN (t1 JOIN t3 USING (a)) USING (a) SET a = 5 WHERE t1.b = 1")
    assert rows(session.execute("SELECT a FROM t2 ORDER BY a")) == [(2,), (5,)]
    assert rows(session.execute("SELECT a FROM t1 ORDER BY a")) == [(1,), (2,)]
    fails(session, "UPDATE t1 JOIN t3 USING (a) SET b = 1", 1052)  # b is two columns
    # a table inside a derived table is not one of the statement's (mtr lock_multi_bug38499)
    update(session, "UPDATE t1, (SELECT 1 FROM t2 t1i) d SET a = 0 WHERE 1 = 0")


def test_alter_keeps_rows_counter_and_foreign_keys(session: SqliteSession) -> None:
    session.execute("CREATE TABLE p (id int primary key)")
    session.execute("CREATE TABLE c (id int auto_increment primary key, pid int, "
                    "FOREIGN KEY (pid) REFERENCES p (id))")
    update(session, "INSERT INTO p VALUES (1)")
    update(session, "INSERT INTO c (pid) VALUES (1), (1)")
    update(session, "DELETE FROM c WHERE id = 2")
    update(session, "ALTER TABLE c ADD note varchar(5) NOT NULL FIRST")
    update(session, "INSERT INTO c (note, pid) VALUES ('n', 1)")
    assert rows(session.execute("SELECT note, id, pid FROM c ORDER BY id")) == \
        [("", 1, 1), ("n", 3, 1)]  # the counter survived the rebuild
    fails(session, "INSERT INTO c (note, pid) VALUES ('n', 5)", 1452)  # and the constraint  # and so did the constraint


def test_reset_drops_temporary_tables(session: SqliteSession) -> None:
    session.execute("CREATE TEMPORARY TABLE tt (a int)")
    session.reset()
    session.use("db")
    fails(session, "SELECT * FROM tt", 1146)


def test_explain_of_a_view_with_literals_binds_them(session: SqliteSession) -> None:
    # the view's literals are bound values of the expanded query (mtr cte_nonrecursive)
    session.execute("CREATE TABLE t1 (a INT)")
    session.execute("CREATE VIEW v1 AS SELECT a, 'x' AS s, 3 AS n FROM t1 "
                    "WHERE a > 1 OR 'q' = 'q'")
    got = rows(session.execute("EXPLAIN SELECT * FROM v1"))
    assert got and all(r[0] == 1 and r[1] == "SIMPLE" for r in got)
    got = rows(session.execute("EXPLAIN SELECT * FROM v1 WHERE s = 'y'"))
    assert got


def test_view_records_the_sessions_client_charset(session: SqliteSession) -> None:
    # MariaDB shows the character_set_client / collation_connection the view was made with
    session.context.variables.update(  # type: ignore[attr-defined]
        character_set_client="latin1", collation_connection="latin1_swedish_ci")
    session.execute("CREATE VIEW v AS SELECT 1 AS a")
    assert rows(session.execute("SHOW CREATE VIEW v"))[0][2:] == ("latin1", "latin1_swedish_ci")


def test_alter_ignore_adding_a_unique_key_drops_the_later_duplicates(
        session: SqliteSession) -> None:
    # measured on MariaDB 10.11 (mtr alter_table_mdev539_myisam): the first row of each value
    # stays; NULLs repeat nothing
    session.execute("CREATE TABLE t (a int, b int) ENGINE=MyISAM")
    update(session, "INSERT INTO t VALUES (1, 1), (1, 2), (2, 3), (NULL, 4), (NULL, 5)")
    result = update(session, "ALTER IGNORE TABLE t ADD UNIQUE KEY (a)")
    assert result.info == "Records: 5  Duplicates: 1  Warnings: 0"
    assert rows(session.execute("SELECT * FROM t")) == [(1, 1), (2, 3), (None, 4), (None, 5)]
    session.execute("CREATE TABLE t2 (a int, b int)")
    update(session, "INSERT INTO t2 VALUES (1, 1), (1, 2), (2, 3)")
    fails(session, "ALTER TABLE t2 ADD PRIMARY KEY (a)", 1062)
    update(session, "ALTER IGNORE TABLE t2 ADD PRIMARY KEY (a)")
    assert rows(session.execute("SELECT * FROM t2")) == [(1, 1), (2, 3)]


def test_rename_table_if_exists_and_wait(session: SqliteSession) -> None:
    """RENAME TABLE IF EXISTS skips a missing table with a Note (MariaDB 10.5+, mtr rename);
    WAIT n / NOWAIT after a name are read."""
    done = update(session, "RENAME TABLE IF EXISTS t1 TO t2")
    assert [(w.level, w.code, w.message) for w in done.warnings] == [
        ("Note", 1146, "Table 'db.t1' doesn't exist")]
    session.execute("CREATE TABLE t1 (a INT)")
    session.execute("RENAME TABLE t1 NOWAIT TO t2, t2 WAIT 1 TO t3")
    assert session.list_tables() == ["t3"]


def test_rename_table_is_all_or_nothing(session: SqliteSession) -> None:
    """RENAME TABLE a TO b, ...: each rename sees the names the earlier ones leave; one that
    fails (1050, 1146) makes none, as MariaDB's atomic RENAME (mtr rename)."""
    for name in ("t1", "t2", "t3"):
        session.execute(f"CREATE TABLE {name} (a INT)")
        session.execute(f"INSERT INTO {name} VALUES ({name[1]})")
    session.execute("RENAME TABLE t3 TO t4, t2 TO t3, t1 TO t2, t4 TO t1")  # a rotation
    assert scalar(session, "SELECT a FROM t1") == 3
    assert "'t2' already" in fails(session, "RENAME TABLE t3 TO t4, t1 TO t2", 1050).message
    fails(session, "RENAME TABLE t3 TO t4, t5 TO t3", 1146)
    assert session.list_tables() == ["t1", "t2", "t3"]  # nothing was renamed
    assert scalar(session, "SELECT a FROM t3") == 2
    fails(session, "RENAME TABLE t1 TO nowhere.t9", 1049)
    done = update(session, "RENAME TABLE IF EXISTS gone TO g2, t3 TO t4")
    assert [w.code for w in done.warnings] == [1146]
    assert session.list_tables() == ["t1", "t2", "t4"]


def test_rename_of_a_temporary_table_and_the_table_it_hides(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (a INT)")
    session.execute("INSERT INTO t1 VALUES (1)")
    session.execute("CREATE TEMPORARY TABLE t1 (b INT)")
    session.execute("INSERT INTO t1 VALUES (2)")
    session.execute("RENAME TABLE t1 TO tmp, t1 TO t2")  # the temporary one first
    assert scalar(session, "SELECT b FROM tmp") == 2
    assert scalar(session, "SELECT a FROM t2") == 1
    session.execute("CREATE TEMPORARY TABLE t3 (c INT)")
    assert "'t3' already" in fails(session, "RENAME TABLE tmp TO t3", 1050).message


def test_alter_table_if_exists_of_a_missing_table(session: SqliteSession) -> None:
    done = update(session, "ALTER TABLE IF EXISTS t1 RENAME TO t2")
    assert [(w.level, w.code) for w in done.warnings] == [("Error", 1146)]  # as MariaDB


def test_show_tables_like_names_the_column_after_the_pattern(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (a INT)")
    result = session.execute("SHOW TABLES LIKE 't_'")
    assert [c.name for c in result.columns] == ["Tables_in_db (t_)"]  # type: ignore[union-attr]
    assert rows(result) == [("t1",)]


def test_alter_table_options_without_commas(session: SqliteSession) -> None:
    """ALTER TABLE t CHARACTER SET latin1 COLLATE latin1_bin: table options follow each other
    without commas, as in CREATE TABLE (mtr ctype_collate)."""
    session.execute("CREATE TABLE t (a CHAR(3)) CHARSET utf8mb4")
    session.execute("ALTER TABLE t CHARACTER SET latin1 COLLATE latin1_bin")
    text = rows(session.execute("SHOW CREATE TABLE t"))[0][1]
    assert text.endswith("DEFAULT CHARSET=latin1 COLLATE=latin1_bin")
    err = fails(session, "ALTER TABLE t ENGINE=MyISAM COMMENT 'x' FORCE, ADD b INT", 1064)
    assert "near 'FORCE, ADD b INT'" in err.message  # FORCE is no table option: MariaDB too
    session.execute("ALTER TABLE t ENGINE=MyISAM COMMENT 'x', ADD b INT")
    text = rows(session.execute("SHOW CREATE TABLE t"))[0][1]
    assert "ENGINE=MyISAM" in text and text.endswith("COMMENT='x'")


def test_a_named_primary_key(session: SqliteSession) -> None:
    """PRIMARY KEY name (...): MariaDB reads the name and keeps the key PRIMARY (mtr
    ctype_latin2_ch)."""
    session.execute("CREATE TABLE p (a INT NOT NULL, PRIMARY KEY pk USING BTREE (a))")
    session.execute("CREATE TABLE q (a INT NOT NULL)")
    session.execute("ALTER TABLE q ADD PRIMARY KEY aaa(a)")
    for table in ("p", "q"):
        assert "  PRIMARY KEY (`a`)\n" in rows(session.execute(f"SHOW CREATE TABLE {table}"))[0][1]


def test_a_view_query_sqlglot_cannot_read_is_a_syntax_error_not_an_internal_one(
        session: SqliteSession) -> None:
    """views.create reads the query with sqlglot itself: its ParseError reached the session
    as an internal error and closed the connection (found by an mtr run with --keep-logs).
    MariaDB accepts `BINARY - 1`; rampmeter's parser does not, and says so as 1064."""
    session.execute("CREATE DATABASE vq")
    session.use("vq")
    assert fails(session, "CREATE VIEW vb AS SELECT BINARY - 1",
                 errors.ER_PARSE_ERROR).code == errors.ER_PARSE_ERROR
    assert rows(session.execute("SELECT 1")) == [(1,)]


def test_a_view_as_the_target_of_a_multi_table_update_is_refused_clearly(
        session: SqliteSession) -> None:
    """The view is read as its query there, with no rows to update through: that was a
    KeyError, an internal error that closed the connection; now 1235 for the statement."""
    session.execute("CREATE DATABASE mu")
    session.use("mu")
    session.execute("CREATE TABLE u1 (a INT, b INT)")
    session.execute("CREATE TABLE u2 (a INT)")
    session.execute("INSERT INTO u1 VALUES (1, 1)")
    session.execute("INSERT INTO u2 VALUES (1)")
    session.execute("CREATE VIEW v1 AS SELECT * FROM u1")
    assert fails(session, "UPDATE u2, v1 SET v1.b = 5 WHERE u2.a = v1.a",
                 errors.ER_NOT_SUPPORTED_YET).code == errors.ER_NOT_SUPPORTED_YET
    update(session, "UPDATE u2, u1 SET u1.b = 5 WHERE u2.a = u1.a")
    assert rows(session.execute("SELECT b FROM v1")) == [(5,)]


def test_analyze_says_it_collected_statistics_as_use_stat_tables_asks(
        session: SqliteSession) -> None:
    """MariaDB 10.11: with use_stat_tables=PREFERABLY (mtr's setting) or COMPLEMENTARY, or
    PERSISTENT FOR ..., ANALYZE TABLE of a base table adds the engine-independent statistics
    row; with the default PREFERABLY_FOR_QUERIES it says OK only; a temporary table says OK."""
    session.execute("CREATE TABLE an (a INT)")
    session.execute("CREATE TEMPORARY TABLE tmp_an (a INT)")
    ctx = session.context
    ctx.variables["use_stat_tables"] = "PREFERABLY_FOR_QUERIES"  # type: ignore[attr-defined]
    assert [r[3] for r in rows(session.execute("ANALYZE TABLE an"))] == ["OK"]
    assert [r[3] for r in rows(session.execute("ANALYZE TABLE an PERSISTENT FOR ALL"))] == [
        "Engine-independent statistics collected", "OK"]
    ctx.variables["use_stat_tables"] = "PREFERABLY"  # type: ignore[attr-defined]
    assert [r[3] for r in rows(session.execute("ANALYZE TABLE an, tmp_an"))] == [
        "Engine-independent statistics collected", "OK", "OK"]
