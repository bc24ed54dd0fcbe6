"""CREATE / DROP / SHOW of procedures and functions, and their catalog (engine storage).

Rules:
- A routine's spec (what the engine stores, engine/sqlite/routines.py) is the CREATE text and
  what SHOW, information_schema and mysql.proc print: name, type, database, definer, the
  parameter list and RETURNS as written, characteristics, sql_mode, character sets, times.
  The body is parsed (parse.py) before anything is stored: a syntax error is the CREATE's.
- Errors as MariaDB: 1304 exists (a Note with IF NOT EXISTS), 1305 does not exist (a Note with
  IF EXISTS), 1221 OR REPLACE with IF NOT EXISTS, 1046 no database, 1049 unknown database.
- SHOW CREATE prints MariaDB's canonical head (CREATE DEFINER=... PROCEDURE `name`(params)
  [RETURNS type], one characteristic per line) and the body as written.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import Result, ResultSet, UpdateCount
from rampmeter.engine.types import parse_type
from rampmeter.errors import ServerError, Warning_
from rampmeter.protocol.columns import text_column
from rampmeter.session.privileges import P as Priv
from rampmeter.session.sp import parse as P
from rampmeter.session.sp.tokens import Tokens
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement, syntax_error

if TYPE_CHECKING:
    from rampmeter.session.session import Session


def store(s: Session) -> Any:
    """The engine session's routine storage (SqliteSession); 1235 for an engine without."""
    eng = s.engine
    if eng is None or not hasattr(eng, "routine_load"):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "stored routines in this engine")
    return eng


def find(s: Session, db: str | None, kind: str, name: str) -> dict[str, Any] | None:
    database = db or s.database
    if database is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    return store(s).routine_load(database, kind, name)  # type: ignore[no-any-return]


def create(s: Session, stmt: Statement) -> Result:
    r, _body = P.routine(stmt.text, stmt.dialect)
    if r.kind == "FUNCTION":
        not_in_function(stmt.text[r.body_start:r.body_end], stmt.dialect, "function")
    if r.or_replace and r.if_not_exists:
        raise ServerError(1221, message="Incorrect usage of OR REPLACE and IF NOT EXISTS",
                          sqlstate="HY000")
    db = r.db or s.database
    if db is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    if r.kind == "FUNCTION" and not r.has_return:  # MariaDB's parser refuses it
        raise ServerError(1320, message=f"No RETURN found in FUNCTION {db}.{r.name}",
                          sqlstate="42000")
    require(s, db, Priv.CREATE_PROC)
    eng = store(s)
    if not eng.engine.database_exists(db):
        raise ServerError(errors.ER_BAD_DB_ERROR, db)
    if len(r.name) > 64:
        raise errors.too_long_ident(r.name)
    existing = eng.routine_load(db, r.kind, r.name)
    if existing is not None and not r.or_replace:
        if r.if_not_exists:
            return UpdateCount(warnings=[Warning_("Note", 1304,
                                                  f"{r.kind} {r.name} already exists")])
        raise ServerError(1304, message=f"{r.kind} {r.name} already exists", sqlstate="42000")
    now = dt.datetime.now().replace(microsecond=0).isoformat(sep=" ")
    try:
        returns = _canonical_type(s, r.returns) if r.kind == "FUNCTION" else ""
    except ValueError:
        # a type MariaDB's grammar has no place for after RETURNS (SERIAL, ROW(...)): 1064
        # from it on, as its parser says (it was an internal error)
        upper = stmt.text.upper()
        at = upper.find(r.returns.upper(), max(upper.find("RETURNS"), 0))
        raise syntax_error(stmt.text, max(at, 0)) from None
    spec = {
        "db": db, "name": r.name, "type": r.kind, "text": stmt.text,
        "body": stmt.text[r.body_start:r.body_end], "params": r.params_text,
        "returns": returns, "param_list": [[x.mode, x.name, x.type] for x in r.params], "definer": _definer(s, r.definer), "chars": r.chars,
        "sql_mode": str(s.system_variable("sql_mode") or ""),
        "created": now,
        "modified": now, "aggregate": r.aggregate,
        "charset_client": str(s.system_variable("character_set_client")),
        "collation_connection": str(s.system_variable("collation_connection")),
        "db_collation": _db_collation(s, db),
    }
    eng.routine_store(db, r.kind, r.name, spec)
    _automatic_grant(s, db, r.kind, r.name)
    return UpdateCount(warnings=_native_note(r.kind, r.name) +
                       definer_note(s, r.definer, spec["definer"]) + late_into(r.late_into))


