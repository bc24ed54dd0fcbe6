"""config/timezones.py: the names MariaDB accepts for time_zone, and conversions."""

from __future__ import annotations

import datetime as dt

import pytest

from rampmeter.config import timezones
from rampmeter.errors import ServerError


@pytest.mark.parametrize(("given", "shown"), [
    ("+13:00", "+13:00"), ("-12:59", "-12:59"), ("+5:30", "+05:30"), ("+05:3", "+05:03"),
    ("-00:00", "+00:00"), ("SYSTEM", "SYSTEM"), ("system", "SYSTEM"),
    ("Europe/Paris", "Europe/Paris"), ("europe/paris", "Europe/Paris"), ("UTC", "UTC")])
def test_accepted(given: str, shown: str) -> None:
    assert timezones.check(given) == shown


@pytest.mark.parametrize("given", ["+13:01", "-13:00", "+0530", " +01:00", "+1:00:00",
                                   "Nowhere/Land", "", "../etc/passwd", "+05:60"])
def test_refused_with_1298(given: str) -> None:
    with pytest.raises(ServerError) as err:
        timezones.check(given)
    assert err.value.code == 1298


def test_named_zone_follows_daylight_saving() -> None:
    paris = timezones.zone("Europe/Paris")
    assert paris is not None and not paris.is_utc
    assert paris.from_utc(dt.datetime(2024, 1, 15, 12)) == dt.datetime(2024, 1, 15, 13)
    assert paris.from_utc(dt.datetime(2024, 7, 15, 12)) == dt.datetime(2024, 7, 15, 14)
    assert paris.to_utc(dt.datetime(2024, 7, 15, 14, 0, 0, 5)) == \
        dt.datetime(2024, 7, 15, 12, 0, 0, 5)


def test_offsets_and_utc() -> None:
    z = timezones.zone("-07:30")
    assert z is not None
    assert z.to_utc(dt.datetime(2024, 1, 1)) == dt.datetime(2024, 1, 1, 7, 30)
    assert timezones.zone("+00:00").is_utc and timezones.zone("UTC").is_utc


def test_a_time_in_the_spring_gap_is_the_gaps_end() -> None:
    """MariaDB's TIME_to_gmt_sec: a local time the clocks skip is the moment the gap ends,
    its fraction kept (UNIX_TIMESTAMP('2003-03-30 02:30:00') in MET is 1048986000)."""
    met = timezones.zone("MET")
    assert met is not None
    for local in ("2003-03-30 02:00:00", "2003-03-30 02:30:00"):
        moment = dt.datetime.fromisoformat(local)
        assert met.in_gap(moment)
        assert timezones.unix_seconds(met.to_utc(moment)) == 1048986000
    assert met.to_utc(dt.datetime(2003, 3, 30, 2, 59, 59, 500000)) == \
        dt.datetime(2003, 3, 30, 1, 0, 0, 500000)
    assert not met.in_gap(dt.datetime(2003, 3, 30, 1, 59, 59))
    assert timezones.unix_seconds(met.to_utc(dt.datetime(2003, 3, 30, 1, 59, 59))) == \
        1048985999
