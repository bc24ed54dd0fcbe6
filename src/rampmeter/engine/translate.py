"""MySQL text -> SQLite plans, with literals taken out so that sqlglot parses each shape once.

The per-statement cost of a server that parses every statement with sqlglot is dominated by the
parse (~1 ms); a point select then tops out near 1.4 k qps. So translation is split in two:

1. `extract()` (every statement, one regex pass): the statement's *shape* is its text with
   comments removed and every literal that may safely become a bound value replaced by a named
   parameter `:pN`; the literals' Python values become the statement's `slots`. Client `?`
   markers of a prepared statement become parameters the same way (their slot names the
   client's parameter index). Literals stay inline where a parameter would change the meaning
   or the metadata:
   - in the outermost select list, since MySQL names a result column by its text (`SELECT 1`
     returns a column named `1`) and its type comes from the literal;
   - after INTERVAL, in ORDER BY / GROUP BY (a number there is a column position), inside the
     parentheses of a type (`CAST(x AS DECIMAL(10,2))`), after a charset introducer;
   - in every statement that is not a SELECT, INSERT, REPLACE, UPDATE or DELETE (SQLite takes
     no parameters in DDL).
2. `translate()` (once per shape, cached by the engine): sqlglot parses the shape as MySQL,
   rewrites the tree (tables qualified with the current database, information_schema tables
   redirected to materialized temp tables, @@vars / @vars / session functions turned into
   calls of the engine's SQLite functions, ON DUPLICATE KEY UPDATE into an upsert, FROM DUAL
   dropped, unnamed select expressions aliased with their MySQL text) and generates SQLite SQL.
   It also works out what it can of the result's columns from the tables' MySQL types.

Parameters are named, not positional: sqlglot may reorder clauses (MySQL `LIMIT 5, 10` is
SQLite's `LIMIT 10 OFFSET 5`), and names keep the values with their literals.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlglot
from sqlglot import exp

from rampmeter import errors
from rampmeter.engine.base import TableColumn
from rampmeter.errors import ServerError
from rampmeter.protocol.columns import Column

logging.getLogger("sqlglot").setLevel(logging.ERROR)  # it warns about what we strip on purpose

DML = frozenset({"SELECT", "INSERT", "REPLACE", "UPDATE", "DELETE", "WITH", "VALUES", "TABLE"})

# One pass over the text. Order matters: comments and quoted things before words and numbers.
_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<vcomment>/\*!(?:\d{5,6})?)          # /*!40101 ... */: MySQL runs what is inside
  | (?P<comment>/\*.*?\*/|(?:--(?=\s)|\#)[^\n]*)
  | (?P<vend>\*/)
  | (?P<hexstr>[xXbB]'[^']*')
  | (?P<str>'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*")
  | (?P<ident>`(?:[^`]|``)*`)
  | (?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?(?![\w$]))
  | (?P<hexnum>0[xX][0-9a-fA-F]+|0[bB][01]+)
  | (?P<word>[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*|\d+[A-Za-z_$][\w$]*)
  | (?P<q>\?)
  | (?P<lp>\()
  | (?P<rp>\))
  | (?P<comma>,)
  | (?P<other>.)
""", re.VERBOSE | re.DOTALL)

_ESCAPES = {"0": "\0", "'": "'", '"': '"', "b": "\b", "n": "\n", "r": "\r", "t": "\t",
            "Z": "\x1a", "\\": "\\", "%": "\\%", "_": "\\_"}
_ESCAPE_RX = re.compile(r"\\(.)|''|\"\"", re.DOTALL)

# Clause words that end a select list, or start a clause whose numbers stay inline.
_LIST_END = frozenset({"FROM", "INTO", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "UNION",
                       "EXCEPT", "INTERSECT", "WINDOW", "FOR", "LOCK", "PROCEDURE"})
_CLAUSE_START = frozenset({"WHERE", "HAVING", "LIMIT", "ON", "SET", "VALUES", "VALUE", "USING",
                           "FROM", "JOIN", "INTO", "UNION", "EXCEPT", "INTERSECT"})
_TYPE_WORDS = frozenset({"DECIMAL", "NUMERIC", "DEC", "CHAR", "VARCHAR", "BINARY", "VARBINARY",
                         "DATETIME", "TIME", "TIMESTAMP", "FLOAT", "DOUBLE", "NCHAR", "INT",
                         "INTEGER", "TINYINT", "SMALLINT", "BIGINT", "SIGNED", "UNSIGNED"})
