"""EXPLAIN [EXTENDED | PARTITIONS] of a query, UPDATE or DELETE in MariaDB's columns.

Rules:
- The plan is SQLite's (EXPLAIN QUERY PLAN); this module only says it in MariaDB's words, one
  row per table in SQLite's order: SCAN is `ALL` (`index` over a covering index, or over the
  INTEGER PRIMARY KEY when the statement reads only its column), SEARCH with equalities on
  every part of a unique key and constants is `const` (`eq_ref` joined to another table),
  other equalities `ref`, a bound (`a>?`, an IN list, BETWEEN) `range`. `key` is MariaDB's
  index name (SQLite's autoindex and INTEGER PRIMARY KEY are PRIMARY), `key_len` MariaDB's
  byte length of the parts used (`key_length`), `rows` the rows SQLite reads as far as it can
  be counted (the table's rows for a scan: exact, as MyISAM / Aria report them; 1 for const).
  A temporary b-tree for ORDER BY is `Using filesort`, for GROUP BY `Using temporary; Using
  filesort`, for DISTINCT `Using temporary`. What SQLite's plan says and MariaDB has no word
  for (MULTI-INDEX OR, automatic indexes) is shown as the nearest MariaDB access (docs/sql.md).
- What MariaDB decides from the schema and the data without its optimizer is MariaDB's: a
  query without tables is `No tables used` (`Impossible WHERE` when its WHERE is a false
  constant); a table of an engine whose row count is exact (MyISAM, Aria, MEMORY) holding at
  most one row is a `system` table, read before planning, as is a `const` lookup: when no row
  qualifies, the answer is `Impossible WHERE noticed after reading const tables` (`Const row
  not found` for an empty table without WHERE).
- EXTENDED adds `filtered` (100.00: no condition selectivity is estimated) and Note 1003 with
  the query as MariaDB prints it (sqltext.py's printer, the one of SHOW CREATE VIEW, with every
  column qualified by its database).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from rampmeter import errors
from rampmeter.engine.base import Result, ResultSet
from rampmeter.engine.sqlite import explain_join, explain_minmax
from rampmeter.engine.sqlite.catalog import ColumnDef, IndexDef, TableDef
from rampmeter.errors import Warning_
from rampmeter.protocol.columns import Column, decimal_column, int_column, text_column
from rampmeter.sql import charsets
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement, scan

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

NAMES = ("id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref",
         "rows", "Extra")
EXACT_COUNT_ENGINES = frozenset({"MYISAM", "ARIA", "MEMORY", "HEAP"})
_ACCESS = re.compile(r"^(SCAN|SEARCH) (\S+)(?: USING (COVERING INDEX|INDEX|INTEGER PRIMARY KEY|"
                     r"AUTOMATIC COVERING INDEX|AUTOMATIC PARTIAL COVERING INDEX|ROWID SEARCH)"
                     r"(?: (\S+))?)?(?: \((.*)\))?")
_INTO = re.compile(r"\bINTO\s+@[\w$.]+(?:\s*,\s*@[\w$.]+)*", re.IGNORECASE)
_UNNAMED = re.compile(r"\(subquery-\d+\)$")
_SUBQUERY = re.compile(r"^(CORRELATED )?(SCALAR|LIST) SUBQUERY")
_DIG2BYTES = (0, 1, 1, 2, 2, 3, 3, 4, 4, 4)
_FIXED = {"tinyint": 1, "smallint": 2, "mediumint": 3, "int": 4, "bigint": 8, "float": 4,
          "double": 8, "date": 3, "year": 1}


# --- key lengths ---------------------------------------------------------------------------------
def decimal_bytes(precision: int, scale: int) -> int:
    """The bytes of MariaDB's binary DECIMAL(precision, scale) (decimal_bin_size)."""
    whole = precision - scale
    return whole // 9 * 4 + _DIG2BYTES[whole % 9] + scale // 9 * 4 + _DIG2BYTES[scale % 9]


def part_length(c: ColumnDef, prefix: int | None = None) -> int:
    """The bytes one key part takes in MariaDB (EXPLAIN's key_len): the column's key image,
    two length bytes for variable-length strings, one more when the column may be NULL."""
    t = c.type
    n = t.name
    if n in _FIXED:
        size = _FIXED[n]
    elif n in ("datetime", "timestamp", "time"):
        size = {"datetime": 5, "timestamp": 4, "time": 3}[n] + (t.fsp + 1) // 2
    elif n == "decimal":
        size = decimal_bytes(t.width or 10, t.scale or 0)
    elif n == "bit":
        size = ((t.width or 1) + 7) // 8
    elif n == "enum":
        size = 1 if len(t.members) < 256 else 2
    elif n == "set":
        size = {1: 1, 2: 2, 3: 3, 4: 4}.get((len(t.members) + 7) // 8, 8)
    else:
        binary = t.is_binary_string or t.charset == "binary"
        cs = None if binary else charsets.charset(t.charset or "utf8mb4")
        maxlen = cs.maxlen if cs is not None else 1
        chars = prefix if prefix is not None else (t.width if t.width is not None else 1)
        if t.is_blob and prefix is None:
            chars = 0
        size = chars * maxlen
        if n not in ("char", "binary"):
            size += 2
    return size + (1 if c.nullable else 0)


def key_length(tdef: TableDef, idx: IndexDef, parts: int | None = None) -> int:
    total = 0
    for k, name in enumerate(idx.columns[:parts]):
        c = tdef.column(name)
        if c is not None:
            total += part_length(c, idx.prefixes[k] if k < len(idx.prefixes) else None)
    return total


# --- the statement's tables ----------------------------------------------------------------------
@dataclass(slots=True)
class _Table:
    shown: str                      # the name MariaDB shows (the alias, else the table)
    db: str
    name: str
    tdef: TableDef | None
    columns: set[str] = field(default_factory=set)   # lower-case columns the statement reads
    all_columns: bool = False
    select: exp.Expression | None = None              # the SELECT naming it in its FROM
    node: exp.Table | None = None                     # its name in the statement (hints)


def _tables(s: SqliteSession, tree: exp.Expression, database: str) -> list[_Table]:
    out: list[_Table] = []
    for node in tree.find_all(exp.Table):
        if not node.name:
            continue
        db = node.db or database
        try:
            tdef = s.table_def(db, node.name)
        except Exception:  # noqa: BLE001 - a missing database: SQLite's error came first
            tdef = None
        out.append(_Table(node.alias or node.name, db, node.name, tdef,
                          select=node.find_ancestor(exp.Select), node=node))
    for col in tree.find_all(exp.Column):
        if isinstance(col.this, exp.Star):
            for t in out:
                if not col.table or col.table.lower() == t.shown.lower():
                    t.all_columns = True
            continue
        for t in out:
            if col.table and col.table.lower() != t.shown.lower():
                continue
            if t.tdef is not None and t.tdef.column(col.name) is not None:
                t.columns.add(col.name.lower())
    for _star in tree.find_all(exp.Star):
        if not isinstance(_star.parent, (exp.Column, exp.Count)):
            for t in out:
                t.all_columns = True
    return out


def _find(tables: list[_Table], name: str) -> _Table | None:
    low = name.lower()
    for t in tables:
        if t.shown.lower() == low:
            return t
    if "." in name:
        tail = low.split(".", 1)[1]
        for t in tables:
            if t.shown.lower() == tail or t.name.lower() == tail:
                return t
    return None


def _conjuncts(node: exp.Expression | None) -> list[exp.Expression]:
    if node is None:
        return []
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.And):
        return _conjuncts(node.this) + _conjuncts(node.expression)
    return [node]


def _conditions(tree: exp.Expression | None) -> list[tuple[exp.Expression, str | None]]:
    """The conjuncts of a statement's WHERE and of its joins' ON, each with the table an
    outer join's ON belongs to (None: any)."""
    if tree is None:
        return []
    where = tree.args.get("where")
    out: list[tuple[exp.Expression, str | None]] = \
        [(c, None) for c in _conjuncts(where.this)] if where is not None else []
    for join in tree.args.get("joins") or []:
        owner = None
        if join.args.get("side") and isinstance(join.this, exp.Table):
            owner = (join.this.alias or join.this.name).lower()
        out += [(c, owner) for c in _conjuncts(join.args.get("on"))]
    return out


