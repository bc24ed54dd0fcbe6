"""Issue 8, item 5, with generated input: whatever bytes a client sends in statement text or a
string parameter, the answer is a result or a proper error (never 1105, never a dropped
connection), and the connection stays usable. MariaDB answers each example too, as a check of
the test (it never says 1105).

Hypothesis runs derandomized (the same examples every run, so the strict xfail markers are
stable) and without shrinking (a failing example is reported as found, quickly)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.compat.conftest import drivers
from tests.compat.drivers import Outcome, Step

FUZZ = settings(max_examples=40, deadline=None, derandomize=True, phases=[Phase.generate],
                suppress_health_check=[HealthCheck.function_scoped_fixture])

# fragments a client might send, glued with random bytes
PIECES = st.sampled_from([b"'", b'"', b"\\", b"\x00", b"(", b")", b"`", b"_binary", b"X'",
                          b"0x", b"--", b"/*", b";", b"\xff", b"\xc3", b"\xe9", b"SELECT ",
                          b"@v:=", b" ", b"1"])
TEXT = st.lists(st.one_of(PIECES, st.binary(max_size=6)), max_size=12).map(b"".join)


def answered_properly(outcomes: list[Outcome]) -> bool:
    """No 1105, no lost connection, and the next statement on the connection works."""
    first, after = outcomes
    code = first.code
    if code == 1105 or (isinstance(code, int) and 2000 <= code < 3000):
        return False
    return after.error is None and after.rows == ((1,),)


def client_side(outcome: Outcome) -> bool:
    """The driver could not take the answer apart (e.g. a name or value not valid UTF-8)."""
    return isinstance(outcome.code, str)


def _check(compat, driver: str, steps: list[Step]) -> None:
    a = compat.run(driver, [*steps, Step("SELECT 1")])
    assert answered_properly(a.maria), a.maria   # the oracle: MariaDB copes
    assert answered_properly(a.ramp), (steps[0].sql, steps[0].params, a.ramp[0].error,
                                       a.ramp[1].error)
    # an answer the driver cannot decode is rampmeter's fault when MariaDB's decodes
    assert not client_side(a.ramp[0]) or client_side(a.maria[0]), (steps[0].sql,
                                                                     a.ramp[0].error)


@pytest.mark.parametrize("driver", drivers("pymysql", "raw-bin"))
@FUZZ
@given(data=TEXT)
def test_random_statement_text(compat, driver, data):
    """COM_QUERY (pymysql) and COM_STMT_PREPARE (raw-bin) with random statement bytes."""
    _check(compat, driver, [Step(b"SELECT " + data)])


@pytest.mark.parametrize("driver", drivers("pymysql", "raw-bin"))
@FUZZ
@given(data=TEXT)
def test_random_bytes_inside_a_literal(compat, driver, data):
    _check(compat, driver, [Step(b"SELECT HEX('" + data.replace(b"'", b"''")
                                 .replace(b"\\", b"\\\\") + b"')")])


@pytest.mark.parametrize("driver", drivers("raw-bin"))
@FUZZ
@given(text=st.text(max_size=30))
def test_random_string_parameter(compat, driver, text):
    """COM_STMT_EXECUTE with a random (valid UTF-8) string parameter."""
    _check(compat, driver, [Step("SELECT HEX(%s), CHAR_LENGTH(%s)", (text, text))])
