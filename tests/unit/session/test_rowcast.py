"""rowcast: which assigned expressions are whole rows, and the type names 4078 shows
(MariaDB 10.11's, measured)."""

from __future__ import annotations

import pytest

from rampmeter.errors import ServerError
from rampmeter.session.sp import rowcast

pytestmark = pytest.mark.timeout(10)


@pytest.mark.parametrize("text", ["ROW(1, 2)", "row (1,2)", "(1, 2)", "(SELECT * FROM t1)",
                                  "( select a, b from t )", "((1), (2))"])
def test_whole_rows(text):
    assert rowcast.is_row(text)


@pytest.mark.parametrize("text", ["1", "(1)", "(1, 2) + 1", "ROW(1, 2) = ROW(1, 2)",
                                  "f(1, 2)", "(a + (SELECT 1, 2))", "'(1, 2)'"])
def test_not_whole_rows(text):
    assert not rowcast.is_row(text)


@pytest.mark.parametrize(("declared", "name"), [
    ("INT", "int"), ("int(11) unsigned", "int unsigned"), ("BIGINT UNSIGNED", "bigint unsigned"),
    ("decimal(10,2)", "decimal"), ("VARCHAR(10) CHARACTER SET latin1", "varchar"),
    ("BINARY(2)", "char"), ("varbinary(3)", "varchar"), ("TEXT", "blob"),
    ("LONGTEXT", "longblob"), ("JSON", "longblob"), ("enum('a','b')", "enum"),
    ("DATETIME(6)", "datetime"), ("double", "double")])
def test_type_names(declared, name):
    assert rowcast.type_name(declared) == name


def test_convert_only_a_whole_rows_1241():
    e = ServerError(1241, message="Operand should contain 1 column(s)", sqlstate="21000")
    got = rowcast.convert(e, "ROW(1,1)", "INT", "`test`.`t1`.`c1`")
    assert (got.code, got.message) == (
        4078, "Cannot cast 'row' as 'int' in assignment of `test`.`t1`.`c1`")
    assert rowcast.convert(e, "ROW(1,1) + 1", "INT", "`a`") is e
    other = ServerError(1054, message="Unknown column 'x' in 'field list'", sqlstate="42S22")
    assert rowcast.convert(other, "ROW(1,1)", "INT", "`a`") is other
