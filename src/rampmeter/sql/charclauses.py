"""A run of CHARACTER SET / COLLATE clauses (of a database or a table) -> one character set
and collation, as MariaDB 10.11 combines them.

Rules (MariaDB's, MDEV-27782 / MDEV-27896 / MDEV-28117 / MDEV-27906):
- Clauses may come in any order and repeat. `CHARACTER SET DEFAULT` names the context's
  character set (the server's for a database, the database's for a table); `COLLATE DEFAULT`
  the default collation of whatever character set the clauses end up with.
- Two character sets that differ conflict (1302, "CHARACTER SET DEFAULT (x)" names a DEFAULT);
  two explicit collations that differ conflict (1302); a collation of another character set
  than the one named is 1253. The same clause twice is fine.
- A character set without an explicit collation gets its default collation, never the
  context's collation; with no clause at all the caller's context default applies unchanged.
- Unknown names are 1115 / 1273 as soon as they are read.
"""

from __future__ import annotations

from rampmeter import errors
from rampmeter.errors import ServerError
from rampmeter.sql import charsets


def combine(clauses: list[tuple[str, str]], context: tuple[str, str]
            ) -> tuple[str, str] | None:
    """`clauses`: ("CHARSET" | "COLLATE", name or "DEFAULT") in statement order; `context`:
    the (charset, collation) DEFAULT refers to. (charset, collation), or None for no clause."""
    if not clauses:
        return None
    cs: str | None = None
    cs_label = ""
    coll: charsets.Collation | None = None
    for kind, name in clauses:
        if kind == "CHARSET":
            found, label = _charset(name, context)
            if cs is not None and cs != found:
                raise ServerError(errors.ER_CONFLICTING_DECLARATIONS, "CHARACTER SET ", cs_label,
                                  "CHARACTER SET ", label)
            cs, cs_label = found, label
            if coll is not None and coll.charset != cs:
                raise ServerError(errors.ER_COLLATION_CHARSET_MISMATCH, coll.name, cs)
        elif name.upper() != "DEFAULT":
            found_coll = charsets.collation(name)
            if found_coll is None:
                raise ServerError(errors.ER_UNKNOWN_COLLATION, name)
            if coll is not None and coll.name != found_coll.name:
                raise ServerError(errors.ER_CONFLICTING_DECLARATIONS, "COLLATE ", coll.name,
                                  "COLLATE ", found_coll.name)
            if cs is not None and found_coll.charset != cs:
                raise ServerError(errors.ER_COLLATION_CHARSET_MISMATCH, found_coll.name, cs)
            coll = found_coll
    if coll is not None:
        return coll.charset, coll.name
    cs = cs or context[0]
    return cs, charsets.default_collation(cs).name


def _charset(name: str, context: tuple[str, str]) -> tuple[str, str]:
    if name.upper() == "DEFAULT":
        return context[0], f"DEFAULT ({context[0]})"
    found = charsets.charset(name)
    if found is None:
        raise ServerError(errors.ER_UNKNOWN_CHARACTER_SET, name)
    return found.name, found.name
