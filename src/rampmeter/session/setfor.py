"""SET STATEMENT var = value [, var = value ...] FOR statement (MariaDB 10.1+).

Rules:
- The assignments are the session assignments of SET (admin.set_statement: same checks, same
  errors); the statement after FOR then runs as if sent alone; afterwards every variable
  named gets back the value it had, whatever the statement did (also when it failed).
- SET STATEMENT max_statement_time = n FOR ... arms the statement timer (timeout.py) for the
  statement after FOR.
- FOR is found at the top level of the assignments (not inside parentheses); a statement
  without it, or with nothing after it, is 1064 at that place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rampmeter.config.options import lookup
from rampmeter.engine.base import Result
from rampmeter.errors import ServerError
from rampmeter.session import timeout
from rampmeter.sql.lexer import syntax_error
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session


def is_set_for(words: tuple[str, ...]) -> bool:
    return len(words) > 1 and words[0] == "SET" and words[1] == "STATEMENT"


def run(s: Session, stmt: Statement, execute: Callable[[Session, Statement], Result]) -> Result:
    from rampmeter.session import admin
    toks = list(stmt.tokens or ())
    depth, at = 0, -1
    for i, t in enumerate(toks[2:], 2):
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        elif depth == 0 and t.kind == "word" and t.upper == "FOR":
            at = i
            break
    if at < 0 or at + 1 >= len(toks) or at == 2:
        raise syntax_error(stmt.text, toks[at].end if at >= 0 else len(stmt.text))
    assignments = stmt.text[toks[2].start:toks[at].start]
    inner = stmt.text[toks[at].end:].strip()
    saved = _saved(s, _names(stmt.text, toks[2:at]))
    admin.set_statement(s, s.scan("SET " + assignments))
    timer = timeout.start(s) if "max_statement_time" in saved else None
    try:
        return execute(s, s.scan(inner))
    except ServerError as e:
        raise timer.error(e) if timer is not None else e from None
    finally:
        if timer is not None:
            timer.cancel()
        s.vars.update(saved)
        s.charsets_changed = True


def _names(text: str, toks: list[Any]) -> list[str]:
    """The variable named first in each comma-separated assignment."""
    names, depth, first = [], 0, True
    for t in toks:
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        elif t.text == "," and depth == 0:
            first = True
            continue
        if first:
            name = t.text[2:] if t.text.startswith("@@") else t.text
            names.append(name.split(".")[-1].strip("`"))
            first = False
    return names


def _saved(s: Session, names: list[str]) -> dict[str, Any]:
    saved: dict[str, Any] = {}
    for name in names:
        opt = lookup(name)
        if opt is not None and opt.name in s.vars:
            saved[opt.name] = s.vars[opt.name]
            if opt.name.startswith(("character_set_", "collation_")):
                for other in ("character_set_client", "character_set_connection",
                              "character_set_results", "collation_connection"):
                    saved[other] = s.vars[other]
    return saved
