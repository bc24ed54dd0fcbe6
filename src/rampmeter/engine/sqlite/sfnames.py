"""Stored functions called with their database, `db.f(args)`, as SQLite can call them.

Rules:
- SQLite knows functions by a bare name, so translate.py spells `db.f(...)` as
  `rm_sf<len(db)>_<db>_<f>(...)`; errmap.py, the engine session's registration of stored
  functions and the session layer (session/sp/calls.py) read the database and the name back
  with `split`. Only names SQLite takes as identifiers are spelled so (letters, digits, `_`,
  `$`); any other `db.f(...)` is left as written (a syntax error, as before).
- The registration answers for the handle's current occupant like every stored function
  (engine/sqlite/session.py register_function): the database is in the name, the session is
  whoever holds the handle.
"""

from __future__ import annotations

import re

PREFIX = "rm_sf"
_SAFE = re.compile(r"[A-Za-z0-9_$]+\Z")
_SPLIT = re.compile(r"rm_sf(\d+)_", re.IGNORECASE)


def qualified(db: str, name: str) -> str | None:
    """The SQLite name of db.name, or None when SQLite could not take it."""
    if not _SAFE.match(db) or not _SAFE.match(name):
        return None
    return f"{PREFIX}{len(db)}_{db}_{name}"


def split(sqlite_name: str) -> tuple[str, str] | None:
    """(db, name) of a name made by `qualified`, else None."""
    m = _SPLIT.match(sqlite_name)
    if m is None:
        return None
    n = int(m.group(1))
    rest = sqlite_name[m.end():]
    if len(rest) < n + 2 or rest[n] != "_":
        return None
    return rest[:n], rest[n + 1:]