def _tables_of(cond: exp.Expression, tables: list[_Table]) -> set[str]:
    """The tables (shown names, lower case) a condition's columns belong to."""
    out = set()
    for col in cond.find_all(exp.Column):
        if isinstance(col.this, exp.Star):
            continue
        if col.table:
            out.add(col.table.lower())
            continue
        for t in tables:
            if t.tdef is not None and t.tdef.column(col.name) is not None:
                out.add(t.shown.lower())
                break
    return out


def _refers(node: exp.Expression, table: _Table, single: bool) -> bool:
    for col in node.find_all(exp.Column):
        if col.table and col.table.lower() == table.shown.lower():
            return True
        if not col.table and (single or table.tdef is not None and
                              table.tdef.column(col.name) is not None):
            return True
    return False


def _columns_of(node: exp.Expression) -> set[str]:
    return {c.name.lower() for c in node.find_all(exp.Column) if not isinstance(c.this, exp.Star)}


def _constant(node: exp.Expression) -> bool:
    """No column, no table: a constant MariaDB evaluates before planning (a subquery
    without tables is one too)."""
    return not any(True for _ in node.find_all(exp.Column, exp.Table))


def _ranged(conds: list[exp.Expression], column: str) -> bool:
    """Does a condition put `column` in a range MariaDB reads as one (IN list of several
    values, BETWEEN, an OR of them) rather than one equality?"""
    for c in conds:
        if isinstance(c, exp.In) and isinstance(c.this, exp.Column) and \
                c.this.name.lower() == column and len(c.expressions) > 1:
            return True
        if isinstance(c, exp.Between) and isinstance(c.this, exp.Column) and \
                c.this.name.lower() == column:
            return True
        if isinstance(c, exp.Or) and _columns_of(c) == {column}:
            return True
    return False


# --- the answer ----------------------------------------------------------------------------------
@dataclass(slots=True)
class _Row:
    id: int | None
    select_type: str
    table: str | None
    type: str | None = None
    possible_keys: str | None = None
    key: str | None = None
    key_len: str | None = None
    ref: str | None = None
    rows: int | None = None
    extra: list[str] = field(default_factory=list)
    filtered: bool = True
    null_extra: bool = False   # Extra is NULL (INSERT's row)
    source: _Table | None = None
    not_null: set[str] = field(default_factory=set)  # tables a lookup tests NOT NULL
    outer_inner: bool = False  # the inner table of an outer join
    sorts: bool = False        # read in no useful order: its select's ORDER BY sorts
    order_temp: bool = False   # a temporary table for sorting a join by ORDER BY
    zero_filtered: bool = False  # filtered 0.00 (an empty const table)

    def values(self, extended: bool, partitions: bool = False) -> tuple[Any, ...]:
        head: tuple[Any, ...] = (
            self.id, self.select_type, self.table, self.type, self.possible_keys, self.key,
            self.key_len, self.ref, None if self.rows is None else str(self.rows))
        if partitions:
            head = (*head[:3], None, *head[3:])
        extra = None if self.null_extra else "; ".join(self.extra)
        if extended:
            filtered = Decimal("100.00") if self.filtered and self.table is not None else None
            if self.zero_filtered:
                filtered = Decimal("0.00")
            return (*head, filtered, extra)
        return (*head, extra)


def explain(s: SqliteSession, r: Reader) -> Result:
    extended = partitions = False
    if r.accept("FORMAT"):
        r.expect("=")
        r.next()
    elif r.accept("EXTENDED"):
        extended = True
    else:
        partitions = r.accept("PARTITIONS")
    inner = scan(r.rest_text(), r.stmt.dialect, r.stmt.charset)
    if not inner.is_dml:
        raise r.error()
    if inner.kind == "SELECT" and _INTO.search(inner.shape) is not None:
        # SELECT ... INTO @v: the SELECT is explained
        text = inner.text
        for m in _INTO.finditer(text):
            if text[:m.start()].count("(") == text[:m.start()].count(")"):
                inner = scan(text[:m.start()] + text[m.end():], r.stmt.dialect, r.stmt.charset)
                break
    joined = _joined_write(inner, r.stmt) if inner.kind in ("UPDATE", "DELETE") else None
    inner = joined or inner
    plan = s.plan(inner)
    s.make_visible(plan)
    from rampmeter.engine.sqlite.dml import bind
    bound = {**bind(inner, []), **plan.fixed}
    try:
        # the schema version in the text, as session._compile does (a cached EXPLAIN
        # re-prepared after DROP / CREATE of its table crashes SQLite)
        found = s.handle.execute(f"EXPLAIN QUERY PLAN /*{s.engine.schema_version}*/ "
                                 f"{plan.explain_sql or plan.sql}", bound).fetchall()
    except sqlite3.Error as e:
        raise s.sqlite_error(e, plan) from None
    tree = _tree(inner)
    database = s.database or ""
    tables = _tables(s, tree, database) if tree is not None else []
    found = explain_join.uneliminated(s, tables, found)
    try:
        rows, impossible = _answer(s, tree, tables, found, joined_write=joined is not None)
    except Exception:  # noqa: BLE001 - a plan this module cannot read: SQLite's own words
        rows = [_Row(1, "SIMPLE", None, extra=[str(d)]) for _n, _p, _u, d in found]
        impossible = None
    names = list(NAMES)
    if extended:
        names.insert(9, "filtered")
    if partitions:  # (no table is partitioned here: always NULL)
        names.insert(3, "partitions")
    cols: list[Column] = []
    for n in names:
        if n == "id":
            cols.append(int_column(n, length=3))
        elif n == "filtered":
            cols.append(decimal_column(n, length=4, decimals=2))
        else:
            cols.append(text_column(n, length=64))
    result = ResultSet(cols, [row.values(extended, partitions) for row in rows])
    if extended and tree is not None:
        const = None
        if tree is not None and len(tables) == 1 and len(rows) == 1 and \
                isinstance(tree, exp.Select) and not tree.args.get("joins"):
            if rows[0].type in ("system", "const"):
                const = (tables[0], rows[0].type == "system", False)
            elif rows[0].extra == ["Impossible WHERE noticed after reading const tables"]:
                t = tables[0]
                count = _count(s, t)
                const = (t, t.tdef is not None and count is not None and count <= 1 and
                         t.tdef.engine.upper() in EXACT_COUNT_ENGINES, True)
        empty = [t for t in tables if any(r.zero_filtered and r.source is t for r in rows)]
        note = _note(s, inner, plan, bound, database, const,
                     impossible=impossible == "Impossible WHERE", empty=empty)
        if note is not None:
            result.warnings.append(Warning_("Note", errors.ER_YES, note))
    return result


def _answer(s: SqliteSession, tree: exp.Expression | None, tables: list[_Table],
            found: list[tuple[Any, ...]], *,
            joined_write: bool = False) -> tuple[list[_Row], str | None]:
    """The rows of the answer, and the Impossible WHERE / HAVING decided, if any
    (`joined_write`: the join of a multi-table UPDATE / DELETE, read without join
    buffers)."""
    if isinstance(tree, (exp.Insert, exp.Update, exp.Delete)):
        rows = _write_rows(s, tree, tables, found)
    else:
        rows = _rows(s, tree, tables, found)
    impossible = _impossible(s, tree)
    if impossible is None and _zero_limit(tree):
        impossible = "Zero limit"  # MariaDB reads no table at all, const ones neither
    away = explain_minmax.min_max(s, tree) if impossible is None else None
    if away is not None:
        rows = [_Row(1, rows[0].select_type if rows else "SIMPLE", None, filtered=False,
                     extra=[away]), *(r for r in rows if r.id != 1)]
    elif impossible is not None:  # the first select's tables are never read
        first = next((r.select_type for r in rows if r.id == 1), "SIMPLE")
        rows = [_Row(1, first, None, filtered=False, extra=[impossible]),
                *(r for r in rows if r.id != 1)]
    elif tree is not None and rows and len(tables) == 1 and isinstance(tree, exp.Select):
        rows = _const_tables(s, tree, tables[0], rows)
    elif isinstance(tree, (exp.Select, exp.Union)):
        rows = _system_tables(s, rows)
    if impossible is None:
        explain_join.not_null_tests(rows)
        if not joined_write:
            explain_join.join_buffers(s, rows)
    return rows, impossible


