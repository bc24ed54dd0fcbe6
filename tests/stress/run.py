"""`make stress`: the long runs behind docs/reliability.md's figures (issue 10 item 6).

    python -m tests.stress.run [--quick] [--only fuzz,crash,...] [--json out.json]

Each section starts its own server process (tests/conftest.py start_process, 127.0.0.1 only),
measures through real clients, stops it, and returns a dict of figures; the whole run prints
them as JSON and as the Markdown table docs/reliability.md shows. Latencies are wall-clock on
whatever machine runs this: on a shared machine they move with the neighbours' load, so the
doc quotes them with that caveat. --quick runs every section small (a smoke test of the runner).

Sections: limits (a 1 MB operator chain, a 120 000-item IN list), slow_readers (clients that
never read an 30 MB result), storm (thousands of simultaneous connects), idle (memory and
descriptors per idle connection), passwords (1 000 wrong passwords), fuzz (tests/stress/fuzz.py),
crash (kill -9 rounds of tests/stress/crash.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiomysql
import pymysql

from tests.conftest import ServerHandle, start_process, stop_process
from tests.stress import crash, fuzz

Figures = dict[str, Any]


def _server(tmp: Path, *args: str) -> ServerHandle:
    server = start_process(tmp, *args)
    assert server.process is not None and server.process.stdout is not None
    stdout = server.process.stdout
    threading.Thread(target=lambda: [None for _ in stdout], daemon=True).start()  # drain
    return server


def _stop(server: ServerHandle) -> None:
    assert server.process is not None
    server.process.send_signal(15)
    server.process.wait(60)


def _pid(server: ServerHandle) -> int:
    assert server.process is not None
    return server.process.pid


def _ms(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    values = sorted(values)
    return {"n": len(values), "p50_ms": round(statistics.median(values) * 1000, 2),
            "p99_ms": round(values[min(len(values) - 1, int(len(values) * 0.99))] * 1000, 2),
            "max_ms": round(values[-1] * 1000, 2)}


class _Prober:
    """An established session running SELECT 1 in a loop; its latencies while `active`."""

    def __init__(self, server: ServerHandle) -> None:
        self.conn = server.connect()
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        with self.conn.cursor() as cur:
            while not self._stop.is_set():
                t0 = time.monotonic()
                cur.execute("SELECT 1")
                cur.fetchall()
                self.samples.append(time.monotonic() - t0)
                time.sleep(0.005)

    def __enter__(self) -> _Prober:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(30)
        self.conn.close()


def _baseline(server: ServerHandle, seconds: float = 2.0) -> dict[str, float]:
    with _Prober(server) as p:
        time.sleep(seconds)
    return _ms(p.samples)


# --- sections ---------------------------------------------------------------------------------
def limits(tmp: Path, quick: bool) -> Figures:
    server = _server(tmp)
    out: Figures = {}
    try:
        conn = server.connect(max_allowed_packet=64 << 20)
        cases = {"plus_chain_1mb": "SELECT 1" + "+1" * 500_000,
                 "in_list_120k_strings": "SELECT 's7' IN (" +
                 ",".join(f"'s{i}'" for i in range(120_000)) + ")"}
        with conn.cursor() as cur:
            for name, sql in cases.items():
                rss0 = fuzz.proc_figures(_pid(server))[2]
                t0 = time.monotonic()
                try:
                    cur.execute(sql)
                    answer: Any = cur.fetchall()[0][0]
                except pymysql.MySQLError as e:
                    answer = e.args[0]
                out[name] = {"answer": answer, "seconds": round(time.monotonic() - t0, 3),
                             "rss_growth_mib": round((fuzz.proc_figures(_pid(server))[2] - rss0)
                                                     / 1024, 1)}
        conn.close()
    finally:
        _stop(server)
    return out


def slow_readers(tmp: Path, quick: bool) -> Figures:
    rows, readers = (20_000, 4) if quick else (100_000, 20)
    server = _server(tmp)
    try:
        with server.connect().cursor() as cur:
            cur.execute("CREATE DATABASE s")
            cur.execute("CREATE TABLE s.t (id INT PRIMARY KEY, v VARCHAR(400))")
            for k in range(0, rows, 10_000):
                cur.executemany("INSERT INTO s.t VALUES (%s, %s)",
                                [(i, "x" * 300) for i in range(k, k + 10_000)])
        base = _baseline(server)
        rss0 = fuzz.proc_figures(_pid(server))[2]
        held = []
        with _Prober(server) as p:
            for _ in range(readers):
                conn = server.connect()
                conn._sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                conn._execute_command(3, "SELECT * FROM s.t")  # never read
                held.append(conn)
            time.sleep(3)
            rss1 = fuzz.proc_figures(_pid(server))[2]
        for conn in held:  # the clients vanish: the server must clean up promptly
            conn._rfile.close()
            conn._sock.close()
        t0 = time.monotonic()
        fuzz.settle(server.host, server.port, timeout=60)
        cleanup = time.monotonic() - t0
        return {"result_mib": round(rows * 300 / 2**20, 1), "readers": readers,
                "rss_growth_mib": round((rss1 - rss0) / 1024, 1),
                "others_baseline": base, "others_during": _ms(p.samples),
                "cleanup_seconds": round(cleanup, 2)}
    finally:
        _stop(server)


def storm(tmp: Path, quick: bool) -> Figures:
    n, limit = (500, 100) if quick else (5000, 1000)
    server = _server(tmp, f"--max-connections={limit}", "--connect-timeout=10")
    try:
        base = _baseline(server)
        with _Prober(server) as p:
            t0 = time.monotonic()
            ok, refused, other, waits = asyncio.run(_storm(server, n, 10.0))
            took = time.monotonic() - t0
        return {"connects": n, "max_connections": limit, "sessions": ok, "refused_1040": refused,
                "unanswered": len(other), "examples": other[:3], "seconds": round(took, 1),
                "answer_time": _ms(waits), "established_baseline": base,
                "established_during": _ms(p.samples)}
    finally:
        _stop(server)


async def _storm(server: ServerHandle, n: int, timeout: float
                 ) -> tuple[int, int, list[str], list[float]]:
    ok = refused = 0
    other: list[str] = []
    waits: list[float] = []
    gate = asyncio.Event()

    async def one() -> None:
        nonlocal ok, refused
        await gate.wait()
        t0 = time.monotonic()
        try:
            conn = await asyncio.wait_for(aiomysql.connect(
                host=server.host, port=server.port, user="root", password=""), timeout)
        except pymysql.OperationalError as e:
            waits.append(time.monotonic() - t0)
            if e.args[0] == 1040:
                refused += 1
            else:
                other.append(repr(e))
            return
        except Exception as e:  # noqa: BLE001 - counted as unanswered
            other.append(repr(e))
            return
        waits.append(time.monotonic() - t0)
        ok += 1
        await asyncio.sleep(1.0)  # hold the session a moment, as a real client would
        conn.close()

    tasks = [asyncio.ensure_future(one()) for _ in range(n)]
    await asyncio.sleep(0)
    gate.set()
    await asyncio.gather(*tasks)
    return ok, refused, other, waits


def idle(tmp: Path, quick: bool) -> Figures:
    n = 200 if quick else 2000
    server = _server(tmp, "--max-connections=5000")
    try:
        conns = [server.connect()]
        t0, f0, r0 = fuzz.proc_figures(_pid(server))
        conns += [server.connect() for _ in range(n)]
        time.sleep(1)
        t1, f1, r1 = fuzz.proc_figures(_pid(server))
        for c in conns:
            c.close()
        return {"connections": n, "kib_per_connection": round((r1 - r0) / n, 1),
                "fds_per_connection": round((f1 - f0) / n, 2), "threads": [t0, t1]}
    finally:
        _stop(server)


def passwords(tmp: Path, quick: bool) -> Figures:
    n = 200 if quick else 1000
    server = _server(tmp)
    try:
        with server.connect().cursor() as cur:
            cur.execute("CREATE USER 'app'@'%' IDENTIFIED BY 'right'")
        base = _baseline(server)
        codes: list[int] = []
        lock = threading.Lock()

        def attack(k: int) -> None:
            for i in range(k):
                try:
                    server.connect(user="app", password=f"wrong{i}").close()
                    got = 0
                except pymysql.OperationalError as e:
                    got = e.args[0]
                with lock:
                    codes.append(got)

        with _Prober(server) as p:
            t0 = time.monotonic()
            threads = [threading.Thread(target=attack, args=(n // 4,)) for _ in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            took = time.monotonic() - t0
        server.connect(user="app", password="right").close()
        return {"attempts": len(codes), "denied_1045": codes.count(1045),
                "let_in": codes.count(0), "seconds": round(took, 1),
                "established_baseline": base, "established_during": _ms(p.samples)}
    finally:
        _stop(server)


def fuzzing(tmp: Path, quick: bool) -> Figures:
    server, count = fuzz.start_logged(tmp)
    try:
        f = fuzz.run(server.host, server.port, _pid(server), 5000 if quick else 100_000,
                     log=count)
    finally:
        _stop(server)
    from dataclasses import asdict
    return asdict(f)


def crashing(tmp: Path, quick: bool) -> Figures:
    rounds, commits = (2, 100) if quick else (10, 400)
    totals = {"rounds": rounds, "acked_rows": 0, "acked_transactions": 0, "lost": 0,
              "partial": 0, "corrupt_files": 0}
    for r in range(rounds):
        server = start_process(tmp, "--sqlite-synchronous=FULL")  # the default, not the tests'
        try:
            if r == 0:
                crash.prepare(server)
            acked = crash.run_until_killed(server, commits)
        finally:
            assert server.process is not None
            if server.process.poll() is None:
                server.process.kill()
        totals["corrupt_files"] += len(crash.integrity(tmp))  # PRAGMA integrity_check
        server = start_process(tmp)
        try:
            report = crash.check_after_crash(server, acked)
        finally:
            stop_process(server)
        totals["acked_rows"] += report.acked_rows
        totals["acked_transactions"] += report.acked_txns
        totals["lost"] += len(report.lost)
        totals["partial"] += len(report.partial)
    return totals


SECTIONS: dict[str, Callable[[Path, bool], Figures]] = {
    "limits": limits, "slow_readers": slow_readers, "storm": storm, "idle": idle,
    "passwords": passwords, "fuzz": fuzzing, "crash": crashing}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.stress.run")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", default=",".join(SECTIONS))
    parser.add_argument("--json", default="")
    args = parser.parse_args(argv)
    results: Figures = {}
    for name in args.only.split(","):
        with tempfile.TemporaryDirectory(prefix=f"rampmeter-stress-{name}-") as tmp:
            t0 = time.monotonic()
            results[name] = SECTIONS[name](Path(tmp), args.quick)
            results[name]["section_seconds"] = round(time.monotonic() - t0, 1)
        print(f"{name}: {json.dumps(results[name])}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
