"""SHOW GRANTS [FOR account | role | CURRENT_USER] and SHOW CREATE USER, as MariaDB 10.11
prints them (measured with the mariadb client).

Rules:
- Lines, in order: the roles granted to the account ("GRANT `r` TO `u`@`h` [WITH ADMIN
  OPTION]"), the global line (ALL PRIVILEGES / USAGE / the list, then IDENTIFIED BY PASSWORD
  '*hash' or IDENTIFIED VIA plugin USING '...', REQUIRE ..., WITH GRANT OPTION and the limits),
  the database lines (in acl_get order), the table lines (table privileges and column lists in
  privilege order: "SELECT (`a`), INSERT, UPDATE (`b`)"), then SET DEFAULT ROLE.
- SHOW GRANTS without FOR also lists the active role's grants and those of the roles granted
  to it; SHOW GRANTS FOR a role lists the role's and those of the roles granted to it;
  FOR CURRENT_USER lists the account only.
- Another account's grants need SELECT on the mysql database (1044), and so do a role's unless
  it is the active role (measured: a granted but inactive role is 1044 too). An account with no
  such row is 1141.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextvars import ContextVar
from functools import wraps
from typing import TYPE_CHECKING, TypeVar

from rampmeter import errors
from rampmeter.engine.base import ResultSet
from rampmeter.errors import ServerError
from rampmeter.protocol.columns import text_column
from rampmeter.session.accounts import NATIVE, OLD, Account
from rampmeter.session.granthash import column_order
from rampmeter.session.grants import PUBLIC, GrantTables, is_public
from rampmeter.session.privileges import (
    BITS_IN_ORDER,
    COL_ACLS,
    DB_ACLS,
    GLOBAL_ACLS,
    NAMES,
    TABLE_ACLS,
    P,
    names,
)
from rampmeter.session.usersql import read_account, require_mysql_db
from rampmeter.sql.keywords import KEYWORDS
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session

_LIMIT_WORDS = (("max_questions", "MAX_QUERIES_PER_HOUR"),
                ("max_updates", "MAX_UPDATES_PER_HOUR"),
                ("max_connections", "MAX_CONNECTIONS_PER_HOUR"),
                ("max_user_connections", "MAX_USER_CONNECTIONS"))


# How the statement being answered quotes names: (quote character, always). MariaDB's
# append_identifier: `name` (ANSI_QUOTES: "name"); with sql_quote_show_create OFF only a name
# that needs it (get_quote_char_for_identifier).
_QUOTING: ContextVar[tuple[str, bool]] = ContextVar("showgrants_quoting", default=("`", True))
# MariaDB's require_quotes: a one-byte character outside its identifier map (letters, digits,
# _ and $; every non-ASCII character is an identifier character), or digits only
_PLAIN = re.compile(r"[\w$\x80-\U0010ffff]*", re.ASCII)
_DIGITS = re.compile(r"[0-9]*")
T = TypeVar("T")


def _q(name: str) -> str:
    char, always = _QUOTING.get()
    if not always and name.upper() not in KEYWORDS and _PLAIN.fullmatch(name) and \
            not _DIGITS.fullmatch(name):
        return name
    return char + name.replace(char, char + char) + char


def _account(user: str, host: str) -> str:
    return _q(user) if host == "" else f"{_q(user)}@{_q(host)}"


def _shown(acct: Account) -> str:
    """`user`@`host` as SHOW GRANTS spells it (`r` alone for a role)."""
    return _q(acct.user) if acct.is_role else f"{_q(acct.user)}@{_q(acct.host)}"


def _quoting(fn: Callable[..., T]) -> Callable[..., T]:
    """Answer with the session's quoting of names (sql_quote_show_create, ANSI_QUOTES)."""
    @wraps(fn)
    def run(s: Session, *args: object) -> T:
        mode = str(s.vars.get("sql_mode") or "")
        token = _QUOTING.set(('"' if "ANSI_QUOTES" in mode else "`",
                              bool(s.vars.get("sql_quote_show_create", True))))
        try:
            return fn(s, *args)
        finally:
            _QUOTING.reset(token)
    return run


