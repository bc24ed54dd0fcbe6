"""Events: CREATE / ALTER / DROP EVENT, SHOW CREATE EVENT, and the stored spec the scheduler
(scheduler.py), SHOW EVENTS and information_schema.EVENTS read.

Rules:
- CREATE [OR REPLACE] [DEFINER = user] EVENT [IF NOT EXISTS] [db.]name ON SCHEDULE
  {AT ts | EVERY n unit [STARTS ts] [ENDS ts]} [ON COMPLETION [NOT] PRESERVE]
  [ENABLE | DISABLE | DISABLE ON SLAVE] [COMMENT 'text'] DO body; ALTER EVENT takes each
  clause alone (and RENAME TO [db.]name); the body is parsed as a program's (parse.py).
- The schedule's expressions are evaluated once, by the statement (as MariaDB does), through
  the session's own statement path: `SELECT CAST(expr AS DATETIME), UNIX_TIMESTAMP(...)`, so
  a time is kept as the text shown in the session's time zone and as a UTC instant. An EVERY
  value is kept as its total in the unit's smallest field and shown as MariaDB reconstructs
  it (`'2:15' YEAR_MONTH` -> `'3-3'`); MICROSECOND units are 1235, as in MariaDB.
- The spec is stored with the routines (engine/sqlite/routines.py, type EVENT): in its
  database's file, dropped with it, as crash-safe as the tables.
- Errors and notes as MariaDB 10.11's: 1537 exists (Note with IF NOT EXISTS), 1539 unknown,
  1221 OR REPLACE with IF NOT EXISTS, 1542 interval not positive or too big, 1543 ENDS
  before STARTS, 1525 a time that is not one, 1576 event DDL with a body inside a body,
  1588 / 1544 a time in the past (dropped at once / disabled), 1044 without the EVENT
  privilege on the database, warning 1105 while the scheduler is off.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import Result, ResultSet, UpdateCount
from rampmeter.errors import ServerError, Warning_
from rampmeter.protocol.columns import text_column
from rampmeter.session.privileges import P as Priv
from rampmeter.session.sp import ddl
from rampmeter.session.sp import parse as P
from rampmeter.session.sp.tokens import Tokens
from rampmeter.sql.lexer import Dialect
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session

SIMPLE_UNITS = ("YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND")
# compound unit -> its fields, most significant first, and the separators MariaDB prints
COMPOUND = {
    "YEAR_MONTH": (("YEAR", "MONTH"), "-"),
    "DAY_HOUR": (("DAY", "HOUR"), " "),
    "DAY_MINUTE": (("DAY", "HOUR", "MINUTE"), " :"),
    "DAY_SECOND": (("DAY", "HOUR", "MINUTE", "SECOND"), " ::"),
    "HOUR_MINUTE": (("HOUR", "MINUTE"), ":"),
    "HOUR_SECOND": (("HOUR", "MINUTE", "SECOND"), "::"),
    "MINUTE_SECOND": (("MINUTE", "SECOND"), ":"),
}
MICRO_UNITS = ("MICROSECOND", "SECOND_MICROSECOND", "MINUTE_MICROSECOND",
               "HOUR_MICROSECOND", "DAY_MICROSECOND")
_RADIX = {"MONTH": 12, "HOUR": 24, "MINUTE": 60, "SECOND": 60}
SECONDS = {"WEEK": 604800, "DAY": 86400, "HOUR": 3600, "MINUTE": 60, "SECOND": 1}
MONTHS = {"YEAR": 12, "QUARTER": 3, "MONTH": 1}
MAX_INTERVAL = 1_000_000_000  # MariaDB's EVEX_MAX_INTERVAL_VALUE
_CLAUSE_END = ("ON", "ENABLE", "DISABLE", "COMMENT", "DO", "RENAME", "STARTS", "ENDS")


def _fail(code: int, message: str, state: str = "HY000") -> ServerError:
    return ServerError(code, message=message, sqlstate=state)


@lru_cache(maxsize=128)
def parse(text: str, dialect: Dialect) -> dict[str, Any]:
    """The clauses of a CREATE / ALTER EVENT, as written (expressions as text)."""
    p = Tokens(text, dialect)
    verb = p.word()
    p.i += 1
    head: dict[str, Any] = {"verb": verb, "or_replace": p.accept("OR", "REPLACE"),
                            "definer": None}
    if p.accept("DEFINER"):
        p.expect("=")
        a = p.i
        while p.peek() is not None and p.word() != "EVENT":
            p.i += 1
        head["definer"] = text[p.toks[a].start:p.toks[p.i - 1].end]
    p.expect("EVENT")
    head["if_not_exists"] = verb == "CREATE" and p.accept("IF", "NOT", "EXISTS")
    head["db"], head["name"] = p.qualified_name()
    if verb == "CREATE":
        p.expect("ON", "SCHEDULE")
        _schedule(p, head)
    elif p.accept("ON", "SCHEDULE"):
        _schedule(p, head)
    if p.accept("ON", "COMPLETION"):
        head["preserve"] = not p.accept("NOT")
        p.expect("PRESERVE")
    if verb == "ALTER" and p.accept("RENAME", "TO"):
        head["rename"] = p.qualified_name()
    if p.accept("ENABLE"):
        head["status"] = "ENABLED"
    elif p.accept("DISABLE"):
        head["status"] = "SLAVESIDE_DISABLED" if p.accept("ON", "SLAVE") else "DISABLED"
    if p.accept("COMMENT"):
        head["comment"] = p.string()
    if verb == "CREATE" or p.at("DO"):
        p.expect("DO")
        if p.peek() is None:
            raise p.error()
        start = p.peek().start  # type: ignore[union-attr]
        P.statement(p, frozenset())
        head["body"] = text[start:p.toks[p.i - 1].end]
        _no_nested_body(head["body"], dialect)
    p.accept(";")
    if p.peek() is not None:
        raise p.error()
    return head


def _schedule(p: Tokens, head: dict[str, Any]) -> None:
    if p.accept("AT"):
        head["at"] = _expr(p, _CLAUSE_END)
        return
    p.expect("EVERY")
    a = p.i
    depth = 0
    while p.peek() is not None:
        t = p.peek()
        assert t is not None
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        elif depth == 0 and p.word() in SIMPLE_UNITS + tuple(COMPOUND) + MICRO_UNITS and p.i > a:
            break
        p.i += 1
    if p.peek() is None or p.i == a:
        raise p.error()
    head["every"] = p.text[p.toks[a].start:p.toks[p.i - 1].end]
    head["unit"] = p.word()
    p.i += 1
    if head["unit"] in MICRO_UNITS:
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "MICROSECOND")
    if p.accept("STARTS"):
        head["starts"] = _expr(p, _CLAUSE_END)
    if p.accept("ENDS"):
        head["ends"] = _expr(p, _CLAUSE_END)


def _expr(p: Tokens, stop: tuple[str, ...]) -> str:
    a, b = p.upto(stop, semicolon=True)
    if a == b:
        raise p.error()
    return p.text[p.toks[a].start:p.toks[b - 1].end]


def _no_nested_body(body: str, dialect: Dialect) -> None:
    """1576: a CREATE / ALTER EVENT with a DO inside an event's body (MariaDB refuses it)."""
    words = [t.text.upper() for t in Tokens(body, dialect).toks if t.kind == "word"]
    for k, w in enumerate(words[:-1]):
        if w in ("CREATE", "ALTER") and "EVENT" in words[k + 1:k + 6] and "DO" in words[k + 2:]:
            raise _fail(1576, "Recursion of EVENT DDL statements is forbidden when body is "
                        "present")


