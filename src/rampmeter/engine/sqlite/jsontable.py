"""JSON_TABLE(doc, path COLUMNS (...)) AS alias: a table of the JSON values `path` finds.

Rules:
- MariaDB 10.6+: `JSON_TABLE(json_doc, row_path COLUMNS (column, ...)) [AS] alias` in FROM,
  a column being `name FOR ORDINALITY` (1, 2, ... in row order) or `name type PATH path`
  (the value `path` finds from the row's value, converted to `type`: no value, or more than
  one, is NULL - MariaDB's default NULL ON EMPTY / NULL ON ERROR; an object or array is its
  JSON text, compact; true / false are their words in a text column, 1 / 0 in another). NESTED PATH, EXISTS PATH
  and explicit ON EMPTY / ON ERROR clauses are not supported (1235 / 1064).
- It becomes a derived table over SQLite's json_each of the values the row path finds
  (rm_jt_rows, in Python: MariaDB's path language - `$`, `.key`, `."key"`, `[n]`, `[*]`,
  `.*`, `**`), each column rm_jt_value of its row's value; a typed column is a CAST, so it
  converts as MariaDB's CAST does. A NULL document has no rows.
- The document is evaluated in the derived table: it may be a literal, a variable or any
  expression of constants; a column of a table beside it in FROM (MariaDB's lateral use) is
  refused by name (1235): SQLite's derived tables cannot see their siblings.
"""

from __future__ import annotations

import json
import re
from typing import Any

from sqlglot import exp

from rampmeter import errors
from rampmeter.errors import ServerError

_ROW_ALIAS = "rm_jt"
_TEXT_TYPES = {exp.DataType.Type.CHAR, exp.DataType.Type.VARCHAR, exp.DataType.Type.TEXT,
               exp.DataType.Type.NCHAR, exp.DataType.Type.NVARCHAR, exp.DataType.Type.JSON,
               exp.DataType.Type.MEDIUMTEXT, exp.DataType.Type.LONGTEXT,
               exp.DataType.Type.TINYTEXT}


# --- the tree ---------------------------------------------------------------------------------
def rewrite(tree: exp.Expression) -> None:
    """Every JSON_TABLE(...) AS alias in FROM becomes its derived table (module rules)."""
    for table in list(tree.find_all(exp.Table)):
        jt = table.this
        if not isinstance(jt, exp.JSONTable):
            continue
        alias = table.args.get("alias")
        if not isinstance(alias, exp.TableAlias) or not alias.name:
            raise ServerError(4177, message="Every table function must have an alias.",
                              sqlstate="HY000")
        if any(isinstance(n, exp.Column) for n in jt.this.walk()):
            raise ServerError(errors.ER_NOT_SUPPORTED_YET,
                              "JSON_TABLE over a column of another table")
        schema = jt.args.get("schema")
        columns = schema.expressions if isinstance(schema, exp.JSONSchema) else []
        items: list[exp.Expression] = []
        row = exp.column("value", _ROW_ALIAS)
        for col in columns:
            if not isinstance(col, exp.JSONColumnDef) or col.args.get("nested_schema"):
                raise ServerError(errors.ER_NOT_SUPPORTED_YET, "NESTED PATH in JSON_TABLE")
            name = col.this.name if isinstance(col.this, exp.Identifier) else str(col.this)
            if col.args.get("ordinality"):
                value: exp.Expression = exp.Add(this=exp.column("key", _ROW_ALIAS),
                                                expression=exp.Literal.number(1))
            else:
                path = col.args.get("path")
                kind = col.args.get("kind")
                text = not isinstance(kind, exp.DataType) or kind.this in _TEXT_TYPES
                value = exp.Anonymous(this="rm_jt_value", expressions=[
                    row.copy(), exp.column("type", _ROW_ALIAS),
                    path.copy() if isinstance(path, exp.Expression) else
                    exp.Literal.string("$"), exp.Literal.number(int(text))])
                if not text:
                    value = exp.Cast(this=value, to=kind.copy())
            items.append(exp.alias_(value, name, quoted=True))
        if not items:
            raise ServerError(errors.ER_PARSE_ERROR, ")", 1)
        rows = exp.Anonymous(this="rm_jt_rows", expressions=[
            jt.this.copy(), (jt.args.get("path") or exp.Literal.string("$")).copy()])
        source = exp.Table(this=exp.Anonymous(this="json_each", expressions=[rows]),
                           alias=exp.TableAlias(this=exp.to_identifier(_ROW_ALIAS)))
        select = exp.Select(expressions=items).from_(source)
        table.replace(exp.Subquery(this=select, alias=alias.copy()))


