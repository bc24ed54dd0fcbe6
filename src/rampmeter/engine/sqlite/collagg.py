"""MariaDB's collation coercibility: which collation a string operation uses when its operands
differ, and error 1267 / 1270 / 1271 "Illegal mix of collations" when none can be chosen.

Rules:
- Every string operand has a collation, a derivation (coercibility: EXPLICIT 0 for
  `x COLLATE c`, NONE 1 for a mix that had no winner, IMPLICIT 2 for a column or a CAST,
  SYSCONST 3 for USER() & co., COERCIBLE 4 for a literal, NUMERIC 5 for a number or a temporal,
  IGNORABLE 6 for NULL) and a repertoire (ASCII when it holds only U+0000..U+007F), as
  MariaDB's DTCollation; `COERCIBILITY()` answers the derivation.
- Operations aggregate their string operands as MariaDB's DTCollation::aggregate and
  agg_item_collations / agg_item_set_converter do (sql/item.cc): the lower derivation wins;
  equal derivations of one character set with different collations give `<charset>_bin`
  with derivation NONE (an error for EXPLICIT, and for a comparison, which disallows NONE);
  a Unicode set is a superset of the others, an ASCII-only operand converts to anything;
  otherwise a coercible side converts to the other if its derivation is higher. An operand
  in another character set must convert without loss: a constant (a literal, or a function
  of constants) is converted and checked, any other expression is safe when its target is
  Unicode or binary, or when it holds ASCII only.
- The operations checked: comparisons (=, <>, <, <=, >, >=, <=>, [NOT] LIKE, REGEXP, IN,
  BETWEEN, STRCMP, NULLIF, CASE x WHEN) when every operand is a string, and the string
  results of CONCAT, CONCAT_WS, IF, IFNULL / COALESCE, CASE, GREATEST / LEAST, REPLACE.
  Anything whose collation this module cannot tell (user variables, functions it does not
  know) is left unchecked: no error is invented.
- COERCIBILITY(x) becomes its number here, where x is still as the client wrote it.
- Run once per statement shape (translate.py), on the MySQL tree before it is rewritten.
  A literal's repertoire and convertibility depend on its value, which the shape does not
  have: checks whose outcome depends on a value are kept on the plan (`Check`) and run when
  the statement's values are bound (session.plan); the others run at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlglot import exp

from rampmeter import errors
from rampmeter.errors import ServerError
from rampmeter.sql import charsets
from rampmeter.sql.statement import slot_charset, slot_kind

EXPLICIT, NONE, IMPLICIT, SYSCONST, COERCIBLE, NUMERIC, IGNORABLE = range(7)
DERIVATION_NAMES = ("EXPLICIT", "NONE", "IMPLICIT", "SYSCONST", "COERCIBLE", "NUMERIC",
                    "IGNORABLE")

_UNICODE = frozenset({"utf8mb3", "utf8mb4", "ucs2", "utf16", "utf16le", "utf32"})
_SUPPLEMENT = frozenset({"utf8mb4", "utf16", "utf16le", "utf32"})
_MBMINLEN = {"ucs2": 2, "utf16": 2, "utf16le": 2, "utf32": 4}
# MY_CS_NONASCII: sets that cannot store U+0000..U+007F as ASCII does
_NONASCII = frozenset({"swe7", "ucs2", "utf16", "utf16le", "utf32"})
_NUMERIC_COLLATION = "latin1_swedish_ci"  # MariaDB's my_charset_numeric
# text functions whose result is in collation_connection whatever their operands
_CONNECTION_RESULT = frozenset({"HEX", "MD5", "SHA", "SHA1", "SHA2", "UUID", "DATE_FORMAT",
                                "TIME_FORMAT", "FORMAT", "CONV", "BIN", "OCT", "INET_NTOA",
                                "INET6_NTOA", "TO_BASE64", "SPACE", "DAYNAME", "MONTHNAME",
                                "SEC_TO_TIME", "FORMAT_BYTES", "FORMAT_PICO_TIME",
                                "JSON_QUOTE", "CHARSET", "COLLATION", "UUID_SHORT",
                                "SYS_GUID", "CRC32", "LAST_DAY", "GET_FORMAT"})
_SYSTEM_FUNCTIONS = frozenset({"USER", "CURRENT_USER", "SESSION_USER", "SYSTEM_USER",
                               "DATABASE", "SCHEMA", "VERSION", "CURRENT_ROLE"})


@dataclass(frozen=True, slots=True)
class DT:
    """A resolved operand: collation name, derivation, ASCII repertoire, and the literal's text
    when the operand is a constant string (None otherwise)."""
    collation: str
    derivation: int
    ascii: bool
    constant: str | None = None
    numeric: bool = False

    @property
    def charset(self) -> str:
        return "binary" if self.collation == "binary" else self.collation.split("_", 1)[0]


# Terms: what an operand's DT is made of, resolved with the statement's values.
@dataclass(frozen=True, slots=True)
class Fixed:
    dt: DT


@dataclass(frozen=True, slots=True)
class Slot:
    """A string literal: its collation and derivation are known, its repertoire is its value's."""
    name: str
    collation: str
    derivation: int