# --- values ------------------------------------------------------------------------------------
def _moment(s: Session, expr: str, what: str) -> tuple[str, int]:
    """(local text, UTC epoch) of a schedule time, evaluated now; 1525 if it is not one."""
    from rampmeter.session.sp.run import Frame
    frame = Frame(s, None, "")
    value = frame.value(P.Sql(f"CAST(({expr}) AS DATETIME)"))
    epoch = None if value is None else frame.value(P.Sql(f"UNIX_TIMESTAMP('{value}')"))
    if not epoch or int(epoch) > 2**31 - 1:  # events' times are 32-bit TIMESTAMPs
        if what == "ENDS" and value is not None:
            raise _fail(1543, "ENDS is either invalid or before STARTS")
        raw = frame.value(P.Sql(expr))
        raise _fail(1525, f"Incorrect {what} value: '{'NULL' if raw is None else raw}'")
    return str(value)[:19], int(epoch)


def interval(s: Session, expr: str, unit: str) -> tuple[int, str]:
    """EVERY expr unit -> (total in the unit's smallest field, the value MariaDB shows)."""
    from rampmeter.session.sp.run import Frame
    value = Frame(s, None, "").value(P.Sql(expr))
    if unit in COMPOUND:
        fields, seps = COMPOUND[unit]
        text = value.decode() if isinstance(value, bytes) else str(value if value is not None
                                                                    else "")
        parts = [int(x) for x in re.findall(r"\d+", text)][:len(fields)]
        parts = [0] * (len(fields) - len(parts)) + parts
        total = 0
        for f, n in zip(fields, parts, strict=True):
            total = total * _RADIX.get(f, 1) + n if f != fields[0] else n
        if text.strip().startswith("-"):
            total = -total
        shown = _reconstruct(total, fields, seps)
    else:
        try:
            total = int(round(float(value.decode() if isinstance(value, bytes) else value)))
        except (TypeError, ValueError):
            total = 0
        shown = str(total)
    if total <= 0 or total >= MAX_INTERVAL:
        raise _fail(1542, "INTERVAL is either not positive or too big")
    return total, shown


