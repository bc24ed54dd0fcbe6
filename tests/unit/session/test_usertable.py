"""mysql.user rows read and written as MariaDB's User_table_tabular does (usertable.py)."""

from __future__ import annotations

import json

from rampmeter.session import grantedit
from rampmeter.session.accounts import Account
from rampmeter.session.grants import GrantTables
from rampmeter.session.privileges import P
from rampmeter.session.usertable import USER_PRIVS, global_priv_rows, row_of


def _row(**kw):
    row = {f"{p.lower()}_priv": "N" for p in USER_PRIVS}
    row.update(host="localhost", user="u", password="", plugin="", authentication_string="")
    row.update(kw)
    return row


def _priv(**kw):
    row = _row(**kw)
    (_host, _user, text), = global_priv_rows(list(row), [tuple(row.values())])
    return json.loads(text)


def test_the_plugin_comes_from_the_password_when_the_row_names_none():
    assert _priv(password="7a8f886d28473e85")["plugin"] == "mysql_old_password"
    native = _priv(password="*" + "A" * 40)
    assert (native["plugin"], native["authentication_string"]) == \
        ("mysql_native_password", "*" + "A" * 40)
    # authentication_string wins when both are there
    both = _priv(password="*" + "A" * 40, plugin="mysql_native_password",
                 authentication_string="*" + "B" * 40)
    assert both["authentication_string"] == "*" + "B" * 40


def test_privileges_super_brings_what_was_split_out_of_it():
    priv = _priv(select_priv="Y", super_priv="y", repl_slave_priv="Y")
    access = priv["access"]
    assert access & P.SELECT and access & P.SUPER and access & P.CONNECTION_ADMIN
    assert access & P.REPL_MASTER_ADMIN and access & P.SLAVE_MONITOR
    assert not access & P.INSERT


def test_mysql57_columns_lock_and_lifetime():
    priv = _priv(account_locked="y", password_lifetime=123, password_expired="Y")
    assert priv["account_locked"] is True
    assert priv["password_lifetime"] == 123 and priv["password_last_changed"] == 0


def test_an_account_round_trips_through_a_row():
    a = Account("u", "%", "mysql_native_password", "*" + "C" * 40,
                access=int(P.SELECT | P.UPDATE), locked=True, max_questions=5)
    row = row_of(a)
    assert row["password"] == "" and row["authentication_string"] == a.auth_string
    assert row["select_priv"] == "Y" and row["insert_priv"] == "N"
    rows = {"global_priv": global_priv_rows(list(row), [tuple(row.values())]),
            "user": [("%", "u")], "db": [], "tables_priv": [], "columns_priv": [],
            "roles_mapping": []}
    back, warnings = grantedit.from_rows(rows, GrantTables())
    assert warnings == []
    got = back.account("u", "%")
    assert got is not None
    assert (got.access, got.auth_string, got.locked, got.max_questions) == \
        (a.access, a.auth_string, True, 5)