def _automatic_grant(s: Session, db: str, kind: str, name: str) -> None:
    """automatic_sp_privileges: a creator who may not already run and alter the new routine
    (globally, in its database or on it) is granted EXECUTE and ALTER ROUTINE on it, as
    MariaDB's sp_grant_privileges does for the creating account (SHOW GRANTS shows it)."""
    from rampmeter.session.grants import GrantTables, RoutineGrant, rkey
    sec = s.security
    if sec is None or sec.unchecked or not s.ctx.variables["automatic_sp_privileges"]:
        return
    want = Priv.EXECUTE | Priv.ALTER_PROC
    if (sec.master | sec.db_bits(db) | sec.routine_bits(db, kind, name)) & want == want:
        return
    user, host, grantor = sec.priv_user, sec.priv_host, s.current_user

    def apply(t: GrantTables) -> None:
        if t.account(user, host) is None:
            return  # MariaDB's ER_PROC_AUTO_GRANT_FAIL case: nobody to grant to
        key = rkey(user, host, db, kind, name)
        g = t.routines.get(key)
        if g is None:
            g = t.routines[key] = RoutineGrant(user, host, db, name, kind, 0, grantor)
        g.access |= want

    s.ctx.accounts.change(apply)


def _native_note(kind: str, name: str) -> list[Warning_]:
    """A stored function named as a built-in one (X, LENGTH, POINT...) is created, with
    MariaDB's Note 1585: only `db.name(...)` calls it."""
    from rampmeter.engine.sqlite import funclib
    if kind != "FUNCTION" or not funclib.is_native(name):
        return []
    return [Warning_("Note", 1585,
                     f"This function '{name}' has the same name as a native function")]


LATE_INTO = ("'<select expression> INTO <destination>;' is deprecated and will be removed in a "
             "future release. Please use 'SELECT <select list> INTO <destination> FROM...' "
             "instead")


def late_into(count: int) -> list[Warning_]:
    """MariaDB's parser warns 1287 for each SELECT ... FROM ... INTO of a program's body when
    the program is created (INTO before FROM is the form it keeps)."""
    return [Warning_("Warning", 1287, LATE_INTO) for _ in range(count)]


_STARTS = frozenset({";", "BEGIN", "THEN", "ELSE", "DO", "LOOP", "REPEAT", ":"})
_DYNAMIC = frozenset({"PREPARE", "EXECUTE", "DEALLOCATE"})
_COMMITS = frozenset({"COMMIT", "ROLLBACK", "START"})


def not_in_function(body: str, dialect: Any, what: str = "function") -> None:
    """What a stored function or trigger may not hold, refused at CREATE as MariaDB's parser
    refuses it: dynamic SQL (1336), a COMMIT / ROLLBACK / START TRANSACTION or an ALTER /
    DROP EVENT (1422), a CREATE EVENT (1576), a statement that returns a result set - SHOW,
    a SELECT without INTO - (1415)."""
    toks = Tokens(body, dialect).toks
    for k, tok in enumerate(toks):
        if tok.kind != "word" or k and toks[k - 1].text.upper() not in _STARTS:
            continue
        word = tok.text.upper()
        nxt = toks[k + 1].text.upper() if k + 1 < len(toks) else ""
        if word in _DYNAMIC:
            raise ServerError(1336, message="Dynamic SQL is not allowed in stored function "
                              "or trigger", sqlstate="0A000")
        if word in _COMMITS and (word != "START" or nxt == "TRANSACTION") and \
                (word != "ROLLBACK" or nxt != "TO") or \
                word in ("ALTER", "DROP") and nxt == "EVENT":
            raise ServerError(1422, message="Explicit or implicit commit is not allowed in "
                              "stored function or trigger", sqlstate="HY000")
        if word == "CREATE" and _creates_event(toks, k + 1):
            raise ServerError(1576, message="Recursion of EVENT DDL statements is forbidden "
                              "when body is present", sqlstate="HY000")
        if word == "SHOW" or word == "SELECT" and not _has_into(toks, k + 1):
            raise ServerError(1415, message=f"Not allowed to return a result set from a "
                              f"{what}", sqlstate="0A000")


def _creates_event(toks: list[Any], k: int) -> bool:
    """CREATE [OR REPLACE] [DEFINER = ...] EVENT."""
    for t in toks[k:k + 12]:
        if t.kind == "word" and t.text.upper() == "EVENT":
            return True
        if t.kind == "word" and t.text.upper() in ("TABLE", "VIEW", "PROCEDURE", "FUNCTION",
                                                   "TRIGGER", "INDEX", "DATABASE", "USER"):
            return False
    return False


def _has_into(toks: list[Any], k: int) -> bool:
    """Does the statement from toks[k] hold an INTO outside parentheses (before its `;`)?"""
    depth = 0
    for t in toks[k:]:
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
            if depth < 0:
                return True  # the statement was inside something: not ours to judge
        elif t.text == ";" and depth == 0:
            return False
        elif depth == 0 and t.kind == "word" and t.text.upper() == "INTO":
            return True
    return False


