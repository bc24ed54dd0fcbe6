"""Whose privileges a stored program runs with, and the privileges an anchored type needs.

Rules (MariaDB 10.11's, each checked against it; mtr sp-security-anchor-type):
- A stored procedure or function of SQL SECURITY DEFINER (the default) and every trigger run
  with the privileges of their DEFINER account; SQL SECURITY INVOKER runs with the caller's.
  Inside, CURRENT_USER() is the account whose privileges apply; USER() and the `user'@'host`
  of a denial stay the client's. EXECUTE on the routine is the caller's to hold (checked
  before). A DEFINER that is no account is 1449 when the program runs.
- `TYPE OF db.t.col` needs SELECT on that column (table or column level) and `ROW TYPE OF
  db.t` SELECT on every column of the table: 1142 when the account holds no privilege on
  the table, else 1143 naming the first column it may not read. The session's temporary
  tables need nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.errors import ServerError
from rampmeter.session.privileges import P
from rampmeter.session.security import SecurityContext, TableNeed

if TYPE_CHECKING:
    from rampmeter.session.session import Session


@contextmanager
def privileges_of(s: Session, spec: dict[str, Any], *, trigger: bool = False) -> Iterator[None]:
    """Run the body of the program `spec` (a routine's or a trigger's stored description)
    with the privileges the module rules give it."""
    sec = s.security
    chars = spec.get("chars") or {}
    if sec is None or not trigger and chars.get("security") == "INVOKER" or \
            not spec.get("definer"):
        yield
        return
    user, _, host = str(spec["definer"]).partition("@")
    if sec.priv_user == user and sec.priv_host.lower() == host.lower() and sec.role is None:
        yield  # the definer's own call: the same privileges
        return
    store = sec.store
    account = store.exact(user, host)
    if account is None:
        if store.skip_grants:
            yield
            return
        raise ServerError(errors.ER_NO_SUCH_USER, user, host)
    s.security = SecurityContext(store, user=sec.user, host=sec.host, account=account)
    try:
        yield
    finally:
        s.security = sec


def check_anchor(s: Session, db: str, table: str, columns: list[str]) -> None:
    """SELECT on `columns` of db.table for a TYPE OF / ROW TYPE OF (module rules)."""
    sec = s.security
    if sec is None or sec.unchecked or not columns:
        return
    engine: Any = s.engine
    if engine is not None and engine.is_temporary(db, table):
        return
    sec.check_table(TableNeed(db, table, P.SELECT, ((P.SELECT, tuple(columns)),)))
