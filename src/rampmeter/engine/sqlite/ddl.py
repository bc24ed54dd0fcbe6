"""Schema statements: CREATE / DROP DATABASE, CREATE / DROP / ALTER / RENAME / TRUNCATE TABLE,
CREATE / DROP INDEX, CREATE / ALTER / DROP VIEW, and the table maintenance statements (ANALYZE,
OPTIMIZE, CHECK, REPAIR). The bigger rooms: create_table.py (and create_select.py), alter.py,
views.py, temporary.py; rebuild.py makes a table what its new definition says.

Rules:
- Each commits what is open first (MySQL's implicit commit) and changes the schema as one SQLite
  transaction under the write lock (txn.ddl), writing the table's `_rampmeter_tables` row in the
  same transaction, then moves the engine's schema version so cached plans are dropped. The
  foreign-key triggers of the tables it changes are made again in that transaction
  (fkcheck.maintained). CREATE / DROP of a temporary table take no lock and commit nothing.
- DROP TABLE drops a temporary table of that name first; of a list it drops what exists and
  reports the unknown names after (one 1051 or Note), and refuses (1451) a table another one
  still references while foreign_key_checks=1, going on with the rest, as MariaDB does.
  TRUNCATE of a referenced table is 1701 then.
- Database names are checked here (storage.valid_database_name): a name that is not valid text,
  or not a safe file name, is 1102 and never reaches the data directory.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.engine.base import Result, ResultSet, UpdateCount
from rampmeter.engine.sqlite import (
    autokey,
    catalog,
    checksum,
    dbopts,
    fkcheck,
    foreign,
    keys,
    rebuild,
    routines,
    slots,
    tableopts,
    temporary,
    triggers,
    views,
)
from rampmeter.engine.sqlite.alter import alter_table
from rampmeter.engine.sqlite.catalog import meta_delete_sql, meta_table_ddl, q
from rampmeter.engine.sqlite.create_table import create_table, limit_comments
from rampmeter.engine.sqlite.definitions import KeySpec, read_index_options, read_key_columns
from rampmeter.engine.sqlite.storage import VIRTUAL_SCHEMAS, valid_database_name
from rampmeter.errors import ServerError, Warning_
from rampmeter.protocol.columns import text_column
from rampmeter.sql import charclauses
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession


# --- CREATE ------------------------------------------------------------------------------------
def create(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt)
    r.expect("CREATE")
    or_replace = r.accept("OR", "REPLACE")
    if r.accept_any("DATABASE", "SCHEMA"):
        return _create_database(s, r, or_replace)
    temporary = r.accept("TEMPORARY")
    if r.accept("TABLE"):
        return create_table(s, r, or_replace=or_replace, temporary=temporary)
    unique = r.accept("UNIQUE")
    kind = r.accept_any("FULLTEXT", "SPATIAL")
    if r.accept("INDEX"):
        return _create_index(s, r, unique, kind, or_replace)
    if r.at("VIEW") or r.at("ALGORITHM") or r.at("DEFINER") or r.at("SQL"):
        return views.create(s, r, or_replace=or_replace)
    raise ServerError(errors.ER_NOT_SUPPORTED_YET, " ".join(stmt.words[:3]))


def _create_database(s: SqliteSession, r: Reader, or_replace: bool) -> Result:
    if_not_exists = r.accept("IF", "NOT", "EXISTS")
    if if_not_exists and or_replace:
        raise ServerError(1221, message="Incorrect usage of OR REPLACE and IF NOT EXISTS",
                          sqlstate="HY000")
    name = r.name()
    clauses, comment = dbopts.read_options(r)
    server = dbopts.server_default(s)
    charset, collation = charclauses.combine(clauses, server) or server
    if not valid_database_name(name) or name.lower() in ("main", "temp", *VIRTUAL_SCHEMAS):
        raise ServerError(errors.ER_WRONG_DB_NAME, _shown(name))
    s.txn.implicit_commit()
    engine = s.engine
    with engine.lock:
        if engine.database_exists(name):
            if if_not_exists:
                return UpdateCount(0, warnings=[
                    Warning_.of(errors.ER_DB_CREATE_EXISTS, name, level="Note")])
            if not or_replace:
                raise ServerError(errors.ER_DB_CREATE_EXISTS, name)
        replaced = engine.database_exists(name)
    current = s.database
    if replaced:  # OR REPLACE: drop it (tables and all), then create it anew
        _drop_database_named(s, name)
    with engine.lock:
        engine.create_database_file(name)
    dbopts.store(s, name, dbopts.DatabaseOptions(charset, collation, comment or ""))
    engine.schema_changed()
    if replaced and current is not None and current.lower() == name.lower():
        s.use(current)
    return UpdateCount(2 if replaced else 1)  # OR REPLACE: dropped and created, as MariaDB


def _shown(name: str) -> str:
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _create_index(s: SqliteSession, r: Reader, unique: bool, kind: str,
                  or_replace: bool = False) -> Result:
    if_not_exists = r.accept("IF", "NOT", "EXISTS")
    if if_not_exists and or_replace:
        raise ServerError(1221, message="Incorrect usage of OR REPLACE and IF NOT EXISTS",
                          sqlstate="HY000")
    iname = r.name()
    if r.accept("USING"):
        r.next()
    r.expect("ON")
    db, table = r.qualified_name()
    key = KeySpec("UNIQUE" if unique else kind or "KEY", iname)
    read_key_columns(r, key)
    read_index_options(r, key)
    schema, tdef = s.existing_table(db, table)
    replaced = or_replace and any(i.name.lower() == iname.lower() for i in tdef.indexes)
    if not replaced and any(i.name.lower() == iname.lower() for i in tdef.indexes):
        if if_not_exists:
            return UpdateCount(warnings=[Warning_("Note", errors.ER_DUP_KEYNAME,
                                                  f"Duplicate key name '{iname}'")])
        raise ServerError(errors.ER_DUP_KEYNAME, iname)
    new = catalog.copy_table(tdef)
    if replaced:  # CREATE OR REPLACE INDEX: the old one goes first
        new.indexes = [i for i in new.indexes if i.name.lower() != iname.lower()]
    keys.assemble(new, keys.existing(new) + [keys.NewKey(
        iname, key.columns, unique, key.prefixes, key.desc,
        kind if kind in ("FULLTEXT", "SPATIAL") else "", key.comment, using=key.using,
        attributes=tableopts.applied((), key.attrs))])
    mode = s.sql_mode()
    notes = tableopts.check(mode, [n for n, _v in key.attrs])
    notes += limit_comments(new, "STRICT_TRANS_TABLES" in mode or "STRICT_ALL_TABLES" in mode,
                           set(), False, {iname.lower()})
    rebuild.apply(s, schema, tdef, new, database=db or s.database or schema)
    return UpdateCount(warnings=notes + [n for n in new.notes if f"`{iname}`" in n.message])


# --- DROP ----------------------------------------------------------------------------------------
def drop(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt)
    r.expect("DROP")
    if r.accept_any("DATABASE", "SCHEMA"):
        return _drop_database(s, r)
    temporary = r.accept("TEMPORARY")
    if r.accept_any("TABLE", "TABLES"):
        return _drop_tables(s, r, temporary)
    if r.accept("INDEX"):
        if_exists = r.accept("IF", "EXISTS")
        iname = r.name()
        r.expect("ON")
        db, table = r.qualified_name()
        return _drop_index(s, db, table, iname, if_exists)
    if r.accept("VIEW"):
        return views.drop(s, r)
    kind = r.accept_any(*routines.KINDS)
    if kind:
        return routines.drop(s, r, kind)
    raise ServerError(errors.ER_NOT_SUPPORTED_YET, " ".join(stmt.words[:3]))


def _drop_database(s: SqliteSession, r: Reader) -> Result:
    if_exists = r.accept("IF", "EXISTS")
    name = r.name()
    r.end()
    if len(name) > 64:
        raise ServerError(errors.ER_WRONG_DB_NAME, _shown(name))
    return _drop_database_named(s, name, if_exists)


def _drop_database_named(s: SqliteSession, name: str, if_exists: bool = False) -> Result:
    if name.lower() in VIRTUAL_SCHEMAS:
        user = s.context.user
        raise ServerError(errors.ER_DBACCESS_DENIED_ERROR, user.split("@")[0],
                          user.split("@")[-1], name)
    s.txn.implicit_commit()
    if not s.engine.database_exists(name):
        if if_exists:
            return UpdateCount(warnings=[Warning_.of(errors.ER_DB_DROP_EXISTS, name,
                                                     level="Note")])
        raise ServerError(errors.ER_DB_DROP_EXISTS, name)
    with s.txn.exclusive():
        try:
            try:
                with s.handle.meta_conn(name, s.database) as (conn, schema):
                    tables = len(catalog.table_names(conn, schema))
            except (ServerError, sqlite3.Error):
                tables = 0  # a damaged file: DROP DATABASE is how it is cleaned up
            s.handle.detach(name)
            s.engine.remove_database_files(name)
        finally:
            s.engine.schema_changed(dropped=name)
    if s.database is not None and s.database.lower() == name.lower():
        s.use(None)
    return UpdateCount(tables)


def _drop_tables(s: SqliteSession, r: Reader, only_temporary: bool) -> Result:
    """DROP [TEMPORARY] TABLE [IF EXISTS] a, b: a session's temporary table first; the tables
    that exist are dropped even when others are missing (1051 after), or are still referenced
    by a foreign key (1451 after, foreign_key_checks=1; MariaDB goes on with the rest)."""
    if_exists = r.accept("IF", "EXISTS")
    targets = [r.qualified_name()]
    while r.accept(","):
        targets.append(r.qualified_name())
    r.accept_any("RESTRICT", "CASCADE")
    r.end()
    missing: list[str] = []
    notes: list[Warning_] = []
    failure: ServerError | None = None
    by_schema: dict[str, tuple[str, list[str]]] = {}
    for db, table in targets:
        dbname = db or s.database
        if dbname is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        if temporary.drop(s, dbname, table):
            continue
        if only_temporary:
            missing.append(f"{dbname}.{table}")
            continue
        try:
            schema = s.schema(dbname)
        except ServerError:
            missing.append(f"{dbname}.{table}")
            continue
        stored = s.find_table(schema, table)
        if stored is None:
            if s.find_view(schema, table) is not None:
                view = ServerError(1965, message=f"'{dbname}.{table}' is a view",
                                   sqlstate="42S02")
                if if_exists:  # IF EXISTS: a Note, as for a missing table
                    notes.append(Warning_("Note", view.code, view.message))
                else:
                    failure = failure or view
            else:
                missing.append(f"{dbname}.{table}")
            continue
        by_schema.setdefault(schema, (dbname, []))[1].append(stored)
    for schema, (dbname, tables) in by_schema.items():
        failure = _drop_base_tables(s, schema, dbname, tables) or failure
    if missing and not if_exists:
        raise ServerError(errors.ER_BAD_TABLE_ERROR, ",".join(missing))
    if failure is not None:
        raise failure
    # one Note naming them all, as MariaDB 10.11 words it
    if missing:
        notes.append(Warning_.of(errors.ER_BAD_TABLE_ERROR, ",".join(missing), level="Note"))
    return UpdateCount(warnings=notes)


def _drop_base_tables(s: SqliteSession, schema: str, database: str, tables: list[str]
                      ) -> ServerError | None:
    failure = None
    checks = fkcheck.checks_on(s)
    with s.ddl(), fkcheck.maintained(s, schema, database, tables):
        dropped: set[str] = set()
        for table in tables:
            if checks and any(c.lower() not in dropped and c.lower() != table.lower()
                              for c in fkcheck.spec_mentions(s.handle.conn, schema, table)):
                failure = failure or foreign.parent_row_error()
                continue
            s.handle.execute(f"DROP TABLE {q(schema)}.{q(table)}")
            autokey.forget_sequence(s, schema, table)  # SQLite forgets only its own
            s.handle.execute(meta_table_ddl(schema))
            s.handle.execute(meta_delete_sql(schema), (table,))
            dropped.add(table.lower())
    return failure


def _drop_index(s: SqliteSession, db: str | None, table: str, iname: str,
                if_exists: bool) -> Result:
    schema, tdef = s.existing_table(db, table)
    new = catalog.copy_table(tdef)
    if iname.upper() == "PRIMARY":
        if not tdef.primary:
            raise ServerError(errors.ER_CANT_DROP_FIELD_OR_KEY, iname)
        if tdef.auto_column is not None:
            raise ServerError(errors.ER_WRONG_AUTO_KEY)
        new.primary = []
    elif not any(i.name.lower() == iname.lower() for i in tdef.indexes):
        if if_exists:
            return UpdateCount(warnings=[Warning_("Note", errors.ER_CANT_DROP_FIELD_OR_KEY,
                                                  f"Can't DROP INDEX `{iname}`; check that it "
                                                  "exists")])
        raise ServerError(errors.ER_CANT_DROP_FIELD_OR_KEY, iname)
    else:
        new.indexes = [i for i in new.indexes if i.name.lower() != iname.lower()]
    if foreign.needs_index(new, iname) is not None:
        raise foreign.index_needed_error(iname)
    rebuild.apply(s, schema, tdef, new, database=db or s.database or schema)
    return UpdateCount()


# --- ALTER -------------------------------------------------------------------------------------
def alter(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt)
    r.expect("ALTER")
    r.accept("ONLINE")
    ignore = r.accept("IGNORE")
    if r.accept_any("DATABASE", "SCHEMA"):
        return _alter_database(s, r)
    if r.at("VIEW") or r.at("ALGORITHM") or r.at("DEFINER") or r.at("SQL"):
        return views.create(s, r, or_replace=False, alter=True)
    if not r.accept("TABLE"):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, " ".join(stmt.words[:2]))
    return alter_table(s, r, ignore)


def _alter_database(s: SqliteSession, r: Reader) -> Result:
    name = s.database
    if not r.done and (r.toks[r.i].kind == "qident" or r.peek_word() not in (
            "DEFAULT", "CHARACTER", "CHARSET", "COLLATE", "COMMENT", "")):
        name = r.name()
    if name is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    if r.accept("UPGRADE", "DATA", "DIRECTORY", "NAME"):
        return _upgrade_name(s, name)
    if not valid_database_name(name):
        raise ServerError(errors.ER_WRONG_DB_NAME, _shown(name))
    if not s.engine.database_exists(name):
        raise ServerError(errors.ER_BAD_DB_ERROR, name)
    clauses, comment = dbopts.read_options(r)
    old = dbopts.load(s, name)
    charset, collation = charclauses.combine(clauses, dbopts.server_default(s)) or \
        (old.charset, old.collation)
    s.txn.implicit_commit()
    dbopts.store(s, name, dbopts.DatabaseOptions(
        charset, collation, old.comment if comment is None else comment))
    return UpdateCount(1)


def _upgrade_name(s: SqliteSession, name: str) -> Result:
    """ALTER DATABASE `#mysql50#x` UPGRADE DATA DIRECTORY NAME renames a directory made by
    MySQL 5.0; rampmeter has none, so any such name is unknown (MariaDB's checks first)."""
    if not name.startswith("#mysql50#"):
        raise ServerError(errors.ER_WRONG_USAGE, "ALTER DATABASE UPGRADE DATA DIRECTORY NAME",
                          "name")
    if name == "#mysql50#":
        raise ServerError(errors.ER_WRONG_DB_NAME, name)
    raise ServerError(errors.ER_BAD_DB_ERROR, name)


# --- RENAME / TRUNCATE -----------------------------------------------------------------------
def rename(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt)
    r.expect("RENAME")
    if not r.accept_any("TABLE", "TABLES"):
        raise r.error()  # RENAME DATABASE is gone from MariaDB's grammar: 1064 there too
    if_exists = r.accept("IF", "EXISTS")
    pairs = []
    while True:
        db, old = r.qualified_name()
        if r.accept("WAIT"):  # the lock wait: no lock here waits on another statement's DDL
            r.integer()
        else:
            r.accept("NOWAIT")
        r.expect("TO")
        db2, new = r.qualified_name()
        if (db2 or db) != db and (db2 or "").lower() != (db or s.database or "").lower():
            s.schema(db2)  # 1049 for a database that does not exist, as MariaDB
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "RENAME TABLE across databases")
        pairs.append((db, old, new))
        if not r.accept(","):
            break
    r.end()
    notes: list[Warning_] = []
    plan: list[tuple[str | None, str, str]] = []
    try:
        _rename_plan(s, pairs, if_exists, notes, plan)
    except ServerError:
        _renamed_back(s, plan)
        raise
    for db, old, new in plan:
        schema, tdef = s.existing_table(db, old)
        rebuild.rename_table(s, schema, db or s.database or schema, tdef.name, new)
    return UpdateCount(warnings=notes)


