"""ALTER TABLE: MariaDB 10.11's alterations, several in one statement, on a copy of the table's
definition, then made real by rebuild.py in one transaction.

Rules:
- Columns: ADD [COLUMN] [IF NOT EXISTS] (one, or a parenthesized list), DROP [COLUMN]
  [IF EXISTS], MODIFY / CHANGE [COLUMN] [IF EXISTS] (a whole new definition; CHANGE renames),
  ALTER [COLUMN] SET DEFAULT / DROP DEFAULT, RENAME COLUMN, each with FIRST / AFTER col.
  Columns change in statement order. A dropped column leaves every key it was in, and a key
  left without columns goes (MariaDB).
- Keys: MariaDB's order - the table's keys (less those dropped, with dropped columns taken
  out and renamed ones renamed), then the new ones in statement order; then keys.py names the
  new ones and drops redundant generated (foreign-key) indexes. ADD / DROP INDEX, KEY, UNIQUE,
  PRIMARY KEY, CONSTRAINT name (a UNIQUE key, a FOREIGN KEY or a CHECK), FOREIGN KEY, CHECK;
  RENAME INDEX / KEY.
- Foreign keys (foreign.py): a new one is checked against its referenced table and, with
  foreign_key_checks=1, against the rows already there (1452, naming the table being rebuilt
  as MariaDB does: `#sql-alter-...`). Columns a constraint needs cannot be dropped (1553,
  or 1829 when another table refers to them) nor changed to a type it cannot join (1832 /
  1833); renaming them renames them in the constraints, those of other tables too.
- Table options are kept (COMMENT, ENGINE, charset); CONVERT TO CHARACTER SET converts every
  text column. DISABLE / ENABLE KEYS: a Note 1031, as InnoDB answers. FORCE, ALGORITHM, LOCK,
  ORDER BY: accepted.
- ALTER IGNORE and a non-strict sql_mode turn conversion errors into warnings (rebuild.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from dataclasses import replace as dc_replace
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import Result, UpdateCount
from rampmeter.engine.sqlite import alter_checks as checks
from rampmeter.engine.sqlite import (
    autokey,
    fkcheck,
    foreign,
    keys,
    rebuild,
    stattables,
    tableopts,
    temporary,
)
from rampmeter.engine.sqlite import checks as constraints
from rampmeter.engine.sqlite.catalog import (
    NON_TRANSACTIONAL,
    ColumnDef,
    Default,
    ForeignKey,
    TableDef,
    copy_table,
    q,
)
from rampmeter.engine.sqlite.definitions import (
    ColumnSpec,
    KeySpec,
    check_column_name,
    check_invisible,
    is_key_start,
    read_column,
    read_default,
    read_key,
)
from rampmeter.errors import ServerError, Warning_
from rampmeter.sql import charsets
from rampmeter.sql.reader import Reader

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

_OPTIONS = ("ENGINE", "DEFAULT", "CHARSET", "CHARACTER", "COLLATE", "COMMENT", "AUTO_INCREMENT",
            "ROW_FORMAT", "FORCE", "CONVERT", "ALGORITHM", "LOCK", "KEY_BLOCK_SIZE",
            "PACK_KEYS", "STATS_PERSISTENT", "STATS_AUTO_RECALC", "STATS_SAMPLE_PAGES",
            "CHECKSUM", "DISABLE", "ENABLE", "ORDER", "AVG_ROW_LENGTH", "MAX_ROWS",
            "MIN_ROWS", "DELAY_KEY_WRITE", "INSERT_METHOD", "PAGE_CHECKSUM", "TRANSACTIONAL",
            "ENCRYPTED", "ENCRYPTION_KEY_ID", "PAGE_COMPRESSED", "PAGE_COMPRESSION_LEVEL")


@dataclass
class _Alter:
    s: SqliteSession
    schema: str
    database: str
    old: TableDef
    new: TableDef
    added: list[keys.NewKey] = field(default_factory=list)
    dropped_keys: set[str] = field(default_factory=set)
    new_foreign: list[ForeignKey] = field(default_factory=list)
    notes: list[Warning_] = field(default_factory=list)
    rename_to: str | None = None
    only_rename: bool = True
    auto_increment: int | None = None
    fills: dict[str, Any] = field(default_factory=dict)
    dropped_columns: list[str] = field(default_factory=list)
    children_cache: list[tuple[TableDef, ForeignKey]] | None = None
    charset_option: bool = False  # [DEFAULT] CHARACTER SET given: CONVERT TO leaves the default
    attrs: list[tableopts.Attr] = field(default_factory=list)  # the table's, as given
    key_attrs: list[tableopts.Attr] = field(default_factory=list)  # the added keys'
    given: set[str] = field(default_factory=set)  # the known table options given

    @property
    def name(self) -> str:
        return self.old.name

    def column(self, name: str) -> ColumnDef:
        col = self.new.column(name)
        if col is None:
            raise ServerError(errors.ER_BAD_FIELD_ERROR, name, self.name)
        return col


def alter_table(s: SqliteSession, r: Reader, ignore: bool) -> Result:
    if_exists = r.accept("IF", "EXISTS")
    db, table = r.qualified_name()
    try:
        schema, tdef = s.existing_table(db, table)
    except ServerError as e:
        if not if_exists or e.code != errors.ER_NO_SUCH_TABLE:
            raise
        # MariaDB: nothing to alter, and the 1146 stays as a warning of level Error
        return UpdateCount(warnings=[Warning_("Error", e.code, e.message)])
    a = _Alter(s, schema, db or s.database or schema, tdef, copy_table(tdef))
    while not r.done:
        word = r.peek_word()
        if word != "RENAME" or r.peek_word(1) in ("COLUMN", "INDEX", "KEY"):
            a.only_rename = False
        handler = _ACTIONS.get(word)
        if handler is None and tableopts.at_attribute(r):
            handler = _table_option
        if handler is None:
            raise r.error()
        handler(a, r)
        if not r.accept(","):
            break
    r.end()
    return _finish(a, ignore)


# --- columns -------------------------------------------------------------------------------
def _position(a: _Alter, r: Reader, col: ColumnDef) -> None:
    """Put `col` (already out of the list) FIRST, AFTER x, or where it was / at the end."""
    cols = a.new.columns
    if r.accept("FIRST"):
        cols.insert(0, col)
    elif r.accept("AFTER"):
        after = r.name()
        k = next((k for k, c in enumerate(cols) if c.name.lower() == after.lower()), None)
        if k is None:
            raise ServerError(errors.ER_BAD_FIELD_ERROR, after, a.name)
        cols.insert(k + 1, col)
    else:
        cols.append(col)


def _add(a: _Alter, r: Reader) -> None:
    r.expect("ADD")
    if r.accept("COLUMN") or not is_key_start(r):
        exists_ok = r.accept("IF", "NOT", "EXISTS")
        if r.accept("("):
            while True:
                _add_column(a, r, exists_ok)
                if r.accept(")"):
                    return
                r.expect(",")
        _add_column(a, r, exists_ok)
        return
    if r.at("CONSTRAINT", "IF"):
        _add_constraint_if_not_exists(a, r)
        return
    _add_key(a, read_key(r))


def _add_constraint_if_not_exists(a: _Alter, r: Reader) -> None:
    """ADD CONSTRAINT IF NOT EXISTS name CHECK (...): a CHECK of that name already there is
    Note 1826 and the clause does nothing. MariaDB takes IF NOT EXISTS there for a CHECK only
    (a key or foreign key after it is 1064)."""
    r.expect("CONSTRAINT", "IF", "NOT", "EXISTS")
    name = r.name()
    if not r.at("CHECK"):
        raise r.error()
    key = read_key(r)
    key.name = key.constraint = name
    if any(n.lower() == name.lower() for n, _e in a.new.checks):
        a.notes.append(Warning_("Note", constraints.ER_DUP_CONSTRAINT_NAME,
                                f"Duplicate CHECK constraint name '{name}'"))
        return
    _add_key(a, key)


def _add_column(a: _Alter, r: Reader, exists_ok: bool) -> None:
    name = r.column_name()
    check_column_name(name)
    spec = read_column(r, name, a.new.charset, a.new.collation)
    if a.new.column(name) is not None:
        if exists_ok:
            a.notes.append(Warning_("Note", errors.ER_DUP_FIELDNAME,
                                    f"Duplicate column name '{name}'"))
            r.accept("FIRST") or (r.accept("AFTER") and r.name())
            return
        raise ServerError(errors.ER_DUP_FIELDNAME, name)
    col = spec.column
    _position(a, r, col)
    _column_keys(a, spec)
    if col.default is not None and col.default.kind == "expr":
        a.fills[col.name] = _evaluate(a.s, col)


def _column_keys(a: _Alter, spec: ColumnSpec) -> None:
    col = spec.column
    if spec.unique:
        a.added.append(keys.NewKey(None, [col.name], True, [None], [False]))
    if spec.primary:
        a.added.append(keys.NewKey(keys.PRIMARY, [col.name], True, kind=keys.PRIMARY))
    if spec.check is not None:
        a.new.checks = constraints.named(a.new.checks + [(col.name, spec.check)])


def _evaluate(s: SqliteSession, col: ColumnDef) -> Any:
    """An expression default's value for the rows already there."""
    from rampmeter.engine.base import ResultSet
    from rampmeter.engine.values import store
    result = s.execute(s.scan(f"SELECT {col.default.value}"))  # type: ignore[union-attr]
    if not isinstance(result, ResultSet):
        return None
    row = next(iter(result.rows), (None,))
    stored, _problem = store(col.type, row[0])
    return stored


