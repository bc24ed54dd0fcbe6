"""LOCK TABLES' list: which tables a session holding LOCK TABLES may use, and how (MariaDB's
"locked tables mode"). control.lock makes the list, session._run asks `check` before each
statement (and `after_drop` for the list a DROP TABLE leaves).

Rules (MariaDB 10.11's, each checked against it):
- LOCK TABLES names tables and views, each under an alias (its name by default) and READ
  (READ LOCAL) or WRITE (LOW_PRIORITY WRITE, WRITE CONCURRENT). A name that does not exist is
  1146, the same alias twice in a database 1066. A view locks the tables its query reads, under
  their own names, in the view's mode.
- Every table a DML statement names must match an entry of the list by database, name and
  alias, one entry per mention (`t1 JOIN t1 AS x` needs `t1` and `t1 AS x`; a subquery or
  UNION naming `t1` again needs a second entry): else 1100 naming the mention's alias. A table
  the statement writes (INSERT / REPLACE target, UPDATE's SET tables, DELETE's targets) must
  match a WRITE entry: else 1099, raised after every mention found an entry. Names compare
  case-insensitively, as rampmeter's lower_case_table_names=2 makes MariaDB compare them.
- Exempt: the session's temporary tables, information_schema and performance_schema (the
  session provides those), statements inside stored functions and triggers.
- Schema statements: CREATE TABLE's table must be in the list with WRITE (so a new table
  cannot be created: 1100), except CREATE TEMPORARY TABLE; LIKE's source and CREATE ... SELECT's
  query are read. DROP TABLE, TRUNCATE, ALTER TABLE, CREATE / DROP INDEX, CREATE TRIGGER's
  table and FLUSH TABLE(S) name need WRITE; FLUSH TABLES without names needs every base table
  entry WRITE. SHOW CREATE TABLE / VIEW need any entry. A view is no table for TRUNCATE: 1100.
  RENAME TABLE, CREATE / ALTER / DROP of views, databases, routines, events and FLUSH TABLES
  WITH READ LOCK are 1192. A dropped table leaves the list; a DROP that empties it ends LOCK
  TABLES.
- BEGIN / START TRANSACTION end LOCK TABLES (control.py); COMMIT and ROLLBACK keep it.
- A table of the `mysql` database the engine does not have (MariaDB's event, proc...) may be
  named; WRITE on one (a system table) with a table that is not one, or with a READ, is 1428. `WAIT n` / `NOWAIT` bound the wait.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from rampmeter import errors
from rampmeter.engine.sqlite.storage import VIRTUAL_SCHEMAS
from rampmeter.errors import ServerError
from rampmeter.sql.lexer import Dialect
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement, scan

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession


@dataclass(frozen=True, slots=True)
class Entry:
    """One table of the list (or a table a locked view reads)."""

    database: str
    name: str
    alias: str
    write: bool
    view: bool = False


@dataclass(frozen=True, slots=True)
class Mention:
    """One table a statement names: `alias` as written (what 1099 / 1100 name)."""

    database: str
    name: str
    alias: str
    write: bool = False
    view: Any = None           # the ViewDef when the name is a view


# --- LOCK TABLES ---------------------------------------------------------------------------------
_MODES = ("READ", "WRITE", "LOW_PRIORITY")
ER_WRONG_LOCK_OF_SYSTEM_TABLE = 1428
LOCK_WAIT_MAX = 31536000  # lock_wait_timeout's maximum


def parse(r: Reader) -> list[tuple[str | None, str, str, bool]]:
    """`tbl [[AS] alias] {READ [LOCAL] | [LOW_PRIORITY] WRITE [CONCURRENT]}, ...` after
    LOCK TABLE(S): (database, name, alias, write) each."""
    found = []
    while True:
        db, name = r.qualified_name()
        alias = name
        t = r.peek()
        if r.accept("AS") or t is not None and (t.kind == "qident" or t.kind == "word" and
                                                 t.text.upper() not in _MODES):
            alias = r.name()
        if r.accept("READ"):
            r.accept("LOCAL")
            write = False
        else:
            r.accept("LOW_PRIORITY")
            r.expect("WRITE")
            r.accept("CONCURRENT")
            write = True
        found.append((db, name, alias, write))
        if not r.accept(","):
            break
    if r.accept("WAIT"):  # the statement's lock wait timeout (see `wait`)
        r.integer()
    else:
        r.accept("NOWAIT")
    r.end()
    return found


def _system(db: str | None, name: str) -> bool:
    return db is not None and db.lower() == "mysql" and \
        name.lower() not in ("general_log", "slow_log")


def wait(r: Reader) -> float | None:
    """LOCK TABLES ... WAIT n | NOWAIT: how long this statement waits for the lock (n above
    MariaDB's 31536000 is cut to it, with its 1292 warning), None when not given."""
    toks = r.toks
    if len(toks) >= 2 and toks[-2].text.upper() == "WAIT" and toks[-1].text.isdigit():
        return float(toks[-1].text)
    if toks and toks[-1].text.upper() == "NOWAIT":
        return 0.0
    return None


def entries(s: SqliteSession, named: list[tuple[str | None, str, str, bool]]
            ) -> tuple[Entry, ...]:
    """The list of what `parse` read: 1046, 1066, 1146 as MariaDB."""
    found: list[Entry] = []
    seen: set[tuple[str, str]] = set()
    # MariaDB's lock_tables_check: WRITE on system tables (the mysql database's, not its log
    # tables) may not be mixed with other tables or lock types; several of them together may
    system = sum(1 for db, name, _a, write in named if write and _system(db or s.database, name))
    if 0 < system < len(named):
        raise ServerError(ER_WRONG_LOCK_OF_SYSTEM_TABLE, message="You can't combine "
                          "write-locking of system tables with other tables or lock types",
                          sqlstate="HY000")
    for db, name, alias, write in named:
        database = db or s.database
        if database is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        key = (database.lower(), alias.lower())
        if key in seen:
            raise ServerError(errors.ER_NONUNIQ_TABLE, alias)
        seen.add(key)
        found += _locked(s, database, name, alias, write)
    return tuple(found)


def _locked(s: SqliteSession, database: str, name: str, alias: str, write: bool,
            depth: int = 0) -> list[Entry]:
    if database.lower() in VIRTUAL_SCHEMAS:
        s.resolve_table(database, name)  # 1146 when absent
        return []
    tdef = s.table_def(database, name)
    if tdef is None and database.lower() == "mysql":
        # MariaDB's system tables (event, proc, time_zone...) that rampmeter keeps elsewhere
        return [Entry(database, name, alias, write)]
    if tdef is None:
        raise ServerError(errors.ER_NO_SUCH_TABLE, database, name)
    view = tdef.view
    if view is None:
        return [Entry(database, name, alias, write)]
    out = [Entry(database, name, alias, write, view=True)]
    if depth < 16:
        for m in _view_mentions(s, view):
            out += _locked(s, m.database, m.name, m.name, write, depth + 1)
    return out


def _view_mentions(s: SqliteSession, view: Any) -> list[Mention]:
    stmt = scan(view.text, Dialect.of(view.sql_mode))
    return dml_mentions(s, stmt, view.database)


# --- what a statement names ------------------------------------------------------------------------
def dml_mentions(s: SqliteSession, stmt: Statement, database: str | None) -> list[Mention]:
    """The tables a DML statement names, in the order it names them, with those it writes."""
    from rampmeter.engine.sqlite.translate import qualified
    from rampmeter.engine.sqlite.viewdml import ThroughView
    try:
        tree, tables, _infoschema = qualified(stmt, database, s.table_def, {})
    except ThroughView as e:  # run again rewritten onto the view's table (viewdml.py)
        v = e.view
        return [Mention(v.database, v.name, v.name, view=v)]
    by_alias = tables.by_alias
    skip: set[int] = set()
    views: dict[int, Mention] = {}
    for sub in tree.find_all(exp.Subquery):
        entry = by_alias.get(sub.alias.lower()) if sub.alias else None
        if entry is None or entry[2] is None or entry[2].view is None:
            continue
        views[id(sub)] = Mention(entry[0], entry[1], sub.alias, view=entry[2].view)
        skip.update(id(n) for n in sub.this.walk())
    written = _written(tree, skip)
    out: list[Mention] = []
    for node in tree.walk(bfs=False):
        if id(node) in skip:
            continue
        if id(node) in views:
            out.append(views[id(node)])
            continue
        if not isinstance(node, exp.Table) or not node.name or not node.args.get("db"):
            continue  # a CTE's name, DUAL
        alias = node.alias_or_name
        entry = by_alias.get(alias.lower())
        if entry is None or entry[0].lower() in VIRTUAL_SCHEMAS:
            continue
        db, name, tdef = entry
        if tdef is not None and tdef.location is not None:
            continue  # the session's temporary table
        out.append(Mention(db, name, alias, write=alias.lower() in written))
    return out


def _written(tree: exp.Expression, skip: set[int]) -> set[str]:
    """The aliases a DML statement writes; the nodes that only name a DELETE's targets go to
    `skip` (they are the FROM's tables, not mentions of their own)."""
    if isinstance(tree, exp.Insert):
        node = tree.this
        table = node.this if isinstance(node, exp.Schema) else node
        return {table.alias_or_name.lower()} if isinstance(table, exp.Table) else set()
    if isinstance(tree, exp.Update):
        target = tree.this
        default = target.alias_or_name if isinstance(target, exp.Table) else ""
        return {(eq.this.table or default).lower() for eq in tree.expressions
                if isinstance(eq, exp.EQ) and isinstance(eq.this, exp.Column)}
    if isinstance(tree, exp.Delete):
        named = tree.args.get("tables")
        if not named:
            target = tree.this
            return {target.alias_or_name.lower()} if isinstance(target, exp.Table) else set()
        out = set()
        for t in named:
            if isinstance(t, exp.Table):
                out.add(t.alias_or_name.lower())
                skip.update(id(n) for n in t.walk())
        return out
    return set()


# --- the check ---------------------------------------------------------------------------------
_REFUSED = frozenset({"VIEW", "DATABASE", "SCHEMA", "PROCEDURE", "FUNCTION", "EVENT",
                      "SERVER", "SEQUENCE", "PACKAGE"})


def check(s: SqliteSession, stmt: Statement, locked: tuple[Entry, ...]) -> None:
    """Raise what MariaDB raises when a session holding LOCK TABLES runs `stmt`."""
    _visit(s, stmt, _Check(locked))


def _visit(s: SqliteSession, stmt: Statement, sink: _Check) -> None:
    if stmt.is_dml:
        sink.use(dml_mentions(s, stmt, s.database))
        return
    handler = _BY_KIND.get(stmt.kind)
    if handler is not None and stmt.tokens:
        handler(s, Reader(stmt, 1), sink)


class _Check:
    """What a schema statement's tables are checked against: the session's list."""

    def __init__(self, locked: tuple[Entry, ...]) -> None:
        self.locked = locked

    def use(self, mentions: list[Mention], *, show: bool = False) -> None:
        match(self.locked, mentions)

    def refuse(self) -> None:
        raise ServerError(errors.ER_LOCK_OR_ACTIVE_TRANSACTION)


class _Collect(_Check):
    """The tables a statement of a session not under LOCK TABLES uses (`wait_for`)."""

    def __init__(self) -> None:
        super().__init__(())
        self.found: list[Mention] = []

    def use(self, mentions: list[Mention], *, show: bool = False) -> None:
        if not show:  # SHOW CREATE's metadata lock is compatible with LOCK TABLES' (MariaDB)
            self.found += mentions

    def refuse(self) -> None:
        pass


def wait_for(s: SqliteSession, stmt: Statement) -> None:
    """Another session holds LOCK TABLES: wait until none of the tables `stmt` reads is
    locked WRITE by another session, and none it writes (or alters) is locked at all, as its
    metadata locks wait in MariaDB (lock_wait_timeout, then 1205)."""
    if not stmt.kind or stmt.kind in ("LOCK", "UNLOCK", "SET", "CALL", "USE"):
        return  # a CALL's statements wait each for its own tables
    sink = _Collect()
    if stmt.kind == "DROP" and stmt.tokens and len(stmt.tokens) > 2 and \
            stmt.tokens[1].text.upper() in ("DATABASE", "SCHEMA"):
        r = Reader(stmt, 2)
        r.accept("IF", "EXISTS")
        name = r.name()
        s.txn.wait_for_tables([((name.lower(), "*"), True)], _lock_wait(s),
                              state="Waiting for schema metadata lock")
        return
    try:
        _visit(s, stmt, sink)
    except ServerError:
        return  # the statement's own error comes when it runs
    except Exception:  # noqa: BLE001 - text the statement's run reports as 1064
        return
    wants = []
    for m in sink.found:
        if m.database.lower() in VIRTUAL_SCHEMAS:
            continue
        wants.append(((m.database.lower(), m.name.lower()), m.write))
    if wants:
        s.txn.wait_for_tables(wants, _lock_wait(s))


def _lock_wait(s: SqliteSession) -> float:
    from rampmeter.engine.sqlite.ddl import _lock_wait_timeout
    return _lock_wait_timeout(s)


def match(locked: tuple[Entry, ...], mentions: list[Mention]) -> None:
    """Each mention takes an entry of its own, a WRITE one where it writes (module rules)."""
    used: set[int] = set()
    weak: Mention | None = None
    for m in mentions:
        best = -1
        for i, e in enumerate(locked):
            if i in used or not _same(e, m):
                continue
            if e.write or not m.write:
                best = i
                break
            if best < 0:
                best = i
        if best < 0:
            raise ServerError(errors.ER_TABLE_NOT_LOCKED, m.alias)
        used.add(best)
        if m.write and not locked[best].write and weak is None:
            weak = m
    if weak is not None:
        raise ServerError(errors.ER_TABLE_NOT_LOCKED_FOR_WRITE, weak.alias)


def _same(e: Entry, m: Mention) -> bool:
    return e.alias.lower() == m.alias.lower() and e.name.lower() == m.name.lower() and \
        e.database.lower() == m.database.lower()


def _names(s: SqliteSession, r: Reader, *, write: bool) -> list[Mention]:
    """a, db.b, ...: base tables (temporary ones left out)."""
    out = []
    while True:
        db, name = r.qualified_name()
        database = db or s.database
        if database is not None and not s.is_temporary(database, name):
            out.append(Mention(database, name, name, write=write))
        if not r.accept(","):
            return out


def _one(s: SqliteSession, r: Reader, *, write: bool) -> list[Mention]:
    db, name = r.qualified_name()
    database = db or s.database
    if database is None or s.is_temporary(database, name):
        return []
    return [Mention(database, name, name, write=write)]


def _create(s: SqliteSession, r: Reader, locked: _Check) -> None:
    r.accept("OR", "REPLACE")
    temporary = r.accept("TEMPORARY")
    if r.accept("TABLE"):
        r.accept("IF", "NOT", "EXISTS")
        found = [] if temporary else _one(s, r, write=True)
        if r.accept("LIKE") or r.accept("(", "LIKE"):
            found += _one(s, r, write=False)
        else:
            found += _query(s, r)
        locked.use(found)
        return
    r.accept_any("UNIQUE", "FULLTEXT", "SPATIAL")
    if r.accept("INDEX") or r.accept("TRIGGER"):
        while not r.done and not r.at("ON"):
            r.next()
        if r.accept("ON"):
            locked.use(_one(s, r, write=True))
        return
    _refuse_definitions(r, locked)


def _refuse_definitions(r: Reader, locked: _Check) -> None:
    """CREATE / ALTER / DROP of what is no table (after OR REPLACE, DEFINER=, ...): 1192."""
    while not r.done:
        word = r.next().text.upper()
        if word in _REFUSED:
            locked.refuse()
            return
        if word == "TABLE":
            return


def _query(s: SqliteSession, r: Reader) -> list[Mention]:
    """CREATE TABLE ... [AS] SELECT's query: what it reads."""
    toks = r.stmt.tokens or ()
    for i in range(r.i, len(toks)):
        if toks[i].kind == "word" and toks[i].text.upper() in ("SELECT", "WITH"):
            return dml_mentions(s, s.scan(r.stmt.text[toks[i].start:]), s.database)
    return []


def _drop(s: SqliteSession, r: Reader, locked: _Check) -> None:
    if r.accept("TEMPORARY"):
        return
    if r.accept_any("TABLE", "TABLES"):
        r.accept("IF", "EXISTS")
        locked.use(_names(s, r, write=True))
    elif r.accept("INDEX"):
        r.accept("IF", "EXISTS")
        r.name()
        if r.accept("ON"):
            locked.use(_one(s, r, write=True))
    elif r.peek_word() != "TRIGGER":
        _refuse_definitions(r, locked)


def _alter(s: SqliteSession, r: Reader, locked: _Check) -> None:
    r.accept("ONLINE")
    r.accept("IGNORE")
    if r.accept("TABLE"):
        r.accept("IF", "EXISTS")
        locked.use(_one(s, r, write=True))
    else:
        _refuse_definitions(r, locked)


def _truncate(s: SqliteSession, r: Reader, locked: _Check) -> None:
    r.accept("TABLE")
    if type(locked) is not _Check:
        locked.use(_one(s, r, write=True))
        return
    # a view is no table TRUNCATE can find in the list, locked or not
    match(tuple(e for e in locked.locked if not e.view), _one(s, r, write=True))


def _rename(s: SqliteSession, r: Reader, locked: _Check) -> None:
    if type(locked) is not _Check:  # another session's RENAME TABLE a TO b, c TO d
        r.accept_any("TABLE", "TABLES")
        found = _names_pairs(s, r)
        locked.use(found)
        return
    locked.refuse()


def _names_pairs(s: SqliteSession, r: Reader) -> list[Mention]:
    out = []
    while not r.done:
        out += _one(s, r, write=True)
        if not r.accept("TO"):
            break
        out += _one(s, r, write=True)
        if not r.accept(","):
            break
    return out


def _flush(s: SqliteSession, r: Reader, locked: _Check) -> None:
    r.accept_any("NO_WRITE_TO_BINLOG", "LOCAL")
    if not r.accept_any("TABLE", "TABLES"):
        return
    if r.done:
        weak = next((e for e in locked.locked if not e.write and not e.view), None)
        if weak is not None:
            raise ServerError(errors.ER_TABLE_NOT_LOCKED_FOR_WRITE, weak.alias)
        return
    if r.at("WITH") or r.at("FOR"):
        locked.refuse()
        return
    locked.use(_names(s, r, write=True))


def _show(s: SqliteSession, r: Reader, locked: _Check) -> None:
    if r.accept("CREATE") and r.accept_any("TABLE", "VIEW"):
        locked.use(_one(s, r, write=False), show=True)


_BY_KIND = {"CREATE": _create, "DROP": _drop, "ALTER": _alter, "TRUNCATE": _truncate,
            "RENAME": _rename, "FLUSH": _flush, "SHOW": _show}


def after_drop(s: SqliteSession, stmt: Statement,
               locked: tuple[Entry, ...]) -> tuple[Entry, ...] | None:
    """The list once `stmt` has run, when it is a DROP TABLE (a dropped table leaves the
    list); None for any other statement. Read before the statement runs, while a temporary
    table it drops can still be told from the base table of its name."""
    if stmt.kind != "DROP" or not stmt.tokens:
        return None
    r = Reader(stmt, 1)
    if r.accept("TEMPORARY") or not r.accept_any("TABLE", "TABLES"):
        return None
    r.accept("IF", "EXISTS")
    gone = {(m.database.lower(), m.name.lower()) for m in _names(s, r, write=True)}
    return tuple(e for e in locked if (e.database.lower(), e.name.lower()) not in gone)