def _renamed_back(s: SqliteSession, done: list[tuple[str | None, str, str]]) -> None:
    """A failing RENAME: MariaDB made the renames before the failing one and undid them,
    which leaves their tables' triggers with a rewritten ON clause (triggers.retable)."""
    for db, old, _new in done:
        try:
            schema, tdef = s.existing_table(db, old)
        except ServerError:
            continue
        if schema == temporary.SCHEMA:
            continue
        with s.ddl():
            triggers.retable(s, schema, db or s.database or schema, tdef.name, tdef.name)


def _rename_plan(s: SqliteSession, pairs: list[tuple[str | None, str, str]], if_exists: bool,
                 notes: list[Warning_], plan: list[tuple[str | None, str, str]]) -> None:
    """The renames to make, checked first in order against the names as the earlier ones
    leave them, so that a failing one (1146 no such table, 1050 the name is taken) makes
    none, as MariaDB's atomic RENAME TABLE. A temporary table is renamed among the temporary
    ones (it hides a table of its name); IF EXISTS skips a missing table with a note."""
    moved: dict[tuple[bool, str, str], bool] = {}  # (temporary, schema, name) -> now there
    plan.clear()

    def there(temp: bool, schema: str, database: str, name: str) -> bool:
        key = (temp, schema, name.lower())
        if key in moved:
            return moved[key]
        if temp:
            return temporary.find(s, database, name) is not None
        return s.find_table(schema, name) is not None or s.find_view(schema, name) is not None

    for db, old, new in pairs:
        schema = s.schema(db)
        database = db or s.database or schema
        if there(True, schema, database, old):
            temp = True
        elif there(False, schema, database, old):
            temp = False
            if (False, schema, old.lower()) not in moved:
                s.existing_table(db, old)  # a view: 1347, as MariaDB
        elif if_exists:
            notes.append(Warning_.of(errors.ER_NO_SUCH_TABLE, database, old, level="Note"))
            continue
        else:
            raise ServerError(errors.ER_NO_SUCH_TABLE, database, old)
        if new.lower() != old.lower() and there(temp, schema, database, new):
            raise ServerError(errors.ER_TABLE_EXISTS_ERROR, new)
        moved[(temp, schema, old.lower())] = False
        moved[(temp, schema, new.lower())] = True
        plan.append((db, old, new))


