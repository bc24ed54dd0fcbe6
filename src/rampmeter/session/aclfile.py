"""The grant file: accounts, roles and grants of one data directory, in <datadir>/mysql/
accounts.json.

Rules:
- Written crash-safely: the whole document to accounts.json.tmp, flush, fsync, rename over the
  old file, fsync the directory. A crash leaves the old file or the new one, never a mix; a
  leftover .tmp is ignored (and overwritten by the next write).
- Read strictly: a file that is not UTF-8 JSON of the expected shape, or holds a value of the
  wrong type, raises DamagedGrantFile naming the file and what is wrong. The server then refuses
  to start (cli.py): a server whose grants cannot be read must not start open. --skip-grant-
  tables starts it anyway, for recovery, with checks off.
- Format version 2 holds accounts (with their global privileges and options), database, table
  and column grants, and role mappings. Version 1 (rampmeter before privileges: accounts only,
  every account could do everything) is upgraded on load: root accounts get ALL PRIVILEGES WITH
  GRANT OPTION, the others none (USAGE), and a warning names them, so that no account silently
  keeps powers nobody granted.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from rampmeter.session.accounts import LIMITS, NATIVE, PLUGINS, SSL_TYPES, Account
from rampmeter.session.grants import (
    DbGrant,
    GrantTables,
    RoleGrant,
    RoutineGrant,
    TableGrant,
    rkey,
)
from rampmeter.session.privileges import ALL_BITS, Priv

FORMAT = 2
ROOT_ACCESS = ALL_BITS  # MariaDB stores root's ALL as every bit, WITH GRANT OPTION included


class DamagedGrantFile(Exception):
    """The grant file exists but cannot be trusted (see the module rules)."""

    def __init__(self, path: Path, what: str) -> None:
        super().__init__(f"the grant file {path} is damaged: {what}; restore it from a backup, "
                         f"or start with --skip-grant-tables and recreate the accounts")
        self.path = path


def path_of(datadir: str | os.PathLike[str]) -> Path:
    return Path(datadir) / "mysql" / "accounts.json"


def fresh() -> GrantTables:
    """A new data directory's grants: root@localhost, no password, everything; and MariaDB's
    mariadb.sys@localhost (locked, password expired, SELECT and DELETE on mysql.global_priv),
    with the rows mariadb-install-db writes (mysql_system_tables.sql): root's names no
    plugin, neither has a version_id; root may proxy anyone WITH GRANT OPTION."""
    tables = GrantTables()
    root = Account("root", "localhost", "", "", access=ROOT_ACCESS, installed=True,
                   proxy_all=True)
    sys_ = Account("mariadb.sys", "localhost", NATIVE, "", locked=True, expired=True,
                   installed=True)
    for acct in (root, sys_):
        tables.accounts[acct.key] = acct
    g = TableGrant(sys_.user, sys_.host, "mysql", "global_priv", Priv.SELECT | Priv.DELETE,
                   grantor="root@localhost")
    tables.tables[(g.user, g.host, g.db, g.table)] = g
    tables.changed()
    return tables


# --- reading -----------------------------------------------------------------------------------

def load(path: Path) -> tuple[GrantTables, list[str]]:
    """The grants in `path` and the warnings an upgrade produced. DamagedGrantFile if bad."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DamagedGrantFile(path, f"cannot be read ({exc.strerror})") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise DamagedGrantFile(path, f"not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise DamagedGrantFile(path, "not a JSON object")
    try:
        version = data.get("version", 1)
        if version == 1 and set(data) <= {"accounts"}:
            return _upgrade_v1(data)
        if version != FORMAT:
            raise ValueError(f"unknown format version {version!r}")
        return _read_v2(data), []
    except (ValueError, TypeError, KeyError) as exc:
        raise DamagedGrantFile(path, str(exc) or type(exc).__name__) from None


def _str(item: dict[str, Any], key: str, default: str | None = None) -> str:
    value = item.get(key, default)
    if not isinstance(value, str):
        raise ValueError(f"{key!r} must be a string, not {value!r}")
    return value


def _int(item: dict[str, Any], key: str, default: int | None = 0,
         maximum: int = 2**64 - 1) -> int:
    if default is None and key not in item:
        raise ValueError(f"{key!r} is missing")
    value = item.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= maximum:
        raise ValueError(f"{key!r} must be an integer in 0..{maximum}, not {value!r}")
    return value


def _bool(item: dict[str, Any], key: str) -> bool:
    value = item.get(key, False)
    if not isinstance(value, bool):
        raise ValueError(f"{key!r} must be true or false, not {value!r}")
    return value


def _list(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(x, dict) for x in value):
        raise ValueError(f"{key!r} must be a list of objects")
    return value


