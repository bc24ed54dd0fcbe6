"""CHECK constraints, enforced as MariaDB enforces them.

Rules:
- A table's constraints are its catalog's `TableDef.checks`, (name, MySQL expression); a
  column's own constraint carries its column's name. MariaDB checks every row an INSERT,
  REPLACE, INSERT ... ON DUPLICATE KEY UPDATE, UPDATE or LOAD DATA writes, the column
  constraints first (in column order), then the table's (in the order they were defined),
  and names the first that fails: 4025 "CONSTRAINT `t1.a` failed for `test`.`t1`" (a
  column's is `table.column`), SQLSTATE 23000. A constraint fails when its expression is
  FALSE; NULL passes (MDEV-13596).
- With IGNORE the row is skipped and the error is a warning; with `check_constraint_checks`
  off nothing is checked (dumps and ALTER use it).
- The check is a temp trigger per engine handle and table (BEFORE INSERT, BEFORE UPDATE), made
  on the first write after a schema change, as dml.ensure_triggers' counters are, so tables
  without constraints pay nothing and no SQLite table definition changes. Its body checks
  each constraint in turn and RAISEs MariaDB's text (errmap.py reads it as 4025): ABORT, or
  FAIL for a table declared with an engine MariaDB cannot roll back (MyISAM...), whose rows
  written before the failing one stay. Python runs only for a failing row (rm_ck_skip: IGNORE
  skips it with the warning) and, once per row, for check_constraint_checks (rm_ck_on).
- The expressions are the DML translator's: `SELECT 1 FROM db.t WHERE (expr)` translated as
  any query is (MariaDB's functions, comparisons, types), its literals written into the SQL
  (a trigger has no parameters), its columns read from NEW through a derived table named as
  the table. Translated once per handle and schema version.
- An AUTO_INCREMENT column narrower than SQLite's rowid (TINYINT...) gets an AFTER INSERT
  trigger too: a generated value past its type is MariaDB's 167 "Out of range value for
  column 'a' at row 1" (SQLSTATE 22003), in strict mode or not.
- ALTER TABLE verifies the rows already there against the new definition's constraints when
  it copies the table (`verify_rows`): the first failing row fails the statement; with ALTER
  IGNORE such rows are dropped, each with the warning.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from rampmeter.engine.sqlite import translate
from rampmeter.engine.sqlite.catalog import NON_TRANSACTIONAL, TableDef, lit, q
from rampmeter.engine.types import INTEGERS
from rampmeter.errors import ServerError, Warning_

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.handle import Handle
    from rampmeter.engine.sqlite.session import SqliteSession

ER_CONSTRAINT_FAILED = 4025
ER_DUP_CONSTRAINT_NAME = 1826


def register(handle: Handle, host: Any) -> None:
    """The functions the triggers call, on a handle, for its occupant (handles.py)."""

    def skip(message: str) -> int:
        """A row fails a constraint: skipped with the warning under IGNORE (1), else the
        trigger raises the error (0)."""
        s = host.session
        ex = s.current if s is not None else None
        if ex is not None and ex.ignore:
            s.warn(ER_CONSTRAINT_FAILED, message)
            return 1
        return 0

    handle.create_function("rm_ck_on", 0, lambda: 1 if checks_on(host.session) else 0)
    handle.create_function("rm_ck_skip", 1, skip)


def checks_on(s: SqliteSession | None) -> bool:
    if s is None:
        return True
    try:
        value = s.context.system_variable("check_constraint_checks")
    except ServerError:
        return True
    if isinstance(value, str):
        return value.upper() not in ("0", "OFF", "FALSE")
    return bool(value)


def named(checks: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Names for the unnamed ("") constraints of a table, as MariaDB makes them:
    CONSTRAINT_<n>, n counting up from 1 over every name taken in the table (a column's
    constraint takes its column's name; later ones count too). A name given twice is 1826."""
    taken = [n.lower() for n, _e in checks if n]
    if len(set(taken)) != len(taken):
        dup = next(n for n, _e in checks if n and taken.count(n.lower()) > 1)
        raise ServerError(ER_DUP_CONSTRAINT_NAME, message=f"Duplicate CHECK constraint name "
                          f"'{dup}'", sqlstate="HY000")
    out = []
    nr = 1
    for name, expr in checks:
        if not name:
            while f"constraint_{nr}" in taken:
                nr += 1
            name = f"CONSTRAINT_{nr}"
            taken.append(name.lower())
            nr += 1
        out.append((name, expr))
    return out