def _zero_limit(tree: exp.Expression | None) -> bool:
    """A SELECT with LIMIT 0 (a literal): MariaDB's plan is `Zero limit`."""
    limit = tree.args.get("limit") if isinstance(tree, exp.Select) else None
    value = limit.args.get("expression") if isinstance(limit, exp.Limit) else None
    return isinstance(value, exp.Literal) and not value.is_string and value.this == "0"


def _joined_write(stmt: Statement, outer: Statement) -> Statement | None:
    """A multi-table UPDATE / DELETE reads the join of its tables as a SELECT of them
    would (rampmeter runs it rewritten, in steps): that SELECT is what is explained."""
    tree = _tree(stmt)
    if not isinstance(tree, (exp.Update, exp.Delete)):
        return None
    using = tree.args.get("using")
    source = using[0] if using else tree.this
    if not isinstance(source, exp.Expression) or not source.args.get("joins"):
        return None
    where = tree.args.get("where")
    text = "SELECT * FROM " + source.sql("mysql") + (" " + where.sql("mysql") if where else "")
    try:
        return scan(text, outer.dialect, outer.charset)
    except Exception:  # noqa: BLE001 - not readable as a SELECT: the statement itself
        return None


def _tree(stmt: Statement) -> exp.Expression | None:
    from rampmeter.engine.sqlite import defaultfn, dialect, modifiers, odbc
    text = stmt.text
    if stmt.kind == "REPLACE":  # read as the INSERT it is planned as
        at = text.upper().find("REPLACE")
        text = text[:at] + "INSERT" + text[at + len("REPLACE"):]
    try:
        text = odbc.rewrite(text, stmt)  # {d '..'}, {fn f(..)}: what they stand for
        text = modifiers.strip(stmt.kind, text)[0]  # SQL_CALC_FOUND_ROWS, HIGH_PRIORITY...
        return dialect.parse(defaultfn.rewrite_text(text), stmt.dialect.pipes_as_concat,
                             stmt.dialect.high_not)
    except Exception:  # noqa: BLE001 - planned already: only the words are missing
        return None


def _rows(s: SqliteSession, tree: exp.Expression | None, tables: list[_Table],
          found: list[tuple[Any, ...]]) -> list[_Row]:
    children: dict[int, list[tuple[int, str]]] = {}
    for node, parent, _unused, detail in found:
        children.setdefault(parent, []).append((node, detail))
    has_sub = any(_SUBQUERY.match(d) or d.startswith(("MATERIALIZE", "CO-ROUTINE",
                                                      "COMPOUND")) and not _UNNAMED.search(d)
                  for _n, _p, _u, d in found)
    windowed = tree is not None and any(True for _ in tree.find_all(exp.Window))
    out: list[_Row] = []
    counter = [1]
    where = _conditions(tree)
    joined = len(tables) > 1
    derived: dict[str, int] = {}
    # a select MariaDB does not sort: an ORDER BY in SQLite's plan is rampmeter's own
    unordered = isinstance(tree, exp.Select) and not any(
        tree.args.get(k) for k in ("order", "group", "distinct")) and not windowed

    def walk(parent: int, select_id: int, kind: str, inner: bool = False) -> None:
        first = len(out)
        seen: set[str] = set()
        for node, detail in children.get(parent, []):
            if detail == "SCAN CONSTANT ROW":
                out.append(_Row(select_id, kind, None, filtered=False,
                                extra=["No tables used"]))
                continue
            m = _ACCESS.match(detail)
            if m is not None and _UNNAMED.search(detail):
                continue  # the scan of a subquery the statement does not name (below)
            if m is not None:
                out.append(_access(s, m, tables, where, select_id, kind, joined, derived,
                                   seen))
                if out[-1].table is not None:
                    seen.add(out[-1].table.lower())
                continue
            if detail == "MULTI-INDEX OR":
                parts = []
                for index_node, _d in children.get(node, []):
                    for _n, d in children.get(index_node, []):
                        m = _ACCESS.match(d)
                        if m is not None:
                            parts.append(_access(s, m, tables, where, select_id, kind,
                                                 joined, derived, seen))
                if parts:
                    out.append(_merged(s, parts, where))
                    if out[-1].table is not None:
                        seen.add(out[-1].table.lower())
                continue
            sub = _SUBQUERY.match(detail)
            if sub is not None:
                counter[0] += 1
                # SQLite's list subquery is read once into a temporary index:
                # MariaDB's MATERIALIZED
                # (of a table: a union or a select without tables is a SUBQUERY)
                reads = [d for _n, d in children.get(node, [])]
                table = any(_ACCESS.match(d) and d != "SCAN CONSTANT ROW" for d in reads) \
                    and not any(d.startswith("COMPOUND") for d in reads)
                walk(node, counter[0], "DEPENDENT SUBQUERY" if sub.group(1) else
                     "MATERIALIZED" if sub.group(2) == "LIST" and table else "SUBQUERY")
                continue
            if detail.startswith(("MATERIALIZE ", "CO-ROUTINE ")) and _UNNAMED.search(detail):
                # a subquery the statement does not name (rampmeter's for window
                # functions): its tables are the select's own, as in MariaDB
                walk(node, select_id, kind, inner=True)
                continue
            if detail.startswith(("MATERIALIZE ", "CO-ROUTINE ")):
                counter[0] += 1
                derived[detail.split(" ", 1)[1].lower()] = counter[0]
                walk(node, counter[0], "DERIVED")
                continue
            if detail.startswith("COMPOUND"):
                ids: list[int] = []
                words: list[str] = []
                for k, (child, what) in enumerate(children.get(node, [])):
                    if k:
                        counter[0] += 1
                    ids.append(counter[0] if k else select_id)
                    word = what.split(" ", 1)[0] if k else ""
                    if k and not what.startswith("UNION ALL"):
                        words.append(word)
                    walk(child, ids[-1], word or ("PRIMARY" if kind == "SIMPLE" or
                                                  kind == "PRIMARY" else kind))
                if words:  # a UNION ALL alone has no result table
                    out.append(_Row(None, f"{words[0]} RESULT",
                                    f"<{words[0].lower()}" + ",".join(map(str, ids)) + ">",
                                    "ALL", extra=[], filtered=False))
                continue
            target = next((r for r in out[first:] if r.id == select_id), None)
            if target is None:
                continue
            if detail.startswith(("USE TEMP B-TREE FOR ORDER BY",
                                  "USE TEMP B-TREE FOR RIGHT PART OF ORDER BY")) and \
                    select_id == 1 and unordered:
                pass  # the order of a covering index's scan (covering.py), not a sort
            elif detail.startswith("USE TEMP B-TREE FOR ORDER BY") or \
                    detail.startswith("USE TEMP B-TREE FOR RIGHT PART OF ORDER BY"):
                several = sum(1 for r in out[first:]
                              if r.table is not None and r.id == select_id) > 1
                if several and "Using temporary" not in target.extra:
                    target.extra.append("Using temporary")
                    target.order_temp = True
                # (sorting for window functions: MariaDB's temporary table)
                word = "Using temporary" if inner and windowed else "Using filesort"
                if word not in target.extra:
                    target.extra.append(word)
            elif detail.startswith("USE TEMP B-TREE FOR GROUP BY"):
                for word in ("Using temporary", "Using filesort"):
                    if word not in target.extra:
                        target.extra.append(word)
            elif detail.startswith("USE TEMP B-TREE FOR DISTINCT"):
                if "Using temporary" not in target.extra:
                    target.extra.append("Using temporary")
            elif detail.startswith("CORRELATED SCALAR") or detail.startswith("SCALAR"):
                pass
        for row in out[first:]:
            if row.sorts and row.source is not None and row.source.select is not None:
                # SQLite's index order MariaDB does not have: the select's clauses sort
                head = next(r for r in out[first:] if r.id == row.id and r.table is not None)
                select = row.source.select
                words = (["Using filesort"] if select.args.get("order") else []) + \
                    (["Using temporary", "Using filesort"] if select.args.get("group") else
                     ["Using temporary"] if select.args.get("distinct") else [])
                head.extra += [w for w in dict.fromkeys(words) if w not in head.extra]
        for row in out[first:]:
            # MariaDB orders a select's Extra: temporary and filesort come last
            row.extra.sort(key=lambda w: (w in ("Using temporary", "Using filesort"),
                                          w == "Using filesort"))

    walk(0, 1, "PRIMARY" if has_sub else "SIMPLE")
    out.sort(key=lambda row: (row.id is None, row.id or 0))
    if windowed:
        _windows(out, tables)
    for row in out:  # a derived table's rows: what its query's tables may give (MariaDB's
        # estimate, the product of their rows)
        m = re.match(r"<derived(\d+)>$", row.table or "")
        if m is not None and row.rows is None:
            inner = [r.rows for r in out if r.id == int(m.group(1)) and r.table is not None]
            if inner and all(n is not None for n in inner):
                total = 1
                for n in inner:
                    total *= n or 0
                row.rows = total
    if not out or len(out) == 1 and out[0].table is None and not tables:
        return [_no_tables(s, tree)]
    if not any(r.id == 1 for r in out):  # subqueries under a select without tables
        top = _no_tables(s, tree)
        top.select_type = "PRIMARY"
        out.insert(0, top)
    return out


