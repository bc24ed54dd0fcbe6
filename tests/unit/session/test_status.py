"""session/status.py: the Feature_window_functions count of a statement's shape."""

from __future__ import annotations

import pytest

from rampmeter.session.status import window_selects


@pytest.mark.parametrize(("shape", "count"), [
    ("select 1", 0),
    ("select a, rank() over (order by a) from t1", 1),
    ("select a, rank() over (order by a), sum(a) over (order by a) from t1", 1),
    ("select t_a.r1, t_b.r2 from (select a, rank() over (order by a) as r1 from t1) t_a, "
     "(select a, row_number() over (order by a) as r2 from t1) t_b", 2),
    ("select 1 union select rank() over () from t", 1),
    ("SELECT a FROM t WHERE a IN (SELECT ROW_NUMBER() OVER w FROM u WINDOW w AS ())", 1),
    ("select overflow from t", 0),
])
def test_window_selects_counts_selects_with_windows(shape: str, count: int) -> None:
    """MariaDB counts one per SELECT that uses window functions (mtr win_i_s)."""
    assert window_selects(shape) == count
