"""Privileges as MariaDB 10.11 has them: the privilege bits, the levels they live at, and the
errors a denied statement gets. The rules of the whole privilege system are stated here; the
modules that implement them say which rule they carry out.

The grant tables (MariaDB's mysql schema; ours live in one file, aclfile.py):
- mysql.global_priv: one row per account ('user'@'host-pattern') or role (host ''): the
  authentication plugin and string, the global privileges as a bit mask (`access`, the bit
  values below, which are MariaDB's privilege_t), the TLS requirement (REQUIRE SSL / X509 /
  ISSUER / SUBJECT / CIPHER), the resource limits (MAX_USER_CONNECTIONS, MAX_QUERIES_PER_HOUR...),
  ACCOUNT LOCK, the default role. mysql.user is MariaDB's view of it.
- mysql.db: (host, db pattern, user) -> database privileges. The db may hold % and _ wildcards.
- mysql.tables_priv: (host, db, user, table) -> table privileges, plus the union of the column
  privileges granted on that table (Column_priv).
- mysql.columns_priv: (host, db, user, table, column) -> SELECT / INSERT / UPDATE / REFERENCES.
- mysql.roles_mapping: (grantee user, grantee host, role, admin option). A role's grantee may be
  a role; cycles are refused (1961).
accounts.py, grants.py and aclfile.py keep these; mysqldb.py shows them as the `mysql` database
(read-only: a write is 1036, because the file, not those tables, is the truth).

Levels (MariaDB's GLOBAL_ACLS / DB_ACLS / TABLE_ACLS / COL_ACLS, below): a privilege granted at a
level where it has no meaning is 1221 ("Incorrect usage of DB GRANT and GLOBAL PRIVILEGES") at
database level and 1144 at table and column level. ALL [PRIVILEGES] means every privilege of
the level except GRANT OPTION; USAGE means none.

Which account a client is (accounts.py): the accounts are sorted as MariaDB sorts acl_users -
by host first (an exact host or IP, then patterns by how late their first wildcard comes, then
'%', then ''), then by user (a named user before the anonymous ''), ties broken by the host text
in descending order (so 'localhost' before '127.0.0.1') - and the first whose user and host
match is the account. So ''@'localhost' beats 'app'@'%' for a local client, as in MariaDB.
Loopback addresses and the unix socket match 'localhost'. CURRENT_USER() is that account
('user@host-pattern'); USER() is the name the client gave and its address.

What a statement needs (required.py), computed from the scanned statement and, for DML, from
the engine's plan (EngineSession.access: per table, whether rows are read, inserted, updated or
deleted, and which columns each way):
- SELECT: SELECT on every table read and on every column referenced; `*` needs SELECT on every
  column of the table. INSERT: INSERT on the table (or on each listed column); ON DUPLICATE KEY
  UPDATE also UPDATE on the inserted and the updated columns; REPLACE also DELETE. UPDATE:
  UPDATE on the SET columns, SELECT on the columns read. DELETE: DELETE, SELECT on columns read.
- CREATE TABLE: CREATE (+ SELECT on a LIKE source, + INSERT with AS SELECT); DROP TABLE and
  TRUNCATE: DROP; ALTER TABLE: ALTER (+ DROP on the old and CREATE, INSERT on the new name when
  it renames); RENAME TABLE: ALTER, DROP on the old, CREATE, INSERT on the new; CREATE / DROP
  INDEX: INDEX; CREATE VIEW: CREATE VIEW (+ DROP with OR REPLACE); DROP VIEW: DROP; ANALYZE /
  OPTIMIZE / REPAIR: SELECT, INSERT; CHECK: SELECT. CREATE / DROP DATABASE: CREATE / DROP on the
  database (1044, never 1142). LOCK TABLES: LOCK TABLES on the database and SELECT on each
  table. CREATE TEMPORARY TABLE: CREATE TEMPORARY TABLES on the database.
- USE db, COM_INIT_DB and the database of the handshake: any privilege in that database (a
  database grant, or a table or column grant on one of its tables), else 1044.
- DESCRIBE / SHOW COLUMNS / SHOW INDEX / COM_FIELD_LIST: any privilege on the table (1142
  "SELECT command denied"); SHOW CREATE TABLE: the same, but 1142 says "SHOW command denied".
  SHOW TABLES / SHOW TABLE STATUS: any privilege in the database (1044), listing only tables
  the account has a privilege on.
- Server statements: FLUSH needs RELOAD; SHUTDOWN needs SHUTDOWN; SET GLOBAL needs SUPER, or
  one of SUPER / CONNECTION ADMIN for the connection and thread-pool variables (thread_pool_*,
  max_connections, connect_timeout, init_connect, extra_max_connections), READ_ONLY ADMIN for
  read_only; SHOW MASTER / BINARY status needs SUPER or BINLOG MONITOR, SHOW SLAVE / REPLICA
  status SUPER or SLAVE MONITOR; SHOW ENGINE ... STATUS PROCESS; CREATE / DROP / RENAME / ALTER
  USER and CREATE / DROP ROLE need CREATE USER; SET PASSWORD FOR another account and SHOW GRANTS
  FOR / SHOW CREATE USER of another account need UPDATE / SELECT on the mysql database (1044).

The order of checks and the error each gives (MariaDB's check_access, then check_grant, then
the column checks; texts measured on 10.11.19):
1. Global level first: the session's global privileges (cached, see below) hold every wanted
   bit -> allowed. A wanted bit that exists only at global level and is missing -> 1227 "Access
   denied; you need (at least one of) the X privilege(s) for this operation" (several names
   when MariaDB accepts any of them: "SUPER, CONNECTION ADMIN"); a GRANT / REVOKE at global
   level by an account without the bits or GRANT OPTION -> 1045 "Access denied for user
   'u'@'host-pattern' (using password: YES|NO)".
2. Database level: global | database privileges hold the bits -> allowed. For a statement about
   a database (CREATE / DROP DATABASE, USE, LOCK TABLES, CREATE TEMPORARY TABLE, a database-level
   GRANT) a miss is 1044 "Access denied for user 'u'@'host-pattern' to database 'd'". A database
   grant is found as MariaDB's acl_get finds it: the first matching row in sort order (host,
   then db, then user specificity), not the union of all matching rows.
3. Table level: for a statement about tables, the table grant adds its table bits and the
   union of its column bits. Bits still missing -> 1142 "SELECT, GRANT command denied to user
   'u'@'client-host' for table `d`.`t`", naming the missing privileges in bit order; the user
   part is the account's name but the host is the client's address (MariaDB prints
   host_or_ip there, and priv_host in 1044). A table that does not exist gets 1142 too when the
   account has no database-level privilege on it, so privileges do not reveal which tables
   exist.
4. Column level: a column whose privilege comes neither from the table level nor from its own
   column grant -> 1143 "SELECT command denied to user 'u'@'client-host' for column 'b' in
   table 't'". `SELECT *` over a table with only some columns granted is 1142 for the table.

When grants take effect (measured on 10.11.19, and MariaDB's manual says the same):
- Table and column privileges: at once, for every session (each check reads the tables).
- Database privileges: at once, except for the session's current database, whose privileges are
  read at USE (and at login) and kept until the next USE.
- Global privileges, and the active role's global privileges: at the next login (or SET ROLE,
  COM_CHANGE_USER). A session whose global privileges were revoked keeps them until it
  reconnects: KILL it to cut it off at once.
- Passwords, TLS requirements, ACCOUNT LOCK and limits: at the next login.

Roles: a role is a global_priv row with host '' and is_role. GRANT role TO user makes the role
available; SET ROLE r (checked: the role must be granted to the account directly, else 1959)
or SET DEFAULT ROLE (applied at login) activates it. While a role is active the session's
privileges are its own OR the role's, where a role's privileges are its own grants OR those of
the roles granted to it, recursively (MariaDB's propagate_role_grants); one role is active at
a time. CREATE ROLE grants the new role to its creator WITH ADMIN OPTION (or to WITH ADMIN
user); granting or revoking a role needs that admin option or CREATE USER (else 1698).
The role PUBLIC (grants.PUBLIC), when it exists, is held by every account at all times: its
privileges (and those of the roles granted to it) are OR'ed in as an active role's are.

Filtering: SHOW DATABASES and information_schema.SCHEMATA list what the account has a privilege
in (everything with SHOW DATABASES or any global database-level privilege); SHOW TABLES and
information_schema.TABLES / COLUMNS / STATISTICS list only tables (and columns) the account
has a privilege on; SHOW PROCESSLIST and information_schema.PROCESSLIST / THREAD_POOL_QUEUES
show other users' threads only with PROCESS; KILL of a thread of another user needs SUPER or
CONNECTION ADMIN (1095 "You are not owner of thread N").

Login (commands.py on_authenticated, after the password): ACCOUNT LOCK -> 4151; REQUIRE SSL
over plain TCP, REQUIRE X509 without a verified client certificate -> 1045; more sessions than
MAX_USER_CONNECTIONS -> 1226, than the global max_user_connections -> 1203; an initial database
without privileges in it -> 1044; the extra max_connections slot is for SUPER / CONNECTION ADMIN.

--skip-grant-tables: every login is accepted as root would be and nothing is checked, for
recovery; FLUSH PRIVILEGES then loads the grant file and turns checking on (MariaDB's way to
reset a lost root password). A grant file that cannot be read stops the server at start with
a message naming the file, never a server that starts open.

This module is the vocabulary (bits, names, levels, the error constructors); it imports only
errors.
"""

