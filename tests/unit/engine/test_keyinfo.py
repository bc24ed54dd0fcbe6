"""engine/sqlite/keyinfo.py: Index_type, Collation and Cardinality of SHOW KEYS, and long
unique keys, as MariaDB 10.11 shows them (mtr long_unique_using_hash, long_unique_update)."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows


def _keys(s: SqliteSession, table: str) -> list[tuple[object, ...]]:
    # Key_name, Seq_in_index, Collation, Cardinality, Index_type
    return [(r[2], r[3], r[5], r[6], r[10]) for r in rows(s.execute(f"SHOW KEYS FROM {table}"))]


def _create(s: SqliteSession, table: str) -> str:
    return rows(s.execute(f"SHOW CREATE TABLE {table}"))[0][1]


def test_long_unique_keys_are_hash(session: SqliteSession) -> None:
    session.execute("CREATE TABLE h1 (a BLOB, b INT, c VARCHAR(2000), d INT, UNIQUE (a), "
                    "KEY (b) USING HASH, UNIQUE (b) USING HASH, UNIQUE (c), UNIQUE (d), "
                    "KEY kb (b) USING BTREE) ENGINE=MyISAM CHARSET=latin1")
    assert _keys(session, "h1") == [
        ("d", 1, "A", None, "BTREE"), ("a", 1, "A", None, "HASH"),
        ("b_2", 1, "A", None, "HASH"), ("c", 1, "A", None, "HASH"),
        ("b", 1, "A", None, "BTREE"), ("kb", 1, "A", None, "BTREE")]
    text = _create(session, "h1")
    for line in ("UNIQUE KEY `d` (`d`),\n  UNIQUE KEY `a` (`a`) USING HASH,",
                 "UNIQUE KEY `c` (`c`) USING HASH", "KEY `b` (`b`) USING HASH",
                 "KEY `kb` (`b`) USING BTREE"):
        assert line in text


def test_a_b_tree_that_cannot_hold_the_key_is_1071(session: SqliteSession) -> None:
    fails(session, "CREATE TABLE t (a BLOB, UNIQUE (a) USING BTREE) ENGINE=MyISAM", 1071,
          "42000")
    fails(session, "CREATE TABLE t (a VARCHAR(300), UNIQUE (a) USING BTREE) ENGINE=MyISAM "
          "CHARSET=utf8mb4", 1071, "42000")
    session.execute("CREATE TABLE t (a VARCHAR(300), UNIQUE (a) USING BTREE) ENGINE=InnoDB "
                    "CHARSET=utf8mb4")


def test_memory_keys_are_hash_without_collation(session: SqliteSession) -> None:
    session.execute("CREATE TABLE m (a INT, b INT, c INT, UNIQUE (a, b), KEY (c), "
                    "KEY kc (c) USING BTREE) ENGINE=MEMORY")
    assert _keys(session, "m") == [
        ("a", 1, None, None, "HASH"), ("a", 2, None, 0, "HASH"), ("c", 1, None, 0, "HASH"),
        ("kc", 1, "A", None, "BTREE")]
    session.execute("INSERT INTO m VALUES (1, 1, 5), (1, 2, 5), (2, 1, 6), (3, 1, 6)")
    # unique: the rows; not unique: rows / max(2, rows / distinct) = 4 / 2
    assert [k[3] for k in _keys(session, "m")] == [None, 4, 2, None]


def test_myisam_cardinality_of_unique_keys_is_the_row_count(session: SqliteSession) -> None:
    session.execute("CREATE TABLE c (a INT PRIMARY KEY, b INT NOT NULL, c INT, d INT, "
                    "UNIQUE (b), UNIQUE (c), KEY (d)) ENGINE=MyISAM")
    session.execute("INSERT INTO c VALUES (1, 1, 1, 1), (2, 2, 2, 2)")
    # a unique key with a nullable column, a plain key: NULL until ANALYZE (not kept)
    assert [(k[0], k[3]) for k in _keys(session, "c")] == [
        ("PRIMARY", 2), ("b", 2), ("c", None), ("d", None)]
    session.execute("CREATE TABLE i (a INT PRIMARY KEY) ENGINE=InnoDB")
    assert [k[3] for k in _keys(session, "i")] == [None]

