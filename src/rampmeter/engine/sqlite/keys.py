"""A table's keys as MariaDB assembles them, for CREATE TABLE and ALTER TABLE alike.

Rules (MariaDB 10.11's mysql_prepare_create_table, measured against 10.11.19):
- Keys are taken in declaration order (for ALTER: the table's keys, then the new ones).
- A FOREIGN KEY brings a *generated* index on its columns, named after the constraint (or the
  FOREIGN KEY's index name), placed right after it. A generated key is redundant when its
  columns are a leading part of another key's (PRIMARY included): it is dropped; of two
  generated keys on the same columns, the earlier one goes. So `FOREIGN KEY (a) ...` next to
  `KEY (a, b)` makes no index of its own, and an explicit key later on the same columns takes
  the generated one's place. A key the user names or renames is no longer generated.
- Unnamed keys are named after their first column, with _2, _3... when that name is taken
  (or is PRIMARY); redundant generated keys take no name. A name given twice is 1061.
- Columns named by a key must exist (1072) and are stored with the table's spelling.
- A key on the same columns as an earlier one of its kind is kept, with Note 1831.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rampmeter import errors
from rampmeter.engine.sqlite import keyinfo
from rampmeter.engine.sqlite.catalog import IndexDef, TableDef
from rampmeter.errors import ServerError, Warning_

PRIMARY = "PRIMARY"


@dataclass(slots=True)
class NewKey:
    """A key about to join a table: `name` None when MariaDB is to name it."""

    name: str | None
    columns: list[str]
    unique: bool = False
    prefixes: list[int | None] = field(default_factory=list)
    desc: list[bool] = field(default_factory=list)
    kind: str = ""          # '' | FULLTEXT | SPATIAL | PRIMARY
    comment: str = ""
    generated: bool = False
    using: str = ""         # USING BTREE | HASH | RTREE (keyinfo.py)
    attributes: tuple[tuple[str, str], ...] = ()  # engine-defined (tableopts.py)


def key_columns(tdef: TableDef, cols: list[str]) -> list[str]:
    """The stored spelling of a key's columns; 1072 when one is missing."""
    out = []
    for c in cols:
        col = tdef.column(c)
        if col is None:
            raise ServerError(1072, message=f"Key column '{c}' doesn't exist in table")
        out.append(col.name)
    return out


def _covers(short: list[str], long: list[str]) -> bool:
    return len(short) <= len(long) and \
        [c.lower() for c in short] == [c.lower() for c in long[:len(short)]]


def _redundant(keys: list[NewKey]) -> set[int]:
    """Indices of the generated keys MariaDB drops (module rules)."""
    dropped: set[int] = set()
    for i, key in enumerate(keys):
        if key.kind in ("FULLTEXT", "SPATIAL"):
            continue
        for j in range(i):
            other = keys[j]
            if j in dropped or other.kind in ("FULLTEXT", "SPATIAL"):
                continue
            if not (key.generated or other.generated):
                continue
            gen, full = (key, other) if key.generated and (
                not other.generated or len(key.columns) <= len(other.columns)) else (other, key)
            if not _covers(gen.columns, full.columns):
                continue
            if not other.generated or key.generated and len(key.columns) < \
                    len(other.columns):
                dropped.add(i)
            else:
                dropped.add(j)
            break
    return dropped


def assemble(tdef: TableDef, keys: list[NewKey]) -> None:
    """Set tdef.primary and tdef.indexes from `keys`, in order (module rules)."""
    for k in keys:
        k.columns = key_columns(tdef, k.columns)
        if len(k.columns) > MAX_KEY_PARTS:
            raise ServerError(errors.ER_TOO_MANY_KEY_PARTS, MAX_KEY_PARTS)
    dropped = _redundant(keys)
    primary: list[str] = []
    indexes: list[IndexDef] = []
    used: set[str] = set()
    for i, k in enumerate(keys):
        if k.kind == PRIMARY:
            if primary:
                raise ServerError(errors.ER_MULTIPLE_PRI_KEY)
            primary = k.columns
            for c in k.columns:
                col = tdef.column(c)
                if col is not None:
                    col.nullable = False
            continue
        if i in dropped:
            continue
        if k.name is not None:
            if len(k.name) > MAX_NAME:
                raise errors.too_long_ident(k.name)
            if k.name.lower() in used:
                raise ServerError(errors.ER_DUP_KEYNAME, k.name)
            name = k.name
        else:
            base, name, n = k.columns[0], k.columns[0], 2
            while name.lower() in used or name.upper() == PRIMARY:
                name = f"{base}_{n}"
                n += 1
        used.add(name.lower())
        indexes.append(IndexDef(name, k.unique, k.columns, list(k.prefixes), list(k.desc),
                                "" if k.kind == PRIMARY else k.kind, k.comment, k.generated,
                                k.using, k.attributes))
    if len(indexes) + bool(primary) > MAX_KEYS:
        raise ServerError(errors.ER_TOO_MANY_KEYS, MAX_KEYS)
    tdef.primary = primary
    tdef.indexes = indexes
    keyinfo.settle(tdef)
    tdef.notes = _duplicates(indexes)


MAX_KEYS = 64  # MariaDB's MAX_INDEXES
MAX_KEY_PARTS = 32  # MariaDB's MAX_REF_PARTS
MAX_NAME = 64  # NAME_CHAR_LEN


def _duplicates(indexes: list[IndexDef]) -> list[Warning_]:
    """Note 1831 for a key that repeats an earlier one (MariaDB warns, and keeps both)."""
    out = []
    for k, idx in enumerate(indexes):
        same = [i for i in indexes[:k] if i.unique == idx.unique and i.kind == idx.kind and
                [c.lower() for c in i.columns] == [c.lower() for c in idx.columns] and
                i.prefixes == idx.prefixes]
        if same:
            out.append(Warning_("Note", 1831, f"Duplicate index `{idx.name}`. This is "
                                "deprecated and will be disallowed in a future release"))
    return out


def existing(tdef: TableDef) -> list[NewKey]:
    """A table's keys as the start of an ALTER's key list."""
    out = [NewKey(PRIMARY, list(tdef.primary), True, kind=PRIMARY)] if tdef.primary else []
    out += [NewKey(i.name, list(i.columns), i.unique, list(i.prefixes), list(i.desc), i.kind,
                   i.comment, i.generated, i.using, i.attributes) for i in tdef.indexes]
    return out


def foreign_index(name: str | None, columns: list[str]) -> NewKey:
    """The generated index a FOREIGN KEY brings (module rules)."""
    return NewKey(name, list(columns), generated=True)
