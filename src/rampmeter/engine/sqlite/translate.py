"""A scanned DML statement -> a SQLite plan: made once per shape, cached by the engine.

Rules:
- Input is a Statement (sql/statement.py): its shape has every literal as a typed placeholder,
  so one plan serves every statement of that shape; the values are bound at execution.
- sqlglot parses the shape as MySQL; the tree is rewritten and generated as SQLite:
  tables qualified with their database (each MySQL database is an ATTACHed SQLite file),
  information_schema tables redirected to temp tables the engine fills, @@vars / @vars and the
  session's functions turned into the engine's SQLite functions (functions.py), LENGTH counting
  bytes and CHAR_LENGTH characters, ON DUPLICATE KEY UPDATE into SQLite's upsert, REPLACE into
  INSERT OR REPLACE, FROM DUAL dropped.
- Queries: every output column gets a name rule (its alias, the table column's name, or the
  select item's text from Statement.items - resolved at execution, because literals of the
  same shape differ), a MySQL type (infer.py, or the table column's) and the function that
  turns stored values into wire values (values.load).
- Writes: every value an INSERT / REPLACE / UPDATE stores is converted to its column's type
  before SQLite sees it (values.store): a placeholder is converted in Python when bound
  (`Plan.stores`), any other expression is wrapped in rm_cv(expr, n), which converts in SQLite
  row by row (`Plan.casts`). NULL and DEFAULT in VALUES, and the columns an INSERT leaves out,
  become explicit values here, so strict mode can answer 1048 / 1364 and non-strict mode can
  store MariaDB's implicit defaults.
- Syntax errors quote the client's text (Statement.syntax_error), never the shape.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sqlglot
from sqlglot import exp

from rampmeter import errors
from rampmeter.engine import types as T
from rampmeter.engine import values
from rampmeter.engine.sqlite import (
    bigunsigned,
    bitconv,
    collagg,
    compare,
    covering,
    cycle,
    defaultfn,
    deletenames,
    derived,
    dialect,
    eager,
    exactdec,
    funcmap,
    geomops,
    havingnames,
    inlist,
    insertrow,
    joinnames,
    jsontable,
    modifiers,
    multi,
    nullness,
    odbc,
    ordercoll,
    outergroup,
    quantified,
    queryforms,
    replacing,
    rownum,
    rowshape,
    setops,
    sfnames,
    slots,
    syntaxpos,
    tzcolumns,
    unionout,
    updates,
    windows,
    zerodate,
)
from rampmeter.engine.sqlite import returning as returning_mod
from rampmeter.engine.sqlite.catalog import (
    NON_TRANSACTIONAL,
    ColumnDef,
    TableDef,
    implicit_default,
)
from rampmeter.engine.sqlite.infer import (
    HEX,
    Typer,
    charset_of,
    is_unsigned_integer,
    number_kind,
)
from rampmeter.engine.types import SqlType
from rampmeter.errors import ServerError
from rampmeter.sql import charsets
from rampmeter.sql.statement import Statement

logging.getLogger("sqlglot").setLevel(logging.ERROR)  # it warns about what we strip on purpose
# sqlglot parses and generates by recursion: MariaDB answers statements with a thousand nested
# parentheses, so we need more than Python's default 1000 frames. Since 3.11 Python-to-Python
# calls take no C stack, so this costs memory per frame only while a deep statement is handled.
_RECURSION = 40_000
if sys.getrecursionlimit() < _RECURSION:
    sys.setrecursionlimit(_RECURSION)

INFORMATION_SCHEMA = "information_schema"
VIRTUAL_SCHEMAS = ("information_schema", "performance_schema")  # storage.VIRTUAL_SCHEMAS
# tables of the mysql schema made from the routines when no such table is stored
# (mysqltables.py)
MYSQL_PROC = ("mysql", "proc")
MYSQL_VIRTUAL = (MYSQL_PROC, ("mysql", "event"))
TableLookup = Callable[[str, str], "TableDef | None"]


def virtual_key(db: str, table: str) -> str:
    """How a plan names a table it materializes: `TABLE` for information_schema (MariaDB
    spells them in capitals), `schema.table` for the other virtual schemas."""
    schema = db.lower()
    return table.upper() if schema == INFORMATION_SCHEMA else f"{schema}.{table.lower()}"


def split_key(key: str) -> tuple[str, str]:
    schema, _, table = key.rpartition(".")
    return schema or INFORMATION_SCHEMA, table


def temp_name(key: str) -> str:
    schema, table = split_key(key)
    return f"{'is' if schema == INFORMATION_SCHEMA else schema[:2]}_{table.lower()}"


@dataclass(slots=True)
class Output:
    """One result column: `name` is fixed (str), an index into Statement.items (int), or None
    (SQLite's own name: a star expanded over a table we cannot describe)."""

    name: str | int | None
    sql_type: SqlType | None = None     # None: guess from the values
    table: str = ""                     # for a table column: its table alias, table, schema
    org_table: str = ""
    schema: str = ""
    org_name: str = ""
    flags: int = 0
    load: Callable[[Any], Any] | None = None
    literal_slot: int | None = None     # a bare literal: typed from its value at execution
    view: bool = False                  # a column of a view (not of a base table)
    uservar: str | None = None          # `SELECT @v`: typed from @v at execution (uservars.py)
    cast: bool = False                  # CAST / CONVERT / BINARY x: decimals 0, not 39
    rolled: bool = False                # a WITH ROLLUP group key: NULL in super-aggregate rows
    # a set operation's (or VALUES's) column with literals: each branch's literal slot or
    # static type, aggregated at execution (unionout.py)
    parts: list[tuple[int | None, SqlType | None]] | None = None


@dataclass(slots=True)
class Store:
    """A placeholder whose value is stored into `column` (converted when bound)."""

    slot: str
    column: ColumnDef
    row: int


@dataclass(slots=True)
class Plan:
    sql: str
    kind: str                                  # SELECT, INSERT, REPLACE, UPDATE, DELETE, ...
    explain_sql: str = ""                      # what EXPLAIN plans, when not `sql` (setops.py)
    writes: bool = False
    databases: tuple[str, ...] = ()            # databases to ATTACH
    infoschema: tuple[str, ...] = ()           # virtual tables to materialize (virtual_key)
    outputs: list[Output] | None = None        # queries
    target: tuple[str, str] | None = None      # (db, stored table) written
    stores: list[Store] = field(default_factory=list)
    casts: list[tuple[ColumnDef, int]] = field(default_factory=list)  # rm_cv(expr, n)
    fixed: dict[str, Any] = field(default_factory=dict)    # synthetic placeholders
    missing: list[str] = field(default_factory=list)       # NOT NULL columns left out
    generated_given: list[str] = field(default_factory=list)  # generated columns given (1906)
    null_slots: dict[str, tuple[ColumnDef, int]] = field(default_factory=dict)
    insert_columns: frozenset[str] | None = None
    insert_values: dict[str, str] | None = None            # column -> placeholder (1 row)
    rows: int = 0                              # VALUES rows
    upsert: bool = False
    replace: bool = False
    ignore: bool = False
    quiet_duplicates: bool = False             # INSERT DELAYED: skipped rows say nothing
    auto_column: str | None = None
    track_changes: bool = False                # UPDATE / upsert: count changed rows
    found_rows_sql: str = ""                   # SQL_CALC_FOUND_ROWS: count without LIMIT
    # multi-table UPDATE / DELETE: statements after `sql` (sql, target, counts its rows)
    steps: list[tuple[str, tuple[str, str] | None, bool]] = field(default_factory=list)
    first_counts: bool = True                  # do `sql`'s rows count as affected rows
    # long IN lists read from one JSON parameter (inlist.py): first slot -> all slots
    lists: dict[str, tuple[str, ...]] = field(default_factory=dict)
    tz_outputs: list[int] = field(default_factory=list)  # TIMESTAMP outputs (tzcolumns.py)
    returning: bool = False                    # INSERT / REPLACE / DELETE ... RETURNING
    columns_memo: Any = None                   # result columns built once (dml.result_set)
    checked: tuple[tuple[str, str], ...] = ()  # written tables with checks.py's triggers
    partial: bool = False                      # writes a table MariaDB cannot roll back
    collations: Any = None                     # collagg.Check run with the values, or None
    in_place: list[str] | None = None          # REPLACE in place: the columns (replacing.py)
    in_place_sql: str = ""                     # ... and its upsert text
    eager: list[tuple[str, str, int]] | None = None  # constants converted when bound (eager.py)
    reads_uservars: bool | None = None  # an output is `SELECT @v` (uservars.py): found once
    slots: bool = False                        # a deleted row's place is reused (slots.py)
    engines: int = 0                           # written: 1 non-transactional, 2 other (txn.py)
    slots_reset: bool = False                  # ... and DELETE of every row forgets them
    sorting: Any = None        # sortstats.Sorting, False when it does not sort: found once


def _keep_high_nots(tree: exp.Expression) -> None:
    """HIGH_NOT_PRECEDENCE parsed NOT a BETWEEN ... as (NOT a) BETWEEN ...: keep the
    parentheses in the SQLite text, where NOT binds loosely."""
    for node in list(tree.find_all(exp.Not)):
        if isinstance(node.parent, exp.Predicate | exp.Binary) and \
                not isinstance(node.parent, exp.Connector):
            node.replace(exp.Paren(this=node.copy()))


def parse(stmt: Statement, text: str) -> exp.Expression:
    """sqlglot's MySQL tree of `text` (the shape, or a rewrite of it); 1064 on failure."""
    cycles = None
    desc: list[int] = []
    upper = text.upper()
    if "GROUP" in upper and ("DESC" in upper or "ASC" in upper):
        text, desc = queryforms.group_directions(text)
    if "CYCLE" in upper:  # WITH RECURSIVE ... CYCLE cols RESTRICT (cycle.py)
        text, cycles, bad = cycle.strip(text, modifiers.shape_tokens(text))
        if bad is not None:
            raise stmt.syntax_error(bad + len(stmt.shape) - len(text))
    try:
        tree = dialect.parse(text, stmt.dialect.pipes_as_concat, stmt.dialect.high_not)
    except sqlglot.errors.ParseError as e:
        raise _syntax(stmt, text, e) from None
    except (sqlglot.errors.TokenError, RecursionError, ValueError):
        raise stmt.syntax_error() from None
    if tree is None or isinstance(tree, exp.Command):
        raise stmt.syntax_error()
    if stmt.dialect.high_not:
        _keep_high_nots(tree)
    if cycles:
        cycle.mark(tree, cycles)
    if desc:
        _group_desc(tree, desc)
    if "CUBE" in text.upper() and any(g.args.get("cube") for g in tree.find_all(exp.Group)):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "CUBE")  # MariaDB parses, and refuses
    quantified.rewrite(tree)  # before anything resolves tables: it adds CTEs
    for table in tree.find_all(exp.Table):
        if isinstance(table.this, (exp.Parameter, exp.Placeholder)):
            # FROM @v, FROM ?: a variable or a parameter names no table
            at = syntaxpos.variable_as_table(text)
            raise stmt.syntax_error(at + len(stmt.shape) - len(text) if at is not None
                                    else None)
    if isinstance(tree, exp.Delete) and tree.args.get("tables") and not tree.this and \
            not tree.args.get("using"):
        # DELETE t1 alias ...: a multi-table DELETE names its tables without aliases, and
        # needs FROM; MariaDB stops after the first name
        at = _after_first_target(text)
        raise stmt.syntax_error(at + len(stmt.shape) - len(text) if at is not None else None)
    if rownum.names_rownum(text):
        rownum.rewrite(tree)
    for alias in tree.find_all(exp.Alias):
        if isinstance(alias.args.get("alias"), exp.Placeholder):
            # `SELECT 1 2`: a number is no alias in MariaDB; the error is at the number
            at = stmt.shape.find(":" + alias.args["alias"].name)
            raise stmt.syntax_error(at if at >= 0 else None)
        if isinstance(alias.this, exp.Star) or isinstance(alias.this, exp.Column) and \
                isinstance(alias.this.this, exp.Star):
            star = _aliased_star(text)
            offset = len(stmt.shape) - len(text)
            raise stmt.syntax_error(None if star is None else star + offset)
    return tree


def _group_desc(tree: exp.Expression, desc: list[int]) -> None:
    """GROUP BY k DESC: the groups come out sorted so (an ORDER BY of the keys, with their
    directions, when the query has none); WITH ROLLUP orders its levels by it (queryforms)."""
    group = next(tree.find_all(exp.Group), None)
    select = group.parent if group is not None else None
    if group is None or not isinstance(select, exp.Select):
        return
    group.meta["desc"] = set(desc)
    if group.args.get("rollup") or select.args.get("order") is not None:
        return
    select.set("order", exp.Order(expressions=[
        exp.Ordered(this=k.copy(), desc=i in desc, nulls_first=i not in desc)
        for i, k in enumerate(group.expressions)]))


# What may follow a `*` in a select list; anything else is an alias MariaDB refuses there.
_AFTER_STAR = frozenset(("FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "UNION",
                         "EXCEPT", "INTERSECT", "INTO", "FOR", "LOCK", "WINDOW", "PROCEDURE",
                         "OFFSET", "FETCH", "RETURNING", ",", ")", ";", ""))


def _syntax(stmt: Statement, text: str, e: sqlglot.errors.ParseError) -> ServerError:
    offset = len(stmt.shape) - len(text) if text != stmt.shape else 0
    for err in e.errors:  # the parser's own: at its word (dialect.AT_WORD)
        if str(err.get("description") or "").startswith(dialect.AT_WORD) and \
                err.get("line") is not None and err.get("col") is not None:
            lines = text.split("\n")
            end = sum(len(x) + 1 for x in lines[:err["line"] - 1]) + err["col"]
            pos = end - len(err.get("highlight") or "")
            # inside one lexer token (`@@replace`): the token's place in the client's text,
            # plus the distance into it (a variable's token is the same in both)
            start = text.rfind("@@", 0, pos + 1)
            if start < 0:
                return stmt.syntax_error(max(0, pos + offset))  # type: ignore[return-value]
            from rampmeter.sql.statement import _text_position, syntax_error
            at = _text_position(stmt, start + offset) + pos - start
            return syntax_error(stmt.text, at)  # type: ignore[return-value]
    star = _aliased_star(text)
    if star is not None:  # sqlglot reads `* FORM t` as `* AS FORM`, then fails at t
        return stmt.syntax_error(star + offset)  # type: ignore[return-value]
    variable = syntaxpos.variable_after_operand(text)
    if variable is not None:  # `SELECT a @v t`: MariaDB's grammar stops at the variable
        return stmt.syntax_error(variable + offset)  # type: ignore[return-value]
    for err in e.errors:
        line, col = err.get("line"), err.get("col")
        highlight = err.get("highlight") or ""
        description = err.get("description") or ""
        if line is not None and col is not None:
            lines = text.split("\n")
            end = sum(len(x) + 1 for x in lines[:line - 1]) + col
            pos = end - len(highlight)
            if "SENTINEL" in description or (
                    "Required keyword" in description and not text[end:].strip()):
                pos = len(text)  # the statement ended too soon: MariaDB says near ''
            return stmt.syntax_error(max(0, pos + offset))  # type: ignore[return-value]
    return stmt.syntax_error()  # type: ignore[return-value]