def _replace_column(a: _Alter, r: Reader, old_name: str, new_name: str) -> None:
    col = a.column(old_name)
    check_column_name(new_name)
    if new_name.lower() != col.name.lower() and a.new.column(new_name) is not None:
        raise ServerError(errors.ER_DUP_FIELDNAME, new_name)
    spec = read_column(r, new_name, a.new.charset, a.new.collation)
    # the new definition replaces the column's own CHECK too (MariaDB drops it)
    a.new.checks = [(n, e) for n, e in a.new.checks
                    if n.lower() != col.name.lower() or not a.new.column_check(n)]
    k = a.new.columns.index(col)
    del a.new.columns[k]
    if r.at("FIRST") or r.at("AFTER"):
        _position(a, r, spec.column)
    else:
        a.new.columns.insert(k, spec.column)
    if new_name != col.name:
        _rename_everywhere(a, col.name, new_name)
    checks.check_type_change(a, col, spec.column)
    _column_keys(a, spec)


def _modify(a: _Alter, r: Reader) -> None:
    r.expect("MODIFY")
    r.accept("COLUMN")
    if_exists = r.accept("IF", "EXISTS")
    name = r.name()
    if if_exists and a.new.column(name) is None:
        _unknown_column_note(a, name)
        _skip_definition(r)
        return
    _replace_column(a, r, name, a.column(name).name)


