"""commands.py through connection.py: every command packet -> its event, the replies the simple
commands take, and the prepared-statement bookkeeping (COM_STMT_PREPARE/EXECUTE with every
binary parameter type, SEND_LONG_DATA, CLOSE, RESET, FETCH)."""

from __future__ import annotations

import datetime as dt
import math
import struct
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rampmeter.errors import ProtocolViolation, ServerError
from rampmeter.protocol import NEED_DATA
from rampmeter.protocol import events as ev
from rampmeter.protocol.columns import Column, int_column, text_column
from rampmeter.protocol.connection import Phase
from rampmeter.protocol.constants import (
    CHARSET_BINARY,
    Capability,
    ColumnFlag,
    ColumnType,
    Command,
    ServerStatus,
)
from rampmeter.protocol.results import decode_binary_value
from rampmeter.protocol.wire import Reader
from tests.unit.protocol.client import (
    CLIENT_CAPS,
    Eof,
    Ok,
    Pair,
    encode_param,
    parse_column,
    parse_generic,
    stmt_execute,
)
from tests.unit.protocol.conftest import fresh_pair

MakePair = Callable[..., Pair]
T = ColumnType
AUTOCOMMIT = ServerStatus.AUTOCOMMIT


def _reply_ok(pair: Pair, **kw: object) -> Ok:
    pair.client.receive(pair.server.ok(status=AUTOCOMMIT, **kw))  # type: ignore[arg-type]
    result = parse_generic(pair.client.read())
    assert isinstance(result, Ok)
    return result


def _prepare(pair: Pair, stmt_id: int, params: int, columns: list[Column] | None = None) -> None:
    assert pair.command(b"\x16SELECT ?") == [ev.StmtPrepare(b"SELECT ?")]
    pair.client.receive(pair.server.prepare_ok(stmt_id, params, columns or []))
    pair.client.inbox.clear()


def _execute(pair: Pair, payload: bytes) -> ev.StmtExecute:
    [event] = pair.command(payload)
    assert isinstance(event, ev.StmtExecute)
    return event


# --- simple commands -------------------------------------------------------------------------
def test_query(pair: Pair) -> None:
    assert pair.command(b"\x03SELECT 'h\xc3\xa9'") == [ev.Query("SELECT 'hé'".encode())]
    ok = pair.server.ok(3, 42, status=AUTOCOMMIT, warnings=1, info="Records: 3")
    assert ok == b"\x12\x00\x00\x01" + b"\x00\x03\x2a\x02\x00\x01\x00\x0aRecords: 3"


def test_query_with_invalid_utf8_keeps_the_bytes(pair: Pair) -> None:
    [event] = pair.command(b"\x03SELECT '\xff'")
    assert isinstance(event, ev.Query)
    assert event.sql == b"SELECT '\xff'"  # bytes: the session decodes them in the client's set


def test_empty_query(pair: Pair) -> None:
    assert pair.command(b"\x03") == [ev.Query(b"")]


def test_init_db(pair: Pair) -> None:
    assert pair.command(b"\x02shop") == [ev.InitDb(b"shop")]
    assert _reply_ok(pair) == Ok(0, 0, AUTOCOMMIT, 0, b"", 0)


def test_ping(pair: Pair) -> None:
    assert pair.command(b"\x0e") == [ev.Ping()]
    assert pair.server.ok(status=AUTOCOMMIT) == b"\x07\x00\x00\x01\x00\x00\x00\x02\x00\x00\x00"


def test_quit_then_eof(pair: Pair) -> None:
    assert pair.command(b"\x01") == [ev.Quit()]
    pair.server.receive_data(b"")
    assert pair.server.next_event() == ev.ConnectionClosed()
    assert pair.server.phase is Phase.CLOSED
    assert not pair.server.has_buffered_input


def test_statistics(pair: Pair) -> None:
    assert pair.command(b"\x09") == [ev.Statistics()]
    text = "Uptime: 5  Threads: 1  Questions: 2"
    assert pair.server.statistics(text) == bytes((len(text), 0, 0, 1)) + text.encode()


