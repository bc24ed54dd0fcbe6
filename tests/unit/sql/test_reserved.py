"""Reserved words and a latin1 client's identifiers, as MariaDB 10.11's lexer and grammar."""

from __future__ import annotations

import pytest

from rampmeter.errors import ServerError
from rampmeter.sql.lexer import Dialect, tokens
from rampmeter.sql.reader import Reader
from rampmeter.sql.reserved import is_reserved
from rampmeter.sql.statement import scan


@pytest.mark.parametrize("word", ["signal", "RESIGNAL", "condition", "select", "key", "int"])
def test_reserved_words_name_no_column(word: str) -> None:
    assert is_reserved(word)
    r = Reader(scan(f"CREATE TABLE t ({word} INT)"), 4)
    with pytest.raises(ServerError) as e:
        r.column_name()
    assert e.value.code == 1064
    assert f"near '{word} INT)'" in e.value.message


@pytest.mark.parametrize("word", ["comment", "status", "data", "`select`"])
def test_other_words_name_a_column(word: str) -> None:
    assert Reader(scan(f"CREATE TABLE t ({word} INT)"), 4).column_name() == word.strip("`")


def test_a_latin1_client_makes_identifiers_of_latin1_letters_only() -> None:
    text = "DECLARE c\u00c3\u00a9 foo"  # UTF-8 é read as latin1: Ã then the copyright sign
    with pytest.raises(ServerError) as e:
        tokens(text, Dialect(latin1=True))
    assert e.value.code == 1064
    assert "near '\u00a9 foo'" in e.value.message
    assert [t.text for t in tokens(text)] == ["DECLARE", "c\u00c3\u00a9", "foo"]
    assert [t.text for t in tokens("SELECT \u00e9t\u00e9", Dialect(latin1=True))] == \
        ["SELECT", "\u00e9t\u00e9"]
