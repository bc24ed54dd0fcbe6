"""Engine-defined column attributes: `CREATE TABLE t (f INT foo=bar)`.

Rules (MariaDB 10.11's, for the engines it has without such attributes: MyISAM, Aria...):
- A column option `name = value` (value a string, a name or a number; `:=` is `=`) is an
  attribute the storage engine may declare. rampmeter's engine declares none, so every one is
  unknown: 1911 "Unknown option 'foo'" (HY000) fails the statement, unless sql_mode has
  IGNORE_BAD_TABLE_OPTIONS, where it is a warning and the attribute is kept as written.
- A kept attribute is shown by SHOW CREATE TABLE after the column's COMMENT as `` `foo`='bar' ``
  (quoted, a number too: an unknown attribute has no type); `foo=DEFAULT` removes it.
- They are kept in the column's catalog spec (catalog.py, key "attrs").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rampmeter.errors import ServerError, Warning_
from rampmeter.sql.lexer import ident_value, string_value

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.catalog import ColumnDef, TableDef
    from rampmeter.sql.reader import Reader

ER_UNKNOWN_OPTION = 1911


def at_attribute(r: Reader) -> bool:
    """Is the next column option `name = value`?"""
    t = r.peek()
    after = r.peek(1)
    return t is not None and t.kind in ("word", "qident") and after is not None \
        and after.text in ("=", ":=")


def read(r: Reader, col: ColumnDef) -> None:
    """One `name = value` into the column's attributes (the last setting of a name wins)."""
    name = r.name()
    r.next()  # = or :=
    t = r.next()
    if t.kind == "str":
        shown = "'" + string_value(t.text, r.dialect.backslash_escapes).replace("'", "''") + "'"
    elif t.kind == "num":
        shown = "'" + t.text + "'"
    elif t.kind in ("word", "qident"):
        word = t.text if t.kind == "word" else ident_value(t.text)
        shown = "" if t.kind == "word" and word.upper() == "DEFAULT" else \
            "'" + word.replace("'", "''") + "'"
    else:
        raise r.error(t)
    kept = [(n, v) for n, v in col.attributes if n.lower() != name.lower()]
    col.attributes = tuple(kept + ([(name, shown)] if shown else []))


def check(tdef: TableDef, sql_mode: str, only: set[str] | None = None) -> list[Warning_]:
    """The unknown attributes of the table's columns (of `only` those, for ALTER TABLE):
    1911, an error or (IGNORE_BAD_TABLE_OPTIONS) warnings."""
    found = [n for c in tdef.columns if only is None or c.name.lower() in only
             for n, _v in c.attributes]
    if not found:
        return []
    if "IGNORE_BAD_TABLE_OPTIONS" not in sql_mode:
        raise ServerError(ER_UNKNOWN_OPTION, message=f"Unknown option '{found[0]}'",
                          sqlstate="HY000")
    return [Warning_("Warning", ER_UNKNOWN_OPTION, f"Unknown option '{n}'") for n in found]
