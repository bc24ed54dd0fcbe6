"""Exact DECIMAL arithmetic, comparison and SUM, where SQLite would compute with doubles.

A DECIMAL column holds its exact digits as text (values.py); a long DECIMAL literal is bound as
text (dml.sqlite_value). SQLite's + - * / and SUM read both as doubles (15 digits), and compare
a text with a number as different types. MariaDB computes DECIMALs exactly (decimal.c, 65
digits). Rules:

- `a op b` (+ - * / MOD) whose MySQL type (infer.py) is DECIMAL and whose operands are integers
  or DECIMALs becomes rm_dec(a, b, op, scale): the exact result, as text at the type's scale
  (MOD keeps the dividend's sign). A quotient keeps what decimal_div computes: the operands'
  fraction digits plus div_precision_increment, in whole words of 9 digits, truncated (1/3
  is 0.333333333: stored in a CHAR it shows so); the result's scale rounds it where it is
  shown (values.decimal_loader, a DECIMAL column's store).
  Division by zero is still translate.py's CASE (rm_div0), which finds the divisor second.
- A unary minus of such a DECIMAL, not of a literal, is rm_dec(0, a, '-', scale).
- A comparison of integers and DECIMALs with at least one DECIMAL, where neither side is a
  column (a DECIMAL column compares by its rm_decimal collation, and keeps its index) nor are
  both plain literals, becomes rm_dcmp(a, b) op 0: both read as exact numbers. A select
  list's alias (HAVING total > 1) is no column here.
- GREATEST / LEAST of exact numbers giving a DECIMAL are rm_dext('max' | 'min', ...); a
  DECIMAL in JSON_ARRAY / JSON_OBJECT is json(x), a JSON number of its digits.
- `x IN (list)` of exact numbers with a DECIMAL, x not a column, compares the texts of x and
  of each item (rm_dtext) by rm_decimal.
- Each rm_d* call is given COLLATE rm_decimal (translate.py), so its text sorts, groups, and
  takes MIN / MAX as a number (ORDER BY a + 1).
- ABS / CEILING / FLOOR of a DECIMAL (a column, an expression, a literal of more than 15
  digits) are rm_dfn(name, x): exact.
- SUM(x) of a DECIMAL x (not a window's) is rm_dsum(x): an exact sum, as text; AVG(x) is
  rm_davg<scale>(x) (one argument, as AVG(DISTINCT x) needs): that sum over the count,
  rounded half up to AVG's scale.
- Values read: NULL, integers, doubles (their shortest repr: a REAL literal's digits), text
  (a DECIMAL's digits; a '~' BIGINT UNSIGNED past 2^63; anything else by its leading number).
- Statements without DECIMAL arithmetic are untouched (one type look-up per operator).
"""

from __future__ import annotations

from decimal import (
    ROUND_CEILING,
    ROUND_DOWN,
    ROUND_FLOOR,
    ROUND_HALF_UP,
    Context,
    Decimal,
    DivisionByZero,
    InvalidOperation,
    localcontext,
)
from typing import TYPE_CHECKING, Any

from sqlglot import exp

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.infer import Typer
    from rampmeter.engine.types import SqlType

_WIDE = Context(prec=130)  # two 65-digit operands multiplied, exactly
_OPS = {exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.Div: "/", exp.Mod: "%"}
_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.NullSafeEQ)
_MAX_SCALE = 38  # DECIMAL_MAX_SCALE
_INT_LIMIT = 2**63
_DECIMAL_CALLS = frozenset({"rm_dec", "rm_dsum", "rm_dfn", "rm_dext",
                            *(f"rm_davg{k}" for k in range(_MAX_SCALE + 1))})


# --- translation -----------------------------------------------------------------------------
def _exact(t: SqlType | None) -> bool:
    return t is not None and (t.is_decimal or t.is_integer)


