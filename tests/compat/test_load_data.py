"""LOAD DATA [LOCAL] INFILE and mariadb-import, compared with MariaDB: the same file loaded
into the same table on both servers gives the same rows, affected rows, info and warnings.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pymysql
import pytest

from tests.compat.servers import Endpoint
from tests.compat.tools import connect, fresh_database, run_tool

TABLE = ("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, name VARCHAR(20), "
         "price DECIMAL(6,2), born DATE, data VARBINARY(20), note VARCHAR(10) DEFAULT 'dflt')")

FILES = {
    "plain": b"1\tapple\t1.50\t2000-01-31\t\\0\\t\\\\x\tn1\n"
             b"2\tpear \\N\t\\N\t\\N\t\\N\t\\N\n"
             b"3\t\xc3\xa9t\xc3\xa9\t-3\t1999-12-31\t\xff\xfe\n",
    "csv": b"id,name,price,born,data,note\r\n"
           b"1,\"a, \"\"quoted\"\" name\",2.25,2020-02-29,\"\\N\",x\r\n"
           b"2,NULL,\"7\",2021-01-01,bytes,\"\"\r\n"
           b"3,\"multi\nline\",0,2022-12-31,\"z\",y\r\n",
    "dirty": b"1\tok\t1\t2000-01-01\n"
             b"2\ttoo many\t2\t2000-01-02\txx\tyy\tzz\n"
             b"3\tbad num\tabc\t2000-13-45\n"
             b"1\tdup\t9\t2000-01-03\n",
}

STATEMENTS = {
    "plain": "LOAD DATA LOCAL INFILE '{f}' INTO TABLE t",
    "csv": "LOAD DATA LOCAL INFILE '{f}' INTO TABLE t FIELDS TERMINATED BY ',' "
           "OPTIONALLY ENCLOSED BY '\"' LINES TERMINATED BY '\\r\\n' IGNORE 1 LINES",
    "dirty": "LOAD DATA LOCAL INFILE '{f}' INTO TABLE t",
    "columns_set": "LOAD DATA LOCAL INFILE '{f}' INTO TABLE t (id, @n, @p) "
                   "SET name = CONCAT('<', @n, '>'), price = @p * 2, note = CONCAT(@n, '!')",
    "replace_strict": "LOAD DATA LOCAL INFILE '{f}' REPLACE INTO TABLE t (id, name)",
    "replace": "LOAD DATA LOCAL INFILE '{f}' REPLACE INTO TABLE t (id, name)",
    "starting_by": "LOAD DATA LOCAL INFILE '{f}' INTO TABLE t LINES STARTING BY 'xx' "
                   "(id, name)",
}
FILE_OF = {"columns_set": "plain", "replace_strict": "dirty"}
FILES["replace"] = b"1\tone\n1\tuno\n2\ttwo\n"
FAILS = {"replace_strict"}  # REPLACE is not IGNORE: strict mode makes 1262 an error
FILES["starting_by"] = b"xx1\ta\nno prefix here\nyyxx2\tb\n"


def load(ep: Endpoint, db: str, sql: str, *, local_infile: bool = True) -> dict[str, Any]:
    conn = connect(ep, db, local_infile=local_infile)
    try:
        with conn.cursor() as cur:
            cur.execute(TABLE)
            try:
                affected = cur.execute(sql)
            except pymysql.err.MySQLError as e:
                return {"error": e.args[0]}
            info = conn._result.message if conn._result else b""  # noqa: SLF001
            cur.execute("SHOW WARNINGS")
            warnings = cur.fetchall()
            cur.execute("SELECT * FROM t ORDER BY id")
            return {"affected": affected, "info": info, "warnings": warnings,
                    "rows": cur.fetchall()}
    finally:
        conn.close()


@pytest.mark.parametrize("case", list(STATEMENTS))
def test_load_data_local_as_mariadb(case: str, rampmeter_endpoint: Endpoint,
                                    mariadb_endpoint: Endpoint, tmp_path: Path) -> None:
    path = tmp_path / f"{case}.txt"
    path.write_bytes(FILES[FILE_OF.get(case, case)])
    sql = STATEMENTS[case].format(f=path)
    answers = {}
    for ep in (mariadb_endpoint, rampmeter_endpoint):
        db = fresh_database(ep, f"load_{case}")
        answers[ep.name] = load(ep, db, sql)
    assert ("error" in answers["mariadb"]) == (case in FAILS), answers["mariadb"]
    assert answers["rampmeter"] == answers["mariadb"]


def test_local_infile_refused(rampmeter_endpoint: Endpoint, mariadb_endpoint: Endpoint,
                              tmp_path: Path) -> None:
    path = tmp_path / "x.txt"
    path.write_bytes(FILES["plain"])
    sql = STATEMENTS["plain"].format(f=path)
    for ep in (mariadb_endpoint, rampmeter_endpoint):
        # the client did not offer CLIENT_LOCAL_FILES
        db = fresh_database(ep, "load_refused")
        assert load(ep, db, sql, local_infile=False) == {"error": 4166}, ep.name
        # the server's local_infile is OFF
        conn = connect(ep)
        try:
            with conn.cursor() as cur:
                cur.execute("SET GLOBAL local_infile = 0")
            db = fresh_database(ep, "load_refused")
            assert load(ep, db, sql) == {"error": 4166}, ep.name
        finally:
            with conn.cursor() as cur:
                cur.execute("SET GLOBAL local_infile = 1")
            conn.close()


def test_server_file(rampmeter_endpoint: Endpoint, tmp_path: Path) -> None:
    """LOAD DATA INFILE without LOCAL reads the server's file. (The test MariaDB has
    secure_file_priv NULL - Debian's build - which refuses every such file with 1290; rampmeter's
    default is MariaDB's compiled-in empty value: anywhere.)"""
    db = fresh_database(rampmeter_endpoint, "load_server_file")
    got = load(rampmeter_endpoint, db, "LOAD DATA INFILE '/nonexistent/rm.txt' INTO TABLE t")
    assert got == {"error": 29}
    path = tmp_path / "server.txt"
    path.write_bytes(b"1\tx\t2\t2001-02-03\tab\tcd\n")
    db = fresh_database(rampmeter_endpoint, "load_server_file")
    got = load(rampmeter_endpoint, db, f"LOAD DATA INFILE '{path}' INTO TABLE t")
    assert got["rows"] == ((1, "x", Decimal("2.00"), date(2001, 2, 3), b"ab", "cd"),)


