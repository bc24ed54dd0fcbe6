"""registry.Arrival: a connection between its accept and its first handle() (no Session yet)
is admitted against max_connections, listed, killable, and replaced by its Session."""

from __future__ import annotations

import pytest

from rampmeter.errors import ServerError
from rampmeter.session.registry import Arrival, Registry


class FakeSession:
    """What the registry reads of a Session."""

    def __init__(self, connection_id: int) -> None:
        self.connection_id = connection_id
        self.kills: list[bool] = []
        self.counters: dict[str, int] = {}

    def kill(self, *, query_only: bool) -> None:
        self.kills.append(query_only)


class Killer:
    def __init__(self, admin: bool) -> None:
        self.admin = admin

    def may_kill_unauthenticated(self) -> bool:
        return self.admin


def test_arrivals_take_slots_and_ids_and_are_refused_beyond_max_connections_plus_one():
    reg = Registry(lambda: 2, lambda: 1)
    arrivals = [reg.arrive("127.0.0.1", extra_port=False) for _ in range(3)]
    assert [a.connection_id for a in arrivals if a] == [1, 2, 3]
    assert reg.arrive("127.0.0.1", extra_port=False) is None
    assert (reg.connected, reg.connections, reg.refused_max_connections) == (3, 4, 1)
    assert reg.arrivals() == arrivals
    first = arrivals[0]
    assert first is not None
    assert (first.user, first.command, first.state, first.database, first.logged_in) == \
        ("", "Connect", "login", None, False)


def test_kill_of_an_arrival_marks_it_and_wakes_its_connection():
    reg = Registry(lambda: 10, lambda: 1)
    arrival = reg.arrive("h", extra_port=False)
    assert arrival is not None
    woken: list[bool] = []
    arrival.on_kill = lambda: woken.append(True)
    reg.kill(arrival.connection_id, query_only=True, killer=None)  # nothing runs yet
    assert (arrival.killed, woken) == (0, [])
    reg.kill(arrival.connection_id, query_only=False, killer=None)
    assert arrival.killed == 3 and woken == [True]  # KillState.CONNECTION


def test_only_an_administrator_may_kill_an_arrival():
    reg = Registry(lambda: 10, lambda: 1)
    arrival = reg.arrive("h", extra_port=False)
    assert arrival is not None
    with pytest.raises(ServerError) as denied:
        reg.kill(arrival.connection_id, query_only=False, killer=Killer(admin=False))  # type: ignore[arg-type]
    assert denied.value.code == 1095 and arrival.killed == 0
    reg.kill(arrival.connection_id, query_only=False, killer=Killer(admin=True))  # type: ignore[arg-type]
    assert arrival.killed == 3
    with pytest.raises(ServerError) as unknown:
        reg.kill(999, query_only=False, killer=None)
    assert unknown.value.code == 1094


def test_the_session_takes_the_arrivals_place_and_a_late_kill_reaches_it():
    reg = Registry(lambda: 10, lambda: 1)
    arrival = reg.arrive("h", extra_port=False)
    assert arrival is not None
    session = FakeSession(arrival.connection_id)
    reg.arrived(arrival, session)  # type: ignore[arg-type]
    assert reg.arrivals() == [] and reg.sessions() == [session]
    arrival.kill(query_only=False)  # a KILL that found the Arrival just before the swap
    assert session.kills == [False] and arrival.killed == 0
    reg.unregister(session)  # type: ignore[arg-type]
    assert reg.sessions() == []


def test_a_connection_closed_before_its_session_leaves_the_list():
    reg = Registry(lambda: 10, lambda: 1)
    arrival = reg.arrive("h", extra_port=True)
    assert isinstance(arrival, Arrival) and arrival.extra_port
    assert reg.connected_extra == 1
    reg.departed(arrival)
    reg.release(extra_port=True)
    assert reg.arrivals() == [] and reg.connected_extra == 0