from __future__ import annotations

from rampmeter import errors
from rampmeter.errors import ServerError


class Priv:
    """MariaDB 10.11's privilege_t bits (sql/privilege.h), the `access` of mysql.global_priv.
    Plain ints, not an IntFlag: every statement of a checked account does a few of these
    operations, and IntFlag arithmetic costs a microsecond each."""

    SELECT = 1 << 0
    INSERT = 1 << 1
    UPDATE = 1 << 2
    DELETE = 1 << 3
    CREATE = 1 << 4
    DROP = 1 << 5
    RELOAD = 1 << 6
    SHUTDOWN = 1 << 7
    PROCESS = 1 << 8
    FILE = 1 << 9
    GRANT = 1 << 10
    REFERENCES = 1 << 11
    INDEX = 1 << 12
    ALTER = 1 << 13
    SHOW_DB = 1 << 14
    SUPER = 1 << 15
    CREATE_TMP = 1 << 16
    LOCK_TABLES = 1 << 17
    EXECUTE = 1 << 18
    REPL_SLAVE = 1 << 19
    BINLOG_MONITOR = 1 << 20
    CREATE_VIEW = 1 << 21
    SHOW_VIEW = 1 << 22
    CREATE_PROC = 1 << 23
    ALTER_PROC = 1 << 24
    CREATE_USER = 1 << 25
    EVENT = 1 << 26
    TRIGGER = 1 << 27
    CREATE_TABLESPACE = 1 << 28
    DELETE_HISTORY = 1 << 29
    SET_USER = 1 << 30
    FEDERATED_ADMIN = 1 << 31
    CONNECTION_ADMIN = 1 << 32
    READ_ONLY_ADMIN = 1 << 33
    REPL_SLAVE_ADMIN = 1 << 34
    REPL_MASTER_ADMIN = 1 << 35
    BINLOG_ADMIN = 1 << 36
    BINLOG_REPLAY = 1 << 37
    SLAVE_MONITOR = 1 << 38


