"""Schema statements: CREATE / DROP DATABASE, CREATE / DROP / ALTER / RENAME / TRUNCATE TABLE,
CREATE / DROP INDEX, and the table maintenance statements (ANALYZE, OPTIMIZE, CHECK, REPAIR).

Rules:
- Each commits what is open first (MySQL's implicit commit) and changes the schema as one SQLite
  transaction under the write lock (txn.ddl), writing the table's `_rampmeter_tables` row in the
  same transaction, then moves the engine's schema version so cached plans are dropped.
- ALTER TABLE rebuilds the table when SQLite's own ALTER cannot do the change: a new table with
  the new definition, the rows copied (converted to the new types), the old one dropped, the new
  one renamed - SQLite's documented twelve-step procedure, in one transaction.
- Database names are checked here (storage.valid_database_name): a name that is not valid text,
  or not a safe file name, is 1102 and never reaches the data directory.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.engine.base import Result, ResultSet, UpdateCount
from rampmeter.engine.sqlite import catalog, dbopts, routines
from rampmeter.engine.sqlite.catalog import (
    ColumnDef,
    IndexDef,
    TableDef,
    index_sql,
    meta_delete_sql,
    meta_table_ddl,
    meta_write_sql,
    q,
    spec_json,
)
from rampmeter.engine.sqlite.definitions import (
    ColumnSpec,
    KeySpec,
    build_table,
    check_column_name,
    check_table_name,
    is_key_start,
    read_column,
    read_key,
    read_table_options,
)
from rampmeter.engine.sqlite.storage import INFORMATION_SCHEMA, valid_database_name
from rampmeter.errors import ServerError, Warning_
from rampmeter.protocol.columns import text_column
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
        if temporary:
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "CREATE TEMPORARY TABLE")
        return _create_table(s, r, or_replace)
    unique = r.accept("UNIQUE")
    kind = r.accept_any("FULLTEXT", "SPATIAL")
    if r.accept("INDEX"):
        return _create_index(s, r, unique, kind)
    if r.at("VIEW") or r.at("ALGORITHM") or r.at("DEFINER") or r.at("SQL"):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "CREATE VIEW")
    raise ServerError(errors.ER_NOT_SUPPORTED_YET, " ".join(stmt.words[:3]))


def _create_database(s: SqliteSession, r: Reader, or_replace: bool) -> Result:
    if_not_exists = r.accept("IF", "NOT", "EXISTS")
    if if_not_exists and or_replace:
        raise ServerError(1221, message="Incorrect usage of OR REPLACE and IF NOT EXISTS",
                          sqlstate="HY000")
    name = r.name()
    cs, coll, comment = dbopts.read_options(r)
    charset, collation = dbopts.resolve(cs, coll) or dbopts.server_default(s)
    if not valid_database_name(name) or name.lower() in ("main", "temp", INFORMATION_SCHEMA):
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


def _create_table(s: SqliteSession, r: Reader, or_replace: bool) -> Result:
    if_not_exists = r.accept("IF", "NOT", "EXISTS")
    db, table = r.qualified_name()
    if r.at("LIKE") or r.at("(") and r.peek_word(1) == "LIKE":
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "CREATE TABLE ... LIKE")
    if not r.at("("):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "CREATE TABLE ... SELECT")
    schema = s.schema(db)
    defaults = dbopts.table_defaults(s, schema if db is None else db)
    options_charset = _peek_table_charset(r, defaults)
    columns: list[ColumnSpec] = []
    keys: list[KeySpec] = []
    r.expect("(")
    while True:
        t = r.peek()
        if t is not None and t.kind == "word" and is_key_start(r):
            keys.append(read_key(r))
        else:
            name = r.name()
            columns.append(read_column(r, name, *options_charset))
        if r.accept(")"):
            break
        r.expect(",")
    if r.at("AS") or r.at("SELECT") or r.at("IGNORE") or r.at("REPLACE"):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "CREATE TABLE ... SELECT")
    options = read_table_options(r)
    if not columns:
        raise ServerError(1113, message="A table must have at least 1 column")
    tdef = build_table(table, columns, keys, options, defaults)
    existing = s.find_table(schema, table)
    if existing is not None:
        if if_not_exists:
            return UpdateCount(warnings=[Warning_.of(errors.ER_TABLE_EXISTS_ERROR, table,
                                                     level="Note")])
        if not or_replace:
            raise ServerError(errors.ER_TABLE_EXISTS_ERROR, table)
    with s.ddl():
        if existing is not None:
            s.handle.execute(f"DROP TABLE {q(schema)}.{q(existing)}")
        _write_table(s, schema, tdef)
        if tdef.auto_increment and tdef.auto_increment > 1 and tdef.auto_column is not None:
            s.handle.execute(f"INSERT INTO {q(schema)}.sqlite_sequence (name, seq) "
                             "VALUES (?, ?)", (tdef.name, tdef.auto_increment - 1))
    return UpdateCount()


def _peek_table_charset(r: Reader, defaults: dbopts.TableDefaults) -> tuple[str, str]:
    """The table's character set, read ahead from its options (columns inherit it)."""
    depth = 0
    j = r.i
    while j < len(r.toks):
        t = r.toks[j]
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
            if depth == 0:
                break
        j += 1
    sub = Reader(r.stmt, j + 1)
    try:
        from rampmeter.engine.sqlite.definitions import table_charset
        return table_charset(read_table_options(sub), (defaults.charset, defaults.collation))
    except ServerError:
        return defaults.charset, defaults.collation


