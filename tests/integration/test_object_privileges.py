"""Privileges of schema statements on other objects (measured on MariaDB 10.11; mtr grant5):
SHOW CREATE VIEW needs SELECT and SHOW VIEW on the view, SELECT checked first, before the
view's existence; a FOREIGN KEY needs REFERENCES on its parent table. 1142 names the
client's address."""

from __future__ import annotations

import pymysql
import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def _error(conn, sql):
    with pytest.raises(pymysql.err.MySQLError) as e:
        _run(conn, sql)
    return e.value.args


def test_show_create_view_needs_select_then_show_view(server):
    root = server.connect()
    _run(root, "CREATE DATABASE sv", "CREATE VIEW sv.vw AS SELECT 1 AS a",
         "CREATE USER sv1@localhost", "GRANT SHOW VIEW ON sv.vw TO sv1@localhost",
         "CREATE USER sv2@localhost", "GRANT SELECT ON sv.vw TO sv2@localhost")
    one, two = server.connect(user="sv1"), server.connect(user="sv2")
    assert _error(one, "SHOW CREATE VIEW sv.vw") == (
        1142, "SELECT command denied to user 'sv1'@'127.0.0.1' for table `sv`.`vw`")
    assert _error(two, "SHOW CREATE VIEW sv.vw") == (
        1142, "SHOW VIEW command denied to user 'sv2'@'127.0.0.1' for table `sv`.`vw`")
    assert _error(two, "SHOW CREATE VIEW sv.nothing")[0] == 1142
    _run(root, "GRANT SHOW VIEW ON sv.vw TO sv2@localhost")
    assert _run(two, "SHOW CREATE VIEW sv.vw")[0][0] == "vw"


def test_a_foreign_key_needs_references_on_its_parent(server):
    """Granted on the parent table or above; a column grant will not do (measured)."""
    root = server.connect()
    _run(root, "CREATE DATABASE fk", "CREATE TABLE fk.p (id INT PRIMARY KEY)",
         "CREATE USER fk1@localhost", "GRANT CREATE, ALTER ON fk.* TO fk1@localhost",
         "GRANT REFERENCES (id) ON fk.p TO fk1@localhost")
    user = server.connect(user="fk1", database="fk")
    assert _error(user, "CREATE TABLE c (a INT, FOREIGN KEY (a) REFERENCES p (id))") == (
        1142, "REFERENCES command denied to user 'fk1'@'127.0.0.1' for table `fk`.`p`")
    assert _error(user, "CREATE TABLE c (a INT, FOREIGN KEY (a) REFERENCES `fk `.p (id))") \
        == (1102, "Incorrect database name 'fk '")
    _run(user, "CREATE TABLE c (a INT)")
    assert _error(user, "ALTER TABLE c ADD FOREIGN KEY (a) REFERENCES fk.p (id)")[0] == 1142
    _run(root, "GRANT REFERENCES ON fk.p TO fk1@localhost")
    _run(user, "CREATE TABLE c2 (a INT, FOREIGN KEY (a) REFERENCES p (id))")
