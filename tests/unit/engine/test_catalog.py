"""Tables as MariaDB describes them: CREATE TABLE read word by word (definitions.py), kept in
SQLite beside a JSON row (catalog.py), and SHOW CREATE TABLE printing what re-creates them."""

from __future__ import annotations

import sqlite3

import pytest

from rampmeter import errors
from rampmeter.engine.sqlite import SqliteSession, catalog

from .conftest import fails, rows, scalar, update

# MariaDB 10.11.19 printed this for the CREATE TABLE below (table options aside: ENGINE keeps
# what was asked, rampmeter's storage is SQLite whatever it says).
D1 = ("CREATE TABLE d1 (id int unsigned not null auto_increment, a int default 5, "
      "b decimal(10,2) default 2.5, c varchar(10) default 'x''y', "
      "d datetime(3) default current_timestamp(3) on update current_timestamp(3), "
      "e timestamp not null default current_timestamp, f float default 1.5, "
      "g enum('a','b') not null, h bit(3) default b'101', i date default '2020-01-01', "
      "j time default '10:00', k blob, l text default 'abc', m varchar(5) character set latin1, "
      "n json, o int not null, p double default -1e10, q char(2) default '', "
      "r varbinary(3) default 'ab', s year default 2020, t bigint default null, "
      "u int default (1+1), primary key (id), key (a), unique key uq (c, i), key kd (d desc)) "
      "comment='tbl' auto_increment=7")
D1_SHOWN = """CREATE TABLE `d1` (
  `id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `a` int(11) DEFAULT 5,
  `b` decimal(10,2) DEFAULT 2.50,
  `c` varchar(10) DEFAULT 'x''y',
  `d` datetime(3) DEFAULT current_timestamp(3) ON UPDATE current_timestamp(3),
  `e` timestamp NOT NULL DEFAULT current_timestamp(),
  `f` float DEFAULT 1.5,
  `g` enum('a','b') NOT NULL,
  `h` bit(3) DEFAULT b'101',
  `i` date DEFAULT '2020-01-01',
  `j` time DEFAULT '10:00:00',
  `k` blob DEFAULT NULL,
  `l` text DEFAULT 'abc',
  `m` varchar(5) CHARACTER SET latin1 COLLATE latin1_swedish_ci DEFAULT NULL,
  `n` longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL CHECK (json_valid(`n`)),
  `o` int(11) NOT NULL,
  `p` double DEFAULT -10000000000,
  `q` char(2) DEFAULT '',
  `r` varbinary(3) DEFAULT 'ab',
  `s` year(4) DEFAULT 2020,
  `t` bigint(20) DEFAULT NULL,
  `u` int(11) DEFAULT (1 + 1),
  PRIMARY KEY (`id`),
  UNIQUE KEY `uq` (`c`,`i`),
  KEY `a` (`a`),
  KEY `kd` (`d` DESC)
) ENGINE=InnoDB AUTO_INCREMENT=7 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci COMMENT='tbl'"""


def show_create(s: SqliteSession, table: str) -> str:
    return str(rows(s.execute(f"SHOW CREATE TABLE {table}"))[0][1])


def test_show_create_table_prints_what_mariadb_prints(session: SqliteSession) -> None:
    session.execute(D1)
    assert show_create(session, "d1") == D1_SHOWN


def test_show_create_table_re_creates_the_same_table(session: SqliteSession) -> None:
    session.execute(D1)
    shown = show_create(session, "d1")
    session.execute("CREATE DATABASE other")
    session.use("other")
    session.execute(shown)
    assert show_create(session, "d1") == shown


