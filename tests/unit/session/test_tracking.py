"""session/tracking.py and the OK packet's session state information (CLIENT_SESSION_TRACK)."""

from __future__ import annotations

import pytest

from rampmeter.errors import ServerError
from rampmeter.protocol import packets as pk
from rampmeter.protocol.constants import SERVER_CAPABILITIES, Capability
from rampmeter.session.tracking import normalize


def test_ok_packet_carries_the_state_only_to_a_tracking_client() -> None:
    entry = b"\x0aautocommit" + b"\x03OFF"
    state = b"\x00" + bytes((len(entry),)) + entry
    tracked = pk.ok_packet(0, 0, 0x0002, 0, "", SERVER_CAPABILITIES, state=state)
    # header, affected, insert id, status with SESSION_STATE_CHANGED, warnings, empty info,
    # then the state as a length-encoded string (MariaDB's net_send_ok)
    assert tracked == b"\x00\x00\x00" + b"\x02\x40" + b"\x00\x00" + b"\x00" + \
        bytes((len(state),)) + state
    plain = pk.ok_packet(0, 0, 0x0002, 0, "", SERVER_CAPABILITIES & ~Capability.SESSION_TRACK,
                         state=state)
    assert plain == b"\x00\x00\x00\x02\x00\x00\x00"
    assert pk.ok_packet(0, 0, 0x0002, 0, "", SERVER_CAPABILITIES) == plain


@pytest.mark.parametrize(("value", "shown"), [
    ("character_set_connection", "character_set_connection"),
    ("time_zone, autocommit,Autocommit", "autocommit,time_zone"),
    ("*", "*"), ("", ""),
])
def test_tracked_variables_are_kept_sorted_without_repeats(value: str, shown: str) -> None:
    assert normalize(value) == shown


@pytest.mark.parametrize(("value", "code"), [
    (None, 1231), ("a", 1193), ("autocommit,a", 1193), ("*,autocommit", 1193),
    (",autocommit", 1193),
])
def test_tracked_variables_refused(value: str | None, code: int) -> None:
    with pytest.raises(ServerError) as e:
        normalize(value)
    assert e.value.code == code
