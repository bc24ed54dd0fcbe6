"""Issue 10 item 2, CI's slice of the live fuzzer (tests/stress/fuzz.py; `make fuzz` sends
100 000 packets and more): malformed, truncated and oversized packets at every phase over many
connections; then the server is alive, a normal login works, threads, descriptors and memory
are where they were after the warm-up, and there is at most one log line per offending
connection."""

from __future__ import annotations

import pytest

from tests.stress.fuzz import run, start_logged

pytestmark = pytest.mark.timeout(170)


def test_fuzzed_server_survives_without_leaks(tmp_path):
    server, log_lines = start_logged(tmp_path)
    try:
        f = run(server.host, server.port, server.process.pid, packets=5000, warmup=600,
                log=log_lines)
    finally:
        server.process.send_signal(15)
        server.process.wait(30)
    assert f.alive
    assert f.packets >= 5000 and set(f.per_phase) == {"handshake", "auth_switch", "commands",
                                                      "prepared", "change_user"}
    assert f.fds[1] <= f.fds[0] + 2, f
    assert f.threads[1] <= f.threads[0] + 8, f
    assert f.rss_kib[1] <= f.rss_kib[0] + 30 * 1024, f
    assert 0 < f.log_lines <= f.connections, f
    assert f.internal_errors == 0, f
