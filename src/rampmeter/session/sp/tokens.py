"""A cursor over a program's tokens, and the rewriting of a simple statement's text (parse.py's
module rules: local variables become `?` markers, bound as parameters when the statement runs).
"""

from __future__ import annotations

import bisect

from rampmeter.errors import ServerError
from rampmeter.session.sp.tree import Sql
from rampmeter.sql.lexer import Dialect, Token, ident_value, tokens
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import scan

# words that may follow an operand inside an expression
_OPERATOR_WORDS = frozenset({"AND", "OR", "XOR", "NOT", "IS", "IN", "LIKE", "BETWEEN", "REGEXP",
                             "RLIKE", "DIV", "MOD", "COLLATE", "ESCAPE", "SOUNDS", "THEN",
                             "WHEN", "ELSE", "END", "DO", "UNTIL", "MEMBER", "OVER"})


# words a table name follows, where no variable can be
_TABLE_BEFORE = frozenset({"FROM", "JOIN", "INTO", "UPDATE", "TABLE"})


class Tokens(Reader):
    """sql.reader's cursor over the tokens of a program's own text (a routine's body is lexed
    here, not by the front door), with the labels in scope and `upto` for statement ranges."""

    def __init__(self, text: str, dialect: Dialect) -> None:  # no Statement: no super()
        self.text = text
        self.dialect = dialect
        self.toks: list[Token] = tokens(text, dialect)
        self.i = 0
        self.labels: list[str] = []   # the labels in scope, innermost last
        self.late_into = 0            # SELECT ... FROM ... INTO x: MariaDB's warning 1287
        self.cursor_stack: list[dict[str, int]] = []  # cursors in scope -> parameter counts
        self.row_fields: dict[str, frozenset[str] | None] = {}  # ROW(...) variables' fields
        self.fetch_group = False      # a FETCH GROUP NEXT ROW was read (aggregate functions)
        self.in_aggregate = False     # ... which only an aggregate function's body may have
        self.returns = False          # a RETURN was read

    def line_of(self, pos: int) -> int:
        """The line (from 1) of text position `pos` (Note 4094's line numbers)."""
        ends = self.__dict__.get("_newlines")
        if ends is None:
            ends = self._newlines = [k for k, c in enumerate(self.text) if c == "\n"]
        return bisect.bisect_left(ends, pos) + 1

    def word(self, k: int = 0) -> str:
        return self.peek_word(k)

    def upto(self, stop: tuple[str, ...], *, semicolon: bool = True) -> tuple[int, int]:
        """Token range [i, j) up to a stop word or ';' at depth 0 (CASE ... END nests)."""
        depth = case = 0
        start = self.i
        while self.i < len(self.toks):
            t = self.toks[self.i]
            u = t.text.upper() if t.kind == "word" else t.text
            if depth == 0 and case == 0 and (u in stop and t.kind == "word" or
                                              semicolon and u == ";"):
                break
            if u == ";":  # inside parentheses, or in an expression: the syntax error is here
                raise self.error(self._misplaced(start, self.i) if not semicolon else t)
            if u == "(":
                depth += 1
            elif u == ")":
                depth -= 1
            elif t.kind == "word" and u == "CASE":
                case += 1
            elif t.kind == "word" and u == "END" and case:
                case -= 1
            self.i += 1
        if self.i == start:
            raise self.error()
        return start, self.i

    def _misplaced(self, a: int, b: int) -> Token:
        """Where MariaDB's parser stops in an expression that runs into a ';' (IF's, WHILE's,
        UNTIL's): at a name or literal right after an operand that ends with `)` or is a
        literal (`IF f() x;`); else at the ';'."""
        depth = 0
        for k in range(a + 1, b):
            prev, t = self.toks[k - 1], self.toks[k]
            depth += (prev.text == "(") - (prev.text == ")")
            if depth == 0 and (prev.text == ")" or prev.kind in ("num", "str")) and \
                    t.kind in ("word", "qident", "num", "str") and \
                    t.text.upper() not in _OPERATOR_WORDS:
                return t
        return self.toks[b]


def _row_name(t: Token, rows: bool, scope: frozenset[str]) -> str | None:
    """The row variable a name before `.col` is: NEW / OLD in a trigger (`rows`), a FOR
    loop's record ("\0row.<name>" in scope); else None."""
    name = (t.text if t.kind == "word" else ident_value(t.text)).lower()
    if rows and t.kind == "word" and name in ("new", "old"):
        return name
    return name if "\0row." + name in scope else None


def _is_var(toks: list[Token], k: int, scope: frozenset[str]) -> bool:
    t = toks[k]
    if t.kind not in ("word", "qident"):
        return False
    name = (t.text if t.kind == "word" else ident_value(t.text)).lower()
    if name not in scope:
        return False
    if k and toks[k - 1].text == ".":
        return False
    if k and (toks[k - 1].text == ")" or toks[k - 1].kind in ("num", "str") or
              toks[k - 1].kind == "word" and toks[k - 1].text.upper() == "AS"):
        return False  # an alias: `count(*) a`, `1 AS a`
    if k and toks[k - 1].kind == "word" and toks[k - 1].text.upper() in _TABLE_BEFORE:
        return False  # a table: `FROM t`, `JOIN t`, `INSERT INTO t`, `UPDATE t`
    nxt = toks[k + 1] if k + 1 < len(toks) else None
    return not (nxt is not None and nxt.text in (".", "("))


