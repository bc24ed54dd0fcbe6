"""AUTO_INCREMENT columns that are not the rowid (autokey.py); each expectation checked against
MariaDB 10.11 (mtr auto_increment, mdev_14586, odbc)."""

from __future__ import annotations

from typing import Any

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows, scalar


def test_myisam_counts_per_group_of_the_earlier_key_parts(session: SqliteSession) -> None:
    s = session
    s.execute("CREATE TABLE t (a char(10) NOT NULL, b int NOT NULL AUTO_INCREMENT, "
              "PRIMARY KEY (a, b)) ENGINE=MyISAM")
    s.execute("INSERT INTO t VALUES ('a',1),('b',2),('a',2),('c',1)")
    s.execute("INSERT INTO t VALUES ('a',NULL),('b',NULL),('c',NULL),('e',NULL)")
    s.execute("INSERT INTO t (a) VALUES ('A'),('d')")   # the column's collation groups 'A'
    assert scalar(s, "SELECT LAST_INSERT_ID()") == 4
    assert rows(s.execute("SELECT a, b FROM t ORDER BY a, b")) == [
        ("a", 1), ("a", 2), ("a", 3), ("A", 4), ("b", 2), ("b", 3), ("c", 1), ("c", 2),
        ("d", 1), ("e", 1)]


def test_a_later_part_of_a_secondary_key_and_insert_select(session: SqliteSession) -> None:
    s = session
    s.execute("CREATE TABLE t (sid char(5), id int NOT NULL AUTO_INCREMENT, KEY (sid, id)) "
              "ENGINE=MyISAM")
    s.execute("CREATE TABLE src (sid char(5), id int)")
    s.execute("INSERT INTO src VALUES ('skr',NULL),('skr',NULL),('test',NULL),(NULL,0),"
              "(NULL,NULL)")
    s.execute("INSERT INTO t SELECT * FROM src")
    assert rows(s.execute("SELECT sid, id FROM t ORDER BY sid, id")) == [
        (None, 1), (None, 2), ("skr", 1), ("skr", 2), ("test", 1)]
    desc: Any = rows(s.execute("SHOW COLUMNS FROM t"))
    assert desc[1][2] == "NO" and desc[1][5] == "auto_increment"


def test_first_of_a_composite_key_counts_over_the_table(session: SqliteSession) -> None:
    s = session
    s.execute("CREATE TABLE t (a int NOT NULL AUTO_INCREMENT, b int NOT NULL, "
              "PRIMARY KEY (a, b))")
    s.execute("INSERT INTO t SET a=NULL, b=1")
    s.execute("INSERT INTO t SET a=NULL, b=2")
    assert scalar(s, "SELECT LAST_INSERT_ID()") == 2
    s.execute("INSERT INTO t VALUES (10, 1), (0, 1)")
    assert rows(s.execute("SELECT a FROM t ORDER BY a")) == [(1,), (2,), (10,), (11,)]
    s.execute("ALTER TABLE t ADD c int")   # the rebuilt table keeps generating
    s.execute("INSERT INTO t (b) VALUES (5)")
    assert scalar(s, "SELECT max(a) FROM t") == 12


def test_innodb_wants_it_first_in_a_key_and_the_type_bounds_it(session: SqliteSession
                                                                 ) -> None:
    s = session
    fails(s, "CREATE TABLE t (a int, b int AUTO_INCREMENT, KEY (a, b)) ENGINE=InnoDB", 1075)
    s.execute("CREATE TABLE t (a int, b tinyint AUTO_INCREMENT, KEY (a, b)) ENGINE=Aria")
    s.execute("INSERT INTO t VALUES (1, 127)")
    fails(s, "INSERT INTO t (a) VALUES (1)", 167, "22003")


def test_an_update_stores_0_and_null_is_1048(session: SqliteSession) -> None:
    """Values are generated for new rows only: UPDATE ... = 0 stores 0 (MyISAM's CHECK TABLE
    then warns of it), and NULL into the NOT NULL column is 1048 (mtr auto_increment)."""
    s = session
    s.execute("CREATE TABLE t (a int NOT NULL PRIMARY KEY AUTO_INCREMENT, b int) "
              "ENGINE=MyISAM")
    s.execute("INSERT INTO t VALUES (0, 1), (NULL, 2)")
    s.execute("UPDATE t SET a = 0 WHERE b = 1")
    assert rows(s.execute("SELECT a FROM t ORDER BY b")) == [(0,), (2,)]
    assert rows(s.execute("CHECK TABLE t"))[0][2:] == (
        "warning", "Found row where the auto_increment column has the value 0")
    fails(s, "UPDATE t SET a = NULL WHERE b = 2", 1048)


def test_alter_making_a_column_auto_increment_gives_its_zeros_values(session: SqliteSession
                                                                     ) -> None:
    s = session
    s.execute("CREATE TABLE t (a bigint)")
    s.execute("INSERT INTO t VALUES (1), (2), (3), (0), (0)")
    s.execute("ALTER TABLE t MODIFY a bigint NOT NULL AUTO_INCREMENT PRIMARY KEY")
    assert rows(s.execute("SELECT a FROM t ORDER BY a")) == [(1,), (2,), (3,), (4,), (5,)]
    s.execute("CREATE TABLE u (a int PRIMARY KEY, b int)")
    s.execute("INSERT INTO u VALUES (0, 0), (1, 1)")
    err = fails(s, "ALTER TABLE u CHANGE a a int AUTO_INCREMENT", 1062, "23000")
    assert err.message == ("ALTER TABLE causes auto_increment resequencing, resulting in "
                           "duplicate entry '1' for key 'PRIMARY'")
