"""What sql_mode changes in SHOW CREATE TABLE / VIEW and EXPLAIN EXTENDED's Note 1003
(showmode.py), and || under PIPES_AS_CONCAT (dialect.py, sqltext.py). Expected texts measured
on MariaDB 10.11.19 (sql_mode values as SET expands them: ANSI adds ANSI_QUOTES & co.)."""

from __future__ import annotations

from typing import Any

import pytest

from rampmeter.engine.base import ResultSet
from rampmeter.engine.sqlite import SqliteSession
from rampmeter.engine.sqlite.showmode import ansi_quoted, style

from .conftest import FakeContext, rows

T1 = ("CREATE TABLE t1 (a int not null auto_increment, "
      "pseudo varchar(35) character set latin2 NOT NULL default '', "
      "b char(10) collate latin1_bin, vb varchar(5) collate latin1_bin, c binary(10), "
      "ts timestamp not null default current_timestamp on update current_timestamp, "
      "d int comment 'hi', e int check (e>0), PRIMARY KEY (a), "
      "UNIQUE KEY email USING BTREE (pseudo), key (d) comment 'kc', "
      "constraint cc check (d > 1)) ENGINE=MyISAM CHARSET=latin1 comment='tc' auto_increment=5")

COLUMNS = """  `a` int(11) NOT NULL AUTO_INCREMENT,
  `pseudo` varchar(35) CHARACTER SET latin2 COLLATE latin2_general_ci NOT NULL DEFAULT '',
  `b` char(10) CHARACTER SET latin1 COLLATE latin1_bin DEFAULT NULL,
  `vb` varchar(5) CHARACTER SET latin1 COLLATE latin1_bin DEFAULT NULL,
  `c` binary(10) DEFAULT NULL,
  `ts` timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_timestamp(),
  `d` int(11) DEFAULT NULL COMMENT 'hi',
  `e` int(11) DEFAULT NULL CHECK (`e` > 0),
  PRIMARY KEY (`a`),
"""
KEYS_PLAIN = """  UNIQUE KEY `email` (`pseudo`),
  KEY `d` (`d`),
  CONSTRAINT `cc` CHECK (`d` > 1)
)"""
KEYS_WITH_OPTIONS = """  UNIQUE KEY `email` (`pseudo`) USING BTREE,
  KEY `d` (`d`) COMMENT 'kc',
  CONSTRAINT `cc` CHECK (`d` > 1)
)"""
OPTIONS = (" ENGINE=MyISAM AUTO_INCREMENT=5 DEFAULT CHARSET=latin1 COLLATE=latin1_swedish_ci "
           "COMMENT='tc'")
ANSI = "REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ANSI"


def _mode(s: SqliteSession, mode: str) -> None:
    ctx = s.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["sql_mode"] = mode


def _shown(s: SqliteSession, mode: str) -> str:
    _mode(s, mode)
    return str(rows(s.execute("SHOW CREATE TABLE t1"))[0][1])


def test_default_mode_prints_everything(session: SqliteSession) -> None:
    session.execute(T1)
    assert _shown(session, "") == "CREATE TABLE `t1` (\n" + COLUMNS + KEYS_WITH_OPTIONS + OPTIONS


def test_no_field_key_and_table_options(session: SqliteSession) -> None:
    session.execute(T1)
    no_field = COLUMNS.replace(" AUTO_INCREMENT", "").replace(
        " ON UPDATE current_timestamp()", "")
    assert _shown(session, "NO_FIELD_OPTIONS") == \
        "CREATE TABLE `t1` (\n" + no_field + KEYS_PLAIN + OPTIONS
    assert _shown(session, "NO_KEY_OPTIONS") == \
        "CREATE TABLE `t1` (\n" + COLUMNS + KEYS_PLAIN + OPTIONS
    assert _shown(session, "NO_TABLE_OPTIONS") == \
        "CREATE TABLE `t1` (\n" + COLUMNS + KEYS_WITH_OPTIONS


def test_mysql40_prints_for_old_servers(session: SqliteSession) -> None:
    session.execute(T1)
    old = (COLUMNS.replace(" CHARACTER SET latin2 COLLATE latin2_general_ci", "")
           .replace(" CHARACTER SET latin1 COLLATE latin1_bin", " binary")
           .replace(" ON UPDATE current_timestamp()", ""))
    for mode in ("MYSQL40,HIGH_NOT_PRECEDENCE", "MYSQL323,HIGH_NOT_PRECEDENCE"):
        assert _shown(session, mode) == "CREATE TABLE `t1` (\n" + old + KEYS_PLAIN + \
            ") TYPE=MyISAM AUTO_INCREMENT=5 COMMENT='tc'"[1:]


def test_ansi_quotes_and_foreign_modes(session: SqliteSession) -> None:
    session.execute(T1)
    assert _shown(session, "ANSI_QUOTES") == ansi_quoted(
        "CREATE TABLE `t1` (\n" + COLUMNS + KEYS_WITH_OPTIONS + OPTIONS)
    assert _shown(session, ANSI) == ansi_quoted("CREATE TABLE `t1` (\n" + COLUMNS + KEYS_PLAIN)
    assert _shown(session, ANSI).startswith('CREATE TABLE "t1" (\n  "a" int(11)')
    postgres = ("PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,POSTGRESQL,NO_KEY_OPTIONS,"
                "NO_TABLE_OPTIONS,NO_FIELD_OPTIONS")
    assert _shown(session, postgres) == ansi_quoted("CREATE TABLE `t1` (\n" + COLUMNS.replace(
        " AUTO_INCREMENT", "").replace(" ON UPDATE current_timestamp()", "") + KEYS_PLAIN)


