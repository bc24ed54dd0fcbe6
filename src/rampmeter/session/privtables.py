"""information_schema's privilege tables: USER_PRIVILEGES, SCHEMA_PRIVILEGES, TABLE_PRIVILEGES,
COLUMN_PRIVILEGES, APPLICABLE_ROLES, ENABLED_ROLES (MariaDB 10.11's columns).

Rules:
- One row per privilege (USAGE when an account has no global one), GRANTEE spelled
  'user'@'host' ('role' for a role), IS_GRANTABLE YES when the grant has GRANT OPTION.
- An account sees its own rows and those of its active role (and the roles granted to it);
  with SELECT on the mysql database it sees everyone's, as in MariaDB.
- APPLICABLE_ROLES: the roles granted to the account and, recursively, to those roles (GRANTEE
  user@host without quotes, as MariaDB prints it); ENABLED_ROLES: the active role and the roles
  it holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rampmeter.protocol.columns import Column, text_column
from rampmeter.session.grants import GrantTables
from rampmeter.session.privileges import COL_ACLS, DB_ACLS, GLOBAL_ACLS, TABLE_ACLS, P, names

if TYPE_CHECKING:
    from rampmeter.session.session import Session

Rows = list[tuple[Any, ...]]
Table = tuple[list[Column], Rows]


def _cols(*names_: str) -> list[Column]:
    return [text_column(n, length=64) for n in names_]


def _grantee(user: str, host: str) -> str:
    return f"'{user}'" if host == "" else f"'{user}'@'{host}'"


def _who(s: Session, t: GrantTables) -> Callable[[str, str], bool]:
    """Whose rows this session may read."""
    sec = s.security
    if sec is None or sec.unchecked or sec.db_bits("mysql") & P.SELECT:
        return lambda user, host: True
    roles = t.role_closure(sec.role)
    me = (sec.priv_user, sec.priv_host.lower())

    def allowed(user: str, host: str) -> bool:
        return (user, host.lower()) == me or host == "" and user in roles
    return allowed


def _grantable(bits: int) -> str:
    return "YES" if bits & P.GRANT else "NO"


def user_privileges(s: Session) -> Table:
    t = s.ctx.accounts.tables
    allowed = _who(s, t)
    rows: Rows = []
    for a in sorted(t.accounts.values(), key=lambda a: (a.user, a.host)):
        if not allowed(a.user, a.host):
            continue
        grantee = _grantee(a.user, a.host)
        privs = names(a.access & GLOBAL_ACLS & ~P.GRANT) or ["USAGE"]
        rows.extend((grantee, "def", p, _grantable(a.access)) for p in privs)
    return _cols("GRANTEE", "TABLE_CATALOG", "PRIVILEGE_TYPE", "IS_GRANTABLE"), rows


def schema_privileges(s: Session) -> Table:
    t = s.ctx.accounts.tables
    allowed = _who(s, t)
    rows: Rows = []
    for d in t.dbs:
        if allowed(d.user, d.host):
            rows.extend((_grantee(d.user, d.host), "def", d.db, p, _grantable(d.access))
                        for p in names(d.access & DB_ACLS & ~P.GRANT))
    return _cols("GRANTEE", "TABLE_CATALOG", "TABLE_SCHEMA", "PRIVILEGE_TYPE",
                 "IS_GRANTABLE"), rows


def table_privileges(s: Session) -> Table:
    t = s.ctx.accounts.tables
    allowed = _who(s, t)
    rows: Rows = []
    for g in t.tables.values():
        if allowed(g.user, g.host):
            rows.extend((_grantee(g.user, g.host), "def", g.db, g.table, p, _grantable(g.access))
                        for p in names(g.access & TABLE_ACLS & ~P.GRANT))
    return _cols("GRANTEE", "TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "PRIVILEGE_TYPE",
                 "IS_GRANTABLE"), rows


def column_privileges(s: Session) -> Table:
    t = s.ctx.accounts.tables
    allowed = _who(s, t)
    rows: Rows = []
    for g in t.tables.values():
        if not allowed(g.user, g.host):
            continue
        for col, bits in g.columns.items():
            rows.extend((_grantee(g.user, g.host), "def", g.db, g.table, col, p,
                         _grantable(g.access)) for p in names(bits & COL_ACLS))
    return _cols("GRANTEE", "TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "COLUMN_NAME",
                 "PRIVILEGE_TYPE", "IS_GRANTABLE"), rows


def applicable_roles(s: Session) -> Table:
    t = s.ctx.accounts.tables
    sec = s.security
    rows: Rows = []
    if sec is not None:
        acct = t.account(sec.priv_user, sec.priv_host)
        default = acct.default_role if acct is not None else ""
        todo = [(sec.priv_user, sec.priv_host)]
        seen: set[tuple[str, str]] = set()
        while todo:
            user, host = todo.pop(0)
            if (user, host) in seen:
                continue
            seen.add((user, host))
            for rg in t.granted_roles(user, host):
                grantee = user if host == "" else f"{user}@{host}"
                is_default = None if host == "" else ("YES" if rg.role == default else "NO")
                rows.append((grantee, rg.role, "YES" if rg.admin else "NO", is_default))
                todo.append((rg.role, ""))
    return _cols("GRANTEE", "ROLE_NAME", "IS_GRANTABLE", "IS_DEFAULT"), rows


def enabled_roles(s: Session) -> Table:
    t = s.ctx.accounts.tables
    sec = s.security
    roles = t.role_closure(sec.role) if sec is not None else frozenset()
    order = [sec.role] if sec is not None and sec.role else []
    order += sorted(roles - set(order))
    return _cols("ROLE_NAME"), [(r,) for r in order]


BUILDERS: dict[str, Callable[[Session], Table]] = {
    "USER_PRIVILEGES": user_privileges, "SCHEMA_PRIVILEGES": schema_privileges,
    "TABLE_PRIVILEGES": table_privileges, "COLUMN_PRIVILEGES": column_privileges,
    "APPLICABLE_ROLES": applicable_roles, "ENABLED_ROLES": enabled_roles,
}
