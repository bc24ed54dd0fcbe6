"""SQLAlchemy 2 on rampmeter, compared with MariaDB: an ORM application with relationships
(one-to-many with cascade, many-to-many), eager and lazy loading, aggregates, a rolled back
session, and reflection of what it created (tables, columns, keys, indexes) through the
Inspector. Both drivers SQLAlchemy's MySQL dialect uses most: PyMySQL and mysqlclient.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from tests.compat.servers import Endpoint
from tests.compat.tools import fresh_database

sa = pytest.importorskip("sqlalchemy")
from sqlalchemy import orm  # noqa: E402


class Base(orm.DeclarativeBase):
    pass


tags = sa.Table("post_tags", Base.metadata,
                sa.Column("post_id", sa.ForeignKey("posts.id", ondelete="CASCADE"),
                          primary_key=True),
                sa.Column("tag_id", sa.ForeignKey("tags.id"), primary_key=True))


class User(Base):
    __tablename__ = "users"
    id: orm.Mapped[int] = orm.mapped_column(primary_key=True)
    name: orm.Mapped[str] = orm.mapped_column(sa.String(50), unique=True)
    balance: orm.Mapped[Decimal] = orm.mapped_column(sa.Numeric(10, 2), default=0)
    avatar: orm.Mapped[bytes | None] = orm.mapped_column(sa.LargeBinary)
    prefs: orm.Mapped[dict[str, Any] | None] = orm.mapped_column(sa.JSON)
    created: orm.Mapped[dt.datetime] = orm.mapped_column(server_default=sa.func.now())
    posts: orm.Mapped[list[Post]] = orm.relationship(back_populates="author",
                                                     cascade="all, delete-orphan",
                                                     order_by="Post.id")


class Post(Base):
    __tablename__ = "posts"
    id: orm.Mapped[int] = orm.mapped_column(primary_key=True)
    author_id: orm.Mapped[int] = orm.mapped_column(sa.ForeignKey("users.id"), index=True)
    title: orm.Mapped[str] = orm.mapped_column(sa.String(200))
    body: orm.Mapped[str] = orm.mapped_column(sa.Text)
    score: orm.Mapped[float] = orm.mapped_column(default=0.0)
    published: orm.Mapped[dt.date | None]
    author: orm.Mapped[User] = orm.relationship(back_populates="posts")
    tags: orm.Mapped[list[Tag]] = orm.relationship(secondary=tags, order_by="Tag.name")
    __table_args__ = (sa.Index("ix_title_score", "title", "score"),)


class Tag(Base):
    __tablename__ = "tags"
    id: orm.Mapped[int] = orm.mapped_column(primary_key=True)
    name: orm.Mapped[str] = orm.mapped_column(sa.String(30), unique=True)


def workout(url: str) -> dict[str, Any]:
    engine = sa.create_engine(url)
    out: dict[str, Any] = {}
    try:
        Base.metadata.create_all(engine)
        with orm.Session(engine) as s:
            red, blue = Tag(name="red"), Tag(name="blue")
            ann = User(name="Ann", balance=Decimal("10.50"), avatar=bytes(range(256)),
                       prefs={"theme": "dark", "n": [1, 2]})
            ann.posts = [Post(title="Hello", body="é" * 300, score=1.5, tags=[red, blue],
                              published=dt.date(2024, 2, 29)),
                         Post(title="Again", body="x", tags=[red])]
            bob = User(name="Bob")
            s.add_all([ann, bob])
            s.commit()
            out["ids"] = [u.id for u in s.scalars(sa.select(User).order_by(User.id))]
        with orm.Session(engine) as s:
            users = s.scalars(sa.select(User).options(orm.selectinload(User.posts)
                                                      .selectinload(Post.tags))
                              .order_by(User.name)).all()
            out["tree"] = [(u.name, str(u.balance), u.prefs, [(p.title, [t.name for t in p.tags])
                                                              for p in u.posts]) for u in users]
            out["avatar"] = users[0].avatar == bytes(range(256))
            out["created_recent"] = abs((users[0].created - dt.datetime.now()).total_seconds()) \
                < 600
            joined = s.execute(sa.select(Post.title, User.name).join(Post.author)
                               .order_by(Post.title)).all()
            out["join"] = [tuple(r) for r in joined]
            counts = s.execute(sa.select(User.name, sa.func.count(Post.id), sa.func.sum(Post.score))
                               .outerjoin(User.posts).group_by(User.name)
                               .order_by(User.name)).all()
            out["counts"] = [(n, c, float(x) if x is not None else None) for n, c, x in counts]
            sub = sa.select(Post.author_id).where(Post.score > 1).scalar_subquery()
            out["subquery"] = s.scalars(sa.select(User.name).where(User.id.in_(sub))).all()
            out["lazy"] = [p.author.name for p in s.scalars(sa.select(Post).order_by(Post.id))]
        with orm.Session(engine) as s:
            ann = s.scalars(sa.select(User).where(User.name == "Ann")).one()
            ann.balance += Decimal("1.25")
            s.add(User(name="Carl"))
            s.flush()
            s.rollback()
            out["after_rollback"] = s.scalars(sa.select(sa.func.count(User.id))).one()
            ann = s.scalars(sa.select(User).where(User.name == "Ann")).one()
            out["balance"] = str(ann.balance)
            s.delete(ann)
            s.commit()
            out["after_delete"] = (s.scalars(sa.select(sa.func.count(Post.id))).one(),
                                   s.execute(sa.select(sa.func.count()).select_from(tags))
                                   .scalar_one())
        with engine.connect() as c:
            try:
                c.execute(sa.insert(Tag).values(name="red"))
            except sa.exc.IntegrityError as e:
                out["integrity"] = e.orig.args[0]
        out["reflection"] = reflect(engine)
    finally:
        engine.dispose()
    return out


def reflect(engine: Any) -> dict[str, Any]:
    insp = sa.inspect(engine)
    out: dict[str, Any] = {"tables": sorted(insp.get_table_names())}
    for table in out["tables"]:
        out[table] = {
            "columns": [(c["name"], str(c["type"]), c["nullable"], c.get("autoincrement"),
                         c.get("default")) for c in insp.get_columns(table)],
            "pk": insp.get_pk_constraint(table)["constrained_columns"],
            "fks": sorted((tuple(f["constrained_columns"]), f["referred_table"],
                           tuple(f["referred_columns"]), f.get("options", {}).get("ondelete"))
                          for f in insp.get_foreign_keys(table)),
            "indexes": sorted((i["name"], tuple(i["column_names"]), bool(i["unique"]))
                              for i in insp.get_indexes(table)),
            "unique": sorted((u["name"], tuple(u["column_names"]))
                             for u in insp.get_unique_constraints(table)),
        }
    meta = sa.MetaData()
    meta.reflect(engine)
    out["reflected"] = sorted(meta.tables)
    return out


@pytest.mark.parametrize("driver", ["pymysql", "mysqldb"])
def test_sqlalchemy_orm_and_reflection(driver: str, mariadb_endpoint: Endpoint,
                                       rampmeter_endpoint: Endpoint) -> None:
    got = {}
    for ep in (mariadb_endpoint, rampmeter_endpoint):
        db = fresh_database(ep, f"sa_{driver}")
        got[ep.name] = workout(f"mysql+{driver}://{ep.user}@{ep.host}:{ep.port}/{db}"
                               "?charset=utf8mb4")
    maria, ramp = got["mariadb"], got["rampmeter"]
    assert maria["created_recent"] and maria["avatar"]
    for key in maria:
        assert ramp[key] == maria[key], key