def arithmetic(node: exp.Expression, typer: Typer) -> exp.Expression | None:
    """The rm_dec call standing for `node` (+ - * / MOD or unary minus), or None."""
    op = _OPS.get(type(node))
    if op is None and not isinstance(node, exp.Neg):
        return None
    t = typer.infer(node)
    if t is None or not t.is_decimal:
        return None
    if isinstance(node, exp.Neg):  # -1.5 stays a literal (ROUND(-1.5) and co. read it so)
        if _literal(node.this) or not _exact(typer.infer(node.this)):
            return None
        return _call("rm_dec", exp.Literal.number(0), node.this, exp.Literal.string("-"),
                     exp.Literal.number(min(t.scale or 0, _MAX_SCALE)))
    left, right = node.this, node.expression
    if isinstance(left, exp.Interval) or isinstance(right, exp.Interval) or \
            not _exact(typer.infer(left)) or not _exact(typer.infer(right)):
        return None
    last = typer.div_precision if op == "/" else min(t.scale or 0, _MAX_SCALE)
    return _call("rm_dec", left, right, exp.Literal.string(op), exp.Literal.number(last))


_FUNCTIONS = {exp.Abs: "abs", exp.Ceil: "ceil", exp.Floor: "floor"}


def function(node: exp.Expression, typer: Typer) -> exp.Expression | None:
    """rm_dfn(name, x) for ABS / CEILING / FLOOR of a DECIMAL, or None."""
    name = _FUNCTIONS.get(type(node))
    arg = node.this
    if name is None or not isinstance(arg, exp.Expression) or \
            any(v is not None for k, v in node.args.items() if k != "this"):
        return None
    t = typer.infer(arg)
    if t is None or not t.is_decimal or _literal(arg) and not (t.width or 0) > 15:
        return None
    return _call("rm_dfn", exp.Literal.string(name), arg)


def comparison(node: exp.Expression, typer: Typer) -> exp.Expression | None:
    """`rm_dcmp(a, b) op 0` for a comparison of exact numbers SQLite would get wrong."""
    if not isinstance(node, _COMPARISONS):
        return None
    left, right = node.this, node.expression
    if left is None or right is None or _plain(left) or _plain(right):
        return None
    lt, rt = _side_type(left, typer), _side_type(right, typer)
    if not (_exact(lt) and _exact(rt)) or not (lt.is_decimal or rt.is_decimal):  # type: ignore[union-attr]
        return None
    if _literal(left) and _literal(right):
        return None
    cmp = _call("rm_dcmp", left, right)
    if isinstance(node, exp.NullSafeEQ):
        return exp.NullSafeEQ(this=cmp, expression=exp.Literal.number(0))
    return type(node)(this=cmp, expression=exp.Literal.number(0))


def extreme(node: exp.Expression, typer: Typer) -> exp.Expression | None:
    """rm_dext('max' | 'min', args...) for GREATEST / LEAST of exact numbers giving a DECIMAL
    (SQLite's MAX(a, b) would take a DECIMAL's text over any number)."""
    args = [node.this, *node.expressions]
    t = typer.infer(node)
    if t is None or not t.is_decimal or not all(_exact(_side_type(a, typer)) for a in args):
        return None
    kind = "max" if isinstance(node, exp.Greatest) else "min"
    return _call("rm_dext", exp.Literal.string(kind), *args)


def json_values(node: exp.Expression, typer: Typer) -> None:
    """A DECIMAL given to JSON_ARRAY / JSON_OBJECT is a JSON number of its digits ([1.50]):
    rm_json_arg(x), JSON to the library's JSON functions (functions_jsondoc.py), which would
    quote the text a DECIMAL column holds."""
    name = node.name.upper() if isinstance(node, exp.Anonymous) else ""
    if name not in ("JSON_ARRAY", "JSON_OBJECT"):
        return
    values = node.expressions if name == "JSON_ARRAY" else node.expressions[1::2]
    for v in values:
        if isinstance(v, exp.Expression) and not _literal(v):
            t = typer.infer(v)
            if t is not None and t.is_decimal:
                hole = exp.Null()
                v.replace(hole)
                hole.replace(_call("rm_json_arg", v))


