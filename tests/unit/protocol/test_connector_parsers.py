"""A second real client's view: mysql-connector-python's pure-Python MySQLProtocol parses our
greeting, OK/EOF packets, column definitions and binary rows, and builds the handshake response
and COM_STMT_EXECUTE packets our server decodes (PyMySQL has no binary protocol)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from mysql.connector import errors as connector_errors
from mysql.connector.constants import ClientFlag
from mysql.connector.protocol import MySQLProtocol

from rampmeter.protocol import events as ev
from rampmeter.protocol import packets as pk
from rampmeter.protocol.columns import (
    Column,
    blob_column,
    double_column,
    int_column,
    text_column,
)
from rampmeter.protocol.constants import (
    CHARSET_BINARY,
    SERVER_CAPABILITIES,
    ColumnFlag,
    ColumnType,
    ServerStatus,
)
from tests.unit.protocol.client import Pair, frame, unframe

AUTOCOMMIT = ServerStatus.AUTOCOMMIT
CONNECTOR_FLAGS = (ClientFlag.get_default() | ClientFlag.CONNECT_ARGS
                   | ClientFlag.PLUGIN_AUTH_LENENC_CLIENT_DATA) & ~ClientFlag.SSL


def _framed(payload: bytes) -> bytes:
    return b"\0\0\0\0" + payload  # the parsers skip a 4-byte header they do not check


def _login(make_pair: Any, user: str = "alice", password: str = "secret") -> Pair:
    p = make_pair()
    greeting = p.server.greeting()
    hs = MySQLProtocol.parse_handshake(greeting)
    # MariaDB's RPL_VERSION_HACK: clients for MySQL must read 5.5, not 10 (packets.py)
    assert hs["server_version_original"] == "5.5.5-10.11.6-MariaDB-rampmeter"
    assert hs["auth_data"] == p.server.scramble
    assert hs["auth_plugin"] == "mysql_native_password"
    # the connector reads the classic 32 bits; the high ones are MariaDB's extended set
    assert hs["capabilities"] == SERVER_CAPABILITIES & 0xFFFFFFFF
    assert (hs["server_threadid"], hs["charset"], hs["server_status"]) == (7, 45, AUTOCOMMIT)
    payload, _ = MySQLProtocol.make_auth(hs, user, password, database="shop",
                                         client_flags=int(CONNECTOR_FLAGS),
                                         conn_attrs={"_client_name": "mysql-connector-python"})
    p.server.receive_data(frame(payload, 1))
    event = p.server.next_event()
    assert event == ev.Authenticated(user, "shop", "mysql_native_password",
                                     p.server.client_capabilities,
                                     {"_client_name": "mysql-connector-python"}, False, 45)
    ok = MySQLProtocol.parse_ok(p.server.ok(status=AUTOCOMMIT))
    assert (ok["affected_rows"], ok["status_flag"]) == (0, AUTOCOMMIT)
    return p


def test_connector_handshake_and_login(make_pair: Any) -> None:
    p = _login(make_pair)
    assert p.server.client_capabilities & ClientFlag.CONNECT_WITH_DB


def test_connector_parses_ok_with_info() -> None:
    payload = pk.ok_packet(3, 7, AUTOCOMMIT | ServerStatus.IN_TRANS, 2,
                           "Rows matched: 3  Changed: 3  Warnings: 0", SERVER_CAPABILITIES)
    assert MySQLProtocol.parse_ok(_framed(payload)) == {
        "field_count": 0, "affected_rows": 3, "insert_id": 7, "status_flag": 3,
        "warning_count": 2, "info_msg": "Rows matched: 3  Changed: 3  Warnings: 0"}
    long_info = "ü" * 200  # 400 bytes: a 3-byte length prefix
    parsed = MySQLProtocol.parse_ok(_framed(pk.ok_packet(0, 0, 0, 0, long_info,
                                                         SERVER_CAPABILITIES)))
    assert parsed["info_msg"] == long_info


def test_connector_parses_eof_and_prepare_ok() -> None:
    assert MySQLProtocol().parse_eof(_framed(pk.eof_packet(4, AUTOCOMMIT))) == {
        "warning_count": 4, "status_flag": AUTOCOMMIT}
    assert MySQLProtocol.parse_binary_prepare_ok(_framed(pk.prepare_ok_header(9, 2, 3, 1))) == {
        "statement_id": 9, "num_columns": 2, "num_params": 3, "warning_count": 1}


def test_connector_parses_column_definitions() -> None:
    col = Column("price", ColumnType.NEWDECIMAL, 12, ColumnFlag.NOT_NULL, 2, CHARSET_BINARY,
                 table="t", schema="db")
    desc = MySQLProtocol.parse_column(_framed(pk.column_definition(col)))
    assert desc == ("price", ColumnType.NEWDECIMAL, None, None, None, None, 0,
                    ColumnFlag.NOT_NULL, CHARSET_BINARY)


COLUMNS = [
    Column("t", ColumnType.TINY), Column("tu", ColumnType.TINY, flags=ColumnFlag.UNSIGNED),
    Column("s", ColumnType.SHORT), Column("l", ColumnType.LONG),
    int_column("q"), int_column("qu", flags=ColumnFlag.UNSIGNED),
    Column("f", ColumnType.FLOAT), double_column("d"),
    Column("m", ColumnType.NEWDECIMAL, 20, 0, 3, CHARSET_BINARY),
    text_column("txt"), blob_column("b"),
    Column("dd", ColumnType.DATE, 10, 0, 0, CHARSET_BINARY),
    Column("dt", ColumnType.DATETIME, 26, 0, 6, CHARSET_BINARY),
    Column("ts", ColumnType.TIMESTAMP, 19, 0, 0, CHARSET_BINARY),
    Column("tm", ColumnType.TIME, 17, 0, 6, CHARSET_BINARY),
]
ROW = (-128, 255, -32768, -(2**31), -(2**63), 2**64 - 1, 0.5, -1e300, Decimal("-1.250"),
       "naïve", b"\x00\xfb\xff", dt.date(2024, 2, 29), dt.datetime(2001, 2, 3, 4, 5, 6, 7),
       dt.datetime(2038, 1, 19, 3, 14, 7), dt.timedelta(hours=30, microseconds=9))
# (A positive TIME: the connector's _parse_binary_time negates only the days of a negative
# one; our sign + magnitude layout is the protocol's and test_results checks it.)


def test_connector_parses_binary_rows(make_pair: Any) -> None:
    p = _login(make_pair)
    p.server.receive_data(frame(b"\x03SELECT", 0))
    assert p.server.next_event() == ev.Query(b"SELECT")
    data = p.server.result_set(COLUMNS, [ROW, (None,) * len(COLUMNS)], status=AUTOCOMMIT,
                               binary=True)
    packets = [payload for _, payload in unframe(data)]
    n = len(COLUMNS)
    fields = [MySQLProtocol.parse_column(_framed(payload)) for payload in packets[1:1 + n]]
    proto = MySQLProtocol()
    rows = [proto._parse_binary_values(fields, payload[1:]) for payload in packets[n + 2:-1]]
    assert rows[1] == (None,) * n
    got = rows[0]
    assert got[:6] == ROW[:6]
    assert got[6] == 0.5 and got[7] == -1e300
    assert got[8] == Decimal("-1.250")
    assert got[9] == "naïve"
    assert got[10] == b"\x00\xfb\xff"
    assert got[11:] == ROW[11:]


def test_connector_stmt_execute_is_decoded(make_pair: Any) -> None:
    p = _login(make_pair)
    p.server.receive_data(frame(b"\x16INSERT INTO t VALUES (?,?,?,?,?,?,?,?,?,?,?)", 0))
    assert isinstance(p.server.next_event(), ev.StmtPrepare)
    p.server.prepare_ok(4, 11, [])
    values = [1, -70000, 2**63 + 5, 1.25, "héllo", b"bytes", Decimal("3.14"),
              dt.date(2024, 1, 2), dt.datetime(2024, 1, 2, 3, 4, 5, 6),
              dt.timedelta(days=1, seconds=5), None]
    body = MySQLProtocol().make_stmt_execute(4, values, tuple(range(11)))
    p.server.receive_data(frame(b"\x17" + body, 0))
    event = p.server.next_event()
    assert isinstance(event, ev.StmtExecute)
    assert event.params == (1, -70000, 2**63 + 5, 1.25, "héllo", "bytes", "3.14",
                            dt.date(2024, 1, 2), dt.datetime(2024, 1, 2, 3, 4, 5, 6),
                            dt.timedelta(days=1, seconds=5), None)


@pytest.mark.parametrize("message", ["ab " + "€" * 300, "é" * 600, "short"])
def test_connector_parses_err_packets(message: str) -> None:
    """Also when the message is cut at 512 bytes (a strict UTF-8 decode must not fail)."""
    exc = connector_errors.get_exception(_framed(pk.err_packet(1064, "42000", message)))
    assert isinstance(exc, connector_errors.ProgrammingError)
    assert (exc.errno, exc.sqlstate) == (1064, "42000")
    assert message.startswith(exc.msg)
    if len(message.encode()) <= 512:
        assert exc.msg == message
    else:
        assert 509 <= len(exc.msg.encode()) <= 512
