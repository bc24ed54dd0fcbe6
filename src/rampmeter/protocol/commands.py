"""Command phase: one client command packet in, one event out; and the prepared-statement facts
the protocol must remember to decode COM_STMT_EXECUTE (parameter count, bound types, long data).

Rules:
- `decode_command(payload, statements)` is a table from the command byte to a small decoder.
  COM_CHANGE_USER is not here: it re-enters authentication (connection.py).
- A truncated fixed field is a ProtocolViolation (ER_MALFORMED_PACKET); trailing bytes after the
  fields a command defines are ignored, as mysqld ignores them.
- A command naming an unknown statement id raises ServerError 1243 (ER_UNKNOWN_STMT_HANDLER)
  for COM_STMT_EXECUTE only, after the packet was consumed: the caller answers it and the
  connection goes on. COM_STMT_CLOSE/RESET/FETCH pass the id on; the session checks it.
- Text in commands (statement text, names) is passed on as bytes; string parameters of
  COM_STMT_EXECUTE are decoded in the client's character set (`Statements.codec`), and stay
  bytes when they are not valid in it, so that no byte is lost.
- COM_STMT_SEND_LONG_DATA returns no event (mysqld never replies to it): its bytes accumulate
  per parameter and are merged into the next COM_STMT_EXECUTE, then dropped (also by
  COM_STMT_RESET). A problem with long data is remembered and reported by that execute.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rampmeter.errors import (
    ER_UNKNOWN_ERROR,
    ER_UNKNOWN_STMT_HANDLER,
    ER_WRONG_ARGUMENTS,
    ServerError,
)
from rampmeter.protocol import events as ev
from rampmeter.protocol.constants import ColumnType, Command, SetOption
from rampmeter.protocol.results import decode_binary_value, long_data_value
from rampmeter.protocol.wire import Reader

# MariaDB: a COM_STMT_EXECUTE for statement id 0xFFFFFFFF means "the statement prepared last"
# (Connector/C's mariadb_stmt_execute_direct pipelines PREPARE and EXECUTE this way).
LAST_STATEMENT_ID = 0xFFFFFFFF
# In the second type byte of each parameter, 0x80 marks an unsigned integer (protocol docs,
# COM_STMT_EXECUTE).
PARAM_UNSIGNED = 0x80


@dataclass(slots=True)
class Statement:
    param_count: int
    types: list[tuple[int, bool]] | None = None  # (MYSQL_TYPE_*, unsigned) from the last bind
    long_data: dict[int, bytearray] = field(default_factory=dict)
    error: ServerError | None = None  # from COM_STMT_SEND_LONG_DATA, raised by the next execute
    fixed: struct.Struct | None = None  # all bound types fixed-size numbers: one unpack


class Statements:
    """The prepared statements of one connection, as far as the wire needs them."""

    def __init__(self, max_long_data: int) -> None:
        self.max_long_data = max_long_data
        self.codec = "utf-8"  # the client's character set: string parameters are decoded in it
        self._by_id: dict[int, Statement] = {}
        self.last_id: int | None = None

    def register(self, statement_id: int, param_count: int) -> None:
        self._by_id[statement_id] = Statement(param_count)
        self.last_id = statement_id

    def forget(self, statement_id: int) -> None:
        self._by_id.pop(statement_id, None)
        if self.last_id == statement_id:
            self.last_id = None

    def clear(self) -> None:
        self._by_id.clear()
        self.last_id = None

    def get(self, statement_id: int) -> Statement | None:
        return self._by_id.get(statement_id)

    def __contains__(self, statement_id: int) -> bool:
        return statement_id in self._by_id


def _query(payload: bytes, _s: Statements) -> ev.Event:
    return ev.Query(payload[1:])


def _init_db(payload: bytes, _s: Statements) -> ev.Event:
    return ev.InitDb(payload[1:])


def _field_list(payload: bytes, _s: Statements) -> ev.Event:
    """COM_FIELD_LIST: table string[NUL], wildcard string[EOF]."""
    r = Reader(payload, 1)
    table = r.nul_or_rest()
    return ev.FieldList(table, r.rest())


def _process_kill(payload: bytes, _s: Statements) -> ev.Event:
    return ev.ProcessKill(Reader(payload, 1).u32())


def _set_option(payload: bytes, _s: Statements) -> ev.Event:
    option = Reader(payload, 1).u16()
    if option not in (SetOption.MULTI_STATEMENTS_ON, SetOption.MULTI_STATEMENTS_OFF):
        return ev.UnknownCommand(Command.SET_OPTION)  # mysqld: ER_UNKNOWN_COM_ERROR
    return ev.SetOption(option == SetOption.MULTI_STATEMENTS_ON)


def _stmt_prepare(payload: bytes, _s: Statements) -> ev.Event:
    return ev.StmtPrepare(payload[1:])


def _stmt_close(payload: bytes, stmts: Statements) -> ev.Event:
    statement_id = Reader(payload, 1).u32()
    stmts.forget(statement_id)
    return ev.StmtClose(statement_id)


def _stmt_reset(payload: bytes, stmts: Statements) -> ev.Event:
    statement_id = Reader(payload, 1).u32()
    st = stmts.get(statement_id)
    if st is not None:
        st.long_data.clear()
        st.error = None
    return ev.StmtReset(statement_id)


def _stmt_fetch(payload: bytes, _s: Statements) -> ev.Event:
    r = Reader(payload, 1)
    statement_id = r.u32()
    return ev.StmtFetch(statement_id, r.u32())


def _reset_connection(payload: bytes, stmts: Statements) -> ev.Event:
    stmts.clear()  # COM_RESET_CONNECTION closes every prepared statement
    return ev.ResetConnection()


def _send_long_data(payload: bytes, stmts: Statements) -> None:
    """COM_STMT_SEND_LONG_DATA: statement id int<4>, parameter id int<2>, data string[EOF]."""
    r = Reader(payload, 1)
    statement_id, param_id = r.u32(), r.u16()
    st = stmts.get(statement_id)
    if st is None or st.error is not None:
        return None  # nothing to attach it to; mysqld drops it silently too
    if param_id >= st.param_count:
        st.error = ServerError(ER_WRONG_ARGUMENTS, "mysqld_stmt_send_long_data")
        return None
    buf = st.long_data.setdefault(param_id, bytearray())
    if len(buf) + r.remaining > stmts.max_long_data:
        st.long_data.clear()
        # mysqld's Item_param::set_longdata() message, under ER_UNKNOWN_ERROR.
        st.error = ServerError(ER_UNKNOWN_ERROR, message=(
            "Parameter of prepared statement which is set through mysql_send_long_data() "
            "is longer than 'max_allowed_packet' bytes"))
        return None
    buf += r.rest()
    return None


def _stmt_execute(payload: bytes, stmts: Statements) -> ev.Event:
    """COM_STMT_EXECUTE: statement id int<4>, flags int<1>, iteration count int<4> (always 1);
    if the statement has parameters: NULL bitmap ((n+7)/8 bytes), new-params-bound flag int<1>,
    if set n x (type int<1>, flags int<1>), then the non-NULL values not sent as long data.
    (No parameter count/names: we do not offer CLIENT_QUERY_ATTRIBUTES.)"""
    r = Reader(payload, 1)
    if len(payload) < 1 + _EXECUTE_HEAD.size:  # too short: the Reader says how
        r.u32(), r.u8(), r.u32()
    statement_id, flags, _iterations = _EXECUTE_HEAD.unpack_from(payload, 1)
    r.pos = 1 + _EXECUTE_HEAD.size
    if statement_id == LAST_STATEMENT_ID and stmts.last_id is not None:
        statement_id = stmts.last_id
    st = stmts.get(statement_id)
    if st is None:
        raise ServerError(ER_UNKNOWN_STMT_HANDLER, statement_id, "mysqld_stmt_execute")
    try:
        if st.error is not None:
            raise st.error
        params = _decode_params(r, st, stmts.codec) if st.param_count else ()
    finally:
        st.long_data.clear()
        st.error = None
    return ev.StmtExecute(statement_id, flags, params)


def _decode_params(r: Reader, st: Statement, st_codec: str) -> tuple[Any, ...]:
    n = st.param_count
    nulls = r.fixed((n + 7) // 8)
    if r.u8():
        st.types = [(r.u8(), bool(r.u8() & PARAM_UNSIGNED)) for _ in range(n)]
        st.fixed = _fixed_struct(st.types)
    elif st.types is None:
        # Nothing bound yet, so the values cannot be decoded: a statement error, our choice
        # of code (the packet itself is well formed).
        raise ServerError(ER_WRONG_ARGUMENTS, "mysqld_stmt_execute")
    long_data = st.long_data
    fixed = st.fixed
    if fixed is not None and not long_data and not any(nulls):
        # the usual execute (ids, numbers): every value in one unpack
        try:
            values = fixed.unpack_from(r.data, r.pos)
        except struct.error:
            pass  # truncated: the value-by-value path below reports it
        else:
            r.pos += fixed.size
            return values
    params: list[Any] = []
    for i, (type_code, unsigned) in enumerate(st.types):
        if nulls[i >> 3] & (1 << (i & 7)):
            params.append(None)
        elif i in long_data:
            params.append(long_data_value(bytes(long_data[i]), type_code, st_codec))
        else:
            params.append(decode_binary_value(r, type_code, unsigned, st_codec))
    return tuple(params)


_EXECUTE_HEAD = struct.Struct("<IBI")  # statement id, flags, iteration count
# MYSQL_TYPE_* -> struct codes (signed, unsigned) of the fixed-size numbers (results.py decodes
# them one by one with the same formats)
_FIXED_CODES: dict[int, str] = {
    ColumnType.TINY: "bB", ColumnType.SHORT: "hH", ColumnType.YEAR: "hH", ColumnType.LONG: "iI",
    ColumnType.INT24: "iI", ColumnType.LONGLONG: "qQ", ColumnType.DOUBLE: "dd",
    ColumnType.FLOAT: "ff"}


def _fixed_struct(types: list[tuple[int, bool]]) -> struct.Struct | None:
    """One struct for the whole parameter list when every type is a fixed-size number."""
    codes = []
    for type_code, unsigned in types:
        pair = _FIXED_CODES.get(type_code)
        if pair is None:
            return None
        codes.append(pair[unsigned])
    return struct.Struct("<" + "".join(codes))


_SIMPLE: dict[int, Callable[[], ev.Event]] = {
    Command.QUIT: ev.Quit,
    Command.PING: ev.Ping,
    Command.STATISTICS: ev.Statistics,
}

_DECODERS: dict[int, Callable[[bytes, Statements], ev.Event | None]] = {
    Command.QUERY: _query,
    Command.INIT_DB: _init_db,
    Command.FIELD_LIST: _field_list,
    Command.PROCESS_KILL: _process_kill,
    Command.SET_OPTION: _set_option,
    Command.STMT_PREPARE: _stmt_prepare,
    Command.STMT_EXECUTE: _stmt_execute,
    Command.STMT_SEND_LONG_DATA: _send_long_data,
    Command.STMT_CLOSE: _stmt_close,
    Command.STMT_RESET: _stmt_reset,
    Command.STMT_FETCH: _stmt_fetch,
    Command.RESET_CONNECTION: _reset_connection,
}


def decode_command(payload: bytes, statements: Statements) -> ev.Event | None:
    """The event for one command packet; None for COM_STMT_SEND_LONG_DATA. An empty packet is
    COM_SLEEP, as mysqld's do_command() treats it, hence an unknown command."""
    if not payload:
        return ev.UnknownCommand(Command.SLEEP)
    command = payload[0]
    simple = _SIMPLE.get(command)
    if simple is not None:
        return simple()
    decoder = _DECODERS.get(command)
    if decoder is None:
        return ev.UnknownCommand(command)
    return decoder(payload, statements)