def _after_first_target(text: str) -> int | None:
    """Where the token after DELETE's first table name ([db.]t[.*]) starts."""
    from rampmeter.engine.sqlite.modifiers import shape_tokens
    toks = shape_tokens(text)
    if toks is None:
        return None
    i = 1
    while i < len(toks) and toks[i].upper in ("LOW_PRIORITY", "QUICK", "IGNORE"):
        i += 1
    i += 1  # the name
    while i + 1 < len(toks) and toks[i].text == ".":
        i += 2  # .name or .*
    return toks[i].start if i < len(toks) else None


def _aliased_star(text: str) -> int | None:
    """Where a select list's `*` (or `t.*`) is followed by something that is not a clause:
    MariaDB's grammar has no alias for it and reports the error there."""
    from rampmeter.engine.sqlite.modifiers import shape_tokens
    toks = shape_tokens(text)  # the shape's placeholders (:i0) are no SQL
    if toks is None:
        return None
    for i, t in enumerate(toks[1:-1], 1):
        if t.text == "*" and toks[i - 1].upper in ("SELECT", ",", ".", "DISTINCT", "ALL") \
                and toks[i + 1].upper not in _AFTER_STAR:
            return toks[i + 1].start
    return None


class _Tables:
    """The tables a statement names: alias -> (db, table, TableDef or None)."""

    def __init__(self, lookup: TableLookup) -> None:
        self.lookup = lookup
        self.by_alias: dict[str, tuple[str, str, TableDef | None]] = {}
        self.more_databases: list[str] = []    # read by the views the statement names
        self.fixed: dict[str, Any] = {}        # the literals of those views
        self.views = 0

    def add(self, alias: str, db: str, table: str) -> TableDef | None:
        tdef = self.lookup(db, table) if db.lower() not in VIRTUAL_SCHEMAS else None
        self.by_alias[alias.lower()] = (db, table, tdef)
        return tdef

    def column_type(self, qualifier: str | None, name: str) -> SqlType | None:
        found = self.find(qualifier, name)
        return found[1].type if found else None

    def virtual_column(self, qualifier: str | None, name: str) -> bool:
        """Is this column one of a server-provided table (information_schema,
        performance_schema), whose types the statement does not know (compare.py)?"""
        if self.find(qualifier, name) is not None:
            return False
        for alias in [qualifier.lower()] if qualifier else list(self.by_alias):
            entry = self.by_alias.get(alias)
            if entry is not None and entry[2] is None and entry[0].lower() in VIRTUAL_SCHEMAS:
                return True
        return False

    def column_names(self, alias: str) -> list[str] | None:
        entry = self.by_alias.get(alias.lower())
        return None if entry is None or entry[2] is None else \
            [c.name for c in entry[2].columns]

    def visible_names(self, alias: str) -> list[str] | None:
        """The columns `*` stands for: all but the INVISIBLE ones."""
        entry = self.by_alias.get(alias.lower())
        return None if entry is None or entry[2] is None else \
            [c.name for c in entry[2].columns if not c.invisible]

    def any_invisible(self) -> bool:
        return any(e[2] is not None and any(c.invisible for c in e[2].columns)
                   for e in self.by_alias.values())

    def find(self, qualifier: str | None, name: str) -> tuple[str, ColumnDef, str] | None:
        entries = [qualifier.lower()] if qualifier else list(self.by_alias)
        for alias in entries:
            entry = self.by_alias.get(alias)
            if entry is None or entry[2] is None:
                continue
            col = entry[2].column(name)
            if col is not None:
                return alias, col, entry[0]
        return None


_NO_LIMIT = 2**64 - 1
Settings = tuple[str, int, int]
DEFAULT_SETTINGS: Settings = ("utf8mb4_general_ci", 4, _NO_LIMIT)


def qualified(stmt: Statement, database: str | None, lookup: TableLookup,
              extras: dict[str, Any] | None = None,
              lists: dict[str, tuple[str, ...]] | None = None,
              ) -> tuple[exp.Expression, _Tables, list[str]]:
    """The statement's sqlglot tree with every table qualified by its database, the tables it
    names, and the information_schema tables it reads (also what access.py reads). `extras`
    receives what the text's modifiers asked for (modifiers.py) and a VALUES statement's
    column names (queryforms.py). With `lists`, long literal IN lists are cut to their first
    item and recorded there (inlist.py)."""
    kind = stmt.kind
    shape = stmt.shape
    text = shape
    if kind == "REPLACE":
        # sqlglot's MySQL reader has no REPLACE: parse it as the INSERT it is.
        idx = shape.upper().index("REPLACE")
        text = shape[:idx] + "INSERT" + shape[idx + 7:]
    elif kind == "DO":
        idx = shape.upper().index("DO")
        text = shape[:idx] + "SELECT" + shape[idx + 2:]
    text, mods = modifiers.strip(kind, text)
    text = odbc.rewrite(text, stmt)
    text = defaultfn.rewrite_text(text)
    if "against" in text.lower():
        from rampmeter.engine.sqlite import fulltext
        text = fulltext.parenthesize(text)  # MATCH a, b AGAINST: MariaDB's grammar allows it
    if kind == "DELETE" and (pos := deletenames.aliased_target(shape)) is not None:
        raise stmt.syntax_error(pos)  # MariaDB's targets have no alias (deletenames.py)
    if kind in ("UPDATE", "DELETE"):
        text, _ignore = multi.strip_ignore(text)
        text = multi.strip_target_stars(text)
    values_names: list[str] | None = None
    if kind == "VALUES":  # a table value constructor as a statement
        found = queryforms.values_statement(text)
        if found is not None:
            text, values_names = found
    if lists is not None:
        text, collapsed = inlist.collapse(text)
        lists.update(collapsed)
    tree = parse(stmt, text)
    if kind == "DELETE":
        deletenames.check(tree, database)  # 1109 / 1066 for the targets
    if "HAVING" in text.upper():  # 1054 for a name MariaDB's HAVING cannot see
        havingnames.check(tree, database, lookup)
    tree = queryforms.rewrite(tree, dict(zip(stmt.names, stmt.slots)),
                              (stmt.dialect.zero_date, stmt.dialect.zero_in_date))
    if "JSON_TABLE" in text.upper():
        jsontable.rewrite(tree)
    queryforms.insert_defaults(tree)
    for select in tree.find_all(exp.Select):
        # SQL_NO_CACHE, HIGH_PRIORITY, STRAIGHT_JOIN...: hints to MariaDB's optimizer and
        # query cache, none of which SQLite has (mariadb-dump sends SQL_NO_CACHE).
        select.set("operation_modifiers", None)
    if extras is not None:
        extras["mods"], extras["values_names"] = mods, values_names
    tables = _Tables(lookup)
    infoschema = _qualify(tree, database, tables)
    if "*" in text and tables.any_invisible():  # `*` leaves INVISIBLE columns out
        for select in list(tree.find_all(exp.Select)):
            if not any(j.args.get("using") or j.args.get("method") or j.args.get("kind") ==
                       "NATURAL" for j in select.args.get("joins") or []):
                _expand_stars(select, tables)
    if "_rowid" in text.lower():
        _rowid_columns(tree, tables)
    _check_with_columns(tree, tables)
    if defaultfn.NAME in text:
        defaultfn.resolve(tree, tables.find, _now_call, stmt.syntax_error)
    return tree, tables, infoschema


def translate(stmt: Statement, database: str | None, lookup: TableLookup,
              settings: Settings = DEFAULT_SETTINGS,
              lists: dict[str, tuple[str, ...]] | None = None, *,
              zone_shift: bool = False, values: dict[str, Any] | None = None) -> Plan:
    """The plan of a DML statement. `settings`: the session's (collation_connection,
    div_precision_increment, sql_select_limit); with `lists`, see qualified (and
    inlist.plan); `zone_shift`: the session's time zone is not UTC, so TIMESTAMP columns are
    read through rm_from_utc (tzcolumns.py); `values`: type the outputs knowing the
    literals' values (a plan for one statement only, never cached: infer.Typer)."""
    kind = stmt.kind
    extras: dict[str, Any] = {}
    tree, tables, infoschema = qualified(stmt, database, lookup, extras, lists)
    if "JOIN" in stmt.shape.upper():
        joinnames.check(tree, tables.column_names)  # 1052 (joinnames.py)
    mods: modifiers.Modifiers = extras["mods"]
    values_names: list[str] | None = extras["values_names"]
    ignore = mods.ignore or kind in ("UPDATE", "DELETE") and multi.strip_ignore(stmt.shape)[1]
    plan = Plan("", kind, infoschema=tuple(dict.fromkeys(infoschema)))
    plan.databases = tuple(dict.fromkeys(
        [db for db, _t, _d in tables.by_alias.values() if db.lower() not in VIRTUAL_SCHEMAS] +
        tables.more_databases))
    plan.fixed.update(tables.fixed)
    typer = Typer(tables.column_type, settings[0], settings[1], values)
    typer.virtual_column = tables.virtual_column
    typer.tables = tables
    # the lookup is a session's table_def: that session also knows its stored functions'
    # RETURNS types (CHARSET(f()), COLLATION(f()); a CREATE / DROP FUNCTION is a schema
    # change, so a plan cached with them goes)
    typer.routine_type = getattr(getattr(lookup, "__self__", None), "routine_type", None)
    plan.collations = collagg.check(tree, typer, stmt.shape)  # 1267 & co.
    compare.mark_like_collations(tree, typer)  # while CONVERT & co. are still themselves
    if "(" in stmt.shape:
        _row_operands(tree, stmt, typer)
        rowshape.check(tree)  # 1241 with MariaDB's width
    if geomops.has_geometry(stmt.shape, tables):  # 4078 for a geometry beside a number
        geomops.check(tree, lambda x: _handler_name(x, stmt, typer), tables)
    if "NULL" in stmt.shape.upper():
        zerodate.rewrite(tree, tables.find)  # NOT NULL date IS NULL: its zero dates
    steps: list[multi.Step] = []
    plan.ignore = ignore
    if isinstance(tree, exp.Insert):
        _plan_insert(tree, stmt, plan, tables, typer, replace=kind == "REPLACE")
        if mods.delayed and kind == "INSERT":
            returning_mod.delayed(tree, tables, plan)
    elif isinstance(tree, exp.Update):
        steps = _plan_update(tree, stmt, plan, tables, typer)
    elif isinstance(tree, exp.Delete):
        plan.writes = True
        steps = multi.plan_delete(tree, tables.by_alias)
        target = tree.this
        if steps:
            plan.target = next(t for _s, t, _c in steps if t is not None)
        elif isinstance(target, exp.Table):
            entry = tables.by_alias.get((target.alias or target.name).lower())
            if entry is not None and entry[0] in VIRTUAL_SCHEMAS:
                raise _read_only(entry[0])
            if entry is not None:
                plan.target = (entry[0], entry[2].name if entry[2] else entry[1])
    else:
        select = _leftmost_select(tree)
        if kind == "SELECT" and select is tree and "INTO" not in stmt.shape.upper():
            covering.rewrite(tree, tables.by_alias)  # an index covers it: its order
        if kind == "SELECT" and ("INDEX" in stmt.shape.upper() or "KEY" in stmt.shape.upper()):
            covering.unindexed(tree, tables.by_alias)  # IGNORE INDEX (k): the table's order
        if values_names is not None:
            texts = [_client_text(stmt, name) for name in values_names]
            plan.outputs = [Output(name) for name in texts]
            if select is not None and _values_parts(select, plan.outputs, typer):
                plan.outputs = unionout.outputs(
                    tree, plan.outputs, lambda s: _branch_outputs(s, stmt, tables, typer))
        elif select is not None and kind != "DO":
            # literals known (values) in a set operation: typed now, so branches merge
            typer.union = values is not None and isinstance(tree, exp.SetOperation)
            plan.outputs = unionout.outputs(tree, _outputs(select, stmt, tables, typer),
                                            lambda s: _branch_outputs(s, stmt, tables, typer))
            if plan.outputs is not None and select.args.get("group") is not None:
                for i in queryforms.rolled_items(select, tables.column_names):
                    if i < len(plan.outputs):  # NULL in the super-aggregate rows
                        plan.outputs[i].flags &= ~1
                        plan.outputs[i].rolled = True
            if settings[2] < _NO_LIMIT and not tree.args.get("limit") and \
                    isinstance(tree, (exp.Select, exp.Union, exp.Except, exp.Intersect)):
                # sql_select_limit: a SELECT without LIMIT returns at most that many rows
                tree.set("limit", exp.Limit(expression=exp.Literal.number(settings[2])))
    returning = tree.args.get("returning")
    if isinstance(returning, exp.Returning) and plan.writes:
        # MariaDB 10.5+: the written rows come back as a result set (Django uses it)
        plan.returning = True
        written = returning_mod.written_table(tree, tables)
        returning_mod.check_returning(tree, returning, written, database)
        plan.outputs = _outputs(exp.Select(expressions=[e.copy() for e in
                                                        returning.expressions]),
                                stmt, written, typer)
        returning_mod.expand_table_stars(returning, written)
    if plan.writes and kind != "DELETE":  # CHECK constraints & co. are enforced (checks.py)
        targets = [plan.target] + [t for _s, t, _c in steps]
        plan.checked = tuple(dict.fromkeys(t for t in targets if t is not None and
                                           _has_checks(tables, t)))
        plan.partial = not steps and plan.target is not None and \
            _non_transactional(tables, plan.target)
    if plan.writes:  # ROLLBACK keeps what MyISAM & co. wrote (txn.rollback_statement)
        for written in [plan.target] + [t for _s, t, _c in steps]:
            if written is not None:
                plan.engines |= 1 if _non_transactional(tables, written) else 2
    if plan.writes and not steps and plan.target is not None and \
            kind in ("INSERT", "REPLACE", "DELETE"):
        target_def = tables.lookup(*plan.target)
        plan.slots = target_def is not None and slots.eligible(target_def)
        plan.slots_reset = plan.slots and kind == "DELETE" and \
            slots.whole_table(tree.args.get("where")) and not tree.args.get("limit") and \
            not tree.args.get("returning")  # RETURNING reads the rows: deleted one by one
    if steps:  # a multi-table UPDATE / DELETE: several SQLite statements (multi.py)
        for step, _target, _counts in steps:
            _typed_rewrites(step, typer)
            _sql_rewrites(step, typer, stmt)
            if zone_shift:
                tzcolumns.wrap_reads(step, typer, outputs_in_python=False)
            _rewrite(step)
        plan.sql = _generate(steps[0][0], plan)
        plan.first_counts = steps[0][2]
        plan.steps = [(_generate(t, plan), target, counts) for t, target, counts in steps[1:]]
        return plan
    _typed_rewrites(tree, typer)
    _sql_rewrites(tree, typer, stmt)
    if "GROUP" in stmt.shape.upper():  # (translate runs once per shape: plans are cached)
        outergroup.rewrite(tree, list(tables.by_alias), tables.column_names)
    tree = setops.rewrite(tree, tables.column_names)
    if zone_shift:
        plan.tz_outputs = tzcolumns.python_outputs(tree, plan.outputs)
        tzcolumns.wrap_reads(tree, typer, outputs_in_python=True)
    _rewrite(tree)
    tree = queryforms.rollup(tree, tables.column_names)
    queryforms.implicit_aggregate(tree)
    _limit_values(tree)
    if not plan.writes:
        plan.eager = eager.collect(tree) or None
    if kind in ("SELECT", "WITH", "VALUES") and isinstance(tree, exp.Union):
        ordered = setops.first_seen_order(tree, tables.column_names)  # MariaDB's row order
        if ordered is not tree:
            plan.explain_sql = _generate(tree, plan)  # EXPLAIN tells of the UNION itself
            tree = ordered
    plan.sql = _generate(tree, plan)
    if ignore and plan.sql.startswith("UPDATE "):  # duplicates skip the row, as in MariaDB
        plan.sql = "UPDATE OR IGNORE " + plan.sql[len("UPDATE "):]
    elif plan.partial:  # MyISAM & co.: the rows before a failing one stay (dml.py)
        for verb in ("INSERT INTO ", "UPDATE "):
            if plan.sql.startswith(verb):
                plan.sql = verb.replace(" ", " OR FAIL ", 1) + plan.sql[len(verb):]
            if plan.in_place_sql.startswith(verb):
                plan.in_place_sql = "INSERT OR FAIL INTO " + plan.in_place_sql[len(verb):]
    if mods.calc_found_rows and plan.outputs is not None:
        plan.found_rows_sql = _count_without_limit(tree)
    return plan


