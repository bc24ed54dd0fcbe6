"""results.py, packets.py and the reply methods of connection.py: text and binary result sets as
the test client decodes them (hypothesis over every value kind), the value formats, the NULL
bitmap, DEPRECATE_EOF on and off, multiple result sets, OK/ERR/EOF packets, sequence ids."""

from __future__ import annotations

import datetime as dt
import enum
import math
import struct
import uuid
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rampmeter.protocol import events as ev
from rampmeter.protocol import packets as pk
from rampmeter.protocol.columns import (
    Column,
    blob_column,
    decimal_column,
    double_column,
    int_column,
    null_column,
    text_column,
)
from rampmeter.protocol.constants import (
    CHARSET_BINARY,
    CHARSET_UTF8MB4_GENERAL_CI,
    Capability,
    ColumnFlag,
    ColumnType,
    ServerStatus,
)
from rampmeter.protocol.results import binary_encoder, encode_binary_time, format_float, text_value
from tests.unit.protocol.client import (
    CLIENT_CAPS,
    Cursor,
    Eof,
    Err,
    Ok,
    Pair,
    ResultSet,
    decode_binary,
    parse_column,
    parse_generic,
    unframe,
)
from tests.unit.protocol.conftest import SCRAMBLE, fresh_pair

T = ColumnType
AUTOCOMMIT = ServerStatus.AUTOCOMMIT
MORE = ServerStatus.MORE_RESULTS_EXISTS


def _pair(deprecate_eof: bool = False, **kw: Any) -> Pair:
    """A logged-in pair (no fixtures: usable inside @given) that has just received a query."""
    p = fresh_pair(CLIENT_CAPS | Capability.DEPRECATE_EOF if deprecate_eof else CLIENT_CAPS,
                   **kw)
    assert p.command(b"\x03SELECT") == [ev.Query(b"SELECT")]
    return p


def _parse_time_text(text: str) -> dt.timedelta:
    neg = text.startswith("-")
    h, m, s = text.lstrip("-").split(":")
    sec, _, frac = s.partition(".")
    td = dt.timedelta(hours=int(h), minutes=int(m), seconds=int(sec),
                      microseconds=int(frac.ljust(6, "0")) if frac else 0)
    return -td if neg else td


# --- value kinds: (column, strategy, text decoder) ----------------------------------------------
def _text_float(b: bytes) -> float:
    return float(b.decode())


KINDS: dict[str, tuple[Column, st.SearchStrategy[Any], Any]] = {
    "int": (int_column("i"), st.integers(-2**63, 2**63 - 1), lambda b: int(b)),
    "uint": (int_column("u", flags=ColumnFlag.UNSIGNED), st.integers(0, 2**64 - 1),
             lambda b: int(b)),
    "double": (double_column("d"), st.floats(allow_nan=False), _text_float),
    "str": (text_column("s"), st.text(), lambda b: b.decode()),
    "bytes": (blob_column("b"), st.binary(max_size=300), lambda b: b),
    "decimal": (decimal_column("m"), st.decimals(allow_nan=False, allow_infinity=False),
                lambda b: Decimal(b.decode())),
    "date": (Column("dd", T.DATE, 10, 0, 0, CHARSET_BINARY), st.dates(),
             lambda b: dt.date.fromisoformat(b.decode())),
    "datetime": (Column("dt", T.DATETIME, 26, 0, 6, CHARSET_BINARY), st.datetimes(),
                 lambda b: dt.datetime.fromisoformat(b.decode())),
    "time": (Column("t", T.TIME, 17, 0, 6, CHARSET_BINARY),
             st.timedeltas(min_value=-dt.timedelta(hours=838), max_value=dt.timedelta(hours=838)),
             lambda b: _parse_time_text(b.decode())),
}

