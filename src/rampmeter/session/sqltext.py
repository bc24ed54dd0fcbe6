"""Just enough lexing of SQL text for the session's routing decisions.

Rules:
- The session never parses SQL; it splits a multi-statement string at top-level semicolons and
  looks at a statement's leading keywords to route it (SET / SHOW / KILL / USE / users go to the
  session, everything else to the engine). Quotes ('', "", ``), comments (-- , #, /* */) and
  MySQL's executable comments (/*! ... */, /*!40101 ... */, whose content is SQL) are honoured.
- `DELIMITER` is a client command (the mysql CLI), never seen here.
"""

from __future__ import annotations

import re

# One token at a time: quoted strings / identifiers, comments, or any other single character run.
_TOKEN = re.compile(r"""
      '(?:[^'\\]|\\.|'')*'?
    | "(?:[^"\\]|\\.|"")*"?
    | `(?:[^`]|``)*`?
    | /\*!\d*          # executable comment opener: keep its content
    | /\*.*?(?:\*/|\Z)
    | \*/             # the end of an executable comment
    | --(?:[ \t][^\n]*|(?=\n)|\Z)
    | \#[^\n]*
    | ;
    | [^'"`/\-#;*]+
    | .
""", re.VERBOSE | re.DOTALL)


def split_statements(sql: str) -> list[str]:
    """Top-level statements of a COM_QUERY, stripped, empty ones dropped (a trailing ';')."""
    if ";" not in sql:  # the common case: one statement, nothing to tokenize
        piece = sql.strip()
        return [piece] if piece else []
    out: list[str] = []
    start = 0
    for m in _TOKEN.finditer(sql):
        if m.group() == ";":
            piece = sql[start:m.start()].strip()
            if piece:
                out.append(piece)
            start = m.end()
    tail = sql[start:].strip()
    if tail:
        out.append(tail)
    return out


def strip_comments(sql: str) -> str:
    """The statement without comments; executable comments keep their content."""
    parts: list[str] = []
    in_exec = False
    for m in _TOKEN.finditer(sql):
        tok = m.group()
        if tok.startswith("/*!"):
            in_exec = True
            parts.append(" ")
        elif in_exec and tok == "*/":
            in_exec = False
            parts.append(" ")
        elif tok.startswith(("/*", "--", "#")):
            parts.append(" ")
        else:
            parts.append(tok)
    return "".join(parts).strip()


_LEADING = re.compile(r"\s*([A-Za-z_][\w$]*)")


def leading_words(sql: str, count: int = 3) -> list[str]:
    """The first `count` bare words of the statement, upper-cased (comments skipped); stops
    at the first thing that is not a word (e.g. '(' or '@')."""
    text = strip_comments(sql) if ("/*" in sql or "--" in sql or "#" in sql) else sql
    words: list[str] = []
    pos = 0
    match = _LEADING.match
    while len(words) < count:
        m = match(text, pos)
        if m is None:
            break
        words.append(m.group(1).upper())
        pos = m.end()
        if pos < len(text) and not text[pos].isspace():
            break
    return words


# --- tokens for the few small grammars the session parses itself (SET, KILL, users) ------------

_SMALL_TOKEN = re.compile(r"""
      (?P<str>'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*")
    | (?P<sysvar>@@(?:(?:global|session|local)\.)?[A-Za-z_][A-Za-z0-9_$]*)
    | (?P<uservar>@(?:[A-Za-z0-9_$.]+|'(?:[^'\\]|\\.|'')*'|`(?:[^`]|``)*`))
    | (?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)
    | (?P<ident>`(?:[^`]|``)*`|[A-Za-z_$][A-Za-z0-9_$]*)
    | (?P<op>:=|<=>|[=,().;@*+\-/<>!])
    | (?P<ws>\s+)
""", re.VERBOSE | re.DOTALL)

_ESCAPES = {"0": "\0", "b": "\b", "n": "\n", "r": "\r", "t": "\t", "Z": "\x1a",
            "%": "\\%", "_": "\\_"}


class Token:
    __slots__ = ("kind", "text", "start", "end")

    def __init__(self, kind: str, text: str, start: int, end: int) -> None:
        self.kind, self.text, self.start, self.end = kind, text, start, end

    @property
    def upper(self) -> str:
        return self.text.upper()

    def __repr__(self) -> str:
        return f"Token({self.kind}, {self.text!r})"


def tokenize(sql: str) -> list[Token]:
    """Tokens of a short administrative statement; unknown characters become 'op' tokens."""
    out: list[Token] = []
    pos = 0
    while pos < len(sql):
        m = _SMALL_TOKEN.match(sql, pos)
        if m is None:
            out.append(Token("op", sql[pos], pos, pos + 1))
            pos += 1
            continue
        kind = m.lastgroup or "op"
        if kind != "ws":
            out.append(Token(kind, m.group(), m.start(), m.end()))
        pos = m.end()
    return out


def unquote(text: str) -> str:
    """The value of a quoted string or identifier token (MySQL escapes, doubled quotes)."""
    if len(text) < 2 or text[0] not in "'\"`" or text[-1] != text[0]:
        return text
    quote, body = text[0], text[1:-1]
    if quote == "`":
        return body.replace("``", "`")
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
        elif ch == quote and i + 1 < len(body) and body[i + 1] == quote:
            out.append(quote)
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)
