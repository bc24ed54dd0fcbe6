"""The front door's fast path: statements whose text differs from one already scanned only in
its numbers are not scanned again.

A client repeats a few statement shapes with other keys (`SELECT c FROM t WHERE id=42`, then
id=7...). The scanner (statement.py) costs a pass over every token in Python; this module
recognizes such a text with two C-speed regex operations and a dictionary lookup, and builds
its Statement from the one scanned first.

Rules:
- A text's template is the text with every run of ASCII digits that stands alone (no word
  character, '$' or '.' touching it) replaced by a marker, and the runs' lengths. Texts with
  one template differ only in those numbers' digits (a length can change the lexing: `/*!10000`
  is a version, `/*!1` is not).
- A template is *regular* when scanning turns each such run into an integer slot (`:iN`), in
  order, and nothing else the scan yields depends on the numbers. That is checked once, when the
  template is first seen: the text is scanned, and so is a probe with other digits in the same
  places; both must give the same shape, words, items and flags, and slots equal to their runs'
  values. A regular template's later texts are not scanned: their Statement is the first one's
  with their own text and slot values (Statement.with_values).
- Anything else is scanned every time, exactly as before: strings, numbers in comments, decimal
  and signed numbers, numbers the shape keeps (ORDER BY 1, DECIMAL(10,2)), numbers in a select
  list (they name its column), several statements, a trailing ';', a scan error. Such a template
  is remembered as irregular, so the check is not repeated.
- A number of more than 18 digits (the scanner may type it :u / :n) makes a template irregular.
- Entries are keyed by template, multi-statement mode, dialect and client character set; the
  table is bounded and cleared when full (an entry costs one scan to remake). Entries are
  immutable and the table is only read and assigned, so threads share it without a lock.
"""

from __future__ import annotations

import re
from typing import Any

from rampmeter.sql import charsets
from rampmeter.sql.charsets import Charset
from rampmeter.sql.lexer import DEFAULT, Dialect
from rampmeter.sql.statement import Statement, _scan

_RUN = re.compile(r"(?=[0-9])(?<![\w$.])([0-9]+)(?![\w$.])")  # digit first: cheaper misses
_MARK = "\x00"          # never in a template by accident: a NUL in the text is irregular
_MAX_DIGITS = 18        # at most this many digits are always within BIGINT
_OTHER_DIGITS = str.maketrans("0123456789", "1234567890")
_STRIP = " \t\n\r\f\v\x00"
_IRREGULAR = object()
_MAX_ENTRIES = 4096
_known: dict[tuple[Any, ...], object] = {}


def scan(text: str, dialect: Dialect = DEFAULT, charset: Charset = charsets.UTF8MB4,
         ) -> Statement:
    """statement.scan(text) without client parameters, through the cache."""
    return _one(text, dialect, charset, False)


def scan_all(text: str, dialect: Dialect = DEFAULT,
             charset: Charset = charsets.UTF8MB4) -> list[Statement]:
    """statement.scan_all(text), through the cache (single statements only are cached)."""
    if ";" in text:
        return _scan_all(text, dialect, charset)
    stmt = _one(text, dialect, charset, True)
    return [stmt] if stmt.kind or stmt.shape else []


def _scan_all(text: str, dialect: Dialect, charset: Charset) -> list[Statement]:
    return [s for s in _scan(text, dialect, charset, False, multi=True) if s.kind or s.shape]


def _one(text: str, dialect: Dialect, charset: Charset, multi: bool) -> Statement:
    parts = _RUN.split(text)
    runs = parts[1::2]
    if dialect is DEFAULT and charset is charsets.UTF8MB4:  # most sessions: a cheaper key
        key: tuple[Any, ...] = (_MARK.join(parts[0::2]), tuple(map(len, runs)), multi)
    else:
        key = (_MARK.join(parts[0::2]), tuple(map(len, runs)), multi, dialect, charset)
    known = _known.get(key)
    if known is None:
        known = _learn(text, runs, dialect, charset, multi)
        if len(_known) >= _MAX_ENTRIES:
            _known.clear()
        _known[key] = known
        if type(known) is not Statement:
            return _scan(text, dialect, charset, False, multi=multi)[0]
        return known
    if known is _IRREGULAR:
        return _scan(text, dialect, charset, False, multi=multi)[0]
    assert type(known) is Statement
    if not runs:
        return known
    return known.with_values(text.strip(_STRIP), tuple(map(int, runs)))


def _learn(text: str, runs: list[str], dialect: Dialect, charset: Charset,
           multi: bool) -> object:
    """The template's entry: the first text's Statement when the template is regular."""
    if _MARK in text or any(len(r) > _MAX_DIGITS for r in runs):
        return _IRREGULAR
    try:
        first = _scan(text, dialect, charset, False, multi=multi)
    except Exception:  # noqa: BLE001 - the caller's own scan raises it again
        return _IRREGULAR
    if len(first) != 1 or not _regular(first[0], text, runs):
        return _IRREGULAR
    if not runs:
        return first[0]
    others = [r.translate(_OTHER_DIGITS) for r in runs]
    parts = _RUN.split(text)
    parts[1::2] = others
    probe_text = "".join(parts)
    try:
        probe = _scan(probe_text, dialect, charset, False, multi=multi)
    except Exception:  # noqa: BLE001 - numbers made an error: not regular
        return _IRREGULAR
    if len(probe) != 1 or not _regular(probe[0], probe_text, others) or \
            not _alike(first[0], probe[0]):
        return _IRREGULAR
    return first[0]


def _regular(stmt: Statement, text: str, runs: list[str]) -> bool:
    """Every run is an integer slot, in order, and the statement is the whole text."""
    return (stmt.text == text.strip(_STRIP) and stmt.param_count == 0 and
            stmt.names == tuple(f"i{i}" for i in range(len(runs))) and
            stmt.slots == tuple(int(r) for r in runs) and
            all(type(v) is int for v in stmt.slots))


def _alike(a: Statement, b: Statement) -> bool:
    return (a.shape == b.shape and a.words == b.words and a.items == b.items and
            a.for_update == b.for_update and a.tokens is None and b.tokens is None)
