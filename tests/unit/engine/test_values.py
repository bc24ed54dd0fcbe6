"""engine/values.py: what MariaDB stores for a value in a typed column, and what it reports when
the value does not fit (measured on MariaDB 10.11.19, default sql_mode)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rampmeter import errors
from rampmeter.engine import values
from rampmeter.engine.types import parse_type
from rampmeter.sql import charsets


def store(decl: str, v: object) -> tuple[object, int | None]:
    stored, problem = values.store(parse_type(decl), v)
    return stored, problem.code if problem is not None else None


def load(decl: str, stored: object) -> object:
    fn = values.load(parse_type(decl))
    return fn(stored) if fn is not None else stored


@pytest.mark.parametrize(("decl", "value", "stored", "code"), [
    ("tinyint", 1000, 127, 1264), ("tinyint", -129, -128, 1264), ("tinyint", "12abc", 12, 1265),
    ("tinyint", "abc", 0, 1366), ("tinyint", 1.5, 2, None), ("tinyint", "1.5", 2, None),
    ("tinyint", -1.5, -2, None), ("int unsigned", -1, 0, 1264),
    ("bigint unsigned", 2**64 - 1, "~18446744073709551615", None),
    ("bigint unsigned", 2**64, "~18446744073709551615", 1264),
    ("bigint", 2**63 - 1, 2**63 - 1, None), ("bigint", 2**63, 2**63 - 1, 1264),
    ("decimal(5,2)", "2.555", "2.56", 1265), ("decimal(5,2)", 1000, "999.99", 1264),
    ("decimal(5,2)", "abc", "0.00", 1366), ("decimal(10,2)", Decimal("2.50"), "2.50", None),
    ("decimal(10,0)", 7, "7", None), ("decimal(5,2) unsigned", -1, "0.00", 1264),
    ("decimal(30,0)", "18446744073709551615", "18446744073709551615", None),
    ("decimal(30,2)", "-12345678901234567.891", "-12345678901234567.89", 1265),
    ("decimal(5,2)", "-0.001", "0.00", 1265),
    ("varchar(3)", "abcd", "abc", 1406), ("varchar(3)", 123456, "123", 1406),
    ("varchar(3)", "ab  ", "ab ", 1265), ("char(3)", "ab ", "ab", None),
    ("varchar(3)", b"\xff", "?", 1366), ("varchar(5)", "é€", "é€", None),
    ("varbinary(2)", "abc", b"ab", 1406), ("binary(4)", b"ab", b"ab\0\0", None),
    ("blob", "é", "é".encode(), None), ("enum('x','y')", "Y", "y", None),
    ("enum('x','y')", "z", "", 1265), ("enum('x','y')", 2, "y", None),
    ("set('a','b','c')", "c,a", "a,c", None), ("set('a','b')", 3, "a,b", None),
    # find_set: trailing spaces of the value go, an item's own do not; '' is a member here,
    # and a member '' never shows; digits are the bit mask
    ("set('','a','b')", "b ,a ", "a", 1265), ("set('','a','b')", "a,", "a", None),
    ("set('','a','b')", " ", "", 1265), ("set('','a','b')", "", "", None),
    ("set('','a','b')", "3", "a", None), ("set('','a','b')", "9", "", 1265),
    ("set('a','b ')", "B ", "b", None),
    ("date", "2020-13-01", "0000-00-00", 1292), ("date", "2020-1-2", "2020-01-02", None),
    ("date", "20200102", "2020-01-02", None), ("date", "0000-00-00", "0000-00-00", None),
    ("date", dt.date(2024, 2, 29), "2024-02-29", None), ("date", "2023-02-29", "0000-00-00", 1292),
    ("datetime(2)", "2020-01-01 10:00:00.125", "2020-01-01 10:00:00.12", None),
    ("datetime", "2020-01-01", "2020-01-01 00:00:00", None),
    ("datetime(6)", dt.datetime(2020, 1, 1, 10, 0, 0, 5), "2020-01-01 10:00:00.000005", None),
    ("time", "25:61:00", "00:00:00", 1292), ("time(3)", "10:00:00.5", "10:00:00.500", None),
    ("time", 8390000, "838:59:59", 1264), ("time(1)", "839:00:00", "838:59:59.9", 1264),
    ("time", -2**63, "-838:59:59", 1264),
    ("time", "-838:59:59", "-838:59:59", None), ("time", dt.timedelta(hours=30), "30:00:00",
                                                None),
    ("year", 1800, 0, 1264), ("year", "69", 2069, None), ("year", 70, 1970, None),
    ("year", 2155, 2155, None), ("bit(3)", 9, 7, 1406), ("bit(3)", b"\x05", 5, None),
    ("json", '{"a": 1}', '{"a": 1}', None), ("json", "{bad", "{bad", 4025),
])
def test_store(decl: str, value: object, stored: object, code: int | None) -> None:
    assert store(decl, value) == (stored, code)


@pytest.mark.parametrize("value", [Decimal("1e200"), "1e200", 1e200, "-1e150"])
def test_a_decimal_beyond_the_context_is_out_of_range(value: object) -> None:
    """More digits than the arithmetic context holds: quantize raised InvalidOperation, an
    internal error that closed the connection; MariaDB stores the type's end with 1264."""
    stored, problem = values.store(parse_type("decimal(10,2)"), value)
    assert problem is not None and problem.code == 1264
    negative = str(value).startswith("-")
    assert load("decimal(10,2)", stored) == Decimal("-99999999.99" if negative else
                                                   "99999999.99")