def _non_transactional(tables: _Tables, target: tuple[str, str]) -> bool:
    tdef = tables.lookup(*target)
    return tdef is not None and tdef.engine in NON_TRANSACTIONAL


def _has_checks(tables: _Tables, target: tuple[str, str]) -> bool:
    from rampmeter.engine.sqlite.checks import needs_triggers
    tdef = tables.lookup(*target)
    return tdef is not None and needs_triggers(tdef)


# Functions MariaDB's grammar spells out with a list of at least one argument: `f()` is 1064
# at the `)` (syntaxpos.empty_call), not the 1582 of a native function's count.
_GRAMMAR_LISTS = frozenset({"LAST_VALUE"})


# JSON functions whose result is JSON: embedded as JSON by JSON_INSERT & co. (rm_json_arg)
_JSON_RESULTS = frozenset({
    "JSON_QUERY", "JSON_EXTRACT", "JSON_OBJECT", "JSON_ARRAY", "JSON_INSERT", "JSON_SET",
    "JSON_REPLACE", "JSON_REMOVE", "JSON_MERGE", "JSON_MERGE_PATCH", "JSON_MERGE_PRESERVE",
    "JSON_COMPACT", "JSON_DETAILED", "JSON_LOOSE", "JSON_NORMALIZE", "JSON_KEYS",
    "JSON_ARRAY_APPEND", "JSON_ARRAY_INSERT", "JSON_ARRAYAGG", "JSON_OBJECTAGG",
    "JSON_SEARCH", "RM_JSON_ARRAYAGG", "RM_JSON_OBJECTAGG"})
# the value arguments of the JSON functions that embed values: every argument of JSON_ARRAY,
# the odd ones of JSON_OBJECT, the even ones after the first of the path editors
_JSON_EDITS = frozenset({"JSON_INSERT", "JSON_SET", "JSON_REPLACE", "JSON_ARRAY_APPEND",
                         "JSON_ARRAY_INSERT"})
# sqlglot's own nodes for some of MariaDB's JSON functions: the library's calls instead
_JSON_NODES = {exp.JSONArrayAppend: "JSON_ARRAY_APPEND", exp.JSONArrayInsert: "JSON_ARRAY_INSERT",
               exp.JSONRemove: "JSON_REMOVE", exp.JSONSet: "JSON_SET"}
_TRUTHS = (exp.Predicate, exp.Not, exp.And, exp.Or, exp.Xor)


def _json_arguments(tree: exp.Expression, typer: Typer) -> None:
    """The JSON functions that embed values (functions_jsondoc.py, functions_jsonedit.py): a
    value that is JSON (a JSON function's result, a JSON column) is marked so, as MariaDB
    embeds it as JSON; so are TRUE / FALSE and a comparison (true / false), and a decimal
    literal keeps its digits."""
    for node in list(tree.find_all(*_JSON_NODES)):
        node.replace(exp.Anonymous(this=_JSON_NODES[type(node)], expressions=[
            node.this, *node.expressions]))
    for node in list(tree.find_all(exp.JSONObjectAgg)):
        pair = node.expressions[0] if len(node.expressions) == 1 else None
        if isinstance(pair, exp.JSONKeyValue):
            value = pair.expression
            node.replace(exp.Anonymous(this="RM_JSON_OBJECTAGG", expressions=[
                pair.this, _json_value(value, typer) or value]))
    for call in list(tree.find_all(exp.Anonymous)):
        name = call.name.upper()
        if name == "JSON_ARRAYAGG" and len(call.expressions) == 1:
            call.replace(_json_arrayagg(call.expressions[0], typer))
            continue
        if name == "JSON_OBJECTAGG" and len(call.expressions) == 2:
            key, value = call.expressions
            call.replace(exp.Anonymous(this="RM_JSON_OBJECTAGG", expressions=[
                key, _json_value(value, typer) or value]))
            continue
        if name == "JSON_ARRAY":
            values = list(call.expressions)
        elif name == "JSON_OBJECT":
            values = call.expressions[1::2]
        elif name in _JSON_EDITS:
            values = call.expressions[2::2]
        else:
            continue
        for arg in values:
            marked = _json_value(arg, typer)
            if marked is not None:
                arg.replace(marked)


def _json_arrayagg(arg: exp.Expression, typer: Typer) -> exp.Expression:
    """JSON_ARRAYAGG([DISTINCT] v [ORDER BY k [DESC], ...]) -> RM_JSON_ARRAYAGG(v, distinct,
    k1, desc1, ...) (functions_jsondoc.py)."""
    order = arg if isinstance(arg, exp.Order) else None
    value = order.this if order is not None else arg
    distinct = isinstance(value, exp.Distinct)
    if distinct:
        value = value.expressions[0]
    keys: list[exp.Expression] = []
    for ordered in order.expressions if order is not None else ():
        keys.append(ordered.this if isinstance(ordered, exp.Ordered) else ordered)
        desc = isinstance(ordered, exp.Ordered) and bool(ordered.args.get("desc"))
        keys.append(exp.Literal.number(1 if desc else 0))
    return exp.Anonymous(this="RM_JSON_ARRAYAGG", expressions=[
        _json_value(value, typer) or value, exp.Literal.number(1 if distinct else 0), *keys])


def _json_value(arg: exp.Expression, typer: Typer) -> exp.Expression | None:
    """`arg` marked for a JSON function that embeds it (_json_arguments), or None: as is."""
    if _is_json(arg, typer):
        return exp.Anonymous(this="rm_json_arg", expressions=[arg.copy()])
    if isinstance(arg, exp.Boolean):
        return exp.Anonymous(this="rm_json_arg", expressions=[
            exp.Literal.string("true" if arg.this else "false")])
    if isinstance(arg, _TRUTHS):
        return exp.Anonymous(this="rm_json_bool", expressions=[arg.copy()])
    if not isinstance(arg, (exp.Literal, exp.Placeholder, exp.Anonymous)):
        t = typer.infer(arg)
        if t is not None and t.is_decimal:  # its exact digits (exactdec.py): a JSON number
            return exp.Anonymous(this="rm_json_arg", expressions=[arg.copy()])
    slot = arg.this if isinstance(arg, exp.Neg) else arg
    if isinstance(slot, exp.Placeholder) and slot.name[:1] == "n":  # a decimal literal's slot
        scale = int(slot.name.rpartition("_")[2] or 0)
        return exp.Anonymous(this="rm_json_dec", expressions=[
            arg.copy(), exp.Literal.number(scale)])
    if isinstance(arg, exp.Literal) and not arg.is_string and "." in arg.this and \
            "e" not in arg.this.lower():  # one left in the text (a view's, a routine's)
        return exp.Anonymous(this="rm_json_dec", expressions=[
            exp.Literal.string(arg.this), exp.Literal.number(-1)])
    return None


def _is_json(e: exp.Expression, typer: Typer) -> bool:
    if isinstance(e, (exp.JSONExtract, exp.JSONObject, exp.JSONArray, exp.JSONSet,
                      exp.JSONObjectAgg)):
        return True
    if isinstance(e, exp.Subquery) and isinstance(e.this, exp.Select) and \
            len(e.this.expressions) == 1:  # (SELECT JSON_OBJECTAGG(...) ...)
        return _is_json(e.this.expressions[0].unalias(), typer)
    if isinstance(e, exp.Anonymous) and e.name.upper() in _JSON_RESULTS:
        return True
    t = typer.infer(e) if isinstance(e, exp.Column) else None
    return t is not None and t.name == "json"


def _sql_rewrites(tree: exp.Expression, typer: Typer, stmt: Statement) -> None:
    """MariaDB's functions (funcmap.py, windows.py) and comparisons (compare.py)."""
    if "JSON_" in stmt.shape.upper():
        _json_arguments(tree, typer)
    for call in tree.find_all(exp.Anonymous):
        if not call.expressions and call.name.upper() in _GRAMMAR_LISTS:
            raise stmt.syntax_error(syntaxpos.empty_call(stmt.shape, call.name))
    if tree.find(exp.WithinGroup, exp.Median) is not None:  # also from a view's text
        from rampmeter.engine.sqlite import percentile
        percentile.check_syntax(tree, stmt)
        percentile.rewrite(tree, typer)
    windows.rewrite(tree)
    if "against" in stmt.shape.lower():
        from rampmeter.engine.sqlite import fulltext
        fulltext.rewrite(tree, typer.tables, typer)  # MATCH ... AGAINST
    funcmap.rewrite(tree, typer)
    compare.rewrite(tree, typer, stmt.dialect.backslash_escapes)
    if "RM_LOCAL_" in stmt.shape.upper():  # a routine's variable: its type was all it said
        for call in list(tree.find_all(exp.Anonymous)):
            if call.name.upper().startswith("RM_LOCAL_") and len(call.expressions) == 1:
                call.replace(call.expressions[0])


def _count_without_limit(tree: exp.Expression) -> str:
    """SQL_CALC_FOUND_ROWS: the query's rows without its LIMIT, counted (FOUND_ROWS())."""
    whole = tree.copy()
    whole.set("limit", None)
    whole.set("offset", None)
    return f"SELECT COUNT(*) FROM ({whole.sql(dialect='sqlite', normalize_functions=False)})"


def _client_text(stmt: Statement, shape_text: str) -> str:
    """A piece of the shape with its placeholders back as the client's literals (the names
    of a VALUES statement's columns)."""
    values = dict(zip(stmt.names, stmt.slots))

    def literal(m: Any) -> str:
        v = values.get(m.group(1))
        if isinstance(v, str):
            return v  # MariaDB names a string item by its value
        return str(v) if v is not None else "NULL"
    return re.sub(r":([a-z]\d+(?:_\d+)?)", literal, shape_text)


def expression_flags(t: SqlType | None) -> int:
    """MariaDB marks a computed column BINARY when it is a number, a time or a binary string
    (measured: SUM(d), 1 + 1, NOW() all carry flag 128)."""
    if t is None:
        return 0
    if t.is_numeric or t.is_temporal or t.is_binary_string or t.name in ("null", "year"):
        return 0x80
    if t.is_text and (t.collation or "").endswith("_bin"):
        return 0x80
    return 0


# --- rewrites that need the MySQL types ------------------------------------------------------
def _call(name: str, *args: exp.Expression) -> exp.Anonymous:
    return exp.Anonymous(this=name, expressions=list(args))


def _bit_kinds(typer: Typer, *operands: exp.Expression) -> exp.Literal:
    """rm_bitop's last argument: each operand's static type as bitconv.kind_of says it."""
    kinds = ""
    for operand in operands:
        try:
            kinds += bitconv.kind_of(typer.infer(operand)) or "-"
        except Exception:  # noqa: BLE001 - untyped: the value decides (bitconv rules)
            kinds += "-"
    return exp.Literal.string(kinds)