def _windows(rows: list[_Row], tables: list[_Table]) -> None:
    """A select computing window functions does it in a temporary table (`Using
    temporary`, however SQLite sorts for them); its own ORDER BY / GROUP BY sorts again
    (`Using filesort`). On the select's first table (a name several selects read is known
    to be the first select's only)."""
    seen: set[int | None] = set()
    for row in rows:
        if row.id in seen or row.source is None or row.source.select is None:
            continue
        seen.add(row.id)
        shown = row.source.shown.lower()
        if row.id != 1 and sum(1 for t in tables if t.shown.lower() == shown) > 1:
            continue
        select = row.source.select
        if not any(w.find_ancestor(exp.Select) is select for w in select.find_all(exp.Window)):
            continue
        words = ["Using temporary"]
        if select.args.get("order") or select.args.get("group"):
            words.append("Using filesort")
        row.extra = [w for w in row.extra if w not in ("Using temporary", "Using filesort")] \
            + words


def _write_rows(s: SqliteSession, tree: exp.Expression, tables: list[_Table],
                found: list[tuple[Any, ...]]) -> list[_Row]:
    """INSERT / REPLACE: one row naming the table (its SELECT's rows for INSERT ...
    SELECT); UPDATE / DELETE of one table: a key lookup is a `range` with `Using where`, a
    DELETE of every row `Deleting all rows`."""
    if isinstance(tree, exp.Insert):
        query = tree.expression
        if isinstance(query, (exp.Select, exp.Union)):
            rows = _rows(s, query, tables[1:] if len(tables) > 1 else tables, found)
            target = tables[0].name.lower() if tables else ""
            if rows and any(t.name.lower() == target for t in tables[1:]):
                rows[0].extra.append("Using temporary")
            return rows
        shown = tables[0].shown if tables else None
        return [_Row(1, "INSERT", shown, "ALL", null_extra=True)]
    rows = _rows(s, tree, tables, found)
    if isinstance(tree, exp.Delete) and tree.args.get("where") is None and \
            tree.args.get("limit") is None and len(tables) == 1:
        return [_Row(1, "SIMPLE", None, rows=_count(s, tables[0]), filtered=False,
                     extra=["Deleting all rows"])]
    for row in rows:
        if row.type in ("const", "eq_ref", "ref"):
            row.type = "range"
            row.ref = None
            row.extra = ["Using where"]
    return rows


def _impossible(s: SqliteSession, tree: exp.Expression | None) -> str | None:
    """`Impossible WHERE` / `Impossible HAVING`: a condition of the outer select with a
    constant part that is false, which MariaDB evaluates once before planning."""
    if not isinstance(tree, exp.Select):
        return None
    aliases = {x.alias.lower(): x.this for x in tree.expressions
               if isinstance(x, exp.Alias) and _constant(x.this)}
    for key, word in (("where", "Impossible WHERE"), ("having", "Impossible HAVING")):
        node = tree.args.get(key)
        if node is None:
            continue
        whole = node.this
        if key == "having" and aliases:  # a select list alias of a constant is that constant
            whole = whole.transform(
                lambda n: aliases[n.name.lower()].copy()
                if isinstance(n, exp.Column) and not n.table and n.name.lower() in aliases
                else n)
        conjuncts = _conjuncts(whole)
        if any(_constant(c) and _false(s, c) or key == "where" and _never_null(s, tree, c)
               for c in conjuncts) or key == "where" and _propagated(s, conjuncts):
            return word
    return None


def _propagated(s: SqliteSession, conjuncts: list[exp.Expression]) -> bool:
    """MariaDB's constant propagation: `col = constant` in the WHERE's AND makes every other
    condition on that column alone a constant; one of them false is `Impossible WHERE`
    (`a = 2 AND a IS NULL`, `a = 'MIN' AND a >= 'SEA'`)."""
    values: dict[tuple[str, str], exp.Expression] = {}
    for c in conjuncts:
        if isinstance(c, exp.EQ):
            for side, other in ((c.this, c.expression), (c.expression, c.this)):
                if isinstance(side, exp.Column) and isinstance(other, (exp.Literal, exp.Neg)) \
                        and _constant(other):
                    values.setdefault((side.table.lower(), side.name.lower()), other)
    if not values:
        return False
    for c in conjuncts:
        cols = list(c.find_all(exp.Column))
        keys = {(x.table.lower(), x.name.lower()) for x in cols}
        if len(keys) != 1 or any(True for _ in c.find_all(exp.Subquery)):
            continue
        key = next(iter(keys))
        if key not in values or isinstance(c, exp.EQ) and values[key] in (c.this, c.expression):
            continue
        folded = c.copy().transform(
            lambda n, v=values[key]: v.copy() if isinstance(n, exp.Column) else n)
        if _constant(folded) and _false(s, folded):
            return True
    return False


def _never_null(s: SqliteSession, tree: exp.Select, cond: exp.Expression) -> bool:
    """A conjunct false once every `col IS NULL` (ISNULL(col)) of a NOT NULL column is
    the constant 0 it is for MariaDB's Item_func_isnull (not for a DATE / DATETIME, which
    it compares with zero, nor for the AUTO_INCREMENT column under sql_auto_is_null, nor
    for a column of an outer join's inner table)."""
    if not any(isinstance(n, exp.Is) and isinstance(n.expression, exp.Null)
               for n in cond.walk()):
        return False
    sources = explain_minmax.from_tables(s, tree)
    if not sources:
        return False

    def fold(node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Is) and isinstance(node.expression, exp.Null) and \
                isinstance(node.this, exp.Column) and _not_null_column(s, sources, node.this):
            return exp.Literal.number(0)
        return node

    folded = cond.copy().transform(fold)
    return _constant(folded) and _false(s, folded)


def _not_null_column(s: SqliteSession, sources: list[tuple[str, Any, bool]],
                     col: exp.Column) -> bool:
    owners = [(tdef, inner) for shown, tdef, inner in sources
              if (not col.table or col.table.lower() == shown) and
              tdef.column(col.name) is not None]
    if len(owners) != 1 or owners[0][1]:
        return False
    c = owners[0][0].column(col.name)
    if c.nullable or c.type.name in ("date", "datetime"):
        return False
    from rampmeter.engine.sqlite.autoisnull import enabled
    return not (c.auto_increment and enabled(s))