def test_process_kill(pair: Pair) -> None:
    assert pair.command(b"\x0c\x2a\x00\x00\x80") == [ev.ProcessKill(0x8000002A)]


def test_process_kill_truncated(pair: Pair) -> None:
    pair.server.receive_data(pair.client.send(b"\x0c\x2a\x00", command=True))
    with pytest.raises(ProtocolViolation) as info:
        pair.server.next_event()
    assert info.value.code == 1835
    assert pair.server.phase is Phase.ERROR
    assert pair.server.error_from(info.value)[3] == 1


def test_reset_connection_forgets_statements(pair: Pair) -> None:
    _prepare(pair, 1, 0)
    assert pair.command(b"\x1f") == [ev.ResetConnection()]
    _reply_ok(pair)
    pair.server.receive_data(pair.client.send(stmt_execute(1, []), command=True))
    with pytest.raises(ServerError) as info:
        pair.server.next_event()
    assert info.value.code == 1243


@pytest.mark.parametrize(("option", "multi"), [(0, True), (1, False)])
def test_set_option(pair: Pair, option: int, multi: bool) -> None:
    assert pair.command(b"\x1b" + struct.pack("<H", option)) == [ev.SetOption(multi)]
    # mysqld answers with my_eof(): a 4.1 EOF packet without DEPRECATE_EOF.
    assert pair.server.eof_or_ok(status=AUTOCOMMIT) == b"\x05\x00\x00\x01\xfe\x00\x00\x02\x00"


def test_set_option_with_deprecate_eof(make_pair: MakePair) -> None:
    p = make_pair(client_caps=CLIENT_CAPS | Capability.DEPRECATE_EOF)
    p.login("root", b"")
    assert p.command(b"\x1b\x01\x00") == [ev.SetOption(False)]
    data = p.server.eof_or_ok(status=AUTOCOMMIT, warnings=2)
    assert data == b"\x07\x00\x00\x01\xfe\x00\x00\x02\x00\x02\x00"
    p.client.receive(data)
    assert parse_generic(p.client.read(), deprecate_eof=True) == Ok(0, 0, 2, 2, b"", 0xFE)


def test_set_option_unknown_value(pair: Pair) -> None:
    assert pair.command(b"\x1b\x07\x00") == [ev.UnknownCommand(Command.SET_OPTION)]


def test_field_list(pair: Pair) -> None:
    assert pair.command(b"\x04t1\0col%") == [ev.FieldList(b"t1", b"col%")]
    cols = [int_column("id", table="t1", schema="db"), text_column("name", table="t1")]
    pair.client.receive(pair.server.field_list(cols))
    first = parse_column(pair.client.read(), field_list=True)
    assert (first.schema, first.table, first.org_table, first.name, first.org_name) == (
        "db", "t1", "t1", "id", "id")
    assert (first.type, first.charset, first.default) == (T.LONGLONG, CHARSET_BINARY, None)
    second = parse_column(pair.client.read(), field_list=True)
    assert (second.name, second.type, second.length) == ("name", T.VAR_STRING, 4096)
    assert parse_generic(pair.client.read()) == Eof(0, AUTOCOMMIT)
    assert not pair.client.inbox


def test_field_list_without_wildcard(pair: Pair) -> None:
    assert pair.command(b"\x04t1\0") == [ev.FieldList(b"t1", b"")]
    assert pair.command(b"\x04t2") == [ev.FieldList(b"t2", b"")]


@pytest.mark.parametrize("payload", [b"\x20", b"\x08", b"\x00", b"\x05db", b"\xff", b""])
def test_unknown_commands(pair: Pair, payload: bytes) -> None:
    assert pair.command(payload) == [ev.UnknownCommand(payload[0] if payload else 0)]
    err = pair.server.error(1047, "08S01", "Unknown command")
    assert err[3] == 1 and err[4:7] == b"\xff\x17\x04"


def test_command_with_wrong_sequence_id(pair: Pair) -> None:
    pair.server.receive_data(b"\x01\x00\x00\x01\x0e")  # COM_PING with seq 1
    with pytest.raises(ProtocolViolation) as info:
        pair.server.next_event()
    assert info.value.code == 1156


