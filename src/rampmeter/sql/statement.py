"""The front door for SQL text: a statement is scanned once, into a `Statement` every later step
reads (the session to route it, the engine to plan and run it). Nothing downstream lexes again.

Rules:
- `scan_all(text)` splits a COM_QUERY at top-level semicolons; `scan(text)` takes exactly one
  statement (a second one is 1064 at its first token, as MariaDB answers without
  CLIENT_MULTI_STATEMENTS). Text is `str` decoded with surrogateescape (lexer.py).
- A statement's `words` are its leading keywords (comments skipped, executable comments opened),
  `kind` the first of them. A statement that opens with '(' is a query: its kind is SELECT.
- The shape: the text with comments removed, executable comments opened, runs of whitespace
  made one space and, in DML (SELECT, INSERT, REPLACE, UPDATE, DELETE, WITH, VALUES, TABLE, DO),
  every literal that can be a bound value replaced by a placeholder, its value kept in `slots`.
  Statements with the same shape share one plan (the engine caches plans by shape), so a point
  select is planned once whatever its key.
- Placeholders name their slot and the literal's type, so that a plan, made once per shape, can
  type its results: `:i3` int, `:u3` unsigned 64-bit int beyond BIGINT, `:n3_2` exact decimal of
  scale 2, `:f3` double, `:s3` text, `:b3` binary string, `:x3` a hexadecimal or bit literal
  (a binary string that is a number in arithmetic), `:q3` a client's `?` (typed only at
  execute). `slot_kind(name)` reads one back.
- Literals stay in the shape where a placeholder would change the statement: numbers after
  ORDER BY / GROUP BY / PARTITION BY (positions), inside a type's parentheses (DECIMAL(10,2)),
  after INTERVAL, strings after DATE / TIME / TIMESTAMP (typed literals), and string aliases
  (`SELECT 1 'x'`, `AS 'x'`). Everything in non-DML statements stays (DDL takes no parameters).
- String literal values: adjacent strings concatenate ('a' 'b' is 'ab'). A charset introducer
  (_binary, _utf8mb4, _latin1..., N'...') reinterprets the literal's bytes in that character set;
  `_binary'...'`, X'...', 0x..., b'...' and 0b... are binary strings (bytes); a plain string whose
  bytes are not valid in the client's character set is a binary string too (MariaDB keeps the
  bytes; storing it into a text column is then the column's business).
- `items`: for a query, the outermost select list's items (for INSERT / REPLACE / DELETE ...
  RETURNING, RETURNING's items) as MariaDB names result columns: the
  text as typed (comments included, executable-comment markers removed), except that a lone
  string literal is named by its value, \\N and a lone NULL / TRUE / FALSE by the word in
  capitals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from rampmeter import errors
from rampmeter.errors import ServerError
from rampmeter.sql import charsets
from rampmeter.sql.charsets import Charset
from rampmeter.sql.lexer import (
    DEFAULT,
    TOKEN_KIND,
    Dialect,
    Token,
    bit_value,
    charset_valid,
    dq_kind,
    hex_value,
    identifier_valid,
    included,
    pattern,
    shown_bytes,
    shown_identifier,
    string_value,
    strip_end,
    syntax_error,
)

DML = frozenset({"SELECT", "INSERT", "REPLACE", "UPDATE", "DELETE", "WITH", "VALUES", "TABLE",
                 "DO"})
_MAX_INT = 2**63 - 1
_MAX_UINT = 2**64 - 1

# Clause words that end a select list (at the list's own depth).
_LIST_END = frozenset({"FROM", "INTO", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "UNION",
                       "EXCEPT", "INTERSECT", "WINDOW", "FOR", "LOCK", "PROCEDURE", "RETURNING"})
# Words after which numbers are no longer positions (end an ORDER / GROUP BY list).
_CLAUSE_START = frozenset({"WHERE", "HAVING", "LIMIT", "ON", "SET", "VALUES", "VALUE", "USING",
                           "FROM", "JOIN", "INTO", "UNION", "EXCEPT", "INTERSECT", "SELECT",
                           "WINDOW", "FOR", "LOCK", "ROWS", "RANGE", "OFFSET"})
# Words whose parentheses keep their numbers in the shape: a type's arguments (DECIMAL(10,2)),
# and the functions whose result type depends on a literal argument: fractional-second
# precision (NOW(6)) or a number of decimals (ROUND(x, 2)).
_TYPE_WORDS = frozenset({"NOW", "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP", "SYSDATE",
                         "CURTIME", "CURRENT_TIME", "UTC_TIMESTAMP", "UTC_TIME",
                         "ROUND", "TRUNCATE", "FORMAT",
                         "DECIMAL", "NUMERIC", "DEC", "FIXED", "CHAR", "VARCHAR", "BINARY",
                         "VARBINARY", "DATETIME", "TIME", "TIMESTAMP", "FLOAT", "DOUBLE", "NCHAR",
                         "INT", "INTEGER", "TINYINT", "SMALLINT", "MEDIUMINT", "BIGINT", "SIGNED",
                         "UNSIGNED", "REAL", "BIT", "YEAR", "CHARACTER", "NVARCHAR",
                         "DAY_SECOND"})  # CAST(x AS INTERVAL DAY_SECOND(6))
_SELECT_MODIFIERS = frozenset({"DISTINCT", "ALL", "DISTINCTROW", "HIGH_PRIORITY",
                               "STRAIGHT_JOIN", "SQL_SMALL_RESULT", "SQL_BIG_RESULT",
                               "SQL_BUFFER_RESULT", "SQL_CACHE", "SQL_NO_CACHE",
                               "SQL_CALC_FOUND_ROWS"})
# Words after which a string literal is an operand, not an alias (`a LIKE 'x'` vs `a 'x'`).
_OPERAND_BEFORE = frozenset({
    "SELECT", "WHERE", "HAVING", "ON", "AND", "OR", "XOR", "NOT", "LIKE", "RLIKE", "REGEXP",
    "ESCAPE", "IS", "IN", "BETWEEN", "CASE", "WHEN", "THEN", "ELSE", "BINARY", "INTERVAL",
    "DIV", "MOD", "SET", "VALUES", "VALUE", "BY", "LIMIT", "OFFSET", "AGAINST", "COLLATE",
    "DEFAULT", "RETURN", "SOUNDS", "ANY", "SOME", "ALL", "EXISTS", "SEPARATOR", "USING",
    "OUTFILE", "DUMPFILE", "TERMINATED", "ENCLOSED", "ESCAPED", "STARTING", "DISTINCT", "ROW",
    "MEMBER", "OF", "DO", "UNION", "TABLE", "PASSWORD", "IDENTIFIED", "CHARSET", "CHARACTER",
    "COMMENT", "FORMAT", "DISTINCTROW", "HIGH_PRIORITY", "SQL_NO_CACHE", "SQL_CACHE",
    "SQL_CALC_FOUND_ROWS", "STRAIGHT_JOIN", "SQL_SMALL_RESULT", "SQL_BIG_RESULT",
    "SQL_BUFFER_RESULT", "RETURNING", "WITH"})
_TYPED_LITERAL = frozenset({"DATE", "TIME", "TIMESTAMP"})
_NOT_GRAPH = "".join(map(chr, range(33))) + "\x7f"
_PLUS_NUMBER = re.compile(r"\+\s*(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
_NUMBER = re.compile(r"(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


@dataclass(frozen=True, slots=True)
class ClientParam:
    """A client's `?` in a prepared statement: its value comes at execute time."""

    index: int


