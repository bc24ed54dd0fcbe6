"""Character sets over the wire (issue 13, mtr create_utf8): a view keeps the character set and
collation of the connection that created it, and a name longer than 64 characters is 1059
with the name cut as MariaDB's '%-.100T' cuts it."""

from __future__ import annotations

import pymysql
import pytest

pytestmark = pytest.mark.timeout(60)


def test_view_creation_context_and_long_names(server):
    conn = server.connect(charset="utf8mb4")
    with conn.cursor() as cur:
        cur.execute("CREATE DATABASE cs")
        cur.execute("USE cs")
        cur.execute("SET NAMES utf8")
        cur.execute("CREATE VIEW v AS SELECT 1")
        cur.execute("SHOW CREATE VIEW v")
        assert cur.fetchone()[2:] == ("utf8mb3", "utf8mb3_general_ci")
        cur.execute("CREATE TABLE t (a INT)")
        name = "отень_" * 8 + "длинная_строка_66"
        with pytest.raises(pymysql.err.OperationalError) as e:
            cur.execute(f"CREATE TRIGGER {name} BEFORE INSERT ON t FOR EACH ROW SET @a := 1")
        assert e.value.args == (1059, f"Identifier name '{'отень_' * 8}длин...' is too long")
        with pytest.raises(pymysql.err.OperationalError) as e:
            cur.execute(f"DROP TRIGGER {name}")
        assert e.value.args[0] == 1059


def test_load_data_infile_resolves_names_as_mysqld(server):
    """LOAD DATA INFILE 'name': a bare name is in the current database's directory, a name
    with directories is relative to the datadir (mtr ctype_utf8mb4_uca_allkeys520 reads
    '../../std_data/...')."""
    shared = server.datadir.parent / "shared_data"
    shared.mkdir()
    (shared / "rows.txt").write_text("1\n2\n")
    conn = server.connect()
    with conn.cursor() as cur:
        cur.execute("CREATE DATABASE ld")
        cur.execute("USE ld")
        cur.execute("CREATE TABLE t (a INT)")
        cur.execute("LOAD DATA INFILE '../shared_data/rows.txt' INTO TABLE t")
        cur.execute("SELECT SUM(a) FROM t")
        assert cur.fetchone()[0] == 3
        with pytest.raises(pymysql.err.InternalError) as e:
            cur.execute("LOAD DATA INFILE 'rows.txt' INTO TABLE t")
        assert e.value.args[0] == 29 and "/ld/rows.txt" in e.value.args[1]


def test_load_data_missing_fields_for_variables_are_null(server):
    """Strict mode: a line short of a field for a @variable leaves it NULL silently; one short
    of a column's field is 1261 (MariaDB 10.11, measured; mtr ctype_utf8mb4_uca_allkeys*)."""
    (server.datadir.parent / "short.txt").write_text("1;x\n2\n")
    conn = server.connect()
    with conn.cursor() as cur:
        cur.execute("CREATE DATABASE ld2")
        cur.execute("USE ld2")
        cur.execute("SET sql_mode = 'STRICT_ALL_TABLES'")
        cur.execute("CREATE TABLE l (a INT, b TEXT)")
        cur.execute("LOAD DATA INFILE '../short.txt' INTO TABLE l FIELDS TERMINATED BY ';' "
                    "(@a, @b) SET a = @a, b = @b")
        cur.execute("SELECT a, b FROM l ORDER BY a")
        assert cur.fetchall() == ((1, "x"), (2, None))
        with pytest.raises(pymysql.err.MySQLError) as e:
            cur.execute("LOAD DATA INFILE '../short.txt' INTO TABLE l FIELDS TERMINATED BY ';' "
                        "(a, b)")
        assert e.value.args[0] == 1261


def test_set_character_set_takes_the_database_set_for_the_connection(server):
    """SET CHARACTER SET cs: client and results are cs, the connection is the database's
    (measured on MariaDB 10.11: mtr ctype_collate)."""
    conn = server.connect(charset="utf8mb4")
    with conn.cursor() as cur:
        cur.execute("CREATE DATABASE csl DEFAULT CHARACTER SET latin1")
        cur.execute("USE csl")
        cur.execute("SET CHARACTER SET koi8r")
        cur.execute("SELECT @@character_set_client, @@character_set_results, "
                    "@@collation_connection, CHARSET('a')")
        assert cur.fetchone() == ("koi8r", "koi8r", "latin1_swedish_ci", "latin1")
