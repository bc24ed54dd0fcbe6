"""ROLLBACK of what a table MariaDB cannot roll back (MyISAM, Aria, MEMORY...) changed:
kept, with warning 1196 (txn.rollback_statement; mtr rollback)."""

from __future__ import annotations

import pytest

from rampmeter.engine.base import UpdateCount
from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows

pytestmark = pytest.mark.timeout(60)

_1196 = (1196, "Some non-transactional changed tables couldn't be rolled back")


def _warned(result: object) -> list[tuple[int, str]]:
    assert isinstance(result, UpdateCount)
    return [(w.code, w.message) for w in result.warnings]


def test_myisam_changes_stay_with_a_warning(session: SqliteSession) -> None:
    session.execute("CREATE TABLE m (n INT NOT NULL PRIMARY KEY) ENGINE=MyISAM")
    session.execute("BEGIN")
    session.execute("INSERT INTO m VALUES (4)")
    session.execute("INSERT INTO m VALUES (5)")
    assert _warned(session.execute("ROLLBACK")) == [_1196]
    assert rows(session.execute("SELECT * FROM m")) == [(4,), (5,)]
    session.execute("BEGIN")
    session.execute("SAVEPOINT s")
    session.execute("DELETE FROM m WHERE n = 4")
    assert _warned(session.execute("ROLLBACK TO SAVEPOINT s")) == [_1196]
    assert _warned(session.execute("COMMIT")) == []
    assert rows(session.execute("SELECT * FROM m")) == [(5,)]


def test_innodb_alone_rolls_back_silently_and_a_mix_rolls_back_with_the_warning(
        session: SqliteSession) -> None:
    session.execute("CREATE TABLE i (n INT) ENGINE=InnoDB")
    session.execute("CREATE TABLE m (n INT) ENGINE=MyISAM")
    session.execute("BEGIN")
    session.execute("INSERT INTO i VALUES (1)")
    assert _warned(session.execute("ROLLBACK")) == []
    session.execute("BEGIN")
    session.execute("INSERT INTO i VALUES (2)")
    session.execute("INSERT INTO m VALUES (2)")
    assert _warned(session.execute("ROLLBACK")) == [_1196]
    assert rows(session.execute("SELECT * FROM i")) == []
    session.execute("BEGIN")
    session.execute("SELECT * FROM m")
    assert _warned(session.execute("ROLLBACK")) == []  # read, not changed
