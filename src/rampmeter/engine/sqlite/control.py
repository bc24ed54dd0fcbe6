"""Statements about transactions and locks: BEGIN / START TRANSACTION, COMMIT, ROLLBACK [TO
SAVEPOINT], SAVEPOINT, RELEASE SAVEPOINT, LOCK / UNLOCK TABLES, FLUSH TABLES [WITH READ LOCK].

Each reads its statement word by word (sql/reader.py) and asks the session's Transactions
object (txn.py) to act; grammar is MariaDB 10.11's, anything else is 1064.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.engine.base import Result, UpdateCount, WaitReason
from rampmeter.engine.sqlite import locktables
from rampmeter.engine.sqlite.storage import INFORMATION_SCHEMA
from rampmeter.errors import ServerError, Warning_
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

def begin(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt)
    read_only = snapshot = False
    if r.accept("BEGIN"):
        r.accept("WORK")
    else:
        r.expect("START", "TRANSACTION")
        while not r.done:
            if r.accept("READ", "ONLY"):
                read_only = True
            elif r.accept("READ", "WRITE"):
                read_only = False
            elif r.accept("WITH", "CONSISTENT", "SNAPSHOT"):
                snapshot = True  # every transaction reads one; this one of all databases
            else:
                raise r.error()
            if not r.done:
                r.expect(",")
    r.end()
    if s.txn.locked is not None:  # a transaction ends LOCK TABLES (an implicit UNLOCK TABLES)
        s.txn.unlock_tables()
    if snapshot:
        s.txn.begin_snapshot([db for db in s.engine.databases()
                              if db.lower() != INFORMATION_SCHEMA], read_only=read_only)
    else:
        s.txn.begin(read_only=read_only)
    return UpdateCount()


def _chain_release(r: Reader) -> None:
    """[AND [NO] CHAIN] [[NO] RELEASE]: accepted; chaining and release are not offered."""
    if r.accept("AND"):
        r.accept("NO")
        r.expect("CHAIN")
    if r.accept("NO"):
        r.expect("RELEASE")
    else:
        r.accept("RELEASE")


def commit(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt)
    verb = r.next().text.upper()
    r.accept("WORK")
    if verb == "ROLLBACK" and r.accept("TO"):
        r.accept("SAVEPOINT")
        name = r.name()
        r.end()
        kept = s.txn.to_savepoint("ROLLBACK TO", name)
        return UpdateCount(warnings=[_NOT_ROLLED_BACK] if kept else [])
    _chain_release(r)
    r.end()
    if verb == "COMMIT":
        s.txn.commit()
        return UpdateCount()
    kept = s.txn.rollback_statement()
    return UpdateCount(warnings=[_NOT_ROLLED_BACK] if kept else [])


# MariaDB's warning when a ROLLBACK met changes of a table it cannot roll back (MyISAM...)
_NOT_ROLLED_BACK = Warning_("Warning", 1196, "Some non-transactional changed tables couldn't "
                            "be rolled back")


def savepoint(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt)
    if r.accept("RELEASE"):
        r.expect("SAVEPOINT")
        name = r.name()
        r.end()
        s.txn.to_savepoint("RELEASE", name)
        return UpdateCount()
    r.expect("SAVEPOINT")
    name = r.name()
    r.end()
    s.txn.savepoint(name)
    return UpdateCount()


def lock(s: SqliteSession, stmt: Statement) -> Result:
    r = Reader(stmt)
    if r.accept("UNLOCK"):
        if not r.accept_any("TABLES", "TABLE"):
            raise r.error()
        r.end()
        s.txn.unlock_tables()
        return UpdateCount()
    r.expect("LOCK")
    if not r.accept_any("TABLES", "TABLE"):
        raise r.error()
    named = locktables.parse(r)
    wait = locktables.wait(r)
    warnings = []
    if wait is not None and wait > locktables.LOCK_WAIT_MAX:
        warnings.append(Warning_("Warning", 1292, "Truncated incorrect lock_wait_timeout "
                                 f"value: '{int(wait)}'"))
        wait = float(locktables.LOCK_WAIT_MAX)
    if s.txn.lock_mode == "global":
        # under the session's own FLUSH TABLES WITH READ LOCK: a WRITE lock is 1223, READ
        # locks are taken beside the global one, which only UNLOCK TABLES gives back
        if any(write for _db, _name, _alias, write in named):
            raise ServerError(errors.ER_CANT_UPDATE_WITH_READLOCK)
        s.txn.locked = locktables.entries(s, named)
        return UpdateCount(warnings=warnings)
    s.txn.unlock_tables()  # the locks held go first, as in MariaDB, even when this one fails
    locked = locktables.entries(s, named)
    s.txn.lock_tables(None, locked, timeout=wait)  # an MDL wait (txn._wait_kind)
    return UpdateCount(warnings=warnings)


def flush(s: SqliteSession, stmt: Statement) -> Result:
    """FLUSH TABLES [...] (nothing to flush: SQLite keeps no table cache to empty) and FLUSH
    TABLES ... WITH READ LOCK / FOR EXPORT: the session holds the write lock until UNLOCK
    TABLES, so nobody writes meanwhile (a global read lock), reported as a GLOBAL_LOCK wait."""
    toks = [t.text.upper() for t in stmt.tokens or ()]
    if "LOCK" in toks or "EXPORT" in toks:
        if s.txn.lock_mode == "tables" and "LOCK" in toks:
            # the global read lock with tables locked: MariaDB refuses it (Bug#9459)
            raise ServerError(errors.ER_LOCK_OR_ACTIVE_TRANSACTION)
        s.txn.lock_tables(WaitReason.GLOBAL_LOCK)
    return UpdateCount()