_MAX_INT = 2**63 - 1


def unescape(quoted: str) -> str:
    """The value of a MySQL string literal (backslash escapes, doubled quotes)."""
    body = quoted[1:-1]
    if "\\" not in body and quoted[0] * 2 not in body:
        return body
    return _ESCAPE_RX.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1))
                          if m.group(1) is not None else m.group(0)[0], body)


@dataclass(slots=True)
class Extracted:
    shape: str
    slots: list[Any]          # literal values, or ClientParam for a client `?`
    first_word: str
    for_update: bool = False  # SELECT ... FOR UPDATE / LOCK IN SHARE MODE


@dataclass(frozen=True, slots=True)
class ClientParam:
    index: int


def extract(sql: str, *, client_params: bool = False) -> Extracted:
    """Split `sql` into its shape and the values of its literals (see the module rules)."""
    out: list[str] = []
    slots: list[Any] = []
    first = ""
    parametrize = True
    # Per parenthesis depth: is this a select list? an ORDER/GROUP BY? a type's arguments?
    in_list = [False]
    inline = [False]
    prev_word = ""
    pending_type_paren = False
    after_interval = False
    introducer = False
    for_update = False
    n_client = 0
    for m in _TOKEN.finditer(sql):
        kind = m.lastgroup
        text = m.group()
        if kind == "ws":
            if out and out[-1] != " ":
                out.append(" ")
            continue
        if kind in ("comment", "vcomment", "vend"):
            if out and out[-1] != " ":
                out.append(" ")
            continue
        if kind == "word":
            upper = text.upper()
            if not first:
                first = upper
                parametrize = upper in DML
            if upper == "SELECT":
                in_list[-1] = True
                inline[-1] = False
            elif upper in _LIST_END:
                in_list[-1] = False
                inline[-1] = False
            elif upper == "BY" and prev_word in ("ORDER", "GROUP", "PARTITION"):
                inline[-1] = True
            elif upper in _CLAUSE_START:
                inline[-1] = False
            if upper == "UPDATE" and prev_word == "FOR" or upper == "SHARE" and \
                    prev_word == "MODE" or upper == "MODE" and prev_word == "SHARE":
                for_update = True
            after_interval = upper == "INTERVAL"
            pending_type_paren = upper in _TYPE_WORDS
            introducer = text[0] == "_" or upper == "N"
            prev_word = upper
            out.append(text)
            continue
        literal = kind in ("str", "num")
        if literal and parametrize and not (in_list[-1] or inline[-1] or after_interval
                                            or introducer):
            value: Any
            if kind == "str":
                value = unescape(text)
            elif "." in text or "e" in text or "E" in text:
                value = float(text)
            else:
                value = int(text)
                if value > _MAX_INT:
                    out.append(text)
                    continue
            out.append(f":p{len(slots)}")
            slots.append(value)
        elif kind == "q" and client_params:
            out.append(f":p{len(slots)}")
            slots.append(ClientParam(n_client))
            n_client += 1
        else:
            if kind == "lp":
                in_list.append(in_list[-1])
                inline.append(inline[-1] or pending_type_paren)
            elif kind == "rp" and len(in_list) > 1:
                in_list.pop()
                inline.pop()
            out.append(text)
        if kind != "word":
            after_interval = after_interval and kind == "ws"
            pending_type_paren = False
            introducer = False
    shape = "".join(out).strip()
    if shape.endswith(";"):
        shape = shape.rstrip("; ")
    return Extracted(shape, slots, first, for_update)


def bind(slots: Sequence[Any], params: Sequence[Any] = ()) -> dict[str, Any]:
    """The named parameters for one execution: literal values, then the client's values."""
    values: dict[str, Any] = {}
    for i, slot in enumerate(slots):
        values[f"p{i}"] = params[slot.index] if type(slot) is ClientParam else slot
    return values


# --- translation ------------------------------------------------------------------------
TableMeta = Callable[[str, str], "list[TableColumn] | None"]


