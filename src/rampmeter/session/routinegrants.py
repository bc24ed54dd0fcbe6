"""GRANT / REVOKE of privileges on one stored routine: `ON PROCEDURE | FUNCTION [db.]name`
(MariaDB 10.11's mysql.procs_priv).

Rules (MariaDB's, checked against it):
- The privileges a routine takes are EXECUTE, ALTER ROUTINE and GRANT OPTION (ALL
  [PRIVILEGES] is the first two); any other is 1144. The routine must exist (1305, as
  MariaDB names it: "PROCEDURE db.p does not exist"); ON PACKAGE [BODY] is not supported
  (1235).
- The grantor needs the privileges it grants WITH GRANT OPTION, globally, on the database or
  on the routine (else 1370 naming the routine, as MariaDB's check_grant_routine does).
- A grantee is found as for table grants (a role without a host, PUBLIC); GRANT makes a
  missing account as table grants do. REVOKE of a grant that does not exist is 1403.
- The grants are checked when a routine runs or is altered (sp/ddl.py require), shown by
  SHOW GRANTS after the table grants, kept in the grant file (and through FLUSH
  PRIVILEGES), and dropped with their routine. mysql.procs_priv does not show them: it stays
  an ordinary table, which MariaDB's tests rename (docs/sql.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.engine.base import UpdateCount
from rampmeter.errors import ServerError
from rampmeter.session.grants import GrantTables, RoutineGrant, rkey
from rampmeter.session.privileges import PROC_ACLS, P

if TYPE_CHECKING:
    from rampmeter.session.session import Session
    from rampmeter.sql.reader import Reader

_KINDS = ("PROCEDURE", "FUNCTION")


def on_routine(r: Reader) -> bool:
    """Does the statement's ON name a routine (ON PROCEDURE / FUNCTION / PACKAGE)?"""
    depth = 0
    toks = r.toks
    for i in range(r.i, len(toks)):
        t = toks[i]
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        elif depth == 0 and t.is_word("ON"):
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            return nxt is not None and nxt.is_word("PROCEDURE", "FUNCTION", "PACKAGE")
    return False


def _read(s: Session, r: Reader, direction: str) -> tuple[int, str, str, str, list]:
    from rampmeter.session import grantsql
    items = grantsql.read_privileges(r)
    r.expect("ON")
    kind = r.next().text.upper()
    if kind not in _KINDS:
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "privileges on packages")
    db, name = r.qualified_name()
    db = db or s.database
    if db is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    bits = 0
    for b, cols in items:
        if cols:
            raise ServerError(errors.ER_ILLEGAL_GRANT_FOR_TABLE)
        bits |= (P.EXECUTE | P.ALTER_PROC) if b == grantsql.ALL else b
    if bits & ~PROC_ACLS:
        raise ServerError(errors.ER_ILLEGAL_GRANT_FOR_TABLE)
    r.expect(direction)
    grantees = grantsql.read_grantees(s, r, auth=direction == "TO")
    return bits, kind, db, name, grantees


def _spec(s: Session, kind: str, db: str, name: str) -> dict:
    from rampmeter.session.sp import ddl
    spec = ddl.find(s, db, kind, name)
    if spec is None:
        raise ServerError(errors.ER_SP_DOES_NOT_EXIST, kind, f"{db}.{name}")
    return spec


def _check_grantor(s: Session, kind: str, db: str, spec: dict, bits: int) -> None:
    sec = s.security
    if sec is None or sec.unchecked:
        return
    want = bits | P.GRANT
    have = sec.master | sec.db_bits(db) | sec.routine_bits(db, kind, spec["name"])
    if spec.get("definer") == sec.current_user:  # its creator's (automatic_sp_privileges)
        have |= P.EXECUTE | P.ALTER_PROC
    missing = want & ~have
    if missing:  # 1370 names the first privilege missing, as check_grant_routine does
        what = "execute" if missing & P.EXECUTE else \
            "alter routine" if missing & P.ALTER_PROC else "grant"
        raise ServerError(1370, message=f"{what} command denied to user '{sec.priv_user}'@"
                          f"'{sec.priv_host}' for routine '{db}.{spec['name']}'",
                          sqlstate="42000")


def grant(s: Session, r: Reader) -> UpdateCount:
    from rampmeter.session import grantsql, roles
    from rampmeter.session.usersql import read_options
    bits, kind, db, name, grantees = _read(s, r, "TO")
    opts = read_options(r, grant=True)
    if opts.grant_option:
        bits |= P.GRANT
    spec = _spec(s, kind, db, name)
    _check_grantor(s, kind, db, spec, bits)
    auto_create = "NO_AUTO_CREATE_USER" not in s.vars["sql_mode"]
    grantor = s.current_user

    def apply(t: GrantTables) -> None:
        for user, host, given, auth in grantees:
            user, host = roles.resolve_grantee(t, user, host, given)
            grantsql.grantee_account(s, t, user, host, auth, auto_create)
            key = rkey(user, host, spec["db"], kind, spec["name"])
            g = t.routines.get(key)
            if g is None:
                g = t.routines[key] = RoutineGrant(user, host, spec["db"], spec["name"], kind,
                                                   0, grantor)
            g.access |= bits

    s.ctx.accounts.change(apply)
    return UpdateCount()


def revoke(s: Session, r: Reader) -> UpdateCount:
    from rampmeter.session import roles
    bits, kind, db, name, grantees = _read(s, r, "FROM")
    r.end()
    _check_grantor(s, kind, db, {"name": name}, bits)

    def apply(t: GrantTables) -> None:
        for user, host, given, _auth in grantees:
            user, host = roles.resolve_grantee(t, user, host, given)
            key = rkey(user, host, db, kind, name)
            g = t.routines.get(key)
            if g is None:
                raise ServerError(errors.ER_NONEXISTING_PROC_GRANT, user, host, name)
            g.access &= ~bits
            if not g.access:
                del t.routines[key]

    s.ctx.accounts.change(apply)
    return UpdateCount()


def forget(t: GrantTables, db: str, kind: str, name: str) -> None:
    """DROP PROCEDURE / FUNCTION: its grants go (MariaDB's automatic_sp_privileges)."""
    low = name.lower()
    t.routines = {k: g for k, g in t.routines.items()
                  if not (k[2] == db and k[3] == kind and k[4] == low)}
