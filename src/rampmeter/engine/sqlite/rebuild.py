"""Making a table what its new definition says: in place when SQLite can, else rebuilt with the
rows copied and converted as MariaDB's ALTER TABLE converts them.

Rules:
- `apply` runs inside one DDL transaction (session.ddl, under the write lock) with the
  database's foreign-key triggers dropped and made again around it (fkcheck.maintained).
- In place: when the SQLite columns stay the same (names, affinity, NOT NULL, SQLite default,
  AUTO_INCREMENT, primary key), only the indexes are made again and the JSON row rewritten.
- Rebuilt: SQLite's twelve-step recipe - a new table, the rows copied (in rowid order, rowids
  kept), the old one dropped, the new one renamed, its indexes made; the AUTO_INCREMENT counter
  is kept. A column whose type or nullability changed is converted row by row with
  values.store, and what does not fit is MariaDB's ALTER error (strict mode) or warning:
  1292 'Truncated incorrect INTEGER value' for a string that is no number, 1265 'Data
  truncated' for a string cut short or a NULL into NOT NULL (the column's implicit default
  when not strict), 1264 out of range, 1292 incorrect datetime.
- A new column gets its default in every existing row (the implicit default of its type when
  it has none and is NOT NULL); a new AUTO_INCREMENT column numbers the rows 1, 2, ...
- The OK packet: "N rows affected" and Records: N when MariaDB would copy the table (a column
  changes type other than a longer string of the same character set, the primary key is
  dropped or changed, a CHECK constraint is added, or a foreign key is added with
  foreign_key_checks=1), else 0; warnings counted.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine import values
from rampmeter.engine.sqlite import autokey, catalog, errmap, fkcheck, generated, timefns
from rampmeter.engine.sqlite.catalog import (
    ColumnDef,
    TableDef,
    implicit_default,
    index_sql,
    meta_table_ddl,
    meta_write_sql,
    q,
    spec_json,
)
from rampmeter.errors import ServerError, Warning_

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession


@dataclass(slots=True)
class Outcome:
    """What the ALTER reports: rows copied (when MariaDB copies) and the warnings."""

    copied: int = 0
    copies: bool = False
    warnings: list[Warning_] = field(default_factory=list)


def write_table(s: SqliteSession, schema: str, tdef: TableDef, name: str | None = None
                ) -> None:
    """CREATE TABLE + its indexes + its JSON row, inside the caller's DDL transaction."""
    h = s.handle
    h.execute(meta_table_ddl(schema))
    for sql in catalog.create_sql(tdef, schema, name):
        h.execute(sql)
    generated.install(s, schema, name or tdef.name, tdef)
    autokey.install(s, schema, name or tdef.name, tdef)
    h.execute(meta_write_sql(schema), (name or tdef.name, spec_json(tdef)))


def write_spec(s: SqliteSession, schema: str, tdef: TableDef) -> None:
    s.handle.execute(meta_table_ddl(schema))
    s.handle.execute(meta_write_sql(schema), (tdef.name, spec_json(tdef)))


def _sqlite_shape(tdef: TableDef) -> list[tuple[Any, ...]]:
    return [(c.name, c.type.affinity, c.type.case_insensitive, c.nullable, c.auto_increment,
             c.default.value if c.default and c.default.kind == "value" else None)
            for c in tdef.columns] + [tuple(tdef.primary)]


def _source(new: TableDef, col: ColumnDef) -> str:
    return new.renamed.get(col.name, col.name)


def converted(old: TableDef, new: TableDef) -> list[ColumnDef]:
    """New columns whose values need converting: type or nullability changed."""
    out = []
    for c in new.columns:
        was = old.column(_source(new, c))
        if was is None:
            continue
        if was.type.stored_spelling() != c.type.stored_spelling() or \
                (was.nullable and not c.nullable):
            out.append(c)
    return out


