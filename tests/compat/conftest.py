"""Compat fixtures: one MariaDB (the oracle) and one rampmeter for the compat package, a fresh
database of the same name on each for every test, and the drivers to talk to them.

Rules:
- No mariadbd on the machine: every compat test is skipped (CI installs mariadb-server).
- rampmeter runs in this process on 127.0.0.1:0 (tests/conftest.py start_inprocess).
- The servers are package-scoped, not session-scoped: they stop when the last compat test is
  done, so their threads are gone before other packages' tests (which count threads) run.
- `compat.run(driver, steps)` runs the steps on MariaDB, then on rampmeter, each in the test's
  own database, and returns both answers (compare.Answers); `compat.check(...)` also asserts
  they are the same. `compat.setup(...)` runs preparatory SQL on both and fails loudly if either
  server rejects it.
- COMPAT_ORACLE_ONLY=1 with --runxfail runs every test against MariaDB alone: the check that
  the tests themselves are right (MariaDB is the oracle).
- `drivers(...)` builds the driver parameters of a test, with a strict xfail on the drivers for
  which rampmeter is known to differ: the suite is green today and goes red (XPASS) the day
  rampmeter is fixed, which is the signal to drop the marker.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pymysql
import pytest

from tests.compat import drivers as drv
from tests.compat.cext import Worker
from tests.compat.compare import DEFAULT, Answers
from tests.compat.servers import Endpoint, MariaDB


def drivers(*names: str, xfail: dict[str, str] | None = None,
            xfail_all: str | None = None) -> list[Any]:
    """pytest params for `driver`: the names given (default: every driver), each marked
    xfail(strict) where rampmeter differs (`xfail` per driver, or `xfail_all`)."""
    out = []
    unknown = set(xfail or {}) - set(names or drv.ALL)
    assert not unknown, f"xfail reasons for drivers not in the test: {unknown}"
    for name in names or drv.ALL:
        reason = (xfail or {}).get(name, xfail_all)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(name, id=name, marks=marks))
    return out


def cases(names: Any, xfail: dict[str, str] | None = None) -> list[Any]:
    """pytest params for a case name, each marked xfail(strict) where rampmeter differs."""
    out = []
    for name in names:
        reason = (xfail or {}).get(name)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(name, id=name, marks=marks))
    unknown = set(xfail or {}) - set(names)
    assert not unknown, f"xfail reasons for unknown cases: {unknown}"
    return out


def on_rampmeter(reason: str | None) -> Any:
    """The `target` param list of a test that runs on each server on its own."""
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return [pytest.param("mariadb", id="mariadb"),
            pytest.param("rampmeter", id="rampmeter", marks=marks)]


@pytest.fixture(scope="package")
def mariadb_endpoint() -> Iterator[Endpoint]:
    if not MariaDB.available():
        pytest.skip("mariadbd / mariadb-install-db not installed (apt-get install mariadb-server)")
    server = MariaDB()
    endpoint = server.start()
    try:
        yield endpoint
    finally:
        server.stop()


@pytest.fixture(scope="package")
def rampmeter_endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Endpoint]:
    from tests.conftest import start_inprocess
    datadir = tmp_path_factory.mktemp("compat-rampmeter")
    handle = start_inprocess(datadir)
    try:
        yield Endpoint("rampmeter", handle.host, handle.port)
    finally:
        assert handle.running is not None
        handle.running.stop()


@pytest.fixture(scope="package")
def runner() -> Iterator[drv.Runner]:
    r = drv.Runner(cext=Worker())
    try:
        yield r
    finally:
        r.cext.stop()


def admin(ep: Endpoint, database: str | None = None) -> pymysql.Connection:
    return pymysql.connect(host=ep.host, port=ep.port, user=ep.user, password=ep.password,
                           database=database, autocommit=True, ssl_disabled=True,
                           connect_timeout=10, read_timeout=30)


_COUNTER = itertools.count(1)
# COMPAT_ORACLE_ONLY=1 pytest tests/compat --runxfail: every test against MariaDB alone (its
# answers stand in for rampmeter's), which must pass: it checks the tests, not rampmeter.
ORACLE_ONLY = os.environ.get("COMPAT_ORACLE_ONLY") == "1"


class Compat:
    def __init__(self, maria: Endpoint, ramp: Endpoint, runner: drv.Runner, db: str) -> None:
        self.maria, self.ramp, self.runner, self.db = maria, ramp, runner, db

    def endpoint(self, target: str) -> Endpoint:
        if ORACLE_ONLY and target == "rampmeter":
            pytest.skip("COMPAT_ORACLE_ONLY=1: checking the tests against MariaDB only")
        return {"mariadb": self.maria, "rampmeter": self.ramp}[target]

    def _ensure_driver(self, driver: str) -> None:
        if driver in drv.CEXT and not self.runner.cext.probe():
            pytest.skip(f"mysql-connector C extension unusable: {self.runner.cext.reason}")

    def run_on(self, target: str, driver: str, steps: Sequence[drv.Step | str | bytes],
               connect: dict[str, drv.Options] | None = None) -> list[drv.Outcome]:
        self._ensure_driver(driver)
        return self.runner.run(driver, self.endpoint(target), self.db, drv.steps_of(*steps),
                               connect)

    def run(self, driver: str, steps: Sequence[drv.Step | str | bytes],
            connect: dict[str, drv.Options] | None = None) -> Answers:
        steps = drv.steps_of(*steps)
        maria = self.run_on("mariadb", driver, steps, connect)
        ramp = maria if ORACLE_ONLY else self.run_on("rampmeter", driver, steps, connect)
        return Answers(driver, steps, maria, ramp)

    def check(self, driver: str, steps: Sequence[drv.Step | str | bytes],
              checks: Sequence[str] = DEFAULT,
              connect: dict[str, drv.Options] | None = None) -> Answers:
        answers = self.run(driver, steps, connect)
        for outcome in answers.maria:   # the oracle answered at all
            assert not str(outcome.code).startswith("client:"), outcome.error
        answers.assert_same(checks)
        return answers

    def setup(self, *sql: str, on: Sequence[str] = ("mariadb", "rampmeter")) -> None:
        for target in on:
            if ORACLE_ONLY and target == "rampmeter":
                continue
            conn = admin(self.endpoint(target), self.db)
            try:
                with conn.cursor() as cur:
                    for statement in sql:
                        try:
                            cur.execute(statement)
                        except pymysql.err.Error as exc:
                            raise AssertionError(f"setup on {target}: {statement!r} -> {exc}")\
                                from None
            finally:
                conn.close()


@pytest.fixture
def compat(request: pytest.FixtureRequest, mariadb_endpoint: Endpoint,
           rampmeter_endpoint: Endpoint, runner: drv.Runner) -> Compat:
    name = re.sub(r"[^a-z0-9]+", "_", request.node.name.lower())[:40]
    db = f"c{next(_COUNTER)}_{name}".rstrip("_")
    for ep in (mariadb_endpoint, rampmeter_endpoint):
        conn = admin(ep)
        try:
            with conn.cursor() as cur:
                cur.execute(f"CREATE DATABASE `{db}`")
        finally:
            conn.close()
    runner.cext.recycle()
    return Compat(mariadb_endpoint, rampmeter_endpoint, runner, db)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here) and item.get_closest_marker("timeout") \
                is None:
            item.add_marker(pytest.mark.timeout(30))