def after_dropping(checks: list[tuple[str, str]], dropped: list[str]
                   ) -> list[tuple[str, str]]:
    """ALTER TABLE ... DROP COLUMN: a table constraint on dropped columns only goes with
    them; one that also reads a column still there is 1054 "Unknown column 'b' in 'CHECK'"
    (MariaDB)."""
    from rampmeter.engine.sqlite import dialect

    gone = {d.lower() for d in dropped}
    out = []
    for name, expr in checks:
        try:
            used = {c.name.lower() for c in dialect.parse(expr).find_all(exp.Column)}
        except Exception:  # noqa: BLE001 - kept as it was when it cannot be read
            used = set()
        lost = used & gone
        if lost and used - gone:
            shown = next(d for d in dropped if d.lower() in lost)
            raise ServerError(1054, message=f"Unknown column '{shown}' in 'CHECK'",
                              sqlstate="42S22")
        if not lost:
            out.append((name, expr))
    return out


def renamed_column(expr: str, old: str, new: str) -> str:
    """A CHECK's text reading column `new` where it read `old` (ALTER TABLE ... RENAME COLUMN /
    CHANGE): names as tokens, a function of that name left alone."""
    from rampmeter.sql import lexer
    toks = [t for t in lexer.tokens(expr) if t.kind not in ("end", "comment")]
    out, pos = [], 0
    for k, t in enumerate(toks):
        if t.kind not in ("word", "qident") or lexer.ident_value(t.text).lower() != old.lower():
            continue
        if k + 1 < len(toks) and toks[k + 1].text == "(":
            continue
        out.append(expr[pos:t.start] + "`" + new.replace("`", "``") + "`")
        pos = t.end
    return "".join(out) + expr[pos:]


def known_columns(tdef: TableDef) -> None:
    """Every column a constraint reads is the table's: else 1054 "Unknown column 'b' in
    'CHECK'" (MariaDB, at CREATE TABLE and ALTER TABLE alike); and what a constraint may not
    read (`_refused`)."""
    from rampmeter.engine.sqlite import defaultfn, dialect

    have = {c.name.lower() for c in tdef.columns}
    trees = []
    for name, expr in tdef.checks:
        try:
            tree = dialect.parse(defaultfn.rewrite_text(expr))  # DEFAULT(col): a function
        except Exception:  # noqa: BLE001 - left for the translator to refuse as it does
            continue
        if tree.find(exp.Subquery, exp.Exists, exp.Select) is not None:
            raise ServerError(1970, message="CHECK does not support subqueries or stored "
                              "functions", sqlstate="42000")
        trees.append((name, tree))
    auto = tdef.auto_column
    for name, tree in trees:
        used = [c.name for c in tree.find_all(exp.Column)]
        missing = next((u for u in used if u and u.lower() not in have), None)
        if missing is not None:
            raise ServerError(1054, message=f"Unknown column '{missing}' in 'CHECK'",
                              sqlstate="42S22")
        refused = _refused(tree, auto.name if auto is not None else None)
        if refused is not None:
            what, owner = refused
            raise ServerError(1901, message=f"Function or expression '{what}' cannot be used "
                              f"in the CHECK clause of `{owner or name}`", sqlstate="HY000")


