"""Generated columns: `col type [GENERATED ALWAYS] AS (expr) [VIRTUAL | PERSISTENT | STORED]`.

Rules:
- The expression is kept as the client wrote it (catalog.Generated.expr; SHOW CREATE TABLE
  and information_schema print it as MariaDB does) and as SQLite text over the row's
  columns, made when the table is created or altered: the DML translator's text of
  `SELECT (expr) FROM db.t` (MariaDB's functions, comparisons and types), literals inlined.
- The value is computed when the row is written, VIRTUAL and STORED alike: the column is an
  ordinary SQLite column that a trigger of the table's own (in its database, named
  `_rm_gen_...`, made with the table and again after each rebuild) sets after each INSERT, and
  after each UPDATE of another column. SQLite's own generated columns are not used: they
  take only deterministic functions, and MariaDB's warn.
- A value given for a generated column other than DEFAULT is MariaDB's 1906 (an error in
  strict mode, else a warning) and is ignored (translate.py); ALTER TABLE computes the
  column again for every row (rebuild.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from rampmeter.engine.sqlite import translate
from rampmeter.engine.sqlite.catalog import TableDef, q
from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

PREFIX = "_rm_gen_"
ER_WARNING_NON_DEFAULT_VALUE_FOR_GENERATED_COLUMN = 1906


def ignored_message(column: str, table: str) -> str:
    return f"The value specified for generated column '{column}' in table '{table}' has been " \
           "ignored"


def prepare(s: SqliteSession, database: str, tdef: TableDef) -> None:
    """Fill in the SQLite text of each generated column of `tdef` (a new definition)."""
    if not any(c.generated is not None for c in tdef.columns):
        return

    def lookup(db: str, table: str) -> TableDef | None:
        if db.lower() == database.lower() and table.lower() == tdef.name.lower():
            return tdef
        return s.table_def(db, table)

    for i, c in enumerate(tdef.columns):
        if c.generated is not None:
            sql = expression_sql(s, database, tdef, c.generated.expr, lookup)
            tdef.columns[i] = replace(c, generated=replace(c.generated, sql=sql))


def expression_sql(s: SqliteSession, database: str, tdef: TableDef, expr: str,
                   lookup: Callable[[str, str], TableDef | None]) -> str:
    from rampmeter.engine.sqlite import checks
    from rampmeter.engine.sqlite.checks import _inline
    from rampmeter.engine.sqlite.dml import bind

    name = f"`{database.replace('`', '``')}`.`{tdef.name.replace('`', '``')}`"
    stmt = s.scan(f"SELECT ({expr}) FROM {name}")
    settings = s.context.translation
    plan = translate.translate(stmt, database, lookup,
                               (settings[0], settings[1], translate.DEFAULT_SETTINGS[2]),
                               zone_shift=False)
    values = bind(stmt, [])
    values.update(plan.fixed)
    sql = _inline(plan.sql, values)
    at = checks.top_level(sql, " FROM ") if sql.startswith("SELECT ") else None
    if at is None:
        raise ServerError(1235, "this generated column expression")
    return sql[len("SELECT "):at]


def install(s: SqliteSession, schema: str, table: str, tdef: TableDef, *,
            recompute: bool = False) -> None:
    """(Re)make the triggers that compute `tdef`'s generated columns on its table `table` in
    `schema`, inside the caller's DDL transaction; `recompute`: compute them for the rows
    already there (ALTER TABLE)."""
    h = s.handle
    old = h.execute(f"SELECT name FROM {q(schema)}.sqlite_master WHERE type = 'trigger' AND "
                    "tbl_name = ? AND name LIKE ?", (table, PREFIX + "%")).fetchall()
    for (name,) in old:
        h.execute(f"DROP TRIGGER {q(schema)}.{q(name)}")
    gen = [c for c in tdef.columns if c.generated is not None]
    if not gen:
        return
    sets = ", ".join(f"{q(c.name)} = ({c.generated.sql})" for c in gen if c.generated)
    body = f"BEGIN UPDATE {q(table)} SET {sets} WHERE rowid = NEW.rowid; END"
    base = [q(c.name) for c in tdef.columns if c.generated is None]
    events = ["INSERT"] + ([f"UPDATE OF {', '.join(base)}"] if base else [])
    for event in events:
        name = PREFIX + uuid.uuid4().hex
        h.execute(f"CREATE TRIGGER {q(schema)}.{q(name)} AFTER {event} ON {q(table)} {body}")
    if recompute:
        h.execute(f"UPDATE {q(schema)}.{q(table)} SET {sets}")