def _change(a: _Alter, r: Reader) -> None:
    r.expect("CHANGE")
    r.accept("COLUMN")
    exists_check = r.accept("IF", "EXISTS")
    old = r.name()
    if exists_check and a.new.column(old) is None:
        _unknown_column_note(a, old)
        r.name()
        _skip_definition(r)
        return
    new = r.name()
    _replace_column(a, r, old, new)


def _unknown_column_note(a: _Alter, name: str) -> None:
    a.notes.append(Warning_("Note", errors.ER_BAD_FIELD_ERROR,
                            f"Unknown column '{name}' in '{a.name}'"))


def _skip_definition(r: Reader) -> None:
    depth = 0
    while not r.done:
        if depth == 0 and r.at(","):
            return
        t = r.next()
        depth += (t.text == "(") - (t.text == ")")


def _alter_column(a: _Alter, r: Reader) -> None:
    r.expect("ALTER")
    if r.accept_any("INDEX", "KEY"):
        r.name()
        r.accept("NOT")
        if not r.accept_any("IGNORED", "VISIBLE", "INVISIBLE"):
            raise r.error()
        return
    r.accept("COLUMN")
    col = a.column(r.name())
    if r.accept("SET", "DEFAULT"):
        value = read_default(r, col)
        col.default = value
        if value.kind == "expr":
            a.fills.setdefault(col.name, None)
    elif r.accept("DROP", "DEFAULT"):
        col.default = Default("value", None, "NULL") if col.nullable else None
    elif r.accept("SET"):
        if not r.accept_any("VISIBLE", "INVISIBLE"):
            raise r.error()
    else:
        raise r.error()


