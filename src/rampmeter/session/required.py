"""What a statement routed to the engine needs, checked before the engine runs it
(privileges.py, "What a statement needs"; the statements the session answers itself check
their own needs where they are answered: admin.py, grantsql.py, usersql.py, show.py).

Rules:
- DML (SELECT, INSERT, REPLACE, UPDATE, DELETE, WITH, DO, and EXPLAIN of them): the tables and
  columns come from the engine's plan (EngineSession.access), so what is checked is exactly
  what runs.
- Schema statements, SHOW / DESCRIBE of tables, LOCK TABLES: the object names are read from
  the statement's tokens (sql/reader.py). A name without a database is in the current one;
  with no current database nothing is checked here and the engine answers 1046.
- A session's own temporary tables need no privilege (MariaDB checks nothing on them), except
  that creating a table of the same name is still CREATE on the database's table; a table read
  through an SQL SECURITY INVOKER view is checked for the reader, and a denial is the view's
  1356, as in MariaDB.
- The `mysql` database is the grant tables' mirror (mysqldb.py): their rows may be edited
  (then FLUSH PRIVILEGES), and they may be renamed, but not dropped, for every account, root
  included (grantedit.py says which write is refused with what).
- `read_only` (global): an account without READ_ONLY ADMIN may not write tables (DML that
  inserts, updates or deletes, DDL) other than its own temporary ones, nor START TRANSACTION
  READ WRITE: 1290, as in MariaDB.
- `check` costs a session whose checks are off (root, --skip-grant-tables) one attribute test
  and, for writes, a test for the word "mysql" in the statement.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.engine.base import TableAccess
from rampmeter.errors import ServerError
from rampmeter.session import explainpriv, grantedit
from rampmeter.session.mysqldb import TABLES as MIRROR_TABLES
from rampmeter.session.mysqldb import user_is_view
from rampmeter.session.privileges import P, denied_db, denied_table
from rampmeter.session.security import TableNeed
from rampmeter.sql import lexer
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session

MYSQL = "mysql"
_DML = frozenset({"SELECT", "INSERT", "REPLACE", "UPDATE", "DELETE", "WITH", "VALUES", "TABLE",
                  "DO"})
_WRITES = frozenset({"INSERT", "REPLACE", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER",
                     "RENAME", "TRUNCATE", "WITH", "LOCK", "OPTIMIZE", "REPAIR"})
_MENTIONS_MYSQL = re.compile(r"\bmysql\b", re.IGNORECASE)
_MAINTENANCE = {"ANALYZE": P.SELECT | P.INSERT, "OPTIMIZE": P.SELECT | P.INSERT,
                "REPAIR": P.SELECT | P.INSERT, "CHECK": P.SELECT, "CHECKSUM": P.SELECT}


def check(s: Session, stmt: Statement) -> None:
    """Raise the MySQL error MariaDB gives when the session may not run `stmt`."""
    sec = s.security
    kind = stmt.kind
    guard = kind in _WRITES and (s.database == MYSQL or _MENTIONS_MYSQL.search(stmt.shape))
    if not guard and (sec is None or sec.unchecked):
        return
    found = needs(s, stmt)
    if guard:
        for need in found:
            grantedit.refuse(need, kind, MIRROR_TABLES, lambda: _user_is_view(s))
    if sec is None or sec.unchecked:
        return
    engine = s.engine
    if kind in _WRITES and kind not in ("LOCK", "OPTIMIZE", "REPAIR") and \
            not sec.has(P.READ_ONLY_ADMIN) and _read_only(s):
        _refuse_if_writing(s, stmt, found)
    elif kind == "START" and "WRITE" in stmt.words and \
            not sec.has(P.READ_ONLY_ADMIN) and _read_only(s):
        # START TRANSACTION READ WRITE under read_only (MariaDB's trans_begin)
        raise ServerError(errors.ER_OPTION_PREVENTS_STATEMENT, "--read-only")
    multi = _multi_table(stmt) if kind in _MULTI_KINDS else None
    if multi is not None:
        _multi_precheck(s, multi, found)
    for need in found:
        if need.table:
            if not need.bits & P.CREATE and engine is not None and \
                    engine.is_temporary(need.db, need.table):
                continue  # the session's own temporary table: MariaDB checks nothing
            try:
                sec.check_table(need)
            except ServerError as exc:
                if need.via_view and exc.code in (1142, 1143):
                    raise _invalid_view(need.via_view) from None
                raise
        elif need.bits:
            sec.check_db(need.db, need.bits)
        elif not sec.may_see_db(need.db):
            raise denied_db(sec.priv_user, sec.priv_host, need.db)
    if kind in _EXPLAINS and explainpriv.explains_statement(stmt):
        explainpriv.check_views(s, found)  # 1345 (explainpriv.py)


def _user_is_view(s: Session) -> bool | None:
    engine = s.engine
    return True if engine is None else user_is_view(engine)


_EXPLAINS = frozenset({"EXPLAIN", "DESCRIBE", "DESC", "ANALYZE"})
_MULTI_KINDS = _EXPLAINS | {"UPDATE", "DELETE"}


def _multi_table(stmt: Statement) -> str | None:
    """"UPDATE" / "DELETE" for a multi-table UPDATE (a table list or a join before SET) or
    DELETE (DELETE t FROM ... or ... USING ...), also EXPLAINed; else None."""
    toks = stmt.tokens or lexer.tokens(stmt.text, stmt.dialect)  # DML carries none
    at = next((i for i, t in enumerate(toks[:8]) if t.is_word("UPDATE", "DELETE")), None)
    if at is None:
        return None
    verb = toks[at].upper
    depth = 0
    first = True
    for t in toks[at + 1:]:
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        if depth or t.text in ("(", ")"):
            continue
        if t.is_word("LOW_PRIORITY", "QUICK", "IGNORE"):
            continue
        if verb == "UPDATE":
            if t.is_word("SET"):
                return None
            if t.text == "," or t.is_word("JOIN"):
                return verb
        else:
            if first and not t.is_word("FROM"):
                return verb  # DELETE t1 [, t2] FROM ...
            if t.is_word("USING"):
                return verb
            if t.is_word("WHERE", "ORDER", "LIMIT", "RETURNING"):
                return None
        first = False
    return None


def _multi_precheck(s: Session, verb: str, found: list[TableNeed]) -> None:
    """MariaDB's multi_update_precheck / multi_delete_precheck, before the per-table checks:
    a multi-table UPDATE needs UPDATE or SELECT on every table it names, a multi-table DELETE
    SELECT on every table it names; else 1142 naming SELECT (mtr grant_explain_non_select)."""
    sec = s.security
    engine = s.engine
    assert sec is not None
    wanted = P.UPDATE | P.SELECT if verb == "UPDATE" else P.SELECT
    for need in found:
        if not need.table or need.via_view or engine is not None and \
                engine.is_temporary(need.db, need.table):
            continue
        if not sec.table_level_bits(need.db, need.table) & wanted:
            raise denied_table(P.SELECT, sec.priv_user, sec.host, need.db, need.table)


def refuse_under_read_only(s: Session) -> None:
    """1290 for a change to the schema (CREATE / DROP TRIGGER, answered by the stored-program
    package) or to accounts and grants (CREATE / ALTER / DROP / RENAME USER, roles, GRANT,
    REVOKE, SET PASSWORD: statements.py, usersql.py) by an account without READ_ONLY ADMIN
    while `read_only` is on."""
    sec = s.security
    if sec is not None and not sec.unchecked and not sec.has(P.READ_ONLY_ADMIN) and \
            _read_only(s):
        raise ServerError(errors.ER_OPTION_PREVENTS_STATEMENT, "--read-only")


def _read_only(s: Session) -> bool:
    value = s.system_variable("read_only", "global")
    return value not in (0, False, "0", "OFF") if not isinstance(value, str) else \
        value.upper() not in ("0", "OFF", "FALSE")


def _refuse_if_writing(s: Session, stmt: Statement, found: list[TableNeed]) -> None:
    """read_only: an account without READ_ONLY ADMIN may not change tables or databases, its
    own temporary tables excepted (1290)."""
    writes = P.INSERT | P.UPDATE | P.DELETE
    if stmt.kind in _DML:
        if not any(n.bits & writes or any(b & writes for b, _c in n.columns) for n in found):
            return
    elif any(t.text.upper() == "TEMPORARY" for t in stmt.tokens[:3]) or \
            stmt.kind != "CREATE" and found and all(
                n.table and s.engine is not None and s.engine.is_temporary(n.db, n.table)
                for n in found):
        return  # (CREATE TABLE t without TEMPORARY makes a base table, whatever t shadows)
    raise ServerError(errors.ER_OPTION_PREVENTS_STATEMENT, "--read-only")


def _invalid_view(name: str) -> ServerError:
    """MariaDB's answer when an SQL SECURITY INVOKER view reads what its reader may not."""
    return ServerError(1356, message=f"View '{name}' references invalid table(s) or column(s) "
                       "or function(s) or definer/invoker of view lack rights to use them",
                       sqlstate="HY000")