def _no_tables(s: SqliteSession, tree: exp.Expression | None) -> _Row:
    row = _Row(1, "SIMPLE", None, filtered=False)
    where = tree.args.get("where") if tree is not None else None
    if where is not None and _constant(where.this) and _false(s, where.this):
        row.extra.append("Impossible WHERE")
    else:
        row.extra.append("No tables used")
    return row


def _false(s: SqliteSession, cond: exp.Expression) -> bool:
    """Is a constant condition false (or NULL)? Evaluated as MariaDB's optimizer does, once."""
    if isinstance(cond, exp.Literal) and not cond.is_string:
        try:
            return float(cond.this) == 0
        except ValueError:
            return False
    if isinstance(cond, (exp.Null, exp.Boolean)):
        return not (isinstance(cond, exp.Boolean) and cond.this)
    if any(isinstance(n, (exp.Anonymous, exp.Rand, exp.Parameter, exp.Placeholder))
           for n in cond.walk()):
        return False  # not a constant MariaDB folds (RAND(), variables, stored functions)
    got = _run(s, "SELECT " + cond.sql("mysql"))
    return got is not None and len(got) == 1 and got[0][0] in (None, 0, 0.0, "0")


def _access(s: SqliteSession, m: re.Match[str], tables: list[_Table],
            conditions: list[tuple[exp.Expression, str | None]], select_id: int, kind: str,
            joined: bool, derived: dict[str, int], seen: set[str]) -> _Row:
    verb, name, using, index, cond = m.groups()
    t = _find(tables, name)
    if t is None and name.split(".", 1)[-1].lower() not in derived:
        t = _base_table(s, name)  # a view's table, its query merged into the statement
    if t is None or t.tdef is None:
        shown = name.split(".", 1)[-1]
        sub = derived.get(shown.lower())
        row = _Row(select_id, kind, f"<derived{sub}>" if sub is not None else shown, "ALL")
        return row
    tdef = t.tdef
    row = _Row(select_id, kind, t.shown, source=t)
    # the conditions MariaDB checks at this table: those whose last table (in the join
    # order) it is; an outer join's ON belongs to its inner table
    # (a subquery's own WHERE; a column of an outer query is a constant there)
    me = t.shown.lower()
    if t.select is not None:
        conditions = _conditions(t.select)
        local = [x for x in tables if x.select is t.select]
        joined = len(local) > 1
    else:
        local = tables
    names = {x.shown.lower() for x in local}
    where = [c for c, _owner in conditions]
    row.outer_inner = any(owner == me for _c, owner in conditions)
    mine = []
    for c, owner in conditions:
        named = _tables_of(c, local) if joined else ({me} if _refers(c, t, True) else set())
        if me in named and named & names <= seen | {me} and owner in (None, me):
            mine.append(c)
    possible = _possible_keys(tdef, mine)
    row.possible_keys = ",".join(possible) if possible else None
    text_key = _fulltext_key(tdef, mine)
    if text_key is not None:
        # MATCH ... AGAINST of a FULLTEXT key's columns needing a relevance above 0:
        # MariaDB reads the key's matches (type fulltext, no key length, an empty ref)
        row.type, row.key, row.key_len, row.ref, row.rows = \
            "fulltext", text_key.name, "0", "", 1
        row.possible_keys = ",".join([*possible, text_key.name])
        row.extra.append("Using where")
        # (its rows come by relevance: sorted for any other ORDER BY, GROUP BY, DISTINCT)
        order = t.select.args.get("order") if t.select is not None else None
        row.sorts = not (order and all(isinstance(o.this, exp.MatchAgainst)
                                       for o in order.expressions))
        return row
    idx = _index(tdef, using, index)
    # (MariaDB's keyread: SQLite's indexes hold the rowid too, MariaDB's do not)
    covering = idx is not None and _covers(t, idx)
    if verb == "SCAN" and idx is not None and "COVERING" in (using or "") and not covering:
        idx = None  # SQLite's covering scan, not MariaDB's: the table's, in its order
        row.sorts = True
    elif verb == "SCAN" and idx is not None and using == "INDEX" and not covering and \
            t.select is not None and (t.select.args.get("limit") is None or
                                      t.select.args.get("order") is None):
        # SQLite walks a key that does not cover for an ORDER BY without LIMIT, a DISTINCT
        # or a GROUP BY (reading each row): MariaDB scans the table and sorts (a MyISAM
        # AUTO_INCREMENT key is no rowid here, so no secondary key holds it)
        idx = None
        row.sorts = True
    parts = []
    if cond:
        parts = [p.strip() for p in cond.split(" AND ")]
    eq = [p.split("=", 1)[0] for p in parts if re.match(r"^\w+=\?$", p)]
    bounded = [p for p in parts if not re.match(r"^\w+=\?$", p)]
    count = _count(s, t)
    if verb == "SCAN" and idx is not None and not covering and _ignored_for_order(t, idx):
        # SQLite walks the index for the ORDER BY that MariaDB was told not to use it
        # for: MariaDB scans the table and sorts
        idx = None
        row.sorts = True
    if verb == "SCAN" or idx is None:
        cover = _covering_key(t) if idx is None else None
        if idx is not None or cover is not None:
            key = idx if idx is not None else cover
            if key is not None:
                row.type = "index"
                row.key = key.name if key.name else "PRIMARY"
                row.key_len = str(key_length(tdef, key))
                row.rows = count
                if covering or idx is None:
                    row.extra.append("Using where; Using index" if mine else "Using index")
                elif mine:
                    row.extra.append("Using where")
                return row
        row.type = "ALL"
        row.rows = count
        if mine:
            row.extra.append("Using where")
        return row
    used = len(eq) + (1 if bounded else 0)
    if idx.name == "" and using == "INTEGER PRIMARY KEY":
        used = 1
    ranged = bool(bounded) or any(_ranged(where, c.lower()) for c in eq)
    row.key = idx.name or "PRIMARY"
    row.key_len = str(key_length(tdef, idx, max(used, 1)))
    if row.key not in possible:
        row.possible_keys = ",".join([*possible, row.key])
    # index condition pushdown: not of MEMORY's indexes, nor of an outer join's inner
    # table (its ON is guarded by a trigger MariaDB does not push), nor when switched off
    icp = not row.outer_inner and tdef.engine.upper() not in ("MEMORY", "HEAP") and \
        explain_join.switch(s, "index_condition_pushdown")
    if ranged:
        row.type = "range"
        row.rows = max(1, _matching(s, t, mine, idx.columns[:max(used, 1)]) or 0)
        if covering:
            row.extra.append("Using where; Using index")
        else:
            row.extra.append("Using index condition" if icp else "Using where")
        return row
    # IS NULL finds every NULL of a unique key: not one row
    unique = (idx.unique or idx.name == "") and used >= len(idx.columns) and not any(
        isinstance(c, exp.Is) and isinstance(c.this, exp.Column) and
        c.this.name.lower() in {x.lower() for x in idx.columns} for c in mine)
    refs = _refs(t, where, idx.columns[:used], joined)
    row.ref = ",".join(refs)
    row.not_null = _nullable_refs(t, where, idx.columns[:used], local)
    if unique and all(x == "const" for x in refs):
        row.type = "const"
        row.rows = 1
    elif unique:
        row.type = "eq_ref"
        row.rows = 1
    else:
        row.type = "ref"
        row.rows = max(1, _matching(s, t, mine, idx.columns[:used]) or 0) \
            if all(x == "const" for x in refs) else 1
    rest = [c for c in mine if not _key_condition(c, idx.columns[:used], tdef)]
    if rest and row.type != "const":
        # what the lookup does not settle is checked on the row, or on the index entry
        # first (index condition pushdown) when it reads only the key's columns
        keyed = {x.lower() for x in idx.columns}
        pushed = icp and not covering and all(_columns_of(c) <= keyed for c in rest)
        row.extra.append("Using index condition" if pushed else "Using where")
    if covering:
        row.extra.append("Using index")
    return row