@dataclass(slots=True)
class Plan:
    """A translated shape: SQLite text and what the engine needs to run it."""

    sql: str
    kind: str                                # SELECT, INSERT, UPDATE, DELETE, ...
    columns: list[Column | None] | None = None  # per result column, None: infer from values
    writes: bool = False
    infoschema: tuple[str, ...] = ()         # information_schema tables to materialize
    insert_table: tuple[str, str] | None = None  # (db, table) an INSERT/REPLACE writes
    names: list[str] = field(default_factory=list)
    databases: tuple[str, ...] = ()          # databases the statement touches (to ATTACH)
    insert_columns: frozenset[str] | None = None  # lower-cased INSERT column list, if given
    # column (lower-cased) -> parameter name or literal text of a one-row INSERT's VALUES:
    # what a duplicate-key error quotes as the duplicate entry
    insert_values: dict[str, tuple[bool, str]] | None = None
    multi_row: bool = False                  # INSERT ... VALUES (...), (...)
    upsert: bool = False                     # INSERT ... ON DUPLICATE KEY UPDATE


# sqlglot node -> the engine's SQLite function that answers it (sqlite.py registers them).
_FUNCTION_NODES: dict[type[exp.Expression], str] = {
    exp.CurrentSchema: "rm_database",
    exp.CurrentVersion: "rm_version",
    exp.CurrentUser: "rm_current_user",
    exp.SessionUser: "rm_user",
    exp.CurrentTimestamp: "rm_now",
    exp.CurrentDate: "rm_curdate",
    exp.CurrentTime: "rm_curtime",
    exp.UtcTimestamp: "rm_utc_timestamp",
    exp.Localtime: "rm_now",
}
_ANONYMOUS = {"USER": "rm_user", "SYSTEM_USER": "rm_user", "NOW": "rm_now",
              "SYSDATE": "rm_now", "LOCALTIMESTAMP": "rm_now", "SCHEMA": "rm_database",
              "DATABASE": "rm_database", "VERSION": "rm_version",
              "CURRENT_USER": "rm_current_user", "UNIX_TIMESTAMP": "rm_unix_timestamp"}
_SELECT_MODIFIERS = frozenset({"DISTINCT", "ALL", "DISTINCTROW", "HIGH_PRIORITY",
                               "STRAIGHT_JOIN", "SQL_SMALL_RESULT", "SQL_BIG_RESULT",
                               "SQL_BUFFER_RESULT", "SQL_CACHE", "SQL_NO_CACHE",
                               "SQL_CALC_FOUND_ROWS"})
INFORMATION_SCHEMA = "information_schema"


def temp_name(table: str) -> str:
    return f"is_{table.lower()}"


def parse_error(sql: str, near: str | None = None) -> ServerError:
    near = near if near is not None else sql
    return ServerError(errors.ER_PARSE_ERROR, near[:80], 1)


