"""The order of table grants in SHOW GRANTS: MariaDB walks its column_priv_hash, a mysys HASH,
in the order of the hash's array, so the order of a user's table lines depends on the hash
values of every table grant's key and on the history of inserts and deletes.

Rules:
- TableOrder replays that structure: mysys/hash.c's my_hash_insert / my_hash_delete (linear
  hashing over one array; a delete moves the array's last record into the freed place) with
  MariaDB's key of a table grant, `user NUL db NUL table NUL`, hashed by my_hash_sort_bin
  (utf8mb3_bin: MY_HASH_ADD over the bytes, nr1 = 1, nr2 = 4, the low 32 bits of nr1).
  Checked against MariaDB 10.11 with random grant / revoke sequences over several users.
- A grant that appears is inserted, one that goes is deleted, in the order the statement
  made them (GrantTables.changed calls sync); a renamed grant is a delete and an insert
  (MariaDB's my_hash_update keeps its place in some cases: not reproduced).
- Loading the grants (the server's start, FLUSH PRIVILEGES) inserts them in the order of
  mysql.tables_priv's primary key (Host, Db, User, Table_name, binary), as grant_load reads
  the table by its index.
- Only the order is kept here; the grants themselves are GrantTables.tables. A fresh data
  directory holds MariaDB's built-in grant (mariadb.sys on mysql.global_priv, aclfile.fresh),
  which takes its place in the hash as there.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

_NO_RECORD = 0xFFFFFFFF
_M64 = (1 << 64) - 1
_LOWFIND, _LOWUSED, _HIGHFIND, _HIGHUSED = 1, 2, 4, 8


def hash_key(user: str, db: str, table: str) -> int:
    """my_hash_sort_bin of MariaDB's key of a table grant (module rules)."""
    nr1, nr2 = 1, 4
    for b in f"{user}\0{db}\0{table}\0".encode():
        nr1 = (nr1 ^ ((((nr1 & 63) + nr2) * b) + (nr1 << 8))) & _M64
        nr2 += 3
    return nr1 & 0xFFFFFFFF


def _mask(h: int, buffmax: int, maxlength: int) -> int:
    if (h & (buffmax - 1)) < maxlength:
        return h & (buffmax - 1)
    return h & ((buffmax >> 1) - 1)


class _Link:
    __slots__ = ("next", "hash_nr", "data")

    def __init__(self, next_: int = _NO_RECORD, hash_nr: int = 0, data: Any = None) -> None:
        self.next, self.hash_nr, self.data = next_, hash_nr, data

    def set(self, other: _Link) -> None:
        self.next, self.hash_nr, self.data = other.next, other.hash_nr, other.data


