"""Session state tracking: what a statement changed, sent in its OK packet to a client that
asked for it (CLIENT_SESSION_TRACK), as MariaDB 10.11's session trackers.

Rules:
- SESSION_TRACK_SYSTEM_VARIABLES (type 0): the session variables a statement set that are
  in @@session_track_system_variables ('*' = all), one entry each, in the order they were
  set, with the value SHOW VARIABLES shows after the statement; set again to the same value
  counts too (MariaDB reports `SET autocommit=0` twice). SET NAMES sets
  character_set_client / _connection / _results (collation_connection is not reported, as
  in MariaDB).
- SESSION_TRACK_SCHEMA (type 1): the new default database after USE / COM_INIT_DB, when
  @@session_track_schema is ON (the default).
- The statement path records names only (Session.track_changed, one append per variable
  set); the entries are made when the OK is written, and only for a client that asked.
- @@session_track_system_variables is a comma-separated list of variable names, kept sorted
  and without repeats; NULL is 1231 and a name that is not a system variable 1193 (MariaDB),
  for SESSION and GLOBAL alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.config.options import REGISTRY
from rampmeter.errors import ServerError
from rampmeter.protocol.wire import lenenc_bytes, lenenc_str

if TYPE_CHECKING:
    from rampmeter.session.session import Session

SYSTEM_VARIABLES = 0
SCHEMA = 1
SCHEMA_MARK = ""  # Session.track_changed: the default database changed
NAME = "session_track_system_variables"


def normalize(value: Any) -> str:
    """A value for @@session_track_system_variables, checked and in MariaDB's form."""
    if value is None:
        raise ServerError(errors.ER_WRONG_VALUE_FOR_VAR, NAME, "NULL")
    text = value.decode() if isinstance(value, bytes) else str(value)
    if not text.strip():
        return ""
    if text.strip() == "*":
        return "*"
    names: dict[str, None] = {}
    for part in text.split(","):
        name = part.strip().lower()
        opt = REGISTRY.get(name)
        if not name or opt is None or not opt.sysvar:
            raise ServerError(errors.ER_UNKNOWN_SYSTEM_VARIABLE, part.strip() or text)
        names[name] = None
    return ",".join(sorted(names))


def _entry(kind: int, data: bytes) -> bytes:
    return bytes((kind,)) + lenenc_bytes(data)


def take(s: Session) -> bytes:
    """The state change information of the statement that just ended (and forget it)."""
    changed, s.track_changed = s.track_changed, []
    if not s.capabilities & _SESSION_TRACK:
        return b""
    tracked = s.vars[NAME]
    every = tracked == "*"
    wanted = set(tracked.split(",")) if not every else set()
    out = bytearray()
    seen: set[str] = set()
    schema = False
    for name in changed:
        if name == SCHEMA_MARK:
            schema = True
            continue
        if name in seen or not (every or name in wanted):
            continue
        seen.add(name)
        value = REGISTRY[name].display(s.vars[name])
        out += _entry(SYSTEM_VARIABLES, lenenc_str(name) + lenenc_str(str(value)))
    if schema and s.vars["session_track_schema"]:
        out += _entry(SCHEMA, lenenc_str(s.database or ""))
    return bytes(out)


_SESSION_TRACK = 1 << 23  # Capability.SESSION_TRACK
