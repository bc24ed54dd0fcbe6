"""Payloads of the connection phase and of the generic replies: Initial Handshake v10, SSLRequest,
HandshakeResponse41, COM_CHANGE_USER, AuthSwitchRequest, AuthMoreData, OK, ERR, EOF, and the
Column Definition 41.

Rules:
- Pure functions from values to payload bytes and from payload bytes to small frozen records;
  no framing, no sequence ids, no state.
- Layouts follow the MySQL 8.0 protocol docs (dev.mysql.com/doc/dev/mysql-server/latest/
  page_protocol_connection_phase_packets_*.html, page_protocol_basic_*_packet.html) and agree
  with MariaDB 10.11's sql/sql_acl.cc and sql/protocol.cc for the flags we offer.
- Handshake parsing errors are ER_HANDSHAKE_ERROR (1043, "Bad handshake"), what mysqld answers
  to a malformed response; malformed commands are ER_MALFORMED_PACKET.
"""

from __future__ import annotations

import codecs
import functools
import struct
from dataclasses import dataclass, field

from rampmeter.errors import ER_HANDSHAKE_ERROR, ER_MALFORMED_PACKET
from rampmeter.protocol.columns import Column
from rampmeter.protocol.constants import Capability
from rampmeter.protocol.wire import Reader, encode_text, lenenc_bytes, lenenc_int, lenenc_str

SCRAMBLE_LENGTH = 20
# The ERR message is cut to MYSQL_ERRMSG_SIZE (512) bytes, as mysqld does (include/mysql_com.h).
MAX_ERROR_MESSAGE = 512
# An SSLRequest is the first 32 bytes of a HandshakeResponse41: capabilities (4), max packet
# size (4), character set (1), 23 filler bytes (protocol docs, Protocol::SSLRequest).
SSL_REQUEST_SIZE = 32

_TWO_U16 = struct.Struct("<HH")


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


# --- Initial Handshake -----------------------------------------------------------------------
# MariaDB 10+ prefixes its version with "5.5.5-" in the handshake (its RPL_VERSION_HACK): clients
# written for MySQL read 5.5 and do not take MySQL 8's defaults (mysql-connector would send
# SET NAMES ... COLLATE utf8mb4_0900_ai_ci, which MariaDB 10.11 does not know). MariaDB's own
# clients strip the prefix.
_VERSION_HACK = "5.5.5-"


def _advertised(version: str) -> str:
    major = version.split(".", 1)[0]
    if major.isdigit() and int(major) >= 10 and not version.startswith(_VERSION_HACK):
        return _VERSION_HACK + version
    return version


def handshake_v10(*, server_version: str, connection_id: int, scramble: bytes,
                  capabilities: Capability, charset: int, status: int,
                  auth_plugin: str) -> bytes:
    """Protocol::HandshakeV10. The 20-byte scramble is split 8 + 12; part 2 is followed by a NUL
    and the announced auth-plugin-data length is 21 (20 + that NUL), as mysqld sends."""
    caps = int(capabilities)
    return b"".join((
        b"\x0a",
        _advertised(server_version).encode("utf-8") + b"\0",
        (connection_id & 0xFFFFFFFF).to_bytes(4, "little"),
        scramble[:8], b"\0",
        (caps & 0xFFFF).to_bytes(2, "little"),
        bytes((charset & 0xFF,)),
        int(status).to_bytes(2, "little"),
        (caps >> 16 & 0xFFFF).to_bytes(2, "little"),
        bytes((len(scramble) + 1 if caps & Capability.PLUGIN_AUTH else 0,)),
        bytes(6),  # reserved; then MariaDB's extended capabilities (no CLIENT_MYSQL offered)
        (caps >> 32 & 0xFFFFFFFF).to_bytes(4, "little"),
        scramble[8:], b"\0",
        auth_plugin.encode("ascii") + b"\0" if caps & Capability.PLUGIN_AUTH else b"",
    ))


@dataclass(frozen=True, slots=True)
class HandshakeResponse:
    capabilities: Capability  # as the client sent them
    max_packet: int
    charset: int
    user: str = ""
    auth_response: bytes = b""
    database: str | None = None
    plugin: str = ""
    attributes: dict[str, str] = field(default_factory=dict)

    @property
    def ssl_request(self) -> bool:
        return bool(self.capabilities & Capability.SSL)