def _base_table(s: SqliteSession, name: str) -> _Table | None:
    db, _, table = name.rpartition(".")
    db = db or s.database or ""
    try:
        tdef = s.table_def(db, table)
    except Exception:  # noqa: BLE001 - not a table of ours: shown as SQLite names it
        return None
    if tdef is None or tdef.view is not None:
        return None
    return _Table(table, db, table, tdef, all_columns=True)


def _merged(s: SqliteSession, parts: list[_Row],
            conditions: list[tuple[exp.Expression, str | None]]) -> _Row:
    """SQLite's MULTI-INDEX OR (a lookup per OR branch, rowids merged): over one index
    MariaDB's `range` of several intervals, over several its index_merge sort_union."""
    row = parts[0]
    t = row.source
    keys = list(dict.fromkeys(p.key for p in parts if p.key))
    if t is None or not keys:
        return row
    mine = [c for c, _owner in conditions if _refers(c, t, True)]
    tdef = t.tdef
    rows = _matching(s, t, mine, [c.name for c in tdef.columns]) if tdef is not None else None
    row.rows = max(1, rows or 0)
    row.ref = None
    possible = [p for p in (row.possible_keys or "").split(",") if p]
    for k in keys:
        if k not in possible:
            possible.append(k)
    row.possible_keys = ",".join(possible)
    covering = all("Using index" in "; ".join(p.extra).replace("Using index condition", "")
                   for p in parts)
    if len(keys) == 1:
        row.type = "range"
        row.key_len = str(max(int(p.key_len or 0) for p in parts))
        row.extra = ["Using where; Using index"] if covering else ["Using index condition"]
        return row
    row.type = "index_merge"
    lengths = {p.key: p.key_len for p in parts}
    row.key = ",".join(keys)
    row.key_len = ",".join(str(lengths[k]) for k in keys)
    row.extra = [f"Using sort_union({row.key})", "Using where"]
    return row


def _primary(tdef: TableDef) -> IndexDef | None:
    if not tdef.primary:
        return None
    return IndexDef("", True, list(tdef.primary))


def _index(tdef: TableDef, using: str | None, name: str | None) -> IndexDef | None:
    """The MariaDB index behind SQLite's: `<table>.<index>` (catalog.py), an autoindex or the
    INTEGER PRIMARY KEY (the primary key, named '' here: PRIMARY)."""
    if using is None:
        return None
    if using == "INTEGER PRIMARY KEY":
        return _primary(tdef)
    if name is None or using.startswith("AUTOMATIC") or using == "ROWID SEARCH":
        return None
    if name.startswith("sqlite_autoindex_"):
        return _primary(tdef)
    short = name.split(".", 1)[1] if "." in name else name
    for idx in tdef.indexes:
        if idx.name.lower() == short.lower():
            return idx
    return None


def _wanted(t: _Table) -> set[str]:
    """The columns (lower case) the statement reads of a table."""
    tdef = t.tdef
    return {c.name.lower() for c in tdef.columns} if t.all_columns and tdef is not None \
        else t.columns


def _searched(t: _Table) -> bool:
    """Does a MATCH ... AGAINST of the table's select read its columns (MariaDB's
    fulltext_searched: such a table is never read as a const table)?"""
    if t.select is None or t.tdef is None:
        return False
    for match in t.select.find_all(exp.MatchAgainst):
        for col in match.expressions:
            if isinstance(col, exp.Column) and t.tdef.column(col.name) is not None and \
                    (not col.table or col.table.lower() == t.shown.lower()):
                return True
    return False


def _fulltext_key(tdef: TableDef, conds: list[exp.Expression]) -> IndexDef | None:
    """The FULLTEXT key a condition's MATCH (its columns) AGAINST (...) reads: the MATCH
    alone, or compared so that only rows of a relevance above 0 qualify (`> 0`, `>= 1`,
    not `>= 0`)."""
    for c in conds:
        match = None
        if isinstance(c, exp.MatchAgainst):
            match = c
        elif isinstance(c, (exp.GT, exp.GTE, exp.LT, exp.LTE)):
            left, right = c.this, c.expression
            if isinstance(right, exp.MatchAgainst):  # 0 < MATCH: MATCH > 0
                left, right = right, left
                c = {exp.LT: exp.GT, exp.LTE: exp.GTE, exp.GT: exp.LT,
                     exp.GTE: exp.LTE}[type(c)](this=left, expression=right)
            if isinstance(left, exp.MatchAgainst) and isinstance(right, exp.Literal) and \
                    not right.is_string:
                bound = float(right.this)
                if isinstance(c, exp.GT) and bound >= 0 or isinstance(c, exp.GTE) and bound > 0:
                    match = left
        if match is None:
            continue
        names = [x.name.lower() for x in match.expressions if isinstance(x, exp.Column)]
        for idx in tdef.indexes:
            if idx.kind == "FULLTEXT" and sorted(c.lower() for c in idx.columns) == \
                    sorted(names):
                return idx
    return None


def _ignored_for_order(t: _Table, idx: IndexDef) -> bool:
    """Do the table's index hints take `idx` away from ORDER BY (`IGNORE INDEX [FOR ORDER
    BY] (idx)`, or `USE` / `FORCE INDEX [FOR ORDER BY]` of other indexes)?"""
    name = idx.name.lower() or "primary"
    for hint in (t.node.args.get("hints") or []) if t.node is not None else []:
        if not isinstance(hint, exp.IndexTableHint):
            continue
        target = str(hint.args.get("target") or "").upper()
        if target and target != "ORDER BY":
            continue
        names = {e.name.lower() for e in hint.expressions}
        if (name in names) == (str(hint.this).upper() == "IGNORE"):
            return True
    return False


def _covers(t: _Table, idx: IndexDef) -> bool:
    """Does MariaDB read the statement's columns of `t` from `idx` alone (keyread)? A
    secondary key of InnoDB holds the primary key's columns too."""
    tdef = t.tdef
    if tdef is None or idx.kind or any(p is not None for p in idx.prefixes):
        return False
    from rampmeter.engine.sqlite import keyinfo
    if idx.name and keyinfo.is_hash(tdef, idx) or idx.name == "" and keyinfo.is_memory(tdef):
        return False
    held = {c.lower() for c in idx.columns}
    if tdef.engine.upper() == "INNODB":
        held |= {c.lower() for c in tdef.primary}
    return _wanted(t) <= held


def _covering_key(t: _Table) -> IndexDef | None:
    """A table scan where a key holds every column the statement reads is MariaDB's scan
    of that key (`index`, keyread): the shortest such key, the first of equal ones in
    MariaDB's key order (find_shortest_key). Not a prefix part, a FULLTEXT / SPATIAL key
    or a MEMORY table's hash key, which hold no whole value."""
    from rampmeter.engine.sqlite import keyinfo
    tdef = t.tdef
    if tdef is None or tdef.view is not None:
        return None
    from rampmeter.engine.sqlite.covering import _allowed
    allowed = _allowed(t.node) if t.node is not None else (lambda name: True)
    keys = ([_primary(tdef)] if tdef.primary else []) + \
        sorted(tdef.indexes, key=lambda i: keyinfo.sort_key(tdef, i))
    # InnoDB: the clustered primary key is scanned only when no other key covers
    clustered = tdef.engine.upper() == "INNODB" and bool(tdef.primary)
    best: IndexDef | None = None
    length = 0
    primary: IndexDef | None = None
    for idx in keys:
        if idx is None or not allowed(idx.name.lower() or "primary") or not _covers(t, idx):
            continue
        if clustered and idx.name == "":
            primary = idx
            continue
        n = key_length(tdef, idx)
        if best is None or n < length:
            best, length = idx, n
    if primary is not None and (best is None or len(best.columns) >= len(tdef.columns)):
        return primary
    return best