@dataclass(frozen=True, slots=True)
class Agg:
    """An operation over several operands: `compare` for a comparison (NONE is an error, the
    result is not a string), else a string result."""
    op: str
    args: tuple[Any, ...]
    compare: bool
    lenient: bool = False  # operands that do not mix make no error here, only no answer
    connection: str = ""  # collation_connection: a string result made of numbers only has it


@dataclass(frozen=True, slots=True)
class Recast:
    """An operand with another collation or derivation but its inner repertoire (COLLATE,
    CONVERT ... USING, CAST AS CHAR): collation None keeps the inner one."""
    inner: Any
    collation: str | None
    derivation: int | None


Term = Fixed | Slot | Agg | Recast


@dataclass(frozen=True, slots=True)
class Check:
    """Checks kept on a plan: their outcome depends on literal values."""
    terms: tuple[Any, ...]

    def run(self, values: dict[str, Any]) -> None:
        for term in self.terms:
            resolve(term, values)


def _flags(collation: str) -> tuple[str, bool, bool, int]:
    cs = "binary" if collation == "binary" else collation.split("_", 1)[0]
    return cs, cs in _UNICODE, cs in _SUPPLEMENT, _MBMINLEN.get(cs, 1)


def _maxlen(cs: str) -> int:
    c = charsets.charset(cs)
    return c.maxlen if c is not None else 1


def _binsort(collation: str) -> bool:
    return collation == "binary" or collation.endswith("_bin")


def _left_is_superset(left: DT, right: DT) -> bool:
    lcs, luni, lsup, lmin = _flags(left.collation)
    rcs, runi, rsup, rmin = _flags(right.collation)
    if luni and (left.derivation < right.derivation or left.derivation == right.derivation and (
            not runi or lsup and not rsup and _maxlen(lcs) > _maxlen(rcs) and lmin == rmin)):
        return True
    return right.ascii and (left.derivation < right.derivation or
                            left.derivation == right.derivation and not left.ascii)


def _aggregate(cur: DT, dt: DT) -> DT | None:
    """DTCollation::aggregate with MY_COLL_ALLOW_SUPERSET_CONV | MY_COLL_ALLOW_COERCIBLE_CONV;
    None when the two cannot be mixed."""
    if cur.charset != dt.charset:
        if cur.collation == "binary":
            return cur if cur.derivation <= dt.derivation else dt
        if dt.collation == "binary":
            return dt if dt.derivation <= cur.derivation else cur
        if _left_is_superset(cur, dt):
            return cur
        if _left_is_superset(dt, cur):
            return dt
        if cur.derivation < dt.derivation and dt.derivation >= SYSCONST:
            return cur
        if dt.derivation < cur.derivation and cur.derivation >= SYSCONST:
            return dt
        return None
    if cur.derivation < dt.derivation:
        return cur
    if dt.derivation < cur.derivation:
        return dt
    if cur.collation == dt.collation:
        return DT(cur.collation, cur.derivation, cur.ascii and dt.ascii)
    if cur.derivation == EXPLICIT:
        return None
    if _binsort(cur.collation):
        return cur
    if _binsort(dt.collation):
        return dt
    return DT(cur.charset + "_bin", NONE, cur.ascii and dt.ascii)


def _mix_error(op: str, args: list[DT]) -> ServerError:
    parts = [a for dt in args for a in (dt.collation, DERIVATION_NAMES[dt.derivation])]
    if len(args) == 2:
        return ServerError(errors.ER_CANT_AGGREGATE_2COLLATIONS, *parts, op)
    if len(args) == 3:
        return ServerError(errors.ER_CANT_AGGREGATE_3COLLATIONS, *parts, op)
    return ServerError(errors.ER_CANT_AGGREGATE_NCOLLATIONS, op)