def _reconstruct(total: int, fields: tuple[str, ...], seps: str) -> str:
    parts = []
    for f in reversed(fields[1:]):
        total, n = divmod(total, _RADIX[f])
        parts.append(n)
    parts.append(total)
    parts.reverse()
    out = str(parts[0])
    for sep, n in zip(seps, parts[1:], strict=True):
        out += sep + str(n)
    return out


def step(start: dt.datetime, total: int, unit: str, times: int) -> dt.datetime:
    """start + times x the interval (months stay calendar months, as MariaDB's)."""
    smallest = COMPOUND[unit][0][-1] if unit in COMPOUND else unit
    if smallest in MONTHS or unit == "YEAR_MONTH":
        months = total * MONTHS.get(smallest, 1) * times
        y, m = divmod(start.month - 1 + months, 12)
        year = start.year + y
        if year > 9999:
            return dt.datetime.max
        day = min(start.day, [31, 29 if year % 4 == 0 and (year % 100 or year % 400 == 0)
                              else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m])
        return start.replace(year=year, month=m + 1, day=day)
    try:
        return start + dt.timedelta(seconds=total * SECONDS[smallest] * times)
    except OverflowError:
        return dt.datetime.max


# --- statements --------------------------------------------------------------------------------
def _store(s: Session) -> Any:
    return ddl.store(s)


def _require(s: Session, db: str) -> None:
    sec = s.security
    if sec is not None and not sec.unchecked:
        sec.check_db(db, Priv.EVENT)


def _database(s: Session, db: str | None) -> str:
    database = db or s.database
    if database is None:
        raise ServerError(errors.ER_NO_DB_ERROR)
    return database


def check_show(s: Session, stmt: Statement) -> None:
    """SHOW EVENTS [FROM db]: 1044 without the EVENT privilege there (the engine lists)."""
    r = Reader(stmt, 2)
    db = r.name() if r.accept_any("FROM", "IN") else None
    if db is not None and (not db or len(db) > 64 or db != db.rstrip(" ")):
        raise ServerError(errors.ER_WRONG_DB_NAME, db)  # MariaDB's check_db_name
    _require(s, _database(s, db))


def find(s: Session, db: str, name: str) -> dict[str, Any] | None:
    return _store(s).routine_load(db, "EVENT", name)  # type: ignore[no-any-return]