# --- needs ------------------------------------------------------------------------------------

def needs(s: Session, stmt: Statement) -> list[TableNeed]:
    kind = stmt.kind
    if kind in _DML or kind == "(":
        return dml_needs(s, stmt)
    handler = _BY_KIND.get(kind)
    if handler is None or not stmt.tokens:
        return []
    return list(handler(s, Reader(stmt, 1)))


def dml_needs(s: Session, stmt: Statement) -> list[TableNeed]:
    if s.engine is None:
        return []
    access = s.engine.access(stmt)
    cached = _NEEDS.get(id(access))
    if cached is not None and cached[0] is access:
        return cached[1]
    # a session's temporary tables are its own: MariaDB checks no privilege on them
    found = [_table_need(a) for a in access if not a.temporary]
    if len(_NEEDS) > 4096:
        _NEEDS.clear()
    _NEEDS[id(access)] = (access, found)
    return found


# The engine caches a shape's access tuple; its needs are kept beside it (by identity, the
# tuple held so that its id is not reused).
_NEEDS: dict[int, tuple[tuple[TableAccess, ...], list[TableNeed]]] = {}


def _table_need(a: TableAccess) -> TableNeed:
    bits = (P.SELECT if a.read else 0) | (P.INSERT if a.insert else 0) | \
        (P.UPDATE if a.update else 0) | (P.DELETE if a.delete else 0)
    columns: list[tuple[int, tuple[str, ...]]] = []
    if a.insert and a.columns_inserted:
        columns.append((P.INSERT, a.columns_inserted))
    if a.upsert:
        columns.append((P.UPDATE, tuple(dict.fromkeys(a.columns_inserted +
                                                      a.columns_updated))))
    elif a.columns_updated:
        columns.append((P.UPDATE, a.columns_updated))
    if a.columns_read:
        columns.append((P.SELECT, a.columns_read))
    return TableNeed(a.database, a.table, int(bits), tuple(columns), a.star,
                     via_view=a.via_view)


