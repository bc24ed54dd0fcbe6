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
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.errors import ServerError
from rampmeter.session.userstats import UserStatistics

if TYPE_CHECKING:
    from rampmeter.session.session import Session


class Registry:
    def __init__(self, max_connections: Callable[[], int],
                 extra_max_connections: Callable[[], int]) -> None:
        self._lock = threading.Lock()
        self._next_id = 1
        self._sessions: dict[int, Session] = {}
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
        self.started = time.time()
        self.flushed = time.time()

    # --- admission -------------------------------------------------------------------------
    def admit(self, *, extra_port: bool) -> int | None:
        """Reserve a slot and an id for a just-accepted socket, or None (reply 1040)."""
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
            return cid

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

    def get(self, connection_id: int) -> Session | None:
        with self._lock:
            return self._sessions.get(connection_id)

    def kill(self, target: int, *, query_only: bool, killer: Session | None) -> None:
        victim = self.get(target)
        if victim is None:
            raise ServerError(errors.ER_NO_SUCH_THREAD, target)
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
