"""CURRENT_USER() and CURRENT_ROLE() inside an SQL SECURITY DEFINER view are its definer's,
also in the defaults of a write through it (MariaDB 10.11; mtr default_session)."""

from __future__ import annotations

import pytest

from tests.integration.sqlrun import run as _run

pytestmark = pytest.mark.timeout(60)


def test_a_definer_view_runs_as_its_definer(server):
    root = server.connect()
    _run(root, "CREATE DATABASE dv", "USE dv", "CREATE USER dfoo@localhost", "CREATE ROLE dbar",
         "GRANT SELECT, INSERT ON *.* TO dfoo@localhost", "GRANT SELECT, INSERT ON *.* TO dbar",
         "CREATE TABLE t (n VARCHAR(10), cu VARCHAR(100) DEFAULT current_user(), "
         "cr VARCHAR(100) DEFAULT current_role())",
         "CREATE DEFINER = dfoo@localhost VIEW vu AS SELECT * FROM t",
         "CREATE DEFINER = dbar VIEW vr AS SELECT * FROM t",
         "CREATE VIEW vo AS SELECT * FROM vr",  # root's, over the role's
         "CREATE SQL SECURITY INVOKER VIEW vi AS SELECT * FROM t",
         "CREATE DEFINER = dfoo@localhost VIEW vf AS SELECT current_user(), default(cu) "
         "FROM t")
    for view in ("t", "vu", "vr", "vo", "vi"):
        _run(root, f"INSERT INTO {view} (n) VALUES ('{view}')")
    assert _run(root, "SELECT n, cu, cr FROM t ORDER BY n") == (
        ("t", "root@localhost", None), ("vi", "root@localhost", None), ("vo", "@", "dbar"),
        ("vr", "@", "dbar"), ("vu", "dfoo@localhost", None))
    assert set(_run(root, "SELECT * FROM vf")) == {("dfoo@localhost", "dfoo@localhost")}
    assert _run(root, "SELECT current_user()") == (("root@localhost",),)