def _converts(arg: DT, to: DT) -> bool:
    """agg_item_set_converter: can `arg` be converted to `to`'s character set?"""
    acs, tcs = arg.charset, to.charset
    if acs == tcs or acs == "binary" or tcs == "binary" or arg.numeric:
        return True
    if arg.derivation == SYSCONST:  # USER(), DATABASE(): converted by their (ASCII) value
        return True
    if arg.constant is not None:
        cs = charsets.charset(tcs)
        if cs is None or not cs.codec:
            return True
        try:
            arg.constant.encode(cs.codec)
        except UnicodeEncodeError:
            return False
        return True
    return tcs in _UNICODE or arg.ascii and (_maxlen(tcs) > 1 or tcs not in _NONASCII)


def aggregate(op: str, args: list[DT], compare: bool, connection: str = "") -> DT:
    cur = args[0]
    unknown = False
    for dt in args[1:]:
        got = _aggregate(cur, dt)
        if got is None and cur.charset != dt.charset:
            # agg_item_collations: two sets that do not mix leave binary / NONE, which a
            # later EXPLICIT operand may still win over (LEAST(_latin1'a', _latin2'b',
            # _latin5'c' COLLATE latin5_turkish_ci) is latin5)
            got, unknown = DT("binary", NONE, cur.ascii and dt.ascii), True
        if got is None:
            raise _mix_error(op, args)
        cur = got
    if unknown and cur.derivation != EXPLICIT:
        raise _mix_error(op, args)
    if not compare and cur.derivation == NUMERIC:  # all numbers: @@collation_connection
        cur = DT(connection or cur.collation, COERCIBLE, True)
    if compare and cur.derivation == NONE:
        raise _mix_error(op, args)
    if not all(_converts(a, cur) for a in args):
        raise _mix_error(op, args)
    # a result made of constants is a constant, converted by its value (its text: the
    # operands' texts, which hold every character it can have)
    constant = "".join(a.constant or "" for a in args) \
        if all(a.constant is not None or a.numeric for a in args) else None
    return DT(cur.collation, cur.derivation, all(a.ascii for a in args), constant)


def resolve(term: Any, values: dict[str, Any] | None) -> DT | None:
    """The term's DT; raises the aggregation errors. `values` None: literals are unknown, and
    so is whatever depends on them."""
    if isinstance(term, Fixed):
        return term.dt
    if isinstance(term, Slot):
        if values is None:
            return None
        value = values.get(term.name)
        if not isinstance(value, str):  # a client parameter, bytes: not checked
            value = ""
        cs = term.collation.split("_", 1)[0]
        return DT(term.collation, term.derivation, value.isascii() and cs not in _NONASCII,
                  value)
    if isinstance(term, Recast):
        inner = resolve(term.inner, values)
        if inner is None:
            return None
        return DT(term.collation or inner.collation,
                  inner.derivation if term.derivation is None else term.derivation,
                  inner.ascii, inner.constant)
    if isinstance(term, Agg):
        args = [resolve(a, values) for a in term.args]
        known = [a for a in args if a is not None]
        if len(known) != len(args):
            return None
        if term.lenient:
            try:
                return aggregate(term.op, known, term.compare, term.connection)
            except ServerError:
                return None
        return aggregate(term.op, known, term.compare, term.connection)
    return None


def _has_slot(term: Any) -> bool:
    if isinstance(term, Slot):
        return True
    if isinstance(term, Recast):
        return _has_slot(term.inner)
    if isinstance(term, Agg):
        return any(_has_slot(a) for a in term.args)
    return False


