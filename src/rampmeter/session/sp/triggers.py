"""Triggers: CREATE / DROP / SHOW CREATE TRIGGER, and running a trigger's body for one row.

Rules:
- CREATE [OR REPLACE] [DEFINER = ...] TRIGGER [IF NOT EXISTS] [db.]name {BEFORE | AFTER}
  {INSERT | UPDATE | DELETE} ON table FOR EACH ROW [{FOLLOWS | PRECEDES} other] body; the
  body is parsed as a program's (parse.py), with NEW.col / OLD.col read as the row's values
  (bound as parameters like local variables). The engine stores it and fires it
  (engine/sqlite/triggers.py).
- Errors as MariaDB: 1359 exists (a Note with IF NOT EXISTS), 1360 does not exist (a Note
  with IF EXISTS), 1221 OR REPLACE with IF NOT EXISTS, 1146 no such table, 1363 NEW in a
  DELETE trigger or OLD in an INSERT trigger.
- A BEFORE INSERT / UPDATE trigger may assign NEW.col (`SET NEW.a = ...`): `run` writes the
  values back into the row it was given and says which columns were set; the engine writes
  them into the row (engine/sqlite/triggers.py). An AFTER trigger may not (1362), nor may any
  assign OLD.col (1362).
- A trigger runs with its database as the current one and the sql_mode it was created with,
  like a routine; it may not return a result set (1415).
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import Result, ResultSet, UpdateCount
from rampmeter.errors import ServerError, Warning_
from rampmeter.protocol.columns import text_column
from rampmeter.session.sp import ddl
from rampmeter.session.sp import parse as P
from rampmeter.session.sp.tokens import Tokens
from rampmeter.sql.lexer import Dialect

if TYPE_CHECKING:
    from rampmeter.session.session import Session

ROW_SCOPE = frozenset({"\0new", "\0old"})  # tokens.py: NEW.col / OLD.col are the row's


def _store(s: Session) -> Any:
    eng = ddl.store(s)
    if not hasattr(eng, "trigger_load"):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "triggers in this engine")
    return eng


@lru_cache(maxsize=256)
def parse(text: str, dialect: Dialect) -> tuple[dict[str, Any], Any]:
    p = Tokens(text, dialect)
    p.expect("CREATE")
    head: dict[str, Any] = {"or_replace": p.accept("OR", "REPLACE"), "definer": None}
    if p.accept("DEFINER"):
        p.expect("=")
        a = p.i
        while p.peek() is not None and p.word() != "TRIGGER":
            p.i += 1
        head["definer"] = text[p.toks[a].start:p.toks[p.i - 1].end]
    head["trigger_start"] = p.peek().start  # type: ignore[union-attr]
    p.expect("TRIGGER")
    head["if_not_exists"] = p.accept("IF", "NOT", "EXISTS")
    first = p.name()
    head["db"], head["name"] = (first, p.name()) if p.accept(".") else (None, first)
    head["timing"] = p.word()
    if head["timing"] not in ("BEFORE", "AFTER"):
        raise p.error()
    p.i += 1
    head["event"] = p.word()
    if head["event"] not in ("INSERT", "UPDATE", "DELETE"):
        raise p.error()
    p.i += 1
    p.expect("ON")
    head["on_start"] = p.peek().start  # type: ignore[union-attr]
    first = p.name()
    head["table"] = p.name() if p.accept(".") else first
    head["on_end"] = p.toks[p.i - 1].end
    p.expect("FOR", "EACH", "ROW")
    if p.word() in ("FOLLOWS", "PRECEDES"):
        p.i += 1
        p.name()
    if p.peek() is None:
        raise p.error()
    head["body_start"] = p.peek().start  # type: ignore[union-attr]
    body = P.statement(p, ROW_SCOPE)
    head["late_into"] = p.late_into
    head["body_end"] = p.toks[p.i - 1].end  # not a closing `*/` of a dump's comment
    p.accept(";")
    if p.peek() is not None:
        raise p.error()
    return head, body


def create(s: Session, text: str, dialect: Dialect) -> Result:
    head, _body = parse(text, dialect)
    if len(head["name"]) > 64:  # NAME_CHAR_LEN
        raise errors.too_long_ident(head["name"])
    if head["or_replace"] and head["if_not_exists"]:
        raise ServerError(1221, message="Incorrect usage of OR REPLACE and IF NOT EXISTS",
                          sqlstate="HY000")
    db = head["db"] or s.database
    if db is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    from rampmeter.session import required
    required.refuse_under_read_only(s)
    _row_use(text, dialect, head["event"], head["timing"])
    ddl.not_in_function(text[head["body_start"]:head["body_end"]], dialect, "trigger")
    eng = _store(s)
    if eng.table_def(db, head["table"]) is None:
        raise ServerError(errors.ER_NO_SUCH_TABLE, db, head["table"])
    if eng.trigger_load(db, head["name"]) is not None and not head["or_replace"]:
        if head["if_not_exists"]:
            return UpdateCount(warnings=[Warning_("Note", 1359, "Trigger "
                                                  f"'{db}.{head['name']}' already exists")])
        raise ServerError(1359, message=f"Trigger '{db}.{head['name']}' already exists",
                          sqlstate="HY000")
    now = dt.datetime.now()
    spec = {
        "db": db, "name": head["name"], "type": "TRIGGER", "table": head["table"],
        "timing": head["timing"], "event": head["event"], "text": text,
        "body": text[head["body_start"]:head["body_end"]],
        "definer": ddl._definer(s, head["definer"]),
        "sql_mode": str(s.system_variable("sql_mode") or ""),
        "created": now.replace(microsecond=0).isoformat(sep=" "),
        "created_at": now.strftime("%Y-%m-%d %H:%M:%S.") + f"{now.microsecond // 10000:02d}",
        "charset_client": str(s.system_variable("character_set_client")),
        "collation_connection": str(s.system_variable("collation_connection")),
        "db_collation": ddl._db_collation(s, db),
    }
    eng.trigger_create(db, spec)
    return UpdateCount(warnings=ddl.definer_note(s, head["definer"], spec["definer"]) +
                       ddl.late_into(head["late_into"]))


def _row_use(text: str, dialect: Dialect, event: str, timing: str) -> None:
    """1363 for NEW in a DELETE trigger or OLD in an INSERT one; 1362 for SET OLD.col, or
    SET NEW.col in an AFTER trigger."""
    toks = Tokens(text, dialect).toks
    for k, t in enumerate(toks[:-1]):
        if t.kind != "word" or toks[k + 1].text != ".":
            continue
        word = t.text.upper()
        if word == "NEW" and event == "DELETE" or word == "OLD" and event == "INSERT":
            raise ServerError(1363, message=f"There is no {word} row in on {event} trigger",
                              sqlstate="HY000")
        if word in ("NEW", "OLD") and k and toks[k - 1].text.upper() in ("SET", ",") and \
                k + 3 < len(toks) and toks[k + 3].text in ("=", ":=") and \
                (word == "OLD" or timing == "AFTER"):
            where = "after " if word == "NEW" else ""
            raise ServerError(1362, message=f"Updating of {word} row is not allowed in "
                              f"{where}trigger", sqlstate="HY000")


def drop(s: Session, if_exists: bool, db: str | None, name: str) -> Result:
    from rampmeter.session import required
    if len(name) > 64:  # NAME_CHAR_LEN
        raise errors.too_long_ident(name)
    database = db or s.database
    if database is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    required.refuse_under_read_only(s)
    if not _store(s).trigger_drop(database, name):
        if if_exists:
            return UpdateCount(warnings=[Warning_("Note", 1360, "Trigger does not exist")])
        raise ServerError(1360, message="Trigger does not exist", sqlstate="HY000")
    return UpdateCount()


def show_create(s: Session, db: str | None, name: str) -> Result:
    database = db or s.database
    if database is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    spec = _store(s).trigger_load(database, name)
    if spec is None:
        raise ServerError(1360, message="Trigger does not exist", sqlstate="HY000")
    statement = original_statement(spec)
    cols = [text_column(n) for n in ("Trigger", "sql_mode", "SQL Original Statement",
                                     "character_set_client", "collation_connection",
                                     "Database Collation", "Created")]
    return ResultSet(cols, [(spec["name"], spec["sql_mode"], statement, spec["charset_client"],
                             spec["collation_connection"], spec["db_collation"],
                             spec["created_at"])])


def original_statement(spec: dict[str, Any]) -> str:
    """SHOW CREATE TRIGGER's statement as MariaDB keeps it: the definer, then the client's
    text from TRIGGER to the end of the body; after a RENAME TABLE of its table the ON
    clause names the table anew (`t`, its database left out)."""
    user, _, host = spec["definer"].rpartition("@")  # the user may hold an @
    definer = f"CREATE DEFINER=`{user}`@`{host}` "
    try:
        head, _body = parse(spec["text"], Dialect.of(spec["sql_mode"]))
    except ServerError:
        head = None
    if head is None or "trigger_start" not in head:
        return (f"{definer}TRIGGER `{spec['name']}` {spec['timing']} {spec['event']} ON "
                f"`{spec['table']}` FOR EACH ROW {spec['body']}")
    text = spec["text"]
    table = text[head["on_start"]:head["on_end"]]
    if spec.get("table_renamed"):
        table = "`" + spec["table"].replace("`", "``") + "`"
    return (definer + text[head["trigger_start"]:head["on_start"]] + table +
            text[head["on_end"]:head["body_end"]])


def run(s: Session, db: str, name: str, row: dict[str, Any]) -> set[str]:
    """Fire trigger db.name for one row (`row`: 'new.col' / 'old.col' -> value). The NEW
    columns the body assigned are returned (lower case), their values written into `row`."""
    from rampmeter.session.sp import definer
    from rampmeter.session.sp.calls import _in_database, in_function
    from rampmeter.session.sp.run import Frame, trace
    spec = _store(s).trigger_load(db, name)
    if spec is None:
        return set()
    _head, body = parse(spec["text"], Dialect.of(spec["sql_mode"]))
    frame = Frame(s, None, f"{db}.{name}")
    frame.trigger_table = (db, spec["table"])
    for key, value in row.items():
        frame.scopes[0][key] = [value, ""]
    in_function(s, 1)
    s.sp_in_trigger = getattr(s, "sp_in_trigger", 0) + 1  # type: ignore[attr-defined]
    try:
        with _in_database(s, db, spec["sql_mode"]), \
                definer.privileges_of(s, spec, trigger=True):
            frame.exec(body)
    except ServerError as e:
        trace(e, frame, f"{db}.{spec['name']}")
        raise
    finally:
        in_function(s, -1)
        s.sp_in_trigger -= 1  # type: ignore[attr-defined]
    for col in frame.assigned:
        row["new." + col] = frame.scopes[0]["new." + col][0]
    return frame.assigned