rows_strategy = st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=10).flatmap(
    lambda kinds: st.tuples(
        st.just(kinds),
        st.lists(st.tuples(*[st.none() | KINDS[k][1] for k in kinds]), max_size=5)))


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and math.isinf(a):
        return a == b
    return a == b and (not isinstance(a, float) or math.copysign(1, a) == math.copysign(1, b))


@settings(max_examples=100, deadline=None)
@given(rows_strategy, st.booleans())
def test_text_result_set_round_trip(kinds_rows: tuple[list[str], list[tuple[Any, ...]]],
                                    deprecate_eof: bool) -> None:
    kinds, rows = kinds_rows
    p = _pair(deprecate_eof)
    columns = [KINDS[k][0] for k in kinds]
    p.client.receive(p.server.result_set(columns, rows, status=AUTOCOMMIT, warnings=1))
    result = p.client.read_result()
    assert isinstance(result, ResultSet)
    assert (result.status, result.warnings) == (AUTOCOMMIT, 1)
    assert [c.name for c in result.columns] == [c.name for c in columns]
    assert len(result.rows) == len(rows)
    for got_row, row in zip(result.rows, rows):
        for kind, got, value in zip(kinds, got_row, row):
            if value is None:
                assert got is None
            else:
                assert _same(KINDS[kind][2](got), value), (kind, got, value)
    assert not p.client.inbox


@settings(max_examples=100, deadline=None)
@given(rows_strategy, st.booleans())
def test_binary_result_set_round_trip(kinds_rows: tuple[list[str], list[tuple[Any, ...]]],
                                      deprecate_eof: bool) -> None:
    kinds, rows = kinds_rows
    p = _pair(deprecate_eof)
    columns = [KINDS[k][0] for k in kinds]
    p.client.receive(p.server.result_set(columns, rows, status=AUTOCOMMIT, binary=True))
    result = p.client.read_result(binary=True)
    assert isinstance(result, ResultSet)
    for got_row, row in zip(result.rows, rows, strict=True):
        for kind, got, value in zip(kinds, got_row, row):
            if value is None:
                assert got is None
            elif kind == "str":
                assert got.decode() == value
            elif kind == "decimal":
                assert Decimal(got.decode()) == value
            else:
                assert _same(got, value), (kind, got, value)
    assert not p.client.inbox


# --- text formats -----------------------------------------------------------------------------
@pytest.mark.parametrize(("value", "text"), [
    (1.0, "1"), (-0.0, "-0"), (0.1, "0.1"), (100.0, "100"), (1e14, "100000000000000"),
    (123456789012345.6, "123456789012345.6"), (1e15, "1e15"), (-1e15, "-1e15"),
    (1234567890123456.8, "1234567890123456.8"), (1.2345678901234568e17, "1.2345678901234568e17"),
    (1e-5, "0.00001"), (2.5e-7, "0.00000025"), (1e-15, "0.000000000000001"), (1e-16, "1e-16"),
    (1.5e300, "1.5e300"), (-2.5e-300, "-2.5e-300"), (5e-324, "5e-324"), (1e20, "1e20"),
    (math.inf, "inf"),
])
def test_format_float_like_mysqld(value: float, text: str) -> None:
    assert format_float(value) == text
    assert float(text) == value


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_format_float_round_trips(x: float) -> None:
    assert float(format_float(x)) == x


class Color(enum.IntEnum):
    RED = 3


class Name(str):
    pass