# --- from the MySQL tree -----------------------------------------------------------------------
class _Builder:
    def __init__(self, typer: Any, shape: str) -> None:
        self.typer = typer
        self.shape = shape
        self.connection = typer.text.collation or "utf8mb4_general_ci"

    def numeric(self) -> Fixed:
        return Fixed(DT(_NUMERIC_COLLATION, NUMERIC, True, None, True))

    def term(self, e: exp.Expression | None) -> Any:  # noqa: C901 - a table of cases
        if e is None:
            return None
        if isinstance(e, (exp.Paren, exp.Alias)):
            return self.term(e.this)
        if isinstance(e, exp.Null):
            return Fixed(DT("binary", IGNORABLE, True, ""))
        if isinstance(e, exp.Placeholder):
            return self.placeholder(e.name)
        if isinstance(e, exp.Literal):
            if not e.is_string:
                return self.numeric()
            return Fixed(DT(self.connection, COERCIBLE, e.name.isascii(), e.name))
        if isinstance(e, exp.Collate):
            # once translate.py renamed it for SQLite, the MariaDB name is in its meta
            name = e.meta.get("collation") or (e.expression.name if e.expression is not None
                                               else "")
            coll = charsets.collation(name)
            inner = self.term(e.this)
            if coll is None or inner is None:
                return None
            fixed = resolve(inner, None)
            if fixed is not None and fixed.charset != coll.charset:
                return None  # 1253 (translate.py)
            return Recast(inner, coll.name, EXPLICIT)
        if isinstance(e, exp.Column):
            return self.typed(e, IMPLICIT)
        if isinstance(e, exp.Cast):
            return self.cast(e)
        if isinstance(e, (exp.Upper, exp.Lower, exp.Substring, exp.Left, exp.Right,
                          exp.Trim)):
            return self.term(e.this)
        if isinstance(e, exp.Concat):
            return self.agg("concat", list(e.expressions), False)
        if isinstance(e, exp.ConcatWs):
            return self.agg("concat_ws", list(e.expressions), False)
        if isinstance(e, exp.Coalesce):
            return self.agg(self.name_at(e, "coalesce"), [e.this, *e.expressions], False)
        if isinstance(e, exp.If) and e.args.get("true") is not None:
            return self.agg("if", [e.args["true"], e.args.get("false") or exp.Null()], False)
        if isinstance(e, exp.Case):
            rets = [i.args.get("true") for i in e.args.get("ifs") or []]
            rets.append(e.args.get("default") or exp.Null())
            return self.agg("case", rets, False)
        if isinstance(e, (exp.Greatest, exp.Least)):
            return self.agg(type(e).__name__.lower(), [e.this, *e.expressions], False)
        if isinstance(e, exp.Replace):
            return self.agg("replace", [e.this, e.expression, e.args.get("replacement")],
                            False)
        if isinstance(e, exp.Nullif):
            return self.term(e.this)
        if isinstance(e, (exp.Add, exp.Sub)) and isinstance(e.expression, exp.Interval):
            t = self.typer.infer(e)  # a string's date arithmetic: an ASCII coercible string
            if t is not None and t.is_string and t.collation:
                return Fixed(DT(t.collation, COERCIBLE, True))
        if isinstance(e, exp.WeightString):  # binary, the argument's derivation (MariaDB)
            inner = self.term(e.this)
            return None if inner is None else Recast(inner, "binary", None)
        if isinstance(e, exp.Subquery) and isinstance(e.this, exp.Select) and \
                len(e.this.expressions) == 1:
            return self.term(e.this.expressions[0])
        if isinstance(e, exp.Anonymous) and e.name.upper() in _SYSTEM_FUNCTIONS:
            return Fixed(DT("utf8mb3_general_ci", SYSCONST, False))
        if isinstance(e, exp.Anonymous) and e.name.upper().startswith("RM_LOCAL_") and \
                len(e.expressions) == 1:
            # a routine's variable (sp/run.py): its declared collation, IMPLICIT
            inner = self.term(e.expressions[0])
            coll = e.name[9:].lower()
            return Recast(inner, coll, IMPLICIT) if inner is not None else \
                Fixed(DT(coll, IMPLICIT, False))
        if isinstance(e, exp.Anonymous):
            return self.function(e)
        if isinstance(e, exp.Hex):
            return Fixed(DT(self.connection, COERCIBLE, True))
        t = self.typer.infer(e)
        if t is not None and (t.is_numeric or t.is_temporal) or isinstance(e, exp.Predicate):
            return self.numeric()
        return None

    def function(self, e: exp.Anonymous) -> Any:
        """A library function (funclib.py): a text result is in its string operands'
        aggregated collation, or collation_connection without any (REPEAT('a', 3)) or for
        the functions that always answer in it (HEX, MD5, DATE_FORMAT...)."""
        from rampmeter.engine.sqlite.infer import library_type
        name = e.name.upper()
        t = library_type(self.typer, name, list(e.expressions))
        if t is None and self.typer.routine_type is not None:
            # a stored function: its RETURNS type's collation, COERCIBLE (MariaDB 10.11)
            t = self.typer.routine_type(str(e.this))
            if t is not None and t.is_text and t.collation:
                return Fixed(DT(t.collation, COERCIBLE, False))
            return None
        if t is None:
            return None
        if t.is_numeric or t.is_temporal:
            return self.numeric()
        if t.is_binary_string:
            return Fixed(DT("binary", COERCIBLE, False))
        if not t.is_text or t.name == "json":
            return None
        strings = [a for a in e.expressions if _is_string(self, a)]
        if name in _CONNECTION_RESULT or not strings:
            return Fixed(DT(self.connection, COERCIBLE, True))
        terms = [self.term(a) for a in strings]
        if any(x is None for x in terms):
            return None
        return Agg(name.lower(), tuple(terms), False, lenient=True)

    def name_at(self, e: exp.Expression, default: str) -> str:
        """The function's name as written (IFNULL and COALESCE parse alike)."""
        start, end = e.meta.get("start"), e.meta.get("end")
        if isinstance(start, int) and isinstance(end, int):
            word = self.shape[start:end + 1].strip().lower()
            if word.isidentifier():
                return word
        return default

    def placeholder(self, name: str) -> Any:
        try:
            kind = slot_kind(name)[0]
        except (ValueError, IndexError):
            return None
        if kind == "s":
            return Slot(name, self.connection, COERCIBLE)
        if kind == "c":
            cs = charsets.charset(slot_charset(name) or "")
            if cs is None:
                return None
            if cs.is_binary:
                return Fixed(DT("binary", COERCIBLE, False))
            return Slot(name, cs.default_collation, COERCIBLE)
        if kind in ("x", "b"):
            return Fixed(DT("binary", COERCIBLE, False))
        if kind in ("i", "u", "n", "f"):
            return self.numeric()
        return None

    def typed(self, e: exp.Expression, derivation: int) -> Any:
        t = self.typer.infer(e)
        if t is None:
            return None
        if t.is_numeric or t.is_temporal:
            return self.numeric()
        if t.is_binary_string:
            return Fixed(DT("binary", derivation, False))
        if not t.is_text or t.name == "json":
            return None
        coll = t.collation or charsets.default_collation(t.charset or "utf8mb4").name
        c = charsets.collation(coll)
        if c is None:
            return None
        return Fixed(DT(c.name, derivation, c.charset == "ascii"))

    def cast(self, e: exp.Cast) -> Any:
        to = e.to
        if not isinstance(to, exp.DataType):
            return None
        D = exp.DataType.Type
        if to.this == D.CHARACTER_SET:
            kind = to.args.get("kind")
            cs = charsets.charset(kind.name) if isinstance(kind, exp.Expression) else None
            inner = self.term(e.this)
            if cs is None or inner is None:
                return None
            return Recast(inner, cs.default_collation, IMPLICIT)
        if to.this in (D.CHAR, D.VARCHAR, D.NCHAR, D.NVARCHAR, D.TEXT):
            inner = self.term(e.this)
            if inner is None:
                return None
            return Recast(inner, self.connection, IMPLICIT)
        if to.this in (D.BINARY, D.VARBINARY):
            return Fixed(DT("binary", IMPLICIT, False))
        return self.numeric()

    def agg(self, op: str, args: list[exp.Expression | None], compare: bool) -> Any:
        terms = [self.term(a) for a in args]
        if any(t is None for t in terms):
            return None
        return Agg(op, tuple(terms), compare, connection=self.connection)


