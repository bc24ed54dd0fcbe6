"""CREATE [OR REPLACE] [TEMPORARY] TABLE [IF NOT EXISTS]: from column definitions, LIKE another
table, or AS SELECT (create_select.py).

Rules:
- The definition is read by definitions.py and assembled by keys.py; foreign keys are checked
  by foreign.py against the tables they name, and against this one by the constraints of other
  tables that already name it (a table created after the ones that refer to it, as dumps do).
  A constraint name taken in the database is 1005 (errno 121).
- The table, its JSON row and the database's foreign-key triggers (fkcheck.py) are written in
  one DDL transaction; OR REPLACE drops the old table in the same one.
- LIKE copies columns, keys, options and AUTO_INCREMENT attributes, not foreign keys nor rows
  nor the counter (MariaDB).
- TEMPORARY tables are temporary.py's.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.engine.base import Result, UpdateCount
from rampmeter.engine.sqlite import (
    autokey,
    catalog,
    dbopts,
    fkcheck,
    foreign,
    generated,
    rebuild,
    tableopts,
    temporary,
)
from rampmeter.engine.sqlite.catalog import TableDef, q
from rampmeter.engine.sqlite.definitions import (
    ColumnSpec,
    KeySpec,
    build_table,
    check_table_name,
    is_key_start,
    read_column,
    read_key,
    read_table_options,
    table_charset,
)
from rampmeter.errors import ServerError, Warning_
from rampmeter.sql import charsets
from rampmeter.sql.reader import Reader

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession


class Target:
    """Where a CREATE TABLE puts its table."""

    def __init__(self, s: SqliteSession, db: str | None, table: str, *, temporary: bool,
                 or_replace: bool, if_not_exists: bool) -> None:
        database = db or s.database
        if database is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        self.database = database
        self.schema = s.schema(database)
        self.table = table
        self.temporary = temporary
        self.or_replace = or_replace
        self.if_not_exists = if_not_exists


def create_table(s: SqliteSession, r: Reader, *, or_replace: bool, temporary: bool) -> Result:
    if_not_exists = r.accept("IF", "NOT", "EXISTS")
    db, table = r.qualified_name()
    check_table_name(table)
    target = Target(s, db, table, temporary=temporary, or_replace=or_replace,
                    if_not_exists=if_not_exists)
    if r.at("LIKE") or r.at("(") and r.peek_word(1) == "LIKE":
        return _like(s, r, target)
    columns: list[ColumnSpec] = []
    keys: list[KeySpec] = []
    defaults = dbopts.table_defaults(s, target.database)
    if r.at("(") and r.peek_word(1) not in ("SELECT", "WITH", "VALUES"):
        cs = _peek_table_charset(r, defaults)
        r.expect("(")
        while True:
            t = r.peek()
            if t is not None and t.kind == "word" and is_key_start(r):
                keys.append(read_key(r))
            else:
                columns.append(read_column(r, r.column_name(), *cs))
            if r.accept(")"):
                break
            r.expect(",")
    options = read_table_options_before_select(r)
    if not r.done:
        from rampmeter.engine.sqlite import create_select
        return create_select.create(s, r, target, columns, keys, options)
    if not columns:
        raise ServerError(1113, message="A table must have at least 1 column")
    tdef = build_table(table, columns, keys, options, database=target.database,
                       defaults=defaults)
    tdef.notes.extend(limit_lengths(tdef, _strict(s)))
    tdef.notes.extend(check_members(tdef, _strict(s)))
    tdef.notes.extend(limit_comments(tdef, _strict(s)))
    check_definition_size(tdef)
    tdef.notes.extend(tableopts.check(s.sql_mode(), tableopts.unknown_names(
        tdef, [a for k in keys for a in k.attrs], options)))
    return make(s, target, tdef)


def _strict(s: SqliteSession) -> bool:
    mode = s.sql_mode()
    return "STRICT_TRANS_TABLES" in mode or "STRICT_ALL_TABLES" in mode


# MariaDB's longest comments, in characters (TABLE_COMMENT_MAXLEN, COLUMN_COMMENT_MAXLEN)
TABLE_COMMENT_MAX = 2048
COLUMN_COMMENT_MAX = 1024
INDEX_COMMENT_MAX = 1024


# MariaDB's .frm form block (unireg.cc pack_header): 17 bytes per column (FCOMP), 288 of
# header (FRM_FORMINFO_SIZE), the column names, the ENUM / SET members and the column
# comments must fit in 65535 bytes, and there may be 255 ENUM / SET columns at most.
_FCOMP, _FORMINFO, _FORM_MAX, _INTERVALS_MAX = 17, 288, 65535, 255


def check_definition_size(tdef: TableDef) -> None:
    """1117 "Table definition is too large" where MariaDB's .frm form block overflows."""
    names = 2 + sum(len(c.name.encode("utf-8", "surrogateescape")) + 1 for c in tdef.columns)
    intervals = [c.type.members for c in tdef.columns if c.type.members]
    members = sum(len(m.encode("utf-8", "surrogateescape")) + 1 for ms in intervals
                  for m in ms) + 2 * len(intervals)
    comments = sum(len(c.comment.encode("utf-8", "surrogateescape")) for c in tdef.columns)
    size = names + len(tdef.columns) * _FCOMP + _FORMINFO + members + comments
    if size > _FORM_MAX or len(intervals) > _INTERVALS_MAX:
        raise ServerError(1117, message="Table definition is too large",
                          sqlstate="HY000")