def test_decimal_rounding_is_only_a_note() -> None:
    _stored, problem = values.store(parse_type("decimal(5,2)"), "2.555")
    assert problem is not None and problem.note


@pytest.mark.parametrize(("decl", "stored", "shown"), [
    ("decimal(10,2)", 2.5, Decimal("2.50")), ("decimal(10,2)", 3, Decimal("3.00")),
    ("decimal(10,2)", 22.49, Decimal("22.49")),
    ("bigint unsigned", "~18446744073709551615", 2**64 - 1),
    ("int(5) unsigned zerofill", 42, "00042"), ("double(10,4)", 1.5, "1.5000"),
    ("float", 3.14159265, 3.14159), ("varbinary(3)", "ab", b"ab"), ("varchar(3)", 12, "12"),
    ("bit(12)", 5, b"\x00\x05"), ("datetime(3)", "2020-01-01 10:00:00", "2020-01-01 10:00:00.000"),
])
def test_load(decl: str, stored: object, shown: object) -> None:
    assert load(decl, stored) == shown


@settings(max_examples=200, deadline=None)
@given(st.decimals(min_value=Decimal("-99999999.99"), max_value=Decimal("99999999.99"),
                   places=2, allow_nan=False, allow_infinity=False))
def test_decimals_up_to_fifteen_digits_round_trip_exactly(d: Decimal) -> None:
    t = parse_type("decimal(10,2)")
    stored, problem = values.store(t, d)
    assert problem is None
    assert load("decimal(10,2)", stored) == d


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**64 - 1))
def test_the_whole_unsigned_range_round_trips(n: int) -> None:
    stored, problem = values.store(parse_type("bigint unsigned"), n)
    assert problem is None
    assert load("bigint unsigned", stored) == n


def test_big_unsigned_text_sorts_after_every_integer_and_in_order() -> None:
    big = [values.big_unsigned(n) for n in (2**63, 2**63 + 7, 10**19, 2**64 - 1)]
    assert sorted(big) == big
    assert all(isinstance(b, str) and b[0] == "~" and len(b) == 21 for b in big)


def test_a_stored_big_unsigned_stores_again_as_its_number() -> None:
    # INSERT ... SELECT / CREATE TABLE ... SELECT of a BIGINT UNSIGNED past 2^63 - 1 (mtr
    # type_uint): its stored form is read as the number, not as text ('~...', 1366)
    big = values.big_unsigned(2**64 - 1)
    stored, problem = values.store(parse_type("bigint unsigned"), big)
    assert (stored, problem) == (big, None)
    assert values.store(parse_type("bigint"), big)[1] is not None  # out of range there


def test_text_from_a_latin1_client_into_a_blob_keeps_its_bytes() -> None:
    latin1 = charsets.charset("latin1")
    assert latin1 is not None
    stored, problem = values.store(parse_type("blob"), "é", latin1)
    assert (stored, problem) == (b"\xe9", None)


def test_messages_are_mariadbs() -> None:
    p = values.Problem(errors.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, "integer", "abc")
    assert values.problem_message(p, "a", 1, ("t1", "s")) == (
        "Incorrect integer value: 'abc' for column `t1`.`s`.`a` at row 1")
    assert values.problem_message(values.Problem(errors.ER_DATA_TOO_LONG), "b", 2) == (
        "Data too long for column 'b' at row 2")