def _where(s: Session, db: str | None) -> str | None:
    return db or s.database


def _table(s: Session, r: Reader, bits: int, **kw: object) -> Iterator[TableNeed]:
    db, name = r.qualified_name()
    db = _where(s, db)
    if db is not None:
        yield TableNeed(db, name, bits, **kw)  # type: ignore[arg-type]


def _names_after(r: Reader) -> list[tuple[str | None, str]]:
    """a, db.b, c ...: the comma-separated table names that follow."""
    out = [r.qualified_name()]
    while r.accept(","):
        out.append(r.qualified_name())
    return out


def _sub_select(s: Session, stmt: Statement, start: int) -> list[TableNeed]:
    """The needs of the query that starts at token `start` (CREATE ... SELECT, a view)."""
    toks = stmt.tokens or ()
    depth = 0
    for i in range(start, len(toks)):
        if toks[i].text == "(":
            # `(SELECT ...)` at the top is the query; a subquery in a column's CHECK or
            # DEFAULT is not (CHECK refuses it: 1970, engine/sqlite/checks.py)
            query = i + 1 < len(toks) and toks[i + 1].kind == "word" and \
                toks[i + 1].text.upper() in ("SELECT", "WITH")
            depth += 0 if depth == 0 and query else 1
        elif toks[i].text == ")":
            depth = max(depth - 1, 0)
        elif depth == 0 and toks[i].kind == "word" and \
                toks[i].text.upper() in ("SELECT", "WITH"):
            text = stmt.text[toks[i].start:]
            return dml_needs(s, s.scan(text))
    return []