def test_command_over_max_allowed_packet(make_pair: MakePair) -> None:
    p = make_pair(max_allowed_packet=1024)
    p.login("root", b"")
    assert p.command(b"\x03" + b"x" * 1023) == [ev.Query(b"x" * 1023)]
    _reply_ok(p)
    p.server.receive_data(b"\x01\x04\x00\x00")  # the header of a 1025-byte command
    with pytest.raises(ProtocolViolation) as info:
        p.server.next_event()
    assert info.value.code == 1153
    err = p.server.error_from(info.value)
    assert err[3] == 1 and err[4:7] == b"\xff\x81\x04"


def test_max_allowed_packet_can_change_between_commands(pair: Pair) -> None:
    pair.server.max_allowed_packet = 10
    assert pair.server.max_allowed_packet == 10
    assert pair.command(b"\x03" + b"y" * 9) == [ev.Query(b"y" * 9)]
    _reply_ok(pair)
    pair.server.receive_data(pair.client.send(b"\x03" + b"y" * 10, command=True))
    with pytest.raises(ProtocolViolation) as info:
        pair.server.next_event()
    assert info.value.code == 1153


# --- COM_STMT_PREPARE ------------------------------------------------------------------------
def test_prepare_ok_packets(pair: Pair) -> None:
    assert pair.command(b"\x16SELECT id FROM t WHERE a=? AND b=?") == [
        ev.StmtPrepare(b"SELECT id FROM t WHERE a=? AND b=?")]
    data = pair.server.prepare_ok(0x01020304, 2, [int_column("id")], warnings=3)
    pair.client.receive(data)
    assert pair.client.read() == b"\x00\x04\x03\x02\x01\x01\x00\x02\x00\x00\x03\x00"
    for _ in range(2):
        param = parse_column(pair.client.read())
        assert (param.name, param.type, param.charset, param.flags) == (
            "?", T.VAR_STRING, CHARSET_BINARY, ColumnFlag.BINARY)
    assert parse_generic(pair.client.read()) == Eof(0, AUTOCOMMIT)
    assert parse_column(pair.client.read()).name == "id"
    assert parse_generic(pair.client.read()) == Eof(0, AUTOCOMMIT)
    assert not pair.client.inbox


def test_prepare_ok_without_params_or_columns(pair: Pair) -> None:
    pair.command(b"\x16DO 1")
    data = pair.server.prepare_ok(9, 0, [])
    assert data == b"\x0c\x00\x00\x01\x00\x09\x00\x00\x00" + bytes(7)


def test_prepare_ok_with_deprecate_eof(make_pair: MakePair) -> None:
    p = make_pair(client_caps=CLIENT_CAPS | Capability.DEPRECATE_EOF)
    p.login("root", b"")
    p.command(b"\x16SELECT ?")
    p.client.receive(p.server.prepare_ok(1, 1, [int_column("c")]))
    assert p.client.read()[:1] == b"\x00"
    assert parse_column(p.client.read()).name == "?"
    assert parse_column(p.client.read()).name == "c"
    assert not p.client.inbox  # no EOF after either list