class TemporalText(str):
    """A DATE / TIME / DATETIME value bound to a client's `?` by EXECUTE ... USING
    CURRENT_TIME (sqlprepare.py): its text, and `sql_type` ('TIME(0)'...), the type the
    parameter takes (with_params), as MariaDB types a parameter by the value bound."""

    sql_type: str = "DATETIME(0)"

    @staticmethod
    def of(text: str, sql_type: str) -> TemporalText:
        out = TemporalText(text)
        out.sql_type = sql_type
        return out


def slot_name(kind: str, index: int, scale: int = 0) -> str:
    return f"{kind}{index}_{scale}" if kind == "n" else f"{kind}{index}"


def slot_charset(name: str) -> str | None:
    """The character set a string slot's introducer gave it ('c3_latin1' -> 'latin1')."""
    return name.partition("_")[2] if name[:1] == "c" else None


def slot_kind(name: str) -> tuple[str, int, int]:
    """'n3_2' -> ('n', 3, 2); 'i0' -> ('i', 0, 0)."""
    kind = name[0]
    rest = name[1:]
    if kind == "n":
        index, _, scale = rest.partition("_")
        return kind, int(index), int(scale or 0)
    # 'c3_latin1': a string with a charset introducer (slot_charset); 'x3_b': a bit literal
    return kind, int(rest.partition("_")[0]), 0


_TABLELESS = frozenset(("BEGIN", "START", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "USE",
                        "XA", "SHUTDOWN", "KILL", "SIGNAL", "RESIGNAL", "GET", "UNLOCK"))
_FROM = re.compile(r"\bFROM\s+(DUAL\b)?", re.IGNORECASE)


class Statement:
    """One statement, scanned (see the module rules). Read-only after scan."""

    __slots__ = ("text", "words", "kind", "shape", "slots", "names", "param_count", "items",
                 "for_update", "tokens", "dialect", "charset", "_uses_tables")

    def __init__(self, text: str, words: tuple[str, ...], shape: str, slots: tuple[Any, ...],
                 names: tuple[str, ...], param_count: int, items: tuple[str, ...] | None,
                 for_update: bool, tokens: tuple[Token, ...] | None, dialect: Dialect,
                 charset: Charset) -> None:
        self.text = text
        self.words = words
        self.kind = words[0] if words else ""
        self.shape = shape
        self.slots = slots        # literal values (ClientParam for a client's `?`)
        self.names = names        # their placeholder names in the shape, slot by slot
        self.param_count = param_count
        self.items = items
        self.for_update = for_update
        self.tokens = tokens      # for non-DML statements: their tokens, positions in `text`
        self.dialect = dialect
        self.charset = charset
        self._uses_tables: bool | None = None

    def with_values(self, text: str, slots: tuple[Any, ...]) -> Statement:
        """This statement as another text of the same shape spells it: the same placeholders
        with other values (scancache.py, which knows when that holds)."""
        other = Statement(text, self.words, self.shape, slots, self.names, self.param_count,
                          self.items, self.for_update, self.tokens, self.dialect, self.charset)
        other._uses_tables = self._uses_tables
        return other

    def with_params(self, params: tuple[Any, ...] | list[Any]) -> Statement:
        """This statement with each client's `?` given its value and typed by it, as a literal
        of that value would be (`:q3` holding a Decimal of scale 2 becomes `:n3_2`): MariaDB
        types an EXECUTE ... USING parameter by the value bound to it, so `salary * (1 + ?)`
        with @p = 0.10 is exact DECIMAL arithmetic. A NULL or a temporal value stays untyped."""
        renames: dict[str, str] = {}
        casts: dict[str, str] = {}  # a temporal value's `?`: CAST(:sN AS TIME(0))...
        slots: list[Any] = []
        names_kept: list[str] = []
        for name, slot in zip(self.names, self.slots):
            if type(slot) is not ClientParam:
                slots.append(slot)
                names_kept.append(name)
                continue
            value = params[slot.index]
            if type(value) is int and _is_position(self.shape, name):
                renames[name] = str(value)  # ORDER BY ?: a column's position (inlined)
                continue
            if not (type(value) is int and value >= 0) and _is_limit(self.shape, name):
                # LIMIT ? of a string, a fraction, a negative number: stays the client's `?`,
                # read by rm_limit as MariaDB reads it ('qwe' is 0, -1 is 1210)
                names_kept.append(name)
                slots.append(value)
                continue
            names_kept.append(name)
            index = len(slots)
            slots.append(value)
            kind = _value_kind(value)
            if type(value) is TemporalText:
                renames[name] = slot_name("s", index)
                casts[name] = f"CAST(:{renames[name]} AS {value.sql_type})"
            elif kind is not None:
                renames[name] = slot_name(kind[0], index, kind[1])
        names = tuple(renames.get(n, n) for n in names_kept)
        shape = _PARAM_NAME.sub(lambda m: casts.get(m.group(1)) or _renamed(
            renames, m.group(1)), self.shape) if renames else self.shape
        # param_count stays: the text still has its `?` (a rewrite of the text binds params)
        other = Statement(self.text, self.words, shape, tuple(slots), names, self.param_count,
                          self.items, self.for_update, self.tokens, self.dialect, self.charset)
        other._uses_tables = self._uses_tables
        return other

    @property
    def is_dml(self) -> bool:
        return self.kind in DML

    @property
    def keeps_warnings(self) -> bool:
        """SHOW WARNINGS / ERRORS / COUNT(*) read the previous statement's diagnostics."""
        return self.kind == "SHOW" and len(self.words) > 1 and self.words[1] in (
            "WARNINGS", "ERRORS", "COUNT")

    @property
    def uses_tables(self) -> bool:
        """Whether the statement names a table, which is when MariaDB clears the previous
        statement's warnings before running it (a table-less SELECT, SET, DO, BEGIN... keeps
        them for SHOW WARNINGS unless it raises conditions of its own)."""
        uses = self._uses_tables
        if uses is None:
            uses = self._uses_tables = self._names_tables()
        return uses

    def _names_tables(self) -> bool:
        kind = self.kind
        if kind in _TABLELESS:
            return False
        if kind in ("SELECT", "SET", "DO", "VALUES", "("):
            return any(m.group(1) is None for m in _FROM.finditer(self.shape))
        if kind in _COMPOUND_FIRST:
            return False
        if kind in ("CREATE", "DROP", "ALTER", "CALL"):  # routines are not tables
            return kind != "CALL" and not _PROGRAM_OBJECTS.intersection(self.words[1:4]) \
                and "DEFINER" not in self.words[1:4]
        return True

    def syntax_error(self, shape_pos: int | None = None) -> Exception:
        """1064 quoting the client's text, from the place `shape_pos` of the shape maps to."""
        if shape_pos is None:
            return syntax_error(self.text, 0)
        return syntax_error(self.text, _text_position(self, shape_pos))

    def __repr__(self) -> str:
        return f"Statement({self.shape!r}, slots={self.slots!r})"


