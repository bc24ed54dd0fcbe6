"""The grant tables in memory: accounts and roles, database, table and column grants, role
mappings (privileges.py states what each means). Pure data: no I/O, no locks.

Rules:
- A `GrantTables` is a snapshot. Readers (every privilege check) use the one they hold without
  locking; a change copies the snapshot, changes the copy and, once the copy is on disk
  (aclstore.py), makes it the current one. `version` grows with every change, so a session can
  cache what it computed from a snapshot.
- Keys compare as MariaDB compares them: user and database names exactly (lower_case_table_names
  is 0), hosts, table and column names without regard to case (rampmeter's tables are found
  without regard to case, so a grant on `T` must be the grant on `t`).
- Database grants are found as acl_get finds them: the first row in get_sort(host, db, user)
  order whose user, host and database pattern match (MariaDB, privileges.py rule 2). Table
  grants: the row for that user, database and table whose host matches best.
- A role's privileges are its own OR those of every role granted to it, recursively; cycles
  cannot be stored (GRANT refuses them with 1961).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from rampmeter.session.accounts import (
    Account,
    find_login,
    get_sort,
    host_matches,
    sort_accounts,
    wildcard_regex,
)
from rampmeter.session.granthash import TableOrder, in_order


@dataclass
class DbGrant:
    """A row of mysql.db: privileges on the databases matching `db` (which may hold wildcards)."""

    user: str
    host: str
    db: str
    access: int

    @property
    def sort(self) -> int:
        return get_sort(self.host, self.db, self.user)


@dataclass
class TableGrant:
    """A row of mysql.tables_priv with its mysql.columns_priv rows."""

    user: str
    host: str
    db: str
    table: str
    access: int = 0                                  # table-level privileges
    columns: dict[str, int] = field(default_factory=dict)   # column -> privileges
    grantor: str = ""

    @property
    def column_access(self) -> int:
        bits = 0
        for b in self.columns.values():
            bits |= b
        return bits

    def column(self, name: str) -> int:
        bits = self.columns.get(name)
        if bits is not None:
            return bits
        low = name.lower()
        for col, b in self.columns.items():
            if col.lower() == low:
                return b
        return 0

    @property
    def empty(self) -> bool:
        return not self.access and not any(self.columns.values())


@dataclass
class RoleGrant:
    """A row of mysql.roles_mapping: `role` granted to user@host (host '' for a role)."""

    user: str
    host: str
    role: str
    admin: bool = False


@dataclass
class RoutineGrant:
    """A row of mysql.procs_priv: EXECUTE / ALTER ROUTINE (and GRANT) on one routine."""

    user: str
    host: str
    db: str
    name: str
    kind: str                # "PROCEDURE" | "FUNCTION"
    access: int = 0
    grantor: str = ""


def rkey(user: str, host: str, db: str, kind: str, name: str) -> tuple[str, str, str, str, str]:
    """A routine grant's key: routine names are compared without regard to case."""
    return (user, host.lower(), db, kind, name.lower())


@dataclass(frozen=True, slots=True)
class TableAccessBits:
    """What one account (with its role) has on one table."""

    table: int = 0      # table-level bits (database and global bits not included)
    columns: int = 0    # union of the column grants
    column_map: tuple[tuple[str, int], ...] = ()

    def column(self, name: str) -> int:
        low = name.lower()
        bits = 0
        for col, b in self.column_map:
            if col.lower() == low:
                bits |= b
        return bits


# MariaDB 10.11's PUBLIC (MDEV-5215): a role every account holds without SET ROLE. It is
# the grantee PUBLIC written without a host (any case); PUBLIC@host is an ordinary account.
# GRANT ... TO PUBLIC creates it (mysql.global_priv: '', 'PUBLIC', a role); it cannot be
# granted, revoked, set, dropped or named as a definer (1959 / 1396).
PUBLIC = "PUBLIC"


def is_public(name: str, host_given: bool) -> bool:
    return not host_given and name.upper() == PUBLIC


def db_matches(pattern: str, db: str) -> bool:
    return pattern == db or bool(wildcard_regex(pattern, ignore_case=False).match(db))


def _tkey(user: str, host: str, db: str, table: str) -> tuple[str, str, str, str]:
    return (user, host.lower(), db, table.lower())


