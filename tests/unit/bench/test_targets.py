"""--target specs and URLs."""

from __future__ import annotations

from pathlib import Path

import pytest

from rampmeter.bench import targets
from rampmeter.bench.targets import parse_target, parse_url
from rampmeter.bench.wire import Endpoint

pytestmark = pytest.mark.timeout(30)


def test_rampmeter_spec_with_options() -> None:
    t = parse_target("rampmeter:pool=--thread-handling=pool-of-threads --thread-pool-size=2")
    assert (t.kind, t.name, t.label) == ("rampmeter", "pool", "rampmeter:pool")
    assert t.options == ("--thread-handling=pool-of-threads", "--thread-pool-size=2")


def test_quoted_options_and_defaults() -> None:
    t = parse_target("mariadb='--thread-handling=one-thread-per-connection'")
    assert t.label == "mariadb:mariadb"
    assert t.options == ("--thread-handling=one-thread-per-connection",)
    assert parse_target("rampmeter").options == ()


def test_url_specs() -> None:
    t = parse_target("url:prod=mysql://app:s%40cret@127.0.0.1:3307/bench")
    assert t.label == "url:prod"
    assert parse_url(t.url) == Endpoint("127.0.0.1", 3307, "app", "s@cret", "bench")
    bare = parse_target("mysql://root@localhost")
    assert bare.kind == "url" and bare.label == "url:localhost"
    assert parse_url(bare.url) == Endpoint("localhost", 3306, "root", "", "sbtest")


@pytest.mark.parametrize("bad", ["postgres:x=1", "url:x=http://h/", "rampmeter:a b=",
                                 "url:x=mysql://h:99999/db"])
def test_bad_specs_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):  # noqa: PT011
        parse_target(bad)


FAKE_SERVE = """#!/bin/sh
echo "$@" > "{argv}"
echo "2026-11-22 18:00:00 0 [Note] rampmeter 0.1.0 (pool-of-threads, sqlite): ready for connections." >&2
echo "2026-11-22 18:00:00 0 [Note] Version: '8.0.36-rampmeter'  socket: ''  port: 45678  rampmeter" >&2
exec sleep 60
"""


def test_rampmeter_target_follows_the_serve_contract(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """`python -m rampmeter serve --port=0 ...` is started, its port and version are read from
    the ready lines, and stop() ends it and deletes its data directory (a stand-in process
    plays the server, so this runs whatever state `rampmeter serve` is in)."""
    fake = tmp_path / "python"
    fake.write_text(FAKE_SERVE.format(argv=tmp_path / "argv"))
    fake.chmod(0o755)
    monkeypatch.setattr(targets.sys, "executable", str(fake))
    t = targets.Target(parse_target("rampmeter:pool=--thread-handling=pool-of-threads "
                                    "--thread-pool-size=2"))
    t.start(max_connections=2064)
    try:
        assert t.endpoint == Endpoint("127.0.0.1", 45678)
        assert t.version == "8.0.36-rampmeter"
        argv = (tmp_path / "argv").read_text().split()
        assert argv[:4] == ["-m", "rampmeter", "serve", "--port=0"]
        assert "--bind-address=127.0.0.1" in argv and "--max-connections=2064" in argv
        assert argv[-2:] == ["--thread-handling=pool-of-threads", "--thread-pool-size=2"]
        assert any(a.startswith("--datadir=") for a in argv)
        workdir = t.workdir
        assert workdir is not None and workdir.exists()
        assert t.dead() is None
    finally:
        assert t.stop() == ""
    assert not workdir.exists()


def test_a_server_exiting_before_ready_is_reported(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\necho 'unknown option --bogus' >&2\nexit 2\n")
    fake.chmod(0o755)
    monkeypatch.setattr(targets.sys, "executable", str(fake))
    t = targets.Target(parse_target("rampmeter:x=--bogus"))
    with pytest.raises(targets.TargetError, match="(?s)exited with code 2.*unknown option --bogus"):
        t.start(max_connections=20)
    t.stop()