def scan(text: str, dialect: Dialect = DEFAULT, charset: Charset = charsets.UTF8MB4, *,
         client_params: bool = False) -> Statement:
    """Exactly one statement (an empty one has kind '')."""
    stmts = _scan(text, dialect, charset, client_params, multi=False)
    return stmts[0]


def scan_all(text: str, dialect: Dialect = DEFAULT,
             charset: Charset = charsets.UTF8MB4) -> list[Statement]:
    """The statements of a multi-statement COM_QUERY; empty ones (a trailing ';') dropped."""
    return [s for s in _scan(text, dialect, charset, False, multi=True) if s.kind or s.shape]


_CONSTANT_WORDS = frozenset(("NULL", "TRUE", "FALSE"))  # items MariaDB names in capitals


class _Item:
    """The select list being named (see `items`)."""

    __slots__ = ("depth", "start", "names", "markers", "tokens", "literal", "active", "last",
                 "prev", "lead")

    def __init__(self, depth: int, start: int) -> None:
        self.depth = depth
        self.start = start
        self.names: list[str] = []
        self.markers: list[tuple[int, int]] = []
        self.tokens = 0          # significant tokens in the current item
        self.literal: Any = None  # the value when the item so far is one string literal
        self.active = True
        self.last = start        # where the item's last significant token ends
        self.prev = start        # ... and the one before it (the token closing the item)
        self.lead = 0            # '(' tokens the item begins with

    def close(self, text: str, end: int) -> None:
        last = self.last if self.last <= end else self.prev
        if self.start < last < end:
            end = last  # a comment after the item is not part of its name
        if self.literal is not None and self.tokens == 1 + 2 * self.lead:
            # MariaDB names a lone string literal by its value: '' when the value is not valid
            # UTF-8, and a NUL shown as \x00
            value = self.literal
            if isinstance(value, bytes):
                value = value.decode("utf-8", "surrogateescape")
            # leading spaces and control characters are dropped (MariaDB's Item::set_name)
            value = value.lstrip(_NOT_GRAPH)
            name = value.replace("\0", "\\x00") if charset_valid(value) else ""
        else:
            pieces, pos = [], self.start
            for a, b in self.markers:
                if a >= pos and b <= end:
                    pieces.append(text[pos:a])
                    pos = b
            pieces.append(text[pos:end])
            name = shown_bytes("".join(pieces).strip(" \t\n\r\f\v"))
            if name == "\\N":
                name = "NULL"
            elif name.upper() in _CONSTANT_WORDS:
                name = name.upper()
            elif name[:1] == "+" and _PLUS_NUMBER.match(name):
                name = name[1:].lstrip()  # MariaDB drops a unary plus: the number names it
            elif self.lead and name[:1] == "(":
                name = _parenthesized(name, self.lead)
        self.names.append(name)
        self.markers = []
        self.tokens = 0
        self.literal = None
        self.lead = 0


def _parenthesized(name: str, lead: int) -> str:
    """An item in parentheses keeps the name of what they enclose when that already has one
    (MariaDB's parser names only items without a name): a number is named as typed, NULL /
    TRUE / FALSE / \\N by the word in capitals; anything else by the whole text."""
    inner = name
    for _ in range(lead):
        if inner[:1] != "(" or inner[-1:] != ")":
            return name
        inner = inner[1:-1].strip(" \t\n\r\f\v")
    if _NUMBER.match(inner):
        return inner
    if inner == "\\N" or inner.upper() in _CONSTANT_WORDS:
        return "NULL" if inner == "\\N" else inner.upper()
    return name


# Words the scanner acts on (module rules); every other word is only copied to the shape.
_W_SELECT, _W_END, _W_BY, _W_CLAUSE, _W_FORUPD, _W_TYPE, _W_MOD, _W_N, _W_RETURNING = \
    range(1, 10)
_WORD_ACTION: dict[str, int] = {}
for _w in _CLAUSE_START:
    _WORD_ACTION[_w] = _W_CLAUSE
for _w in _LIST_END:
    _WORD_ACTION[_w] = _W_END
for _w in _SELECT_MODIFIERS:
    _WORD_ACTION[_w] = _W_MOD
for _w in _TYPE_WORDS:
    _WORD_ACTION.setdefault(_w, _W_TYPE)
