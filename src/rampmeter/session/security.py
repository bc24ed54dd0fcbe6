"""One session's security context (MariaDB's Security_context): who it is, what it may do, and
the checks of privileges.py's rules 1-4, in that order.

Rules:
- Made at login (and COM_CHANGE_USER) from the account the client authenticated as. The global
  privileges (the account's, OR its active role's) are read then and kept until the next login
  or SET ROLE; the current database's privileges are read at USE and kept until the next USE;
  table and column privileges are read from the current grant snapshot on every check (cached
  per snapshot version). That is MariaDB's "when grants take effect" (privileges.py).
- `unchecked` (--skip-grant-tables, or an account holding every privilege) answers every check
  with yes at the cost of one attribute test: root's statements pay nothing else.
- Errors name the account as MariaDB does: 1044 and 1045 say 'user'@'host-pattern', 1142 and
  1143 say 'user'@'client-address'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.errors import ServerError
from rampmeter.session.grants import GrantTables, TableAccessBits
from rampmeter.session.privileges import (
    ADMIN_ACLS,
    ALL_BITS,
    COL_ACLS,
    DB_ACLS,
    TABLE_ACLS,
    P,
    denied_column,
    denied_db,
    denied_global,
    denied_login_style,
    denied_table,
)

if TYPE_CHECKING:
    from rampmeter.session.accounts import Account
    from rampmeter.session.aclstore import AccountStore

INFORMATION_SCHEMA = "information_schema"


@dataclass(frozen=True, slots=True)
class TableNeed:
    """What a statement wants on one table (required.py builds these)."""

    db: str
    table: str
    bits: int = 0                                     # table-level privileges wanted
    columns: tuple[tuple[int, tuple[str, ...]], ...] = ()   # (privilege, columns needing it)
    star: tuple[str, ...] = ()                        # `*`: these columns all need SELECT
    any_privilege: bool = False                       # any privilege on the table will do
    table_level: bool = False                         # granted on the table, not a column
    command: str | None = None                        # the word 1142 names ("SHOW")
    via_view: str = ""                                # read by this SQL SECURITY INVOKER view


class SecurityContext:
    def __init__(self, store: AccountStore, *, user: str, host: str,
                 account: Account | None) -> None:
        self.store = store
        self.user = user                  # the name the client gave (USER())
        self.host = host                  # the client's address
        self.priv_user = account.user if account is not None else user
        self.priv_host = account.host if account is not None else "localhost"
        self.password_used = bool(account and account.auth_string)
        self.role: str | None = None
        # the account's global privileges and PUBLIC's (grants.PUBLIC)
        self.master = ALL_BITS if account is None else \
            account.access | store.tables.role_global_access(None)
        # (account key, (MAX_QUERIES_PER_HOUR, MAX_UPDATES_PER_HOUR)) when either is set
        self.hourly: tuple[tuple[str, str], tuple[int, int]] | None = None
        if account is not None and (account.max_questions or account.max_updates):
            self.hourly = (account.key, (account.max_questions, account.max_updates))
        self.unchecked = store.skip_grants or account is None
        self._db: str | None = None
        self._db_access = 0
        self._version = -1
        self._tables: dict[tuple[str, str], TableAccessBits] = {}
        self._refresh_unchecked()

    def _refresh_unchecked(self) -> None:
        self.unchecked = self.store.skip_grants or self.master & ALL_BITS == ALL_BITS

    @property
    def grants(self) -> GrantTables:
        return self.store.tables

    @property
    def current_user(self) -> str:
        return f"{self.priv_user}@{self.priv_host}"

    # --- roles ---------------------------------------------------------------------------
    def set_role(self, role: str | None) -> None:
        """SET ROLE role | NONE (checked by the caller); re-reads the global privileges."""
        tables = self.grants
        acct = tables.account(self.priv_user, self.priv_host)
        base = acct.access if acct is not None else 0
        self.role = role
        self.master = base | tables.role_global_access(role)
        self._refresh_unchecked()
        if self._db is not None:
            self._db_access = self._read_db_access(self._db)
        self._version = -1

    # --- databases -----------------------------------------------------------------------
    def _read_db_access(self, db: str) -> int:
        tables = self.grants
        bits = tables.db_access(self.priv_user, self.host, db)
        bits |= tables.role_db_access(self.role, db)  # the active role's and PUBLIC's
        return bits | self.master

    def db_bits(self, db: str) -> int:
        if db == self._db:
            return self._db_access
        return self._read_db_access(db)

    def check_use(self, db: str) -> int:
        """USE / COM_INIT_DB / the handshake's database: any privilege in it, else 1044.
        Returns the privileges to keep for it until the next USE (`set_db`)."""
        if self.unchecked or db.lower() == INFORMATION_SCHEMA:
            return ALL_BITS
        bits = DB_ACLS if self.master & DB_ACLS == DB_ACLS else self._read_db_access(db)
        if not bits & DB_ACLS and not self._any_table_grant(db):
            raise denied_db(self.priv_user, self.priv_host, db)
        return bits | self.master

    def set_db(self, db: str | None, bits: int = 0) -> None:
        self._db, self._db_access = db, bits

    def check_db(self, db: str, bits: int) -> None:
        """A statement about a database (CREATE / DROP DATABASE, LOCK TABLES...): 1044."""
        if self.unchecked or self.master & bits == bits:
            return
        if self.db_bits(db) & bits != bits:
            raise denied_db(self.priv_user, self.priv_host, db)

    def _any_table_grant(self, db: str) -> bool:
        """A table or routine grant in `db` (MariaDB's check_grant_db counts both)."""
        tables = self.grants
        if any(True for _ in tables.tables_in(self.priv_user, self.host, self.role, db)):
            return True
        return bool(tables.routines) and tables.any_routine_grant(self.priv_user, self.host,
                                                                  self.role, db)

    # --- global ---------------------------------------------------------------------------
    def has(self, bits: int) -> bool:
        return self.unchecked or self.master & bits == bits

    def has_any(self, bits: int) -> bool:
        return self.unchecked or bool(self.master & bits)

    def check_global(self, *alternatives: int) -> None:
        """Any one of `alternatives` (single privileges) will do; else 1227 naming them."""
        if self.unchecked or any(self.master & b for b in alternatives):
            return
        raise denied_global(*alternatives)

    def check_global_grant(self, bits: int) -> None:
        """GRANT / REVOKE at global level: the bits and GRANT OPTION, else 1045."""
        if self.unchecked or self.master & (bits | P.GRANT) == bits | P.GRANT:
            return
        raise denied_login_style(self.priv_user, self.priv_host, self.password_used)

    # --- tables ---------------------------------------------------------------------------
    def table_bits(self, db: str, table: str) -> TableAccessBits:
        tables = self.grants
        if tables.version != self._version:
            self._tables = {}
            self._version = tables.version
        key = (db, table.lower())
        found = self._tables.get(key)
        if found is None:
            found = tables.table_bits(self.priv_user, self.host, self.role, db, table)
            if len(self._tables) > 1024:
                self._tables = {}
            self._tables[key] = found
        return found

    def check_table(self, need: TableNeed) -> None:
        """Rules 2-4 of privileges.py for one table."""
        if self.unchecked or need.db.lower() == INFORMATION_SCHEMA:
            return
        have = self.db_bits(need.db)
        if need.any_privilege:
            # MariaDB's check_access(SELECT_ACL) then check_grant(any_combination_will_do):
            # at database level only SELECT will do (measured: a database's or a global
            # CREATE or INSERT alone is 1142 for SHOW COLUMNS and CREATE TABLE ... LIKE);
            # SHOW CREATE TABLE, CHECK TABLE and CREATE VIEW's precheck take any of them
            wide = need.table_level or need.command in ("CHECK TABLE", "ANY")
            if have & (TABLE_ACLS if wide else P.SELECT):
                return
            t = self.table_bits(need.db, need.table)
            if t.table or t.columns and not need.table_level:
                return
            raise self._table_error(P.SELECT, need)
        if have & need.bits == need.bits and all(have & bit for bit, _ in need.columns) and \
                (not need.star or have & P.SELECT):
            return
        t = self.table_bits(need.db, need.table)
        missing = need.bits & ~have & ~(t.table | (0 if need.table_level else t.columns))
        if missing:
            raise self._table_error(missing, need)
        cover = have | t.table
        if need.star and not cover & P.SELECT:
            if not all(t.column(c) & P.SELECT for c in need.star):
                raise self._table_error(P.SELECT, need)
        for bit, cols in need.columns:
            if cover & bit:
                continue
            for col in cols:
                if not t.column(col) & bit:
                    raise denied_column(bit, self.priv_user, self.host, col, need.table)

    def routine_bits(self, db: str, kind: str, name: str) -> int:
        """What the account (its role, PUBLIC) was granted on one routine (procs_priv)."""
        return self.grants.routine_bits(self.priv_user, self.host, self.role, db, kind, name)

    def table_level_bits(self, db: str, table: str) -> int:
        """What the account may do on a table, at any level (column grants count, as
        MariaDB's check_grant counts them); everything when checks are off."""
        if self.unchecked or db.lower() == INFORMATION_SCHEMA:
            return ALL_BITS
        t = self.table_bits(db, table)
        return self.db_bits(db) | t.table | t.columns

    def _table_error(self, missing: int, need: TableNeed) -> ServerError:
        return denied_table(missing, self.priv_user, self.host, need.db, need.table,
                            command=need.command)

    # --- what the account may see ----------------------------------------------------------
    def may_see_db(self, db: str) -> bool:
        if self.unchecked or db.lower() == INFORMATION_SCHEMA or \
                self.master & (DB_ACLS | P.SHOW_DB):
            return True
        return bool(self.db_bits(db) & DB_ACLS) or self._any_table_grant(db)

    def may_see_table(self, db: str, table: str) -> bool:
        if self.unchecked or db.lower() == INFORMATION_SCHEMA or \
                self.db_bits(db) & TABLE_ACLS:
            return True
        t = self.table_bits(db, table)
        return bool(t.table or t.columns)

    def may_see_column(self, db: str, table: str, column: str) -> bool:
        if self.unchecked or db.lower() == INFORMATION_SCHEMA or \
                self.db_bits(db) & TABLE_ACLS:
            return True
        t = self.table_bits(db, table)
        return bool(t.table & TABLE_ACLS or t.column(column))

    def column_bits(self, db: str, table: str, column: str) -> int:
        """What the account may do with one column (global | database | table | column)."""
        t = self.table_bits(db, table)
        return (self.db_bits(db) | t.table | t.column(column)) & COL_ACLS

    def may_see_threads_of(self, login_user: str | None) -> bool:
        """PROCESSLIST and the pool's queue: other users' threads need PROCESS (None: a
        connection still logging in, which no user matches)."""
        return self.unchecked or bool(self.master & P.PROCESS) or login_user == self.priv_user

    def may_kill(self, victim_login_user: str) -> bool:
        """KILL: one's own threads, or anyone's with SUPER / CONNECTION ADMIN (else 1095)."""
        return self.unchecked or bool(self.master & ADMIN_ACLS) or \
            victim_login_user == self.user

    def is_admin(self) -> bool:
        """SUPER or CONNECTION ADMIN: the extra connection slot, no init_connect."""
        return self.unchecked or bool(self.master & ADMIN_ACLS)


def unknown_role(name: str) -> ServerError:
    return ServerError(errors.ER_INVALID_ROLE, "`" + name.replace("`", "``") + "`")