def test_mariadb_import(rampmeter_endpoint: Endpoint, mariadb_endpoint: Endpoint,
                        tmp_path: Path) -> None:
    (tmp_path / "people.csv").write_bytes(
        b"# header\n1;\"Ann\";1.5\n2;\"Bob; Jr.\";\\N\n3;\"\xc3\x89mile\";-2\n")
    rows = {}
    for ep in (mariadb_endpoint, rampmeter_endpoint):
        db = fresh_database(ep, "import_people")
        conn = connect(ep, db)
        with conn.cursor() as cur:
            cur.execute("CREATE TABLE people (id INT PRIMARY KEY, name VARCHAR(20), "
                        "score DECIMAL(4,1))")
        done = run_tool("mariadb-import", ep, "--local", "--fields-terminated-by=;",
                        "--fields-optionally-enclosed-by=\"", "--ignore-lines=1",
                        "--default-character-set=utf8mb4", db, str(tmp_path / "people.csv"))
        assert b"Records: 3" in done.stdout, done.stdout
        with conn.cursor() as cur:
            cur.execute("SELECT * FROM people ORDER BY id")
            rows[ep.name] = cur.fetchall()
        conn.close()
    assert rows["rampmeter"] == rows["mariadb"]
    assert len(rows["mariadb"]) == 3