for _w in ("UPDATE", "MODE", "SHARE"):
    _WORD_ACTION.setdefault(_w, _W_FORUPD)
_WORD_ACTION.update({"SELECT": _W_SELECT, "BY": _W_BY, "N": _W_N,
                     "RETURNING": _W_RETURNING})
_SPACE = " "


class _Builder:
    """One statement while it is scanned."""

    __slots__ = ("start", "out", "slots", "names", "words", "toks", "n_client", "for_update",
                 "item")

    def __init__(self, start: int) -> None:
        self.start = start
        self.out: list[str] = []
        self.slots: list[Any] = []
        self.names: list[str] = []
        self.words: list[str] = []
        self.toks: list[Token] | None = None
        self.n_client = 0
        self.for_update = False
        self.item: _Item | None = None

    def finish(self, text: str, end: int, dialect: Dialect, cs: Charset) -> Statement:
        item = self.item
        if item is not None and item.active:
            item.close(text, end)
        out = self.out
        shape = "".join(out).strip()
        raw = text[self.start:end]
        body = raw.lstrip(" \t\n\r\f\v\x00")
        toks = self.toks
        base = self.start + len(raw) - len(body)
        if toks is not None and base:  # token places count from the statement's own text
            toks = [Token(t.kind, t.text, t.start - base, t.end - base) for t in toks]
        return Statement(body.rstrip(" \t\n\r\f\v\x00"), tuple(self.words),
                         shape, tuple(self.slots), tuple(self.names), self.n_client,
                         tuple(item.names) if item is not None else None, self.for_update,
                         tuple(toks) if toks is not None else None, dialect, cs)


