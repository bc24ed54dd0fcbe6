"""The MySQL type of an expression, as MariaDB 10.11 would compute it, from the parsed shape.

Rules:
- `Typer(tables).infer(node)` returns a types.SqlType, or None when it cannot say (the engine
  then guesses from the values, as before). It runs on the MySQL tree, before the tree is
  rewritten for SQLite, once per shape.
- Literals are typed by their placeholder (statement.slot_kind): int, unsigned 64-bit, exact
  decimal with its scale, double, text, binary string; a client's `?` is unknown.
- Arithmetic follows MariaDB's result types: + - * of integers is BIGINT, with an exact decimal
  DECIMAL (scale: the larger for + and -, the sum for *), with a double or a string DOUBLE;
  `/` is DECIMAL with the dividend's scale plus div_precision_increment (4), or DOUBLE; DIV is
  BIGINT. SUM of an exact type is DECIMAL of its scale, AVG adds 4 to the scale; SUM / AVG of
  DOUBLE are DOUBLE; COUNT is BIGINT; MIN / MAX keep their argument's type.
- CASE / IF / IFNULL / COALESCE / GREATEST / LEAST merge their branches: all integers stay
  integer, exact ones with a decimal become DECIMAL with the largest scale, a double makes
  DOUBLE, anything else (strings, temporal mixes) VARCHAR.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from sqlglot import exp

from rampmeter.engine import types as T
from rampmeter.engine.types import SqlType
from rampmeter.sql import charsets
from rampmeter.sql.statement import slot_charset, slot_kind

DIV_PRECISION_INCREMENT = 4  # MariaDB's default div_precision_increment
_BOOL = SqlType("int", 1)
_INT10 = SqlType("int", 10)
_COUNT = SqlType("bigint", 21)
_TEXT = T.varchar(255)

Lookup = Callable[[str | None, str], SqlType | None]


HEX = SqlType("varbinary", 255, unsigned=True, charset="binary")  # X'..', 0x.., b'..'


def _exact(t: SqlType | None) -> bool:
    """An exact number: integers, DECIMAL, BIT, YEAR, and hex / bit literals (which are
    numbers in arithmetic)."""
    return t is not None and (t.is_integer or t.is_decimal or t.name in ("bit", "year")
                              or t is HEX)


def _scale(t: SqlType) -> int:
    return t.scale or 0 if t.is_decimal else 0


def _numeric_result(a: SqlType | None, b: SqlType | None, scale: Callable[[int, int], int]
                    ) -> SqlType | None:
    if a is None or b is None:
        return None
    if a.name == "null":
        return b if b.is_numeric else T.DOUBLE
    if b.name == "null":
        return a if a.is_numeric else T.DOUBLE
    if not (_exact(a) and _exact(b)):
        return T.DOUBLE
    if a.is_decimal or b.is_decimal:
        s = scale(_scale(a), _scale(b))
        whole = max((a.width or 10) - _scale(a), (b.width or 10) - _scale(b)) + 1
        return T.decimal(whole + s, s)
    # MariaDB: integer arithmetic is UNSIGNED when either side is (so 0 - CAST(1 AS UNSIGNED)
    # is out of range, error 1690), unless sql_mode has NO_UNSIGNED_SUBTRACTION.
    return T.UBIGINT if a.unsigned or b.unsigned else T.BIGINT


_TEMPORAL_DIGITS = {"date": 8, "time": 7, "datetime": 14, "timestamp": 14}


def _as_number(t: SqlType | None) -> SqlType | None:
    """A DATE / TIME / DATETIME in arithmetic is its digits (translate._temporal_operands):
    an integer, or a DECIMAL with its fractional digits."""
    if t is None or t.name not in _TEMPORAL_DIGITS:
        return t
    digits, fsp = _TEMPORAL_DIGITS[t.name], (t.fsp or 0) if t.name != "date" else 0
    return T.decimal(digits + fsp, fsp) if fsp else SqlType("bigint", digits)


def is_unsigned_integer(t: SqlType | None) -> bool:
    return t is not None and (t.unsigned and (t.is_integer or t is HEX) or t is HEX)


def merge(types: list[SqlType | None], precisions: list[int] | None = None,
          hybrid: bool = False) -> SqlType | None:
    """The type of a value that is one of `types` (CASE branches, COALESCE, UNION columns);
    `precisions`: each one's decimal precision when known (an integer literal's digits);
    `hybrid`: a function's result (CASE, IF, COALESCE...), where a NULL branch is signed and
    ZEROFILL is lost."""
    if None in types:
        return None
    # an ENUM / SET among the branches is the VARCHAR of its longest value (MariaDB: even
    # IFNULL(e, e) and a UNION of one ENUM column are VARCHAR)
    known = [_enum_as_varchar(t) for t in types if t is not None and t.name != "null"]
    if not known:
        return T.NULL if types else None
    if hybrid and any(t.name == "bit" for t in known) and not all(t.name == "bit"
                                                                  for t in known):
        known = [_bit_int(t) or t for t in known]  # BIT among numbers: an unsigned number
    first = known[0]
    # a NULL branch counts as signed; the result is never ZEROFILL (MariaDB's hybrid types)
    signs = {t.unsigned for t in known} | ({False} if hybrid and len(known) < len(types)
                                           else set())
    if all(t.is_integer for t in known):
        # MariaDB's aggregate_attributes_int: the largest precision, and a sign when signed
        # (COALESCE(1) and 1 UNION 22 are int(2) and int(3)); signed with unsigned is DECIMAL
        precision = max(precisions) if precisions else \
            max(_merge_precision(t) for t in known)
        if len(signs) > 1:
            return T.decimal(precision, 0)
        name = max((t.name for t in known), key=_INTEGER_ORDER.index)
        return SqlType(name, precision + (0 if first.unsigned else 1), unsigned=first.unsigned)
    if all(t == first for t in known):
        if hybrid and first.is_numeric and (first.zerofill or first.unsigned and
                                            len(signs) > 1):
            return SqlType(first.name, first.width, first.scale, unsigned=signs == {True})
        return first
    if all(_exact(t) for t in known):
        if any(t.is_decimal for t in known):
            s = max(_scale(t) for t in known)
            whole = max(_merge_precision(t) - _scale(t) for t in known)
            return T.decimal(whole + s, s, hybrid and signs == {True})
        if all(t.is_integer for t in known):  # the widest integer type, the longest length
            name = max((t.name for t in known), key=_INTEGER_ORDER.index)
            return SqlType(name, max(t.width or T.INTEGERS[t.name][2] for t in known),
                           unsigned=all(t.unsigned for t in known))
        return T.BIGINT
    if all(t.is_numeric for t in known):
        return T.DOUBLE
    if all(t.is_temporal and t.name == first.name for t in known):
        return T.SqlType(first.name, None, max(t.fsp for t in known))
    if any(t.is_binary_string for t in known):
        return T.varbinary(max((t.max_chars or 255) for t in known))
    chars = max((_char_length(t) or 255) for t in known)
    text = next((t for t in known if t.is_text and t.charset), None)
    if text is not None:  # the strings' character set (a column's before a literal's)
        return _sized_text(chars, text.charset or "", text.collation)
    return T.varchar(chars)


def _enum_as_varchar(t: SqlType) -> SqlType:
    if t.name not in ("enum", "set"):
        return t
    values = [len(m) for m in t.members]
    chars = (max(values) if t.name == "enum" else sum(values) + len(values) - 1) \
        if values else 0
    return SqlType("varchar", max(chars, 0), None, False, False, t.charset, t.collation)


_INTEGER_ORDER = ["tinyint", "smallint", "mediumint", "int", "bigint"]


def _merge_precision(t: SqlType, other: int = 20) -> int:
    """A DECIMAL's precision, an integer's display width less its sign; `other` for the rest."""
    if t.is_decimal:
        return t.width or 10
    if t.is_integer:
        width = t.width or T.INTEGERS[t.name][3 if t.unsigned else 2]
        return width if t.unsigned else max(width - 1, 1)
    return other


class Typer:
    """Types are remembered per node (held, so its id is not reused): rewrites ask for the type
    of every operand of every operator, and without the memo a chain of n operators cost n^2
    (`SELECT 1+1+...+1` with 5 000 terms took 70 s)."""

    def __init__(self, column_type: Lookup, collation: str = "utf8mb4_general_ci",
                 div_precision: int = DIV_PRECISION_INCREMENT,
                 values: dict[str, object] | None = None) -> None:
        """`collation`: collation_connection, the character set and collation of literals;
        `div_precision`: div_precision_increment; `values`: the literals' values by
        placeholder name, when the statement's own values may type it (CREATE TABLE ...
        SELECT): then a string literal has its own length, string functions their MariaDB
        lengths (strlen.py) and lengths that depend on a literal (LEFT(v, 3)) are exact."""
        self._column_type = column_type
        self.values = values
        coll = charsets.collation(collation) or charsets.default_collation("utf8mb4")
        self.text = T.varchar(255, coll.charset, coll.name)
        self.div_precision = div_precision
        self.values = values
        self.union = False  # typing a set operation's branches with `values` (translate.py)
        # (qualifier, name) -> is it a column of a server-provided table (translate.py)
        self.virtual_column: Callable[[str | None, str], bool] | None = None
        self.tables: object = None  # the statement's tables (translate._Tables)
        # name -> the declared RETURNS type of that stored function, or None (translate.py)
        self.routine_type: Callable[[str], SqlType | None] | None = None
        self._known: dict[int, tuple[exp.Expression, SqlType | None]] = {}

    def forget(self) -> None:
        """The tree was rewritten: what was remembered may no longer hold."""
        self._known.clear()

    def infer(self, node: exp.Expression) -> SqlType | None:
        try:
            return self._infer(node)
        except (RecursionError, ValueError, TypeError):
            return None

    def _infer(self, e: exp.Expression) -> SqlType | None:
        found = self._known.get(id(e))
        if found is not None and found[0] is e:
            return found[1]
        # None while it is being computed: a string function's collation (collagg.py) may
        # ask for the type of the very node being typed, which would recurse until Python's
        # 40000-frame limit (seconds per node) to reach the same None
        self._known[id(e)] = (e, None)
        t = self._compute(e)
        self._known[id(e)] = (e, t)
        return t

    def _compute(self, e: exp.Expression) -> SqlType | None:  # noqa: C901 - a table of cases
        if isinstance(e, (exp.Alias, exp.Paren)):
            return self._infer(e.this)
        if isinstance(e, exp.Window):
            return self._window(e.this)
        if self.values is not None:
            from rampmeter.engine.sqlite import strlen
            t = strlen.value_type(self, e)
            if t is not None:
                return t
        if isinstance(e, exp.Placeholder):
            t = _placeholder_type(e.name)
            if self.values is not None and t is not None and (t.is_integer or t.is_decimal):
                v = self.values.get(e.name)
                if type(v) is int:  # an unsigned literal too is as long as its digits
                    return _int_of_length(len(str(v)), False) if -2**63 <= v < 2**63 else \
                        _int_of_length(len(str(v)), True) if t.unsigned else t
                if isinstance(v, Decimal):
                    digits = v.as_tuple()
                    scale = -digits.exponent if isinstance(digits.exponent, int) and \
                        digits.exponent < 0 else 0
                    return T.decimal(max(len(digits.digits), scale, 1), scale)
            if t is not None and t.is_binary_string and self.values is not None and \
                    isinstance(self.values.get(e.name), bytes):
                return T.varbinary(len(self.values[e.name]))  # type: ignore[arg-type]
            if t is _TEXT and self.values is not None and isinstance(
                    self.values.get(e.name), str):
                return T.varchar(len(str(self.values[e.name])), self.text.charset or "utf8mb4",
                                 self.text.collation)
            return self.text if t is _TEXT else t
        if isinstance(e, exp.Column):
            if isinstance(e.this, exp.Star):
                return None
            return self._column_type(e.table or None, e.name)
        if isinstance(e, exp.Literal):
            if e.is_string:
                return T.varchar(len(e.name), self.text.charset or "utf8mb4",
                                 self.text.collation)
            text = e.name
            if "e" in text.lower():
                return T.DOUBLE
            if "." in text:
                return T.decimal(len(text.replace(".", "").lstrip("-")),
                                 len(text) - text.index(".") - 1)
            return T.BIGINT
        if isinstance(e, exp.Null):
            return T.NULL
        if isinstance(e, exp.Distinct) and len(e.expressions) == 1:  # SUM(DISTINCT x): x's
            return self._infer(e.expressions[0])
        if isinstance(e, exp.Boolean):
            return _BOOL
        if isinstance(e, exp.Neg):
            t = self._infer(e.this)
            if self.values is not None and t is not None and t.is_integer:
                literal = self._int_value(e.this)  # -5: a literal of 2 characters
                return _int_of_length(len(str(literal)) + 1 if literal is not None else
                                      (_char_length(t) or 20) + 1, False)
            return t if t is None or t.is_numeric else T.DOUBLE
        if self.values is not None and isinstance(e, _EXACT_ARITHMETIC):
            sized_number = self._exact_arithmetic(e)
            if sized_number is not None:
                return sized_number
        if isinstance(e, (exp.Add, exp.Sub)):
            return self._temporal_or(e, lambda a, b: _numeric_result(a, b, max))
        if isinstance(e, exp.Mul):
            return _numeric_result(_as_number(self._infer(e.this)),
                                   _as_number(self._infer(e.expression)), lambda x, y: x + y)
        if isinstance(e, exp.Div):
            a, b = _as_number(self._infer(e.this)), _as_number(self._infer(e.expression))
            if a is None or b is None:
                return None
            if _exact(a) and _exact(b):
                s = _scale(a) + self.div_precision
                whole = (a.width or 10) - _scale(a) + _scale(b)
                return T.decimal(whole + s, s)
            return T.DOUBLE
        if isinstance(e, exp.IntDiv):  # unsigned when either side is, like + - *
            a, b = self._infer(e.this), self._infer(e.expression)
            return T.UBIGINT if is_unsigned_integer(a) or is_unsigned_integer(b) else T.BIGINT
        if isinstance(e, exp.Mod):
            return _numeric_result(_as_number(self._infer(e.this)),
                                   _as_number(self._infer(e.expression)), max)
        if isinstance(e, (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.And,
                          exp.Or, exp.Not, exp.Like, exp.ILike, exp.In, exp.Is, exp.Between,
                          exp.Exists, exp.NullSafeEQ, exp.RegexpLike, exp.Xor)):
            return _BOOL
        if isinstance(e, (exp.BitwiseAnd, exp.BitwiseOr, exp.BitwiseXor, exp.BitwiseNot,
                          exp.BitwiseLeftShift, exp.BitwiseRightShift)):
            return T.UBIGINT
        if isinstance(e, exp.Count):
            return _COUNT
        if isinstance(e, exp.Sum):
            t = self._infer(e.this)
            if t is None:
                return None
            if _exact(t):
                return T.decimal((t.width or 20) + 22, _scale(t))
            return _fixed_double(t, 0)  # a FLOAT(M,D)'s sum shows D decimals
        if isinstance(e, exp.Avg):
            t = self._infer(e.this)
            if t is None:
                return None
            if _exact(t):
                return T.decimal((t.width or 20) + 4, _scale(t) + self.div_precision)
            return _fixed_double(t, self.div_precision)
        if isinstance(e, (exp.StddevPop, exp.StddevSamp, exp.VariancePop, exp.Variance)):
            return self._variance(e.this)
        if isinstance(e, (exp.Min, exp.Max)):
            return self._infer(e.this)
        if isinstance(e, exp.Extract):
            return extract_type(e.this.name, self._infer(e.expression))
        if isinstance(e, exp.Cast):
            t = cast_type(e.to)
            if t is not None and t.name == "varchar" and isinstance(e.to, exp.DataType) and \
                    e.to.this in _CONNECTION_CHAR and t.charset != self.text.charset:
                from dataclasses import replace  # CAST AS CHAR: the connection's set
                t = replace(t, charset=self.text.charset, collation=self.text.collation)
            if t is not None and t.name in ("time", "datetime") and \
                    isinstance(e.this, exp.Literal) and e.this.is_string:
                return SqlType(t.name, None, _literal_fsp(t.name, e.this.name))
            if t is not None and t.name == "varchar" and t.width == 255 and \
                    isinstance(e.to, exp.DataType) and not e.to.expressions:
                given = self._infer(e.this)  # CAST(temporal AS CHAR): as long as its text
                if given is not None and given.is_temporal:
                    from dataclasses import replace
                    fsp = given.fsp or 0
                    width = {"date": 10, "time": 10}.get(given.name, 19) + (
                        fsp + 1 if fsp and given.name != "date" else 0)
                    return replace(t, width=width)
            return t
        if isinstance(e, (exp.Coalesce, exp.Greatest, exp.Least)):
            return self._aggregated(e, self._merged([e.this, *e.expressions]))
        if isinstance(e, exp.Nullif):  # MariaDB: the first argument's type
            return self._infer(e.this)
        if isinstance(e, exp.If):
            return self._aggregated(e, self._merged([e.args["true"],
                                                     e.args.get("false") or exp.null()]))
        if isinstance(e, exp.Case):
            branches = [i.args["true"] for i in e.args.get("ifs") or []]
            default = e.args.get("default")  # no ELSE: no branch (an explicit NULL is one)
            return self._aggregated(e, self._merged(
                branches + [default] if default is not None else branches or [exp.null()]))
        if isinstance(e, exp.Subquery) or isinstance(e, exp.Select):
            sel = e.this if isinstance(e, exp.Subquery) else e
            if isinstance(sel, exp.Select) and len(sel.expressions) == 1:
                return self._infer(sel.expressions[0])
            return None
        if isinstance(e, (exp.Length, exp.StrPosition, exp.Year, exp.Month, exp.Day,
                          exp.DayOfWeek, exp.DayOfMonth, exp.DayOfYear, exp.WeekOfYear,
                          exp.BitLength)):
            return _INT10
        if isinstance(e, exp.Collate):
            t = self._infer(e.this)
            coll = e.meta.get("collation") or (  # translate.py renames it for SQLite
                e.expression.name.lower() if e.expression is not None else "")
            if t is not None and t.is_text and coll:
                from dataclasses import replace
                return replace(t, collation=coll)
            return t
        if isinstance(e, (exp.UtcTimestamp,)):
            return SqlType("datetime", None, _fsp_arg(e.this))
        if isinstance(e, exp.UnixToTime):  # FROM_UNIXTIME(n): n's fractional digits
            t = self._infer(e.this)
            return SqlType("datetime", None, min(t.scale or 0, 6) if t is not None and
                           t.name == "decimal" else 0)
        if isinstance(e, exp.ConvertTimezone):
            t = self._infer(e.args["timestamp"]) if e.args.get("timestamp") else None
            return SqlType("datetime", None, t.fsp if t is not None and t.is_temporal
                           and t.fsp else 0)
        if isinstance(e, (exp.UtcTime,)):
            return SqlType("time", None, _fsp_arg(e.this))
        if isinstance(e, exp.UtcDate):
            return T.DATE
        if isinstance(e, _SIZED_STRING_FUNCTIONS):
            sized = self._string_function(e)
            if sized is not None:  # its length, in the character set its operands aggregate to
                return self._aggregated(e, sized)
        if isinstance(e, (exp.Concat, exp.ConcatWs, exp.Upper, exp.Lower, exp.Substring,
                          exp.DPipe, exp.Trim, exp.Pad, exp.Left, exp.Right, exp.GroupConcat,
                          exp.TimeToStr, exp.Initcap)):
            args = [a for a in e.args.values() if isinstance(a, exp.Expression)]
            kinds = [self._infer(a) for a in args[:1]]
            if kinds and kinds[0] is not None and kinds[0].is_binary_string:
                return T.varbinary(kinds[0].max_chars or 255)
            from rampmeter.engine.sqlite import collagg
            coll = charsets.collation(collagg.result_collation(e, self) or "")
            if coll is not None and coll.charset != "binary":  # MariaDB's aggregation
                return T.varchar(255, coll.charset, coll.name)
            return _TEXT
        if isinstance(e, exp.CurrentDate):
            return T.DATE
        if isinstance(e, (exp.CurrentTimestamp, exp.Localtime, exp.Localtimestamp)):
            return SqlType("datetime", None, _fsp_arg(e.this))
        if isinstance(e, exp.CurrentTime):
            return SqlType("time", None, _fsp_arg(e.this))
        if isinstance(e, (exp.Round, exp.Trunc)):
            t = _bit_int(self._infer(e.this))
            digits = e.args.get("decimals")
            if t is None:
                return None
            if _exact(t):
                s = _int_literal(digits)
                if s is None:
                    return t
                return T.decimal(max((t.width or 10) - _scale(t) + max(s, 0), 1), max(s, 0)) \
                    if t.is_decimal or s > 0 else T.BIGINT
            return self._float_rounded(digits, t)
        if isinstance(e, (exp.Abs,)):
            t = self._infer(e.this)
            if self.values is not None and t is not None and t.is_integer:
                return _int_of_length(_char_length(t) or 20, t.unsigned)
            return t
        if isinstance(e, (exp.Ceil, exp.Floor)):
            t = _bit_int(self._infer(e.this))
            if self.values is not None and t is not None and (t.is_integer or t.is_decimal):
                if t.is_integer:
                    return _int_of_length(_char_length(t) or 20, t.unsigned)
                # one more digit when a fraction can carry (FLOOR(-9.9) is -10)
                grow = 1 if t.scale and (isinstance(e, exp.Ceil) or not t.unsigned) else 0
                precision = max((t.width or 10) - _scale(t) + grow, 1)
                if precision > 18:
                    return T.decimal(precision, 0, t.unsigned)
                return SqlType("int" if precision <= 9 else "bigint",
                               precision + (0 if t.unsigned else 1), unsigned=t.unsigned)
            return T.BIGINT if _exact(t) else T.DOUBLE if t is not None else None
        if isinstance(e, exp.Unhex):  # a binary string of half the argument's length
            t = self._infer(e.this)
            n = _char_length(t) if t is not None else None
            cs = charsets.charset(t.charset or "") if t is not None and t.is_string else None
            if n is not None and cs is not None:
                n *= cs.maxlen  # MariaDB halves the argument's length in bytes
            return T.varbinary((n + 1) // 2 if n is not None else 255)
        if isinstance(e, (exp.Sqrt, exp.Ln, exp.Log, exp.Exp, exp.Pow, exp.Rand,
                          exp.MatchAgainst)):
            return T.DOUBLE
        if isinstance(e, exp.Anonymous):
            name = e.name.upper()
            if name == "RM_MATCH":  # MATCH ... AGAINST (fulltext.py): a DOUBLE, as MariaDB's
                return T.DOUBLE
            if name in ("RM_SETVAR_CS", "RM_SETVAR_DEC") and len(e.expressions) >= 2:
                return self._infer(e.expressions[1])  # @v := expr (translate.py): expr's
            if name == "RM_CAST_CHAR" and len(e.expressions) >= 3:  # a rewritten CAST AS CHAR
                n = self._int_value(e.expressions[1])
                target = e.expressions[3] if len(e.expressions) == 4 else None
                cs = target.name if isinstance(target, exp.Literal) else "utf8mb4"
                coll = self.text.collation if cs == self.text.charset else None
                return T.varchar(n if n is not None and n >= 0 else 255, cs, coll)
            if name.startswith("RM_LOCAL_"):  # a routine's variable (sp/run.py)
                coll = charsets.collation(name[9:])
                if coll is not None:
                    return T.varchar(255, coll.charset, coll.name)
            if name == "RM_TO_CHARSET" and len(e.expressions) == 3 and \
                    isinstance(e.expressions[1], exp.Literal):  # a rewritten CONVERT(x USING cs)
                cs = e.expressions[1].name
                return T.varbinary(255) if cs == "binary" else T.varchar(255, cs)
            if name == "RM_CAST_TEMPORAL" and len(e.expressions) == 3:  # a rewritten CAST
                kind, fsp = e.expressions[1], e.expressions[2]
                if isinstance(kind, exp.Literal) and isinstance(fsp, exp.Literal):
                    name = kind.name.lower()  # capitals: a DATE'..' literal (translate.py)
                    return SqlType(name, None, None if name == "date" else int(fsp.name))
            if name in _FSP_FUNCTIONS and e.expressions:
                return SqlType(_FSP_FUNCTIONS[name], None, _fsp_arg(e.expressions[0]))
            if name in _SIZED_NAMES:
                sized = self._sized(name, list(e.expressions))
                if sized is not None:
                    return sized
            if name == "SPACE" and len(e.expressions) == 1:  # SPACE(50): VARCHAR(50)
                count = self._int_value(e.expressions[0])
                if count is not None:
                    return _sized_text(max(count, 0), self.text.charset or "utf8mb4",
                                       self.text.collation)
            if name in _VARIANCES and len(e.expressions) == 1 and \
                    not isinstance(e.parent, exp.Window):
                return self._variance(e.expressions[0])
            if name in ("ROUND", "TRUNCATE") and e.expressions and (
                    self.values is not None or self._float_argument(e.expressions[0])):
                rounded = self._rounded(e.expressions, truncate=name == "TRUNCATE")
                if rounded is not None:
                    return rounded
            known = _anonymous(name)
            if known is not None:
                return known
            found = library_type(self, name, list(e.expressions))
            if found is None and self.routine_type is not None:
                return self.routine_type(str(e.this))  # a stored function: its RETURNS
            return self._aggregated(e, found)
        if isinstance(e, exp.Chr):
            cs = e.args.get("charset")
            return _char_type(cs.name if isinstance(cs, exp.Expression) else "",
                              len(e.expressions))
        if isinstance(e, exp.ConvertTimezone):
            return _convert_tz_type(self, e.args.get("timestamp"))
        if isinstance(e, exp.JSONExtract):
            return T.longtext()
        if isinstance(e, exp.WeightString):
            return _weight_type(self, e)
        if isinstance(e, exp.PropertyEQ):
            return self._infer(e.expression)
        if isinstance(e, exp.SessionParameter):
            return _sysvar_type(e.name)
        if isinstance(e, (exp.CurrentSchema, exp.CurrentVersion, exp.CurrentUser)):
            return _ANON[{"CurrentSchema": "DATABASE", "CurrentVersion": "VERSION",
                          "CurrentUser": "CURRENT_USER"}[type(e).__name__]]
        return None

    def _variance(self, arg: exp.Expression) -> SqlType:
        """STD / VARIANCE & co. (Item_sum_variance): an exact argument's decimals plus
        div_precision_increment, a double's plus 4 (one without fixed decimals stays so)."""
        t = self._infer(arg)
        if t is not None and (t.is_integer or t.is_decimal):
            return SqlType("double", 23, min(_scale(t) + self.div_precision, 30))
        return _fixed_double(t, 4) if t is not None else T.DOUBLE

    def _merged(self, branches: list[exp.Expression]) -> SqlType | None:
        """merge() of the branches' types, with the precision of each integer one."""
        types = [self._infer(b) for b in branches]
        pairs = [(b, t) for b, t in zip(branches, types, strict=True)
                 if t is not None and t.name != "null"]
        if pairs and all(t.is_integer for _b, t in pairs):
            return merge(types, [self._precision(b, t) for b, t in pairs], hybrid=True)
        return merge(types, hybrid=True)

    def _precision(self, e: exp.Expression, t: SqlType) -> int:
        """MariaDB's decimal_precision() of an exact operand: an integer literal's digits, an
        integer column's display width less its sign, a DECIMAL's precision."""
        v = self._int_value(e)
        if v is not None:
            return len(str(abs(v)))
        return _merge_precision(t, 19)

    def _exact_arithmetic(self, e: exp.Expression) -> SqlType | None:
        """+ - * / MOD DIV, SUM and AVG of exact operands with MariaDB's result precision
        (Item_func_additive_op / _mul / _div / _mod ::result_precision), when the literals'
        values are known (`values`)."""
        if isinstance(e, (exp.Sum, exp.Avg)):
            a = self._infer(e.this)
            if a is None or not (a.is_integer or a.is_decimal):
                return None
            p, sa = self._precision(e.this, a), _scale(a)
            if isinstance(e, exp.Sum):
                return T.decimal(p + 22, sa)
            return T.decimal(p + self.div_precision, sa + self.div_precision)
        left, right = e.this, e.expression
        a, b = self._infer(left), self._infer(right)
        na, nb = _temporal_number(a), _temporal_number(b)
        a, b = na[0] if na else a, nb[0] if nb else b
        if a is None or b is None or not all(t.is_integer or t.is_decimal for t in (a, b)):
            return None
        pa = na[1] if na else self._precision(left, a)
        pb = nb[1] if nb else self._precision(right, b)
        sa, sb = _scale(a), _scale(b)
        unsigned = a.unsigned or b.unsigned
        decimal = a.is_decimal or b.is_decimal
        if isinstance(e, exp.Div):
            return T.decimal(pa + sb + self.div_precision, sa + self.div_precision)
        if isinstance(e, exp.IntDiv):
            return _int_of_length(max(pa - sa, 1), unsigned)
        if isinstance(e, (exp.Add, exp.Sub)):
            scale = max(sa, sb)
            precision = max(pa - sa, pb - sb) + 1 + scale
        elif isinstance(e, exp.Mul):
            scale = sa + sb
            precision = pa + pb
        else:  # MOD
            scale = max(sa, sb)
            precision = max(pa, pb)
            unsigned = a.unsigned
        if decimal:
            return T.decimal(precision, scale)
        return _int_of_length(precision + (0 if unsigned else 1), unsigned)

    def _rounded(self, args: list[exp.Expression], *, truncate: bool) -> SqlType | None:
        """ROUND / TRUNCATE of a DECIMAL or an integer by a constant number of digits
        (Item_func_round::fix_length_and_dec_decimal, fix_arg_int)."""
        t = self._infer(args[0])
        if t is not None and t.name == "bit":
            return _bit_int(t)  # its digits hold any rounding of it (BIT(7) is int(3))
        if t is not None and self._float_argument(args[0]):
            return self._float_rounded(args[1] if len(args) > 1 else None, t)
        if t is None or not (t.is_decimal or t.is_integer):
            return None
        digits = self._int_value(args[1]) if len(args) > 1 else 0
        if digits is None:
            return None
        if t.is_integer:
            if digits >= 0 or truncate:
                return t
            return _int_of_length((_char_length(t) or 20) + 1, t.unsigned)
        to = min(max(digits, 0), T.MAX_DECIMAL_SCALE)
        delta = _scale(t) - to
        grow = 0 if delta <= 0 or truncate else 1
        precision = max((t.width or 10) + grow - delta, 1)
        return T.decimal(precision, to, t.unsigned)

    def _float_argument(self, e: exp.Expression) -> bool:
        t = self._infer(e)
        return t is not None and not _exact(t) and (t.is_numeric or t.is_string)

    def _float_rounded(self, digits: exp.Expression | None, t: SqlType) -> SqlType:
        """ROUND / TRUNCATE of a double (or a string, read as one) by a constant number of
        digits shows that many decimals (Item_func_round::fix_arg_double: decimals n, length
        float_length(n) = DBL_DIG + 2 + n); a negative count shows none, past 30 the double is
        not fixed; a count known only per row keeps the argument's decimals."""
        n = 0 if digits is None else self._int_value(digits)
        if n is None:
            return T.DOUBLE if not t.is_float else t
        n = max(n, 0)
        if n >= 31:  # NOT_FIXED_DEC
            return T.DOUBLE
        return SqlType("double", 17 + n, n, t.unsigned and t.is_float)

    def _int_value(self, e: exp.Expression | None) -> int | None:
        """The value of an integer literal (a placeholder's when values are known)."""
        if isinstance(e, exp.Literal) and not e.is_string:
            try:
                return int(e.name)
            except ValueError:
                return None
        if isinstance(e, exp.Neg):
            v = self._int_value(e.this)
            return -v if v is not None else None
        if isinstance(e, exp.Placeholder) and self.values is not None:
            v = self.values.get(e.name)
            return v if type(v) is int else None
        return None

    def _string_function(self, e: exp.Expression) -> SqlType | None:
        """MariaDB's result length of a string function (its fix_length_and_dec), in the
        character set its string arguments aggregate to; None when an argument's length is
        not known."""
        if isinstance(e, exp.Concat):
            return self._sized("CONCAT", list(e.expressions))
        if isinstance(e, exp.DPipe):  # || under PIPES_AS_CONCAT
            return self._sized("CONCAT", [e.this, e.expression])
        if isinstance(e, exp.ConcatWs):
            return self._sized("CONCAT_WS", list(e.expressions))
        if isinstance(e, exp.Replace):
            return self._sized("REPLACE", [e.this, e.expression, e.args.get("replacement")])
        if isinstance(e, exp.Substring):
            return self._sized("SUBSTRING", [e.this, e.args.get("start"), e.args.get("length")])
        if isinstance(e, (exp.Left, exp.Right)):
            return self._sized("LEFT", [e.this, e.expression])
        if isinstance(e, exp.Repeat):
            return self._sized("REPEAT", [e.this, e.args.get("times")])
        if isinstance(e, exp.Pad):
            return self._sized("LPAD", [e.this, e.expression, e.args.get("fill_pattern")])
        return self._sized("UPPER", [e.this])

    def _sized(self, name: str, args: list[exp.Expression | None]) -> SqlType | None:
        name = _SIZED_ALIASES.get(name, name)
        strings = {"SUBSTRING": 1, "LEFT": 1, "REPEAT": 1, "LPAD": 1, "UPPER": 1}.get(
            name, len(args))
        if name == "LPAD" and len(args) > 2:
            strings = 1
        if not args or any(a is None for a in args[:strings]):
            return None
        string_args = [a for a in args[:strings] if a is not None]
        types = [self._infer(a) for a in string_args]
        lengths = [_char_length(t) for t in types]
        if any(n is None for n in lengths):
            return None
        n = [int(x or 0) for x in lengths]
        first = n[0]
        if name == "CONCAT":
            chars = sum(n)
        elif name == "CONCAT_WS":
            chars = sum(n[1:]) + n[0] * max(len(n) - 2, 0)
        elif name == "REPLACE":
            if len(n) != 3:
                return None
            chars = first + first * max(n[2] - 1, 0)
        elif name == "SUBSTRING":
            start = self._int_value(args[1]) if len(args) > 1 else None
            chars = first
            if start is not None and start > 0:
                chars = max(first - (start - 1), 0)
            elif start is not None and start < 0:
                chars = min(first, -start)
            if len(args) > 2 and args[2] is not None:
                count = self._int_value(args[2])
                chars = min(chars, max(count, 0)) if count is not None else chars
        elif name == "LEFT":
            count = self._int_value(args[1]) if len(args) > 1 else None
            chars = first if count is None else min(first, max(count, 0))
        elif name in ("REPEAT", "LPAD"):
            count = self._int_value(args[1]) if len(args) > 1 else None
            if count is None:
                return None
            chars = first * max(count, 0) if name == "REPEAT" else max(count, 0)
        else:  # UPPER, LOWER, TRIM, REVERSE: the argument's length
            chars = first
        binary = any(t is not None and t.is_binary_string for t in types)
        if binary:
            return T.varbinary(chars) if chars <= 512 else SqlType("blob", None,
                                                                   charset="binary")
        cs, coll = self._aggregate_charset(string_args, types)
        return _sized_text(chars, cs, coll)

    def _aggregate_charset(self, args: list[exp.Expression], types: list[SqlType | None]
                           ) -> tuple[str, str | None]:
        """The character set string arguments aggregate to: a column's (or any argument that
        is not a literal) wins over a literal's, which is the connection's (coercibility)."""
        for a, t in zip(args, types):
            if t is None or not t.is_text or isinstance(a, (exp.Literal, exp.Placeholder)):
                continue
            return t.charset or "", t.collation
        return self.text.charset or "utf8mb4", self.text.collation

    def _aggregated(self, e: exp.Expression, t: SqlType | None) -> SqlType | None:
        """A text result in the character set and collation MariaDB aggregates its string
        operands to (collagg.py): IF(c, latin1_col, 'x') is latin1."""
        if t is None or not t.is_text or t.name == "json":
            return t
        from dataclasses import replace

        from rampmeter.engine.sqlite import collagg
        coll = charsets.collation(collagg.result_collation(e, self) or "")
        if coll is None or coll.charset == "binary":
            return t
        return replace(t, charset=coll.charset, collation=coll.name)

    def _window(self, f: exp.Expression) -> SqlType | None:
        """A window function: the ranking ones are BIGINT(21), PERCENT_RANK / CUME_DIST are
        DOUBLE(.., 10), LAG / LEAD / FIRST_VALUE... keep their argument's type, aggregates theirs."""
        name = type(f).__name__
        if isinstance(f, exp.Anonymous) and f.name.lower() == "rm_percentile" and \
                len(f.expressions) == 4:  # percentile.py's rewrite: (p, x, desc, kind)
            if f.expressions[3].name == "cont":
                return SqlType("double", 23, 10)
            return self._infer(f.expressions[1])
        if name in ("RowNumber", "Rank", "DenseRank", "Ntile"):
            return _COUNT
        if name in ("PercentRank", "CumeDist", "Median") or name == "WithinGroup" and \
                isinstance(f.this, exp.PercentileCont):
            return SqlType("double", 23, 10)  # shown with 10 decimals, as MariaDB does
        if name == "WithinGroup" and isinstance(f.this, exp.PercentileDisc) and \
                isinstance(f.expression, exp.Order) and f.expression.expressions:
            return self._infer(f.expression.expressions[0].this)  # its ORDER BY item's type
        if name in ("Lag", "Lead", "FirstValue", "LastValue", "NthValue"):
            return self._infer(f.this)
        return self._infer(f)

    def _temporal_or(self, e: exp.Binary, numeric: Callable[[SqlType | None, SqlType | None],
                                                            SqlType | None]) -> SqlType | None:
        a, b = self._infer(e.this), self._infer(e.expression)
        if isinstance(e.expression, exp.Interval) and a is not None and a.is_temporal:
            return a
        if isinstance(e.expression, exp.Interval) and e.expression.args.get("unit") and \
                a is not None and a.is_string:
            return _date_add_type(self, "DATE_ADD", [e.this, e.expression])  # a string
        return numeric(_as_number(a), _as_number(b))


