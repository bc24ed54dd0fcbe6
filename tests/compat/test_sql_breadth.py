"""Issue 13: what MariaDB's own test suite needed of the SQL layer, checked against MariaDB
through a real driver: system variables tests read and set, SET STATEMENT ... FOR, statements
that are only comments, sql_mode's combination modes, functions and comparisons with
MariaDB's answers, database default character sets."""

from __future__ import annotations

import pytest

from tests.compat.conftest import drivers

CHECKS = ("rows", "error", "warnings", "warning_text")


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_variables_tests_read_and_set(compat, driver):
    compat.check(driver, [
        "SET @save = @@optimizer_switch",
        "SET optimizer_switch = 'derived_merge=off'",
        "SELECT @@optimizer_switch LIKE '%derived_merge=off%', @@sort_buffer_size > 0",
        "SET optimizer_switch = @save",
        "SELECT @@optimizer_switch = @save",
        "SET sql_mode = 'TRADITIONAL'", "SELECT @@sql_mode",
        "SET sql_mode = 'MYSQL40'", "SELECT @@sql_mode",
        "SET sql_mode = DEFAULT",
        "SET timestamp = 1000000000", "SELECT NOW(), UNIX_TIMESTAMP(), @@timestamp",
        "SET timestamp = DEFAULT",
        "SET collation_connection = latin1_bin", "SELECT @@character_set_connection",
        "SET character_set_connection = utf8mb4", "SELECT @@collation_connection",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_set_statement_for(compat, driver):
    compat.check(driver, [
        "SET STATEMENT sql_mode = 'NO_ZERO_DATE' FOR SELECT @@sql_mode",
        "SELECT @@sql_mode",
        "SET STATEMENT div_precision_increment = 2, sql_select_limit = 1 FOR SELECT 1/3",
        "SELECT 1/3",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_a_statement_of_comments_only_is_ok(compat, driver):
    compat.check(driver, ["/* only a comment */", "# another", "SELECT 1 /* trailing */"],
                 ("rows", "error", "columns"))


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_functions_and_comparisons(compat, driver):
    compat.check(driver, [
        "SELECT YEAR('2000-01-02'), TO_DAYS('2000-03-01'), DATE_ADD('2000-01-31', "
        "INTERVAL 1 MONTH), DATE_FORMAT('1997-10-04 22:23:00', '%W %M %D %Y %j')",
        "SELECT LPAD('a', 4, 'xy'), STRCMP('a', 'B'), CONV('ff', 16, 10), "
        "SUBSTRING_INDEX('a.b.c', '.', -1), FIND_IN_SET('c', 'a,b,c')",
        "SELECT RAND(3), ROUND(1.25, 1), TRUNCATE(-1.99, 1), CAST(2.5 AS SIGNED), "
        "CAST('1x' AS SIGNED)",
        "SELECT 1 = '1', 'a' = 'A', 'a ' = 'a', '10' > 9, 'AB%' LIKE 'a_\\\\%'",
        "SELECT TO_DAYS('not a date')",
    ], CHECKS)


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_database_default_character_set(compat, driver):
    db = compat.db + "_cs"
    compat.check(driver, [
        f"CREATE DATABASE {db} CHARACTER SET latin1",
        f"SHOW CREATE DATABASE {db}",
        f"CREATE TABLE {db}.t (a VARCHAR(3))",
        f"SELECT COLLATION(a) FROM {db}.t",
        f"ALTER DATABASE {db} COLLATE latin1_bin",
        f"SHOW CREATE DATABASE {db}",
        f"DROP DATABASE {db}",
    ], ("rows", "error", "warnings"))
