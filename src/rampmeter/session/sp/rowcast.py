"""A row assigned to a scalar target inside a stored program: MariaDB's 4078.

Rules (MariaDB 10.11's, each checked against it):
- Assigning a row - `ROW(a, b)`, `(a, b)` or a subquery of more than one column - to a local
  variable (SET, DECLARE ... DEFAULT), to a trigger's NEW.col or as a stored function's RETURN
  value is ER_ILLEGAL_PARAMETER_DATA_TYPES2_FOR_OPERATION: "Cannot cast 'row' as '<type>' in
  assignment of <target>", the target `a`, `db`.`table`.`col` or `f()`. The same row in any
  other place (SET @a = ROW(1, 2), INSERT ... VALUES (ROW(1, 2))) stays 1241.
- <type> is the name of MariaDB's type handler: the data type's base name in lower case with
  ` unsigned` for unsigned integers; BINARY is 'char', VARBINARY 'varchar'; the TEXT types are
  their BLOB's names and JSON is 'longblob'.
- The engine reports the row as its 1241; `convert` turns that into 4078 when the assigned
  expression, as written, is a row (the 1241 of a row nested inside a scalar expression stays).
"""

from __future__ import annotations

import re

from rampmeter.errors import ServerError
from rampmeter.sql.lexer import DEFAULT, Dialect, tokens

ER_ILLEGAL_PARAMETER_DATA_TYPES2_FOR_OPERATION = 4078

_HANDLER = {"binary": "char", "varbinary": "varchar", "text": "blob", "tinytext": "tinyblob",
            "mediumtext": "mediumblob", "longtext": "longblob", "json": "longblob",
            "integer": "int", "dec": "decimal", "numeric": "decimal", "fixed": "decimal",
            "real": "double", "bool": "tinyint", "boolean": "tinyint", "int1": "tinyint",
            "int2": "smallint", "int3": "mediumint", "int4": "int", "int8": "bigint",
            "middleint": "mediumint", "character": "char", "long": "mediumblob"}
_INTEGERS = ("tinyint", "smallint", "mediumint", "int", "bigint")


def type_name(declared: str) -> str:
    """The type handler's name MariaDB's 4078 shows for a declared type ('INT(11) UNSIGNED'
    -> 'int unsigned', 'TEXT' -> 'blob')."""
    words = re.findall(r"[A-Za-z_0-9]+", declared.lower().split("(", 1)[0])
    if not words:
        return ""
    base = words[0]
    if base == "double" and len(words) > 1 and words[1] == "precision":
        base = "double"
    elif base in ("national", "nchar", "nvarchar"):
        base = "varchar" if "varchar" in words or base == "nvarchar" or "varying" in words \
            else "char"
    elif base in ("character", "char") and "varying" in words:
        base = "varchar"
    base = _HANDLER.get(base, base)
    if base in _INTEGERS and "unsigned" in declared.lower():
        base += " unsigned"
    return base


def is_row(text: str, dialect: Dialect = DEFAULT) -> bool:
    """Is the expression `text`, as a whole, a row: ROW(...), a parenthesised list of more than
    one value, or a parenthesised subquery (the engine's 1241 says it has more than one
    column)."""
    try:
        toks = tokens(text, dialect)
    except ServerError:
        return False
    start = 1 if len(toks) > 1 and toks[0].is_word("ROW") and toks[1].text == "(" else 0
    if len(toks) <= start + 1 or toks[start].text != "(":
        return False
    depth, comma = 0, False
    for i in range(start, len(toks)):
        t = toks[i].text
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
            if depth == 0 and i != len(toks) - 1:
                return False  # `(a, b) + 1`: the row is inside the expression
        elif t == "," and depth == 1:
            comma = True
    if start == 1 or comma:
        return True
    return toks[start + 1].is_word("SELECT", "WITH", "VALUES", "TABLE")


def convert(e: ServerError, text: str, declared: str, target: str,
            dialect: Dialect = DEFAULT) -> ServerError:
    """`e` as MariaDB reports it when `text` is assigned to `target` (of type `declared`):
    4078 for a 1241 of a whole row, else `e` itself."""
    if e.code != 1241 or not is_row(text, dialect):
        return e
    return ServerError(ER_ILLEGAL_PARAMETER_DATA_TYPES2_FOR_OPERATION,
                       message=f"Cannot cast 'row' as '{type_name(declared)}' in assignment "
                               f"of {target}", sqlstate="HY000")