def _typed_rewrites(tree: exp.Expression, typer: Typer) -> None:
    """What SQLite computes differently from MariaDB, fixed where the types say so: division by
    zero (NULL and warning 1365, or the error under strict ERROR_FOR_DIVISION_BY_ZERO writes),
    unsigned 64-bit bit operations, casts to temporal / DECIMAL / UNSIGNED types, and DECIMALs
    turned into text (CAST AS CHAR, CONCAT) keeping their scale."""
    ordercoll.rewrite(tree, typer)  # on the tree as written: its keys' types are MySQL's
    for node in list(tree.find_all(exp.PropertyEQ)):
        if isinstance(node.this, exp.Parameter):  # @v := decimal: stored exact (uservars.py)
            t = typer.infer(node.expression)
            if t is not None and t.is_decimal:
                node.replace(_call("rm_setvar_dec", exp.Literal.string(node.this.name),
                                   node.expression, exp.Literal.number(t.scale or 0)))
            elif t is not None and t.is_text and charset_of(t) not in (None, *_UTF8):
                node.replace(_call("rm_setvar_cs", exp.Literal.string(node.this.name),
                                   node.expression, exp.Literal.string(charset_of(t))))
    bigunsigned.rewrite(tree, typer)  # '~' + digits (> 2^63 - 1) read by SQLite's functions
    # Hex and bit literals first: their parents are still the operators they stand in.
    for node in list(tree.find_all(exp.Placeholder)):
        if node.name[:1] == "x" and isinstance(
                node.parent, (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.IntDiv, exp.Mod,
                              exp.Neg, exp.GT, exp.GTE, exp.LT, exp.LTE)) and \
                not _ordered_with_string(node, typer):
            node.replace(_call("rm_bin2num", node.copy()))  # 0x10 + 0 is 16
        elif node.name[:1] == "x" and _equality_with_number(node, typer):
            node.replace(_call("rm_bin2num", node.copy()))  # bit_col = b'1' compares numbers
        elif node.name[:1] == "x" and isinstance(node.parent, exp.Between) and \
                node.arg_key in ("low", "high") and \
                (typer.infer(node.parent.this) or T.NULL).is_numeric:
            node.replace(_call("rm_bin2num", node.copy()))  # int_col BETWEEN 0 AND 0x10F
    typer.forget()
    _redundant_query_parens(tree)
    # Then top-down; a replacement keeps the original children (moved, not copied), so the
    # walk still reaches them and nested rewrites land in the tree.
    divisions: list[exp.Expression] = []
    for node in list(tree.walk()):
        if isinstance(node, _ARITHMETIC) and not isinstance(node.this, exp.Interval) and \
                not isinstance(node.expression, exp.Interval):
            _temporal_operands(node, typer)
        exact = _exact_decimal(node, typer)
        if exact is not None:  # DECIMAL arithmetic, comparison, SUM: exactly (exactdec.py)
            node.replace(exact)
            if isinstance(exact, exp.Anonymous):  # its text orders as a number
                hole = exp.Null()
                exact.replace(hole)
                hole.replace(exp.Collate(this=exact, expression=exp.var("rm_decimal")))
            if isinstance(node, (exp.Div, exp.Mod)):
                divisions.append(exact)
        elif isinstance(node, (exp.Add, exp.Sub, exp.Mul, exp.IntDiv, exp.Mod)) and not \
                isinstance(node.this, exp.Interval) and not isinstance(node.expression,
                                                                       exp.Interval) \
                and _unsigned_math(typer.infer(node.this), typer.infer(node.expression)):
            # (d + INTERVAL n unit is DATE_ADD: funcmap.py)
            # unsigned 64-bit arithmetic, which SQLite's signed integers cannot do
            op = {exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.IntDiv: "DIV",
                  exp.Mod: "%"}[type(node)]
            text = exp.Literal.string(node.sql("mysql")[:64])
            call = _call("rm_uarith", exp.Literal.string(op), node.this, node.expression, text)
            node.replace(call)
            if op == "%":
                divisions.append(call)  # x MOD 0: NULL and 1365, as below
        elif isinstance(node, exp.Subquery) and _scalar_position(node):
            _check_one_row(node)
        elif isinstance(node, (exp.Div, exp.IntDiv, exp.Mod)):
            divisor = node.expression
            if isinstance(node, exp.Mod) and _fractional_mod(typer.infer(node.this),
                                                             typer.infer(divisor)):
                # SQLite's % is an integer remainder; MariaDB's MOD of a DECIMAL or DOUBLE
                # keeps the fraction, with the dividend's sign (1197.90 MOD 50 is 47.90)
                mod = _call("mod", _real(node.this, typer), _real(divisor, typer))
                node.replace(mod)
                node = mod
            divisions.append(node)  # after the walk: the divisor's copy is then rewritten too
        elif isinstance(node, exp.BitwiseNot):
            node.replace(_call("rm_bitop", exp.Literal.string("~"), node.this,
                               exp.Literal.number(0), _bit_kinds(typer, node.this)))
        elif isinstance(node, (exp.BitwiseXor, exp.BitwiseAnd, exp.BitwiseOr,
                               exp.BitwiseLeftShift, exp.BitwiseRightShift)):
            op = {exp.BitwiseXor: "^", exp.BitwiseAnd: "&", exp.BitwiseOr: "|",
                  exp.BitwiseLeftShift: "<<", exp.BitwiseRightShift: ">>"}[type(node)]
            node.replace(_call("rm_bitop", exp.Literal.string(op), node.this, node.expression,
                               _bit_kinds(typer, node.this, node.expression)))
        elif isinstance(node, exp.Xor):
            # a XOR b: NULL if either is NULL, else truth of one but not both; the operands
            # appear twice, so the second use is a copy
            a, b = node.this, node.expression
            case = exp.Case(
                ifs=[exp.If(this=exp.Or(this=exp.Is(this=a.copy(), expression=exp.null()),
                                        expression=exp.Is(this=b.copy(),
                                                          expression=exp.null())),
                            true=exp.null())])
            node.replace(case)
            case.set("default", exp.NEQ(
                this=exp.Paren(this=exp.NEQ(this=a, expression=exp.Literal.number(0))),
                expression=exp.Paren(this=exp.NEQ(this=b, expression=exp.Literal.number(0)))))
        elif isinstance(node, exp.BitLength):
            arg = node.this
            cs = charset_of(typer.infer(arg))
            data = _call("rm_encode", arg, exp.Literal.string(cs)) \
                if cs is not None and cs not in _UTF8 and cs != "binary" else \
                exp.Cast(this=arg, to=exp.DataType.build("BLOB"))
            node.replace(exp.Mul(this=_call("length", data), expression=exp.Literal.number(8)))
        elif isinstance(node, exp.Cast):
            _rewrite_cast(node, typer)
        elif isinstance(node, exp.Collate):
            _rewrite_collate(node, typer)
        elif isinstance(node, exp.Hex):
            arg = node.this
            if isinstance(arg, exp.Anonymous) and arg.name.lower() == "rm_u64s":
                arg = arg.expressions[0]  # a BIGINT UNSIGNED: rm_hex reads its '~' form
            t = typer.infer(arg)
            mode = "n" if t is not None and t.is_numeric else charset_of(t) or ""
            node.replace(_call("rm_hex", arg, _charset_of_value(arg, mode)))
        elif isinstance(node, _BYTE_FUNCTIONS) or isinstance(node, exp.Anonymous) and \
                node.name.upper() in _BYTE_FUNCTION_NAMES:
            # a digest, a checksum, compression: of the string's bytes in its own character
            # set (MD5 of a latin1 'é' is MD5 of 0xE9), as for OCTET_LENGTH below
            arg = node.expressions[0] if isinstance(node, exp.Anonymous) and \
                node.expressions else node.this
            cs = charset_of(typer.infer(arg)) if isinstance(arg, exp.Expression) else None
            if cs is not None and cs not in _UTF8 and cs != "binary":
                _wrap(arg, lambda a, c=cs: _call("rm_encode", a, exp.Literal.string(c)))
        elif isinstance(node, exp.Length) and node.args.get("binary") \
                or isinstance(node, exp.Anonymous) and node.name.upper() == "OCTET_LENGTH":
            # bytes of a string: those of its own character set
            arg = node.this if not isinstance(node, exp.Anonymous) else \
                (node.expressions[0] if node.expressions else None)
            cs = charset_of(typer.infer(arg)) if arg is not None else None
            if cs is not None and cs not in _UTF8 and cs != "binary":
                _wrap(arg, lambda a, c=cs: _call("rm_encode", a, exp.Literal.string(c)))
        elif isinstance(node, (exp.Concat, exp.ConcatWs)):
            for arg in list(node.expressions):
                t = typer.infer(arg)
                if t is not None and t.is_decimal:
                    _wrap(arg, lambda a, s=t.scale or 0: _decimal_text(a, s))
                elif t is not None and t.name in ("double", "float"):
                    # MariaDB's text of a double (105, not SQLite's 105.0)
                    _wrap(arg, lambda a: _call("rm_double_text", a))
                elif isinstance(arg, (exp.Binary, exp.Unary, exp.Between, exp.In)):
                    # SQLite's || binds tighter than any operator: 'a' || (4 - 5)
                    _wrap(arg, lambda a: exp.Paren(this=a))
            if isinstance(node, exp.Concat) and any(
                    charset_of(typer.infer(a)) == "binary" for a in node.expressions):
                # a binary argument makes the result binary (MariaDB); SQLite's || is TEXT,
                # which bytes that are not UTF-8 cannot be read back as
                _wrap(node, lambda c: exp.Cast(this=c, to=exp.DataType.build("BLOB")))
    for node in divisions:  # x / 0 is NULL with MariaDB's warning (rm_div0)
        # the divisor as rewritten by the walk (MOD of a fraction is mod(a, b): its second)
        if isinstance(node, exp.Binary):
            divisor, dividend = node.expression, node.this
        elif node.name == "rm_uarith":  # rm_uarith(op, a, b, kinds)
            divisor, dividend = node.expressions[2], node.expressions[1]
        else:
            divisor, dividend = node.expressions[1], node.expressions[0]
        warn = _call("rm_div0") if isinstance(dividend, exp.Literal) else \
            _call("rm_div0", dividend.copy())  # NULL / 0: no warning
        case = exp.Case(ifs=[exp.If(this=exp.EQ(this=divisor.copy(),
                                                expression=exp.Literal.number(0)),
                                    true=warn)])
        node.replace(case)
        case.set("default", node)


def _exact_decimal(node: exp.Expression, typer: Typer) -> exp.Expression | None:
    if isinstance(node, (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod, exp.Neg)):
        return exactdec.arithmetic(node, typer)
    if isinstance(node, (exp.Sum, exp.Avg)):
        return exactdec.total(node, typer)
    if isinstance(node, (exp.Abs, exp.Ceil, exp.Floor)):
        return exactdec.function(node, typer)
    if isinstance(node, exp.In):
        exactdec.in_list(node, typer)  # in place: inlist.py keeps its lists
        return None
    if isinstance(node, (exp.Greatest, exp.Least)):
        return exactdec.extreme(node, typer)
    if isinstance(node, exp.Anonymous) and node.name[:5].upper() == "JSON_":
        exactdec.json_values(node, typer)
        return None
    return exactdec.comparison(node, typer)


_BYTE_FUNCTIONS = (exp.MD5, exp.SHA, exp.SHA2, exp.Compress, exp.ToBase64)
_BYTE_FUNCTION_NAMES = frozenset({"UNCOMPRESS", "UNCOMPRESSED_LENGTH", "CRC32", "COMPRESS", "SHA",
                                  "SHA1", "SHA2", "TO_BASE64", "MD5"})
_ARITHMETIC = (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod, exp.IntDiv, exp.BitwiseAnd,
               exp.BitwiseOr, exp.BitwiseXor, exp.BitwiseLeftShift, exp.BitwiseRightShift)
_TEMPORALS = {"date": "date", "datetime": "datetime", "timestamp": "datetime", "time": "time"}


def _temporal_operands(node: exp.Binary, typer: Typer) -> None:
    """A DATE / DATETIME / TIME operand of arithmetic (or of & | ^ << >>) is its number, as in
    MariaDB: TIME '10:10:10' + 1 is 101011, not SQLite's 10 + 1 (d + INTERVAL is DATE_ADD,
    not this)."""
    for side in (node.this, node.expression):
        t = typer.infer(side)
        kind = _TEMPORALS.get(t.name) if t is not None else None
        if kind is None and _date_arithmetic(side):
            kind = "hybrid"  # DATE_ADD of a string: a string, but a date's number here
        if kind is not None:
            _wrap(side, lambda a, k=kind: _call("rm_temporal_number", a,
                                                exp.Literal.string(k)))


_DATE_ADD = ("DATE_ADD", "DATE_SUB", "ADDDATE", "SUBDATE", "TIMESTAMPADD")


def _date_arithmetic(node: exp.Expression) -> bool:
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.Anonymous):
        return node.name.upper() in _DATE_ADD
    return isinstance(node, (exp.DateAdd, exp.DateSub)) or isinstance(
        node, (exp.Add, exp.Sub)) and isinstance(node.expression, exp.Interval)


def _ordered_with_string(node: exp.Expression, typer: Typer) -> bool:
    """x'20' in `c < x'20'` with a string c: MariaDB compares strings (compare.py)."""
    parent = node.parent
    if not isinstance(parent, (exp.GT, exp.GTE, exp.LT, exp.LTE)) or node.name.endswith("_b"):
        return False
    other = parent.expression if parent.this is node else parent.this
    t = typer.infer(other)
    return t is not None and t.is_string and t is not HEX


def _equality_with_number(node: exp.Expression, typer: Typer) -> bool:
    """A bit literal (b'101') compared for equality with a BIT value: MariaDB compares numbers
    then (x'41' there is the string 'A', compared as SQLite compares it)."""
    parent = node.parent
    if not node.name.endswith("_b"):
        return False
    if not isinstance(parent, (exp.EQ, exp.NEQ, exp.NullSafeEQ, exp.NullSafeNEQ)):
        return False
    other = parent.expression if parent.this is node else parent.this
    t = typer.infer(other)
    return t is not None and t.name == "bit"


def _unsigned_math(a: SqlType | None, b: SqlType | None) -> bool:
    """Integer arithmetic with an UNSIGNED side (a decimal or double side makes it decimal or
    double arithmetic instead, which SQLite does)."""
    if not (is_unsigned_integer(a) or is_unsigned_integer(b)):
        return False
    return not any(t is not None and (t.is_decimal or t.is_numeric and not t.is_integer)
                   for t in (a, b))


def _fractional_mod(a: SqlType | None, b: SqlType | None) -> bool:
    """MOD whose operands are known and not both integers (a DECIMAL, a DOUBLE, a string);
    a temporal operand keeps SQLite's % (its text's leading number)."""
    return a is not None and b is not None and a.name != "null" and b.name != "null" and \
        not (_integral(a) and _integral(b)) and not (a.is_temporal or b.is_temporal)


def _real(node: exp.Expression, typer: Typer) -> exp.Expression:
    """A string operand of MOD as the number it starts with ('7.5' is 7.5)."""
    t = typer.infer(node)
    if t is not None and t.is_string:
        return exp.Cast(this=node, to=exp.DataType.build("DOUBLE"))
    return node


def _integral(t: SqlType) -> bool:
    return t.is_integer or t.name in ("bit", "year") or t is HEX


def _wrap(node: exp.Expression, make) -> None:
    """Put `make(node)` where node was, with node itself (not a copy) inside, so a walk that
    has yet to reach node's descendants still rewrites them in the tree."""
    hole = exp.Null()
    node.replace(hole)
    hole.replace(make(node))


def _redundant_query_parens(tree: exp.Expression) -> None:
    """((SELECT ...)) is the query in parentheses, as MariaDB reads it: `x IN ((SELECT ...))`
    is an IN subquery, not an IN list of one scalar subquery (SQLite's reading, 1242 here);
    EXISTS((SELECT ...)) is EXISTS of the query (SQLite refuses the extra parentheses)."""
    for node in list(tree.find_all(exp.Subquery)):
        inner = node.this
        while isinstance(inner, exp.Subquery) and \
                not any(v for k, v in inner.args.items() if k != "this"):
            inner = inner.this
        if inner is not node.this:
            node.set("this", inner)
    for node in list(tree.find_all(exp.Exists)):
        inner = node.this
        if isinstance(inner, exp.Subquery) and isinstance(inner.this, exp.Query) and \
                not any(v for k, v in inner.args.items() if k != "this"):
            node.set("this", inner.this)


def _scalar_position(node: exp.Subquery) -> bool:
    """A subquery used as a value (not a table, not IN / EXISTS / a comparison with ANY)."""
    parent = node.parent
    return parent is not None and not isinstance(parent, (
        exp.From, exp.Join, exp.In, exp.Exists, exp.Any, exp.All, exp.Union, exp.Except,
        exp.Intersect, exp.Lateral, exp.Insert, exp.Table, exp.CTE))


