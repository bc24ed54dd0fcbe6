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
  scale 2, `:f3` double, `:s3` text, `:b3` binary string, `:q3` a client's `?` (typed only at
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
- `items`: for a query, the outermost select list's items as MariaDB names result columns: the
  text as typed (comments included, executable-comment markers removed), except that a lone
  string literal is named by its value and \\N by NULL.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from rampmeter.sql import charsets
from rampmeter.sql.charsets import Charset
from rampmeter.sql.lexer import (
    DEFAULT,
    Dialect,
    Token,
    bit_value,
    dq_kind,
    hex_value,
    included,
    pattern,
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
_TYPE_WORDS = frozenset({"DECIMAL", "NUMERIC", "DEC", "FIXED", "CHAR", "VARCHAR", "BINARY",
                         "VARBINARY", "DATETIME", "TIME", "TIMESTAMP", "FLOAT", "DOUBLE", "NCHAR",
                         "INT", "INTEGER", "TINYINT", "SMALLINT", "MEDIUMINT", "BIGINT", "SIGNED",
                         "UNSIGNED", "REAL", "BIT", "YEAR", "CHARACTER", "NVARCHAR"})
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
    "SQL_BUFFER_RESULT", "RETURNING", "WITH", "AS"})
_TYPED_LITERAL = frozenset({"DATE", "TIME", "TIMESTAMP"})


@dataclass(frozen=True, slots=True)
class ClientParam:
    """A client's `?` in a prepared statement: its value comes at execute time."""

    index: int


def slot_name(kind: str, index: int, scale: int = 0) -> str:
    return f"{kind}{index}_{scale}" if kind == "n" else f"{kind}{index}"


def slot_kind(name: str) -> tuple[str, int, int]:
    """'n3_2' -> ('n', 3, 2); 'i0' -> ('i', 0, 0)."""
    kind = name[0]
    rest = name[1:]
    if kind == "n":
        index, _, scale = rest.partition("_")
        return kind, int(index), int(scale or 0)
    return kind, int(rest), 0


class Statement:
    """One statement, scanned (see the module rules). Read-only after scan."""

    __slots__ = ("text", "words", "kind", "shape", "slots", "names", "param_count", "items",
                 "for_update", "tokens", "dialect", "charset")

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

    @property
    def is_dml(self) -> bool:
        return self.kind in DML

    @property
    def keeps_warnings(self) -> bool:
        """SHOW WARNINGS / ERRORS / COUNT(*) read the previous statement's diagnostics."""
        return self.kind == "SHOW" and len(self.words) > 1 and self.words[1] in (
            "WARNINGS", "ERRORS", "COUNT")

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


class _Item:
    """The select list being named (see `items`)."""

    __slots__ = ("depth", "start", "names", "markers", "tokens", "literal", "active")

    def __init__(self, depth: int, start: int) -> None:
        self.depth = depth
        self.start = start
        self.names: list[str] = []
        self.markers: list[tuple[int, int]] = []
        self.tokens = 0          # significant tokens in the current item
        self.literal: Any = None  # the value when the item so far is one string literal
        self.active = True

    def close(self, text: str, end: int) -> None:
        if self.literal is not None and self.tokens == 1:
            value = self.literal
            name = value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) \
                else value
        else:
            pieces, pos = [], self.start
            for a, b in self.markers:
                if a >= pos and b <= end:
                    pieces.append(text[pos:a])
                    pos = b
            pieces.append(text[pos:end])
            name = "".join(pieces).strip(" \t\n\r\f\v")
            if name == "\\N":
                name = "NULL"
        self.names.append(name)
        self.markers = []
        self.tokens = 0
        self.literal = None


