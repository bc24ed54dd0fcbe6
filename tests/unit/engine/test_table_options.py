"""Table options MariaDB keeps and prints, and engine-defined table and index attributes
(tableopts.py). Expected texts measured on MariaDB 10.11.19."""

from __future__ import annotations

import pytest

from rampmeter.engine.base import UpdateCount
from rampmeter.engine.sqlite import SqliteSession

from .conftest import FakeContext, fails, rows

IGNORE = "IGNORE_BAD_TABLE_OPTIONS"


def _mode(s: SqliteSession, mode: str) -> None:
    ctx = s.context
    assert isinstance(ctx, FakeContext)
    ctx.variables["sql_mode"] = mode


def _tail(s: SqliteSession, table: str = "t1") -> str:
    """The options line of SHOW CREATE TABLE, without the charset MariaDB prints first."""
    text = str(rows(s.execute(f"SHOW CREATE TABLE {table}"))[0][1])
    return text.rsplit("\n", 1)[1].replace(
        " DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci", "")


def _warned(result: object) -> list[str]:
    assert isinstance(result, UpdateCount)
    return [w.message for w in result.warnings if w.code == 1911]


def test_known_options_are_kept_and_printed_in_mariadbs_order(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (a int) ENGINE=Aria ROW_FORMAT DYNAMIC max_rows=10 "
                    "pack_keys=1 checksum=1 key_block_size=4 comment='c' min_rows=2 "
                    "avg_row_length=5 delay_key_write=1 stats_persistent=0 "
                    "stats_auto_recalc=1 stats_sample_pages=3")
    assert _tail(session) == (
        ") ENGINE=Aria MIN_ROWS=2 MAX_ROWS=10 AVG_ROW_LENGTH=5 PACK_KEYS=1 STATS_PERSISTENT=0 "
        "STATS_AUTO_RECALC=1 STATS_SAMPLE_PAGES=3 CHECKSUM=1 PAGE_CHECKSUM=1 DELAY_KEY_WRITE=1 "
        "ROW_FORMAT=DYNAMIC KEY_BLOCK_SIZE=4 COMMENT='c'")
    assert rows(session.execute(
        "SELECT create_options, row_format, checksum FROM information_schema.tables "
        "WHERE table_name = 't1'")) == [(
            "min_rows=2 max_rows=10 avg_row_length=5 pack_keys=1 stats_persistent=0 "
            "stats_auto_recalc=1 stats_sample_pages=3 checksum=1 page_checksum=1 "
            "delay_key_write=1 row_format=DYNAMIC key_block_size=4", "Dynamic", 0)]


def test_defaults_and_zeroes_unset(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (a int) ENGINE=InnoDB page_checksum=1 pack_keys=default "
                    "stats_sample_pages=default max_rows=0 row_format=default checksum=0 "
                    "delay_key_write=0")
    assert _tail(session) == ") ENGINE=InnoDB PAGE_CHECKSUM=1"