def in_list(node: exp.In, typer: Typer) -> None:
    """`x IN (list)` of exact numbers with a DECIMAL among them, x no column: x and the items
    become their exact text (rm_dtext), x's COLLATE rm_decimal, so each item is compared with
    it as a number (SQLite would compare 0.1 with a DECIMAL column's '0.100' as text)."""
    left = node.this
    if not node.expressions or node.args.get("query") is not None or left is None or \
            _plain(left):
        return
    types = [_side_type(left, typer)] + [_side_type(i, typer) for i in node.expressions]
    if not all(_exact(t) for t in types) or not any(t.is_decimal for t in types):  # type: ignore[union-attr]
        return
    node.set("this", exp.Collate(this=_call("rm_dtext", left),
                                 expression=exp.var("rm_decimal")))
    node.set("expressions", [_call("rm_dtext", i) for i in node.expressions])


def total(node: exp.Expression, typer: Typer) -> exp.Expression | None:
    """rm_dsum(x) for SUM(x) of a DECIMAL, rm_davg<scale>(x) for its AVG (DISTINCT kept), or
    None."""
    if not isinstance(node, (exp.Sum, exp.Avg)) or isinstance(node.parent, exp.Window) or \
            node.find(exp.Window) is not None:  # SUM(SUM(i) OVER ()) is windows.py's 4074
        return None
    arg = node.this
    inner = arg.this if isinstance(arg, exp.Distinct) else arg
    if isinstance(arg, exp.Distinct) and len(arg.expressions) == 1:
        inner = arg.expressions[0]
    t = typer.infer(inner) if isinstance(inner, exp.Expression) else None
    if t is None or not t.is_decimal:
        return None
    if isinstance(node, exp.Avg):
        avg = typer.infer(node)
        if avg is None or not avg.is_decimal:
            return None
        return _call(f"rm_davg{min(avg.scale or 0, _MAX_SCALE)}", arg)  # DISTINCT: one argument
    return _call("rm_dsum", arg)


def _side_type(e: exp.Expression, typer: Typer) -> SqlType | None:
    """A comparison side's type; a select list alias's (in HAVING) is its expression's."""
    t = typer.infer(e)
    if t is None and isinstance(e, exp.Column) and not e.table:
        item = _aliased(e)
        if isinstance(item, exp.Collate):
            item = item.this
        if isinstance(item, exp.Anonymous) and item.name.lower() in _DECIMAL_CALLS:
            from rampmeter.engine.types import SqlType
            return SqlType("decimal", 65, 0)  # rewritten already (the walk is top-down)
        if item is not None:
            t = typer.infer(item)
    return t


def _aliased(e: exp.Column) -> exp.Expression | None:
    select = e.find_ancestor(exp.Select)
    name = e.name.lower()
    for item in select.expressions if select is not None else ():
        if isinstance(item, exp.Alias) and item.alias.lower() == name:
            return item.this
    return None


def _plain(e: exp.Expression) -> bool:
    """A table's column (its values are the column's stored form), not a select list's alias
    (HAVING total > 1 with `SUM(a) + 0 AS total`)."""
    while isinstance(e, exp.Paren):
        e = e.this
    if not isinstance(e, exp.Column):
        return False
    if e.table:
        return True
    item = _aliased(e)
    return item is None or isinstance(item, exp.Column)


def _literal(e: exp.Expression) -> bool:
    while isinstance(e, (exp.Paren, exp.Neg)):
        e = e.this
    return isinstance(e, (exp.Literal, exp.Placeholder, exp.Null))


def _call(name: str, *args: exp.Expression) -> exp.Anonymous:
    return exp.Anonymous(this=name, expressions=list(args))


# --- run time --------------------------------------------------------------------------------
def number(v: Any) -> Decimal | None:
    """A value as an exact number (module rules), None for NULL."""
    if v is None:
        return None
    t = type(v)
    if t is int:
        return Decimal(v)
    if t is float:
        return Decimal(repr(v)) if v == v and v not in (float("inf"), float("-inf")) \
            else Decimal(0)
    if t is str:
        text = v[1:] if v[:1] == "~" else v
        try:
            return Decimal(text)
        except InvalidOperation:
            pass
    from rampmeter.engine import values
    d, _problem = values._to_decimal(v)
    return d if d is not None else Decimal(0)