def _rename_everywhere(a: _Alter, old: str, new: str) -> None:
    """A renamed column, in the table's keys and constraints and in those of others."""
    t = a.new
    t.renamed[new] = t.renamed.pop(old, old)
    low = old.lower()

    def swap(cols: list[str]) -> list[str]:
        return [new if c.lower() == low else c for c in cols]
    t.primary = swap(t.primary)
    for i in t.indexes:
        i.columns = swap(i.columns)
    for k in a.added:
        k.columns = swap(k.columns)
    for fk in t.foreign:
        fk.columns = swap(fk.columns)
        if fk.ref_db is None and fk.ref_table.lower() == t.name.lower():
            fk.ref_columns = swap(fk.ref_columns)
    for _child, fk in checks.children(a):
        fk.ref_columns = swap(fk.ref_columns)
    if t.checks:  # the column's own CHECK takes its new name; every CHECK reads it anew
        t.checks = constraints.named([
            (new if n.lower() == low and low not in t.table_named else n,
             constraints.renamed_column(e, old, new)) for n, e in t.checks])


# --- drops -------------------------------------------------------------------------------------
def _drop(a: _Alter, r: Reader) -> None:
    r.expect("DROP")
    if r.accept_any("INDEX", "KEY"):
        if_exists = r.accept("IF", "EXISTS")
        _drop_key(a, r.name(), if_exists, "INDEX")
    elif r.accept("PRIMARY", "KEY"):
        _drop_key(a, keys.PRIMARY, False, "INDEX")
    elif r.accept("FOREIGN", "KEY"):
        if_exists = r.accept("IF", "EXISTS")
        _drop_foreign(a, r.name(), if_exists)
    elif r.accept_any("CONSTRAINT", "CHECK"):
        if_exists = r.accept("IF", "EXISTS")
        _drop_constraint(a, r.name(), if_exists)
    else:
        r.accept("COLUMN")
        if_exists = r.accept("IF", "EXISTS")
        name = r.name()
        r.accept_any("RESTRICT", "CASCADE")
        _drop_column(a, name, if_exists)


def _cant_drop(a: _Alter, what: str, name: str, if_exists: bool) -> None:
    message = f"Can't DROP {what} `{name}`; check that it exists"
    if not if_exists:
        raise ServerError(errors.ER_CANT_DROP_FIELD_OR_KEY, message=message)
    a.notes.append(Warning_("Note", errors.ER_CANT_DROP_FIELD_OR_KEY, message))


def _drop_key(a: _Alter, name: str, if_exists: bool, what: str) -> bool:
    t = a.new
    if name.upper() == keys.PRIMARY:
        if not t.primary:
            _cant_drop(a, what, name, if_exists)
            return False
        t.primary = []
        return True
    idx = next((i for i in t.indexes if i.name.lower() == name.lower()), None)
    if idx is None:
        added = next((k for k in a.added if (k.name or "").lower() == name.lower()), None)
        if added is None:
            _cant_drop(a, what, name, if_exists)
            return False
        a.added.remove(added)
        return True
    t.indexes.remove(idx)
    a.dropped_keys.add(name.lower())
    return True