@pytest.mark.parametrize(("value", "text"), [
    (True, b"1"), (False, b"0"), (-17, b"-17"), (Color.RED, b"3"), (Name("n"), b"n"),
    ("caf\xe9", "café".encode()), (b"\x00\xff", b"\x00\xff"), (bytearray(b"ab"), b"ab"),
    (memoryview(b"mv"), b"mv"),
    (Decimal("1E+2"), b"100"), (Decimal("-0.000001"), b"-0.000001"), (Decimal("1.50"), b"1.50"),
    (dt.date(1, 2, 3), b"0001-02-03"),
    (dt.datetime(2024, 1, 2, 3, 4, 5), b"2024-01-02 03:04:05"),
    (dt.datetime(2024, 1, 2, 3, 4, 5, 6), b"2024-01-02 03:04:05.000006"),
    (dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=dt.UTC), b"2024-01-02 03:04:05"),
    (dt.time(1, 2, 3, 4), b"01:02:03.000004"), (dt.time(23, 0), b"23:00:00"),
    (dt.timedelta(days=1, hours=2), b"26:00:00"),
    (-dt.timedelta(minutes=1, microseconds=1), b"-00:01:00.000001"),
    (dt.timedelta(hours=838, minutes=59, seconds=59), b"838:59:59"),
    (uuid.UUID(int=1), b"00000000-0000-0000-0000-000000000001"),
])
def test_text_values(value: Any, text: bytes) -> None:
    assert text_value(value) == text
    p = _pair()
    p.client.receive(p.server.result_set([text_column("v")], [(value,)], status=AUTOCOMMIT))
    result = p.client.read_result()
    assert isinstance(result, ResultSet)
    assert result.rows == [(text,)]


def test_text_row_exact_bytes() -> None:
    p = _pair()
    p.server.result_set_start([text_column("a"), text_column("b"), text_column("c")])
    data = p.server.result_rows([("x", None, 12), ("y" * 251, "", 0)])
    assert data == (b"\x06\x00\x00\x06" + b"\x01x\xfb\x0212"
                    + b"\x01\x01\x00\x07" + b"\xfc\xfb\x00" + b"y" * 251 + b"\x00\x010")


def test_str_with_lone_surrogates_is_sent_as_the_original_bytes() -> None:
    raw = b"ab\xff\xfe"
    text = raw.decode("utf-8", "surrogateescape")
    p = _pair()
    p.client.receive(p.server.result_set([text_column("s")], [(text,)], status=AUTOCOMMIT))
    result = p.client.read_result()
    assert isinstance(result, ResultSet) and result.rows == [(raw,)]


# --- binary formats -------------------------------------------------------------------------------
def _binary_value(col: Column, value: Any) -> bytes:
    enc = binary_encoder(col)
    assert enc is not None
    return enc(value)