_EXACT_ARITHMETIC = (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.IntDiv, exp.Mod, exp.Sum, exp.Avg)


_TEMPORAL_DIGITS = {"date": 8, "time": 7, "datetime": 14, "timestamp": 14}


def _temporal_number(t: SqlType | None) -> tuple[SqlType, int] | None:
    """A DATE / TIME / DATETIME / YEAR in arithmetic: the number it is (YYYYMMDD, HHHMMSS,
    YYYYMMDDHHMMSS, its fraction as decimals) and that number's precision, MariaDB's
    decimal_precision() of it (MAX(time) + 1 is int(9), of a DATETIME bigint(16))."""
    if t is None:
        return None
    if t.name == "year":
        return SqlType("int", 4, unsigned=True), 4
    digits = _TEMPORAL_DIGITS.get(t.name)
    if digits is None:
        return None
    fsp = t.fsp or 0 if t.name != "date" else 0
    if fsp:
        return T.decimal(digits + fsp, fsp), digits + fsp
    return SqlType("bigint", digits + 1), digits


def _int_of_length(length: int, unsigned: bool) -> SqlType:
    """An integer result `length` characters long: INT up to 9, BIGINT past it (MariaDB's
    type_handler_long_or_longlong)."""
    # type_handler_long_or_longlong: INT holds 9 digits and a sign, or 10 digits unsigned
    return SqlType("int" if length <= (10 if unsigned else 9) else "bigint", length,
                   unsigned=unsigned)