def translate(shape: str, database: str | None, table_meta: TableMeta) -> Plan:
    """Translate one DML shape (see the module rules)."""
    kind = (shape.split(None, 1) or [""])[0].upper()
    # sqlglot's MySQL reader has no REPLACE (it falls back to a Command): parse it as the INSERT
    # it is and generate SQLite's INSERT OR REPLACE.
    text = "INSERT" + shape[len(kind):] if kind == "REPLACE" else shape
    try:
        tree = sqlglot.parse_one(text, read="mysql")
    except sqlglot.errors.ParseError as e:
        near = _near(shape, e)
        raise parse_error(shape, near) from None
    except sqlglot.errors.TokenError:  # e.g. an unterminated string literal
        raise parse_error(shape) from None
    if tree is None or isinstance(tree, exp.Command):
        raise parse_error(shape)
    if kind == "REPLACE" and isinstance(tree, exp.Insert):
        tree.set("alternative", "REPLACE")
    ctes = {c.alias_or_name.lower() for c in tree.find_all(exp.CTE)}
    infoschema: list[str] = []
    aliases: dict[str, tuple[str, str]] = {}
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
        if db.lower() == INFORMATION_SCHEMA:
            infoschema.append(name.upper())
            alias = table.alias or name
            table.set("db", exp.to_identifier("temp"))
            table.set("this", exp.to_identifier(temp_name(name), quoted=True))
            table.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
            aliases[alias.lower()] = (INFORMATION_SCHEMA, name.upper())
            continue
        table.set("db", exp.to_identifier(db, quoted=True))
        aliases[(table.alias or name).lower()] = (db, name)
    _rewrite_functions(tree)
    insert_table = None
    dbs = tuple(dict.fromkeys(db for db, _t in aliases.values() if db != INFORMATION_SCHEMA))
    if isinstance(tree, exp.Insert):
        target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
        if isinstance(target, exp.Table):
            insert_table = (target.db, target.name)
        columns_given = None
        if isinstance(tree.this, exp.Schema):
            columns_given = frozenset(e.name.lower() for e in tree.this.expressions)
        values = tree.expression
        multi = isinstance(values, exp.Values) and len(values.expressions) > 1
        insert_values = None
        if isinstance(tree.this, exp.Schema) and isinstance(values, exp.Values) and not multi \
                and values.expressions:
            insert_values = {}
            row = values.expressions[0].expressions
            for col, value in zip(tree.this.expressions, row):
                if isinstance(value, exp.Placeholder):
                    insert_values[col.name.lower()] = (True, value.name)
                elif isinstance(value, exp.Literal):
                    insert_values[col.name.lower()] = (False, value.name)
        conflict = tree.args.get("conflict")
        upsert = isinstance(conflict, exp.OnConflict) and bool(conflict.args.get("duplicate"))
        sql = _insert_sql(tree)
        return Plan(sql, kind, None, writes=True, upsert=upsert,
                    infoschema=tuple(dict.fromkeys(infoschema)), insert_table=insert_table,
                    databases=dbs, insert_columns=columns_given, multi_row=multi,
                    insert_values=insert_values)
    select = _leftmost_select(tree)
    names: list[str] = []
    columns: list[Column | None] | None = None
    if select is not None:
        names = _name_projections(select, shape)
        columns = _describe(select, aliases, table_meta)
    sql = tree.sql(dialect="sqlite")
    return Plan(sql, kind, columns, writes=kind in ("UPDATE", "DELETE"),
                infoschema=tuple(dict.fromkeys(infoschema)), names=names, databases=dbs)


def _near(shape: str, e: sqlglot.errors.ParseError) -> str:
    for err in e.errors:
        start = err.get("start_context") or ""
        highlight = err.get("highlight") or ""
        if highlight:
            idx = shape.find(highlight, max(0, len(start) - 5))
            if idx >= 0:
                return shape[idx:]
    return shape


def _rewrite_functions(tree: exp.Expression) -> None:
    for node in list(tree.walk()):
        if isinstance(node, exp.SessionParameter):
            kind = node.args.get("kind")
            node.replace(exp.Anonymous(this="rm_sysvar", expressions=[
                exp.Literal.string(node.name),
                exp.Literal.string(str(kind)) if kind else exp.null()]))
        elif isinstance(node, exp.Parameter):
            node.replace(exp.Anonymous(this="rm_uservar", expressions=[
                exp.Literal.string(node.name)]))
        elif type(node) in _FUNCTION_NODES:
            args = [a for a in node.args.values() if isinstance(a, exp.Expression)]
            node.replace(exp.Anonymous(this=_FUNCTION_NODES[type(node)], expressions=args))
        elif isinstance(node, exp.Anonymous) and node.name.upper() in _ANONYMOUS:
            node.set("this", _ANONYMOUS[node.name.upper()])
        elif isinstance(node, exp.UnixToTime):
            node.replace(exp.Anonymous(this="rm_from_unixtime",
                                       expressions=[node.this]))


def _insert_sql(tree: exp.Insert) -> str:
    conflict = tree.args.get("conflict")
    if not (isinstance(conflict, exp.OnConflict) and conflict.args.get("duplicate")):
        return tree.sql(dialect="sqlite")
    # ON DUPLICATE KEY UPDATE a = VALUES(a)  ->  ON CONFLICT DO UPDATE SET a = excluded.a
    tree.set("conflict", None)
    sets = []
    for eq in conflict.expressions:
        for call in list(eq.find_all(exp.Anonymous)):
            if call.name.upper() == "VALUES" and call.expressions:
                call.replace(exp.column(call.expressions[0].name, table="excluded"))
        for col in list(eq.this.find_all(exp.Column)):
            col.set("table", None)
        sets.append(eq.sql(dialect="sqlite"))
    body = tree.sql(dialect="sqlite")
    if isinstance(tree.expression, exp.Select):
        body += " WHERE TRUE"  # sqlite.org/lang_upsert: the parsing ambiguity
    return f"{body} ON CONFLICT DO UPDATE SET {', '.join(sets)}"


