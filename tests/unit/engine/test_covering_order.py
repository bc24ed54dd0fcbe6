"""A single-table query that one index covers returns the index's order (covering.py), as
MariaDB's index scan ("Using index") does."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows


def test_covered_query_reads_in_index_order(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a CHAR(5), b INT, KEY (a)) ENGINE=MyISAM")
    session.execute("INSERT INTO t VALUES ('z', 1), ('b', 2), ('m', 3)")
    assert rows(session.execute("SELECT a FROM t")) == [("b",), ("m",), ("z",)]
    assert rows(session.execute("SELECT a FROM t WHERE a > 'c'")) == [("m",), ("z",)]
    # b is in no index: the table's own order
    assert rows(session.execute("SELECT * FROM t")) == [("z", 1), ("b", 2), ("m", 3)]
    assert rows(session.execute("SELECT a FROM t ORDER BY b")) == [("z",), ("b",), ("m",)]


def test_primary_key_of_all_columns_and_descending_keys(session: SqliteSession) -> None:
    session.execute("CREATE TABLE p (a BIGINT UNSIGNED NOT NULL, b CHAR(1) NOT NULL, "
                    "PRIMARY KEY (a, b)) ENGINE=MyISAM")
    session.execute("INSERT INTO p VALUES (18446744073709551615, 'x'), (5, 'y'), (5, 'a')")
    assert rows(session.execute("SELECT * FROM p")) == [
        (5, "a"), (5, "y"), (18446744073709551615, "x")]
    session.execute("CREATE TABLE d (a INT, KEY (a DESC))")
    session.execute("INSERT INTO d VALUES (2), (3), (1)")
    assert rows(session.execute("SELECT a FROM d")) == [(3,), (2,), (1,)]


def test_innodb_secondary_index_covers_the_primary_key(session: SqliteSession) -> None:
    session.execute("CREATE TABLE i (id CHAR(2) PRIMARY KEY, k INT, v INT, KEY (k)) "
                    "ENGINE=InnoDB")
    session.execute("INSERT INTO i VALUES ('c', 2, 0), ('a', 1, 0), ('b', 1, 0)")
    assert rows(session.execute("SELECT id, k FROM i")) == [("a", 1), ("b", 1), ("c", 2)]


def test_a_constant_select_list_gets_no_order(session: SqliteSession) -> None:
    """checks.py reads a CHECK's condition back from `SELECT 1 FROM t WHERE (...)`: an ORDER
    BY added there made ALTER TABLE ... ADD CONSTRAINT ck CHECK (b > 0) a 1064 near 'ORDER'
    once an index covered b."""
    session.execute("CREATE TABLE k (id INT, b INT, c INT, PRIMARY KEY (id), KEY kb (b, c))")
    session.execute("INSERT INTO k VALUES (1, 2, 3), (2, 1, 1)")
    session.execute("ALTER TABLE k ADD CONSTRAINT ck CHECK (b > 0)")
    assert rows(session.execute("SELECT b FROM k")) == [(1,), (2,)]  # still kb's order


def test_a_long_unique_key_covers_nothing(session: SqliteSession) -> None:
    """A long unique key (a BLOB without a prefix) is a hash in MariaDB, no rows can be read
    from it: the table's own order (mtr long_unique_update), not the values' order."""
    session.execute("CREATE TABLE h (a BLOB UNIQUE) ENGINE=MyISAM")
    session.execute("INSERT INTO h VALUES ('5'), ('2'), ('11')")
    assert rows(session.execute("SELECT * FROM h")) == [(b"5",), (b"2",), (b"11",)]
