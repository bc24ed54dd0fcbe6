"""Account statements: CREATE / ALTER / DROP / RENAME USER, SET PASSWORD, and the account
parts GRANT shares (user names, IDENTIFIED ..., REQUIRE ..., WITH limits, ACCOUNT LOCK).

Rules (MariaDB 10.11's grammar and checks, measured):
- Account statements need CREATE USER (else 1227), or the matching privilege on the mysql
  database (INSERT for CREATE, UPDATE for ALTER / RENAME, DELETE for DROP). ALTER USER of one's
  own account needs it too; SET PASSWORD of one's own account needs nothing (an anonymous
  account cannot: 1131); SET PASSWORD FOR another needs UPDATE on mysql (1044).
- 'u'@'h', u@h, 'u' (host '%') and CURRENT_USER[()] name an account. Options after the
  accounts apply to every account of the statement. REQUIRE NONE | SSL | X509 | ISSUER 'i' /
  SUBJECT 's' / CIPHER 'c' ([AND] between them); WITH MAX_QUERIES_PER_HOUR n /
  MAX_UPDATES_PER_HOUR n / MAX_CONNECTIONS_PER_HOUR n / MAX_USER_CONNECTIONS n; ACCOUNT LOCK /
  UNLOCK; PASSWORD EXPIRE NEVER / DEFAULT (accepted: passwords never expire here).
- What rampmeter does not do is refused by name (1235), never ignored: PASSWORD EXPIRE [n
  DAY], MAX_STATEMENT_TIME per account, authentication plugins other than
  mysql_native_password and caching_sha2_password (1524).
- IF [NOT] EXISTS turn 1396 into notes 1973 / 1974, as MariaDB's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.engine.base import UpdateCount
from rampmeter.errors import ServerError, Warning_
from rampmeter.session.accounts import (
    NATIVE,
    OLD,
    PLUGINS,
    Account,
    make_auth_string,
    valid_auth_string,
)
from rampmeter.session.grants import GrantTables
from rampmeter.session.names import check_account_name
from rampmeter.session.privileges import P, denied_db, denied_global
from rampmeter.sql.lexer import ident_value, string_value
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session

MYSQL = "mysql"
_LIMIT_WORDS = {"MAX_QUERIES_PER_HOUR": "max_questions", "MAX_UPDATES_PER_HOUR": "max_updates",
                "MAX_CONNECTIONS_PER_HOUR": "max_connections",
                "MAX_USER_CONNECTIONS": "max_user_connections"}
_MAX_LIMIT = 2**32 - 1


# --- reading account names -----------------------------------------------------------------------

def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return string_value(text)
    return ident_value(text)


def read_account(s: Session, r: Reader) -> tuple[str, str, bool]:
    """An account name -> (user, host, host_given). CURRENT_USER[()] is the session's own."""
    if r.accept("CURRENT_USER"):
        r.accept("(", ")")
        return s.security.priv_user if s.security else s.user, \
            s.security.priv_host if s.security else s.account_host, True
    user = r.name_or_string()
    t = r.peek()
    host, given = "%", False
    if t is not None and t.kind == "uservar":  # 'u'@'h' lexes as a string and a @variable
        r.i += 1
        host, given = _unquote(t.text[1:]), True
    elif r.at("@"):
        r.i += 1
        host, given = r.name_or_string(), True
    check_account_name(s, user, host)
    return user, host, given


# --- IDENTIFIED / REQUIRE / WITH / ACCOUNT ------------------------------------------------------

@dataclass
class Auth:
    plugin: str | None        # None: the account's own (ALTER) or the default (CREATE)
    password: str | None = None
    hashed: str | None = None


@dataclass
class Options:
    ssl: tuple[str, str, str, str] | None = None    # (ssl_type, cipher, issuer, subject)
    limits: dict[str, int] = field(default_factory=dict)
    locked: bool | None = None
    grant_option: bool = False                      # GRANT ... WITH GRANT OPTION

    def apply(self, acct: Account) -> None:
        if self.ssl is not None:
            acct.ssl_type, acct.ssl_cipher, acct.x509_issuer, acct.x509_subject = self.ssl
        for key, value in self.limits.items():
            setattr(acct, key, value)
        if self.locked is not None:
            acct.locked = self.locked


