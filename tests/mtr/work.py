"""Workers: each owns one server and runs its share of the tests one after another.

Rules:
- Tests are handed out from one queue, so a slow test does not hold up the others' workers.
- After a passing test the worker resets its server (drops leftover databases, empties
  `test`) and checks that global variables and accounts are as they were after start (the
  fingerprint) — what mariadb-test-run's check-testcase guards against. After any other
  outcome, or when that check fails, the server is restarted from a fresh data directory: a
  test stopped half-way leaves users, variables, locks or sessions behind, and the next test
  must not pay for it.
- rampmeter runs from a copy of src/ taken when the run starts, so a run measures one state
  of the code even while it is being edited.
- Every server is stopped when the run ends, also on Ctrl-C or an exception.
"""

from __future__ import annotations

import queue
import shutil
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pymysql

from tests.mtr.runner import Outcome, run_test
from tests.mtr.servers import MariaDB, MariaDBTemplate, Rampmeter, Server, make_workdir


class Worker:
    def __init__(self, make: Callable[[Path], Server], root: Path, index: int) -> None:
        self.server = make(root / f"w{index}")
        self.server.workdir.mkdir(parents=True, exist_ok=True)
        self.baseline: tuple[object, ...] = ()

    def start(self) -> None:
        self.server.start()
        self.baseline = self.server.fingerprint()

    def run(self, name: str, timeout: float, keep_going: bool = False) -> Outcome:
        if not self.server.alive():
            self.start()
        outcome = run_test(self.server, name, timeout, keep_going)
        if outcome.status != "pass" or not self._clean():
            if not self.server.alive() and outcome.status != "pass":
                outcome.extra["server"] = "the server died: " + self.server.tail()[-400:]
            self.server.stop()
            self.start()
        return outcome

    def _clean(self) -> bool:
        if not self.server.alive():
            return False
        try:
            self.server.reset()
            return self.server.fingerprint() == self.baseline
        except pymysql.MySQLError:
            return False

    def stop(self) -> None:
        self.server.stop()


def run_all(kind: str, names: list[str], jobs: int, timeout: float,
            echo: bool = True, keep_going: bool = False,
            logs: Path | None = None) -> list[Outcome]:
    """Run `names` on `jobs` servers of `kind`; with `logs`, each server's own log (a
    rampmeter's tracebacks of internal errors, say) is copied there as <kind>-w<N>.log."""
    root = make_workdir(f"rampmeter-mtr-{kind}-")
    try:
        if kind == "mariadb":
            template = MariaDBTemplate(root)
            template.build()
            workers = [Worker(lambda d: MariaDB(d, template), root, i) for i in range(jobs)]
        else:
            # a copy of src/ taken now: edits made while the run goes do not reach it
            source = root / "src"
            shutil.copytree(Path(__file__).resolve().parents[2] / "src", source,
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
            workers = [Worker(lambda d: Rampmeter(d, source=source), root, i)
                       for i in range(jobs)]
        return _drive(workers, names, timeout, kind, echo, keep_going)
    finally:
        if logs is not None:
            logs.mkdir(parents=True, exist_ok=True)
            for worker in sorted(root.glob("w*")):
                with (logs / f"{kind}-{worker.name}.log").open("wb") as out:
                    for part in ("server-history.log", "server.log"):
                        if (worker / part).exists():
                            out.write((worker / part).read_bytes())
        shutil.rmtree(root, ignore_errors=True)


def _drive(workers: list[Worker], names: list[str], timeout: float, kind: str,
           echo: bool, keep_going: bool) -> list[Outcome]:
    todo: queue.Queue[str] = queue.Queue()
    for name in names:
        todo.put(name)
    outcomes: list[Outcome] = []
    lock = threading.Lock()
    failures: list[BaseException] = []

    def loop(worker: Worker) -> None:
        try:
            worker.start()
            while True:
                try:
                    name = todo.get_nowait()
                except queue.Empty:
                    return
                outcome = worker.run(name, timeout, keep_going)
                with lock:
                    outcomes.append(outcome)
                    if echo:
                        _echo(kind, len(outcomes), len(names), outcome)
        except BaseException as exc:  # reported after the other workers finish
            failures.append(exc)
        finally:
            worker.stop()

    threads = [threading.Thread(target=loop, args=(w,), daemon=True) for w in workers]
    for t in threads:
        t.start()
    try:
        for t in threads:
            t.join()
    finally:
        for w in workers:
            w.stop()
    if failures:
        raise failures[0]
    return outcomes


def _echo(kind: str, done: int, total: int, o: Outcome) -> None:
    detail = ""
    if o.status != "pass":
        detail = o.error or f"line {o.line}: expected {o.expected!r}, got {o.actual!r}"
    print(f"[{kind} {done}/{total}] {o.name:40} {o.status:7} {o.seconds:6.1f}s {detail[:160]}",
          file=sys.stderr, flush=True)