def _scan(text: str, dialect: Dialect, cs: Charset, client_params: bool,
          multi: bool) -> list[Statement]:
    rx = pattern(dialect)
    dq = dq_kind(dialect)
    backslash = dialect.backslash_escapes
    n = len(text)
    end_of_text = len(strip_end(text))
    out_stmts: list[Statement] = []

    # per statement state
    stmt_start = 0
    out: list[str] = []
    slots: list[Any] = []
    words: list[str] = []
    words_open = True        # still collecting leading words
    parametrize = False
    toks: list[Token] | None = None
    inline = [False]         # per paren depth: numbers stay literal (ORDER BY ..., type args)
    depth = 0
    prev = ""                # previous significant token: upper word, or a marker for others
    prev_kind = ""
    pending_type_paren = False
    last_string_slot = -1    # slot index of the previous token when it was a string literal
    intro: Charset | None = None  # a charset introducer waiting for its literal
    intro_out = -1
    n_client = 0
    for_update = False
    item: _Item | None = None
    select_seen = False
    in_exec = False

    def finish(end: int) -> None:
        nonlocal stmt_start, out, slots, words, words_open, parametrize, toks, inline, depth
        nonlocal prev, prev_kind, pending_type_paren, last_string_slot, intro, n_client
        nonlocal for_update, item, select_seen
        if item is not None and item.active:
            item.close(text, end)
        shape = "".join(out).strip()
        stmt_text = text[stmt_start:end].strip(" \t\n\r\f\v\x00")
        names = tuple(p[1:] for p in out if p[:1] == ":" and len(p) > 1 and
                      p[1] in "iunfsbq") if slots else ()
        out_stmts.append(Statement(
            stmt_text, tuple(words), shape, tuple(slots), names, n_client,
            tuple(item.names) if item is not None else None, for_update,
            tuple(toks) if toks is not None else None, dialect, cs))
        out, slots, words, words_open, parametrize, toks = [], [], [], True, False, None
        inline, depth, prev, prev_kind, pending_type_paren = [False], 0, "", "", False
        last_string_slot, intro, n_client, for_update, item, select_seen = -1, None, 0, False, \
            None, False

    pos = 0
    while True:
        restart = -1
        for m in rx.finditer(text, pos):
            kind = m.lastgroup
            tok = m.group()
            start = m.start()
            if kind == "ws" or kind == "comment":
                if out and out[-1] != " ":
                    out.append(" ")
                continue
            if kind == "xopen":
                if included(tok, dialect):
                    in_exec = True
                    if item is not None and item.active:
                        item.markers.append((start, m.end()))
                    if out and out[-1] != " ":
                        out.append(" ")
                    continue
                close = text.find("*/", m.end())
                if close < 0:
                    raise syntax_error(text, start)
                restart = close + 2
                if out and out[-1] != " ":
                    out.append(" ")
                break
            if kind == "xclose" and in_exec:
                in_exec = False
                if item is not None and item.active:
                    item.markers.append((start, m.end()))
                if out and out[-1] != " ":
                    out.append(" ")
                continue
            if kind == "bad" or kind == "unclosed":
                if tok == "\x00" and start >= end_of_text:
                    break
                raise syntax_error(text, start)
            if kind == "op" and tok == ";" and depth == 0:
                if not multi:
                    # Only an empty statement may follow (a trailing ';').
                    rest = text[m.end():]
                    if strip_end(rest).strip(" \t\n\r\f\v;"):
                        raise syntax_error(text, m.end() + (len(rest) - len(rest.lstrip())))
                    finish(start)
                    return out_stmts
                finish(start)
                stmt_start = m.end()
                continue

            # --- a significant token ------------------------------------------------------
            if words_open and kind != "word":
                words_open = False
                if not words and tok == "(":
                    words.append("SELECT")
                    parametrize = True
            if toks is not None:
                tk = kind if kind not in ("dq", "qident2", "colon", "xclose") else (
                    dq if kind == "dq" else "qident" if kind == "qident2" else "op")
                toks.append(Token(tk, tok, start, m.end()))
            if item is not None and item.active:
                item.tokens += 1

            if kind == "word":
                upper = tok.upper()
                if words_open:
                    if not words:
                        parametrize = upper in DML
                        if not parametrize:
                            toks = [Token("word", tok, start, m.end())]
                    if len(words) < 6:
                        words.append(upper)
                if parametrize:
                    if upper == "SELECT":
                        if not select_seen and (depth == 0 or words[:1] != ["WITH"]):
                            select_seen = True
                            item = _Item(depth, m.end())
                            item.tokens = 0
                        inline[-1] = False
                    elif item is not None and item.active and depth == item.depth:
                        if upper in _LIST_END:
                            item.tokens -= 1
                            item.close(text, start)
                            item.active = False
                        elif upper in _SELECT_MODIFIERS and item.tokens == 1 and \
                                not item.names:
                            item.start = m.end()
                            item.tokens = 0
                    if upper == "BY" and prev in ("ORDER", "GROUP", "PARTITION"):
                        inline[-1] = True
                    elif upper in _CLAUSE_START:
                        inline[-1] = False
                    if depth == 0 and (upper == "UPDATE" and prev == "FOR" or
                                       upper == "MODE" and prev == "SHARE" or
                                       upper == "SHARE" and prev == "FOR"):
                        for_update = True
                    intro = None
                    if tok[0] == "_" and len(tok) > 1:
                        intro = charsets.charset(tok[1:])
                        intro_out = len(out)
                    elif upper == "N" and m.end() < n and text[m.end()] == "'":
                        intro, intro_out = charsets.charset("utf8mb3"), len(out)
                    pending_type_paren = upper in _TYPE_WORDS
                out.append(tok)
                prev, prev_kind = upper, "word"
                last_string_slot = -1
                continue

            if kind == "str" or kind == "dq" and dq == "str":
                value: Any = string_value(tok, backslash)
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
                had_intro = intro is not None
                if had_intro:
                    del out[intro_out:]
                    intro = None
                concat = last_string_slot >= 0
                if concat:
                    old = slots[last_string_slot]
                    slots[last_string_slot] = _concat(old, value)
                    _retype(out, last_string_slot, slots[last_string_slot])
                else:
                    slots.append(value)
                    last_string_slot = len(slots) - 1
                    out.append(":" + slot_name("b" if isinstance(value, bytes) else "s",
                                               last_string_slot))
                if item is not None and item.active:
                    item.tokens -= had_intro + concat  # one literal, however it was spelled
                    if item.tokens == 1:
                        item.literal = slots[last_string_slot]
                prev, prev_kind = "'", "str"
                continue
            last_string_slot = -1

            if kind in ("hex", "bit") and parametrize:
                raw = hex_value(tok) if kind == "hex" else bit_value(tok)
                if raw is None:
                    raise syntax_error(text, start)
                value = raw
                if intro is not None:
                    if not intro.is_binary:
                        value = _string_slot(intro.decode(raw), None, intro)
                    del out[intro_out:]
                    intro = None
                slots.append(value)
                out.append(":" + slot_name("b" if isinstance(value, bytes) else "s",
                                           len(slots) - 1))
                prev, prev_kind = "0x", "num"
                continue
            if kind in ("hex", "bit"):
                if hex_value(tok) is None if kind == "hex" else bit_value(tok) is None:
                    raise syntax_error(text, start)
                out.append(tok)
                prev, prev_kind = "0x", "num"
                continue
            intro = None

            if kind == "num":
                if parametrize and not inline[-1] and prev != "INTERVAL":
                    out.append(":" + _number_slot(tok, slots))
                else:
                    out.append(tok)
                prev, prev_kind = tok, "num"
                continue
            if kind == "param":
                if not client_params:
                    raise syntax_error(text, start)  # `?` belongs to COM_STMT_PREPARE only
                slots.append(ClientParam(n_client))
                out.append(":" + slot_name("q", len(slots) - 1))
                n_client += 1
                prev, prev_kind = "?", "param"
                continue
            if kind == "nullsym":
                out.append("NULL")
                prev, prev_kind = "NULL", "word"
                continue
            if kind == "dq" or kind == "qident2":
                if kind == "dq":  # ANSI_QUOTES: "x" is an identifier; give the engine `x`
                    tok = "`" + tok[1:-1].replace('""', '"').replace("`", "``") + "`"
                out.append(tok)
                prev, prev_kind = "`", "ident"
                continue
            # operators, variables, punctuation
            if tok == "(":
                inline.append(inline[-1] or pending_type_paren)
                depth += 1
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
                item.start = m.end()
            pending_type_paren = False
            out.append(tok if kind != "xclose" else "*/")
            prev, prev_kind = tok, ("close" if tok == ")" else kind or "op")
        else:
            break
        if restart < 0:
            break
        pos = restart
    finish(n)
    return out_stmts


