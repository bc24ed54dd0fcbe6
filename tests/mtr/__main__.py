"""`python -m tests.mtr` — run MariaDB's `main` tests against MariaDB and/or rampmeter.

    python -m tests.mtr select              regenerate tests/mtr/list.txt from the rule
    python -m tests.mtr run [options] [NAME ...]
        --server mariadb|rampmeter|both     (default both)
        --jobs N                            workers, each with its own servers (default 2)
        --timeout S                         per test (default 120)
        --out DIR                           results files (default build/mtr)
        --keep-going                        run past failures, count the differing lines
        NAME ...                            a subset (default: the whole list)
    python -m tests.mtr report [--docs]     summary from the results files; --docs rewrites
                                            the generated block of docs/compat.md

Rules:
- Each worker owns one server per kind and runs its tests one after another; workers never
  share a server, so runs are parallel-safe. Between tests the worker drops what the test left
  (report.py's reset) and restarts its server when a test timed out, the server died, or the
  test changed global variables or accounts (as mariadb-test-run's check-testcase would).
- A results file per server (`build/mtr/<server>.json`) is merged into, test by test, so a
  subset run updates those tests only; `report` always reads both files.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from tests.mtr import report, selection
from tests.mtr.work import run_all

DEFAULT_OUT = Path("build/mtr")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mtr")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("select", help="regenerate the list from the rule")
    run = sub.add_parser("run", help="run tests")
    run.add_argument("names", nargs="*")
    run.add_argument("--server", choices=["mariadb", "rampmeter", "both"], default="both")
    run.add_argument("--jobs", type=int, default=2)
    run.add_argument("--timeout", type=float, default=120.0)
    run.add_argument("--out", type=Path, default=DEFAULT_OUT)
    run.add_argument("--quiet", action="store_true", help="print the summary only")
    run.add_argument("--keep-logs", action="store_true",
                     help="copy each server's log to OUT/logs/ (internal errors' tracebacks)")
    run.add_argument("--keep-going", action="store_true",
                     help="run past failures and record how many output lines differ "
                          "(extra.distance): how far each test is from passing")
    rep = sub.add_parser("report", help="summarise the results files")
    rep.add_argument("--out", type=Path, default=DEFAULT_OUT)
    rep.add_argument("--docs", action="store_true", help="rewrite docs/compat.md's block")
    args = parser.parse_args(argv)
    # SIGTERM (timeout(1), CI) unwinds like Ctrl-C, so every server started is stopped
    signal.signal(signal.SIGTERM, signal.default_int_handler)

    if args.command == "select":
        verdicts = selection.judge_all()
        names = selection.selected(verdicts)
        selection.write_list(names)
        print(f"{len(names)} of {len(verdicts)} tests in {selection.LIST_FILE}")
        return 0
    if args.command == "run":
        names = args.names or selection.read_list()
        unknown = [n for n in names if not (selection.MYSQL_TEST_DIR / "main" /
                                            f"{n}.test").exists()]
        if unknown:
            print(f"no such test in main/: {' '.join(unknown)}", file=sys.stderr)
            return 2
        kinds = ["mariadb", "rampmeter"] if args.server == "both" else [args.server]
        for kind in kinds:
            outcomes = run_all(kind, names, jobs=args.jobs, timeout=args.timeout,
                               echo=not args.quiet, keep_going=args.keep_going,
                               logs=args.out / "logs" if args.keep_logs else None)
            report.merge(args.out / f"{kind}.json", kind, outcomes)
        print(report.summary(args.out, names if args.names else None))
        return 0
    print(report.summary(args.out, None))
    if args.docs:
        report.write_docs(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