@pytest.mark.parametrize(("col", "value", "raw"), [
    (Column("t", T.TINY), 300, b"\x7f"), (Column("t", T.TINY), -300, b"\x80"),
    (Column("t", T.TINY, flags=ColumnFlag.UNSIGNED), 255, b"\xff"),
    (Column("t", T.TINY, flags=ColumnFlag.UNSIGNED), -1, b"\x00"),
    (Column("s", T.SHORT), -2, b"\xfe\xff"), (Column("y", T.YEAR), 2024, b"\xe8\x07"),
    (Column("i", T.INT24), -1, b"\xff\xff\xff\xff"), (Column("l", T.LONG), 2**40, b"\xff\xff\xff\x7f"),
    (Column("q", T.LONGLONG), "5", b"\x05" + bytes(7)),
    (Column("q", T.LONGLONG), " 12 ", b"\x0c" + bytes(7)),
    (Column("q", T.LONGLONG), "1e3", b"\xe8\x03" + bytes(6)),
    (Column("q", T.LONGLONG), "junk", bytes(8)),
    (Column("q", T.LONGLONG), 2.6, b"\x03" + bytes(7)),
    (Column("q", T.LONGLONG), Decimal("-1.2"), b"\xff" * 8),
    (Column("q", T.LONGLONG), True, b"\x01" + bytes(7)),
    (Column("q", T.LONGLONG), math.inf, bytes(8)),
    (Column("q", T.LONGLONG, flags=ColumnFlag.UNSIGNED), 2**64 - 1, b"\xff" * 8),
    (Column("d", T.DOUBLE), 1.5, struct.pack("<d", 1.5)),
    (Column("d", T.DOUBLE), "2.25", struct.pack("<d", 2.25)),
    (Column("d", T.DOUBLE), b"x", struct.pack("<d", 0.0)),
    (Column("f", T.FLOAT), 0.5, struct.pack("<f", 0.5)),
    (Column("f", T.FLOAT), 1e300, struct.pack("<f", math.inf)),
    (Column("f", T.FLOAT), -1e300, struct.pack("<f", -math.inf)),
    (decimal_column("m"), Decimal("-3.10"), b"\x05-3.10"),
    (text_column("s"), 5, b"\x015"), (text_column("s"), 0.5, b"\x030.5"),
    (blob_column("b"), b"\x00" * 300, b"\xfc\x2c\x01" + b"\x00" * 300),
    (Column("dd", T.DATE), dt.datetime(2024, 2, 3, 4, 5, 6), b"\x04\xe8\x07\x02\x03"),
    (Column("dd", T.DATE), "2024-02-03", b"\x04\xe8\x07\x02\x03"),
    (Column("dd", T.DATE), "0000-00-00", b"\x00"),
    (Column("dt", T.DATETIME), dt.date(2024, 2, 3), b"\x04\xe8\x07\x02\x03"),
    (Column("dt", T.DATETIME), dt.datetime(2024, 2, 3), b"\x04\xe8\x07\x02\x03"),
    (Column("dt", T.DATETIME), dt.datetime(2024, 2, 3, 0, 0, 1), b"\x07\xe8\x07\x02\x03\x00\x00\x01"),
    (Column("dt", T.TIMESTAMP), dt.datetime(2024, 2, 3, 4, 5, 6, 7),
     b"\x0b\xe8\x07\x02\x03\x04\x05\x06\x07\x00\x00\x00"),
    (Column("dt", T.DATETIME), b"2024-02-03 04:05:06", b"\x07\xe8\x07\x02\x03\x04\x05\x06"),
    (Column("dt", T.DATETIME), "0000-00-00 00:00:00", b"\x00"),
    (Column("dt", T.DATETIME), 17, b"\x00"),
    (Column("t", T.TIME), dt.timedelta(0), b"\x00"),
    (Column("t", T.TIME), dt.timedelta(days=1, hours=2, minutes=3, seconds=4),
     b"\x08\x00\x01\x00\x00\x00\x02\x03\x04"),
    (Column("t", T.TIME), -dt.timedelta(hours=1, microseconds=2),
     b"\x0c\x01\x00\x00\x00\x00\x01\x00\x00\x02\x00\x00\x00"),
    (Column("t", T.TIME), dt.time(1, 2, 3), b"\x08\x00\x00\x00\x00\x00\x01\x02\x03"),
    (Column("t", T.TIME), dt.datetime(2020, 1, 1, 1, 2, 3), b"\x08\x00\x00\x00\x00\x00\x01\x02\x03"),
    (Column("t", T.TIME), "-1 02:03:04.5", b"\x0c\x01\x01\x00\x00\x00\x02\x03\x04\x20\xa1\x07\x00"),
    (Column("t", T.TIME), "838:59:59", b"\x08\x00\x22\x00\x00\x00\x16\x3b\x3b"),
    (Column("t", T.TIME), "garbage", b"\x00"),
])
def test_binary_values(col: Column, value: Any, raw: bytes) -> None:
    assert _binary_value(col, value) == raw


def test_encode_binary_time_matches_the_client() -> None:
    for td in (dt.timedelta(hours=-5), dt.timedelta(days=3, microseconds=1)):
        assert decode_binary(Cursor(encode_binary_time(td)), T.TIME, False) == td