def _drop_foreign(a: _Alter, name: str, if_exists: bool) -> bool:
    fk = next((f for f in a.new.foreign if f.name.lower() == name.lower()), None)
    if fk is None:
        _cant_drop(a, "FOREIGN KEY", name, if_exists)
        return False
    a.new.foreign.remove(fk)
    return True


def _drop_constraint(a: _Alter, name: str, if_exists: bool) -> None:
    t = a.new
    if any(f.name.lower() == name.lower() for f in t.foreign):
        _drop_foreign(a, name, False)
    elif any(c[0].lower() == name.lower() and not t.column_check(c[0]) for c in t.checks):
        # a table constraint; a column's own goes only with its column (MariaDB)
        t.checks = [c for c in t.checks if c[0].lower() != name.lower()]
    elif any(i.name.lower() == name.lower() and i.unique for i in t.indexes) or \
            name.upper() == keys.PRIMARY and t.primary:
        _drop_key(a, name, False, "CONSTRAINT")
    else:
        _cant_drop(a, "CONSTRAINT", name, if_exists)


def _drop_column(a: _Alter, name: str, if_exists: bool) -> None:
    t = a.new
    col = t.column(name)
    if col is None:
        _cant_drop(a, "COLUMN", name, if_exists)
        return
    t.columns.remove(col)  # the last one too: an ADD of the same ALTER may follow (_finish)
    low = col.name.lower()
    t.primary = [c for c in t.primary if c.lower() != low]
    t.checks = [c for c in t.checks if c[0].lower() != low or not t.column_check(c[0])]
    kept = []
    for i in t.indexes:  # MariaDB drops the column from its keys, and empty keys with it
        pairs = [(c, p, d) for c, p, d in zip(i.columns, i.prefixes or [None] * len(i.columns),
                                              i.desc or [False] * len(i.columns))
                 if c.lower() != low]
        if len(pairs) != len(i.columns):
            a.dropped_keys.add("\0" + i.name.lower())  # shrunk: a constraint may need it whole
        if pairs:
            i.columns = [p[0] for p in pairs]
            i.prefixes = [p[1] for p in pairs]
            i.desc = [p[2] for p in pairs]
            kept.append(i)
    t.indexes = kept
    a.dropped_columns.append(col.name)


# --- keys ----------------------------------------------------------------------------------------
def _add_key(a: _Alter, key: KeySpec) -> None:
    if key.kind == "PRIMARY":
        a.added.append(keys.NewKey(keys.PRIMARY, key.columns, True, key.prefixes, key.desc,
                                   kind=keys.PRIMARY))
    elif key.kind == "CHECK":
        name = key.name or key.constraint or ""
        a.new.checks = constraints.named(a.new.checks + [(name, key.check or "")])
        if name and a.new.column(name) is not None:  # a table constraint named as a column
            a.new.table_named.append(name.lower())
    elif key.kind == "FOREIGN":
        fk = foreign.make(a.name, a.database, key, a.new.foreign)
        fk.columns = keys.key_columns(a.new, fk.columns)
        if foreign.enforced_by(a.new.engine):
            a.new.foreign.append(fk)
            a.new_foreign.append(fk)
        a.added.append(keys.foreign_index(key.constraint or key.name, fk.columns))
    else:
        name = key.name or key.constraint
        a.added.append(keys.NewKey(name, key.columns, key.kind == "UNIQUE", key.prefixes,
                                   key.desc, key.kind if key.kind in ("FULLTEXT", "SPATIAL")
                                   else "", key.comment, using=key.using,
                                   attributes=tableopts.applied((), key.attrs)))
        a.key_attrs.extend(key.attrs)


