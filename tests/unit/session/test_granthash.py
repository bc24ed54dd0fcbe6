"""session/granthash.py: MariaDB's column_priv_hash order, which SHOW GRANTS walks. The
expected orders were read from MariaDB 10.11 (SHOW GRANTS after the same statements)."""

from __future__ import annotations

from rampmeter.session.granthash import TableOrder, hash_key


def _insert(order: TableOrder, *keys: tuple[str, str, str]) -> None:
    for k in keys:
        order.insert(k, hash_key(*k))


def _of(order: TableOrder, user: str) -> list[str]:
    return [k[2] for k in order.keys() if k[0] == user]


def test_two_grants_walk_in_hash_order() -> None:
    order = TableOrder()
    _insert(order, ("mysqltest_1", "test", "t1"), ("mysqltest_1", "test", "t2"))
    assert _of(order, "mysqltest_1") == ["t2", "t1"]  # mtr timezone_grant


def test_inserts_deletes_and_load_as_mariadb() -> None:
    order = TableOrder()
    _insert(order, ("mariadb.sys", "mysql", "global_priv"), ("u1", "test", "t1"),
            ("u1", "test", "t3"), ("u1", "test", "t2"), ("u1", "mysql", "user"))
    assert _of(order, "u1") == ["t3", "t2", "t1", "user"]
    _insert(order, ("u2", "test", "t3"))  # another user's grant moves this one's
    assert _of(order, "u1") == ["t3", "t1", "user", "t2"]

    class G:
        def __init__(self, key: tuple[str, str, str]) -> None:
            self.user, self.db, self.table = key
            self.host = "localhost"
    grants = {k: G(k) for k in order.keys()}
    order.load(grants)  # FLUSH PRIVILEGES: mysql.tables_priv read by its primary key
    assert _of(order, "u1") == ["t1", "user", "t2", "t3"]
    order.delete(("u1", "test", "t2"))
    _insert(order, ("u1", "test", "t4"), ("u1", "test", "t5"))
    order.delete(("u1", "test", "t3"))
    _insert(order, ("u1", "test", "t6"))
    order.delete(("u2", "test", "t3"))
    _insert(order, ("u2", "test", "t2"))
    assert _of(order, "u1") == ["t1", "user", "t4", "t5", "t6"]
    assert _of(order, "u2") == ["t2"]
    copy = order.copy()
    copy.delete(("u1", "test", "t1"))
    assert _of(order, "u1")[0] == "t1"  # a copy is its own


def test_sync_follows_the_grants() -> None:
    class G:
        def __init__(self, table: str) -> None:
            self.user, self.db, self.table, self.host = "u", "d", table, "h"
    order = TableOrder()
    grants = {("u", "h", "d", t): G(t) for t in ("a", "b", "c")}
    order.sync(grants)
    assert sorted(k[3] for k in order.keys()) == ["a", "b", "c"]
    del grants[("u", "h", "d", "b")]
    order.sync(grants)
    assert sorted(k[3] for k in order.keys()) == ["a", "c"]


def test_column_order_is_mariadbs_hash_columns_order():
    """Measured on MariaDB 10.11: GRANT SELECT (col1, col2) shows (`col2`, `col1`), and
    (col1, col2, col3, a) shows (`a`, `col1`, `col3`, `col2`), before and after FLUSH."""
    from rampmeter.session.granthash import column_order
    assert column_order(["col1", "col2"]) == ["col2", "col1"]
    assert column_order(["col1", "col2", "col3", "a"]) == ["a", "col1", "col3", "col2"]
    assert column_order(["a", "col1", "col2", "col3"]) == ["a", "col1", "col3", "col2"]
    assert column_order(["only"]) == ["only"]