def test_binary_row_null_bitmap_offset() -> None:
    """The bitmap has 2 reserved bits: column i is bit i + 2; 7 columns need 2 bytes."""
    p = _pair()
    cols = [Column(f"c{i}", T.TINY) for i in range(7)] + [null_column("n")]
    p.server.result_set_start(cols, binary=True)
    data = p.server.result_rows([(None, 1, None, 2, 3, 4, None, "ignored")])
    # NULL: c0 -> bit 2, c2 -> bit 4, c6 -> bit 8, n (NULL type) -> bit 9
    assert data == b"\x07\x00\x00\x0b" + b"\x00" + bytes((0b00010100, 0b00000011)) + b"\x01\x02\x03\x04"


def test_binary_result_set_packets(make_pair) -> None:
    p = make_pair()
    p.login("root", b"")
    p.command(b"\x03SELECT")
    cols = [int_column("id"), text_column("name")]
    data = p.server.result_set(cols, [(1, "a"), (None, None)], status=AUTOCOMMIT, binary=True)
    packets = unframe(data)
    assert [seq for seq, _ in packets] == [1, 2, 3, 4, 5, 6, 7]
    assert packets[0][1] == b"\x02"
    assert parse_column(packets[1][1]).type == T.LONGLONG
    assert packets[3][1] == b"\xfe\x00\x00\x02\x00"
    assert packets[4][1] == b"\x00\x00" + b"\x01" + bytes(7) + b"\x01a"
    assert packets[5][1] == b"\x00\x0c"
    assert packets[6][1] == b"\xfe\x00\x00\x02\x00"


# --- result set structure --------------------------------------------------------------------
def test_text_result_set_packets_without_deprecate_eof() -> None:
    p = _pair()
    cols = [int_column("n", table="t", schema="db")]
    data = p.server.result_set(cols, [(1,), (2,)], status=AUTOCOMMIT | ServerStatus.IN_TRANS,
                               warnings=4)
    packets = unframe(data)
    assert [seq for seq, _ in packets] == [1, 2, 3, 4, 5, 6]
    assert packets[0][1] == b"\x01"
    assert packets[1][1] == (b"\x03def\x02db\x01t\x01t\x01n\x01n\x0c" + b"\x3f\x00"
                             + b"\x15\x00\x00\x00" + b"\x08" + b"\x80\x80" + b"\x00" + b"\x00\x00")
    assert packets[2][1] == b"\xfe\x00\x00\x02\x00"  # EOF after the definitions
    assert packets[3][1] == b"\x011"
    assert packets[4][1] == b"\x012"
    assert packets[5][1] == b"\xfe\x04\x00\x03\x00"  # EOF: warnings 4, status


def test_text_result_set_packets_with_deprecate_eof() -> None:
    p = _pair(deprecate_eof=True)
    data = p.server.result_set([int_column("n")], [(1,)], status=AUTOCOMMIT, warnings=4)
    packets = unframe(data)
    assert [payload for _, payload in packets][2:] == [
        b"\x011", b"\xfe\x00\x00\x02\x00\x04\x00"]  # no EOF after the definitions
    assert parse_column(packets[1][1]).name == "n"
    p.client.receive(data)
    result = p.client.read_result()
    assert isinstance(result, ResultSet) and result.rows == [(b"1",)]
    assert (result.status, result.warnings) == (AUTOCOMMIT, 4)


def test_deprecate_eof_not_used_when_the_client_lacks_it() -> None:
    """Offered by the server, but the replies honour what the client set."""
    p = _pair(deprecate_eof=False)
    data = p.server.result_set([int_column("n")], [], status=AUTOCOMMIT)
    assert [payload for _, payload in unframe(data)][2:] == [b"\xfe\x00\x00\x02\x00"] * 2


def test_deprecate_eof_not_used_when_the_server_does_not_offer_it() -> None:
    from rampmeter.protocol.constants import SERVER_CAPABILITIES
    p = _pair(deprecate_eof=True, capabilities=SERVER_CAPABILITIES & ~Capability.DEPRECATE_EOF)
    assert not p.client.deprecate_eof
    data = p.server.result_set([int_column("n")], [], status=AUTOCOMMIT)
    assert [payload for _, payload in unframe(data)][2:] == [b"\xfe\x00\x00\x02\x00"] * 2