def _rename(a: _Alter, r: Reader) -> None:
    r.expect("RENAME")
    if r.accept("COLUMN"):
        old = r.name()
        r.expect("TO")
        new = r.name()
        col = a.column(old)
        check_column_name(new)
        if a.new.column(new) is not None and new.lower() != old.lower():
            raise ServerError(errors.ER_DUP_FIELDNAME, new)
        renamed = col.name
        col.name = new
        _rename_everywhere(a, renamed, new)
    elif r.accept_any("INDEX", "KEY"):
        old = r.name()
        r.expect("TO")
        new = r.name()
        idx = next((i for i in a.new.indexes if i.name.lower() == old.lower()), None)
        if idx is None:
            raise ServerError(1176, message=f"Key '{old}' doesn't exist in table '{a.name}'")
        idx.name = new
        idx.generated = False
    else:
        r.accept_any("TO", "AS")
        db, a.rename_to = r.qualified_name()
        if db is not None and db.lower() != a.database.lower():
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "RENAME TABLE across databases")


# The engines whose indexes MariaDB can switch off (ALTER TABLE ... DISABLE KEYS); here the
# statement only records the state (SHOW INDEX shows it): SQLite keeps every index current.
_DISABLE_KEYS_ENGINES = ("MyISAM", "Aria", "MEMORY")


def _keys_note(a: _Alter) -> None:
    a.notes.append(Warning_("Note", 1031, f"Storage engine {a.new.engine} of the table "
                            f"`{a.database}`.`{a.name}` doesn't have this option"))


def _option(a: _Alter, r: Reader) -> None:
    t = a.new
    if r.accept("FORCE"):
        return
    if word := r.accept_any("DISABLE", "ENABLE"):
        r.expect("KEYS")
        if t.engine in _DISABLE_KEYS_ENGINES:
            t.keys_disabled = word.upper() == "DISABLE"
        else:  # InnoDB & co. have no such thing
            _keys_note(a)
        return
    if r.accept("ORDER", "BY"):
        while not r.done and not r.at(","):
            r.next()
        return
    if r.accept("CONVERT", "TO"):
        r.accept("CHARACTER")
        r.accept_any("SET", "CHARSET")
        _convert_charset(a, r.name_or_string(), r.name_or_string() if r.accept("COLLATE")
                         else None)
        return
    _table_option(a, r)


def _table_option(a: _Alter, r: Reader) -> None:
    _one_table_option(a, r)
    while r.peek_word() in _OPTIONS and r.peek_word() not in (
            "FORCE", "CONVERT", "DISABLE", "ENABLE", "ORDER") or tableopts.at_attribute(r):
        # table options may follow each other without commas
        _one_table_option(a, r)


def _one_table_option(a: _Alter, r: Reader) -> None:
    t = a.new
    if tableopts.at_attribute(r):
        tableopts.merge(a.attrs, *tableopts.read_attribute(r))
        return
    r.accept("DEFAULT")
    word = r.next().text.upper()
    if word == "CHARACTER":
        r.expect("SET")
        word = "CHARSET"
    r.accept("=")
    value = r.next()
    text = value.text
    if value.kind == "str":
        from rampmeter.sql.lexer import string_value
        text = string_value(value.text)
    if word == "COMMENT":
        t.comment = text
    elif word == "ENGINE":
        from rampmeter.engine.sqlite.dbopts import engine_name
        t.engine = engine_name(text)
        if t.keys_disabled and t.engine not in _DISABLE_KEYS_ENGINES:
            _keys_note(a)  # MariaDB asks the new engine to keep them off, and it cannot
            t.keys_disabled = False
    elif word == "AUTO_INCREMENT" and text.isdigit():
        a.auto_increment = int(text)
    elif tableopts.ALIASES.get(word, word) in tableopts.KNOWN:
        a.given.add(tableopts.ALIASES.get(word, word))
        tableopts.set_known(t, word, text)
    elif word in ("CHARSET", "COLLATE"):
        from rampmeter.engine.sqlite.definitions import table_charset
        t.charset, t.collation = table_charset({word: text}, _database_default(a))
        a.charset_option = True


