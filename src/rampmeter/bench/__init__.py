"""`rampmeter bench`: the scalability benchmark, a client of any MySQL server (see cli.py).

Imports nothing heavy at import time: `main` loads the bench only when called."""

from __future__ import annotations


def main(argv: list[str]) -> int:
    """Run `rampmeter bench` with these arguments; return the exit code."""
    from rampmeter.bench.cli import main as bench_main

    return bench_main(argv)