def _scan(text: str, dialect: Dialect, cs: Charset, client_params: bool,  # noqa: C901
          multi: bool) -> list[Statement]:
    """The scanner (module rules). One pass over the lexer's matches; per-token work is kept
    to a dictionary lookup for most words, because every statement pays for it."""
    rx = pattern(dialect)
    dq = dq_kind(dialect)
    backslash = dialect.backslash_escapes
    n = len(text)
    stmts: list[Statement] = []
    word_action = _WORD_ACTION.get

    b = _Builder(0)
    out = b.out
    slots = b.slots
    words = b.words
    words_open = True         # still collecting leading words
    parametrize = False
    toks: list[Token] | None = None
    inline = [False]          # per paren depth: numbers stay literal (ORDER BY, type args)
    depth = 0
    prev = ""                 # previous significant token: upper word, or a marker for others
    prev_kind = ""
    pending_type_paren = False
    last_string_slot = -1     # slot index of the previous token when it was a string literal
    intro: Charset | None = None  # a charset introducer waiting for its literal
    intro_out = -1
    item: _Item | None = None
    select_seen = False
    in_exec = False
    unary_minus = -1          # where a unary '-' sits in `out` (folded into a number after it)

    pos = 0
    while True:
        restart = -1
        for m in rx.finditer(text, pos):
            kind = m.lastgroup
            start = m.start(kind)  # type: ignore[arg-type]
            if unary_minus >= 0 and kind != "num" and kind != "comment":
                if not (kind == "op2" and unary_minus == len(out)):
                    unary_minus = -1
            if start != m.start() and out and out[-1] is not _SPACE:
                out.append(_SPACE)
            elif kind == "word" and out and out[-1][:1] == ":":
                out.append(_SPACE)  # 'a'like 'b': the placeholder :s0 ends before the word
            if kind == "word":
                end = m.end()
                tok = text[start:end]
                if not tok.isascii() and not identifier_valid(tok):
                    # (a multi-byte set's unmapped character, held as a hole: its bytes)
                    unmapped = _unmapped_identifier(text, start, cs) if cs.maxlen > 1 else None
                    raise unmapped or ServerError(errors.ER_INVALID_CHARACTER_STRING,
                                                  _ident_cs(cs), shown_identifier(tok))
                upper = tok.upper()
                if words_open:
                    if not words:
                        parametrize = upper in DML
                        if not parametrize:
                            toks = b.toks = []
                    if len(words) < 6:
                        words.append(upper)
                if toks is not None:
                    toks.append(Token("word", tok, start, end))
                if item is not None and item.active:
                    item.tokens += 1
                    item.prev, item.last = item.last, end
                if parametrize:
                    action = word_action(upper)
                    if upper == "GROUP" and prev == "WITHIN":
                        action = None  # PERCENTILE_CONT(p) WITHIN GROUP (ORDER BY x): no clause
                    if intro is not None:
                        intro = None
                    if action is not None:
                        if action == _W_SELECT:
                            if not select_seen and (depth == 0 or words[0] != "WITH"):
                                select_seen = True
                                item = b.item = _Item(depth, end)
                            inline[-1] = False
                        elif item is not None and item.active and depth == item.depth:
                            if action == _W_END or action == _W_RETURNING:
                                item.tokens -= 1
                                item.close(text, start)
                                item.active = False
                            elif action == _W_MOD and item.tokens == 1 and not item.names:
                                item.start = end
                                item.tokens = 0
                        if action == _W_RETURNING and depth == 0:
                            # the written rows come back: their columns are named after
                            # RETURNING's items, as a select list's are
                            item = b.item = _Item(depth, end)
                            select_seen = True  # its subqueries' lists name nothing
                        if action == _W_BY:
                            if prev in ("ORDER", "GROUP", "PARTITION"):
                                inline[-1] = True
                        elif action == _W_CLAUSE or action == _W_END or action == _W_RETURNING:
                            inline[-1] = False
                        if depth == 0 and (upper == "UPDATE" and prev == "FOR" or
                                           upper == "MODE" and prev == "SHARE" or
                                           upper == "SHARE" and prev == "FOR"):
                            b.for_update = True
                        if action == _W_N and end < n and text[end] == "'":
                            intro, intro_out = charsets.charset("utf8mb3"), len(out)
                        pending_type_paren = action == _W_TYPE
                    else:
                        pending_type_paren = False
                        if tok[0] == "_" and len(tok) > 1:
                            intro = charsets.charset(tok[1:])
                            intro_out = len(out)
                if prev_kind == "str" and out and out[-1][:1] == ":":
                    out.append(_SPACE)  # ''AND: the slot's name must not run into the word
                out.append(tok)
                prev = upper
                prev_kind = "word"
                last_string_slot = -1
                continue

            if kind == "end":
                if in_exec:  # `/*! ...` never closed: MariaDB's grammar ends there
                    raise syntax_error(text, n)
                break
            end = m.end()
            tok = text[start:end]
            if kind == "comment":
                if out and out[-1] is not _SPACE:
                    out.append(_SPACE)
                continue
            if kind == "xopen":
                if tok == "/*M!" and end < n and text[end].isdigit():
                    raise syntax_error(text, end)  # a version must have 5 or 6 digits
                if out and out[-1] is not _SPACE:
                    out.append(_SPACE)
                if included(tok, dialect):
                    in_exec = True
                    if item is not None and item.active:
                        item.markers.append((start, end))
                    continue
                close = text.find("*/", end)
                if close < 0:
                    raise syntax_error(text, start)
                if item is not None and item.active:  # a skipped version comment: not named
                    item.markers.append((start, close + 2))
                restart = close + 2
                break
            if kind == "xclose" and in_exec:
                in_exec = False
                if item is not None and item.active:
                    item.markers.append((start, end))
                if out and out[-1] is not _SPACE:
                    out.append(_SPACE)
                continue
            if kind == "bad" and tok == ":" and not parametrize:
                kind = "colon"  # `lbl:BEGIN` (a label) outside DML, where no shape is made
            elif kind == "bad" or kind == "unclosed":
                if tok == "\x00" and not strip_end(text[start:]):
                    break
                if cs.maxlen == 1 and "\udc80" <= tok <= "\udcff":
                    raise _invalid_identifier(text, start, cs)
                if "\udc80" <= tok <= "\udcff":
                    unmapped = _unmapped_identifier(text, start, cs)
                    if unmapped is not None:
                        raise unmapped
                raise syntax_error(text, start)
            if tok == ";" and depth == 0 and toks is not None and open_blocks(words, toks):
                toks.append(Token("op", tok, start, end))  # inside BEGIN ... END: the body's
                prev, prev_kind = tok, kind
                continue
            if tok == ";" and depth == 0:
                if not multi:
                    # Only an empty statement may follow (a trailing ';').
                    rest = text[end:]
                    if strip_end(rest).strip(" \t\n\r\f\v;"):
                        raise syntax_error(text, end + (len(rest) - len(rest.lstrip())))
                    if in_exec:  # `/*! ...;`: the `;` is trimmed, the comment never closed
                        raise syntax_error(text, n)
                    stmts.append(b.finish(text, start, dialect, cs))
                    return stmts
                stmts.append(b.finish(text, start, dialect, cs))
                b = _Builder(end)
                out, slots, words = b.out, b.slots, b.words
                words_open, parametrize, toks, inline, depth = True, False, None, [False], 0
                prev, prev_kind, pending_type_paren, last_string_slot = "", "", False, -1
                intro, item, select_seen = None, None, False
                continue

            # --- a significant token that is not a word -------------------------------------
            if words_open:
                words_open = False
                if not words and tok == "(":
                    words.append("SELECT")
                    parametrize = True
            if toks is not None:
                toks.append(Token(dq if kind == "dq" else TOKEN_KIND.get(kind, kind),
                                  tok, start, end))
            if item is not None and item.active:
                item.tokens += 1
                item.prev, item.last = item.last, end

            if kind == "str" or kind == "dq" and dq == "str":
                value: Any = string_value(tok, backslash)
                if parametrize and prev == "COLLATE" and prev_kind == "word" and \
                        intro is None and last_string_slot < 0:
                    # COLLATE 'latin1_bin' names a collation, as COLLATE latin1_bin does
                    out.append("`" + str(value).replace("`", "``") + "`")
                    prev, prev_kind = "'", "str"
                    continue
                literal_here = parametrize and not (
                    prev in _TYPED_LITERAL and prev_kind == "word" and intro is None or
                    prev == "INTERVAL" or _is_alias(prev, prev_kind) and intro is None)
                if not literal_here:
                    if last_string_slot < 0:
                        out.append(tok)
                    intro = None
                    prev, prev_kind = "'", "str"
                    continue
                value = _string_slot(value, intro, cs)
                had_intro = intro
                # a binary string (`_binary'..'`, or any literal under SET NAMES binary) is :b;
                # other literals are text even with bytes invalid in their character set, which
                # MariaDB keeps as they are and announces in that character set
                binary = isinstance(value, bytes) and (intro or cs).is_binary
                if had_intro is not None:
                    del out[intro_out:]
                    if out and out[-1] is not _SPACE and start != m.start():
                        out.append(_SPACE)
                    intro = None
                concat = last_string_slot >= 0
                if concat:  # 'a' 'b': one literal, of the first one's kind
                    slots[last_string_slot] = _concat(slots[last_string_slot], value)
                else:
                    last_string_slot = len(slots)
                    slots.append(value)
                    name = slot_name("b" if binary else "s", last_string_slot)
                    if had_intro is not None and not binary and not isinstance(value, bytes):
                        name = f"c{last_string_slot}_{had_intro.name}"  # _utf8'..': typed so
                    b.names.append(name)
                    out.append(":" + name)
                if item is not None and item.active:
                    item.tokens -= (had_intro is not None) + concat  # one literal, however spelled
                    if item.tokens == 1 + item.lead:
                        item.literal = slots[last_string_slot]
                prev, prev_kind = "'", "str"
                continue
            last_string_slot = -1

            if kind == "num":
                if parametrize and not inline[-1] and prev != "INTERVAL":
                    if unary_minus >= 0 and unary_minus >= len(out) - 2:
                        # -9223372036854775808 is one BIGINT literal, not 0 - 2^63
                        del out[unary_minus:]
                        tok = "-" + tok
                    name = _number_slot(tok, slots)
                    b.names.append(name)
                    out.append(":" + name)
                else:
                    out.append(tok)
                intro = None
                prev, prev_kind = tok, "num"
                continue
            if kind == "hex" or kind == "bit":
                raw = hex_value(tok) if kind == "hex" else bit_value(tok)
                if raw is None:
                    raise syntax_error(text, start)
                if parametrize:
                    value = raw
                    typed = None  # _koi8r 0xC1: text of that character set, as _koi8r'..'
                    if intro is not None:
                        if not intro.is_binary:
                            value = _string_slot(intro.decode(raw), None, intro)
                            typed = intro
                        del out[intro_out:]
                        intro = None
                    # x: a hexadecimal or bit literal, a binary string that is also a number
                    name = slot_name("x" if isinstance(value, bytes) else "s", len(slots))
                    if typed is not None and name[0] == "s":
                        name = f"c{len(slots)}_{typed.name}"
                    if kind == "bit" and name[0] == "x":
                        name += "_b"  # b'101': compared with a BIT value as a number
                    slots.append(value)
                    b.names.append(name)
                    out.append(":" + name)
                else:
                    out.append(tok)
                prev, prev_kind = "0x", "num"
                continue
            intro = None
            if kind == "param":
                if not client_params:
                    raise syntax_error(text, start)  # `?` belongs to COM_STMT_PREPARE only
                name = slot_name("q", len(slots))
                slots.append(ClientParam(b.n_client))
                b.names.append(name)
                out.append(":" + name)
                b.n_client += 1
                prev, prev_kind = "?", "param"
                continue
            if kind == "nullsym":
                out.append("NULL")
                prev, prev_kind = "NULL", "word"
                continue
            if kind == "dq" or kind == "qident2":
                if not identifier_valid(tok):
                    raise ServerError(errors.ER_INVALID_CHARACTER_STRING, _ident_cs(cs),
                                      shown_identifier(tok[1:-1]))
                if kind == "dq":  # ANSI_QUOTES: "x" is an identifier; give the engine `x`
                    tok = "`" + tok[1:-1].replace('""', '"').replace("`", "``") + "`"
                out.append(tok)
                prev, prev_kind = "`", "ident"
                continue
            if kind == "word2":  # a word that begins with digits
                if words_open and not words:
                    parametrize = False
                out.append(tok)
                prev, prev_kind = tok.upper(), "word"
                continue
            # operators, variables, punctuation
            if tok == "(":
                inline.append(inline[-1] or pending_type_paren)
                depth += 1
                if item is not None and item.active and item.tokens == item.lead + 1:
                    item.lead += 1  # `((1))`: named as what the parentheses enclose
            elif tok == ")":
                if len(inline) > 1:
                    inline.pop()
                depth -= 1
                if item is not None and item.active and depth < item.depth:
                    item.tokens -= 1
                    item.close(text, start)
                    item.active = False
            elif tok == "," and item is not None and item.active and depth == item.depth:
                item.tokens -= 1
                item.close(text, start)
                item.start = item.last = item.prev = end
            pending_type_paren = False
            if tok == "-" and parametrize and not _is_alias(prev, prev_kind) and \
                    prev_kind != "str":
                unary_minus = len(out)
            out.append(tok)
            prev, prev_kind = tok, ("close" if tok == ")" else kind or "op")
        else:
            break
        if restart < 0:
            break
        pos = restart
    stmts.append(b.finish(text, n, dialect, cs))
    return stmts