def _database_default(a: _Alter) -> tuple[str, str]:
    """What CHARACTER SET DEFAULT names here: the database's character set."""
    from rampmeter.engine.sqlite import dbopts
    opts = dbopts.load(a.s, a.database)
    return opts.charset, opts.collation


def _convert_charset(a: _Alter, cs_name: str, coll_name: str | None) -> None:
    from rampmeter.engine.sqlite.definitions import table_charset
    cs, coll = table_charset({"CHARSET": cs_name, **({"COLLATE": coll_name} if coll_name
                                                     else {})}, _database_default(a))
    if charsets.charset(cs) is None:
        raise ServerError(errors.ER_UNKNOWN_CHARACTER_SET, cs_name)
    if not a.charset_option:
        a.new.charset, a.new.collation = cs, coll
    for c in a.new.columns:
        if c.type.is_text and c.type.name != "json":
            c.type = dc_replace(c.type, charset=cs, collation=coll)


_ACTIONS = {"ADD": _add, "DROP": _drop, "MODIFY": _modify, "CHANGE": _change,
            "ALTER": _alter_column, "RENAME": _rename,
            **dict.fromkeys(_OPTIONS, _option)}


# --- the end -------------------------------------------------------------------------------------
def _limit_comments(a: _Alter, strict: bool) -> None:
    """The comments this ALTER sets, held to MariaDB's lengths (create_table.py)."""
    from rampmeter.engine.sqlite.create_table import check_definition_size, limit_comments
    before = {c.name.lower(): c.comment for c in a.old.columns}
    changed = {c.name.lower() for c in a.new.columns if c.comment != before.get(c.name.lower())}
    old_indexes = {i.name.lower(): i.comment for i in a.old.indexes}
    indexes = {i.name.lower() for i in a.new.indexes
               if i.comment != old_indexes.get(i.name.lower())}
    a.notes.extend(limit_comments(a.new, strict, changed, a.new.comment != a.old.comment,
                                  indexes))
    check_definition_size(a.new)


def _finish(a: _Alter, ignore: bool) -> Result:
    s, t = a.s, a.new
    if not t.columns:  # MariaDB asks it of the table the whole ALTER leaves
        raise ServerError(1090, message="You can't delete all columns with ALTER TABLE; use "
                          "DROP TABLE instead")
    if a.dropped_columns:
        t.checks = constraints.after_dropping(t.checks, a.dropped_columns)
    constraints.known_columns(t)
    key_list = keys.existing(t) + a.added
    keys.assemble(t, key_list)
    checks.check_auto(t)
    check_invisible(t)
    checks.check_foreign(a)
    mode = s.sql_mode()
    strict = ("STRICT_TRANS_TABLES" in mode or "STRICT_ALL_TABLES" in mode) and not ignore
    from rampmeter.engine.sqlite.create_table import limit_lengths
    a.notes.extend(limit_lengths(t, strict))
    _limit_comments(a, strict)
    before = {c.name.lower(): c.attributes for c in a.old.columns}
    changed = [n for c in t.columns if c.attributes != before.get(c.name.lower())
               for n, _v in c.attributes]
    a.notes.extend(tableopts.check(mode, changed + tableopts.unknown_names(
        t, a.key_attrs, {**dict.fromkeys(a.given), tableopts.ATTRS: a.attrs}, columns=False)))
    t.attributes = tableopts.applied(t.attributes, a.attrs)
    tableopts.settle_engine(t, a.old.engine, a.given)
    others = [child for child, _fk in checks.children(a)] if _parent_changed(a) else []
    skipped: list[Warning_] = []

    def after() -> None:
        checks.check_rows(a)
        if _copies_checked(a):  # MariaDB checks each row it copies (checks.py)
            skipped.extend(constraints.verify_rows(s, a.schema, a.database, t, _shown(a),
                                                   ignore=ignore))

    duplicates: list[tuple[int, int]] = []

    def dedupe() -> None:
        if ignore:
            duplicates.append(_drop_duplicates(a))

    outcome = rebuild.apply(s, a.schema, a.old, t, database=a.database, others=others,
                            after=after, strict=strict, fills=a.fills,
                            copy=bool(a.new_foreign) and fkcheck.checks_on(s), before=dedupe)
    total, dropped = duplicates[0] if duplicates else (0, 0)
    if a.auto_increment is not None and t.auto_column is not None and \
            autokey.counted(t):
        checks.set_auto_increment(s, a.schema, t, a.auto_increment)
    if a.rename_to is not None and a.rename_to != t.name:
        rebuild.rename_table(s, a.schema, a.database, t.name, a.rename_to)
    old_names = {i.name.lower() for i in a.old.indexes}
    warnings = a.notes + [n for n in t.notes if n.message.split("`")[1].lower()
                          not in old_names] + outcome.warnings + skipped
    warnings += stattables.after_alter(s, a.old, t, a.dropped_columns)
    if a.only_rename:
        return UpdateCount(warnings=warnings)
    # ALTER IGNORE: rows a constraint or a new unique key dropped count as MariaDB's
    # "duplicates", not as copied
    records = total if dropped else outcome.copied  # IGNORE copies every row (MariaDB)
    copied = records - len(skipped)
    return UpdateCount(copied, 0, f"Records: {records}  Duplicates: "
                       f"{len(skipped) + dropped}  Warnings: {len(warnings)}", warnings)


