"""What a CHECK constraint may not read (checks.known_columns), each answer checked against
MariaDB 10.11 (mtr check_constraint): a subquery is 1970; the AUTO_INCREMENT column, a user
or system variable and the functions whose value is not the row's alone are 1901, naming
the constraint (a column's own: the column; the AUTO_INCREMENT column: that column)."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails


@pytest.mark.parametrize(("sql", "code", "text"), [
    ("CREATE TABLE t (c1 int AUTO_INCREMENT PRIMARY KEY, CHECK (c1 > 0 OR c1 IS NULL))", 1901,
     "Function or expression 'AUTO_INCREMENT' cannot be used in the CHECK clause of `c1`"),
    ("CREATE TABLE t (a int CHECK (a > @b))", 1901,
     "Function or expression '@b' cannot be used in the CHECK clause of `a`"),
    ("CREATE TABLE t (a int, CHECK (a > @@sql_mode))", 1901,
     "Function or expression '@@sql_mode' cannot be used in the CHECK clause of "
     "`CONSTRAINT_1`"),
    ("CREATE TABLE t (a int, CONSTRAINT k CHECK (a > now()))", 1901,
     "Function or expression 'current_timestamp()' cannot be used in the CHECK clause of `k`"),
    ("CREATE TABLE t (a int CHECK (a > RAND(1)))", 1901,
     "Function or expression 'rand()' cannot be used in the CHECK clause of `a`"),
    ("CREATE TABLE t (a int CHECK (a IN (SELECT 1)))", 1970,
     "CHECK does not support subqueries or stored functions"),
])
def test_a_check_that_reads_what_it_may_not(session: SqliteSession, sql: str, code: int,
                                            text: str) -> None:
    err = fails(session, sql, code)
    assert err.message == text
    assert "t" not in session.list_tables()


def test_deterministic_functions_are_fine_in_a_check(session: SqliteSession) -> None:
    session.execute("CREATE TABLE t (a int CHECK (unix_timestamp(a) > 0), "
                    "b varchar(5) CHECK (upper(b) <> 'X'))")
    fails(session, "ALTER TABLE t ADD CONSTRAINT CHECK (a > connection_id())", 1901)


def test_rename_column_carries_its_checks_and_change_replaces_them(session: SqliteSession
                                                                   ) -> None:
    """MariaDB 10.11: RENAME COLUMN renames the column's own CHECK and what every CHECK reads
    (1826 when the new name is a constraint's), CHANGE's new definition drops the old CHECK;
    a JSON column's CHECK has its name too."""
    s = session
    s.execute("CREATE TABLE t (a int CHECK (a > 0), b int, CONSTRAINT ab CHECK (a < b))")
    s.execute("ALTER TABLE t RENAME COLUMN a TO new_a")
    shown = str(s.execute("SHOW CREATE TABLE t").rows[0][1])  # type: ignore[union-attr]
    assert "`new_a` int(11) DEFAULT NULL CHECK (`new_a` > 0)" in shown
    assert "CONSTRAINT `ab` CHECK (`new_a` < `b`)" in shown
    s.execute("ALTER TABLE t CHANGE new_a x int")
    shown = str(s.execute("SHOW CREATE TABLE t").rows[0][1])  # type: ignore[union-attr]
    assert "`x` int(11) DEFAULT NULL," in shown
    s.execute("CREATE TABLE u (a int CHECK (a > 0), CONSTRAINT new_a CHECK (a < 100))")
    fails(s, "ALTER TABLE u RENAME COLUMN a TO new_a", 1826, "HY000")
    fails(s, "CREATE TABLE w (p int, j JSON, CONSTRAINT j CHECK (p > 0))", 1826, "HY000")


def test_default_of_a_column_in_a_check(session: SqliteSession) -> None:
    """DEFAULT(col) is read in a CHECK and printed as MariaDB prints it (mtr
    check_constraint)."""
    s = session
    s.execute("CREATE TABLE t (d int DEFAULT 5 CHECK (default (d) IS TRUE), "
              "e int CHECK (e > default(d)))")
    shown = str(s.execute("SHOW CREATE TABLE t").rows[0][1])  # type: ignore[union-attr]
    assert "CHECK (default(`d`) is true)" in shown and "CHECK (`e` > default(`d`))" in shown
    s.execute("INSERT INTO t VALUES (1, 6)")
    fails(s, "INSERT INTO t VALUES (1, 4)", 4025)


def test_a_table_check_named_as_a_column_stays_a_table_check(session: SqliteSession) -> None:
    """`CONSTRAINT a CHECK (...)` of a table with a column `a` is a table constraint: printed
    among them, checked after the columns' own, dropped by DROP CONSTRAINT (MariaDB)."""
    s = session
    s.execute("CREATE TABLE t (a int, b int CHECK (b > 0), CONSTRAINT a CHECK (a > 0))")
    shown = str(s.execute("SHOW CREATE TABLE t").rows[0][1])  # type: ignore[union-attr]
    assert "  `a` int(11) DEFAULT NULL,\n" in shown
    assert "  CONSTRAINT `a` CHECK (`a` > 0)\n" in shown
    err = fails(s, "INSERT INTO t VALUES (-1, 0)", 4025)
    assert err.message.startswith("CONSTRAINT `t.b` failed for ")
    s.execute("ALTER TABLE t DROP CONSTRAINT a")
    s.execute("INSERT INTO t VALUES (-1, 1)")
    fails(s, "ALTER TABLE t ADD CONSTRAINT b CHECK (b < 10)", 1826)  # b's own has the name
    s.execute("ALTER TABLE t ADD CONSTRAINT a CHECK (a < 10)")
    assert "CONSTRAINT `a` CHECK (`a` < 10)" in str(
        s.execute("SHOW CREATE TABLE t").rows[0][1])  # type: ignore[union-attr]
