"""The event scheduler: a daemon thread that runs the events (events.py) when they are due.

Rules:
- `event_scheduler` is MariaDB's at run time: OFF (the default) or ON; anything else,
  DISABLED included (a start-up value in MariaDB, not offered here), is 1231. While ON
  the daemon is a session of its own in PROCESSLIST (user `event_scheduler`, command
  `Daemon`, as MariaDB shows it); it takes no connection slot.
- Twice a second the daemon reads every database's events through its own engine session
  (and gives the engine handle back between reads, as an idle connection does). Nothing runs
  on a client's statement path: with the scheduler OFF there is no thread and no cost.
- A due event runs in a thread of its own, as its own session: the definer's account and
  privileges (an event whose definer no longer exists is skipped and logged, as MariaDB
  does), the event's database, sql_mode and time zone, command `Connect` with the body as its
  INFO, so KILL QUERY and KILL reach it. Result sets are discarded; an error is logged.
- Times are compared as UTC instants (events.py keeps both the shown text and the instant).
  A recurring event runs at STARTS and every interval after it, at most once per tick (runs
  missed while the scheduler was off are not caught up, as MariaDB); after its last run (AT,
  or past ENDS) it is dropped, or disabled with ON COMPLETION PRESERVE.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rampmeter.session.context import ServerContext

TICK = 0.5


def _utc(epoch: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(epoch, dt.UTC).replace(tzinfo=None)


def _epoch(moment: dt.datetime) -> float:
    return moment.replace(tzinfo=dt.UTC).timestamp()


def due_at(spec: dict[str, Any], now: float) -> float | None:
    """The instant an enabled event is due at (not after `now`), or None if it is not due."""
    from rampmeter.session.sp.events import step
    if spec.get("status") != "ENABLED":
        return None
    last = spec.get("last_executed_utc")
    if spec.get("execute_at_utc") is not None:
        at = float(spec["execute_at_utc"])
        return at if at <= now and last is None else None
    starts = float(spec.get("starts_utc") or 0)
    if starts > now:
        return None
    begin = _utc(starts)
    total, unit = int(spec["interval"]), str(spec["unit"])
    period = (_epoch(step(begin, total, unit, 1)) - starts) or 1.0
    k = int((now - starts) // period)
    while k > 0 and _epoch(step(begin, total, unit, k)) > now:   # calendar months vary
        k -= 1
    moment = _epoch(step(begin, total, unit, k))
    ends = spec.get("ends_utc")
    if ends is not None and moment > float(ends):
        return None
    return moment if last is None or moment > float(last) else None


def finished(spec: dict[str, Any], ran_at: float) -> bool:
    """After a run: was it the event's last one?"""
    from rampmeter.session.sp.events import step
    if spec.get("execute_at_utc") is not None:
        return True
    ends = spec.get("ends_utc")
    if ends is None:
        return False
    nxt = _epoch(step(_utc(ran_at), int(spec["interval"]), str(spec["unit"]), 1))
    return nxt > float(ends)


class EventScheduler:
    def __init__(self, ctx: ServerContext) -> None:
        self.ctx = ctx
        gv = ctx.variables
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        gv.on_change("event_scheduler", self._changed)
        if gv["event_scheduler"] == "ON":
            self.start()

    # --- the variable ------------------------------------------------------------------------
    def _changed(self, _name: str, value: Any) -> None:
        if value == "ON":
            self.start()
        else:
            self.stop()

    # --- the daemon --------------------------------------------------------------------------
    def start(self) -> None:
        with self._lock:
            if self._thread is not None:
                return
            self._stop = threading.Event()
            self._thread = threading.Thread(target=self._loop, args=(self._stop,),
                                            name="event_scheduler", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        with self._lock:
            thread, self._thread = self._thread, None
            self._stop.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=10)

    def _loop(self, stop: threading.Event) -> None:
        from rampmeter.session.sp import eventrun
        s = eventrun.daemon_session(self.ctx)
        try:
            while not stop.wait(TICK):
                try:
                    eventrun.poll(s, time.time())
                except Exception:  # noqa: BLE001 - one bad poll must not stop the scheduler
                    self.ctx.log.exception("event scheduler")
                finally:
                    if s.engine is not None:
                        s.engine.idle()
        finally:
            eventrun.close(s)