def read_auth(r: Reader) -> Auth | None:
    if not r.accept("IDENTIFIED"):
        return None
    if r.accept("BY"):
        if r.accept("PASSWORD"):
            return Auth(None, hashed=r.string())
        return Auth(None, password=r.string())
    if not r.accept_any("VIA", "WITH"):
        raise r.error()
    plugin = r.name_or_string().lower()
    if plugin not in PLUGINS:
        raise ServerError(errors.ER_PLUGIN_IS_NOT_LOADED, plugin)
    if r.accept_any("USING", "AS"):
        if r.accept("PASSWORD"):
            r.expect("(")
            password = r.string()
            r.expect(")")
            return Auth(plugin, password=password)
        return Auth(plugin, hashed=r.string())
    if r.accept("BY"):
        return Auth(plugin, password=r.string())
    return Auth(plugin)


def _plugin_of_hash(auth: Auth | None) -> str | None:
    """IDENTIFIED BY PASSWORD 'hash' of 16 characters is a pre-4.1 hash: mysql_old_password,
    as MariaDB decides by its length (others keep the plugin they would have)."""
    if auth is None or auth.hashed is None or auth.plugin is not None:
        return None
    return OLD if len(auth.hashed) == 16 else None


def auth_string(auth: Auth, plugin: str) -> str:
    if auth.hashed is not None:
        if not valid_auth_string(plugin, auth.hashed):
            raise ServerError(errors.ER_PASSWD_LENGTH)
        return auth.hashed.upper() if plugin == NATIVE else auth.hashed
    return make_auth_string(plugin, auth.password or "")


def read_options(r: Reader, *, grant: bool = False) -> Options:
    """REQUIRE ... / WITH ... / ACCOUNT ... / PASSWORD EXPIRE ..., in any order."""
    opts = Options()
    while not r.done:
        if r.accept("REQUIRE"):
            opts.ssl = _read_require(r)
        elif r.accept("WITH"):
            _read_with(r, opts, grant)
        elif r.accept("ACCOUNT"):
            word = r.accept_any("LOCK", "UNLOCK")
            if not word:
                raise r.error()
            opts.locked = word == "LOCK"
        elif r.accept("PASSWORD", "EXPIRE"):
            if r.accept_any("NEVER", "DEFAULT"):
                continue
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "PASSWORD EXPIRE")
        else:
            raise r.error()
    return opts


def _read_require(r: Reader) -> tuple[str, str, str, str]:
    if r.accept("NONE"):
        return ("", "", "", "")
    if r.accept("SSL"):
        return ("ANY", "", "", "")
    if r.accept("X509"):
        return ("X509", "", "", "")
    found = {"CIPHER": "", "ISSUER": "", "SUBJECT": ""}
    seen = False
    while True:
        word = r.accept_any("CIPHER", "ISSUER", "SUBJECT")
        if not word:
            break
        found[word] = r.string()
        seen = True
        r.accept("AND")
    if not seen:
        raise r.error()
    return ("SPECIFIED", found["CIPHER"], found["ISSUER"], found["SUBJECT"])


def _read_with(r: Reader, opts: Options, grant: bool) -> None:
    took = False
    while True:
        if grant and r.accept("GRANT", "OPTION"):
            opts.grant_option = True
        elif r.at("MAX_STATEMENT_TIME"):
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "MAX_STATEMENT_TIME per account")
        else:
            word = r.accept_any(*_LIMIT_WORDS)
            if not word:
                break
            opts.limits[_LIMIT_WORDS[word]] = min(r.integer(), _MAX_LIMIT)
        took = True
    if not took:
        raise r.error()


# --- who may --------------------------------------------------------------------------------------