class TableOrder:
    def __init__(self) -> None:
        self._a: list[_Link] = []
        self._blength = 1

    def copy(self) -> TableOrder:
        new = TableOrder()
        new._a = [_Link(x.next, x.hash_nr, x.data) for x in self._a]
        new._blength = self._blength
        return new

    def keys(self) -> list[Any]:
        return [x.data for x in self._a]

    # --- keeping in step with the grants ---------------------------------------------------
    def sync(self, grants: dict[Any, Any]) -> None:
        """Delete the keys that are gone, insert the new ones (in `grants`' order)."""
        present = {x.data for x in self._a}
        for key in [x.data for x in self._a if x.data not in grants]:
            self.delete(key)
        for key, g in grants.items():
            if key not in present:
                self.insert(key, hash_key(g.user, g.db, g.table))

    def load(self, grants: dict[Any, Any]) -> None:
        """Start again from the grants as grant_load reads them (module rules)."""
        self._a = []
        self._blength = 1
        for key, g in sorted(grants.items(), key=lambda kv: tuple(
                s.encode() for s in (kv[1].host, kv[1].db, kv[1].user, kv[1].table))):
            self.insert(key, hash_key(g.user, g.db, g.table))

    # --- mysys/hash.c ----------------------------------------------------------------------
    def _movelink(self, find: int, next_link: int, newlink: int) -> None:
        while True:
            old = self._a[next_link]
            next_link = old.next
            if next_link == find:
                break
        old.next = newlink

    def insert(self, data: Hashable, h: int) -> None:  # noqa: C901 - my_hash_insert, as is
        a = self._a
        records = len(a)
        a.append(_Link())
        empty = records
        flag = 0
        halfbuff = self._blength >> 1
        idx = first_index = records - halfbuff
        gpos = gpos2 = 0
        rec: tuple[Any, int] = (None, 0)
        rec2: tuple[Any, int] = (None, 0)
        if idx != records:
            while True:
                pos = idx
                p = a[pos]
                if flag == 0 and _mask(p.hash_nr, self._blength, records) != first_index:
                    break
                if not p.hash_nr & halfbuff:  # the key stays
                    if not flag & _LOWFIND:
                        if flag & _HIGHFIND:
                            flag = _LOWFIND | _HIGHFIND
                            gpos, rec, empty = empty, (p.data, p.hash_nr), pos
                        else:
                            flag = _LOWFIND | _LOWUSED
                            gpos, rec = pos, (p.data, p.hash_nr)
                    else:
                        if not flag & _LOWUSED:
                            g = a[gpos]
                            g.data, g.hash_nr, g.next = rec[0], rec[1], pos
                            flag = (flag & _HIGHFIND) | _LOWFIND | _LOWUSED
                        gpos, rec = pos, (p.data, p.hash_nr)
                else:  # the key moves
                    if not flag & _HIGHFIND:
                        flag = (flag & _LOWFIND) | _HIGHFIND
                        gpos2, empty, rec2 = empty, pos, (p.data, p.hash_nr)
                    else:
                        if not flag & _HIGHUSED:
                            g = a[gpos2]
                            g.data, g.hash_nr, g.next = rec2[0], rec2[1], pos
                            flag = (flag & _LOWFIND) | _HIGHFIND | _HIGHUSED
                        gpos2, rec2 = pos, (p.data, p.hash_nr)
                idx = p.next
                if idx == _NO_RECORD:
                    break
            if flag & (_LOWFIND | _LOWUSED) == _LOWFIND:
                g = a[gpos]
                g.data, g.hash_nr, g.next = rec[0], rec[1], _NO_RECORD
            if flag & (_HIGHFIND | _HIGHUSED) == _HIGHFIND:
                g = a[gpos2]
                g.data, g.hash_nr, g.next = rec2[0], rec2[1], _NO_RECORD
        pos = _mask(h, self._blength, records + 1)
        if pos == empty:
            p = a[pos]
            p.data, p.hash_nr, p.next = data, h, _NO_RECORD
        else:
            a[empty].set(a[pos])
            gpos = _mask(a[pos].hash_nr, self._blength, records + 1)
            p = a[pos]
            p.data, p.hash_nr = data, h
            if pos == gpos:
                p.next = empty
            else:
                p.next = _NO_RECORD
                self._movelink(pos, gpos, empty)
        if len(a) == self._blength:
            self._blength += self._blength

    def delete(self, data: Hashable) -> None:  # noqa: C901 - my_hash_delete, as is
        a = self._a
        found = next((x for x in a if x.data == data), None)
        if found is None:
            return
        blength = self._blength
        records = len(a)
        pos = _mask(found.hash_nr, blength, records)
        gpos = -1
        while a[pos].data != data:
            gpos = pos
            pos = a[pos].next
        records -= 1
        if records < self._blength >> 1:
            self._blength >>= 1
        lastpos = records
        empty = empty_index = pos
        if gpos >= 0:
            a[gpos].next = a[pos].next
        elif a[pos].next != _NO_RECORD:
            empty = empty_index = a[pos].next
            a[pos].set(a[empty])
        if empty != lastpos:
            last_hash = a[lastpos].hash_nr
            pos = _mask(last_hash, self._blength, records)
            if pos == empty:
                a[empty].set(a[lastpos])
            else:
                pos_hash = a[pos].hash_nr
                pos3 = _mask(pos_hash, self._blength, records)
                if pos != pos3:
                    a[empty].set(a[pos])
                    a[pos].set(a[lastpos])
                    self._movelink(pos, pos3, empty_index)
                else:
                    pos2 = _mask(last_hash, blength, records + 1)
                    idx = _NO_RECORD
                    if pos2 == _mask(pos_hash, blength, records + 1):
                        if pos2 != records:
                            a[empty].set(a[lastpos])
                            self._movelink(lastpos, pos, empty_index)
                            a.pop()
                            return
                        idx = pos
                    a[empty].set(a[lastpos])
                    self._movelink(idx, empty_index, a[pos].next)
                    a[pos].next = empty_index
        a.pop()


def column_hash_key(name: str) -> int:
    """my_hash_sort_utf8mb3 (utf8mb3_general_ci) of a column name, the key of a table grant's
    hash_columns: trailing spaces dropped, each character's sort weight (ASCII letters upper
    case) added as two bytes, low byte first."""
    nr1, nr2 = 1, 4
    for ch in name.rstrip(" "):
        wc = ord(ch.upper()) if ord(ch) < 128 else ord(ch)
        for b in (wc & 0xFF, (wc >> 8) & 0xFF):
            nr1 = (nr1 ^ ((((nr1 & 63) + nr2) * b) + (nr1 << 8))) & _M64
            nr2 += 3
    return nr1 & 0xFFFFFFFF


def column_order(names: Iterable[str]) -> list[str]:
    """The columns of one table grant in the order SHOW GRANTS walks its hash_columns: the
    hash replayed with the columns inserted in the order they were granted (checked against
    MariaDB 10.11: (col1, col2) shows col2 first). A column revoked earlier would have moved
    others in MariaDB's hash: not reproduced."""
    order = TableOrder()
    for name in names:
        order.insert(name, column_hash_key(name))
    return order.keys()


def in_order(order: TableOrder, grants: dict[Any, Any]) -> Iterable[Any]:
    """The grants in the order SHOW GRANTS walks them."""
    for key in order.keys():
        g = grants.get(key)
        if g is not None:
            yield g