# MariaDB's longest CHAR: 255 characters (MAX_FIELD_CHARLENGTH) in under 1024 bytes; the longest
# VARCHAR: 65532 bytes (a row's 65535 less its length bytes and NULL bits)
CHAR_MAX_CHARS = 255
CHAR_MAX_BYTES = 1023
VARCHAR_MAX_BYTES = 65532


def limit_lengths(tdef: TableDef, strict: bool, only: set[str] | None = None
                  ) -> list[Warning_]:
    """CHAR / VARCHAR lengths MariaDB cannot store in the column's character set: CHAR(n) past
    255 characters is 1074; past 1023 bytes (CHAR(205) CHARACTER SET filename, 5 bytes a
    character) it is 1074 in strict mode, else a VARCHAR with note 1246; a VARCHAR past 65532
    bytes likewise, else the TEXT type that holds it. `only`: the columns to check."""
    from dataclasses import replace

    from rampmeter.engine.types import _blob_for
    notes: list[Warning_] = []
    for c in tdef.columns:
        t = c.type
        if t.name not in ("char", "varchar") or t.width is None or \
                only is not None and c.name.lower() not in only:
            continue
        cs = charsets.charset(t.charset or tdef.charset)
        maxlen = cs.maxlen if cs is not None else 1
        if t.name == "char":
            limit = min(CHAR_MAX_CHARS, CHAR_MAX_BYTES // maxlen)
            if t.width <= limit:
                continue
            if strict or t.width > CHAR_MAX_CHARS:
                raise ServerError(1074, message=f"Column length too big for column '{c.name}' "
                                  f"(max = {limit}); use BLOB or TEXT instead", sqlstate="42000")
            c.type = replace(t, name="varchar")
            notes.append(Warning_("Note", 1246, f"Converting column '{c.name}' from CHAR to "
                                  "VARCHAR"))
        elif t.width * maxlen > VARCHAR_MAX_BYTES:
            if strict:
                raise ServerError(1074, message=f"Column length too big for column '{c.name}' "
                                  f"(max = {VARCHAR_MAX_BYTES // maxlen}); use BLOB or TEXT "
                                  "instead", sqlstate="42000")
            c.type = replace(t, name=_blob_for(t.width, maxlen, "text"), width=None)
            notes.append(Warning_("Note", 1246, f"Converting column '{c.name}' from VARCHAR to "
                                  "TEXT"))
    return notes


def check_members(tdef: TableDef, strict: bool) -> list[Warning_]:
    """An ENUM / SET member given twice (equal under the column's collation: 'a' and 'A'
    in a _ci one) is 1291, an error in strict mode, else a Note; a SET of more than 64
    distinct members is 1097 (MariaDB's checks when it reads the definition)."""
    from rampmeter.engine.sqlite.collations import member_key
    notes: list[Warning_] = []
    for c in tdef.columns:
        t = c.type
        if t.name not in ("enum", "set"):
            continue
        coll = t.collation or (charsets.default_collation(t.charset).name
                               if t.charset and charsets.default_collation(t.charset)
                               else None)
        key = member_key(coll)
        seen: dict[object, str] = {}
        for m in t.members:
            k = key(m.rstrip(" "))
            if k in seen:  # MariaDB names the member given first
                message = f"Column '{c.name}' has duplicated value '{seen[k]}' in " \
                          f"{t.name.upper()}"
                if strict:
                    raise ServerError(1291, message=message, sqlstate="HY000")
                notes.append(Warning_("Note", 1291, message))
            seen.setdefault(k, m)
        if t.name == "set" and len(seen) > 64:
            raise ServerError(1097, message=f"Too many strings for column {c.name} and SET",
                              sqlstate="HY000")
    return notes


def limit_comments(tdef: TableDef, strict: bool, only: set[str] | None = None,
                   table: bool = True, indexes: set[str] | None = None) -> list[Warning_]:
    """A comment longer than MariaDB keeps: an error in strict mode (1628 the table's, 1629 a
    column's, 1688 an index's), else cut to the limit with that warning. `only`: the columns
    to check (an ALTER's changed ones), None for all; `table`: check the table's comment too;
    `indexes`: the indexes to check (lower-cased names), None for all."""
    notes: list[Warning_] = []

    def cut(text: str, limit: int, code: int, what: str) -> str:
        if not charsets.is_valid(text):  # comments are kept in utf8mb3: 1300 (MariaDB)
            good = re.split("[\udc80-\udcff]", text, maxsplit=1)[0]
            raise ServerError(errors.ER_INVALID_CHARACTER_STRING, message="Invalid utf8mb3 "
                              f"character string: '{good}'", sqlstate="HY000")
        if len(text) <= limit:
            return text
        message = f"Comment for {what} is too long (max = {limit})"
        if strict:
            raise ServerError(code, message=message, sqlstate="HY000")
        notes.append(Warning_("Warning", code, message))
        return text[:limit]

    for c in tdef.columns:  # the columns' first, then the table's (MariaDB's order)
        if c.comment and (only is None or c.name.lower() in only):
            c.comment = cut(c.comment, COLUMN_COMMENT_MAX, 1629, f"field '{c.name}'")
    for idx in tdef.indexes:
        if idx.comment and (indexes is None or idx.name.lower() in indexes):
            idx.comment = cut(idx.comment, INDEX_COMMENT_MAX, 1688, f"index '{idx.name}'")
    if table:
        tdef.comment = cut(tdef.comment, TABLE_COMMENT_MAX, 1628, f"table '{tdef.name}'")
    return notes


def read_table_options_before_select(r: Reader) -> dict[str, object]:
    """Table options up to an AS / SELECT / IGNORE / REPLACE that starts a query."""
    start = r.i
    depth = 0
    j = r.i
    while j < len(r.toks):
        t = r.toks[j]
        word = t.text.upper() if t.kind == "word" else ""
        if depth == 0 and (word in ("AS", "SELECT", "WITH", "IGNORE", "REPLACE", "VALUES") or
                           t.text == "(" and j + 1 < len(r.toks) and
                           r.toks[j + 1].text.upper() in ("SELECT", "WITH")):
            break
        depth += (t.text == "(") - (t.text == ")")
        j += 1
    sub = Reader(r.stmt, start)
    sub.toks = r.toks[:j]
    options = read_table_options(sub)
    r.i = j
    return options


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
        return table_charset(read_table_options_before_select(sub),
                             (defaults.charset, defaults.collation))
    except ServerError:
        return defaults.charset, defaults.collation


def _like(s: SqliteSession, r: Reader, target: Target) -> Result:
    parens = r.accept("(")
    r.expect("LIKE")
    db, name = r.qualified_name()
    if parens:
        r.expect(")")
    r.end()
    src = s.table_def(*s.resolve_table(db, name))
    if src is None:
        raise ServerError(errors.ER_NO_SUCH_TABLE, db or s.database or "", name)
    tdef = catalog.copy_table(src)
    tdef.name = target.table
    tdef.foreign = []
    tdef.location = None
    for i in tdef.indexes:
        i.generated = False
    return make(s, target, tdef)


def exists(s: SqliteSession, target: Target) -> str | None:
    """The stored name of the table (or view) the new one would clash with."""
    if target.temporary:
        return temporary.find(s, target.database, target.table)
    return s.find_table(target.schema, target.table) or \
        s.find_view(target.schema, target.table)


def make(s: SqliteSession, target: Target, tdef: TableDef) -> Result:
    """Create `tdef` at `target` (module rules); a Note when IF NOT EXISTS finds it there."""
    existing = exists(s, target)
    if existing is not None:
        if target.if_not_exists:
            return UpdateCount(warnings=[Warning_.of(errors.ER_TABLE_EXISTS_ERROR,
                                                     target.table, level="Note")])
        if not target.or_replace:
            raise ServerError(errors.ER_TABLE_EXISTS_ERROR, target.table)
    generated.prepare(s, target.database, tdef)
    if target.temporary:
        if tdef.foreign:
            raise foreign.cannot_create(target.database, target.table)
        temporary.create(s, target.database, tdef, replace=existing is not None)
        return UpdateCount(warnings=list(tdef.notes))
    if existing is not None and s.find_view(target.schema, target.table) is not None:
        raise ServerError(1347, message=f"'{target.database}.{target.table}' is not of type "
                          "'BASE TABLE'", sqlstate="HY000")
    children = _check_foreign(s, target, tdef)
    with s.ddl(), fkcheck.maintained(s, target.schema, target.database,
                                     [tdef.name, existing or tdef.name]):
        if existing is not None:
            s.handle.execute(f"DROP TABLE {q(target.schema)}.{q(existing)}")
            s.handle.execute(catalog.meta_delete_sql(target.schema), (existing,))
        rebuild.write_table(s, target.schema, tdef)
        for child in children:
            rebuild.write_spec(s, target.schema, child)
        if tdef.auto_column is not None:  # a dropped table's counter is not this one's
            autokey.forget_sequence(s, target.schema, tdef.name)
        if tdef.auto_increment and tdef.auto_increment > 1 and tdef.auto_column is not None \
                and autokey.counted(tdef):
            s.handle.execute(f"INSERT INTO {q(target.schema)}.sqlite_sequence (name, seq) "
                             "VALUES (?, ?)", (tdef.name, tdef.auto_increment - 1))
    return UpdateCount(warnings=list(tdef.notes))


def _check_foreign(s: SqliteSession, target: Target, tdef: TableDef) -> list[TableDef]:
    """foreign.py's checks for a new table; returns the tables whose constraints name it (their
    column spellings are made the new table's)."""
    conn = s.handle.conn
    schema, database = target.schema, target.database
    mentions = [n for n in fkcheck.spec_mentions(conn, schema, tdef.name)
                if n.lower() != tdef.name.lower()]
    if not tdef.foreign and not mentions:
        return []
    checks_on = fkcheck.checks_on(s)
    if tdef.foreign:
        taken = fkcheck.constraint_names(conn, schema, tdef.name)
        for fk in tdef.foreign:
            if fk.name.lower() in taken:
                raise foreign.cannot_create(database, tdef.name, foreign.DUPLICATE)
            taken.add(fk.name.lower())
            parent = _parent(s, target, tdef, fk)
            foreign.check(database, tdef, fk, parent, checks_on=checks_on)
            foreign.stored_names(fk, tdef, parent)
    children = []
    for name in mentions:
        child = s.load_table(schema, name)
        for _c, fk in foreign.referencing({name: child}, tdef.name):
            foreign.check(database, child, fk, tdef, checks_on=True, shown_table=tdef.name)
            foreign.stored_names(fk, child, tdef)
        children.append(child)
    return children


def _parent(s: SqliteSession, target: Target, tdef: TableDef, fk: catalog.ForeignKey
            ) -> TableDef | None:
    if fk.ref_db is not None:
        return s.table_def(fk.ref_db, fk.ref_table) if s.engine.database_exists(fk.ref_db) \
            else None
    if fk.ref_table.lower() == tdef.name.lower():
        return tdef
    stored = s.find_table(target.schema, fk.ref_table)
    return s.load_table(target.schema, stored) if stored else None
