"""Where MariaDB's grammar stops, for the statements sqlglot reads differently: a user
variable or a client's `?` where no operand may be.

Rules:
- Only statements that already failed to parse, or whose tree names a variable as a table,
  pay for this (a scan of the shape's tokens); the answer is a position in the shape, which
  Statement.syntax_error turns into MariaDB's "near '...'".
- `SELECT a @v t`: after an operand (a name, a literal, a closing parenthesis) a variable
  cannot follow, and MariaDB reports the variable. `FROM @v`, `FROM ?`: neither names a table.
"""

from __future__ import annotations

from rampmeter.engine.sqlite.modifiers import shape_tokens

# Words after which a user variable may come (an operand position), in the statements
# sqlglot could not parse: anything else before `@v` is an operand, and MariaDB stops there.
_BEFORE_OPERAND = frozenset((
    "SELECT", "WHERE", "AND", "OR", "XOR", "NOT", "ON", "SET", "BY", "HAVING", "LIMIT",
    "OFFSET", "IN", "IS", "LIKE", "RLIKE", "REGEXP", "BETWEEN", "CASE", "WHEN", "THEN", "ELSE",
    "VALUES", "VALUE", "DIV", "MOD", "INTERVAL", "DISTINCT", "ALL", "ANY", "SOME", "RETURNING",
    "DO", "INTO", "ESCAPE", "BINARY", "DEFAULT", "RETURN", "USING", "SEPARATOR", "AS"))


def variable_after_operand(text: str) -> int | None:
    toks = shape_tokens(text)
    if toks is None:
        return None
    for i, (prev, t) in enumerate(zip(toks, toks[1:], strict=False), 1):
        # a user variable, or a client's `?` (the shape's :q0, read as `?` and `q0`)
        client = t.kind == "param" and i + 1 < len(toks) and toks[i + 1].text[:1] == "q"
        if t.kind != "uservar" and not client:
            continue
        if prev.kind in ("qident", "num", "str") or prev.text == ")" or \
                prev.kind == "word" and prev.upper not in _BEFORE_OPERAND or \
                client and prev.upper in ("FROM", "JOIN"):
            return t.start
    return None


def variable_as_table(text: str) -> int | None:
    toks = shape_tokens(text) or []
    for prev, t in zip(toks, toks[1:], strict=False):
        if t.kind in ("uservar", "param") and (prev.upper in ("FROM", "JOIN", "UPDATE", "INTO")
                                               or prev.text == ","):
            return t.start
    return None


def empty_call(text: str, name: str) -> int | None:
    """Where `name()` has its `)`: a function of MariaDB's grammar (LAST_VALUE) that takes at
    least one argument is a syntax error there, not 1582."""
    toks = shape_tokens(text)
    if toks is None:
        return None
    upper = name.upper()
    for a, b, c in zip(toks, toks[1:], toks[2:], strict=False):
        if a.upper == upper and b.text == "(" and c.text == ")":
            return c.start
    return None
