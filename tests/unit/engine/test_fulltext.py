"""engine/sqlite/fulltext.py: MATCH ... AGAINST as MariaDB's MyISAM full-text search (the
expected relevances were read from MariaDB 10.11 with the same rows)."""

from __future__ import annotations

from rampmeter.engine.sqlite import SqliteSession, fulltext

from .conftest import fails, rows

_ROWS = "('hello world'), ('worlds apart'), ('xyzzy plugh'), ('Crème brûlée'), ('creme BRULEE')"


def _table(s: SqliteSession) -> None:
    s.execute("CREATE TABLE ftt (a TEXT, FULLTEXT (a)) ENGINE=MyISAM CHARSET=latin1")
    s.execute(f"INSERT INTO ftt VALUES {_ROWS}")


def test_boolean_mode_relevance_and_operators(session: SqliteSession) -> None:
    _table(session)
    got = rows(session.execute(
        "SELECT MATCH (a) AGAINST ('hello' IN BOOLEAN MODE), "  # a stopword
        "MATCH (a) AGAINST ('+creme -brulee' IN BOOLEAN MODE), "
        "MATCH (a) AGAINST ('creme >brulee' IN BOOLEAN MODE), "
        "MATCH (a) AGAINST ('creme <brulee' IN BOOLEAN MODE), "
        "MATCH (a) AGAINST ('~brulee' IN BOOLEAN MODE), "
        "MATCH (a) AGAINST ('\"creme brulee\"' IN BOOLEAN MODE) FROM ftt"))
    assert got[0] == (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    assert got[3] == got[4] == (0.0, 0.0, 2.5, 1.6666667461395264, 0.0, 1.0)
    assert rows(session.execute("SELECT a FROM ftt WHERE MATCH a AGAINST ('world*' IN "
                                "BOOLEAN MODE)")) == [("hello world",), ("worlds apart",)]


def test_natural_language_mode_and_its_index(session: SqliteSession) -> None:
    _table(session)
    assert [r[0] for r in rows(session.execute(
        "SELECT MATCH (a) AGAINST ('creme') FROM ftt"))] == [0, 0, 0, 0.39634910225868225,
                                                              0.39634910225868225]
    session.execute("CREATE TABLE nf (a TEXT, b TEXT, FULLTEXT (a)) ENGINE=MyISAM")
    fails(session, "SELECT * FROM nf WHERE MATCH (a, b) AGAINST ('x')", 1191)
    # MyISAM searches the rows in boolean mode without an index; InnoDB needs one
    assert rows(session.execute(
        "SELECT * FROM nf WHERE MATCH (a, b) AGAINST ('x' IN BOOLEAN MODE)")) == []
    session.execute("CREATE TABLE ni (a TEXT) ENGINE=InnoDB")
    fails(session, "SELECT * FROM ni WHERE MATCH (a) AGAINST ('x' IN BOOLEAN MODE)", 1191)


def test_words_as_myisam_reads_them() -> None:
    assert fulltext.split_words("don't stop-me now_1 'x'") == ["don't", "stop", "me", "now_1",
                                                                "x"]
    assert fulltext.fold("C\u0353i\u0329a\u032fo", exact=False) == "ciao"
    assert fulltext.fold("Ciao", exact=True) == "Ciao"
    assert fulltext.parenthesize("SELECT MATCH t.a, b AGAINST (:p0)") == \
        "SELECT MATCH (t.a, b) AGAINST (:p0)"


def test_ft_boolean_syntax_is_checked_and_read() -> None:
    """@@ft_boolean_syntax (mtr fulltext_var): MyISAM's check, and its operators in use."""
    assert fulltext.check_syntax('+ -><()~*:""&|')
    assert fulltext.check_syntax('@ -><()~*:""&|')
    assert not fulltext.check_syntax('@ -><()~*:""@|')    # '@' twice
    assert not fulltext.check_syntax('+ -><()~*:""@!|')   # 15 characters
    assert not fulltext.check_syntax('+a-><()~*:""&|')    # no space, a letter
    doc = ("bbbbbb cccccc",)
    assert fulltext.boolean_relevance("+aaaaaa bbbbbb", False, doc) == 0.0
    # a space as the "must" operator: a word without operator must be there, '+' may
    assert fulltext.boolean_relevance("+aaaaaa bbbbbb", False, doc,
                                      ' +-><()~*:""&|') == 1.0
    # '+' is no operator any more; '@' is "must"
    assert fulltext.boolean_relevance("+aaaaaa @bbbbbb", False, doc,
                                      '@ -><()~*:""&|') == 1.0
    assert fulltext.boolean_relevance("@aaaaaa bbbbbb", False, doc,
                                      '@ -><()~*:""&|') == 0.0