def _check_one_row(node: exp.Subquery) -> None:
    """(SELECT x ...) used as a value must yield at most one row (MariaDB 1242); SQLite would
    take the first. Read it through a derived table of at most two rows."""
    inner = node.this
    select = _leftmost_select(inner) if isinstance(inner, exp.Expression) else None
    if select is None or len(select.expressions) != 1 or \
            isinstance(select.expressions[0], exp.Star) or \
            isinstance(select.expressions[0], exp.Column) and \
            isinstance(select.expressions[0].this, exp.Star):
        return  # `*` / `t.*`: SQLite checks the width (1241), it cannot be aliased
    if isinstance(inner, exp.Select) and inner.args.get("from_") is None:
        return  # no table: one row at most already
    if _outer_aggregate(select):
        # SUM(outer.x): the outer query's aggregate, which a derived table would hide; the
        # query's rows are counted apart, without its select list
        if isinstance(inner, exp.Select):
            counted = inner.copy()
            counted.set("expressions", [exp.Literal.number(1)])
            if counted.args.get("limit") is None and counted.args.get("offset") is None:
                counted.set("order", None)
            two = exp.select("*").from_(exp.Subquery(this=counted, alias=exp.TableAlias(
                this=exp.to_identifier("rm_one"))), copy=False).limit(2, copy=False)
            rows = exp.Subquery(this=exp.select(exp.Count(this=exp.Star())).from_(
                exp.Subquery(this=two, alias=exp.TableAlias(this=exp.to_identifier("rm_two"))),
                copy=False))
            _wrap(node, lambda n: exp.Case(ifs=[exp.If(
                this=exp.GT(this=rows, expression=exp.Literal.number(1)),
                true=_call("rm_subquery_rows"))], default=n))
        return
    if isinstance(inner, exp.Select) and inner.args.get("group") is None and \
            any(queryforms.own_aggregate(e) for e in inner.expressions):
        return  # an aggregate without GROUP BY: one row at most already
    if isinstance(inner, exp.Select) and inner.args.get("order") is not None and \
            inner.args.get("limit") is None and inner.args.get("offset") is None:
        # one row or 1242: the order changes nothing, and SQLite's derived table could not
        # read an outer column it names (ORDER BY t2.b)
        inner.set("order", None)
    first = select.expressions[0]
    value = first.this if isinstance(first, exp.Alias) else first
    if isinstance(inner, exp.Select) and not inner.args.get("distinct"):
        # no derived table (SQLite's parser has a depth that nested subqueries reach): the
        # first row says 1242 when the rows, counted by a window over them all, minus the
        # OFFSET, up to the LIMIT, are more than one
        count: exp.Expression = exp.Window(this=exp.Count(this=exp.Star()))
        limit = inner.args.get("limit")
        offset = limit.args.get("offset") if isinstance(limit, exp.Limit) else None
        offset = offset or (inner.args["offset"].expression
                            if isinstance(inner.args.get("offset"), exp.Offset) else None)
        if offset is not None:
            count = exp.Sub(this=count, expression=offset.copy())
        if isinstance(limit, exp.Limit) and limit.expression is not None:
            count = _call("min", count, limit.expression.copy())
        hole = exp.Null()
        value.replace(hole)
        hole.replace(exp.Case(ifs=[exp.If(this=exp.GT(this=count,
                                                      expression=exp.Literal.number(1)),
                                          true=_call("rm_subquery_rows"))], default=value))
        return
    # exp.alias_ would name a subquery as a table; the column needs an Alias node
    select.set("expressions", [exp.Alias(this=value, alias=exp.to_identifier("rm_v",
                                                                            quoted=True))])
    derived = exp.Subquery(this=inner, alias=exp.TableAlias(
        this=exp.to_identifier("rm_one")))
    # the builders copy their arguments unless told not to; inner must stay the same object
    limited = exp.select("*").from_(derived, copy=False).limit(2, copy=False)
    wrapper = exp.select(exp.Case(
        ifs=[exp.If(this=exp.GT(this=exp.Count(this=exp.Star()),
                                expression=exp.Literal.number(1)),
                    true=_call("rm_subquery_rows"))],
        default=exp.Max(this=exp.column("rm_v", quoted=True)))).from_(
        exp.Subquery(this=limited, alias=exp.TableAlias(this=exp.to_identifier("rm_two"))),
        copy=False)
    node.set("this", wrapper)


def _outer_aggregate(select: exp.Select) -> bool:
    """Whether the select list has an aggregate of only columns of tables the query does not
    name itself (MariaDB and SQLite aggregate it in the outer query)."""
    own = {t.alias_or_name.lower() for t in select.find_all(exp.Table)}
    for agg in select.expressions[0].find_all(exp.AggFunc):
        cols = list(agg.find_all(exp.Column))
        if cols and all(c.table and c.table.lower() not in own for c in cols):
            return True
    return False


def _decimal_text(node: exp.Expression, scale: int) -> exp.Expression:
    return _call("printf", exp.Literal.string(f"%.{scale}f"), node)


def _big_unsigned(t: SqlType | None) -> bool:
    return t is not None and t.name == "bigint" and t.unsigned


# functions whose text is their first argument's, in its character set
_SAME_CHARSET = (exp.Paren, exp.Upper, exp.Lower, exp.Substring, exp.Left, exp.Right, exp.Trim,
                 exp.Reverse)
_SAME_CHARSET_NAMES = frozenset(("UPPER", "UCASE", "LOWER", "LCASE", "TRIM", "LTRIM", "RTRIM",
                                 "REVERSE"))


def _user_variable_text(e: exp.Expression) -> str | None:
    """The user variable whose text `e` is (@a, REVERSE(@a), UPPER(@a)...), or None."""
    while True:
        if isinstance(e, exp.Parameter):
            return e.name
        if isinstance(e, _SAME_CHARSET) and isinstance(e.this, exp.Expression):
            e = e.this
            continue
        if isinstance(e, exp.Anonymous) and e.name.upper() in _SAME_CHARSET_NAMES and \
                e.expressions:
            e = e.expressions[0]
            continue
        return None


def _charset_of_value(e: exp.Expression, known: str) -> exp.Expression:
    """The character set argument of a function reading `e`'s bytes: `known` (the type's),
    or for a user variable's text the one it holds when the statement runs (rm_uservar_cs):
    a plan is kept per statement shape, the variable changes between runs."""
    name = _user_variable_text(e)
    if name is None:
        return exp.Literal.string(known)
    return _call("rm_uservar_cs", exp.Literal.string(name), exp.Literal.string(known))


def _rewrite_cast(node: exp.Cast, typer: Typer) -> None:
    to = node.to
    if not isinstance(to, exp.DataType):
        return
    D = exp.DataType.Type
    params = [p.this.name if isinstance(p, exp.DataTypeParam) else p.name
              for p in to.expressions]
    nums = [int(p) for p in params if str(p).isdigit()]
    dtype = to.this
    if dtype in (D.DECIMAL, D.UDECIMAL, D.DOUBLE) and len(nums) == 2 and nums[1] > nums[0]:
        raise ServerError(errors.ER_M_BIGGER_THAN_D, "")  # CAST(1 AS DECIMAL(5,6))
    if dtype in (D.DECIMAL, D.UDECIMAL, D.UBIGINT, D.UINT, D.USMALLINT, D.UTINYINT,
                 D.UMEDIUMINT, D.DOUBLE, D.FLOAT, D.BIGINT, D.INT, D.SMALLINT, D.TINYINT,
                 D.MEDIUMINT):
        given = typer.infer(node.this)
        if given is not None and given.name in ("date", "datetime", "timestamp", "time"):
            # a temporal's number is its digits: TIME '-73:42:12' is -734212 (MariaDB)
            kind = "datetime" if given.name == "timestamp" else given.name
            node.set("this", _call("rm_temporal_number", node.this,
                                   exp.Literal.string(kind)))
            if dtype in (D.DOUBLE, D.FLOAT):
                node.replace(_call("rm_cast_double", node.this))
                return
    if dtype == D.DOUBLE and len(nums) == 2:  # DOUBLE(M,D): rounded to D, clipped to M
        node.replace(_call("rm_cast_double_fixed", node.this, exp.Literal.number(nums[0]),
                           exp.Literal.number(nums[1])))
        return
    if dtype in (D.DATETIME, D.TIMESTAMP, D.TIMESTAMPTZ, D.DATE, D.TIME, D.DATETIME64):
        kind = {D.DATE: "date", D.TIME: "time"}.get(dtype, "datetime")
        if isinstance(node.this, exp.Literal) and node.this.is_string:
            kind = kind.upper()  # DATE'..' (a CAST's string is a placeholder): its own words
        given = typer.infer(node.this)
        if kind.lower() != "time" and given is not None and given.name == "time":
            # a TIME as a date: today at that time (MariaDB)
            node.set("this", _call("rm_time_as_datetime", node.this))
        node.replace(_call("rm_cast_temporal", node.this, exp.Literal.string(kind),
                           exp.Literal.number(nums[0] if nums else 0)))
    elif dtype == D.INTERVAL:  # CAST(x AS INTERVAL DAY_SECOND(n)), dialect.py
        t = typer.infer(node.this)
        value = _decimal_text(node.this, t.scale or 0) if t is not None and t.is_decimal \
            else node.this  # a DECIMAL's digits as written: more than 6 decimals is a Note
        node.replace(_call("rm_cast_interval", value, exp.Literal.number(nums[0])))
    elif dtype in (D.DECIMAL, D.UDECIMAL):
        prec = nums[0] if nums else 10
        scale = nums[1] if len(nums) > 1 else 0
        node.replace(_call("rm_cast_decimal", node.this, exp.Literal.number(prec),
                           exp.Literal.number(scale)))
    elif dtype in (D.UBIGINT, D.UINT, D.USMALLINT, D.UTINYINT, D.UMEDIUMINT):
        node.replace(_call("rm_cast_unsigned", node.this,
                           exp.Literal.string(number_kind(typer.infer(node.this)))))
    elif dtype in (D.DOUBLE, D.FLOAT) and (not (typer.infer(node.this) or T.NULL).is_numeric
                                           or _big_unsigned(typer.infer(node.this))):
        # a string's number, with 1292; a BIGINT UNSIGNED past 2^63 - 1 (its '~' text form)
        node.replace(_call("rm_cast_double", node.this))
    elif dtype in (D.BIGINT, D.INT, D.SMALLINT, D.TINYINT, D.MEDIUMINT):
        node.replace(_call("rm_cast_signed", node.this,
                           exp.Literal.string(number_kind(typer.infer(node.this)))))
    elif dtype in (D.CHAR, D.VARCHAR, D.NCHAR, D.NVARCHAR, D.TEXT):
        t = typer.infer(node.this)
        if t is not None and t.is_decimal:
            node.set("this", _decimal_text(node.this, t.scale or 0))
        source = charset_of(t)
        target = typer.text.charset or "utf8mb4"  # the connection's character set
        if target not in _UTF8 and dtype != D.NCHAR:
            node.replace(_call("rm_cast_char", node.this, exp.Literal.number(
                nums[0] if nums else -1), exp.Literal.string(source or "utf8mb4"),
                exp.Literal.string(target)))
        elif nums or source not in _UTF8:  # a length to cut at, or bytes to read as text
            node.replace(_call("rm_cast_char", node.this, exp.Literal.number(
                nums[0] if nums else -1), exp.Literal.string(source or "utf8mb4")))
    elif dtype == D.CHARACTER_SET:
        kind = to.args.get("kind")
        name = kind.name if isinstance(kind, exp.Expression) else "utf8mb4"
        cs = charsets.charset(name)
        if cs is None:
            raise ServerError(errors.ER_UNKNOWN_CHARACTER_SET, name)
        source = charset_of(typer.infer(node.this)) or "utf8mb4"
        node.replace(_call("rm_to_charset", node.this, exp.Literal.string(cs.name),
                           exp.Literal.string(source)))
    elif dtype in (D.BINARY, D.VARBINARY):
        source = charset_of(typer.infer(node.this)) or "utf8mb4"
        if nums or source not in _UTF8 and source != "binary" or _user_variable_text(node.this):
            node.replace(_call("rm_cast_binary", node.this, exp.Literal.number(
                nums[0] if nums else -1), _charset_of_value(node.this, source)))


_UTF8 = ("utf8mb4", "utf8mb3", "ascii")  # held in SQLite as they are


def _rewrite_collate(node: exp.Collate, typer: Typer) -> None:
    """x COLLATE name: MariaDB's collation names, checked (1273 unknown, 1253 not for x's
    character set), compare as SQLite's BINARY (_bin, binary) or NOCASE (_ci: ASCII folding,
    see docs/sql.md)."""
    name = node.expression.name
    coll = charsets.collation(name)
    if coll is None:
        raise ServerError(errors.ER_UNKNOWN_COLLATION, name)
    source = charset_of(typer.infer(node.this))
    if source is not None and source != "binary" and \
            charsets.charset(source) is not charsets.charset(coll.charset):
        raise ServerError(errors.ER_COLLATION_CHARSET_MISMATCH, coll.name, source)
    node.meta["collation"] = coll.name  # what the typer reads (infer.py) once renamed here
    # a PAD SPACE _bin collation ignores trailing spaces ('a' = 'a ' COLLATE utf8mb4_bin is
    # 1): funclib's rm_pad; binary and the _nopad_bin ones compare as they are
    node.set("expression", exp.var(coll.name if coll.case_insensitive else "BINARY"
                                   if coll.name == "binary" or "nopad" in coll.name
                                   else "rm_pad"))


# --- tables -----------------------------------------------------------------------------------
def _qualify(tree: exp.Expression, database: str | None, tables: _Tables) -> list[str]:
    ctes = {c.alias_or_name.lower() for c in tree.find_all(exp.CTE)}
    infoschema: list[str] = []
    for table in list(tree.find_all(exp.Table)):
        name = table.name
        if not name:
            continue
        db = table.db
        if not db:
            if name.lower() in ctes:
                continue
            if name.lower() == "dual" and isinstance(table.parent, exp.From):
                table.parent.pop()
                continue
            if database is None:
                raise ServerError(errors.ER_NO_DB_ERROR)
            db = database
        alias = table.alias or name
        if db.lower() in VIRTUAL_SCHEMAS or (db.lower(), name.lower()) in MYSQL_VIRTUAL and \
                tables.lookup(db, name) is None:
            key = virtual_key(db, name)
            infoschema.append(key)
            table.set("db", exp.to_identifier("temp"))
            table.set("this", exp.to_identifier(temp_name(key), quoted=True))
            table.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
            tables.by_alias[alias.lower()] = (db.lower(), split_key(key)[1], None)
            continue
        tdef = tables.add(alias, db, name)
        if tdef is not None and tdef.view is not None:
            from rampmeter.engine.sqlite import views
            infoschema += views.expand(table, tdef, alias, tables, _qualify, _Tables)
            continue
        if tdef is not None and tdef.location is not None:  # a temporary table
            db, stored = tdef.location
            table.set("this", exp.to_identifier(stored, quoted=True))
            if not table.alias:
                table.set("alias", exp.TableAlias(this=exp.to_identifier(name)))
        elif tdef is not None and tdef.name != name:
            table.set("this", exp.to_identifier(tdef.name, quoted=True))
            if not table.alias:
                table.set("alias", exp.TableAlias(this=exp.to_identifier(name)))
        table.set("db", exp.to_identifier(db, quoted=True))
    return infoschema


def _check_with_columns(tree: exp.Expression, tables: _Tables) -> None:
    """WITH t(a, b) AS (SELECT ...): a select list of another width is MariaDB's 4002, even
    when t is not read (SQLite would say 1136 when it is, nothing when not)."""
    widths: dict[str, int] = {}
    for cte in tree.find_all(exp.CTE):
        alias = cte.args.get("alias")
        named = alias.columns if isinstance(alias, exp.TableAlias) else []
        select = _leftmost_select(cte.this)
        width = _select_width(select, tables, widths) if select is not None else None
        if named:
            width, expected = len(named), width
            if expected is not None and expected != width:
                raise ServerError(4002, message="WITH column list and SELECT field list have "
                                  "different column counts", sqlstate="HY000")
        if width is not None:
            widths[cte.alias_or_name.lower()] = width


