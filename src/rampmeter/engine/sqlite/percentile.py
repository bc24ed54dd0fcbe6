"""PERCENTILE_CONT / PERCENTILE_DISC (p) WITHIN GROUP (ORDER BY x) OVER (...) and MEDIAN(x)
OVER (...), MariaDB's percentile window functions (SQLite has none).

Rules (MariaDB 10.11, mtr win_percentile):
- Written as rm_percentile(p, x, descending, 'cont' | 'disc') OVER the window's partition with
  a frame of the whole partition (the WITHIN GROUP order is the function's own, not the
  window's); MEDIAN(x) is PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY x).
- PERCENTILE_DISC is the first value, in that order, whose cumulative distribution (the share
  of rows ordered up to and with its peers) reaches p; PERCENTILE_CONT interpolates linearly
  at row 1 + p * (n - 1). NULLs are left out.
- The grammar takes exactly one ORDER BY item and an argument: otherwise 1064 where
  MariaDB's parser stops. An argument that is NULL or a string is 4104; PERCENTILE_CONT
  ordered by what is not a number is 4101; an argument out of [0, 1] is 4103 and one that
  changes within a partition 4102 (found while the rows are read).
- PERCENTILE_CONT is a DOUBLE shown with 10 decimals, PERCENTILE_DISC has the type of its
  ORDER BY item (infer.py).
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.infer import Typer
    from rampmeter.sql.statement import Statement

_FUNCTIONS = (exp.PercentileCont, exp.PercentileDisc)


def _name(call: exp.Expression) -> str:
    return "percentile_cont" if isinstance(call, exp.PercentileCont) else "percentile_disc"


def check_syntax(tree: exp.Expression, stmt: Statement) -> None:
    """1064 where MariaDB's grammar stops: no argument, an empty or longer ORDER BY."""
    for node in tree.find_all(exp.WithinGroup):
        call, order = node.this, node.expression
        if not isinstance(call, _FUNCTIONS):
            continue
        shape = stmt.shape
        if call.this is None:
            m = re.search(r"percentile_(?:cont|disc)\s*\(\s*(\))", shape, re.IGNORECASE)
            raise stmt.syntax_error(m.start(1) if m else None)
        items = order.expressions if isinstance(order, exp.Order) else []
        if not items:
            m = re.search(r"within\s+group\s*\(\s*(\))", shape, re.IGNORECASE)
            raise stmt.syntax_error(m.start(1) if m else None)
        if len(items) > 1:
            raise stmt.syntax_error(_second_item(shape))


def _second_item(shape: str) -> int | None:
    m = re.search(r"within\s+group\s*\(\s*order\s+by\s+", shape, re.IGNORECASE)
    if m is None:
        return None
    depth = 0
    for k in range(m.end(), len(shape)):
        ch = shape[k]
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return None
            depth -= 1
        elif ch == "," and depth == 0:
            k += 1
            while k < len(shape) and shape[k].isspace():
                k += 1
            return k
    return None


def rewrite(tree: exp.Expression, typer: Typer) -> None:
    for window in list(tree.find_all(exp.Window)):
        inner = window.this
        if isinstance(inner, exp.WithinGroup) and isinstance(inner.this, _FUNCTIONS):
            call = inner.this
            ordered = inner.expression.expressions[0]
            arg = call.this
            desc = bool(ordered.args.get("desc"))
            by = ordered.this
            kind = "cont" if isinstance(call, exp.PercentileCont) else "disc"
        elif isinstance(inner, exp.Median):
            call, arg, by, desc, kind = inner, exp.Literal.number("0.5"), inner.this, False, \
                "cont"
        else:
            continue
        if isinstance(by, exp.Anonymous) and by.name.lower() == "rm_u64s":
            by = by.expressions[0]  # the '~' form of a big unsigned value is read here
        name = _name(call) if not isinstance(call, exp.Median) else "median"
        _check_types(typer, name, arg, by, kind)
        window.set("this", exp.Anonymous(this="rm_percentile", expressions=[
            arg.copy(), by.copy(), exp.Literal.number(int(desc)), exp.Literal.string(kind)]))
        window.set("order", None)
        window.set("spec", exp.WindowSpec(kind="ROWS", start="UNBOUNDED",
                                          start_side="PRECEDING", end="UNBOUNDED",
                                          end_side="FOLLOWING"))


def _check_types(typer: Typer, name: str, arg: exp.Expression, by: exp.Expression,
                 kind: str) -> None:
    t = typer.infer(arg)
    if isinstance(arg, exp.Null) or t is not None and not t.is_numeric:
        raise ServerError(4104, message=f"{name} function only accepts arguments that can be "
                          "converted to numerical types", sqlstate="HY000")
    if kind == "cont":
        bt = typer.infer(by)
        if bt is not None and not bt.is_numeric:
            raise ServerError(4101, message=f"Numeric datatype is required for {name} "
                              "function", sqlstate="HY000")


def _key(v: Any) -> Any:
    if isinstance(v, (int, float)):
        return (0, v)
    if isinstance(v, str):
        text = v[1:] if v.startswith("~") else v  # a big unsigned integer as SQLite holds it
        try:
            return (0, Decimal(text))
        except InvalidOperation:
            return (1, v.casefold())
    return (2, v)


def _number(v: Any) -> float:
    if isinstance(v, str) and v.startswith("~"):
        v = v[1:]
    try:
        return float(v)
    except (TypeError, ValueError):
        return 0.0


def install(conn: Any, host: Any) -> None:
    if not hasattr(conn, "create_window_function"):  # Python < 3.11
        return

    def failed(code: int, kind: str, what: str) -> ServerError:
        err = ServerError(code, message=f"Argument to the percentile_{kind} function {what}",
                          sqlstate="HY000")
        host.function_failed(err)
        return err

    class Percentile:
        def __init__(self) -> None:
            self.values: list[Any] = []
            self.p: Any = None
            self.seen = False
            self.desc = False
            self.kind = "disc"

        def step(self, p: Any, x: Any, desc: Any, kind: Any) -> None:
            self.kind, self.desc = str(kind), bool(desc)
            q = _number(p)
            if not 0 <= q <= 1:
                raise failed(4103, self.kind, "does not belong to the range [0,1]")
            if self.seen and q != self.p:
                raise failed(4102, self.kind, "is not a constant for a partition")
            self.p, self.seen = q, True
            if x is not None:
                self.values.append(x)

        def inverse(self, p: Any, x: Any, desc: Any, kind: Any) -> None:
            if x is not None and x in self.values:
                self.values.remove(x)

        def value(self) -> Any:
            vals = sorted(self.values, key=_key, reverse=self.desc)
            n = len(vals)
            if not n or self.p is None:
                return None
            p = float(self.p)
            if self.kind == "cont":
                rn = p * (n - 1)
                lo, hi = math.floor(rn), math.ceil(rn)
                a, b = _number(vals[lo]), _number(vals[hi])
                return a if lo == hi else a + (b - a) * (rn - lo)
            keys = [_key(v) for v in vals]
            for i, v in enumerate(vals):
                upto = i + 1
                while upto < n and keys[upto] == keys[i]:
                    upto += 1  # its peers count in its cumulative distribution
                if upto / n >= p:
                    return v
            return vals[-1]

        def finalize(self) -> Any:
            return self.value()

    conn.create_window_function("rm_percentile", 4, Percentile)