def _possible_keys(tdef: TableDef, conds: list[exp.Expression]) -> list[str]:
    """Indexes whose first column a condition compares with a value: those MariaDB's range
    and ref analysis considers."""
    first: set[str] = set()
    for c in conds:
        for node in c.walk():
            if isinstance(node, (exp.EQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.NullSafeEQ)):
                for side, other in ((node.this, node.expression), (node.expression, node.this)):
                    if isinstance(side, exp.Column) and tdef.column(side.name) is not None and \
                            not (isinstance(other, exp.Column) and other.name == side.name):
                        first.add(side.name.lower())
            elif isinstance(node, (exp.In, exp.Between, exp.Is)) and \
                    isinstance(node.this, exp.Column):
                first.add(node.this.name.lower())
            elif isinstance(node, exp.Like) and isinstance(node.this, exp.Column) and \
                    isinstance(node.expression, exp.Literal) and \
                    node.expression.is_string and not node.expression.this.startswith(("%", "_")):
                first.add(node.this.name.lower())
    out: list[str] = []
    if tdef.primary and tdef.primary[0].lower() in first:
        out.append("PRIMARY")
    out.extend(idx.name for idx in tdef.indexes
               if not idx.kind and idx.columns and idx.columns[0].lower() in first)
    return out


def _key_condition(cond: exp.Expression, columns: list[str], tdef: TableDef) -> bool:
    """Does the key lookup settle `cond`? An equality on a key part does, unless the part
    is text of a collation where equal is not identical ('a' = 'A ', MariaDB checks it
    again), a BINARY / VARBINARY compared with a constant (MariaDB's test_if_ref keeps
    every CHAR / VARCHAR field's test "to check for end spaces"), or the test is IS NULL
    (MariaDB keeps it)."""
    low = {c.lower() for c in columns}
    if isinstance(cond, (exp.EQ, exp.NullSafeEQ)):
        for side, other in ((cond.this, cond.expression), (cond.expression, cond.this)):
            if isinstance(side, exp.Column) and side.name.lower() in low:
                c = tdef.column(side.name)
                if c is not None and c.type.name in ("binary", "varbinary") and \
                        not isinstance(other, exp.Column):
                    return False  # a binary string against a constant: kept too (test_if_ref)
                return c is None or not (c.type.is_text and c.type.collation != "binary")
    return False


def _refs(t: _Table, where: list[exp.Expression], columns: list[str],
          joined: bool) -> list[str]:
    """MariaDB's `ref`: per key part, `const`, the other table's column (`db.t.c`), or
    `func`."""
    out = []
    for name in columns:
        ref = "const"
        for c in where:
            if not isinstance(c, (exp.EQ, exp.NullSafeEQ)):
                continue
            for side, other in ((c.this, c.expression), (c.expression, c.this)):
                if isinstance(side, exp.Column) and side.name.lower() == name.lower() and \
                        (not side.table or side.table.lower() == t.shown.lower()):
                    if isinstance(other, exp.Column) and other.table and \
                            other.table.lower() != t.shown.lower():
                        ref = f"{t.db}.{other.table}.{other.name}"
                    elif not _constant(other):
                        ref = "func"
        out.append(ref)
    return out


def _nullable_refs(t: _Table, where: list[exp.Expression], columns: list[str],
                   tables: list[_Table]) -> set[str]:
    """The other tables (shown names, lower case) whose NULL-able columns a key part is
    compared with by `=` (not `<=>`): MariaDB's null_rejecting key parts."""
    low = {c.lower() for c in columns}
    out: set[str] = set()
    for c in where:
        if not isinstance(c, exp.EQ):
            continue
        for side, other in ((c.this, c.expression), (c.expression, c.this)):
            if not (isinstance(side, exp.Column) and side.name.lower() in low and
                    (not side.table or side.table.lower() == t.shown.lower()) and
                    isinstance(other, exp.Column) and other.table and
                    other.table.lower() != t.shown.lower()):
                continue
            source = _find(tables, other.table)
            col = source.tdef.column(other.name) \
                if source is not None and source.tdef is not None else None
            if col is not None and col.nullable:
                out.add(source.shown.lower())
    return out


def _count(s: SqliteSession, t: _Table) -> int | None:
    try:
        schema = s.schema(t.db)
        stored = s.find_table(schema, t.name)
        if stored is None:
            return None
        got = s.handle.execute(f'SELECT count(*) FROM "{schema}"."{stored}"').fetchone()
        return int(got[0]) if got else None
    except Exception:  # noqa: BLE001 - a table SQLite cannot count here: no estimate
        return None


def _matching(s: SqliteSession, t: _Table, conds: list[exp.Expression],
              columns: list[str]) -> int | None:
    """Rows the key's conditions select (MyISAM's records_in_range is exact for a small
    table): the conditions on the key's columns alone, counted."""
    low = {c.lower() for c in columns}
    keyed = [c for c in conds if _columns_of(c) and _columns_of(c) <= low and
             not any(True for _ in c.find_all(exp.Subquery))]
    if not keyed:
        return _count(s, t)
    text = "SELECT count(*) FROM " + exp.table_(t.name, db=t.db, quoted=True).sql("mysql") + \
        (" AS " + exp.to_identifier(t.shown, quoted=True).sql("mysql")) + " WHERE " + \
        " AND ".join("(" + c.sql("mysql") + ")" for c in keyed)
    got = _run(s, text)
    return int(got[0][0]) if got else None


def _run(s: SqliteSession, text: str) -> list[tuple[Any, ...]] | None:
    from rampmeter.engine.sqlite.dml import bind
    try:
        stmt = s.scan(text)
        plan = s.plan(stmt)
        s.make_visible(plan)
        return s.handle.execute(plan.sql, {**bind(stmt, []), **plan.fixed}).fetchall()
    except Exception:  # noqa: BLE001 - not countable here: no estimate
        return None


def _system_tables(s: SqliteSession, rows: list[_Row]) -> list[_Row]:
    """In a statement of several tables, one of an exact-count engine holding one row is a
    `system` table, read first, so listed first in its select (not the inner table of an
    outer join: that one depends on the tables before it). An empty one is `system` too
    as an outer join's inner table (`Const row not found`, filtered 0.00), and in an inner
    join of several makes its select `Impossible WHERE noticed after reading const
    tables`. Temporary table and filesort are then the first other table's."""
    impossible: set[int | None] = set()
    per_select: dict[int | None, int] = {}
    for row in rows:
        if row.table is not None:
            per_select[row.id] = per_select.get(row.id, 0) + 1
    for row in rows:
        t = row.source
        if t is None or t.tdef is None or t.tdef.engine.upper() not in EXACT_COUNT_ENGINES \
                or _searched(t):
            continue
        count = row.rows if row.type in ("ALL", "index") else _count(s, t)
        if count == 1 and not row.outer_inner or count == 0 and row.outer_inner:
            row.type, row.key, row.key_len, row.ref = "system", None, None, None
            row.rows = count
            row.extra = [w for w in row.extra if w in ("Using temporary", "Using filesort")]
            if count == 0:
                row.extra.insert(0, "Const row not found")
                row.zero_filtered = True
        elif count == 0 and per_select.get(row.id, 0) > 1:
            impossible.add(row.id)
    out: list[_Row] = []
    for row in rows:
        if row.id in impossible and row.id is not None:
            if not any(r.id == row.id for r in out):
                out.append(_Row(row.id, row.select_type, None, filtered=False, extra=[
                    "Impossible WHERE noticed after reading const tables"]))
            continue
        out.append(row)
    first = {id(r): k for k, r in enumerate(out)}
    out.sort(key=lambda r: (r.id is None, r.id or 0, r.type != "system", first[id(r)]))
    _sorting_after_const(out)
    return out