_SIZED_ALIASES = {"RIGHT": "LEFT", "RPAD": "LPAD", "SUBSTR": "SUBSTRING", "MID": "SUBSTRING",
                  "LOWER": "UPPER", "UCASE": "UPPER", "LCASE": "UPPER", "REVERSE": "UPPER",
                  "LTRIM": "UPPER", "RTRIM": "UPPER", "TRIM": "UPPER"}
_SIZED_NAMES = frozenset({"CONCAT", "CONCAT_WS", "REPLACE", "SUBSTRING", "LEFT", "REPEAT",
                          "LPAD", "UPPER", *_SIZED_ALIASES})
_SIZED_STRING_FUNCTIONS = (exp.Concat, exp.DPipe, exp.ConcatWs, exp.Replace, exp.Upper, exp.Lower,
                           exp.Substring, exp.Left, exp.Right, exp.Repeat, exp.Pad, exp.Trim,
                           exp.Reverse)


def _char_length(t: SqlType | None) -> int | None:
    """Characters a value of this type shows as (MariaDB's max_char_length())."""
    if t is None:
        return None
    if t.name == "null":
        return 0
    if t.is_string:
        return t.max_chars
    if t.is_integer:
        return t.width or T.INTEGERS[t.name][3 if t.unsigned else 2]
    if t.is_decimal:
        prec = t.width or 10
        return prec + (1 if t.scale else 0) + (0 if t.unsigned else 1)
    if t.is_float:
        return 22 if t.name == "double" else 12
    if t.name == "date":
        return 10
    if t.name in ("datetime", "timestamp"):
        return 19 + (t.fsp + 1 if t.fsp else 0)
    if t.name == "time":
        return 10 + (t.fsp + 1 if t.fsp else 0)
    if t.name == "year":
        return 4
    return None