def _expand_stars(select: exp.Select, tables: _Tables) -> None:
    """`*` and `t.*` of a select list as the columns they stand for, when every table they
    name is a known one (a derived table's columns are left to SQLite)."""
    items = [select.args["from_"].this] if select.args.get("from_") else []
    items += [j.this for j in select.args.get("joins") or []]
    if any(not isinstance(t, exp.Table) for t in items):
        return
    new: list[exp.Expression] = []
    for e in select.expressions:
        if isinstance(e, exp.Star):
            aliases = [t.alias_or_name for t in items]
        elif isinstance(e, exp.Column) and isinstance(e.this, exp.Star):
            aliases = [e.table]
        else:
            new.append(e)
            continue
        for alias in aliases:
            names = tables.visible_names(alias)
            if names is None:
                return
            new += [exp.column(n, table=alias, quoted=True) for n in names]
    select.set("expressions", new)


def _select_width(select: exp.Select, tables: _Tables, ctes: dict[str, int]) -> int | None:
    """How many columns the select list gives (stars counted), None when unknown."""
    def of(alias: str) -> int | None:
        if alias.lower() in ctes:
            return ctes[alias.lower()]
        names = tables.visible_names(alias)
        return len(names) if names is not None else None
    items = [select.args["from_"].this] if select.args.get("from_") else []
    items += [j.this for j in select.args.get("joins") or []]
    sources = [t.alias_or_name if isinstance(t, exp.Table) else None for t in items]
    total = 0
    for e in select.expressions:
        star_of = None
        if isinstance(e, exp.Star):
            star_of = sources
        elif isinstance(e, exp.Column) and isinstance(e.this, exp.Star):
            star_of = [e.table]
        if star_of is None:
            total += 1
            continue
        for alias in star_of:
            n = of(alias) if alias else None  # a derived table: not counted here
            if n is None:
                return None
            total += n
    return total


_ROW_BINARY = {exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.Div: "/", exp.Mod: "MOD"}
_ROW_BITS = {exp.BitwiseOr: "|", exp.BitwiseAnd: "&", exp.BitwiseXor: "^",
             exp.BitwiseLeftShift: "<<", exp.BitwiseRightShift: ">>", exp.BitwiseNot: "~"}


# MariaDB's functions that check their arguments' types (its integer functions, measured by
# mtr func_int); the others say 1241 as SQLite does (ABS, UPPER, CONCAT...)
_ROW_CHECKED = frozenset((
    "TO_SECONDS", "TIMESTAMPDIFF", "INET_ATON", "LAST_INSERT_ID", "STRCMP", "OCTET_LENGTH",
    "UNCOMPRESSED_LENGTH", "COERCIBILITY", "ASCII", "CRC32", "ORD", "LOCATE", "BIT_COUNT",
    "BENCHMARK", "SLEEP", "GET_LOCK", "PERIOD_ADD", "PERIOD_DIFF", "TO_DAYS", "DAYOFMONTH",
    "DAYOFYEAR", "QUARTER", "YEAR", "YEARWEEK", "WEEK", "HOUR", "MINUTE", "SECOND",
    "MICROSECOND", "JSON_DEPTH", "JSON_LENGTH", "REGEXP_INSTR", "FIND_IN_SET", "RELEASE_LOCK",
    "IS_FREE_LOCK", "IS_USED_LOCK", "FROM_DAYS", "MAKEDATE", "SEC_TO_TIME", "TIMEDIFF",
    "LAST_DAY", "MAKETIME", "FROM_UNIXTIME", "DATE_FORMAT", "CONVERT_TZ"))
# ... and those sqlglot reads into nodes of their own (mtr func_time)
_ROW_CHECKED_NODES = {exp.LastDay: "last_day", exp.TimeFromParts: "maketime",
                      exp.UnixToTime: "from_unixtime", exp.ConvertTimezone: "convert_tz",
                      exp.TimeToStr: "date_format"}


def _row_operands(tree: exp.Expression, stmt: Statement, typer: Typer) -> None:
    """A ROW where an operator or a function takes one value: MariaDB's 4078 "Illegal
    parameter data types row and int for operation '+'" (arithmetic, LEAST / GREATEST) or
    4079 "Illegal parameter data type row for operation '|'" (bit operators, functions),
    not SQLite's 1241."""
    for row in tree.find_all(exp.Tuple):
        node = row.parent
        if isinstance(node, (exp.Paren,)):
            node = node.parent
        if type(node) in _ROW_BINARY and isinstance(node, exp.Binary):
            raise _illegal_types(_ROW_BINARY[type(node)],
                                 [node.this, node.expression], stmt, typer)
        if isinstance(node, (exp.Least, exp.Greatest)):
            raise _illegal_types(type(node).__name__.lower(),
                                 [node.this, *node.expressions], stmt, typer)
        if type(node) in _ROW_BITS:
            raise _illegal_type(_ROW_BITS[type(node)])
        if isinstance(node, exp.Anonymous) and node.name.upper() in _ROW_CHECKED and not (
                node.name.upper() == "BENCHMARK" and row.arg_key == "expressions" and
                node.expressions.index(row) > 0):
            raise _illegal_type(node.name.lower())
        if type(node) in _ROW_CHECKED_NODES:
            raise _illegal_type(_ROW_CHECKED_NODES[type(node)])
        if isinstance(node, exp.Length):
            raise _illegal_type("octet_length" if node.args.get("binary") else "char_length")
        if isinstance(node, exp.Sign):
            raise _illegal_type("sign")


def _illegal_type(operation: str) -> ServerError:
    return ServerError(4079, message="Illegal parameter data type row for operation "
                       f"'{operation}'", sqlstate="HY000")


def _illegal_types(operation: str, args: list[exp.Expression], stmt: Statement,
                   typer: Typer) -> ServerError:
    """4078 names the first two arguments' types, as MariaDB's type handlers are named."""
    names = [_handler_name(a, stmt, typer) for a in args[:2]]
    return ServerError(4078, message=f"Illegal parameter data types {names[0]} and "
                       f"{names[-1]} for operation '{operation}'", sqlstate="HY000")


def _handler_name(node: exp.Expression, stmt: Statement, typer: Typer) -> str:
    if isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.Tuple):
        return "row"
    if isinstance(node, exp.Boolean):
        return "boolean"
    if isinstance(node, exp.Placeholder) and node.name[:1] == "i":
        try:
            value = stmt.slots[stmt.names.index(node.name)]
        except (ValueError, IndexError):
            value = 0
        return "int" if isinstance(value, int) and -2**31 <= value < 2**31 else "bigint"
    return geomops.type_name(typer.infer(node))


def _limit_values(tree: exp.Expression) -> None:
    """LIMIT / OFFSET given by a parameter (`LIMIT ?`) or past BIGINT (LIMIT
    18446744073709551615) go through rm_limit: MariaDB's unsigned count, 1210 when negative,
    what SQLite can take when too large (a literal that fits needs nothing)."""
    for node in list(tree.find_all(exp.Limit, exp.Offset)):
        for key, offset in (("expression", 0), ("offset", 1)):
            value = node.args.get(key)
            if isinstance(node, exp.Offset) and key == "offset":
                continue
            if isinstance(value, exp.Placeholder) and value.name[:1] in ("q", "u"):
                value.replace(_call("rm_limit", value.copy(), exp.Literal.number(
                    1 if isinstance(node, exp.Offset) else offset)))


def _rowid_columns(tree: exp.Expression, tables: _Tables) -> None:
    """MariaDB's `_rowid`: the column of a table's one-column integer primary key (or, without
    one, of its first one-column UNIQUE NOT NULL integer key), when the table has no column
    of that name; unqualified, when one table of the statement has such a key."""
    keyed: dict[str, str] = {}
    for alias, (_db, _t, tdef) in tables.by_alias.items():
        if tdef is None or tdef.column("_rowid") is not None:
            continue
        key = tdef.primary if tdef.primary else next(
            (i.columns for i in tdef.indexes if i.unique and not i.kind and
             all(not (c := tdef.column(n)) or not c.nullable for n in i.columns)), [])
        col = tdef.column(key[0]) if len(key) == 1 else None
        if col is not None and col.type.is_integer:
            keyed[alias] = col.name
    for node in list(tree.find_all(exp.Column)):
        if node.name.lower() != "_rowid":
            continue
        found = [keyed[node.table.lower()]] if node.table and node.table.lower() in keyed \
            else list(keyed.values()) if not node.table else []
        if len(found) == 1:
            typed = node.name
            node.set("this", exp.to_identifier(found[0], quoted=True))
            if isinstance(node.parent, exp.Select) and node.arg_key == "expressions":
                node.replace(exp.alias_(node.copy(), typed, quoted=True))  # named as typed


def _leftmost_select(tree: exp.Expression) -> exp.Select | None:
    node = tree
    while isinstance(node, (exp.Union, exp.Except, exp.Intersect, exp.Subquery)):
        node = node.this
    return node if isinstance(node, exp.Select) else None


leftmost_select = _leftmost_select


# --- result columns ----------------------------------------------------------------------------
def _typed_output(name: str, t: SqlType | None) -> Output:
    return Output(name, t, flags=expression_flags(t),
                  load=values.load_expression(t) if t is not None else None)


def _outputs(select: exp.Select, stmt: Statement, tables: _Tables,
             typer: Typer) -> list[Output] | None:
    outs: list[Output] = []
    items = stmt.items
    for i, e in enumerate(select.expressions):
        inner = e.this if isinstance(e, exp.Alias) else e
        if isinstance(inner, exp.Star) or isinstance(inner, exp.Column) and \
                isinstance(inner.this, exp.Star):
            qual = inner.table.lower() if isinstance(inner, exp.Column) else ""
            if derived.sources(select):
                more = derived.star_outputs(select, qual, stmt,
                                            lambda alias, views: _star_of_table(
                                                tables, alias, views), Output,
                                            lambda n, w: _typed_output(n, typer.infer(w)))
            else:  # RETURNING *: the table written
                more = []
                for alias in [qual] if qual else list(tables.by_alias):
                    part = _star_of_table(tables, alias, False)
                    if part is None:
                        return None
                    more.extend(part)
            if more is None:
                return None  # unknown width: name and type everything from SQLite
            outs.extend(more)
            continue
        alias = e.alias if isinstance(e, exp.Alias) else None
        while isinstance(inner, exp.Paren) and isinstance(inner.this, (exp.Paren, exp.Column)) \
                and not isinstance(inner.this.this, exp.Star):
            inner = inner.this  # `(a)` is the column a, and named so
        if isinstance(inner, exp.Column):
            found = tables.find(inner.table or None, inner.name)
            if found is not None:
                alias_name, col, db = found
                tdef = tables.by_alias[alias_name][2]
                assert tdef is not None
                # a view's column is named as the view names it (MariaDB's view field), a
                # base table's as the client typed it
                shown = alias or (col.name if tdef.shown_as_view else inner.name)
                outs.append(_table_output(col, alias_name, tdef, db, shown))
                continue
            outs.append(Output(alias or inner.name))
            continue
        name: str | int | None = alias if alias else (i if items is not None and
                                                      i < len(items) else None)
        if not alias and isinstance(inner, exp.Literal) and inner.is_string:
            name = inner.this  # a string kept in the shape ({ date 'x' }): named by its value
        t = typer.infer(inner)
        flags = expression_flags(t)
        if t is not None and nullness.never_null(inner, lambda c: _not_null_column(
                select, tables, c)):
            flags |= 0x1  # NOT_NULL_FLAG, as MariaDB marks an item that cannot be NULL
        out = Output(name, t, flags=flags,
                     load=values.load_expression(t) if t is not None else None,
                     cast=isinstance(inner, exp.Cast))
        if isinstance(inner, exp.Parameter) and t is None:
            out.uservar = inner.name  # typed from its value when run (uservars.py)
        value = _assigned_value(inner)  # @v := 1 and LAST_VALUE(..., 1) are the literal's
        if isinstance(value, exp.Placeholder) and value.name[0] in "iunfsbxc" and \
                not typer.union:
            out.literal_slot = int(value.name[1:].split("_")[0])
            if value.name[0] == "x":
                out.flags = 0xA0  # MariaDB: a hex / bit literal is BINARY and UNSIGNED
        elif isinstance(inner, exp.Neg) and isinstance(inner.this, exp.Placeholder):
            out.sql_type = t
        outs.append(out)
    return outs


def _values_width(select: exp.Select) -> int | None:
    """How many columns `SELECT * FROM (VALUES ...)` has; None for any other query."""
    source = select.args.get("from_")
    rows = source.this if isinstance(source, exp.From) else None
    while isinstance(rows, exp.Subquery):
        rows = rows.this
    if not isinstance(rows, exp.Values) or select.args.get("joins") or \
            [type(e) for e in select.expressions] != [exp.Star] or not rows.expressions:
        return None
    first = rows.expressions[0]
    return len(first.expressions) if isinstance(first, exp.Tuple) else None


def _values_parts(tree: exp.Expression, outputs: list[Output], typer: Typer) -> bool:
    """VALUES (1, 2), (5.6, 0) (a statement, or an operand: SELECT * FROM (VALUES ..)): each
    column typed over all its rows, as MariaDB types a table value constructor's columns
    (1.0, 5.6): a literal by its value when run (Output.parts, dml.py), anything else by its
    type. False when `tree` is no such query or a column cannot be typed so."""
    if not isinstance(tree, exp.Select):
        return False
    source = tree.args.get("from_")
    rows = source.this if isinstance(source, exp.From) else None
    while isinstance(rows, exp.Subquery):
        rows = rows.this
    if not isinstance(rows, exp.Values):
        return False
    tuples = [r.expressions for r in rows.expressions if isinstance(r, exp.Tuple)]
    if len(tuples) != len(rows.expressions) or any(len(r) != len(outputs) for r in tuples):
        return False
    for i, out in enumerate(outputs):
        parts: list[tuple[int | None, SqlType | None]] = []
        for row in tuples:
            item = row[i]
            if isinstance(item, exp.Placeholder) and item.name[:1] in "iunfsbc":
                parts.append((int(item.name[1:].split("_")[0]), None))
                continue
            t = typer.infer(item)
            if t is None:
                break
            parts.append((None, t))
        else:
            out.parts = parts
            continue
        return False
    return True


def _assigned_value(e: exp.Expression) -> exp.Expression:
    """The expression whose value and type a select item has: `@v := x` and LAST_VALUE(a,
    ..., x) are x's."""
    while True:
        if isinstance(e, exp.PropertyEQ) and isinstance(e.this, exp.Parameter):
            e = e.expression
        elif isinstance(e, exp.Anonymous) and e.name.upper() == "LAST_VALUE" and e.expressions:
            e = e.expressions[-1]
        else:
            return e


