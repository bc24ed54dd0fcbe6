"""The pinning policy (engine/sqlite/pinning.py) as a table, without threads or handles."""

from __future__ import annotations

import pytest

from rampmeter.engine.sqlite import pinning


@pytest.mark.parametrize(("held", "pins"), [
    ((), False),
    (("transaction",), True),
    (("temporary_tables",), True),
    (("table_locks",), False),
    (("user_locks",), False),
    (("prepared_statements",), False),
    (("table_locks", "user_locks", "prepared_statements"), False),
    (("user_locks", "transaction"), True),
    (("table_locks", "temporary_tables"), True),
])
def test_what_pins(held: tuple[str, ...], pins: bool) -> None:
    assert pinning.pinned(frozenset(held)) is pins
    assert bool(pinning.reasons(frozenset(held))) is pins


def test_every_rule_says_why_and_names_are_unique() -> None:
    names = [r.state for r in pinning.RULES]
    assert len(names) == len(set(names))
    assert all(r.why for r in pinning.RULES)


def test_a_state_without_a_rule_is_a_bug_not_a_silent_no() -> None:
    with pytest.raises(ValueError, match="cursor"):
        pinning.pinned(frozenset({"cursor"}))


def test_reasons_name_the_state_and_the_place() -> None:
    why = pinning.reasons(frozenset({"transaction", "user_locks"}))
    assert len(why) == 1 and why[0].startswith("transaction:")
