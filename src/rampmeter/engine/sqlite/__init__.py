"""The default engine: MySQL statements on embedded SQLite, one file per database.

A house with rooms, each a module with one door (see each module's opening comment):

    storage.py     SqliteEngine: database files, schema version, plan and table caches, locks
    handle.py      an engine handle: one sqlite3 connection with databases ATTACHed
    session.py     SqliteSession: a client's door; routes each statement to its room
    txn.py         transaction and lock state: BEGIN / COMMIT / savepoints / LOCK TABLES /
                   the write lock, and how InnoDB's behaviour maps onto SQLite
    translate.py   a scanned DML statement -> a SQLite plan (sqlglot), with infer.py for the
                   MySQL types of expressions
    dml.py         running a plan: binding, converting stored values, results, affected rows
    definitions.py reading CREATE TABLE's definitions; catalog.py keeps tables' metadata
    ddl.py         CREATE / DROP / ALTER / RENAME / TRUNCATE
    show.py        SHOW / DESCRIBE / EXPLAIN; infoschema.py the information_schema tables
    control.py     BEGIN / COMMIT / ROLLBACK / SAVEPOINT / LOCK TABLES / FLUSH TABLES
    functions.py   SQL functions registered per handle
    errmap.py      SQLite errors -> MySQL errors

Values and types (engine/types.py, engine/values.py) are engine-neutral.
"""

from rampmeter.engine.sqlite.session import SqliteSession
from rampmeter.engine.sqlite.storage import SqliteEngine

__all__ = ["SqliteEngine", "SqliteSession"]