def truncate(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt)
    r.expect("TRUNCATE")
    r.accept("TABLE")
    db, table = r.qualified_name()
    r.end()
    try:
        schema, tdef = s.existing_table(db, table)
    except ServerError as e:
        if e.code == 1347:  # a view: MariaDB's TRUNCATE looks for a table of that name only
            raise ServerError(errors.ER_NO_SUCH_TABLE, db or s.database, table) from None
        raise
    database = db or s.database or schema
    if fkcheck.checks_on(s):
        for name in fkcheck.spec_mentions(s.handle.conn, schema, tdef.name):
            if name.lower() == tdef.name.lower():
                continue  # a table may refer to itself and still be emptied
            child = s.load_table(schema, name)
            fk = next(f for _c, f in foreign.referencing({name: child}, tdef.name))
            raise foreign.truncate_error(database, child.name, fk)
    with s.ddl(), fkcheck.suspended(s):
        s.handle.execute(f"DELETE FROM {q(schema)}.{q(tdef.name)}")
        slots.forget(s, schema, tdef.name)  # emptied as a whole: no place is kept
        try:
            s.handle.execute(f"DELETE FROM {q(schema)}.sqlite_sequence WHERE name = ?",
                             (tdef.name,))
        except Exception:  # noqa: BLE001 - no AUTOINCREMENT table yet: no sqlite_sequence
            pass
    return UpdateCount()