def _sized_text(chars: int, charset: str, collation: str | None) -> SqlType:
    """A string result of `chars` characters: VARCHAR up to 512 (MariaDB's
    CONVERT_IF_BIGGER_TO_BLOB), a TEXT type past it."""
    if chars <= 512:
        return SqlType("varchar", chars, None, False, False, charset or None, collation)
    maxlen = charsets.charset(charset).maxlen if charset and charsets.charset(charset) else 4
    size = chars * maxlen
    name = "text" if size <= 65535 else "mediumtext" if size <= 16777215 else "longtext"
    return SqlType(name, None, None, False, False, charset or None, collation)


def _sysvar_type(name: str) -> SqlType | None:
    """@@name of a DOUBLE variable (timestamp, max_statement_time, long_query_time...) is a
    DOUBLE shown with 6 decimals, as MariaDB returns it; one whose values pass BIGINT's range
    is BIGINT UNSIGNED."""
    from rampmeter.config.options import Kind, lookup
    opt = lookup(name)
    if opt is not None and opt.kind is Kind.DOUBLE:
        return SqlType("double", 23, 6)
    if opt is not None and opt.kind is Kind.INT and (opt.maximum or 0) >= 1 << 63:
        return SqlType("bigint", 20, unsigned=True)  # max_join_size, sql_select_limit, ...
    return None


