"""Which account a client is: MariaDB's acl_users order, host patterns (accounts.py)."""

from __future__ import annotations

import pytest

from rampmeter.session.accounts import Account, find_login, get_sort, host_matches, sort_accounts


@pytest.mark.parametrize(("pattern", "host", "match"), [
    ("%", "10.1.2.3", True),
    ("10.%", "10.1.2.3", True),
    ("10.%", "110.1.2.3", False),
    ("10.1.2._", "10.1.2.3", True),
    ("10.1.2._", "10.1.2.33", False),
    ("localhost", "127.0.0.1", True),
    ("localhost", "::1", True),
    ("localhost", "localhost", True),
    ("localhost", "10.0.0.1", False),
    ("LocalHost", "127.0.0.1", True),
    ("10.0.0.0/255.255.255.0", "10.0.0.77", True),
    ("10.0.0.0/255.255.255.0", "10.0.1.77", False),
    ("a\\_b", "a_b", True),
    ("a\\_b", "axb", False),
])
def test_host_patterns(pattern: str, host: str, match: bool) -> None:
    assert host_matches(pattern, host) is match


def test_get_sort_orders_exact_before_late_wildcards_before_percent_before_empty() -> None:
    # MariaDB's get_sort: 128 without wildcards, first wildcard position + 1 (+1 more unless the
    # string is a lone '%'), 0 for ''
    assert get_sort("localhost") == 128
    assert get_sort("127.0.0.%") == 10
    assert get_sort("127.%") == 6
    assert get_sort("%") == 1
    assert get_sort("") == 0
    assert get_sort("%", "u") == (1 << 8) + 128


def _accts(*specs: tuple[str, str]) -> list[Account]:
    return sort_accounts([Account(u, h) for u, h in specs])


def test_most_specific_host_wins() -> None:
    ordered = _accts(("app", "%"), ("app", "127.%"), ("app", "127.0.0.%"))
    assert find_login(ordered, "app", "127.0.0.1").host == "127.0.0.%"
    assert find_login(ordered, "app", "10.0.0.1").host == "%"


def test_anonymous_on_an_exact_host_beats_a_named_user_on_percent() -> None:
    # the classic MariaDB surprise, measured on 10.11.19: ''@'127.0.0.1' wins over h@'%'
    ordered = _accts(("h", "%"), ("", "localhost"))
    assert find_login(ordered, "h", "127.0.0.1").user == ""
    assert find_login(ordered, "h", "10.0.0.9").user == "h"
    assert find_login(ordered, "nobody", "127.0.0.1").user == ""


def test_localhost_before_loopback_ip_on_a_tie() -> None:
    ordered = _accts(("root", "127.0.0.1"), ("root", "localhost"))
    assert find_login(ordered, "root", "127.0.0.1").host == "localhost"


def test_roles_never_log_in() -> None:
    ordered = sort_accounts([Account("r", "", is_role=True)])
    assert find_login(ordered, "r", "127.0.0.1") is None
