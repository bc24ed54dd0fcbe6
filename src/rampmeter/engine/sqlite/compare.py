"""Comparisons as MariaDB makes them, where SQLite's rules differ.

Rules (MariaDB's Arg_comparator, for the cases SQLite gets wrong):
- A number compared with a string compares as numbers: the string side is read as MariaDB
  reads a number (rm_num: its leading number, 0 if none, warning 1292 "Truncated incorrect
  DOUBLE value" — DECIMAL when the other side is a DECIMAL — when more follows). SQLite
  compares an INTEGER and a TEXT as different types (1 = '1' is false there) unless a
  column's affinity converts one.
- LIKE without ESCAPE escapes with a backslash, as MariaDB's does (unless sql_mode has
  NO_BACKSLASH_ESCAPES): 'a\\%' matches 'a%' only.
- Two strings neither of which is a column (whose collation SQLite applies) compare by the
  collation MariaDB would use: `rm_ci` for the _ci collations (no case, no accents, trailing
  spaces ignored: PAD SPACE), `rm_pad` for the _bin ones (bytes, trailing spaces ignored);
  binary strings compare bytes. Collations registered by funclib.install.
- Runs on the MySQL tree with its types (infer.py), once per statement shape.
"""

from __future__ import annotations

from sqlglot import exp

from rampmeter.engine.sqlite.infer import HEX, Typer
from rampmeter.engine.types import SqlType

_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.NullSafeEQ)


def rewrite(tree: exp.Expression, typer: Typer, backslash_escapes: bool = True) -> None:
    for node in list(tree.walk()):
        if isinstance(node, _COMPARISONS):
            _numeric_sides(typer, node, "this", "expression")
        elif isinstance(node, exp.In) and node.expressions:
            left = typer.infer(node.this)
            items = list(node.expressions)
            if any(_number_vs_string(left, typer.infer(i)) == "right" for i in items):
                node.set("expressions", [
                    _num(i, _kind(left)) if _number_vs_string(left, typer.infer(i)) == "right"
                    else i for i in items])
        elif isinstance(node, exp.Between):
            for key in ("low", "high"):
                _numeric_sides(typer, node, "this", key, only_right=True)
        elif isinstance(node, (exp.Like, exp.ILike)) and backslash_escapes and \
                not isinstance(node.parent, exp.Escape):
            hole = exp.Null()  # node itself moves under the ESCAPE, not a copy of it
            node.replace(hole)
            hole.replace(exp.Escape(this=node, expression=exp.Literal.string("\\")))


def _numeric_sides(typer: Typer, node: exp.Expression, a: str, b: str,
                   only_right: bool = False) -> None:
    left, right = node.args.get(a), node.args.get(b)
    if left is None or right is None:
        return
    lt, rt = typer.infer(left), typer.infer(right)
    collation = _text_collation(left, right, lt, rt)
    if collation:
        node.set(b, exp.Collate(this=right, expression=exp.var(collation)))
        return
    which = _number_vs_string(lt, rt)
    if which == "right":
        node.set(b, _num(right, _kind(lt)))
    elif which == "left" and not only_right:
        node.set(a, _num(left, _kind(rt)))


def _text_collation(left: exp.Expression, right: exp.Expression, lt: SqlType | None,
                    rt: SqlType | None) -> str:
    """The collation two non-column strings compare by ('' to leave SQLite's)."""
    if lt is None or rt is None or not (lt.is_text and rt.is_text):
        return ""
    if any(isinstance(x, (exp.Column, exp.Collate)) for x in (left, right)):
        return ""
    colls = [(t.collation or "") for t in (lt, rt)]
    return "rm_pad" if any(c.endswith("_bin") for c in colls) else "rm_ci"


def _is_number(t: SqlType | None) -> bool:
    return t is not None and t is not HEX and (t.is_numeric or t.name in ("bit", "year"))


def _is_string(t: SqlType | None) -> bool:
    return t is not None and t is not HEX and (t.is_text or t.is_binary_string)


def _number_vs_string(a: SqlType | None, b: SqlType | None) -> str:
    """'right' when b is the string compared with the number a, 'left' the other way."""
    if _is_number(a) and _is_string(b):
        return "right"
    if _is_string(a) and _is_number(b):
        return "left"
    return ""


def _kind(t: SqlType | None) -> str:
    return "DECIMAL" if t is not None and t.is_decimal else "DOUBLE"


def _num(node: exp.Expression, kind: str) -> exp.Expression:
    return exp.Anonymous(this="rm_num", expressions=[node, exp.Literal.string(kind)])
