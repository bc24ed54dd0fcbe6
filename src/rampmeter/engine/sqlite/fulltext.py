"""MATCH (columns) AGAINST (expr [IN NATURAL LANGUAGE MODE | IN BOOLEAN MODE]): MariaDB's
built-in (MyISAM) full-text search, computed row by row.

Rules:
- Words are runs of letters, digits, combining marks and '_' (one apostrophe inside a word is
  part of it: "don't"), as MyISAM's ft_simple_get_word reads them; they compare as the
  column's collation does: a _ci one ignores case and accents (the word without its
  combining marks, case-folded), a _bin or binary one compares the text as it is. A word
  shorter than ft_min_word_len (4) or longer than ft_max_word_len (84) characters, or in
  MyISAM's built-in stopword list, is neither searched nor found.
- BOOLEAN MODE: `+word` must be there, `-word` must not, a word without operator may be;
  `>` and `<` raise and lower a word's weight (x1.5, /1.5), `~` makes it count against,
  `word*` matches the words it starts, `"a phrase"` the words in a row, `( )` groups. A row
  matches when its required words are there, its excluded ones are not, and (without
  required words) one of the others is; its relevance is the sum of the matched weights, a
  FLOAT, as MyISAM's ftb gives it (`creme >brulee` -> 2.5). No FULLTEXT index is needed
  (MyISAM searches the rows), except on InnoDB tables.
- NATURAL LANGUAGE MODE needs a FULLTEXT index on exactly the MATCH columns (1191 otherwise).
  A row's relevance is MyISAM's: for each query word, the word's weight in the row,
  (log(tf) + 1) / sum(log(tf) + 1) * unique / (1 + 0.0115 * unique) (a FLOAT), times the
  word's weight in the table, log((rows - rows_with_it) / rows_with_it), never below 0, so a
  word in half of the rows or more finds nothing; the sum is a FLOAT. The table's counts are
  read once per statement.
- A row whose relevance is 0 does not match (WHERE MATCH ...). Rows come in the table's
  order, not by relevance (MyISAM's index read of natural mode sorts them: not done here).
"""

from __future__ import annotations

import math
import re
import struct
import unicodedata
from collections import Counter
from typing import Any

from sqlglot import exp

from rampmeter.errors import ServerError

MIN_WORD_LEN = 4   # ft_min_word_len
MAX_WORD_LEN = 84  # ft_max_word_len
_PIVOT = 0.0115    # MyISAM's NORM_PIVOT
ER_FT_MATCHING_KEY_NOT_FOUND = 1191

STOPWORDS = frozenset((
    "a's able about above according accordingly across actually after afterwards again against "
    "ain't all allow allows almost alone along already also although always am among amongst an "
    "and another any anybody anyhow anyone anything anyway anyways anywhere apart appear "
    "appreciate appropriate are aren't around as aside ask asking associated at available away "
    "awfully be became because become becomes becoming been before beforehand behind being "
    "believe below beside besides best better between beyond both brief but by c'mon c's came "
    "can can't cannot cant cause causes certain certainly changes clearly co com come comes "
    "concerning consequently consider considering contain containing contains corresponding "
    "could couldn't course currently definitely described despite did didn't different do does "
    "doesn't doing don't done down downwards during each edu eg eight either else elsewhere "
    "enough entirely especially et etc even ever every everybody everyone everything everywhere "
    "ex exactly example except far few fifth first five followed following follows for former "
    "formerly forth four from further furthermore get gets getting given gives go goes going "
    "gone got gotten greetings had hadn't happens hardly has hasn't have haven't having he he's "
    "hello help hence her here here's hereafter hereby herein hereupon hers herself hi him "
    "himself his hither hopefully how howbeit however i'd i'll i'm i've ie if ignored immediate "
    "in inasmuch inc indeed indicate indicated indicates inner insofar instead into inward is "
    "isn't it it'd it'll it's its itself just keep keeps kept know knows known last lately "
    "later latter latterly least less lest let let's like liked likely little look looking "
    "looks ltd mainly many may maybe me mean meanwhile merely might more moreover most mostly "
    "much must my myself name namely nd near nearly necessary need needs neither never "
    "nevertheless new next nine no nobody non none noone nor normally not nothing novel now "
    "nowhere obviously of off often oh ok okay old on once one ones only onto or other others "
    "otherwise ought our ours ourselves out outside over overall own particular particularly "
    "per perhaps placed please plus possible presumably probably provides que quite qv rather "
    "rd re really reasonably regarding regardless regards relatively respectively right said "
    "same saw say saying says second secondly see seeing seem seemed seeming seems seen self "
    "selves sensible sent serious seriously seven several shall she should shouldn't since six "
    "so some somebody somehow someone something sometime sometimes somewhat somewhere soon "
    "sorry specified specify specifying still sub such sup sure t's take taken tell tends th "
    "than thank thanks thanx that that's thats the their theirs them themselves then thence "
    "there there's thereafter thereby therefore therein theres thereupon these they they'd "
    "they'll they're they've think third this thorough thoroughly those though three through "
    "throughout thru thus to together too took toward towards tried tries truly try trying "
    "twice two un under unfortunately unless unlikely until unto up upon us use used useful "
    "uses using usually value various very via viz vs want wants was wasn't way we we'd we'll "
    "we're we've welcome well went were weren't what what's whatever when whence whenever where "
    "where's whereafter whereas whereby wherein whereupon wherever whether which while whither "
    "who who's whoever whole whom whose why will willing wish with within without won't wonder "
    "would wouldn't yes yet you you'd you'll you're you've your yours yourself yourselves zero "
).split())


