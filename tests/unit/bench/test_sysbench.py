"""Reading sysbench 1.0's output, and the command the bench gives it."""

from __future__ import annotations

import pytest

from rampmeter.bench import sysbench
from rampmeter.bench.results import FAILED, StepResult
from rampmeter.bench.wire import Endpoint
from rampmeter.bench.workloads import Settings

pytestmark = pytest.mark.timeout(30)

BLOCK = """\
SQL statistics:
    queries performed:
        read:                            {q}
        write:                           0
        other:                           0
        total:                           {q}
    transactions:                        {t} ({tps} per sec.)
    queries:                             {q} ({qps} per sec.)
    ignored errors:                      {e}      (0.00 per sec.)
    reconnects:                          1      (0.00 per sec.)

General statistics:
    total time:                          4.0028s
    total number of events:              {t}

Latency (ms):
         min:                                    0.02
         avg:                                    0.05
         max:                                    {mx}
         95th percentile:                        0.06
         sum:                                 7980.64
"""

OUTPUT = (
    "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n\nThreads started!\n\n"
    "[ 1s ] thds: 4 tps: 65336.69 qps: 65336.69 (r/w/o: 65336.69/0.00/0.00) "
    "lat (ms,95%): 0.10 err/s: 0.00 reconn/s: 0.00\n"
    "[ 2s ] Checkpoint report:\n"
    + BLOCK.format(q=133411, t=133411, tps="66676.88", qps="66676.88", e=0, mx="4.15")
    + "[ 3s ] thds: 4 tps: 80172.04 qps: 80172.04 (r/w/o: 80172.04/0.00/0.00) "
    "lat (ms,95%): 0.06 err/s: 2.00 reconn/s: 0.00\n"
    "Latency histogram (values are in milliseconds)\n"
    "       value  ------------- distribution ------------- count\n"
    "       0.040 |****************************************  900\n"
    "       0.060 |*****                                     90\n"
    "       2.000 |                                          10\n"
    " \n"
    + BLOCK.format(q=159942, t=159942, tps="79866.99", qps="79866.99", e=3, mx="2.21")
)


def test_interval_lines() -> None:
    iv = sysbench.parse_interval("[ 3s ] thds: 4 tps: 80172.04 qps: 80172.04 (r/w/o: "
                                 "80172.04/0.00/0.00) lat (ms,95%): 0.06 err/s: 2.00 "
                                 "reconn/s: 0.50", warmup_s=2)
    assert iv is not None
    assert (iv.t, iv.warmup, iv.threads, iv.tps, iv.p95_ms, iv.err_s, iv.reconn_s) == \
        (3.0, False, 4, 80172.04, 0.06, 2.0, 0.5)
    first = sysbench.parse_interval(OUTPUT.splitlines()[4], warmup_s=2)
    assert first is not None and first.warmup
    assert sysbench.parse_interval("[ 2s ] Checkpoint report:", 2) is None


def test_the_last_report_is_the_measured_window() -> None:
    s = sysbench.parse_summary(OUTPUT)
    assert s is not None
    assert (s.transactions, s.tps, s.queries, s.errors, s.reconnects, s.max_ms) == \
        (159942, 79866.99, 159942, 3, 1, 2.21)


def test_fill_takes_percentiles_from_the_histogram() -> None:
    r = sysbench.fill(StepResult("mariadb:pool", "mariadb", "oltp_point_select", "sysbench", 4),
                      OUTPUT, duration=2)
    assert r.ok
    assert r.tps == 79866.99 and r.errors == 3
    assert r.latency.count == 1000
    assert r.latency.p50 == pytest.approx(0.04, rel=0.002)
    assert r.latency.p95 == pytest.approx(0.06, rel=0.002)
    assert r.latency.p99 == pytest.approx(0.06, rel=0.002)
    assert r.latency.max == 2.21
    assert "ignored errors" in r.error


def test_a_sysbench_that_could_not_connect_fails_the_step() -> None:
    text = ("sysbench 1.0.20\n\nFATAL: unable to connect to MySQL server on host '127.0.0.1', "
            "port 1, aborting...\nFATAL: error 2003: Can't connect to MySQL server\n")
    r = sysbench.fill(StepResult("url:x", "url", "oltp_point_select", "sysbench", 4), text, 2)
    assert r.status == FAILED
    assert "error 2003" in r.error


def test_command_has_checkpoint_warmup_and_histogram() -> None:
    cmd = sysbench.command("/usr/bin/sysbench", "oltp_read_only",
                           Endpoint("127.0.0.1", 3307, "u", "pw", "db"), Settings(tables=2),
                           threads=64, warmup=2, duration=10, ps_mode="auto")
    assert cmd[:2] == ["/usr/bin/sysbench", "oltp_read_only"]
    assert cmd[-1] == "run"
    for flag in ("--threads=64", "--time=12", "--report-checkpoints=2", "--histogram=on",
                 "--db-ps-mode=auto", "--mysql-port=3307", "--mysql-password=pw",
                 "--mysql-db=db", "--tables=2", "--mysql-ignore-errors=all"):
        assert flag in cmd
    no_warmup = sysbench.command("sb", "oltp_point_select", Endpoint("h", 1), Settings(), 1, 0,
                                 5, "disable")
    assert not any(a.startswith("--report-checkpoints") for a in no_warmup)
    assert not any(a.startswith("--mysql-password") for a in no_warmup)