def _lock_wait_timeout(s: SqliteSession) -> float:
    try:
        return float(s.context.system_variable("lock_wait_timeout") or 0)
    except (ServerError, TypeError, ValueError):
        return 86400.0


def maintenance(s: SqliteSession, stmt: Statement) -> Result:
    """ANALYZE / OPTIMIZE / CHECK / REPAIR TABLE t, ...: a status row per table. A temporary
    table is one too; a view passes CHECK, and the others say it is no BASE TABLE (MariaDB)."""
    r = Reader(stmt)
    op = r.next().text.lower()
    r.accept_any("NO_WRITE_TO_BINLOG", "LOCAL")
    r.accept_any("TABLE", "TABLES")
    rows = []
    targets = [r.qualified_name()]
    while r.accept(","):
        targets.append(r.qualified_name())
    for db, table in targets:
        dbname = db or s.database or ""
        try:
            schema = s.schema(db)
            stored = s.find_table(schema, table)
        except ServerError:
            stored = None
        if stored is not None and not s.txn.wait_out_locked_tables(
                _lock_wait_timeout(s), [((dbname.lower(), stored.lower()), op != "check")]):
            # another session's LOCK TABLES holds it past lock_wait_timeout
            rows.append((f"{dbname}.{stored}", op, "Error",
                         errors.format_message(errors.ER_LOCK_WAIT_TIMEOUT)))
            rows.append((f"{dbname}.{stored}", op, "status", "Operation failed"))
            continue
        if stored is None:
            tdef = s.table_def(dbname, table) if dbname else None
            if tdef is not None and (tdef.view is None or op == "check"):
                rows.append((f"{dbname}.{table}", op, "status", "OK"))  # temporary, view
            elif tdef is not None:
                rows.append((f"{dbname}.{table}", op, "Error",
                             f"'{dbname}.{table}' is not of type 'BASE TABLE'"))
                rows.append((f"{dbname}.{table}", op, "status", "Operation failed"))
            else:
                rows.append((f"{dbname}.{table}", op, "Error",
                             f"Table '{dbname}.{table}' doesn't exist"))
            continue
        if op == "check":
            rows += _check_auto_zero(s, schema, dbname, stored)
        if op == "analyze":
            s.handle.execute(f"ANALYZE {q(schema)}.{q(stored)}")
            if _collects_statistics(s, stmt):
                rows.append((f"{dbname}.{stored}", op, "status",
                             "Engine-independent statistics collected"))
        rows.append((f"{dbname}.{stored}", op, "status", "OK"))
    cols = [text_column("Table", length=64), text_column("Op", length=10),
            text_column("Msg_type", length=10), text_column("Msg_text", length=255)]
    return ResultSet(cols, rows)


