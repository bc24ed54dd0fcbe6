"""The grant tables edited by hand: `INSERT / UPDATE / DELETE` on mysql.global_priv, db,
tables_priv, columns_priv, roles_mapping (and `DELETE FROM mysql.user`), then `FLUSH
PRIVILEGES`, as MariaDB lets an administrator do.

Rules:
- The grant file (aclfile.py) stays the truth, written crash-safely; the `mysql` tables are
  its mirror (mysqldb.py). A hand edit changes only the mirror, in the `mysql` database's
  SQLite file like any write (transactional, durable), and changes no privilege: MariaDB too
  applies the tables only at FLUSH PRIVILEGES.
- FLUSH PRIVILEGES reads the mirror's committed rows back (`from_rows`), and when they differ
  from the grants in force, writes them to the grant file (write, fsync, rename) and makes
  them current; the mirror is then rewritten from them (mysql.user again follows
  global_priv). A mirror that failed to follow the last change (its write failed) is not
  read: FLUSH then reloads the file as before, and the mirror is rewritten.
- A Priv written by MariaDB 10.5.2 .. 10.5.8 (its version_id) is read as MariaDB reads it
  (MDEV-25030): all the privileges that version knew are ALL PRIVILEGES.
- Rows the grants cannot hold are left out with a warning in the log, as MariaDB leaves out
  rows it cannot read: a Priv that is not a JSON object, a role with a host. The file never
  receives what it could not load again. An authentication plugin rampmeter does not have is
  kept, as MariaDB keeps it (SHOW CREATE USER names it; such an account cannot log in).
- mysql.user is a view of global_priv in MariaDB: DELETE from it drops the accounts (here at
  FLUSH: an account in force whose row is gone from mysql.user is dropped); INSERT and UPDATE
  are MariaDB's 1356.
- Schema statements on the mirror's own tables (DROP, CREATE INDEX, ALTER of global_priv) and on
  the `mysql` database are refused (1036 / 1044): the mirror keeps their definitions. RENAME is
  allowed (MariaDB's tests rename mysql.user and mysql.global_priv away and back), and so is
  ALTER of the others (the mirror writes them by column name). Other tables in `mysql`
  (created by a client) are ordinary tables, and so is a mysql.user the client made in place of
  the mirror's (usertable.py).
- Differences from MariaDB: an edit not yet flushed is lost when the server restarts (the
  mirror is rebuilt from the file) or when GRANT, REVOKE or an account statement rewrites the
  mirror before the FLUSH; MariaDB keeps it in its tables.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Collection, Sequence
from typing import Any

from rampmeter import errors
from rampmeter.errors import ServerError
from rampmeter.session import aclfile
from rampmeter.session.accounts import SSL_TYPES
from rampmeter.session.grants import (
    DbGrant,
    GrantTables,
    RoleGrant,
    TableGrant,
)
from rampmeter.session.privileges import (
    COL_ACLS,
    DB_PRIV_COLUMNS,
    TABLE_SET_NAMES,
    P,
    stored_access,
)
from rampmeter.session.security import TableNeed

MYSQL = "mysql"
EDITABLE = frozenset({"global_priv", "db", "tables_priv", "columns_priv", "roles_mapping",
                      "general_log", "slow_log"})
_DML = frozenset({"INSERT", "REPLACE", "UPDATE", "DELETE", "TRUNCATE", "WITH"})
_SCHEMA_BITS = P.CREATE | P.DROP | P.ALTER | P.INDEX
_WRITE_BITS = P.INSERT | P.UPDATE | P.DELETE | _SCHEMA_BITS

QUERIES = {
    "global_priv": "SELECT Host, User, Priv FROM mysql.global_priv",
    "user": "SELECT Host, User FROM mysql.user",
    "db": "SELECT Host, Db, User, " + ", ".join(f"{c}_priv" for c, _ in DB_PRIV_COLUMNS) +
          " FROM mysql.db",
    "tables_priv": "SELECT Host, Db, User, Table_name, Grantor, Table_priv FROM "
                   "mysql.tables_priv",
    "columns_priv": "SELECT Host, Db, User, Table_name, Column_name, Column_priv FROM "
                    "mysql.columns_priv",
    "roles_mapping": "SELECT Host, User, Role, Admin_option FROM mysql.roles_mapping",
}
_SET_BITS = {name.lower(): bit for bit, name in TABLE_SET_NAMES.items()}


def refuse(need: TableNeed, kind: str, mirror_tables: Collection[str],
           user_is_view: Callable[[], bool | None] = lambda: True) -> None:
    """Raise MariaDB's error when a statement of `kind` may not write `need` (module rules).
    `user_is_view`: is mysql.user the mirror's (True), a table of the client's (False), or
    absent (None)?"""
    if need.db != MYSQL:
        return
    bits = need.bits
    for bit, _cols in need.columns:
        bits |= bit
    if not bits & _WRITE_BITS:
        return
    if not need.table:
        raise ServerError(errors.ER_DBACCESS_DENIED_ERROR, "", "", MYSQL,
                          message=f"Access denied to database '{MYSQL}': the grant tables' "
                                  "mirror keeps its definitions (edit their rows, then FLUSH "
                                  "PRIVILEGES)")
    table = need.table.lower()
    if table not in mirror_tables:
        return  # a table of the client's own
    if kind == "RENAME":
        return  # renamed away and back, as MariaDB's tests do (usertable.py)
    if table == "user":
        if not user_is_view():
            return  # a table the client made in place of the view (or none yet)
        if kind == "DELETE" and not bits & (_WRITE_BITS & ~P.DELETE):
            return
        if kind in _DML:
            raise ServerError(1356, sqlstate="HY000", message=(
                "View 'mysql.user' references invalid table(s) or column(s) or function(s) or "
                "definer/invoker of view lack rights to use them"))
    elif table in EDITABLE and kind in _DML:
        return
    elif kind == "ALTER" and table != "global_priv":
        return  # the mirror writes them by column name
    raise ServerError(errors.ER_OPEN_AS_READONLY, need.table)


# --- FLUSH PRIVILEGES: the mirror's rows -> grants -----------------------------------------------

def from_rows(rows: dict[str, list[Sequence[Any]]], current: GrantTables
              ) -> tuple[GrantTables, list[str]]:
    """The grants the mirror's rows (QUERIES' answers) hold, and a warning per row left out."""
    warnings: list[str] = []
    tables = GrantTables()
    kept = {(str(u), str(h).lower()) for h, u in rows["user"]}
    for host, user, priv in rows["global_priv"]:
        key = (user, host.lower())
        if key in current.accounts and key not in kept:
            continue  # deleted from mysql.user
        try:
            item = _item(host, user, priv)
            if item["access"] is None:  # MariaDB loads the account with no privileges
                warnings.append(f"mysql.global_priv row '{user}'@'{host}' has a wrong access "
                                f"value for its version_id: loaded with no privileges")
                item["access"] = 0
            acct = aclfile.account_from(item)
        except (ValueError, TypeError) as exc:
            warnings.append(f"mysql.global_priv row '{user}'@'{host}' left out: {exc}")
            continue
        before = current.accounts.get(key)
        acct.proxy_all = before is not None and before.proxy_all  # no proxies_priv rows
        tables.accounts[acct.key] = acct
    for host, db, user, *flags in rows["db"]:
        bits = 0
        for (_name, bit), flag in zip(DB_PRIV_COLUMNS, flags):
            if str(flag).upper() == "Y":
                bits |= bit
        tables.dbs.append(DbGrant(user, host, db, bits))
    for host, db, user, table, grantor, priv in rows["tables_priv"]:
        g = TableGrant(user, host, db, table, _set_bits(priv), {}, grantor or "")
        tables.tables[(user, host.lower(), db, table.lower())] = g
    for host, db, user, table, column, priv in rows["columns_priv"]:
        key = (user, host.lower(), db, table.lower())
        g = tables.tables.get(key)
        if g is None:  # MariaDB reads column grants through their table's row
            warnings.append(f"mysql.columns_priv row for {db}.{table}.{column} of "
                            f"'{user}'@'{host}' left out: no mysql.tables_priv row")
            continue
        g.columns[column] = _set_bits(priv) & COL_ACLS
    for host, user, role, admin in rows["roles_mapping"]:
        tables.roles.append(RoleGrant(user, host, role, str(admin).upper() == "Y"))
    # routine grants have no mirror (mysql.procs_priv stays an ordinary table, as tests
    # rename it): they are kept from the grants replaced, for the accounts still there
    for key, pg in current.routines.items():
        if (pg.user, pg.host.lower()) in tables.accounts:
            tables.routines[key] = copy.copy(pg)
    tables.loaded()
    return tables, warnings


def _item(host: str, user: str, priv: str) -> dict[str, Any]:
    """global_priv.Priv (MariaDB's JSON) as the grant file spells an account."""
    data = json.loads(priv)
    if not isinstance(data, dict):
        raise ValueError("Priv is not a JSON object")
    raw, version = data.get("access", 0), data.get("version_id", 0)
    if not isinstance(raw, int) or not isinstance(version, int):
        raise ValueError("access / version_id not numbers")
    access = stored_access(raw, version)  # None: not valid for that version (caller warns)
    item: dict[str, Any] = {"user": user, "host": host, "access": access,
                            "is_role": bool(data.get("is_role", False))}
    if not item["is_role"]:
        item["plugin"] = data.get("plugin", "")  # none: logs in as mysql_native_password
        item["auth_string"] = data.get("authentication_string", "")
    ssl = data.get("ssl_type", 0)
    if ssl:
        if not isinstance(ssl, int) or not 0 <= ssl < len(SSL_TYPES):
            raise ValueError(f"ssl_type {ssl!r}")
        item["ssl_type"] = SSL_TYPES[ssl]
    for key in ("ssl_cipher", "x509_issuer", "x509_subject", "default_role",
                "max_questions", "max_updates", "max_connections", "max_user_connections"):
        if data.get(key):
            item[key] = data[key]
    item["locked"] = bool(data.get("account_locked", False))
    item["locked_set"] = "account_locked" in data
    item["expired"] = data.get("password_last_changed") == 0
    item["installed"] = "version_id" not in data
    lifetime = data.get("password_lifetime")
    if isinstance(lifetime, int) and not isinstance(lifetime, bool) and lifetime >= -1:
        item["lifetime"] = lifetime
    return item


# The global privileges MariaDB 10.5.2 .. 10.5.8 knew (SLAVE MONITOR came with 10.5.9)
_ALL_100502 = (1 << 38) - 1


def _set_bits(text: Any) -> int:
    bits = 0
    for name in str(text or "").split(","):
        bits |= _SET_BITS.get(name.strip().lower(), 0)
    return bits


def same(a: GrantTables, b: GrantTables) -> bool:
    """Do two snapshots hold the same grants (whatever their order)?"""
    return _canonical(a) == _canonical(b)


def _canonical(t: GrantTables) -> str:
    doc = aclfile.document(t)
    for key in ("accounts", "db", "tables", "roles", "routines"):
        doc[key] = sorted(doc[key], key=lambda x: json.dumps(x, sort_keys=True))
    return json.dumps(doc, sort_keys=True)
