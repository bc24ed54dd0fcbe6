"""No statement the engine answers runs without a privilege rule (required.py)."""

from __future__ import annotations

from rampmeter.engine.sqlite import session as engine_session
from rampmeter.session import required, statements
from rampmeter.sql.statement import DML


def test_every_engine_statement_kind_has_a_privilege_rule() -> None:
    kinds = set(engine_session._HANDLERS) | set(DML)
    session_checked = {first for first in statements._SESSION_ROUTES}  # FLUSH: RELOAD there
    unclassified = kinds - required.CHECKED - required.NO_PRIVILEGE - session_checked
    assert not unclassified, f"statement kinds without a privilege rule: {unclassified}"