# --- schema statements -------------------------------------------------------------------------

def _create(s: Session, r: Reader) -> Iterator[TableNeed]:
    or_replace = r.accept("OR", "REPLACE")
    if r.accept_any("DATABASE", "SCHEMA"):
        r.accept("IF", "NOT", "EXISTS")
        yield TableNeed(r.name(), "", P.CREATE)
        return
    temporary = r.accept("TEMPORARY")
    if r.accept("TABLE"):
        r.accept("IF", "NOT", "EXISTS")
        db, name = r.qualified_name()
        db = _where(s, db)
        if db is None:
            return
        if temporary:
            yield TableNeed(db, "", P.CREATE_TMP)
        else:
            yield TableNeed(db, name, P.CREATE | (P.DROP if or_replace else 0))
            yield from _foreign_parents(s, r.stmt, r.i, db)
        if r.accept("LIKE") or r.accept("(", "LIKE"):
            yield from _table(s, r, 0, any_privilege=True)
            return
        subquery = _sub_select(s, r.stmt, r.i)
        if subquery and not temporary:
            yield TableNeed(db, name, P.INSERT)
        yield from subquery
        return
    r.accept_any("UNIQUE", "FULLTEXT", "SPATIAL")
    if r.accept("INDEX"):
        while not r.done and not r.at("ON"):
            r.next()
        if r.accept("ON"):
            yield from _table(s, r, P.INDEX)
        return
    yield from _view(s, r, or_replace)


def _view(s: Session, r: Reader, or_replace: bool) -> Iterator[TableNeed]:
    """CREATE [ALGORITHM=..] [DEFINER=..] [SQL SECURITY ..] VIEW v ... AS SELECT."""
    while not r.done and not r.at("VIEW"):
        r.next()
    if not r.accept("VIEW"):
        if s.database is not None:  # CREATE of something else: CREATE on the database
            yield TableNeed(s.database, "", P.CREATE)
        return
    r.accept("IF", "NOT", "EXISTS")
    db, name = r.qualified_name()
    db = _where(s, db)
    if db is None:
        return
    yield TableNeed(db, name, P.CREATE_VIEW | (P.DROP if or_replace else 0))
    reads = _sub_select(s, r.stmt, r.i)
    # MariaDB's create_view_precheck: first some privilege on each table the query names,
    # else 1142 naming the command "ANY"; then what the query itself needs
    for need in reads:
        if need.table:
            yield TableNeed(need.db, need.table, any_privilege=True, command="ANY")
    yield from reads
    _view_functions(s, r.stmt, r.i)


def _view_functions(s: Session, stmt: Statement, start: int) -> None:
    """EXECUTE on each stored function the view's query calls, as MariaDB checks it when it
    resolves the call (1370 naming the routine): `db.f(` always (a missing one too), `f(`
    when f is a stored function of the current database (else it is a built-in)."""
    sec, engine = s.security, s.engine
    if sec is None or sec.unchecked or not hasattr(engine, "routine_load"):
        return
    from rampmeter.session.sp import ddl
    toks = stmt.tokens or lexer.tokens(stmt.text, stmt.dialect)
    for i in range(start, len(toks) - 1):
        if toks[i + 1].text != "(" or not toks[i].is_name:
            continue
        qualified = i >= start + 2 and toks[i - 1].text == "." and toks[i - 2].is_name
        if not qualified and (i > start and toks[i - 1].text == "." or s.database is None):
            continue
        db = _ident(toks[i - 2]) if qualified else s.database
        name = _ident(toks[i])
        spec = engine.routine_load(db, "FUNCTION", name)  # type: ignore[union-attr]
        if spec is None and not qualified:
            continue
        ddl.require(s, db, P.EXECUTE, spec or {"db": db, "name": name, "definer": ""})


def _ident(t: lexer.Token) -> str:
    return lexer.ident_value(t.text) if t.kind == "qident" else t.text


