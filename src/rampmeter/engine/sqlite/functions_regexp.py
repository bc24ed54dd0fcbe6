"""MariaDB's regular expressions (the library, funclib.py): REGEXP / RLIKE, REGEXP_REPLACE,
REGEXP_SUBSTR, REGEXP_INSTR.

Rules:
- MariaDB compiles patterns with PCRE2 (with PCRE2_UCP for Unicode text: POSIX classes and
  \\w \\d \\s cover every script). Python's `re` lacks much of that syntax (POSIX classes,
  possessive quantifiers, atomic groups, \\p{Script}, \\h, \\R, recursion); the `regex` library
  has it, so patterns are compiled there (version 0 syntax, which reads `[[]` and inline
  flags as PCRE2 does), after the few spellings it reads differently are rewritten:
  `\\x{hhh}`, `\\Q...\\E`, `\\g1`, `\\p{L&}`, the POSIX classes under UCP, MariaDB's word
  boundaries `[[:<:]]` / `[[:>:]]`, and the leading verbs that change nothing for Unicode
  text ((*UCP), (*UTF8), (*LF)); the other newline conventions ((*CR), (*CRLF), (*ANY...))
  are not read (1139).
- A pattern that does not compile is MariaDB's 1139 (SQLSTATE 42000) with PCRE2's wording
  and offset where the library's error has a PCRE2 twin ("missing terminating ] for
  character class at offset 1"); other errors keep the library's words.
- A pattern read from a column is compiled per row, and one that does not compile is NULL
  for that row (MariaDB reports only a constant pattern's error).
- Case: REGEXP follows the collation (translate passes whether a side is binary or _bin);
  `(?i)` / `(?-i)` in the pattern override it, as in PCRE2. The other functions match
  without case, as with the default _ci collations.
- REGEXP_REPLACE: `\\0`..`\\9` in the replacement are the groups (an unknown group is empty,
  `\\` before any other character keeps that character); replacing stops at the first empty
  match, as MariaDB's loop does.
"""

from __future__ import annotations

from typing import Any

import regex

from rampmeter.engine import types as T
from rampmeter.engine.sqlite.funclib import sqlfunction
from rampmeter.engine.sqlite.functions_string import _text
from rampmeter.engine.types import SqlType
from rampmeter.errors import ServerError

INT = SqlType("int", 10)

# POSIX classes as PCRE2 reads them with PCRE2_UCP (pcre2_compile.c's posix_substitutes)
_POSIX_UCP = {
    "alpha": r"\p{L}", "lower": r"\p{Ll}", "upper": r"\p{Lu}", "alnum": r"\p{L}\p{N}",
    "digit": r"\p{Nd}", "space": r"\s", "word": r"\w", "blank": r"\h",
}
_POSIX_NOT = {
    "alpha": r"\P{L}", "lower": r"\P{Ll}", "upper": r"\P{Lu}", "digit": r"\P{Nd}",
    "space": r"\S", "word": r"\W", "blank": r"\H",
}
# the library's words -> PCRE2's (pcre2_error.c), for the errors both have
_PCRE2_WORDS = {
    "unterminated character set": "missing terminating ] for character class",
    "missing )": "missing closing parenthesis",
    "unbalanced parenthesis": "unmatched closing parenthesis",
    "nothing to repeat": "quantifier does not follow a repeatable item",
    "multiple repeat": "quantifier does not follow a repeatable item",
    "min repeat greater than max repeat": "numbers out of order in {} quantifier",
    "bad escape": "unrecognized character follows \\",
    "bad character range": "range out of order in character class",
    "duplicate group name": "two named subpatterns have the same name (PCRE2_DUPNAMES not set)",
}
_GREF = regex.compile(r"\\g(?:(\d+)|\{(\w+)\})")
_VERB = regex.compile(r"\(\*(?:UCP|UTF8?|LF|NO_START_OPT|NO_AUTO_POSSESS|NO_DOTSTAR_ANCHOR)\)")
_CACHE: dict[tuple[str, bool], Any] = {}
_CACHE_LIMIT = 512