def parse_handshake_response(payload: bytes, offered: Capability) -> HandshakeResponse:
    """Protocol::HandshakeResponse41, or only its 32-byte prefix when it is an SSLRequest.
    Optional fields are read per the capabilities both sides have (client's & offered)."""
    r = Reader(payload, code=ER_HANDSHAKE_ERROR)
    if len(payload) < SSL_REQUEST_SIZE:
        raise r.fail(f"handshake response of {len(payload)} bytes")
    client_caps = Capability(r.u32())
    max_packet = r.u32()
    charset = r.u8()
    r.fixed(19)
    extended = r.u32()  # MariaDB's extended capabilities, from a client that is not CLIENT_MYSQL
    if extended and not client_caps & Capability.LONG_PASSWORD:
        client_caps = Capability(int(client_caps) | extended << 32)
    if not client_caps & Capability.PROTOCOL_41:
        # Pre-4.1 clients (HandshakeResponse320) are not served; MySQL 8.0 refuses them too.
        raise r.fail("client does not speak protocol 4.1")
    if client_caps & Capability.SSL and r.at_end():
        return HandshakeResponse(client_caps, max_packet, charset)
    caps = client_caps & offered
    user = _text(r.nul_bytes())
    if caps & Capability.PLUGIN_AUTH_LENENC_CLIENT_DATA:
        auth = r.lenenc_bytes()
    elif caps & Capability.SECURE_CONNECTION:
        auth = r.fixed(r.u8())
    else:
        auth = r.nul_or_rest()
    database = None
    if caps & Capability.CONNECT_WITH_DB and not r.at_end():
        database = _text(r.nul_or_rest()) or None
    plugin = ""
    if caps & Capability.PLUGIN_AUTH and not r.at_end():
        plugin = r.nul_or_rest().decode("ascii", "replace")
    attributes: dict[str, str] = {}
    if caps & Capability.CONNECT_ATTRS and not r.at_end():
        attributes = parse_connect_attrs(r)
    return HandshakeResponse(client_caps, max_packet, charset, user, auth, database, plugin,
                             attributes)


def parse_connect_attrs(r: Reader) -> dict[str, str]:
    """int<lenenc> total length, then (key, value) pairs of length-encoded strings."""
    total = r.lenenc_int()
    sub = Reader(r.fixed(total), code=r.code)
    attrs: dict[str, str] = {}
    while not sub.at_end():
        key = _text(sub.lenenc_bytes())
        attrs[key] = _text(sub.lenenc_bytes())
    return attrs


@dataclass(frozen=True, slots=True)
class ChangeUser:
    user: str
    auth_response: bytes
    database: str | None
    charset: int | None
    plugin: str
    attributes: dict[str, str]


def parse_change_user(payload: bytes, caps: Capability) -> ChangeUser:
    """COM_CHANGE_USER (protocol docs): user NUL, auth response (1-byte length with
    SECURE_CONNECTION, else NUL-terminated), schema NUL, then optionally charset int<2>,
    plugin name NUL (PLUGIN_AUTH) and connect attributes (CONNECT_ATTRS)."""
    r = Reader(payload, 1, code=ER_MALFORMED_PACKET)
    user = _text(r.nul_bytes())
    auth = r.fixed(r.u8()) if caps & Capability.SECURE_CONNECTION else r.nul_bytes()
    database = _text(r.nul_or_rest()) or None
    charset = plugin = None
    attributes: dict[str, str] = {}
    if r.remaining >= 2:
        charset = r.u16()
        if caps & Capability.PLUGIN_AUTH and not r.at_end():
            plugin = r.nul_or_rest().decode("ascii", "replace")
        if caps & Capability.CONNECT_ATTRS and not r.at_end():
            attributes = parse_connect_attrs(r)
    return ChangeUser(user, auth, database, charset, plugin or "", attributes)