def _write_table(s: SqliteSession, schema: str, tdef: TableDef, name: str | None = None) -> None:
    h = s.handle
    h.execute(meta_table_ddl(schema))
    for sql in catalog.create_sql(tdef, schema, name):
        h.execute(sql)
    h.execute(meta_write_sql(schema), (name or tdef.name, spec_json(tdef)))


def _create_index(s: SqliteSession, r: Reader, unique: bool, kind: str) -> Result:
    if_not_exists = r.accept("IF", "NOT", "EXISTS")
    iname = r.name()
    if r.accept("USING"):
        r.next()
    r.expect("ON")
    db, table = r.qualified_name()
    key = KeySpec("UNIQUE" if unique else kind or "KEY", iname)
    from rampmeter.engine.sqlite.definitions import read_key_columns
    read_key_columns(r, key)
    schema, tdef = s.existing_table(db, table)
    if any(i.name.lower() == iname.lower() for i in tdef.indexes):
        if if_not_exists:
            return UpdateCount(warnings=[Warning_("Note", errors.ER_DUP_KEYNAME,
                                                  f"Duplicate key name '{iname}'")])
        raise ServerError(errors.ER_DUP_KEYNAME, iname)
    new = _copy(tdef)
    new.indexes.append(_index_from_key(new, key))
    return _apply(s, schema, tdef, new)


def _index_from_key(tdef: TableDef, key: KeySpec) -> IndexDef:
    cols = []
    for c in key.columns:
        col = tdef.column(c)
        if col is None:
            raise ServerError(1072, message=f"Key column '{c}' doesn't exist in table")
        cols.append(col.name)
    name = key.name or cols[0]
    taken = {i.name.lower() for i in tdef.indexes}
    if key.name is None:
        base, n = name, 2
        while name.lower() in taken:
            name = f"{base}_{n}"
            n += 1
    elif name.lower() in taken:
        raise ServerError(errors.ER_DUP_KEYNAME, name)
    kind = key.kind if key.kind in ("FULLTEXT", "SPATIAL") else ""
    return IndexDef(name, key.kind == "UNIQUE", cols, key.prefixes, key.desc, kind,
                    key.comment)


def _copy(tdef: TableDef) -> TableDef:
    return TableDef(tdef.name, [ColumnDef(c.name, c.type, c.nullable, c.default,
                                          c.auto_increment, c.on_update, c.comment)
                                for c in tdef.columns],
                    list(tdef.primary),
                    [IndexDef(i.name, i.unique, list(i.columns), list(i.prefixes),
                              list(i.desc), i.kind, i.comment) for i in tdef.indexes],
                    list(tdef.checks), tdef.charset, tdef.collation, tdef.comment, tdef.engine)


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
    if r.at("VIEW"):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "DROP VIEW")
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
    if name.lower() == INFORMATION_SCHEMA:
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
            with s.handle.meta_conn(name, s.database) as (conn, schema):
                tables = len(catalog.table_names(conn, schema))
            s.handle.detach(name)
            s.engine.remove_database_files(name)
        finally:
            s.engine.schema_changed(dropped=name)
    if s.database is not None and s.database.lower() == name.lower():
        s.use(None)
    return UpdateCount(tables)