def copies(old: TableDef, new: TableDef) -> bool:
    """Would MariaDB copy the rows (module rules)?"""
    was = [new.renamed.get(c, c).lower() for c in new.primary]
    if old.primary and [c.lower() for c in old.primary] != was:
        return True
    columns = {c.name.lower() for c in new.columns}  # a column's own CHECK: added in place
    if any(c not in old.checks and (c[0].lower() not in columns or not new.column_check(c[0]))
           for c in new.checks):
        return True
    for c in new.columns:
        was = old.column(_source(new, c))
        if was is None or was.type.stored_spelling() == c.type.stored_spelling():
            continue
        a, b = was.type, c.type
        longer = a.name == b.name and a.is_string and a.charset == b.charset and \
            a.collation == b.collation and (b.width or 0) >= (a.width or 0)
        if not longer:
            return True
    return False


def apply(s: SqliteSession, schema: str, old: TableDef, new: TableDef, *, database: str,
          others: Sequence[TableDef] = (), after: Callable[[], None] | None = None,
          strict: bool = True, fills: dict[str, Any] | None = None,
          copy: bool = False, before: Callable[[], None] | None = None) -> Outcome:
    """Make `old` become `new` (module rules); `others`: tables whose JSON rows change too
    (constraints that name this table); `after`: checks to run before the commit; `fills`:
    values for new columns (an expression default, evaluated by the caller); `copy`: MariaDB
    copies the rows whatever changed (it adds a checked foreign key by copying); `before`:
    changes to the old rows first, in the same transaction (ALTER IGNORE's duplicates)."""
    outcome = Outcome(copies=copy or copies(old, new))
    with s.ddl(), fkcheck.maintained(s, schema, database, [old.name, new.name]):
        try:
            if before is not None:
                before()
            _apply(s, schema, old, new, outcome, database, others, after, strict, fills)
        except sqlite3.IntegrityError as e:  # a new unique key over rows that repeat it
            m = errmap.UNIQUE.search(str(e)) or errmap.PRIMARY_KEY.search(str(e))
            if m is None:
                raise
            raise duplicate_key(s, schema, old, new, m.group(1)) from None
    return outcome


def duplicate_key(s: SqliteSession, schema: str, old: TableDef, new: TableDef,
                  failed: str) -> ServerError:
    """1062 as MariaDB's index build meets it (it sorts the keys): the smallest key value
    that rows repeat, as its first row holds it, named by the new key."""
    cols = [c.strip().split(".")[-1] for c in failed.split(",")]
    table = old.name if s.find_table(schema, old.name) else new.name
    listed = ", ".join(q(c) for c in cols)
    present = " AND ".join(f"{q(c)} IS NOT NULL" for c in cols)
    try:
        row = s.handle.execute(
            f"SELECT {listed} FROM (SELECT {listed}, COUNT(*) OVER (PARTITION BY {listed}) "
            f"AS c, ROW_NUMBER() OVER (PARTITION BY {listed} ORDER BY rowid) AS n FROM "
            f"{q(schema)}.{q(table)} WHERE {present}) WHERE c > 1 AND n = 1 ORDER BY {listed} "
            "LIMIT 1").fetchone()
    except sqlite3.Error:
        row = None
    shown: dict[str, Any] = {}
    if row is not None:
        for c, v in zip(cols, row):
            col = new.column(c)
            load = values.load(col.type) if col is not None and col.type.name == "bit" \
                else None
            shown[c.lower()] = load(v) if load is not None else v
    return errmap.duplicate_entry(failed, new, shown)