@pytest.mark.parametrize("deprecate_eof", [False, True])
def test_multiple_result_sets(deprecate_eof: bool) -> None:
    p = _pair(deprecate_eof)
    data = p.server.result_set([int_column("a")], [(1,)], status=AUTOCOMMIT | MORE)
    data += p.server.result_set([text_column("b"), text_column("c")], [("x", None), ("y", "z")],
                                status=AUTOCOMMIT | MORE, binary=True)
    data += p.server.ok(5, 6, status=AUTOCOMMIT | MORE, warnings=1)
    data += p.server.ok(status=AUTOCOMMIT)
    seqs = [seq for seq, _ in unframe(data)]
    assert seqs == list(range(1, len(seqs) + 1))  # one conversation across the results
    p.client.receive(data)
    first = p.client.read_result()
    assert isinstance(first, ResultSet) and first.rows == [(b"1",)]
    assert first.status == AUTOCOMMIT | MORE
    second = p.client.read_result(binary=True)
    assert isinstance(second, ResultSet) and second.rows == [(b"x", None), (b"y", b"z")]
    assert second.status == AUTOCOMMIT | MORE
    rest = p.client.read_results()
    assert rest == [Ok(5, 6, AUTOCOMMIT | MORE, 1, b"", 0), Ok(0, 0, AUTOCOMMIT, 0, b"", 0)]


def test_result_set_ended_by_an_error() -> None:
    """A statement failing mid-result: the rows sent so far, then ERR, same conversation."""
    p = _pair()
    data = p.server.result_set_start([int_column("a")]) + p.server.result_rows([(1,)])
    data += p.server.error(1317, "70100", "Query execution was interrupted")
    packets = unframe(data)
    assert [seq for seq, _ in packets] == [1, 2, 3, 4, 5]
    assert parse_generic(packets[-1][1]) == Err(1317, "70100", "Query execution was interrupted")


def test_rows_streamed_in_batches_equal_one_call() -> None:
    cols = [int_column("a"), text_column("b")]
    rows = [(i, str(i) * (i % 7)) for i in range(600)]  # sequence ids wrap past 255
    one = _pair()
    whole = one.server.result_set(cols, rows, status=AUTOCOMMIT)
    many = _pair()
    streamed = (many.server.result_set_start(cols) + many.server.result_rows(rows[:100])
                + many.server.result_rows(iter(rows[100:])) + many.server.result_rows([])
                + many.server.result_set_end(status=AUTOCOMMIT))
    assert streamed == whole
    one.client.receive(whole)
    result = one.client.read_result()
    assert isinstance(result, ResultSet) and len(result.rows) == 600
    assert result.rows[599] == (b"599", b"599" * (599 % 7))
    assert whole[3] == 1


def test_row_over_16mib_is_split() -> None:
    p = _pair(max_allowed_packet=64 << 20)
    big = "z" * (0xFFFFFF + 10)
    data = p.server.result_set([text_column("big"), int_column("n")], [(big, 7), ("s", 8)],
                               status=AUTOCOMMIT)
    p.client.receive(data)
    result = p.client.read_result()
    assert isinstance(result, ResultSet)
    assert result.rows[0][0] == big.encode() and result.rows[0][1] == b"7"
    assert result.rows[1] == (b"s", b"8")