_COMPARISONS: dict[type, str] = {exp.EQ: "=", exp.NEQ: "<>", exp.GT: ">", exp.GTE: ">=",
                                 exp.LT: "<", exp.LTE: "<=", exp.NullSafeEQ: "<=>",
                                 exp.Like: "like", exp.RegexpLike: "regexp"}


def _is_string(b: _Builder, e: exp.Expression) -> bool:
    if isinstance(e, exp.Null):
        return True
    if isinstance(e, exp.Placeholder):
        try:
            return slot_kind(e.name)[0] in ("s", "c", "x", "b")
        except (ValueError, IndexError):
            return False
    t = b.typer.infer(e)
    return t is not None and t.is_string


def _sites(b: _Builder, tree: exp.Expression) -> list[Any]:
    """The checked operations of the tree, as terms, outermost first."""
    sites: list[Any] = []
    for node in tree.walk(bfs=False):
        e = node[0] if isinstance(node, tuple) else node
        if not isinstance(e, exp.Expression):
            continue
        site = _site(b, e)
        if site is not None:
            sites.append(site)
    return sites


def _site(b: _Builder, e: exp.Expression) -> Any:  # noqa: C901 - a table of cases
    op = _COMPARISONS.get(type(e))
    if op is not None:
        left, right = e.this, e.expression
        if isinstance(right, (exp.Any, exp.All)) or isinstance(left, (exp.Any, exp.All)):
            return None
        if op not in ("like", "regexp") and not (_is_string(b, left) and _is_string(b, right)):
            return None
        return b.agg(op, [left, right], True)
    if isinstance(e, exp.In):
        items = list(e.expressions)
        if not items or e.args.get("query") is not None:
            return None
        args = [e.this, *items]
        if not all(_is_string(b, a) for a in args):
            return None
        return b.agg("=" if len(items) == 1 else "in", args, True)
    if isinstance(e, exp.Between):
        args = [e.this, e.args.get("low"), e.args.get("high")]
        if not all(a is not None and _is_string(b, a) for a in args):
            return None
        return b.agg("between", args, True)
    if isinstance(e, exp.Nullif):
        if not (_is_string(b, e.this) and _is_string(b, e.expression)):
            return None
        return b.agg("nullif", [e.this, e.expression], True)
    if isinstance(e, exp.Anonymous) and e.name.upper() == "STRCMP" and len(e.expressions) == 2:
        return b.agg("strcmp", list(e.expressions), True)
    if isinstance(e, exp.Case):
        rets = b.term(e)
        value = e.this
        if value is not None:
            whens = [i.this for i in e.args.get("ifs") or []]
            if all(_is_string(b, a) for a in [value, *whens]):
                cmp = b.agg("case", [value, *whens], True)
                return Agg("", tuple(t for t in (rets, cmp) if t is not None), True) \
                    if rets is not None and cmp is not None else rets or cmp
        return rets
    if isinstance(e, (exp.Concat, exp.ConcatWs, exp.Coalesce, exp.If, exp.Greatest,
                      exp.Least, exp.Replace)):
        return b.term(e)
    return None