def auth_switch_request(plugin: str, data: bytes) -> bytes:
    """Protocol::AuthSwitchRequest: 0xFE, plugin name NUL, plugin data (scramble + NUL)."""
    return b"\xfe" + plugin.encode("ascii") + b"\0" + data


def auth_more_data(data: bytes) -> bytes:
    """Protocol::AuthMoreData: 0x01 then the plugin's bytes."""
    return b"\x01" + data


# --- generic replies -------------------------------------------------------------------------
_SESSION_STATE_CHANGED = 0x4000  # ServerStatus.SESSION_STATE_CHANGED


def ok_packet(affected_rows: int, last_insert_id: int, status: int, warnings: int, info: str,
              caps: Capability, header: int = 0x00, state: bytes = b"") -> bytes:
    """OK_Packet. `header` 0xFE makes it the EOF replacement of CLIENT_DEPRECATE_EOF. The info,
    when there is one, is a length-encoded string: the protocol docs say string<EOF>, but
    mysqld and MariaDB write it with net_store_data() (net_send_ok, sql/protocol.cc) and
    libmysqlclient, Connector/C and mysql-connector-python read a length first (a raw info
    loses its first byte there). `state` is the session state change information (the
    trackers' entries, session/tracking.py), sent only to a CLIENT_SESSION_TRACK client,
    after the info (then written even when empty) and with SERVER_SESSION_STATE_CHANGED, as
    MariaDB's net_send_ok does."""
    out = bytearray((header,))
    out += lenenc_int(affected_rows)
    # MariaDB's insert id is unsigned 64-bit: an explicit -5 in a signed AUTO_INCREMENT column
    # reaches the client as 18446744073709551611 (a negative value here dropped the connection)
    out += lenenc_int(last_insert_id & 0xFFFFFFFFFFFFFFFF)
    tracked = bool(state) and bool(caps & Capability.SESSION_TRACK)
    if tracked:
        status = int(status) | _SESSION_STATE_CHANGED
    if caps & Capability.PROTOCOL_41:
        out += _TWO_U16.pack(int(status) & 0xFFFF, min(warnings, 0xFFFF))
    elif caps & Capability.TRANSACTIONS:
        out += (int(status) & 0xFFFF).to_bytes(2, "little")
    if tracked:
        out += lenenc_str(info)
        out += lenenc_bytes(state)
    elif info:
        out += lenenc_str(info)
    return bytes(out)


def _cut_utf8(raw: bytes, limit: int) -> bytes:
    """At most `limit` bytes of `raw`, never ending inside a UTF-8 character: strict decoders
    (mysql-connector-python's) reject the whole ERR packet otherwise. Bytes that were not UTF-8
    to begin with (surrogateescape) are kept as they are."""
    if len(raw) <= limit:
        return raw
    decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
    return decoder.decode(raw[:limit], final=False).encode("utf-8", "surrogateescape")


def err_packet(code: int, sqlstate: str, message: str, codec: str = "utf-8") -> bytes:
    """ERR_Packet with the 4.1 '#'+SQLSTATE marker, which every client we serve understands
    (we refuse pre-4.1 clients; before the handshake libmysql and PyMySQL read it too). The
    message is in character_set_results' `codec` (`error_text`)."""
    state = (sqlstate.encode("ascii", "replace") + b"HY000")[:5]
    if codec == "utf-8":
        # A byte that arrived invalid (a lone surrogate) is shown as '?', as MariaDB converts
        # it: the message must be valid UTF-8 for the client to read it.
        text = _cut_utf8(message.encode("utf-8", "replace"), MAX_ERROR_MESSAGE)
    else:
        text = error_text(message, codec)
    return b"\xff" + (code & 0xFFFF).to_bytes(2, "little") + b"#" + state + text