def _drop(s: Session, r: Reader) -> Iterator[TableNeed]:
    if r.accept_any("DATABASE", "SCHEMA"):
        r.accept("IF", "EXISTS")
        yield TableNeed(r.name(), "", P.DROP)
        return
    temporary = r.accept("TEMPORARY")
    if r.accept_any("TABLE", "TABLES", "VIEW"):
        r.accept("IF", "EXISTS")
        if temporary:
            return  # a session's temporary tables are its own (MariaDB checks nothing)
        for db, name in _names_after(r):
            db = _where(s, db)
            if db is not None:
                yield TableNeed(db, name, P.DROP)
        return
    if r.accept("INDEX"):
        r.name()
        if r.accept("ON"):
            yield from _table(s, r, P.INDEX)
        return
    if s.database is not None:
        yield TableNeed(s.database, "", P.DROP)


def _alter(s: Session, r: Reader) -> Iterator[TableNeed]:
    r.accept("ONLINE")
    r.accept("IGNORE")
    if r.accept_any("DATABASE", "SCHEMA"):
        name = r.name() if not r.done and r.peek_word() not in (
            "CHARACTER", "CHARSET", "COLLATE", "DEFAULT", "COMMENT", "UPGRADE") else s.database
        if name is not None:
            yield TableNeed(name, "", P.ALTER)
        return
    if not r.accept("TABLE"):
        yield from _view(s, r, True)
        return
    db, name = r.qualified_name()
    db = _where(s, db)
    if db is None:
        return
    start = r.i
    new = _alter_rename_target(r)
    if new is None:
        yield TableNeed(db, name, P.ALTER)
        yield from _foreign_parents(s, r.stmt, start, db)
        return
    yield TableNeed(db, name, P.ALTER | P.DROP)
    new_db, new_name = new
    yield TableNeed(new_db or db, new_name, P.CREATE | P.INSERT)


def _foreign_parents(s: Session, stmt: Statement, start: int, db: str) -> Iterator[TableNeed]:
    """FOREIGN KEY ... REFERENCES [db.]t: REFERENCES on the parent table, granted on the table
    (a column grant will not do), whatever the engine does with the key (measured: MyISAM's
    too); a database name MariaDB's parser refuses is its 1102 first."""
    from rampmeter.session.names import check_database_name
    toks = stmt.tokens or lexer.tokens(stmt.text, stmt.dialect)
    foreign = False
    for i in range(start, len(toks) - 1):
        t = toks[i]
        if t.is_word("FOREIGN"):
            foreign = True
        elif foreign and t.is_word("REFERENCES") and toks[i + 1].is_name:
            foreign = False
            parent_db, parent = db, _ident(toks[i + 1])
            if i + 3 < len(toks) and toks[i + 2].text == "." and toks[i + 3].is_name:
                parent_db, parent = parent, _ident(toks[i + 3])
                check_database_name(s, parent_db)
            yield TableNeed(parent_db, parent, P.REFERENCES, table_level=True)


def _alter_rename_target(r: Reader) -> tuple[str | None, str] | None:
    """`RENAME [TO | AS] name` among ALTER TABLE's actions (not RENAME COLUMN / INDEX / KEY)."""
    depth = 0
    while not r.done:
        t = r.next()
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        elif depth == 0 and t.kind == "word" and t.text.upper() == "RENAME" and \
                r.peek_word() not in ("COLUMN", "INDEX", "KEY"):
            r.accept_any("TO", "AS")
            return r.qualified_name()
    return None


def _rename(s: Session, r: Reader) -> Iterator[TableNeed]:
    if not r.accept_any("TABLE", "TABLES"):
        return
    while True:
        db, old = r.qualified_name()
        r.expect("TO")
        new_db, new = r.qualified_name()
        db, new_db = _where(s, db), _where(s, new_db)
        if db is not None:
            yield TableNeed(db, old, P.ALTER | P.DROP)
        if new_db is not None:
            yield TableNeed(new_db, new, P.CREATE | P.INSERT)
        if not r.accept(","):
            return


def _truncate(s: Session, r: Reader) -> Iterator[TableNeed]:
    r.accept("TABLE")
    yield from _table(s, r, P.DROP)