def _apply(s: SqliteSession, schema: str, old: TableDef, new: TableDef, outcome: Outcome,
           database: str, others: Sequence[TableDef], after: Callable[[], None] | None,
           strict: bool, fills: dict[str, Any] | None) -> None:
    h = s.handle
    h.execute(meta_table_ddl(schema))
    if _sqlite_shape(old) == _sqlite_shape(new) and not converted(old, new):
        for i in old.indexes:
            if not i.kind:
                h.execute(f"DROP INDEX IF EXISTS {q(schema)}.{q(old.name + '.' + i.name)}")
        for i in new.indexes:
            if not i.kind:
                h.execute(index_sql(schema, new.name, i, new))
        if outcome.copies:
            outcome.copied = h.execute(f"SELECT COUNT(*) FROM {q(schema)}."
                                       f"{q(new.name)}").fetchone()[0]
    else:
        count = _rebuild(s, schema, old, new, outcome, database, strict,
                         fills or {})
        if outcome.copies:
            outcome.copied = count
    if any(c.generated is not None for c in old.columns + new.columns):
        generated.prepare(s, database, new)
        generated.install(s, schema, new.name, new, recompute=True)
    if old.auto_column is not None or new.auto_column is not None:
        autokey.install(s, schema, new.name, new)
    h.execute(meta_write_sql(schema), (new.name, spec_json(new)))
    for other in others:
        write_spec(s, schema, other)
    if after is not None:
        after()


def _rebuild(s: SqliteSession, schema: str, old: TableDef, new: TableDef, outcome: Outcome,
             database: str, strict: bool, fills: dict[str, Any]) -> int:
    h = s.handle
    tmp = f"_rampmeter_new_{new.name}"
    for i in old.indexes:
        if not i.kind:
            h.execute(f"DROP INDEX IF EXISTS {q(schema)}.{q(old.name + '.' + i.name)}")
    h.execute(f"DROP TABLE IF EXISTS {q(schema)}.{q(tmp)}")
    h.execute(catalog.create_sql(new, schema, tmp)[0])
    count = _copy_rows(s, schema, old, new, tmp, outcome, database, strict, fills)
    seq = catalog.sequence_next(h.conn, schema, old.name)
    h.execute(f"DROP TABLE {q(schema)}.{q(old.name)}")
    autokey.forget_sequence(s, schema, old.name)
    h.execute(f"ALTER TABLE {q(schema)}.{q(tmp)} RENAME TO {q(new.name)}")
    for i in new.indexes:
        if not i.kind:
            h.execute(index_sql(schema, new.name, i, new))
    if new.auto_column is not None and autokey.counted(new):
        autokey.sequence_table(s, schema)
        h.execute(f"DELETE FROM {q(schema)}.sqlite_sequence WHERE name = ?", (new.name,))
        top = h.execute(f"SELECT MAX({q(new.auto_column.name)}) FROM "
                        f"{q(schema)}.{q(new.name)}").fetchone()[0] or 0
        h.execute(f"INSERT INTO {q(schema)}.sqlite_sequence (name, seq) VALUES (?, ?)",
                  (new.name, max(top, (seq or 1) - 1)))
    return count


def _fill(col: ColumnDef) -> Any:
    """What a new column holds in the existing rows."""
    d = col.default
    if col.auto_increment:
        return None
    if d is None:
        return None if col.nullable else implicit_default(col.type)
    if d.kind == "value":
        return d.value if d.value is not None or col.nullable else implicit_default(col.type)
    if d.kind == "now":
        now = dt.datetime.now()
        stored, _p = values.store(col.type, now.isoformat(" "))
        return stored
    return None  # an expression default: see alter.py, which evaluates it first