def require_user_admin(s: Session, mysql_bit: int) -> None:
    """CREATE USER, or `mysql_bit` on the mysql database; else 1227 CREATE USER."""
    sec = s.security
    if sec is None or sec.has(P.CREATE_USER) or sec.db_bits(MYSQL) & mysql_bit:
        return
    raise denied_global(P.CREATE_USER)


def require_mysql_db(s: Session, bit: int) -> None:
    """`bit` on the mysql database (SET PASSWORD FOR, SHOW GRANTS FOR another), else 1044."""
    sec = s.security
    if sec is None or sec.has(bit) or sec.db_bits(MYSQL) & bit:
        return
    raise denied_db(sec.priv_user, sec.priv_host, MYSQL)


def is_self(s: Session, user: str, host: str) -> bool:
    sec = s.security
    if sec is None:
        return True
    return user == sec.priv_user and host.lower() == sec.priv_host.lower()


# --- CREATE / ALTER / DROP / RENAME USER ---------------------------------------------------------

def _accounts_then_options(s: Session, r: Reader, *, with_auth: bool
                           ) -> tuple[list[tuple[str, str, Auth | None]], Options]:
    specs: list[tuple[str, str, Auth | None]] = []
    while True:
        user, host, _ = read_account(s, r)
        specs.append((user, host, read_auth(r) if with_auth else None))
        if not r.accept(","):
            break
    return specs, read_options(r)


def create_user(s: Session, stmt: Statement) -> UpdateCount:
    r = Reader(stmt, 1)
    or_replace = r.accept("OR", "REPLACE")
    r.expect("USER")
    if_not_exists = r.accept("IF", "NOT", "EXISTS")
    if or_replace and if_not_exists:
        raise ServerError(errors.ER_WRONG_USAGE, "OR REPLACE", "IF NOT EXISTS")
    specs, opts = _accounts_then_options(s, r, with_auth=True)
    require_user_admin(s, P.INSERT)
    default_plugin = s.ctx.variables["default_authentication_plugin"]
    notes: list[Warning_] = []
    failed: list[str] = []

    def apply(t: GrantTables) -> None:
        for user, host, auth in specs:
            if t.account(user, host) is not None or t.role(user) is not None and host == "":
                if or_replace:
                    t.drop_account(user, host)
                elif if_not_exists:
                    notes.append(Warning_.of(errors.ER_USER_CREATE_EXISTS, user, host,
                                             level="Note"))
                    continue
                else:
                    failed.append(f"'{user}'@'{host}'")
                    continue
            plugin = (auth.plugin if auth and auth.plugin else None) or \
                _plugin_of_hash(auth) or default_plugin
            acct = Account(user, host, plugin, auth_string(auth, plugin) if auth else "")
            opts.apply(acct)
            t.accounts[acct.key] = acct

    s.ctx.accounts.change(apply)
    _fail_for(failed, "CREATE USER")
    return UpdateCount(warnings=notes)


def _fail_for(failed: list[str], operation: str) -> None:
    """MariaDB applies an account statement to each account it can and then names the others
    in one 1396 (`CREATE USER a, b` with `a` taken still creates `b`)."""
    if failed:
        raise ServerError(errors.ER_CANNOT_USER, operation, ",".join(failed))


def alter_user(s: Session, stmt: Statement) -> UpdateCount:
    r = Reader(stmt, 2)
    if_exists = r.accept("IF", "EXISTS")
    specs, opts = _accounts_then_options(s, r, with_auth=True)
    require_user_admin(s, P.UPDATE)
    notes: list[Warning_] = []

    def apply(t: GrantTables) -> None:
        for user, host, auth in specs:
            acct = t.account(user, host)
            if acct is None or acct.is_role:
                if if_exists:
                    notes.append(Warning_("Note", errors.ER_CANNOT_USER,
                                          f"Operation ALTER USER failed for '{user}'@'{host}'"))
                    continue
                raise ServerError(errors.ER_CANNOT_USER, "ALTER USER", f"'{user}'@'{host}'")
            if auth is not None:
                acct.plugin = auth.plugin or _plugin_of_hash(auth) or acct.plugin
                acct.auth_string = auth_string(auth, acct.plugin)
            opts.apply(acct)

    s.ctx.accounts.change(apply)
    return UpdateCount(warnings=notes)


