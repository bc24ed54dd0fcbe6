"""An example engine: in-memory key-value tables in one database, `kv`, served over MySQL.

    rampmeter serve --engine=rampmeter.engine.examples.kv:KvEngine

Every table has two columns, the key (PRIMARY KEY) and a value:
    CREATE TABLE [IF NOT EXISTS] t (k VARCHAR(64) PRIMARY KEY, v TEXT)  -- any two types
    INSERT INTO t [(k, v)] VALUES (...), ...   REPLACE INTO t ...
    SELECT * | k | v [AS x], ... FROM t [WHERE k = value | k IN (values)]
    UPDATE t SET v = value [WHERE ...]         DELETE FROM t [WHERE ...]
    DROP TABLE [IF EXISTS] t
Statements are parsed with sqlglot (Query.parse()); anything else is answered 1235. One lock
guards the tables: sessions run on pool threads concurrently. Data is lost at shutdown.
"""

from __future__ import annotations

import threading
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlglot import exp

from rampmeter import errors
from rampmeter.engine.custom import CustomEngine, CustomSession, Query, ok, rows
from rampmeter.engine.types import SqlType, parse_type
from rampmeter.errors import ServerError

DB = "kv"


class Table:
    def __init__(self, name: str, key: str, value: str, types: tuple[str, str]) -> None:
        self.name, self.names, self.spellings = name, (key, value), types
        self.types: tuple[SqlType, SqlType] = (parse_type(types[0]), parse_type(types[1]))
        self.rows: dict[Any, Any] = {}

    def convert(self, i: int, v: Any, row: int) -> Any:
        """A value as column i stores it; 1048 / 1366 as MariaDB's strict mode answers."""
        t = self.types[i]
        if v is None and i == 0:
            raise ServerError(errors.ER_BAD_NULL_ERROR, self.names[0])
        try:
            if v is None or not (t.is_integer or t.is_float or t.is_decimal):
                return v if v is None else str(v)
            return int(Decimal(str(v)).to_integral_value()) if t.is_integer else \
                float(v) if t.is_float else Decimal(str(v))
        except (ValueError, ArithmeticError, InvalidOperation):
            raise ServerError(errors.ER_TRUNCATED_WRONG_VALUE_FOR_FIELD, "integer" if
                              t.is_integer else t.name, v, DB, self.name, self.names[i],
                              row) from None

    def column(self, name: str, where: str) -> int:
        for i, n in enumerate(self.names):
            if n.lower() == name.lower():
                return i
        raise ServerError(errors.ER_BAD_FIELD_ERROR, name, where)


class KvEngine(CustomEngine):
    name = "kv"

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.store: dict[str, Table] = {}
        self.session_class = KvSession

    def databases(self) -> list[str]:
        return [DB]

    def tables(self, database: str) -> list[str]:
        with self.lock:
            return [t.name for t in self.store.values()] if database.lower() == DB else []

    def columns(self, database: str, table: str) -> list[Any] | None:
        with self.lock:
            t = self.store.get(table.lower()) if database.lower() == DB else None
        return t and [(t.names[0], t.spellings[0], "PRI"), (t.names[1], t.spellings[1])]


