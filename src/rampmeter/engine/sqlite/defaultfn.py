"""DEFAULT(col): a column's default value, as an expression of the query.

Rules:
- sqlglot cannot read DEFAULT as a function name, so before parsing the word DEFAULT directly
  followed by `(` is renamed RM_DEFAULT_OF (only in shapes that contain it); after the tables
  are known each RM_DEFAULT_OF(col) becomes the column's default: its literal, its
  CURRENT_TIMESTAMP, its expression, or NULL for a nullable column without one.
- A NOT NULL column without a default is 1364 ("Field 'c' doesn't have a default value"),
  and so is an alias of the select list named in HAVING / ORDER BY; an unknown column 1054,
  anything but a column 1064, as MariaDB answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlglot import exp

from rampmeter import errors
from rampmeter.engine.sqlite import clauses, dialect
from rampmeter.engine.sqlite.catalog import ColumnDef
from rampmeter.engine.sqlite.insertrow import _literal
from rampmeter.engine.sqlite.modifiers import shape_tokens
from rampmeter.errors import ServerError

NAME = "RM_DEFAULT_OF"


def rewrite_text(text: str) -> str:
    if "DEFAULT" not in text.upper():
        return text
    toks = shape_tokens(text)
    if toks is None:
        return text
    out, at = [], 0
    for t, nxt in zip(toks, toks[1:], strict=False):
        if t.kind == "word" and t.upper == "DEFAULT" and nxt.text == "(" and \
                nxt.start == t.end + len(text[t.end:nxt.start]) and \
                not text[t.end:nxt.start].strip():
            out.append(text[at:t.start])
            out.append(NAME)
            at = t.end
    if not out:
        return text
    out.append(text[at:])
    return "".join(out)


def resolve(tree: exp.Expression, find: Callable[[str | None, str], Any],
            now_call: Callable[[ColumnDef], exp.Expression], syntax_error: Callable[[], Any]
            ) -> None:
    """Every RM_DEFAULT_OF(col) in `tree` replaced by the column's default; `find` is
    translate's column lookup (qualifier, name) -> (alias, ColumnDef, db) or None."""
    for call in list(tree.find_all(exp.Anonymous)):
        if call.name.upper() != NAME:
            continue
        args = call.expressions
        if len(args) != 1 or not isinstance(args[0], exp.Column):
            raise syntax_error()
        col_ref = args[0]
        found = find(col_ref.table or None, col_ref.name)
        if found is None and not col_ref.table and _names_an_alias(call, col_ref.name):
            # an item of the select list, named in its HAVING / ORDER BY: no column, so no
            # default (MariaDB's 1364)
            raise ServerError(1364, message=f"Field '{col_ref.name}' doesn't have a default "
                              "value", sqlstate="HY000")
        if found is None:
            shown = f"{col_ref.table}.{col_ref.name}" if col_ref.table else col_ref.name
            raise ServerError(errors.ER_BAD_FIELD_ERROR, shown, clauses.clause_of_node(call))
        call.replace(_default_of(found[1], now_call))


def _names_an_alias(call: exp.Expression, name: str) -> bool:
    """Is `name` an alias of the select list of the query whose HAVING or ORDER BY holds
    `call`?"""
    node: Any = call
    while node is not None and not isinstance(node, (exp.Having, exp.Order)):
        if isinstance(node, exp.Select):
            return False
        node = node.parent
    select = node.parent if node is not None else None
    return isinstance(select, exp.Select) and any(
        isinstance(e, exp.Alias) and e.alias.lower() == name.lower()
        for e in select.expressions)


def _default_of(col: ColumnDef, now_call: Callable[[ColumnDef], exp.Expression]
                ) -> exp.Expression:
    d = col.default
    if d is None:
        if col.nullable or col.auto_increment:
            return exp.null()
        raise ServerError(1364, message=f"Field '{col.name}' doesn't have a default value",
                          sqlstate="HY000")
    if d.kind == "value":
        t = col.type
        raw = d.value
        if t.is_integer and isinstance(raw, str) and raw.lstrip("-").isdigit():
            raw = int(raw)  # kept as text in the catalog; compared as the number it is
        value = _literal(raw)
        if d.value is not None and (t.is_float or t.is_decimal or t.is_temporal):
            # typed as the column is (3.14 of a DOUBLE is a double, not a decimal literal)
            return exp.Cast(this=value, to=exp.DataType.build(_cast_spelling(t),
                                                               dialect="mysql"))
        return exp.Paren(this=value)  # a value, not a literal of the select list (its name)
    if d.kind == "now":
        if isinstance(d.value, int) and d.value < col.type.fsp:  # now(2) of a (6) column
            return exp.Cast(this=now_call(col), to=exp.DataType.build(
                _cast_spelling(col.type), dialect="mysql"))
        return now_call(col)
    return exp.Paren(this=dialect.parse(d.value))


def _cast_spelling(t: Any) -> str:
    if t.is_float:
        return "DOUBLE"
    if t.is_decimal:
        return f"DECIMAL({t.width},{t.scale or 0})"
    if t.name == "date":
        return "DATE"
    kind = "TIME" if t.name == "time" else "DATETIME"
    return f"{kind}({t.scale})" if t.scale else kind
