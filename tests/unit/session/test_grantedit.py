"""grantedit.py: the mysql tables' rows read back into grants (FLUSH PRIVILEGES), and which
writes to the mysql database are refused."""

from __future__ import annotations

from typing import Any

import pytest

from rampmeter.errors import ServerError
from rampmeter.session import grantedit, mysqldb
from rampmeter.session.accounts import Account
from rampmeter.session.grants import DbGrant, GrantTables, RoleGrant, TableGrant
from rampmeter.session.privileges import ALL_BITS, P
from rampmeter.session.security import TableNeed

# the columns of each mirror row that grantedit.QUERIES reads, by position
_PICK = {"global_priv": (0, 1, 2), "user": (0, 1), "tables_priv": (0, 1, 2, 3, 4, 6),
         "columns_priv": (0, 1, 2, 3, 4, 6), "roles_mapping": (0, 1, 2, 3)}


def _read_back(t: GrantTables) -> dict[str, list[Any]]:
    rows = mysqldb.rows(t)
    return {name: [tuple(r[i] for i in _PICK[name]) if name in _PICK else r
                   for r in rows[name]] for name in grantedit.QUERIES}


def _tables() -> GrantTables:
    t = GrantTables()
    for a in (Account("root", "localhost", access=ALL_BITS),
              Account("app", "%", "caching_sha2_password", "", access=int(P.RELOAD),
                      ssl_type="X509", max_user_connections=3, locked=True,
                      default_role="r1"),
              Account("r1", "", is_role=True)):
        t.accounts[a.key] = a
    t.dbs.append(DbGrant("app", "%", "shop", int(P.SELECT | P.INSERT)))
    t.tables[("app", "%", "shop", "orders")] = TableGrant(
        "app", "%", "shop", "orders", int(P.SELECT | P.DELETE), {"total": int(P.UPDATE)},
        "root@localhost")
    t.roles.append(RoleGrant("app", "%", "r1", admin=True))
    t.changed()
    return t


def test_the_mirror_reads_back_as_the_same_grants() -> None:
    t = _tables()
    back, warnings = grantedit.from_rows(_read_back(t), t)
    assert warnings == []
    assert grantedit.same(back, t)


def test_edited_rows_become_the_grants_and_bad_rows_are_left_out() -> None:
    t = _tables()
    rows = _read_back(t)
    rows["user"] = [r for r in rows["user"] if r[1] != "app"]  # DELETE FROM mysql.user
    rows["global_priv"] += [("%", "bad", "[1]"), ("%", "odd", '{"plugin": "nope"}'),
                            ("%", "new", '{"access": 1, "plugin": "mysql_native_password"}')]
    rows["db"].append(("%", "x", "new", *(["Y"] + ["N"] * 19)))
    rows["columns_priv"].append(("%", "x", "new", "t", "c", "Select"))  # no tables_priv row
    back, warnings = grantedit.from_rows(rows, t)
    assert back.account("app", "%") is None and back.account("new", "%") is not None
    assert back.account("bad", "%") is None and back.account("odd", "%") is None
    assert back.db_access("new", "h", "x") == P.SELECT
    assert len(warnings) == 3


def test_access_written_by_mariadb_10_5_2_to_10_5_8_is_upgraded() -> None:
    """MDEV-25030 (mtr grant_slave_monitor): every privilege 10.5.8 knew is ALL PRIVILEGES;
    a 10.5.9+ row (or one without version_id) is read as it is."""
    t = _tables()
    rows = _read_back(t)
    before = (1 << 38) - 1
    rows["global_priv"] += [
        ("bar", f"v{v}", f'{{"access": {before}, "version_id": {v}, "plugin": '
                         '"mysql_native_password", "authentication_string": ""}')
        for v in (100507, 100508, 100509)]
    rows["global_priv"].append(("bar", "slave", f'{{"access": {int(P.REPL_SLAVE_ADMIN)}, '
                                '"version_id": 100505, "plugin": "mysql_native_password"}'))
    back, _warnings = grantedit.from_rows(rows, t)

    def access(user: str) -> int:
        account = back.account(user, "bar")
        assert account is not None
        return account.access

    assert access("v100507") == access("v100508") == ALL_BITS
    assert access("v100509") == before
    assert access("slave") == P.REPL_SLAVE_ADMIN | P.SLAVE_MONITOR


@pytest.mark.parametrize(("table", "kind", "bits", "code"), [
    ("db", "INSERT", P.INSERT, None), ("global_priv", "TRUNCATE", P.DROP, None),
    ("user", "DELETE", P.DELETE | P.SELECT, None), ("user", "INSERT", P.INSERT, 1356),
    ("user", "UPDATE", P.UPDATE, 1356), ("db", "DROP", P.DROP, 1036),
    ("general_log", "TRUNCATE", P.DROP, None), ("tables_priv", "ALTER", P.ALTER, 1036),
    ("procs_priv", "RENAME", P.ALTER | P.DROP, None), ("", "DROP", P.DROP, 1044),
])
def test_which_writes_to_the_mysql_database_are_refused(table: str, kind: str, bits: int,
                                                        code: int | None) -> None:
    need = TableNeed("mysql", table, int(bits))
    if code is None:
        grantedit.refuse(need, kind, mysqldb.TABLES)
        return
    with pytest.raises(ServerError) as info:
        grantedit.refuse(need, kind, mysqldb.TABLES)
    assert info.value.code == code
