"""Issue 8, item 5, on the commands test_fuzz.py does not reach through a driver's cursor:
COM_INIT_DB and COM_FIELD_LIST with generated names, COM_STMT_EXECUTE with string parameters
that are not valid UTF-8, and statements with huge literals and identifiers or deep nesting.

Each example goes to MariaDB and to rampmeter over a raw PyMySQL connection (PyMySQL frames the
packets; the payloads are built here). The property: the answer is an OK, a result or a MySQL
error — never 1105, never a dropped connection — the connection still answers SELECT 1, and
where MariaDB answers with an error, rampmeter answers with one too (same code for the commands
whose errors are only about names). Hypothesis runs derandomized and without shrinking, as in
test_fuzz.py."""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import pymysql
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from pymysql.constants import COMMAND

from tests.compat.conftest import Compat
from tests.compat.rawproto import T, _lenenc, connect
from tests.compat.servers import Endpoint

FUZZ = settings(max_examples=30, deadline=None, derandomize=True, phases=[Phase.generate],
                suppress_health_check=[HealthCheck.function_scoped_fixture])

PIECES = st.sampled_from([b"'", b'"', b"`", b"\\", b"\x00", b"\xff", b"\xc3", b"\xe9", b".",
                          b"/", b"%", b"_", b"t", b"information_schema", b" ", b"\xf0\x9f\x98"])
NAME = st.lists(st.one_of(PIECES, st.binary(max_size=5)), max_size=10).map(b"".join)

Answer = tuple[str, Any]   # ("ok", detail) | ("error", code) | ("broken", reason)


def _ask(ep: Endpoint, db: str, send: Callable[[pymysql.Connection], Any]) -> tuple[Answer, bool]:
    """Run `send` on a fresh connection; (its answer, whether SELECT 1 works afterwards)."""
    conn = connect(ep, db)
    try:
        try:
            answer: Answer = ("ok", send(conn))
        except pymysql.err.OperationalError as exc:
            code = exc.args[0]
            return (("broken", code) if code >= 2000 else ("error", code)), _alive(conn)
        except pymysql.err.MySQLError as exc:
            return ("error", exc.args[0]), _alive(conn)
        return answer, _alive(conn)
    finally:
        try:
            conn.close()
        except Exception:  # noqa: BLE001, S110 - a broken connection may not close cleanly
            pass


def _alive(conn: pymysql.Connection) -> bool:
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT 1")
            return cur.fetchall() == ((1,),)
    except pymysql.err.MySQLError:
        return False


def _both(compat: Compat, send: Callable[[pymysql.Connection], Any],
          same_code: bool = True) -> tuple[Answer, Answer]:
    maria, maria_alive = _ask(compat.maria, compat.db, send)
    assert maria[0] != "broken" and maria_alive, ("the oracle", maria)
    ramp, ramp_alive = _ask(compat.ramp, compat.db, send)
    assert ramp[0] != "broken", ramp
    assert ramp != ("error", 1105), "1105 is for engine faults, not for what a client sends"
    assert ramp_alive, f"the connection is unusable after {ramp}"
    if same_code:
        assert (maria[0], maria[1] if maria[0] == "error" else None) == \
            (ramp[0], ramp[1] if ramp[0] == "error" else None), (maria, ramp)
    return maria, ramp


# --- COM_INIT_DB -------------------------------------------------------------------------------
def _init_db(name: bytes) -> Callable[[pymysql.Connection], Any]:
    def send(conn: pymysql.Connection) -> Any:
        conn._execute_command(COMMAND.COM_INIT_DB, name)
        conn._read_ok_packet()
        return None
    return send


@FUZZ
@given(name=NAME)
def test_init_db_with_generated_names(compat, name):
    """MariaDB answers 1049 Unknown database or 1102 Incorrect database name (or OK for an
    existing one); rampmeter the same code."""
    _both(compat, _init_db(name))


def test_init_db_with_a_huge_name(compat):
    _both(compat, _init_db(b"d" * 70000))


# --- COM_FIELD_LIST ----------------------------------------------------------------------------
def _field_list(table: bytes, wildcard: bytes) -> Callable[[pymysql.Connection], Any]:
    def send(conn: pymysql.Connection) -> Any:
        conn._execute_command(COMMAND.COM_FIELD_LIST, table + b"\0" + wildcard)
        names = []
        while True:
            pkt = conn._read_packet()   # an ERR packet raises
            if pkt.is_eof_packet():
                return tuple(names)
            names.append(pkt.read_length_coded_string())  # catalog
    return send


@pytest.fixture
def fields(compat):
    compat.setup("CREATE TABLE t (a INT, `b\u00e9` VARCHAR(3))")
    return compat


@FUZZ
@given(table=NAME, wildcard=NAME)
def test_field_list_with_generated_names(fields, table, wildcard):
    """1146 for a table that does not exist (1103 / 1064 for names MariaDB refuses); the
    column list when it does."""
    _both(fields, _field_list(table, wildcard), same_code=False)


@pytest.mark.parametrize(("table", "wildcard"), [(b"t", b""), (b"t", b"%"), (b"t", b"b\xc3\xa9"),
                                             (b"t", b"\xff"), (b"t", b"a%"), (b"nope", b"")])