def drop_user(s: Session, stmt: Statement) -> UpdateCount:
    r = Reader(stmt, 2)
    if_exists = r.accept("IF", "EXISTS")
    names = [read_account(s, r)[:2]]
    while r.accept(","):
        names.append(read_account(s, r)[:2])
    r.end()
    require_user_admin(s, P.DELETE)
    notes: list[Warning_] = []

    failed: list[str] = []

    def apply(t: GrantTables) -> None:
        for user, host in names:
            acct = t.account(user, host)
            if acct is None or acct.is_role:
                if if_exists:
                    notes.append(Warning_.of(errors.ER_USER_DROP_EXISTS, user, host,
                                             level="Note"))
                else:
                    failed.append(f"'{user}'@'{host}'")
                continue
            t.drop_account(user, host)

    s.ctx.accounts.change(apply)
    _fail_for(failed, "DROP USER")
    return UpdateCount(warnings=notes)


def rename_user(s: Session, stmt: Statement) -> UpdateCount:
    r = Reader(stmt, 2)
    pairs = []
    while True:
        old = read_account(s, r)[:2]
        r.expect("TO")
        new = read_account(s, r)[:2]
        pairs.append((old, new))
        if not r.accept(","):
            break
    r.end()
    require_user_admin(s, P.UPDATE)

    failed: list[str] = []

    def apply(t: GrantTables) -> None:
        for (user, host), (nuser, nhost) in pairs:
            acct = t.account(user, host)
            if acct is None or acct.is_role or t.account(nuser, nhost) is not None:
                failed.append(f"'{user}'@'{host}'")
                continue
            _rename(t, acct, nuser, nhost)

    s.ctx.accounts.change(apply)
    _fail_for(failed, "RENAME USER")
    return UpdateCount()


def _rename(t: GrantTables, acct: Account, user: str, host: str) -> None:
    old_user, old_host = acct.user, acct.host.lower()
    del t.accounts[acct.key]
    acct.user, acct.host = user, host
    t.accounts[acct.key] = acct
    for d in t.dbs:
        if d.user == old_user and d.host.lower() == old_host:
            d.user, d.host = user, host
    for key in list(t.tables):
        g = t.tables[key]
        if g.user == old_user and g.host.lower() == old_host:
            del t.tables[key]
            g.user, g.host = user, host
            t.tables[(user, host.lower(), g.db, g.table.lower())] = g
    for rg in t.roles:
        if rg.user == old_user and rg.host.lower() == old_host:
            rg.user, rg.host = user, host


# --- SET PASSWORD -------------------------------------------------------------------------------

def set_password(s: Session, r: Reader) -> None:
    """SET PASSWORD [FOR account] = PASSWORD('x') | 'hash' (r is past PASSWORD)."""
    sec = s.security
    if r.accept("FOR"):
        user, host, _ = read_account(s, r)
    else:
        user = sec.priv_user if sec is not None else s.user
        host = sec.priv_host if sec is not None else s.account_host
    r.expect("=")
    if r.accept("PASSWORD"):
        r.expect("(")
        auth = Auth(None, password=r.string())
        r.expect(")")
    elif r.accept_any("OLD_PASSWORD"):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "OLD_PASSWORD")
    else:
        auth = Auth(None, hashed=r.string())
    r.end()
    if is_self(s, user, host):
        if sec is not None and sec.priv_user == "":
            raise ServerError(errors.ER_PASSWORD_ANONYMOUS_USER)
    else:
        require_mysql_db(s, P.UPDATE)

    def apply(t: GrantTables) -> None:
        acct = t.account(user, host)
        if acct is None or acct.is_role:
            raise ServerError(errors.ER_PASSWORD_NO_MATCH)
        if auth.hashed is not None and acct.plugin != NATIVE:
            raise ServerError(errors.ER_PASSWD_LENGTH)
        acct.auth_string = auth_string(auth, acct.plugin)

    s.ctx.accounts.change(apply)
