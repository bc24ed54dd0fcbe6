"""The grant file: crash-safe writes, strict reads, the upgrade of format 1 (aclfile.py,
aclstore.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rampmeter.errors import ServerError
from rampmeter.session import aclfile
from rampmeter.session.accounts import Account
from rampmeter.session.aclstore import AccountStore
from rampmeter.session.grants import DbGrant, GrantTables, RoleGrant, TableGrant
from rampmeter.session.privileges import ALL_BITS, P


def _rich() -> GrantTables:
    t = aclfile.fresh()
    app = Account("app", "10.%", "caching_sha2_password", "$pbkdf2-sha256$5000$00$11",
                  access=int(P.PROCESS), ssl_type="X509", max_user_connections=3, locked=True,
                  default_role="r")
    role = Account("r", "", is_role=True, access=int(P.RELOAD))
    for a in (app, role):
        t.accounts[a.key] = a
    t.dbs.append(DbGrant("app", "10.%", "d\\_%", int(P.SELECT | P.GRANT)))
    t.tables[("app", "10.%", "d", "t")] = TableGrant("app", "10.%", "d", "t", int(P.INSERT),
                                                     {"Col": int(P.UPDATE)}, "root@localhost")
    t.roles.append(RoleGrant("app", "10.%", "r", True))
    t.changed()
    return t


def test_round_trip_keeps_everything(tmp_path: Path) -> None:
    path = tmp_path / "mysql" / "accounts.json"
    aclfile.save(path, _rich())
    back, notes = aclfile.load(path)
    assert notes == []
    assert aclfile.document(back) == aclfile.document(_rich())
    assert not path.with_name("accounts.json.tmp").exists()


@pytest.mark.parametrize("content", [
    b"", b"{", b"\xff\xfe", b"[]", b'{"version": 7}',
    b'{"version": 2, "accounts": [{"user": "a", "host": "%", "access": "all"}]}',
    b'{"version": 2, "accounts": [{"user": "a", "host": "%", "plugin": "p\\u0000m"}]}',
    b'{"version": 2, "accounts": [{"user": "a", "host": "%"}, {"user": "a", "host": "%"}]}',
    b'{"version": 2, "accounts": [], "db": [{"user": "a", "host": "%", "db": "d"}]}',
    b'{"version": 2, "accounts": [], "tables": [{"user": "a", "host": "%", "db": "d", '
    b'"table": "t", "columns": {"c": "x"}}]}',
])
def test_a_damaged_file_stops_the_server_instead_of_starting_open(tmp_path: Path,
                                                                 content: bytes) -> None:
    path = aclfile.path_of(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    with pytest.raises(aclfile.DamagedGrantFile) as info:
        AccountStore(tmp_path)
    assert str(path) in str(info.value) and "--skip-grant-tables" in str(info.value)
    # with --skip-grant-tables it starts, checking nothing, for recovery
    store = AccountStore(tmp_path, skip_grant_tables=True)
    assert store.skip_grants and store.credentials("anyone", "10.0.0.1").accept_any


def test_format_1_is_upgraded_root_keeps_everything_others_nothing(tmp_path: Path) -> None:
    path = aclfile.path_of(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"accounts": [
        {"user": "root", "host": "localhost", "plugin": "mysql_native_password",
         "auth_string": ""},
        {"user": "app", "host": "%", "plugin": "mysql_native_password", "auth_string": ""}]}))
    store = AccountStore(tmp_path)
    assert store.exact("root", "localhost").access == ALL_BITS
    assert store.exact("app", "%").access == 0
    assert json.loads(path.read_text())["version"] == aclfile.FORMAT


def test_a_failed_write_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = AccountStore(tmp_path)
    before = store.path.read_bytes()

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(ServerError) as info:
        store.change(lambda t: t.accounts.__setitem__(("x", "%"), Account("x", "%")))
    assert info.value.code == 1026 and "No space left" in info.value.message
    assert store.exact("x", "%") is None            # not in memory either
    assert store.path.read_bytes() == before         # the old file is whole


def test_a_change_is_on_disk_before_it_is_visible(tmp_path: Path) -> None:
    store = AccountStore(tmp_path)
    seen: list[bool] = []
    store.add_listener(lambda t: seen.append(
        "late" in aclfile.path_of(tmp_path).read_text()))
    store.change(lambda t: t.accounts.__setitem__(("late", "%"), Account("late", "%")))
    assert seen == [False, True]
    assert AccountStore(tmp_path).exact("late", "%") is not None


def test_leftover_temp_file_is_ignored(tmp_path: Path) -> None:
    store = AccountStore(tmp_path)
    store.path.with_name("accounts.json.tmp").write_text("half a wri")
    assert AccountStore(tmp_path).exact("root", "localhost") is not None
