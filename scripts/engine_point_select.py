"""The engine's share of a point select, timed in process: 1 000 `SELECT c FROM sbtest1 WHERE
id=N` through SqliteSession.execute (scan, plan from the cache, run, rows), best of 7 rounds.
No server, no pool, no protocol: what the engine layer costs per statement in one tree.

  .venv/bin/python scripts/engine_point_select.py TREE      # TREE: a checkout (src/, tests/)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    tree = sys.argv[1]
    sys.path[:0] = [tree + "/src", tree]
    from tests.unit.engine.conftest import FakeContext, WaitRecorder

    from rampmeter.engine.sqlite import SqliteEngine

    eng = SqliteEngine(Path(tempfile.mkdtemp()) / "data", synchronous="NORMAL")
    s = eng.open_session(FakeContext(1), WaitRecorder())
    s.execute(s.scan("CREATE DATABASE sb"))
    s.use("sb")
    s.execute(s.scan("CREATE TABLE sbtest1 (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL "
                     "DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL "
                     "DEFAULT '', PRIMARY KEY (id), KEY k_1 (k))"))
    for i in range(1, 1001):
        s.execute(s.scan(f"INSERT INTO sbtest1 (k, c, pad) VALUES ({i}, 'c{i}', 'p{i}')"))
    texts = [f"SELECT c FROM sbtest1 WHERE id={i}" for i in range(1, 1001)]
    best = 1e9
    for _ in range(7):
        start = time.perf_counter()
        for text in texts:
            list(s.execute(s.scan(text)).rows)  # type: ignore[union-attr]
        best = min(best, (time.perf_counter() - start) / len(texts) * 1e6)
    print(f"{tree}: {best:.1f} us per point select (engine only, best of 7 x 1000)")


if __name__ == "__main__":
    main()
