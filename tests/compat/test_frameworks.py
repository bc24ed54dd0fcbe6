"""pandas, peewee and aiomysql on rampmeter, compared with MariaDB where answers can be
compared; aiomysql's pool of many coroutines also against rampmeter in both thread handling
modes.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from tests.compat.servers import Endpoint
from tests.compat.tools import fresh_database


# --- pandas ---------------------------------------------------------------------------------
def pandas_roundtrip(ep: Endpoint) -> dict[str, Any]:
    pd = pytest.importorskip("pandas")
    np = pytest.importorskip("numpy")
    sa = pytest.importorskip("sqlalchemy")
    db = fresh_database(ep, "pandas_io")
    engine = sa.create_engine(f"mysql+pymysql://{ep.user}@{ep.host}:{ep.port}/{db}"
                              "?charset=utf8mb4")
    n = 500
    df = pd.DataFrame({
        "i": np.arange(n, dtype="int64") - 250,
        "f": np.linspace(-1.5, 1.5, n),
        "s": [f"naïve-{k}" if k % 7 else None for k in range(n)],
        "b": [k % 3 == 0 for k in range(n)],
        "t": pd.date_range("2024-03-30 22:00", periods=n, freq="17min"),
        "nan": [float("nan") if k % 5 == 0 else k / 4 for k in range(n)],
    })
    out: dict[str, Any] = {}
    try:
        out["rows"] = df.to_sql("frame", engine, index=False, chunksize=200)
        df.head(10).to_sql("frame", engine, index=False, if_exists="append", method="multi")
        back = pd.read_sql("SELECT * FROM frame ORDER BY i, t", engine)
        out["dtypes"] = {k: str(v) for k, v in back.dtypes.items()}
        out["data"] = back.astype(object).where(back.notna(), None).to_dict("list")
        agg = pd.read_sql("SELECT b, COUNT(*) AS n, SUM(nan) AS total, MIN(t) AS first "
                          "FROM frame GROUP BY b ORDER BY b", engine)
        out["agg"] = agg.astype(object).to_dict("list")
        out["replace"] = df.tail(3).to_sql("frame", engine, index=False, if_exists="replace")
        out["count"] = pd.read_sql("SELECT COUNT(*) AS c FROM frame", engine)["c"].tolist()
    finally:
        engine.dispose()
    return out


def test_pandas_to_sql_read_sql(mariadb_endpoint: Endpoint,
                                rampmeter_endpoint: Endpoint) -> None:
    maria = pandas_roundtrip(mariadb_endpoint)
    ramp = pandas_roundtrip(rampmeter_endpoint)
    assert len(maria["data"]["i"]) == 510
    for key in maria:
        assert ramp[key] == maria[key], key


# --- peewee ---------------------------------------------------------------------------------
def peewee_app(ep: Endpoint) -> dict[str, Any]:
    pw = pytest.importorskip("peewee")
    db_name = fresh_database(ep, "peewee_app")
    db = pw.MySQLDatabase(db_name, host=ep.host, port=ep.port, user=ep.user,
                          password=ep.password, charset="utf8mb4")

    class BaseModel(pw.Model):
        class Meta:
            database = db

    class Team(BaseModel):
        name = pw.CharField(unique=True)

    class Player(BaseModel):
        team = pw.ForeignKeyField(Team, backref="players", on_delete="CASCADE")
        name = pw.CharField()
        goals = pw.IntegerField(default=0)
        rating = pw.DecimalField(max_digits=5, decimal_places=2, null=True)
        joined = pw.DateTimeField(default=lambda: dt.datetime(2024, 1, 1, 12))

    out: dict[str, Any] = {}
    db.connect()
    try:
        db.create_tables([Team, Player])
        red = Team.create(name="Red")
        blue = Team.create(name="Blue")
        Player.insert_many([{"team": red, "name": f"r{k}", "goals": k, "rating": k / 3}
                            for k in range(20)] +
                           [{"team": blue, "name": f"b{k}", "goals": 2 * k} for k in range(5)]
                           ).execute()
        out["count"] = Player.select().count()
        q = (Team.select(Team.name, pw.fn.COUNT(Player.id).alias("n"),
                         pw.fn.SUM(Player.goals).alias("g"))
             .join(Player).group_by(Team.name).order_by(Team.name))
        out["groups"] = [(t.name, t.n, t.g) for t in q]
        out["top"] = [(p.name, p.team.name, str(p.rating)) for p in
                      Player.select(Player, Team).join(Team)
                      .order_by(Player.goals.desc(), Player.name).limit(3)]
        with db.atomic() as txn:
            Player.update(goals=Player.goals + 100).where(Player.team == blue).execute()
            txn.rollback()
        out["after_rollback"] = Player.select(pw.fn.MAX(Player.goals)).scalar()
        with db.atomic():
            Player.delete().where(Player.goals < 5).execute()
        out["left"] = Player.select().count()
        try:
            Team.create(name="Red")
        except pw.IntegrityError as e:
            out["integrity"] = e.args[0]
        red.delete_instance()
        out["cascade"] = Player.select().count()
        out["tables"] = sorted(db.get_tables())
        out["columns"] = [(c.name, c.data_type, c.null) for c in db.get_columns("player")]
        out["fks"] = [(f.column, f.dest_table, f.dest_column) for f in
                      db.get_foreign_keys("player")]
    finally:
        db.close()
    return out


def test_peewee(mariadb_endpoint: Endpoint, rampmeter_endpoint: Endpoint) -> None:
    maria = peewee_app(mariadb_endpoint)
    ramp = peewee_app(rampmeter_endpoint)
    assert maria["count"] == 25
    for key in maria:
        assert ramp[key] == maria[key], key


# --- aiomysql: a pool of many coroutines ------------------------------------------------------
async def _pool_workout(ep: Endpoint, db: str, tasks: int) -> dict[str, Any]:
    import aiomysql
    pool = await aiomysql.create_pool(host=ep.host, port=ep.port, user=ep.user,
                                      password=ep.password, db=db, minsize=2, maxsize=20,
                                      autocommit=False)
    try:
        async with pool.acquire() as conn, conn.cursor() as cur:
            await cur.execute("CREATE TABLE acc (id INT PRIMARY KEY, bal INT NOT NULL)")
            await cur.executemany("INSERT INTO acc VALUES (%s, %s)",
                                  [(k, 1000) for k in range(10)])
            await conn.commit()

        async def job(k: int) -> int:
            async with pool.acquire() as conn, conn.cursor() as cur:
                src, dst = k % 10, (k * 7 + 3) % 10
                # both rows locked in key order: no deadlock in InnoDB either
                await cur.execute("SELECT id, bal FROM acc WHERE id IN (%s, %s) ORDER BY id "
                                  "FOR UPDATE", (src, dst))
                bal = dict(await cur.fetchall())[src]
                await cur.execute("UPDATE acc SET bal = %s WHERE id = %s", (bal - 1, src))
                await cur.execute("UPDATE acc SET bal = bal + 1 WHERE id = %s", (dst,))
                if k % 13 == 0:
                    await conn.rollback()
                    return 0
                await conn.commit()
                return 1

        done = await asyncio.gather(*(job(k) for k in range(tasks)))
        async with pool.acquire() as conn, conn.cursor() as cur:
            await cur.execute("SELECT SUM(bal), COUNT(*) FROM acc")
            total = await cur.fetchone()
            await conn.commit()
        return {"committed": sum(done), "total": tuple(int(x) for x in total)}
    finally:
        pool.close()
        await pool.wait_closed()


def run_pool(ep: Endpoint, tasks: int = 200) -> dict[str, Any]:
    pytest.importorskip("aiomysql")
    db = fresh_database(ep, "aiopool")
    return asyncio.run(asyncio.wait_for(_pool_workout(ep, db, tasks), 60))


def test_aiomysql_pool_as_mariadb(mariadb_endpoint: Endpoint,
                                  rampmeter_endpoint: Endpoint) -> None:
    maria = run_pool(mariadb_endpoint)
    assert maria == {"committed": 200 - 16, "total": (10000, 10)}
    assert run_pool(rampmeter_endpoint) == maria


@pytest.mark.parametrize("handling", ["pool-of-threads", "one-thread-per-connection"])
def test_frameworks_under_thread_handling(handling: str, tmp_path: Path) -> None:
    """The pool of coroutines, and pandas, on a server of each thread handling mode."""
    from tests.conftest import start_inprocess
    (tmp_path / "data").mkdir()
    handle = start_inprocess(tmp_path / "data", thread_handling=handling, thread_pool_size=2)
    try:
        ep = Endpoint("rampmeter", handle.host, handle.port)
        assert run_pool(ep, tasks=300) == {"committed": 300 - 24, "total": (10000, 10)}
        assert pandas_roundtrip(ep)["count"] == [3]
    finally:
        assert handle.running is not None
        handle.running.stop()
