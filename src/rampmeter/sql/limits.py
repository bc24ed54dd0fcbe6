"""Bounded work per statement: what a statement may cost the parser before it is refused.

Rules:
- The check reads a statement's text once, in linear time, before the scanner or anything
  recursive sees it (string literals and comments are skipped, not read): sqlglot parses and
  generates by recursion, and a tree thousands of levels deep cost minutes and gigabytes there (`SELECT 1+1+...+1` of 1 MB
  held a worker for 28 s and 1 GB of RSS before failing).
- Expression depth is estimated as the parser would build the tree, with MySQL's operator
  precedence: a chain of n operators of one precedence (`a+b+c`, `x OR y OR z`) is n levels
  deep; an operator of lower precedence starts a new operand for those above it (so
  `a=1 OR b=2 OR ...` of n terms is n + 1 deep, not 2n); unary operators (`-`, `~`, `!`, NOT)
  nest; a function call or CASE adds one level for what is inside it; a comma starts a new
  operand at the same level (so an IN list or a CONCAT of 100 000 items is shallow). Bare
  parentheses add nothing (MariaDB folds them; `((((1))))` of 1 000 levels is answered by
  both servers).
- Above MAX_EXPRESSION_DEPTH the statement fails with 1436, the error MariaDB gives for the same
  statements: measured on 10.11 with its default thread_stack of 299 008 bytes, a chain of 500
  `+` or 500 nested CASE / ABS( is answered and one of 1 000 fails with 1436 within
  milliseconds. Our limit sits between the two; the "bytes used" figure of the message is the
  depth times MariaDB's measured cost per level, so the text reads as MariaDB's does.
- Subqueries nested deeper than MAX_SELECT_NESTING fail with 1473 (MariaDB's MAX_SELECT_NESTING
  is 64 including the outer SELECT: 63 nested subqueries pass, 64 fail).
- Known difference (docs/sql.md): MariaDB flattens long AND / OR chains and answers a WHERE of
  100 000 `OR`ed terms; here such a chain is an operator chain like any other and past the
  limit is refused with 1436 in milliseconds, never a minute of work.
"""

from __future__ import annotations

import re

from rampmeter import errors
from rampmeter.errors import ServerError

MAX_EXPRESSION_DEPTH = 800
MAX_SELECT_NESTING = 63        # subqueries inside the outer SELECT (MariaDB: 64 levels in all)
THREAD_STACK = 299_008         # MariaDB 10.11's default thread_stack, for the 1436 text
_STACK_MARGIN = 32_000         # what MariaDB's check_stack_overrun asks to keep free
# bytes per level such that the limit is where MariaDB's stack check trips (299 008 - 32 000)
_BYTES_PER_LEVEL = (THREAD_STACK - _STACK_MARGIN) // MAX_EXPRESSION_DEPTH + 1

# Shorter texts cannot be past either limit: every level of depth costs at least one character
# (`-` / `~` / `!` are one-character unary operators) and every nested subquery "(SELECT" seven.
_SHORT = min(MAX_EXPRESSION_DEPTH, MAX_SELECT_NESTING * len("(SELECT"))

_TOKEN = re.compile(r"""
    '(?:[^'\\]|\\.|'')*'         # string literal
  | /\*.*?\*/                   # comment
  | (?:--[ \t]|\#)[^\n]*           # comment to the end of the line
  | `(?:[^`]|``)*`              # quoted identifier
  | "(?:[^"\\]|\\.|"")*"        # double-quoted (identifier under ANSI_QUOTES, else a slot)
  | :[a-z]\d+(?:_\d+)?          # a literal's slot
  | [0-9][\w.]*                 # a number
  | [A-Za-z_$][\w$]*            # a word
  | <=>|<<|>>|<=|>=|<>|!=|&&|\|\||:=
  | [-+*/%^&|~!=<>(),;?@.]
""", re.VERBOSE | re.DOTALL)

# MySQL's operator precedence, lowest first (the manual's "Operator Precedence")
_BINARY = {"OR": 1, "||": 1, "XOR": 2, "AND": 3, "&&": 3,
           "=": 6, "<=>": 6, ">=": 6, ">": 6, "<=": 6, "<": 6, "<>": 6, "!=": 6, "IS": 6,
           "LIKE": 6, "REGEXP": 6, "RLIKE": 6, "IN": 6, "SOUNDS": 6, "BETWEEN": 6,
           "|": 7, "&": 8, "<<": 9, ">>": 9, "-": 10, "+": 10,
           "*": 11, "/": 11, "DIV": 11, "%": 11, "MOD": 11, "^": 12}