def _is_alias(prev: str, prev_kind: str) -> bool:
    """Is a string literal after this token an alias? After an operand, yes (`1 'x'`,
    `a 'x'`, `f() 'x'`); after an operator or a keyword that takes an operand, no."""
    if prev_kind in ("num", "ident", "close", "param"):
        return True
    if prev_kind == "word":
        return prev not in _OPERAND_BEFORE and prev not in _TYPED_LITERAL
    return False


_IDENT_RUN = re.compile("[\\w$\u0080-\U0010ffff]+")


def _invalid_identifier(text: str, pos: int, cs: Charset) -> ServerError:
    """A byte the client's single-byte character set does not map (kept as a lone surrogate,
    lexer.py): MariaDB's lexer takes every byte above 0x7F of such a set into an identifier,
    then refuses the identifier (1300, quoting it whole: mtr ctype_dec8). (In a multi-byte set
    a byte that starts no character is a 1064, as before.)"""
    start = pos
    while start > 0 and _IDENT_RUN.match(text[start - 1]):
        start -= 1
    found = _IDENT_RUN.match(text, start)
    return ServerError(errors.ER_INVALID_CHARACTER_STRING, _ident_cs(cs),
                       shown_identifier(found.group() if found else text[pos]))


def _unmapped_identifier(text: str, pos: int, cs: Charset) -> ServerError | None:
    """A multi-byte character set's sequence that has a character's structure but no
    character (mbstructure.py): MariaDB refuses the identifier it stands in with 1300."""
    from rampmeter.sql import mbstructure
    if not mbstructure.has_structure(cs.name):
        return None
    start = pos
    while start > 0 and _IDENT_RUN.match(text[start - 1]):
        start -= 1
    found = _IDENT_RUN.match(text, start)
    if found is None:
        return None
    quoted = mbstructure.shown(cs.name, cs.codec, cs.encode(found.group()),
                               start > 0 and text[start - 1] == ".")
    if quoted is None:
        return None
    return ServerError(errors.ER_INVALID_CHARACTER_STRING, _ident_cs(cs), quoted)


def _ident_cs(cs: Charset) -> str:
    """The character set 1300 names for an invalid identifier: the client's, or utf8mb3 (the
    identifiers' own) when the client sends binary."""
    return "utf8mb3" if cs.is_binary else cs.name


def _string_slot(value: str, intro: Charset | None, client: Charset) -> str | bytes:
    """A string literal's slot value: text, or bytes for a binary string (module rules)."""
    if intro is None:
        if charsets.is_valid(value) and not client.is_binary:
            return value
        return client.encode(value)
    if intro.is_binary:
        return client.encode(value)
    if intro is client or intro.codec == client.codec:
        return value if charsets.is_valid(value) else client.encode(value)
    text = intro.decode(client.encode(value))
    return text if charsets.is_valid(text) else intro.encode(text)


def _concat(a: Any, b: Any) -> Any:
    if isinstance(a, bytes) or isinstance(b, bytes):
        ab = a if isinstance(a, bytes) else a.encode("utf-8", "surrogateescape")
        bb = b if isinstance(b, bytes) else b.encode("utf-8", "surrogateescape")
        return ab + bb
    return a + b


_PARAM_NAME = re.compile(r":(q\d+)\b")


