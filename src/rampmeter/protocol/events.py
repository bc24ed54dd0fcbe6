"""What `ServerProtocol.next_event()` returns: one immutable event per thing the client did, or
the `NEED_DATA` sentinel.

Rules:
- Events are frozen, slotted dataclasses carrying decoded Python values only (str, int, bytes,
  tuples); never a packet, never a reference into a buffer. Do not subclass them.
- Text a command carries (statement text, a database or table name) stays bytes: it is in the
  client's character set, which the session knows and the protocol does not.
- Each event names the reply the caller owes (see its docstring): the protocol layer never
  decides *what* to answer, only how to encode it.
- `NEED_DATA` (the single instance of `NeedData`) means: feed more bytes with receive_data(),
  after writing whatever `data_to_send()` returns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from rampmeter.protocol.constants import Capability


class NeedData:
    """Sentinel: no complete event yet. There is exactly one instance, `NEED_DATA`."""

    _instance: ClassVar[NeedData | None] = None

    def __new__(cls) -> NeedData:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NEED_DATA"

    def __reduce__(self) -> str:
        return "NEED_DATA"


NEED_DATA = NeedData()


class Event:
    """Base class of every event (for isinstance and type hints)."""

    __slots__ = ()


# --- connection phase ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class StartTLS(Event):
    """SSLRequest received: wrap the socket as a TLS server, then call `tls_established()`.
    `tls_data` holds bytes that arrived after the SSLRequest: the start of the client's TLS
    handshake, to be fed to the TLS layer before anything read from the socket."""

    tls_data: bytes = b""


@dataclass(frozen=True, slots=True)
class Authenticated(Event):
    """Credentials verified (login or COM_CHANGE_USER). Reply `ok()` or `error()`."""

    user: str
    database: str | None
    plugin: str
    client_capabilities: Capability
    attributes: dict[str, str] = field(default_factory=dict)
    change_user: bool = False
    charset: int = 45


@dataclass(frozen=True, slots=True)
class AccessDenied(Event):
    """Wrong user or password. Reply error 1045; after a failed login, close."""

    user: str
    using_password: bool
    change_user: bool = False


@dataclass(frozen=True, slots=True)
class ConnectionClosed(Event):
    """The peer closed its end (EOF). Nothing to reply."""


# --- command phase: replies are ok()/error()/result sets unless noted ----------------------
@dataclass(frozen=True, slots=True)
class Query(Event):
    sql: bytes


@dataclass(frozen=True, slots=True)
class InitDb(Event):
    database: bytes


@dataclass(frozen=True, slots=True)
class Ping(Event):
    pass


@dataclass(frozen=True, slots=True)
class Quit(Event):
    """COM_QUIT: close without replying."""


@dataclass(frozen=True, slots=True)
class Statistics(Event):
    """Reply `statistics(text)`."""


@dataclass(frozen=True, slots=True)
class ProcessKill(Event):
    connection_id: int


@dataclass(frozen=True, slots=True)
class ResetConnection(Event):
    """The protocol has already forgotten every prepared statement."""


@dataclass(frozen=True, slots=True)
class SetOption(Event):
    """COM_SET_OPTION: reply `eof_or_ok()` (mysqld answers it with an EOF)."""

    multi_statements: bool


@dataclass(frozen=True, slots=True)
class FieldList(Event):
    """COM_FIELD_LIST: reply `field_list(columns)`."""

    table: bytes
    wildcard: bytes


@dataclass(frozen=True, slots=True)
class StmtPrepare(Event):
    """Reply `prepare_ok(...)` (which registers the statement) or `error()`."""

    sql: bytes


@dataclass(frozen=True, slots=True)
class StmtExecute(Event):
    """Reply a binary result set (`result_set(..., binary=True)`), `ok()` or `error()`."""

    statement_id: int
    flags: int
    params: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class StmtClose(Event):
    """No reply may be sent. The protocol has already forgotten the statement."""

    statement_id: int


@dataclass(frozen=True, slots=True)
class StmtReset(Event):
    """The protocol has dropped the statement's long data. Reply `ok()`."""

    statement_id: int


@dataclass(frozen=True, slots=True)
class StmtFetch(Event):
    statement_id: int
    rows: int


@dataclass(frozen=True, slots=True)
class UnknownCommand(Event):
    """A command byte we do not serve: reply error 1047 (ER_UNKNOWN_COM_ERROR)."""

    command: int
