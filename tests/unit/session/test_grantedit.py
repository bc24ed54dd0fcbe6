"""grantedit.py: the mysql tables' rows read back into grants (FLUSH PRIVILEGES), and which
writes to the mysql database are refused."""

from __future__ import annotations

from typing import Any

import pytest

from rampmeter.errors import ServerError
from rampmeter.session import aclfile, grantedit, mysqldb, showgrants
from rampmeter.session.accounts import Account
from rampmeter.session.grants import (
    DbGrant,
    GrantTables,
    RoleGrant,
    RoutineGrant,
    TableGrant,
    rkey,
)
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
    t.routines[rkey("app", "%", "shop", "PROCEDURE", "ship")] = RoutineGrant(
        "app", "%", "shop", "ship", "PROCEDURE", int(P.EXECUTE | P.GRANT), "root@localhost")
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
    assert back.account("bad", "%") is None
    odd = back.account("odd", "%")  # a plugin rampmeter lacks is kept, as MariaDB keeps it
    assert odd is not None and odd.plugin == "nope"
    assert back.db_access("new", "h", "x") == P.SELECT
    assert len(warnings) == 2


def test_rows_of_older_servers_are_upgraded_as_mariadb_reads_them() -> None:
    """MDEV-25030 (mtr grant_slave_monitor): 10.5.2 - 10.5.8 wrote no SLAVE MONITOR bit;
    REPLICATION SLAVE ADMIN implies it there, so all their bits are ALL PRIVILEGES."""
    t = _tables()
    rows = _read_back(t)
    old = (1 << 38) - 1
    rows["global_priv"] += [
        ("bar", f"v{v}", f'{{"access": {old}, "version_id": {v}, "plugin": '
                         f'"mysql_native_password", "authentication_string": ""}}')
        for v in (100507, 100508, 100509)]
    back, warnings = grantedit.from_rows(rows, t)
    assert warnings == []
    access = {v: back.account(f"v{v}", "bar").access  # type: ignore[union-attr]
              for v in (100507, 100508, 100509)}
    assert access == {100507: ALL_BITS, 100508: ALL_BITS, 100509: old}


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
    ("general_log", "TRUNCATE", P.DROP, None), ("tables_priv", "ALTER", P.ALTER, None),
    ("global_priv", "ALTER", P.ALTER, 1036), ("global_priv", "RENAME", P.ALTER | P.DROP, None),
    ("user", "RENAME", P.ALTER | P.DROP, None), ("db", "CREATE INDEX", P.INDEX, 1036),
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


@pytest.mark.parametrize("kind", ["INSERT", "UPDATE", "TRUNCATE", "DROP", "ALTER", "CREATE"])
def test_a_mysql_user_table_of_the_clients_is_an_ordinary_table(kind: str) -> None:
    """switch_to_mysql_user.inc: once the view is renamed away, mysql.user is the client's."""
    need = TableNeed("mysql", "user", int(P.INSERT | P.UPDATE | P.DROP | P.ALTER | P.CREATE))
    grantedit.refuse(need, kind, mysqldb.TABLES, lambda: False)
    grantedit.refuse(need, kind, mysqldb.TABLES, lambda: None)
    if kind in ("INSERT", "UPDATE", "TRUNCATE"):
        with pytest.raises(ServerError) as info:
            grantedit.refuse(need, kind, mysqldb.TABLES, lambda: True)
        assert info.value.code == 1356