def _renamed(renames: dict[str, str], name: str) -> str:
    new = renames.get(name, name)
    return new if new[:1].isdigit() or new[:1] == "-" else ":" + new


_BY_END = re.compile(r"\b(ORDER|GROUP)\s+BY$", re.IGNORECASE)
_ITEM_END = re.compile(r"\s*(,|\)|$|(ASC|DESC|LIMIT|HAVING|WINDOW|UNION|EXCEPT|INTERSECT|FOR|"
                       r"WITH|LOCK|INTO|PROCEDURE)\b)", re.IGNORECASE)


_LIMIT_BEFORE = re.compile(r"\b(LIMIT|OFFSET)$|\bLIMIT\s+:\w+\s*,$", re.IGNORECASE)


def _is_limit(shape: str, name: str) -> bool:
    """Is the client's `?` named `name` a LIMIT or OFFSET count (`LIMIT ?`, `LIMIT 1, ?`,
    `OFFSET ?`)?"""
    m = re.search(r":" + name + r"\b", shape)
    return m is not None and _LIMIT_BEFORE.search(shape[:m.start()].rstrip()) is not None


def _is_position(shape: str, name: str) -> bool:
    """Is the client's `?` named `name` a whole ORDER BY / GROUP BY item? MariaDB reads an
    integer bound there as a column's position (`ORDER BY ?` with 2 sorts by the second
    column), as it reads a number literal there."""
    m = re.search(r":" + name + r"\b", shape)
    if m is None or not _ITEM_END.match(shape, m.end()):
        return False
    before = shape[:m.start()].rstrip()
    if _BY_END.search(before):
        return True
    if not before.endswith(","):
        return False
    # an item after a comma: inside an ORDER / GROUP BY list at this depth
    depth = 0
    for k in range(len(before) - 1, -1, -1):
        ch = before[k]
        if ch == ")":
            depth += 1
        elif ch == "(":
            if depth == 0:
                return False
            depth -= 1
        elif depth == 0 and ch.isalpha() and (k == 0 or not before[k - 1].isalnum()):
            word = re.match(r"[A-Za-z_]+", before[k:])
            w = word.group(0).upper() if word else ""
            if w == "BY":
                return bool(_BY_END.search(before[:k + 2]))
            if w in _CLAUSE_START or w in _LIST_END:
                return False
    return False


def _value_kind(value: Any) -> tuple[str, int] | None:
    """The placeholder kind (and decimal scale) a literal of this value would get, or None
    for a value no literal spells (NULL, a temporal value): it stays a client's `?`."""
    t = type(value)
    if t is int or t is bool:
        if value < -_MAX_INT - 1 or value > _MAX_UINT:
            return "n", 0
        return ("i", 0) if value <= _MAX_INT else ("u", 0)
    if t is Decimal:
        exponent = value.as_tuple().exponent
        return "n", -exponent if isinstance(exponent, int) and exponent < 0 else 0
    if t is float:
        return "f", 0
    if t is str:
        return "s", 0
    if t is bytes:
        return "b", 0
    return None


def _number_slot(tok: str, slots: list[Any]) -> str:
    index = len(slots)
    if "e" in tok or "E" in tok:
        slots.append(float(tok))
        return slot_name("f", index)
    if "." in tok:
        d = Decimal(tok)
        slots.append(d)
        return slot_name("n", index, len(tok) - tok.index(".") - 1)
    value = int(tok)
    if value < -_MAX_INT - 1:  # below BIGINT: MariaDB reads it as a DECIMAL literal
        slots.append(Decimal(value))
        return slot_name("n", index, 0)
    slots.append(value if value <= _MAX_UINT else Decimal(value))
    if value <= _MAX_INT:
        return slot_name("i", index)
    if value <= _MAX_UINT:
        return slot_name("u", index)
    return slot_name("n", index, 0)


class _Tok:
    """A match seen as its token alone (the pattern's matches carry leading whitespace)."""

    __slots__ = ("lastgroup", "_text", "_start")

    def __init__(self, m: re.Match[str]) -> None:
        self.lastgroup = m.lastgroup
        self._start = m.start(m.lastgroup or 0)
        self._text = m.string[self._start:m.end()]

    def group(self) -> str:
        return self._text

    def start(self) -> int:
        return self._start


def _text_position(stmt: Statement, shape_pos: int) -> int:
    """Map a position in the shape back to the client's text (for error messages): walk the
    tokens of both in step. Only the error path pays for this."""
    shape = stmt.shape
    text = stmt.text
    rx = pattern(stmt.dialect)
    skip = ("end", "comment", "xopen", "xclose")
    shape_toks = [_Tok(m) for m in rx.finditer(shape) if m.lastgroup not in skip]
    text_toks = [_Tok(m) for m in rx.finditer(text) if m.lastgroup not in skip]
    # Count the significant shape tokens before shape_pos; the text token with the same
    # ordinal is where the error is. Placeholders (":" + name) are two shape tokens for one
    # literal (or several, for concatenated strings and introducers): fold them.
    ordinal = 0
    i = 0
    while i < len(shape_toks) and shape_toks[i].start() < shape_pos:
        t = shape_toks[i]
        if t.group() == ":" and i + 1 < len(shape_toks):
            i += 1  # the placeholder's name
        ordinal += 1
        i += 1
    j = 0
    k = 0
    while j < len(text_toks) and k < ordinal:
        t = text_toks[j]
        if t.lastgroup == "word" and t.group()[0] == "_" and \
                charsets.charset(t.group()[1:]) is not None and j + 1 < len(text_toks) and \
                text_toks[j + 1].lastgroup in ("str", "dq", "hex", "bit"):
            j += 1  # introducer + literal: one placeholder
        while j + 1 < len(text_toks) and t.lastgroup in ("str", "dq") and \
                text_toks[j + 1].lastgroup in ("str", "dq"):
            j += 1
            t = text_toks[j]
        j += 1
        k += 1
    if j < len(text_toks):
        return text_toks[j].start()
    return len(strip_end(text))


# --- compound statements: a ';' inside BEGIN ... END does not end the statement -----------------
_PROGRAM_OBJECTS = frozenset({"PROCEDURE", "FUNCTION", "TRIGGER", "EVENT", "PACKAGE"})
_COMPOUND_FIRST = frozenset({"IF", "CASE", "WHILE", "REPEAT", "LOOP", "FOR"})


