"""BIGINT UNSIGNED values above 2^63 - 1 inside SQLite's built-in functions.

SQLite's integers are signed 64-bit, so rampmeter holds a larger unsigned value as the text
'~' + its 20 digits (functions.py's _as_sqlite_int); the result layer, the comparisons and the
library's own functions read that form back. SQLite's built-in functions do not: CONCAT, CAST AS
CHAR, LENGTH, SQRT... would see the '~'. Rules:

- an argument of a built-in function (a sqlglot function class, or the library's functions
  called by name) whose type is BIGINT UNSIGNED, or a client's `?` (its type comes only with
  the value), is wrapped in rm_u64s, which turns the '~' form into its digits (text SQLite
  reads as a number where it wants one) and returns every other value as it is;
- control-flow functions (IF, COALESCE, CASE, GREATEST...) and aggregates pass values through
  and are left alone: what they return is read back as above;
- only translation pays for the check (one type look-up per argument of a function): a
  statement without functions, as a point select, is untouched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlglot import exp

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.infer import Typer

_PASS_THROUGH = (exp.AggFunc, exp.Anonymous, exp.Coalesce, exp.If, exp.Case, exp.Greatest,
                 exp.Least, exp.Nullif, exp.Window, exp.Cast, exp.TryCast)


def rewrite(tree: exp.Expression, typer: Typer) -> bool:
    """Wrap the BIGINT UNSIGNED arguments of built-in functions; True when any was."""
    changed = False
    for node in list(tree.find_all(exp.Func)):
        if isinstance(node, _PASS_THROUGH) and not _cast_to_text(node) and not _library(node):
            continue
        for arg in list(node.iter_expressions()):
            if _maybe_big(arg, typer):
                hole = exp.Null()
                arg.replace(hole)
                hole.replace(exp.Anonymous(this="rm_u64s", expressions=[arg]))
                changed = True
    return changed


def _maybe_big(arg: exp.Expression, typer: Typer) -> bool:
    if isinstance(arg, exp.Placeholder):
        return arg.name[:1] in ("q", "u")  # a client's `?`, a big unsigned literal
    t = typer.infer(arg)
    return t is not None and t.name == "bigint" and t.unsigned


def _library(node: exp.Expression) -> bool:
    """A call of the library's scalar functions (funclib), which read their arguments as text
    or numbers; rm_* helpers and stored functions are not."""
    if not isinstance(node, exp.Anonymous):
        return False
    from rampmeter.engine.sqlite import funclib
    fn = funclib.lookup(node.name)
    return fn is not None and not fn.aggregate


def _cast_to_text(node: exp.Expression) -> bool:
    if not isinstance(node, (exp.Cast, exp.TryCast)) or not isinstance(node.to, exp.DataType):
        return False
    return node.to.this in exp.DataType.TEXT_TYPES


def u64_text(v: Any) -> Any:
    """rm_u64s: '~18446744073709551615' -> '18446744073709551615'; anything else unchanged."""
    if isinstance(v, str) and v[:1] == "~" and v[1:].isdigit():
        return v[1:]
    return v