def _leftmost_select(tree: exp.Expression) -> exp.Select | None:
    node = tree
    while isinstance(node, (exp.Union, exp.Except, exp.Intersect)):
        node = node.this
    return node if isinstance(node, exp.Select) else None


def _select_list_texts(shape: str) -> list[str] | None:
    """The outermost select list's items as written, split at top-level commas."""
    depth = 0
    items: list[list[str]] = []
    started = False
    for m in _TOKEN.finditer(shape):
        kind, text = m.lastgroup, m.group()
        if kind == "lp":
            depth += 1
        elif kind == "rp":
            depth -= 1
        elif depth == 0 and kind == "word":
            upper = text.upper()
            if not started:
                if upper == "SELECT":
                    started = True
                    items.append([])
                continue
            if upper in _LIST_END:
                break
            if upper in _SELECT_MODIFIERS and not "".join(items[-1]).strip():
                continue
        elif depth == 0 and kind == "comma" and started:
            items.append([])
            continue
        if started and kind == "word" and items[-1] and items[-1][-1] == ":" and \
                re.fullmatch(r"p\d+", text):
            items[-1][-1] = "?"  # a parameter extract() named :pN; MySQL's name has the `?`
            continue
        if started:
            items[-1].append(text)
    if not started:
        return None
    return ["".join(parts).strip() for parts in items]


def _name_projections(select: exp.Select, shape: str) -> list[str]:
    texts = _select_list_texts(shape)
    exprs = select.expressions
    names: list[str] = []
    for i, e in enumerate(exprs):
        if isinstance(e, (exp.Alias, exp.Star)) or isinstance(e, exp.Column) and \
                isinstance(e.this, exp.Star):
            names.append(e.alias_or_name)
            continue
        if isinstance(e, exp.Column):
            names.append(e.name)
            e.replace(exp.alias_(e.copy(), e.name, quoted=True))
            continue
        text = texts[i] if texts is not None and len(texts) == len(exprs) else e.sql("mysql")
        text = _unquote_name(text)
        names.append(text)
        e.replace(exp.alias_(e.copy(), text, quoted=True))
    return names


def _unquote_name(text: str) -> str:
    """MySQL names `SELECT 'abc'` abc and `SELECT "x"` x: a lone string literal loses quotes."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return unescape(text)
    return text


def _describe(select: exp.Select, aliases: dict[str, tuple[str, str]],
              table_meta: TableMeta) -> list[Column | None] | None:
    """Per output column, the wire Column when it is a table column, else None."""
    tables: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for table in select.find_all(exp.Table):
        key = aliases.get((table.alias or table.name).lower())
        if key and key not in seen and table.find_ancestor(exp.Select) is select:
            seen.add(key)
            tables.append(key)
    metas: dict[tuple[str, str], list[TableColumn]] = {}
    for key in tables:
        meta = table_meta(*key)
        if meta is not None:
            metas[key] = meta
    out: list[Column | None] = []
    for e in select.expressions:
        alias = e.alias if isinstance(e, exp.Alias) else None
        inner = e.this if isinstance(e, exp.Alias) else e
        if isinstance(inner, exp.Star) or isinstance(inner, exp.Column) and \
                isinstance(inner.this, exp.Star):
            qual = inner.table.lower() if isinstance(inner, exp.Column) else ""
            keys = [aliases[qual]] if qual and qual in aliases else tables
            for key in keys:
                if key not in metas:
                    return None  # unknown width: infer everything
                out.extend(tc.column for tc in metas[key])
            continue
        if isinstance(inner, exp.Column):
            qual = inner.table.lower()
            keys = [aliases[qual]] if qual in aliases else tables
            found = None
            for key in keys:
                for tc in metas.get(key, ()):
                    if tc.name.lower() == inner.name.lower():
                        found = tc.column
                        break
                if found:
                    break
            if found is not None and alias:
                found = Column(alias, found.type, found.length, found.flags, found.decimals,
                               found.charset, found.table, found.org_table, found.schema,
                               found.org_name)
            out.append(found)
            continue
        out.append(None)
    return out