def _drop_duplicates(a: _Alter) -> tuple[int, int]:
    """ALTER IGNORE adding a PRIMARY KEY or UNIQUE key: of the rows that repeat its value,
    the first stays and the rest go (MariaDB); NULLs repeat nothing in a UNIQUE key.
    (rows before, rows dropped)."""
    old, new = a.old, a.new
    table = f"{q(a.schema)}.{q(old.name)}"
    total = a.s.handle.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    sources = {c.name.lower(): new.renamed.get(c.name, c.name) for c in new.columns}
    had = {tuple(c.lower() for c in i.columns) for i in old.indexes if i.unique}
    had.add(tuple(c.lower() for c in old.primary))
    wanted = ([new.primary] if new.primary else []) + \
        [i.columns for i in new.indexes if i.unique and not i.kind]
    gone = 0
    for cols in wanted:
        src = [sources.get(c.lower(), c) for c in cols]
        if tuple(c.lower() for c in src) in had or any(old.column(c) is None for c in src):
            continue
        listed = ", ".join(q(c) for c in src)
        present = " AND ".join(f"{q(c)} IS NOT NULL" for c in src) \
            if cols is not new.primary else "1"
        cur = a.s.handle.execute(
            f"DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM (SELECT rowid, "
            f"ROW_NUMBER() OVER (PARTITION BY {listed} ORDER BY rowid) AS n FROM {table} "
            f"WHERE {present}) WHERE n > 1)")
        gone += max(cur.rowcount, 0)
    return total, gone


def _copies_checked(a: _Alter) -> bool:
    """Does MariaDB copy the rows, checking each against the constraints? For a new table
    constraint, a column whose values convert, and any change to a table of an engine that
    alters nothing in place (MyISAM, Aria, MEMORY...). InnoDB adds a column, even one with
    its own CHECK, in place, without looking at the rows."""
    old = {n.lower() for n, _e in a.old.checks}
    columns = {c.name.lower() for c in a.new.columns}
    if any(n.lower() not in old and (n.lower() not in columns or not a.new.column_check(n))
           for n, _e in a.new.checks):
        return True
    if a.new.engine in NON_TRANSACTIONAL:
        return not a.only_rename
    return bool(rebuild.converted(a.old, a.new))


def _shown(a: _Alter) -> str:
    """The table's name as the client knows it (a temporary table's is stored as db/name)."""
    return a.name.partition("/")[2] if a.schema == temporary.SCHEMA else a.name


def _parent_changed(a: _Alter) -> bool:
    return bool(checks.children(a)) and (bool(a.new.renamed) or a.rename_to is not None)