def is_program(words: tuple[str, ...] | list[str], toks: list[Token] | tuple[Token, ...]) -> bool:
    """Does the statement hold a stored program body: CREATE ... PROCEDURE / FUNCTION /
    TRIGGER / EVENT, ALTER EVENT, BEGIN NOT ATOMIC, `label:`, or a compound statement (IF, CASE, WHILE...)
    at top level, as MariaDB allows outside programs?"""
    if not toks:
        return False
    k = _after_set_for(toks)
    if k:
        toks = toks[k:]
        if not toks:
            return False
    first = toks[0].text.upper() if toks[0].kind == "word" else ""
    if first == "CREATE":
        return any(t.kind == "word" and t.text.upper() in _PROGRAM_OBJECTS for t in toks[1:12])
    if first == "ALTER":  # ALTER EVENT ... DO body
        return any(t.kind == "word" and t.text.upper() == "EVENT" for t in toks[1:12])
    if first == "BEGIN":
        return len(toks) > 1 and toks[1].kind == "word" and toks[1].text.upper() == "NOT"
    if len(toks) > 1 and toks[1].text == ":" and toks[0].kind in ("word", "qident"):
        return True
    return first in _COMPOUND_FIRST


def _after_set_for(toks: list[Token] | tuple[Token, ...]) -> int:
    """Where the statement of `SET STATEMENT var = value, ... FOR statement` starts (the
    token after the top-level FOR); 0 for any other statement."""
    if len(toks) < 3 or toks[0].kind != "word" or toks[0].text.upper() != "SET" or \
            toks[1].kind != "word" or toks[1].text.upper() != "STATEMENT":
        return 0
    depth = 0
    for k in range(2, len(toks)):
        t = toks[k]
        depth += (t.text == "(") - (t.text == ")")
        if not depth and t.kind == "word" and t.text.upper() == "FOR":
            return k + 1
    return 0


def open_blocks(words: list[str], toks: list[Token]) -> bool:
    """Is a BEGIN / CASE / IF / loop of a program statement still open? BEGIN and CASE always
    open a block; IF, WHILE, REPEAT, LOOP and FOR only where a statement starts (IF( and
    REPEAT( are functions); END [IF | CASE | WHILE ...] closes one."""
    global _last_open
    if not words or not is_program(words, toks):
        return False
    # asked at each ';' of a growing statement: go on from where the last answer for this
    # same token list stopped (a generated procedure has thousands of ';')
    last = _last_open
    if last[0] is toks and last[1] <= len(toks):
        start, depth, body = last[1], last[2], last[3]
    else:
        k = _after_set_for(toks)
        body = _routine_body(toks[k:] if k else toks)
        start, depth, body = k, 0, body + k if body >= 0 else body
    for k in range(start, len(toks)):
        t = toks[k]
        if t.kind != "word":
            continue
        w = t.text.upper()
        if w == "END":
            depth -= 1
        elif w in ("BEGIN", "CASE"):
            if k and toks[k - 1].kind == "word" and toks[k - 1].text.upper() == "END":
                continue
            depth += 1
        elif w in _COMPOUND_FIRST and w != "CASE":
            prev = toks[k - 1] if k else None
            if prev is not None and prev.kind == "word" and prev.text.upper() == "END":
                continue
            if prev is None or prev.text == ";" or prev.text == ":" or k == body or (
                    prev.kind == "word" and prev.text.upper() in _STATEMENT_START):
                depth += 1
    _last_open = (toks, len(toks), depth, body)
    return depth > 0


_last_open: tuple[Any, int, int, int] = (None, 0, 0, -1)  # open_blocks' last token list


# words of a routine's head (after its parameters): RETURNS type, characteristics
_HEAD_WORDS = frozenset({"RETURNS", "COMMENT", "LANGUAGE", "SQL", "NOT", "DETERMINISTIC",
                         "CONTAINS", "NO", "READS", "MODIFIES", "DATA", "SECURITY", "DEFINER",
                         "INVOKER", "CHARSET", "CHARACTER", "COLLATE", "UNSIGNED", "SIGNED",
                         "ZEROFILL", "BINARY", "ASCII", "UNICODE", "BYTE", "PRECISION",
                         "VARYING"})


def _routine_body(toks: list[Token]) -> int:
    """Where the body of CREATE PROCEDURE / FUNCTION / TRIGGER starts when it may be a
    compound statement without BEGIN (`CREATE PROCEDURE p() FOR i IN 1..3 DO ... END FOR`): a
    routine's first IF, CASE, WHILE, REPEAT, LOOP or FOR after the parameters and the head's
    words, a trigger's first word after FOR EACH ROW; else -1."""
    k = next((j for j, t in enumerate(toks[:12]) if t.kind == "word" and
              t.text.upper() in ("PROCEDURE", "FUNCTION", "TRIGGER")), None)
    if k is None:
        return -1
    if toks[k].text.upper() == "TRIGGER":  # ... FOR EACH ROW [{FOLLOWS | PRECEDES} x] body
        for j in range(k, len(toks) - 2):
            if toks[j].text.upper() == "EACH" and toks[j + 1].text.upper() == "ROW":
                j += 2
                if toks[j].text.upper() in ("FOLLOWS", "PRECEDES"):
                    j += 2
                return j
        return -1
    while k < len(toks) and toks[k].text != "(":
        k += 1
    depth = 0
    for j in range(k, len(toks)):
        t = toks[j]
        depth += (t.text == "(") - (t.text == ")")
        if depth or t.text in ("(", ")"):
            continue
        u = t.text.upper() if t.kind == "word" else ""
        if u in _COMPOUND_FIRST:
            return j
        if u == "SET" and toks[j - 1].text.upper() == "CHARACTER":
            continue
        if t.kind == "word" and u not in _HEAD_WORDS and j and \
                toks[j - 1].text.upper() not in ("RETURNS", "CHARSET", "SET", "COLLATE"):
            return -1  # a word of the body: it is no compound statement
        if t.text == ";":
            return -1
    return -1


_STATEMENT_START = frozenset({"BEGIN", "THEN", "ELSE", "DO", "LOOP", "REPEAT", "ATOMIC"})