P = Priv
NONE = 0
# Every bit of 10.11 (MariaDB stores ALL as 2^64-1 for root; as these bits for ALL PRIVILEGES).
GLOBAL_ACLS = (1 << 39) - 1
ALL_BITS = GLOBAL_ACLS

# The privilege bits each MariaDB version knew, for global_priv rows written by an older one:
# 10.3.4 ended at DELETE HISTORY, 10.5.2 at BINLOG REPLAY, 10.5.8 (and 10.5.9) at SLAVE MONITOR.
_KNOWN_100304 = (int(P.DELETE_HISTORY) << 1) - 1
_KNOWN_100502 = (int(P.BINLOG_REPLAY) << 1) - 1
_KNOWN_100508 = (int(P.SLAVE_MONITOR) << 1) - 1
# What 10.5.2 split out of SUPER: an account that had SUPER before keeps being able to do it.
_SUPER_SPLIT = int(P.SET_USER | P.FEDERATED_ADMIN | P.CONNECTION_ADMIN | P.READ_ONLY_ADMIN |
                   P.REPL_SLAVE_ADMIN | P.BINLOG_ADMIN | P.BINLOG_REPLAY)


def stored_access(access: int, version_id: int) -> int | None:
    """The global privileges of a mysql.global_priv `access` written by the server version
    `version_id` (0: not recorded), upgraded as MariaDB 10.11 reads them (sql_acl.cc,
    User_table_json::get_access): ALL of an older version stays ALL, SUPER keeps what was split
    out of it, REPLICATION SLAVE ADMIN (and before 10.5.2 BINLOG MONITOR or REPLICATION SLAVE)
    brings SLAVE MONITOR. None: the row is unreadable (a version MariaDB rejects, or bits that
    version did not have), which MariaDB loads as no privileges with a warning."""
    if access == (1 << 64) - 1:  # how mysql_system_tables_data.sql spells root's ALL
        return GLOBAL_ACLS
    if version_id < 0 or version_id > 999999 or 0 < version_id < 100400:
        return None
    mask, upgraded = _KNOWN_100304, access
    if version_id >= 100509:
        mask = _KNOWN_100508
    elif version_id >= 100502:  # SLAVE MONITOR came in 10.5.9 (and 10.5.8-5): bring it
        mask = _KNOWN_100508 if version_id >= 100508 else _KNOWN_100502
        if access & P.REPL_SLAVE_ADMIN:
            upgraded |= P.SLAVE_MONITOR
    else:
        if access & P.SUPER:
            if access & P.REPL_SLAVE:
                upgraded |= P.REPL_MASTER_ADMIN
            upgraded |= _SUPER_SPLIT
        if access & (P.BINLOG_MONITOR | P.REPL_SLAVE):
            upgraded |= P.SLAVE_MONITOR
    if access & ~mask:
        return None
    return upgraded & GLOBAL_ACLS
