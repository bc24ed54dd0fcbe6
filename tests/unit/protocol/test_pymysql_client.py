"""A cross-check with a real client's parser: PyMySQL's own Connection runs against a
ServerProtocol through an in-memory socket (no network, no thread: every sendall() is answered
synchronously by a tiny responder), and its packet classes parse our bytes."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pymysql
import pytest
from pymysql.protocol import FieldDescriptorPacket, MysqlPacket, OKPacketWrapper

from rampmeter.protocol import NEED_DATA
from rampmeter.protocol import events as ev
from rampmeter.protocol import packets as pk
from rampmeter.protocol.auth import RsaKeyPair
from rampmeter.protocol.columns import (
    Column,
    blob_column,
    decimal_column,
    double_column,
    int_column,
    text_column,
)
from rampmeter.protocol.connection import ServerProtocol
from rampmeter.protocol.constants import CHARSET_BINARY, ColumnFlag, ColumnType, ServerStatus
from tests.unit.protocol.conftest import Accounts

AUTOCOMMIT = ServerStatus.AUTOCOMMIT
MORE = ServerStatus.MORE_RESULTS_EXISTS

COLUMNS = [
    int_column("i"), int_column("u", flags=ColumnFlag.UNSIGNED), double_column("d"),
    decimal_column("m"), text_column("s"), blob_column("b"),
    Column("dd", ColumnType.DATE, 10, 0, 0, CHARSET_BINARY),
    Column("dt", ColumnType.DATETIME, 26, 0, 6, CHARSET_BINARY),
    Column("t", ColumnType.TIME, 17, 0, 6, CHARSET_BINARY),
]
ROW = (-(2**63), 2**64 - 1, 0.1, Decimal("-123.450"), "grüße", b"\x00\xff",
       dt.date(2024, 2, 29), dt.datetime(2024, 1, 2, 3, 4, 5, 6),
       dt.timedelta(hours=-30, seconds=1))


class FakeSocket:
    """Enough of a socket for pymysql.Connection.connect(sock=...): what PyMySQL writes goes
    to the ServerProtocol, whose events a tiny session answers at once."""

    def __init__(self, server: ServerProtocol) -> None:
        self.server = server
        self.inbox = bytearray(server.greeting())
        self.queries: list[str] = []
        self.events: list[ev.Event] = []

    # socket / file API used by PyMySQL
    def settimeout(self, _t: object) -> None:
        return None

    def setsockopt(self, *_a: object) -> None:
        return None

    def makefile(self, _mode: str) -> FakeSocket:
        return self

    def close(self) -> None:
        return None

    def read(self, n: int) -> bytes:
        out = bytes(self.inbox[:n])
        del self.inbox[:n]
        return out

    def sendall(self, data: bytes) -> None:
        self.server.receive_data(bytes(data))
        while (e := self.server.next_event()) is not NEED_DATA:
            assert isinstance(e, ev.Event)
            self.events.append(e)
            self.inbox += self.server.data_to_send() + self.answer(e)
        self.inbox += self.server.data_to_send()

    def answer(self, e: ev.Event) -> bytes:
        s = self.server
        if isinstance(e, ev.Authenticated):
            return s.ok(status=AUTOCOMMIT)
        if isinstance(e, ev.AccessDenied):
            return s.error(1045, "28000", f"Access denied for user '{e.user}'@'localhost'")
        if isinstance(e, ev.Query):
            self.queries.append(e.sql.decode())
            return self.query(e.sql.decode())
        if isinstance(e, ev.Ping | ev.InitDb):
            return s.ok(status=AUTOCOMMIT)
        if isinstance(e, ev.Quit):
            return b""
        return s.error(1047, "08S01", "Unknown command")

    def query(self, sql: str) -> bytes:
        s = self.server
        if sql == "SELECT values":
            return s.result_set(COLUMNS, [ROW, (None,) * len(COLUMNS)], status=AUTOCOMMIT)
        if sql == "CALL two":
            return (s.result_set([int_column("a")], [(1,), (2,)], status=AUTOCOMMIT | MORE)
                    + s.result_set([text_column("b")], [("x",)], status=AUTOCOMMIT | MORE)
                    + s.ok(status=AUTOCOMMIT))
        if sql == "UPDATE t":
            return s.ok(3, 0, status=AUTOCOMMIT, warnings=0, info="Rows matched: 3")
        if sql == "INSERT t":
            return s.ok(1, 42, status=AUTOCOMMIT)
        if sql.startswith("SELECT big"):
            big = "b" * (0xFFFFFF + 100)
            return s.result_set([text_column("big"), int_column("n")], [(big, len(sql))],
                                status=AUTOCOMMIT)
        if sql == "BAD":
            return s.error(1064, "42000", "You have an error in your SQL syntax")
        return s.ok(status=AUTOCOMMIT)


def _connect(user: str, password: str, *, plugin: str = "mysql_native_password",
             accounts: Accounts | None = None, rsa: RsaKeyPair | None = None,
             max_allowed_packet: int = 16 << 20,
             **kw: Any) -> tuple[pymysql.connections.Connection, FakeSocket]:
    if accounts is None:
        accounts = Accounts()
        accounts.add("alice", b"secret")
        accounts.add("bob", b"hunter2", "caching_sha2_password")
    server = ServerProtocol(connection_id=5, server_version="8.0.36-rampmeter",
                            accounts=accounts, default_auth_plugin=plugin, rsa_keys=rsa,
                            max_allowed_packet=max_allowed_packet)
    sock = FakeSocket(server)
    conn = pymysql.connections.Connection(user=user, password=password, defer_connect=True,
                                          **kw)
    conn.connect(sock=sock)  # type: ignore[arg-type]
    return conn, sock


def test_pymysql_native_login_and_text_values() -> None:
    conn, sock = _connect("alice", "secret", database="shop")
    assert conn.server_version == "8.0.36-rampmeter"
    assert conn.server_thread_id == (5,)
    assert isinstance(sock.events[0], ev.Authenticated)
    assert sock.events[0].database == "shop"
    assert sock.events[0].attributes["_client_name"] == "pymysql"
    with conn.cursor() as cur:
        assert cur.execute("SELECT values") == 2
        assert [d[0] for d in cur.description] == [c.name for c in COLUMNS]
        assert cur.fetchall() == (ROW, (None,) * len(COLUMNS))
    conn.close()
    assert isinstance(sock.events[-1], ev.Quit)


def test_pymysql_ok_fields_errors_and_multi_results() -> None:
    conn, sock = _connect("alice", "secret", autocommit=True)
    with conn.cursor() as cur:
        assert cur.execute("UPDATE t") == 3
        # PyMySQL keeps the whole rest of the OK packet, length prefix included, exactly as
        # it does against mysqld (which writes the info with net_store_data()).
        assert cur._result.message == b"\x0fRows matched: 3"
        cur.execute("INSERT t")
        assert cur.lastrowid == 42
        with pytest.raises(pymysql.err.ProgrammingError) as info:
            cur.execute("BAD")
        assert info.value.args == (1064, "You have an error in your SQL syntax")
        cur.execute("CALL two")
        assert cur.fetchall() == ((1,), (2,))
        assert cur.nextset()
        assert cur.fetchall() == (("x",),)
        assert cur.nextset()
        assert not cur.nextset()
    conn.ping(reconnect=False)
    conn.select_db("other")
    conn.kill(77)  # PyMySQL 1.1 sends it as a statement, not COM_PROCESS_KILL
    assert sock.events[-3:] == [ev.Ping(), ev.InitDb(b"other"), ev.Query(b"KILL 77")]


def test_pymysql_packets_over_16mib() -> None:
    """PyMySQL splits a long query at 0xFFFFFF and joins a long row: both ways through us."""
    conn, sock = _connect("alice", "secret", max_allowed_packet=64 << 20)
    sql = "SELECT big /*" + "x" * 0xFFFFFF + "*/"
    with conn.cursor() as cur:
        cur.execute(sql)
        [(big, n)] = cur.fetchall()
    assert sock.queries[-1] == sql
    assert big == "b" * (0xFFFFFF + 100) and n == len(sql)
    conn.ping(reconnect=False)  # the sequence ids are still in step


def test_pymysql_wrong_password() -> None:
    with pytest.raises(pymysql.err.OperationalError) as info:
        _connect("alice", "nope")
    assert info.value.args[0] == 1045


def test_pymysql_caching_sha2_rsa_then_fast_path(rsa_keys: RsaKeyPair) -> None:
    accounts = Accounts()
    accounts.add("bob", b"hunter2", "caching_sha2_password")
    conn, sock = _connect("bob", "hunter2", plugin="caching_sha2_password", accounts=accounts,
                          rsa=rsa_keys)
    assert isinstance(sock.events[0], ev.Authenticated)
    assert "bob" in accounts.fast
    conn.close()
    conn, sock = _connect("bob", "hunter2", plugin="caching_sha2_password", accounts=accounts,
                          rsa=rsa_keys)
    assert isinstance(sock.events[0], ev.Authenticated)
    conn.close()
    with pytest.raises(pymysql.err.OperationalError) as info:
        _connect("bob", "wrong", plugin="caching_sha2_password", accounts=accounts, rsa=rsa_keys)
    assert info.value.args[0] == 1045


def test_pymysql_auth_switch_to_sha2(rsa_keys: RsaKeyPair) -> None:
    """The greeting says native; bob's account is caching_sha2: PyMySQL follows the switch."""
    conn, sock = _connect("bob", "hunter2", rsa=rsa_keys)
    assert sock.events[0] == ev.Authenticated(
        "bob", None, "caching_sha2_password", sock.server.client_capabilities,
        sock.events[0].attributes, False, sock.events[0].charset)
    conn.close()