# What a CHECK constraint may not call (MariaDB's VCOL_IMPOSSIBLE and VCOL_NOT_STRICTLY_
# DETERMINISTIC functions, item_*.cc check_vcol_func_processor), by the name sqlglot gives
# them -> the name MariaDB's 1901 prints.
_CHECK_REFUSED = {
    "NOW": "current_timestamp", "CURRENT_TIMESTAMP": "current_timestamp",
    "LOCALTIME": "current_timestamp", "LOCALTIMESTAMP": "current_timestamp",
    "CURDATE": "curdate", "CURRENT_DATE": "curdate", "CURTIME": "curtime",
    "CURRENT_TIME": "curtime", "UTC_TIME": "utc_time", "UTC_DATE": "utc_date",
    "UTC_TIMESTAMP": "utc_timestamp", "SYSDATE": "sysdate", "RAND": "rand", "UUID": "uuid",
    "UUID_SHORT": "uuid_short", "SYS_GUID": "sys_guid", "USER": "user",
    "SESSION_USER": "user", "SYSTEM_USER": "user", "CURRENT_USER": "current_user",
    "CURRENT_ROLE": "current_role", "CURRENT_SCHEMA": "database", "DATABASE": "database",
    "SCHEMA": "database", "CONNECTION_ID": "connection_id", "FOUND_ROWS": "found_rows",
    "ROW_COUNT": "row_count", "LAST_INSERT_ID": "last_insert_id", "SLEEP": "sleep",
    "BENCHMARK": "benchmark", "GET_LOCK": "get_lock", "RELEASE_LOCK": "release_lock",
    "RELEASE_ALL_LOCKS": "release_all_locks", "IS_FREE_LOCK": "is_free_lock",
    "IS_USED_LOCK": "is_used_lock", "MASTER_POS_WAIT": "master_pos_wait",
    "MASTER_GTID_WAIT": "master_gtid_wait", "LOAD_FILE": "load_file", "NEXTVAL": "nextval",
    "LASTVAL": "lastval", "SETVAL": "setval", "RANDOM_BYTES": "random_bytes",
    "VERSION": "version", "CURRENT_VERSION": "version",
}


def _refused(tree: exp.Expression, auto: str | None) -> tuple[str, str | None] | None:
    """(what MariaDB's 1901 names, the name it names it in: the AUTO_INCREMENT column's own
    for that column, else None: the constraint's) for the first thing a CHECK may not read."""
    for node in tree.walk():
        if isinstance(node, exp.Column) and auto is not None and \
                node.name.lower() == auto.lower():
            return "AUTO_INCREMENT", auto
        if isinstance(node, exp.SessionParameter):
            return f"@@{node.name}", None
        if isinstance(node, exp.Parameter):
            return f"@{node.name}", None
        if isinstance(node, exp.Anonymous):
            name = node.name.upper()
        elif isinstance(node, exp.Func) and node.sql_names():
            name = node.sql_names()[0]
        else:
            continue
        if name == "UNIX_TIMESTAMP" and node.expressions:
            continue  # of a value: deterministic
        if name in _CHECK_REFUSED:
            return f"{_CHECK_REFUSED[name]}()", None
    return None


def message(database: str, table: str, name: str) -> str:
    return f"CONSTRAINT `{name}` failed for `{database}`.`{table}`"


def ordered(tdef: TableDef, shown: str) -> list[tuple[str, str]]:
    """(name as MariaDB reports it, expression): column constraints in column order, then the
    table's."""
    by_column = {n.lower(): e for n, e in tdef.checks if tdef.column_check(n)}
    out = [(f"{shown}.{c.name}", by_column[c.name.lower()]) for c in tdef.columns
           if c.name.lower() in by_column]
    return out + [(n, e) for n, e in tdef.checks if not tdef.column_check(n)]


