"""Stored programs (procedures, functions, triggers, events): rampmeter has none yet.

Rules:
- DROP PROCEDURE / FUNCTION / TRIGGER / EVENT therefore always names a program that does not
  exist: with IF EXISTS it is a note, without it the error, both as MariaDB words them
  (1305 "PROCEDURE db.p does not exist", 1360 "Trigger does not exist", 1539 "Unknown event").
- Creating one is 1235 (not supported yet), answered by the DDL room.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rampmeter.engine.base import Result, UpdateCount
from rampmeter.errors import ServerError, Warning_
from rampmeter.sql.reader import Reader

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

KINDS = ("PROCEDURE", "FUNCTION", "TRIGGER", "EVENT", "PACKAGE")


def drop(s: SqliteSession, r: Reader, kind: str) -> Result:
    """DROP <kind> [IF EXISTS] [db.]name, the words after DROP <kind>."""
    if_exists = r.accept("IF", "EXISTS")
    db, name = r.qualified_name()
    r.end()
    if kind == "TRIGGER":
        code, message = 1360, "Trigger does not exist"
    elif kind == "EVENT":
        code, message = 1539, f"Unknown event '{name}'"
        if if_exists:
            code, message = 1305, f"Event {name} does not exist"
    else:
        code, message = 1305, f"{kind} {db or s.database or ''}.{name} does not exist"
    if if_exists:
        return UpdateCount(warnings=[Warning_("Note", code, message)])
    raise ServerError(code, message=message, sqlstate="42000" if code == 1305 else "HY000")