def create(s: Session, text: str, dialect: Dialect) -> Result:
    head = parse(text, dialect)
    if head["or_replace"] and head["if_not_exists"]:
        raise _fail(1221, "Incorrect usage of OR REPLACE and IF NOT EXISTS")
    db = _database(s, head["db"])
    _require(s, db)
    eng = _store(s)
    if not eng.engine.database_exists(db):
        raise ServerError(errors.ER_BAD_DB_ERROR, db)
    if len(head["name"]) > 64:
        raise errors.too_long_ident(head["name"])
    if find(s, db, head["name"]) is not None and not head["or_replace"]:
        if head["if_not_exists"]:
            note = Warning_("Note", 1537, f"Event '{head['name']}' already exists")
            return UpdateCount(warnings=[note] + _off_warning(s))
        raise _fail(1537, f"Event '{head['name']}' already exists")
    now = _now(s)
    spec: dict[str, Any] = {
        "db": db, "name": head["name"], "type": "EVENT", "body": head["body"],
        "definer": ddl._definer(s, head["definer"]),
        "time_zone": str(s.system_variable("time_zone")),
        "sql_mode": str(s.system_variable("sql_mode") or ""),
        "preserve": head.get("preserve", False), "status": head.get("status", "ENABLED"),
        "comment": head.get("comment", ""), "created": now, "modified": now,
        "last_executed": None, "originator": int(s.system_variable("server_id") or 1),
        "charset_client": str(s.system_variable("character_set_client")),
        "collation_connection": str(s.system_variable("collation_connection")),
        "db_collation": ddl._db_collation(s, db),
    }
    warnings = _schedule_into(s, head, spec, creating=True)
    if spec.pop("drop_now", False):
        return UpdateCount(warnings=warnings)
    eng.routine_store(db, "EVENT", spec["name"], spec)
    return UpdateCount(warnings=warnings + _off_warning(s))


def _now(s: Session) -> str:
    return dt.datetime.now().replace(microsecond=0).isoformat(sep=" ")


def _off_warning(s: Session) -> list[Warning_]:
    if str(s.ctx.variables["event_scheduler"]) == "ON":
        return []
    return [Warning_("Warning", 1105, "Event scheduler is switched off, use SET GLOBAL "
                     "event_scheduler=ON to enable it.")]


def _schedule_into(s: Session, head: dict[str, Any], spec: dict[str, Any], *,
                   creating: bool) -> list[Warning_]:
    """Evaluate the schedule clauses into `spec`; the notes of a time already past."""
    if "at" in head:
        spec["execute_at"], spec["execute_at_utc"] = _moment(s, head["at"], "AT")
        for key in ("interval", "interval_shown", "unit", "starts", "starts_utc", "ends",
                    "ends_utc"):
            spec[key] = None
    elif "every" in head:
        spec["interval"], spec["interval_shown"] = interval(s, head["every"], head["unit"])
        spec["unit"] = head["unit"]
        spec["execute_at"] = spec["execute_at_utc"] = None
        if "starts" in head:
            spec["starts"], spec["starts_utc"] = _moment(s, head["starts"], "STARTS")
        else:
            spec["starts"], spec["starts_utc"] = _moment(s, "NOW()", "STARTS")
        spec["ends"] = spec["ends_utc"] = None
        if "ends" in head:
            spec["ends"], spec["ends_utc"] = _moment(s, head["ends"], "ENDS")
            if spec["ends_utc"] < spec["starts_utc"]:
                raise _fail(1543, "ENDS is either invalid or before STARTS")
    past = _past(s, spec)
    if not past:
        return []
    if not spec["preserve"]:
        if creating:
            spec["drop_now"] = True
            return [Warning_("Note", 1588, "Event execution time is in the past and ON "
                             "COMPLETION NOT PRESERVE is set. The event was dropped "
                             "immediately after creation")]
        raise _fail(1589, "Event execution time is in the past and ON COMPLETION NOT "
                    "PRESERVE is set. The event was not changed. Specify a time in the future")
    if spec["status"] == "ENABLED":
        spec["status"] = "DISABLED"
        return [Warning_("Note", 1544, "Event execution time is in the past. Event has been "
                         "disabled")]
    return []


def _past(s: Session, spec: dict[str, Any]) -> bool:
    from rampmeter.session.sp.run import Frame
    now = int(Frame(s, None, "").value(P.Sql("UNIX_TIMESTAMP()")) or 0)
    if spec.get("execute_at_utc") is not None:
        return bool(spec["execute_at_utc"] < now)
    return spec.get("ends_utc") is not None and spec["ends_utc"] < now


