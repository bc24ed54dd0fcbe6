"""Foreign keys as MariaDB 10.11 / InnoDB keeps and enforces them (catalog, foreign.py,
fkcheck.py). Expected texts were measured on MariaDB 10.11.19; tests/compat compares the same
through real drivers."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import SqliteSession

from .conftest import fails, rows, scalar, update


def show_create(s: SqliteSession, table: str) -> str:
    return str(rows(s.execute(f"SHOW CREATE TABLE {table}"))[0][1])


def checks(s: SqliteSession, on: bool) -> None:
    s.context.variables["foreign_key_checks"] = 1 if on else 0  # type: ignore[attr-defined]


@pytest.fixture
def pc(session: SqliteSession) -> SqliteSession:
    session.execute("CREATE TABLE p (id int primary key, u int unique, name varchar(10))")
    session.execute("CREATE TABLE c (id int auto_increment primary key, pid int, x int, "
                    "constraint fk_x foreign key (x) references p(u) on delete cascade "
                    "on update set null, foreign key (pid) references p(id))")
    session.execute("INSERT INTO p VALUES (1, 10, 'a'), (2, 20, 'b')")
    return session


def test_show_create_table_prints_constraints_and_their_indexes(pc: SqliteSession) -> None:
    assert show_create(pc, "c") == """CREATE TABLE `c` (
  `id` int(11) NOT NULL AUTO_INCREMENT,
  `pid` int(11) DEFAULT NULL,
  `x` int(11) DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `fk_x` (`x`),
  KEY `pid` (`pid`),
  CONSTRAINT `c_ibfk_1` FOREIGN KEY (`pid`) REFERENCES `p` (`id`),
  CONSTRAINT `fk_x` FOREIGN KEY (`x`) REFERENCES `p` (`u`) ON DELETE CASCADE ON UPDATE SET NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci"""


def test_show_create_table_is_executable_again(pc: SqliteSession) -> None:
    text = show_create(pc, "c")
    pc.execute("DROP TABLE c")
    pc.execute(text)
    assert show_create(pc, "c") == text


def test_child_row_without_parent_is_1452(pc: SqliteSession) -> None:
    err = fails(pc, "INSERT INTO c (pid) VALUES (5)", 1452, "23000")
    assert err.message == ("Cannot add or update a child row: a foreign key constraint fails "
                           "(`db`.`c`, CONSTRAINT `c_ibfk_1` FOREIGN KEY (`pid`) REFERENCES "
                           "`p` (`id`))")
    update(pc, "INSERT INTO c (pid) VALUES (1), (NULL)")
    fails(pc, "UPDATE c SET pid = 9 WHERE pid = 1", 1452)
    assert scalar(pc, "SELECT COUNT(*) FROM c") == 2


def test_a_failing_row_undoes_the_whole_statement(pc: SqliteSession) -> None:
    fails(pc, "INSERT INTO c (pid) VALUES (1), (2), (3)", 1452)
    assert scalar(pc, "SELECT COUNT(*) FROM c") == 0


def test_parent_row_with_children_is_1451(pc: SqliteSession) -> None:
    update(pc, "INSERT INTO c (pid) VALUES (1)")
    err = fails(pc, "DELETE FROM p WHERE id = 1", 1451, "23000")
    assert err.message.startswith("Cannot delete or update a parent row: a foreign key "
                                  "constraint fails (`db`.`c`, CONSTRAINT `c_ibfk_1`")
    fails(pc, "UPDATE p SET id = 7 WHERE id = 1", 1451)
    assert update(pc, "UPDATE p SET name = 'z' WHERE id = 1").affected_rows == 1
    assert update(pc, "DELETE FROM p WHERE id = 2").affected_rows == 1


def test_cascade_and_set_null(pc: SqliteSession) -> None:
    update(pc, "INSERT INTO c (x) VALUES (10), (10), (20)")
    assert update(pc, "UPDATE p SET u = 11 WHERE id = 1").affected_rows == 1
    assert rows(pc.execute("SELECT x FROM c ORDER BY id")) == [(None,), (None,), (20,)]
    assert update(pc, "DELETE FROM p WHERE id = 2").affected_rows == 1
    assert rows(pc.execute("SELECT x FROM c ORDER BY id")) == [(None,), (None,)]


def test_cascade_through_a_self_reference(session: SqliteSession) -> None:
    session.execute("CREATE TABLE tree (id int primary key, parent int, foreign key (parent) "
                    "references tree(id) on delete cascade)")
    update(session, "INSERT INTO tree VALUES (1, NULL), (2, 1), (3, 2), (4, 4)")
    assert update(session, "DELETE FROM tree WHERE id = 1").affected_rows == 1
    assert rows(session.execute("SELECT id FROM tree")) == [(4,)]


def test_foreign_key_checks_off_lets_anything_in(pc: SqliteSession) -> None:
    update(pc, "INSERT INTO c (x) VALUES (10)")
    pc.execute("BEGIN")
    checks(pc, False)  # Django's loaddata turns them off inside its transaction
    update(pc, "INSERT INTO c (pid) VALUES (99)")
    update(pc, "DELETE FROM p WHERE id = 1")  # no cascade either
    checks(pc, True)
    pc.execute("COMMIT")
    assert rows(pc.execute("SELECT pid, x FROM c ORDER BY id")) == [(None, 10), (99, None)]


def test_insert_ignore_skips_the_row_with_a_warning(pc: SqliteSession) -> None:
    result = update(pc, "INSERT IGNORE INTO c (pid) VALUES (78), (1)")
    assert result.affected_rows == 1
    assert [w.code for w in result.warnings] == [1452]
    assert result.info == "Records: 2  Duplicates: 0  Warnings: 1"


def test_constraint_names_and_generated_indexes(session: SqliteSession) -> None:
    session.execute("CREATE TABLE p (id int primary key, u int, unique key uu (u))")
    session.execute("CREATE TABLE c (a int, b int, z int, unique key ub (b), constraint zz "
                    "foreign key (a) references p(id), foreign key fkidx (b) references p(u), "
                    "key (a), constraint c1 foreign key i1 (z) references p(id))")
    text = show_create(session, "c")
    assert "  UNIQUE KEY `ub` (`b`),\n  KEY `a` (`a`),\n  KEY `c1` (`z`),\n" in text
    assert "CONSTRAINT `c1` FOREIGN KEY (`z`)" in text
    assert "CONSTRAINT `fkidx` FOREIGN KEY (`b`) REFERENCES `p` (`u`)" in text


def test_alter_add_and_drop_foreign_key(pc: SqliteSession) -> None:
    pc.execute("CREATE TABLE d (id int, a int)")
    update(pc, "INSERT INTO d VALUES (1, 9)")
    err = fails(pc, "ALTER TABLE d ADD CONSTRAINT fz FOREIGN KEY (a) REFERENCES p (id)", 1452)
    assert "`db`.`#sql-alter-" in err.message and "CONSTRAINT `fz`" in err.message
    update(pc, "UPDATE d SET a = 1")
    pc.execute("ALTER TABLE d ADD CONSTRAINT fz FOREIGN KEY (a) REFERENCES p (id)")
    assert "KEY `fz` (`a`)" in show_create(pc, "d")
    fails(pc, "ALTER TABLE d ADD CONSTRAINT fz FOREIGN KEY (id) REFERENCES p (id)", 1061)
    fails(pc, "ALTER TABLE d ADD CONSTRAINT fk_x FOREIGN KEY (id) REFERENCES p (id)", 1005)
    fails(pc, "ALTER TABLE d DROP INDEX fz", 1553)
    fails(pc, "ALTER TABLE d DROP FOREIGN KEY nosuch", 1091)
    pc.execute("ALTER TABLE d DROP FOREIGN KEY fz")
    text = show_create(pc, "d")
    assert "KEY `fz` (`a`)" in text and "CONSTRAINT" not in text  # the index stays
    update(pc, "INSERT INTO d VALUES (2, 99)")


def test_definitions_that_do_not_fit_are_1005(pc: SqliteSession) -> None:
    for sql in ("CREATE TABLE d (a int, foreign key (a) references nosuch(id))",
                "CREATE TABLE d (a int, foreign key (a) references p(nosuch))",
                "CREATE TABLE d (a varchar(10), foreign key (a) references p(id))",
                "CREATE TABLE d (a bigint, foreign key (a) references p(id))",
                "CREATE TABLE d (a int, foreign key (a) references p(name))",
                "CREATE TABLE d (a int not null, foreign key (a) references p(id) "
                "on delete set null)"):
        err = fails(pc, sql, 1005, "HY000")
        assert err.message == ("Can't create table `db`.`d` (errno: 150 \"Foreign key "
                               "constraint is incorrectly formed\")"), sql
    err = fails(pc, "CREATE TABLE d (a int, constraint fk_x foreign key (a) references p(id))",
                1005)
    assert "errno: 121" in err.message
    fails(pc, "CREATE TABLE d (a int, b int, foreign key (a) references p(id, u))", 1239)


def test_dump_order_with_checks_off(session: SqliteSession) -> None:
    checks(session, False)
    session.execute("CREATE TABLE a_child (id int, pid int, foreign key (pid) references "
                    "b_parent (id))")
    update(session, "INSERT INTO a_child VALUES (1, 1)")
    session.execute("CREATE TABLE b_parent (id int primary key)")
    update(session, "INSERT INTO b_parent VALUES (1)")
    checks(session, True)
    fails(session, "INSERT INTO a_child VALUES (2, 2)", 1452)
    fails(session, "DELETE FROM b_parent", 1451)
    fails(session, "DROP TABLE b_parent", 1451)
    fails(session, "TRUNCATE TABLE b_parent", 1701)


def test_referenced_table_created_later_is_checked(session: SqliteSession) -> None:
    checks(session, False)
    session.execute("CREATE TABLE c3 (a int, foreign key (a) references p(id))")
    checks(session, True)
    fails(session, "CREATE TABLE p (id bigint primary key)", 1005)
    session.execute("CREATE TABLE p (id int primary key)")


def test_drop_table_goes_on_with_the_others(pc: SqliteSession) -> None:
    fails(pc, "DROP TABLE p, c", 1451)
    assert pc.list_tables() == ["p"]
    pc.execute("DROP TABLE p")


def test_rename_renames_generated_names_and_references(pc: SqliteSession) -> None:
    pc.execute("RENAME TABLE c TO cc")
    assert "CONSTRAINT `cc_ibfk_1` FOREIGN KEY" in show_create(pc, "cc")
    pc.execute("ALTER TABLE p RENAME TO pp")
    assert "REFERENCES `pp` (`id`)" in show_create(pc, "cc")
    fails(pc, "INSERT INTO cc (pid) VALUES (7)", 1452)
    update(pc, "INSERT INTO cc (pid) VALUES (1)")


def test_columns_a_constraint_needs(pc: SqliteSession) -> None:
    err = fails(pc, "ALTER TABLE p DROP COLUMN id", 1829)
    assert err.message == ("Cannot drop column 'id': needed in a foreign key constraint "
                           "'c_ibfk_1' of table `db`.`c`")
    fails(pc, "ALTER TABLE c MODIFY pid bigint", 1832)
    fails(pc, "ALTER TABLE p MODIFY id bigint", 1833)
    fails(pc, "ALTER TABLE c DROP COLUMN pid", 1553)
    pc.execute("ALTER TABLE c CHANGE pid pid2 int")
    pc.execute("ALTER TABLE p CHANGE id id2 int")
    text = show_create(pc, "c")
    assert "CONSTRAINT `c_ibfk_1` FOREIGN KEY (`pid2`) REFERENCES `p` (`id2`)" in text
    fails(pc, "INSERT INTO c (pid2) VALUES (7)", 1452)


def test_a_myisam_table_keeps_only_the_index_of_its_foreign_key(session: SqliteSession) -> None:
    """Only InnoDB keeps foreign keys: MyISAM reads the clause and keeps its generated index,
    named after the constraint (else its first column); no check of the parent (mtr
    insert_notembedded)."""
    session.execute("CREATE TABLE m (a INT, b INT, CONSTRAINT fk1 FOREIGN KEY (b) "
                    "REFERENCES nosuch (x) ON UPDATE CASCADE) ENGINE=MyISAM")
    text = rows(session.execute("SHOW CREATE TABLE m"))[0][1]
    assert "KEY `fk1` (`b`)" in text and "FOREIGN" not in text
    session.execute("INSERT INTO m VALUES (1, 99)")  # nothing to check against
    session.execute("ALTER TABLE m ADD FOREIGN KEY (a) REFERENCES nosuch (y)")
    text = rows(session.execute("SHOW CREATE TABLE m"))[0][1]
    assert "KEY `a` (`a`)" in text and "FOREIGN" not in text