def account_from(item: dict[str, Any]) -> Account:
    """One account of the file (or of a hand-edited mysql.global_priv row); ValueError if bad."""
    plugin = _str(item, "plugin", NATIVE)  # "": the account's row names none
    # a plugin rampmeter lacks (a hand-edited mysql.global_priv row) is kept, as MariaDB keeps
    # it: SHOW CREATE USER names it, DROP USER drops it, and nobody logs in with it
    if plugin not in PLUGINS and (len(plugin) > 64 or "\0" in plugin):
        raise ValueError(f"bad authentication plugin name {plugin!r}")
    ssl_type = _str(item, "ssl_type", "")
    if ssl_type not in SSL_TYPES:
        raise ValueError(f"unknown ssl_type {ssl_type!r}")
    acct = Account(
        user=_str(item, "user"), host=_str(item, "host"), plugin=plugin,
        auth_string=_str(item, "auth_string", ""), access=_int(item, "access"),
        is_role=_bool(item, "is_role"), ssl_type=ssl_type,
        ssl_cipher=_str(item, "ssl_cipher", ""), x509_issuer=_str(item, "x509_issuer", ""),
        x509_subject=_str(item, "x509_subject", ""), locked=_bool(item, "locked"),
        default_role=_str(item, "default_role", ""))
    for limit in LIMITS:
        setattr(acct, limit, _int(item, limit, 0, 2**32 - 1))
    acct.locked_set = _bool(item, "locked_set") or acct.locked
    acct.expired = _bool(item, "expired")
    acct.installed = _bool(item, "installed")
    acct.proxy_all = _bool(item, "proxy_all")
    if "lifetime" in item:  # -1 (the default lifetime), 0 (never), or days
        lifetime = item["lifetime"]
        if not isinstance(lifetime, int) or isinstance(lifetime, bool) or \
                not -1 <= lifetime < 2**32:
            raise ValueError(f"'lifetime' must be an integer from -1, not {lifetime!r}")
        acct.lifetime = lifetime
    if acct.is_role and acct.host != "":
        raise ValueError(f"role {acct.user!r} has a host")
    return acct


def _read_v2(data: dict[str, Any]) -> GrantTables:
    tables = GrantTables()
    for item in _list(data, "accounts"):
        acct = account_from(item)
        if acct.key in tables.accounts:
            raise ValueError(f"account {acct.display()} appears twice")
        tables.accounts[acct.key] = acct
    for item in _list(data, "db"):
        tables.dbs.append(DbGrant(_str(item, "user"), _str(item, "host"), _str(item, "db"),
                                  _int(item, "access", None)))
    for item in _list(data, "tables"):
        columns = item.get("columns", {})
        if not isinstance(columns, dict) or not all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                for k, v in columns.items()):
            raise ValueError("table grant columns must map names to integers")
        g = TableGrant(_str(item, "user"), _str(item, "host"), _str(item, "db"),
                       _str(item, "table"), _int(item, "access", None), dict(columns),
                       _str(item, "grantor", ""))
        tables.tables[(g.user, g.host.lower(), g.db, g.table.lower())] = g
    for item in _list(data, "roles"):
        tables.roles.append(RoleGrant(_str(item, "user"), _str(item, "host"),
                                      _str(item, "role"), _bool(item, "admin")))
    for item in _list(data, "routines"):
        kind = _str(item, "kind")
        if kind not in ("PROCEDURE", "FUNCTION"):
            raise ValueError(f"routine grant of kind {kind!r}")
        pg = RoutineGrant(_str(item, "user"), _str(item, "host"), _str(item, "db"),
                          _str(item, "name"), kind, _int(item, "access", None),
                          _str(item, "grantor", ""))
        tables.routines[rkey(pg.user, pg.host, pg.db, pg.kind, pg.name)] = pg
    tables.loaded()
    return tables


def _upgrade_v1(data: dict[str, Any]) -> tuple[GrantTables, list[str]]:
    tables = GrantTables()
    warnings = ["format 1 (accounts only) rewritten as format 2 (accounts and grants)"]
    for item in _list(data, "accounts"):
        acct = account_from(item)
        if acct.user == "root":
            acct.access = ROOT_ACCESS
        else:
            warnings.append(f"account {acct.display()} could do everything before rampmeter "
                            f"had privileges; it now has none: GRANT what it needs")
        tables.accounts[acct.key] = acct
    tables.changed()
    return tables, warnings


# --- writing -----------------------------------------------------------------------------------

def _account_json(a: Account) -> dict[str, Any]:
    out: dict[str, Any] = {"user": a.user, "host": a.host, "plugin": a.plugin,
                           "auth_string": a.auth_string, "access": a.access}
    if a.is_role:
        out["is_role"] = True
    for key in ("ssl_type", "ssl_cipher", "x509_issuer", "x509_subject", "default_role"):
        if getattr(a, key):
            out[key] = getattr(a, key)
    for key in LIMITS:
        if getattr(a, key):
            out[key] = getattr(a, key)
    if a.locked:
        out["locked"] = True
    if a.locked_set:
        out["locked_set"] = True
    if a.expired:
        out["expired"] = True
    if a.lifetime is not None:
        out["lifetime"] = a.lifetime
    if a.installed:
        out["installed"] = True
    if a.proxy_all:
        out["proxy_all"] = True
    return out


def document(tables: GrantTables) -> dict[str, Any]:
    return {
        "version": FORMAT,
        "accounts": [_account_json(a) for a in sorted(tables.accounts.values(),
                                                      key=lambda a: (a.user, a.host))],
        "db": [{"user": d.user, "host": d.host, "db": d.db, "access": d.access}
               for d in tables.dbs],
        "tables": [{"user": g.user, "host": g.host, "db": g.db, "table": g.table,
                    "access": g.access, "columns": g.columns, "grantor": g.grantor}
                   for g in tables.tables.values()],
        "roles": [{"user": r.user, "host": r.host, "role": r.role, "admin": r.admin}
                  for r in tables.roles],
        "routines": [{"user": g.user, "host": g.host, "db": g.db, "name": g.name,
                      "kind": g.kind, "access": g.access, "grantor": g.grantor}
                     for g in tables.routines.values()],
    }


def save(path: Path, tables: GrantTables) -> None:
    """Write crash-safely (module rules). An OSError leaves the old file as it was."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    payload = json.dumps(document(tables), indent=1).encode("ascii")
    with open(tmp, "wb") as handle:
        handle.write(payload)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)

