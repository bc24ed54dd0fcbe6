"""EXPLAIN / ANALYZE of a statement that reads a view: what its reader must hold besides the
statement's own privileges (MariaDB's view_no_explain, MDEV-7025 / MDEV-7027).

Rules (MariaDB 10.11's; mtr analyze_stmt_privileges):
- `ANALYZE SELECT | INSERT | REPLACE | UPDATE | DELETE | WITH ...` needs what the statement
  needs, as EXPLAIN does (it is no ANALYZE TABLE; required.py).
- Explaining a statement that names a view shows the view's query, so the reader needs SHOW
  VIEW on the view and, on everything the view's query reads (views inside views too), the
  privileges a SELECT of that query would need. Missing any of them is 1345 "ANALYZE/EXPLAIN/
  SHOW can not be issued; lacking privileges for underlying table", whatever the view's SQL
  SECURITY. The session's temporary tables need nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rampmeter.errors import ServerError
from rampmeter.session.privileges import P
from rampmeter.session.security import TableNeed
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session

ER_VIEW_NO_EXPLAIN = 1345
_DML_WORDS = frozenset({"SELECT", "INSERT", "REPLACE", "UPDATE", "DELETE", "WITH", "VALUES",
                        "TABLE", "("})
_DEPTH = 16


def explains_statement(stmt: Statement) -> bool:
    """EXPLAIN / DESCRIBE / ANALYZE of a statement (not of a table, not ANALYZE TABLE)."""
    if stmt.kind not in ("EXPLAIN", "DESCRIBE", "DESC", "ANALYZE"):
        return False
    words = [t.text.upper() for t in (stmt.tokens or ())[1:6]]
    i = 0
    while i < len(words) and words[i] in ("EXTENDED", "PARTITIONS", "ANALYZE", "FORMAT"):
        if words[i] == "FORMAT":
            return True
        i += 1
    return i < len(words) and words[i] in _DML_WORDS


def no_explain() -> ServerError:
    return ServerError(ER_VIEW_NO_EXPLAIN, message="ANALYZE/EXPLAIN/SHOW can not be issued; "
                       "lacking privileges for underlying table", sqlstate="HY000")


def check_views(s: Session, found: list[TableNeed]) -> None:
    """1345 unless the reader may see inside every view among `found` (module rules)."""
    sec, engine = s.security, s.engine
    if sec is None or sec.unchecked or engine is None:
        return
    seen: set[tuple[str, str]] = set()
    todo = [(n.db, n.table, 0) for n in found if n.table]
    while todo:
        db, name, depth = todo.pop()
        key = (db.lower(), name.lower())
        if key in seen or depth > _DEPTH:
            continue
        seen.add(key)
        view = _view_of(engine, db, name)
        if view is None:
            continue
        try:
            sec.check_table(TableNeed(db, name, P.SHOW_VIEW))
            from rampmeter.session.required import _table_need
            for access in engine.access(view.definition):
                if access.temporary:
                    continue
                sec.check_table(_table_need(access))
                todo.append((access.database, access.table, depth + 1))
        except ServerError as e:
            if e.code in (1142, 1143, 1356):
                raise no_explain() from None
            raise


def _view_of(engine: Any, db: str, name: str) -> Any:
    try:
        tdef = engine.table_def(db, name)
    except ServerError:
        return None
    return getattr(tdef, "view", None) if tdef is not None else None