def definer_note(s: Session, written: str | None, definer: str) -> list[Warning_]:
    """DEFINER = an account that does not exist: created all the same, with MariaDB's note
    1449 (the program fails when it runs)."""
    if written is None or written.upper().startswith("CURRENT_USER"):
        return []
    accounts = getattr(getattr(s, "ctx", None), "accounts", None)
    tables = getattr(accounts, "tables", None)
    if tables is None or getattr(accounts, "skip_grants", False):
        return []
    user, _, host = definer.rpartition("@")
    if tables.account(user, host) is not None or (host == "" and tables.role(user)):
        return []
    return [Warning_.of(errors.ER_NO_SUCH_USER, user, host, level="Note")]


def _canonical_type(s: Session, text: str) -> str:
    """RETURNS as MariaDB prints it: `int(11)`, `varchar(20) CHARSET latin1 COLLATE ...`
    (a text type takes the database's character set)."""
    try:
        cs = str(s.system_variable("character_set_database"))
        coll = str(s.system_variable("collation_database"))
        t = parse_type(text, cs, coll)
    except ServerError:
        return text
    shown = t.spelling()
    if t.charset and t.charset != "binary" and t.is_text:
        shown += f" CHARSET {t.charset} COLLATE {t.collation}"
    return shown


def _definer(s: Session, written: str | None) -> str:
    if written is None or written.upper().startswith("CURRENT_USER"):
        return str(s.current_user)
    from rampmeter.sql.lexer import ident_value, string_value, tokens
    toks = tokens(written)

    def value(t: Any) -> str:
        text = t.text
        if t.kind == "str":
            return string_value(text, True)
        return ident_value(text) if t.kind == "qident" else text

    user, host = value(toks[0]), "%"
    if len(toks) > 1 and toks[1].kind == "uservar":  # 'u'@'h' lexes as a string and @'h'
        host = toks[1].text[1:]
        host = value(tokens(host)[0]) if host[:1] in "'`\"" else host
    elif len(toks) > 2 and toks[1].text == "@":
        host = value(toks[2])
    return f"{user}@{host or '%'}"


def _db_collation(s: Session, db: str) -> str:
    """The database's own default collation (its options in the engine), as MariaDB records
    it with a routine, trigger or event; else collation_database."""
    from rampmeter.engine.sqlite.session import SqliteSession
    try:
        if isinstance(s.engine, SqliteSession):
            from rampmeter.engine.sqlite import dbopts
            return dbopts.load(s.engine, db).collation
        return str(s.system_variable("collation_database"))
    except ServerError:
        return "latin1_swedish_ci"


def drop(s: Session, stmt: Statement) -> Result:
    rd = Reader(stmt)
    rd.expect("DROP")
    kind = rd.accept_any("PROCEDURE", "FUNCTION")
    if_exists = rd.accept("IF", "EXISTS")
    db, name = rd.qualified_name()
    rd.end()
    database = db or s.database
    if database is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    spec = store(s).routine_load(database, kind, name)
    # ALTER ROUTINE is checked first: without it a missing routine is 1370 too (MariaDB)
    require(s, database, Priv.ALTER_PROC,
            spec or {"db": database, "name": name, "definer": "", "type": kind})
    if spec is None or not store(s).routine_drop(database, kind, name):
        message = f"{kind} {database}.{name} does not exist"
        if if_exists:
            return UpdateCount(warnings=[Warning_("Note", 1305, message)])
        raise ServerError(1305, message=message, sqlstate="42000")
    _forget_grants(s, spec["db"], kind, spec["name"])
    return UpdateCount()


def _forget_grants(s: Session, db: str, kind: str, name: str) -> None:
    """A dropped routine's grants go with it (MariaDB's automatic_sp_privileges)."""
    from rampmeter.session import routinegrants
    t = s.ctx.accounts.tables
    low = name.lower()
    if any(k[2] == db and k[3] == kind and k[4] == low for k in t.routines):
        s.ctx.accounts.change(lambda t: routinegrants.forget(t, db, kind, name))