@pytest.mark.parametrize(("access", "version", "expected"), [
    # root's ALL as mysql_system_tables_data.sql writes it
    ((1 << 64) - 1, 0, ALL_BITS),
    # ALL of 10.5.7 (bits up to BINLOG REPLAY) is ALL after the upgrade: SLAVE MONITOR added
    ((1 << 38) - 1, 100507, ALL_BITS),
    ((1 << 38) - 1, 100508, ALL_BITS),
    # written by 10.5.9 or later: what it says, no SLAVE MONITOR
    ((1 << 38) - 1, 100509, (1 << 38) - 1),
    # before 10.5.2, SUPER covered what was later split out of it
    (int(P.SUPER), 100400, int(P.SUPER | P.SET_USER | P.FEDERATED_ADMIN | P.CONNECTION_ADMIN |
                               P.READ_ONLY_ADMIN | P.REPL_SLAVE_ADMIN | P.BINLOG_ADMIN |
                               P.BINLOG_REPLAY)),
    (int(P.REPL_SLAVE), 0, int(P.REPL_SLAVE | P.SLAVE_MONITOR)),
    # bits the writing version did not have, or a version MariaDB refuses: unreadable
    (int(P.SET_USER), 100400, None),
    (1, 100399, None),
    (1, 1_000_000, None),
])
def test_global_priv_access_is_upgraded_as_mariadb_reads_it(access: int, version: int,
                                                           expected: int | None) -> None:
    from rampmeter.session.privileges import stored_access
    assert stored_access(access, version) == expected


def test_an_access_wrong_for_its_version_loads_the_account_without_privileges() -> None:
    t = _tables()
    rows = _read_back(t)
    rows["global_priv"].append(
        ("%", "old", '{"access": 1073741824, "version_id": 100400, "plugin": "mysql_native_password"}'))
    back, warnings = grantedit.from_rows(rows, t)
    old = back.account("old", "%")
    assert old is not None and old.access == 0
    assert len(warnings) == 1 and "wrong access" in warnings[0]


def test_a_fresh_directory_has_the_rows_mariadb_install_db_writes() -> None:
    """mysql_system_tables(_data).sql: root's row names no plugin, mariadb.sys is locked with
    an expired password and SELECT, DELETE on mysql.global_priv; neither has a version_id."""
    t = aclfile.fresh()
    rows = mysqldb.rows(t)
    assert rows["global_priv"] == [
        ("localhost", "mariadb.sys", '{"access":0,"plugin":"mysql_native_password",'
         '"authentication_string":"","account_locked":true,"password_last_changed":0}'),
        ("localhost", "root", '{"access":18446744073709551615}')]
    user = {r[1]: r for r in rows["user"]}
    assert user["root"][2] == "" and user["root"][-6:-4] == ("", "")  # Password, plugin, auth
    assert user["mariadb.sys"][-6:] == ("mysql_native_password", "", "Y", "N", "", 0)
    assert [r[:4] + r[6:] for r in rows["tables_priv"]] == [
        ("localhost", "mysql", "mariadb.sys", "global_priv", "Select,Delete", "")]
    back, warnings = grantedit.from_rows(_read_back(t), t)  # FLUSH PRIVILEGES keeps them
    assert warnings == [] and grantedit.same(back, t)
    assert back.account("root", "localhost").access == ALL_BITS


def test_a_statement_that_rewrites_an_installed_row_writes_version_and_plugin() -> None:
    t = aclfile.fresh()
    root = t.account("root", "localhost")
    assert root is not None and root.login_plugin == "mysql_native_password"
    root.rewritten()  # ALTER USER CURRENT_USER (alter_user.result)
    got = mysqldb.rows(t)["global_priv"][1][2]
    assert '"version_id"' in got and '"plugin":"mysql_native_password"' in got
    assert not root.installed


def test_root_may_proxy_anyone_as_installed_and_keeps_it_through_a_flush() -> None:
    """mariadb-install-db's proxies_priv row for root: SHOW GRANTS ends with it; the mirror
    holds no proxies_priv rows, so FLUSH PRIVILEGES keeps it from the grants it replaces."""
    t = aclfile.fresh()
    root = t.account("root", "localhost")
    assert root is not None
    assert showgrants.own_lines(t, root)[-1] == \
        "GRANT PROXY ON ``@`%` TO `root`@`localhost` WITH GRANT OPTION"
    back, _ = grantedit.from_rows(_read_back(t), t)
    assert back.account("root", "localhost").proxy_all