def _drop_tables(s: SqliteSession, r: Reader, temporary: bool) -> Result:
    if_exists = r.accept("IF", "EXISTS")
    targets = [r.qualified_name()]
    while r.accept(","):
        targets.append(r.qualified_name())
    r.accept_any("RESTRICT", "CASCADE")
    r.end()
    missing = []
    resolved = []
    for db, table in targets:
        dbname = db or s.database
        if dbname is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        try:
            schema = s.schema(dbname)
        except ServerError:
            missing.append(f"{dbname}.{table}")
            continue
        stored = s.find_table(schema, table)
        if stored is None:
            missing.append(f"{dbname}.{table}")
        else:
            resolved.append((schema, stored))
    if missing and not if_exists:
        raise ServerError(errors.ER_BAD_TABLE_ERROR, ",".join(missing))
    with s.ddl():
        for schema, table in resolved:
            s.handle.execute(f"DROP TABLE {q(schema)}.{q(table)}")
            s.handle.execute(meta_table_ddl(schema))
            s.handle.execute(meta_delete_sql(schema), (table,))
    # MariaDB names every unknown table in one note: Unknown table 'test.t1,test.t2'
    return UpdateCount(warnings=[Warning_.of(errors.ER_BAD_TABLE_ERROR, ",".join(missing),
                                             level="Note")] if missing else [])


def _drop_index(s: SqliteSession, db: str | None, table: str, iname: str,
                if_exists: bool) -> Result:
    schema, tdef = s.existing_table(db, table)
    if iname.upper() == "PRIMARY":
        if not tdef.primary:
            raise ServerError(errors.ER_CANT_DROP_FIELD_OR_KEY, iname)
        if tdef.auto_column is not None:
            raise ServerError(errors.ER_WRONG_AUTO_KEY)
        new = _copy(tdef)
        new.primary = []
        return _apply(s, schema, tdef, new)
    if not any(i.name.lower() == iname.lower() for i in tdef.indexes):
        if if_exists:
            return UpdateCount(warnings=[Warning_("Note", errors.ER_CANT_DROP_FIELD_OR_KEY,
                                                  f"Can't DROP INDEX `{iname}`; check that it "
                                                  "exists")])
        raise ServerError(errors.ER_CANT_DROP_FIELD_OR_KEY, iname)
    new = _copy(tdef)
    new.indexes = [i for i in new.indexes if i.name.lower() != iname.lower()]
    return _apply(s, schema, tdef, new)


# --- ALTER -------------------------------------------------------------------------------------
def alter(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt)
    r.expect("ALTER")
    r.accept("ONLINE")
    r.accept("IGNORE")
    if r.accept_any("DATABASE", "SCHEMA"):
        return _alter_database(s, r)
    if not r.accept("TABLE"):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, " ".join(stmt.words[:2]))
    db, table = r.qualified_name()
    schema, tdef = s.existing_table(db, table)
    new = _copy(tdef)
    rename_to: str | None = None
    while not r.done:
        action = r.peek_word()
        if action == "ADD":
            r.i += 1
            _alter_add(r, new)
        elif action == "DROP":
            r.i += 1
            _alter_drop(r, new)
        elif action == "RENAME":
            r.i += 1
            if r.accept_any("COLUMN"):
                old = r.name()
                r.expect("TO")
                newname = r.name()
                col = new.column(old)
                if col is None:
                    raise ServerError(errors.ER_BAD_FIELD_ERROR, old, tdef.name)
                _rename_column(new, col.name, newname)
            elif r.accept_any("INDEX", "KEY"):
                old = r.name()
                r.expect("TO")
                newname = r.name()
                idx = next((i for i in new.indexes if i.name.lower() == old.lower()), None)
                if idx is None:
                    raise ServerError(1176, message=f"Key '{old}' doesn't exist in table "
                                      f"'{tdef.name}'")
                idx.name = newname
            else:
                r.accept_any("TO", "AS")
                rename_db, rename_to = r.qualified_name()
                if rename_db is not None and rename_db.lower() != schema.lower():
                    raise ServerError(errors.ER_NOT_SUPPORTED_YET,
                                      "RENAME TABLE across databases")
        elif action in ("ENGINE", "DEFAULT", "CHARSET", "CHARACTER", "COLLATE", "COMMENT",
                        "AUTO_INCREMENT", "ROW_FORMAT", "FORCE", "CONVERT", "ALGORITHM",
                        "LOCK", "KEY_BLOCK_SIZE", "PACK_KEYS", "STATS_PERSISTENT",
                        "CHECKSUM", "DISABLE", "ENABLE"):
            _alter_option(r, new)
        elif action in ("MODIFY", "CHANGE", "ALTER"):
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, f"ALTER TABLE ... {action}")
        else:
            raise r.error()
        if not r.accept(","):
            break
    r.end()
    result = _apply(s, schema, tdef, new)
    if rename_to is not None:
        _rename_table(s, schema, new.name, rename_to)
    return result


