"""Bulk inserts as applications make them: pandas DataFrame.to_sql of N rows through
SQLAlchemy + a MySQL driver, then read_sql of the table back, against any MySQL server.

    .venv/bin/python scripts/bench_bulk_insert.py --port 3306 [--rows 10000] [--repeat 5]

Prints the best and median seconds of each step over the repeats. Used for docs/benchmarks.md
("Bulk inserts"); it is a client and imports nothing of rampmeter.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import pandas as pd
import sqlalchemy as sa


def frame(rows: int) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    return pd.DataFrame({
        "id": np.arange(rows),
        "qty": rng.integers(0, 1000, rows),
        "price": rng.random(rows) * 100,
        "name": [f"item-{i}" for i in range(rows)],
        "made": pd.date_range("2024-01-01", periods=rows, freq="min"),
    })


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=3306)
    ap.add_argument("--user", default="root")
    ap.add_argument("--driver", default="mysqldb", choices=["mysqldb", "pymysql"])
    ap.add_argument("--rows", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    base = f"mysql+{args.driver}://{args.user}@{args.host}:{args.port}"
    with sa.create_engine(base).connect() as conn:
        conn.execute(sa.text("CREATE DATABASE IF NOT EXISTS bench_bulk"))
    engine = sa.create_engine(base + "/bench_bulk")
    df = frame(args.rows)
    writes, reads = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        df.to_sql("items", engine, if_exists="replace", index=False)
        writes.append(time.perf_counter() - start)
        start = time.perf_counter()
        back = pd.read_sql("SELECT * FROM items", engine)
        reads.append(time.perf_counter() - start)
        assert len(back) == args.rows
    for name, times in (("to_sql", writes), ("read_sql", reads)):
        print(f"{name:9s} {args.rows} rows: best {min(times):.3f} s  "
              f"median {statistics.median(times):.3f} s")


if __name__ == "__main__":
    main()