def _branch_outputs(select: exp.Select, stmt: Statement, tables: _Tables,
                    typer: Typer) -> list[Output] | None:
    """A later branch of a set operation: its names resolve among its own FROM's tables."""
    values_branch = _values_width(select)
    if values_branch is not None:  # VALUES (..), (..) as a branch: typed over its rows
        outs = [Output(None) for _ in range(values_branch)]
        return outs if _values_parts(select, outs, typer) else None
    own = {(src.alias_or_name or "").lower() for src in derived.sources(select)}
    sub = _Tables(tables.lookup)
    sub.by_alias = {a: e for a, e in tables.by_alias.items() if a in own}
    branch = Typer(sub.column_type, typer.text.collation or "utf8mb4_general_ci",
                   typer.div_precision, typer.values)
    branch.union = typer.union
    return _outputs(select, stmt, sub, branch)


def _star_of_table(tables: _Tables, alias: str, views_only: bool) -> list[Output] | None:
    entry = tables.by_alias.get(alias)
    if entry is None or entry[2] is None or views_only and entry[2].view is None:
        return None
    db, _t, tdef = entry
    return [_table_output(c, alias, tdef, db, c.name) for c in tdef.columns]


def _not_null_column(select: exp.Select, tables: _Tables, c: exp.Column) -> bool:
    """A column of this select's tables defined NOT NULL, when no outer join may make it
    NULL (any LEFT / RIGHT / FULL join: not known here, so maybe)."""
    if any(str(j.args.get("side") or "").upper() in ("LEFT", "RIGHT", "FULL")
           for j in select.args.get("joins") or []):
        return False
    found = tables.find(c.table or None, c.name)
    return found is not None and not found[1].nullable


def _table_output(col: ColumnDef, alias: str, tdef: TableDef, db: str, name: str) -> Output:
    from rampmeter.engine.sqlite.catalog import table_columns
    wire = {c.name: c.column.flags for c in table_columns(tdef, db)}
    return Output(name, col.type, table=alias if alias != tdef.name.lower() else tdef.name,
                  org_table=tdef.name, schema=db, org_name=col.name,
                  flags=wire.get(col.name, 0), load=values.load(col.type),
                  view=tdef.view is not None)


# --- writes ---------------------------------------------------------------------------------
class _Values:
    """Turns the values a statement stores into placeholders or rm_cv() calls (module rules)."""

    def __init__(self, plan: Plan, tdef: TableDef, typer: Typer | None = None, *,
                 inserting: bool = False) -> None:
        self.plan = plan
        self.tdef = tdef
        self.typer = typer
        self.inserting = inserting
        self.assigned: dict[str, exp.Expression] | None = None  # the VALUES row's so far
        self.update_names: set[str] = set()  # the UPDATE's names of its table
        self.n = 0

    def synthetic(self, value: Any) -> exp.Placeholder:
        name = f"z{len(self.plan.fixed)}"
        self.plan.fixed[name] = value
        return exp.Placeholder(this=name)

    def value(self, node: exp.Expression, col: ColumnDef, row: int) -> exp.Expression:
        if isinstance(node, exp.Placeholder):
            self.plan.stores.append(Store(node.name, col, row))
            return node
        if isinstance(node, exp.Null):
            ph = self.synthetic(None)
            self.plan.null_slots[ph.name] = (col, row)
            return ph
        if _is_default(node):
            return self.default(col, row, self.assigned)
        self.plan.casts.append((col, row))
        t = self.typer.infer(node) if self.typer is not None and col.type.is_numeric else None
        node = _temporal_as_number(node, t)
        if t is not None and t.is_decimal and not isinstance(node, exp.Column):
            # DECIMAL arithmetic is exact in MariaDB and a double here: rounded to the
            # result's scale first, 900 * 1.10 stores 990.00 without a note of truncation
            node = exp.Anonymous(this="round", expressions=[
                node, exp.Literal.number(t.scale or 0)])
        return exp.Anonymous(this="rm_cv", expressions=[
            node, exp.Literal.number(len(self.plan.casts) - 1)])

    def default(self, col: ColumnDef, row: int,
                assigned: dict[str, exp.Expression] | None = None) -> exp.Expression:
        """The column's default; `assigned`: the values of the row given so far (INSERT ...
        VALUES), which an expression default's column names read (MariaDB's DEFAULT
        (COMPRESS(a)))."""
        d = col.default
        if col.auto_increment:
            return exp.null()
        if d is None:
            if col.nullable:
                return exp.null()
            if self.inserting and col.type.name == "enum":
                # MariaDB's check_that_all_fields_are_given_values passes an ENUM: an INSERT
                # stores its first member (UPDATE ... = DEFAULT and DEFAULT(e) are 1364)
                return self.synthetic(implicit_default(col.type))
            self.plan.missing.append(col.name)
            return self.synthetic(implicit_default(col.type))
        if d.kind == "value":
            if d.value is None and not col.nullable:
                ph = self.synthetic(None)
                self.plan.null_slots[ph.name] = (col, row)
                return ph
            return self.synthetic(d.value)
        if d.kind == "now":
            return _now_call(col)
        tree = dialect.parse(d.value)
        if assigned is not None and self.inserting:
            tree = insertrow.row_columns(tree, self.tdef, assigned, _now_call)
        elif assigned is not None:  # UPDATE ... SET c = DEFAULT: the row, as SET left it
            tree = insertrow.updated_columns(tree, self.update_names, assigned)
        return self.value(tree, col, row)


def _temporal_as_number(node: exp.Expression, t: SqlType | None) -> exp.Expression:
    """A DATE / DATETIME / TIME stored into a number column is its number (20230101), as
    MariaDB stores it, not the 2023 its text begins with."""
    kind = _TEMPORALS.get(t.name) if t is not None else None
    if kind is None:
        return node
    return _call("rm_temporal_number", node, exp.Literal.string(kind))


def _is_default(node: exp.Expression) -> bool:
    return isinstance(node, (exp.Var, exp.Column)) and node.name.upper() == "DEFAULT" and \
        not (isinstance(node, exp.Column) and node.table)


def _now_call(col: ColumnDef) -> exp.Expression:
    fsp = col.type.fsp
    d = col.default
    if d is not None and d.kind == "now" and isinstance(d.value, int) and d.value < fsp:
        fsp = d.value  # DEFAULT now(2) of a TIMESTAMP(6): .120000, as MariaDB stores it
    # a TIMESTAMP column stores UTC (tzcolumns.py): its "now" is UTC_TIMESTAMP()
    now = "rm_utc_timestamp" if col.type.name == "timestamp" else "rm_now"
    call = exp.Anonymous(this=now, expressions=[exp.Literal.number(fsp)] if fsp else [])
    if col.type.name == "date":
        return exp.Anonymous(this="substr", expressions=[call, exp.Literal.number(1),
                                                         exp.Literal.number(10)])
    return call


def _read_only(db: str) -> ServerError:
    """1044: information_schema and performance_schema cannot be written."""
    return ServerError(errors.ER_DBACCESS_DENIED_ERROR, "", "", db.lower(),
                       message=f"Access denied for user to database '{db.lower()}'")


def _target(tree: exp.Expression, tables: _Tables) -> tuple[str, str, TableDef]:
    target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
    if not isinstance(target, exp.Table):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "this kind of target")
    entry = tables.by_alias.get((target.alias or target.name).lower())
    if entry is None:
        raise ServerError(errors.ER_NO_SUCH_TABLE, "", target.name)
    db, name, tdef = entry
    if tdef is None:
        if db.lower() in VIRTUAL_SCHEMAS:
            raise _read_only(db)
        raise ServerError(errors.ER_NO_SUCH_TABLE, db, name)
    return db, name, tdef


def _plan_insert(tree: exp.Insert, stmt: Statement, plan: Plan, tables: _Tables, typer: Typer,
                 *, replace: bool) -> None:
    db, _name, tdef = _target(tree, tables)
    plan.writes = True
    plan.target = (db, tdef.name)
    plan.replace = replace
    plan.ignore = bool(tree.args.get("ignore"))
    if replace and replacing.eligible(tdef):
        plan.in_place = []
    auto = tdef.auto_column
    plan.auto_column = auto.name if auto else None
    if isinstance(tree.this, exp.Schema):
        names = [e.name for e in tree.this.expressions]
    else:  # no column list: the visible columns (an INVISIBLE one takes its default)
        names = [c.name for c in tdef.columns if not c.invisible]
    cols: list[ColumnDef] = []
    seen: set[str] = set()
    for n in names:
        col = tdef.column(n)
        if col is None:
            raise ServerError(errors.ER_BAD_FIELD_ERROR, n, "INSERT INTO")
        if col.name.lower() in seen:
            raise ServerError(1110, message=f"Column '{col.name}' specified twice")
        seen.add(col.name.lower())
        cols.append(col)
    plan.insert_columns = frozenset(c.name.lower() for c in cols)
    if tree.args.get("returning") is not None:
        returning_mod.source_references(tree, [c.name for c in cols], tables)
    conv = _Values(plan, tdef, typer, inserting=True)
    left_out = [c for c in tdef.columns if c.name.lower() not in seen]
    source = tree.expression
    if isinstance(source, exp.Values):
        rows = source.expressions
        plan.rows = len(rows)
        new_rows = []
        for r, row in enumerate(rows, 1):
            vals = list(row.expressions) if isinstance(row, exp.Tuple) else [row]
            if len(vals) != len(cols) and not (not vals and isinstance(tree.this, exp.Table)
                                               or not vals and not cols):
                raise ServerError(errors.ER_WRONG_VALUE_COUNT_ON_ROW, r)
            out_vals = []
            assigned: dict[str, exp.Expression] = {}
            conv.assigned = assigned
            for v, c in zip(vals, cols):
                if c.generated is not None:  # computed (generated.py): a value is ignored
                    if not _is_default(v):
                        plan.generated_given.append(c.name)
                    out_vals.append(exp.null())
                    continue
                if not isinstance(v, exp.Placeholder):
                    v = insertrow.row_columns(v, tdef, assigned, _now_call)
                out_vals.append(conv.value(v, c, r))
                assigned[c.name.lower()] = out_vals[-1]
            for c in left_out:  # in the table's order: a default reads those before it
                out_vals.append(conv.default(c, r, assigned))
                assigned[c.name.lower()] = out_vals[-1]
            new_rows.append(exp.Tuple(expressions=out_vals))
        source.set("expressions", new_rows)
        if plan.rows == 1 and cols:
            plan.insert_values = {c.name.lower(): v.name for c, v in
                                  zip(cols, new_rows[0].expressions)
                                  if isinstance(v, exp.Placeholder)}
    elif isinstance(source, (exp.Select, exp.Union, exp.Except, exp.Intersect,
                             exp.Subquery)):
        select = _leftmost_select(source)
        if select is not None and select is source:
            _expand_stars(select, tables)  # the values are converted and counted one by one
        if select is not None:
            starred = any(isinstance(x, exp.Star) or isinstance(x, exp.Column) and
                          isinstance(x.this, exp.Star) for x in select.expressions)
            if len(select.expressions) != len(cols) and not starred:
                raise ServerError(errors.ER_WRONG_VALUE_COUNT_ON_ROW, 1)
            if not starred:
                new: list[exp.Expression] = []
                for x, c in zip(select.expressions, cols):
                    if c.generated is not None:
                        plan.generated_given.append(c.name)
                        new.append(exp.null())
                        continue
                    plan.casts.append((c, 0))
                    x = x.this if isinstance(x, exp.Alias) else x
                    if c.type.is_numeric:
                        x = _temporal_as_number(x, typer.infer(x))
                    new.append(exp.Anonymous(this="rm_cv", expressions=[
                        x, exp.Literal.number(len(plan.casts) - 1)]))
                # a default reads the row's values: the select list's, then those before it
                chosen: dict[str, exp.Expression] = {
                    c.name.lower(): v for c, v in zip(cols, new)}
                for c in left_out:
                    new.append(conv.default(c, 0, chosen))
                    chosen[c.name.lower()] = new[-1]
                select.set("expressions", new)
    else:
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "this INSERT source")
    if plan.in_place is not None:
        plan.in_place = [c.name for c in cols + left_out]
    if left_out:
        tree.set("this", exp.Schema(this=tree.this.this if isinstance(tree.this, exp.Schema)
                                    else tree.this,
                                    expressions=[exp.to_identifier(c.name, quoted=True)
                                                 for c in cols + left_out]))
    conflict = tree.args.get("conflict")
    if isinstance(conflict, exp.OnConflict) and conflict.args.get("duplicate"):
        plan.upsert = True
        plan.track_changes = True
        conv.inserting = False  # its assignments are an UPDATE's
        conv.assigned = None
        pairs = []
        for eq in conflict.expressions:
            col = tdef.column(eq.this.name)
            if col is None:
                raise ServerError(errors.ER_BAD_FIELD_ERROR, eq.this.name, "UPDATE")
            eq.set("expression", conv.value(eq.expression, col, 1))
            pairs.append((col.name, eq.expression))
        set_names = {name.lower() for name, _v in pairs}
        for col in tdef.columns:  # ON UPDATE CURRENT_TIMESTAMP, as an UPDATE's (updates.py)
            if col.on_update is not None and col.name.lower() not in set_names:
                conflict.append("expressions", exp.EQ(
                    this=exp.column(col.name, quoted=True),
                    expression=updates.on_update(col, _now_call(col),
                                                 [(n, v.copy()) for n, v in pairs])))


def _plan_update(tree: exp.Update, stmt: Statement, plan: Plan, tables: _Tables,
                 typer: Typer | None = None) -> list[multi.Step]:
    plan.writes = True
    plan.track_changes = True
    target = tree.this
    steps = multi.plan_update(tree, tables.by_alias, lambda t: _Values(plan, t, typer),
                              _now_call)
    if steps:
        plan.target = steps[0][1]
        return steps
    if not isinstance(target, exp.Table) or tree.args.get("from_"):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "this UPDATE")
    db, _name, tdef = _target(tree, tables)
    plan.target = (db, tdef.name)
    conv = _Values(plan, tdef, typer)
    set_names = set()
    pairs = []
    assigned: dict[str, exp.Expression] = {}  # left to right (insertrow.updated_columns)
    names = {tdef.name.lower(), (target.alias or target.name).lower()}
    if any(t is not target and t.name.lower() == tdef.name.lower()
           for t in tree.find_all(exp.Table)):
        names = set()  # a subquery reads the table: MariaDB updates from values read first
    conv.assigned, conv.update_names = assigned, names
    for eq in tree.expressions:
        if not isinstance(eq, exp.EQ):
            continue
        col_node = eq.this
        col = tdef.column(col_node.name)
        if col is None:
            raise ServerError(errors.ER_BAD_FIELD_ERROR, col_node.sql("mysql"), "SET")
        set_names.add(col.name.lower())
        col_node.set("table", None)
        if col.generated is not None:  # computed (generated.py): SET g = g changes nothing
            if not _is_default(eq.expression):
                plan.generated_given.append(col.name)
            eq.set("expression", exp.column(col.name, quoted=True))
            continue
        # a computed value counts the rows it is stored into (rm_cv, row 0): MariaDB's
        # "at row N" of each updated row
        eq.set("expression", insertrow.updated_columns(eq.expression, names, assigned))
        computed = not (isinstance(eq.expression, exp.Placeholder | exp.Null) or
                        _is_default(eq.expression))
        eq.set("expression", conv.value(eq.expression, col, 0 if computed else 1))
        pairs.append((col.name, eq.expression))
        assigned[col.name.lower()] = eq.expression
    for col in tdef.columns:
        if col.on_update is not None and col.name.lower() not in set_names:
            tree.append("expressions", exp.EQ(this=exp.column(col.name, quoted=True),
                                              expression=updates.on_update(
                                                  col, _now_call(col), pairs)))
    return []