# --- the values (SQLite functions, registered by functions.py) ----------------------------------
def rows(doc: Any, path: Any) -> str:
    """rm_jt_rows(doc, path): a JSON array of the values `path` finds in `doc`."""
    if doc is None or path is None:
        return "[]"
    text = doc.decode("utf-8", "surrogateescape") if isinstance(doc, bytes) else str(doc)
    try:
        value = json.loads(text)
    except ValueError:
        raise ServerError(4038, message="Syntax error in JSON text in argument 1 to function "
                          "'JSON_TABLE' at position 1", sqlstate="HY000") from None
    return json.dumps(_find(value, _steps(str(path))))


def value(item: Any, kind: Any, path: Any, text: Any) -> Any:
    """rm_jt_value(json_each.value, json_each.type, path, text): the column's value in one row
    (`text`: a text column, which takes true / false / JSON as their JSON text)."""
    if kind in ("object", "array"):
        root: Any = json.loads(item)
    elif kind == "true":
        root = True
    elif kind == "false":
        root = False
    else:
        root = item
    found = _find(root, _steps(str(path if path is not None else "$")))
    if len(found) != 1:
        return None  # NULL ON EMPTY / NULL ON ERROR, MariaDB's defaults
    v = found[0]
    if isinstance(v, bool):
        return ("true" if v else "false") if text else int(v)
    if isinstance(v, (dict, list)):
        return json.dumps(v, separators=(",", ":"), ensure_ascii=False)
    if text and isinstance(v, (int, float)):
        return json.dumps(v)  # a number in a text column: its JSON text
    return v


_STEP = re.compile(r"""\s*(?:\.\s*\*|\*\*|\.\s*"((?:[^"\\]|\\.)*)"|\.\s*([^.\[\s"*]+)|\[\s*(\*|\d+)\s*\])""")


def _steps(path: str) -> list[tuple[str, Any]]:
    text = path.strip()
    if text.lower().startswith(("lax ", "strict ")):
        text = text.split(None, 1)[1]
    if not text.startswith("$"):
        raise ServerError(4042, message="Syntax error in JSON path in argument 2 to function "
                          "'JSON_TABLE' at position 1", sqlstate="HY000")
    out: list[tuple[str, Any]] = []
    pos = 1
    while pos < len(text):
        m = _STEP.match(text, pos)
        if m is None:
            raise ServerError(4042, message="Syntax error in JSON path in argument 2 to "
                              f"function 'JSON_TABLE' at position {pos + 1}", sqlstate="HY000")
        token = m.group(0).strip()
        if token.startswith(".") and token[1:].strip() == "*":
            out.append(("members", None))
        elif token == "**":
            out.append(("any", None))
        elif m.group(1) is not None:
            out.append(("key", json.loads('"' + m.group(1) + '"')))
        elif m.group(2) is not None:
            out.append(("key", m.group(2)))
        elif m.group(3) == "*":
            out.append(("elements", None))
        else:
            out.append(("index", int(m.group(3))))
        pos = m.end()
    return out


def _find(value: Any, steps: list[tuple[str, Any]]) -> list[Any]:
    found = [value]
    for kind, arg in steps:
        nxt: list[Any] = []
        for v in found:
            if kind == "key":
                if isinstance(v, dict) and arg in v:
                    nxt.append(v[arg])
            elif kind == "index":
                if isinstance(v, list) and arg < len(v):
                    nxt.append(v[arg])
                elif not isinstance(v, list) and arg == 0:
                    nxt.append(v)  # MariaDB: a scalar is an array of one
            elif kind == "elements":
                if isinstance(v, list):
                    nxt.extend(v)
            elif kind == "members":
                if isinstance(v, dict):
                    nxt.extend(v.values())
            else:  # ** : every value below, at any depth
                nxt.extend(_descendants(v))
        found = nxt
    return found


def _descendants(v: Any) -> list[Any]:
    out: list[Any] = []
    children = v.values() if isinstance(v, dict) else v if isinstance(v, list) else ()
    for c in children:
        out.append(c)
        out.extend(_descendants(c))
    return out
