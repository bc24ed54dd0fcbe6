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
    old_password_hash,
    valid_auth_string,
)
from rampmeter.session.grants import GrantTables, rkey
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
    expire: bool = False                            # PASSWORD EXPIRE (now)
    lifetime: int | None = None                     # DEFAULT -1, NEVER 0, INTERVAL n DAY

    def apply(self, acct: Account) -> None:
        if self.ssl is not None:
            acct.ssl_type, acct.ssl_cipher, acct.x509_issuer, acct.x509_subject = self.ssl
        for key, value in self.limits.items():
            setattr(acct, key, value)
        if self.locked is not None:
            acct.locked = self.locked
            acct.locked_set = True
        if self.expire:  # MariaDB records the default lifetime with it (-1), keeping one set
            acct.expired = True
            if self.lifetime is not None:
                acct.lifetime = self.lifetime
            elif acct.lifetime is None:
                acct.lifetime = -1
        elif self.lifetime is not None:
            acct.lifetime = self.lifetime


def read_auth(r: Reader, *, known_plugin: bool = True) -> Auth | None:
    """known_plugin=False leaves a plugin rampmeter lacks to the caller (ALTER USER checks
    the privilege first, then fails the account: 1396 after 1524, as MariaDB does)."""
    if not r.accept("IDENTIFIED"):
        return None
    if r.accept("BY"):
        if r.accept("PASSWORD"):
            return Auth(None, hashed=r.string())
        return Auth(None, password=r.string())
    if not r.accept_any("VIA", "WITH"):
        raise r.error()
    plugin = r.name_or_string().lower()
    if plugin not in PLUGINS and known_plugin:
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


def _cleartext_plugin(auth: Auth, plugin: str) -> str:
    """A password given in clear text hashes as PASSWORD() does (old_passwords is 0): a
    mysql_old_password account becomes mysql_native_password, as in MariaDB."""
    return NATIVE if auth.password is not None and plugin == OLD else plugin


def auth_string(auth: Auth, plugin: str) -> str:
    if auth.hashed is not None:
        if not valid_auth_string(plugin, auth.hashed):
            raise passwd_length(plugin)
        return auth.hashed
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
            if r.accept("NEVER"):
                opts.lifetime = 0
            elif r.accept("DEFAULT"):
                opts.lifetime = -1
            elif r.accept("INTERVAL"):
                days = r.integer()
                if days <= 0:
                    raise ServerError(1525, message=f"Incorrect DAY value: '{days}'",
                                      sqlstate="HY000")
                r.expect("DAY")
                opts.lifetime = days
            else:
                opts.expire = True
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

