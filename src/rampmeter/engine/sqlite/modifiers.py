"""Statement modifiers MariaDB accepts and sqlglot does not: read and taken out of the shape
before it is parsed.

Rules:
- INSERT / REPLACE [LOW_PRIORITY | DELAYED | HIGH_PRIORITY]: no meaning on one writer (an
  INSERT DELAYED is an INSERT, as MariaDB makes it for transactional tables), except that
  DELAYED into a table declared MyISAM / MEMORY / ARCHIVE skips duplicate rows without a
  word, as MariaDB's delayed-insert thread does (translate reads the flag); IGNORE stays
  for sqlglot.
- UPDATE [LOW_PRIORITY] [IGNORE], DELETE [LOW_PRIORITY] [QUICK] [IGNORE]: IGNORE is kept as
  a flag (errors and strict-mode conversions become warnings, duplicate keys skip the row).
- SELECT's options SQL_NO_CACHE, SQL_CACHE, SQL_BUFFER_RESULT, SQL_SMALL_RESULT,
  SQL_BIG_RESULT, HIGH_PRIORITY, STRAIGHT_JOIN change how MariaDB runs a query, not its
  answer; SQL_CALC_FOUND_ROWS is kept as a flag (FOUND_ROWS() then counts the rows without
  LIMIT). DISTINCTROW is DISTINCT.
- The shape has no literals (they are placeholders), so the words are found by tokens, never
  inside a string; a quoted identifier never matches. A word taken out is replaced by as
  many spaces, so positions in the text still map to the client's (syntax errors).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rampmeter.errors import ServerError
from rampmeter.sql import lexer

_PLACEHOLDER = re.compile(r":(?=[a-z]\d)")

_INSERT = frozenset({"LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY"})
_UPDATE = frozenset({"LOW_PRIORITY", "IGNORE"})
_DELETE = frozenset({"LOW_PRIORITY", "QUICK", "IGNORE"})
_SELECT = frozenset({"SQL_NO_CACHE", "SQL_CACHE", "SQL_BUFFER_RESULT", "SQL_SMALL_RESULT",
                     "SQL_BIG_RESULT", "HIGH_PRIORITY", "STRAIGHT_JOIN", "SQL_CALC_FOUND_ROWS",
                     "DISTINCTROW"})
_SELECT_KEEP = frozenset({"DISTINCT", "ALL"})


@dataclass(frozen=True)
class Modifiers:
    ignore: bool = False
    calc_found_rows: bool = False
    delayed: bool = False


NONE = Modifiers()


def shape_tokens(text: str) -> list[lexer.Token] | None:
    """The tokens of a shape (None if it does not lex: sqlglot will say where). A placeholder
    (:i0) is no token of SQL's; read as '?' and a word, positions unchanged."""
    try:
        return lexer.tokens(_PLACEHOLDER.sub("?", text))
    except ServerError:
        return None


def strip(kind: str, text: str) -> tuple[str, Modifiers]:
    """`text` without the modifiers sqlglot cannot read, and what they asked for."""
    upper = text.upper()
    if not any(w in upper for w in ("LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY", "IGNORE",
                                    "QUICK", "SQL_", "STRAIGHT_JOIN", "DISTINCTROW")):
        return text, NONE  # the common statement pays one scan of its upper-cased shape
    toks = shape_tokens(text)
    if toks is None:
        return text, NONE
    cuts: list[tuple[int, int, str]] = []
    ignore = calc = delayed = False
    if toks and toks[0].kind == "word":
        head = toks[0].text.upper()
        allowed = {"INSERT": _INSERT, "REPLACE": _INSERT, "UPDATE": _UPDATE,
                   "DELETE": _DELETE}.get(head, frozenset())
        for t in toks[1:]:
            word = t.text.upper() if t.kind == "word" else ""
            if word not in allowed:
                break
            cuts.append((t.start, t.end, " " * (t.end - t.start)))
            ignore = ignore or word == "IGNORE"
            delayed = delayed or word == "DELAYED"
    for i, t in enumerate(toks):
        if t.kind != "word" or t.text.upper() != "SELECT":
            continue
        for u in toks[i + 1:]:
            word = u.text.upper() if u.kind == "word" else ""
            if word in _SELECT_KEEP:
                continue
            if word not in _SELECT:
                break
            calc = calc or word == "SQL_CALC_FOUND_ROWS"
            put = "DISTINCT" if word == "DISTINCTROW" else ""
            cuts.append((u.start, u.end, put.ljust(u.end - u.start)))
    if not cuts:
        return text, NONE
    out, pos = [], 0
    for start, end, put in sorted(cuts):
        out.append(text[pos:start] + put)
        pos = end
    out.append(text[pos:])
    return "".join(out), Modifiers(ignore, calc, delayed)
