"""Stored programs: procedures, functions and compound statements (MariaDB 10.11's).

A small package of rooms, each with its own rules:

    parse.py   the grammar: a CREATE PROCEDURE / FUNCTION or a compound statement -> a tree
               (tree.py), read once per text; simple statements inside stay text with `?`
               for locals (tokens.py)
    run.py     the interpreter: variables, control flow, handlers, cursors, SIGNAL
    calls.py   CALL and stored-function calls: arguments, OUT parameters, recursion limits
    ddl.py     CREATE / DROP / SHOW CREATE, and the stored spec
    triggers.py  CREATE / DROP / SHOW CREATE TRIGGER, and a trigger's body for one row
    events.py  CREATE / ALTER / DROP / SHOW CREATE EVENT and the stored schedule
    scheduler.py  the event scheduler's thread and the sessions events run in

Rules:
- This is the session layer's: a program's statements run through the session's normal
  statement path (statements.py: privileges, counters, SET and SHOW, the engine), the same
  one a client's statements take. The engine only stores routines (engine/sqlite/routines.py,
  in the database's file, dropped with it) and calls back for a stored function used in SQL
  (SessionContext.stored_function).
- `route` answers the statements that are the package's: CREATE / DROP PROCEDURE / FUNCTION,
  CALL, SHOW CREATE PROCEDURE / FUNCTION, CREATE / ALTER / DROP / SHOW CREATE TRIGGER and EVENT, and compound statements at top level (BEGIN NOT
  ATOMIC, labels, IF, CASE, WHILE, REPEAT, LOOP); None for anything else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.engine.base import Result
from rampmeter.errors import ServerError
from rampmeter.sql.statement import Statement, is_program

if TYPE_CHECKING:
    from rampmeter.session.session import Session

FIRST_WORDS = frozenset({"CREATE", "DROP", "ALTER", "CALL", "GET", "SHOW", "BEGIN", "IF", "CASE", "WHILE",
                         "REPEAT", "LOOP", "FOR", "SIGNAL", "RESIGNAL"})
_OBJECTS = ("PROCEDURE", "FUNCTION")


def wants(stmt: Statement) -> bool:
    """Cheap test, asked for every non-DML statement: might `route` answer it?"""
    toks = stmt.tokens
    if not toks:
        return False
    return stmt.kind in FIRST_WORDS or len(toks) > 1 and toks[1].text == ":"


_OWNED = frozenset({"PROCEDURE", "FUNCTION", "TRIGGER", "EVENT", "DEFINER", "OR",
                    "AGGREGATE"})


def owns(stmt: Statement) -> bool:
    """Is this the package's statement (for PREPARE: kept as text and routed at EXECUTE)?
    CALL, CREATE / DROP / ALTER of a routine, trigger or event, a compound statement."""
    words = stmt.words
    if stmt.kind in ("CALL", "SIGNAL", "RESIGNAL"):  # SIGNAL / RESIGNAL may be PREPAREd
        return True
    if stmt.kind in ("CREATE", "DROP", "ALTER") and len(words) > 1:
        return words[1] in _OWNED and "TABLE" not in words[:4] and "VIEW" not in words[:5] \
            and "USER" not in words[:4] and "ROLE" not in words[:4]
    return stmt.tokens is not None and is_program(words, stmt.tokens)


def do(s: Session, stmt: Statement) -> Result:
    """DO: run by the engine, with the variables its calls name ready for a stored function's
    OUT arguments (calls.py)."""
    assert s.engine is not None
    if "(" not in stmt.text:
        return s.engine.execute(stmt)
    from rampmeter.session.sp import calls
    from rampmeter.sql.lexer import tokens
    with calls.out_args(s, tokens(stmt.text, stmt.dialect)[1:]):
        return s.engine.execute(stmt)


def route(s: Session, stmt: Statement) -> Result | None:
    from rampmeter.session.sp import calls, ddl, events, parse, run, triggers
    words = stmt.words
    kind = stmt.kind
    toks = stmt.tokens or ()
    if kind in ("CREATE", "ALTER", "DROP") and s.engine is not None and \
            s.engine.lock_mode == "tables":
        head = [t.text.upper() for t in toks[1:12] if t.kind == "word"]
        if (any(w in (*_OBJECTS, "EVENT") for w in head) and "TABLE" not in head[:3] and
                "VIEW" not in head[:4]) if kind == "CREATE" else \
                head[:1] in (["PROCEDURE"], ["FUNCTION"], ["EVENT"]):
            # routines and events are no tables LOCK TABLES names (MariaDB 1192)
            raise ServerError(errors.ER_LOCK_OR_ACTIVE_TRANSACTION)
    if kind == "CREATE":
        head = [t.text.upper() for t in toks[1:12] if t.kind == "word"]
        if any(w in _OBJECTS + ("TRIGGER", "EVENT") for w in head) and \
                "TABLE" not in head[:3] and "VIEW" not in head[:4]:
            obj = next(w for w in head if w in _OBJECTS + ("TRIGGER", "EVENT"))
            if obj in _OBJECTS:
                return ddl.create(s, stmt)
            if obj == "TRIGGER":
                return triggers.create(s, stmt.text, stmt.dialect)
            return events.create(s, stmt.text, stmt.dialect)
        return None
    if kind == "DROP":
        if len(words) > 1 and words[1] in ("TRIGGER", "EVENT"):
            from rampmeter.sql.reader import Reader
            r = Reader(stmt, 2)
            if_exists = r.accept("IF", "EXISTS")
            db, name = r.qualified_name()
            r.end()
            if words[1] == "EVENT":
                return events.drop(s, if_exists, db, name)
            return triggers.drop(s, if_exists, db, name)
        return ddl.drop(s, stmt) if len(words) > 1 and words[1] in _OBJECTS else None
    if kind == "SHOW":
        if words[1:2] == ("EVENTS",):
            events.check_show(s, stmt)
            return None
        if words[1:2] in (("PROCEDURE",), ("FUNCTION",)) and words[2:3] == ("CODE",):
            # MariaDB without --with-debug (the Debian package): 1289
            raise ServerError(1289, message="The 'SHOW PROCEDURE|FUNCTION CODE' feature is "
                              "disabled; you need MariaDB built with '--with-debug' to have it "
                              "working", sqlstate="HY000")
        if words[1:3] in (("CREATE", "PROCEDURE"), ("CREATE", "FUNCTION"),
                          ("CREATE", "TRIGGER"), ("CREATE", "EVENT")):
            from rampmeter.sql.reader import Reader
            r = Reader(stmt, 3)
            db, name = r.qualified_name()
            r.end()
            if words[2] == "TRIGGER":
                return triggers.show_create(s, db, name)
            if words[2] == "EVENT":
                return events.show_create(s, db, name)
            return ddl.show_create(s, words[2], db, name)
        return None
    if kind == "GET" and words[1:2] in (("DIAGNOSTICS",), ("CURRENT",), ("STACKED",)):
        frame = run.Frame(s, None, "")
        frame.exec(parse.diagnostics_statement(stmt.text, stmt.dialect))
        return run.done(frame, [])
    if kind == "CALL":
        return calls.call(s, parse.parse_call(stmt.text, stmt.dialect))
    if kind in ("SIGNAL", "RESIGNAL"):  # at top level too, as MariaDB allows
        frame = run.Frame(s, None, "")
        frame.exec(parse.compound(stmt.text, stmt.dialect))
        return run.done(frame, [])
    if kind == "ALTER":
        head = [t.text.upper() for t in toks[1:12] if t.kind == "word"]
        if head[:1] == ["EVENT"] or head[:1] == ["DEFINER"] and "EVENT" in head:
            return events.alter(s, stmt.text, stmt.dialect)
        return ddl.alter(s, stmt) if len(words) > 1 and words[1] in _OBJECTS else None
    if kind == "BEGIN" and words[1:3] != ("NOT", "ATOMIC"):
        return None
    if not is_program(words, toks):
        return None
    body = parse.compound(stmt.text, stmt.dialect)
    sets: list = []
    frame = run.Frame(s, sets, "")
    try:
        frame.exec(body)
    except ServerError as e:
        if sets:
            e.result_sets = sets  # type: ignore[attr-defined] # sent before the error
        raise
    return run.done(frame, sets)