def _alter_database(s: SqliteSession, r: Reader) -> Result:
    name = s.database
    if r.peek_word() not in ("DEFAULT", "CHARACTER", "CHARSET", "COLLATE", "COMMENT", "") \
            and not r.done:
        name = r.name()
    if name is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    if not s.engine.database_exists(name):
        raise ServerError(errors.ER_BAD_DB_ERROR, name)
    if r.accept("UPGRADE", "DATA", "DIRECTORY", "NAME"):
        return UpdateCount()
    cs, coll, comment = dbopts.read_options(r)
    old = dbopts.load(s, name)
    charset, collation = dbopts.resolve(cs, coll) or (old.charset, old.collation)
    s.txn.implicit_commit()
    dbopts.store(s, name, dbopts.DatabaseOptions(
        charset, collation, old.comment if comment is None else comment))
    return UpdateCount(1)


def _alter_add(r: Reader, new: TableDef) -> None:
    if r.accept("COLUMN") or not is_key_start(r):
        if r.accept("IF", "NOT", "EXISTS"):
            pass
        if r.at("("):
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "ADD COLUMN (...)")
        name = r.name()
        check_column_name(name)
        spec = read_column(r, name, new.charset, new.collation)
        if new.column(name) is not None:
            raise ServerError(errors.ER_DUP_FIELDNAME, name)
        position = None
        if r.accept("FIRST"):
            position = 0
        elif r.accept("AFTER"):
            after = r.name()
            idx = next((k for k, c in enumerate(new.columns) if c.name.lower() ==
                        after.lower()), None)
            if idx is None:
                raise ServerError(errors.ER_BAD_FIELD_ERROR, after, new.name)
            position = idx + 1
        col = spec.column
        if col.auto_increment:
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "adding an AUTO_INCREMENT column")
        if position is None:
            new.columns.append(col)
        else:
            new.columns.insert(position, col)
        if spec.unique:
            new.indexes.append(_index_from_key(new, KeySpec("UNIQUE", None, [col.name],
                                                            [None], [False])))
        if spec.primary:
            if new.primary:
                raise ServerError(errors.ER_MULTIPLE_PRI_KEY)
            new.primary = [col.name]
        return
    key = read_key(r)
    if key.kind == "PRIMARY":
        if new.primary:
            raise ServerError(errors.ER_MULTIPLE_PRI_KEY)
        new.primary = [new.column(c).name for c in key.columns  # type: ignore[union-attr]
                       if new.column(c) is not None]
    elif key.kind in ("FOREIGN",):
        return  # accepted, not kept yet (docs/sql.md)
    elif key.kind == "CHECK":
        new.checks.append((key.name or f"CONSTRAINT_{len(new.checks) + 1}", key.check or ""))
    else:
        new.indexes.append(_index_from_key(new, key))


