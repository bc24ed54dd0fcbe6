"""ServerProtocol: the server side of one MySQL connection, sans I/O (h11's model).

Rules:
- Three verbs: `receive_data(bytes)` (b"" = the peer closed), `next_event()` (an Event, or
  NEED_DATA), and reply methods that return the bytes to write. Nothing here touches a socket,
  a thread or a clock. Reply to each event before asking for the next one: replies continue
  the sequence ids of the command being answered.
- Every phase change goes through `_goto(trigger)`, checked against `_TRANSITIONS`; this table is
  the whole connection life cycle:
      GREETING -greeting()-> HANDSHAKE -SSLRequest-> TLS -tls_established()-> HANDSHAKE
      HANDSHAKE/AUTH -more auth rounds-> AUTH -verified-> COMMAND | -denied-> FAILED
      COMMAND -COM_CHANGE_USER-> REAUTH (rounds) -> COMMAND (verified or denied)
  A denied COM_CHANGE_USER keeps the connection (the old account stays logged in); after three
  denied ones a connection's further COM_CHANGE_USER is an UnknownCommand without any auth
  round, as mysqld limits password guessing (MDEV-3915).
      any -peer EOF-> CLOSED;  any -ProtocolViolation-> ERROR (replies still work, events not)
- Bytes the protocol must send on its own during authentication (AuthSwitchRequest,
  AuthMoreData) wait in an output buffer: `data_to_send()` returns them, and every reply method
  puts them in front of its own bytes, so nothing goes out of order.
- Sequence ids (MySQL protocol docs, "Sequence ID"): the greeting is 0 and the connection phase
  continues one conversation (response 1, switch 2, ...; after TLS the count goes on); every
  command starts at 0 and its replies continue from 1, across result sets of one command.
- Character sets: statement text reaches the session as bytes; `set_charsets()` tells the protocol
  the client's character set (to decode string parameters) and the results' one. Results in a
  character set other than UTF-8 are converted here, in one place, with their column
  definitions: text columns then report that set's collation id and a length of characters
  times its bytes per character, as MariaDB does. UTF-8 results are the fast path: nothing to do.
- Packet limits: 64 KiB before login (a handshake response is a few hundred bytes; MySQL caps
  connect attributes at 64 KiB), then max_allowed_packet (ER_NET_PACKET_TOO_LARGE, 1153).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rampmeter.errors import ER_HANDSHAKE_ERROR, ProtocolViolation, ServerError
from rampmeter.protocol import events as ev
from rampmeter.protocol import packets as pk
from rampmeter.protocol.auth import (
    AccountLookup,
    Authentication,
    AuthStep,
    RsaKeyPair,
    generate_scramble,
)
from rampmeter.protocol.columns import Column
from rampmeter.protocol.commands import Statements, decode_command
from rampmeter.protocol.constants import (
    CHARSET_BINARY,
    SERVER_CAPABILITIES,
    Capability,
    ColumnFlag,
    ColumnType,
    Command,
    ServerStatus,
)
from rampmeter.protocol.events import NEED_DATA, NeedData
from rampmeter.protocol.framing import PacketDecoder, frame_into
from rampmeter.protocol.results import (
    Encoder,
    binary_encoder,
    binary_rows_into,
    text_rows_into,
    text_value,
)
from rampmeter.protocol.wire import encode_text

# result character sets whose text is not ASCII's bytes: a number's digits must be converted
_NOT_ASCII = frozenset({"rampmeter-filename", "utf-16-be", "utf-16-le", "utf-32-be"})

__all__ = ["NEED_DATA", "NeedData", "Phase", "ServerProtocol"]

LOGIN_PACKET_LIMIT = 64 * 1024
CHANGE_USER_ATTEMPTS = 3  # denied COM_CHANGE_USERs a connection may make (mysqld's limit)

# How mysqld describes a parameter in COM_STMT_PREPARE_OK: a column named "?" (its type is not
# known before execute; MySQL 8.0 and MariaDB send a binary string type).
_PARAM_COLUMN = Column("?", ColumnType.VAR_STRING, 0, ColumnFlag.BINARY, 0, CHARSET_BINARY)


class Phase(enum.Enum):
    GREETING = "greeting"  # greeting() not called yet
    HANDSHAKE = "handshake"  # waiting for HandshakeResponse41 or SSLRequest
    TLS = "tls"  # StartTLS emitted; waiting for tls_established()
    AUTH = "auth"  # login: waiting for the client's next auth packet
    COMMAND = "command"
    REAUTH = "reauth"  # COM_CHANGE_USER: waiting for the client's next auth packet
    FAILED = "failed"  # login refused; nothing more is read
    CLOSED = "closed"  # the peer closed its end
    ERROR = "error"  # a ProtocolViolation was raised


_TRANSITIONS: dict[tuple[Phase, str], Phase] = {
    (Phase.GREETING, "greeting"): Phase.HANDSHAKE,
    (Phase.HANDSHAKE, "ssl_request"): Phase.TLS,
    (Phase.TLS, "tls_established"): Phase.HANDSHAKE,
    (Phase.HANDSHAKE, "auth_pending"): Phase.AUTH,
    (Phase.HANDSHAKE, "authenticated"): Phase.COMMAND,
    (Phase.HANDSHAKE, "access_denied"): Phase.FAILED,
    (Phase.AUTH, "auth_pending"): Phase.AUTH,
    (Phase.AUTH, "authenticated"): Phase.COMMAND,
    (Phase.AUTH, "access_denied"): Phase.FAILED,
    (Phase.COMMAND, "auth_pending"): Phase.REAUTH,
    (Phase.COMMAND, "authenticated"): Phase.COMMAND,
    (Phase.COMMAND, "access_denied"): Phase.COMMAND,
    (Phase.REAUTH, "auth_pending"): Phase.REAUTH,
    (Phase.REAUTH, "authenticated"): Phase.COMMAND,
    (Phase.REAUTH, "access_denied"): Phase.COMMAND,
}
_FROM_ANY_PHASE = {"eof": Phase.CLOSED, "violation": Phase.ERROR}
_LOGGED_IN = (Phase.COMMAND, Phase.REAUTH)
_CHANGE_USER = bytes((Command.CHANGE_USER,))


# Result descriptions seen (result_set_start): (id(columns), results charsets) -> (columns,
# packets, binary encoders). Shared by all connections; bounded by clearing (plans are few).
_DESCRIBED: dict[tuple[int, Any], tuple[Any, list[bytes], list[Encoder | None] | None]] = {}
_DESCRIBED_MAX = 1024


@dataclass(slots=True)
class _Attempt:
    """Who is logging in (or changing user) while the auth rounds run."""

    auth: Authentication
    user: str
    database: str | None
    charset: int
    attributes: dict[str, str] = field(default_factory=dict)
    change_user: bool = False


class ServerProtocol:
    """The server side of one connection (see the module rules)."""

    def __init__(self, *, connection_id: int, server_version: str, accounts: AccountLookup,
                 capabilities: Capability = SERVER_CAPABILITIES, tls_available: bool = False,
                 max_allowed_packet: int = 16 * 1024 * 1024,
                 default_auth_plugin: str = "mysql_native_password",
                 rsa_keys: RsaKeyPair | None = None, charset: int = 45,
                 status: ServerStatus = ServerStatus.AUTOCOMMIT, scramble: bytes | None = None,
                 host: str = "", secure_transport: bool = False) -> None:
        if scramble is not None and len(scramble) != pk.SCRAMBLE_LENGTH:
            raise ValueError("the scramble must be 20 bytes")
        self.connection_id = connection_id
        self.server_version = server_version
        self.host = host  # the client's address, for AccountLookup.credentials()
        self._accounts = accounts
        self._offered = (capabilities | Capability.SSL if tls_available
                         else capabilities & ~Capability.SSL)
        self._tls_available = tls_available
        # A unix socket is a secure transport for caching_sha2 (mysqld's VIO_TYPE_SOCKET).
        self._secure_transport = secure_transport
        self._tls_active = False
        self._max_allowed_packet = max_allowed_packet
        self._default_plugin = default_auth_plugin
        self._rsa_keys = rsa_keys
        self._charset = charset
        self._status: int = status
        self._scramble = scramble or generate_scramble()
        self._phase = Phase.GREETING
        self._decoder = PacketDecoder(LOGIN_PACKET_LIMIT)
        self._statements = Statements(max_allowed_packet)
        self._eof = False
        self._seq = 0  # the sequence id of the next packet we send
        self._out = bytearray()  # bytes generated during auth, not yet taken
        self._attempt: _Attempt | None = None
        self._row_encoders: list[Encoder | None] | None = None  # None: text rows
        self._results: tuple[str, int, int] | None = None  # (codec, collation, maxlen) or UTF-8
        self.client_capabilities = Capability(0)  # as the client sent them
        self._caps = Capability.PROTOCOL_41  # client & offered: what the replies honour
        self._extended_metadata = False  # MariaDB's column data type names / formats
        self._no_eof = False  # CLIENT_DEPRECATE_EOF agreed (a bool: asked on every reply)
        self._failed_change_user = 0  # denied COM_CHANGE_USERs (see the module rules)

    # --- state ---------------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def scramble(self) -> bytes:
        return self._scramble

    @property
    def max_allowed_packet(self) -> int:
        return self._max_allowed_packet

    @max_allowed_packet.setter
    def max_allowed_packet(self, value: int) -> None:
        self._max_allowed_packet = value
        self._statements.max_long_data = value
        if self._phase in _LOGGED_IN:
            self._decoder.max_payload = value

    @property
    def reads_up_to_tls(self) -> int | None:
        """Before TLS may start (the client's first packet could be an SSLRequest, and the TLS
        handshake follows it at once), the bytes that end that packet, which is all the caller
        may read: the TLS layer must read what comes next itself. None when reading is free."""
        if self._phase is Phase.HANDSHAKE and self._tls_available and not self._tls_active:
            return self._decoder.bytes_to_packet_end()  # 0: the packet is whole, stop reading
        return None

    @property
    def has_partial_packet(self) -> bool:
        return self._decoder.has_partial

    @property
    def has_buffered_input(self) -> bool:
        return self._decoder.has_buffered or (self._eof and self._phase is not Phase.CLOSED)

    def _goto(self, trigger: str) -> None:
        try:
            self._phase = _FROM_ANY_PHASE.get(trigger) or _TRANSITIONS[(self._phase, trigger)]
        except KeyError:
            raise RuntimeError(f"no transition {trigger!r} from {self._phase}") from None
        if self._phase in _LOGGED_IN:
            self._decoder.max_payload = self._max_allowed_packet

    # --- input ---------------------------------------------------------------------------
    def receive_data(self, data: bytes) -> None:
        if self._eof:
            raise RuntimeError("receive_data() after EOF")
        if data:
            self._decoder.feed(data)
        else:
            self._eof = True

    def tls_established(self) -> None:
        self._goto("tls_established")
        self._tls_active = True

    def next_event(self) -> ev.Event | NeedData:
        if self._phase is Phase.ERROR:
            raise ProtocolViolation("the connection already broke the protocol")
        try:
            while True:
                event = self._step()
                if event is not None:
                    return event
        except ProtocolViolation:
            self._goto("violation")
            raise

    def _step(self) -> ev.Event | NeedData | None:
        phase = self._phase
        if phase is Phase.CLOSED:
            return ev.ConnectionClosed()
        packet = None
        if phase is Phase.COMMAND:
            self._seq = 1  # a command is seq 0 (checked below): replies, errors too, start at 1
            packet = self._decoder.next_packet(0)
        elif phase in (Phase.HANDSHAKE, Phase.AUTH, Phase.REAUTH):
            packet = self._decoder.next_packet(self._seq)
        # GREETING, TLS and FAILED read nothing: input waits (or, after a refusal, is dropped).
        if packet is None:
            if self._eof:
                self._goto("eof")
                return ev.ConnectionClosed()
            return NEED_DATA
        payload, last_seq = packet
        self._seq = (last_seq + 1) & 0xFF
        if phase is Phase.COMMAND:
            return self._on_command(payload)
        if phase is Phase.HANDSHAKE:
            return self._on_handshake_response(payload)
        assert self._attempt is not None
        return self._on_auth_step(self._attempt.auth.feed(payload))

    def _on_handshake_response(self, payload: bytes) -> ev.Event | None:
        resp = pk.parse_handshake_response(payload, self._offered)
        if resp.ssl_request and not self._tls_active:
            if not self._tls_available:
                raise ProtocolViolation("SSL requested but not offered", code=ER_HANDSHAKE_ERROR)
            self._goto("ssl_request")
            return ev.StartTLS(self._decoder.take_buffered())
        if len(payload) == pk.SSL_REQUEST_SIZE:
            raise ProtocolViolation("a second SSLRequest", code=ER_HANDSHAKE_ERROR)
        self.client_capabilities = resp.capabilities
        self._caps = resp.capabilities & self._offered
        self._extended_metadata = bool(self._caps & Capability.MARIADB_EXTENDED_METADATA)
        self._no_eof = bool(self._caps & Capability.DEPRECATE_EOF)
        self._charset = resp.charset
        return self._start_auth(resp.user, resp.auth_response, resp.plugin, resp.database,
                                resp.charset, resp.attributes, change_user=False)

    def _start_auth(self, user: str, response: bytes, plugin: str, database: str | None,
                    charset: int, attributes: dict[str, str], *, change_user: bool,
                    ) -> ev.Event | None:
        auth = Authentication(
            self._accounts.credentials(user, self.host), client_plugin=plugin,
            client_plugin_auth=bool(self._caps & Capability.PLUGIN_AUTH),
            default_plugin=self._default_plugin, scramble=self._scramble,
            secure=self._tls_active or self._secure_transport, rsa_keys=self._rsa_keys)
        self._attempt = _Attempt(auth, user, database, charset, attributes, change_user)
        return self._on_auth_step(auth.start(response))

    def _on_auth_step(self, step: AuthStep) -> ev.Event | None:
        attempt = self._attempt
        assert attempt is not None
        if step.send:
            self._seq = frame_into(self._out, step.send, self._seq)
        if not step.done:
            self._goto("auth_pending")
            return None
        self._attempt = None
        if not step.success:
            self._goto("access_denied")
            if attempt.change_user:
                self.change_user_failed()
            return ev.AccessDenied(attempt.user, attempt.auth.using_password,
                                   attempt.change_user)
        self._goto("authenticated")
        if attempt.change_user:
            self._statements.clear()  # a new session: mysqld closes the prepared statements
            self._charset = attempt.charset
        return ev.Authenticated(attempt.user, attempt.database, attempt.auth.plugin,
                                self.client_capabilities, attempt.attributes,
                                attempt.change_user, attempt.charset)

    def _on_command(self, payload: bytes) -> ev.Event | None:
        if payload[:1] == _CHANGE_USER:
            cu = pk.parse_change_user(payload, self._caps)
            if self._failed_change_user >= CHANGE_USER_ATTEMPTS:
                return ev.UnknownCommand(Command.CHANGE_USER)
            return self._start_auth(cu.user, cu.auth_response, cu.plugin, cu.database,
                                    cu.charset if cu.charset is not None else self._charset,
                                    cu.attributes, change_user=True)
        return decode_command(payload, self._statements)

    def change_user_failed(self) -> None:
        """Count a COM_CHANGE_USER refused (here, or by the session after the password)."""
        self._failed_change_user += 1
        self._statements.clear()  # mysqld's THD::change_user() ran before the check

    # --- output --------------------------------------------------------------------------
    def data_to_send(self) -> bytes:
        """Bytes the protocol produced on its own (auth rounds); write them before waiting."""
        out, self._out = self._out, bytearray()
        return bytes(out)

    def _send(self, *payloads: bytes) -> bytes:
        out, self._out = self._out, bytearray()
        seq = self._seq
        for payload in payloads:
            seq = frame_into(out, payload, seq)
        self._seq = seq
        return bytes(out)

    def greeting(self) -> bytes:
        self._goto("greeting")
        payload = pk.handshake_v10(
            server_version=self.server_version, connection_id=self.connection_id,
            scramble=self._scramble, capabilities=self._offered, charset=self._charset,
            status=self._status, auth_plugin=self._default_plugin)
        self._seq = 0
        return self._send(payload)

    def _deprecate_eof(self) -> bool:
        return self._no_eof

    def _eof_payload(self, status: int, warnings: int) -> bytes:
        """The end of a row or definition list: EOF, or an OK with a 0xFE header when the
        client set CLIENT_DEPRECATE_EOF (protocol docs, OK_Packet)."""
        if self._deprecate_eof():
            return pk.ok_packet(0, 0, status, warnings, "", self._caps, header=0xFE)
        return pk.eof_packet(warnings, status)

    def ok(self, affected_rows: int = 0, last_insert_id: int = 0, *, status: int,
           warnings: int = 0, info: str = "", state: bytes = b"") -> bytes:
        self._status = status
        return self._send(pk.ok_packet(affected_rows, last_insert_id, status, warnings, info,
                                       self._caps, state=state))

    def error(self, code: int, sqlstate: str, message: str) -> bytes:
        """ERR, its message in character_set_results (UTF-8 as it is for binary / NULL)."""
        codec = self._results[0] if self._results is not None else "utf-8"
        return self._send(pk.err_packet(code, sqlstate, message, codec))

    def error_from(self, exc: ServerError) -> bytes:
        return self.error(exc.code, exc.sqlstate, exc.message)

    def eof_or_ok(self, *, status: int, warnings: int = 0) -> bytes:
        """mysqld's my_eof(): the reply to COM_SET_OPTION (EOF, or 0xFE-OK with DEPRECATE_EOF)."""
        self._status = status
        return self._send(self._eof_payload(status, warnings))

    def set_charsets(self, *, client_codec: str = "utf-8", results_codec: str | None = None,
                     results_collation: int = 45, results_maxlen: int = 4) -> None:
        """character_set_client / character_set_results changed (SET NAMES, SET ...)."""
        self._statements.codec = client_codec
        codec = results_codec or "utf-8"
        if codec == "utf-8" and results_collation == 45:
            self._results = None
        else:
            self._results = (codec, results_collation, results_maxlen)

    def _definition(self, col: Column, field_list: bool = False) -> bytes:
        extended = self._extended_metadata
        if self._results is None:
            return pk.column_definition(col, field_list, "utf-8", extended)
        codec, collation, maxlen = self._results
        if col.charset != CHARSET_BINARY:
            col = Column(col.name, col.type, col.length // 4 * maxlen if col.length % 4 == 0
                         else col.length, col.flags, col.decimals, collation, col.table,
                         col.org_table, col.schema, col.org_name, col.extended)
        return pk.column_definition(col, field_list, codec, extended)

    def _convert(self, rows: Iterable[Sequence[Any]]) -> Iterable[Sequence[Any]]:
        if self._results is None:
            return rows
        codec = self._results[0]
        if codec in _NOT_ASCII and self._row_encoders is None:
            # numbers and temporals are text in the text protocol, converted too (MariaDB,
            # MDEV-23435): -1 in character_set_results=filename is '@002d1'
            return ([v if v is None or isinstance(v, (bytes, bytearray)) else
                     encode_text(v if type(v) is str else text_value(v).decode("latin-1"),
                                 codec) for v in row] for row in rows)
        return ([encode_text(v, codec) if type(v) is str else v for v in row] for row in rows)

    def result_set_start(self, columns: Sequence[Column], *, binary: bool = False) -> bytes:
        """Column count, the column definitions, and an EOF unless CLIENT_DEPRECATE_EOF."""
        return self._send(*self._start_payloads(columns, binary))

    def _start_payloads(self, columns: Sequence[Column], binary: bool) -> list[bytes]:
        """A result's opening payloads; sets the row encoders. A tuple of columns is a result
        description an engine built once and shares (a plan's): its packets and row encoders
        are built once per results character set and kept."""
        key = (id(columns), self._results)
        known = _DESCRIBED.get(key) if type(columns) is tuple else None
        if known is None or known[0] is not columns:
            shared = type(columns) is tuple
            known = (columns, [pk.column_count(len(columns))] +
                     [self._definition(col) for col in columns],
                     [binary_encoder(col) for col in columns] if binary or shared else None)
            if shared:
                if len(_DESCRIBED) >= _DESCRIBED_MAX:
                    _DESCRIBED.clear()
                _DESCRIBED[key] = known
        self._row_encoders = known[2] if binary else None
        if self._no_eof:
            return known[1]
        return [*known[1], pk.eof_packet(0, self._status)]

    def result_rows(self, rows: Iterable[Sequence[Any]]) -> bytes:
        """Row packets, text or binary as chosen by result_set_start(); one value per column."""
        out, self._out = self._out, bytearray()
        rows = self._convert(rows)
        if self._row_encoders is None:
            self._seq = text_rows_into(out, rows, self._seq)
        else:
            self._seq = binary_rows_into(out, rows, self._row_encoders, self._seq)
        return bytes(out)

    def result_set_end(self, *, status: int, warnings: int = 0) -> bytes:
        """EOF, or the 0xFE-OK of CLIENT_DEPRECATE_EOF. Set MORE_RESULTS_EXISTS in `status`
        when another result of the same command follows."""
        self._status = status
        self._row_encoders = None
        return self._send(self._eof_payload(status, warnings))

    def result_set(self, columns: Sequence[Column], rows: Iterable[Sequence[Any]], *,
                   status: int, warnings: int = 0, binary: bool = False) -> bytes:
        """A whole result set in one buffer: result_set_start, result_rows and result_set_end
        at once (a small result's usual path: one buffer and one copy instead of three)."""
        out, self._out = self._out, bytearray()
        seq = self._seq
        for payload in self._start_payloads(columns, binary):
            seq = frame_into(out, payload, seq)
        rows = self._convert(rows)
        if self._row_encoders is None:
            seq = text_rows_into(out, rows, seq)
        else:
            seq = binary_rows_into(out, rows, self._row_encoders, seq)
        self._status = status
        self._row_encoders = None
        self._seq = frame_into(out, self._eof_payload(status, warnings), seq)
        return bytes(out)

    def prepare_ok(self, statement_id: int, param_count: int, columns: Sequence[Column], *,
                   warnings: int = 0) -> bytes:
        """COM_STMT_PREPARE_OK, then parameter and column definitions (each list followed by
        an EOF unless CLIENT_DEPRECATE_EOF). Registers the statement for COM_STMT_EXECUTE."""
        self._statements.register(statement_id, param_count)
        payloads = [pk.prepare_ok_header(statement_id, len(columns), param_count, warnings)]
        for defs in ([_PARAM_COLUMN] * param_count, columns):
            if defs:
                payloads += [self._definition(col) for col in defs]
                if not self._deprecate_eof():
                    payloads.append(pk.eof_packet(0, self._status))
        return self._send(*payloads)

    def field_list(self, columns: Sequence[Column]) -> bytes:
        """COM_FIELD_LIST reply: definitions with a (NULL) default value, then my_eof()."""
        payloads = [self._definition(col, True) for col in columns]
        payloads.append(self._eof_payload(self._status, 0))
        return self._send(*payloads)

    # --- LOAD DATA LOCAL INFILE -------------------------------------------------------------
    @property
    def client_sends_files(self) -> bool:
        """Did the client say it can send local files (CLIENT_LOCAL_FILES)?"""
        return bool(self._caps & Capability.LOCAL_FILES)

    def local_infile_request(self, filename: bytes) -> bytes:
        """Ask the client for a file (0xFB + name); it answers with packets of the file's
        bytes, continuing this command's sequence ids, and an empty packet at the end."""
        return self._send(b"\xfb" + filename)

    def next_infile_packet(self) -> bytes | NeedData:
        """The next packet of the file the client is sending (b'' ends it), or NEED_DATA.
        A peer that closes in the middle is a ConnectionError."""
        packet = self._decoder.next_packet(self._seq)
        if packet is None:
            if self._eof:
                raise ConnectionError("the client closed while sending a LOCAL INFILE")
            return NEED_DATA
        payload, last_seq = packet
        self._seq = (last_seq + 1) & 0xFF
        return payload

    def statistics(self, text: str) -> bytes:
        return self._send(pk.plain_string(text))

    def forget_statement(self, statement_id: int) -> None:
        self._statements.forget(statement_id)
