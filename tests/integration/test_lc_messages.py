"""lc_messages: a session's errors in its language, from MariaDB's message files, and every
error message in character_set_results (mtr ctype_errors)."""

from __future__ import annotations

import os

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)

HAVE_FILES = all(os.path.exists(f"/usr/share/mysql/{lang}/errmsg.sys")
                 for lang in ("english", "russian", "czech"))


def _failure(conn, sql):
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, sql)
    return e.value.args[0], e.value.args[1]


def test_lc_messages_takes_locale_names_and_numbers(server):
    conn = server.connect()
    assert _run(conn, "SET lc_messages = 'ru_ru'", "SELECT @@lc_messages") == (("ru_RU",),)
    assert _run(conn, "SET lc_messages = 8", "SELECT @@lc_messages") == (("ar_JO",),)
    assert _run(conn, "SET lc_time_names = 'DE_de'", "SELECT @@lc_time_names") == (("de_DE",),)
    assert _failure(conn, "SET lc_messages = 'xx_YY'")[0] == 1649
    assert _failure(conn, "SET GLOBAL lc_messages = 112")[0] == 1649
    assert _run(conn, "SELECT @@global.lc_messages") == (("en_US",),)


@pytest.mark.skipif(not HAVE_FILES, reason="MariaDB's message files are not installed")
def test_errors_in_the_sessions_language_and_character_set(server):
    conn = server.connect(charset="utf8mb4")
    other = server.connect()
    _run(conn, "CREATE DATABASE lm", "USE lm", "CREATE TABLE t1 (a INT)",
         "SET lc_messages = 'ru_RU'")
    assert _failure(conn, "CREATE TABLE t1 (a INT)") == (1050, "Таблица 't1' уже существует")
    assert _failure(other, "CREATE TABLE lm.t1 (a INT)") == (1050, "Table 't1' already exists")
    _run(conn, "SET lc_messages = cs_CZ")
    assert _failure(conn, "USE nonexistant") == (1049, "Neznámá databáze 'nonexistant'")
    # latin1 results: what latin1 cannot hold is \XXXX
    _run(conn, "SET lc_messages = ru_RU", "SET NAMES latin1")
    assert _failure(conn, "CREATE TABLE t1 (a INT)") == (
        1050, "\\0422\\0430\\0431\\043B\\0438\\0446\\0430 't1' "
              "\\0443\\0436\\0435 \\0441\\0443\\0449\\0435\\0441\\0442\\0432\\0443\\0435\\0442")


def test_english_errors_in_latin1_results(server):
    conn = server.connect(charset="utf8mb4")
    _run(conn, "SET character_set_results = latin1")
    code, message = _failure(conn, "DROP TABLE test.`\u05e7`")
    assert (code, message) == (1051, "Unknown table 'test.\\05E7'")