def _alter_drop(r: Reader, new: TableDef) -> None:
    if r.accept_any("INDEX", "KEY"):
        r.accept("IF", "EXISTS")
        name = r.name()
        before = len(new.indexes)
        new.indexes = [i for i in new.indexes if i.name.lower() != name.lower()]
        if len(new.indexes) == before:
            raise ServerError(errors.ER_CANT_DROP_FIELD_OR_KEY, name)
        return
    if r.accept("PRIMARY", "KEY"):
        if not new.primary:
            raise ServerError(errors.ER_CANT_DROP_FIELD_OR_KEY, "PRIMARY")
        if any(c.auto_increment for c in new.columns):
            raise ServerError(errors.ER_WRONG_AUTO_KEY)
        new.primary = []
        return
    if r.accept("FOREIGN", "KEY") or r.accept("CONSTRAINT") or r.accept("CHECK"):
        name = r.name()
        new.checks = [c for c in new.checks if c[0].lower() != name.lower()]
        return
    r.accept("COLUMN")
    if_exists = r.accept("IF", "EXISTS")
    name = r.name()
    r.accept_any("RESTRICT", "CASCADE")
    col = new.column(name)
    if col is None:
        if if_exists:
            return
        raise ServerError(errors.ER_CANT_DROP_FIELD_OR_KEY, name)
    if len(new.columns) == 1:
        raise ServerError(1090, message="You can't delete all columns with ALTER TABLE; use "
                          "DROP TABLE instead")
    new.columns = [c for c in new.columns if c is not col]
    low = col.name.lower()
    new.primary = [c for c in new.primary if c.lower() != low]
    kept = []
    for i in new.indexes:  # MariaDB drops the column from its keys, and empty keys with it
        pairs = [(c, p, d) for c, p, d in zip(i.columns, i.prefixes or [None] * len(i.columns),
                                              i.desc or [False] * len(i.columns))
                 if c.lower() != low]
        if pairs:
            i.columns = [p[0] for p in pairs]
            i.prefixes = [p[1] for p in pairs]
            i.desc = [p[2] for p in pairs]
            kept.append(i)
    new.indexes = kept


def _rename_column(new: TableDef, old: str, newname: str) -> None:
    check_column_name(newname)
    if new.column(newname) is not None and newname.lower() != old.lower():
        raise ServerError(errors.ER_DUP_FIELDNAME, newname)
    for c in new.columns:
        if c.name == old:
            c.name = newname
    new.renamed[newname] = new.renamed.pop(old, old)
    new.primary = [newname if c == old else c for c in new.primary]
    for i in new.indexes:
        i.columns = [newname if c == old else c for c in i.columns]


def _alter_option(r: Reader, new: TableDef) -> None:
    if r.accept("FORCE"):
        return
    if r.accept_any("DISABLE", "ENABLE"):
        r.expect("KEYS")  # no separate index maintenance in SQLite: accepted
        return
    if r.accept("CONVERT", "TO"):
        r.accept("CHARACTER")
        r.accept("SET")
        r.accept("CHARSET")
        r.name_or_string()
        if r.accept("COLLATE"):
            r.name_or_string()
        return
    r.accept("DEFAULT")
    word = r.next().text.upper()
    if word == "CHARACTER":
        r.expect("SET")
    r.accept("=")
    value = r.next()
    if word == "COMMENT" and value.kind == "str":
        from rampmeter.sql.lexer import string_value
        new.comment = string_value(value.text)
    elif word == "ENGINE":
        new.engine = value.text


def _apply(s: SqliteSession, schema: str, old: TableDef, new: TableDef) -> Result:
    """Make the table `new`: in place when only indexes or metadata change, else rebuilt."""
    same_columns = [(c.name, c.type.affinity, c.nullable, c.auto_increment,
                     c.default.value if c.default and c.default.kind == "value" else None)
                    for c in old.columns] == \
        [(c.name, c.type.affinity, c.nullable, c.auto_increment,
          c.default.value if c.default and c.default.kind == "value" else None)
         for c in new.columns] and old.primary == new.primary
    with s.ddl():
        h = s.handle
        h.execute(meta_table_ddl(schema))
        if same_columns:
            for i in old.indexes:
                if not i.kind:
                    h.execute(f"DROP INDEX IF EXISTS {q(schema)}.{q(old.name + '.' + i.name)}")
            for i in new.indexes:
                if not i.kind:
                    h.execute(index_sql(schema, new.name, i, new))
        else:
            _rebuild(s, schema, old, new)
        h.execute(meta_write_sql(schema), (new.name, spec_json(new)))
    return UpdateCount()