def _f32(x: float) -> float:
    return float(struct.unpack("f", struct.pack("f", x))[0])


def _is_word_char(ch: str) -> bool:
    return ch == "_" or unicodedata.category(ch)[0] in "LNM"


def split_words(text: str) -> list[str]:
    """The words of a text, as they are written (module rules)."""
    out: list[str] = []
    word: list[str] = []
    n = len(text)
    for i, ch in enumerate(text):
        if _is_word_char(ch):
            word.append(ch)
        elif ch == "'" and word and word[-1] != "'" and i + 1 < n and _is_word_char(text[i + 1]):
            word.append(ch)
        elif word:
            out.append("".join(word))
            word = []
    if word:
        out.append("".join(word))
    return out


def fold(word: str, exact: bool) -> str:
    if exact:
        return word
    decomposed = unicodedata.normalize("NFD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def indexed(word: str, folded: str) -> bool:
    return MIN_WORD_LEN <= len(word) <= MAX_WORD_LEN and folded not in STOPWORDS


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def doc_words(values: tuple[Any, ...], exact: bool) -> list[str]:
    return [fold(w, exact) for v in values for w in split_words(_text(v))]


# --- boolean mode ------------------------------------------------------------------------------
class _Node:
    __slots__ = ("op", "word", "trunc", "phrase", "children")

    def __init__(self, op: str, word: str = "", trunc: bool = False,
                 phrase: list[str] | None = None, children: list[_Node] | None = None) -> None:
        self.op, self.word, self.trunc = op, word, trunc
        self.phrase, self.children = phrase, children


DEFAULT_SYNTAX = '+ -><()~*:""&|'  # @@ft_boolean_syntax


def check_syntax(value: str) -> bool:
    """MyISAM's ft_boolean_check_syntax_string: 14 ASCII non-alphanumeric characters, the
    first or the second a space, none twice but the two quotes."""
    if len(value) != len(DEFAULT_SYNTAX) or (value[0] != " " and value[1] != " "):
        return False
    for i, ch in enumerate(value):
        if ord(ch) > 127 or ch.isalnum():
            return False
        if any(ch == value[j] and (i, j) != (11, 10) for j in range(i)):
            return False
    return True


def parse_boolean(query: str, exact: bool, syntax: str = DEFAULT_SYNTAX) -> _Node:
    """A boolean-mode query read as MyISAM's ftb reads it, with the operators of
    @@ft_boolean_syntax: [0] must, [1] may, [2] must not, [3] > [4] < the weight, [5] [6]
    the brackets, [7] ~, [8] the truncation, [10] [11] the phrase quotes; when [0] is a
    space, a word without operator must be there."""
    yes, egal, no, inc, dec, lbr, rbr, neg, trunc = syntax[:9]
    lquot, rquot = syntax[10], syntax[11]
    default = "+" if yes == " " else ""
    n = len(query)
    pos = 0

    def group(depth: int) -> list[_Node]:
        nonlocal pos
        out: list[_Node] = []
        op, prev = default, " "
        while pos < n:
            ch = query[pos]
            if _is_word_char(ch):
                start = pos
                while pos < n and (_is_word_char(query[pos]) or query[pos] == "'" and
                                   pos + 1 < n and _is_word_char(query[pos + 1])):
                    pos += 1
                word = query[start:pos]
                cut = pos < n and query[pos] == trunc
                if cut:
                    pos += 1
                f = fold(word, exact)
                if cut or indexed(word, f):
                    out.append(_Node(op, f, cut))
                op, prev = default, " "
                continue
            pos += 1
            if ch == lquot:
                end = query.find(rquot, pos)
                end = n if end < 0 else end
                words = [fold(w, exact) for w in split_words(query[pos:end])]
                pos = end + 1
                if words:
                    out.append(_Node(op, phrase=words))
                op, prev = default, " "
            elif ch == lbr:
                out.append(_Node(op, children=group(depth + 1)))
                op, prev = default, " "
            elif ch == rbr:
                if depth:
                    return out
            elif prev == " " and ch in (yes, egal, no, inc, dec, neg):
                op = {yes: "+", egal: "", no: "-", inc: ">", dec: "<", neg: "~"}[ch]
            else:
                op, prev = default, ch if ch != " " else " "
        return out

    return _Node("", children=group(0))


_WEIGHT = {">": 1.5, "<": 1 / 1.5}  # MyISAM's _wghts, kept as FLOATs (ftb word weights)


def _present(node: _Node, words: set[str], seq: list[str]) -> float:
    """The relevance of a node for a document; 0 when it is not there."""
    if node.children is not None:
        return _group(node.children, words, seq)
    if node.phrase is not None:
        k = len(node.phrase)
        return 1.0 if any(seq[i:i + k] == node.phrase for i in range(len(seq) - k + 1)) \
            else 0.0
    if node.trunc:
        return 1.0 if any(w.startswith(node.word) for w in words) else 0.0
    return 1.0 if node.word in words else 0.0


def _group(children: list[_Node], words: set[str], seq: list[str]) -> float:
    total = 0.0
    required = False
    optional_found = False
    for child in children:
        got = _present(child, words, seq)
        if child.op == "-":
            if got:
                return 0.0
            continue
        if child.op == "+":
            required = True
            if not got:
                return 0.0
        elif got and child.op != "~":
            optional_found = True
        if got:
            weight = _f32(_WEIGHT.get(child.op, 1.0))
            total += -got * 0.5 if child.op == "~" else got * weight
    if not required and not optional_found:
        return 0.0
    return max(total, 0.0)


def boolean_relevance(query: Any, exact: bool, values: tuple[Any, ...],
                      syntax: str = DEFAULT_SYNTAX) -> float:
    tree = parse_boolean(_text(query), exact, syntax)
    seq = doc_words(values, exact)
    return _f32(_present(tree, set(seq), seq))


# --- natural language mode ---------------------------------------------------------------------
def _doc_weights(seq: list[str]) -> dict[str, float]:
    """MyISAM's stored weight of each indexed word of a document (module rules)."""
    tf = Counter(w for w in seq if w not in STOPWORDS and MIN_WORD_LEN <= len(w) <= MAX_WORD_LEN)
    if not tf:
        return {}
    lws = {w: math.log(n) + 1 for w, n in tf.items()}
    total = sum(lws.values())
    uniq = len(lws)
    norm = 1 + _PIVOT * uniq
    return {w: _f32(v / total * uniq / norm) for w, v in lws.items()}


class Corpus:
    """The counts natural language mode needs of one table: rows, rows with each word."""

    def __init__(self, documents: list[tuple[Any, ...]], exact: bool) -> None:
        self.rows = len(documents)
        self.with_word: Counter[str] = Counter()
        for values in documents:
            self.with_word.update(set(doc_words(values, exact)))

    def relevance(self, query: Any, exact: bool, values: tuple[Any, ...]) -> float:
        weights = _doc_weights(doc_words(values, exact))
        if not weights:
            return 0.0
        asked = Counter(w for w in (fold(x, exact) for x in split_words(_text(query))))
        total = 0.0
        for word, qtf in asked.items():
            if word not in weights:
                continue
            nf = self.with_word.get(word, 0)
            if not nf or self.rows <= nf:
                continue
            gweight = math.log((self.rows - nf) / nf)
            if gweight > 0:
                total += weights[word] * gweight * qtf
        return _f32(total)


# --- the rewrite ---------------------------------------------------------------------------------
_IDENT = r"(?:`[^`]+`|[A-Za-z_$][\w$]*)(?:\s*\.\s*(?:`[^`]+`|[A-Za-z_$][\w$]*))*"
_BARE = re.compile(rf"\bMATCH\s+({_IDENT}(?:\s*,\s*{_IDENT})*)\s+AGAINST\b", re.IGNORECASE)


def parenthesize(text: str) -> str:
    """`MATCH a, b AGAINST` as `MATCH (a, b) AGAINST` (MariaDB takes both; sqlglot the
    second only)."""
    return _BARE.sub(lambda m: f"MATCH ({m.group(1)}) AGAINST", text)


def rewrite(tree: exp.Expression, tables: Any, typer: Any) -> None:
    """MATCH ... AGAINST -> rm_match(mode, query, exact, db, table, columns, col...)."""
    for node in list(tree.find_all(exp.MatchAgainst)):
        cols = [c for c in node.expressions if isinstance(c, exp.Column)]
        modifier = str(node.args.get("modifier") or "").upper()
        boolean = "BOOLEAN" in modifier
        owner = _owner(tables, cols)
        tdef = owner[2] if owner is not None else None
        names = [c.name for c in cols]
        if not boolean or (tdef is not None and tdef.engine == "InnoDB"):
            if tdef is None or not _has_index(tdef, names):
                raise ServerError(ER_FT_MATCHING_KEY_NOT_FOUND, message="Can't find FULLTEXT "
                                  "index matching the column list", sqlstate="HY000")
        exact = all(_exact(typer.infer(c)) for c in cols)
        db, table = (owner[0], owner[1]) if owner is not None and not boolean else ("", "")
        args: list[exp.Expression] = [
            exp.Literal.string("BOOLEAN" if boolean else "NATURAL"), node.this,
            exp.Literal.number(1 if exact else 0), exp.Literal.string(db),
            exp.Literal.string(table), exp.Literal.string("\x1f".join(names)), *cols]
        node.replace(exp.Anonymous(this="rm_match", expressions=args))


def _owner(tables: Any, cols: list[exp.Column]) -> tuple[str, str, Any] | None:
    found = [tables.find(c.table or None, c.name) for c in cols]
    if not found or any(f is None for f in found):
        return None
    aliases = {f[0] for f in found}
    if len(aliases) != 1:
        return None
    db, table, tdef = tables.by_alias[aliases.pop()]
    return db, table, tdef


def _has_index(tdef: Any, names: list[str]) -> bool:
    want = sorted(n.lower() for n in names)
    return any(i.kind == "FULLTEXT" and sorted(c.lower() for c in i.columns) == want
               for i in tdef.indexes)


def _exact(t: Any) -> bool:
    if t is None:
        return False
    if t.is_binary_string:
        return True
    return bool(t.collation and t.collation.endswith("_bin"))


# --- the SQL function ----------------------------------------------------------------------------
def _syntax(s: Any) -> str:
    """@@global.ft_boolean_syntax (MyISAM's operators), the default without a server."""
    try:
        value = s.context.system_variable("ft_boolean_syntax", "global")
    except ServerError:
        return DEFAULT_SYNTAX
    text = str(value or "")
    return text if check_syntax(text) else DEFAULT_SYNTAX


def register(handle: Any, host: Any) -> None:
    def match(mode: str, query: Any, exact: Any, db: str, table: str, names: str,
              *values: Any) -> float:
        if query is None:
            return 0.0
        if mode == "BOOLEAN":
            return boolean_relevance(query, bool(exact), values, _syntax(host.session))
        s = host.session
        # one statement's counts, kept with the statement's own state (a key made of the
        # statement's id() would outlive it: ids are reused, and the counts went stale)
        corpora = s.statement_state
        key = ("rm_match", db, table, names)
        corpus = corpora.get(key)
        if corpus is None:
            schema = s.schema(db)
            cols = ", ".join('"' + n.replace('"', '""') + '"' for n in names.split("\x1f"))
            rows = s.handle.conn.execute(
                f'SELECT {cols} FROM "{schema}"."{table}"').fetchall()
            corpus = corpora[key] = Corpus(rows, bool(exact))
        return corpus.relevance(query, bool(exact), values)

    handle.create_function("rm_match", -1, match)
