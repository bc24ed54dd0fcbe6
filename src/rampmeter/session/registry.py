"""Live connections: ids, admission (max_connections), KILL routing, processlist, counters.

Rules:
- Connection ids come from one counter and equal CONNECTION_ID() and the processlist Id (users
  complained when these differed: src-d/go-mysql-server#635).
- Admission happens twice, as in MySQL: at accept, a connection beyond max_connections + 1 is
  refused with 1040 before any handshake; after login, a non-root account beyond
  max_connections gets 1040 (the one extra slot is the administrator's). extra_port
  connections are counted separately against extra_max_connections.
- Counters owned by sessions (Questions, Com_*) live in the session and are summed here on
  SHOW GLOBAL STATUS; a closing session adds its counters to the totals. The per-statement path
  therefore takes no global lock.
- KILL finds its victim here under the lock and then calls the victim's `kill` outside it.
- A connection is listed from its accept, not from its login, as in MariaDB (processlist shows
  `unauthenticated user`, Command `Connect`): the acceptor registers an `Arrival` (id, host,
  kill flag: no Session, which is built on a pool worker by the connection's first handle(),
  net/connection.py); the worker's `arrived(session)` then swaps the Session in under the same
  id. An Arrival is shown to accounts with PROCESS and killed by accounts with CONNECTION ADMIN
  (or SUPER) only: it has no user yet, and MariaDB's checks match no user against it.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.errors import ServerError
from rampmeter.session.tablestats import TableStatistics
from rampmeter.session.userstats import UserStatistics

if TYPE_CHECKING:
    from rampmeter.session.session import Session

# session.KillState's values as plain ints: at run time this module imports nothing of
# session.py (a compiled module that imports most of the server)
_KILLED_CONNECTION = 3
_KILLED_SERVER = 4


class Arrival:
    """A connection between accept and its first handle(): what processlist and KILL see of it.
    Built on the acceptor thread, so it holds no more than they read."""

    user = ""
    database: str | None = None
    command = "Connect"
    info: str | None = None
    logged_in = False

    def __init__(self, connection_id: int, host: str, extra_port: bool) -> None:
        self.connection_id = connection_id
        self.host = host
        self.extra_port = extra_port
        self.command_started = time.monotonic()
        self.state = "login"
        self.killed = 0  # a session.KillState value, copied into the session when it is built
        self.on_kill: Callable[[], None] | None = None  # net: wake the handler, close it
        self.session: Session | None = None  # built: a late KILL goes to the session

    def kill(self, *, query_only: bool) -> None:
        session = self.session
        if session is not None:
            session.kill(query_only=query_only)
            return
        if query_only:
            return  # KILL QUERY: nothing runs yet
        if self.killed < _KILLED_CONNECTION:
            self.killed = _KILLED_CONNECTION
        if self.on_kill is not None:
            self.on_kill()

    def shutdown(self) -> None:
        self.killed = _KILLED_SERVER
        if self.on_kill is not None:
            self.on_kill()


class Registry:
    def __init__(self, max_connections: Callable[[], int],
                 extra_max_connections: Callable[[], int]) -> None:
        self._lock = threading.Lock()
        self._next_id = 1
        self._sessions: dict[int, Session] = {}
        self._arrivals: dict[int, Arrival] = {}  # accepted, no Session yet
        self._max_connections = max_connections
        self._extra_max = extra_max_connections
        self.connected = 0          # sessions on the main port (incl. logging in)
        self.connected_extra = 0
        self.max_used = 0
        self.max_used_time = 0.0
        self.connections = 0        # the Connections status: attempts since start
        self.aborted_clients = 0
        self.aborted_connects = 0
        self.refused_max_connections = 0  # Connection_errors_max_connections
        self.totals: Counter[str] = Counter()
        self.user_stats = UserStatistics()  # information_schema.USER_STATISTICS
        self.table_stats = TableStatistics()  # ... TABLE_STATISTICS, INDEX_STATISTICS
        self.started = time.time()
        self.flushed = time.time()

    # --- admission -------------------------------------------------------------------------
    def arrive(self, host: str, *, extra_port: bool) -> Arrival | None:
        """Reserve a slot and an id for a just-accepted socket and list it (processlist, KILL),
        under one lock: the acceptor's whole share of the registry work. None: reply 1040."""
        with self._lock:
            self.connections += 1
            if extra_port:
                if self.connected_extra >= self._extra_max():
                    self.refused_max_connections += 1
                    return None
                self.connected_extra += 1
            else:
                if self.connected >= self._max_connections() + 1:
                    self.refused_max_connections += 1
                    return None
                self.connected += 1
                if self.connected > self.max_used:
                    self.max_used = self.connected
                    self.max_used_time = time.time()
            cid = self._next_id
            self._next_id += 1
            arrival = Arrival(cid, host, extra_port)
            self._arrivals[cid] = arrival
            return arrival

    def arrived(self, arrival: Arrival, session: Session) -> None:
        """The connection's first handle() built its session: it takes the Arrival's place."""
        arrival.session = session
        with self._lock:
            self._arrivals.pop(arrival.connection_id, None)
            self._sessions[session.connection_id] = session

    def departed(self, arrival: Arrival) -> None:
        """A connection closed before any session was built for it."""
        with self._lock:
            self._arrivals.pop(arrival.connection_id, None)

    def next_id(self) -> int:
        """An id for a server thread that is no connection (the event scheduler's sessions):
        no slot, not counted in Connections."""
        with self._lock:
            cid = self._next_id
            self._next_id += 1
            return cid

    def over_limit_after_login(self, *, extra_port: bool) -> bool:
        with self._lock:
            return not extra_port and self.connected > self._max_connections()

    def release(self, *, extra_port: bool) -> None:
        with self._lock:
            if extra_port:
                self.connected_extra -= 1
            else:
                self.connected -= 1

    def register(self, session: Session) -> None:
        with self._lock:
            self._sessions[session.connection_id] = session

    def unregister(self, session: Session) -> None:
        with self._lock:
            if self._sessions.pop(session.connection_id, None) is not None:
                self.totals.update(session.counters)

    def aborted(self, *, connect: bool) -> None:
        with self._lock:
            if connect:
                self.aborted_connects += 1
            else:
                self.aborted_clients += 1

    # --- lookup ----------------------------------------------------------------------------
    def sessions(self) -> list[Session]:
        with self._lock:
            return list(self._sessions.values())

    def arrivals(self) -> list[Arrival]:
        """Connections accepted and not yet taken up by a worker (processlist rows)."""
        with self._lock:
            return list(self._arrivals.values())

    def get(self, connection_id: int) -> Session | None:
        with self._lock:
            return self._sessions.get(connection_id)

    def kill(self, target: int, *, query_only: bool, killer: Session | None) -> None:
        victim = self.get(target)
        if victim is None:
            with self._lock:
                arrival = self._arrivals.get(target)
            if arrival is None:
                raise ServerError(errors.ER_NO_SUCH_THREAD, target)
            if killer is not None and not killer.may_kill_unauthenticated():
                raise ServerError(errors.ER_KILL_DENIED_ERROR, target)
            arrival.kill(query_only=query_only)
            return
        if killer is not None and not killer.may_kill(victim):
            raise ServerError(errors.ER_KILL_DENIED_ERROR, target)
        victim.kill(query_only=query_only)

    # --- SHOW STATUS -----------------------------------------------------------------------
    def summed_counters(self) -> Counter[str]:
        with self._lock:
            total = Counter(self.totals)
            live = list(self._sessions.values())
        for s in live:
            total.update(s.counters)
        return total

    def fold_counters(self, session: Session) -> None:
        """The session's status counters start again from zero, their counts kept in the
        global totals (MariaDB's add_to_status + bzero of thd->status_var): FLUSH STATUS and
        COM_RESET_CONNECTION."""
        with self._lock:
            self.totals.update(session.counters)
            session.counters.clear()

    def flush_status(self) -> None:
        """FLUSH STATUS: MariaDB resets global counters such as Max_used_connections."""
        with self._lock:
            self.max_used = self.connected
            self.flushed = time.time()
