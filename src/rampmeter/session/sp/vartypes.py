"""Types of stored programs' variables as MariaDB makes them (run.py uses these).

Rules (MariaDB 10.11's, each checked against it):
- A ROW TYPE OF cursor field over an expression is typed from the result column the way
  MariaDB makes a field of the item: an integer literal int(11), 'bbb' varchar(3),
  TIME'10:20:30' time; a character set other than the connection's is kept.
- A variable anchored to a table column (TYPE OF t.c, ROW TYPE OF t) declares the column's
  type, a string with its character set and collation.
- CREATE TABLE ... SELECT v makes a column of v's field: no ZEROFILL (UNSIGNED stays), an
  ENUM / SET as a VARCHAR of its longest member / all members.
- `bare_items` finds a SELECT's items that are one variable (SELECT v sends v's type).
"""

from __future__ import annotations

import re
from typing import Any

from rampmeter.errors import ServerError
from rampmeter.session.sp import parse as P

DECLARED_CHARSET = re.compile(r"\b(?:CHARACTER\s+SET|CHARSET)\s+([`'\"]?\w+)", re.I)
_INT_TYPES = {1: "tinyint(4)", 2: "smallint(6)", 9: "mediumint(9)", 3: "int(11)",
              8: "bigint(20)", 13: "year(4)"}
_TEMPORAL = {10: "date", 11: "time", 12: "datetime", 7: "timestamp"}


def children(node: Any) -> list[Any]:
    """The statements nested in a statement node (blocks, IF / CASE / loop bodies...)."""
    out: list[Any] = []

    def visit(value: Any) -> None:
        if isinstance(value, list | tuple):
            for item in value:
                visit(item)
        elif hasattr(value, "__slots__") and not isinstance(value, P.Sql | P.Var | str):
            out.append(value)

    for name in getattr(node, "__slots__", ()):
        visit(getattr(node, name, None))
    return out


_ITEM_ENDS = frozenset({"FROM", "WHERE", "UNION", "LIMIT", "ORDER", "GROUP", "HAVING", "INTO",
                        "WINDOW", "FOR", "LOCK", "EXCEPT", "INTERSECT", "PROCEDURE"})


def bare_items(text: str, dialect: Any) -> dict[int, int]:
    """SELECT's items that are one `?` (with an alias or not): item position -> marker
    index. Empty for a statement of several SELECTs (UNION...), whose types mix."""
    from rampmeter.sql.lexer import tokens
    try:
        toks = tokens(text, dialect)
    except ServerError:
        return {}
    out: dict[int, int] = {}
    item: list[Any] = []
    depth, position, marks = 0, 0, 0
    for t in toks[1:] + [None]:
        if t is not None and t.text in ("(", ")"):
            depth += 1 if t.text == "(" else -1
        end = t is None or depth == 0 and (t.text in (",", ";") or t.kind == "word" and
                                           t.text.upper() in _ITEM_ENDS)
        if not end:
            item.append(t)
            continue
        if item and item[0].kind == "param" and (
                len(item) == 1 or len(item) == 2 and item[1].kind in ("word", "qident") or
                len(item) == 3 and item[1].text.upper() == "AS"):
            out[position] = marks
        marks += sum(1 for y in item if y.kind == "param")
        position += 1
        item = []
        if t is None or t.text != ",":
            break
    rest = [t for t in toks if t.kind == "word" and t.text.upper() in
            ("UNION", "EXCEPT", "INTERSECT")]
    return {} if rest else out


def variable_column_type(vtype: str) -> str:
    """The column CREATE TABLE ... SELECT makes of a variable declared `vtype`: the
    variable's field, which keeps no ZEROFILL and holds an ENUM / SET as a VARCHAR
    (MariaDB)."""
    if not vtype or vtype == "ROW":
        return vtype
    text = vtype
    if re.search(r"(?i)\bzerofill\b", text):  # ZEROFILL implies UNSIGNED, which stays
        text = re.sub(r"(?i)\s+zerofill\b", "", text)
        if not re.search(r"(?i)\bunsigned\b", text):
            text += " unsigned"
    if re.match(r"(?i)\s*(enum|set)\s*\(", text):
        from rampmeter.engine.types import parse_type
        try:
            t = parse_type(text)
        except (ServerError, ValueError):
            return text
        if not t.members:
            return text
        width = max(len(m) for m in t.members) if t.name == "enum" else \
            sum(len(m) for m in t.members) + len(t.members) - 1
        m = DECLARED_CHARSET.search(text)
        return f"varchar({width})" + (f" CHARACTER SET {m.group(1)}" if m else "")
    return text


def anchored_type(t: Any) -> str:
    """A table column's type as a variable anchored to it (TYPE OF t.c, ROW TYPE OF t)
    declares it, as MariaDB: a string keeps its character set and collation."""
    text = t.spelling()  # an ENUM stays one (its CREATE ... SELECT column is a VARCHAR)
    if t.charset and t.charset != "binary" and (t.is_text or t.name in ("enum", "set")):
        text += f" CHARACTER SET {t.charset}"
        if t.collation:
            text += f" COLLATE {t.collation}"
    return text


def result_type(c: Any, connection_charset: str = "") -> str:
    """The declaration a ROW TYPE OF cursor field gets from a result column that is no
    table column: from its type and length, as MariaDB makes a field of the item (an integer
    literal is int(11), 'bbb' varchar(3), TIME'10:20:30' time)."""
    from rampmeter.sql import charsets
    code = int(c.type)
    if code in _INT_TYPES:
        return _INT_TYPES[code] + (" unsigned" if c.unsigned and code != 13 else "")
    if code in _TEMPORAL:
        return _TEMPORAL[code] + (f"({c.decimals})" if c.decimals and code != 10 else "")
    if code == 4:
        return "float"
    if code == 5:
        return "double"
    if code == 246:
        digits = max(c.length - (1 if c.decimals else 0) - (0 if c.unsigned else 1), 1)
        return f"decimal({digits},{c.decimals})" + (" unsigned" if c.unsigned else "")
    if code == 6:
        return ""
    coll = charsets.collation_by_id(c.charset)
    cs = charsets.charset(coll.charset) if coll is not None else None
    binary = cs is None or cs.is_binary
    chars = c.length // (1 if binary or cs is None else max(cs.maxlen, 1))
    if code in (252, 249, 250, 251):
        base = "blob" if binary else "text"
        return {255: "tiny" + base, 65535: base, 16777215: "medium" + base}.get(chars, "long" + base)
    if code in (253, 254, 15):
        # a character set other than the connection's (CONCAT of a utf8 column) is kept;
        # utf8mb4 is what the engine reports for an expression of the connection's strings
        suffix = "" if binary or cs is None or cs.name in (connection_charset, "utf8mb4") \
            else f" CHARACTER SET {cs.name}"
        if chars > 65532 // max(cs.maxlen if cs else 1, 1):
            return ("blob" if binary else "text") + suffix
        return ("varbinary" if binary else "varchar") + f"({chars})" + suffix
    return ""