DB_ACLS = int(P.SELECT | P.INSERT | P.UPDATE | P.DELETE | P.CREATE | P.DROP | P.GRANT |
              P.REFERENCES | P.INDEX | P.ALTER | P.CREATE_TMP | P.LOCK_TABLES | P.EXECUTE |
              P.CREATE_VIEW | P.SHOW_VIEW | P.CREATE_PROC | P.ALTER_PROC | P.EVENT | P.TRIGGER |
              P.DELETE_HISTORY)
TABLE_ACLS = int(P.SELECT | P.INSERT | P.UPDATE | P.DELETE | P.CREATE | P.DROP | P.GRANT |
                 P.REFERENCES | P.INDEX | P.ALTER | P.CREATE_VIEW | P.SHOW_VIEW | P.TRIGGER |
                 P.DELETE_HISTORY)
COL_ACLS = int(P.SELECT | P.INSERT | P.UPDATE | P.REFERENCES)
# Who may kill other users' threads, skip init_connect and take the extra connection slot.
ADMIN_ACLS = int(P.SUPER | P.CONNECTION_ADMIN)

# The names SHOW GRANTS prints and error messages list, in bit order (MariaDB's command_array).
NAMES: dict[int, str] = {
    P.SELECT: "SELECT", P.INSERT: "INSERT", P.UPDATE: "UPDATE", P.DELETE: "DELETE",
    P.CREATE: "CREATE", P.DROP: "DROP", P.RELOAD: "RELOAD", P.SHUTDOWN: "SHUTDOWN",
    P.PROCESS: "PROCESS", P.FILE: "FILE", P.GRANT: "GRANT", P.REFERENCES: "REFERENCES",
    P.INDEX: "INDEX", P.ALTER: "ALTER", P.SHOW_DB: "SHOW DATABASES", P.SUPER: "SUPER",
    P.CREATE_TMP: "CREATE TEMPORARY TABLES", P.LOCK_TABLES: "LOCK TABLES",
    P.EXECUTE: "EXECUTE", P.REPL_SLAVE: "REPLICATION SLAVE",
    P.BINLOG_MONITOR: "BINLOG MONITOR", P.CREATE_VIEW: "CREATE VIEW", P.SHOW_VIEW: "SHOW VIEW",
    P.CREATE_PROC: "CREATE ROUTINE", P.ALTER_PROC: "ALTER ROUTINE",
    P.CREATE_USER: "CREATE USER", P.EVENT: "EVENT", P.TRIGGER: "TRIGGER",
    P.CREATE_TABLESPACE: "CREATE TABLESPACE", P.DELETE_HISTORY: "DELETE HISTORY",
    P.SET_USER: "SET USER", P.FEDERATED_ADMIN: "FEDERATED ADMIN",
    P.CONNECTION_ADMIN: "CONNECTION ADMIN", P.READ_ONLY_ADMIN: "READ_ONLY ADMIN",
    P.REPL_SLAVE_ADMIN: "REPLICATION SLAVE ADMIN",
    P.REPL_MASTER_ADMIN: "REPLICATION MASTER ADMIN", P.BINLOG_ADMIN: "BINLOG ADMIN",
    P.BINLOG_REPLAY: "BINLOG REPLAY", P.SLAVE_MONITOR: "SLAVE MONITOR",
}
BITS_IN_ORDER = sorted(NAMES)

# Spellings GRANT accepts (the grammar's words, joined by one space) -> bits. GRANT OPTION,
# ALL and USAGE are handled by the statement reader.
BY_NAME: dict[str, int] = {name: bit for bit, name in NAMES.items() if bit != P.GRANT}
BY_NAME.update({
    "REPLICATION CLIENT": P.BINLOG_MONITOR, "REPLICA MONITOR": P.SLAVE_MONITOR,
    "REPLICATION REPLICA": P.REPL_SLAVE, "REPLICA": P.REPL_SLAVE,
    "DELETE VERSIONING ROWS": P.DELETE_HISTORY,
    "REPLICATION REPLICA ADMIN": P.REPL_SLAVE_ADMIN, "READ ONLY ADMIN": P.READ_ONLY_ADMIN,
})

