"""max_statement_time: a statement that runs longer than the session's limit is interrupted.

Rules (MariaDB 10.1+):
- Armed only while a statement runs and only when max_statement_time > 0 (the default 0 costs
  nothing): one timer per such statement, cancelled when the statement ends.
- When it fires it interrupts the statement the way KILL QUERY does (the engine's cancel());
  the statement then fails with 1969 ER_STATEMENT_TIMEOUT instead of 1317, and the status
  counter Max_statement_time_exceeded counts it.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.errors import ServerError

if TYPE_CHECKING:
    from rampmeter.session.session import Session


class StatementTimer:
    def __init__(self, s: Session, seconds: float) -> None:
        self.fired = False
        self._s = s
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True
        self._timer.start()

    def _fire(self) -> None:
        s = self._s
        if s.executing and s.engine is not None:
            self.fired = True
            s.engine.cancel()

    def cancel(self) -> None:
        self._timer.cancel()

    def error(self, exc: ServerError) -> ServerError:
        """The statement's error as the client hears it."""
        if self.fired and exc.code == errors.ER_QUERY_INTERRUPTED:
            self._s.counters["Max_statement_time_exceeded"] += 1
            return ServerError(errors.ER_STATEMENT_TIMEOUT)
        return exc


def start(s: Session) -> StatementTimer | None:
    limit = s.vars["max_statement_time"]
    return StatementTimer(s, float(limit)) if limit else None
