"""MariaDB's engine-independent statistics tables, mysql.table_stats / column_stats / index_stats
(session/mysqldb.py makes them, empty: rampmeter collects no such statistics).

Rules:
- MariaDB opens the three tables together to update them after an ALTER TABLE that drops a
  column, changes a column's type or renames columns; when one of them is missing it goes on
  and says so, one warning 1177 per opening, naming the first of them (`table_stats`): one
  per column dropped or with a new type (its statistics are deleted one column at a time)
  and one for all the renamed columns (sql_statistics.cc, MariaDB 10.11; checked against it).
- An engine used without the server has no `mysql` schema at all: nothing to update, no warning.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rampmeter.errors import Warning_

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.catalog import TableDef
    from rampmeter.engine.sqlite.session import SqliteSession

TABLES = ("table_stats", "column_stats", "index_stats")
_ER_GET_ERRMSG = 1177
_ER_NO_SUCH_TABLE = 1146


def _missing(s: SqliteSession) -> bool:
    if not s.engine.database_exists("mysql"):
        return False  # an engine used without the server's system schema (session/mysqldb.py)
    return any(s.table_def("mysql", name) is None for name in TABLES)


def after_alter(s: SqliteSession, old: TableDef, new: TableDef,
                dropped: list[str]) -> list[Warning_]:
    """The warnings of the statistics update after ALTER TABLE old -> new."""
    openings = sum(1 for name in dropped if old.column(name) is not None)
    renamed = False
    for col in new.columns:
        origin = new.renamed.get(col.name, col.name)
        before = old.column(origin)
        if before is None:
            continue
        if before.type != col.type:
            openings += 1
        if origin != col.name:
            renamed = True
    openings += renamed
    if not openings or not _missing(s):
        return []
    message = (f"Got error {_ER_NO_SUCH_TABLE} when trying to open statistics table "
               f"`{TABLES[0]}` for updating statistics")
    return [Warning_("Warning", _ER_GET_ERRMSG, message)] * openings