# --- COM_STMT_EXECUTE: parameter types ---------------------------------------------------------
ALL_TYPES: list[tuple[int, bool, object]] = [
    (T.TINY, False, -128), (T.TINY, True, 255),
    (T.SHORT, False, -32768), (T.SHORT, True, 65535),
    (T.INT24, False, -8388608), (T.YEAR, True, 2024),
    (T.LONG, False, -2**31), (T.LONG, True, 2**32 - 1),
    (T.LONGLONG, False, -2**63), (T.LONGLONG, True, 2**64 - 1),
    (T.DOUBLE, False, -1.5e300),
    (T.NEWDECIMAL, False, "-12345678901234567890.000000001"), (T.DECIMAL, False, "3.14"),
    (T.VAR_STRING, False, "grüße"), (T.STRING, False, "x" * 300), (T.VARCHAR, False, ""),
    (T.BLOB, False, b"\x00\xff" * 200), (T.TINY_BLOB, False, b"\x01"),
    (T.MEDIUM_BLOB, False, b""), (T.LONG_BLOB, False, b"\xfe" * 70000),
    (T.BIT, False, b"\x05"), (T.GEOMETRY, False, b"\x00\x00\x00\x00\x01"),
    (T.JSON, False, '{"a": 1}'), (T.ENUM, False, "red"),
    (T.DATE, False, dt.date(2024, 2, 29)),
    (T.DATETIME, False, dt.datetime(1999, 12, 31, 23, 59, 58)),
    (T.DATETIME, False, dt.datetime(2000, 1, 2, 3, 4, 5, 678901)),
    (T.TIMESTAMP, False, dt.datetime(2038, 1, 19, 3, 14, 7)),
    (T.TIME, False, dt.timedelta(days=-2, hours=3, microseconds=5)),
    (T.TIME, False, dt.timedelta(hours=838, minutes=59, seconds=59)),
    (T.NULL, False, None), (T.LONG, False, None), (T.VAR_STRING, False, None),
]


def test_execute_every_parameter_type(make_pair: MakePair) -> None:
    p = make_pair(max_allowed_packet=1 << 20)
    p.login("root", b"")
    _prepare(p, 7, len(ALL_TYPES))
    event = _execute(p, stmt_execute(7, ALL_TYPES, flags=0))
    assert event.statement_id == 7 and event.flags == 0
    assert event.params == tuple(v for _, _, v in ALL_TYPES)
    assert type(event.params[0]) is int
    assert type(event.params[11]) is str and type(event.params[16]) is bytes


def test_execute_float_parameter(pair: Pair) -> None:
    _prepare(pair, 1, 2)
    event = _execute(pair, stmt_execute(1, [(T.FLOAT, False, 1.25), (T.FLOAT, False, -0.1)]))
    assert event.params[0] == 1.25
    assert math.isclose(event.params[1], -0.1, rel_tol=1e-7)
    assert event.params[1] == struct.unpack("<f", struct.pack("<f", -0.1))[0]


def test_execute_null_bitmap_beyond_eight_params(pair: Pair) -> None:
    params = [(T.LONG, False, None if i % 3 == 0 else i) for i in range(11)]
    _prepare(pair, 3, 11)
    payload = stmt_execute(3, params)
    assert payload[10:12] == bytes((0b01001001, 0b00000010))  # params 0, 3, 6, 9 are NULL
    assert _execute(pair, payload).params == tuple(v for _, _, v in params)


def test_execute_reuses_the_types_bound_before(pair: Pair) -> None:
    _prepare(pair, 2, 2)
    first = [(T.LONGLONG, True, 2**64 - 1), (T.VAR_STRING, False, "a")]
    assert _execute(pair, stmt_execute(2, first)).params == (2**64 - 1, "a")
    _reply_ok(pair)
    second = [(T.LONGLONG, True, 5), (T.VAR_STRING, False, "bcd")]
    payload = stmt_execute(2, second, bound=False)
    assert payload[11] == 0  # new-params-bound flag off, no types follow
    assert len(payload) == 12 + 8 + 4
    assert _execute(pair, payload).params == (5, "bcd")
    _reply_ok(pair)
    # Rebinding changes the types: now the first is a signed TINY.
    third = [(T.TINY, False, -1), (T.BLOB, False, b"z")]
    assert _execute(pair, stmt_execute(2, third)).params == (-1, b"z")


def test_execute_without_any_bound_types(pair: Pair) -> None:
    _prepare(pair, 2, 1)
    pair.server.receive_data(pair.client.send(stmt_execute(2, [(T.LONG, False, 1)],
                                                           bound=False), command=True))
    with pytest.raises(ServerError) as info:
        pair.server.next_event()
    assert info.value.code == 1210  # ER_WRONG_ARGUMENTS
    assert pair.server.phase is Phase.COMMAND
    assert pair.server.error_from(info.value)[3] == 1