def _check_auto_zero(s: SqliteSession, schema: str, dbname: str, stored: str
                     ) -> list[tuple[str, str, str, str]]:
    """MyISAM's and Aria's CHECK TABLE warn of a row whose AUTO_INCREMENT column holds 0
    (chk_key, "Found row where the auto_increment column has the value 0"); InnoDB does not."""
    tdef = s.table_def(dbname, stored)
    col = tdef.auto_column if tdef is not None else None
    if col is None or tdef is None or tdef.engine not in ("MyISAM", "Aria"):
        return []
    found = s.handle.execute(f"SELECT 1 FROM {q(schema)}.{q(stored)} WHERE {q(col.name)} = 0 "
                             "LIMIT 1").fetchone()
    return [(f"{dbname}.{stored}", "check", "warning",
             "Found row where the auto_increment column has the value 0")] if found else []


def _collects_statistics(s: SqliteSession, stmt: Statement) -> bool:
    """ANALYZE TABLE of a base table collects MariaDB's engine-independent statistics (and
    says so) when use_stat_tables is PREFERABLY or COMPLEMENTARY (mtr's setting), or when it
    names them (PERSISTENT FOR ...)."""
    if "PERSISTENT" in stmt.words:
        return True
    try:
        mode = str(s.context.system_variable("use_stat_tables") or "")
    except ServerError:
        return False
    return mode.upper() in ("PREFERABLY", "COMPLEMENTARY")


HANDLERS: dict[str, Callable[[SqliteSession, Statement], Result]] = {
    "CREATE": create, "DROP": drop, "ALTER": alter, "RENAME": rename, "TRUNCATE": truncate,
    "ANALYZE": maintenance, "OPTIMIZE": maintenance, "CHECK": maintenance,
    "REPAIR": maintenance, "CHECKSUM": checksum.checksum,
}
