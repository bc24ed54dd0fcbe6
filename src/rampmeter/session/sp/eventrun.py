"""The sessions of the event scheduler (scheduler.py's module rules): the daemon's own, which
reads the events and records their runs, and one per event run, as its definer.
"""

from __future__ import annotations

import datetime as dt
import threading
from typing import TYPE_CHECKING, Any

from rampmeter.errors import ServerError
from rampmeter.session.security import SecurityContext

if TYPE_CHECKING:
    from rampmeter.session.context import ServerContext
    from rampmeter.session.session import Session


def _new_session(ctx: ServerContext, user: str, host: str) -> Session:
    from rampmeter.session.session import EngineContext, Session
    s = Session(ctx, ctx.registry.next_id(), host)
    s.user, s.account_host = user, host
    s.engine = ctx.engine.open_session(EngineContext(s), s._waiting)
    return s


def daemon_session(ctx: ServerContext) -> Session:
    s = _new_session(ctx, "event_scheduler", "localhost")
    s.security = None   # the daemon reads every database's events; it runs none of them
    s.command, s.state, s.info = "Daemon", "Waiting on empty queue", None
    ctx.registry.register(s)
    s.logged_in = True
    return s


def close(s: Session) -> None:
    s.close()


def _listing(s: Session) -> list[dict[str, Any]]:
    eng: Any = s.engine
    out = []
    for db in eng.engine.databases():
        if db.lower() in ("information_schema", "performance_schema", "mysql"):
            continue
        out += [r for r in eng.routine_list(db) if r.get("type") == "EVENT"]
    return out


def poll(s: Session, now: float) -> None:
    """Start the events due at `now`, and record that they ran."""
    from rampmeter.session.sp.scheduler import due_at, finished
    specs = _listing(s)
    s.state = "Waiting for next activation" if specs else "Waiting on empty queue"
    for spec in specs:
        moment = due_at(spec, now)
        if moment is None:
            continue
        threading.Thread(target=run_event, args=(s.ctx, dict(spec)),
                         name=f"event {spec['db']}.{spec['name']}", daemon=True).start()
        eng: Any = s.engine
        if finished(spec, moment):
            if not spec["preserve"]:
                eng.routine_drop(spec["db"], "EVENT", spec["name"])
                continue
            spec["status"] = "DISABLED"
        spec["last_executed_utc"] = moment
        spec["last_executed"] = dt.datetime.now().replace(microsecond=0).isoformat(sep=" ")
        eng.routine_store(spec["db"], "EVENT", spec["name"], spec)


def run_event(ctx: ServerContext, spec: dict[str, Any]) -> None:
    """One run of an event's body, as its definer, in its database."""
    from rampmeter.session.sp import parse as P
    from rampmeter.session.sp.run import Frame
    from rampmeter.session.sp.tokens import Tokens
    from rampmeter.sql.lexer import Dialect
    user, _, host = str(spec["definer"]).partition("@")
    store = ctx.accounts
    account = store.exact(user, host) or store.find(user, host)
    if account is None and not store.skip_grants:
        ctx.log.error("Event Scheduler: [%s][%s.%s] the definer does not exist: not run",
                      spec["definer"], spec["db"], spec["name"])
        return
    s = _new_session(ctx, user, host or "localhost")
    try:
        s.security = SecurityContext(store, user=user, host=host, account=account)
        s.vars["sql_mode"] = spec["sql_mode"]
        s.vars["time_zone"] = spec["time_zone"]
        assert s.engine is not None
        s.engine.use(spec["db"])
        s.security.set_db(spec["db"], s.security.check_use(spec["db"]))
        ctx.registry.register(s)
        s.logged_in = True
        s.command, s.info, s.state = "Connect", spec["body"], ""
        dialect = Dialect.of(spec["sql_mode"])
        p = Tokens(spec["body"], dialect)
        body = P.statement(p, frozenset())
        s.executing = True
        Frame(s, [], f"{spec['db']}.{spec['name']}").exec(body)
    except ServerError as exc:
        ctx.log.warning("Event Scheduler: [%s][%s.%s] %s", spec["definer"], spec["db"],
                        spec["name"], exc.message)
    except Exception:  # noqa: BLE001 - an event's failure must not end the server's thread
        ctx.log.exception("Event Scheduler: [%s.%s] failed", spec["db"], spec["name"])
    finally:
        s.executing = False
        s.close()