class KvSession(CustomSession):
    engine: KvEngine

    def execute(self, query: Query) -> Any:
        tree = query.parse()
        run = {exp.Create: self.create, exp.Drop: self.drop, exp.Insert: self.insert,
               exp.Select: self.select, exp.Update: self.update, exp.Delete: self.delete}
        handler = run.get(type(tree))
        if handler is None:
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, f"{query.kind} in the kv engine")
        with self.engine.lock:
            return handler(tree, query)

    def find(self, node: Any, query: Query) -> Table | None:
        db = node.db or query.database
        if db is None:
            raise ServerError(errors.ER_NO_DB_ERROR)
        return self.engine.store.get(node.name.lower()) if db.lower() == DB else None

    def table(self, node: Any, query: Query) -> Table:
        t = self.find(node, query)
        if t is None:
            raise ServerError(errors.ER_NO_SUCH_TABLE, node.db or query.database, node.name)
        return t

    def create(self, tree: exp.Create, query: Query) -> Any:
        if tree.kind != "TABLE" or not isinstance(tree.this, exp.Schema):
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "CREATE other than CREATE TABLE")
        defs = [e for e in tree.this.expressions if isinstance(e, exp.ColumnDef)]
        keys = {i.name.lower() for p in tree.this.find_all(exp.PrimaryKey) for i in p.expressions}
        keys |= {d.name.lower() for d in defs if d.find(exp.PrimaryKeyColumnConstraint)}
        if len(defs) != 2 or len(keys) != 1 or defs[0].name.lower() not in keys:
            raise ServerError(errors.ER_NOT_SUPPORTED_YET,
                              "kv tables other than (key PRIMARY KEY, value)")
        if self.find(tree.this.this, query) is not None:
            if tree.args.get("exists"):
                return ok()
            raise ServerError(errors.ER_TABLE_EXISTS_ERROR, tree.this.this.name)
        types = (defs[0].args["kind"].sql("mysql"), defs[1].args["kind"].sql("mysql"))
        name = tree.this.this.name
        self.engine.store[name.lower()] = Table(name, defs[0].name, defs[1].name, types)
        return ok()

    def drop(self, tree: exp.Drop, query: Query) -> Any:
        if tree.args.get("kind") != "TABLE":
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "DROP other than DROP TABLE")
        for node in tree.args.get("tables") or tree.expressions:
            if tree.args.get("exists") and self.find(node, query) is None:
                continue
            del self.engine.store[self.table(node, query).name.lower()]
        return ok()

    def insert(self, tree: exp.Insert, query: Query) -> Any:
        target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this
        t = self.table(target, query)
        order = [0, 1]
        if isinstance(tree.this, exp.Schema):
            order = [t.column(c.name, "field list") for c in tree.this.expressions]
        if sorted(order) != [0, 1] or not isinstance(tree.expression, exp.Values):
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "INSERT other than of (key, value)")
        new: dict[Any, Any] = {}
        affected = 0
        for n, row in enumerate(tree.expression.expressions, 1):
            if len(row.expressions) != 2:
                raise ServerError(errors.ER_WRONG_VALUE_COUNT_ON_ROW, n)
            pair = dict(zip(order, (value(e) for e in row.expressions), strict=True))
            k, v = t.convert(0, pair[0], n), t.convert(1, pair[1], n)
            if k in t.rows or k in new:
                if query.kind != "REPLACE":
                    if tree.args.get("ignore"):
                        continue
                    raise ServerError(errors.ER_DUP_ENTRY, k, "PRIMARY")
                affected += 1  # MySQL counts a replaced row twice: deleted, then inserted
            new[k] = v
            affected += 1
        t.rows.update(new)  # all rows or none: a failing row left the table as it was
        return ok(affected)

    def select(self, tree: exp.Select, query: Query) -> Any:
        source = tree.args.get("from") or tree.args.get("from_")
        if source is None or not isinstance(source.this, exp.Table) or tree.args.get("joins"):
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "SELECT other than from one kv table")
        t = self.table(source.this, query)
        picks: list[tuple[str, int]] = []  # (result column name, 0 key / 1 value)
        for item in tree.expressions:
            node = item.this if isinstance(item, exp.Alias) else item
            if isinstance(node, exp.Star):
                picks += [(n, i) for i, n in enumerate(t.names)]
            elif isinstance(node, exp.Column):
                picks.append((item.alias_or_name, t.column(node.name, "field list")))
            else:
                raise ServerError(errors.ER_NOT_SUPPORTED_YET, "expressions in the kv engine")
        data = [(k, t.rows[k]) for k in self.matching(tree, t)]
        return rows([(name, t.spellings[i]) for name, i in picks],
                    [tuple(pair[i] for _, i in picks) for pair in data])

    def update(self, tree: exp.Update, query: Query) -> Any:
        t = self.table(tree.this, query)
        changes = []
        for eq in tree.expressions:
            if t.column(eq.this.name, "field list") != 1:
                raise ServerError(errors.ER_NOT_SUPPORTED_YET, "changing a kv key")
            changes.append(t.convert(1, value(eq.expression), 1))
        keys = self.matching(tree, t)
        changed = [k for k in keys if t.rows[k] != changes[-1]]
        t.rows.update((k, changes[-1]) for k in changed)
        return ok(len(changed), info=f"Rows matched: {len(keys)}  Changed: {len(changed)}  "
                  "Warnings: 0")

    def delete(self, tree: exp.Delete, query: Query) -> Any:
        t = self.table(tree.this, query)
        keys = self.matching(tree, t)
        for k in keys:
            del t.rows[k]
        return ok(len(keys))

    def matching(self, tree: exp.Expression, t: Table) -> list[Any]:
        """Keys the WHERE selects (none: every key), in key order."""
        where = tree.args.get("where")
        if where is None:
            return sorted(t.rows)  # one table's keys all have the key column's type
        cond = where.this
        wanted = [cond.expression] if isinstance(cond, exp.EQ) else \
            cond.expressions if isinstance(cond, exp.In) else None
        if wanted is None or not isinstance(cond.this, exp.Column) or \
                t.column(cond.this.name, "where clause") != 0:
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "WHERE other than key = / IN (...)")
        keys = {t.convert(0, value(e), 1) for e in wanted if value(e) is not None}
        return sorted(k for k in keys if k in t.rows)


def value(node: exp.Expression) -> Any:
    """A literal's value; anything else is more than this engine evaluates."""
    if isinstance(node, exp.Neg):
        v = value(node.this)
        return -v if isinstance(v, (int, Decimal, float)) else None
    if isinstance(node, exp.Null):
        return None
    if isinstance(node, exp.Literal):
        if node.is_string:
            return node.this
        return int(node.this) if node.this.isdigit() else Decimal(node.this)
    raise ServerError(errors.ER_NOT_SUPPORTED_YET, f"{node.sql('mysql')} in the kv engine")