def _quote_string(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _privilege_list(bits: int, level_all: int) -> str:
    bits &= level_all & ~P.GRANT
    if not bits:
        return "USAGE"
    if bits == level_all & ~P.GRANT:
        return "ALL PRIVILEGES"
    return ", ".join(names(bits))


def identified(acct: Account) -> str:
    if not acct.auth_string:
        return "" if acct.login_plugin == NATIVE else f" IDENTIFIED VIA {acct.plugin}"
    if acct.login_plugin in (NATIVE, OLD):
        return f" IDENTIFIED BY PASSWORD {_quote_string(acct.auth_string)}"
    return f" IDENTIFIED VIA {acct.plugin} USING {_quote_string(acct.auth_string)}"


def require(acct: Account) -> str:
    if acct.ssl_type == "ANY":
        return " REQUIRE SSL"
    if acct.ssl_type == "X509":
        return " REQUIRE X509"
    if acct.ssl_type == "SPECIFIED":
        parts = [f"{word} {_quote_string(value)}" for word, value in (
            ("ISSUER", acct.x509_issuer), ("SUBJECT", acct.x509_subject),
            ("CIPHER", acct.ssl_cipher)) if value]
        return " REQUIRE " + " ".join(parts)
    return ""


def limits(acct: Account) -> str:
    return "".join(f" {word} {getattr(acct, key)}" for key, word in _LIMIT_WORDS
                   if getattr(acct, key))


def global_line(acct: Account, who: str | None = None) -> str:
    who = who or _shown(acct)
    line = f"GRANT {_privilege_list(acct.access, GLOBAL_ACLS)} ON *.* TO {who}"
    if not acct.is_role:
        line += identified(acct) + require(acct)
    lim = "" if acct.is_role else limits(acct)
    if acct.access & P.GRANT:
        line += " WITH GRANT OPTION" + lim
    elif lim:
        line += " WITH" + lim
    return line


def _table_privileges(access: int, columns: dict[str, int]) -> str:
    if access & TABLE_ACLS & ~P.GRANT == TABLE_ACLS & ~P.GRANT and not columns:
        return "ALL PRIVILEGES"
    parts = []
    order = column_order(columns) if columns else []
    for bit in BITS_IN_ORDER:
        if bit == P.GRANT or not bit & TABLE_ACLS:
            continue
        if access & bit:
            parts.append(NAMES[bit])
        cols = [c for c in order if columns[c] & bit] if bit & COL_ACLS else []
        if cols:
            parts.append(f"{NAMES[bit]} (" + ", ".join(_q(c) for c in cols) + ")")
    return ", ".join(parts) or "USAGE"


def _routine_privileges(access: int) -> str:
    parts = [name for bit, name in ((P.EXECUTE, "EXECUTE"), (P.ALTER_PROC, "ALTER ROUTINE"))
             if access & bit]
    return ", ".join(parts) or "USAGE"


def own_lines(t: GrantTables, acct: Account) -> list[str]:
    """The lines of one account or role, without its default role."""
    public = acct.is_role and acct.user == PUBLIC
    who = PUBLIC if public else _shown(acct)  # MariaDB writes PUBLIC unquoted
    host = "" if acct.is_role else acct.host
    lines = [f"GRANT {_q(rg.role)} TO {who}" +
             (" WITH ADMIN OPTION" if rg.admin else "")
             for rg in t.granted_roles(acct.user, host)]
    if not public or acct.access:  # PUBLIC has no USAGE line
        lines.append(global_line(acct, who))
    dbs, tables = t.rows_of(acct.user, host)
    lines += [f"GRANT {_privilege_list(d.access, DB_ACLS)} ON {_q(d.db)}.* TO {who}" +
              (" WITH GRANT OPTION" if d.access & P.GRANT else "") for d in dbs]
    lines += [f"GRANT {_table_privileges(g.access, g.columns)} ON "
              f"{_q(g.db)}.{_q(g.table)} TO {who}" +
              (" WITH GRANT OPTION" if g.access & P.GRANT else "") for g in tables]
    routines = t.routines_of(acct.user, host)
    for kind in ("PROCEDURE", "FUNCTION"):  # MariaDB's order: procedures, then functions
        lines += [f"GRANT {_routine_privileges(g.access)} ON {kind} "
                  f"{_q(g.db)}.{_q(g.name)} TO {who}" +
                  (" WITH GRANT OPTION" if g.access & P.GRANT else "")
                  for g in routines if g.kind == kind]
    if acct.proxy_all:  # proxy grants come last in MariaDB's SHOW GRANTS
        lines.append(f"GRANT PROXY ON {_q('')}@{_q('%')} TO {who} WITH GRANT OPTION")
    return lines


def _role_lines(t: GrantTables, role: str | None, *, skip: str | None = None) -> list[str]:
    out: list[str] = []
    if not role:
        return out
    order = [role] + sorted(t.role_closure(role) - {role})
    for name in order:
        if name == skip:
            continue
        acct = t.role(name)
        if acct is not None:
            out.extend(own_lines(t, acct))
    return out


def _public_lines(t: GrantTables) -> list[str]:
    """PUBLIC's lines (and those of the roles granted to it); none while it does not exist."""
    return _role_lines(t, PUBLIC) if t.role(PUBLIC) is not None else []


@_quoting
def show_grants(s: Session, r: Reader) -> ResultSet:
    """r is past GRANTS."""
    t = s.ctx.accounts.tables
    sec = s.security
    if r.done:  # the session's own grants end with PUBLIC's, which it holds too
        return _for_account(s, t, sec.priv_user if sec else s.user,
                            sec.priv_host if sec else s.account_host,
                            active_role=sec.role if sec else None, public=True)
    r.expect("FOR")
    if r.at("CURRENT_USER"):
        user, host, _ = read_account(s, r)
        r.end()
        return _for_account(s, t, user, host, active_role=None)
    user, host, given = read_account(s, r)
    r.end()
    if is_public(user, given):
        return _result(PUBLIC, _public_lines(t))
    if not given and t.role(user) is not None:
        return _for_role(s, t, user)
    if sec is not None and (user, host.lower()) != (sec.priv_user, sec.priv_host.lower()):
        require_mysql_db(s, P.SELECT)
    return _for_account(s, t, user, host, active_role=None)


def _for_account(s: Session, t: GrantTables, user: str, host: str, *,
                 active_role: str | None, public: bool = False) -> ResultSet:
    acct = t.account(user, host)
    if acct is None or acct.is_role:
        if s.ctx.accounts.skip_grants:
            return _result(f"{user}@{host}", [f"GRANT ALL PRIVILEGES ON *.* TO "
                                               f"{_account(user, host)} WITH GRANT OPTION"])
        raise ServerError(errors.ER_NONEXISTING_GRANT, user, host)
    lines = own_lines(t, acct) + _role_lines(t, active_role)
    if public:
        lines += _public_lines(t)
    if acct.default_role:
        lines.append(f"SET DEFAULT ROLE {_q(acct.default_role)} FOR {_shown(acct)}")
    return _result(f"{user}@{host}", lines)


def _for_role(s: Session, t: GrantTables, role: str) -> ResultSet:
    sec = s.security
    if sec is not None and role != sec.role:  # the active role's own grants need nothing
        require_mysql_db(s, P.SELECT)
    return _result(role, _role_lines(t, role))


def _result(who: str, lines: list[str]) -> ResultSet:
    return ResultSet([text_column(f"Grants for {who}", length=1024)], [(x,) for x in lines])


@_quoting
def show_create_user(s: Session, r: Reader) -> ResultSet:
    """SHOW CREATE USER account (r is past USER)."""
    user, host, _ = read_account(s, r)
    r.end()
    sec = s.security
    if sec is not None and (user, host.lower()) != (sec.priv_user, sec.priv_host.lower()):
        require_mysql_db(s, P.SELECT)
    acct = s.ctx.accounts.tables.account(user, host)
    if acct is None or acct.is_role:
        raise ServerError(errors.ER_CANNOT_USER, "SHOW CREATE USER", f"'{user}'@'{host}'")
    line = f"CREATE USER {_shown(acct)}" + identified(acct) + require(acct)
    lim = limits(acct)
    if lim:
        line += " WITH" + lim
    if acct.locked:
        line += " ACCOUNT LOCK"
    rows = [(line,)]
    if acct.expired:
        line += " PASSWORD EXPIRE"
        rows = [(line,)]
        if acct.lifetime is not None and acct.lifetime > -1:
            # MariaDB's MDEV-24114: the lifetime of an expired account in a second statement
            rows.append((f"ALTER USER {_shown(acct)}{_lifetime(acct.lifetime)}",))
    elif acct.lifetime is not None and acct.lifetime > -1:
        rows = [(line + _lifetime(acct.lifetime),)]
    return ResultSet([text_column(f"CREATE USER for {user}@{host}", length=1024)], rows)


def _lifetime(days: int) -> str:
    return " PASSWORD EXPIRE NEVER" if days == 0 else f" PASSWORD EXPIRE INTERVAL {days} DAY"


def grants_statement(s: Session, stmt: Statement) -> ResultSet:
    r = Reader(stmt, 1)
    r.expect("GRANTS")
    return show_grants(s, r)