def error_text(message: str, codec: str) -> bytes:
    """An error message in a character set other than UTF-8, as MariaDB's
    convert_error_message makes it: a character the set cannot hold is `\\XXXX` (`\\+XXXXXX`
    above U+FFFF), and the message stops where the next character would not fit in
    MYSQL_ERRMSG_SIZE - 1 bytes."""
    limit = MAX_ERROR_MESSAGE - 1
    out = bytearray()
    for ch in message:
        try:
            enc = ch.encode(codec)
        except (UnicodeEncodeError, LookupError):
            wc = ord(ch)
            if 0xD800 <= wc <= 0xDFFF:  # a byte that arrived invalid
                enc = b"?"
            else:
                esc = (f"\\{wc:04X}" if wc <= 0xFFFF else f"\\+{wc:06X}").encode("ascii")
                if len(out) + len(esc) >= limit:
                    break
                out += esc
                continue
        if len(out) + len(enc) > limit:
            break
        out += enc
    return bytes(out)


def err_packet_before_greeting(code: int, message: str) -> bytes:
    """ERR_Packet sent instead of the greeting (1040): no SQLSTATE marker, as MariaDB sends it
    before it knows the client speaks 4.1; clients report such an error as HY000."""
    text = _cut_utf8(message.encode("utf-8", "replace"), MAX_ERROR_MESSAGE)
    return b"\xff" + (code & 0xFFFF).to_bytes(2, "little") + text


def eof_packet(warnings: int, status: int) -> bytes:
    """EOF_Packet (4.1): 0xFE, warnings int<2>, status int<2>. Without warnings, one of a few
    status words: those packets are made once."""
    if warnings == 0:
        packet = _EOF_NO_WARNINGS.get(status)
        if packet is None:
            packet = _EOF_NO_WARNINGS[status] = b"\xfe" + _TWO_U16.pack(0, int(status) & 0xFFFF)
        return packet
    return b"\xfe" + _TWO_U16.pack(min(warnings, 0xFFFF), int(status) & 0xFFFF)


_EOF_NO_WARNINGS: dict[int, bytes] = {}


# --- column definitions ----------------------------------------------------------------------
@functools.lru_cache(maxsize=4096)
def column_definition(col: Column, field_list: bool = False, codec: str = "utf-8",
                      extended: bool = False) -> bytes:
    """Protocol::ColumnDefinition41: catalog "def", schema, table, org_table, name, org_name,
    length of the fixed fields (0x0c), charset int<2>, column length int<4>, type int<1>,
    flags int<2>, decimals int<1>, 2 filler bytes. COM_FIELD_LIST adds the default value
    (NULL here, 0xFB). With MariaDB's extended metadata (`extended`), org_name is followed by
    the length-encoded block of (kind int<1>, value string<lenenc>) pairs: 0 the data type's
    name (point, uuid), 1 its format (json). Cached: result sets repeat the same columns on
    every execution."""
    out = bytearray(b"\x03def")
    if codec == "utf-8":
        out += lenenc_str(col.schema)
        out += lenenc_str(col.table)
        out += lenenc_str(col.org_table or col.table)
        out += lenenc_str(col.name)
        out += lenenc_str(col.name if col.org_name is None else col.org_name)
    else:  # names in the results' character set
        for text in (col.schema, col.table, col.org_table or col.table, col.name,
                     col.name if col.org_name is None else col.org_name):
            out += lenenc_bytes(encode_text(text, codec))
    if extended:
        info = b"".join(bytes((kind,)) + lenenc_str(value) for kind, value in col.extended)
        out += lenenc_int(len(info)) + info
    out += b"\x0c"
    out += struct.pack("<HIBHB", col.charset & 0xFFFF, min(col.length, 0xFFFFFFFF),
                       int(col.type) & 0xFF, int(col.flags) & 0xFFFF, col.decimals & 0xFF)
    out += b"\0\0"
    if field_list:
        out += b"\xfb"
    return bytes(out)


def column_count(n: int) -> bytes:
    return lenenc_int(n)


def prepare_ok_header(statement_id: int, columns: int, params: int, warnings: int) -> bytes:
    """COM_STMT_PREPARE_OK: 0x00, statement id int<4>, columns int<2>, params int<2>, a
    reserved 0x00, warnings int<2>."""
    return b"\x00" + struct.pack("<IHHBH", statement_id & 0xFFFFFFFF, columns, params, 0,
                                 min(warnings, 0xFFFF))


def plain_string(text: str) -> bytes:
    """The COM_STATISTICS reply: the text itself, no header byte."""
    return text.encode("utf-8", "surrogateescape")