def _is_alias(prev: str, prev_kind: str) -> bool:
    """Is a string literal after this token an alias? After an operand, yes (`1 'x'`,
    `a 'x'`, `f() 'x'`); after an operator or a keyword that takes an operand, no."""
    if prev_kind in ("num", "ident", "close", "param"):
        return True
    if prev_kind == "word":
        return prev not in _OPERAND_BEFORE and prev not in _TYPED_LITERAL
    return False


def _string_slot(value: str, intro: Charset | None, client: Charset) -> str | bytes:
    """A string literal's slot value: text, or bytes for a binary string (module rules)."""
    if intro is None:
        if charsets.is_valid(value):
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


def _retype(out: list[str], index: int, value: Any) -> None:
    """After concatenation a text slot may have become binary: rename its placeholder."""
    want = ":" + slot_name("b" if isinstance(value, bytes) else "s", index)
    for i in range(len(out) - 1, -1, -1):
        if out[i][1:] in (slot_name("s", index), slot_name("b", index)) and out[i][0] == ":":
            out[i] = want
            return


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
    slots.append(value if value <= _MAX_UINT else Decimal(value))
    if value <= _MAX_INT:
        return slot_name("i", index)
    if value <= _MAX_UINT:
        return slot_name("u", index)
    return slot_name("n", index, 0)


def _text_position(stmt: Statement, shape_pos: int) -> int:
    """Map a position in the shape back to the client's text (for error messages): walk the
    tokens of both in step. Only the error path pays for this."""
    shape = stmt.shape
    text = stmt.text
    rx = pattern(stmt.dialect)
    shape_toks = [m for m in rx.finditer(shape) if m.lastgroup not in ("ws", "comment")]
    text_toks = [m for m in rx.finditer(text) if m.lastgroup not in ("ws", "comment", "xopen",
                                                                     "xclose")]
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