class GrantTables:
    def __init__(self) -> None:
        self.version = 0
        self.accounts: dict[tuple[str, str], Account] = {}
        self.dbs: list[DbGrant] = []          # kept in acl_get order (see `_sort_dbs`)
        self.tables: dict[tuple[str, str, str, str], TableGrant] = {}
        self.roles: list[RoleGrant] = []
        self.routines: dict[tuple[str, str, str, str, str], RoutineGrant] = {}
        self.table_order = TableOrder()  # MariaDB's column_priv_hash order (granthash.py)
        self._ordered: list[Account] | None = None
        self._closure: dict[str, frozenset[str]] = {}

    def copy(self) -> GrantTables:
        new = GrantTables()
        new.version = self.version + 1
        new.accounts = {k: copy.deepcopy(v) for k, v in self.accounts.items()}
        new.dbs = [copy.copy(d) for d in self.dbs]
        new.tables = {k: copy.deepcopy(v) for k, v in self.tables.items()}
        new.roles = [copy.copy(r) for r in self.roles]
        new.routines = {k: copy.copy(g) for k, g in self.routines.items()}
        new.table_order = self.table_order.copy()
        return new

    def changed(self) -> None:
        """Forget what was derived from the rows (after a change to this copy)."""
        self._ordered = None
        self._closure = {}
        self._sort_dbs()
        self.table_order.sync(self.tables)

    def loaded(self) -> None:
        """The grants were read anew (start, FLUSH PRIVILEGES): the table grants' order is
        the one MariaDB's grant_load gives (granthash.py)."""
        self.table_order.load(self.tables)
        self.changed()

    def _sort_dbs(self) -> None:
        self.dbs.sort(key=lambda d: d.sort, reverse=True)

    # --- accounts -------------------------------------------------------------------------
    def account(self, user: str, host: str) -> Account | None:
        return self.accounts.get((user, host.lower()))

    def role(self, name: str) -> Account | None:
        acct = self.accounts.get((name, ""))
        return acct if acct is not None and acct.is_role else None

    def login(self, user: str, host: str) -> Account | None:
        if self._ordered is None:
            self._ordered = sort_accounts(list(self.accounts.values()))
        return find_login(self._ordered, user, host)

    def users(self) -> Iterator[Account]:
        return (a for a in self.accounts.values() if not a.is_role)

    # --- database grants ------------------------------------------------------------------
    def db_row(self, user: str, host: str, db: str) -> DbGrant | None:
        """The exact row GRANT ... ON db.* TO user@host writes."""
        for d in self.dbs:
            if d.user == user and d.host.lower() == host.lower() and d.db == db:
                return d
        return None

    def db_access(self, user: str, client_host: str, db: str) -> int:
        """acl_get: the first matching row's privileges (module rules)."""
        for d in self.dbs:
            if (d.user == user or d.user == "") and d.host != "" and \
                    host_matches(d.host, client_host) and db_matches(d.db, db):
                return d.access
        return 0

    def role_db_access(self, role: str | None, db: str) -> int:
        bits = 0
        for name in self.with_public(role):
            for d in self.dbs:
                if d.user == name and d.host == "" and db_matches(d.db, db):
                    bits |= d.access
                    break
        return bits

    def any_db_rows(self, user: str, client_host: str) -> Iterator[DbGrant]:
        return (d for d in self.dbs if (d.user == user or d.user == "") and d.host != ""
                and host_matches(d.host, client_host))

    # --- table grants ---------------------------------------------------------------------
    def table_row(self, user: str, host: str, db: str, table: str) -> TableGrant | None:
        return self.tables.get(_tkey(user, host, db, table))

    def table_grant(self, user: str, client_host: str, db: str, table: str) -> TableGrant | None:
        """The user's grant on db.table whose host matches the client best."""
        best: TableGrant | None = None
        low = table.lower()
        for (u, _h, d, t), g in self.tables.items():
            if u == user and d == db and t == low and g.host != "" and \
                    host_matches(g.host, client_host):
                if best is None or get_sort(g.host) > get_sort(best.host):
                    best = g
        return best

    def table_bits(self, user: str, client_host: str, role: str | None, db: str,
                   table: str) -> TableAccessBits:
        grants: list[TableGrant] = []
        g = self.table_grant(user, client_host, db, table)
        if g is not None:
            grants.append(g)
        for name in self.with_public(role):
            rg = self.tables.get(_tkey(name, "", db, table))
            if rg is not None:
                grants.append(rg)
        tbits = cbits = 0
        cols: list[tuple[str, int]] = []
        for gr in grants:
            tbits |= gr.access
            cbits |= gr.column_access
            cols.extend(gr.columns.items())
        return TableAccessBits(tbits, cbits, tuple(cols))

    def tables_in(self, user: str, client_host: str, role: str | None,
                  db: str) -> Iterator[TableGrant]:
        """Every table grant in `db` that applies to this account or its role."""
        names = self.with_public(role)
        for (u, _h, d, _t), g in self.tables.items():
            if d != db or g.empty:
                continue
            if u == user and g.host != "" and host_matches(g.host, client_host) or \
                    g.host == "" and u in names:
                yield g

    # --- routine grants -------------------------------------------------------------------
    def routine_bits(self, user: str, client_host: str, role: str | None, db: str, kind: str,
                     name: str) -> int:
        """What the account (with its role and PUBLIC) was granted on one routine."""
        bits = 0
        low = name.lower()
        names = self.with_public(role)
        for (u, _h, d, k, n), g in self.routines.items():
            if d != db or k != kind or n != low:
                continue
            if u == user and g.host != "" and host_matches(g.host, client_host) or \
                    g.host == "" and u in names:
                bits |= g.access
        return bits

    def any_routine_grant(self, user: str, client_host: str, role: str | None,
                          db: str) -> bool:
        names = self.with_public(role)
        return any(g.db == db and g.access and (
            g.user == user and g.host != "" and host_matches(g.host, client_host) or
            g.host == "" and g.user in names) for g in self.routines.values())

    def routines_of(self, user: str, host: str) -> list[RoutineGrant]:
        h = host.lower()
        return [g for g in self.routines.values() if g.user == user and g.host.lower() == h]

    # --- roles ----------------------------------------------------------------------------
    def granted_roles(self, user: str, host: str) -> list[RoleGrant]:
        h = host.lower()
        return [r for r in self.roles if r.user == user and r.host.lower() == h]

    def role_grant(self, user: str, host: str, role: str) -> RoleGrant | None:
        h = host.lower()
        for r in self.roles:
            if r.user == user and r.host.lower() == h and r.role == role:
                return r
        return None

    def role_closure(self, role: str | None) -> frozenset[str]:
        """The role and every role granted to it, recursively."""
        if not role:
            return frozenset()
        cached = self._closure.get(role)
        if cached is not None:
            return cached
        seen: set[str] = set()
        todo = [role]
        while todo:
            name = todo.pop()
            if name in seen or self.role(name) is None:
                continue
            seen.add(name)
            todo.extend(r.role for r in self.roles if r.user == name and r.host == "")
        result = frozenset(seen)
        self._closure[role] = result
        return result

    def with_public(self, role: str | None) -> frozenset[str]:
        """The roles whose privileges a session with active role `role` (None: none) has:
        that role's closure and PUBLIC's, which every account holds."""
        if self.role(PUBLIC) is None:
            return self.role_closure(role)
        return self.role_closure(role) | self.role_closure(PUBLIC)

    def role_global_access(self, role: str | None) -> int:
        bits = 0
        for name in self.with_public(role):
            acct = self.role(name)
            if acct is not None:
                bits |= acct.access
        return bits

    # --- removal --------------------------------------------------------------------------
    def drop_account(self, user: str, host: str) -> None:
        """The account and every row that names it (MariaDB's DROP USER / DROP ROLE)."""
        h = host.lower()
        acct = self.accounts.pop((user, h), None)
        self.dbs = [d for d in self.dbs if not (d.user == user and d.host.lower() == h)]
        self.tables = {k: g for k, g in self.tables.items()
                       if not (g.user == user and g.host.lower() == h)}
        self.roles = [r for r in self.roles if not (r.user == user and r.host.lower() == h)]
        self.routines = {k: g for k, g in self.routines.items()
                         if not (g.user == user and g.host.lower() == h)}
        if acct is not None and acct.is_role:
            self.roles = [r for r in self.roles if r.role != user]
            for a in self.accounts.values():
                if a.default_role == user:
                    a.default_role = ""
        self.changed()

    def rows_of(self, user: str, host: str) -> tuple[list[DbGrant], list[TableGrant]]:
        h = host.lower()
        return ([d for d in self.dbs if d.user == user and d.host.lower() == h],
                [g for g in in_order(self.table_order, self.tables)
                 if g.user == user and g.host.lower() == h])


def merge_columns(into: dict[str, int], columns: Iterable[tuple[str, int]]) -> None:
    for col, bits in columns:
        existing = next((c for c in into if c.lower() == col.lower()), None)
        if existing is None:
            into[col] = bits
        else:
            into[existing] |= bits