def pcre2_to_regex(pattern: str) -> str:
    """Rewrite the PCRE2 spellings `regex` reads differently; everything else is kept."""
    out: list[str] = []
    i, n, in_class = 0, len(pattern), False
    while True:  # leading option verbs that change nothing here (text is Unicode already)
        verb = _VERB.match(pattern, i)
        if verb is None:
            break
        i = verb.end()
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            if nxt == "Q":                       # \Q...\E: literal text
                end = pattern.find("\\E", i + 2)
                end = n if end < 0 else end
                out.append(regex.escape(pattern[i + 2:end]))
                i = end + 2
                continue
            if pattern.startswith("p{L&}", i + 1) or \
                    pattern.startswith("P{L&}", i + 1) and not in_class:  # cased letters
                cased = r"\p{Lu}\p{Ll}\p{Lt}"
                out.append(cased if in_class else f"[{'^' if nxt == 'P' else ''}{cased}]")
                i += 6
                continue
            ref = _GREF.match(pattern, i)
            if ref:                              # \g1, \g{1}, \g{name}: a back reference
                out.append(f"(?:\\g<{ref.group(1) or ref.group(2)}>)")
                i = ref.end()
                continue
            if nxt == "x" and i + 2 < n and pattern[i + 2] == "{":
                close = pattern.find("}", i + 3)
                digits = pattern[i + 3:close] if close > 0 else ""
                if digits and all(d in "0123456789abcdefABCDEF" for d in digits):
                    out.append(f"\\U{int(digits, 16):08x}")
                    i = close + 1
                    continue
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if not in_class and pattern.startswith(("[[:<:]]", "[[:>:]]"), i):
            out.append(r"\b(?=\w)" if pattern[i + 3] == "<" else r"\b(?<=\w)")
            i += 7
            continue
        if c == "[" and pattern.startswith("[:", i) and in_class:
            close = pattern.find(":]", i + 2)
            name = pattern[i + 2:close] if close > 0 else ""
            negated = name.startswith("^")
            table = _POSIX_NOT if negated else _POSIX_UCP
            if name.lstrip("^") in table:
                out.append(table[name.lstrip("^")])
                i = close + 2
                continue
        if c == "[" and not in_class:
            in_class = True
            out.append(c)
            i += 1
            if pattern.startswith("^", i):
                out.append("^")
                i += 1
            if pattern.startswith("]", i):        # a ] first in a class is a member
                out.append("\\]")
                i += 1
            continue
        if c == "]" and in_class:
            in_class = False
        out.append(c)
        i += 1
    return "".join(out)


def compiled(pattern: Any, case_sensitive: bool) -> Any:
    text = _text(pattern)
    key = (text, case_sensitive)
    found = _CACHE.get(key)
    if found is None:
        flags = regex.V0 | regex.DOTALL | (0 if case_sensitive else regex.IGNORECASE)
        try:
            found = regex.compile(pcre2_to_regex(text), flags)
        except regex.error as e:
            raise _error(e) from None
        if len(_CACHE) > _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[key] = found
    return found


def _error(e: Any) -> ServerError:
    words = _PCRE2_WORDS.get(e.msg.split(" (")[0], None)
    if words is None:
        words = next((v for k, v in _PCRE2_WORDS.items() if e.msg.startswith(k)), e.msg)
    if e.pos is not None:
        words += f" at offset {e.pos}"
    return ServerError(1139, message=f"Regex error '{words}'", sqlstate="42000")


def _same_kind(types: list[SqlType | None]) -> SqlType | None:
    first = types[0] if types else None
    if first is not None and first.is_binary_string:
        return T.varbinary(255)
    return T.varchar(255)


def _kind_of(source: Any, result: str) -> Any:
    return result.encode("utf-8", "surrogateescape") if isinstance(source, bytes) else result


@sqlfunction("REGEXP", (2, 4), INT, aliases=("RLIKE",))
def regexp(s: Any, pattern: Any, case_sensitive: Any = 0, per_row: Any = 0) -> Any:
    if s is None or pattern is None:
        return None
    try:
        found = compiled(pattern, bool(case_sensitive))
    except ServerError:
        if per_row:
            return None
        raise
    return 1 if found.search(_text(s)) else 0


@sqlfunction("REGEXP_REPLACE", 3, _same_kind)
def regexp_replace(s: Any, pattern: Any, repl: Any) -> Any:
    if s is None or pattern is None or repl is None:
        return None
    found = compiled(pattern, False)
    text, template = _text(s), _text(repl)
    out: list[str] = []
    start = 0
    while True:
        m = found.search(text, start)
        if m is None or m.end() == m.start():
            out.append(text[start:])
            break
        out.append(text[start:m.start()])
        out.append(_expand(template, m))
        start = m.end()
    return _kind_of(s, "".join(out))


def _expand(template: str, m: Any) -> str:
    out: list[str] = []
    i, n = 0, len(template)
    while i < n:
        c = template[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        nxt = template[i + 1]
        if nxt.isdigit() and nxt.isascii():
            group = int(nxt)
            if group <= (m.re.groups or 0):
                out.append(m.group(group) or "")
        else:
            out.append(nxt)
        i += 2
    return "".join(out)


@sqlfunction("REGEXP_SUBSTR", 2, _same_kind)
def regexp_substr(s: Any, pattern: Any) -> Any:
    if s is None or pattern is None:
        return None
    m = compiled(pattern, False).search(_text(s))
    return _kind_of(s, m.group(0) if m else "")


@sqlfunction("REGEXP_INSTR", 2, INT)
def regexp_instr(s: Any, pattern: Any) -> Any:
    if s is None or pattern is None:
        return None
    m = compiled(pattern, False).search(_text(s))
    return m.start() + 1 if m else 0