# --- column definitions ------------------------------------------------------------------------
def test_column_definition_fields() -> None:
    col = Column("alias", T.VAR_STRING, 400, ColumnFlag.NOT_NULL | ColumnFlag.PRI_KEY, 0,
                 CHARSET_UTF8MB4_GENERAL_CI, table="t_alias", org_table="t", schema="db",
                 org_name="name")
    c = parse_column(pk.column_definition(col))
    assert (c.schema, c.table, c.org_table, c.name, c.org_name) == (
        "db", "t_alias", "t", "alias", "name")
    assert (c.charset, c.length, c.type, c.flags, c.decimals) == (45, 400, T.VAR_STRING, 3, 0)
    d = parse_column(pk.column_definition(double_column("x")))
    assert (d.type, d.length, d.decimals, d.charset) == (T.DOUBLE, 22, 31, CHARSET_BINARY)
    assert d.flags == ColumnFlag.NUM | ColumnFlag.BINARY
    big = parse_column(pk.column_definition(Column("x" * 300, length=2**40)))
    assert big.name == "x" * 300 and big.length == 0xFFFFFFFF


def test_column_helpers() -> None:
    assert int_column("a").is_numeric and not int_column("a").unsigned
    assert int_column("a", flags=ColumnFlag.UNSIGNED).unsigned
    assert not text_column("s").is_numeric
    assert text_column("s", length=10).length == 40
    assert blob_column("b").flags == ColumnFlag.BLOB | ColumnFlag.BINARY
    assert binary_encoder(null_column("n")) is None


# --- OK / ERR / EOF ----------------------------------------------------------------------------
@pytest.mark.parametrize(("affected", "insert_id", "encoded"), [
    (0, 0, b"\x00\x00"), (250, 251, b"\xfa\xfc\xfb\x00"),
    (0xFFFF, 0x10000, b"\xfc\xff\xff\xfd\x00\x00\x01"),
    (0x1000000, 2**64 - 1, b"\xfe\x00\x00\x00\x01\x00\x00\x00\x00" + b"\xfe" + b"\xff" * 8),
])
def test_ok_packet_fields(affected: int, insert_id: int, encoded: bytes) -> None:
    status = AUTOCOMMIT | ServerStatus.IN_TRANS | ServerStatus.NO_INDEX_USED
    payload = pk.ok_packet(affected, insert_id, status, 70000, "Rows matched: 1  Changed: 1",
                           CLIENT_CAPS)
    assert payload == (b"\x00" + encoded + b"\x23\x00" + b"\xff\xff"
                       + b"\x1bRows matched: 1  Changed: 1")
    assert parse_generic(payload) == Ok(affected, insert_id, int(status), 0xFFFF,
                                        b"Rows matched: 1  Changed: 1", 0)


def test_ok_packet_without_info_has_no_info_field() -> None:
    assert pk.ok_packet(1, 2, AUTOCOMMIT, 0, "", CLIENT_CAPS) == b"\x00\x01\x02\x02\x00\x00\x00"
    long_info = "x" * 300
    assert pk.ok_packet(0, 0, 0, 0, long_info, CLIENT_CAPS)[7:10] == b"\xfc\x2c\x01"


def test_ok_packet_info_is_utf8() -> None:
    p = _pair()
    p.client.receive(p.server.ok(1, 0, status=AUTOCOMMIT, info="ünïcode"))
    result = parse_generic(p.client.read())
    assert isinstance(result, Ok) and result.info == "ünïcode".encode()


def test_ok_sets_the_status_of_later_eofs() -> None:
    p = _pair()
    p.server.ok(status=AUTOCOMMIT | ServerStatus.IN_TRANS)
    p.command(b"\x16SELECT ?")
    data = p.server.prepare_ok(1, 1, [])
    assert unframe(data)[-1][1] == b"\xfe\x00\x00\x03\x00"