def test_page_checksum_goes_with_aria(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (a int) ENGINE=Aria TRANSACTIONAL=1")
    assert _tail(session) == ") ENGINE=Aria PAGE_CHECKSUM=1 TRANSACTIONAL=1"
    session.execute("ALTER TABLE t1 ENGINE=MyISAM")  # Aria's handler carries it over
    assert _tail(session) == ") ENGINE=MyISAM PAGE_CHECKSUM=1 /* TRANSACTIONAL=1 */"
    session.execute("ALTER TABLE t1 ROW_FORMAT=FIXED")  # MyISAM's does not
    assert _tail(session) == ") ENGINE=MyISAM ROW_FORMAT=FIXED /* TRANSACTIONAL=1 */"
    assert rows(session.execute("SHOW TABLE STATUS LIKE 't1'"))[0][3] == "Fixed"
    _mode(session, IGNORE)
    assert _tail(session) == ") ENGINE=MyISAM ROW_FORMAT=FIXED TRANSACTIONAL=1"
    session.execute("CREATE TABLE t2 (a int) ENGINE=aria PAGE_CHECKSUM=0")
    assert _tail(session, "t2") == ") ENGINE=Aria PAGE_CHECKSUM=0"


def test_transactional_needs_a_transactional_engine_or_aria(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t0 (a int) ENGINE=InnoDB TRANSACTIONAL=1")
    assert _tail(session, "t0") == ") ENGINE=InnoDB TRANSACTIONAL=1"
    fails(session, "CREATE TABLE t1 (a int) ENGINE=MyISAM TRANSACTIONAL=1", 1911)
    session.execute("CREATE TABLE t1 (a int) ENGINE=MyISAM")
    fails(session, "ALTER TABLE t1 ENGINE=myisam TRANSACTIONAL=DEFAULT", 1911)
    _mode(session, IGNORE)
    assert _warned(session.execute("ALTER TABLE t1 ENGINE=myisam TRANSACTIONAL=0")) == [
        "Unknown option 'transactional'"]
    assert _tail(session) == ") ENGINE=MyISAM TRANSACTIONAL=0"


def test_table_and_index_attributes(session: SqliteSession) -> None:
    fails(session, "CREATE TABLE t1 (a int fkey=vvv, KEY akey (a) dff=vvv) tkey1=1v1", 1911)
    _mode(session, IGNORE)
    got = session.execute("CREATE TABLE t1 (a int fkey1=v1, KEY akey (a) kkey1=v1) "
                          "tkey1=1v1 tkey1=1v2 TKEY1=DEFAULT tkey2=2v1 tkey3=3v1")
    assert _warned(got) == [f"Unknown option '{n}'"
                            for n in ("fkey1", "kkey1", "TKEY1", "tkey2", "tkey3")]
    text = str(rows(session.execute("SHOW CREATE TABLE t1"))[0][1])
    assert "  `a` int(11) DEFAULT NULL `fkey1`='v1',\n  KEY `akey` (`a`) `kkey1`='v1'\n" in text
    assert _tail(session) == ") ENGINE=InnoDB `tkey2`='2v1' `tkey3`='3v1'"
    assert _warned(session.execute("ALTER TABLE t1 tkey4=4v1")) == ["Unknown option 'tkey4'"]
    assert _warned(session.execute("ALTER TABLE t1 tkey3=DEFAULT tkey4=DEFAULT")) == [
        "Unknown option 'tkey3'", "Unknown option 'tkey4'"]
    assert _tail(session) == ") ENGINE=InnoDB `tkey2`='2v1'"
    session.execute("ALTER TABLE t1 ADD COLUMN b int")
    assert _warned(session.execute("ALTER TABLE t1 ADD KEY bkey (b) kkey2=v1")) == [
        "Unknown option 'kkey2'"]
    assert "  KEY `bkey` (`b`) `kkey2`='v1'\n" in str(
        rows(session.execute("SHOW CREATE TABLE t1"))[0][1])
    assert rows(session.execute("SELECT create_options FROM information_schema.tables "
                                "WHERE table_name = 't1'")) == [("`tkey2`='2v1'",)]


def test_attributes_are_commented_out_without_ignore_bad_table_options(
        session: SqliteSession) -> None:
    _mode(session, IGNORE)
    session.execute("CREATE TABLE t1 (a int f=1, KEY k (a) kk=2) `opt`=`two words`, "
                    "opt1='*/ oops1 '")
    fails(session, "CREATE TABLE t2 (a int) `bad opt`=1", 1911)  # no plain word: an error
    _mode(session, "")
    text = str(rows(session.execute("SHOW CREATE TABLE t1"))[0][1])
    assert "  `a` int(11) DEFAULT NULL /* `f`='1' */,\n  KEY `k` (`a`) /* `kk`='2' */\n" in text
    assert _tail(session) == ") ENGINE=InnoDB /* `opt`='two words' `opt1`='*\\/ oops1 ' */"


@pytest.mark.parametrize("statement", [
    "CREATE INDEX i ON t1 (a) ALGORITHM=INPLACE",
    "CREATE INDEX i ON t1 (a) LOCK=NONE",
])
def test_create_index_options_are_not_attributes(session: SqliteSession,
                                                 statement: str) -> None:
    session.execute("CREATE TABLE t1 (a int)")
    session.execute(statement)
    assert rows(session.execute("SHOW INDEX FROM t1"))[0][2] == "i"


def test_create_index_attributes(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t1 (a int)")
    fails(session, "CREATE INDEX iy ON t1 (a) zz=1", 1911)
    _mode(session, IGNORE)
    assert _warned(session.execute("CREATE INDEX iy ON t1 (a) zz=1")) == ["Unknown option 'zz'"]
    assert "  KEY `iy` (`a`) `zz`='1'\n" in str(rows(session.execute("SHOW CREATE TABLE t1"))[0][1])
