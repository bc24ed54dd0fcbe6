"""Roles: CREATE / DROP ROLE, GRANT / REVOKE role, SET ROLE, SET DEFAULT ROLE (MariaDB 10.11's
grammar and errors, measured; privileges.py states how roles combine).

Rules:
- GRANT / REVOKE role needs the ADMIN OPTION on it - MariaDB asks it of root too (1698).
  A role that does not exist is 1959; a grant that would make a cycle is 1961; a revoke of a
  role not granted is 1962. A grantee written without @host is a role when such a role exists,
  else 'name'@'%'.
- CREATE ROLE needs CREATE USER and grants the new role to its creator WITH ADMIN OPTION (or to
  WITH ADMIN account); NONE, PUBLIC and '' are not role names (1959).
- SET ROLE needs the role granted to the account itself (a role reached only through another
  role is 1959 "User `u`@`h` has not been granted role `r`"); SET DEFAULT ROLE likewise, and
  for another account UPDATE on the mysql database.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.engine.base import UpdateCount
from rampmeter.errors import ServerError, Warning_
from rampmeter.session.accounts import Account
from rampmeter.session.grants import PUBLIC, GrantTables, RoleGrant, is_public
from rampmeter.session.privileges import P
from rampmeter.session.security import unknown_role
from rampmeter.session.usersql import read_account, require_mysql_db, require_user_admin
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session


def _grantees(s: Session, r: Reader) -> list[tuple[str, str, bool]]:
    out = []
    while True:
        out.append(read_account(s, r))
        if not r.accept(","):
            return out


def resolve_grantee(t: GrantTables, user: str, host: str, given: bool) -> tuple[str, str]:
    """A grantee written without @host is a role when one has that name (PUBLIC in any case
    is the PUBLIC role), else user@'%'."""
    if is_public(user, given):
        return PUBLIC, ""
    if not given and t.role(user) is not None:
        return user, ""
    return user, host


def _role_names(r: Reader) -> list[str]:
    names = [r.name_or_string()]
    while r.accept(","):
        names.append(r.name_or_string())
    return names


def _not_public(role: str) -> None:
    """PUBLIC is no role to grant, revoke or set (MariaDB: 1959 naming it in capitals)."""
    if role.upper() == PUBLIC:
        raise unknown_role(PUBLIC)


def _check_admin(s: Session, t: GrantTables, role: str) -> None:
    sec = s.security
    if sec is None or sec.store.skip_grants:
        return
    rg = t.role_grant(sec.priv_user, sec.priv_host, role)
    if rg is None or not rg.admin:
        raise ServerError(errors.ER_ACCESS_DENIED_NO_PASSWORD_ERROR, sec.priv_user,
                          sec.priv_host)


Pair = Callable[[GrantTables, str, str, str], None]


def _for_each_pair(s: Session, roles: list[str], grantees: list[tuple[str, str, bool]],
                   fn: Pair) -> UpdateCount:
    """Check each role (1959, 1698) and run fn(t, role, user, host) for every grantee, all
    in one change of the grant file."""

    def apply(t: GrantTables) -> None:
        for role in roles:
            _not_public(role)
            if t.role(role) is None:
                raise unknown_role(role)
            _check_admin(s, t, role)
            for user, host, given in grantees:
                fn(t, role, *resolve_grantee(t, user, host, given))
            t.changed()

    s.ctx.accounts.change(apply)
    return UpdateCount()


def grant_roles(s: Session, r: Reader) -> UpdateCount:
    roles = _role_names(r)
    r.expect("TO")
    grantees = _grantees(s, r)
    admin = r.accept("WITH", "ADMIN", "OPTION")
    r.end()

    def grant_one(t: GrantTables, role: str, user: str, host: str) -> None:
        if host == "" and user == PUBLIC and t.role(PUBLIC) is None:
            public = Account(PUBLIC, "", is_role=True)  # GRANT role TO PUBLIC creates it
            t.accounts[public.key] = public
        target = t.role(user) if host == "" else t.account(user, host)
        if target is None:
            raise ServerError(errors.ER_PASSWORD_NO_MATCH)
        if host == "" and (user == role or user in t.role_closure(role)):
            raise ServerError(errors.ER_CANNOT_GRANT_ROLE, role, target.display())
        existing = t.role_grant(user, host, role)
        if existing is None:
            t.roles.append(RoleGrant(user, host, role, admin))
        elif admin:
            existing.admin = True

    return _for_each_pair(s, roles, grantees, grant_one)


def revoke_roles(s: Session, r: Reader) -> UpdateCount:
    admin_only = r.accept("ADMIN", "OPTION", "FOR")
    roles = _role_names(r)
    r.expect("FROM")
    grantees = _grantees(s, r)
    r.end()

    def revoke_one(t: GrantTables, role: str, user: str, host: str) -> None:
        existing = t.role_grant(user, host, role)
        if existing is None:
            shown = f"'{user}'" if host == "" else f"'{user}'@'{host}'"
            raise ServerError(errors.ER_CANNOT_REVOKE_ROLE, role, shown)
        if admin_only:
            existing.admin = False
        else:
            t.roles.remove(existing)

    return _for_each_pair(s, roles, grantees, revoke_one)


_RESERVED_ROLES = ("NONE", "PUBLIC")


def _valid_role_name(name: str) -> None:
    if name == "" or name.upper() in _RESERVED_ROLES:
        raise unknown_role(name.upper() if name else "")


def create_role(s: Session, stmt: Statement) -> UpdateCount:
    r = Reader(stmt, 1)
    or_replace = r.accept("OR", "REPLACE")
    r.expect("ROLE")
    if_not_exists = r.accept("IF", "NOT", "EXISTS")
    if or_replace and if_not_exists:
        raise ServerError(errors.ER_WRONG_USAGE, "OR REPLACE", "IF NOT EXISTS")
    names = _role_names(r)
    admin: tuple[str, str] | None = None
    sec = s.security
    named_admin = False
    if r.accept("WITH", "ADMIN"):
        if r.accept("CURRENT_ROLE"):
            r.accept("(", ")")
            admin = (sec.role, "") if sec is not None and sec.role else None
        else:
            admin = read_account(s, r)[:2]
            named_admin = True
    elif sec is not None:
        admin = (sec.priv_user, sec.priv_host)
    r.end()
    for name in names:
        _valid_role_name(name)
    require_user_admin(s, P.INSERT)
    notes: list[Warning_] = []

    def apply(t: GrantTables) -> None:
        for name in names:
            if named_admin and admin is not None and t.account(*admin) is None and \
                    t.role(admin[0]) is None:  # MariaDB grants it all the same, with a note
                notes.append(Warning_.of(errors.ER_NO_SUCH_USER, *admin, level="Note"))
            if t.role(name) is not None:
                if or_replace:
                    t.drop_account(name, "")
                elif if_not_exists:
                    notes.append(Warning_.of(errors.ER_ROLE_CREATE_EXISTS, name, level="Note"))
                    continue
                else:
                    raise ServerError(errors.ER_CANNOT_USER, "CREATE ROLE", f"'{name}'")
            role = Account(name, "", is_role=True)
            t.accounts[role.key] = role
            if admin is not None:
                t.roles.append(RoleGrant(admin[0], admin[1], name, True))

    s.ctx.accounts.change(apply)
    return UpdateCount(warnings=notes)


def drop_role(s: Session, stmt: Statement) -> UpdateCount:
    r = Reader(stmt, 2)
    if_exists = r.accept("IF", "EXISTS")
    names = _role_names(r)
    r.end()
    require_user_admin(s, P.DELETE)
    notes: list[Warning_] = []

    def apply(t: GrantTables) -> None:
        failed = []
        for name in names:
            if name.upper() == PUBLIC:  # never dropped, IF EXISTS or not (unquoted: MariaDB)
                failed.append(PUBLIC)
                continue
            if t.role(name) is None:
                if if_exists:
                    notes.append(Warning_.of(errors.ER_ROLE_DROP_EXISTS, name, level="Note"))
                else:
                    failed.append(f"'{name}'")
                continue
            t.drop_account(name, "")
        if failed:
            raise ServerError(errors.ER_CANNOT_USER, "DROP ROLE", ",".join(failed))

    s.ctx.accounts.change(apply)
    return UpdateCount(warnings=notes)


def _not_granted(user: str, host: str, role: str) -> ServerError:
    q = "`" + "`@`".join(x.replace("`", "``") for x in (user, host)) + "`"
    return ServerError(errors.ER_INVALID_ROLE,
                       message=f"User {q} has not been granted role `{role}`")


def set_role(s: Session, stmt: Statement) -> UpdateCount:
    """SET ROLE role | NONE: the role must be granted to the account itself (1959)."""
    r = Reader(stmt, 2)
    role = None if r.accept("NONE") else r.name_or_string()
    r.end()
    sec = s.security
    if sec is None:
        return UpdateCount()
    t = s.ctx.accounts.tables
    if role is not None:
        _not_public(role)
    if role is not None and not sec.store.skip_grants:
        if t.role(role) is None:
            raise unknown_role(role)
        if t.role_grant(sec.priv_user, sec.priv_host, role) is None:
            raise _not_granted(sec.priv_user, sec.priv_host, role)
    sec.set_role(role)
    return UpdateCount()


def set_default_role(s: Session, stmt: Statement) -> UpdateCount:
    """SET DEFAULT ROLE role | NONE [FOR account]: applied at the account's next logins."""
    r = Reader(stmt, 3)
    role = None if r.accept("NONE") else r.name_or_string()
    sec = s.security
    if r.accept("FOR"):
        user, host, _ = read_account(s, r)
    elif sec is not None:
        user, host = sec.priv_user, sec.priv_host
    else:
        user, host = s.user, s.account_host
    r.end()
    if role is not None:
        _not_public(role)
    if sec is not None and (user, host.lower()) != (sec.priv_user, sec.priv_host.lower()):
        require_mysql_db(s, P.UPDATE)

    def apply(t: GrantTables) -> None:
        acct = t.account(user, host)
        if acct is None or acct.is_role:
            raise ServerError(errors.ER_PASSWORD_NO_MATCH)
        if role is not None:
            if t.role(role) is None:
                raise unknown_role(role)
            if t.role_grant(user, host, role) is None:
                raise _not_granted(user, host, role)
        acct.default_role = role or ""

    s.ctx.accounts.change(apply)
    return UpdateCount()

