"""A cursor over a statement's tokens, for the small grammars read word by word (SET, SHOW, KILL,
account statements, transaction control, DDL the engine handles itself).

Rules:
- A Reader never lexes: it walks `Statement.tokens` (the front door made them). Every failure is
  the statement's 1064, quoting the client's text from the token that did not fit.
- Names: a bare word or a quoted identifier (`x`, or "x" under ANSI_QUOTES); a string where
  MySQL allows one for a name (user names, hosts) is read by `name_or_string`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rampmeter.errors import ServerError
from rampmeter.sql.lexer import Token, ident_value, string_value, syntax_error
from rampmeter.sql.statement import Statement


class Reader:
    def __init__(self, stmt: Statement, start: int = 0) -> None:
        self.stmt = stmt
        self.text = stmt.text
        self.dialect = stmt.dialect
        self.toks: Sequence[Token] = stmt.tokens or ()
        self.i = start

    # --- looking --------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.i >= len(self.toks)

    def peek(self, ahead: int = 0) -> Token | None:
        j = self.i + ahead
        return self.toks[j] if j < len(self.toks) else None

    def peek_word(self, ahead: int = 0) -> str:
        """The upper-cased word at `ahead`, or '' when it is not a bare word."""
        t = self.peek(ahead)
        return t.text.upper() if t is not None and t.kind == "word" else ""

    def at(self, *words: str) -> bool:
        """Do the next tokens spell `words` (bare words, or single-character operators)?"""
        for k, w in enumerate(words):
            t = self.peek(k)
            if t is None:
                return False
            if t.kind == "word":
                if t.text.upper() != w:
                    return False
            elif t.text != w:
                return False
        return True

    # --- taking ---------------------------------------------------------------------------
    def next(self) -> Token:
        t = self.peek()
        if t is None:
            raise self.error()
        self.i += 1
        return t

    def accept(self, *words: str) -> bool:
        """Take `words` if they come next."""
        if self.at(*words):
            self.i += len(words)
            return True
        return False

    def expect(self, *words: str) -> None:
        if not self.accept(*words):
            raise self.error()

    def accept_any(self, *words: str) -> str:
        """Take one of `words` if it comes next; return it ('' when none did)."""
        w = self.peek_word()
        if w and w in words:
            self.i += 1
            return w
        return ""

    def column_name(self) -> str:
        """A new column's name: an unquoted reserved word is 1064 at it (reserved.py)."""
        from rampmeter.sql.reserved import RESERVED
        t = self.peek()
        if t is not None and t.kind == "word" and t.text.upper() in RESERVED:
            raise self.error(t)
        return self.name()

    def name(self) -> str:
        t = self.next()
        if t.kind == "word":
            return t.text
        if t.kind == "qident":
            return ident_value(t.text)
        raise self.error(t)

    def name_or_string(self) -> str:
        t = self.peek()
        if t is not None and t.kind == "str":
            self.i += 1
            return string_value(t.text, self.dialect.backslash_escapes)
        return self.name()

    def qualified_name(self) -> tuple[str | None, str]:
        """db.name or name -> (db or None, name)."""
        first = self.name()
        if self.at("."):
            self.i += 1
            return first, self.name()
        return None, first

    def string(self) -> str:
        t = self.next()
        if t.kind != "str":
            raise self.error(t)
        return string_value(t.text, self.dialect.backslash_escapes)

    def integer(self) -> int:
        t = self.next()
        if t.kind != "num" or not t.text.isdigit():
            raise self.error(t)
        return int(t.text)

    def rest_text(self) -> str:
        """The client's text from the next token to the end (for expressions to evaluate)."""
        t = self.peek()
        if t is None:
            return ""
        return self.text[t.start:].rstrip(" \t\n\r\f\v;\x00")

    def text_between(self, first: int, last: int) -> str:
        """The client's text of tokens first..last (inclusive)."""
        return self.text[self.toks[first].start:self.toks[last].end]

    def end(self) -> None:
        """Nothing may follow."""
        if not self.done:
            raise self.error()

    def error(self, at: Token | None = None) -> ServerError:
        t = at if at is not None else self.peek()
        pos = t.start if t is not None else len(self.text)
        return syntax_error(self.text, pos)

    def split_commas(self) -> list[list[Token]]:
        """The remaining tokens, split at top-level commas."""
        parts: list[list[Token]] = [[]]
        depth = 0
        while not self.done:
            t = self.next()
            if t.text == "(":
                depth += 1
            elif t.text == ")":
                depth -= 1
            elif t.text == "," and depth == 0:
                parts.append([])
                continue
            parts[-1].append(t)
        return parts