# --- translation ------------------------------------------------------------------------------
def _bq(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def condition(s: SqliteSession, database: str, tdef: TableDef, expr: str,
              lookup: Callable[[str, str], TableDef | None] | None = None) -> str:
    """The SQLite text of one constraint over the table's columns (unqualified or qualified
    by the table's name), literals inlined."""
    from rampmeter.engine.sqlite.dml import bind

    stmt = s.scan(f"SELECT 1 FROM {_bq(database)}.{_bq(tdef.name)} WHERE ({expr})")
    settings = s.context.translation
    plan = translate.translate(stmt, database, lookup or s.table_def,
                               (settings[0], settings[1], translate.DEFAULT_SETTINGS[2]),
                               zone_shift=not s.time_zone().is_utc)
    values = bind(stmt, [])
    values.update(plan.fixed)
    sql = _inline(plan.sql, values)
    where = _top_level_where(sql)
    if where is None:
        raise ServerError(1235, "this CHECK expression")
    return sql[where:]


_NAME = re.compile(r":([A-Za-z_][A-Za-z0-9_]*)")


def _scan(sql: str) -> list[tuple[int, int, str]]:
    """The parts of `sql` outside quotes: (start, end, text)."""
    parts: list[tuple[int, int, str]] = []
    i = start = 0
    while i < len(sql):
        ch = sql[i]
        if ch in "'\"":
            parts.append((start, i, sql[start:i]))
            j = i + 1
            while j < len(sql):
                if sql[j] == ch:
                    if j + 1 < len(sql) and sql[j + 1] == ch:
                        j += 2
                        continue
                    break
                j += 1
            i = start = j + 1
            continue
        i += 1
    parts.append((start, len(sql), sql[start:]))
    return parts


def _inline(sql: str, values: dict[str, Any]) -> str:
    out = []
    last = 0
    for start, end, text in _scan(sql):
        for m in _NAME.finditer(text):
            if m.group(1) in values:
                out.append(sql[last:start + m.start()])
                out.append(lit(values[m.group(1)]))
                last = start + m.end()
        del end
    out.append(sql[last:])
    return "".join(out)


def _top_level_where(sql: str) -> int | None:
    """Where the condition after the statement's own WHERE starts."""
    at = top_level(sql, " WHERE ")
    return None if at is None else at + len(" WHERE ")


def top_level(sql: str, word: str) -> int | None:
    """Where `word` (with its spaces: ' WHERE ') first stands outside parentheses and string
    literals in translated SQL."""
    depth = 0
    for start, _end, text in _scan(sql):
        for k, ch in enumerate(text):
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif depth == 0 and text.startswith(word, k):
                return start + k
    return None


def _conditions(s: SqliteSession, database: str, tdef: TableDef, shown: str,
                lookup: Callable[[str, str], TableDef | None] | None = None
                ) -> list[tuple[str, str]]:
    """(message as an SQL literal, condition) of each constraint, in MariaDB's order."""
    return [(lit(message(database, shown, name)),
             condition(s, database, tdef, expr, lookup)) for name, expr in ordered(tdef, shown)]


def failing_case(s: SqliteSession, database: str, tdef: TableDef, shown: str,
                 lookup: Callable[[str, str], TableDef | None] | None = None) -> str:
    """CASE WHEN NOT (c1) THEN 'message 1' ... END: the first failing constraint's message,
    NULL when none fails."""
    whens = [f"WHEN NOT ({cond}) THEN {text}"
             for text, cond in _conditions(s, database, tdef, shown, lookup)]
    return "CASE " + " ".join(whens) + " END"


# --- enforcement on writes --------------------------------------------------------------------
def needs_triggers(tdef: TableDef) -> bool:
    """Does a write into this table need ensure()'s triggers (constraints, or an
    AUTO_INCREMENT column narrower than SQLite's rowid)?"""
    return bool(tdef.checks) or auto_limit(tdef) is not None


def auto_limit(tdef: TableDef) -> int | None:
    col = tdef.auto_column
    if col is None or col.type.name not in INTEGERS:
        return None
    top = col.type.int_range[1]
    return top if top < 2**63 - 1 else None


def ensure(s: SqliteSession, target: tuple[str, str]) -> None:
    """The temp triggers that check the rows written into `target` (module rules)."""
    db, table = target
    tdef = s.table_def(db, table)
    if tdef is None or not needs_triggers(tdef):
        return
    schema, stored = tdef.location or (db, table)
    version = s.engine.schema_version if tdef.location is None else -s.temp_version
    handle = s.handle
    keys = [(kind, schema.lower(), stored.lower()) for kind in ("cki", "cku", "ckai")]
    if all(handle.triggers.get(k) == version for k in keys):
        return
    # a table MariaDB cannot roll back keeps the rows written before the failing one (FAIL)
    action = "FAIL" if tdef.engine in NON_TRANSACTIONAL else "ABORT"
    row = ", ".join(f"NEW.{q(c.name)} AS {q(c.name)}" for c in tdef.columns)
    body = " ".join(
        f"SELECT CASE WHEN rm_ck_skip({text}) THEN RAISE(IGNORE) ELSE RAISE({action}, {text}) "
        f"END FROM (SELECT {row}) AS {q(tdef.name)} WHERE NOT ({cond});"
        for text, cond in _conditions(s, db, tdef, tdef.name))
    top = auto_limit(tdef)
    for key, event in zip(keys, ("INSERT", "UPDATE", "AUTO")):
        name = handle.trigger_name(key)
        handle.execute(f"DROP TRIGGER IF EXISTS temp.{q(name)}")
        if event == "AUTO" and top is not None:
            # a generated value past the column's type: MariaDB's HA_ERR_AUTOINC_ERANGE (167)
            col = tdef.auto_column
            assert col is not None
            text = lit(f"Out of range value for column '{col.name}' at row 1")
            # ABORT: the row is written already (a MyISAM table's rows before it go too)
            handle.execute(f"CREATE TEMP TRIGGER {q(name)} AFTER INSERT ON {q(schema)}."
                           f"{q(stored)} WHEN NEW.{q(col.name)} > {top} BEGIN SELECT "
                           f"RAISE(ABORT, {text}); END")
        elif event != "AUTO" and body:
            handle.execute(f"CREATE TEMP TRIGGER {q(name)} BEFORE {event} ON "
                           f"{q(schema)}.{q(stored)} WHEN rm_ck_on() BEGIN {body} END")
        handle.trigger_made(key, version)


# --- ALTER TABLE ----------------------------------------------------------------------------
def verify_rows(s: SqliteSession, schema: str, database: str, tdef: TableDef, shown: str, *,
                ignore: bool) -> list[Warning_]:
    """The rows of the rebuilt table `tdef` (stored under its own name in `schema`; `shown`:
    the name the client knows it by) against
    its constraints: 4025 for the first failing row, or with `ignore` each failing row
    deleted, with the warning returned."""
    if not tdef.checks or not checks_on(s):
        return []

    def lookup(db: str, table: str) -> TableDef | None:
        if db.lower() == database.lower() and table.lower() == tdef.name.lower():
            return tdef
        return s.table_def(db, table)

    case = failing_case(s, database, tdef, shown, lookup)
    table = f"{q(schema)}.{q(tdef.name)}"
    rows = s.handle.execute(f"SELECT rowid, m FROM (SELECT rowid, {case} AS m FROM {table} "
                            f"AS {q(tdef.name)}) WHERE m IS NOT NULL ORDER BY rowid"
                            ).fetchall()
    if rows and not ignore:
        raise ServerError(ER_CONSTRAINT_FAILED, message=rows[0][1], sqlstate="23000")
    for rowid, _text in rows:
        s.handle.execute(f"DELETE FROM {table} WHERE rowid = ?", (rowid,))
    return [Warning_("Warning", ER_CONSTRAINT_FAILED, text) for _r, text in rows]