def head(spec: dict[str, Any], quote: str = "`", name: str | None = None) -> str:
    user, _, host = spec["definer"].rpartition("@")  # the user may hold an @
    kind = ("AGGREGATE " if spec.get("aggregate") else "") + spec["type"]
    text = (f"CREATE DEFINER={quote}{user}{quote}@{quote}{host}{quote} {kind} "
            f"{quote}{name or spec['name']}{quote}({spec['params']})")
    if spec["type"] == "FUNCTION":
        text += f" RETURNS {spec['returns']}"
    chars = spec["chars"]
    lines = []
    if chars.get("data_access", "CONTAINS SQL") != "CONTAINS SQL":
        lines.append(chars["data_access"])
    if chars.get("deterministic") == "YES":
        lines.append("DETERMINISTIC")
    if chars.get("security") == "INVOKER":
        lines.append("SQL SECURITY INVOKER")
    if chars.get("comment"):
        lines.append("COMMENT '" + chars["comment"].replace("'", "''") + "'")
    return text + "".join("\n    " + x for x in lines) + "\n" + spec["body"]


def show_create(s: Session, kind: str, db: str | None, name: str) -> Result:
    spec = find(s, db, kind, name)
    full = spec is not None and _may_read_definition(s, spec)
    if spec is None or full is None:
        raise ServerError(1305, message=f"{kind} {name} does not exist", sqlstate="42000")
    title = kind.capitalize()
    quote = '"' if "ANSI_QUOTES" in spec["sql_mode"] else "`"
    cols = [text_column(title), text_column("sql_mode"), text_column(f"Create {title}"),
            text_column("character_set_client"), text_column("collation_connection"),
            text_column("Database Collation")]
    # the name as the SHOW spelt it, in both places, as MariaDB prints it (mtr sp-bugs)
    return ResultSet(cols, [(name, spec["sql_mode"], head(spec, quote, name) if full else None,
                             spec["charset_client"], spec["collation_connection"],
                             spec["db_collation"])])


def _may_read_definition(s: Session, spec: dict[str, Any]) -> bool | None:
    """MariaDB's check_show_routine_access: the definition is shown to an account with SELECT
    on mysql.proc (not on a column of it) or that is the routine's definer; an account with
    only EXECUTE, ALTER ROUTINE or CREATE ROUTINE on it sees no body (False); anyone else is
    told the routine does not exist (None)."""
    sec = s.security
    if sec is None or sec.unchecked or spec["definer"] == sec.current_user:
        return True
    if (sec.master | sec.db_bits("mysql") | sec.table_bits("mysql", "proc").table) & \
            Priv.SELECT:
        return True
    some = Priv.EXECUTE | Priv.ALTER_PROC | Priv.CREATE_PROC
    if (sec.master | sec.db_bits(spec["db"]) |
            sec.routine_bits(spec["db"], spec["type"], spec["name"])) & some:
        return False
    return None


def alter(s: Session, stmt: Statement) -> Result:
    """ALTER PROCEDURE / FUNCTION [db.]name characteristics: a new COMMENT, SQL SECURITY,
    data access or LANGUAGE; the body stays (1305 for an unknown routine)."""
    p = Tokens(stmt.text, stmt.dialect)
    p.expect("ALTER")
    kind = p.word()
    p.i += 1
    first = p.name()
    db, name = (first, p.name()) if p.accept(".") else (None, first)
    chars: dict[str, str] = {}
    P.characteristics(p, chars)
    p.accept(";")
    if p.peek() is not None:
        raise p.error()
    database = db or s.database
    spec = find(s, database, kind, name)
    if spec is None:
        raise ServerError(1305, message=f"{kind} {database}.{name} does not exist",
                          sqlstate="42000")
    require(s, spec["db"], Priv.ALTER_PROC, spec)
    spec["chars"].update(chars)
    spec["modified"] = dt.datetime.now().replace(microsecond=0).isoformat(sep=" ")
    store(s).routine_store(spec["db"], kind, spec["name"], spec)
    return UpdateCount()


def require(s: Session, db: str, bit: int, spec: dict[str, Any] | None = None) -> None:
    """The privilege a routine statement needs (privileges.py's bits): CREATE ROUTINE in the
    database to create (1044); ALTER ROUTINE to alter or drop and EXECUTE to run, in the
    database or on the routine itself, else 1370 naming the routine. The routine's definer
    always may: MariaDB grants its creator EXECUTE and ALTER ROUTINE on it
    (automatic_sp_privileges)."""
    sec = s.security
    if sec is None or sec.unchecked:
        return
    if spec is None:
        sec.check_db(db, bit)
        return
    if sec.has(bit) or sec.db_bits(db) & bit or spec["definer"] == sec.current_user:
        return
    if spec.get("type") in ("PROCEDURE", "FUNCTION") and \
            sec.routine_bits(db, spec["type"], spec["name"]) & bit:
        return  # GRANT ... ON PROCEDURE / FUNCTION (session/routinegrants.py)
    what = "execute" if bit == Priv.EXECUTE else "alter routine"
    raise ServerError(1370, message=f"{what} command denied to user '{sec.priv_user}'@"
                      f"'{sec.priv_host}' for routine '{db}.{spec['name']}'", sqlstate="42000")