def _copy_rows(s: SqliteSession, schema: str, old: TableDef, new: TableDef, tmp: str,
               outcome: Outcome, database: str, strict: bool, given: dict[str, Any]) -> int:
    h = s.handle
    moved = [(c, old.column(_source(new, c))) for c in new.columns]
    kept = [(c, was) for c, was in moved if was is not None]
    fresh = [c for c, was in moved if was is None]
    change = {c.name for c in converted(old, new)}
    auto = new.auto_column
    was_auto = old.column(_source(new, auto)) if auto is not None else None
    resequence = auto is not None and was_auto is not None and not was_auto.auto_increment \
        and "NO_AUTO_VALUE_ON_ZERO" not in s.sql_mode()
    if resequence and auto is not None:
        change.add(auto.name)   # its 0s and NULLs get values, row by row (below)
    # rowids are kept (the order of rows without ORDER BY), unless the new table's
    # AUTO_INCREMENT column is its rowid: then that column's own values are
    # (a MyISAM table's is not its rowid, autokey.py: the rows keep their order, and a new
    # AUTO_INCREMENT column numbers them in it, as MariaDB's copy does)
    detached = auto is not None and autokey.detached(new)
    rowid = [] if auto is not None and not detached else ["rowid"]
    cols = rowid + [q(c.name) for c, _w in kept] + [q(c.name) for c in fresh]
    numbered = next((k for k, c in enumerate(fresh) if detached and auto is not None and
                     c.name == auto.name), None)
    fills = [given[c.name] if c.name in given else _fill(c) for c in fresh]
    src = rowid + [q(was.name) for _c, was in kept]
    into = f"INSERT INTO {q(schema)}.{q(tmp)} ({', '.join(cols)})"
    if not change:
        marks = "".join(", row_number() OVER (ORDER BY rowid)" if k == numbered else ", ?"
                        for k in range(len(fresh)))
        cur = h.execute(f"{into} SELECT {', '.join(src)}{marks} FROM {q(schema)}."
                        f"{q(old.name)} ORDER BY rowid",
                        [f for k, f in enumerate(fills) if k != numbered])
        return max(cur.rowcount, 0)
    convert = [(k, c, was) for k, (c, was) in enumerate(kept, len(rowid))
               if c.name in change]
    rows = h.execute(f"SELECT {', '.join(src)} FROM {q(schema)}.{q(old.name)} ORDER BY rowid"
                     ).fetchall()
    out = []
    at = next((k for k, c, _w in convert if resequence and c is auto), None)
    used: set[Any] = set()
    top = 0
    zone = s.time_zone()
    for n, row in enumerate(rows, 1):
        row = list(row)
        for k, c, was in convert:
            value = row[k]
            if not zone.is_utc and (was.type.name == "timestamp") != (c.type.name ==
                                                                      "timestamp"):
                # a TIMESTAMP holds UTC (tzcolumns.py): read or written in the session's zone
                value = timefns.shift(value, zone, to_utc=c.type.name == "timestamp")
            row[k] = _convert(c, was, value, n, outcome, (database, old.name), strict)
        if at is not None:
            row[at] = _resequenced(new, row[at], top, used)
            top = max(top, row[at]) if isinstance(row[at], int) else top
        out.append(tuple(row) + tuple(n if k == numbered else f for k, f in enumerate(fills)))
    marks = ", ".join("?" * len(cols))
    h.executemany(f"{into} VALUES ({marks})", out)
    return len(out)


def _resequenced(new: TableDef, value: Any, top: int, used: set[Any]) -> Any:
    """A column made AUTO_INCREMENT by ALTER TABLE: MariaDB's copy gives a row's 0 or NULL the
    next value (the largest copied so far + 1); a later row holding a value so given is 1062
    "ALTER TABLE causes auto_increment resequencing, ..." (ER_DUP_ENTRY_AUTOINCREMENT_CASE's
    text under ER_DUP_ENTRY, handler.cc print_keydup_error). Returns the value stored."""
    if value is None or value == 0:
        value = top + 1
    elif value in used:
        auto = new.auto_column
        assert auto is not None
        key = "PRIMARY" if [c.lower() for c in new.primary] == [auto.name.lower()] else next(
            (i.name for i in new.indexes if i.unique and i.columns[:1] == [auto.name]), "")
        raise ServerError(errors.ER_DUP_ENTRY, message="ALTER TABLE causes auto_increment "
                          f"resequencing, resulting in duplicate entry '{value}' for key "
                          f"'{key}'", sqlstate="23000")
    used.add(value)
    return value


_KIND = {"integer": "INTEGER", "decimal": "DECIMAL", "double": "DOUBLE"}


