"""sql_auto_is_null (ODBC): `SELECT ... FROM t WHERE auto_col IS NULL` finds the row the last
INSERT generated an AUTO_INCREMENT value for.

Rules (MariaDB's remove_eq_conds, sql_select.cc):
- An INSERT that generates an AUTO_INCREMENT value arms it (Stats.auto_is_null, set by
  dml.py). The next SELECT with sql_auto_is_null = 1 whose whole WHERE is `col IS NULL`, `col`
  being the AUTO_INCREMENT column of its one table (no join), runs as `col = LAST_INSERT_ID()`
  and disarms it: only once, as MariaDB's substitute_null_with_insert_id. A condition ANDed
  with others is not rewritten (MariaDB looks at the top-level condition only).
- Nothing is looked at while the flag is down, which is every statement of a session that
  did not insert into an AUTO_INCREMENT column since the last rewrite. While it is up (an
  application that inserts, then reads), a SELECT whose text has no NULL costs one C
  regex scan: the variable is read, and the statement tokenized, only for one that has.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rampmeter.sql import lexer
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

_NULL = re.compile("NULL", re.IGNORECASE)  # `IS /* a comment */ NULL` too
_ENDS = frozenset({"GROUP", "HAVING", "ORDER", "LIMIT", "WINDOW", "FOR", "LOCK", "INTO",
                   "PROCEDURE", "UNION", "EXCEPT", "INTERSECT"})


def enabled(s: SqliteSession) -> bool:
    try:
        value = s.context.system_variable("sql_auto_is_null")
    except Exception:  # noqa: BLE001 - a context without it: off
        return False
    if isinstance(value, str):
        return value.upper() in ("1", "ON", "TRUE")
    return bool(value)


def rewrite(s: SqliteSession, stmt: Statement) -> Statement | None:
    """The statement to run instead (module rules), or None."""
    if _NULL.search(stmt.text) is None or not enabled(s):
        return None
    text = stmt.text
    toks = [t for t in lexer.tokens(text, stmt.dialect) if t.kind not in ("end", "comment")]
    depth = 0
    start = where = -1
    for k, t in enumerate(toks):
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        elif depth == 0 and t.is_word("FROM") and start < 0:
            start = k
        elif depth == 0 and t.is_word("WHERE"):
            where = k
            break
    # one table: [db.]t [[AS] alias] between FROM and WHERE, nothing else
    source = toks[start + 1:where] if 0 <= start < where else []
    if not source or any(not (t.is_name or t.text == ".") for t in source) or \
            any(t.is_word("JOIN", "STRAIGHT_JOIN", "NATURAL", "LEFT", "RIGHT", "INNER",
                          "CROSS") for t in source):
        return None
    k = where + 1
    name = [toks[k]] if k < len(toks) else []
    while k + 2 < len(toks) and toks[k + 1].text == "." and toks[k + 2].is_name:
        k += 2
        name.append(toks[k])
    if not name or not all(t.is_name for t in name) or k + 2 >= len(toks) or \
            not (toks[k + 1].is_word("IS") and toks[k + 2].is_word("NULL")):
        return None
    after = toks[k + 3] if k + 3 < len(toks) else None
    if after is not None and after.text != ";" and not (after.kind == "word" and
                                                         after.upper in _ENDS):
        return None
    table = _table(s, source)
    col = table.auto_column if table is not None else None
    if col is None or lexer.ident_value(name[-1].text).lower() != col.name.lower():
        return None
    s.stats.auto_is_null = False
    value = s.stats.last_insert_id
    new = text[:toks[k + 1].start] + f"= {int(value)}" + text[toks[k + 2].end:]
    return s.scan(new)


def _table(s: SqliteSession, source: list[lexer.Token]):  # noqa: ANN202 - TableDef | None
    """The table `source` names (`db.t` or `t`, an alias after it)."""
    db, name = None, lexer.ident_value(source[0].text)
    if len(source) > 2 and source[1].text == "." and source[2].is_name:
        db, name = name, lexer.ident_value(source[2].text)
    try:
        return s.table_def(db or s.database or "", name)
    except Exception:  # noqa: BLE001 - no such table: the statement says so itself
        return None
