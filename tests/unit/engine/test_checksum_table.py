"""CHECKSUM TABLE: the numbers MariaDB 10.11 gives for the same rows (measured on a
mariadbd from the Debian package), from the record images checksum.py rebuilds."""

from __future__ import annotations

from collections.abc import Callable

from rampmeter.engine.base import ResultSet
from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows, update

Open = Callable[..., SqliteSession]


def _session(open_session: Open) -> SqliteSession:
    s = open_session(1)
    s.execute("CREATE DATABASE test")
    s.use("test")
    return s


def test_checksum_matches_mariadb(open_session: Open) -> None:
    s = _session(open_session)
    # packed record (a VARCHAR): null bits only
    s.execute("CREATE TABLE t1 (a int, b varchar(10), c char(3), d double, "
              "e bigint unsigned not null) CHARSET latin1")
    assert rows(s.execute("CHECKSUM TABLE t1")) == [("test.t1", 0)]
    update(s, "INSERT INTO t1 VALUES (1,'ab','x',1.5,7),(NULL,NULL,NULL,NULL,0)")
    assert rows(s.execute("CHECKSUM TABLE t1")) == [("test.t1", 165745886)]
    assert rows(s.execute("CHECKSUM TABLE t1 EXTENDED")) == [("test.t1", 165745886)]
    # fixed record: the null byte has a first bit of its own
    s.execute("CREATE TABLE t2 (a int not null)")
    update(s, "INSERT INTO t2 VALUES (1),(2)")
    s.execute("CREATE TABLE t3 (a int)")
    update(s, "INSERT INTO t3 VALUES (1),(NULL)")
    assert rows(s.execute("CHECKSUM TABLE t2, test.t3")) == [("test.t2", 1531596814),
                                                              ("test.t3", 3443131540)]


def test_checksum_of_each_type_matches_mariadb(open_session: Open) -> None:
    s = _session(open_session)
    s.execute("CREATE TABLE t5 (a char(3) charset utf8mb4, b decimal(12,3), c date, "
              "d datetime(3), e time(2), f timestamp(6) null, g year, h enum('x','y'), "
              "i set('a','b','c'), j bit(5), k float, l bigint unsigned, m tinyint, "
              "n smallint unsigned, o mediumint, p blob, q binary(4), r text charset utf8mb4, "
              "s decimal(30,10), t time)")
    update(s, "INSERT INTO t5 VALUES ('é', -123.456, '2001-02-03', '2001-02-03 04:05:06.789', "
              "'-01:02:03.45', '2001-02-03 04:05:06.123456', 2001, 'y', 'a,c', 5, 1.5, "
              "18446744073709551615, -5, 65535, -70000, 'xx', 'ab', 'ü', 1234567.0123456789, "
              "'838:59:59'), (NULL,0.5,'0000-00-00','0000-00-00 00:00:00',0,NULL,0,'x','',0,"
              "-2.5,0,0,0,0,'','','',-1.5,'-00:00:01')")
    assert rows(s.execute("CHECKSUM TABLE t5")) == [("test.t5", 3899100003)]


def test_checksum_quick_missing_view_temporary(open_session: Open) -> None:
    s = _session(open_session)
    s.execute("CREATE TABLE t1 (a int)")
    update(s, "INSERT INTO t1 VALUES (1)")
    s.execute("CREATE VIEW v1 AS SELECT 1")
    s.execute("CREATE TEMPORARY TABLE t4 (a int not null)")
    update(s, "INSERT INTO t4 VALUES (1),(2)")
    assert rows(s.execute("CHECKSUM TABLE t1 QUICK")) == [("test.t1", None)]
    assert rows(s.execute("CHECKSUM TABLE t4")) == [("test.t4", 1531596814)]
    result = s.execute("CHECKSUM TABLE v1, t9")
    assert isinstance(result, ResultSet)
    assert rows(result) == [("test.v1", None), ("test.t9", None)]
    assert [(w.level, w.code) for w in result.warnings] == [("Error", 1146)]


def test_checksum_can_be_prepared(open_session: Open) -> None:
    s = _session(open_session)
    s.execute("CREATE TABLE t2 (a int not null)")
    update(s, "INSERT INTO t2 VALUES (1),(2)")
    prepared = s.prepare("CHECKSUM TABLE t2")
    assert rows(s.execute_prepared(prepared, [])) == [("test.t2", 1531596814)]