def test_execute_without_params(pair: Pair) -> None:
    _prepare(pair, 4, 0, [int_column("one")])
    payload = stmt_execute(4, [], flags=1)
    assert payload == b"\x17\x04\x00\x00\x00\x01\x01\x00\x00\x00"
    assert _execute(pair, payload) == ev.StmtExecute(4, 1, ())


def test_execute_unknown_statement(pair: Pair) -> None:
    pair.server.receive_data(pair.client.send(stmt_execute(99, []), command=True))
    with pytest.raises(ServerError) as info:
        pair.server.next_event()
    assert not isinstance(info.value, ProtocolViolation)
    assert info.value.code == 1243
    assert "99" in info.value.message
    assert pair.command(b"\x0e") == [ev.Ping()]  # the connection goes on


def test_execute_last_prepared_statement_id(pair: Pair) -> None:
    _prepare(pair, 11, 1)
    _prepare(pair, 12, 1)
    event = _execute(pair, stmt_execute(0xFFFFFFFF, [(T.LONG, False, 5)]))
    assert event == ev.StmtExecute(12, 0, (5,))


def test_execute_zero_and_short_temporals(pair: Pair) -> None:
    """Zero dates travel as length 0 and come out as text; TIME of length 0 and 8 too."""
    _prepare(pair, 1, 6)
    types = [T.DATETIME, T.DATE, T.DATETIME, T.DATE, T.TIME, T.TIME]
    payload = (b"\x17\x01\x00\x00\x00\x00\x01\x00\x00\x00" + b"\x00\x01"
               + b"".join(bytes((t, 0)) for t in types)
               + b"\x00" + b"\x00" + struct.pack("<BHBB", 4, 2024, 0, 0)
               + struct.pack("<BHBBBBB", 7, 2024, 5, 6, 7, 8, 9)
               + b"\x00" + struct.pack("<BBIBBB", 8, 1, 1, 2, 3, 4))
    event = _execute(pair, payload)
    assert event.params == ("0000-00-00 00:00:00", "0000-00-00", "2024-00-00 00:00:00",
                            dt.date(2024, 5, 6), dt.timedelta(0),
                            -dt.timedelta(days=1, hours=2, minutes=3, seconds=4))


def test_execute_datetime_zero_date_keeps_the_time_text() -> None:
    raw = struct.pack("<BHBBBBBI", 11, 0, 0, 0, 1, 2, 3, 40)
    assert decode_binary_value(Reader(raw), T.DATETIME, False) == "0000-00-00 01:02:03.000040"


@pytest.mark.parametrize(("type_", "raw"), [
    (T.LONG, b"\x01\x02"),  # truncated int
    (T.DOUBLE, b"\x00" * 7),
    (T.DATETIME, b"\x05\x00\x00\x00\x00\x00"),  # invalid length 5
    (T.TIME, b"\x07" + bytes(7)),  # invalid length 7
    (T.VAR_STRING, b"\x05ab"),  # string shorter than its length
])
def test_execute_malformed_values(pair: Pair, type_: int, raw: bytes) -> None:
    _prepare(pair, 1, 1)
    payload = b"\x17\x01\x00\x00\x00\x00\x01\x00\x00\x00" + b"\x00\x01" + bytes((type_, 0)) + raw
    pair.server.receive_data(pair.client.send(payload, command=True))
    with pytest.raises(ProtocolViolation) as info:
        pair.server.next_event()
    assert info.value.code == 1835


# --- long data ---------------------------------------------------------------------------------
def _long_data(stmt_id: int, param: int, data: bytes) -> bytes:
    return b"\x18" + struct.pack("<IH", stmt_id, param) + data


