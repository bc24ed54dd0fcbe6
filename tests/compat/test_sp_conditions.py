"""Issue 13: conditions in stored programs compared with MariaDB through PyMySQL - an error in
RETURN taken by a CONTINUE handler (mtr sp-bugs)."""

from __future__ import annotations

import pytest

from tests.compat.conftest import drivers


@pytest.mark.parametrize("driver", drivers("pymysql"))
def test_return_error_taken_by_a_continue_handler(compat, driver):
    compat.check(driver, [
        "CREATE FUNCTION f2() RETURNS INT BEGIN DECLARE CONTINUE HANDLER FOR SQLSTATE "
        "'42000' SET @aux = 1; RETURN f_not_exists(); END",
        "CREATE FUNCTION f3() RETURNS INT BEGIN DECLARE CONTINUE HANDLER FOR SQLEXCEPTION "
        "SET @aux = 2; RETURN (SELECT 1 UNION SELECT 2); END",
        "CREATE FUNCTION f4() RETURNS INT BEGIN RETURN f_not_exists(); END",
        "CREATE PROCEDURE p3(arg1 VARCHAR(32)) BEGIN CALL p_not_exists(); END",
        "SET @aux = 0",
        "SELECT f2(), @aux",
        "SELECT f3(), @aux",
        "SELECT f4()",
        "CALL p3(f2())",
    ], checks=("rows", "error", "warnings"))
