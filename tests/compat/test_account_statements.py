"""Account statements and COM_CHANGE_USER as MariaDB answers them (found by the mtr tests
create_drop_user and change_user_notembedded): a statement naming several accounts applies
to each it can and names the others in one 1396; a refused COM_CHANGE_USER keeps the
connection, and the fourth after three refusals is 1047 (MDEV-3915).

Accounts are global, so each test names its own (after the test's database)."""

from __future__ import annotations

import re
from typing import Any

import pymysql
import pytest

from tests.compat.conftest import Compat, admin
from tests.compat.servers import Endpoint


def _answers(ep: Endpoint, statements: list[str]) -> list[tuple[Any, ...]]:
    conn = admin(ep)
    out: list[tuple[Any, ...]] = []
    try:
        with conn.cursor() as cur:
            for sql in statements:
                try:
                    cur.execute(sql)
                    rows = tuple(cur.fetchall()) if cur.description else None
                    cur.execute("SHOW WARNINGS")
                    out.append(("ok", rows, tuple(cur.fetchall())))
                except pymysql.err.MySQLError as exc:
                    out.append(("error", exc.args[0], exc.args[1]))
    finally:
        conn.close()
    return out


@pytest.fixture
def prefix(compat: Compat) -> Any:
    name = "a" + re.sub(r"\D", "", compat.db.split("_")[0])
    yield name
    for target in ("mariadb", "rampmeter"):
        conn = admin(compat.endpoint(target))
        try:
            with conn.cursor() as cur:
                for suffix in ("1", "2", "3", "4"):
                    cur.execute(f"DROP USER IF EXISTS '{name}{suffix}'@'%'")
        finally:
            conn.close()


def test_several_accounts_apply_to_each_they_can(compat: Compat, prefix: str) -> None:
    u1, u2, u3, u4 = (f"{prefix}{n}" for n in "1234")
    statements = [
        f"CREATE USER {u1}", f"CREATE USER {u1}, {u2}", f"CREATE USER {u2}",
        f"CREATE USER {u1}, {u3}, {u2}", f"SELECT User FROM mysql.user WHERE User LIKE "
        f"'{prefix}_' ORDER BY 1",
        f"RENAME USER {u1} TO {u4}, {u1} TO {u2}", f"DROP USER {u4}, {u1}, {u2}",
        f"SELECT User FROM mysql.user WHERE User LIKE '{prefix}_' ORDER BY 1",
        f"DROP USER {u3}",
    ]
    maria = _answers(compat.endpoint("mariadb"), statements)
    ramp = _answers(compat.endpoint("rampmeter"), statements)
    for sql, m, r in zip(statements, maria, ramp):
        assert r == m, f"{sql!r}: MariaDB {m!r}, rampmeter {r!r}"


def _change_user_answers(ep: Endpoint) -> list[Any]:
    connector = pytest.importorskip("mysql.connector")
    conn = connector.connect(host=ep.host, port=ep.port, user=ep.user, password=ep.password,
                             ssl_disabled=True, use_pure=True, connection_timeout=10)
    out: list[Any] = []
    try:
        cur = conn.cursor()
        cur.execute("SET @kept = 1")
        for user, password in [("nobody_here", "x"), ("nobody_here", ""),
                               (ep.user, ep.password), ("nobody_here", "x"),
                               ("nobody_here", "x"), (ep.user, ep.password)]:
            try:
                conn.cmd_change_user(username=user, password=password)
                out.append("ok")
            except connector.Error as exc:
                out.append(exc.errno)
            cur = conn.cursor()
            cur.execute("SELECT USER(), @kept")
            out.append(cur.fetchall())
    finally:
        conn.close()
    return out


def test_refused_change_user_keeps_the_connection(compat: Compat) -> None:
    maria = _change_user_answers(compat.endpoint("mariadb"))
    ramp = _change_user_answers(compat.endpoint("rampmeter"))
    assert ramp == maria
    assert 1047 in ramp


def test_grant_tables_edited_by_hand_then_flushed(compat: Compat, prefix: str) -> None:
    """MariaDB's way of editing grants: the mysql tables, then FLUSH PRIVILEGES (grantedit.py).
    Nothing changes before the FLUSH; after it the edited rows are the grants."""
    u = f"{prefix}1"
    db = compat.db
    grants = f"SHOW GRANTS FOR '{u}'@'%'"
    statements = [
        f"CREATE USER '{u}'@'%'", f"GRANT SELECT ON {db}.* TO '{u}'@'%'",
        f"DELETE FROM mysql.db WHERE User = '{u}'", grants, "FLUSH PRIVILEGES", grants,
        f"INSERT INTO mysql.db (Host, Db, User, Select_priv, Insert_priv) VALUES "
        f"('%', '{db}', '{u}', 'Y', 'Y')",
        f"INSERT INTO mysql.tables_priv (Host, Db, User, Table_name, Grantor, Table_priv) "
        f"VALUES ('%', '{db}', '{u}', 't', 'root@localhost', 'Select,Delete')",
        "FLUSH PRIVILEGES", grants,
        f"UPDATE mysql.db SET Insert_priv = 'N', Update_priv = 'Y' WHERE User = '{u}'",
        f"DELETE FROM mysql.tables_priv WHERE User = '{u}'", "FLUSH PRIVILEGES", grants,
        f"INSERT INTO mysql.user (Host, User) VALUES ('%', '{u}x')",
        f"UPDATE mysql.user SET max_questions = 1 WHERE User = '{u}'",
        f"DELETE FROM mysql.user WHERE User = '{u}'", "FLUSH PRIVILEGES", grants,
        f"SELECT COUNT(*) FROM mysql.global_priv WHERE User = '{u}'",
        "TRUNCATE TABLE mysql.general_log",
    ]
    maria = _answers(compat.endpoint("mariadb"), statements)
    ramp = _answers(compat.endpoint("rampmeter"), statements)
    for sql, m, r in zip(statements, maria, ramp):
        assert r == m, f"{sql!r}: MariaDB {m!r}, rampmeter {r!r}"
    # MariaDB would drop it; the mirror keeps its tables' definitions (grantedit.py)
    assert _answers(compat.endpoint("rampmeter"), ["DROP TABLE mysql.db"])[0][:2] == \
        ("error", 1036)