def text(d: Decimal) -> str:
    """A DECIMAL's digits as MariaDB prints them: no exponent, no negative zero."""
    out = format(d, "f")
    return out[1:] if out[:1] == "-" and not d else out


def dec(a: Any, b: Any, op: str, scale: int) -> str | None:
    x, y = number(a), number(b)
    if x is None or y is None:
        return None
    quantum = Decimal(1).scaleb(-int(scale))
    with localcontext(_WIDE):
        try:
            if op == "+":
                r = x + y
            elif op == "-":
                r = x - y
            elif op == "*":
                r = x * y
            elif op == "/":  # `scale` is div_precision_increment here
                if not y:
                    return None
                digits = -x.as_tuple().exponent - y.as_tuple().exponent + int(scale)  # type: ignore[operator]
                whole = Decimal(1).scaleb(-9 * max(-(-digits // 9), 0))
                return text((x / y).quantize(whole, ROUND_DOWN))
            else:
                if not y:
                    return None
                r = x % y
            if r.as_tuple().exponent < -int(scale):  # type: ignore[operator]
                r = r.quantize(quantum, ROUND_HALF_UP)
        except (InvalidOperation, DivisionByZero):
            return None
    return text(r)


def dfn(name: str, a: Any) -> str | None:
    x = number(a)
    if x is None:
        return None
    with localcontext(_WIDE):
        if name == "abs":
            return text(abs(x))
        n = int(x.to_integral_value(ROUND_CEILING if name == "ceil" else ROUND_FLOOR))
    return n if -_INT_LIMIT <= n < _INT_LIMIT else str(n)  # SQLite's integer when it is one


def dtext(a: Any) -> str | None:
    x = number(a)
    return None if x is None else text(x)


def dext(kind: str, *args: Any) -> str | None:
    xs = [number(a) for a in args]
    if not xs or any(x is None for x in xs):
        return None
    return text(max(xs) if kind == "max" else min(xs))  # type: ignore[type-var]


def dcmp(a: Any, b: Any) -> int | None:
    x, y = number(a), number(b)
    if x is None or y is None:
        return None
    return (x > y) - (x < y)


class DecimalSum:
    """SUM of DECIMALs, exactly; NULL when no row had a value."""

    def __init__(self) -> None:
        self.sum: Decimal | None = None

    def step(self, v: Any) -> None:
        d = number(v)
        if d is not None:
            with localcontext(_WIDE):
                self.sum = d if self.sum is None else self.sum + d

    def finalize(self) -> str | None:
        return None if self.sum is None else text(self.sum)


class DecimalAvg(DecimalSum):
    scale = 0  # a subclass per scale: rm_davg0 .. rm_davg38

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def step(self, v: Any) -> None:
        if v is not None:
            self.count += 1
        super().step(v)

    def finalize(self) -> str | None:
        if self.sum is None or not self.count:
            return None
        with localcontext(_WIDE):
            q = (self.sum / self.count).quantize(Decimal(1).scaleb(-self.scale), ROUND_HALF_UP)
        return text(q)


_AVERAGES = [type(f"DecimalAvg{k}", (DecimalAvg,), {"scale": k}) for k in range(_MAX_SCALE + 1)]


def install(conn: Any) -> None:
    conn.create_function("rm_dec", 4, dec, deterministic=True)
    conn.create_function("rm_dcmp", 2, dcmp, deterministic=True)
    conn.create_function("rm_dfn", 2, dfn, deterministic=True)
    conn.create_function("rm_dtext", 1, dtext, deterministic=True)
    conn.create_function("rm_dext", -1, dext, deterministic=True)
    conn.create_aggregate("rm_dsum", 1, DecimalSum)
    for scale, cls in enumerate(_AVERAGES):
        conn.create_aggregate(f"rm_davg{scale}", 1, cls)
