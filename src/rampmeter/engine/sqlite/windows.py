"""Window functions where SQLite differs from MariaDB: frames, and the statistics.

Rules:
- Frames: n FOLLOWING AND m PRECEDING is empty in MariaDB (the current row when both offsets
  are 0) and refused by SQLite ("unsupported frame specification"): it is written as a frame
  SQLite takes. FOLLOWING to CURRENT ROW and CURRENT ROW to PRECEDING are MariaDB's 4014.
- The library's aggregates (funclib.py) are Python classes; Python's sqlite3 window
  functions crash the process when SQLite asks a frame's value before any row entered it (an
  empty first frame: ROWS BETWEEN 2 FOLLOWING AND 1 FOLLOWING, UNBOUNDED PRECEDING AND 1
  PRECEDING), so they are never registered as window functions.
- Over a window, these statistics are written in SQLite's own window aggregates over the same
  window: VAR_POP = (SUM(x*x) - SUM(x)^2 / COUNT(x)) / COUNT(x), VAR_SAMP divides by
  COUNT(x) - 1, the STD forms take the square root. An empty frame, or one row for a sample,
  divides by zero, which SQLite answers NULL, as MariaDB does.
- A window function as an aggregate's argument is 4074, in WHERE / GROUP BY / HAVING 4015.
- LAST_VALUE(x) OVER (...) is SQLite's window function, not the library's LAST_VALUE(a, ...)
  (the last of its arguments).
- NTILE's argument must be the same on every row of a partition (4024), checked in SQL.
- Runs on the MySQL tree before funcmap.py, once per statement shape.
"""

from __future__ import annotations

from sqlglot import exp

from rampmeter.engine.sqlite import funclib
from rampmeter.errors import ServerError

# name -> (sample, square root)
_STATS = {"STD": (False, True), "STDDEV": (False, True), "STDDEV_POP": (False, True),
          "STDDEV_SAMP": (True, True), "VARIANCE": (False, False), "VAR_POP": (False, False),
          "VAR_SAMP": (True, False)}


def rewrite(tree: exp.Expression) -> None:
    for node in list(tree.find_all(exp.Window)):
        _placement(node)
        spec = node.args.get("spec")
        if spec is not None:
            _frame(spec)
        call = node.this
        if isinstance(call, (exp.Lag, exp.Lead, exp.NthValue, exp.Ntile)):
            _navigation(node, call)
            continue
        if not isinstance(call, exp.Anonymous) or len(call.expressions) != 1:
            continue
        if call.name.upper() == "LAST_VALUE":  # the window function, not MariaDB's
            call.replace(exp.LastValue(this=call.expressions[0]))  # LAST_VALUE(a, b, ...)
            continue
        found = _STATS.get(call.name.upper())
        if found is not None:
            node.replace(_statistic(node, call.expressions[0], *found))


def _placement(window: exp.Window) -> None:
    """A window function inside an aggregate is 4074; in WHERE, GROUP BY or HAVING 4015
    (SQLite says "misuse of window function" for both)."""
    node: exp.Expression | None = window.parent
    while node is not None and not isinstance(node, exp.Query):
        if isinstance(node, exp.AggFunc) or isinstance(node, exp.Anonymous) and \
                _is_aggregate(node.name):
            raise ServerError(4074, message="Window functions can not be used as arguments "
                              "to group functions.", sqlstate="HY000")
        if isinstance(node, (exp.Where, exp.Group, exp.Having)):
            raise ServerError(4015, message="Window function is allowed only in SELECT list "
                              "and ORDER BY clause", sqlstate="HY000")
        node = node.parent


def _is_aggregate(name: str) -> bool:
    fn = funclib.lookup(name)
    return fn is not None and fn.aggregate


_NO_ROW = exp.Literal.number(2**63 - 1)  # an offset no frame reaches: the answer is NULL


def _navigation(window: exp.Window, call: exp.Expression) -> None:
    """LAG / LEAD need an ORDER BY (4018); a negative LAG offset looks ahead, a negative LEAD
    one back; NTH_VALUE of a position below 1 is NULL (SQLite refuses those offsets)."""
    name = type(call).__name__.upper()
    if isinstance(call, (exp.Lag, exp.Lead)) and not _ordered(window):
        raise ServerError(4018, message="No order list in window specification for "
                          f"'{name.lower()}'", sqlstate="HY000")
    if isinstance(call, exp.Ntile):
        _ntile(window, call)
        return
    offset = call.args.get("offset")
    if offset is None:
        return
    n = exp.paren(offset.copy())
    if isinstance(call, exp.NthValue):
        positive = exp.GT(this=n, expression=exp.Literal.number(0))
        call.set("offset", exp.Case(ifs=[exp.If(this=positive, true=n.copy())],
                                    default=_NO_ROW.copy()))
        return
    other = (exp.Lead if isinstance(call, exp.Lag) else exp.Lag)(
        this=call.this.copy(), offset=exp.Neg(this=n.copy()))
    if call.args.get("default") is not None:
        other.set("default", call.args["default"].copy())
    back = window.copy()
    back.set("this", other)
    window.replace(exp.Case(ifs=[exp.If(this=exp.GTE(this=n.copy(),
                                                     expression=exp.Literal.number(0)),
                                        true=window.copy())], default=back))


