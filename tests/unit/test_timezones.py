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