def _accounts_then_options(s: Session, r: Reader, *, with_auth: bool,
                           given: list[bool] | None = None, known_plugin: bool = True
                           ) -> tuple[list[tuple[str, str, Auth | None]], Options]:
    """`given` receives, per account, whether its host was written."""
    specs: list[tuple[str, str, Auth | None]] = []
    while True:
        user, host, host_given = read_account(s, r)
        if given is not None:
            given.append(host_given)
        specs.append((user, host, read_auth(r, known_plugin=known_plugin)
                      if with_auth else None))
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
    specs, opts = _accounts_then_options(s, r, with_auth=True, known_plugin=False)
    require_user_admin(s, P.INSERT)
    missing = next((a.plugin for _u, _h, a in specs
                    if a is not None and a.plugin and a.plugin not in PLUGINS), None)
    if missing is not None:
        if or_replace:  # MariaDB drops the account before it fails to make it (MDEV-17942)
            def drop(t: GrantTables) -> None:
                for user, host, auth in specs:
                    if auth is not None and auth.plugin == missing and \
                            t.account(user, host) is not None:
                        t.drop_account(user, host)
            s.ctx.accounts.change(drop)
        raise ServerError(errors.ER_PLUGIN_IS_NOT_LOADED, missing)
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
    given: list[bool] = []
    specs, opts = _accounts_then_options(s, r, with_auth=True, given=given,
                                         known_plugin=False)
    require_user_admin(s, P.UPDATE)
    notes: list[Warning_] = []

    def apply(t: GrantTables) -> None:
        for (user, host, auth), host_given in zip(specs, given, strict=True):
            acct = t.account(user, host)
            if acct is None or acct.is_role:
                # MariaDB names the account as written: no host when none was given
                shown = f"'{user}'@'{host}'" if host_given else f"'{user}'"
                if if_exists:
                    notes.append(Warning_("Error", errors.ER_PASSWORD_NO_MATCH,
                                          "Can't find any matching row in the user table"))
                    notes.append(Warning_("Note", errors.ER_CANNOT_USER,
                                          f"Operation ALTER USER failed for {shown}"))
                    continue
                raise ServerError(errors.ER_CANNOT_USER, "ALTER USER", shown)
            if auth is not None and auth.plugin and auth.plugin not in PLUGINS:
                exc = ServerError(errors.ER_CANNOT_USER, "ALTER USER", f"'{user}'@'{host}'")
                exc.trail = [Warning_.of(errors.ER_PLUGIN_IS_NOT_LOADED, auth.plugin,  # type: ignore[attr-defined]
                                         level="Error"),
                             Warning_("Error", exc.code, exc.message)]
                raise exc
            acct.rewritten()
            if auth is not None:
                acct.plugin = auth.plugin or _plugin_of_hash(auth) or _cleartext_plugin(
                    auth, acct.plugin)
                acct.auth_string = auth_string(auth, acct.plugin)
                acct.expired = False  # a new password is not expired
            opts.apply(acct)

    s.ctx.accounts.change(apply)
    for user, host, auth in specs:  # ALTER USER unblocks (max_password_errors)
        s.ctx.accounts.unblock(user, host)
        if auth is not None and is_self(s, user, host):
            s.must_change_password = False  # out of sandbox mode: a new password
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
    for key in list(t.routines):
        pg = t.routines[key]
        if pg.user == old_user and pg.host.lower() == old_host:
            del t.routines[key]
            pg.user, pg.host = user, host
            t.routines[rkey(user, host, pg.db, pg.kind, pg.name)] = pg


# --- SET PASSWORD -------------------------------------------------------------------------------

def passwd_length(plugin: str) -> ServerError:
    """1372 as MariaDB words it for the plugin: 16 digits for mysql_old_password, else 41."""
    if plugin == OLD:
        return ServerError(errors.ER_PASSWD_LENGTH, sqlstate="HY000", message=(
            "Password hash should be a 16-digit hexadecimal number"))
    return ServerError(errors.ER_PASSWD_LENGTH)


def set_password(s: Session, r: Reader) -> None:
    """SET PASSWORD [FOR account] = PASSWORD('x') | 'hash' (r is past PASSWORD)."""
    from rampmeter.session.required import refuse_under_read_only
    refuse_under_read_only(s)  # it writes the grant tables
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
    elif r.accept_any("OLD_PASSWORD"):  # the pre-4.1 hash: the account becomes old_password
        r.expect("(")
        auth = Auth(None, hashed=old_password_hash(r.string().encode("utf-8")))
        r.expect(")")
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
        acct.rewritten()
        if auth.hashed is not None:
            if acct.plugin not in (NATIVE, OLD):
                raise ServerError(errors.ER_PASSWD_LENGTH)
            # a hash of 16 characters is pre-4.1: the account becomes mysql_old_password
            # (and one of 41 mysql_native_password), as MariaDB decides by the length
            acct.plugin = OLD if len(auth.hashed) == 16 else NATIVE
        else:
            acct.plugin = _cleartext_plugin(auth, acct.plugin)
        acct.auth_string = auth_string(auth, acct.plugin)
        acct.expired = False  # a new password is not expired

    s.ctx.accounts.change(apply)
    if is_self(s, user, host):
        s.must_change_password = False  # out of sandbox mode: a new password
