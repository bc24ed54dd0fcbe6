"""Transaction and lock state of one session: the one object that says BEGIN, COMMIT, ROLLBACK,
SAVEPOINT, takes and gives back the engine's write lock, and keeps LOCK TABLES / FLUSH TABLES
WITH READ LOCK / GET_LOCK counts.

How InnoDB's behaviour maps onto SQLite (docs/sql.md has the user's version):
- SQLite has one writer per database file and snapshot reads (WAL). Writers queue on the
  engine's write lock in Python (locks.py), so a wait is visible to the thread pool (TABLE_LOCK)
  and bounded by innodb_lock_wait_timeout (1205); KILL QUERY ends it (1317).
- Every transaction starts deferred: BEGIN, START TRANSACTION [READ ONLY | READ WRITE | WITH
  CONSISTENT SNAPSHOT] and the implicit one of autocommit=0 read a snapshot and take no lock.
  This is REPEATABLE READ for reads, as InnoDB's consistent reads are.
- At its first write (or SELECT ... FOR UPDATE / LOCK IN SHARE MODE), a transaction takes the
  write lock, and then - having written nothing yet - moves its snapshot to the latest commit
  (ROLLBACK, BEGIN IMMEDIATE, its savepoints made again). InnoDB's writes and locking reads act
  on the latest committed rows too, so the statement sees what it would see in MariaDB and a
  transaction never fails because someone else committed after its first read (SQLite's
  BUSY_SNAPSHOT, which earlier versions reported as 1213). What differs: reads after that point
  see the newer snapshot, where InnoDB would keep showing the old one for rows the transaction
  did not touch. The lock is held until COMMIT / ROLLBACK, so no later write can fail.
- An autocommit write holds the lock for its one statement. DDL commits what is open first
  (MySQL's implicit commit) and runs under the lock as one SQLite transaction.
- A database first used inside a transaction must be ATTACHed, which SQLite allows only outside
  one. A transaction that has written nothing steps out (`step_out`: COMMIT of the read-only
  SQLite transaction, ATTACH, BEGIN, its savepoints made again): the snapshots of the databases
  it read before move to the latest commit. START TRANSACTION WITH CONSISTENT SNAPSHOT
  therefore attaches every database first (as many as SQLite allows) and starts a read on each,
  so one transaction reads all of them from the same moment (mariadb-dump --single-transaction
  --all-databases). One that has written refuses with ER_NOT_SUPPORTED_YET.
- FLUSH TABLES WITH READ LOCK holds the write lock until UNLOCK TABLES (reported as a
  GLOBAL_LOCK wait). LOCK TABLES holds per-table locks instead (locks.TableLocks, MariaDB's
  metadata locks): two sessions may lock different tables, each of its writes takes the write
  lock for its statement, and other sessions' statements wait for the tables they use
  (`wait_for_tables`). Both commit first, as in MySQL.
- The fsync of a commit is reported as a DISKIO wait when sqlite_synchronous makes commits sync
  (FULL, EXTRA), so under the thread pool a group whose worker sits in fsync can run another
  statement. Autocommit writes then run as BEGIN IMMEDIATE .. COMMIT, which SQLite does
  implicitly anyway, so that the COMMIT - where the sync happens - is a call of its own.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import WaitHook, WaitReason
from rampmeter.engine.locks import WRITE_LOCK, WaitAborted
from rampmeter.engine.sqlite.catalog import q
from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.engine.locks import LockTable, TableLocks
    from rampmeter.engine.sqlite.handle import Handle


GLOBAL = WaitReason.GLOBAL_LOCK  # FLUSH TABLES WITH READ LOCK's lock_tables reason


class _Open:
    """The open transaction."""

    __slots__ = ("explicit", "read_only", "wrote", "owns_lock", "savepoints", "engines")

    def __init__(self, *, explicit: bool, read_only: bool = False) -> None:
        self.explicit = explicit
        self.read_only = read_only
        self.wrote = False               # has the write lock and a fresh snapshot
        self.owns_lock = False           # took the write lock itself (not LOCK TABLES')
        self.savepoints: list[str] = []  # in creation order
        self.engines = 0  # tables written: NON_TRANSACTIONAL | TRANSACTIONAL (note_write)


NON_TRANSACTIONAL, TRANSACTIONAL = 1, 2  # _Open.engines: what the transaction wrote


class Transactions:
    """`handle` gives the engine handle the session holds (borrowing one if it holds none):
    a transaction runs on the handle its session is pinned to while it is open (pinning.py)."""

    def __init__(self, handle: Callable[[], Handle], locks: LockTable, waiting: WaitHook, *,
                 cancelled: Callable[[], bool], lock_timeout: Callable[[], float],
                 connection_id: int = 0, held: Callable[[], Handle | None] = lambda: None,
                 table_locks: TableLocks | None = None) -> None:
        self.connection_id = connection_id  # IS_USED_LOCK() names the owner by it
        self._get_handle = handle
        self._held = held   # the handle the session holds now, without borrowing one
        self._locks = locks
        self._tables = table_locks
        self._waiting = waiting
        self._cancelled = cancelled
        self._lock_timeout = lock_timeout
        self._txn: _Open | None = None
        self.autocommit = True
        self._table_locks = 0   # holds of the write lock for LOCK TABLES / FTWRL
        self.lock_mode: str | None = None  # "tables" (LOCK TABLES), "global" (FTWRL)
        self.locked: tuple[Any, ...] | None = None  # LOCK TABLES' list (locktables.py)
        self.user_locks = 0     # GET_LOCK holds (functions.py keeps the count)

    # --- state ------------------------------------------------------------------------------
    @property
    def _handle(self) -> Handle:
        return self._get_handle()

    @property
    def table_locks(self) -> bool:
        return self._table_locks > 0

    @property
    def in_transaction(self) -> bool:
        return self._txn is not None

    @property
    def holds_locks(self) -> bool:
        """LOCK TABLES / FTWRL or GET_LOCK locks; plain counters, asked on every command."""
        return self._table_locks > 0 or self.user_locks > 0

    @property
    def read_only(self) -> bool:
        return self._txn is not None and self._txn.read_only

    def holds_write(self) -> bool:
        return self._locks.owner_of(WRITE_LOCK) is self

    # --- the write lock --------------------------------------------------------------------
    def _wait_kind(self, what: str) -> tuple[WaitReason, str | None]:
        """How a wait for the write lock shows (its processlist state, its pool wait type):
        as the lock MariaDB would wait for, by who holds ours. `what` the waiter is: 'dml' (a
        write), 'ddl' (a schema change, LOCK TABLES), 'schema' (DROP DATABASE)."""
        holder = self._locks.owner_of(WRITE_LOCK)
        if isinstance(holder, Transactions) and holder._table_locks:
            if holder.lock_mode == "global":  # FTWRL: MariaDB 10.11's backup lock (an MDL)
                return WaitReason.META_DATA_LOCK, "Waiting for backup lock"
            if what == "schema":  # LOCK TABLES holds the schema's intention lock
                return WaitReason.META_DATA_LOCK, "Waiting for schema metadata lock"
            return WaitReason.META_DATA_LOCK, "Waiting for table metadata lock"
        if what == "dml":
            # behind another transaction's writes: an InnoDB row lock in MariaDB; here the
            # whole engine's write lock, shown as the table lock it is closest to
            return WaitReason.TABLE_LOCK, None
        return WaitReason.META_DATA_LOCK, "Waiting for table metadata lock"

    def _no_write_under_read_lock(self) -> None:
        """The session that holds FLUSH TABLES WITH READ LOCK may not write itself (1223)."""
        if self.lock_mode == "global" and self._table_locks:
            raise ServerError(errors.ER_CANT_UPDATE_WITH_READLOCK)

    def _acquire(self, reason: WaitReason | None = None, what: str = "dml",
                 timeout: float | None = None) -> None:
        if self._locks.try_acquire(WRITE_LOCK, self):
            return
        kind, state = self._wait_kind(what)
        if reason is not None:  # the caller names the wait (FTWRL: GLOBAL_LOCK)
            kind, state = reason, None
        with self._waiting(kind) if state is None else self._waiting(kind, state):
            try:
                ok = self._locks.acquire(WRITE_LOCK, self, self._lock_timeout()
                                         if timeout is None else timeout, self._cancelled)
            except WaitAborted:
                raise ServerError(errors.ER_QUERY_INTERRUPTED) from None
        if not ok:
            raise ServerError(errors.ER_LOCK_WAIT_TIMEOUT)

    def _release(self) -> None:
        self._locks.release(WRITE_LOCK, self)

    def wait_out_locked_tables(self, timeout: float,
                               tables: list[tuple[tuple[str, str], bool]] | None = None, *,
                               state: str = "Waiting for table metadata lock") -> bool:
        """Wait (up to `timeout` s) while another session's LOCK TABLES holds one of `tables`
        ((database, table) lower-cased, and whether it is written), as a statement that needs
        its tables' metadata lock does (CHECK TABLE...); False at the timeout."""
        if self._tables is None or not self._tables.active or not tables or \
                not self._tables.would_wait(self, tables):
            return True
        with self._waiting(WaitReason.META_DATA_LOCK, state):
            try:
                return self._tables.wait_free(self, tables, timeout, self._cancelled)
            except WaitAborted:
                raise ServerError(errors.ER_QUERY_INTERRUPTED) from None

    def wait_for_global_read(self, timeout: float) -> None:
        """The global read lock for a moment (SET GLOBAL read_only = 1): wait for the writes
        in progress (the write lock) and for every other session's LOCK TABLES ... WRITE,
        shown as MariaDB's "Waiting for global read lock"; 1205 at the timeout."""
        state = "Waiting for global read lock"
        holder = self._locks.owner_of(WRITE_LOCK)
        if holder not in (None, self) and getattr(holder, "_txn", None) is None and \
                getattr(holder, "lock_mode", None) != "global":
            # a write statement in progress (an open transaction is not waited for: MariaDB
            # blocks its COMMIT instead, which read_only then refuses; nor is FLUSH TABLES
            # WITH READ LOCK, which is the global read lock already)
            with self._waiting(WaitReason.META_DATA_LOCK, state):
                try:
                    ok = self._locks.acquire(WRITE_LOCK, self, timeout, self._cancelled)
                except WaitAborted:
                    raise ServerError(errors.ER_QUERY_INTERRUPTED) from None
            if not ok:
                raise ServerError(errors.ER_LOCK_WAIT_TIMEOUT)
            self._release()
        tables = self._tables
        if tables is None or not tables.active or not tables.has_writer(self):
            return
        with self._waiting(WaitReason.META_DATA_LOCK, state):
            try:
                ok = tables.wait_no_writer(self, timeout, self._cancelled)
            except WaitAborted:
                raise ServerError(errors.ER_QUERY_INTERRUPTED) from None
        if not ok:
            raise ServerError(errors.ER_LOCK_WAIT_TIMEOUT)

    def wait_for_tables(self, tables: list[tuple[tuple[str, str], bool]],
                        timeout: float, *, state: str = "Waiting for table metadata lock"
                        ) -> None:
        """A statement's wait for the tables another session's LOCK TABLES holds: 1205 at
        the timeout (lock_wait_timeout, as for MariaDB's metadata locks)."""
        if not self.wait_out_locked_tables(timeout, tables, state=state):
            raise ServerError(errors.ER_LOCK_WAIT_TIMEOUT)

    # --- transactions -------------------------------------------------------------------------
    def begin(self, *, read_only: bool = False) -> None:
        """BEGIN / START TRANSACTION: commit what is open, start a deferred transaction."""
        self.implicit_commit()
        self._handle.execute("BEGIN")
        self._txn = _Open(explicit=True, read_only=read_only)

    def begin_snapshot(self, databases: list[str], *, read_only: bool = False) -> None:
        """START TRANSACTION WITH CONSISTENT SNAPSHOT: attach `databases` (those that fit),
        begin, and read each one's schema so that its snapshot starts now."""
        self.implicit_commit()
        names = []
        for db in databases:
            if not self._handle.attached(db) and self._handle.attachable() <= 0:
                continue
            names.append(self._handle.attach(db))
        self._handle.execute("BEGIN")
        self._txn = _Open(explicit=True, read_only=read_only)
        for name in names:
            self._handle.execute(f"SELECT count(*) FROM {q(name)}.sqlite_master").fetchall()

    @contextmanager
    def step_out(self, database: str) -> Iterator[None]:
        """Leave the SQLite transaction for an ATTACH and come back (module rules)."""
        txn = self._txn
        if txn is None or txn.wrote or self._table_locks:
            raise ServerError(errors.ER_NOT_SUPPORTED_YET,
                              f"a first use of database {database} inside a transaction "
                              f"that has written")
        self._handle.execute("COMMIT")
        self._handle.committed()
        try:
            yield
        finally:
            self._handle.execute("BEGIN")
            for name in txn.savepoints:
                self._handle.execute(f"SAVEPOINT {q(name)}")

    def before_statement(self) -> None:
        """autocommit=0: the first statement opens the implicit transaction."""
        if self._txn is None and not self.autocommit:
            self._handle.execute("BEGIN")
            self._txn = _Open(explicit=False)

    def end(self, how: str) -> None:
        """COMMIT or ROLLBACK the open transaction (if any) and give the write lock back."""
        txn, self._txn = self._txn, None
        if txn is None:  # nothing open; a handle held may still have temp triggers to forget
            held = self._held()
            if held is not None and how == "COMMIT":
                held.committed()
            elif held is not None:
                held.rolled_back()
            return
        try:
            if self._handle.in_transaction:
                if how == "COMMIT" and txn.wrote:
                    self._commit()
                else:
                    self._handle.execute(how)
        finally:
            if how == "COMMIT":
                self._handle.committed()
            else:
                self._handle.rolled_back()
            if txn.owns_lock:
                self._release()

    def commit(self) -> None:
        self.end("COMMIT")

    def note_write(self, engines: int) -> None:
        """The statement wrote tables of these kinds (NON_TRANSACTIONAL: MyISAM & co.)."""
        if self._txn is not None:
            self._txn.engines |= engines

    def rollback_statement(self) -> bool:
        """ROLLBACK as its statement does it; True when the transaction changed a table
        MariaDB cannot roll back (warning 1196). MariaDB keeps those changes and undoes the
        others': a transaction that wrote only such tables (MyISAM, Aria, MEMORY...) is
        committed instead; one that also wrote a transactional table is rolled back whole
        (docs/sql.md)."""
        txn = self._txn
        if txn is None or not txn.engines & NON_TRANSACTIONAL:
            self.end("ROLLBACK")
            return False
        self.end("COMMIT" if txn.engines == NON_TRANSACTIONAL else "ROLLBACK")
        return True

    def _syncs(self) -> bool:
        return self._handle.engine.synchronous in ("FULL", "EXTRA")

    def _commit(self) -> None:
        """COMMIT a transaction that wrote; its fsync is a DISKIO wait."""
        if self._syncs():
            with self._waiting(WaitReason.DISKIO):
                self._handle.execute("COMMIT")
        else:
            self._handle.execute("COMMIT")

    def rollback(self) -> None:
        self.end("ROLLBACK")

    def implicit_commit(self) -> None:
        if self._txn is not None:
            self.end("COMMIT")

    def set_autocommit(self, on: bool) -> None:
        if on and not self.autocommit:
            self.implicit_commit()
        self.autocommit = on

    def lost(self) -> None:
        """SQLite rolled the transaction back on its own (an error it cannot recover)."""
        self.end("ROLLBACK")

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Around a write, or a locking read inside a transaction: hold the write lock as the
        module rules say."""
        txn = self._txn
        if txn is not None and txn.read_only:
            raise ServerError(errors.ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION)
        self._no_write_under_read_lock()
        statement_lock = False
        if txn is not None:
            if not txn.wrote:
                if not self.holds_write():
                    self._acquire()
                    txn.owns_lock = True
                self._fresh_snapshot(txn)
        elif not self.autocommit:
            owns = not self.holds_write()
            if owns:
                self._acquire()
            try:
                self._handle.execute("BEGIN IMMEDIATE")
            except sqlite3.Error:
                if owns:
                    self._release()
                raise
            self._txn = _Open(explicit=False)
            self._txn.wrote = True
            self._txn.owns_lock = owns
        else:
            if self.holds_write() and self._handle.in_transaction:
                # a write nested in a running autocommit write (a trigger's, a stored
                # function's): the outer statement's transaction holds it
                yield
                return
            if not self.holds_write():
                self._acquire()
                statement_lock = True
            if self._syncs():
                yield from self._autocommit_write(statement_lock)
                return
        try:
            yield
        finally:
            if statement_lock:
                self._release()

    def _autocommit_write(self, statement_lock: bool) -> Iterator[None]:
        """One autocommit write as BEGIN IMMEDIATE .. COMMIT, so its fsync is reported."""
        try:
            self._handle.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._commit()
            except BaseException as exc:
                if getattr(exc, "keeps_changes", False) and self._handle.in_transaction:
                    # a write MariaDB cannot roll back (a MyISAM table's rows before the
                    # failing one, dml.py): what it did stays, the error is still reported
                    self._commit()
                    self._handle.committed()
                    raise
                if self._handle.in_transaction:
                    self._handle.execute("ROLLBACK")
                self._handle.rolled_back()
                raise
            self._handle.committed()
        finally:
            if statement_lock:
                self._release()

    def _fresh_snapshot(self, txn: _Open) -> None:
        """Holding the write lock, with nothing written: restart on the latest commit."""
        try:
            if self._handle.in_transaction:
                self._handle.execute("ROLLBACK")
                self._handle.rolled_back()
            self._handle.execute("BEGIN IMMEDIATE")
            for name in txn.savepoints:
                self._handle.execute(f"SAVEPOINT {q(name)}")
        except sqlite3.Error:
            if txn.owns_lock:
                self._release()
            self._txn = None
            raise
        txn.wrote = True

    # --- savepoints -------------------------------------------------------------------------
    def savepoint(self, name: str) -> None:
        if self._txn is None:
            if self.autocommit:
                return  # MySQL: a savepoint outside a transaction is a no-op
            self.before_statement()
        assert self._txn is not None
        self._handle.execute(f"SAVEPOINT {q(name)}")
        sps = self._txn.savepoints
        if name.lower() in (s.lower() for s in sps):  # MySQL replaces a same-named savepoint
            sps[:] = [s for s in sps if s.lower() != name.lower()]
        sps.append(name)

    def to_savepoint(self, verb: str, name: str) -> bool:
        """ROLLBACK TO / RELEASE a savepoint of the open transaction (1305 when unknown);
        True when a ROLLBACK TO met changes of tables MariaDB cannot roll back (1196)."""
        txn = self._txn
        if txn is None or name.lower() not in (s.lower() for s in txn.savepoints):
            raise ServerError(errors.ER_SP_DOES_NOT_EXIST, "SAVEPOINT", name)
        if verb == "ROLLBACK TO" and txn.engines == NON_TRANSACTIONAL:
            # only tables MariaDB cannot roll back were written: their changes stay
            idx = [s.lower() for s in txn.savepoints].index(name.lower())
            del txn.savepoints[idx + 1:]
            return True
        try:
            self._handle.execute(f"{verb} {q(name)}")
        except sqlite3.OperationalError:
            raise ServerError(errors.ER_SP_DOES_NOT_EXIST, "SAVEPOINT", name) from None
        if verb == "ROLLBACK TO":
            self._handle.rolled_back()  # may have undone temp triggers: they are made again
        idx = [s.lower() for s in txn.savepoints].index(name.lower())
        # ROLLBACK TO keeps the savepoint, RELEASE drops it; both drop the later ones.
        del txn.savepoints[idx + (1 if verb == "ROLLBACK TO" else 0):]
        return verb == "ROLLBACK TO" and bool(txn.engines & NON_TRANSACTIONAL)

    # --- DDL and table locks ---------------------------------------------------------------
    @contextmanager
    def ddl(self) -> Iterator[None]:
        """One atomic schema change under the write lock, after an implicit commit."""
        self._no_write_under_read_lock()
        self.implicit_commit()
        self._acquire(what="ddl")
        try:
            self._handle.refresh()  # no stale temp trigger may fail SQLite's ALTER checks
            self._handle.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._handle.execute("ROLLBACK")
                self._handle.rolled_back()
                raise
            self._commit()
            self._handle.committed()
        finally:
            self._release()

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """The write lock for work outside any SQLite transaction (DROP DATABASE)."""
        self._no_write_under_read_lock()
        self.implicit_commit()
        self._acquire(what="schema")
        try:
            yield
        finally:
            self._release()

    def lock_tables(self, reason: WaitReason | None = None,
                    locked: tuple[Any, ...] | None = None, *,
                    timeout: float | None = None) -> None:
        """LOCK TABLES / FLUSH TABLES WITH READ LOCK (reason GLOBAL_LOCK): commit, then hold
        the per-table locks of LOCK TABLES' list `locked` (what the session may use meanwhile,
        locktables.py), or the write lock for FTWRL. `timeout`: LOCK TABLES' WAIT n / NOWAIT,
        instead of the session's lock wait timeout."""
        self.implicit_commit()
        self.unlock_tables()
        if reason is GLOBAL or self._tables is None:
            self._acquire(reason, what="ddl", timeout=timeout)
            self.lock_mode = "global" if reason is GLOBAL else "tables"
        else:
            self._acquire_tables(locked or (), timeout)
            self.lock_mode = "tables"
        self._table_locks += 1
        self.locked = locked

    def _acquire_tables(self, locked: tuple[Any, ...], timeout: float | None) -> None:
        assert self._tables is not None
        wants = [((e.database.lower(), e.name.lower()), e.write) for e in locked]
        wait = self._lock_timeout() if timeout is None else timeout
        if self._locks.owner_of(WRITE_LOCK) is not None and any(w for _k, w in wants):
            # another session's open write transaction: MariaDB would wait for the metadata
            # locks of the tables it used; here, for its end
            self._acquire(what="ddl", timeout=wait)
            self._release()
        if not self._tables.would_wait(self, wants):
            self._tables.acquire(self, wants, wait, self._cancelled)
            return
        with self._waiting(WaitReason.META_DATA_LOCK, "Waiting for table metadata lock"):
            try:
                ok = self._tables.acquire(self, wants, wait, self._cancelled)
            except WaitAborted:
                raise ServerError(errors.ER_QUERY_INTERRUPTED) from None
        if not ok:
            raise ServerError(errors.ER_LOCK_WAIT_TIMEOUT)

    def unlock_tables(self) -> None:
        self.locked = None
        if self._table_locks:
            self.implicit_commit()
            if self.lock_mode == "tables" and self._tables is not None:
                self._tables.release(self)
                self._table_locks = 0
            while self._table_locks:
                self._release()
                self._table_locks -= 1
        self.lock_mode = None

    # --- life cycle -----------------------------------------------------------------------------
    def release_everything(self) -> None:
        """Roll back and give back every lock of the session (reset, close)."""
        try:
            self.end("ROLLBACK")
        except sqlite3.Error:
            pass
        self._locks.release_all(self, names=lambda n: True)
        if self._tables is not None:
            self._tables.release(self)
        self._table_locks = 0
        self.lock_mode = None
        self.locked = None
        self.user_locks = 0
        self.autocommit = True