def test_describe_reports_mariadbs_columns(session: SqliteSession) -> None:
    session.execute(D1)
    got = {r[0]: r[1:] for r in rows(session.execute("DESCRIBE d1"))}
    assert got["id"] == ("int(10) unsigned", "NO", "PRI", None, "auto_increment")
    assert got["a"] == ("int(11)", "YES", "MUL", "5", "")
    assert got["b"] == ("decimal(10,2)", "YES", "", "2.50", "")
    assert got["c"] == ("varchar(10)", "YES", "MUL", "x'y", "")
    assert got["d"] == ("datetime(3)", "YES", "MUL", "current_timestamp(3)",
                        "on update current_timestamp(3)")
    assert got["h"] == ("bit(3)", "YES", "", "b'101'", "")
    assert got["l"] == ("text", "YES", "", "'abc'", "")
    assert got["u"] == ("int(11)", "YES", "", "(1 + 1)", "")


def test_defaults_fill_left_out_columns(session: SqliteSession) -> None:
    session.execute(D1)
    session.execute("INSERT INTO d1 (g, o) VALUES ('b', 1)")
    row = rows(session.execute("SELECT id, a, b, c, d IS NOT NULL, h, i, j, s, u FROM d1"))[0]
    assert row[0] == 7  # AUTO_INCREMENT=7
    assert row[1:4] == (5, pytest.approx(2.5), "x'y")
    assert row[4] == 1  # CURRENT_TIMESTAMP(3)
    assert row[5:] == (b"\x05", "2020-01-01", "10:00:00", "2020", 2)  # YEAR is sent as 4 digits


def test_auto_increment_and_zerofill_in_ddl(session: SqliteSession) -> None:
    session.execute("CREATE TABLE z (id bigint(20) unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, "
                    "n int(5) unsigned zerofill)")
    update(session, "INSERT INTO z (n) VALUES (42)")
    assert rows(session.execute("SELECT id, n FROM z")) == [(1, "00042")]
    assert "`n` int(5) unsigned zerofill DEFAULT NULL" in show_create(session, "z")


def test_unnamed_keys_are_named_after_their_first_column(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a int, b int, KEY (a), KEY (a, b), UNIQUE (b))")
    assert [i.name for i in session.table_indexes("t")] == ["b", "a", "a_2"]


@pytest.mark.parametrize(("sql", "code"), [
    ("CREATE TABLE t (a int AUTO_INCREMENT, b int AUTO_INCREMENT, PRIMARY KEY (a))",
     errors.ER_WRONG_AUTO_KEY),
    ("CREATE TABLE t (a int AUTO_INCREMENT, b int)", errors.ER_WRONG_AUTO_KEY),
    ("CREATE TABLE t (a int PRIMARY KEY, b int, PRIMARY KEY (b))", errors.ER_MULTIPLE_PRI_KEY),
    ("CREATE TABLE t (a int, a int)", errors.ER_DUP_FIELDNAME),
    ("CREATE TABLE t (a int NOT NULL DEFAULT NULL)", errors.ER_INVALID_DEFAULT),
    ("CREATE TABLE t (a tinyint DEFAULT 1000)", errors.ER_INVALID_DEFAULT),
    ("CREATE TABLE t (a int, KEY (nope))", 1072),
    ("CREATE TABLE t (a int, KEY k (a), KEY k (a))", errors.ER_DUP_KEYNAME),
    ("CREATE TABLE t (a int NULL PRIMARY KEY)", 1171),
    ("CREATE TABLE t (a decimal(70,2))", 1426),
    ("CREATE TABLE t (a int, b int AUTO_INCREMENT, PRIMARY KEY (a, b)) ENGINE=InnoDB",
     errors.ER_WRONG_AUTO_KEY),   # only MyISAM / Aria count per group (autokey.py)
    ("CREATE TABLE t (a int", errors.ER_PARSE_ERROR),
    ("CREATE TABLE t (a int) ENGINE=InnoDB PARTITION BY HASH (a)", errors.ER_NOT_SUPPORTED_YET),
])
def test_create_table_rejections(session: SqliteSession, sql: str, code: int) -> None:
    fails(session, sql, code)
    assert "t" not in session.list_tables()


