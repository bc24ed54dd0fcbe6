"""Compat tests: the same statements through real drivers against MariaDB (the oracle) and
rampmeter, answers compared exactly (issue 8).

Run:      .venv/bin/python -m pytest tests/compat -q
Oracle:   COMPAT_ORACLE_ONLY=1 .venv/bin/python -m pytest tests/compat -q --runxfail
          (every test against MariaDB alone; must pass, it checks the tests themselves)
Needs:    mariadb-server (mariadbd, mariadb-install-db); without it every test here is skipped.

Layout: servers.py (a throw-away mariadbd), drivers.py (one way to run steps through each
driver), rawproto.py (the binary protocol spoken directly), cext.py (mysql-connector's C
extension in a worker process), compare.py (what "the same answer" means), conftest.py
(fixtures, driver parameters, strict xfail markers), test_*.py (one file per item of issue 8).

A difference rampmeter has today is a strict xfail whose reason says what rampmeter answers;
when rampmeter is fixed the test XPASSes, the suite goes red, and the marker is removed.
"""