_VARIANCES = frozenset({"STD", "STDDEV", "STDDEV_POP", "STDDEV_SAMP", "VARIANCE", "VAR_POP",
                        "VAR_SAMP"})


def _bit_int(t: SqlType | None) -> SqlType | None:
    """A BIT(n) read as a number (FLOOR, CEIL, ROUND, TRUNCATE): an unsigned INT as long as
    its largest value (BIT(7) is int(3) unsigned), as MariaDB's Type_handler_bit types it."""
    if t is None or t.name != "bit":
        return t
    return _int_of_length(len(str((1 << (t.width or 1)) - 1)), True)


def _fixed_double(t: SqlType, more: int) -> SqlType:
    """DOUBLE of a FLOAT(M,D) / DOUBLE(M,D) argument: D + `more` decimals shown (up to 30;
    past that, or for a double without fixed decimals, a plain DOUBLE)."""
    if t.is_float and t.width is not None and t.scale is not None and t.scale + more <= 30:
        return SqlType("double", 23, t.scale + more)
    return T.DOUBLE


def _int_literal(node: exp.Expression | None) -> int | None:
    if node is None:
        return 0
    if isinstance(node, exp.Literal) and not node.is_string:
        try:
            return int(node.name)
        except ValueError:
            return None
    if isinstance(node, exp.Neg):
        inner = _int_literal(node.this)
        return -inner if inner is not None else None
    return None