def test_send_long_data_then_execute(pair: Pair) -> None:
    _prepare(pair, 5, 3)
    assert pair.command(_long_data(5, 0, b"\x00\x01")) == []  # no event, no reply
    assert pair.command(_long_data(5, 0, b"\x02" * 300)) == []
    assert pair.command(_long_data(5, 2, "ü".encode())) == []
    assert pair.command(_long_data(5, 2, b"ber")) == []
    assert pair.server.data_to_send() == b""
    params = [(T.BLOB, False, b"ignored"), (T.LONG, False, 7), (T.VAR_STRING, False, "ignored")]
    payload = stmt_execute(5, params, long_data=frozenset({0, 2}))
    assert payload.endswith(encode_param(T.LONG, 7))
    event = _execute(pair, payload)
    assert event.params == (b"\x00\x01" + b"\x02" * 300, 7, "über")
    assert pair.server.ok(status=AUTOCOMMIT)[3] == 1
    # Long data is used once: the next execute decodes values from the packet again.
    again = _execute(pair, stmt_execute(5, [(T.BLOB, False, b"b"), (T.LONG, False, 8),
                                            (T.VAR_STRING, False, "s")]))
    assert again.params == (b"b", 8, "s")


def test_long_data_for_a_numeric_parameter_is_text(pair: Pair) -> None:
    _prepare(pair, 5, 1)
    pair.command(_long_data(5, 0, b"12345"))
    event = _execute(pair, stmt_execute(5, [(T.LONGLONG, False, 0)], long_data=frozenset({0})))
    assert event.params == ("12345",)


def test_long_data_and_null_bit(pair: Pair) -> None:
    _prepare(pair, 5, 1)
    pair.command(_long_data(5, 0, b"data"))
    assert _execute(pair, stmt_execute(5, [(T.BLOB, False, None)])).params == (None,)


def test_stmt_reset_drops_long_data(pair: Pair) -> None:
    _prepare(pair, 6, 1)
    pair.command(_long_data(6, 0, b"old"))
    assert pair.command(b"\x1a\x06\x00\x00\x00") == [ev.StmtReset(6)]
    assert _reply_ok(pair) == Ok(0, 0, AUTOCOMMIT, 0, b"", 0)
    event = _execute(pair, stmt_execute(6, [(T.BLOB, False, b"new")]))
    assert event.params == (b"new",)


def test_stmt_reset_of_an_unknown_statement_is_passed_on(pair: Pair) -> None:
    assert pair.command(b"\x1a\x63\x00\x00\x00") == [ev.StmtReset(99)]


def test_long_data_for_a_parameter_out_of_range(pair: Pair) -> None:
    _prepare(pair, 5, 1)
    pair.command(_long_data(5, 1, b"x"))
    pair.command(_long_data(5, 0, b"y"))  # ignored: the statement already has an error
    pair.server.receive_data(pair.client.send(
        stmt_execute(5, [(T.BLOB, False, b"z")]), command=True))
    with pytest.raises(ServerError) as info:
        pair.server.next_event()
    assert info.value.code == 1210
    assert "mysqld_stmt_send_long_data" in info.value.message
    pair.client.receive(pair.server.error_from(info.value))
    pair.client.inbox.clear()
    # The error is reported once; the statement works again.
    assert _execute(pair, stmt_execute(5, [(T.BLOB, False, b"z")])).params == (b"z",)


def test_long_data_over_max_allowed_packet(make_pair: MakePair) -> None:
    p = make_pair(max_allowed_packet=1000)
    p.login("root", b"")
    _prepare(p, 5, 1)
    p.command(_long_data(5, 0, b"a" * 900))
    p.command(_long_data(5, 0, b"a" * 101))
    p.server.receive_data(p.client.send(stmt_execute(5, [(T.BLOB, False, b"")],
                                                     long_data=frozenset({0})), command=True))
    with pytest.raises(ServerError) as info:
        p.server.next_event()
    assert info.value.code == 1105
    assert "max_allowed_packet" in info.value.message


def test_long_data_for_an_unknown_statement_is_dropped(pair: Pair) -> None:
    assert pair.command(_long_data(77, 0, b"x")) == []
    assert pair.server.data_to_send() == b""
    assert pair.command(b"\x0e") == [ev.Ping()]


def test_long_data_truncated_header(pair: Pair) -> None:
    pair.server.receive_data(pair.client.send(b"\x18\x01\x00\x00\x00\x00", command=True))
    with pytest.raises(ProtocolViolation):
        pair.server.next_event()


