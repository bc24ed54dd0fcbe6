"""MariaDB's own regression suite (`main`) as the yardstick for rampmeter's SQL (issue 13).

Rooms (each module opens with its rules):

    selection.py  which tests of `main` are in the list, by a mechanical rule (no server
                  options, plugins, replication, restarts, debug builds or files) -> list.txt
    servers.py    the two servers a run talks to: a MariaDB started as mariadb-test-run starts
                  it, and rampmeter in its own datadir, each with a unix socket
    work.py       workers, each owning one server; reset or restart between tests
    runner.py     one test on one server with the `mariadb-test` client: pass / fail / skip,
                  the first differing line, bounded by a timeout
    causes.py     the first difference of a failing test -> a cause group, mechanically
    report.py     summaries, the machine-readable results file, the block in docs/compat.md
    __main__.py   `python -m tests.mtr` (what `make mtr` runs)

This package is test tooling: it imports nothing from src/rampmeter (rampmeter is started as a
process, like MariaDB), so the harness measures the server exactly as a user gets it.
"""