def test_sqlite_declared_types_are_affinities_not_mysql_spellings(session: SqliteSession,
                                                                  ) -> None:
    session.execute("CREATE TABLE t (a bigint(20) unsigned, b varbinary(3), c decimal(5,2), "
                    "d enum('x'))")
    conn = sqlite3.connect(str(session.engine.path("db")))
    try:
        decl = [r[2] for r in conn.execute("PRAGMA table_info(t)")]
    finally:
        conn.close()
    assert decl == ["INT", "BLOB", "TEXT", "TEXT"]  # a DECIMAL is its exact text


def test_tables_from_earlier_versions_are_still_read(session: SqliteSession) -> None:
    """Files written before the JSON row: MySQL spellings as declared types and the
    AUTO_INCREMENT column's type in _rampmeter_columns."""
    path = session.engine.path("db")
    conn = sqlite3.connect(str(path))
    try:
        conn.execute('CREATE TABLE old (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, '
                     '"v" varchar(10) COLLATE NOCASE DEFAULT \'x\', n decimal(10,2))')
        conn.execute(f"CREATE TABLE {catalog.LEGACY_META} (table_name TEXT NOT NULL, "
                     "column_name TEXT NOT NULL, column_type TEXT NOT NULL, "
                     "PRIMARY KEY (table_name, column_name))")
        conn.execute(f"INSERT INTO {catalog.LEGACY_META} VALUES ('old', 'id', 'bigint')")
        conn.commit()
    finally:
        conn.close()
    session.engine.schema_changed()
    assert [(c.name, c.column_type, c.extra) for c in session.table_columns("old")] == [
        ("id", "bigint(20)", "auto_increment"), ("v", "varchar(10)", ""),
        ("n", "decimal(10,2)", "")]
    session.execute("INSERT INTO old (n) VALUES (1.5)")
    assert rows(session.execute("SELECT id, v, n FROM old")) == [(1, "x", pytest.approx(1.5))]


def test_alter_table_keeps_what_mariadb_keeps(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (id int PRIMARY KEY, a varchar(5) NOT NULL DEFAULT 'q', "
                    "b int, KEY kb (b), KEY kab (a, b))")
    session.execute("INSERT INTO t VALUES (1, 'x', 2)")
    session.execute("ALTER TABLE t DROP COLUMN b")  # drops b from its keys, and kb with it
    assert [(i.name, i.columns) for i in session.table_indexes("t")] == [
        ("PRIMARY", ("id",)), ("kab", ("a",))]
    session.execute("ALTER TABLE t ADD COLUMN c decimal(6,2) DEFAULT 1.5 AFTER id, "
                    "ADD UNIQUE KEY uc (c)")
    assert [c.name for c in session.table_columns("t")] == ["id", "c", "a"]
    assert rows(session.execute("SELECT id, c, a FROM t")) == [
        (1, pytest.approx(1.5), "x")]
    session.execute("ALTER TABLE t RENAME COLUMN a TO aa, RENAME INDEX kab TO kaa")
    assert "KEY `kaa` (`aa`)" in show_create(session, "t")
    session.execute("ALTER TABLE t RENAME TO t2")
    assert scalar(session, "SELECT aa FROM t2") == "x"
    fails(session, "ALTER TABLE t2 DROP COLUMN nope", errors.ER_CANT_DROP_FIELD_OR_KEY)


def test_a_definition_past_mariadbs_form_block_is_1117(session: SqliteSession) -> None:
    """unireg.cc pack_header: names, 17 bytes a column, 288 of header and the column comments
    fit in 65535 bytes (mtr comment_column2: 63 comments of 1000 fit, 64 do not)."""
    note = "x" * 1000
    cols = ", ".join(f"c{i} int COMMENT '{note}'" for i in range(1, 64))
    session.execute(f"CREATE TABLE t ({cols})")
    fails(session, f"ALTER TABLE t ADD COLUMN c64 int COMMENT '{note}'", 1117, "HY000")
    fails(session, f"CREATE TABLE u ({cols}, c64 int COMMENT '{note}')", 1117, "HY000")
    assert "u" not in session.list_tables()
    assert len(session.table_columns("t")) == 63