# --- COM_STMT_CLOSE / FETCH ----------------------------------------------------------------------
def test_stmt_close_forgets_and_sends_nothing(pair: Pair) -> None:
    _prepare(pair, 8, 0)
    assert pair.command(b"\x19\x08\x00\x00\x00") == [ev.StmtClose(8)]
    assert pair.server.data_to_send() == b""
    # Pipelined: the client does not wait after COM_STMT_CLOSE.
    pair.server.receive_data(pair.client.send(stmt_execute(8, []), command=True))
    with pytest.raises(ServerError) as info:
        pair.server.next_event()
    assert info.value.code == 1243


def test_forget_statement(pair: Pair) -> None:
    _prepare(pair, 8, 0)
    pair.server.forget_statement(8)
    pair.server.receive_data(pair.client.send(stmt_execute(8, []), command=True))
    with pytest.raises(ServerError):
        pair.server.next_event()


def test_stmt_fetch(pair: Pair) -> None:
    assert pair.command(b"\x1c\x03\x00\x00\x00\x64\x00\x00\x00") == [ev.StmtFetch(3, 100)]


# --- pipelining and chunked input ----------------------------------------------------------------
def test_two_commands_in_one_read(pair: Pair) -> None:
    data = pair.client.send(b"\x0e", command=True) + pair.client.send(b"\x03SELECT 1",
                                                                      command=True)
    assert pair.to_server(data) == [ev.Ping()]
    assert pair.server.has_buffered_input
    assert pair.server.ok(status=AUTOCOMMIT)[3] == 1
    assert pair.next_events() == [ev.Query(b"SELECT 1")]
    assert pair.next_events() == []
    assert not pair.server.has_buffered_input


def test_events_are_immutable() -> None:
    e = ev.Query(b"x")
    with pytest.raises(AttributeError):
        e.sql = "y"  # type: ignore[misc]
    assert NEED_DATA is type(NEED_DATA)()


# --- COM_STMT_EXECUTE: hypothesis over bound values ------------------------------------------------
def _int_param(type_: int, size: int) -> st.SearchStrategy[tuple[int, bool, object]]:
    bits = 8 * size
    return st.booleans().flatmap(lambda unsigned: st.tuples(
        st.just(type_), st.just(unsigned),
        st.integers(0, 2**bits - 1) if unsigned else st.integers(-(2**(bits - 1)),
                                                                  2**(bits - 1) - 1)))


PARAMS = st.one_of(
    _int_param(T.TINY, 1), _int_param(T.SHORT, 2), _int_param(T.LONG, 4),
    _int_param(T.LONGLONG, 8),
    st.tuples(st.just(T.DOUBLE), st.just(False), st.floats(allow_nan=False)),
    st.tuples(st.sampled_from([T.VAR_STRING, T.STRING, T.VARCHAR, T.NEWDECIMAL]),
              st.just(False), st.text(max_size=300)),
    st.tuples(st.sampled_from([T.BLOB, T.TINY_BLOB, T.MEDIUM_BLOB, T.LONG_BLOB]),
              st.just(False), st.binary(max_size=300)),
    st.tuples(st.just(T.DATE), st.just(False), st.dates()),
    st.tuples(st.sampled_from([T.DATETIME, T.TIMESTAMP]), st.just(False), st.datetimes()),
    st.tuples(st.just(T.TIME), st.just(False),
              st.timedeltas(min_value=-dt.timedelta(days=30), max_value=dt.timedelta(days=30))),
    st.tuples(st.sampled_from([T.LONG, T.VAR_STRING, T.BLOB]), st.just(False), st.none()),
)


@settings(max_examples=100, deadline=None)
@given(st.lists(PARAMS, min_size=1, max_size=20), st.booleans())
def test_execute_params_round_trip(params: list[tuple[int, bool, object]], twice: bool) -> None:
    p = fresh_pair(max_allowed_packet=1 << 20)
    _prepare(p, 1, len(params))
    event = _execute(p, stmt_execute(1, params))
    assert event.params == tuple(v for _, _, v in params)
    if twice:  # the same types again, not re-sent
        _reply_ok(p)
        event = _execute(p, stmt_execute(1, params, bound=False))
        assert event.params == tuple(v for _, _, v in params)