def _maintenance(s: Session, r: Reader) -> Iterator[TableNeed]:
    if r.stmt.kind == "ANALYZE" and explainpriv.explains_statement(r.stmt):
        yield from _describe(s, r)  # ANALYZE SELECT ...: what EXPLAIN of it needs
        return
    bits = _MAINTENANCE[r.stmt.kind]
    r.accept_any("NO_WRITE_TO_BINLOG", "LOCAL")
    if not r.accept_any("TABLE", "TABLES"):
        return
    for db, name in _names_after(r):
        db = _where(s, db)
        if db is not None:
            if r.stmt.kind == "CHECK":  # any privilege on the table will do (MDEV-37971)
                yield TableNeed(db, name, any_privilege=True, command="CHECK TABLE")
            else:
                yield TableNeed(db, name, int(bits))


def _lock(s: Session, r: Reader) -> Iterator[TableNeed]:
    if not r.accept_any("TABLE", "TABLES"):
        return
    while not r.done:
        db, name = r.qualified_name()
        db = _where(s, db)
        if db is not None:
            yield TableNeed(db, "", P.LOCK_TABLES)
            yield TableNeed(db, name, P.SELECT)
        while not r.done and not r.at(","):
            r.next()
        r.accept(",")


def _handler(s: Session, r: Reader) -> Iterator[TableNeed]:
    """HANDLER tbl OPEN reads the table (SELECT); READ and CLOSE name the handler."""
    db, name = r.qualified_name()
    if r.accept("OPEN"):
        db = _where(s, db)
        if db is not None:
            yield TableNeed(db, name, P.SELECT)


# --- SHOW / DESCRIBE / EXPLAIN ------------------------------------------------------------------

def _show(s: Session, r: Reader) -> Iterator[TableNeed]:
    r.accept("FULL")
    r.accept("EXTENDED")
    r.accept("FULL")
    if r.accept("TABLES") or r.accept("TABLE", "STATUS"):
        db = r.name() if r.accept_any("FROM", "IN") else s.database
        if db is not None:
            yield TableNeed(db, "")
        return
    if r.accept_any("COLUMNS", "FIELDS", "INDEX", "INDEXES", "KEYS"):
        r.accept_any("FROM", "IN")
        db, name = r.qualified_name()
        if r.accept_any("FROM", "IN"):
            db = r.name()
        db = _where(s, db)
        if db is not None:
            yield TableNeed(db, name, any_privilege=True)
        return
    if r.accept("CREATE"):
        if r.accept("TABLE"):
            # MariaDB's SHOW_CREATE_TABLE_ACLS: a privilege on the table, not on a column
            yield from _table(s, r, 0, any_privilege=True, table_level=True, command="SHOW")
        elif r.accept("VIEW"):
            # SELECT and SHOW VIEW, SELECT checked first (measured: without either, 1142
            # names SELECT, a missing view too)
            for need in _table(s, r, P.SELECT):
                yield need
                yield TableNeed(need.db, need.table, P.SHOW_VIEW)
        elif r.accept_any("DATABASE", "SCHEMA"):
            r.accept("IF", "NOT", "EXISTS")
            yield TableNeed(r.name(), "")


def _describe(s: Session, r: Reader) -> Iterator[TableNeed]:
    if r.peek_word() in ("SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "WITH",
                         "EXTENDED", "PARTITIONS", "FORMAT", "ANALYZE") or r.at("("):
        if r.accept("FORMAT"):
            r.accept("=")
            r.next()
        r.accept_any("EXTENDED", "PARTITIONS", "ANALYZE")
        inner = s.scan(r.rest_text())
        if inner.is_dml:
            yield from dml_needs(s, inner)
        return
    yield from _table(s, r, 0, any_privilege=True)


_BY_KIND = {
    "CREATE": _create, "DROP": _drop, "ALTER": _alter, "RENAME": _rename,
    "TRUNCATE": _truncate, "ANALYZE": _maintenance, "OPTIMIZE": _maintenance,
    "REPAIR": _maintenance, "CHECK": _maintenance, "CHECKSUM": _maintenance, "LOCK": _lock,
    "SHOW": _show,
    "DESCRIBE": _describe, "DESC": _describe, "EXPLAIN": _describe, "HANDLER": _handler,
}
# Statement kinds routed to the engine that need no privilege: transaction control and the
# statements that only touch the session's own state. tests/unit check that every kind the
# engine answers is in one of these two tables, so no new statement runs unchecked.
NO_PRIVILEGE = frozenset({"BEGIN", "START", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE",
                          "UNLOCK", "XA", "HELP"})
CHECKED = frozenset(_BY_KIND) | _DML
