"""Character sets over the wire (issue 13, mtr create_utf8): a view keeps the character set and
collation of the connection that created it, and a name longer than 64 characters is 1059
with the name cut as MariaDB's '%-.100T' cuts it."""

from __future__ import annotations

import pymysql
import pytest

pytestmark = pytest.mark.timeout(60)


def test_view_creation_context_and_long_names(server):
    conn = server.connect(charset="utf8mb4")
    with conn.cursor() as cur:
        cur.execute("CREATE DATABASE cs")
        cur.execute("USE cs")
        cur.execute("SET NAMES utf8")
        cur.execute("CREATE VIEW v AS SELECT 1")
        cur.execute("SHOW CREATE VIEW v")
        assert cur.fetchone()[2:] == ("utf8mb3", "utf8mb3_general_ci")
        cur.execute("CREATE TABLE t (a INT)")
        name = "отень_" * 8 + "длинная_строка_66"
        with pytest.raises(pymysql.err.OperationalError) as e:
            cur.execute(f"CREATE TRIGGER {name} BEFORE INSERT ON t FOR EACH ROW SET @a := 1")
        assert e.value.args == (1059, f"Identifier name '{'отень_' * 8}длин...' is too long")
        with pytest.raises(pymysql.err.OperationalError) as e:
            cur.execute(f"DROP TRIGGER {name}")
        assert e.value.args[0] == 1059