def check(tree: exp.Expression, typer: Any, shape: str) -> Check | None:
    """Run the tree's collation checks that do not depend on values (raising 1267 & co.); the
    ones that do come back, to run with the values (None when there are none)."""
    b = _Builder(typer, shape)
    for call in [c for c in tree.find_all(exp.Anonymous)
                 if c.name.upper() == "COERCIBILITY" and len(c.expressions) == 1]:
        derivation = coercibility(call.expressions[0], typer, shape)
        if derivation is not None:
            call.replace(exp.Literal.number(derivation))
    later: list[Any] = []
    for site in _sites(b, tree):
        for term in _parts(site):
            if _has_slot(term) and _mixes_charsets(term):
                later.append(term)
            elif not _has_slot(term):
                resolve(term, None)
            else:
                resolve(term, {})  # one character set: the values cannot change the outcome
    return Check(tuple(later)) if later else None


def _parts(site: Any) -> list[Any]:
    if isinstance(site, Agg) and site.op == "":
        return list(site.args)
    return [site]


def _mixes_charsets(term: Any) -> bool:
    seen: set[str] = set()

    def walk(t: Any) -> None:
        if isinstance(t, Fixed):
            seen.add(t.dt.charset)
        elif isinstance(t, Slot):
            seen.add(t.collation.split("_", 1)[0])
        elif isinstance(t, Recast):
            if t.collation is not None:
                seen.add(t.collation.split("_", 1)[0])
            walk(t.inner)
        elif isinstance(t, Agg):
            for a in t.args:
                walk(a)
    walk(term)
    seen.discard("binary")
    return len(seen) > 1


def coercibility(e: exp.Expression, typer: Any, shape: str = "") -> int | None:
    """COERCIBILITY(e): the derivation, when this module can tell it (values unknown)."""
    if isinstance(e, exp.Collate):  # translate.py made the name SQLite's NOCASE / BINARY
        return EXPLICIT
    term = _Builder(typer, shape).term(e)
    if term is None:
        return None
    if isinstance(term, Slot):
        return term.derivation
    try:
        dt = resolve(term, {})
    except ServerError:
        return None
    return dt.derivation if dt is not None else None


def result_collation(e: exp.Expression, typer: Any) -> str | None:
    """The collation of a string function's result (CONCAT(latin1_col, 'x') is latin1), when
    this module can tell it; None also when its operands cannot be mixed."""
    term = _Builder(typer, "").term(e)
    if term is None:
        return None
    try:
        dt = resolve(term, {})
    except ServerError:
        return None
    return dt.collation if dt is not None else None