def _columns_named(toks: list[Token], a: int, b: int) -> set[int]:
    """Token positions that name columns, never variables: INSERT's column list, and the
    `col =` of UPDATE's and ON DUPLICATE KEY UPDATE's SET."""
    first = toks[a].text.upper()
    keep: set[int] = set()
    if first not in ("INSERT", "REPLACE", "UPDATE"):
        return keep
    k = a
    while k < b and not (toks[k].kind == "word" and toks[k].text.upper() == "INTO"):
        k += 1
    if first != "UPDATE" and k < b:
        k += 2
        while k < b and toks[k].text == ".":
            k += 2
        if k < b and toks[k].text == "(":
            while k < b and toks[k].text != ")":
                keep.add(k)
                k += 1
    for j in range(a + 1, b - 1):
        if toks[j + 1].text == "=" and toks[j - 1].text.upper() in ("SET", ",", "UPDATE"):
            keep.add(j)
    return keep


def _outer(toks: list[Token], a: int, b: int) -> list[Token]:
    """Tokens a..b-1 outside parentheses."""
    depth = 0
    out = []
    for t in toks[a:b]:
        depth += (t.text == "(") - (t.text == ")")
        if depth == 0:
            out.append(t)
    return out


def _to_file(toks: list[Token], k: int, b: int) -> bool:
    """INTO OUTFILE / DUMPFILE: the statement's own clause (engine/sqlite/outfile.py), kept."""
    return k < b and toks[k].kind == "word" and toks[k].text.upper() in ("OUTFILE", "DUMPFILE")


def sql(p: Tokens, a: int, b: int, scope: frozenset[str], *, into: bool = False) -> Sql:
    """Tokens a..b-1 as an Sql (module rules); `into`: take a SELECT's INTO list out."""
    toks = p.toks
    keep = _columns_named(toks, a, b)
    rows = "\0new" in scope
    pieces: list[str] = []
    names: list[str] = []
    spelled: list[str] = []  # each name as written (EXPLAIN EXTENDED's Note 1003 shows it)
    targets: list[str] = []
    pos = toks[a].start
    k = a
    depth = 0
    limit_at = None  # the depth of a LIMIT clause being read
    while k < b:
        t = toks[k]
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
            if limit_at is not None and depth < limit_at:
                limit_at = None
        if t.kind == "word" and t.text.upper() == "LIMIT":
            limit_at = depth
        if into and depth == 0 and t.kind == "word" and t.text.upper() == "INTO" and \
                toks[a].text.upper() == "SELECT" and not _to_file(toks, k + 1, b):
            p.late_into += any(x.kind == "word" and x.text.upper() == "FROM" for x in
                               _outer(toks, a, k))
            pieces.append(p.text[pos:t.start])
            k += 1
            while k < b:
                tt = toks[k]
                targets.append(tt.text if tt.kind in ("word", "uservar") else ident_value(tt.text))
                k += 1
                if k < b and toks[k].text == ",":
                    k += 1
                    continue
                break
            pos = toks[k].start if k < b else toks[b - 1].end
            continue
        if t.kind in ("word", "qident") and k + 2 < b and toks[k + 1].text == "." and \
                toks[k + 2].kind in ("word", "qident") and (k == a or toks[k - 1].text != ".") \
                and _row_name(t, rows, scope) is not None:
            col = toks[k + 2]  # a trigger's NEW.col / OLD.col, a FOR loop's rec.col
            row = _row_name(t, rows, scope)
            field = (col.text if col.kind == "word" else ident_value(col.text))
            if limit_at is not None and row not in ("new", "old"):
                raise ServerError(1691, message="A variable of a non-integer based type in "
                                  "LIMIT clause", sqlstate="HY000")
            known = p.row_fields.get(row or "")
            if known is not None and field.lower() not in known:
                raise ServerError(4082, message=f"Row variable '{row}' does not have a "
                                  f"field '{field}'", sqlstate="HY000")
            pieces.append(p.text[pos:t.start])
            pieces.append("?")
            names.append(f"{row}." + field)  # as written: 4082 names it so
            spelled.append(f"{t.text if t.kind == 'word' else ident_value(t.text)}.{field}")
            pos = col.end
            k += 3
            continue
        if k not in keep and _is_var(toks, k, scope):
            pieces.append(p.text[pos:t.start])
            pieces.append("?")
            names.append((t.text if t.kind == "word" else ident_value(t.text)).lower())
            spelled.append(t.text if t.kind == "word" else ident_value(t.text))
            pos = t.end
        k += 1
    pieces.append(p.text[pos:toks[b - 1].end])
    shown = None
    if names and toks[a].text.upper() == "SELECT":
        original = scan(p.text[toks[a].start:toks[b - 1].end], p.dialect)
        shown = original.items
    return Sql("".join(pieces).strip(), tuple(names), tuple(targets), shown,
               source=p.text[toks[a].start:toks[b - 1].end], spelled=tuple(spelled))
