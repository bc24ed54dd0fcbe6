"""CHANGE MASTER TO, START SLAVE, STOP SLAVE (and their REPLICA spellings): the replica-side
statements, on a server that is never a replica.

Rules (MariaDB 10.11, measured):
- Each needs SUPER or REPLICATION SLAVE ADMIN, else 1227 naming both.
- CHANGE MASTER ['name'] TO option = value, ... keeps the options (ReplicaSettings, for the
  whole server, as MariaDB's master.info); an unknown option is 1064 there.
- START SLAVE without a MASTER_HOST is MariaDB's 1200 "Misconfigured slave"; with one it is
  1235: rampmeter does not replicate (docs/sql.md). STOP SLAVE finds the replica stopped:
  Note 1255. A connection name other than the default one that CHANGE MASTER never named is
  1617.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.engine.base import UpdateCount
from rampmeter.errors import ServerError, Warning_
from rampmeter.session.privileges import P
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session

# CHANGE MASTER TO's options (MariaDB 10.11's grammar)
_OPTIONS = frozenset({
    "MASTER_HOST", "MASTER_USER", "MASTER_PASSWORD", "MASTER_PORT", "MASTER_CONNECT_RETRY",
    "MASTER_LOG_FILE", "MASTER_LOG_POS", "RELAY_LOG_FILE", "RELAY_LOG_POS", "MASTER_SSL",
    "MASTER_SSL_CA", "MASTER_SSL_CAPATH", "MASTER_SSL_CERT", "MASTER_SSL_CIPHER",
    "MASTER_SSL_KEY", "MASTER_SSL_VERIFY_SERVER_CERT", "MASTER_SSL_CRL", "MASTER_SSL_CRLPATH",
    "MASTER_HEARTBEAT_PERIOD", "IGNORE_SERVER_IDS", "DO_DOMAIN_IDS", "IGNORE_DOMAIN_IDS",
    "MASTER_USE_GTID", "MASTER_DELAY", "MASTER_RETRY_COUNT", "MASTER_DEMOTE_TO_SLAVE"})


class ReplicaSettings:
    """CHANGE MASTER's options per connection name ('' is the default connection)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_name: dict[str, dict[str, str]] = {}

    def change(self, name: str, options: dict[str, str]) -> None:
        with self._lock:
            self._by_name.setdefault(name.lower(), {}).update(options)

    def get(self, name: str) -> dict[str, str] | None:
        with self._lock:
            found = self._by_name.get(name.lower())
            return dict(found) if found is not None else None


def change_master(s: Session, stmt: Statement) -> UpdateCount:
    r = Reader(stmt, 1)
    r.expect("MASTER")
    name = "" if r.at("TO") else r.name_or_string()
    r.expect("TO")
    options: dict[str, str] = {}
    while True:
        word = r.peek_word()
        if word not in _OPTIONS:
            raise r.error()
        r.next()
        r.expect("=")
        if r.at("("):  # IGNORE_SERVER_IDS = (1, 2)
            parts = []
            r.next()
            while not r.accept(")"):
                parts.append(r.next().text)
            options[word] = "".join(parts)
        else:
            t = r.next()
            options[word] = r.text[t.start:t.end]
        if not r.accept(","):
            break
    r.end()
    _require(s)
    s.ctx.replica.change(name, options)
    return UpdateCount(0)


def start_slave(s: Session, stmt: Statement) -> UpdateCount:
    name = _connection(stmt)
    _require(s)
    settings = s.ctx.replica.get(name)
    if settings is None and name:
        raise ServerError(1617, message=f"There is no master connection '{name}'",
                          sqlstate="HY000")
    if not settings or not settings.get("MASTER_HOST", "").strip("'\""):
        raise ServerError(1200, message="Misconfigured slave: MASTER_HOST was not set; Fix in "
                          "config file or with CHANGE MASTER TO", sqlstate="HY000")
    raise ServerError(errors.ER_NOT_SUPPORTED_YET, "replication")


def stop_slave(s: Session, stmt: Statement) -> UpdateCount:
    name = _connection(stmt)
    _require(s)
    if name and s.ctx.replica.get(name) is None:
        raise ServerError(1617, message=f"There is no master connection '{name}'",
                          sqlstate="HY000")
    return UpdateCount(0, warnings=[Warning_("Note", 1255, "Slave already has been stopped")])


def _connection(stmt: Statement) -> str:
    """START / STOP SLAVE | REPLICA ['name'] [thread types] [UNTIL ...]: the name."""
    r = Reader(stmt, 2)
    t = r.peek()
    if t is not None and t.kind == "str":
        return r.name_or_string()
    return ""


def _require(s: Session) -> None:
    sec = s.security
    if sec is not None:
        sec.check_global(P.SUPER, P.REPL_SLAVE_ADMIN)
