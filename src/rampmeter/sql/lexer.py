"""The one lexer of SQL text: MariaDB 10.11's tokens, over text decoded with surrogateescape.

Rules:
- Input is `str` decoded from the client's bytes by charsets.Charset.decode, so every byte is
  kept (invalid ones as lone surrogates) and multi-byte character sets whose second byte may be
  0x5C (sjis, gbk, big5) cannot fake a backslash: the codec has already paired the bytes.
- One compiled pattern per `Dialect` (sql_mode's ANSI_QUOTES and NO_BACKSLASH_ESCAPES change
  what a quote means). Two consumers use it: `tokens()` below (statements the session and the
  engine read word by word: SET, SHOW, DDL...) and statement.scan() (the front door, which walks
  the same matches without building Token objects, because it runs for every statement).
- Whitespace is ASCII whitespace only, as in MariaDB's lexer. `--` starts a comment only when
  followed by whitespace, a control character or the end; `#` always does.
- Executable comments (`/*! ... */`, `/*!NNNNN ... */`, `/*M!NNNNNN ... */`; one never closed,
  or `/*M!` with a version of other than 5 or 6 digits, is 1064): the content is SQL
  when `included()` says so, and then only the markers disappear. MariaDB 10.11 runs a 5-digit
  version below 50700 (MySQL 5.7 and later are MySQL's own dialect, which MariaDB skips) and a
  6-digit version up to its own version id; measured on 10.11.19: /*!50699 ran, /*!50700,
  /*!80000 and /*!99999 did not, /*!100000 ran, /*!101120 did not.
- A NUL byte ends the statement when only NULs and whitespace follow it (mariadb-slap sends one);
  anywhere else outside a string it is a syntax error, as MariaDB's lexer makes it a character
  token no rule accepts.
- `\\N` outside a string is NULL. `?` is a parameter marker. A `:` directly followed by a word is
  refused (1064) in DML, whose shapes use `:name` placeholders (MariaDB's grammar has no use
  for one there either); elsewhere it is the `:` token (`lbl:BEGIN`, a label in a routine).
- Literal values: `string_value` (escapes: \\0 \\' \\" \\b \\n \\r \\t \\Z \\\\; \\% and \\_ keep their
  backslash for LIKE; any other \\x is x; a doubled quote is one quote), `hex_value` (X'..' must
  have an even number of digits; 0x.. is padded on the left), `bit_value`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from rampmeter import errors
from rampmeter.config.options import SERVER_VERSION
from rampmeter.errors import ServerError


def _version_id(version: str) -> int:
    """'10.11.99-MariaDB-rampmeter' -> 101199 (MYSQL_VERSION_ID)."""
    m = re.match(r"(\d+)\.(\d+)\.(\d+)", version)
    if not m:
        return 0
    major, minor, patch = (int(x) for x in m.groups())
    return major * 10000 + minor * 100 + patch


VERSION_ID = _version_id(SERVER_VERSION)
_MYSQL_ONLY_FROM = 50700  # 5-digit versions from here on are skipped (see the module rules)


@dataclass(frozen=True, slots=True)
class Dialect:
    """The sql_mode flags that change lexing (and, for PIPES_AS_CONCAT and
    HIGH_NOT_PRECEDENCE, parsing; NO_ZERO_DATE and NO_ZERO_IN_DATE decide which DATE'..'
    literals the parser takes, as MariaDB's does: a statement prepared before the mode
    changed keeps them)."""

    backslash_escapes: bool = True   # off with NO_BACKSLASH_ESCAPES
    ansi_quotes: bool = False        # "x" is an identifier with ANSI_QUOTES
    version_id: int = VERSION_ID
    pipes_as_concat: bool = False    # || is CONCAT, not OR
    high_not: bool = False           # HIGH_NOT_PRECEDENCE: NOT binds as tightly as !
    latin1: bool = False             # a latin1 client: only its letters make identifiers
    zero_date: bool = True           # off with NO_ZERO_DATE
    zero_in_date: bool = True        # off with NO_ZERO_IN_DATE

    @staticmethod
    def of(sql_mode: str) -> Dialect:
        if "ANSI_QUOTES" not in sql_mode and "NO_BACKSLASH_ESCAPES" not in sql_mode and \
                "PIPES_AS_CONCAT" not in sql_mode and "HIGH_NOT_PRECEDENCE" not in sql_mode \
                and "NO_ZERO" not in sql_mode:
            return DEFAULT
        modes = set(sql_mode.upper().split(","))
        return Dialect("NO_BACKSLASH_ESCAPES" not in modes,
                       "ANSI_QUOTES" in modes or "ANSI" in modes,
                       pipes_as_concat="PIPES_AS_CONCAT" in modes,
                       high_not="HIGH_NOT_PRECEDENCE" in modes,
                       zero_date="NO_ZERO_DATE" not in modes,
                       zero_in_date="NO_ZERO_IN_DATE" not in modes)


DEFAULT = Dialect()

# Identifier characters: letters, digits, _, $ and any valid non-ASCII character. A lone
# surrogate (an invalid byte kept by surrogateescape) is not one: it is a stray byte (1064).
_IDCHAR = r"[\w$\u0080-\ud7ff\ue000-\U0010ffff]"
_IDSTART = r"[A-Za-z_$\u0080-\ud7ff\ue000-\U0010ffff]"
# A latin1 client's: MariaDB's lexer takes a byte of 0x80 and above into an identifier only
# when latin1 calls it a letter (0xC0-0xFF but for the multiplication and division signs;
# the cp1252 letters of 0x80-0x9F decode above U+0100): `cÃ©` read from UTF-8 bytes ends at
# the copyright sign, which is a stray character (1064), as there.
_L1_LETTERS = r"\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff\u0100-\ud7ff\ue000-\U0010ffff"
_IDCHAR_L1 = rf"[A-Za-z0-9_${_L1_LETTERS}]"
_IDSTART_L1 = rf"[A-Za-z_${_L1_LETTERS}]"
IDCHAR, IDSTART = _IDCHAR, _IDSTART


@cache
def pattern(dialect: Dialect = DEFAULT) -> re.Pattern[str]:
    """The token pattern for `dialect`. Each match is one token with the whitespace before it:
    `lastgroup` names the token's kind and `start(kind)` where it begins ('dq' is a
    double-quoted string, or an identifier under ANSI_QUOTES: `dq_kind` says which; 'end' is
    the empty token after trailing whitespace). Common tokens come first: the alternatives are
    tried in order, and order also settles what could be read two ways (x'41' is hex, not the
    word x; -- is a comment only before whitespace)."""
    if dialect.backslash_escapes:
        sq, dq = r"'(?:[^'\\]|\\.|'')*'", r'"(?:[^"\\]|\\.|"")*"'
    else:
        sq, dq = r"'(?:[^']|'')*'", r'"(?:[^"]|"")*"'
    if dialect.ansi_quotes:
        dq = r'"(?:[^"]|"")*"'
    _IDCHAR, _IDSTART = (_IDCHAR_L1, _IDSTART_L1) if dialect.latin1 else (IDCHAR, IDSTART)
    return re.compile(rf"""
        [ \t\n\r\f\v]*
        (?:
          (?P<word>(?![xXbB]'){_IDSTART}{_IDCHAR}*)
        | (?P<num>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?(?!{_IDCHAR}))
        | (?P<op><=>|<<|>>|<=|>=|<>|!=|&&|\|\||:=|[=,()<>!+%^~&|;.{{}}\[\]])
        | (?P<str>{sq})
        | (?P<xopen>/\*M?!(?:\d{{6}}|\d{{5}})?)
        | (?P<comment>/\*.*?\*/|--(?=[ \t\n\r\f\v\x00-\x1f]|\Z)[^\n]*|\#[^\n]*)
        | (?P<unclosed>/\*)
        | (?P<xclose>\*/)
        | (?P<dq>{dq})
        | (?P<qident2>`(?:[^`]|``)*`)
        | (?P<hex>[xX]'[^']*'|0x[0-9a-fA-F]+(?!{_IDCHAR}))
        | (?P<bit>[bB]'[^']*'|0b[01]+(?!{_IDCHAR}))
        | (?P<word2>[xXbB](?=')|\d+[A-Za-z_$\u0080-\ud7ff\ue000-\U0010ffff]{_IDCHAR}*)
        | (?P<sysvar>@@(?:(?i:global|session|local)\.)?(?:[\w$]+|`(?:[^`]|``)*`))
        | (?P<uservar>@(?:[\w$.]+|'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|`(?:[^`]|``)*`))
        | (?P<param>\?)
        | (?P<nullsym>\\N(?!{_IDCHAR}))
        | (?P<op2>->>|->|[-*/@])
        | (?P<colon>:(?!{_IDCHAR}))
        | (?P<end>\Z)
        | (?P<bad>.)
        )
    """, re.VERBOSE | re.DOTALL)


def dq_kind(dialect: Dialect) -> str:
    return "qident" if dialect.ansi_quotes else "str"


def included(opener: str, dialect: Dialect = DEFAULT) -> bool:
    """Whether the content of the executable comment opened by `opener` ('/*!', '/*!40101',
    '/*M!100500') is SQL (see the module rules)."""
    digits = opener.lstrip("/*M!")
    if opener.startswith("/*M"):  # MariaDB's own: run unless a later version asks for it
        return not digits or int(digits) <= dialect.version_id
    if not digits:
        return True
    version = int(digits)
    if len(digits) == 5:
        return version < _MYSQL_ONLY_FROM
    return version <= dialect.version_id


def syntax_error(text: str, pos: int, line_pos: int | None = None) -> ServerError:
    """1064 as MariaDB words it: the text from the offending token on, and its line (or the
    line of `line_pos`: where MariaDB's lexer was when its parser gave up, when that is
    further on)."""
    pos = max(0, min(pos, len(text)))
    line = text.count("\n", 0, pos if line_pos is None else max(0, min(line_pos, len(text))))
    line += 1
    near = text[pos:].rstrip(" \t\n\r\f\v\x00;")  # MariaDB drops trailing `;`s (alloc_query)
    # MariaDB's '%-.80T': at most 80 bytes; a longer text is cut to 77 and '...' added
    raw = near.encode("utf-8", "replace")
    if len(raw) > 80:
        near = raw[:77].decode("utf-8", "ignore") + "..."
    if not near.isprintable():  # a control character is quoted as \XXXX (my_wc_to_printable)
        near = near.translate(_UNPRINTABLE)
    return ServerError(errors.ER_PARSE_ERROR, near, line)


_UNPRINTABLE = {c: f"\\{c:04X}" for c in [*range(0x20), 0x7F] if chr(c) not in "\t\n\r"}


def shown_bytes(text: str) -> str:
    """Text as MariaDB quotes a string with invalid bytes in it: each one as \\xHH."""
    if charset_valid(text):
        return text
    return "".join(f"\\x{ord(ch) - 0xDC00:02X}" if 0xDC80 <= ord(ch) <= 0xDCFF else ch
                   for ch in text)


def charset_valid(text: str) -> bool:
    return text.isascii() or not any("\udc80" <= ch <= "\udcff" for ch in text)


def identifier_valid(text: str) -> bool:
    """Identifiers are utf8mb3 in MariaDB: valid text without 4-byte characters."""
    return text.isascii() or charset_valid(text) and max(text) <= "\uffff"


def shown_identifier(text: str) -> str:
    """An identifier refused by identifier_valid, as MariaDB's 1300 quotes it: invalid bytes
    and the bytes of 4-byte characters as \\xHH."""
    out = []
    for ch in text:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02X}")
        elif code > 0xFFFF:
            out.append("".join(f"\\x{b:02X}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def strip_end(text: str) -> str:
    """The statement without trailing whitespace, NULs and semicolons' whitespace."""
    return text.rstrip(" \t\n\r\f\v\x00")


# --- literal values -------------------------------------------------------------------------
_ESCAPES = {"0": "\0", "'": "'", '"': '"', "b": "\b", "n": "\n", "r": "\r", "t": "\t",
            "Z": "\x1a", "\\": "\\", "%": "\\%", "_": "\\_"}
_ESCAPE_RX = re.compile(r"\\(.)", re.DOTALL)


def string_value(quoted: str, backslash_escapes: bool = True) -> str:
    """The value of a quoted string token ('...' or "...")."""
    q = quoted[0]
    body = quoted[1:-1]
    if q * 2 in body:
        if backslash_escapes and "\\" in body:
            return _unescape_with_doubles(body, q)
        body = body.replace(q * 2, q)
    if backslash_escapes and "\\" in body:
        return _ESCAPE_RX.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)
    return body


def _unescape_with_doubles(body: str, q: str) -> str:
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch == "\\" and i + 1 < n:
            out.append(_ESCAPES.get(body[i + 1], body[i + 1]))
            i += 2
        elif ch == q and i + 1 < n and body[i + 1] == q:
            out.append(q)
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def ident_value(quoted: str) -> str:
    """The name in a `quoted` identifier (or an ANSI "quoted" one); a bare word as it is."""
    if len(quoted) >= 2 and quoted[0] == quoted[-1] and quoted[0] in "`\"":
        q = quoted[0]
        return quoted[1:-1].replace(q * 2, q)
    return quoted


def hex_value(text: str) -> bytes | None:
    """X'4142' / 0x4142 -> b'AB'; None when X'..' is malformed (odd length, non-hex digit)."""
    if text[0] in "xX":
        digits = text[2:-1]
        if len(digits) % 2:
            return None
    else:
        digits = text[2:]
        if len(digits) % 2:
            digits = "0" + digits
    try:
        return bytes.fromhex(digits)
    except ValueError:
        return None


def bit_value(text: str) -> bytes | None:
    """b'101' / 0b101 -> the bits as big-endian bytes (b'' for b'')."""
    digits = text[2:-1] if text[0] in "bB" else text[2:]
    if digits and set(digits) - {"0", "1"}:
        return None
    if not digits:
        return b""
    n = int(digits, 2)
    return n.to_bytes((len(digits) + 7) // 8, "big")


# --- tokens for the statements read word by word ----------------------------------------------
class Token:
    """One token: kind (see `pattern`; quoted identifiers are 'qident', backquoted or ANSI),
    the text as written, and its place in the statement."""

    __slots__ = ("kind", "text", "start", "end")

    def __init__(self, kind: str, text: str, start: int, end: int) -> None:
        self.kind, self.text, self.start, self.end = kind, text, start, end

    @property
    def upper(self) -> str:
        return self.text.upper()

    def is_word(self, *words: str) -> bool:
        return self.kind == "word" and self.text.upper() in words

    @property
    def is_name(self) -> bool:
        """A word or a quoted identifier: something that can name a table or column."""
        return self.kind in ("word", "qident")

    def __repr__(self) -> str:
        return f"Token({self.kind}, {self.text!r})"


def tokens(text: str, dialect: Dialect = DEFAULT) -> list[Token]:
    """The tokens of `text`, comments and whitespace dropped, executable comments opened.
    Raises 1064 at an unterminated string, identifier or comment, or a stray character."""
    out: list[Token] = []
    rx = pattern(dialect)
    pos = 0
    n = len(text)
    in_exec = False
    while pos <= n:
        m = rx.match(text, pos)
        assert m is not None  # 'bad' matches any character, 'end' the end
        kind = m.lastgroup or "bad"
        start, end = m.start(kind), m.end()
        if kind == "end":
            if in_exec:  # `/*! ...` never closed
                raise syntax_error(text, n)
            break
        if kind == "comment":
            pos = end
            continue
        if kind == "xopen":
            if text[start:end] == "/*M!" and end < n and text[end].isdigit():
                raise syntax_error(text, end)  # a version must have 5 or 6 digits
            if included(text[start:end], dialect):
                in_exec = True
                pos = end
            else:
                close = text.find("*/", end)
                if close < 0:
                    raise syntax_error(text, start)
                pos = close + 2
            continue
        if kind == "xclose" and in_exec:
            in_exec = False
            pos = end
            continue
        if kind == "bad" and text[start] == ":":
            kind = "colon"  # `lbl:BEGIN`: a label's colon before a word
        elif kind == "bad" or kind == "unclosed":
            if text[start] == "\x00" and not strip_end(text[start:]):
                break
            raise syntax_error(text, start)
        out.append(Token(TOKEN_KIND.get(kind, kind) if kind != "dq" else dq_kind(dialect),
                         text[start:end], start, end))
        pos = end
    return out


# Pattern group -> token kind (the groups that exist only to order the alternatives).
TOKEN_KIND = {"word2": "word", "op2": "op", "colon": "op", "xclose": "op", "qident2": "qident"}
