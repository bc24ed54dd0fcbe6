"""GRANT and REVOKE (privileges.py states the model; here is the grammar and the order of checks,
MariaDB 10.11's, measured). The role statements are roles.py's.

Rules:
- GRANT privileges ON level TO accounts [REQUIRE ...] [WITH GRANT OPTION | limits]; level is
  *.* (global), db.* or * (database; the db may hold % and _), db.t or t (table), with column
  lists after SELECT / INSERT / UPDATE / REFERENCES. A statement without ON grants roles.
- Checks, in MariaDB's order: the privileges and the level (1221 at database level, 1144 at
  table level), then the grantor's right to grant them - the bits and GRANT OPTION at that
  level (1045 global, 1044 database, 1142 table) - then the table's and columns' existence
  (1146 unless CREATE is granted without columns, as MariaDB; 1054), then each grantee: unknown -> 1133, unless IDENTIFIED is given (or sql_mode
  lacks NO_AUTO_CREATE_USER) and the grantor has CREATE USER, which creates it (else 1410).
  Account options in a GRANT (IDENTIFIED, REQUIRE, limits) need CREATE USER too.
- REVOKE mirrors GRANT; a grant that is not there is 1141 (global, database) or 1147 (table).
  REVOKE of table privileges also takes them from the table's columns; a row left with no
  privilege is deleted. REVOKE ALL PRIVILEGES, GRANT OPTION FROM a needs CREATE USER.
- A grantee written without @host is a role when such a role exists, else 'name'@'%'
  (roles.resolve_grantee).
- Everything a statement changes is one change of the grant file (aclstore.change): all of it
  or none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.engine.base import UpdateCount
from rampmeter.errors import ServerError
from rampmeter.session import roles, routinegrants
from rampmeter.session.accounts import Account
from rampmeter.session.grants import PUBLIC, DbGrant, GrantTables, TableGrant, merge_columns
from rampmeter.session.names import check_database_name
from rampmeter.session.privileges import (
    BY_NAME,
    COL_ACLS,
    DB_ACLS,
    GLOBAL_ACLS,
    TABLE_ACLS,
    P,
    denied_db,
)
from rampmeter.session.security import TableNeed
from rampmeter.session.usersql import (
    Auth,
    auth_string,
    read_account,
    read_auth,
    read_options,
    require_user_admin,
)
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session

ALL = -1
_END_OF_PRIVILEGE = ("ON", "TO", "FROM")


# --- reading ------------------------------------------------------------------------------------

def _read_privileges(r: Reader) -> list[tuple[int, tuple[str, ...]]]:
    """priv [(col, ...)] [, ...] -> [(bits or ALL, columns)]."""
    out: list[tuple[int, tuple[str, ...]]] = []
    while True:
        if r.accept("ALL"):
            r.accept("PRIVILEGES")
            bits = ALL
        elif r.accept("USAGE"):
            bits = 0
        elif r.accept("GRANT", "OPTION"):
            bits = P.GRANT
        elif r.at("PROXY"):
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "GRANT PROXY")
        else:
            bits = _privilege_words(r)
        columns: tuple[str, ...] = ()
        if r.accept("("):
            cols = [r.name()]
            while r.accept(","):
                cols.append(r.name())
            r.expect(")")
            columns = tuple(cols)
        out.append((bits, columns))
        if not r.accept(","):
            return out


def _privilege_words(r: Reader) -> int:
    for n in (4, 3, 2, 1):
        words = [r.peek_word(k) for k in range(n)]
        if all(words) and " ".join(words) in BY_NAME:
            r.i += n
            return BY_NAME[" ".join(words)]
    raise r.error()


def _read_level(s: Session, r: Reader) -> tuple[str | None, str | None]:
    """ON [TABLE] level -> (None, None) global, (db, None) database, (db, table) table."""
    if r.accept_any("FUNCTION", "PROCEDURE", "PACKAGE"):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "privileges on stored routines")
    r.accept("TABLE")
    if r.accept("*"):
        if r.accept(".", "*"):
            return None, None
        if s.database is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        return s.database, None
    first = r.name()
    if r.accept("."):
        if r.accept("*"):
            return first, None
        return first, r.name()
    if s.database is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    return s.database, first


def _level_bits(items: list[tuple[int, tuple[str, ...]]], db: str | None,
                table: str | None) -> tuple[int, dict[str, int]]:
    """(bits at the level, column -> bits), with 1221 / 1144 for bits the level cannot hold."""
    level_all = GLOBAL_ACLS if db is None else DB_ACLS if table is None else TABLE_ACLS
    bits = 0
    columns: dict[str, int] = {}
    for b, cols in items:
        b = level_all & ~P.GRANT if b == ALL else b
        if cols:
            if table is None or b & ~COL_ACLS:
                raise ServerError(errors.ER_ILLEGAL_GRANT_FOR_TABLE)
            merge_columns(columns, ((c, b) for c in cols))
        else:
            bits |= b
    if db is not None and table is None and bits & ~DB_ACLS:
        raise ServerError(errors.ER_WRONG_USAGE, "DB GRANT", "GLOBAL PRIVILEGES")
    if table is not None and bits & ~TABLE_ACLS:
        raise ServerError(errors.ER_ILLEGAL_GRANT_FOR_TABLE)
    return bits, columns


def _grantees(s: Session, r: Reader, *, auth: bool) -> list[tuple[str, str, bool, Auth | None]]:
    """accounts [IDENTIFIED ...] -> (user, host, host_given, auth)."""
    out = []
    while True:
        user, host, given = read_account(s, r)
        out.append((user, host, given, read_auth(r) if auth else None))
        if not r.accept(","):
            return out


def _privileges_on(s: Session, r: Reader, direction: str) -> tuple[
        str | None, str | None, int, dict[str, int], list[tuple[str, str, bool, Auth | None]]]:
    """privileges ON level TO | FROM accounts -> (db, table, bits, columns, grantees)."""
    items = _read_privileges(r)
    r.expect("ON")
    db, table = _read_level(s, r)
    bits, columns = _level_bits(items, db, table)
    r.expect(direction)
    return db, table, bits, columns, _grantees(s, r, auth=direction == "TO")


# --- the grantor's right --------------------------------------------------------------------------

def _check_grantor(s: Session, db: str | None, table: str | None, bits: int,
                   columns: dict[str, int]) -> None:
    sec = s.security
    if sec is None or sec.unchecked:
        return
    want = bits | P.GRANT
    if db is None:
        sec.check_global_grant(bits)
    elif table is None:
        if sec.db_bits(db) & want != want:
            raise denied_db(sec.priv_user, sec.priv_host, db)
    else:
        col_bits = 0
        for b in columns.values():
            col_bits |= b
        sec.check_table(TableNeed(db, table, want | col_bits))


def _existing_table(s: Session, db: str, table: str, columns: dict[str, int]) -> str:
    """The stored name of db.table (1146), after checking the columns exist (1054)."""
    assert s.engine is not None
    described = s.engine.table_columns(table, db)
    names = {c.name.lower(): c.name for c in described}
    for col in columns:
        if col.lower() not in names:
            raise ServerError(errors.ER_BAD_FIELD_ERROR, col, table)
    return table


# --- GRANT ---------------------------------------------------------------------------------------

def grant(s: Session, stmt: Statement) -> UpdateCount:
    r = Reader(stmt, 1)
    if r.at("PROXY"):
        return _grant_proxy_all(s, r)
    if not _has_on(r):
        return roles.grant_roles(s, r)
    if routinegrants.on_routine(r):
        return routinegrants.grant(s, r)
    db, table, bits, columns, grantees = _privileges_on(s, r, "TO")
    opts = read_options(r, grant=True)
    if opts.grant_option:
        bits |= P.GRANT
    if db is not None and table is None:
        _check_db_pattern(s, db)
    _check_grantor(s, db, table, bits, columns)
    if table is not None and (columns or not bits & P.CREATE):
        # MariaDB grants on a table that does not exist yet when CREATE is among the
        # privileges (and no column is named): the grant is ready for the table to come
        _existing_table(s, db or "", table, columns)
    auto_create = "NO_AUTO_CREATE_USER" not in s.vars["sql_mode"]
    if opts.ssl is not None or opts.limits or opts.locked is not None:
        require_user_admin(s, P.UPDATE)
    grantor = s.current_user

    def apply(t: GrantTables) -> None:
        for user, host, given, auth in grantees:
            user, host = roles.resolve_grantee(t, user, host, given)
            acct = _grantee_account(s, t, user, host, auth, auto_create)
            opts.apply(acct)
            if db is None:
                acct.access |= bits
            elif table is None:
                _add_db(t, user, host, db, bits)
            else:
                _add_table(t, user, host, db, table, bits, columns, grantor)

    s.ctx.accounts.change(apply)
    for user, host, _given, _auth in grantees:  # GRANT unblocks (max_password_errors)
        s.ctx.accounts.unblock(user, host)
    return UpdateCount()


def _grant_proxy_all(s: Session, r: Reader) -> UpdateCount:
    """GRANT PROXY ON ''@'%' TO acct WITH GRANT OPTION: the one proxy grant kept, the one
    mariadb-install-db gives root and mariadb-dump --all-databases writes back; only an
    account holding it may give it (1227 otherwise). Any other PROXY grant is 1235:
    rampmeter has no proxy users."""
    r.expect("PROXY")
    r.expect("ON")
    user, host, _given = read_account(s, r)
    r.expect("TO")
    grantees = _grantees(s, r, auth=False)
    opts = read_options(r, grant=True)
    if user != "" or host != "%" or not opts.grant_option:
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "GRANT PROXY")
    sec = s.security
    if sec is not None and not sec.unchecked:
        me = s.ctx.accounts.tables.accounts.get((sec.priv_user, sec.priv_host.lower()))
        if me is None or not me.proxy_all:
            raise ServerError(errors.ER_SPECIFIC_ACCESS_DENIED_ERROR, "GRANT PROXY")
    auto_create = "NO_AUTO_CREATE_USER" not in s.vars["sql_mode"]

    def apply(t: GrantTables) -> None:
        for name, at, given, auth in grantees:
            name, at = roles.resolve_grantee(t, name, at, given)
            _grantee_account(s, t, name, at, auth, auto_create).proxy_all = True

    s.ctx.accounts.change(apply)
    return UpdateCount()


def _has_on(r: Reader) -> bool:
    depth = 0
    for t in r.toks[r.i:]:
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        elif depth == 0 and t.kind == "word" and t.text.upper() in ("ON", "TO", "FROM"):
            return t.text.upper() == "ON"
    return False


def _check_db_pattern(s: Session, db: str) -> None:
    check_database_name(s, db.replace("\\", ""))


def _grantee_account(s: Session, t: GrantTables, user: str, host: str, auth: Auth | None,
                     auto_create: bool) -> Account:
    acct = t.role(user) if host == "" else t.account(user, host)
    if acct is None and host == "" and user == PUBLIC:  # the first GRANT TO PUBLIC makes it
        acct = Account(PUBLIC, "", is_role=True)
        t.accounts[acct.key] = acct
    if acct is None:
        if host == "" or auth is None and not auto_create:
            raise ServerError(errors.ER_PASSWORD_NO_MATCH)
        sec = s.security
        if sec is not None and not sec.has(P.CREATE_USER) and \
                not sec.db_bits("mysql") & P.INSERT:
            raise ServerError(errors.ER_CANT_CREATE_USER_WITH_GRANT)
        plugin = (auth.plugin if auth and auth.plugin else None) or \
            s.ctx.variables["default_authentication_plugin"]
        acct = Account(user, host, plugin, auth_string(auth, plugin) if auth else "")
        t.accounts[acct.key] = acct
        return acct
    acct.rewritten()
    if auth is not None:
        require_user_admin(s, P.UPDATE)  # a new password for an existing account
        acct.plugin = auth.plugin or acct.plugin
        acct.auth_string = auth_string(auth, acct.plugin)
    return acct


def _add_db(t: GrantTables, user: str, host: str, db: str, bits: int) -> None:
    if not bits:
        return
    row = t.db_row(user, host, db)
    if row is None:
        t.dbs.append(DbGrant(user, host, db, bits))
    else:
        row.access |= bits


def _add_table(t: GrantTables, user: str, host: str, db: str, table: str, bits: int,
               columns: dict[str, int], grantor: str) -> None:
    if not bits and not columns:
        return
    row = t.table_row(user, host, db, table)
    if row is None:
        row = TableGrant(user, host, db, table, grantor=grantor)
        t.tables[(user, host.lower(), db, table.lower())] = row
    row.access |= bits
    merge_columns(row.columns, columns.items())


# --- REVOKE --------------------------------------------------------------------------------------

def revoke(s: Session, stmt: Statement) -> UpdateCount:
    r = Reader(stmt, 1)
    if r.at("ALL") and _revoke_all_form(r):
        return _revoke_all(s, r)
    if not _has_on(r):
        return roles.revoke_roles(s, r)
    if routinegrants.on_routine(r):
        return routinegrants.revoke(s, r)
    db, table, bits, columns, grantees = _privileges_on(s, r, "FROM")
    r.end()
    _check_grantor(s, db, table, bits & ~P.GRANT, columns)

    def apply(t: GrantTables) -> None:
        for user, host, given, _ in grantees:
            user, host = roles.resolve_grantee(t, user, host, given)
            if db is None:
                acct = t.role(user) if host == "" else t.account(user, host)
                if acct is None:
                    raise ServerError(errors.ER_NONEXISTING_GRANT, user, host)
                acct.rewritten()
                acct.access &= ~bits
            elif table is None:
                _take_db(t, user, host, db, bits)
            else:
                _take_table(t, user, host, db, table, bits, columns)

    s.ctx.accounts.change(apply)
    return UpdateCount()


def _revoke_all_form(r: Reader) -> bool:
    """REVOKE ALL [PRIVILEGES], GRANT OPTION FROM ... (not REVOKE ALL ON ...)."""
    j = 1
    if r.peek_word(j) == "PRIVILEGES":
        j += 1
    t = r.peek(j)
    return t is not None and t.text == "," and r.peek_word(j + 1) == "GRANT"


def _revoke_all(s: Session, r: Reader) -> UpdateCount:
    r.expect("ALL")
    r.accept("PRIVILEGES")
    r.expect(",", "GRANT", "OPTION", "FROM")
    grantees = _grantees(s, r, auth=False)
    r.end()
    require_user_admin(s, P.UPDATE)

    def apply(t: GrantTables) -> None:
        for user, host, given, _ in grantees:
            user, host = roles.resolve_grantee(t, user, host, given)
            acct = t.role(user) if host == "" else t.account(user, host)
            if acct is None:
                raise ServerError(errors.ER_NONEXISTING_GRANT, user, host)
            acct.rewritten()
            acct.access = 0
            h = host.lower()
            t.dbs = [d for d in t.dbs if not (d.user == user and d.host.lower() == h)]
            t.tables = {k: g for k, g in t.tables.items()
                        if not (g.user == user and g.host.lower() == h)}

    s.ctx.accounts.change(apply)
    return UpdateCount()


def _take_db(t: GrantTables, user: str, host: str, db: str, bits: int) -> None:
    row = t.db_row(user, host, db)
    if row is None:
        raise ServerError(errors.ER_NONEXISTING_GRANT, user, host)
    row.access &= ~bits
    if not row.access:
        t.dbs.remove(row)


def _take_table(t: GrantTables, user: str, host: str, db: str, table: str, bits: int,
                columns: dict[str, int]) -> None:
    row = t.table_row(user, host, db, table)
    if row is None:
        raise ServerError(errors.ER_NONEXISTING_TABLE_GRANT, user, host, table)
    row.access &= ~bits
    for col in list(row.columns):
        taken = bits & COL_ACLS
        for name, b in columns.items():
            if name.lower() == col.lower():
                taken |= b
        row.columns[col] &= ~taken
        if not row.columns[col]:
            del row.columns[col]
    if row.empty:
        del t.tables[(row.user, row.host.lower(), row.db, row.table.lower())]


# for routinegrants.py
read_privileges = _read_privileges
read_grantees = _grantees
grantee_account = _grantee_account