def _convert_tz_type(typer: Typer, arg: exp.Expression | None) -> SqlType:
    """CONVERT_TZ is a DATETIME with its argument's fractional digits: a temporal's fsp, a
    constant string's own digits, 6 for a string read per row (MariaDB's datetime_precision)."""
    if isinstance(arg, exp.Literal) and arg.is_string:
        tail = arg.name.rsplit(".", 1)
        return SqlType("datetime", None, min(len(tail[1].strip()), 6) if len(tail) > 1 else 0)
    t = typer.infer(arg) if arg is not None else None
    if t is not None and t.is_temporal:
        return SqlType("datetime", None, t.fsp or 0)
    return SqlType("datetime", None, 6 if t is None or t.is_string else 0)


def _fsp_arg(node: exp.Expression | None) -> int:
    n = _int_literal(node) if node is not None else 0
    return max(0, min(n or 0, 6))


def _introduced(name: str) -> SqlType:
    cs = slot_charset(name) or "utf8mb4"
    return T.varchar(255, cs)


def _placeholder_type(name: str) -> SqlType | None:
    try:
        kind, _index, scale = slot_kind(name)
    except (ValueError, IndexError):
        return None
    if kind == "i":
        return T.BIGINT
    if kind == "u":
        return T.UBIGINT
    if kind == "n":
        return T.decimal(65, scale)
    if kind == "f":
        return T.DOUBLE
    if kind == "s":
        return _TEXT
    if kind == "c":  # _latin1'...': text of that character set
        return _introduced(name)
    if kind == "x":
        return HEX
    if kind == "b":
        return T.varbinary(255)
    return None


def _SYSTEM_NAME(chars: int) -> SqlType:  # noqa: N802
    return T.varchar(chars, "utf8mb3")


_ANON = {
    "RM_BIN2NUM": T.UBIGINT,  # a hex or bit literal used as a number
    "RM_CAST_BINARY": T.varbinary(255),  # BINARY x / CAST(x AS BINARY) of non-UTF-8 text
    "CHAR_LENGTH": _INT10, "OCTET_LENGTH": _INT10, "MICROSECOND": T.BIGINT, "LAST_INSERT_ID": T.UBIGINT,
    "CONNECTION_ID": T.UBIGINT, "ROW_COUNT": T.BIGINT, "FOUND_ROWS": T.BIGINT,
    "SLEEP": _BOOL, "GET_LOCK": _BOOL, "RELEASE_LOCK": _BOOL, "IS_FREE_LOCK": _BOOL,
    "IS_USED_LOCK": T.UBIGINT, "RELEASE_ALL_LOCKS": T.BIGINT,
    # names of the server's objects are utf8mb3 strings in MariaDB (system_charset_info)
    "DATABASE": _SYSTEM_NAME(64), "SCHEMA": _SYSTEM_NAME(64), "USER": _SYSTEM_NAME(384),
    "CURRENT_USER": _SYSTEM_NAME(384), "SYSTEM_USER": _SYSTEM_NAME(384),
    "SESSION_USER": _SYSTEM_NAME(384), "VERSION": _SYSTEM_NAME(64),
    "CHARSET": _SYSTEM_NAME(64), "COLLATION": _SYSTEM_NAME(64), "UUID": T.varchar(36),
    "MD5": T.varchar(32), "SHA1": T.varchar(40),
    "NOW": T.DATETIME, "SYSDATE": T.DATETIME, "LOCALTIMESTAMP": T.DATETIME,
    "UTC_TIMESTAMP": T.DATETIME, "CURDATE": T.DATE, "CURTIME": T.TIME,
    "FROM_UNIXTIME": T.DATETIME, "BENCHMARK": T.BIGINT, "STRCMP": T.BIGINT,
    # jsonfns.py's readers, typed as MariaDB's (CREATE TABLE ... SELECT shows them so)
    "JSON_LENGTH": SqlType("int", 10), "JSON_CONTAINS": SqlType("int", 1),
    "JSON_CONTAINS_PATH": SqlType("int", 1),
    "JSON_TYPE": SqlType("varchar", 12, charset="utf8mb3", collation="utf8mb3_general_ci"),
}