def _rebuild(s: SqliteSession, schema: str, old: TableDef, new: TableDef) -> None:
    h = s.handle
    tmp = f"_rampmeter_new_{new.name}"
    for i in old.indexes:
        if not i.kind:
            h.execute(f"DROP INDEX IF EXISTS {q(schema)}.{q(old.name + '.' + i.name)}")
    body = catalog.create_sql(new, schema, tmp)
    h.execute(body[0])
    pairs = [(c.name, new.renamed.get(c.name, c.name)) for c in new.columns]
    pairs = [(to, frm) for to, frm in pairs if old.column(frm) is not None]
    if pairs:
        into = ", ".join(q(to) for to, _frm in pairs)
        src = ", ".join(q(frm) for _to, frm in pairs)
        h.execute(f"INSERT INTO {q(schema)}.{q(tmp)} ({into}) SELECT {src} FROM "
                  f"{q(schema)}.{q(old.name)}")
    seq = catalog.sequence_next(h.conn, schema, old.name)
    h.execute(f"DROP TABLE {q(schema)}.{q(old.name)}")
    h.execute(f"ALTER TABLE {q(schema)}.{q(tmp)} RENAME TO {q(new.name)}")
    for i in new.indexes:
        if not i.kind:
            h.execute(index_sql(schema, new.name, i, new))
    if seq is not None and new.auto_column is not None:
        h.execute(f"DELETE FROM {q(schema)}.sqlite_sequence WHERE name = ?", (new.name,))
        h.execute(f"INSERT INTO {q(schema)}.sqlite_sequence (name, seq) VALUES (?, ?)",
                  (new.name, seq - 1))


# --- RENAME / TRUNCATE -----------------------------------------------------------------------
def _rename_table(s: SqliteSession, schema: str, old: str, new: str) -> None:
    check_table_name(new)
    if s.find_table(schema, new) is not None and new.lower() != old.lower():
        raise ServerError(errors.ER_TABLE_EXISTS_ERROR, new)
    with s.ddl():
        h = s.handle
        h.execute(meta_table_ddl(schema))
        tdef = s.load_table(schema, old)
        for i in tdef.indexes:
            if not i.kind:
                h.execute(f"DROP INDEX IF EXISTS {q(schema)}.{q(old + '.' + i.name)}")
        h.execute(f"ALTER TABLE {q(schema)}.{q(old)} RENAME TO {q(new)}")
        tdef.name = new
        for i in tdef.indexes:
            if not i.kind:
                h.execute(index_sql(schema, new, i, tdef))
        h.execute(meta_delete_sql(schema), (old,))
        h.execute(meta_write_sql(schema), (new, spec_json(tdef)))


def rename(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt)
    r.expect("RENAME")
    if not r.accept_any("TABLE", "TABLES"):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, " ".join(stmt.words[:2]))
    pairs = []
    while True:
        db, old = r.qualified_name()
        r.expect("TO")
        db2, new = r.qualified_name()
        if (db2 or db) != db and (db2 or "").lower() != (db or s.database or "").lower():
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "RENAME TABLE across databases")
        pairs.append((db, old, new))
        if not r.accept(","):
            break
    r.end()
    for db, old, new in pairs:
        schema, tdef = s.existing_table(db, old)
        _rename_table(s, schema, tdef.name, new)
    return UpdateCount()


def truncate(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt)
    r.expect("TRUNCATE")
    r.accept("TABLE")
    db, table = r.qualified_name()
    r.end()
    schema, tdef = s.existing_table(db, table)
    with s.ddl():
        s.handle.execute(f"DELETE FROM {q(schema)}.{q(tdef.name)}")
        try:
            s.handle.execute(f"DELETE FROM {q(schema)}.sqlite_sequence WHERE name = ?",
                             (tdef.name,))
        except Exception:  # noqa: BLE001 - no AUTOINCREMENT table yet: no sqlite_sequence
            pass
    return UpdateCount()


def maintenance(s: SqliteSession, stmt: Statement) -> Result:
    """ANALYZE / OPTIMIZE / CHECK / REPAIR TABLE t, ...: a status row per table."""
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
        if stored is None:
            rows.append((f"{dbname}.{table}", op, "Error",
                         f"Table '{dbname}.{table}' doesn't exist"))
            continue
        if op == "analyze":
            s.handle.execute(f"ANALYZE {q(schema)}.{q(stored)}")
        rows.append((f"{dbname}.{stored}", op, "status", "OK"))
    cols = [text_column("Table", length=64), text_column("Op", length=10),
            text_column("Msg_type", length=10), text_column("Msg_text", length=255)]
    return ResultSet(cols, rows)


HANDLERS: dict[str, Callable[[SqliteSession, Statement], Result]] = {
    "CREATE": create, "DROP": drop, "ALTER": alter, "RENAME": rename, "TRUNCATE": truncate,
    "ANALYZE": maintenance, "OPTIMIZE": maintenance, "CHECK": maintenance,
    "REPAIR": maintenance,
}