def test_grant_on_a_table_to_come_needs_create(compat: Compat, prefix: str) -> None:
    """MariaDB grants on a table that does not exist when CREATE is among the privileges."""
    u, db = f"{prefix}1", compat.db
    statements = [
        f"CREATE USER '{u}'@'%'", f"GRANT SELECT ON {db}.later TO '{u}'@'%'",
        f"GRANT CREATE, SELECT (a) ON {db}.later3 TO '{u}'@'%'",
        f"GRANT ALL ON {db}.later TO '{u}'@'%'", f"SHOW GRANTS FOR '{u}'@'%'",
        f"REVOKE ALL PRIVILEGES ON {db}.later FROM '{u}'@'%'", f"SHOW GRANTS FOR '{u}'@'%'",
    ]
    maria = _answers(compat.endpoint("mariadb"), statements)
    ramp = _answers(compat.endpoint("rampmeter"), statements)
    for sql, m, r in zip(statements, maria, ramp):  # (MariaDB's SHOW keeps old warnings)
        assert r[:2] == m[:2], f"{sql!r}: MariaDB {m!r}, rampmeter {r!r}"


def test_replication_statements_need_their_privileges(compat: Compat, prefix: str) -> None:
    u = f"{prefix}1"
    for target in ("mariadb", "rampmeter"):
        _answers(compat.endpoint(target), [
            f"CREATE USER '{u}'@'%' IDENTIFIED BY 'pw'", f"GRANT ALL ON *.* TO '{u}'@'%'",
            f"REVOKE REPLICATION MASTER ADMIN, BINLOG REPLAY, SUPER, SLAVE MONITOR ON *.* "
            f"FROM '{u}'@'%'"])
    out = []
    for target in ("mariadb", "rampmeter"):
        ep = compat.endpoint(target)
        answers = []
        for user, pw in ((u, "pw"), (ep.user, ep.password)):
            conn = pymysql.connect(host=ep.host, port=ep.port, user=user, password=pw,
                                   ssl_disabled=True, connect_timeout=10)
            try:
                with conn.cursor() as cur:
                    try:
                        cur.execute("SHOW SLAVE HOSTS")
                        answers.append(([d[0] for d in cur.description], cur.fetchall()))
                    except pymysql.err.MySQLError as exc:
                        answers.append(exc.args)
                    try:  # SLAVE MONITOR; SUPER does not do
                        cur.execute("SHOW RELAYLOG EVENTS")
                        answers.append(([d[0] for d in cur.description], cur.fetchall()))
                    except pymysql.err.MySQLError as exc:
                        answers.append(exc.args)
                    try:  # SUPER or BINLOG REPLAY first; then an empty BINLOG is 1149
                        cur.execute("BINLOG ''")
                    except pymysql.err.MySQLError as exc:
                        answers.append(exc.args[0])
            finally:
                conn.close()
        out.append(answers)
    assert out[1] == out[0]
    assert out[0][0][0] == 1227


def test_pre_41_password_hashes(compat: Compat, prefix: str) -> None:
    """A 16-character hash is a mysql_old_password account, stored and shown as MariaDB does;
    logging in with it is refused on both (MariaDB's secure_auth)."""
    u1, u2 = f"{prefix}1", f"{prefix}2"
    statements = [
        f"CREATE USER '{u1}'@'%' IDENTIFIED BY PASSWORD 'abcdefghijklmnop'",
        f"CREATE USER '{u2}'@'%' IDENTIFIED VIA mysql_old_password USING PASSWORD('gambling2')",
        f"SHOW GRANTS FOR '{u1}'@'%'", f"SHOW GRANTS FOR '{u2}'@'%'",
        f"SELECT User, plugin, Password, authentication_string FROM mysql.user WHERE User IN "
        f"('{u1}', '{u2}') ORDER BY 1",
        f"CREATE OR REPLACE USER '{u1}'@'%' IDENTIFIED BY PASSWORD 'password'",
    ]
    maria = _answers(compat.endpoint("mariadb"), statements)
    ramp = _answers(compat.endpoint("rampmeter"), statements)
    for sql, m, r in zip(statements, maria, ramp):
        assert r[:2] == m[:2], f"{sql!r}: MariaDB {m!r}, rampmeter {r!r}"
    codes = []
    for target in ("mariadb", "rampmeter"):
        ep = compat.endpoint(target)
        with pytest.raises(pymysql.err.MySQLError) as info:
            pymysql.connect(host=ep.host, port=ep.port, user=u2, password="gambling2",
                            ssl_disabled=True, connect_timeout=10).close()
        codes.append(info.value.args[0])
    assert codes == [1275, 1275]