_FSP_FUNCTIONS = {"NOW": "datetime", "SYSDATE": "datetime", "LOCALTIMESTAMP": "datetime",
                  "LOCALTIME": "datetime", "CURTIME": "time", "UTC_TIMESTAMP": "datetime",
                  "UTC_TIME": "time"}


def _anonymous(name: str) -> SqlType | None:
    return _ANON.get(name)


def _weight_type(typer: Typer, e: exp.WeightString) -> SqlType | None:
    from rampmeter.engine.sqlite import functions_weight
    t = typer.infer(e.this)
    if t is not None and t.is_numeric:
        return T.varbinary(0)  # NULL: MariaDB weighs strings only
    to = e.args.get("to")
    params = [p.this.name if isinstance(p, exp.DataTypeParam) else p.name
              for p in to.expressions] if isinstance(to, exp.DataType) else []
    length = int(params[0]) if params and str(params[0]).isdigit() else None
    binary = isinstance(to, exp.DataType) and to.this in (exp.DataType.Type.BINARY,
                                                          exp.DataType.Type.VARBINARY)
    return functions_weight.result_type(t, length, binary)


def library_type(typer: Typer, name: str, args: list[exp.Expression]) -> SqlType | None:
    """The result type of a call of the function library (funclib.py)."""
    from rampmeter.engine.sqlite import funclib
    fn = funclib.lookup(name)
    if fn is None and name.startswith("MF_"):  # already renamed for SQLite (funcmap.py),
        name = name[3:]                         # as later rewrites (compare.py) see it
        fn = funclib.lookup(name)
    if fn is None:
        return None
    if name in ("DATE_ADD", "DATE_SUB", "ADDDATE", "SUBDATE", "TIMESTAMPADD"):
        return _date_add_type(typer, name, args)
    if name == "UNIX_TIMESTAMP":
        return _unix_timestamp_type(typer, args)
    if name == "EXTRACT" and len(args) >= 2 and isinstance(args[0], exp.Literal):
        return extract_type(args[0].name, typer.infer(args[1]))
    if name == "TIME_TO_SEC" and len(args) == 1:
        return _time_to_sec_type(typer, args[0])
    if name == "SEC_TO_TIME" and len(args) == 1:
        digits = sec_to_time_digits(typer, args[0])
        return SqlType("time", None, digits) if digits is not None else None
    if name == "DATE_FORMAT" and len(args) >= 2:
        fmt = _constant_text(typer, args[1])
        if fmt is not None:  # a constant format: as long as it can print (format_length)
            return T.varchar(date_format_length(fmt), typer.text.charset or "utf8mb4",
                             typer.text.collation)
    if name == "CHAR" and args and isinstance(args[0], exp.Literal):  # funcmap's CHAR(cs, ...)
        return _char_type(args[0].name, len(args) - 1)
    if name in ("ADDTIME", "SUBTIME") and args:
        t = typer.infer(args[0])
        return t if t is not None and t.is_temporal else T.varchar(26)
    return fn.result_type([typer.infer(a) for a in args])


def _constant_text(typer: Typer, e: exp.Expression) -> str | None:
    """A string literal's text, or a string slot's value when the typer has the values."""
    if isinstance(e, exp.Literal) and e.is_string:
        return e.name
    if isinstance(e, exp.Placeholder) and typer.values is not None:
        v = typer.values.get(e.name)
        return v if isinstance(v, str) else None
    return None


# DATE_FORMAT's characters per specifier (MariaDB's Item_func_date_format::format_length;
# checked against 10.11's CREATE ... SELECT DATE_FORMAT(NOW(), '%x') for every letter)
_FORMAT_WIDTH = {"M": 64, "W": 64, "D": 4, "Y": 4, "x": 4, "X": 4, "a": 32, "b": 32, "j": 3,
                 "U": 2, "u": 2, "V": 2, "v": 2, "y": 2, "m": 2, "d": 2, "h": 2, "I": 2,
                 "i": 2, "l": 2, "p": 2, "S": 2, "s": 2, "c": 2, "e": 2, "k": 7, "H": 7,
                 "r": 11, "T": 8, "f": 6}


def date_format_length(fmt: str) -> int:
    size, i = 0, 0
    while i < len(fmt):
        if fmt[i] != "%" or i == len(fmt) - 1:
            size += 1
            i += 1
            continue
        size += _FORMAT_WIDTH.get(fmt[i + 1], 1)
        i += 2
    return size