def test_show_create_view_quotes_by_the_sessions_mode(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a int)")
    session.execute("CREATE VIEW v AS SELECT a FROM t")
    _mode(session, ANSI)
    text = str(rows(session.execute("SHOW CREATE VIEW v"))[0][1])
    assert text.endswith('VIEW "v" AS select "t"."a" AS "a" from "t"')


@pytest.mark.parametrize(("text", "quoted"), [
    ("`a`", '"a"'), ("`a``b`", '"a`b"'), ('`a"b`', '"a""b"'),
    ("'`x`' `y`", "'`x`' \"y\""), ("'it''s `x`' `y`", "'it''s `x`' \"y\""),
    ("'a\\'`b`' `c`", "'a\\'`b`' \"c\""), ("plain", "plain"),
])
def test_ansi_quoted_leaves_strings_alone(text: str, quoted: str) -> None:
    assert ansi_quoted(text) == quoted


def test_style_of_the_default_mode_changes_nothing() -> None:
    assert style("STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION") == style("")
    assert not style("MYSQL40").charsets and style("MYSQL40").auto_increment


def _extended(s: SqliteSession, sql: str) -> tuple[Any, str]:
    result = s.execute("EXPLAIN EXTENDED " + sql)
    assert isinstance(result, ResultSet)
    notes = [w.message for w in result.warnings if w.code == 1003]
    assert len(notes) == 1
    return rows(s.execute(sql))[0][0], notes[0]


@pytest.mark.parametrize(("sql", "value", "note"), [
    ("SELECT -1<<1||1 AS a FROM DUAL", 18446744073709549568,
     'select -1 << concat(1,1) AS "a"'),
    ("SELECT -1||0<<1 AS a FROM DUAL", 18446744073709551596,
     'select concat(-1,0) << 1 AS "a"'),
    ("SELECT -1||0+1 AS a FROM DUAL", -9, 'select concat(-1,0) + 1 AS "a"'),
    ("SELECT 1||1*-1 AS a FROM DUAL", -11, 'select concat(1,1) * -1 AS "a"'),
    ("SELECT -1^1||1 AS a FROM DUAL", 18446744073709551604,
     'select -1 ^ concat(1,1) AS "a"'),
    ("SELECT -1||0^1 AS a FROM DUAL", 18446744073709551607,
     'select concat(-1,0) ^ 1 AS "a"'),
    ("SELECT 'a'||'b'||'c' AS x, 1", "abc",
     'select concat(concat(\'a\',\'b\'),\'c\') AS "x",1 AS "1"'),
])
def test_pipes_concatenate_tighter_than_every_dyadic_operator(
        session: SqliteSession, sql: str, value: Any, note: str) -> None:
    _mode(session, ANSI)
    got, text = _extended(session, sql)
    assert str(got) == str(value)
    assert text == note


def test_concat_of_a_non_number_warns_when_read_as_one(session: SqliteSession) -> None:
    _mode(session, ANSI)
    result = session.execute("SELECT 1*1||-1 AS a")
    assert isinstance(result, ResultSet)
    assert [tuple(r) for r in result.rows] == [(1.0,)]
    assert [(w.code, w.message) for w in result.warnings] == [
        (1292, "Truncated incorrect DOUBLE value: '1-1'")]


def test_from_dual_is_dropped_from_the_note(session: SqliteSession) -> None:
    _got, text = _extended(session, "SELECT 1 + 1 AS a FROM DUAL")
    assert text == "select 1 + 1 AS `a`"


@pytest.mark.parametrize(("item", "printed"), [
    ("date_add('2001-01-01', interval 1 day)", "'2001-01-01' + interval 1 day"),
    ("date_sub('2001-01-01', interval '1' day)", "'2001-01-01' - interval '1' day"),
    ("'2001-01-01' - interval '1 1' day_hour", "'2001-01-01' - interval '1 1' day_hour"),
    ("3 & 20010101 + interval 2 day", "3 & 20010101 + interval 2 day"),
    ("(3 & 20010101) + interval 2 day", "(3 & 20010101) + interval 2 day"),
    ("30 + (20010101 + interval 2 day)", "30 + (20010101 + interval 2 day)"),
    ("adddate('2001-01-01', 3)", "'2001-01-01' + interval 3 day"),
    ("timestampadd(day, 1, '2001-01-01')", "'2001-01-01' + interval 1 day"),
    ("timestampdiff(microsecond,'2000-01-01','2001-01-01')",
     "timestampdiff(MICROSECOND,'2000-01-01','2001-01-01')"),
    ("extract(year from '2001-01-01')", "extract(year from '2001-01-01')"),
])
def test_view_text_of_interval_arithmetic(session: SqliteSession, item: str,
                                          printed: str) -> None:
    session.execute(f"CREATE VIEW v AS SELECT {item} AS x")
    text = str(rows(session.execute("SHOW CREATE VIEW v"))[0][1])
    assert text.endswith(f" AS select {printed} AS `x`")
