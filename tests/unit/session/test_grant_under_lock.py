"""Under LOCK TABLES, GRANT / REVOKE are 1100 naming the grant table of their level, as
MariaDB names it (measured on 10.11; mtr grant5)."""

from __future__ import annotations

import pytest

from rampmeter.errors import ServerError
from rampmeter.session import statements

pytestmark = pytest.mark.timeout(10)


@pytest.mark.parametrize(("sql", "table"), [
    ("REVOKE EXECUTE ON PROCEDURE sp FROM u", "procs_priv"),
    ("GRANT EXECUTE ON FUNCTION test.f TO u", "procs_priv"),
    ("GRANT SELECT ON test.t1 TO u", "tables_priv"),
    ("GRANT SELECT ON t1 TO u", "tables_priv"),
    ("GRANT SELECT ON test.* TO u", "db"),
    ("REVOKE PROCESS ON *.* FROM u", "db"),
    ("GRANT r1 TO u", "roles_mapping"),
    ("REVOKE ALL PRIVILEGES, GRANT OPTION FROM u", "db"),
    ("GRANT PROXY ON a TO u", "proxies_priv"),
])
def test_grant_names_its_levels_table(sql, table):
    with pytest.raises(ServerError) as e:
        statements._under_lock(sql.upper().split(), sql, "tables")
    assert e.value.code == 1100
    assert e.value.message == f"Table '{table}' was not locked with LOCK TABLES"