def alter(s: Session, text: str, dialect: Dialect) -> Result:
    head = parse(text, dialect)
    db = _database(s, head["db"])
    _require(s, db)
    spec = find(s, db, head["name"])
    new_db, new_name = db, head["name"] if spec is None else spec["name"]
    if "rename" in head:  # the new name is checked first, as MariaDB does
        new_db = head["rename"][0] or db
        new_name = head["rename"][1]
        if new_db.lower() == db.lower() and new_name.lower() == head["name"].lower():
            raise _fail(1551, "Same old and new event name")
        _require(s, new_db)
        if find(s, new_db, new_name) is not None:
            raise _fail(1537, f"Event '{new_name}' already exists")
    if spec is None:
        raise _fail(1539, f"Unknown event '{head['name']}'")
    for key in ("preserve", "status", "comment", "body"):
        if key in head:
            spec[key] = head[key]
    warnings: list[Warning_] = []
    eng = _store(s)
    if "at" in head or "every" in head or "preserve" in head:
        # a new time in the past is refused (1589); for the kept one, now NOT PRESERVE,
        # MariaDB notes 1588 and keeps the (disabled) event all the same
        new_time = "at" in head or "every" in head
        kept = spec["status"]
        if new_time and "status" not in head:
            # MariaDB reads an ALTER's status as ENABLED when not given: a time in the past
            # notes 1544 (and disables) even for an event already disabled
            spec["status"] = "ENABLED"
        warnings = _schedule_into(s, head, spec, creating=not new_time)
        if new_time and "status" not in head and spec["status"] == "ENABLED":
            spec["status"] = kept
        spec.pop("drop_now", None)
    spec["definer"] = ddl._definer(s, head["definer"])
    spec["modified"] = _now(s)
    if (new_db, new_name) != (db, spec["name"]):
        eng.routine_drop(db, "EVENT", spec["name"])
        spec["db"], spec["name"] = new_db, new_name
    eng.routine_store(spec["db"], "EVENT", spec["name"], spec)
    return UpdateCount(warnings=warnings)


def drop(s: Session, if_exists: bool, db: str | None, name: str) -> Result:
    database = _database(s, db)
    _require(s, database)
    if find(s, database, name) is None or not _store(s).routine_drop(database, "EVENT", name):
        if if_exists:
            return UpdateCount(warnings=[Warning_("Note", 1305,
                                                  f"Event {name} does not exist")])
        raise _fail(1539, f"Unknown event '{name}'")
    return UpdateCount()


def schedule_text(spec: dict[str, Any]) -> str:
    if spec.get("execute_at"):
        return f"AT '{spec['execute_at']}'"
    shown = spec["interval_shown"]
    value = f"'{shown}'" if spec["unit"] in COMPOUND else shown
    text = f"EVERY {value} {spec['unit']} STARTS '{spec['starts']}'"
    if spec.get("ends"):
        text += f" ENDS '{spec['ends']}'"
    return text


def show_create(s: Session, db: str | None, name: str) -> Result:
    database = _database(s, db)
    _require(s, database)
    spec = find(s, database, name)
    if spec is None:
        raise _fail(1539, f"Unknown event '{name}'")
    user, _, host = spec["definer"].rpartition("@")  # the user may hold an @
    status = {"ENABLED": "ENABLE", "DISABLED": "DISABLE",
              "SLAVESIDE_DISABLED": "DISABLE ON SLAVE"}[spec["status"]]
    text = (f"CREATE DEFINER=`{user}`@`{host}` EVENT `{spec['name']}` ON SCHEDULE "
            f"{schedule_text(spec)} ON COMPLETION {'' if spec['preserve'] else 'NOT '}"
            f"PRESERVE {status}")
    if spec["comment"]:
        text += " COMMENT '" + spec["comment"].replace("'", "''") + "'"
    text += " DO " + spec["body"]
    cols = [text_column(n) for n in ("Event", "sql_mode", "time_zone", "Create Event",
                                     "character_set_client", "collation_connection",
                                     "Database Collation")]
    return ResultSet(cols, [(spec["name"], spec["sql_mode"], spec["time_zone"], text,
                             spec["charset_client"], spec["collation_connection"],
                             spec["db_collation"])])