def test_pymysql_parses_our_packets() -> None:
    col = pk.column_definition(Column("name", ColumnType.VAR_STRING, 400, ColumnFlag.NOT_NULL,
                                      0, 45, table="t", org_table="tt", schema="db",
                                      org_name="n"))
    f = FieldDescriptorPacket(col, "utf8")
    assert (f.catalog, f.db, f.table_name, f.org_table, f.name, f.org_name) == (
        b"def", b"db", "t", "tt", "name", "n")
    assert (f.charsetnr, f.length, f.type_code, f.flags, f.scale) == (45, 400, 253, 1, 0)
    ok = OKPacketWrapper(MysqlPacket(pk.ok_packet(
        300, 70000, AUTOCOMMIT | MORE, 2, "info", pymysql.constants.CLIENT.PROTOCOL_41), "utf8"))
    assert (ok.affected_rows, ok.insert_id, ok.server_status, ok.warning_count, ok.message) == (
        300, 70000, 10, 2, b"\x04info")
    assert ok.has_next
    # an explicit -5 in a signed AUTO_INCREMENT column: MariaDB's unsigned insert id
    negative = OKPacketWrapper(MysqlPacket(pk.ok_packet(
        1, -5, AUTOCOMMIT, 0, "", pymysql.constants.CLIENT.PROTOCOL_41), "utf8"))
    assert negative.insert_id == 2 ** 64 - 5
    eof = MysqlPacket(pk.eof_packet(1, AUTOCOMMIT), "utf8")
    assert eof.is_eof_packet()
    err = MysqlPacket(pk.err_packet(1146, "42S02", "Table 'db.t' doesn't exist"), "utf8")
    with pytest.raises(pymysql.err.ProgrammingError) as info:
        err.raise_for_error()
    assert info.value.args == (1146, "Table 'db.t' doesn't exist")
