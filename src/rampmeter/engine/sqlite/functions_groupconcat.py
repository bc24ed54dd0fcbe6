"""GROUP_CONCAT(... ORDER BY ...), which SQLite 3.40 cannot order (aggregate ORDER BY came in
3.44), as an aggregate of the library (funclib.py).

Rules:
- funcmap.py turns GROUP_CONCAT([DISTINCT] v ORDER BY k1 [DESC], ... [SEPARATOR s]) into
  RM_GROUP_CONCAT_ORDERED(v, s, distinct, k1, desc1, k2, desc2, ...); a GROUP_CONCAT without
  ORDER BY stays SQLite's own.
- Rows whose value is NULL are skipped (the value is already NULL when any of MariaDB's
  several arguments is); no rows left is NULL.
- Keys sort as MariaDB's default collations compare: NULL first, numbers by value, text
  without case or accents (_general_ci), binary strings by bytes; DESC reverses one key.
  Rows with equal keys keep the order they came in. DISTINCT keeps the first of the values
  equal under those rules, in that order.
"""

from __future__ import annotations

import functools
from typing import Any

from rampmeter.engine import types as T
from rampmeter.engine.sqlite.funclib import sqlaggregate
from rampmeter.engine.sqlite.functions_string import _text, fold

INTERNAL_NAME = "RM_GROUP_CONCAT_ORDERED"


def _key(v: Any) -> tuple[int, Any]:
    if v is None:
        return (0, 0)
    if isinstance(v, (int, float)):
        return (1, v)
    if isinstance(v, bytes):
        return (3, v)
    return (2, fold(v.rstrip(" ")))


@sqlaggregate(INTERNAL_NAME, (3, -1), T.longtext())
class GroupConcatOrdered:
    def __init__(self) -> None:
        self.rows: list[tuple[tuple[Any, ...], Any]] = []
        self.separator: Any = ","
        self.distinct = False
        self.desc: tuple[bool, ...] = ()

    def step(self, value: Any, separator: Any, distinct: Any, *keys: Any) -> None:
        self.separator = "," if separator is None else separator
        self.distinct = bool(distinct)
        self.desc = tuple(bool(d) for d in keys[1::2])
        if value is not None:
            self.rows.append((tuple(_key(k) for k in keys[0::2]), value))

    def _compare(self, a: tuple[Any, ...], b: tuple[Any, ...]) -> int:
        for x, y, desc in zip(a[0], b[0], self.desc, strict=False):
            if x == y:
                continue
            try:
                less = x < y
            except TypeError:  # never mixed within a kind; kept safe
                less = str(x) < str(y)
            return (1 if less else -1) if desc else (-1 if less else 1)
        return 0

    def finalize(self) -> Any:
        if not self.rows:
            return None
        rows = sorted(self.rows, key=functools.cmp_to_key(self._compare))
        values = [v for _k, v in rows]
        if self.distinct:
            seen: set[Any] = set()  # equal as the collation compares them
            values = [v for v in values if not (_key(v) in seen or seen.add(_key(v)))]
        if any(isinstance(v, bytes) for v in values) or isinstance(self.separator, bytes):
            sep = self.separator if isinstance(self.separator, bytes) else \
                _text(self.separator).encode("utf-8", "surrogateescape")
            return sep.join(v if isinstance(v, bytes) else
                            _text(v).encode("utf-8", "surrogateescape") for v in values)
        return _text(self.separator).join(_text(v) for v in values)