# mysql.tables_priv's SET values for table and column privileges (its column spellings).
TABLE_SET_NAMES: dict[int, str] = {
    P.SELECT: "Select", P.INSERT: "Insert", P.UPDATE: "Update", P.DELETE: "Delete",
    P.CREATE: "Create", P.DROP: "Drop", P.GRANT: "Grant", P.REFERENCES: "References",
    P.INDEX: "Index", P.ALTER: "Alter", P.CREATE_VIEW: "Create View", P.SHOW_VIEW: "Show view",
    P.TRIGGER: "Trigger", P.DELETE_HISTORY: "Delete versioning rows",
}


def names(bits: int) -> list[str]:
    """The names of `bits`, in bit order."""
    return [NAMES[b] for b in BITS_IN_ORDER if bits & b]


# what a grant on one routine may hold (mysql.procs_priv.Proc_priv)
PROC_ACLS = int(P.EXECUTE | P.ALTER_PROC | P.GRANT)


def set_text(bits: int, spellings: dict[int, str] = TABLE_SET_NAMES) -> str:
    """bits as a MySQL SET value ('Select,Insert') in the order of the SET's members."""
    return ",".join(name for b, name in spellings.items() if bits & b)


def quote_ident(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


# --- the errors of a denied statement (module rules: "The order of checks") ------------------

def denied_global(*alternatives: int) -> ServerError:
    """1227, naming the privileges any one of which would do ("SUPER, CONNECTION ADMIN")."""
    return ServerError(errors.ER_SPECIFIC_ACCESS_DENIED_ERROR,
                       ", ".join(NAMES[b] for b in alternatives))


def denied_login_style(user: str, priv_host: str, with_password: bool) -> ServerError:
    """1045 as a statement error (a global GRANT / REVOKE without the privilege)."""
    return ServerError(errors.ER_ACCESS_DENIED_ERROR, user, priv_host,
                       "YES" if with_password else "NO")


def denied_db(user: str, priv_host: str, db: str) -> ServerError:
    return ServerError(errors.ER_DBACCESS_DENIED_ERROR, user, priv_host, db)


def denied_table(missing: int, user: str, client_host: str, db: str, table: str, *,
                 command: str | None = None) -> ServerError:
    what = command or ", ".join(names(missing))
    return ServerError(errors.ER_TABLEACCESS_DENIED_ERROR, what, user, client_host,
                       f"{quote_ident(db)}.{quote_ident(table)}")


def denied_column(bit: int, user: str, client_host: str, column: str,
                  table: str) -> ServerError:
    return ServerError(errors.ER_COLUMNACCESS_DENIED_ERROR, NAMES[bit], user, client_host,
                       column, table)


# --- SET GLOBAL (MariaDB 10.11's sys_var privileges, measured: the 1227 texts name these) -----
_CONNECTION_VARIABLES = frozenset({
    "connect_timeout", "disconnect_on_expired_password", "extra_max_connections",
    "init_connect", "max_connect_errors", "max_connections", "max_password_errors",
    "proxy_protocol_networks", "secure_auth", "slow_launch_time", "thread_handling",
})


def set_global_privileges(name: str) -> tuple[int, ...]:
    """The privileges any one of which lets SET GLOBAL change variable `name`."""
    if name.startswith("thread_pool_") or name in _CONNECTION_VARIABLES:
        return (P.SUPER, P.CONNECTION_ADMIN)
    if name == "read_only":
        return (P.READ_ONLY_ADMIN,)
    return (P.SUPER,)


# The columns of mysql.db, in MariaDB's order, with the privilege each holds (mysqldb.py
# shows them, grantedit.py reads them back at FLUSH PRIVILEGES).
DB_PRIV_COLUMNS = (("Select", P.SELECT), ("Insert", P.INSERT), ("Update", P.UPDATE),
                   ("Delete", P.DELETE), ("Create", P.CREATE), ("Drop", P.DROP), ("Grant", P.GRANT),
                   ("References", P.REFERENCES), ("Index", P.INDEX), ("Alter", P.ALTER),
                   ("Create_tmp_table", P.CREATE_TMP), ("Lock_tables", P.LOCK_TABLES),
                   ("Create_view", P.CREATE_VIEW), ("Show_view", P.SHOW_VIEW),
                   ("Create_routine", P.CREATE_PROC), ("Alter_routine", P.ALTER_PROC),
                   ("Execute", P.EXECUTE), ("Event", P.EVENT), ("Trigger", P.TRIGGER),
                   ("Delete_history", P.DELETE_HISTORY))