def test_field_list_of_a_real_table(fields, table, wildcard):
    maria, ramp = _both(fields, _field_list(table, wildcard))
    assert maria == ramp


# --- COM_STMT_EXECUTE with a string parameter of any bytes ---------------------------------------
def _execute_string(sql: bytes, value: bytes, kind: int) -> Callable[[pymysql.Connection], Any]:
    def send(conn: pymysql.Connection) -> Any:
        conn._execute_command(COMMAND.COM_STMT_PREPARE, sql)
        head = conn._read_packet()
        head.read_uint8()
        stmt_id, ncols, nparams = head.read_uint32(), head.read_uint16(), head.read_uint16()
        for _ in range(nparams + (1 if nparams else 0) + ncols + (1 if ncols else 0)):
            conn._read_packet()
        payload = struct.pack("<IBI", stmt_id, 0, 1) + b"\x00" * ((nparams + 7) // 8) + b"\x01"
        payload += bytes([kind, 0]) * nparams + _lenenc(value) * nparams
        conn._execute_command(COMMAND.COM_STMT_EXECUTE, payload)
        first = conn._read_packet()
        if first.is_ok_packet():
            return "ok"
        rows = []
        count = first.read_length_encoded_integer()
        for _ in range(count + 1):   # definitions and their EOF
            conn._read_packet()
        while not (pkt := conn._read_packet()).is_eof_packet():
            rows.append(pkt.get_all_data())
        return tuple(rows)
    return send


@FUZZ
@given(value=st.binary(max_size=40))
def test_string_parameter_of_any_bytes(compat, value):
    """MYSQL_TYPE_STRING / VAR_STRING parameters carry bytes in the client's character set,
    valid or not (mysql-connector and mysqlclient send whatever the application gave)."""
    sql = b"SELECT HEX(?), LENGTH(?), ? IS NULL"
    maria, ramp = _both(compat, _execute_string(sql, value, T["VAR_STRING"]))
    assert maria == ramp   # the same row bytes: HEX of exactly the bytes sent


@FUZZ
@given(value=st.binary(max_size=40))
def test_string_parameter_stored_in_a_blob(compat, value):
    compat.setup("CREATE TABLE IF NOT EXISTS b (v BLOB)")
    _both(compat, _execute_string(b"INSERT INTO b VALUES (?)", value, 254))   # MYSQL_TYPE_STRING


# --- huge and deep statements, through COM_QUERY and COM_STMT_PREPARE ----------------------------
def _query(sql: bytes) -> Callable[[pymysql.Connection], Any]:
    def send(conn: pymysql.Connection) -> Any:
        with conn.cursor() as cur:
            cur.execute(sql)
            return cur.fetchall()
    return send


def _prepare(sql: bytes) -> Callable[[pymysql.Connection], Any]:
    def send(conn: pymysql.Connection) -> Any:
        conn._execute_command(COMMAND.COM_STMT_PREPARE, sql)
        head = conn._read_packet()
        head.read_uint8()
        stmt_id, ncols, nparams = head.read_uint32(), head.read_uint16(), head.read_uint16()
        for _ in range(nparams + (1 if nparams else 0) + ncols + (1 if ncols else 0)):
            conn._read_packet()
        conn._execute_command(COMMAND.COM_STMT_CLOSE, struct.pack("<I", stmt_id))
        return "prepared"
    return send


SHAPES = st.sampled_from([
    lambda n: b"SELECT " + b"(" * n + b"1" + b")" * n,
    lambda n: b"SELECT " + b"-" * n + b"1",
    lambda n: b"SELECT " + b"NOT " * n + b"1",
    lambda n: b"SELECT " + b"+".join([b"1"] * n),
    lambda n: b"SELECT " + b"CONCAT(" * n + b"'a'" + b")" * n,
    lambda n: b"SELECT " + b"(SELECT " * n + b"1" + b")" * n,
    lambda n: b"SELECT 1 FROM DUAL WHERE " + b" OR ".join([b"1=1"] * n),
    lambda n: b"SELECT '" + b"x" * (n * 1000) + b"'",
    lambda n: b"SELECT `" + b"c" * n + b"`",
    lambda n: b"SELECT 1 AS `" + b"c" * n + b"`",
    lambda n: b"SELECT " + b"9" * n,
    lambda n: b"SELECT 0x" + b"ab" * n,
    lambda n: b"CREATE TABLE `" + b"t" * n + b"` (a INT)",
    lambda n: b"SELECT * FROM `" + b"t" * n + b"`",
    lambda n: b"SELECT '" + b"'" * n,
    lambda n: b"SELECT " + b"(" * n,
])


@FUZZ
@given(shape=SHAPES, n=st.sampled_from([1, 10, 63, 64, 65, 100, 257, 1000, 5000]))
def test_huge_and_deep_statements(compat, shape, n):
    """MariaDB answers some (with a result) and refuses others (1064 stack overrun / syntax,
    1059 / 1103 / 1166 names too long, 1146 ...); rampmeter must never fault or hang up."""
    sql = shape(n)
    for how in (_query, _prepare):
        _both(compat, how(sql), same_code=False)
