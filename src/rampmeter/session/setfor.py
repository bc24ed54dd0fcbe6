"""SET STATEMENT var = value [, var = value ...] FOR statement (MariaDB 10.1+).

Rules:
- The assignments are the session assignments of SET (admin.set_statement: same checks, same
  errors); the statement after FOR then runs as if sent alone; afterwards every variable
  named gets back the value it had, whatever the statement did (also when it failed).
- SET STATEMENT max_statement_time = n FOR ... arms the statement timer (timeout.py) for the
  statement after FOR.
- FOR is found at the top level of the assignments (not inside parentheses); a statement
  without it, or with nothing after it, is 1064 at that place. Each assignment is
  `name [. name] = value` (MariaDB's grammar: no GLOBAL / SESSION, no @@var: 1064 where the
  form breaks; without FOR, 1064 at the word after the first value).
- A value may not hold a subquery that reads a table (1970); the variables MariaDB flags NO_SET_STMT
  (autocommit, the connection's character sets, timeouts...) are 1971.
- The statement after FOR may be any, a stored program's CREATE or BEGIN NOT ATOMIC
  included (sql/statement.py reads its body's `;`s as the program's).
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
    _check_assignments(stmt.text, toks, at)
    if at < 0 or at + 1 >= len(toks) or at == 2:
        raise syntax_error(stmt.text, toks[at].end if at > 2 else
                           toks[at].start if at == 2 else len(stmt.text))
    assignments = stmt.text[toks[2].start:toks[at].start]
    inner = stmt.text[toks[at].end:].strip()
    saved = _saved(s, _names(stmt.text, toks[2:at]))
    # MariaDB parses the whole statement before it sets anything: the statement after FOR
    # is read in the session's sql_mode, not the one it sets (ANSI_QUOTES and the like)
    statement = s.scan(inner)
    admin.set_statement(s, s.scan("SET " + assignments))
    timer = timeout.start(s) if "max_statement_time" in saved else None
    try:
        return execute(s, statement)
    except ServerError as e:
        raise timer.error(e) if timer is not None else e from None
    finally:
        if timer is not None:
            timer.cancel()
        s.vars.update(saved)
        s.charsets_changed = True


# MariaDB's system variables flagged NO_SET_STMT (sys_vars.cc), measured on 10.11
_NO_SET_STATEMENT = frozenset({
    "autocommit", "tx_isolation", "skip_replication", "sql_log_off", "character_set_client",
    "character_set_connection", "character_set_filesystem", "collation_connection",
    "query_cache_type", "wait_timeout", "interactive_timeout"})
_OPERAND = frozenset({"num", "str", "word", "qident", "sysvar", "uservar"})
_OPERATOR_WORDS = frozenset({"AND", "OR", "XOR", "NOT", "IS", "LIKE", "IN", "BETWEEN", "DIV",
                             "MOD", "REGEXP", "RLIKE", "COLLATE", "ESCAPE", "SOUNDS"})


def _operand(t: Any) -> bool:
    return t.kind in _OPERAND and not (t.kind == "word" and t.text.upper() in _OPERATOR_WORDS)


def _check_assignments(text: str, toks: list[Any], at: int) -> None:
    """The assignments' form, and what SET STATEMENT refuses in them (module rules)."""
    end = at if at >= 0 else len(toks)
    k = 2
    while k < end:
        first = toks[k]
        if first.kind not in ("word", "qident"):
            raise syntax_error(text, first.start)
        k += 1
        if k + 1 < end and toks[k].text == "." and toks[k + 1].kind in ("word", "qident"):
            k += 2
        if k >= end or toks[k].text not in ("=", ":="):
            raise syntax_error(text, toks[k].start if k < len(toks) else len(text))
        name = first.text.strip("`").lower()
        if name in _NO_SET_STATEMENT:
            raise ServerError(1971, message=f"The system variable {name} cannot be set in "
                              "SET STATEMENT.", sqlstate="42000")
        k += 1
        depth = 0
        while k < end:
            t = toks[k]
            if t.text == "(":
                depth += 1
                if _reads_tables(toks, k, end):
                    raise ServerError(1970, message="SET STATEMENT does not support "
                                      "subqueries or stored functions", sqlstate="42000")
            elif t.text == ")":
                depth -= 1
            elif depth == 0 and t.text == ",":
                break
            elif depth == 0 and at < 0 and _operand(t) and \
                    (_operand(toks[k - 1]) or toks[k - 1].text == ")"):
                raise syntax_error(text, t.start)  # two operands in a row: FOR is missing
            k += 1
        k += 1


def _reads_tables(toks: list[Any], k: int, end: int) -> bool:
    """Is the `(` at k a subquery that reads a table? (MariaDB folds `(SELECT 1)`, which
    reads none, into a value: only a real subquery is refused.)"""
    if k + 1 >= end or toks[k + 1].kind != "word" or \
            toks[k + 1].text.upper() not in ("SELECT", "WITH"):
        return False
    depth = 0
    for j in range(k, end):
        t = toks[j]
        depth += (t.text == "(") - (t.text == ")")
        if depth == 0:
            return False
        if depth == 1 and t.kind == "word" and t.text.upper() == "FROM" and j + 1 < end and \
                toks[j + 1].text.upper() != "DUAL":
            return True
    return False


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
