"""SHOW AUTHORS and SHOW CONTRIBUTORS answer MariaDB's lists (session/credits.py; mtr
contributors compares the whole list with MariaDB's)."""

from __future__ import annotations

import pymysql
import pytest

from tests.conftest import ServerHandle

pytestmark = pytest.mark.timeout(30)


def test_show_authors_and_contributors(server: ServerHandle) -> None:
    conn = server.connect()
    with conn.cursor() as cur:
        cur.execute("SHOW CONTRIBUTORS")
        assert [d[0] for d in cur.description] == ["Name", "Location", "Comment"]
        rows = cur.fetchall()
        assert rows[0] == ("Amazon", "https://www.amazon.com/",
                           "Diamond Sponsor of the MariaDB Foundation")
        assert len(rows) > 30
        cur.execute("SHOW AUTHORS")
        assert cur.fetchone() == ("Michael (Monty) Widenius", "Tusby, Finland",
                                  "Lead developer and main author")
        with pytest.raises(pymysql.err.ProgrammingError) as info:
            cur.execute("SHOW AUTHORS LIKE 'x'")  # MariaDB's grammar takes nothing more
        assert info.value.args[0] == 1064
        assert "near 'LIKE 'x''" in info.value.args[1]