_UNARY = {"NOT": 4, "-": 13, "+": 13, "~": 13, "!": 14}
_LEVELS = 15
# words that start a new expression at the same level (a clause, or a CASE branch)
_RESETS = frozenset(("SELECT", "FROM", "WHERE", "GROUP", "BY", "HAVING", "ORDER", "LIMIT",
                     "SET", "VALUES", "VALUE", "ON", "WHEN", "THEN", "ELSE", "UNION", "AS",
                     "USING", "JOIN", "INTO", "OFFSET", "WINDOW", "PARTITION", "RETURNING"))


class _Frame:
    __slots__ = ("ops", "counts", "base", "select", "case")

    def __init__(self, base: int, *, select: bool = False, case: bool = False) -> None:
        self.ops = 0          # depth of the operand being built at this level
        self.counts = [0] * _LEVELS  # its operators per precedence level
        self.base = base      # depth of the enclosing levels
        self.select = select  # a subquery
        self.case = case      # a CASE ... END

    def operator(self, level: int) -> int:
        """An operator of `level`: it takes what the higher levels built as one operand."""
        counts = self.counts
        for k in range(level + 1, _LEVELS):
            if counts[k]:
                self.ops -= counts[k]
                counts[k] = 0
        counts[level] += 1
        self.ops += 1
        return self.base + self.ops

    def restart(self) -> None:
        if self.ops:
            self.ops = 0
            self.counts = [0] * _LEVELS


def check(text: str) -> None:
    """Raise 1436 / 1473 when a statement (or a multi-statement text) is past the limits above;
    else return."""
    if len(text) < _SHORT:
        return  # the per-statement cost of the common case: one len()
    frames = [_Frame(0)]
    deepest = 0
    nesting = 0
    prev = ""
    for m in _TOKEN.finditer(text):
        tok = m.group()
        first = tok[0]
        if first in "'/#" or tok[:2] == "--":
            if first == "'":
                prev = "'"  # an operand
                continue
            if len(tok) > 1:
                continue  # a comment (a lone '/' is an operator)
        elif first == ";":
            frames, deepest, nesting, prev = [_Frame(0)], 0, 0, ""
            continue
        up = tok.upper() if first.isalpha() or first == "_" else tok
        top = frames[-1]
        if up == "(":
            call = prev[:1].isalpha() or prev[:1] in ("_", "`")
            frames.append(_Frame(top.base + top.ops + (1 if call else 0)))
            deepest = _deeper(deepest, frames[-1].base)
        elif up == ")":
            if len(frames) > 1:
                if frames.pop().select:
                    nesting -= 1
        elif up == ",":
            top.restart()
        elif up == "CASE":
            frames.append(_Frame(top.base + top.ops + 1, case=True))
            deepest = _deeper(deepest, frames[-1].base)
        elif up == "END" and top.case:
            frames.pop()
        elif up == "SELECT" and prev == "(":
            top.select = True
            nesting += 1
            if nesting > MAX_SELECT_NESTING:
                raise ServerError(errors.ER_TOO_HIGH_LEVEL_OF_NESTING_FOR_SELECT)
        elif up in _BINARY or up in _UNARY:
            binary = up in _BINARY and _operand(prev)
            level = _BINARY[up] if binary else _UNARY.get(up, 13)
            deepest = _deeper(deepest, top.operator(level))
        elif up in _RESETS:
            top.restart()
        prev = up


def _operand(prev: str) -> bool:
    """Did the token before end an operand (so a `-` after it is binary)?"""
    if not prev:
        return False
    first = prev[0]
    if first in ")'`\":" or first.isdigit():
        return True
    return (first.isalpha() or first in "_$@") and prev not in _BINARY and \
        prev not in _UNARY and prev not in _RESETS and prev not in ("CASE", "END")


def _deeper(deepest: int, depth: int) -> int:
    if depth <= deepest:
        return deepest
    if depth > MAX_EXPRESSION_DEPTH:
        raise overrun(depth)
    return depth


def overrun(depth: int) -> ServerError:
    used = depth * _BYTES_PER_LEVEL
    return ServerError(errors.ER_STACK_OVERRUN_NEED_MORE, used, THREAD_STACK, _STACK_MARGIN)
