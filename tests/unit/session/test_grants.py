"""The grant tables in memory (grants.py) and the checks of one session (security.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rampmeter.errors import ServerError
from rampmeter.session.accounts import Account
from rampmeter.session.aclstore import AccountStore
from rampmeter.session.grants import DbGrant, GrantTables, RoleGrant, TableGrant
from rampmeter.session.privileges import ALL_BITS, DB_ACLS, P
from rampmeter.session.security import SecurityContext, TableNeed


def _tables() -> GrantTables:
    t = GrantTables()
    for a in (Account("u", "%"), Account("r1", "", is_role=True),
              Account("r2", "", is_role=True, access=int(P.PROCESS))):
        t.accounts[a.key] = a
    t.dbs += [DbGrant("u", "%", "d%", int(P.SELECT)), DbGrant("u", "%", "d1", int(P.INSERT)),
              DbGrant("r1", "", "e2", int(P.DELETE))]
    t.tables[("u", "%", "x3", "t")] = TableGrant("u", "%", "x3", "t", int(P.UPDATE),
                                                 {"a": int(P.SELECT)})
    t.roles += [RoleGrant("r2", "", "r1"), RoleGrant("u", "%", "r2")]
    t.changed()
    return t


def test_database_grants_first_match_wins_not_union() -> None:
    t = _tables()
    # `d1` (no wildcard) sorts before `d%`: for d1 only its row counts, as acl_get decides
    assert t.db_access("u", "10.0.0.1", "d1") == P.INSERT
    assert t.db_access("u", "10.0.0.1", "d9") == P.SELECT
    assert t.db_access("u", "10.0.0.1", "x") == 0


def test_roles_inherit_recursively() -> None:
    t = _tables()
    assert t.role_closure("r2") == {"r1", "r2"}
    assert t.role_global_access("r2") == P.PROCESS
    assert t.role_db_access("r2", "e2") == P.DELETE
    assert t.role_db_access(None, "e2") == 0


def test_drop_account_removes_its_rows_and_a_dropped_role_its_mappings() -> None:
    t = _tables()
    t.drop_account("r1", "")
    assert t.role("r1") is None and t.role_closure("r2") == {"r2"}
    assert not [d for d in t.dbs if d.user == "r1"]
    t.drop_account("u", "%")
    assert not t.dbs[0:0] and t.tables == {} and t.granted_roles("u", "%") == []


class _Store:
    """An AccountStore stand-in holding a fixed snapshot."""

    skip_grants = False

    def __init__(self, tables: GrantTables) -> None:
        self.tables = tables


def _sec(t: GrantTables, role: str | None = None) -> SecurityContext:
    sec = SecurityContext(_Store(t), user="u", host="10.0.0.1",  # type: ignore[arg-type]
                          account=t.account("u", "%"))
    if role:
        sec.set_role(role)
    return sec


def _code(fn, *args) -> int:  # noqa: ANN001
    with pytest.raises(ServerError) as info:
        fn(*args)
    return info.value.code


def test_table_and_column_checks_give_1142_then_1143() -> None:
    sec = _sec(_tables())
    sec.check_table(TableNeed("x3", "t", int(P.UPDATE), ((P.SELECT, ("a",)),)))
    err = _code(sec.check_table, TableNeed("x3", "t", int(P.DELETE)))
    assert err == 1142
    assert _code(sec.check_table, TableNeed("x3", "t", int(P.SELECT),
                                            ((P.SELECT, ("a", "b")),))) == 1143
    # `*` over a table with only some columns granted is 1142 for the table
    assert _code(sec.check_table, TableNeed("x3", "t", int(P.SELECT), (),
                                            ("a", "b"))) == 1142
    # any privilege on the table will do (DESCRIBE), none on another table
    sec.check_table(TableNeed("x3", "t", any_privilege=True))
    assert _code(sec.check_table, TableNeed("x3", "x", any_privilege=True)) == 1142


def test_database_level_covers_tables_and_the_error_text_names_what_is_missing() -> None:
    sec = _sec(_tables())
    sec.check_table(TableNeed("d9", "anything", int(P.SELECT), ((P.SELECT, ("z",)),)))
    with pytest.raises(ServerError) as info:
        sec.check_table(TableNeed("d9", "t", int(P.SELECT | P.DROP | P.ALTER)))
    assert info.value.message == ("DROP, ALTER command denied to user 'u'@'10.0.0.1' for "
                                  "table `d9`.`t`")
    with pytest.raises(ServerError) as info:
        sec.check_db("x", int(P.CREATE))
    assert info.value.code == 1044
    assert info.value.message == "Access denied for user 'u'@'%' to database 'x'"


def test_an_active_role_adds_its_privileges() -> None:
    t = _tables()
    assert not _sec(t).has(P.PROCESS)
    sec = _sec(t, "r2")
    assert sec.has(P.PROCESS)
    sec.check_table(TableNeed("e2", "t", int(P.DELETE)))
    assert sec.may_see_db("e2") and not _sec(t).may_see_db("e2")


def test_use_caches_the_current_database_until_the_next_use() -> None:
    t = _tables()
    sec = _sec(t)
    sec.set_db("d1", sec.check_use("d1"))
    t.dbs = [d for d in t.dbs if d.db != "d1"]     # revoked meanwhile
    t.changed()
    sec.check_db("d1", int(P.INSERT))              # still allowed: read at USE
    assert _code(sec.check_use, "zz") == 1044
    assert sec.check_use("x3") == 0                 # a table grant opens it (no 1044)


def test_all_privileges_skip_every_check(tmp_path: Path) -> None:
    store = AccountStore(tmp_path)
    root = store.find("root", "127.0.0.1")
    assert root is not None and root.access == ALL_BITS
    sec = SecurityContext(store, user="root", host="127.0.0.1", account=root)
    assert sec.unchecked
    sec.check_table(TableNeed("x", "y", DB_ACLS))


def test_thread_pool_queue_rows_of_others_need_process(tmp_path: Path) -> None:
    """information_schema.THREAD_POOL_QUEUES: another user's queued connection is shown only
    to an account with PROCESS (issue 10: the pool's tables follow the privileges)."""
    from types import SimpleNamespace

    from rampmeter.session import infoschema

    t = _tables()
    mine = SimpleNamespace(user="u")
    theirs = SimpleNamespace(user="root")
    sessions = {1: mine, 2: theirs}
    queue = [(0, 0, 1, 1, 10), (0, 1, 1, 2, 20), (0, 2, 1, None, 30)]
    for role, expected in ((None, [1]), ("r2", [1, 2, None])):
        sec = _sec(t, role)
        s = SimpleNamespace(security=sec, ctx=SimpleNamespace(
            pool_table=lambda name: queue, registry=SimpleNamespace(get=sessions.get)))
        s.may_see = lambda other, sec=sec: sec.may_see_threads_of(other.user)
        _cols, rows = infoschema.table(s, "information_schema", "THREAD_POOL_QUEUES")
        assert [r[3] for r in rows] == expected
