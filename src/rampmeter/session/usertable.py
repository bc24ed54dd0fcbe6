"""mysql.user as a table of the client's, MariaDB's pre-10.4 accounts table: how an account is
written to it and read back from it (MariaDB's User_table_tabular).

Rules:
- In MariaDB mysql.user is a view of mysql.global_priv; tests (include/switch_to_mysql_user.inc)
  rename that view, create mysql.user as a table with the old columns, and rename
  mysql.global_priv away. MariaDB then reads the accounts from the table at FLUSH PRIVILEGES
  and writes every account change to it. Here (mysqldb.py): while mysql.global_priv is absent
  and mysql.user is a table the mirror did not make, FLUSH reads the accounts from it and the
  mirror writes each new snapshot to it.
- The columns are found by name, so a table with columns dropped or added (a MySQL 5.7
  mysql.user: no Password, with password_last_changed, password_lifetime, account_locked) is
  read and written as MariaDB does; a column the table lacks is left out.
- Reading (User_table_tabular::get_access and read_authentication): the *_priv columns give
  the privileges, SUPER brings what 10.5.2 split out of it and REPLICATION SLAVE brings
  REPLICATION MASTER ADMIN and SLAVE MONITOR; an empty plugin is mysql_old_password for a
  16-character Password, else mysql_native_password; a native or old plugin with an empty
  authentication_string takes the Password column's hash.
- Writing: the hash goes to authentication_string and Password is '' (MariaDB 10.4+ writes the
  table so); is_role, password_expired and account_locked as 'Y' / 'N'.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rampmeter.session.accounts import NATIVE, OLD, SSL_TYPES, Account
from rampmeter.session.privileges import _SUPER_SPLIT, P
from rampmeter.sql.lexer import VERSION_ID

USER_PRIVS = ("Select", "Insert", "Update", "Delete", "Create", "Drop", "Reload", "Shutdown",
              "Process", "File", "Grant", "References", "Index", "Alter", "Show_db", "Super",
              "Create_tmp_table", "Lock_tables", "Execute", "Repl_slave", "Repl_client",
              "Create_view", "Show_view", "Create_routine", "Alter_routine", "Create_user",
              "Event", "Trigger", "Create_tablespace", "Delete_history")
_LIMITS = ("max_questions", "max_updates", "max_connections", "max_user_connections")


def _yes(value: Any) -> bool:
    return str(value or "").upper() == "Y"


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("utf-8", "replace")
    return str(value)


def access_of(row: dict[str, Any]) -> int:
    """The global privileges of a mysql.user row (module rules)."""
    bits = 0
    for i, name in enumerate(USER_PRIVS):
        if _yes(row.get(f"{name.lower()}_priv")):
            bits |= 1 << i
    if bits & P.SUPER:
        bits |= _SUPER_SPLIT
    if bits & P.REPL_SLAVE:
        bits |= P.REPL_MASTER_ADMIN | P.SLAVE_MONITOR
    return bits


def priv_json(row: dict[str, Any]) -> str:
    """A mysql.user row (lower-case column names) as the mysql.global_priv Priv that holds the
    same account, for grantedit.from_rows to read."""
    out: dict[str, Any] = {"access": access_of(row), "version_id": VERSION_ID}
    if _yes(row.get("is_role")):
        out["is_role"] = True
        return json.dumps(out)
    password = _text(row.get("password"))
    plugin = _text(row.get("plugin"))
    auth = _text(row.get("authentication_string"))
    if not plugin:
        plugin = OLD if len(password) == 16 else NATIVE
    if plugin in (NATIVE, OLD) and not auth:
        auth = password
    out.update(plugin=plugin, authentication_string=auth)
    ssl = _text(row.get("ssl_type")).upper()
    if ssl in SSL_TYPES and ssl:
        out.update(ssl_type=SSL_TYPES.index(ssl), ssl_cipher=_text(row.get("ssl_cipher")),
                   x509_issuer=_text(row.get("x509_issuer")),
                   x509_subject=_text(row.get("x509_subject")))
    for key in _LIMITS:
        value = row.get(key)
        if value:
            out[key] = int(value)
    if _yes(row.get("account_locked")):
        out["account_locked"] = True
    if _yes(row.get("password_expired")):
        out["password_last_changed"] = 0
    lifetime = row.get("password_lifetime")
    if lifetime is not None:
        out["password_lifetime"] = int(lifetime)
    if row.get("default_role"):
        out["default_role"] = _text(row["default_role"])
    return json.dumps(out)


def global_priv_rows(names: Sequence[str], rows: Sequence[Sequence[Any]]
                     ) -> list[tuple[str, str, str]]:
    """`SELECT * FROM mysql.user` (column `names`) as mysql.global_priv's (Host, User, Priv)."""
    lower = [n.lower() for n in names]
    out = []
    for raw in rows:
        row = dict(zip(lower, raw))
        out.append((_text(row.get("host")), _text(row.get("user")), priv_json(row)))
    return out


def row_of(a: Account) -> dict[str, Any]:
    """The account as MariaDB writes it to a mysql.user table (lower-case column names)."""
    row: dict[str, Any] = {"host": a.host, "user": a.user, "password": ""}
    for i, name in enumerate(USER_PRIVS):
        row[f"{name.lower()}_priv"] = "Y" if a.access & (1 << i) else "N"
    row.update(ssl_type=a.ssl_type, ssl_cipher=a.ssl_cipher, x509_issuer=a.x509_issuer,
               x509_subject=a.x509_subject, plugin="" if a.is_role else a.login_plugin,
               authentication_string="" if a.is_role else a.auth_string,
               password_expired="Y" if a.expired else "N",
               is_role="Y" if a.is_role else "N", default_role=a.default_role,
               max_statement_time=0, account_locked="Y" if a.locked else "N",
               password_lifetime=a.lifetime if a.lifetime is not None and a.lifetime >= 0
               else None)
    for key in _LIMITS:
        row[key] = getattr(a, key)
    return row