def _char_type(charset: str, codes: int) -> SqlType:
    """CHAR(n, ... [USING cs]): VARBINARY, or text in cs, of 4 bytes a code (MariaDB's
    Item_func_char::fix_length_and_dec)."""
    cs = charsets.charset(charset) if charset else None
    if cs is None or cs.is_binary:
        return T.varbinary(max(codes, 1) * 4)
    return T.varchar(max(codes, 1) * 4 // cs.maxlen or 1, cs.name)


def _unix_timestamp_type(typer: Typer, args: list[exp.Expression]) -> SqlType | None:
    """BIGINT, or a DECIMAL with the argument's fractional digits: a temporal column's fsp, 6
    for a string read per row (funcmap.py passes that 6 to the function). A constant string's
    digits are its own ('... 09:26:00.12' has 2): the value is not in the statement's shape,
    so the type is the value's (None here)."""
    if not args:
        return T.BIGINT
    arg = args[0]
    digits = 0
    if isinstance(arg, exp.Placeholder) or isinstance(arg, exp.Literal) and arg.is_string:
        return None
    if isinstance(arg, exp.Literal):
        text = arg.name
        digits = len(text.rsplit(".", 1)[1]) if "." in text else 0
    else:
        t = typer.infer(arg)
        if t is None or t.is_string:
            digits = 6 if arg.find(exp.Column) is not None else 0
        elif t.is_temporal:
            digits = t.fsp or 0
        elif t.is_decimal:
            digits = t.scale or 0
    return T.decimal(17, min(digits, 6)) if digits else T.BIGINT


def sec_to_time_digits(typer: Typer, arg: exp.Expression) -> int | None:
    """SEC_TO_TIME's fractional digits (MariaDB: its argument's decimals): an integer's 0, a
    DECIMAL's scale, a temporal's fsp, 6 for a DOUBLE or any string; None when not known (a
    number literal of the shape: the value's)."""
    if isinstance(arg, exp.Literal) and arg.is_string:
        return 6
    t = typer.infer(arg)
    if t is None:
        return None
    if t.name == "null" or t.is_integer:
        return 0
    if t.is_decimal:
        return min(t.scale or 0, 6)
    if t.is_temporal:
        return t.fsp or 0
    return 6


# EXTRACT's digits by unit (MariaDB's Item_extract::fix_length_and_dec), and whether the
# day's digits come first ('day'): 2 from a temporal, 7 (3652058) from an interval read from
# a number or a string
_EXTRACT_DIGITS = {
    "YEAR": ("date", 4), "YEAR_MONTH": ("date", 6), "QUARTER": ("date", 2),
    "MONTH": ("date", 2), "WEEK": ("date", 2), "DAY": ("day", 0), "DAY_HOUR": ("day", 2),
    "DAY_MINUTE": ("day", 4), "DAY_SECOND": ("day", 6), "HOUR": ("time", 2),
    "HOUR_MINUTE": ("time", 4), "HOUR_SECOND": ("time", 6), "MINUTE": ("time", 2),
    "MINUTE_SECOND": ("time", 4), "SECOND": ("time", 2), "MICROSECOND": ("time", 6),
    "DAY_MICROSECOND": ("time", 12), "HOUR_MICROSECOND": ("time", 12),
    "MINUTE_MICROSECOND": ("time", 10), "SECOND_MICROSECOND": ("time", 8)}


def extract_type(unit: str, t: SqlType | None) -> SqlType:
    """INT(n) or BIGINT(n) (from 11 digits; 10 for a date's units) as MariaDB types EXTRACT."""
    kind, digits = _EXTRACT_DIGITS.get(unit.upper(), ("time", 19))
    day = 2 if t is not None and t.is_temporal else 7
    if kind == "day" or unit.upper() == "DAY_MICROSECOND":
        digits += day
    width = digits + 1  # with a sign (MariaDB adds one to a date's units too)
    return SqlType("bigint" if width >= (10 if kind == "date" else 11) else "int", width)


def _time_to_sec_type(typer: Typer, arg: exp.Expression) -> SqlType | None:
    """BIGINT(17), or DECIMAL(16 + d, d) with d the argument's time digits (MariaDB's
    time_precision): a temporal's fsp, a DECIMAL's scale, 6 for a DOUBLE or a string read
    per row, a constant string's own (known only with the statement's values, else the
    value's type: None)."""
    from rampmeter.engine.sqlite import temporal
    if isinstance(arg, exp.Placeholder) or isinstance(arg, exp.Literal) and arg.is_string:
        value = typer.values.get(arg.name) if typer.values is not None and \
            isinstance(arg, exp.Placeholder) else arg.name if isinstance(arg, exp.Literal) \
            else None
        if isinstance(value, str):
            read = temporal.read_time(value)
            digits = read[1] if read is not None else 0
        elif isinstance(arg, exp.Placeholder) and value is not None:
            digits = 0 if isinstance(value, int) else 6 if isinstance(value, float) else \
                min(-value.as_tuple().exponent, 6) if isinstance(value, Decimal) else 0
        else:
            return None
    else:
        t = typer.infer(arg)
        if t is None or t.name == "null" or t.is_integer:
            digits = 0
        elif t.is_temporal:
            digits = t.fsp or 0
        elif t.is_decimal:
            digits = min(t.scale or 0, 6)
        else:
            digits = 6
    return T.decimal(16 + digits, digits) if digits else SqlType("bigint", 17)


def _literal_fsp(name: str, text: str) -> int:
    """A TIME'..' / TIMESTAMP'..' literal's fractional digits: as written, at most 6."""
    from rampmeter.engine.sqlite import temporal
    if name == "time":
        read = temporal.read_time(text)
        return read[1] if read is not None else 0
    m = temporal.read_datetime(text)
    return m.fsp if m is not None else 0


def _date_add_type(typer: Typer, name: str, args: list[exp.Expression]) -> SqlType | None:
    """DATE_ADD(d, INTERVAL n unit): a DATE stays a DATE by days or more, a DATETIME stays
    one; anything else is a string (MariaDB's rule)."""
    base = args[-1] if name == "TIMESTAMPADD" else args[0] if args else None
    unit = args[0].name if name == "TIMESTAMPADD" and args else ""
    if len(args) > 1 and isinstance(args[1], exp.Interval) and args[1].args.get("unit"):
        unit = args[1].args["unit"].name
    t = typer.infer(base) if base is not None else None
    timed = any(p in unit.upper() for p in ("HOUR", "MINUTE", "SECOND"))
    if t is not None and t.name == "time" and name != "TIMESTAMPADD":
        return SqlType("time", None, 6 if "MICRO" in unit.upper() else t.fsp)
    if t is not None and t.name == "date":
        return T.DATETIME if timed else T.DATE
    if t is not None and t.name in ("datetime", "timestamp"):
        return SqlType("datetime", None, 6 if "MICRO" in unit.upper() else t.fsp)
    return T.varchar(29, typer.text.charset, typer.text.collation)  # the connection's


def number_kind(t: SqlType | None) -> str:
    """How a value of type t turns into an integer (functions.cast_signed): i integer,
    d exact decimal (rounded half up), f double (rounded half even), x binary string
    (its bytes), s text (its leading digits)."""
    if t is None:
        return "s"
    if t.is_integer or t.name in ("bit", "year"):
        return "i"
    if t.is_decimal:
        return "d"
    if t.is_numeric:
        return "f"
    return "x" if t.is_binary_string else "s"


def charset_of(t: SqlType | None) -> str | None:
    """The character set of a string type ('binary' for binary strings); None if not known
    or not a string."""
    if t is None:
        return None
    if t.is_binary_string or t.name == "varbinary":
        return "binary"
    if t.is_text:
        if t.charset:
            return t.charset
        if t.collation:
            c = charsets.collation(t.collation)
            return c.charset if c is not None else None
        return "utf8mb4"
    return None


_CONNECTION_CHAR = (exp.DataType.Type.CHAR, exp.DataType.Type.VARCHAR, exp.DataType.Type.TEXT)


def cast_type(to: exp.Expression | None) -> SqlType | None:
    """CAST(x AS <to>) -> the result type."""
    if not isinstance(to, exp.DataType):
        return None
    dtype = to.this
    D = exp.DataType.Type
    params = [p.this.name if isinstance(p, exp.DataTypeParam) else p.name
              for p in to.expressions]
    nums = [int(p) for p in params if str(p).isdigit()]
    if dtype in (D.BIGINT, D.INT, D.SMALLINT, D.TINYINT, D.MEDIUMINT):
        return T.BIGINT
    if dtype in (D.UBIGINT, D.UINT, D.USMALLINT, D.UTINYINT, D.UMEDIUMINT):
        return T.UBIGINT
    if dtype in (D.DECIMAL, D.UDECIMAL):
        prec = nums[0] if nums else 10
        scale = nums[1] if len(nums) > 1 else 0
        return T.decimal(prec, scale)
    if dtype == D.DOUBLE and len(nums) == 2:  # DOUBLE(M,D) shows D decimals
        return SqlType("double", nums[0], nums[1])
    if dtype in (D.DOUBLE, D.FLOAT):
        return T.DOUBLE if dtype == D.DOUBLE else SqlType("float")
    if dtype == D.DATE:
        return T.DATE
    if dtype in (D.DATETIME, D.TIMESTAMP, D.TIMESTAMPTZ, D.DATETIME64):
        return SqlType("datetime", None, nums[0] if nums else 0)
    if dtype == D.TIME:
        return SqlType("time", None, nums[0] if nums else 0)
    if dtype == D.INTERVAL:  # 'ddddddd hh:mm:ss.ffffff' with its sign
        fsp = nums[0] if nums else 0
        return T.varchar(17 + (fsp + 1 if fsp else 0))
    if dtype in (D.BINARY, D.VARBINARY):
        return T.varbinary(nums[0] if nums else 255)
    if dtype in (D.CHAR, D.VARCHAR, D.NCHAR, D.NVARCHAR, D.TEXT):
        return T.varchar(nums[0] if nums else 255)
    if dtype == D.CHARACTER_SET:  # CONVERT(x USING cs), CAST(x AS CHAR CHARACTER SET cs)
        kind = to.args.get("kind")
        name = kind.name.lower() if isinstance(kind, exp.Expression) else "utf8mb4"
        if name == "binary":
            return T.varbinary(255)
        cs = charsets.charset(name)
        return T.varchar(255, charset=cs.name if cs is not None else "utf8mb4")
    if dtype == D.JSON:
        return T.longtext()
    return None