def _ntile(window: exp.Window, call: exp.Ntile) -> None:
    """SQLite reads NTILE's argument on a partition's first row (and refuses one below 1:
    errmap.py's 4024); MariaDB also fails with 4024 when it changes within the partition. A
    non-constant argument (a column outside a subquery) is compared, MIN against MAX over the same window without its
    frame (with an ORDER BY its last row sees the whole partition), and rm_ntile_varies()
    raises 4024 when they differ."""
    arg = call.this
    if arg is None or isinstance(arg, (exp.Literal, exp.Placeholder, exp.Parameter)) or \
            not any(isinstance(n, exp.Column) for n in
                    arg.walk(prune=lambda n: isinstance(n, (exp.Query, exp.Subquery)))):
        return
    low, high = window.copy(), window.copy()
    for w, agg in ((low, exp.Min), (high, exp.Max)):
        w.set("spec", None)
        w.set("this", agg(this=arg.copy()))
    guard = exp.If(this=exp.NullSafeEQ(this=low, expression=high).not_(),
                   true=exp.Anonymous(this="rm_ntile_varies", expressions=[]))
    window.replace(exp.Case(ifs=[guard], default=window.copy()))


def _ordered(window: exp.Window) -> bool:
    """Has the window an ORDER BY, its own or that of the named window it refers to?"""
    if window.args.get("order") is not None:
        return True
    name = window.args.get("alias")
    select = window.find_ancestor(exp.Select)
    if name is None or select is None:
        return False
    for named in select.args.get("windows") or []:
        if isinstance(named.this, exp.Identifier) and named.this.name.lower() == \
                name.name.lower():
            return named.args.get("order") is not None
    return True  # not found here: SQLite answers for it


def _side(spec: exp.Expression, end: str) -> str:
    value = spec.args.get(end)
    if isinstance(value, str) and value.upper() == "CURRENT ROW":
        return "CURRENT ROW"
    return str(spec.args.get(end + "_side") or "").upper()


def _frame(spec: exp.Expression) -> None:
    """FOLLOWING to CURRENT ROW and CURRENT ROW to PRECEDING are MariaDB's 4014. n FOLLOWING
    AND m PRECEDING is the current row when both offsets are 0 and empty otherwise (SQLite
    refuses the form); the offsets may be the statement's parameters, so the choice is made
    in SQL: BETWEEN (0 or 1) FOLLOWING AND 0 FOLLOWING."""
    if spec.args.get("end") is None:
        return
    first, last = _side(spec, "start"), _side(spec, "end")
    if first == "FOLLOWING" and last == "CURRENT ROW" or \
            first == "CURRENT ROW" and last == "PRECEDING":
        raise ServerError(4014, message="Unacceptable combination of window frame bound "
                          "specifications", sqlstate="HY000")
    if not (first == "FOLLOWING" and last == "PRECEDING"):
        return
    offsets = [spec.args["start"], spec.args["end"]]
    zero: exp.Expression = exp.and_(*(exp.EQ(this=exp.paren(o.copy()),
                                             expression=exp.Literal.number(0))
                                      for o in offsets))
    spec.set("start", exp.Case(ifs=[exp.If(this=zero, true=exp.Literal.number(0))],
                               default=exp.Literal.number(1)))
    spec.set("start_side", "FOLLOWING")
    spec.set("end", exp.Literal.number(0))
    spec.set("end_side", "FOLLOWING")


def _statistic(window: exp.Window, arg: exp.Expression, sample: bool,
               root: bool) -> exp.Expression:
    x = exp.Mul(this=exp.paren(arg.copy()), expression=exp.Literal.number("1.0"))

    def over(fn: exp.Expression) -> exp.Expression:
        w = window.copy()
        w.set("this", fn)
        return w

    total = over(exp.Sum(this=x.copy()))
    squares = over(exp.Sum(this=exp.Mul(this=x.copy(), expression=x.copy())))
    count = over(exp.Count(this=arg.copy()))
    spread = exp.Sub(this=squares, expression=exp.Div(
        this=exp.Mul(this=total, expression=total.copy()), expression=count))
    divisor = exp.Sub(this=count.copy(), expression=exp.Literal.number(1)) if sample \
        else count.copy()
    variance = exp.Div(this=exp.paren(spread), expression=exp.paren(divisor))
    # rounding may leave a tiny negative where the true variance is 0
    variance = exp.Anonymous(this="MAX", expressions=[variance, exp.Literal.number("0.0")])
    value = exp.Anonymous(this="SQRT", expressions=[variance]) if root else variance
    return exp.paren(value)
