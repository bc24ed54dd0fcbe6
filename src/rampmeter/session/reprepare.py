"""Re-preparation of a prepared statement (PREPARE ... FROM and COM_STMT_PREPARE alike):
MariaDB checks at each EXECUTE whether a table the statement uses changed since it was
prepared (an ALTER, a DROP and CREATE, a table replaced by a view), and if so prepares it
again before running it, counting Com_stmt_reprepare.

Rules:
- remember() takes the tables' versions after a PREPARE (engine.table_versions); refresh()
  compares them at an EXECUTE (engine.tables_changed) and, on a change, counts the
  re-preparation first and prepares the statement's text again: what fails to prepare now is
  the EXECUTE's error (1054 for a dropped column, 1222 for a UNION of other widths...), and the
  statement keeps its old versions, so the next EXECUTE re-prepares again, as MariaDB's does.
  A success replaces the statement in place (handle, result columns, versions).
- A table that is gone is not a change (the execution fails with 1146 without re-preparing).
- Statements prepared for a routine's own use (sp/run.py) remember nothing: they are
  prepared at each call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rampmeter.engine.base import PreparedStatement
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session


def remember(s: Session, prepared: PreparedStatement) -> None:
    handle = prepared.handle
    if s.engine is not None and isinstance(handle, Statement) and handle.is_dml:
        prepared.versions = s.engine.table_versions(handle)


def refresh(s: Session, prepared: PreparedStatement) -> None:
    versions = prepared.versions
    if versions is None or s.engine is None or not s.engine.tables_changed(versions):
        return
    s.counters["Com_stmt_reprepare"] += 1
    from rampmeter.session import statements
    handle = prepared.handle
    assert isinstance(handle, Statement)
    fresh = statements.prepare(s, handle)
    prepared.handle = fresh.handle
    prepared.columns = fresh.columns
    prepared.param_count = fresh.param_count
    remember(s, prepared)