def _convert(col: ColumnDef, was: ColumnDef, stored: Any, row: int, outcome: Outcome,
             table: tuple[str, str], strict: bool) -> Any:
    """One stored value of `was` as `col` stores it (module rules)."""
    if stored is None:
        if col.nullable or col.auto_increment:
            return None
        return _problem(Warning_("Warning", errors.WARN_DATA_TRUNCATED,
                                 f"Data truncated for column '{col.name}' at row {row}"),
                        implicit_default(col.type), outcome, strict)
    load = values.load(was.type)
    value = load(stored) if load is not None else stored
    new, problem = values.store(col.type, value)
    if problem is None:
        return new
    code, kind = problem.code, problem.kind
    if code == errors.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD and kind in _KIND:
        w = Warning_("Warning", errors.ER_TRUNCATED_WRONG_VALUE,
                     f"Truncated incorrect {_KIND[kind]} value: '{problem.shown[:128]}'")
    elif code in (errors.ER_DATA_TOO_LONG, errors.WARN_DATA_TRUNCATED):
        w = Warning_("Note" if problem.note else "Warning", errors.WARN_DATA_TRUNCATED,
                     f"Data truncated for column '{col.name}' at row {row}")
    elif code == errors.ER_TRUNCATED_WRONG_VALUE and kind == "date":
        w = Warning_("Warning", code, values.problem_message(
            problem._replace(kind="datetime"), col.name, row, table))
    else:
        w = Warning_("Note" if problem.note else "Warning", code,
                     values.problem_message(problem, col.name, row, table))
    return _problem(w, new, outcome, strict)


def _problem(w: Warning_, value: Any, outcome: Outcome, strict: bool) -> Any:
    if w.level == "Warning" and strict:
        raise ServerError(w.code, message=w.message)
    outcome.warnings.append(w)
    return value


def rename_table(s: SqliteSession, schema: str, database: str, old: str, new: str) -> None:
    """RENAME TABLE old TO new within a database: its indexes, the constraints InnoDB named
    after it, and the constraints of other tables that reference it follow."""
    from rampmeter.engine.sqlite import foreign, temporary, triggers
    from rampmeter.engine.sqlite.definitions import check_table_name
    check_table_name(new)
    if schema == temporary.SCHEMA:  # a temporary table keeps its database in its name
        new = temporary.physical(temporary.logical(old)[0], new)
    if s.find_table(schema, new) is not None and new.lower() != old.lower():
        raise ServerError(errors.ER_TABLE_EXISTS_ERROR, new)
    with s.ddl(), fkcheck.maintained(s, schema, database, [old, new]):
        h = s.handle
        h.execute(meta_table_ddl(schema))
        tdef = s.load_table(schema, old)
        children = [n for n in fkcheck.spec_mentions(h.conn, schema, old)
                    if n.lower() != old.lower()]
        for i in tdef.indexes:
            if not i.kind:
                h.execute(f"DROP INDEX IF EXISTS {q(schema)}.{q(old + '.' + i.name)}")
        h.execute(f"ALTER TABLE {q(schema)}.{q(old)} RENAME TO {q(new)}")
        tdef.name = new
        for i in tdef.indexes:
            if not i.kind:
                h.execute(index_sql(schema, new, i, tdef))
        for fk in tdef.foreign:
            fk.name = foreign.renamed(fk, old, new)
            if fk.ref_db is None and fk.ref_table.lower() == old.lower():
                fk.ref_table = new
        h.execute(catalog.meta_delete_sql(schema), (old,))
        h.execute(meta_write_sql(schema), (new, spec_json(tdef)))
        for name in children:
            child = s.load_table(schema, name)
            for fk in child.foreign:
                if fk.ref_db is None and fk.ref_table.lower() == old.lower():
                    fk.ref_table = new
            write_spec(s, schema, child)
        if schema != temporary.SCHEMA:
            triggers.retable(s, schema, database, old, new)
