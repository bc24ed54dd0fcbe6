"""sql/limits.py: depth and nesting are estimated from the text in one pass; literals and
comments do not count; a long IN list or argument list is shallow."""

from __future__ import annotations

import pytest

from rampmeter.errors import ServerError
from rampmeter.sql.limits import MAX_EXPRESSION_DEPTH, check

DEEP = MAX_EXPRESSION_DEPTH + 1


@pytest.mark.parametrize("text", [
    "SELECT 1" + "+1" * (MAX_EXPRESSION_DEPTH - 1),
    "SELECT '" + "+" * 5000 + "'",                       # inside a string literal
    "SELECT 1 /* " + "+ " * 5000 + " */",                 # inside comments
    "SELECT 1 -- " + "+" * 5000 + "\n",
    "SELECT 1 # " + "+" * 5000 + "\n",
    "SELECT 1 IN (" + ",".join(["1+1"] * 5000) + ")",      # commas start a new operand
    "SELECT " + "(" * 5000 + "1" + ")" * 5000,            # bare parentheses are folded
    "SELECT 1" + "+1" * 600 + ";SELECT 1" + "+1" * 600,   # each statement on its own
    # precedence: n ORed comparisons are n + 1 deep, not 2n
    "SELECT 1 FROM t WHERE " + " OR ".join(f"a = {i} AND b = -{i}" for i in range(700)),
    "SELECT 1 FROM t WHERE " + " OR ".join(f"a = 'x{i}'" for i in range(700)),
    "SELECT 1" + " + 2 * 3" * 700,
])
def test_within_the_limits(text: str) -> None:
    check(text)


@pytest.mark.parametrize(("text", "code"), [
    ("SELECT 1" + "+1" * DEEP, 1436),
    ("SELECT " + "-" * DEEP + "1", 1436),
    ("SELECT " + "ABS(" * DEEP + "1" + ")" * DEEP, 1436),
    ("SELECT " + "CASE WHEN 1 THEN " * DEEP + "1" + " END" * DEEP, 1436),
    ("SELECT 1 FROM t WHERE " + " OR ".join(["a=1"] * DEEP), 1436),
    ("SELECT " + "(SELECT " * 64 + "1" + ")" * 64, 1473),
])
def test_past_the_limits(text: str, code: int) -> None:
    with pytest.raises(ServerError) as e:
        check(text)
    assert e.value.code == code
    if code == 1436:  # MariaDB's text, with numbers that read as its own
        assert e.value.message.startswith("Thread stack overrun:  ")