def test_err_packet() -> None:
    assert pk.err_packet(1064, "42000", "syntax") == b"\xff\x28\x04#42000syntax"
    assert pk.err_packet(1105, "", "x") == b"\xff\x51\x04#HY000x"
    long = pk.err_packet(1105, "HY000", "é" * 600)
    assert len(long) == 9 + 512
    # Cut at 512 bytes, but never inside a character: 3 + 169 * 3 = 510.
    cut = pk.err_packet(1064, "42000", "ab " + "€" * 300)
    assert cut[9:] == ("ab " + "€" * 169).encode()
    emoji = pk.err_packet(1064, "42000", "abc" + "\U0001F600" * 200)
    assert emoji[9:] == ("abc" + "\U0001F600" * 127).encode()
    raw = pk.err_packet(1, "HY000", (b"\xff" * 600).decode("utf-8", "surrogateescape"))
    assert raw[9:] == b"?" * 512  # bytes that never were UTF-8 show as '?', as in MariaDB
    assert pk.err_packet(1105, "HY0000000", "m")[3:9] == b"#HY000"


def test_err_packet_in_another_character_set() -> None:
    """character_set_results other than UTF-8: what it cannot hold is \\XXXX, and the message
    stops before the next character would pass 511 bytes (MariaDB's convert_error_message)."""
    assert pk.err_packet(1051, "42S02", "Unknown table 'test.\u05e7'", "cp1252")[9:] == \
        b"Unknown table 'test.\\05E7'"
    assert pk.error_text("caf\u00e9 \U0001F600", "latin-1") == b"caf\xe9 \\+01F600"
    cyrillic = pk.error_text("\u0422" * 200, "latin-1")
    assert cyrillic == b"\\0422" * 102  # 510 bytes: a 103rd escape would reach 511
    assert len(pk.error_text("x" * 600, "latin-1")) == 511


def test_eof_packet() -> None:
    assert pk.eof_packet(3, AUTOCOMMIT | MORE) == b"\xfe\x03\x00\x0a\x00"
    assert pk.eof_packet(1 << 20, 0) == b"\xfe\xff\xff\x00\x00"


def test_plain_string_and_column_count() -> None:
    assert pk.plain_string("Uptime: 1") == b"Uptime: 1"
    assert pk.column_count(3) == b"\x03"
    assert pk.column_count(300) == b"\xfc\x2c\x01"


def test_auth_packets() -> None:
    assert pk.auth_switch_request("mysql_native_password", SCRAMBLE + b"\0") == (
        b"\xfemysql_native_password\0" + SCRAMBLE + b"\0")
    assert pk.auth_more_data(b"\x04") == b"\x01\x04"


def test_field_list_ends_with_the_current_status() -> None:
    p = _pair()
    p.server.ok(status=AUTOCOMMIT | ServerStatus.IN_TRANS)
    p.command(b"\x04t\0")
    data = p.server.field_list([])
    assert data == b"\x05\x00\x00\x01\xfe\x00\x00\x03\x00"
    assert parse_generic(unframe(data)[0][1]) == Eof(0, 3)


# --- shared result descriptions (a plan's tuple of columns) ----------------------------------
@pytest.mark.parametrize("binary", [False, True])
@pytest.mark.parametrize("deprecate_eof", [False, True])
def test_a_shared_description_sends_the_same_bytes_as_a_fresh_one(binary: bool,
                                                                  deprecate_eof: bool) -> None:
    """A tuple of columns is encoded once and kept (per results character set); every later
    result with it, in one piece or as start/rows/end, is byte for byte what a list gives."""
    cols = [int_column("n", table="t", schema="db"), text_column("s")]
    shared = tuple(cols)
    rows = [(1, "é"), (None, "x")]

    def sent(columns: Any, latin1: bool, whole: bool) -> bytes:
        p = _pair(deprecate_eof=deprecate_eof)
        if latin1:
            p.server.set_charsets(results_codec="latin-1", results_collation=8, results_maxlen=1)
        if whole:
            return p.server.result_set(columns, rows, status=AUTOCOMMIT, binary=binary)
        return (p.server.result_set_start(columns, binary=binary) + p.server.result_rows(rows)
                + p.server.result_set_end(status=AUTOCOMMIT))

    for latin1 in (False, True, False):
        for whole in (True, False, True):
            assert sent(shared, latin1, whole) == sent(list(cols), latin1, whole)
