"""sql/scancache.py: a text whose template was seen gives the Statement the scanner gives."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rampmeter.errors import ServerError
from rampmeter.sql import charsets, scancache
from rampmeter.sql.lexer import DEFAULT, Dialect
from rampmeter.sql.statement import Statement, scan, scan_all

FIELDS = ("text", "words", "kind", "shape", "slots", "names", "param_count", "items",
          "for_update", "dialect", "charset", "uses_tables", "keeps_warnings")


def same(a: Statement, b: Statement) -> None:
    for f in FIELDS:
        assert getattr(a, f) == getattr(b, f), f
        assert type(getattr(a, f)) is type(getattr(b, f)), f
    for x, y in zip(a.slots, b.slots):
        assert type(x) is type(y)
    ta = None if a.tokens is None else [(t.kind, t.text, t.start, t.end) for t in a.tokens]
    tb = None if b.tokens is None else [(t.kind, t.text, t.start, t.end) for t in b.tokens]
    assert ta == tb


# Each '#' is a number of the test's choosing; the list mixes regular and irregular templates.
TEMPLATES = [
    "SELECT c FROM sbtest1 WHERE id=#",
    "SELECT c FROM sbtest1 WHERE id BETWEEN # AND #",
    "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN # AND #",
    "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN # AND # ORDER BY c",
    "  select c from t where id = #  ",
    "SELECT # FROM t WHERE id=#",
    "SELECT c AS x# FROM t WHERE id=#",
    "SELECT c FROM t ORDER BY # LIMIT #",
    "SELECT c FROM t WHERE id = -#",
    "SELECT c FROM t WHERE id = #.#",
    "SELECT c FROM t WHERE id = #e#",
    "SELECT c FROM t /* # */ WHERE id=#",
    "SELECT c FROM t /*!# WHERE id=# */",
    "SELECT c FROM t /*!#0000 WHERE id=# */",
    "SELECT c FROM t /*M!#00000 WHERE id=# */",
    "SELECT c FROM t WHERE id='#'",
    "SELECT c FROM t WHERE id=# FOR UPDATE",
    "SELECT c FROM t#",
    "SELECT CAST(# AS DECIMAL(#,#))",
    "SELECT NOW(#) FROM t WHERE a=#",
    "SELECT c FROM t WHERE d > NOW() - INTERVAL # DAY AND id=#",
    "UPDATE sbtest1 SET k=k+# WHERE id=#",
    "DELETE FROM sbtest1 WHERE id=#",
    "INSERT INTO t (id, k) VALUES (#, #)",
    "SET autocommit=#",
    "SET @x = #",
    "SHOW WARNINGS LIMIT #",
    "BEGIN",
    "COMMIT",
    "SELECT c FROM t WHERE id=#;",
    "SELECT c FROM t WHERE id=# ; SELECT #",
    "SELECT c FROM `t#` WHERE id=#",
    "SELECT c FROM t WHERE id=#\x00",
    "",
    "   ",
    "SELECT c FROM t WHERE id=#'",
]


@pytest.fixture(autouse=True)
def fresh() -> None:
    scancache._known.clear()


def fill(template: str, numbers: list[int], widths: list[int]) -> str:
    parts = template.split("#")
    out = [parts[0]]
    for i, p in enumerate(parts[1:]):
        out.append(str(numbers[i % len(numbers)]).zfill(widths[i % len(widths)]) + p)
    return "".join(out)


def check(text: str, multi: bool, dialect: Dialect = DEFAULT,
          cs: charsets.Charset = charsets.UTF8MB4) -> None:
    error: ServerError | None = None
    try:
        want = scan_all(text, dialect, cs) if multi else [scan(text, dialect, cs)]
    except ServerError as e:
        error = e
    if error is not None:
        with pytest.raises(ServerError) as raised:
            scancache.scan_all(text, dialect, cs) if multi else scancache.scan(text, dialect, cs)
        assert (raised.value.code, raised.value.message) == (error.code, error.message)
        return
    got = scancache.scan_all(text, dialect, cs) if multi else [scancache.scan(text, dialect, cs)]
    assert len(got) == len(want)
    for a, b in zip(got, want):
        same(a, b)


@settings(max_examples=300, deadline=None)
@given(template=st.sampled_from(TEMPLATES),
       runs=st.lists(st.lists(st.integers(0, 2**66), min_size=1, max_size=3), min_size=1,
                     max_size=6),
       widths=st.lists(st.integers(0, 22), min_size=1, max_size=3), multi=st.booleans())
def test_cached_scans_equal_the_scanner(template: str, runs: list[list[int]], widths: list[int],
                                        multi: bool) -> None:
    """The first text of a template teaches the cache; the others must come out as scan()."""
    for numbers in runs:
        check(fill(template, numbers, widths), multi)


def test_a_point_select_is_learned_once_and_then_not_scanned(
        monkeypatch: pytest.MonkeyPatch) -> None:
    scancache.scan("SELECT c FROM sbtest1 WHERE id=1000")  # same number of digits
    calls = []
    real = scancache._scan
    monkeypatch.setattr(scancache, "_scan", lambda *a, **k: calls.append(a) or real(*a, **k))
    stmt = scancache.scan("SELECT c FROM sbtest1 WHERE id=4711")
    assert calls == []
    assert (stmt.shape, stmt.slots, stmt.text) == ("SELECT c FROM sbtest1 WHERE id=:i0", (4711,),
                                                   "SELECT c FROM sbtest1 WHERE id=4711")
    # beyond BIGINT: the scanner types it (:u), not the cache
    stmt = scancache.scan("SELECT c FROM sbtest1 WHERE id=18446744073709551615")
    assert calls and stmt.names == ("u0",)


def test_dialect_and_charset_are_part_of_the_key() -> None:
    text = 'SELECT "a" FROM t WHERE id=1'
    ansi = Dialect(True, True)
    check(text, False)
    check(text, False, ansi)
    check("SELECT c FROM t WHERE id=2", False, DEFAULT, charsets.charset("latin1"))
    check("SELECT c FROM t WHERE id=3", False, DEFAULT, charsets.UTF8MB4)
