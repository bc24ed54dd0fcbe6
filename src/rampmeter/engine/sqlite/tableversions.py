"""The versions of the tables a prepared statement uses, for its re-preparation
(session/reprepare.py): MariaDB re-prepares a statement at EXECUTE when a table it opens has
changed since its PREPARE, and counts that in Com_stmt_reprepare.

Rules:
- A base table's version is the stamp its stored definition got when last written
  (catalog.py: CREATE, each ALTER, RENAME); a view's is its definition, so a table replaced by
  a view (or a view redefined) is a change. The tables are those the statement reads or writes
  (access.py), under the names it gives them.
- A table that no longer exists is no change: the execution then fails with 1146, which
  MariaDB reports without re-preparing.
- Any DDL moves the engine's schema version and any temporary table's DDL the session's
  temporary version; while both are as at the PREPARE nothing is looked up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rampmeter.engine.sqlite import temporary
from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession
    from rampmeter.sql.statement import Statement

Versions = tuple[tuple[int, int], tuple[tuple[str, str, str], ...]]


def _epoch(s: SqliteSession) -> tuple[int, int]:
    return s.engine.schema_version, temporary.plan_token(s)


def _stamp(s: SqliteSession, database: str, table: str) -> str | None:
    tdef = s.table_def(database, table)
    if tdef is None:
        return None
    if tdef.view is not None:
        return "view:" + tdef.view.definition + ":" + tdef.view.check_option
    return tdef.version


def taken(s: SqliteSession, stmt: Statement) -> Versions | None:
    """The versions of the tables `stmt` uses, now (after its PREPARE)."""
    if not stmt.is_dml:
        return None
    try:
        access = s.access(stmt)
    except ServerError:
        return None
    names = dict.fromkeys((a.database, a.table) for a in access if a.exists)
    found = []
    for db, table in names:
        stamp = _stamp(s, db, table)
        if stamp is not None:
            found.append((db, table, stamp))
    return _epoch(s), tuple(found)


def changed(s: SqliteSession, versions: Any) -> bool:
    """Has a table of `versions` (from taken()) changed since?"""
    if versions is None or versions[0] == _epoch(s):
        return False
    for db, table, stamp in versions[1]:
        now = _stamp(s, db, table)
        if now is not None and now != stamp:
            return True
    return False