def _sorting_after_const(rows: list[_Row]) -> None:
    """With tables read before planning, a select's temporary table is said on its first
    table (a const one too), with the filesort of it; a filesort alone sorts the first
    table that is not const. Sorting one such table by the ORDER BY needs no temporary
    table."""
    words = ("Using temporary", "Using filesort")
    ids = dict.fromkeys(r.id for r in rows if r.table is not None)
    for select_id in ids:
        mine = [r for r in rows if r.id == select_id and r.table is not None]
        rest = [r for r in mine if r.type not in ("system", "const")]
        if len(rest) == len(mine) or not rest:
            continue
        moved = {w for r in mine for w in r.extra if w in words}
        order_temp = any(r.order_temp for r in mine)
        for r in mine:
            r.extra = [w for w in r.extra if w not in words]
        if len(rest) == 1 and order_temp:
            moved.discard("Using temporary")
        head = mine[0] if "Using temporary" in moved else rest[0]
        head.extra += [w for w in words if w in moved]


def _const_tables(s: SqliteSession, tree: exp.Select, t: _Table, rows: list[_Row]) -> list[_Row]:
    """A one-table query whose table is read before planning (system, const): MariaDB
    reads it then, and a WHERE no row meets makes the plan `Impossible WHERE ...`."""
    main = [r for r in rows if r.table == t.shown and r.id == 1]
    if len(main) != 1 or t.tdef is None:
        return rows
    row = main[0]
    if _searched(t):
        return rows  # a table MATCH ... AGAINST searches is never a const table
    count = row.rows if row.type in ("ALL", "index") else _count(s, t)
    system = t.tdef.engine.upper() in EXACT_COUNT_ENGINES and count is not None and count <= 1
    if not system and row.type != "const":
        return rows
    where = tree.args.get("where")
    impossible = _Row(1, row.select_type, None, filtered=False,
                      extra=["Impossible WHERE noticed after reading const tables"])
    if where is not None:
        probe = exp.select("1").from_(exp.Table(
            this=exp.to_identifier(t.name, quoted=True), db=exp.to_identifier(t.db, quoted=True),
            alias=exp.TableAlias(this=exp.to_identifier(t.shown, quoted=True))))
        probe = probe.where(where.this.copy()).limit(1)
        got = _run(s, probe.sql("mysql"))
        if got is not None and not got:
            return [impossible if r is row else r for r in rows]
    elif row.type == "const" and count == 0:
        return [impossible if r is row else r for r in rows]
    if system:
        row.type = "system"
        row.possible_keys = row.key = row.key_len = row.ref = None
        row.rows = count
        row.extra = [] if count else ["Const row not found"]
    return rows


def _note(s: SqliteSession, inner: Statement, plan: Any, bound: dict[str, Any],
          database: str, const: tuple[_Table, bool, bool] | None = None, *,
          impossible: bool = False, empty: list[_Table] | None = None) -> str | None:
    """Note 1003: the statement as MariaDB prints it after parsing; with a table read
    before planning (`const`: the table, is it a system table, was no row found), its
    columns are the row's values, the WHERE it decided 1 (0), and a system table is
    `dual`; an outer join's inner table read before planning and found empty (`empty`)
    is left out, its columns NULL."""
    from rampmeter.engine.sqlite import sqltext
    if inner.kind not in ("SELECT", "WITH") or plan.outputs is None:
        return None
    try:
        cur = s.handle.execute(f"SELECT * FROM ({plan.sql}) LIMIT 0", bound)
        found = [d[0] for d in cur.description or ()]
        names = sqltext.result_names(plan, inner, found)
        tree = None
        if const is not None:
            tree = _substituted(s, sqltext._parse(inner.text, inner), *const)
        elif impossible:  # a constant WHERE found false: printed as 0
            tree = sqltext._parse(inner.text, inner)
            tree.set("where", exp.Where(this=exp.Literal.number(0)))
        elif empty:
            tree = _without(sqltext._parse(inner.text, inner), empty)
        text = sqltext.query_text(s, inner, database, names, tree)
        if "ANSI_QUOTES" in s.sql_mode().upper().split(","):
            from rampmeter.engine.sqlite.showmode import ansi_quoted
            text = ansi_quoted(text)  # identifiers quoted as the session's sql_mode says
        return text
    except Exception:  # noqa: BLE001 - text the printer cannot read: no note
        return None


def _without(tree: exp.Expression, empty: list[_Table]) -> exp.Expression | None:
    """The query without the LEFT JOINs of `empty` tables, their columns NULL (None: a
    shape this does not rewrite)."""
    if not isinstance(tree, exp.Select) or any(True for _ in tree.find_all(exp.Star)):
        return None
    names = {t.shown.lower() for t in empty}
    joins = tree.args.get("joins") or []
    kept = [j for j in joins if not (
        isinstance(j.this, exp.Table) and j.this.alias_or_name.lower() in names and
        str(j.args.get("side") or "").upper() == "LEFT")]
    if len(kept) == len(joins):
        return None
    tree = tree.copy()
    tree.set("joins", [j.copy() for j in kept])
    for col in list(tree.find_all(exp.Column)):
        if col.table and col.table.lower() in names:
            col.replace(exp.Null())
        elif not col.table and any(t.tdef is not None and t.tdef.column(col.name) is not None
                                   for t in empty):
            return None  # (whose column it is: not settled here)
    return tree


def _substituted(s: SqliteSession, tree: exp.Expression, t: _Table, system: bool,
                 missing: bool) -> exp.Expression | None:
    """The query with a const table's columns replaced by the values of its row."""
    from rampmeter.engine.sqlite import sqltext
    tdef = t.tdef
    if tdef is None or not isinstance(tree, exp.Select):
        return None
    items: list[exp.Expression] = []
    for item in tree.expressions:  # `*` as the columns it names (the printer's AS names)
        if isinstance(item, exp.Star) or isinstance(item, exp.Column) and \
                isinstance(item.this, exp.Star):
            items.extend(exp.column(c.name, table=t.shown, quoted=True) for c in tdef.columns)
        else:
            items.append(item)
    if any(True for _ in tree.find_all(exp.Star)) and \
            any(isinstance(x, exp.Star) for item in items for x in item.walk()):
        return None
    values: dict[str, Any] = {}
    if not missing:
        probe = exp.select(*[exp.column(c.name, quoted=True) for c in tdef.columns]).from_(
            exp.Table(this=exp.to_identifier(t.name, quoted=True),
                      db=exp.to_identifier(t.db, quoted=True),
                      alias=exp.TableAlias(this=exp.to_identifier(t.shown, quoted=True))))
        where = tree.args.get("where")
        if where is not None:
            probe = probe.where(where.this.copy())
        got = _run(s, probe.limit(1).sql("mysql"))
        if not got:
            return None
        values = {c.name.lower(): v for c, v in zip(tdef.columns, got[0])}
    tree = tree.copy()
    tree.set("expressions", [x.copy() for x in items])
    # NOT is turned over as MariaDB's parser does, before the values replace the columns
    tree = tree.transform(lambda n: sqltext.negate(n.this) if isinstance(n, exp.Not) else n)
    for col in list(tree.find_all(exp.Column)):
        if isinstance(col.this, exp.Star) or col.table and col.table.lower() != t.shown.lower():
            continue
        c = tdef.column(col.name)
        parent = col.parent
        if c is None or isinstance(parent, exp.Anonymous) and \
                str(parent.this).upper() == "RM_DEFAULT_OF":  # default(col) stays
            if c is not None:
                col.replace(exp.column(c.name, table=t.shown, db=t.db, quoted=True))
            continue
        col.replace(_literal(values.get(c.name.lower()), c))
    if tree.args.get("where") is not None:
        tree.set("where", exp.Where(this=exp.Literal.number(0 if missing else 1)))
    if system:
        tree.set("from_" if "from_" in tree.args else "from", exp.From(this=exp.to_table("dual")))
    return tree


def _literal(value: Any, c: ColumnDef) -> exp.Expression:
    if value is None:
        return exp.Null()
    if c.type.is_numeric and not isinstance(value, (bytes, str)):
        return exp.Literal.number(str(value))
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    if c.type.is_numeric:
        return exp.Literal.number(str(value))
    return exp.Literal.string(str(value))
