"""The default engine: MySQL statements on embedded SQLite, one file per database.

A house with rooms, each a module with one door (see each module's opening comment):

    storage.py     SqliteEngine: database files, schema version, plan and table caches, locks
    handle.py      an engine handle: one sqlite3 connection with databases ATTACHed
    handles.py     the engine's pool of handles, lent to sessions for a command
    pinning.py     when a session keeps its handle between commands (the policy, as a table)
    session.py     SqliteSession: a client's door; routes each statement to its room
    txn.py         transaction and lock state: BEGIN / COMMIT / savepoints / LOCK TABLES /
                   the write lock, and how InnoDB's behaviour maps onto SQLite
    translate.py   a scanned DML statement -> a SQLite plan (sqlglot), with infer.py for the
                   MySQL types of expressions
                   (multi.py: multi-table UPDATE / DELETE; updates.py: ON UPDATE columns;
                   odbc.py, rownum.py, setops.py, syntaxpos.py, returning.py, insertrow.py:
                   grammar MariaDB has and SQLite / sqlglot do not)
    dml.py         running a plan: binding, converting stored values, results, affected rows
    definitions.py reading CREATE TABLE's definitions; keys.py assembles a table's keys;
                   catalog.py keeps tables' metadata
    ddl.py         CREATE / DROP / RENAME / TRUNCATE, with create_table.py (and
                   create_select.py), alter.py / alter_checks.py (ALTER TABLE) and rebuild.py
                   (making a table what its new definition says)
    foreign.py     foreign keys: clauses, names, checks, errors; fkcheck.py enforces them
    checks.py      CHECK constraints enforced (4025), on writes and on ALTER TABLE's copy
    views.py       views (sqltext.py prints MariaDB's canonical text of their queries)
    temporary.py   a session's temporary tables
    show.py        SHOW / DESCRIBE / EXPLAIN; infoschema.py (+ infoschema_keys.py,
                   infoschema_objects.py) the information_schema tables
    control.py     BEGIN / COMMIT / ROLLBACK / SAVEPOINT / LOCK TABLES / FLUSH TABLES
    functions.py   SQL functions registered once per handle, answering for its occupant
    errmap.py      SQLite errors -> MySQL errors

Values and types (engine/types.py, engine/values.py) are engine-neutral.
"""

from rampmeter.engine.sqlite.session import SqliteSession
from rampmeter.engine.sqlite.storage import SqliteEngine

__all__ = ["SqliteEngine", "SqliteSession"]