# --- rewrites for SQLite ------------------------------------------------------------------------
_FUNCTION_NODES: dict[type[exp.Expression], str] = {
    exp.CurrentSchema: "rm_database",
    exp.CurrentVersion: "rm_version",
    exp.CurrentUser: "rm_current_user",
    exp.CurrentRole: "rm_current_role",
    exp.SessionUser: "rm_user",
    exp.CurrentTimestamp: "rm_now",
    exp.CurrentDate: "rm_curdate",
    exp.CurrentTime: "rm_curtime",
    exp.UtcTimestamp: "rm_utc_timestamp",
    exp.UtcTime: "rm_utc_time",
    exp.UtcDate: "rm_utc_date",
    exp.Localtime: "rm_now",
    exp.Localtimestamp: "rm_now",
}
_ANONYMOUS = {"USER": "rm_user", "SYSTEM_USER": "rm_user", "NOW": "rm_now",
              "SYSDATE": "rm_now", "LOCALTIMESTAMP": "rm_now", "SCHEMA": "rm_database",
              "DATABASE": "rm_database", "VERSION": "rm_version",
              "CURRENT_USER": "rm_current_user", "UNIX_TIMESTAMP": "rm_unix_timestamp",
              "OCTET_LENGTH": "rm_octet_length", "CURDATE": "rm_curdate",
              "CURTIME": "rm_curtime", "MICROSECOND": "rm_microsecond",
              "UTC_TIME": "rm_utc_time", "UTC_DATE": "rm_utc_date"}


def _rewrite(tree: exp.Expression) -> None:
    for node in list(tree.walk()):
        if isinstance(node, exp.Dot) and isinstance(node.expression, exp.Anonymous) and \
                isinstance(node.this, exp.Identifier):  # db.f(...): a stored function
            named = sfnames.qualified(node.this.name, node.expression.name)
            if named is not None:
                node.replace(exp.Anonymous(this=named, expressions=node.expression.expressions))
        elif isinstance(node, exp.SessionParameter):
            kind = node.args.get("kind")
            node.replace(exp.Anonymous(this="rm_sysvar", expressions=[
                exp.Literal.string(node.name),
                exp.Literal.string(str(kind)) if kind else exp.null()]))
        elif isinstance(node, exp.PropertyEQ) and isinstance(node.this, exp.Parameter):
            node.replace(exp.Anonymous(this="rm_setvar", expressions=[  # @v := expr
                exp.Literal.string(node.this.name), node.expression]))
        elif isinstance(node, exp.Parameter) and node.parent is not None:
            node.replace(exp.Anonymous(this="rm_uservar", expressions=[
                exp.Literal.string(node.name)]))
        elif isinstance(node, exp.Anonymous) and node.name.upper() == "JSON_VALID" or \
                type(node).__name__ == "JSONValid":
            args = [a for a in ([node.this] if not isinstance(node, exp.Anonymous)
                                else node.expressions) if isinstance(a, exp.Expression)]
            node.replace(exp.Anonymous(this="rm_json_valid", expressions=args))
        elif isinstance(node, exp.JSONExtract):
            paths = [node.expression] + list(node.expressions or [])
            node.replace(exp.Anonymous(this="rm_json_extract",
                                       expressions=[node.this, *paths]))
        elif isinstance(node, exp.Length):
            arg = node.this
            if node.args.get("binary"):  # LENGTH(): bytes
                node.replace(exp.Anonymous(this="length", expressions=[
                    exp.Cast(this=arg, to=exp.DataType.build("BLOB"))]))
            else:  # CHAR_LENGTH(): characters (of a binary string: bytes)
                node.replace(exp.Anonymous(this="length", expressions=[arg]))
        elif type(node) in _FUNCTION_NODES:
            args = [a for a in node.args.values() if isinstance(a, exp.Expression)]
            node.replace(exp.Anonymous(this=_FUNCTION_NODES[type(node)], expressions=args))
        elif isinstance(node, exp.Anonymous) and node.name.upper() in _ANONYMOUS:
            node.set("this", _ANONYMOUS[node.name.upper()])
        elif isinstance(node, exp.ConvertTimezone):
            node.replace(exp.Anonymous(this="rm_convert_tz", expressions=[
                node.args.get("timestamp"), node.args.get("source_tz"),
                node.args.get("target_tz")]))
        elif isinstance(node, exp.UnixToTime):
            node.replace(exp.Anonymous(this="rm_from_unixtime", expressions=[node.this]))
    _flatten(tree)


# Nodes that need no parentheses of their own: SQLite's parser has a fixed stack (about 100
# levels), so MariaDB's ((((1)))) or NOT NOT NOT ... 1, which it answers, would otherwise be a
# "parser stack overflow" here.
_ATOMS = (exp.Literal, exp.Column, exp.Placeholder, exp.Null, exp.Boolean, exp.Paren,
          exp.Func, exp.Subquery, exp.Star)


_CHAINS = (exp.Add, exp.Mul, exp.And, exp.Or, exp.DPipe)


def _flatten(tree: exp.Expression) -> None:
    """Drop parentheses around atoms, pairs of NOT and subqueries that only compute a value,
    and make long chains of one associative operator (1+1+...+1) balanced trees: SQLite also
    limits an expression's depth to 1000."""
    for node in list(tree.walk()):
        if isinstance(node, _CHAINS) and node.parent is not None and \
                not isinstance(node.parent, type(node)):
            _balance(node)
            continue
        if isinstance(node, exp.Concat) and len(node.expressions) > _GROUP:
            _balance_concat(node)
        if isinstance(node, exp.Paren) and node.parent is not None and \
                not isinstance(node.parent, exp.Collate):  # (a || b) COLLATE x: kept
            inner = node.this
            while isinstance(inner, exp.Paren):
                inner = inner.this
            # sqlglot's AND / OR / XOR and some binary operators are Funcs too: not atoms
            if isinstance(inner, _ATOMS) and not isinstance(
                    inner, (exp.Paren, exp.Connector, exp.Binary)):
                node.replace(inner)
        elif isinstance(node, exp.Not) and isinstance(node.this, exp.Not) and \
                node.parent is not None:
            inner = node.this.this
            depth = 2
            while isinstance(inner, exp.Not) and isinstance(inner.this, exp.Not):
                inner = inner.this.this
                depth += 2
            # NOT NOT x is x's truth value: 1, 0, or NULL (MariaDB reads x as a number)
            node.replace(exp.NEQ(this=exp.Cast(this=inner, to=exp.DataType.build("NUMERIC")),
                                 expression=exp.Literal.number(0)))
        elif isinstance(node, exp.Subquery) and node.parent is not None and \
                not isinstance(node.parent, (exp.From, exp.Join, exp.In, exp.Exists)):
            sel = node.this
            if isinstance(sel, exp.Select) and len(sel.expressions) == 1 and not any(
                    sel.args.get(k) for k in ("from_", "from", "where", "group", "having",
                                              "order", "limit", "joins", "distinct")):
                value = sel.expressions[0]
                if isinstance(value, exp.Alias):
                    value = value.this
                if value.find(exp.AggFunc) is None:  # (SELECT COUNT(*)) counts its own row
                    node.replace(exp.Paren(this=value))  # (SELECT x) without FROM is x


def _balance(node: exp.Expression) -> None:
    """a+b+c+d, parsed as ((a+b)+c)+d, as (a+b)+(c+d): same value, depth log2(n)."""
    kind = type(node)
    terms: list[exp.Expression] = []
    stack = [node]
    while stack:
        cur = stack.pop()
        if type(cur) is kind:
            stack.append(cur.expression)
            stack.append(cur.this)
        else:
            terms.append(cur)
    if len(terms) <= 32:
        return
    while len(terms) > 1:  # parenthesized, or SQLite would read it left-deep again
        paired = [exp.Paren(this=kind(this=terms[i], expression=terms[i + 1]))
                  if i + 1 < len(terms) else terms[i] for i in range(0, len(terms), 2)]
        terms = paired
    node.replace(terms[0])


_GROUP = 32


def _balance_concat(node: exp.Concat) -> None:
    """CONCAT(a, b, ..., z) becomes a || b || ... || z, which SQLite reads left-deep (depth
    limit 1000): groups of _GROUP in parentheses keep it _GROUP * log(n) deep, so a CONCAT of
    100 000 arguments is answered as MariaDB answers it."""
    args = list(node.expressions)
    while len(args) > _GROUP:
        args = [exp.Paren(this=exp.Concat(expressions=args[i:i + _GROUP],
                                          safe=node.args.get("safe"),
                                          coalesce=node.args.get("coalesce")))
                if i + 1 < len(args) else args[i] for i in range(0, len(args), _GROUP)]
    node.set("expressions", args)


def _else_chains(tree: exp.Expression) -> None:
    """IF(a, x, IF(b, y, ...)) nested in its ELSE as one CASE WHEN a THEN x WHEN b THEN y ...
    END (the same answer): SQLite's parser overflows its stack at about 30 nested CASE or IIF
    where MariaDB answers (mtr func_if). Only chains of 8 to 64 are rewritten: a deeper one
    is left to SQLite's parser, which refuses it with 1436 as MariaDB refuses a statement
    past its stack, before sqlglot spends seconds on each level (mtr execution_constants
    grows one until it fails)."""
    def searched(n: exp.Expression | None) -> bool:
        return isinstance(n, exp.Case) and n.this is None or \
            isinstance(n, exp.If) and not (isinstance(n.parent, exp.Case) and
                                           n.arg_key == "ifs")

    def tail(n: exp.Expression | None) -> exp.Expression | None:
        return n.args.get("false") if isinstance(n, exp.If) else n.args.get("default") \
            if n is not None else None

    for node in list(tree.find_all(exp.If, exp.Case)):
        if not searched(node) or searched(node.parent) and tail(node.parent) is node:
            continue  # only from the head of a chain
        depth, cur = 0, node
        while searched(cur):
            depth, cur = depth + 1, tail(cur)
        if not 8 <= depth <= 64:
            continue
        ifs: list[exp.Expression] = []
        cur = node
        while searched(cur):
            assert cur is not None
            if isinstance(cur, exp.If):
                ifs.append(exp.If(this=cur.this, true=cur.args.get("true")))
            else:
                ifs.extend(cur.args.get("ifs") or [])
            cur = tail(cur)
        node.replace(exp.Case(ifs=ifs, default=cur))


def _generate(tree: exp.Expression, plan: Plan) -> str:
    if isinstance(tree, exp.Insert):
        return _insert_sql(tree, plan)
    if tree.find(exp.If, exp.Case) is not None:
        _else_chains(tree)
    try:
        return tree.sql(dialect="sqlite", normalize_functions=False)
    except (sqlglot.errors.UnsupportedError, ValueError) as e:
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, str(e)[:64]) from None


def _in_place_sql(tree: exp.Insert, columns: list[str]) -> str:
    """REPLACE as an upsert that sets every column (replacing.py)."""
    tree.set("alternative", None)
    returning = tree.args.get("returning")
    tree.set("returning", None)  # SQLite takes it after the upsert clause
    source = tree.expression
    if isinstance(source, exp.Select) and source.args.get("where") is None:
        source.set("where", exp.Where(this=exp.true()))  # the upsert parsing ambiguity
    body = tree.sql(dialect="sqlite", normalize_functions=False)
    tail = " " + returning.sql(dialect="sqlite", normalize_functions=False) \
        if isinstance(returning, exp.Returning) else ""
    return body + replacing.upsert_tail(columns) + tail


def _insert_sql(tree: exp.Insert, plan: Plan) -> str:
    conflict = tree.args.get("conflict")
    if plan.replace:
        tree.set("alternative", "REPLACE")
        if plan.in_place:
            plan.in_place_sql = _in_place_sql(tree.copy(), plan.in_place)
    if not (isinstance(conflict, exp.OnConflict) and conflict.args.get("duplicate")):
        return tree.sql(dialect="sqlite", normalize_functions=False)
    # ON DUPLICATE KEY UPDATE a = VALUES(a)  ->  ON CONFLICT DO UPDATE SET a = excluded.a
    tree.set("conflict", None)
    returning = tree.args.get("returning")
    tree.set("returning", None)  # SQLite takes it after the upsert clause
    sets = []
    for eq in conflict.expressions:
        for call in list(eq.find_all(exp.Anonymous)):
            if call.name.upper() == "VALUES" and call.expressions:
                call.replace(exp.column(call.expressions[0].name, table="excluded"))
        for call in list(eq.find_all(exp.Values)):
            if call.expressions:
                first = call.expressions[0]
                call.replace(exp.column(first.name, table="excluded"))
        for col in list(eq.this.find_all(exp.Column)):
            col.set("table", None)
        sets.append(eq.sql(dialect="sqlite", normalize_functions=False))
    source = tree.expression
    if isinstance(source, exp.Select) and source.args.get("where") is None:
        # sqlite.org/lang_upsert: the parsing ambiguity; where a WHERE goes (before GROUP BY)
        source.set("where", exp.Where(this=exp.true()))
    body = tree.sql(dialect="sqlite", normalize_functions=False)
    tail = " " + returning.sql(dialect="sqlite", normalize_functions=False) \
        if isinstance(returning, exp.Returning) else ""
    return f"{body} ON CONFLICT DO UPDATE SET {', '.join(sets)}{tail}"


def literal_type(value: Any, text: bool = False, charset: str | None = None) -> SqlType:
    """The type MariaDB gives a bare literal of this value (SELECT 1, SELECT 'abc'); `text`:
    bytes of a text literal (not valid in its character set, and kept as they are); `charset`:
    the one its introducer named (_latin1'abc')."""
    if isinstance(value, bool):
        return SqlType("int", 1)
    if isinstance(value, int):
        digits = len(str(abs(value))) + (value < 0)
        if value > 2**63 - 1:
            return SqlType("bigint", digits, unsigned=True)  # as long as its digits
        return SqlType("int" if digits < 10 else "bigint", digits)
    if isinstance(value, float):
        return SqlType("double", None, None)
    if hasattr(value, "as_tuple"):  # Decimal
        t = value.as_tuple()
        scale = -t.exponent if isinstance(t.exponent, int) and t.exponent < 0 else 0
        return T.decimal(max(len(t.digits), scale, 1), scale)
    if isinstance(value, bytes) and not text:
        return T.varbinary(len(value))
    if isinstance(value, (str, bytes)):
        if charset is not None:
            return T.varchar(len(value), charset)
        return T.varchar(len(value))
    return T.NULL
